#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe --targets: three rdmad instances on three ports, a port where
# nothing listens, an address nobody answers and a name that does not
# resolve, all probed at once from one process and one event loop; the
# matrix, -q, --json (parsed with the system python3), the exit status (the
# worst class), a full rdmad (busy), and rping-protocol and busy-poll lists
# against the same rdmads.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe
PY=/usr/bin/python3
[ -x "$PY" ] || fail "no $PY"
S=$RDMAD_SRV_ADDR
ports="7490 7491 7492"
dead=7493

pids=()
for p in $ports; do
	# each its own status endpoint (the default port would be taken)
	rdmad_conf "$p" "http.listen = 127.0.0.1:$((p + 2000))"
	mv "$T/rdmad.ini" "$T/rdmad-$p.ini"
	rdmad_start "$T/rdmad-$p.ini" "$T/rdmad-$p.log"
	pids+=("$RDMAD_PID")
done
trap 'kill "${pids[@]}" 2>/dev/null; cleanup_jobs' EXIT

# Usage errors first (no RDMA): exit 64, the option or FILE:LINE named.
printf '%s:7490\n%s:99999\n' "$S" "$S" >"$T/badport.txt"
"$PROBE" --targets "$T/badport.txt" >"$T/u1.out" 2>"$T/u1.err"
rc=$?
[ "$rc" = 64 ] || fail "bad port in the file: exit $rc, want 64"
grep -q "badport.txt:2: '$S:99999': bad port" "$T/u1.err" || fail "bad port: $(cat "$T/u1.err")"
"$PROBE" --targets "$T/badport.txt" "$S" 2>"$T/u2.err"
rc=$?
[ "$rc" = 64 ] && grep -q -- "--targets cannot be used with HOST" "$T/u2.err" ||
	fail "--targets with HOST: exit $rc: $(cat "$T/u2.err")"
"$PROBE" --targets "$T/badport.txt" --all-sizes 2>"$T/u3.err"
rc=$?
[ "$rc" = 64 ] && grep -q -- "--all-sizes cannot be used with --targets" "$T/u3.err" ||
	fail "--targets with --all-sizes: exit $rc: $(cat "$T/u3.err")"
"$PROBE" --targets "$T/no-such-file" 2>"$T/u4.err"
rc=$?
[ "$rc" = 64 ] || fail "missing file: exit $rc: $(cat "$T/u4.err")"
printf 'a\nb\nc\nd\ne\n' >"$T/five.txt"
"$PROBE" --targets "$T/five.txt" -P 1000 2>"$T/u5.err"
rc=$?
[ "$rc" = 64 ] && grep -q "5 targets x -P 1000 = 5000 connections, at most 4096" "$T/u5.err" ||
	fail "too many connections: exit $rc: $(cat "$T/u5.err")"

cat >"$T/mesh.txt" <<EOF2
# three rdmads, the third on the default port (-p 7492)
$S:7490
$S:7491   # second
$S

# nothing listens here
$S:$dead
# nobody has this address
10.99.0.77:7490
no-such-host.invalid:7490
EOF2

# Each target for -D 1.5 s per kind, READs then WRITEs: about 3 s a
# target.  -t 10 in each run: -t 2 once timed out the connects to the
# rdmads of a starved guest (the unreachable address takes -t to fail).  At once, not one after the other: each rdmad's log dates its
# session, and every session opened before any of them closed (read on
# the guest's one clock; no bound on how fast a loaded guest runs).
start=$(date +%s%N)
cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p 7492 -t 10 -s 16k -D 1.5 --targets "$T/mesh.txt" \
	>"$T/mesh.out" 2>"$T/mesh.err"
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
cat "$T/mesh.out" >&2
[ "$rc" = 4 ] || fail "mesh: exit $rc, want 4 (connect, the worst class): $(cat "$T/mesh.err")"
log "mesh of 6 targets: exit $rc in $ms ms"
opened="" closed=""
for p in $ports; do
	o=$(grep -m1 "open: native" "$T/rdmad-$p.log" | cut -d' ' -f1)
	c=$(grep -m1 "close: native" "$T/rdmad-$p.log" | cut -d' ' -f1)
	[ -n "$o" ] && [ -n "$c" ] || fail "rdmad on $p logged no session: $(tail -3 "$T/rdmad-$p.log")"
	[[ -z $opened || $o > $opened ]] && opened=$o
	[[ -z $closed || $c < $closed ]] && closed=$c
