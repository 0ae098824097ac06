#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Across the wire, no fault: rdmad on host 1; from host 2 rdma-probe
# (native READ+WRITE and --rping) and stock `rping -c -V`, all verified;
# perftest into host 3 (from host 2, else 4 or 1); rdma-probe --targets over rdmads on hosts
# 1-3 from host 4.  Proof that packets cross the wire and not rxe's
# loopback: 10 ms of netem delay on host 1's NIC raises the probe's 64-byte
# READ p50 by at least 9 ms (inside one kernel it would not move).
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require 4
A1=$(fab_addr 1) A2=$(fab_addr 2)

fab_rdmad_start 1 7471
fab_sh 2 "\$PROBE -s 64k -n 20 --json $A1" >"$T/native.json" ||
	fab_fail "native probe across the wire: $(cat "$T/native.json")"
[ "$(json_get "$T/native.json" 'd["runs"][0]["conns"][0]["reads_done"]')" = 20 ] &&
	[ "$(json_get "$T/native.json" 'd["runs"][0]["conns"][0]["writes_done"]')" = 20 ] ||
	fab_fail "native probe: not 20 READs and 20 WRITEs"
fab_log "native 64 KiB x 20 verified: READ p50 $(fab_ms "$(json_get "$T/native.json" \
	'd["runs"][0]["ops"]["read"]["latency_ns"]["p50"]')") ms," \
	"WRITE p50 $(fab_ms "$(json_get "$T/native.json" 'd["runs"][0]["ops"]["write"]["latency_ns"]["p50"]')") ms"

fab_sh 2 "\$PROBE --rping -p 7471 -s 4k -n 20 --json $A1" >"$T/rping.json" ||
	fab_fail "rdma-probe --rping across the wire: $(cat "$T/rping.json")"
fab_log "rdma-probe --rping 4 KiB x 20 verified"

n=$(fab_sh 2 "rping -c -a $A1 -p 7471 -V -v -C 20 -S 4096 2>/dev/null | grep -c 'ping data'")
[ "$n" = 20 ] || fab_fail "stock rping -c -V across the wire: $n verified pings of 20"
fab_log "stock rping -c -V: 20 of 20 pings verified"

# perftest's client now and then crashes on an rdma_cm event ("Failed to
# handle RDMA CM event ... Operation not supported", then SIGSEGV; seen
# twice in ~40 runs, also between fabric hosts that had talked before;
# in one CI run three times in a row from host 2, each an
# RDMA_CM_EVENT_REJECTED with reason 8, invalid service id, although host
# 3 listed the listener; the same pair right after a fresh boot passed 4
# of 4): the reference tool gets five tries, each on a fresh port, from
# hosts 2, 4 and 1 in turn (any of them proves the wire), 2 s apart.  Its
# server once did not come to listen in 30 s (CI, first try; its output
# only the inline notice): that is a try too.
srcs=(2 4 1 2 4)
for try in 1 2 3 4 5; do
	pp=$((18514 + try))
	src=${srcs[try - 1]}
	fab_spawn 3 "perf-srv$try" "exec timeout 100 ib_read_lat -R -s 64 -n 500 -p $pp"
	if ! fab_listening 3 $pp; then
		fab_kill 3 "perf-srv$try"
		echo "server not listening after 30 s: $(fab_wait 3 "perf-srv$try" 10 | tail -2)" >"$T/perf.out"
	elif fab_sh "$src" -t 120 "ib_read_lat -R -s 64 -n 500 -p $pp $(fab_addr 3) 2>&1" >"$T/perf.out"; then
		break
	fi
	fab_log "ib_read_lat $src -> 3, try $try: $(grep -m1 -E 'Event:|not listening' "$T/perf.out") $(tail -2 "$T/perf.out" | tr '\n' ' ')"
	fab_kill 3 "perf-srv$try"
	[ "$try" = 5 ] && fab_fail "ib_read_lat -> 3 failed five times: $(tail -5 "$T/perf.out")"
	sleep 2
done
fab_wait 3 "perf-srv$try" 30 >/dev/null
typ=$(awk '$1 == 64 && $2 == 500 { print $5 }' "$T/perf.out")
[ -n "$typ" ] || fab_fail "no ib_read_lat figures: $(tail -5 "$T/perf.out")"
fab_log "ib_read_lat 64 B host $src -> host 3: typical $typ us"

# The wire is real: delay on host 1's NIC shows in the probe's latency.
fab_sh 2 "\$PROBE --op read -s 64 -n 40 --json $A1" >"$T/lat0.json" || fab_fail "64 B probe failed"
fab_netem 1 out "delay 10ms"
fab_sh 2 "\$PROBE --op read -s 64 -n 40 --json $A1" >"$T/lat1.json" || fab_fail "64 B probe with delay failed"
fab_netem_clear 1
p0=$(json_get "$T/lat0.json" 'd["runs"][0]["ops"]["read"]["latency_ns"]["p50"]')
p1=$(json_get "$T/lat1.json" 'd["runs"][0]["ops"]["read"]["latency_ns"]["p50"]')
m1=$(json_get "$T/lat1.json" 'd["runs"][0]["ops"]["read"]["latency_ns"]["min"]')
fab_log "64 B READ p50: $(fab_ms "$p0") ms; with 10 ms delay on host 1: $(fab_ms "$p1") ms (the fastest $(fab_ms "$m1") ms)"
# Every answer crossed the delay, so even the fastest READ took 10 ms: a
# load only adds (a p50 difference failed in CI: 6.3 -> 14.2 ms, the
# baseline's p50 taken on a loaded machine).
[ "$m1" -ge 9500000 ] || fab_fail "the delay did not show (the fastest READ $(fab_ms "$m1") ms with 10 ms on host 1's NIC): the packets did not cross the wire"

# --targets over every rdmad, from a fourth host.
fab_rdmad_start 2 7471
fab_rdmad_start 3 7471
fab_sh 4 "printf '%s\n' $A1 $A2 $(fab_addr 3) >\$T/targets
\$PROBE -s 16k -n 10 --json --targets \$T/targets" >"$T/targets.json" ||
	fab_fail "--targets over hosts 1-3: $(head -c 3000 "$T/targets.json")"
ok=$(json_get "$T/targets.json" 'sum(1 for t in d["targets"] if t["exit_code"] == 0)')
[ "$ok" = 3 ] || fab_fail "--targets: $ok of 3 hosts verified"
fab_log "--targets from host 4: 3 of 3 rdmads verified"
