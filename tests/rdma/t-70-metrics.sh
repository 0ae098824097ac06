#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The metrics endpoint, scraped before, during and after real probes:
# both the Prometheus text and the OpenMetrics text parse with the
# prometheus_client parsers (Debian's python3-prometheus-client), and the
# counters move by exactly the sessions run: accepted, sessions by
# protocol and result, rejects by reason, RDMA bytes and operations (from
# rdma-probe's own JSON figures), histogram counts.  The HTTP edges
# (404, 405, HEAD, a bad query, content types) are the host suite's
# t-34-http-edges.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

HOSTILE=$RDMAD_BUILD_DIR/tests/hostile/rdmad-hostile
PY=/usr/bin/python3
need ctl
[ -x "$HOSTILE" ] || fail "no rdmad-hostile at $HOSTILE"
"$PY" -c 'import prometheus_client' 2>/dev/null ||
	fail "python3-prometheus-client is not installed (tests/testbed/install-deps)"
port=7482
http=127.0.0.1:9481

rdmad_conf $port "http.listen = $http" "limits.max_buffer_size = 64k"
rdmad_start

scrape() {	# scrape NAME: both formats into $T/NAME.prom and $T/NAME.om
	"$CTL" -a $http metrics >"$T/$1.prom" || fail "rdmadctl metrics ($1) failed"
	"$CTL" -a $http --openmetrics metrics >"$T/$1.om" || fail "rdmadctl --openmetrics metrics ($1) failed"
}
# Wait until no connection is active (closes are counted when released).
wait_idle() {
	local i
	for ((i = 0; i < 100; i++)); do
		"$CTL" -a $http metrics | grep -q '^rdmad_connections_active{proto="\(native\|rping\)"} [1-9]' || return 0
		sleep 0.1
	done
	fail "connections still active after 10s: $("$CTL" -a $http status)"
}

scrape before

# During: an 8 s native probe holds one connection open (3 s was too
# short under load: it ended between the two formats' scrapes).
cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -s 4k -D 8 --json "$RDMAD_SRV_ADDR" \
	>"$T/long.json" 2>"$T/long.err" &
lpid=$!
for ((i = 0; i < 100; i++)); do
	"$CTL" -a $http metrics | grep -q '^rdmad_connections_active{proto="native"} 1$' && break
	sleep 0.1
done
scrape during
grep -q '^rdmad_connections_active{proto="native"} 1$' "$T/during.prom" ||
	fail "the live probe is not in rdmad_connections_active: $(grep active "$T/during.prom")"
wait $lpid || fail "the 8 s probe failed: $(cat "$T/long.err")"

# Three native sessions of 7 READs + 7 WRITEs of 4 KiB, two rping
# sessions of 5 pings of 100 bytes, one request over max_buffer_size,
# one rping client with a bad rkey.
for s in 1 2 3; do
	cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -s 4k -n 7 --seed $s "$RDMAD_SRV_ADDR" \
		>"$T/n$s.out" 2>&1 || fail "native probe $s failed: $(cat "$T/n$s.out")"
done
for s in 1 2; do
	cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port --rping -s 100 -n 5 "$RDMAD_SRV_ADDR" \
		>"$T/r$s.out" 2>&1 || fail "rping probe $s failed: $(cat "$T/r$s.out")"
done
cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -s 1m -n 1 "$RDMAD_SRV_ADDR" >"$T/big.out" 2>&1
rc=$?
[ "$rc" = 5 ] || fail "over-limit probe: exit $rc, want 5 (rejected): $(cat "$T/big.out")"
# An rping client advertising a wrong rkey: rdmad's READ fails remotely,
# one completion error, one rping session ending in completion-error.
cli timeout 60 "$HOSTILE" -p $port -I "$RDMAD_CLI_ADDR" -t 10 rping-bad-rkey "$RDMAD_SRV_ADDR" \
	>"$T/badrkey.out" 2>&1 || fail "rdmad-hostile rping-bad-rkey: $(cat "$T/badrkey.out")"
wait_idle
scrape after

rdmad_alive

"$PY" - "$T" <<'PY' || fail "metrics checks failed"
import json, sys
from prometheus_client.parser import text_string_to_metric_families as prom_parse
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om_parse

T = sys.argv[1]
errors = []
def need(cond, what):
    if not cond:
        errors.append(what)

def load(name):
    """Both formats of one scrape, parsed; they must agree sample for sample."""
    text = open("%s/%s.prom" % (T, name)).read()
    om = open("%s/%s.om" % (T, name)).read()
    need(om.endswith("# EOF\n"), name + ": OpenMetrics text does not end with # EOF")
    need("# EOF" not in text, name + ": Prometheus text has # EOF")
    samples, fams = {}, {}
    for f in prom_parse(text):
        fams[f.name] = f.type
        for s in f.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    omsamples = {}
    for f in om_parse(om):
        for s in f.samples:
            omsamples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    # The OpenMetrics parser names counter samples with _total as well.
    # The two texts are two scrapes: what moves on its own between them
    # (the process's CPU, memory and fds; liveness checks of a live
    # session; the port counters, read every [counters] interval) is left
    # out.
    moving = ("rdmad_start_time_seconds", "process_cpu_seconds_total",
              "process_resident_memory_bytes", "process_virtual_memory_bytes",
              "process_open_fds", "rdmad_liveness_checks_total",
              "rdmad_port_events_total")
    diff = [k for k in samples if k[0] not in moving
            and omsamples.get(k) != samples[k]]
    need(not diff, name + ": Prometheus and OpenMetrics texts differ on %r" % diff[:3])
    return samples, fams

