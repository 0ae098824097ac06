#!/bin/bash
# The status and metrics endpoint of the installed, hardened service:
# `rdmadctl status` finds it through the installed configuration, the
# service's own pid and listener are in it, a probe moves the metrics,
# `systemctl reload` moves the endpoint, and the package installed the man
# pages.
source "$(dirname "$0")/lib.sh"
sd_install
sd_conf
sd_start
CTL=$PREFIX/bin/rdmadctl
[ -x "$CTL" ] || fail "the package did not install rdmadctl at $CTL"

"$CTL" status >"$T/status.txt" 2>"$T/status.err" || fail "rdmadctl status: $(cat "$T/status.err")"
cat "$T/status.txt" >&2
grep -q "^rdmad [0-9.]*, pid $(sd_pid), up " "$T/status.txt" || fail "status header does not name the service's pid $(sd_pid)"
grep -q "^listening: $RDMAD_SRV_ADDR:$PORT (up)" "$T/status.txt" || fail "status listener line"

probe -s 4k -n 3 >"$T/probe.log" 2>&1 || { cat "$T/probe.log" >&2; fail "probe against the service failed"; }
for ((i = 0; i < 50; i++)); do
	"$CTL" metrics >"$T/metrics.txt" || fail "rdmadctl metrics failed"
	grep -q '^rdmad_sessions_total{proto="native",result="ok"} 1$' "$T/metrics.txt" && break
	sleep 0.1
done
grep -q '^rdmad_sessions_total{proto="native",result="ok"} 1$' "$T/metrics.txt" ||
	fail "metrics after one probe: $(grep sessions_total "$T/metrics.txt" | grep -v ' 0$')"
grep -q '^rdmad_rdma_bytes_total{proto="native",op="read"} 12288$' "$T/metrics.txt" ||
	fail "read bytes after 3 x 4 KiB: $(grep rdma_bytes "$T/metrics.txt")"
"$CTL" --json status | python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["connections"]["accepted"] == 1, d' ||
	fail "rdmadctl --json status"

sd_conf "http.listen = 127.0.0.1:9471"
systemctl reload rdmad || fail "systemctl reload failed"
for ((i = 0; i < 50; i++)); do
	"$CTL" status >/dev/null 2>&1 && break
	sleep 0.1
done
"$CTL" status >/dev/null || fail "rdmadctl status after moving the endpoint by reload"
"$CTL" -a 127.0.0.1:9470 status >/dev/null 2>&1 && fail "old endpoint still answers"
journalctl -u rdmad --no-pager | grep -q "status and metrics now on http://127.0.0.1:9471/" ||
	fail "the move is not in the journal"

for page in man1/rdma-probe.1 man5/rdmad.ini.5 man8/rdmad.8 man8/rdmadctl.8; do
	[ -f "$PREFIX/share/man/$page.gz" ] || fail "the packages did not install $PREFIX/share/man/$page.gz"
done
exit 0
