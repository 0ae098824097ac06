#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe -D: each op kind runs for the given time, not a count; the
# server still verifies the last WRITE; -n caps a timed run.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe
port=7482
rdmad_conf $port
rdmad_start

for depth in 1 8; do
	probe_ok d$depth.json -D 1.5 --depth $depth -s 4k --json
done
python3 - "$T/d1.json" "$T/d8.json" <<'PY' || fail "-D JSON checks failed"
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    r = d["runs"][0]
    assert d["options"]["duration_ms"] == 1500 and r["failed"] == 0, r
    for k in ("read", "write"):
        x = r["ops"][k]
        # The span of each kind is about the duration (the last ops drain).
        assert 1.4e9 <= x["span_ns"] <= 4.5e9, (path, k, x["span_ns"])
        assert 2 <= x["ops"] < d["options"]["iters"], (path, k, x["ops"])
    c = r["conns"][0]
    assert c["writes_done"] == r["ops"]["write"]["ops"], c
    print("# -D 1.5 depth %d: %d READs, %d WRITEs" % (d["options"]["depth"],
          r["ops"]["read"]["ops"], r["ops"]["write"]["ops"]))
PY

# -n caps a timed run: 5 operations of each kind long before 30 s.
start=$(date +%s)
probe_ok cap.out -D 30 -n 5 -s 1k
secs=$(( $(date +%s) - start ))
[ "$secs" -lt 20 ] || fail "-D 30 -n 5 took ${secs} s"
grep -q "bytes moved *$((2 * 5 * 1024)) " "$T/cap.out" || fail "cap: $(cat "$T/cap.out")"
grep -q 'for 30.000 s (at most 5) each' "$T/cap.out" || fail "cap header: $(cat "$T/cap.out")"
exit 0
