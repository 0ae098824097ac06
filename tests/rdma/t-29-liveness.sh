#!/bin/bash
# Liveness of quiet native peers ([timeouts] liveness) and the server's
# ABORT.
#  1. A client whose QP vanishes after the DESC without a disconnect (its
#     host crashed or was cut off: rdmad-hostile vanish) is reaped within
#     liveness + the transport's retry budget, far below the session
#     deadline: result peer-unreachable, counted; no connection left.
#     (A client killed with SIGKILL is no such case on one host: its
#     kernel sends a DREQ as the process dies; t-24 covers it.)
#  2. A healthy session longer than several liveness intervals passes
#     verified, checks running all along; so does one whose process is
#     stopped (SIGSTOP) for several intervals: the checks need no client
#     CPU, only its HCA.
#  3. A session that outlives [timeouts] session is told why: rdma-probe
#     prints the server's ABORT ("session deadline ... passed").
source "$(dirname "$0")/lib.sh"
source "$RDMAD_SOURCE_DIR/tests/hostile/lib-hostile.sh"
http=127.0.0.1:9429
hostile_up 7629 "timeouts.liveness = 1s" "timeouts.session = 120s" \
	"http.listen = $http" "log.level = debug"

unreach='rdmad_sessions_total{proto="native",result="peer-unreachable"}'
checks=rdmad_liveness_checks_total

# 1. A vanished client: reaped by the liveness check.
u0=$(metric "$unreach")
[ "$u0" = 0 ] || fail "peer-unreachable sessions before the case: '$u0'"
opens=$(grep -c 'open: native' "$T/rdmad.log")
hostile_hold vanish
# rdmad accepted it (it may already have reaped it on a loaded guest).
log_has_n 'open: native' $((opens + 1)) 30 "$T/rdmad.log" || fail "the vanished client was never accepted"
wait_log 'result peer-unreachable' 120
grep 'stopped acknowledging' "$T/rdmad.log" | sed 's/^/# /' >&2
grep -m1 'QP: local ACK timeout' "$T/rdmad.log" | sed 's/^/# /' >&2
grep -q 'peer 10.99.0.2:[0-9]* stopped acknowledging: transport retry exceeded on the liveness check; connection reaped after' \
	"$T/rdmad.log" || fail "no clear reap line naming the peer"
# rdmad's own figure (connected N s), not the guest's speed: the session
# deadline would have reaped it at 120 s, the liveness check did before.
reap=$(reaped_after)
[ -n "$reap" ] || fail "the reap line has no 'connected N s'"
log "reaped after ${reap}s connected (liveness 1s, session deadline 120s)"
awk -v r="$reap" 'BEGIN { exit !(r < 120) }' ||
	fail "reaped after ${reap}s connected: the session deadline (120s) did it, not the liveness check"
wait_idle 5
[ "$(metric "$unreach")" = 1 ] ||
	fail "peer-unreachable sessions: '$(metric "$unreach")', want 1"
[ "$(metric "$checks")" -ge 1 ] || fail "no liveness check counted"
kill $hpid 2>/dev/null
wait $hpid 2>/dev/null
check_after vanish

# 2. Healthy long sessions are never reaped.  -D is each kind's time:
#    --op both -D 3 is a 6 s session, 6 liveness intervals.
c0=$(metric "$checks")
cli timeout 60 "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -t 20 \
	--op both -s 64k -D 3 "$RDMAD_SRV_ADDR" >"$T/long.log" 2>&1 ||
	{ cat "$T/long.log" >&2; fail "6 s session failed"; }
grep -q "verification   OK" "$T/long.log" || fail "6 s session not verified"
c1=$(metric "$checks")
log "6 s session verified; liveness checks during it: $((c1 - c0))"
[ $((c1 - c0)) -ge 3 ] || fail "only $((c1 - c0)) liveness checks in a 6 s session"

# Stopped for 4 s (4 intervals) in a session of 2 x 3 s, from the moment
# rdmad opened it (however slowly the probe starts).
opens=$(grep -c 'open: native' "$T/rdmad.log")
cli "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -t 60 --op both -s 64k \
	-D 3 "$RDMAD_SRV_ADDR" >"$T/stopped.log" 2>&1 &
jpid=$!
ppid=$(real_pid $jpid rdma-probe)
for ((i = 0; i < 200; i++)); do
	[ "$(grep -c 'open: native' "$T/rdmad.log")" -gt "$opens" ] && break
	sleep 0.1
done
[ "$(grep -c 'open: native' "$T/rdmad.log")" -gt "$opens" ] ||
	fail "the session to stop did not open: $(tail -3 "$T/stopped.log")"
kill -STOP $ppid
# stopped for 4 s, and at least until rdmad made 3 liveness checks of it
# (a starved guest runs rdmad's 1 s timer late)
end=$(($(now_ms) + 4000)) limit=$(($(now_ms) + $(wait_secs 30) * 1000))
while [ "$(now_ms)" -lt "$end" ] || { [ $(($(metric "$checks") - c1)) -lt 3 ] && [ "$(now_ms)" -lt "$limit" ]; }; do
	sleep 0.2
done
kill -CONT $ppid
wait $jpid || { cat "$T/stopped.log" >&2; fail "session stopped for 4 s failed"; }
grep -q "verification   OK" "$T/stopped.log" || fail "stopped session not verified"
c2=$(metric "$checks")
log "session stopped 4 s (SIGSTOP) verified; liveness checks during it: $((c2 - c1))"
[ $((c2 - c1)) -ge 3 ] || fail "only $((c2 - c1)) liveness checks in the stopped session"
[ "$(metric "$unreach")" = 1 ] || fail "a healthy session counted as peer-unreachable"
grep -c 'close: native, result ok' "$T/rdmad.log" | sed 's/^/# sessions ok: /' >&2

# 3. The server says why it ends a session.
port2=7630
sed -e "s/:$port\$/:$port2/" -e 's/^session = 120s/session = 2s/' \
	-e 's/^listen = 127.0.0.1:9429/listen = off/' "$T/rdmad.ini" >"$T/short.ini"
printf '[timeouts]\nclose = 1s\n' >>"$T/short.ini"
grep -q 'session = 2s' "$T/short.ini" || fail "cannot write short.ini"
rdmad_start "$T/short.ini" "$T/short.log"
cli timeout 60 "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port2 -t 20 \
	--op both -s 64k -D 10 "$RDMAD_SRV_ADDR" >"$T/abort.log" 2>&1
rc=$?
cat "$T/abort.log" | sed 's/^/# /' >&2
grep -q 'server ended the session: session deadline 2 s passed while operations were still running' \
	"$T/abort.log" || fail "probe did not print the server's reason"
[ $rc = 6 ] || fail "probe ended by the session deadline: exit $rc, want 6"
grep -q 'ABORT to the client: session deadline' "$T/short.log" ||
	fail "rdmad did not log its ABORT"
grep 'close: native' "$T/short.log" | sed 's/^/# /' >&2
exit 0
