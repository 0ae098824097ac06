#!/bin/bash
# The device goes away under live clients: `rdma link delete` of the rxe
# device, then `rdma link add` again; and the netdev down, then up.
# rdmad drops the affected connections, keeps running, listens again
# when the device is back, and serves the next client; its RDMA
# resources come back to the baseline.  Its port counters: dropped at
# once when it goes (one line, no warning a counter), listed and read
# again when it is back.
#
# Netdev down/up under live connections leaves Debian 12's rxe unable
# to set up any new connection (measured with stock rping alone, no
# rdmad) until the device is deleted and added again: the test checks
# that rdmad drops those connections and stays healthy, then re-creates
# the device and checks that rdmad serves again.
#
# A second, unused rxe device (on the peer veth, no address) stays up
# meanwhile: librdmacm (rdma-core 44) re-reads its device list only when
# at least one device is left, and until it does it keeps the removed
# device's context open; rxe cannot disassociate a context, so the
# kernel's removal of the last device waits for rdmad to exit
# (docs/security.md, "Known limits").
source "$(dirname "$0")/lib.sh"
source "$RDMAD_SOURCE_DIR/tests/hostile/lib-hostile.sh"
need probe
dev=${RDMAD_DEV:-rxe0}
ndev=rdmad_v0
spare=rdmad_spare
port=7655
restore() {
	ip link set "$ndev" up 2>/dev/null
	[ -d "/sys/class/infiniband/$dev" ] ||
		rdma link add "$dev" type rxe netdev "$ndev" 2>/dev/null
	# rdmad may hold the spare device open (see above): stop it first.
	[ -n "${RDMAD_PID:-}" ] && kill -TERM "$RDMAD_PID" 2>/dev/null &&
		timeout 20 tail --pid="$RDMAD_PID" -f /dev/null
	[ -d "/sys/class/infiniband/$spare" ] &&
		timeout 20 rdma link delete "$spare" 2>/dev/null
	cleanup_jobs
}
trap restore EXIT

# Honest client with retries: right after the device returns, its GIDs
# (addresses) show up one by one.
honest_retry() {
	local i
	for ((i = 0; i < 10; i++)); do
		cli timeout 20 "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -t 5 \
			--op both -s 64k -n 3 "$RDMAD_SRV_ADDR" >>"$T/retry.log" 2>&1 &&
			return 0
		echo "-- attempt $i failed" >>"$T/retry.log"
		sleep 1
	done
	fail "no honest session after the device came back: $(tail -3 "$T/retry.log")"
}

live_clients() {
	cli "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -t 60 --op both -s 64k \
		-n 100000 "$RDMAD_SRV_ADDR" >"$T/live-probe.log" 2>&1 &
	live="$!"
	cli rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" -p $port -C 0 \
		-S 4096 >"$T/live-rping.log" 2>&1 &
	live="$live $!"
	local i
	for ((i = 0; i < 200; i++)); do
		[ "$(grep -c 'open: ' "$T/rdmad.log")" -ge $(($1 + 2)) ] && return 0
		sleep 0.1
	done
	fail "live clients did not connect"
}

rdmad_conf $port "timeouts.close = 3s" "timeouts.io = 5s" "timeouts.session = 60s" \
	"timeouts.idle = 60s"
rdmad_start
baseline
rdma link add "$spare" type rxe netdev rdmad_v1 || fail "cannot add the spare rxe device"

