#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The rack mesh: four hosts in two racks (fabric --racks 2: hosts 1, 2 in
# rack 1, 3, 4 in rack 2), one inventory (host=hI, tor=rR, R its rack),
# [mesh] cross_tor = 1, epoch 1 min, interval 300 ms, rdmad on each.
#  1. Each host's /peers are exactly what the selection promises: its
#     same-ToR peer and, in cross-ToR slot 0, the peer that select-oracle
#     (the daemon's own pure selection code, run on this machine on the
#     same inventory) computes for that host and the epoch the host
#     reports.  Every pair verifies rounds.
#  2. Each host's slot 0 moves on (next_switch_seconds, at most 60 s):
#     its epoch advances by one, its peers are again the oracle's (with
#     two hosts a rack the cross-ToR peer goes to the other host of the
#     other rack), the new pair verifies rounds, and no round failed on
#     any host across the switch (no failed round counted on any pair
#     seen, no "down" in any log), but for a round that timed out on a
#     starved guest: at most 2 a host, each its own "down: round timed
#     out" line (CI beside other jobs: a same-rack pair's, rxe
#     retransmitting to a peer that did not run).  A switch that broke a
#     session shows as another kind (closed, refused, a mismatch).
# A fabric of one rack fails this test (it needs --racks 2).
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require_racks 2
fab_require 4
M=1
t0=$(fab_now)
# connect_timeout 3 s (the default): a loaded guest's connect to its new
# peer timed out at 800 ms once, and this test is about the switch
fab_rack_mesh_start 4 7471 "mesh.interval = 300ms" "mesh.sizes = 64 4k" \
	"mesh.cross_tor = $M" "mesh.epoch = 1m" "mesh.round_timeout = 2s" \
	"mesh.connect_timeout = 3s" "mesh.backoff_min = 500ms" "mesh.backoff_max = 4s"
fab_at_once "1 2 3 4" fab_rack_wait_up 40 "$M"
fab_log "every host has the promised peers up with verified rounds $(fab_since "$t0")s after the first rdmad started"

# look I: host I's /peers ($T/rows-I, $T/peers-I.json), the "down" lines
# of its log ($T/downs-I) and its epoch switches ($T/switches-I), for
# fab_at_once: the four hosts looked at at once.  One snapshot: the down
# lines counted before and after the rows, again until they agree (a
# failure between the two reads was in one and not the other: CI-E and
# a run here failed the test on a connect that timed out just then).
look() {
	local d0 d1 k
	for ((k = 0; k < 10; k++)); do
		d0=$(fab_sh "$1" "grep -c 'mesh: .* down: ' \$T/rdmad.log")
		fab_peer_rows "$1" "$T/peers-$1.json" >"$T/rows-$1"
		d1=$(fab_sh "$1" "grep -c 'mesh: .* down: ' \$T/rdmad.log")
		[ "$d0" = "$d1" ] && break
	done
	echo "$d1" >"$T/downs-$1"
	json_get "$T/peers-$1.json" 'd["epoch_switches"]' >"$T/switches-$1"
}

# 1. The peers each host chose, and a baseline of failed rounds a pair
# (the first connects may have found a peer not yet listening).
declare -A base seen epoch0 downs0
wait_s=0
fab_at_once "1 2 3 4" look
for i in 1 2 3 4; do
	fab_rack_peers_match "$i" "$T/rows-$i" "$M" ||
		fab_fail "host $i chose other peers than the selection promises: $(cat "$T/peers-diff-$i")"
	while IFS='|' read -r peer why slot epoch up ok failed p99; do
		base[$i|$peer]=$failed
		seen[$i|$peer]=$failed
		[ "$why" = cross-ToR ] && epoch0[$i]=$epoch
		fab_log "host $i (rack $(fab_rack "$i")): $peer ($why, slot $slot, epoch $epoch): up $up, $ok rounds ok, $failed failed, p99 $p99 ms"
	done <"$T/rows-$i"
	[ -n "${epoch0[$i]:-}" ] || fab_fail "host $i has no cross-ToR peer: $(cat "$T/rows-$i")"
	downs0[$i]=$(cat "$T/downs-$i")
	fab_sh "$i" "grep -c -- 'mesh: .*[/0-9]* down: round timed out' \$T/rdmad.log || true" >"$T/tmo0-$i"
	next=$(json_get "$T/peers-$i.json" 'd["next_switch_seconds"]')
	awk -v n="$next" 'BEGIN { exit !(n > 0 && n <= 60.5) }' || fab_fail "host $i: next switch in ${next}s, not within the 60 s epoch"
	wait_s=$(awk -v a="$wait_s" -v b="$next" 'BEGIN { print (b > a ? b : a) }')
done
# Each host's cross-ToR peer is in the other rack.
for i in 1 2 3 4; do
	while IFS='|' read -r peer why _; do
		j=$(($(cut -d: -f1 <<<"${peer##*.}") - 10))
		[ "$why" = cross-ToR ] && [ "$(fab_rack "$j")" = "$(fab_rack "$i")" ] &&
			fab_fail "host $i's cross-ToR peer $peer is in its own rack"
		[ "$why" = "same ToR" ] && [ "$(fab_rack "$j")" != "$(fab_rack "$i")" ] &&
			fab_fail "host $i's same-ToR peer $peer is in rack $(fab_rack "$j")"
	done <"$T/rows-$i"
