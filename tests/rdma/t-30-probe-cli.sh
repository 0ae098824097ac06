#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe: a port where nothing listens, an address nobody answers and
# an unroutable address fail fast with their own exit codes; names that
# do not resolve exit 2.  Its usage errors (exit 64), --help and
# --version need no device: the host suite's t-36-probe-cli.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe

# Nothing listens on the port: refused (exit 4), not a timeout (exit 6):
# the exit status and the message say which, at any speed of the guest.
start=$(date +%s%N)
run_rc 4 refused cli "$PROBE" -I "$RDMAD_CLI_ADDR" -v -p 7999 -t 30 "$RDMAD_SRV_ADDR"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
grep -q 'nothing listens on port 7999' "$T/refused.err" ||
	fail "refused: message: $(cat "$T/refused.err")"
log "no listener: exit 4 in ${ms} ms"

# An address on the link that nobody answers: address resolution times
# out after -t (exit 2).  The message does not carry the time, so the
# wall clock judges, at the only bound that is not the machine's: with
# the default (30 s) it could not end sooner than 30 s (-t 1 took 3.5 s
# in a quiet ASan guest, 6 times that is 21 s).
start=$(date +%s%N)
run_rc 2 noanswer cli "$PROBE" -I "$RDMAD_CLI_ADDR" -t 1 10.99.0.77
ms=$(( ($(date +%s%N) - start) / 1000000 ))
grep -q 'address resolution' "$T/noanswer.err" ||
	fail "noanswer: message: $(cat "$T/noanswer.err")"
[ "$ms" -lt 30000 ] || fail "noanswer: took ${ms} ms for -t 1 (the default, 30 s, would take that)"
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
