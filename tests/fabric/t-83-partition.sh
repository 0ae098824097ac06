#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# A partition in the middle of a transfer: the client host's cable is
# pulled (QEMU set_link, from outside) while rdma-probe (-t 10) moves
# 64 KiB operations to rdmad on host 1 ([timeouts] liveness 2 s, session
# 120 s).  The probe fails as timed out or connection lost (exit 6 or 7)
# within -t 10 plus 30 s of retries; rdmad reaps the dead connection by
# its liveness check (result peer-unreachable) within 30 s, far below the
# session deadline, and its QP, MR, cm_id and fd counts return to what
# they were before; after the heal, new clients verify.
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_client_fault 2 partition fab_link 2 down

fab_wait 2 probe 90 >"$T/probe.json"
rc=$?
took=$(fab_since "$t0")
err=$(json_get "$T/probe.json" 'd["runs"][0]["conns"][0]["error"]')
fab_log "the probe: exit $rc after ${took}s: $err"
[ "$rc" = 6 ] || [ "$rc" = 7 ] || fab_fail "probe exit $rc after a partition, want 6 or 7"
awk -v t="$took" 'BEGIN { exit !(t <= 40) }' || fab_fail "the probe took ${took}s, more than -t 10 + 30 s"

fab_link 2 up
fab_sh 2 -t 60 "\$PROBE -s 64k -n 10 $A1" >"$T/healed.out" || fab_fail "after the heal: $(tail -3 "$T/healed.out")"
fab_log "after the heal: a new probe verifies"
