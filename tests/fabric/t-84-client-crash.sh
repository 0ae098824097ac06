#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The client host crashes mid-transfer (its QEMU killed: no FIN, no DREQ,
# nothing).  rdmad on host 1 ([timeouts] liveness 2 s, session 120 s)
# reaps the connection within 30 s (result peer-unreachable), its
# resources return to the baseline, another host's client verifies at
# once, and the crashed host, rebooted, verifies too: rdmad never needed a
# restart (same pid throughout).
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_client_fault 3 "client crash" fab_crash 2
pid=$(fab_sh 1 'pidof rdmad')
fab_sh 3 -t 60 "\$PROBE -s 64k -n 10 $A1" >"$T/other.out" || fab_fail "host 3's probe: $(tail -3 "$T/other.out")"
fab_log "host 3 verifies while host 2 is down"

fab_boot 2
fab_boot_wait 2
fab_sh 2 -t 60 "\$PROBE -s 64k -n 10 $A1" >"$T/rebooted.out" || fab_fail "host 2 after its reboot: $(tail -3 "$T/rebooted.out")"
[ "$(fab_sh 1 'pidof rdmad')" = "$pid" ] || fab_fail "rdmad's pid changed"
fab_log "host 2, rebooted, verifies; rdmad still pid $pid"
