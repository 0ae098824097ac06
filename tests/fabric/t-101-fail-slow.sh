#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Fail-slow on the wire (issue 35): a NIC that lost bandwidth, from a rate
# limit on one host's link (tc tbf), named by the gray verdict
# RdmadNicSlow from what the agents decided of their bandwidth samples.
# Two racks of two hosts, every rdmad on one inventory probing its rack
# neighbour and one host of the other rack (no slot moves on within the
# test: fab_quiet_epoch) on 2 paths, a round every 500 ms and a bandwidth
# sample of each peer every second (WRITEs of 4 KiB, 4 in flight, for
# 50 ms; at most 25 % of the time); a Prometheus and an Alertmanager on the
# monitoring host with the mixin rendered with decidedAlerts and t-99's
# short windows (fab_verdict_override).
#   0. healthy: each path's slow test learnt its usual bandwidth (the
#      samples' mean and spread: up to 256 samples where they spread wide,
#      docs/mesh.md), then nothing for 30 s;
#   1. host 4's link limited to 2 Mbit/s each way (tbf, 8 kB burst,
#      400 ms of queue, so nothing is dropped; a sample's 16 KiB in
#      flight wait 66 ms, two probers' at once 131 ms, so the rounds
#      behind them are not late; at 8 Mbit/s with 16 KiB WRITEs the
#      limit was about the samples' own median on a busy build host:
#      healthy samples ran 0.3-4.4 MB/s there, 1.7-12 MB/s on a quiet one):
#      exactly RdmadNicSlow of host 4 (its two probers' pairs into it
#      slow); the limit lifted: nothing, once the agents' tests came back.
#      The pair alerts on decided states (off by default) are left out
#      of what the test wants in every phase (HOLD_OK, below); t-100 and
#      verdict-sim check their inhibition.
# The samples' rates before and during the fault and the times from the
# limit to the verdict and from the lift to resolved are logged (the
# closing note's figures).  Needs --racks 2; alone:
#   tests/fabric/fabric --hosts 4 --racks 2 --per-test 1200 suite tests/fabric/t-101-fail-slow.sh
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require_racks 2
fab_require 4
fab_require_alerting

fab_decided_mixin
FAB_AM=127.0.0.1:9093 FAB_VERDICT_PROM=127.0.0.1:9090
EPOCH=$(fab_quiet_epoch 4 7471 1) || exit 1
fab_rack_mesh_start 4 7471 "mesh.interval = 500ms" "mesh.sizes = 64" "mesh.paths = 2" \
	"mesh.cross_tor = 1" "$EPOCH" "mesh.round_timeout = 5s" \
	"mesh.connect_timeout = 800ms" "mesh.backoff_min = 500ms" "mesh.backoff_max = 2s" \
	"mesh.bandwidth_every = 1s" "mesh.bandwidth_duration = 50ms" "mesh.bandwidth_size = 4k" \
	"mesh.bandwidth_share = 25%" \
	"http.listen = 0.0.0.0:9470" "http.allow = 127.0.0.0/8" "http.allow = 10.99.0.0/24"
fab_at_once "1 2 3 4" fab_rack_wait_up 60 2
fab_log "mesh up: 8 pairs verified, each host probing its rack neighbour and one host of the other rack"
fab_decided_monitor 4

# rates WHAT: each host's last sample of each path, MB/s, one line
# (/peers: compact series have no peer's bandwidth).
rates() {
	fab_log "$1: last samples (MB/s): $(fab_peers_eval 4 '" ".join("%s/%d %s" % (p["host"], q["path"], "-" if q.get("bandwidth_bytes_per_second") is None else "%.2f" % (q["bandwidth_bytes_per_second"] / 1e6)) for p in d["peers"] for q in p["paths"])' | paste -sd';' - | sed 's/;/; /g')"
}
# Every peer past learning, the slow test's too (/peers' bandwidth_learnt:
# its 2 paths' samples together, 32 of them, and more where they spread
# wide: 58 at 30 %, 161 at 50 %; until 2026-12-01 the test waited for 400
# samples a host, about 194 s, whatever the spread).
learning() {
	fab_peers_eval 4 'sum(1 for p in d["peers"] if p["health"] == "learning" or not p.get("bandwidth_learnt"))' >"$T/learning"
	[ "$(grep -c ': 0$' "$T/learning")" = 4 ]
}
t_learn=$(fab_now)
until learning; do
	awk -v t="$(fab_since "$t_learn")" 'BEGIN { exit !(t < 600) }' ||
		fab_fail "peers still learning after 600 s (learning, by host): $(paste -sd' ' "$T/learning")"
	sleep 3
done
samples=""
for i in 1 2 3 4; do
	fab_scrape "$i" "$T/samples-$i.prom"
	samples+=" $(prom_sum "$T/samples-$i.prom" rdmad_mesh_bandwidth_samples_total)"
done
fab_log "every peer learnt after $(fab_since "$t_learn") s, its host's samples by then:$samples"
for i in 1 2 3; do rates "learnt ($i)"; sleep 3; done

# A pair alert on what an agent decided (RdmadPairSlow, off by default:
# docs/mesh.md) may come and go in any phase (fab_am_got): under CI's load
# one healthy pair was decided slow right after its learning (CI-D,
# 2026-12-01: the guests' bandwidth moves with the build host's load),
# while the verdicts, which want most of a NIC's pairs, named nothing.
# What this test claims is the verdicts'.
HOLD_OK=$(fab_pair_alerts RdmadPairSlow "1 2" "1 3" "1 4" "2 1" "2 3" "2 4" "3 1" "3 2" "3 4" "4 1" "4 2" "4 3")

# 0. Healthy: no alert but those, for 30 s.
fab_am_hold "healthy fabric" "" 30
fab_log "healthy: the Alertmanager held no verdict for 30 s"

# limit: the rate limit, and the samples it leaves (logged 5 s later, in
# the background: the verdict's time runs from the limit)
limit() {
	fab_tbf 4 both "rate 2mbit burst 8kb latency 400ms"
	(sleep 5 && rates "host 4 limited") &
	rates_job=$!
}

# 1. Host 4's link limited to 2 Mbit/s.
fab_am_scenario "host 4 limited to 2 Mbit/s" "RdmadNicSlow peer_tor=r2 peer_host=h4 rail=0" \
	"limit" "fab_netem_clear 4" 0 \
	"host 4's pairs decided slow" 'peer_host_rail:rdmad_mesh_pairs_decided_slow:count{peer_host="h4"}' 240 420
wait "$rates_job"
rates "after the limit"
fab_mon_clean
exit 0
