#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The client host hangs mid-transfer (its QEMU stopped: a gray failure)
# until rdmad has reaped it, and at least 15 s (past the probe's own -t 10
# and rdmad's liveness check), then resumes.  rdmad on host 1 ([timeouts]
# liveness 2 s, session 120 s) reaps the frozen client within 30 s while
# it is still frozen (result peer-unreachable) and its resources return
# to the baseline.  After the resume the probe, which finds its
# connection gone, ends with exit 6 or 7 within 30 s, and a new probe
# from the same host verifies.  (It hung 40 s until 2026-11-28: the
# same, 25 s longer.)
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_client_fault 2 "client hang" fab_hang 2
# fab_client_fault returned once rdmad reaped the frozen client and gave
# its resources back.
while awk -v t="$(fab_since "$t0")" 'BEGIN { exit !(t < 15) }'; do sleep 1; done
fab_log "host 2 frozen $(fab_since "$t0")s"
t1=$(fab_now)
fab_resume 2
fab_wait 2 probe 60 >"$T/probe.json"
rc=$?
fab_log "after the resume the probe ended in $(fab_since "$t1")s, exit $rc: $(json_get "$T/probe.json" \
	'd["runs"][0]["conns"][0]["error"]')"
[ "$rc" = 6 ] || [ "$rc" = 7 ] || fab_fail "probe exit $rc after the hang, want 6 or 7"
awk -v t="$(fab_since "$t1")" 'BEGIN { exit !(t <= 45) }' || fab_fail "the probe hung on after the resume"
fab_counts_back 1 "$base"
fab_sh 2 -t 60 "\$PROBE -s 64k -n 10 $A1" >"$T/after.out" || fab_fail "after the resume: $(tail -3 "$T/after.out")"
fab_log "after the resume: a new probe from host 2 verifies"
