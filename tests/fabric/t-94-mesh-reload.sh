#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# A reload that adds and removes peers without touching the others.
# rdmad on host 1 probes hosts 2 and 3 (rdmads of their own, no mesh of
# their own); its targets file becomes hosts 3 and 4, and SIGHUP: host 2's
# session ends cleanly (its rdmad logs the close, result ok), host 4 comes
# up within a few intervals, and host 3's session is the same connection
# as before (host 3's rdmad saw one mesh session from host 1, still open;
# host 1 connected to it once).  A targets file with a bad line refuses
# the reload and changes nothing.
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require 4
P2=$(fab_peer 2) P3=$(fab_peer 3) P4=$(fab_peer 4)
for i in 2 3 4; do fab_rdmad_start "$i" 7471; done
fab_sh 1 "mkdir -p \$T && printf '%s\n' $P2 $P3 >\$T/peers"
fab_rdmad_start 1 7471 "mesh.targets = /tmp/fabric-test/peers" "mesh.interval = 500ms"
fab_mesh_wait_up 1 30 "$P2" "$P3"
fab_scrape 1 "$T/a.prom"
c3=$(prom_sum "$T/a.prom" rdmad_mesh_connects_total "peer=\"$P3\"")
[ "$c3" = 1 ] || fab_fail "host 1 connected to $P3 $c3 times before the reload"

fab_sh 1 "printf '%s\n' $P3 '# host 2 retired' $P4 >\$T/peers && pkill -HUP -x rdmad" || fab_fail "cannot reload"
fab_mesh_wait_up 1 30 "$P3" "$P4"
fab_sh 1 "grep 'mesh: reload' \$T/rdmad.log" >"$T/reload.log" || fab_fail "host 1 did not log the reload"
fab_log "host 1: $(cat "$T/reload.log")"
grep -q "1 peers added, 1 removed, 1 kept" "$T/reload.log" || fab_fail "reload line does not say 1 added, 1 removed, 1 kept"
fab_scrape 1 "$T/b.prom"
[ "$(prom_sum "$T/b.prom" rdmad_mesh_connects_total "peer=\"$P3\"")" = 1 ] || fab_fail "host 1 reconnected to $P3 on the reload"
grep -q "peer=\"$P2\"" "$T/b.prom" && fab_fail "host 1 still exports series of the removed peer $P2"
[ "$(prom_sum "$T/b.prom" rdmad_mesh_peers)" = 2 ] || fab_fail "rdmad_mesh_peers is not 2"
fab_sh 2 "for k in \$(seq 50); do grep -q ' close: .*result ok' \$T/rdmad.log && exit 0; sleep 0.1; done; exit 1" >/dev/null ||
	fab_fail "host 2's rdmad did not log a clean close of host 1's session: $(fab_sh 2 "grep close: \$T/rdmad.log")"
n=$(fab_sh 3 "grep -c 'open: native mesh' \$T/rdmad.log; grep -c ' close: ' \$T/rdmad.log" | tr '\n' ' ')
[ "$n" = "1 0 " ] || fab_fail "host 3's rdmad saw (opens, closes) = ($n), want one session still open"
fab_log "host 2 closed cleanly, host 4 up, host 3's session untouched (1 open, 0 closes)"

fab_sh 1 "printf '%s\n' $P3 'not an address!' >\$T/peers && pkill -HUP -x rdmad; for i in \$(seq 150); do grep -q 'reload refused' \$T/rdmad.log && break; sleep 0.2; done; grep 'reload refused' \$T/rdmad.log" >"$T/refused.log" ||
	fab_fail "a bad targets file did not refuse the reload"
fab_log "bad file: $(cat "$T/refused.log")"
grep -q "peers:2:" "$T/refused.log" || fab_fail "the refusal does not name the file and line"
fab_scrape 1 "$T/c.prom"
[ "$(prom_sum "$T/c.prom" rdmad_mesh_peer_up "peer=\"$P4\"")" = 1 ] || fab_fail "the refused reload dropped $P4"
