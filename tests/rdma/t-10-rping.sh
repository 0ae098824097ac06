#!/bin/bash
# Harness proof: stock rping between the server and client addresses of the
# test bed moves verified data over soft-RoCE.
source "$(dirname "$0")/lib.sh"
port=7600
count=20
srv rping -s -P -a "$RDMAD_SRV_ADDR" -p $port -S 4096 >"$T/server.log" 2>&1 &
spid=$!
wait_listen $port
cli timeout 60 rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" -p $port \
	-C $count -S 4096 -v -V >"$T/client.log" 2>&1 || fail "rping client exited $? (log: $T/client.log)"
got=$(grep -c '^ping data: rdma-ping-' "$T/client.log")
log "rping client verified $got of $count pings"
[ "$got" = $count ] || { tail "$T/client.log" >&2; fail "rping verified $got of $count pings"; }
grep -q 'data mismatch\|error' "$T/client.log" && fail "rping reported an error: $(grep -m1 'mismatch\|error' "$T/client.log")"
kill -0 $spid 2>/dev/null || fail "rping -s -P died"
# The persistent server sees the client's own address as its peer.
rdma resource show cm_id | grep -q "comm rping" || fail "no rping cm_id in rdma resource show"
exit 0
