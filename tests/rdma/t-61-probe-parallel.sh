#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe -P 8: eight verified connections at once in one process and
# one event loop, each with its own pattern seed; rdmad serves them all.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe
port=7481
rdmad_up $port "server.max_connections = 16" "log.level = debug"
probe_ok p8.json -P 8 -s 16k -n 10 --seed 100 --json
# (the JSON checks come last, in one python3: it starts slowly in the guest)
# rdmad served eight native connections.
n=$(grep -c "open: native" "$T/rdmad.log")
[ "$n" = 8 ] || fail "rdmad logged $n native opens, want 8"

# The human report sums the connections.
probe_ok p8.out -P 8 -s 4k -n 5
grep -q '8 connections (0 failed)' "$T/p8.out" || fail "report: $(cat "$T/p8.out")"
grep -q 'verification *OK: 8 connections; 40 READs matched' "$T/p8.out" ||
	fail "report: $(cat "$T/p8.out")"
grep -q "bytes moved *$((2 * 40 * 4096)) " "$T/p8.out" || fail "bytes: $(cat "$T/p8.out")"
log "$(grep -E 'phases|bandwidth' "$T/p8.out" | tr -s ' ')"

# More connections than the server allows: those rejected say busy, the
# exit code is the worst class (5), the others still pass.
probe_run p24.json -P 24 -s 4k -n 50 --json
python3 - "$T/p24.json" "$rc" "$T/p8.json" <<'PY' || fail "-P JSON checks failed"
import json, sys
d = json.load(open(sys.argv[3]))
r = d["runs"][0]
assert r["connections"] == 8 and r["failed"] == 0, r
seeds = {c["seed"] for c in r["conns"]}
assert len(seeds) == 8, seeds
assert {c["index"] for c in r["conns"]} == set(range(8))
assert len({c["server_conn"] for c in r["conns"]}) == 8
for c in r["conns"]:
    assert c["exit_code"] == 0 and c["reads_done"] == 10 and c["writes_done"] == 10, c
assert r["ops"]["read"]["ops"] == 80 and r["ops"]["write"]["ops"] == 80, r["ops"]
assert r["ops"]["read"]["bytes"] == 80 * 16384
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
ok = [c for c in r["conns"] if c["exit_code"] == 0]
busy = [c for c in r["conns"] if c["class"] == "rejected"]
assert len(ok) + len(busy) == 24, r["conns"]
assert len(ok) >= 1, "none passed"
if busy:
    assert int(sys.argv[2]) == 5 and d["exit_code"] == 5
    assert all("busy" in c["error"] for c in busy)
else:
    assert int(sys.argv[2]) == 0
print("# -P 24 against max_connections 16: %d ok, %d busy" % (len(ok), len(busy)))
PY
kill -0 "$rpid" 2>/dev/null || fail "rdmad is not running any more"
exit 0
