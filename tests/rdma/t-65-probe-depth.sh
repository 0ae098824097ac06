#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe --depth N: N RDMA operations in flight per connection, each
# in its own local buffer, every READ checked before its buffer is reused;
# the last WRITE goes alone so the server's check at DONE holds.
# --no-verify at depth works too (the server still checks the last WRITE).
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe
port=7485
rdmad_up $port "limits.max_buffer_size = 1m"

cases=("--depth 16 -s 4k -n 100" "--depth 8 -s 256k -n 20"
       "--depth 3 -s 1000 -n 10" "--depth 32 -s 1 -n 64"
       "--depth 16 -s 64k -n 40 --no-verify" "--depth 4 -P 3 -s 8k -n 30")
files=()
for args in "${cases[@]}"; do
	name=$(echo "$args" | tr -d ' -')
	# shellcheck disable=SC2086
	probe_ok "$name.json" $args --json
	files+=("$T/$name.json")
done
# One python for all (it starts slowly in the guest).
python3 - "${files[@]}" <<'PY' || fail "depth JSON checks failed"
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    o = d["options"]
    r = d["runs"][0]
    n = o["iters"] * o["parallel"]
    assert r["failed"] == 0, (path, r)
    assert r["ops"]["read"]["ops"] == n and r["ops"]["write"]["ops"] == n, (path, r["ops"])
    assert "under load" in d["latency_note"], d["latency_note"]
    for c in r["conns"]:
        assert c["writes_done"] == o["iters"] and c["reads_done"] == o["iters"], (path, c)
    print("# depth %d size %d x %d%s: READ %.1f MB/s, WRITE %.1f MB/s" % (
        o["depth"], o["size"], o["iters"], "" if o["verify"] else " no-verify",
        r["ops"]["read"]["mb_per_s"], r["ops"]["write"]["mb_per_s"]))
PY
# Every DONE the server checked matched (no mismatch was logged).
grep -qi 'mismatch' "$T/rdmad.log" && fail "rdmad saw a mismatch: $(grep -i mismatch "$T/rdmad.log")"
kill -0 "$rpid" 2>/dev/null || fail "rdmad is not running any more"
exit 0
