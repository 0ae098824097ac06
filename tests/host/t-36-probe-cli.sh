#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe's command line: bad command lines exit 64 naming the option
# and write nothing to stdout; --help lists the exit codes; --version
# names the program.  None of it touches RDMA: here, not in the guest
# (the rdma guest's t-30 keeps what needs a device or a wire).
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"
PROBE=$RDMAD_BUILD_DIR/src/probe/rdma-probe
[ -x "$PROBE" ] || fail "rdma-probe not built ($PROBE)"

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
duration0|--duration: 0 is out of range 1ms..1h|-D 0 10.99.0.1
durationbig|--duration: 3600.001 is out of range|-D 3600.001 10.99.0.1
depth0|--depth: 0 is out of range 1..512|-D 1 --depth 0 10.99.0.1
depthbig|--depth: 513 is out of range|--depth 513 10.99.0.1
CASES
log "usage errors: exit 64 with the option named"

run_rc 0 help "$PROBE" --help
grep -q '^  *64  usage error' "$T/help.out" || fail "--help lacks exit codes"
run_rc 0 version "$PROBE" --version
grep -q '^rdma-probe ' "$T/version.out" || fail "--version output: $(cat "$T/version.out")"
exit 0
