#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Every rdma-probe command the benches run (docs/performance.md;
# tests/bench/bench-job, fabric-bench, mesh-bench), each in a quick form
# against an rdmad set up as bench-job sets it up: each must exit 0 with
# a report the bench tables can read, and a timed (-D) run must end on
# time.  So a bench that no longer works fails here, not on the day
# someone runs it.  Figures are not judged (the benches do that).
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

[ -x "$PROBE" ] || fail "no rdma-probe at $PROBE"
[ -x "$RDMAD" ] || fail "no rdmad at $RDMAD"
command -v python3 >/dev/null || fail "python3 not installed"
port=7477

# bench-job's [server], [limits] and session deadline.
cat >"$T/rdmad.ini" <<INI
[server]
listen = $RDMAD_SRV_ADDR:$port
max_connections = 300
listen_backlog = 512

[limits]
max_buffer_size = 1m
max_iterations = 1000000

[timeouts]
session = 10m
INI
rdmad_start
rpid=$RDMAD_PID

# run NAME SECS ARGS...: one bench command with --json; it must exit 0
# within SECS seconds (it is killed then).
files=()
run() {
	local name=$1 limit=$2 start rc ms
	shift 2
	start=$(now_ms)
	cli timeout -k 5 "$limit" "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -t 60 --json "$@" \
		"$RDMAD_SRV_ADDR" >"$T/$name.json" 2>"$T/$name.err"
	rc=$?
	ms=$(( $(now_ms) - start ))
	[ "$rc" = 124 ] && fail "$name ($*): still running after $limit s"
	[ "$rc" = 0 ] || fail "$name ($*): exit $rc after $ms ms: $(head -3 "$T/$name.err")"
	[ "$ms" -lt $((limit * 1000)) ] || fail "$name ($*): took $ms ms (limit $limit s)"
	log "$name: $ms ms"
	files+=("$T/$name.json")
}

# bench-job 1 and docs/performance.md: bandwidth, -D at 64 KiB and -n at
# 1 MiB, --depth 32, verified and --no-verify (the bench: -D 5, -n 150).
for op in read write; do
	run "bw_${op}_64k" 120 --op $op -s 64k -D 1 --depth 32
	run "bwnv_${op}_64k" 120 --op $op -s 64k -D 1 --depth 32 --no-verify
	run "bw_${op}_1m" 180 --op $op -s 1m -n 10 --depth 32
	run "bwnv_${op}_1m" 180 --op $op -s 1m -n 10 --depth 32 --no-verify
done
# rdma-probe(1)'s bandwidth example: both kinds, 1 MiB, -D 5 --depth 32.
run bw_both_1m 240 -s 1m -D 1 --depth 32
# fabric-bench: bandwidth by count at 64 KiB (the bench: -n 750).
run bw_read_64k_n 180 --op read -s 64k -n 150 --depth 32
# bench-job 2 and fabric-bench: 64 B READ latency, event-driven and
# --busy-poll, verified and not (the bench: -n 5000).
run lat 120 --op read -s 64 -n 200
run latbp 120 --op read -s 64 -n 200 --busy-poll
run latnv 120 --op read -s 64 -n 200 --no-verify
run latbpnv 120 --op read -s 64 -n 200 --busy-poll --no-verify
# bench-job 4: concurrency, and 5: live connections under -D (the
# bench: -P 256).
run conc 180 -P 32 -s 4k -n 10
run scrape 180 -P 32 -s 4k -D 2
# mesh-bench: one mesh session alone (the bench: --rounds 200).
run rounds 120 -s 64 --rounds 20 --interval 0.01
# mesh-bench: --targets (the bench: its N peers, -n 1 each).
echo "$RDMAD_SRV_ADDR:$port" >"$T/peers"
start=$(now_ms)
cli timeout -k 5 60 "$PROBE" --targets "$T/peers" -I "$RDMAD_CLI_ADDR" -s 64 -n 1 -t 60 --json \
	>"$T/targets.json" 2>"$T/targets.err" ||
	fail "--targets: exit $?: $(head -3 "$T/targets.err")"
log "targets: $(( $(now_ms) - start )) ms"

# bench-job 3 and fabric-bench: churn, one verified READ and WRITE per
# process (the bench: 200 with -q, 20 with --json).
for i in 1 2 3; do
	cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -q -s 64 -n 1 "$RDMAD_SRV_ADDR" \
		>"$T/churn.out" 2>"$T/churn.err" || fail "churn $i: exit $?: $(cat "$T/churn.err")"
	[ -s "$T/churn.out" ] && fail "churn -q printed: $(cat "$T/churn.out")"
done

# What the tables read (tests/bench/bench-table, fabric-table,
# mesh-table): each report parses, nothing failed, the figures are there.
python3 - "$T/targets.json" "${files[@]}" <<'PY' || fail "bench JSON checks failed"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["summary"] == {"targets": 1, "ok": 1, "failed": 0}, t["summary"]
for path in sys.argv[2:]:
    d = json.load(open(path))
    o = d["options"]
    r = d["runs"][0]
    assert d["exit_code"] == 0 and r["failed"] == 0, (path, r)
    if o.get("rounds"):
        x = r["conns"][0]["rounds"]
        assert x["verified"] == o["rounds"] and x["round_ns"]["p50"] > 0, (path, x)
        continue
    for k, x in r["ops"].items():
        assert x["ops"] > 0 and x["mb_per_s"] > 0, (path, k, x)
        assert "p50" in x["latency_ns"] and "p99" in x["latency_ns"], (path, k, x)
        if o["duration_ms"]:
            # Stopped by time, not by the -n cap.
            assert x["ops"] < o["iters"] * o["parallel"], (path, k, x["ops"])
            # Ran the whole -D, and ended late by the operations in
            # flight at most: each of --depth took at most the run's own
            # slowest (CI's loaded landing run: 16.7 s for -D 1, 32
            # verified 1 MiB READs; the machine's speed, not a bound).
            d, lat = o["duration_ms"] * 1e6, x["latency_ns"]["max"]
            assert 0.9 * d <= x["span_ns"] <= d + o["depth"] * lat + 1e9, (path, k, x["span_ns"], lat)
PY
kill -0 "$rpid" 2>/dev/null || fail "rdmad is not running any more"
exit 0
