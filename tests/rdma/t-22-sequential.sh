#!/bin/bash
# 24 sequential clients against one rdmad that serves 8 at once: stock
# rping and rdma-probe in turn.  Every one verified, the daemon alive,
# resources back to baseline: three times its connection slots, so a slot
# a client kept after it left refuses a later one ("busy").
source "$(dirname "$0")/lib.sh"
need probe
port=7622
rdmad_up $port "limits.max_buffer_size = 64k" "server.max_connections = 8"

total=24
start=$(date +%s.%N)
for ((i = 1; i <= total; i++)); do
	if ((i % 4 == 0)); then
		cli timeout 60 "$PROBE" -q -p $port -t 20 --op both -s 4k -n 2 \
			"$RDMAD_SRV_ADDR" >"$T/last.log" 2>&1
		rc=$?
		[ $rc = 0 ] || { cat "$T/last.log" >&2; fail "client $i (probe) failed: exit $rc"; }
	else
		cli timeout 60 rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" \
			-p $port -C 2 -S 1024 -v -V >"$T/last.log" 2>&1
		got=$(grep -c '^ping data: rdma-ping-' "$T/last.log")
		[ "$got" = 2 ] || { cat "$T/last.log" >&2; fail "client $i (rping): $got of 2 pings verified"; }
	fi
done
secs=$(echo "$(date +%s.%N) - $start" | bc)
log "$total sequential clients verified in ${secs}s"
kill -0 $rpid 2>/dev/null || fail "rdmad died"
wait_res_counts $rpid "$base" 20
ok=$(grep -c 'result ok' "$T/rdmad.log")
[ "$ok" = $total ] || fail "rdmad logged $ok ok closes, want $total"
log "rdmad: $ok ok closes, resources back to $base"
exit 0
