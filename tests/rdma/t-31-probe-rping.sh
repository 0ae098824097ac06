#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe --rping against the stock rping server (rdma-core): verified
# pings at several sizes; a size above the server's buffer, a native probe
# against rping, and a stalled server fail with their own exit codes.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe
command -v rping >/dev/null || fail "rping (rdmacm-utils) not installed"

# The server's own pid (not a wrapper's), for SIGSTOP below.
# shellcheck disable=SC2016 # expanded by the inner sh
srv sh -c 'echo $$ >"$1"; exec rping -s -P -S 65535 -a "$2" -p 7174' sh \
	"$T/rping-big.pid" "$RDMAD_SRV_ADDR" >"$T/rping-big.log" 2>&1 &
srv rping -s -P -a "$RDMAD_SRV_ADDR" -p 7175 >"$T/rping-small.log" 2>&1 &
wait_listen 7174
wait_listen 7175
big=$(cat "$T/rping-big.pid")

for size in 1 64 4096 65535; do
	out=$T/ping-$size
	cli "$PROBE" -I "$RDMAD_CLI_ADDR" --rping -s "$size" -n 5 -t 10 "$RDMAD_SRV_ADDR" \
		>"$out.out" 2>"$out.err"
	rc=$?
	[ "$rc" = 0 ] || fail "rping size $size: exit $rc: $(cat "$out.err")"
	grep -q 'verification *OK: 5 pings, sink matched source' "$out.out" ||
		fail "rping size $size: report: $(cat "$out.out")"
	grep -q "bytes moved *$((2 * 5 * size)) " "$out.out" ||
		fail "rping size $size: bytes moved: $(grep bytes "$out.out")"
	log "rping size $size: $(grep 'ping latency' "$out.out")"
done
kill -0 "$big" 2>/dev/null || fail "rping server died"

# The default port is rping's.
cli "$PROBE" -I "$RDMAD_CLI_ADDR" --rping -n 2 "$RDMAD_SRV_ADDR" >"$T/default.out" 2>&1 ||
	fail "rping on the default port: $(cat "$T/default.out")"

# rping -s without -S has a 64-byte buffer: its READ of our 4 KiB source
# fails and it drops us.  Must not pass.
cli "$PROBE" -I "$RDMAD_CLI_ADDR" --rping -p 7175 -s 4k -n 2 -t 30 "$RDMAD_SRV_ADDR" \
	>"$T/toobig.out" 2>"$T/toobig.err"
rc=$?
[ "$rc" = 7 ] || fail "size above the server's buffer: exit $rc, want 7: $(cat "$T/toobig.err")"
log "size above rping's buffer: exit 7 ($(cat "$T/toobig.err"))"

# The native protocol against an rping server: not a welcome, exit 8.
cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p 7174 -s 64 -n 1 -t 30 "$RDMAD_SRV_ADDR" \
	>"$T/native.out" 2>"$T/native.err"
rc=$?
[ "$rc" = 8 ] || fail "native probe vs rping: exit $rc, want 8: $(cat "$T/native.err")"
grep -q -- '--rping' "$T/native.err" || fail "native vs rping: no hint: $(cat "$T/native.err")"

# A stalled server (SIGSTOP): the connect step times out (exit 6) after -t.
# The message names the timer that fired (1.000 s, not the default 30 s);
# the wall clock is the machine's (3 s quiet, 19 s in CI's landing run).
kill -STOP "$big" || fail "cannot stop rping ($big)"
start=$(date +%s%N)
cli "$PROBE" -I "$RDMAD_CLI_ADDR" --rping -n 1 -t 1 -v "$RDMAD_SRV_ADDR" >"$T/stall.out" 2>"$T/stall.err"
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
kill -CONT "$big"
[ "$rc" = 6 ] || fail "stalled server: exit $rc, want 6: $(cat "$T/stall.err")"
grep -q 'connect timed out after 1.000 s' "$T/stall.err" ||
	fail "stalled server: message: $(cat "$T/stall.err")"
log "stalled server: exit 6 in ${ms} ms"

# After the stall the server still serves.
cli "$PROBE" -I "$RDMAD_CLI_ADDR" --rping -n 3 -s 1k "$RDMAD_SRV_ADDR" >"$T/after.out" 2>&1 ||
	fail "rping after the stall: $(cat "$T/after.out")"
exit 0
