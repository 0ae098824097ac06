#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The gray verdicts on the wire, from what the agents decided (issue 35):
# two racks of two hosts, every rdmad on one inventory probing its rack
# neighbour and one host of the other rack every 500 ms on each of 4 paths
# (host 4: host 3 and one of hosts 1, 2, minProbers; a peer's paths judged together: at
# 0.5 % loss one path's rounds left a pair undecided after 7 minutes), a Prometheus and an Alertmanager on
# the monitoring host with the mixin rendered with decidedAlerts (the
# agents' states, the gray verdicts, their inhibition rules) and the short
# windows of t-99.  No cross-ToR slot moves on while the test runs
# (fab_quiet_epoch: with 24 h, host 2's moved at 18:41 UTC inside a CI
# run's loss phase, and host 1, host 4's new prober, had no time left to
# decide).  Rounds time out after 5 s: a round that met a lost
# packet verifies late (RC's retransmission, 0.537 s on rxe) rather than
# failing, and a failed round takes its path down (a flap).  A path is
# flapping at 3 flaps within 120 s (flap_window, shortened from 5 min so the
# verdict clears within the test; at 60 s three pulls under load, each
# waiting for its flap and then for the path back, 32 s a pull, never had
# three within the window).  The loss test tells a lossy path by 2 %
# of its rounds bad (lossy_bad, 1 % by default): a pair's way back takes
# 416 good rounds, 52 s at 8 rounds a second (at 1 %, 889: 111 s); at 5 %,
# above what 0.5 % packet loss makes of a round (1-2 % bad), a pair sat
# near the test's indifference and the uplink's four pairs were not all
# lossy at once within 7 minutes.  What fires is what the Alertmanager
# holds active (not resolved, silenced or inhibited):
#   0. healthy, rounds learnt: nothing, for 30 s (from then on a pair
#      decided lossy, RdmadPairRetransmitting, may come and go on any
#      pair: HOLD_OK, below);
#   1. host 4's cable pulled three times, each until its probers count
#      one flap more (a round timed out, a reconnect failed): exactly RdmadNicFlapping
#      of host 4 (its two probers each decided flapping, each pull a flap
#      once a reconnect met it: a path back at its first reconnect lost a
#      round, not its link; one verdict with
#      its count, not a storm of downs and ups; the pair alerts it explains
#      inhibited) and host 4's own account, RdmadPortFlapping; after a
#      flap window without a down, nothing;
#   2. host 4's link losing 2 % each way: exactly RdmadNicRetransmitting
#      of host 4 (its probers' pairs into it decided lossy, or its own
#      place pools, both; the pair out of it is one of each of its peers'
#      two: no verdict there); cleared:
#      nothing, once the agents' tests came back;
#   3. the uplink between the racks losing 1 % each way: exactly
#      RdmadTorUplinkRetransmitting of r1 and r2 (every cross-ToR pair
#      lossy, or more than half of each rack's cross-ToR place pools, none
#      inside a rack); cleared: nothing.
# The times from each fault to its verdict and from each heal to resolved
# are logged (the closing note's figures).  Needs --racks 2; its three
# faults and heals take about 400 s alone, 540-670 s beside other work
# (hence the suite's per-test deadline of 1,200 s).  Back in the suite
# since a stall is no evidence at all (a late round is judged only once a
# round that started after it ended came in, and never beside another
# late one: docs/mesh.md); alone:
#   tests/fabric/fabric --hosts 4 --racks 2 --per-test 1200 suite tests/fabric/t-100-gray-verdicts.sh
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require_racks 2
fab_require 4
fab_require_alerting

# t-99's windows and the alerts on what the agents decided
# (fab_decided_mixin), and a port's flaps counted over the agents' flap
# window (120 s, not 15 min)
fab_decided_mixin "portFlapWindow: '2m'"

M=()
for i in 1 2 3 4; do M[i]=$(fab_mgmt_addr "$i"); done
FAB_AM=127.0.0.1:9093 FAB_VERDICT_PROM=127.0.0.1:9090
EPOCH=$(fab_quiet_epoch 4 7471 1) || exit 1
fab_rack_mesh_start 4 7471 "mesh.interval = 500ms" "mesh.sizes = 64 4k" "mesh.paths = 4" \
	"mesh.cross_tor = 1" "$EPOCH" "mesh.round_timeout = 5s" \
	"mesh.connect_timeout = 800ms" "mesh.backoff_min = 500ms" "mesh.backoff_max = 2s" \
	"mesh.flap_window = 120s" "mesh.lossy_bad = 2%" \
	"http.listen = 0.0.0.0:9470" "http.allow = 127.0.0.0/8" "http.allow = 10.99.0.0/24"
