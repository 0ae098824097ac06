#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Loss on one host, seen by the mesh.  Three rdmads probe each other every
# 200 ms with 64 B, 1100 B, 4 KiB and 64 KiB rounds (round_timeout 10 s:
# under loss a round may take seconds and still verify).
# 0.5 % loss on host 3's NIC (both ways), until the p99 of host 1's
# rounds to host 3 (the window of its last 128 rounds, 25.6 s, rdmadctl
# mesh --json) passes a retransmission (400 ms) and 1.5 times that of its
# rounds to host 2, and host 1 logged a slow round to host 3 since the
# loss began naming a retransmission counter (10 s at least, 300 s at
# most; a slow round of a starved guest's clean phase once made the p99
# alone and ended the phase before any loss showed): RC retransmits, every
# round still verifies, host 1's rxe counts retransmissions
# (rdmad_port_events_total), and host 1 logs slow rounds to host 3 with
# the counters that moved.
# 5 % loss, with round_timeout 2 s (a reload), until 3 more 64 KiB rounds
# than 64 B ones failed (15 to 60 s): host 3's pairs fail rounds (retries
# exhausted or too slow: completion-error or timeout), large sizes first:
# more 64 KiB rounds fail than 64 B ones; the pair 1-2 stays clean
# throughout.
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require 3
P1=$(fab_peer 1) P2=$(fab_peer 2) P3=$(fab_peer 3)
fab_mesh_start 3 7471 "mesh.interval = 200ms" "mesh.round_timeout = 10s" \
	"mesh.sizes = 64 1100 4k 64k" "counters.interval = 2s"
sizes=4
fab_mesh_wait_up 1 30 "$P2" "$P3"

# p99 (ms) of host 1's recent rounds to PEER, from the live table.
p99() {
	fab_sh 1 "\$RDMADCTL mesh --json" >"$T/mesh.json" || fab_fail "rdmadctl mesh --json failed"
	json_get "$T/mesh.json" "round(([p for p in d['peers'] if p['peer'] == '$1'][0]['paths'][0]['p99_seconds'] or 0) * 1000, 3)"
}
failed() { # failed FILE PEER [SIZE]
	local all ok
	if [ -n "${3:-}" ]; then
		prom_sum "$1" rdmad_mesh_size_rounds_failed_total "peer=\"$2\"" "size=\"$3\""
		return
	fi
	all=$(prom_sum "$1" rdmad_mesh_rounds_total "peer=\"$2\"")
	ok=$(prom_sum "$1" rdmad_mesh_rounds_total "peer=\"$2\"" 'result="ok"')
	echo $((all - ok))
}

# retries: the sum of host 1's rxe counters of a retransmission (its
# requester timed out: completer_retry_err; host 3 answered a gap with a
# NAK: rcvd_seq_err) in scrape FILE.
retries() {
	echo $(( $(prom_sum "$1" rdmad_port_events_total 'counter="completer_retry_err"') +
		$(prom_sum "$1" rdmad_port_events_total 'counter="rcvd_seq_err"') ))
}
fab_scrape 1 "$T/z.prom"
sleep 25
fab_log "clean: p99 to host 2 $(p99 "$P2") ms, to host 3 $(p99 "$P3") ms"

# A retransmission is RC's timeout (~0.5 s on rxe) when the last packet
# of a message or its ACK is lost (a gap inside a message is NAKed and
# resent at once): the tail to host 3 passes 400 ms and 1.5 times that to
# host 2 once two such rounds fall in the window.  How soon is chance, and
# the guests' load: a round taken under local pressure stays out of the
# window ([mesh] prober_lag_max; 41-58 of 59-80 rounds of a TCG guest in
# t-90), so 128 rounds span ~85 s (a TCG host starved by its neighbours
# alone put 100-140 ms in a loss-free p99 here, 310-430 ms in CI; a fixed
# 40 s phase held none in one CI run, 94 s showed it here): the phase
# ends when it shows (163 s in a full run here beside a build), and fails
# if it has not in 300 s.
tail_up() { awk -v a="$p2" -v b="$p3" 'BEGIN { exit !(b >= 1.5 * a && b >= 400) }'; }
# slow_since: host 1's slow-round lines to host 3 logged since the loss
# began (after the first $nb); retx: one of them names a retransmission
# counter that moved.
slow_since() { fab_sh 1 "grep -F -- '$P3: a slow round:' \$T/rdmad.log | tail -n +$((nb + 1))"; }
retx() { grep -Eq 'local counters: .*(completer_retry_err|rcvd_seq_err) \+[0-9]'; }
fab_scrape 1 "$T/a.prom"
nb=$(fab_sh 1 "grep -cF -- '$P3: a slow round:' \$T/rdmad.log || :")
[[ $nb =~ ^[0-9]+$ ]] || fab_fail "host 1's slow rounds to host 3 not counted: '$nb'"
fab_netem 3 both "loss 0.5%"
t05=$(fab_now)
while :; do
	sleep 5
	p2=$(p99 "$P2") p3=$(p99 "$P3")
	awk -v t="$(fab_since "$t05")" 'BEGIN { exit !(t >= 10) }' && tail_up && slow_since | retx && break
	awk -v t="$(fab_since "$t05")" 'BEGIN { exit !(t >= 300) }' && break
