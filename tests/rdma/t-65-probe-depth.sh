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

# The bounds: depths 1, 31, 32 (a full completion batch), 511 and 512
# (the maximum); -n below, at and above the depth; sizes from 1 byte to
# the server's max_buffer_size at the benches' depth 32.
cases=("--depth 16 -s 4k -n 100" "--depth 8 -s 256k -n 20"
       "--depth 3 -s 1000 -n 10" "--depth 32 -s 1 -n 64"
       "--depth 16 -s 64k -n 40 --no-verify" "--depth 4 -P 3 -s 8k -n 30"
       "--depth 1 -s 64k -n 20" "--depth 31 -s 4k -n 93" "--depth 32 -s 4k -n 1"
       "--depth 64 -s 4k -n 10" "--depth 511 -s 4k -n 1022"
       "--depth 512 -s 4k -n 1500" "--depth 32 -s 1m -n 40"
       "--depth 32 -s 1m -n 40 --no-verify")
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
    assert ("under load" in d["latency_note"]) == (o["depth"] > 1), d["latency_note"]
    for c in r["conns"]:
        assert c["writes_done"] == o["iters"] and c["reads_done"] == o["iters"], (path, c)
    print("# depth %d size %d x %d%s: READ %.1f MB/s, WRITE %.1f MB/s" % (
        o["depth"], o["size"], o["iters"], "" if o["verify"] else " no-verify",
        r["ops"]["read"]["mb_per_s"], r["ops"]["write"]["mb_per_s"]))
PY
# Beyond the bounds: a size one byte over the server's max_buffer_size is
# refused by the server (exit 5); --depth 0 and 513 are usage errors (the
# host suite's t-36-probe-cli).
cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port --depth 32 -s 1048577 -n 2 "$RDMAD_SRV_ADDR" \
	>"$T/over.out" 2>"$T/over.err"
rc=$?
[ "$rc" = 5 ] || fail "-s 1048577 (max_buffer_size 1m): exit $rc, want 5: $(cat "$T/over.err")"

# Every DONE the server checked matched (no mismatch was logged).
grep -qi 'mismatch' "$T/rdmad.log" && fail "rdmad saw a mismatch: $(grep -i mismatch "$T/rdmad.log")"
kill -0 "$rpid" 2>/dev/null || fail "rdmad is not running any more"
exit 0
