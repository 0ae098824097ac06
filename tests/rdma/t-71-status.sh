#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live status: while three native and one rping client are connected,
# `rdmadctl status` lists each of them (peer, protocol, state) and
# `rdmadctl --json status` is a JSON document with the same connections;
# afterwards it shows none and the counters.  The endpoint's
# configuration (reloads, [http] allow, a taken port, IPv6, the wildcard,
# rdmadctl's own errors) is the host suite's t-31-http-endpoint.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
need ctl
http=127.0.0.1:9482
rdmad_up 7483 "http.listen = $http" "timeouts.session = 10m" "timeouts.idle = 10m"

# The four clients are held open while the status is read: each is
# stopped (SIGSTOP) once rdmad logged its open, and let go afterwards
# (SIGCONT).  A stopped client keeps its connection: rdmad's liveness
# checks need only its HCA; -t 300, a session deadline and an idle one
# (rping's next advert) of 10 min outlast the stop (idle's default 10 s
# once reaped the stopped rping client: "server disconnected during
# ping 38").  No client can end before the status shows it,
# however slow the guest (a loaded one once took 16 s between two
# rdmadctl runs, and CI's landing run 600 s over 4000 pings).
# A native client runs 2 x 10 s, the rping one 1000 pings: time enough
# for its stop (-D 2 ended a client before it, in a run beside three
# more CPU-heavy jobs).
pids=() real=()
# hold JOB: the client behind JOB stopped once rdmad logged one more open
hold() {
	local pid
	pid=$(real_pid "$1" rdma-probe)
	log_has_n 'open: ' "$opens" 120 "$T/rdmad.log" ||
		fail "client $pid: rdmad logged no open ($(tail -3 "$T/rdmad.log"))"
	kill -STOP "$pid" || fail "cannot stop client $pid: it ended first: $(cat "$T"/n?.out "$T/r.out")"
	real+=("$pid")
}
opens=0
for s in 1 2 3; do
	cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -t 300 -s 4k -D 10 --seed $s "$RDMAD_SRV_ADDR" \
		>"$T/n$s.out" 2>&1 &
	pids+=($!)
	opens=$((opens + 1))
	hold $!
done
cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -t 300 --rping -n 1000 "$RDMAD_SRV_ADDR" >"$T/r.out" 2>&1 &
pids+=($!)
opens=$((opens + 1))
hold $!
# The JSON and the text are taken together, until both show the four
# (the RTU may lag the open).
for ((i = 0; i < 300; i++)); do
	"$CTL" -c "$T/rdmad.ini" --json status >"$T/live.json" 2>"$T/ctl.err" || fail "rdmadctl --json status: $(cat "$T/ctl.err")"
	"$CTL" -c "$T/rdmad.ini" status >"$T/live.txt" || fail "rdmadctl status failed"
	# all four accepted, and each past "accepting"
	grep -q '"active":4,' "$T/live.json" && ! grep -q '"state":"accepting' "$T/live.json" &&
		grep -q "^connections: 4 active of 64;" "$T/live.txt" &&
		[ "$(grep -cE " established/" "$T/live.txt")" = 4 ] && break
	sleep 0.1
done
kill -CONT "${real[@]}"
cat "$T/live.txt" >&2
grep -q '"active":4,' "$T/live.json" || fail "4 clients never showed as active: $(cat "$T/live.json")"
# The table: a row per client, from the client address, with its protocol.
n=$(grep -cE "^ +[0-9]+  $RDMAD_CLI_ADDR:[0-9]+ +native +established/" "$T/live.txt")
[ "$n" = 3 ] || fail "status shows $n established native rows, want 3"
n=$(grep -cE "^ +[0-9]+  $RDMAD_CLI_ADDR:[0-9]+ +rping +established/" "$T/live.txt")
[ "$n" = 1 ] || fail "status shows $n established rping rows, want 1"
grep -q "^connections: 4 active of 64;" "$T/live.txt" || fail "status summary line"
grep -q "^listening: $RDMAD_SRV_ADDR:$port (up)" "$T/live.txt" || fail "status listener line"

for p in "${pids[@]}"; do
	wait "$p" || fail "a probe failed: $(cat "$T"/n?.out "$T/r.out")"
done
for ((i = 0; i < 100; i++)); do
	"$CTL" -c "$T/rdmad.ini" status >"$T/after.txt" && grep -q "^no connections" "$T/after.txt" && break
	sleep 0.1
done
grep -q "^no connections" "$T/after.txt" || fail "connections left after the probes: $(cat "$T/after.txt")"
grep -q "^connections: 0 active of 64; 4 accepted, 0 rejected; sessions 4 ok, 0 failed" "$T/after.txt" ||
	fail "status counters after: $(cat "$T/after.txt")"
"$CTL" -c "$T/rdmad.ini" --json status >"$T/after.json" || fail "rdmadctl --json status (after)"

"$PY" - "$T/live.json" "$T/after.json" "$RDMAD_CLI_ADDR" <<'PY' || fail "status JSON checks failed"
import json, sys
live, after, cli = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
def need(c, what):
    if not c:
        sys.exit("status JSON: " + what)
need(live["connections"]["active"] == 4 and len(live["active"]) == 4, "4 active")
need(sorted(c["proto"] for c in live["active"]) == ["native"] * 3 + ["rping"], "protocols")
need(len({c["id"] for c in live["active"]}) == 4, "ids unique")
for c in live["active"]:
    need(c["peer"].startswith(cli + ":"), "peer %r" % c["peer"])
    need(c["state"].startswith("established/"), "state %r" % c["state"])
    need(c["age_seconds"] >= 0, "age")
need(live["listeners"][0]["up"] is True, "listener up")
need(live["uptime_seconds"] > 0 and live["pid"] > 1, "uptime, pid")
need(after["active"] == [] and after["connections"]["accepted"] == 4, "after: none active")
need(after["sessions"]["native"]["ok"] == 3 and after["sessions"]["rping"]["ok"] == 1, "after: sessions")
need(after["bytes"]["native"]["read"] > 0 and after["bytes"]["rping"]["write"] > 0, "after: bytes")
print("status JSON ok")
PY

rdmad_alive
exit 0
