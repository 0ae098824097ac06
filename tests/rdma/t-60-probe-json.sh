#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe --json: one valid JSON document (parsed by python3's json
# module) with the options, per-run figures (latency percentiles,
# bandwidth, message rate, phases) and per-connection outcomes; a failure
# is a valid document too, with the failure class and exit code.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe python3
port=7480
rdmad_conf $port "server.max_connections = 16" "limits.max_buffer_size = 4m"
rdmad_start
probe_ok ok.json --json -s 4k -n 20 --seed 0x1234

# A failure is still one document: nothing listens on the port (exit 4).
cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p 7999 --json -t 5 "$RDMAD_SRV_ADDR" \
	>"$T/refused.json" 2>"$T/refused.err"
rc=$?
[ "$rc" = 4 ] || fail "refused: exit $rc, want 4: $(cat "$T/refused.err")"

# Over the server's limit: class "rejected", exit 5, the reason kept.
probe_want 5 limit.json --json -s 8m -n 1

# A bad command line prints usage on stderr only, exit 64.
"$PROBE" --json -P 0 h >"$T/usage.out" 2>"$T/usage.err"
rc=$?
[ "$rc" = 64 ] || fail "usage: exit $rc, want 64"
[ -s "$T/usage.out" ] && fail "usage: wrote to stdout"
# The JSON checks, in one python3 (it starts slowly in the guest).
python3 - "$T/ok.json" "$T/refused.json" "$T/limit.json" <<'PY' || fail "JSON checks failed"
import json, sys
d = json.load(open(sys.argv[1]))
def need(cond, what):
    if not cond:
        sys.exit("JSON: " + what)
need(d["tool"] == "rdma-probe" and d["protocol"] == "native", "header")
need(d["exit_code"] == 0 and d["ok"] is True, "top-level exit code")
o = d["options"]
need(o["size"] == 4096 and o["iters"] == 20 and o["op"] == "both" and
     o["verify"] is True and o["depth"] == 1 and o["parallel"] == 1 and
     o["seed"] == "0x0000000000001234", "options %r" % o)
need(len(d["runs"]) == 1, "one run")
r = d["runs"][0]
need(r["size"] == 4096 and r["connections"] == 1 and r["failed"] == 0, "run")
for k in ("read", "write"):
    x = r["ops"][k]
    need(x["ops"] == 20 and x["bytes"] == 20 * 4096, k + " counts")
    lat = x["latency_ns"]
    need(0 < lat["min"] <= lat["p50"] <= lat["p90"] <= lat["p99"] <=
         lat["p99_9"] <= lat["max"], k + " percentiles ordered %r" % lat)
    need(x["mb_per_s"] > 0 and x["gb_per_s"] > 0 and x["ops_per_s"] > 0,
         k + " bandwidth and rate")
    need(abs(x["gb_per_s"] - x["mb_per_s"] * 8 / 1000) < 1e-3, k + " Gb/s")
for p in ("resolve_addr", "resolve_route", "connect", "descriptor", "ops",
          "done", "disconnect", "total"):
    need(p in r["phases_ns"] and r["phases_ns"][p]["p50"] >= 0, "phase " + p)
c = r["conns"][0]
need(c["exit_code"] == 0 and c["class"] == "none" and c["error"] is None,
     "conn outcome %r" % c)
need(c["reads_done"] == 20 and c["writes_done"] == 20, "conn counts")
need(c["seed"] == "0x0000000000001234", "conn seed")
need(c["phases_ns"]["total"] >= c["phases_ns"]["ops"], "conn phases")

# A failure is one document too, with the class and the message.
d = json.load(open(sys.argv[2]))
c = d["runs"][0]["conns"][0]
need(d["exit_code"] == 4 and d["ok"] is False, "refused: top level %r" % d)
need(c["class"] == "connect" and c["exit_code"] == 4, "refused: %r" % c)
need("nothing listens" in c["error"], "refused: message %r" % c)
d = json.load(open(sys.argv[3]))
c = d["runs"][0]["conns"][0]
need(c["class"] == "rejected" and "rejected by server" in c["error"], "limit: %r" % c)
x = json.load(open(sys.argv[1]))["runs"][0]["ops"]["read"]
print("# read p50 %d ns, %.2f MB/s" % (x["latency_ns"]["p50"], x["mb_per_s"]))
PY
exit 0
