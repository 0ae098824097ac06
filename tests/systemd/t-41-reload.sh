#!/bin/bash
# systemctl reload rdmad under live probes: a raised limit holds at once,
# no probe fails; a broken file is refused, the service keeps the old one.
source "$(dirname "$0")/lib.sh"
sd_install
sd_conf "limits.max_buffer_size = 1m"
sd_start
pid=$(sd_pid)

# Live probes through both reloads.
(
	i=0
	while [ ! -f "$T/stop" ]; do
		i=$((i + 1))
		probe --op both -s 64k -n 50 >"$T/live-$i.log" 2>&1 || echo "$i" >>"$T/live-failed"
	done
	echo "$i" >"$T/live-count"
) &
live=$!
sleep 2

probe --op write -s 2m -n 2 >"$T/before.log" 2>&1
rc=$?
[ $rc = 5 ] || { cat "$T/before.log" >&2; fail "2 MiB before reload: exit $rc, want 5 (rejected)"; }

sd_conf "limits.max_buffer_size = 4m"
systemctl reload rdmad || fail "systemctl reload failed"
[ "$(sd_pid)" = "$pid" ] || fail "reload restarted rdmad"
probe --op write -s 2m -n 2 >"$T/after.log" 2>&1 || { cat "$T/after.log" >&2; fail "2 MiB after reload to 4m: not served"; }

printf '[limits]\nmax_buffer_size = lots\n' >"$CONF"
systemctl reload rdmad
sleep 1
[ "$(systemctl is-active rdmad)" = active ] || fail "rdmad is $(systemctl is-active rdmad) after a broken reload"
[ "$(sd_pid)" = "$pid" ] || fail "a broken reload restarted rdmad"
journalctl -u rdmad --no-pager | grep -q "reload refused: .*rdmad.ini:2" ||
	{ journalctl -u rdmad --no-pager | tail -5 >&2; fail "no 'reload refused ... rdmad.ini:2' in the journal"; }
probe --op write -s 2m -n 2 >"$T/broken.log" 2>&1 || fail "the old (4m) limit did not stay after a broken reload"

touch "$T/stop"
wait $live
n=$(cat "$T/live-count")
log "live probes during the reloads: $n"
[ ! -f "$T/live-failed" ] || fail "live probes failed during reload: $(tr '\n' ' ' <"$T/live-failed")"
[ "$n" -ge 2 ] || fail "only $n live probes ran"
systemctl stop rdmad
exit 0
