#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Port counters ([counters], docs/monitoring.md "Port counters") on real
# rxe: rdmad_port_events_total has the device's hw_counters, sent_pkts and
# rcvd_pkts move by at least the packets of a probe, a skip-listed counter
# (DEVICE/NAME) has no series though its file is there.  Then over a copy
# of sysfs (RDMAD_SYSFS_ROOT): legacy counters at their ceiling are
# saturated, one below it is not, a counter that goes down (a reset) never
# takes the total down, a file that holds no number is logged with its path,
# a reload that skips a counter takes its series away.  Last, a mesh path
# that goes down (its peer stopped) logs the local counters that moved.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need ctl
RDMAD_DEV=${RDMAD_DEV:-rxe0}
port=7479
http=127.0.0.1:9479
HW=/sys/class/infiniband/$RDMAD_DEV/ports/1/hw_counters
[ -r "$HW/sent_pkts" ] || fail "no $HW/sent_pkts: rxe without hw_counters?"
[ -r "$HW/link_downed" ] || fail "no $HW/link_downed to skip"

# counter SCRAPE NAME [DEVICE]: the total of NAME in $T/SCRAPE.prom ("" if none).
counter() {
	awk -v s="rdmad_port_events_total{device=\"${3:-$RDMAD_DEV}\",port=\"1\",counter=\"$2\"}" \
		'$1 == s { print $2 }' "$T/$1.prom"
}
scrape() { "$CTL" -a "$2" metrics >"$T/$1.prom" || fail "rdmadctl metrics ($1) failed"; }
# wait_scrape SECS HTTP SCRAPE CHECK...: scrape HTTP into SCRAPE until the
# command CHECK succeeds (a pass of the counters is due each second; a
# starved guest makes it late, never skips it); 1 after SECS without.
wait_scrape() {
	local end=$(($(now_ms) + $(wait_secs "$1") * 1000)) http=$2 name=$3
	shift 3
	while :; do
		scrape "$name" "$http"
		"$@" && return 0
		[ "$(now_ms)" -lt "$end" ] || return 1
		sleep 0.2
	done
}
# wait_counter NAME HTTP SCRAPE: until NAME has a series (each read once a
# second here; all of them in a pass).
has_series() { [ -n "$(counter "$1" "$2")" ]; }
wait_counter() {
	wait_scrape 10 "$2" "$3" has_series "$3" "$1" ||
		fail "no rdmad_port_events_total for $1 after $(wait_secs 10) s: $(grep rdmad_port_ "$T/$3.prom" | head)"
}

rdmad_conf $port "http.listen = $http" "counters.interval = 1s" \
	"counters.skip = $RDMAD_DEV/link_downed"
rdmad_start
wait_counter sent_pkts $http first
wait_counter rcvd_pkts $http first
n=$(grep -c "^rdmad_port_events_total{device=\"$RDMAD_DEV\"" "$T/first.prom")
[ "$n" -ge 10 ] || fail "only $n counters of $RDMAD_DEV: $(grep rdmad_port_events_total "$T/first.prom")"
grep -q 'counter="link_downed"' "$T/first.prom" &&
	fail "link_downed is skipped ($RDMAD_DEV/link_downed) yet has a series"
grep -q '^rdmad_port_events_saturated{' "$T/first.prom" &&
	fail "rxe has no legacy counters, yet a saturated series"
sleep 1.2	# a whole pass: every counter read after the first scrape
scrape before $http
s0=$(counter before sent_pkts)
r0=$(counter before rcvd_pkts)

# 200 READs and 200 WRITEs of 4 KiB: at least 400 requests leave and
# arrive (client and server share the device), plus the responses.
probe_ok probe.out -s 4k -n 200
moved() {
	s1=$(counter after sent_pkts)
	r1=$(counter after rcvd_pkts)
	[ $((s1 - s0)) -ge 400 ] && [ $((r1 - r0)) -ge 400 ]
}
wait_scrape 15 $http after moved ||
	fail "sent_pkts moved by $((s1 - s0)), rcvd_pkts by $((r1 - r0)), want >= 400 each"
log "sent_pkts $s0 -> $s1, rcvd_pkts $r0 -> $r1 over a probe of 400 operations"
grep -q 'counter="link_downed"' "$T/after.prom" && fail "link_downed appeared"
grep -q 'port counter .*link_downed' "$T/rdmad.log" && fail "rdmad touched the skipped link_downed"
kill "$RDMAD_PID"
wait "$RDMAD_PID" 2>/dev/null

