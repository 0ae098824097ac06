#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# MTU mismatch: host 1's NIC at 9000 (rxe path MTU 4096), host 2's at 1500
# (1024).  rdma_cm takes the active side's path MTU, so host 1 probing
# rdmad on host 2 sends and asks for 4 KiB packets that host 2 cannot
# send back: a 64-byte probe verifies, a 64 KiB one fails within -t 10 +
# 10 s with exit 6 naming the stalled RDMA READ (never a hang), and with
# equal MTUs again 64 KiB verifies.
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require 2
A2=$(fab_addr 2)
fab_rdmad_start 2 7471
fab_mtu 1 9000
fab_sh 1 -t 60 "\$PROBE -s 64 -n 10 $A2" >"$T/small.out" || fab_fail "64 B across the mismatch: $(tail -3 "$T/small.out")"
fab_log "64 B: verified"
t0=$(fab_now)
fab_sh 1 -t 60 "\$PROBE -s 64k -n 3 -t 10 --json $A2 2>/dev/null" >"$T/big.json"
rc=$?
took=$(fab_since "$t0")
err=$(json_get "$T/big.json" 'd["runs"][0]["conns"][0]["error"]')
fab_log "64 KiB: exit $rc after ${took}s: $err"
[ "$rc" = 6 ] || [ "$rc" = 7 ] || fab_fail "exit $rc, want 6 or 7"
[[ $err == *"RDMA READ"* ]] || fab_fail "the message does not name the RDMA READ: $err"
awk -v t="$took" 'BEGIN { exit !(t <= 20) }' || fab_fail "took ${took}s, more than -t 10 + 10 s"
fab_mtu 1 1500
fab_sh 1 -t 60 "\$PROBE -s 64k -n 10 $A2" >"$T/equal.out" || fab_fail "equal MTUs: $(tail -3 "$T/equal.out")"
fab_log "equal MTUs again: 64 KiB verified"
