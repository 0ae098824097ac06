#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The prober's share (docs/mesh.md): a CPU hog on one prober.  Three
# rdmads probe each other every 200 ms with 64 B rounds.  Host 3 (1 vCPU)
# runs two busy shell loops, twice for 30 s:
#  - first with the split off ([mesh] prober_lag_max = 0, prober_wait_max
#    = 0): what its pair figures say without it (the "before": the p99 of
#    its rounds, which RdmadLatencySLO reads, against the mixin's 5 ms);
#  - then with the defaults (a reload): its rounds are flagged (its
#    pressured counter climbs, its loop lag and run-queue wait rise), and
#    the p99 of the rounds kept in its histogram stays under the 5 ms.
# The other probers' pressured counters stay near 0 throughout.  Their
# rounds TO host 3 are logged, not judged: the hogged host answers slower
# as a target too (rxe's responder is kernel work that waits for its CPU),
# which is the network's share as a prober can see it.
# The hog is killed at the end, also on failure.
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require 3
P1=$(fab_peer 1) P2=$(fab_peer 2) P3=$(fab_peer 3)
hog_stop() { fab_sh 3 -t 30 "[ -f \$T/hog.pids ] && kill \$(cat \$T/hog.pids); rm -f \$T/hog.pids" >/dev/null 2>&1; }
trap 'hog_stop; fab_leave' EXIT
hog_start() {
	fab_sh 3 "for k in 1 2; do setsid sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 & echo \$!; done >\$T/hog.pids" ||
		fab_fail "host 3: cannot start the CPU hog"
	fab_log "host 3: CPU hog on (2 busy loops, pids $(fab_sh 3 'cat $T/hog.pids' | tr '\n' ' '))"
}
# split off|on: host 3's [mesh] prober_* keys, by a reload
split() {
	local lag=0 wait=0
	[ "$1" = on ] && lag=10ms wait=50%
	fab_sh 3 "sed -i -e 's/^prober_lag_max = .*/prober_lag_max = $lag/' -e 's/^prober_wait_max = .*/prober_wait_max = $wait/' \$T/rdmad.ini && pkill -HUP -x rdmad" ||
		fab_fail "host 3: reload failed"
}
fab_mesh_start 3 7471 "mesh.interval = 200ms" "mesh.round_timeout = 2s" \
	"mesh.sizes = 64" "mesh.prober_lag_max = 10ms" "mesh.prober_wait_max = 50%"
fab_mesh_wait_up 1 30 "$P2" "$P3"
fab_mesh_wait_up 3 30 "$P1" "$P2"

scrape_all() { local i; for i in 1 2 3; do fab_scrape "$i" "$T/$1-$i.prom"; done; }
d() { # d NAME FROM TO HOST [LABEL...]: the change of a sum between scrapes
	local name=$1 a=$2 b=$3 i=$4
	shift 4
	awk -v x="$(prom_sum "$T/$a-$i.prom" "$name" "$@")" -v y="$(prom_sum "$T/$b-$i.prom" "$name" "$@")" 'BEGIN { printf "%.6g", y - x }'
}
# p99 FROM TO HOST [PEER]: ms, from host's round histogram between scrapes
# (its upper bucket bound; "none" without rounds)
p99() {
	local a=$1 b=$2 i=$3 sel=${4:-}
	{ grep "^rdmad_mesh_round_duration_seconds_bucket{peer=\"$sel" "$T/$a-$i.prom" | sed 's/^/A /'
	  grep "^rdmad_mesh_round_duration_seconds_bucket{peer=\"$sel" "$T/$b-$i.prom" | sed 's/^/B /'; } |
	awk '{ le = $2; sub(/.*le="/, "", le); sub(/".*/, "", le); v[le] += ($1 == "B" ? $NF : -$NF) }
	END { n = v["+Inf"]; if (!n) { print "none"; exit }
	      m = 0; for (l in v) if (l != "+Inf") s[++m] = l
	      for (j = 1; j <= m; j++) for (k = j + 1; k <= m; k++) if (s[k] + 0 < s[j] + 0) { t = s[j]; s[j] = s[k]; s[k] = t }
	      for (j = 1; j <= m; j++) if (v[s[j]] >= 0.99 * n) { printf "%.3g\n", s[j] * 1000; exit }
	      print "inf" }'
}
figures() { # figures FROM TO HOST: one line of what the host added
	local a=$1 b=$2 i=$3 n lag
	n=$(d rdmad_mesh_loop_lag_seconds_count "$a" "$b" "$i")
	lag=$(awk -v s="$(d rdmad_mesh_loop_lag_seconds_sum "$a" "$b" "$i")" -v n="$n" 'BEGIN { printf "%.2f", n ? s / n * 1000 : 0 }')
	echo "rounds $(d rdmad_mesh_rounds_total "$a" "$b" "$i"), pressured $(d rdmad_mesh_prober_rounds_pressured_total "$a" "$b" "$i"), loop lag mean ${lag} ms over $n samples (>10 ms: $(awk -v a="$(d rdmad_mesh_loop_lag_seconds_bucket "$a" "$b" "$i" 'le="+Inf"')" -v b="$(d rdmad_mesh_loop_lag_seconds_bucket "$a" "$b" "$i" 'le="0.01"')" 'BEGIN { print a - b }')), run-queue wait in rounds $(d rdmad_mesh_round_run_delay_seconds_total "$a" "$b" "$i") s, PSI in rounds $(d rdmad_mesh_round_cpu_pressure_seconds_total "$a" "$b" "$i") s, p99 kept $(p99 "$a" "$b" "$i") ms"
}

