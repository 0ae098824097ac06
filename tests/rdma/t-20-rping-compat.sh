#!/bin/bash
# rdmad serves stock rping clients (rping-compatible protocol): verified
# pings at several sizes, one connection each, against one daemon.
source "$(dirname "$0")/lib.sh"
port=7620
rdmad_up $port "limits.max_buffer_size = 64k" "log.level = debug"

count=10
for size in 64 1000 4096 32768 65535; do
	cli timeout 60 rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" -p $port \
		-C $count -S $size -v -V >"$T/rping-$size.log" 2>&1
	got=$(grep -c '^ping data: rdma-ping-' "$T/rping-$size.log")
	log "size $size: $got of $count pings verified"
	if [ "$got" != $count ] || grep -q 'mismatch' "$T/rping-$size.log"; then
		tail -5 "$T/rping-$size.log" >&2
		tail -20 "$T/rdmad.log" >&2
		fail "rping -S $size: $got of $count pings verified"
	fi
done
kill -0 $rpid 2>/dev/null || fail "rdmad died (log: $T/rdmad.log)"
wait_res_counts $rpid "$base" 20
n=$(grep -c 'close: rping, result ok' "$T/rdmad.log")
[ "$n" = 5 ] || { tail -20 "$T/rdmad.log" >&2; fail "rdmad logged $n clean rping closes, want 5"; }
grep -q "open: rping" "$T/rdmad.log" || fail "no open line in the log"
kill -TERM $rpid
end=$(($(now_ms) + $(wait_secs 5) * 1000))
while kill -0 $rpid 2>/dev/null && [ "$(now_ms)" -lt "$end" ]; do sleep 0.1; done
kill -0 $rpid 2>/dev/null && fail "rdmad still running $(wait_secs 5) s after SIGTERM"
grep -q 'SIGTERM: stopping' "$T/rdmad.log" || fail "rdmad did not log its SIGTERM"
wait
rc=$?
[ $rc = 0 ] || fail "rdmad exited $rc on SIGTERM"
exit 0