done
fab_log "1. every host probes exactly the peers the selection promises (select-oracle at the epoch it reports); slot 0 moves on within ${wait_s}s at the latest"

# 2. Through one switch of every host's slot 0.
# seen_failed I: the most failed rounds seen on each pair of host I.
seen_failed() {
	local peer failed
	while IFS='|' read -r peer _ _ _ _ _ failed _; do
		[ -n "${seen[$1|$peer]+x}" ] && [ "${seen[$1|$peer]}" -ge "$failed" ] ||
			seen[$1|$peer]=$failed
	done <"$T/rows-$1"
}
# A host read after its slot moved on twice (a loaded machine: the four
# hosts are read in turn, each read a job in a TCG guest) counts too: the
# oracle checks its peers at the epoch it reports.  The deadline leaves
# a loaded machine 90 s past the switch (CI-A, 2026-12-02: 30 s, two
# hosts not read in time).
t1=$(fab_now)
end=$(($(now_ms) + ${wait_s%.*} * 1000 + 90000))
declare -A moved
nmoved=0
while [ "$nmoved" -lt 4 ]; do
	[ "$(now_ms)" -lt "$end" ] ||
		fab_fail "not every host's slot moved on within ${wait_s}s + 90 s: moved: $( ((${#moved[@]})) && echo "${!moved[*]}" || echo none); $(for i in 1 2 3 4; do echo "host $i: $(tr '\n' ' ' <"$T/rows-$i")"; done)"
	for i in 1 2 3 4; do
		[ -n "${moved[$i]:-}" ] && continue
		fab_peer_rows "$i" "$T/peers-$i.json" >"$T/rows-$i"
		seen_failed "$i"
		e=$(awk -F'|' '$3 == 0 { print $4; exit }' "$T/rows-$i")
		[ -n "$e" ] && [ "$e" -gt "${epoch0[$i]}" ] || continue
		# The new peer connected and verified rounds, and it is the oracle's.
		fab_rack_peers_match "$i" "$T/rows-$i" "$M" || continue
		awk -F'|' '$5 != 1 || $6 < 2 { bad = 1 } END { exit bad }' "$T/rows-$i" || continue
		moved[$i]=$(fab_since "$t1")
		nmoved=$((nmoved + 1))
		fab_log "host $i: slot 0 at epoch $e after ${moved[$i]}s: $(awk -F'|' '$3 == 0 { print $1 }' "$T/rows-$i") ($(awk -F'|' '$3 == 0 { print $6 " rounds ok, " $7 " failed" }' "$T/rows-$i")), as the oracle says"
	done
	sleep 1
done
# A last look at every pair still there, then the failures across the switch.
bad=""
fab_at_once "1 2 3 4" look
# timeouts I [PEER]: host I's "down: round timed out" lines (to PEER)
timeouts() { fab_sh "$1" "grep -c -- 'mesh: ${2:-.*}[/0-9]* down: round timed out' \$T/rdmad.log" || true; }
declare -A tmo0
for i in 1 2 3 4; do tmo0[$i]=$(cat "$T/tmo0-$i"); done
tolerated=""
for i in 1 2 3 4; do
	seen_failed "$i"
	[ "$(cat "$T/switches-$i")" -ge 1 ] || bad+="host $i counted no switch; "
	downs=$(cat "$T/downs-$i")
	tmo=$(( $(timeouts "$i") - tmo0[$i] ))
	if [ $((downs - downs0[$i])) != "$tmo" ] || [ "$tmo" -gt 2 ]; then
		bad+="host $i logged $((downs - downs0[$i])) down ($tmo a round that timed out): $(fab_sh "$i" "grep 'mesh: .* down: ' \$T/rdmad.log | tail -3"); "
	elif [ "$tmo" -gt 0 ]; then
		tolerated+="host $i: $tmo; "
	fi
done
for k in "${!seen[@]}"; do
	n=$((seen[$k] - ${base[$k]:-0}))
	[ "$n" = 0 ] && continue
	t=$(timeouts "${k%%|*}" "${k#*|}")
	[ "$n" -le "$t" ] ||
		bad+="${k/|/ -> } failed $n rounds, $t of them timed out (its log: $(fab_sh "${k%%|*}" "grep -- '${k#*|}' \$T/rdmad.log | grep -v 'slow round' | tail -6" | tr '\n' '/')); "
done
[ -z "$tolerated" ] || fab_log "rounds that timed out on a starved guest (tolerated, at most 2 a host): ${tolerated%; }"
# which classes failed (compact series: each rail's rounds by class)
[ -z "$bad" ] || fab_fail "rounds failed across the epoch switch: $bad; failed rounds by class: $(for i in 1 2 3 4; do
	fab_sh "$i" "$FAB_HTTP_CURL $FAB_HTTP_URL/metrics" | grep '^rdmad_mesh_rail_rounds_total' | grep -v 'result="ok"' | grep -v ' 0$' | sed "s/^/host $i: /"
done | tr '\n' ' ')"
fab_log "2. every host's slot 0 moved on (after $(for i in 1 2 3 4; do printf '%s ' "${moved[$i]}s"; done)), to the oracle's peer, with no failed round on any of the ${#seen[@]} pairs seen and no down${tolerated:+ but the timeouts above}"
exit 0
