#!/bin/bash
# systemctl start rdmad: Type=notify readiness, STATUS=, probes served by
# the installed service, structured journal fields and catalog entries.
source "$(dirname "$0")/lib.sh"
sd_install
sd_conf
sd_start
status=$(systemctl show -p StatusText --value rdmad)
log "STATUS: $status"
[[ $status == *"0 active"* ]] || fail "STATUS= not kept: '$status'"
probe --op both -s 64k -n 20 >"$T/probe1.log" 2>&1 || { cat "$T/probe1.log" >&2; fail "probe against the service failed"; }
probe --op read -s 4k -n 5 >"$T/probe2.log" 2>&1 || { cat "$T/probe2.log" >&2; fail "second probe failed"; }
status=$(systemctl show -p StatusText --value rdmad)
[[ $status == *"2 served"* ]] || fail "STATUS= after two probes: '$status'"

# Every field an operator filters on, with the right values (this start's
# lines only: the first test's install started the sample service).
sleep 1
sd_journal_json _SYSTEMD_INVOCATION_ID="$(systemctl show -p InvocationID --value rdmad)" >"$T/journal.json"
python3 - "$T/journal.json" "$RDMAD_CLI_ADDR" <<'PY' || fail "journal fields wrong (see $T/journal.json)"
import json, sys
path, peer = sys.argv[1], sys.argv[2]
recs = [json.loads(l) for l in open(path) if l.strip()]
opened = [r for r in recs if r.get("MESSAGE_ID") == "5173b72cf38d4033bbe4dd2130c1e821"]
closed = [r for r in recs if r.get("MESSAGE_ID") == "a26788bf99c74f6a9855b09fe88e4fab"]
ready = [r for r in recs if r.get("MESSAGE_ID") == "31885449d75b421cbb95b7d7ae329e82"]
assert ready, "no ready message"
assert len(opened) == 2, f"{len(opened)} open messages, want 2"
assert len(closed) == 2, f"{len(closed)} close messages, want 2"
for r in opened + closed:
    assert r.get("RDMAD_PEER", "").startswith(peer), f"RDMAD_PEER {r.get('RDMAD_PEER')!r}, want {peer}"
    assert r.get("RDMAD_PROTO") == "native", f"RDMAD_PROTO {r.get('RDMAD_PROTO')!r}"
    assert r.get("RDMAD_CONN", "").isdigit(), "RDMAD_CONN missing"
for r in closed:
    assert r.get("RDMAD_RESULT") == "ok", f"RDMAD_RESULT {r.get('RDMAD_RESULT')!r}"
    assert int(r.get("RDMAD_BYTES", "0")) > 0, "RDMAD_BYTES missing or 0"
    assert r.get("RDMAD_STATE"), "RDMAD_STATE missing"
b = sorted(int(r["RDMAD_BYTES"]) for r in closed)
# both 64 KiB x 20: 20 reads + 20 writes; read 4 KiB x 5.
assert b == [5 * 4096, 40 * 65536], f"RDMAD_BYTES {b}"
print("journal: ready, 2 opened, 2 closed, fields ok")
PY
journalctl -x -u rdmad --no-pager | grep -q "Subject: RDMA connection .* closed: ok" ||
	journalctl -x -u rdmad --no-pager | grep -q "RDMA connection .* closed: ok" ||
	fail "journalctl -x shows no catalog text for the close message"
systemctl stop rdmad
[ "$(systemctl show -p ExecMainStatus --value rdmad)" = 0 ] || fail "rdmad exited $(systemctl show -p ExecMainStatus --value rdmad) on stop"
exit 0