# A copy of sysfs's shape for the same device: legacy counters/ at and
# below their ceilings, a hw_counter that will go down, one that is no number.
S=$T/sys
D=$S/class/infiniband/$RDMAD_DEV/ports/1
mkdir -p "$D/counters" "$D/hw_counters"
echo 255 >"$D/counters/link_downed"
echo 4294967295 >"$D/counters/port_xmit_wait"
echo 65534 >"$D/counters/symbol_error"
echo 20 >"$D/hw_counters/rcvd_seq_err"
echo 1000 >"$D/hw_counters/lifespan"
echo garbage >"$D/hw_counters/send_err"
port=7480
http2=127.0.0.1:9480
rdmad_conf $port "http.listen = $http2" "counters.interval = 1s"
RDMAD_SYSFS_ROOT=$S rdmad_start
wait_counter rcvd_seq_err $http2 fake
wait_counter symbol_error $http2 fake
sat() {	# sat SCRAPE NAME: the saturated gauge of NAME
	awk -v s="rdmad_port_events_saturated{device=\"$RDMAD_DEV\",port=\"1\",counter=\"$2\"}" \
		'$1 == s { print $2 }' "$T/$1.prom"
}
[ "$(sat fake link_downed)" = 1 ] || fail "link_downed at 255 not saturated: $(grep link_downed "$T/fake.prom")"
[ "$(sat fake port_xmit_wait)" = 1 ] || fail "port_xmit_wait at 2^32-1 not saturated: $(grep port_xmit_wait "$T/fake.prom")"
[ "$(sat fake symbol_error)" = 0 ] || fail "symbol_error at 65534 (max-1) is saturated: $(grep symbol_error "$T/fake.prom")"
[ "$(counter fake link_downed)" = 255 ] || fail "link_downed total $(counter fake link_downed), want 255"
[ -z "$(sat fake rcvd_seq_err)" ] || fail "a hw_counter (64 bits) has a saturated series"
grep -q 'counter="lifespan"' "$T/fake.prom" && fail "hw_counters/lifespan (a setting) exported"
[ -z "$(counter fake send_err)" ] || fail "send_err holds no number yet has a series"
log_has "port counter $D/hw_counters/send_err: 'garbage' is not a count" 5 "$T/rdmad.log" ||
	fail "no log line naming send_err's path: $(grep 'port counter' "$T/rdmad.log")"
[ "$(grep -c 'send_err.*is not a count' "$T/rdmad.log")" = 1 ] || fail "send_err logged more than once"

# The counter is cleared under rdmad, then counts 3: the total is 23.
echo 3 >"$D/hw_counters/rcvd_seq_err"
echo 65535 >"$D/counters/symbol_error"
reset_seen() { [ "$(counter reset rcvd_seq_err)" = 23 ] && [ "$(sat reset symbol_error)" = 1 ]; }
wait_scrape 15 $http2 reset reset_seen ||
	fail "after a reset to 3 the total is $(counter reset rcvd_seq_err), want 23 (20 + 3); symbol_error at 65535 saturated: '$(sat reset symbol_error)', want 1"
rdmad_alive

# Reload with rcvd_seq_err skipped: its series goes, the others stay.
rdmad_conf $port "http.listen = $http2" "counters.interval = 1s" "counters.skip = rcvd_seq_err"
kill -HUP "$RDMAD_PID"
wait_log "reload: configuration re-read" 10
scrape reload $http2
[ -z "$(counter reload rcvd_seq_err)" ] || fail "rcvd_seq_err skipped by the reload, still exported"
[ "$(counter reload link_downed)" = 255 ] || fail "link_downed lost its total over the reload"
kill "$RDMAD_PID"
wait "$RDMAD_PID" 2>/dev/null

# A mesh path goes down: its line carries what moved here (the rounds'
# packets at least).
declare -A SPID
rdmad_serve 7481
echo "$RDMAD_SRV_ADDR:7481" >"$T/peers"
rdmad_conf 7482 "http.listen = 127.0.0.1:9482" "counters.interval = 1s" \
	"mesh.targets = $T/peers" "mesh.interval = 200ms" "mesh.sizes = 4k" \
	"mesh.backoff_min = 5s" "mesh.connect_timeout = 1s"
rdmad_start "$T/rdmad.ini" "$T/mesh.log"
wait_log "mesh: $RDMAD_SRV_ADDR:7481 up" 20 "$T/mesh.log"
# rounds over two passes of the counters: sent_pkts's total moves twice
# (the rounds send every 0.2 s; a pass is due each second)
for pass in 1 2; do
	scrape p0 127.0.0.1:9482
	v0=$(counter p0 sent_pkts)
	pass_seen() { [ "$(counter p1 sent_pkts)" != "$v0" ]; }
	wait_scrape 15 127.0.0.1:9482 p1 pass_seen ||
		fail "the counters' pass $pass did not come: sent_pkts stays at $v0"
done
# the down of the kill, not one before it (under load a first connect can
# time out: a down line with no round behind it, CI-Q)
downs=$(grep -c "mesh: $RDMAD_SRV_ADDR:7481 down" "$T/mesh.log")
kill "${SPID[7481]}"
log_has_n "mesh: $RDMAD_SRV_ADDR:7481 down" $((downs + 1)) 20 "$T/mesh.log" ||
	fail "no down line of $RDMAD_SRV_ADDR:7481 within 20 s of its server's kill: $(tail -3 "$T/mesh.log")"
line=$(grep "mesh: $RDMAD_SRV_ADDR:7481 down" "$T/mesh.log" | sed -n "$((downs + 1))p")
log "$line"
[[ $line =~ \(local\ counters:\ $RDMAD_DEV/1:\ .*sent_pkts\ \+[1-9][0-9]* ]] ||
	fail "the down line carries no local counters that moved: $line"
exit 0