fab_at_once "1 2 3 4" fab_rack_wait_up 60 2
fab_log "mesh up: 8 pairs verified, each host probing its rack neighbour and one host of the other rack"
fab_decided_monitor 4
t_prom=$(fab_now)

# health: each host's paths' decided states, one line ("h1: P health ...")
health() {
	fab_peers_eval 4 '", ".join("%s %s" % (p["peer"], p.get("health", "?")) for p in d["peers"])'
}
# decisions WHAT: each host's log lines of a path decided lossy or back
# (how many rounds of how many judged were bad), for the note's figures.
decisions() {
	local i
	for i in 1 2 3 4; do
		fab_sh "$i" -t 30 "grep lossy \$T/rdmad.log | tail -4" >"$T/decided-$i.log" 2>&1 || continue
		[ -s "$T/decided-$i.log" ] && fab_log "$1: host $i decided: $(paste -sd'|' "$T/decided-$i.log")"
	done
	return 0
}
trap 'decisions "at the end"; fab_leave' EXIT
# late WHAT: each host's late rounds since the last call, by what its loss
# tests made of them (rdmad_mesh_prober_late_rounds_total: judged, set
# aside as a stall's, set aside under local pressure), and its rounds
# under pressure of all its rounds: how much evidence the load set aside
# (the note's figures; under CI's load the lossy verdicts took 6-7 times
# as long as on a quiet machine).
declare -A LATE=()
late() {
	local i k v line=""
	for i in 1 2 3 4; do
		fab_scrape "$i" "$T/late-$i.prom"
		line+=" h$i"
		for k in judged stall pressured all-pressured all; do
			case $k in
			all-pressured) v=$(prom_sum "$T/late-$i.prom" rdmad_mesh_prober_rounds_pressured_total) ;;
			all) v=$(prom_sum "$T/late-$i.prom" rdmad_mesh_rounds_total) ;;
			*) v=$(prom_sum "$T/late-$i.prom" rdmad_mesh_prober_late_rounds_total "fate=\"$k\"") ;;
			esac
			v=${v%%.*}
			line+=" $k $((v - ${LATE[$i$k]:-0}))"
			LATE[$i$k]=$v
		done
		line+=";"
	done
	fab_log "$1: late rounds (judged, stall, pressured) and rounds (pressured, all) since the last:$line"
}