kill_live() {
	local j
	for j in $live; do
		kill -KILL $(pgrep -P "$j") "$j" 2>/dev/null
	done
}
# wait_closes N: N more close lines than $closes.
wait_closes() {
	local i
	for ((i = 0; i < 300; i++)); do
		[ "$(grep -c 'close: ' "$T/rdmad.log")" -ge $((closes + $1)) ] && return 0
		sleep 0.1
	done
	fail "live connections not closed ($2)"
}
# device_cycle: rdma link delete (clients, if any, are killed once rdmad
# has dropped them: in the test bed they share the device), then add;
# rdmad must let go of the device and listen again by itself.
device_cycle() {
	local t0 del drops lists i
	drops=$(grep -c "port counters: device $dev .* counters dropped" "$T/rdmad.log")
	lists=$(grep -c "port counters: $dev port 1: " "$T/rdmad.log")
	t0=$(date +%s.%N)
	timeout 90 rdma link delete "$dev" >"$T/link-delete.log" 2>&1 &
	del=$!
	wait_log 'listener .*: RDMA device removed' 20
	[ -n "$live" ] && wait_closes 2 "device removed"
	sleep 1
	kill_live
	live=
	wait $del || fail "rdma link delete failed or hung; uverbs holders: $("$RDMAD_SOURCE_DIR/tests/testbed/rxe-setup" holders)"
	log "rdma link delete took $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')s"
	rdmad_alive
	[ "$(rdma_res_counts "$RDMAD_PID")" = "qp=0 cq=0 mr=0 pd=0 cm_id=0" ] ||
		fail "resources left while the device is gone: $(rdma_res_counts "$RDMAD_PID")"
	# its counters: dropped with one line (at the next read at the latest,
	# one every [counters] interval / 15), no warning per counter
	for ((i = 0; i < 300; i++)); do
		[ "$(grep -c "port counters: device $dev .* counters dropped" "$T/rdmad.log")" -gt "$drops" ] && break
		sleep 0.1
	done
	[ "$(grep -c "port counters: device $dev .* counters dropped" "$T/rdmad.log")" = $((drops + 1)) ] ||
		fail "the removed device's counters not dropped once: $(grep 'port counter' "$T/rdmad.log" | tail -5)"
	grep -q "port counter .*/$dev/.*cannot read" "$T/rdmad.log" &&
		fail "a warning a counter of the removed device: $(grep -c "port counter .*/$dev/.*cannot read" "$T/rdmad.log") lines"
	rdma link add "$dev" type rxe netdev "$ndev" || fail "rdma link add failed"
	wait_listen $port 30
	honest_retry
	# back: its counters listed (and read) again
	log_has_n "port counters: $dev port 1: " $((lists + 1)) 10 "$T/rdmad.log"
	[ "$(grep -c "port counters: $dev port 1: " "$T/rdmad.log")" = $((lists + 1)) ] ||
		fail "the device back: its counters not listed again: $(grep 'port counters' "$T/rdmad.log" | tail -4)"
	log "counters: $(grep "port counters: device $dev .* counters dropped" "$T/rdmad.log" | tail -1 | sed 's/.*port counters: //'); back: $(grep "port counters: $dev port 1: " "$T/rdmad.log" | tail -1 | sed 's/.*port counters: //')"
	wait_res_counts "$RDMAD_PID" "$BASE_RES" 20
	check_after "device back"
}

# 1. rdma link delete under two live clients, then add.
opens=$(grep -c 'open: ' "$T/rdmad.log")
closes=$(grep -c 'close: ' "$T/rdmad.log")
live_clients "$opens"
sleep 1
device_cycle
grep 'device removed\|listening again' "$T/rdmad.log" | sed 's/^/# /' >&2
n=$(grep -c 'listening again on' "$T/rdmad.log")
[ "$n" = 1 ] || fail "'listening again' logged $n times, want 1"

# 2. Netdev down under two live clients: dropped at once (port down).
opens=$(grep -c 'open: ' "$T/rdmad.log")
closes=$(grep -c 'close: ' "$T/rdmad.log")
live_clients "$opens"
sleep 1
ip link set "$ndev" down
wait_closes 2 "netdev down"
grep 'port .* down\|close: ' "$T/rdmad.log" | tail -3 | sed 's/^/# /' >&2
kill_live
live=
ip link set "$ndev" up
sleep 2
rdmad_alive
wait_res_counts "$RDMAD_PID" "$BASE_RES" 20

# 3. rxe needs re-creating after that (see above); rdmad follows.
device_cycle
rss_check
exit 0
