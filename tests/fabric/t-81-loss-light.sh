#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Light loss (0.5 %) and corruption (0.5 %; rxe drops a packet whose ICRC
# is bad) on the server's NIC, both directions: RC retransmits, so every
# READ and WRITE still verifies, and the probe's tail shows the
# retransmissions: its worst operation takes at least 5x the clean run's
# p50 (measured: p50 ~15 ms, p99 2-7 s; rxe retransmits on its ACK
# timeout).
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require 2
A1=$(fab_addr 1)
fab_rdmad_start 1 7471

probe() { # probe NAME: 64 KiB READ+WRITE x 30, JSON in $T/NAME.json
	fab_sh 2 -t 240 "\$PROBE -s 64k -n 30 -t 60 --json $A1 2>/dev/null" >"$T/$1.json"
	rc=$?
	[ "$rc" = 0 ] || fab_fail "$1: probe exit $rc: $(json_get "$T/$1.json" 'd["runs"][0]["conns"][0]["error"]')"
	[ "$(json_get "$T/$1.json" 'd["runs"][0]["conns"][0]["reads_done"] + d["runs"][0]["conns"][0]["writes_done"]')" = 60 ] ||
		fab_fail "$1: not 30 READs and 30 WRITEs verified"
}
worst() { json_get "$T/$1.json" 'max(o["latency_ns"]["max"] for o in d["runs"][0]["ops"].values())'; }
p50() { json_get "$T/$1.json" 'max(o["latency_ns"]["p50"] for o in d["runs"][0]["ops"].values())'; }

probe clean
base=$(p50 clean)
fab_log "clean: p50 $(fab_ms "$base") ms, worst $(fab_ms "$(worst clean)") ms"
for fault in "loss 0.5%" "corrupt 0.5%"; do
	name=${fault%% *}
	fab_netem 1 both "$fault"
	probe "$name"
	fab_netem_clear 1
	w=$(worst "$name")
	fab_log "$fault: all verified; p50 $(fab_ms "$(p50 "$name")") ms, worst $(fab_ms "$w") ms"
	[ "$w" -ge $((5 * base)) ] ||
		fab_fail "$fault: worst operation $(fab_ms "$w") ms is not 5x the clean p50: no retransmission seen"
done
