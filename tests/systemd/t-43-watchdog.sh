#!/bin/bash
# Watchdog: rdmad pings at half WatchdogSec; a stalled loop (SIGSTOP) is
# caught by systemd, which restarts the service.
source "$(dirname "$0")/lib.sh"
sd_install
sd_conf
sd_dropin watchdog "WatchdogSec=4s
RestartSec=1s"
sd_start
pid=$(sd_pid)
journalctl -u rdmad --no-pager | grep -q "systemd watchdog: pinging every 2000 ms" ||
	fail "no watchdog cadence in the journal"
sleep 6
[ "$(sd_pid)" = "$pid" ] || fail "a healthy rdmad was restarted by the watchdog"
kill -STOP "$pid"
for ((i = 0; i < 300; i++)); do
	now=$(sd_pid)
	[ -n "$now" ] && [ "$now" != 0 ] && [ "$now" != "$pid" ] && break
	sleep 0.1
done
[ "$now" != "$pid" ] && [ "$now" != 0 ] || fail "stalled rdmad (pid $pid) not restarted within 30s"
journalctl -u rdmad --no-pager | grep -qi "watchdog timeout" || fail "no 'Watchdog timeout' in the journal"
wait_listen $PORT
probe --op read -s 4k -n 2 >"$T/probe.log" 2>&1 || fail "the restarted rdmad does not serve"
log "restarts: $(systemctl show -p NRestarts --value rdmad)"
sd_dropin_rm watchdog
systemctl stop rdmad
exit 0
