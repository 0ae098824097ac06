#!/bin/bash
# rdmad under valgrind memcheck for a full scenario (rping and native
# clients, one killed, SIGTERM): no errors, no leaks.
source "$(dirname "$0")/lib.sh"
need valgrind probe
# valgrind cannot run a sanitizer build: when the suite runs on one
# (tests/run-tests), RDMAD_PLAIN_BUILD_DIR names the plain build.
RDMAD=${RDMAD_PLAIN_BUILD_DIR:-$RDMAD_BUILD_DIR}/src/daemon/rdmad
grep -q __asan_init "$RDMAD" &&
	fail "$RDMAD is built with ASan, valgrind cannot run it: set RDMAD_PLAIN_BUILD_DIR to a plain build"
port=7627
rdmad_conf $port "limits.max_buffer_size = 64k" "timeouts.accept = 60s" \
	"timeouts.io = 60s" "timeouts.idle = 60s"
srv valgrind --error-exitcode=99 --leak-check=full \
	--show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
	--log-file="$T/valgrind.log" "$RDMAD" -c "$T/rdmad.ini" >"$T/rdmad.log" 2>&1 &
job=$!
wait_listen $port 120
vpid=$(pgrep -P $job | head -1)
[ -n "$vpid" ] || vpid=$job
# A failure below must not leave rdmad running under valgrind.
trap 'kill -TERM $vpid 2>/dev/null; cleanup_jobs' EXIT

cli timeout 120 rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" -p $port \
	-C 5 -S 4096 -v -V >"$T/rping.log" 2>&1
got=$(grep -c '^ping data: rdma-ping-' "$T/rping.log")
[ "$got" = 5 ] || fail "rping under valgrind: $got of 5 pings verified"
cli timeout 120 "$PROBE" -p $port -t 60 --op both -s 16k -n 3 \
	"$RDMAD_SRV_ADDR" >"$T/probe.log" 2>&1 || { cat "$T/probe.log" >&2; fail "probe under valgrind failed"; }
cli "$PROBE" -p $port -t 60 --op both -s 64k -n 100000 "$RDMAD_SRV_ADDR" \
	>"$T/killed.log" 2>&1 &
k=$!
wait_log 'open: native, ops read+write, size 65536' 60
sleep 2
kp=$(pgrep -x -P $k rdma-probe) || kp=$k
kill -KILL $kp
# rdmad under valgrind must log the killed client's close too (the
# second native close) before it is stopped: within 60 s of wall clock,
# well before the session deadline (120 s) would close it anyway.
end=$(($(now_ms) + 60000))
while [ "$(grep -c 'close: native' "$T/rdmad.log")" -lt 2 ] && [ "$(now_ms)" -lt $end ]; do sleep 0.1; done
n=$(grep -c 'close: native' "$T/rdmad.log")
[ "$n" = 2 ] || { tail -5 "$T/rdmad.log" >&2; fail "rdmad logged $n native close lines in 60s, want 2 (the killed client's missing)"; }

kill -TERM $vpid
wait $job
rc=$?
tail -15 "$T/valgrind.log" | sed 's/^/# /' >&2
[ $rc = 0 ] || fail "rdmad under valgrind exited $rc (log: $T/valgrind.log)"
grep -q 'ERROR SUMMARY: 0 errors' "$T/valgrind.log" || fail "valgrind found errors"
exit 0
