#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe -D: each op kind runs for the given time, not a count, at
# every depth from 1 to the maximum; the server still verifies the last
# WRITE; -n caps a timed run; the bounds of -D are kept.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe
port=7482
rdmad_conf $port
rdmad_start

# Every depth boundary with -D: 1, 31 and 32 (RDMA_CQ_BATCH: from 32 on
# a poll can take a full batch of completions), the maximum 512 and one
# below, and the docs/performance.md bandwidth command's shape (64 KiB,
# --depth 32).  Each kind must stop on time, well before the -n cap
# (100,000 operations).  The time bounds below only tell "stopped by
# time" from "ran to the cap": a busy TCG guest under ASan takes seconds
# to connect and to drain 512 operations, so they are wide.
cases=("--depth 1 -s 4k" "--depth 8 -s 4k" "--depth 31 -s 4k" "--depth 32 -s 4k"
       "--depth 511 -s 4k" "--depth 512 -s 4k" "--depth 32 -s 64k"
       "--depth 64 -s 64k --no-verify")
files=()
for args in "${cases[@]}"; do
	name=$(echo "$args" | tr -d ' -')
	start=$(now_ms)
	# shellcheck disable=SC2086
	cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -D 1.5 $args --json \
		"$RDMAD_SRV_ADDR" >"$T/$name.json" 2>"$T/$name.err"
	rc=$?
	ms=$(( $(now_ms) - start ))
	[ "$rc" = 0 ] || fail "-D 1.5 $args: exit $rc after $ms ms: $(cat "$T/$name.err")"
	# Two kinds of 1.5 s, the connect and the drain.
	[ "$ms" -lt 40000 ] || fail "-D 1.5 $args took $ms ms"
	files+=("$T/$name.json")
done
python3 - "${files[@]}" <<'PY' || fail "-D JSON checks failed"
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    r = d["runs"][0]
    assert d["options"]["duration_ms"] == 1500 and r["failed"] == 0, r
    for k in ("read", "write"):
        x = r["ops"][k]
        # The span of each kind is about the duration (the last ops drain).
        # Its floor is loose: at depth 512 under ASan a kind's span was
        # 1.37 s (CI) and 1.47 s of 1.5 (not understood yet; see the closing note of 2026-11-26);
        # 1 s still tells a kind that stopped on time from one cut short.
        assert 1.0e9 <= x["span_ns"] <= 15e9, (path, k, x["span_ns"])
        assert 2 <= x["ops"] < d["options"]["iters"], (path, k, x["ops"])
    c = r["conns"][0]
    assert c["writes_done"] == r["ops"]["write"]["ops"], c
    print("# -D 1.5 depth %d size %d: %d READs, %d WRITEs" % (
          d["options"]["depth"], d["options"]["size"],
          r["ops"]["read"]["ops"], r["ops"]["write"]["ops"]))
PY

# The bounds of -D itself: 0.001 s runs (at least one operation of each
# kind).  0 and more than an hour are usage errors, as are depths 0 and
# 513: no device needed, the host suite's t-36-probe-cli.
cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -D 0.001 --depth 32 -s 4k "$RDMAD_SRV_ADDR" \
	>"$T/min.out" 2>"$T/min.err" || fail "-D 0.001: $(cat "$T/min.err")"

# -n caps a timed run: 5 operations of each kind long before 30 s.
start=$(date +%s)
probe_ok cap.out -D 30 -n 5 -s 1k
secs=$(( $(date +%s) - start ))
# (without the cap: 30 s a kind, 60 s; the bytes below say it exactly)
[ "$secs" -lt 60 ] || fail "-D 30 -n 5 took ${secs} s"
grep -q "bytes moved *$((2 * 5 * 1024)) " "$T/cap.out" || fail "cap: $(cat "$T/cap.out")"
grep -q 'for 30.000 s (at most 5) each' "$T/cap.out" || fail "cap header: $(cat "$T/cap.out")"
exit 0
