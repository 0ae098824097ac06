#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe --all-sizes: one verified run per power of two from 1 byte
# up to -s (and -s itself); a sweep stops at the first size that fails.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe
port=7483
rdmad_conf $port "limits.max_buffer_size = 128k"
rdmad_start
probe_ok sweep.json --all-sizes -s 64k -n 3 --json
probe_want 5 limit.json --all-sizes -s 1m -n 1 --json
python3 - "$T/sweep.json" "$T/limit.json" <<'PY' || fail "sweep JSON checks failed"
import json, sys
d = json.load(open(sys.argv[2]))
s = [r["size"] for r in d["runs"]]
# Past the server's limit (128k): the 256k run is rejected, exit 5, and
# the sweep goes no further.
assert s[-1] == 262144 and len(s) == 19 and d["exit_code"] == 5, s
assert d["runs"][-1]["conns"][0]["class"] == "rejected"
d = json.load(open(sys.argv[1]))
sizes = [r["size"] for r in d["runs"]]
assert sizes == [1 << i for i in range(17)], sizes
for r in d["runs"]:
    assert r["failed"] == 0 and r["ops"]["read"]["bytes"] == 3 * r["size"], r
    assert r["ops"]["write"]["bytes"] == 3 * r["size"], r
PY

# A size that is not a power of two ends the sweep; the human report
# has one block per size.
cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port --all-sizes -s 3000 -n 2 --op read \
	"$RDMAD_SRV_ADDR" >"$T/odd.out" 2>"$T/odd.err" || fail "odd sweep: $(cat "$T/odd.err")"
n=$(grep -c '^  verification *OK' "$T/odd.out")
[ "$n" = 13 ] || fail "odd sweep: $n runs, want 13 (1..2048 and 3000)"
grep -q ', 3000 bytes x 2 each' "$T/odd.out" || fail "odd sweep: no 3000-byte run"

exit 0