done
fab_scrape 1 "$T/b.prom"
fab_log "0.5 % loss on host 3 for $(fab_since "$t05")s: p99 to host 2 $p2 ms, to host 3 $p3 ms"
for p in "$P2" "$P3"; do
	n=$(( $(failed "$T/b.prom" "$p") - $(failed "$T/a.prom" "$p") ))
	[ "$n" = 0 ] || fab_fail "0.5 % loss: $n rounds to $p failed; RC must retransmit them: $(grep "^rdmad_mesh_rounds_total.*$p" "$T/b.prom" | grep -v ' 0$')"
done
# The NIC saw it: host 1's rxe retransmitted (its port counters, read by
# rdmad, moved; a clean phase may count a few as well: rxe on a starved
# guest times out now and then, so only "moved" is asserted, both logged).
r0=$(( $(retries "$T/a.prom") - $(retries "$T/z.prom") ))
r1=$(( $(retries "$T/b.prom") - $(retries "$T/a.prom") ))
fab_log "host 1's rxe retransmissions (completer_retry_err + rcvd_seq_err): clean 25 s +$r0, 0.5 % loss $(fab_since "$t05")s +$r1"
[ "$r1" -gt 0 ] || fab_fail "0.5 % loss: host 1's completer_retry_err and rcvd_seq_err did not move: $(grep -E 'counter="(completer_retry_err|rcvd_seq_err)"' "$T/b.prom")"
tail_up || fab_fail "0.5 % loss: in 300 s the p99 to host 3 ($p3 ms) did not rise well above that to host 2 ($p2 ms)"
# The slow rounds' lines ([mesh] slow_round, 250 ms by default): host 1
# logged rounds to host 3 that took a retransmission, each with the port
# counters of its own rxe that moved around it.
slow=$(slow_since | tail -20)
[ -n "$slow" ] || fab_fail "0.5 % loss: host 1 logged no slow round to host 3 since the loss began ($nb before; its p99 was $p3 ms)"
echo "$slow" | retx ||
	fab_fail "0.5 % loss: host 1's slow rounds to host 3 since the loss began name no retransmission counter: $slow"
fab_log "host 1's last slow round to host 3: $(echo "$slow" | grep -E 'completer_retry_err|rcvd_seq_err' | tail -1 | sed 's/.*mesh: //')"

fab_sh 1 "sed -i 's/^round_timeout = .*/round_timeout = 2s/' \$T/rdmad.ini && pkill -HUP -x rdmad" || fab_fail "reload failed"
fab_netem 3 both "loss 5%"
# Until 3 more 64 KiB rounds than 64 B ones failed, and 15 s at least (45 s
# counted 10 and 0 in CI), 60 s at most: then judged.
t5=$(fab_now)
for ((k = 0; ; k++)); do
	sleep 5
	fab_scrape 1 "$T/c.prom"
	for s in 64 1100 4096 65536; do
		eval "f$s=\$(( \$(failed \"\$T/c.prom\" \"\$P3\" $s) - \$(failed \"\$T/b.prom\" \"\$P3\" $s) ))"
	done
	awk -v t="$(fab_since "$t5")" 'BEGIN { exit !(t >= 60) }' && break
	awk -v t="$(fab_since "$t5")" 'BEGIN { exit !(t >= 15) }' && [ "$f65536" -ge $((f64 + 3)) ] && break
done
fab_netem_clear 3
fab_log "5 % loss on host 3 for $(fab_since "$t5")s"
classes=$(grep "^rdmad_mesh_rounds_total.*$P3" "$T/c.prom" | grep -v ' 0$' | sed 's/.*result="\([^"]*\)".* \([0-9]*\)$/\1 \2/' | tr '\n' ' ')
fab_log "5 % loss on host 3: failed rounds to host 3 by size: 64 B $f64, 1100 B $f1100, 4 KiB $f4096, 64 KiB $f65536; classes since start: $classes"
[ "$f65536" -gt 0 ] || fab_fail "5 % loss: no 64 KiB round to host 3 failed"
[ "$f65536" -gt "$f64" ] || fab_fail "5 % loss: 64 B rounds failed as often as 64 KiB ones ($f64 vs $f65536)"
n=$(( $(failed "$T/c.prom" "$P2") - $(failed "$T/a.prom" "$P2") ))
[ "$n" = 0 ] || fab_fail "the pair 1-2 failed $n rounds while host 3 had loss"
fab_log "the pair 1-2 stayed clean"