scrape_all c0
sleep 25
scrape_all c1
for i in 1 2 3; do fab_log "clean, host $i: $(figures c0 c1 "$i")"; done

split off
hog_start
sleep 5
scrape_all h0
sleep 30
scrape_all h1
for i in 1 2 3; do fab_log "hog, split off, host $i: $(figures h0 h1 "$i")"; done
before=$(p99 h0 h1 3)
fab_log "without the split: host 3's p99 to host 1 $(p99 h0 h1 3 "$P1") ms, to host 2 $(p99 h0 h1 3 "$P2") ms; RdmadLatencySLO (5 ms) would $(awk -v p="$before" 'BEGIN { print (p == "inf" || p > 5) ? "fire" : "not fire" }') for them"

split on
sleep 5
scrape_all s0
sleep 30
scrape_all s1
hog_stop
fab_log "host 3: CPU hog off"
for i in 1 2 3; do fab_log "hog, split on, host $i: $(figures s0 s1 "$i")"; done
fab_log "with the split: host 3's p99 kept to host 1 $(p99 s0 s1 3 "$P1") ms, to host 2 $(p99 s0 s1 3 "$P2") ms; host 1's p99 to host 3 $(p99 s0 s1 1 "$P3") ms (to host 2 $(p99 s0 s1 1 "$P2") ms), host 2's to host 3 $(p99 s0 s1 2 "$P3") ms"
fab_log "host 3's lines: $(fab_sh 3 "grep -c 'under local pressure' \$T/rdmad.log; grep 'under local pressure' \$T/rdmad.log | tail -1")"

# The hogged prober is flagged, by lag and CPU wait.
n3=$(d rdmad_mesh_rounds_total s0 s1 3)
p3=$(d rdmad_mesh_prober_rounds_pressured_total s0 s1 3)
awk -v p="$p3" -v n="$n3" 'BEGIN { exit !(n > 0 && p >= 0.2 * n) }' ||
	fab_fail "hog: host 3 flagged $p3 of its $n3 rounds, want 20 % or more"
[ "$(d rdmad_mesh_rounds_pressured_total s0 s1 3 "peer=\"$P1\"")" -gt 0 ] &&
	[ "$(d rdmad_mesh_rounds_pressured_total s0 s1 3 "peer=\"$P2\"")" -gt 0 ] ||
	fab_fail "hog: host 3's pressured rounds are not counted per peer: $(grep '^rdmad_mesh_rounds_pressured_total' "$T/s1-3.prom")"
awk -v h="$(d rdmad_mesh_round_run_delay_seconds_total s0 s1 3)" -v c="$(d rdmad_mesh_round_run_delay_seconds_total c0 c1 3)" 'BEGIN { exit !(h > c && h > 0) }' ||
	fab_fail "hog: host 3's run-queue wait in rounds did not rise"
# Its pairs raise no latency flag: the p99 of the rounds it kept is under
# the mixin's SLO (5 ms).
kept=$(p99 s0 s1 3)
awk -v p="$kept" 'BEGIN { exit !(p == "none" || (p != "inf" && p <= 5)) }' ||
	fab_fail "hog, split on: host 3's kept rounds have a p99 of $kept ms, above the 5 ms SLO"
# The other probers stay clean: (nearly) no round of theirs flagged.
for i in 1 2; do
	n=$(d rdmad_mesh_rounds_total c0 s1 "$i")
	p=$(d rdmad_mesh_prober_rounds_pressured_total c0 s1 "$i")
	awk -v p="$p" -v n="$n" 'BEGIN { exit !(p <= 0.02 * n) }' ||
		fab_fail "host $i (no hog) flagged $p of its $n rounds"
done
fab_log "host 3 flagged $p3 of its $n3 rounds under the hog; hosts 1 and 2 stayed clean"