done
[[ $opened < $closed ]] ||
	fail "the targets did not run at once: the last session opened at $opened, the first closed at $closed"
log "the three sessions overlapped: the last opened at $opened, the first closed at $closed"
row() { grep -E "^$1 +$2( |\$)" "$T/mesh.out" >/dev/null || fail "row '$1' is not '$2': $(cat "$T/mesh.out")"; }
row "$S:7490" ok
row "$S:7491" ok
row "$S \\($S:7492\\)" ok
row "$S:$dead" "connect: refused"
row "10.99.0.77:7490" "addr: (no answer|unreachable)"
row "no-such-host.invalid:7490" "addr: unknown host"
grep -q '^6 targets: 3 ok, 3 failed$' "$T/mesh.out" || fail "summary: $(cat "$T/mesh.out")"
# Rows in file order.
order=$(sed -n '3,8p' "$T/mesh.out" | awk '{print $1}' | tr '\n' ' ')
[ "$order" = "$S:7490 $S:7491 $S $S:$dead 10.99.0.77:7490 no-such-host.invalid:7490 " ] ||
	fail "row order: $order"
# Details on stderr, per target.
grep -q "$S:$dead: conn 0: connection refused: nothing listens on port $dead" "$T/mesh.err" ||
	fail "stderr: $(cat "$T/mesh.err")"
grep -q "no-such-host.invalid:7490: cannot resolve target 'no-such-host.invalid'" "$T/mesh.err" ||
	fail "stderr: $(cat "$T/mesh.err")"
# Each rdmad served its one native connection.
for p in $ports; do
	n=$(grep -c "open: native" "$T/rdmad-$p.log")
	[ "$n" = 1 ] || fail "rdmad on $p logged $n opens, want 1: $(tail -5 "$T/rdmad-$p.log")"
done

# -q: only the failures.
cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p 7492 -t 10 -s 4k -n 5 -q --targets - \
	<"$T/mesh.txt" >"$T/quiet.out" 2>"$T/quiet.err"
rc=$?
[ "$rc" = 4 ] || fail "-q: exit $rc"
grep -q " ok " "$T/quiet.out" && fail "-q printed a passing row: $(cat "$T/quiet.out")"
[ "$(grep -c -E 'refused|unknown host|no answer|unreachable' "$T/quiet.out")" = 3 ] ||
	fail "-q: $(cat "$T/quiet.out")"

# --json: one document, a target each in file order.
cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p 7492 -t 10 -s 16k -n 20 -P 2 --json \
	--targets "$T/mesh.txt" >"$T/mesh.json" 2>"$T/mesh-json.err"
rc=$?
[ "$rc" = 4 ] || fail "--json: exit $rc: $(cat "$T/mesh-json.err")"

# The rping protocol against the same rdmads (which speak it too).
printf '%s:7490\n%s:7491\n%s:7492\n' "$S" "$S" "$S" >"$T/rping.txt"
cli "$PROBE" -I "$RDMAD_CLI_ADDR" --rping -n 10 --targets "$T/rping.txt" \
	>"$T/rping.out" 2>"$T/rping.err"
rc=$?
cat "$T/rping.out" >&2
[ "$rc" = 0 ] || fail "--rping mesh: exit $rc: $(cat "$T/rping.err")"
grep -q '^3 targets: 3 ok, 0 failed$' "$T/rping.out" || fail "rping: $(cat "$T/rping.out")"
grep -q 'ping p50' "$T/rping.out" || fail "rping header: $(cat "$T/rping.out")"
for p in $ports; do
	grep -q "open: rping" "$T/rdmad-$p.log" || fail "rdmad on $p saw no rping client"
done

# A full rdmad (max_connections = 1) beside a free one, -P 3 each: the
# full one rejects the connections it has no room for (busy, exit 5); its
# row says so and how many; the free one's row is ok.
cat >"$T/rdmad-7494.ini" <<INI
[server]
listen = $S:7494
max_connections = 1

[http]
listen = 127.0.0.1:9494
INI
rdmad_start "$T/rdmad-7494.ini" "$T/rdmad-7494.log"
pids+=("$RDMAD_PID")
printf '%s:7490\n%s:7494\n' "$S" "$S" >"$T/full.txt"
cli "$PROBE" -I "$RDMAD_CLI_ADDR" -P 3 -s 4k -n 50 --targets "$T/full.txt" \
	>"$T/full.out" 2>"$T/full.err"