b, fams = load("before")
d, _ = load("during")
a, _ = load("after")

for fam, typ in [("rdmad_sessions", "counter"), ("rdmad_rejects", "counter"),
                 ("rdmad_rdma_bytes", "counter"), ("rdmad_connect_seconds", "histogram"),
                 ("rdmad_session_seconds", "histogram"), ("rdmad_rdma_op_seconds", "histogram"),
                 ("rdmad_connections_active", "gauge"), ("rdmad_listener_up", "gauge"),
                 ("rdmad_completion_errors", "counter")]:
    need(fams.get(fam) == typ, "family %s: type %r, want %s" % (fam, fams.get(fam), typ))

def v(s, name, **labels):
    key = (name, tuple(sorted(labels.items())))
    if key not in s:
        errors.append("no sample %s%r" % (name, labels))
        return 0
    return s[key]

def delta(name, want, **labels):
    got = v(a, name, **labels) - v(b, name, **labels)
    need(got == want, "%s%r moved by %s, want %s" % (name, labels, got, want))

long = json.load(open(T + "/long.json"))["runs"][0]["ops"]
lr, lw = long["read"], long["write"]
need(lr["ops"] > 0 and lw["ops"] > 0, "the 8 s probe did no operations")

delta("rdmad_connections_accepted_total", 4, proto="native")
delta("rdmad_connections_accepted_total", 3, proto="rping")
delta("rdmad_sessions_total", 4, proto="native", result="ok")
delta("rdmad_sessions_total", 2, proto="rping", result="ok")
delta("rdmad_sessions_total", 1, proto="rping", result="completion-error")
for proto in ("native", "rping"):
    for res in ("mismatch", "timeout", "aborted", "protocol-error", "bad-message"):
        delta("rdmad_sessions_total", 0, proto=proto, result=res)
delta("rdmad_sessions_total", 0, proto="native", result="completion-error")
delta("rdmad_rejects_total", 1, reason="limit")
for r in ("busy", "denied", "resources", "bad-hello"):
    delta("rdmad_rejects_total", 0, reason=r)
delta("rdmad_rdma_operations_total", 3 * 7 + lr["ops"], proto="native", op="read")
delta("rdmad_rdma_operations_total", 3 * 7 + lw["ops"], proto="native", op="write")
delta("rdmad_rdma_bytes_total", 3 * 7 * 4096 + lr["bytes"], proto="native", op="read")
delta("rdmad_rdma_bytes_total", 3 * 7 * 4096 + lw["bytes"], proto="native", op="write")
delta("rdmad_rdma_operations_total", 2 * 5, proto="rping", op="read")
delta("rdmad_rdma_operations_total", 2 * 5, proto="rping", op="write")
delta("rdmad_rdma_bytes_total", 2 * 5 * 100, proto="rping", op="read")
delta("rdmad_rdma_bytes_total", 2 * 5 * 100, proto="rping", op="write")
delta("rdmad_connect_seconds_count", 4, proto="native")
delta("rdmad_connect_seconds_count", 3, proto="rping")
delta("rdmad_session_seconds_count", 4, proto="native")
delta("rdmad_session_seconds_count", 3, proto="rping")
delta("rdmad_session_seconds_bucket", 4, proto="native", le="+Inf")
delta("rdmad_rdma_op_seconds_count", 10, op="read")
delta("rdmad_rdma_op_seconds_count", 10, op="write")
need(v(a, "rdmad_session_seconds_sum", proto="native") -
     v(b, "rdmad_session_seconds_sum", proto="native") >= 8.0,
     "native session seconds grew by less than the 8 s probe")
need(v(d, "rdmad_connections_active", proto="native") == 1, "active during the probe")
need(v(a, "rdmad_connections_active", proto="native") == 0, "active after")
need(v(a, "rdmad_listener_up", address="10.99.0.1:7482") == 1, "listener_up")
need([val for (n, _), val in a.items() if n == "rdmad_build_info"] == [1.0],
     "rdmad_build_info: want one sample of value 1")
need(sum(val for (n, _), val in b.items() if n == "rdmad_completion_errors_total") == 0,
     "completion errors counted before any")
errs = {dict(l)["status"]: val - b[(n, l)] for (n, l), val in a.items()
        if n == "rdmad_completion_errors_total" and val != b[(n, l)]}
need(errs == {"REM_ACCESS_ERR": 1}, "completion errors moved by %r, want one REM_ACCESS_ERR" % errs)
if errors:
    print("\n".join(errors))
    sys.exit(1)
print("metrics ok")
PY
rdmad_alive
exit 0
