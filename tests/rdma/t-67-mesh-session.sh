#!/bin/bash
# Mesh sessions (HELLO flag MESH, docs/protocol.md "Mesh sessions"), the
# server side: rdmad with [timeouts] session = 3s and [limits]
# max_duration = 5s, neither of which may end a mesh session.
#  1. A mesh session held 8 s with a round (WRITE, READ back, compare)
#     every 0.5 s (rdmad-hostile mesh-hold): nothing from the server, no
#     disconnect; liveness checks ran meanwhile; close line result ok.
#  2. rdma-probe --rounds 20 --interval 0.5 (10 s, longer than both):
#     exit 0, every round verified; close line result ok, open line
#     "open: native mesh".
#  3. A mesh client whose QP vanishes without a disconnect (its host
#     crashed: rdmad-hostile mesh-vanish) is reaped by liveness within
#     liveness + 10 s: result peer-unreachable, no connection left.
#  4. rdma-probe --rounds killed with SIGKILL mid-run: on one host its
#     kernel sends the DREQ as the process dies, so rdmad closes it at once
#     (a clean end for a mesh session: the server cannot tell it from a
#     close) within liveness + 10 s; its resources go back.
#  5. A DONE in a mesh session: ABORT reason 4 (protocol), result
#     protocol-error.
#  6. A plain native probe works alongside a mesh session.
source "$(dirname "$0")/lib.sh"
source "$RDMAD_SOURCE_DIR/tests/hostile/lib-hostile.sh"
"$PROBE" --help 2>&1 | grep -q -- '--rounds' ||
	fail "rdma-probe has no --rounds (the mesh client: branch mesh-cli)"
http=127.0.0.1:9467
hostile_up 7667 "timeouts.liveness = 1s" "timeouts.session = 3s" \
	"timeouts.close = 1s" "limits.max_duration = 5s" \
	"http.listen = $http" "log.level = debug"
closes() { grep -c 'close: native' "$T/rdmad.log"; }
# last_close: the newest close line of a native connection
last_close() { grep 'close: native' "$T/rdmad.log" | tail -1; }
# wait_closes N: until rdmad logged N native close lines (a deadline only
# for a hang: a loaded guest is slow, never wrong)
wait_closes() {
	log_has_n 'close: native' "$1" 90 "$T/rdmad.log" ||
		{ tail -20 "$T/rdmad.log" >&2; fail "no close line number $1 within 90 s"; }
}
checks=rdmad_liveness_checks_total
ok_total='rdmad_sessions_total{proto="native",result="ok"}'
unreach='rdmad_sessions_total{proto="native",result="peer-unreachable"}'

# 1. Held past the session deadline and max_duration, rounds verified.
c0=$(metric "$checks")
n0=$(closes)
hostile_ok -H 8 mesh-hold
wait_closes $((n0 + 1))
line=$(last_close)
log "mesh-hold: $(echo "$line" | cut -d' ' -f3-)"
echo "$line" | grep -q 'close: native, result ok (client disconnected)' ||
	fail "held mesh session not closed ok: $line"
grep -q 'open: native mesh, size 4096, connection 1/' "$T/rdmad.log" ||
	fail "no 'open: native mesh' line"
grep -q 'older than max_duration\|no progress for' "$T/rdmad.log" &&
	fail "a deadline or max_duration hit a mesh session: $(grep 'older than max_duration\|no progress' "$T/rdmad.log")"
c1=$(metric "$checks")
log "liveness checks during the 8 s session: $((c1 - c0))"
[ $((c1 - c0)) -ge 3 ] || fail "only $((c1 - c0)) liveness checks in an 8 s mesh session"
check_after mesh-hold

# 2. rdma-probe --rounds: 20 rounds over 10 s, all verified.
n0=$(closes)
cli timeout 60 "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -t 20 \
	--rounds 20 --interval 0.5 -s 4k "$RDMAD_SRV_ADDR" >"$T/rounds.log" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$T/rounds.log" >&2; fail "rdma-probe --rounds 20: exit $rc"; }