rc=$?
cat "$T/full.out" >&2
[ "$rc" = 5 ] || fail "full rdmad: exit $rc, want 5: $(cat "$T/full.err")"
row2() { grep -E "^$1 +$2" "$T/full.out" >/dev/null || fail "row '$1' is not '$2': $(cat "$T/full.out")"; }
row2 "$S:7490" "ok "
row2 "$S:7494" "rejected: busy \([12] of 3 failed\)"
grep -q "$S:7494: conn [0-9]: rejected by server: busy" "$T/full.err" ||
	fail "full rdmad: stderr: $(cat "$T/full.err")"

# --busy-poll spins over every target's connections; -v names the target
# in each connection's messages.
cli "$PROBE" -I "$RDMAD_CLI_ADDR" --busy-poll -v -s 4k -n 3 --targets "$T/rping.txt" \
	>"$T/busy.out" 2>"$T/busy.err"
rc=$?
[ "$rc" = 0 ] || fail "--busy-poll mesh: exit $rc: $(tail -5 "$T/busy.err")"
grep -q '^3 targets: 3 ok, 0 failed$' "$T/busy.out" || fail "busy-poll: $(cat "$T/busy.out")"
grep -q "^rdma-probe: $S:7491 conn 0: IDLE -> ADDR" "$T/busy.err" ||
	fail "-v does not name the target: $(head -5 "$T/busy.err")"

"$PY" - "$T/mesh.json" "$S" "$dead" <<'PY' || fail "JSON checks failed"
import json, sys
d = json.load(open(sys.argv[1]))
srv, dead = sys.argv[2], int(sys.argv[3])
def need(cond, what):
    if not cond:
        sys.exit("JSON: " + what)
need(d["tool"] == "rdma-probe" and d["protocol"] == "native", "header")
need(d["exit_code"] == 4 and d["ok"] is False, "top level exit %r" % d["exit_code"])
need(d["summary"] == {"targets": 6, "ok": 3, "failed": 3}, "summary %r" % d["summary"])
need(d["options"]["parallel"] == 2 and d["options"]["size"] == 16384, "options")
t = d["targets"]
need([x["target"] for x in t] == ["%s:7490" % srv, "%s:7491" % srv, srv,
     "%s:%d" % (srv, dead), "10.99.0.77:7490", "no-such-host.invalid:7490"],
     "order %r" % [x["target"] for x in t])
need([x["port"] for x in t] == [7490, 7491, 7492, dead, 7490, 7490], "ports")
for x in t[:3]:
    need(x["ok"] and x["exit_code"] == 0 and x["class"] == "none" and
         x["result"] == "ok" and x["error"] is None, "ok row %r" % x["target"])
    need(x["address"] == srv and x["connections"] == 2 and x["failed"] == 0,
         "ok row address %r" % x)
    for k in ("read", "write"):
        o = x["ops"][k]
        need(o["ops"] == 40 and o["bytes"] == 40 * 16384, k + " counts")
        lat = o["latency_ns"]
        need(0 < lat["p50"] <= lat["p99"] <= lat["max"], k + " percentiles")
        need(o["mb_per_s"] > 0, k + " bandwidth")
    need(len(x["conns"]) == 2 and
         len({c["server_conn"] for c in x["conns"]}) == 2, "conns")
r = t[3]
need(r["class"] == "connect" and r["exit_code"] == 4 and
     r["result"].startswith("connect: refused") and
     "nothing listens" in r["error"], "dead port %r" % r)
r = t[4]
need(r["class"] == "addr" and r["exit_code"] == 2 and r["address"] == "10.99.0.77",
     "silent address %r" % r)
r = t[5]
need(r["class"] == "addr" and r["exit_code"] == 2 and r["address"] is None and
     r["connections"] == 0 and r["result"] == "addr: unknown host" and
     "cannot resolve" in r["error"], "unresolved %r" % r)
x = t[0]["ops"]["read"]
print("# first target: READ p50 %d ns, p99 %d ns, %.2f MB/s" %
      (x["latency_ns"]["p50"], x["latency_ns"]["p99"], x["mb_per_s"]))
PY
for pid in "${pids[@]}"; do
	kill -0 "$pid" 2>/dev/null || fail "an rdmad (pid $pid) died"
done
exit 0
