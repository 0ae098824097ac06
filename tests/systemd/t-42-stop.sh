#!/bin/bash
# systemctl stop during probes: in-flight sessions finish (drain), the
# service exits 0; past the drain deadline the rest are cut cleanly.
# Nothing here is judged by a clock: the drain ends when its sessions
# end (a loaded TCG guest took 27 s for a session that takes 3 s on a
# quiet one), so part 1 gives the drain, and systemd's stop, far more
# than the sessions need; part 2 judges the cut by systemd's own
# verdict under the shipped TimeoutStopSec (Result=success, not timeout).
source "$(dirname "$0")/lib.sh"
sd_install
trap 'cleanup_jobs; sd_dropin_rm stop-long' EXIT

# 1. Sessions in flight at stop all finish inside the drain.
sd_dropin stop-long "TimeoutStopSec=600s"
sd_conf "server.drain_timeout = 500s"
since=$(date +%s)
sd_start
for i in 1 2 3 4; do
	probe --op both -s 256k -n 100 >"$T/drain-$i.log" 2>&1 &
done
# The stop comes once all four are in flight (a busy guest may take
# seconds to connect them).
wait_qps "$(sd_pid)" 4 60
systemctl stop rdmad
rc=0
for p in $(jobs -p); do wait "$p" || rc=1; done
[ $rc = 0 ] || { tail -n 3 "$T"/drain-*.log >&2; fail "a probe in flight at stop failed although the drain allowed 500s"; }
[ "$(systemctl show -p ExecMainStatus --value rdmad)" = 0 ] || fail "exit status $(systemctl show -p ExecMainStatus --value rdmad) after stop"
[ "$(systemctl show -p Result --value rdmad)" = success ] || fail "Result=$(systemctl show -p Result --value rdmad)"
line=$(journalctl -u rdmad --no-pager --since "@$since" | grep "stopping; no new connections" | tail -1)
[ -n "$line" ] || fail "no drain message in the journal"
n=$(sed -n 's/.* \([0-9]*\) live ones get up to.*/\1/p' <<<"$line")
[ "${n:-0}" -ge 1 ] || fail "no session was in flight at the stop: $line"
log "drained: $line"
sd_dropin_rm stop-long

# 2. Drain deadline: rping sessions never end by themselves; they are
# cut, well before the unit's TimeoutStopSec would kill rdmad.
sd_conf "server.drain_timeout = 2s"
since=$(date +%s)
sd_start
cli timeout 300 rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" -p $PORT -C 100000 -S 4096 -V >"$T/rping.log" 2>&1 &
wait_qps "$(sd_pid)" 1 60
t0=$SECONDS
systemctl stop rdmad
log "stop with a 2 s drain took $((SECONDS - t0)) s"
[ "$(systemctl show -p ExecMainStatus --value rdmad)" = 0 ] || fail "exit status $(systemctl show -p ExecMainStatus --value rdmad) after a drain deadline"
[ "$(systemctl show -p Result --value rdmad)" = success ] || fail "Result=$(systemctl show -p Result --value rdmad) after a drain deadline (TimeoutStopSec passed?)"
journalctl -u rdmad --no-pager --since "@$since" | grep -q "drain deadline passed" || fail "no 'drain deadline passed' in the journal"
exit 0
