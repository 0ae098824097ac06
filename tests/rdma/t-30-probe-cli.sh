#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe: bad command lines exit 64 naming the option; a port where
# nothing listens, an address nobody answers and an unroutable address
# fail fast with their own exit codes.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe

# run_rc WANT NAME CMD...: run CMD, check its exit status, keep its output.
run_rc() {
	local want=$1 name=$2 rc
	shift 2
	"$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	[ "$rc" = "$want" ] ||
		fail "$name: exit $rc, want $want; stderr: $(cat "$T/$name.err")"
}

# Usage errors: exit 64, message names the option and the value.
while IFS='|' read -r name want args; do
	# shellcheck disable=SC2086
	run_rc 64 "usage-$name" "$PROBE" $args
	grep -qF -- "$want" "$T/usage-$name.err" ||
		fail "usage-$name: message lacks '$want': $(cat "$T/usage-$name.err")"
	[ -s "$T/usage-$name.out" ] && fail "usage-$name: wrote to stdout"
done <<'CASES'
size0|--size: 0 is out of range 1..1g|-s 0 10.99.0.1
sizebig|--size: 2g is out of range|--size 2g 10.99.0.1
sizejunk|--size: '4kb' is not a size|-s 4kb 10.99.0.1
port|--port: 70000 is out of range 1..65535|-p 70000 10.99.0.1
op|--op: 'copy' is not read, write or both|--op copy 10.99.0.1
iters|--iters: 0 is out of range|-n 0 10.99.0.1
timeout|--timeout: 'soon' is not a duration|-t soon 10.99.0.1
unknown|unknown option '-Z'|-Z 10.99.0.1
nohost|missing HOST|-s 4k
twohosts|unexpected argument 'b'|a b
rpingop|--op cannot be used with --rping|--rping --op read 10.99.0.1
CASES
log "usage errors: exit 64 with the option named"

run_rc 0 help "$PROBE" --help
grep -q '^  *64  usage error' "$T/help.out" || fail "--help lacks exit codes"
run_rc 0 version "$PROBE" --version
grep -q '^rdma-probe ' "$T/version.out" || fail "--version output: $(cat "$T/version.out")"

# Nothing listens on the port: refused (exit 4), long before the deadline.
start=$(date +%s%N)
run_rc 4 refused cli "$PROBE" -I "$RDMAD_CLI_ADDR" -v -p 7999 -t 30 "$RDMAD_SRV_ADDR"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
grep -q 'nothing listens on port 7999' "$T/refused.err" ||
	fail "refused: message: $(cat "$T/refused.err")"
[ "$ms" -lt 15000 ] || fail "refused: took ${ms} ms (deadline 30 s)"
log "no listener: exit 4 in ${ms} ms"

# An address on the link that nobody answers: address resolution times
# out after -t (exit 2).
start=$(date +%s%N)
run_rc 2 noanswer cli "$PROBE" -I "$RDMAD_CLI_ADDR" -t 1 10.99.0.77
ms=$(( ($(date +%s%N) - start) / 1000000 ))
grep -q 'address resolution' "$T/noanswer.err" ||
	fail "noanswer: message: $(cat "$T/noanswer.err")"
[ "$ms" -lt 15000 ] || fail "noanswer: took ${ms} ms for -t 1 (the default is 30 s)"
log "silent address: exit 2 in ${ms} ms"

# No route at all to the address: exit 2 at once.
run_rc 2 noroute cli "$PROBE" -I "$RDMAD_CLI_ADDR" -t 1 192.0.2.1
log "unroutable address: exit 2 ($(cat "$T/noroute.err"))"

# A name that does not resolve: exit 2 without touching RDMA.
run_rc 2 badname "$PROBE" no-such-host.invalid
grep -q "cannot resolve HOST 'no-such-host.invalid'" "$T/badname.err" ||
	fail "badname: message: $(cat "$T/badname.err")"
run_rc 2 badsource "$PROBE" -I no-such-host.invalid "$RDMAD_SRV_ADDR"
grep -q "cannot resolve --source 'no-such-host.invalid'" "$T/badsource.err" ||
	fail "badsource: message: $(cat "$T/badsource.err")"
exit 0
