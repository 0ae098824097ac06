#!/bin/bash
# Clients killed with SIGKILL mid-transfer: rdmad logs each, frees its
# resources and serves the next client.  With max_connections = 1, a
# second client meanwhile is rejected as busy, with the reason.
source "$(dirname "$0")/lib.sh"
need probe
port=7624
rdmad_up $port "server.max_connections = 1" "limits.max_buffer_size = 1m" \
	"timeouts.session = 20s" "timeouts.idle = 10s"

# 1. An endless rping holds the only slot; a probe is turned away.
cli rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" -p $port -C 0 \
	-S 65535 -V >"$T/rping-killed.log" 2>&1 &
cpid=$(real_pid $! rping)
wait_log 'open: rping' 20
sleep 1
cli timeout 60 "$PROBE" -p $port -t 20 -s 4k -n 1 "$RDMAD_SRV_ADDR" \
	>"$T/busy.log" 2>&1
rc=$?
[ $rc = 5 ] || { cat "$T/busy.log" >&2; fail "probe while busy: exit $rc, want 5"; }
grep -q 'busy: 1/1 connections, retry later' "$T/busy.log" ||
	{ cat "$T/busy.log" >&2; fail "probe did not print the busy reason"; }
log "busy reject seen by the probe: $(grep -m1 busy "$T/busy.log")"

kill -KILL $cpid
wait_log 'close: rping' 30
log "rping killed: $(grep 'close: rping' "$T/rdmad.log" | tail -1 | cut -d' ' -f3-)"
wait_res_counts $rpid "$base" 20

# 2. A probe killed in the middle of 1 MiB READs and WRITEs.
cli "$PROBE" -p $port -t 20 --op both -s 1m -n 50000 "$RDMAD_SRV_ADDR" \
	>"$T/probe-killed.log" 2>&1 &
cpid=$(real_pid $! rdma-probe)
wait_log 'open: native' 20
sleep 2
kill -KILL $cpid
wait_log 'close: native' 40
line=$(grep 'close: native' "$T/rdmad.log" | tail -1)
log "probe killed: $(echo "$line" | cut -d' ' -f3-)"
echo "$line" | grep -q 'result aborted\|result timeout' ||
	fail "killed probe not logged as aborted or timed out: $line"
wait_res_counts $rpid "$base" 20

# 3. The next clients are served.
cli timeout 60 "$PROBE" -p $port -t 20 --op both -s 64k -n 3 \
	"$RDMAD_SRV_ADDR" >"$T/next.log" 2>&1 ||
	{ cat "$T/next.log" >&2; fail "probe after the kills failed"; }
cli timeout 60 rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" -p $port \
	-C 5 -S 4096 -v -V >"$T/rping-next.log" 2>&1
got=$(grep -c '^ping data: rdma-ping-' "$T/rping-next.log")
[ "$got" = 5 ] || fail "rping after the kills: $got of 5 pings verified"
kill -0 $rpid 2>/dev/null || fail "rdmad died"
wait_res_counts $rpid "$base" 20
exit 0