v=$(grep -c '^round [0-9]*: .*verified' "$T/rounds.log")
[ "$v" = 20 ] || { cat "$T/rounds.log" >&2; fail "$v rounds verified, want 20"; }
wait_closes $((n0 + 1))
line=$(last_close)
log "rdma-probe --rounds 20: $(echo "$line" | cut -d' ' -f3-)"
echo "$line" | grep -q 'close: native, result ok (client disconnected)' ||
	fail "probe's mesh session not closed ok: $line"
age=$(echo "$line" | sed -n 's/.* \([0-9.]*\)s$/\1/p')
awk -v a="$age" 'BEGIN { exit !(a > 5) }' ||
	fail "the mesh session lived ${age}s, want more than max_duration 5s"
check_after rounds

# 3. A vanished mesh client: only liveness can reap it.
u0=$(metric "$unreach")
hostile_hold mesh-vanish
wait_log 'result peer-unreachable' 90
grep 'stopped acknowledging' "$T/rdmad.log" | sed 's/^/# /' >&2
# rdmad's own figure (connected N s): the liveness check reaped it before
# the hostile client let go of it (-H 60); how soon is the guest's speed.
reap=$(reaped_after)
[ -n "$reap" ] || fail "no reap line with 'connected N s'"
log "vanished mesh client reaped after ${reap}s connected (liveness 1s)"
awk -v r="$reap" 'BEGIN { exit !(r < 60) }' || fail "reaped after ${reap}s connected: not by the liveness check"
[ "$(metric "$unreach")" = $((u0 + 1)) ] ||
	fail "peer-unreachable sessions: '$(metric "$unreach")', want $((u0 + 1))"
wait_idle 10
kill $hpid 2>/dev/null
wait $hpid 2>/dev/null
check_after mesh-vanish

# 4. rdma-probe --rounds killed with SIGKILL mid-run.
n0=$(closes)
cli "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -t 20 --rounds 100 \
	--interval 0.2 -s 4k "$RDMAD_SRV_ADDR" >"$T/killed.log" 2>&1 &
jpid=$!
ppid=$(real_pid $jpid rdma-probe)
log_has '^round 3:' 90 "$T/killed.log" || { cat "$T/killed.log" >&2; fail "no round 3"; }
kill -KILL "$ppid"
t0=$(now_ms)
wait $jpid 2>/dev/null
wait_closes $((n0 + 1))
t1=$(now_ms)
line=$(last_close)
log "probe killed after round 3, closed after $((t1 - t0))ms: $(echo "$line" | cut -d' ' -f3-)"
echo "$line" | grep -q 'result ok (client disconnected)\|result peer-unreachable' ||
	fail "killed mesh client: $line"
wait_idle 10
check_after killed

# 5. A DONE in a mesh session is a protocol error, and rdmad says so.
hostile_ok mesh-done
wait_log 'close: native, result protocol-error' 10
grep -q 'ABORT to the client: protocol error: unexpected recv-done' "$T/rdmad.log" ||
	fail "rdmad did not log its ABORT for the DONE: $(grep 'ABORT to the client' "$T/rdmad.log")"
check_after mesh-done

# 6. A plain native probe alongside a mesh session.
m0=$(grep -c 'open: native mesh' "$T/rdmad.log")
hostile -H 6 mesh-hold >"$T/alongside.out" &
hpid=$!
for ((i = 0; i < 200; i++)); do
	[ "$(grep -c 'open: native mesh' "$T/rdmad.log")" -gt "$m0" ] && break
	sleep 0.1
done
[ "$(active_conns)" = 1 ] || fail "the mesh session beside the native one did not open"
cli timeout 60 "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -t 20 \
	--op both -s 64k -n 3 "$RDMAD_SRV_ADDR" >"$T/native.log" 2>&1 ||
	{ cat "$T/native.log" >&2; fail "native probe beside a mesh session failed"; }
grep -q "verification   OK" "$T/native.log" || fail "native probe not verified"
wait $hpid
grep -q '^ok mesh-hold' "$T/alongside.out" ||
	fail "the mesh session beside the native one: $(cat "$T/alongside.out")"
check_after alongside

[ "$(metric "$unreach")" = 1 ] || fail "peer-unreachable sessions: '$(metric "$unreach")', want 1"
log "sessions ok: $(metric "$ok_total")"
rdmad_alive
exit 0
