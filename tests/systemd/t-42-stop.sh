#!/bin/bash
# systemctl stop during probes: in-flight sessions finish (drain), the
# service exits 0; past the drain deadline the rest are cut cleanly.
source "$(dirname "$0")/lib.sh"
sd_install
sd_conf "server.drain_timeout = 20s"
sd_start
# Sessions that take a few seconds each.
for i in 1 2 3 4; do
	probe --op both -s 256k -n 100 >"$T/drain-$i.log" 2>&1 &
done
# The stop comes once all four are in flight (a busy guest may take
# seconds to connect them; one not yet connected at stop is refused).
wait_qps "$(sd_pid)" 4 60
sleep 0.5
systemctl stop rdmad
rc=0
for p in $(jobs -p); do wait "$p" || rc=1; done
[ $rc = 0 ] || { tail -n 3 "$T"/drain-*.log >&2; fail "a probe in flight at stop failed although the drain allowed 20s"; }
[ "$(systemctl show -p ExecMainStatus --value rdmad)" = 0 ] || fail "exit status $(systemctl show -p ExecMainStatus --value rdmad) after stop"
[ "$(systemctl show -p Result --value rdmad)" = success ] || fail "Result=$(systemctl show -p Result --value rdmad)"
journalctl -u rdmad --no-pager | grep -q "stopping; no new connections" || fail "no drain message in the journal"

# Drain deadline: rping sessions never end by themselves; they are cut.
sd_conf "server.drain_timeout = 2s"
sd_start
cli rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" -p $PORT -C 100000 -S 4096 -V >"$T/rping.log" 2>&1 &
rp=$!
sleep 2
t0=$SECONDS
systemctl stop rdmad
el=$((SECONDS - t0))
wait $rp
[ "$(systemctl show -p ExecMainStatus --value rdmad)" = 0 ] || fail "exit status $(systemctl show -p ExecMainStatus --value rdmad) after a drain deadline"
[ $el -le 15 ] || fail "stop took ${el}s with drain_timeout 2s"
journalctl -u rdmad --no-pager | grep -q "drain deadline passed" || fail "no 'drain deadline passed' in the journal"
exit 0
