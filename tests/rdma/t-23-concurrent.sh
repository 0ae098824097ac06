#!/bin/bash
# 32 rdma-probe sessions and 8 stock rping clients at the same time
# against one rdmad: all verified, the daemon alive, its QP/CQ/MR/PD
# counts back to baseline afterwards.
source "$(dirname "$0")/lib.sh"
need probe
port=7623
nprobe=32
nrping=8
rdmad_up $port "server.max_connections = 64" "limits.max_buffer_size = 64k" \
	"timeouts.accept = 30s" "timeouts.idle = 60s" "timeouts.io = 60s"

pids=()
for ((i = 0; i < nprobe; i++)); do
	cli timeout 240 "$PROBE" -p $port -t 60 --op both -s 16k -n 10 \
		"$RDMAD_SRV_ADDR" >"$T/probe-$i.log" 2>&1 &
	pids+=($!)
done
for ((i = 0; i < nrping; i++)); do
	cli timeout 240 rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" \
		-p $port -C 30 -S 8192 -v -V >"$T/rping-$i.log" 2>&1 &
	pids+=($!)
done
# Watch the peak while they run.
peak=0
while kill -0 "${pids[@]}" 2>/dev/null; do
	q=$(rdma resource show qp 2>/dev/null | grep -c "pid $rpid ")
	((q > peak)) && peak=$q
	sleep 0.2
	any=0
	for p in "${pids[@]}"; do kill -0 $p 2>/dev/null && any=1; done
	((any)) || break
done
bad=0
for ((i = 0; i < nprobe; i++)); do
	wait ${pids[i]}
	rc=$?
	if [ $rc != 0 ]; then
		log "probe $i exited $rc: $(tail -1 "$T/probe-$i.log")"
		bad=$((bad + 1))
	fi
done
for ((i = 0; i < nrping; i++)); do
	wait ${pids[nprobe + i]}
	got=$(grep -c '^ping data: rdma-ping-' "$T/rping-$i.log")
	if [ "$got" != 30 ]; then
		log "rping $i: $got of 30 pings verified: $(tail -1 "$T/rping-$i.log")"
		bad=$((bad + 1))
	fi
done
log "peak of $peak daemon QPs seen; $bad of $((nprobe + nrping)) clients failed"
kill -0 $rpid 2>/dev/null || fail "rdmad died"
[ $bad = 0 ] || { grep -v ' debug ' "$T/rdmad.log" | grep -v 'result ok\|open:' | tail -20 >&2; fail "$bad clients failed"; }
wait_res_counts $rpid "$base" 30
ok=$(grep -c 'result ok' "$T/rdmad.log")
log "rdmad: $ok ok closes; resources back to $base"
[ "$ok" = $((nprobe + nrping)) ] || fail "rdmad logged $ok ok closes, want $((nprobe + nrping))"
exit 0
