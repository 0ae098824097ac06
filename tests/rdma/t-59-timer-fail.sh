#!/bin/bash
# A deadline that cannot be armed: libevent's event_add() fails for the
# session deadline's timers (an LD_PRELOAD shim, tests/hostile/fail-timer.c).
# rdmad must not let such a session run without a bound: it ends that
# connection at once (logged, result internal-error), stays alive, serves
# a client whose deadlines can be armed, and lets go of every resource.
# Before the fix the session ran to its end with no deadline at all.
source "$(dirname "$0")/lib.sh"
SHIM=$RDMAD_BUILD_DIR/tests/hostile/fail-timer.so
[ -f "$SHIM" ] || fail "fail-timer.so not built ($SHIM)"
need probe
port=7659

rdmad_conf $port "timeouts.session = 7s"
# Sanitizer builds: the shim comes before the sanitizer's runtime.
LD_PRELOAD=$SHIM RDMAD_FAIL_TIMER_MS=7000 \
	ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
	"$RDMAD" -c "$T/rdmad.ini" >"$T/rdmad.log" 2>&1 &
RDMAD_PID=$!
wait_listen $port
rdmad_alive
base=$(rdma_res_counts "$RDMAD_PID")

# A native session waits for the client's DONE under the session deadline.
cli timeout 60 "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -t 10 --op both -s 64k -D 2 \
	"$RDMAD_SRV_ADDR" >"$T/probe.log" 2>&1
rc=$?
[ $rc != 0 ] || fail "the session ran although its deadline could not be armed: $(tail -3 "$T/probe.log")"
wait_log "cannot arm the session deadline; ending the connection" 10
wait_log "close: native, result internal-error (deadline timer could not be armed)" 10
log "probe exit $rc: $(tail -1 "$T/probe.log")"
rdmad_alive

# rping waits under the idle and I/O deadlines: those arm, it is served.
cli timeout 60 rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" -p $port -C 3 -S 1024 -v -V \
	>"$T/rping.log" 2>&1 || fail "rping after the failed session: $(tail -3 "$T/rping.log")"
wait_log "close: rping, result ok" 10
wait_res_counts "$RDMAD_PID" "$base" 20
rdmad_alive
exit 0