# pools_mark; pools WHAT: what each host's place pools (its rail's peers
# under its ToR, and under others: rdmad_mesh_rail_place_health, which the
# lossy verdicts read too) decided since the mark, each change with the seconds
# since the mark on the host's own clock (the next step's figures: how
# soon a pool that outlives the epoch names a fault, and whether it
# speaks on a healthy fabric).
pools_mark() {
	local i
	for i in 1 2 3 4; do
		fab_sh "$i" -t 30 'date +%s.%N >$T/pools-mark; wc -l <$T/rdmad.log >$T/pools-line' >/dev/null ||
			fab_fail "host $i: cannot mark its log"
	done
}
pools() {
	local i out line=""
	for i in 1 2 3 4; do
		out=$(fab_sh "$i" -t 30 'read -r t0 <$T/pools-mark; read -r n <$T/pools-line
tail -n +$((n + 1)) $T/rdmad.log | grep "its peers under" | while read -r ts _ _ rest; do
	t=$(date -d "${ts/T/ }" +%s.%N)
	awk -v t="$t" -v t0="$t0" -v r="${rest%%: too many*}" '"'"'BEGIN { printf "%+.1fs %s; ", t - t0, r }'"'"'
done') || out="(cannot read its log)"
		line+=" h$i: ${out:-none};"
	done
	fab_log "$1: the place pools' changes since the mark:$line"
}

# Every path past learning (the loss test judges from 16 good rounds).
for ((k = 0; k < 120; k++)); do
	h=$(health)
	grep -q learning <<<"$h" || break
	sleep 1
done
[ "$k" -lt 120 ] || fab_fail "paths still learning after 120 s: $h"
fab_log "every path decided: $h"
late "learning"
pools_mark

# 0. Healthy: nothing, for 30 s, not even a pair alert.
fab_am_hold "healthy fabric" "" 30
fab_log "healthy: the Alertmanager held no alert for 30 s"

# From here on a pair decided lossy may come and go in any phase on any
# pair, each logged once when first seen (HOLD_OK, fab_am_got): a pair's
# loss test is noisy on a loaded host (docs/mesh.md: under CI's load, in
# CI-G of 2026-12-01, host 2 decided its healthy pair to host 3 lossy
# during the flaps, 6 of 831 rounds judged late, a stall of one round in
# flight it could not tell from a retransmission), while the verdicts,
# which want a part to stand out, named nothing else.  What this test
# claims is the verdicts' (exactly these, none other) and the pair alerts'
# inhibition of phase 1 (RdmadPairFlapping).
HOLD_OK=$(fab_pair_alerts RdmadPairRetransmitting "1 2" "1 3" "1 4" "2 1" "2 3" "2 4" "3 1" "3 2" "3 4" "4 1" "4 2" "4 3")

# probers_of_4: the hosts that probe host 4 now (host 3, its rack
# neighbour, and the one of hosts 1, 2 whose cross-ToR slot holds it; no
# slot moves on within the test: fab_quiet_epoch).
probers_of_4() {
	local i
	for i in 1 2 3; do
		fab_peer_rows "$i" "$T/peers-$i.json" | grep -q "^$(fab_peer 4)|" && echo "$i"
	done
}
# flap N: host 4's cable out until each of its probers counts a flap more
# (rdmad_mesh_peer_flaps, as t-91 waits: a round timed out and a
# reconnect failed; a pull healed before the reconnect failed is a lost
# round, no flap: with 4 paths a peer its rounds alone time out 4 at once),
# 60 s at most; back until its probers have it up again; N times.
flaps_at_least() { [ "${1:-0}" -ge "$n" ]; }
flap() {
	local n i p
	for ((n = 1; n <= $1; n++)); do
		p=$(probers_of_4 | paste -sd' ' -)
		fab_link 4 down
		for i in $p; do
			fab_wait_sum "$i" 60 flaps_at_least rdmad_mesh_peer_flaps "peer=\"$(fab_peer 4)\"" ||
				fab_fail "host $i: host 4's cable pulled $n times, $FAB_SUM flaps after 60 s: its reconnects did not count the outage"
		done
		fab_link 4 up
		fab_at_once "$p" fab_mesh_wait_up_peer "$(fab_peer 4)" 60
	done
}
fab_mesh_wait_up_peer() { fab_mesh_wait_up "$1" "$3" "$2"; }

# The pair alerts each fault may raise (ALSO_OK, fab_pair_alerts; the
# lossy pairs' are in HOLD_OK above): a pair alert is the agent's own
# decision, at once; the verdict that explains it (and has the
# Alertmanager inhibit it) waits for a second prober's: until then it may
# be active.  Every pair that may carry the fault is named (which of
# hosts 1, 2 probes host 4 is the epoch's).
# 1. Host 4's cable flapping.
ALSO_OK=$(fab_pair_alerts RdmadPairFlapping "1 4" "2 4" "3 4" "4 1" "4 2" "4 3") \
fab_am_scenario "host 4 flapping" "RdmadNicFlapping peer_tor=r2 peer_host=h4 rail=0
RdmadPortFlapping instance=${M[4]}:9470" "flap 3" ":" 0 \
	"host 4's pairs decided flapping" 'peer_host_rail:rdmad_mesh_pairs_decided_flapping:count{peer_host="h4"}' 150 240
fab_log "after the flaps: $(health)"
late "healthy and the flaps"
pools "healthy and the flaps"
pools_mark

# 2. Host 4's link losing 2 % each way (0.5 % makes only 0.3-0.5 % of
# rounds late on rxe, below the drift of the test's CUSUM: its verdict
# came by luck or not within 420 s; docs/faults.md).
fab_am_scenario "host 4 losing 2 %" "RdmadNicRetransmitting peer_tor=r2 peer_host=h4 rail=0" \
	"fab_netem 4 both 'loss 2%'" "fab_netem_clear 4" 0 \
	"host 4's pairs decided lossy" 'peer_host_rail:rdmad_mesh_pairs_decided_lossy:count{peer_host="h4"}' 420 420
fab_log "after the loss: $(health)"
decisions "host 4's loss"
late "host 4's loss and its way back"
pools "host 4's loss and its way back"
pools_mark

# 3. The uplink losing 1 % each way (at 0.5 % the four cross-ToR pairs,
# all of which the verdict wants lossy at once with two hosts a rack, were
# not within 277-420 s in three runs: the slowest of four decides).
fab_am_scenario "uplink losing 1 %" "RdmadTorUplinkRetransmitting peer_tor=r1
RdmadTorUplinkRetransmitting peer_tor=r2" "fab_uplink_netem 1 'loss 1%'" "fab_uplink_netem_clear 1" 0 \
	"cross-ToR pairs decided lossy by ToR" 'source_tor:rdmad_mesh_pairs_decided_lossy:count' 420 420
late "the uplink's loss and its way back"
pools "the uplink's loss and its way back"
fab_log "the Prometheus ran $(fab_since "$t_prom") s"
fab_mon_clean
exit 0
