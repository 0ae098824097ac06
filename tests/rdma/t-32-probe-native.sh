#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe against rdmad (native protocol): READ, WRITE and both at
# 1 B, 4 KiB, 64 KiB and 1 MiB, every byte verified; a request over the
# server's limit is rejected with the server's reason (exit 5); the
# rping-compatible mode works against rdmad too.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe

cat >"$T/rdmad.ini" <<INI
[server]
listen = $RDMAD_SRV_ADDR:7471
max_connections = 8

[limits]
max_buffer_size = 4m

[log]
level = debug
INI
srv "$RDMAD" -c "$T/rdmad.ini" >"$T/rdmad.log" 2>&1 &
rpid=$!
wait_listen 7471

iters=4
for op in read write both; do
	for size in 1 4k 64k 1m; do
		case $size in
		*k) bytes=$(( ${size%k} * 1024 )) ;;
		*m) bytes=$(( ${size%m} * 1048576 )) ;;
		*) bytes=$size ;;
		esac
		kinds=1
		[ "$op" = both ] && kinds=2
		out=$T/$op-$size
		cli "$PROBE" -I "$RDMAD_CLI_ADDR" --op "$op" -s "$size" -n "$iters" -t 20 \
			"$RDMAD_SRV_ADDR" >"$out.out" 2>"$out.err"
		rc=$?
		[ "$rc" = 0 ] ||
			fail "$op $size: exit $rc: $(cat "$out.err")"
		grep -q '^  verification *OK' "$out.out" ||
			fail "$op $size: report: $(cat "$out.out")"
		grep -q "bytes moved *$((kinds * iters * bytes)) " "$out.out" ||
			fail "$op $size: bytes moved: $(grep bytes "$out.out")"
		for k in READ WRITE; do
			want=1
			case $op/$k in read/WRITE|write/READ) want=0 ;; esac
			got=$(grep -c "^  $k latency .*($iters ops)" "$out.out")
			[ "$got" = "$want" ] ||
				fail "$op $size: $k latency lines: $got, want $want"
		done
		log "$op $size: $(grep -h 'latency' "$out.out" | tr -s ' ' | tr '\n' ' ')"
	done
done
kill -0 "$rpid" 2>/dev/null || fail "rdmad is not running any more"
# -I took effect: the server saw the client address as the peer.
n=$(grep -c "peer=$RDMAD_CLI_ADDR:.*open: native" "$T/rdmad.log")
[ "$n" = 12 ] || fail "rdmad logged $n native opens from $RDMAD_CLI_ADDR, want 12"

# Over the server's limit: rejected, with its reason.
cli "$PROBE" -I "$RDMAD_CLI_ADDR" -s 8m -n 1 -t 10 "$RDMAD_SRV_ADDR" >"$T/limit.out" 2>"$T/limit.err"
rc=$?
[ "$rc" = 5 ] || fail "over limit: exit $rc, want 5: $(cat "$T/limit.err")"
grep -q 'rejected by server: ' "$T/limit.err" ||
	fail "over limit: message: $(cat "$T/limit.err")"
log "over limit: $(cat "$T/limit.err")"

# rdmad also speaks rping's protocol.
cli "$PROBE" -I "$RDMAD_CLI_ADDR" --rping -p 7471 -s 4k -n 5 -t 10 "$RDMAD_SRV_ADDR" \
	>"$T/rping.out" 2>"$T/rping.err" ||
	fail "--rping against rdmad: $(cat "$T/rping.err")"
grep -q 'OK: 5 pings' "$T/rping.out" || fail "--rping vs rdmad: $(cat "$T/rping.out")"
kill -0 "$rpid" 2>/dev/null || fail "rdmad is not running any more"
exit 0
