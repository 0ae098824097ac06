#!/bin/bash
# The device goes away under live clients: `rdma link delete` of the rxe
# device, then `rdma link add` again; and the netdev down, then up.
# rdmad drops the affected connections, keeps running, listens again
# when the device is back, and serves the next client; its RDMA
# resources come back to the baseline.
source "$(dirname "$0")/lib.sh"
source "$RDMAD_SOURCE_DIR/tests/hostile/lib-hostile.sh"
[ -x "$PROBE" ] || fail "rdma-probe not built ($PROBE)"
dev=${RDMAD_DEV:-rxe0}
ndev=rdmad_v0
port=7655
restore() {
	ip link set "$ndev" up 2>/dev/null
	rdma link show "$dev" >/dev/null 2>&1 ||
		rdma link add "$dev" type rxe netdev "$ndev" 2>/dev/null
	cleanup_jobs
}
trap restore EXIT

# Honest client with retries: right after the device returns, its GIDs
# (addresses) show up one by one.
honest_retry() {
	local i
	for ((i = 0; i < 20; i++)); do
		cli timeout 60 "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -t 10 \
			--op both -s 64k -n 3 "$RDMAD_SRV_ADDR" >"$T/retry.log" 2>&1 &&
			return 0
		sleep 1
	done
	fail "no honest session after the device came back: $(tail -3 "$T/retry.log")"
}

live_clients() {
	cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -t 60 --op both -s 64k \
		-n 100000 "$RDMAD_SRV_ADDR" >"$T/live-probe.log" 2>&1 &
	cli rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" -p $port -C 0 \
		-S 4096 >"$T/live-rping.log" 2>&1 &
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

# 1. rdma link delete under two live clients.
opens=$(grep -c 'open: ' "$T/rdmad.log")
closes=$(grep -c 'close: ' "$T/rdmad.log")
live_clients "$opens"
sleep 1
t0=$(date +%s.%N)
timeout 60 rdma link delete "$dev" || fail "rdma link delete failed or hung (rdmad holding the device?)"
log "rdma link delete took $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')s"
wait_log 'listener .*: RDMA device removed' 10
for ((i = 0; i < 150; i++)); do
	[ "$(grep -c 'close: ' "$T/rdmad.log")" -ge $((closes + 2)) ] && break
	sleep 0.1
done
[ "$(grep -c 'close: ' "$T/rdmad.log")" -ge $((closes + 2)) ] ||
	fail "live connections not closed after the device went away"
grep 'close: ' "$T/rdmad.log" | tail -2 | sed 's/^/# /' >&2
rdmad_alive
[ "$(rdma_res_counts "$RDMAD_PID")" = "qp=0 cq=0 mr=0 pd=0 cm_id=0" ] ||
	fail "resources left while the device is gone: $(rdma_res_counts "$RDMAD_PID")"
sleep 1
rdmad_alive

# 2. rdma link add: rdmad listens again by itself.
rdma link add "$dev" type rxe netdev "$ndev" || fail "rdma link add failed"
wait_log 'listening again on' 30
wait_listen $port
honest_retry
wait_res_counts "$RDMAD_PID" "$BASE_RES" 20
check_after relisten

# 3. Netdev down under live clients, then up.
opens=$(grep -c 'open: ' "$T/rdmad.log")
closes=$(grep -c 'close: ' "$T/rdmad.log")
live_clients "$opens"
sleep 1
ip link set "$ndev" down
for ((i = 0; i < 300; i++)); do
	[ "$(grep -c 'close: ' "$T/rdmad.log")" -ge $((closes + 2)) ] && break
	sleep 0.1
done
[ "$(grep -c 'close: ' "$T/rdmad.log")" -ge $((closes + 2)) ] ||
	fail "live connections not dropped after the netdev went down"
grep 'port .* down\|close: ' "$T/rdmad.log" | tail -3 | sed 's/^/# /' >&2
rdmad_alive
ip link set "$ndev" up
honest_retry
wait_res_counts "$RDMAD_PID" "$BASE_RES" 20
check_after netdev-up
rss_check
exit 0
