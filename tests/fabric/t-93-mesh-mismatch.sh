#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Wrong bytes are caught, not counted as success.  Host 3 runs a
# corrupting server instead of rdmad (tests/hostile/rdmad-hostile
# corrupt: its mesh buffer maps one page twice in a row, so the bytes of
# a round longer than 4136 bytes land over those from offset 40 on, as
# the silent corruption Aegis found hit only large packets).  rdmad on
# host 1 probes host 2 (a real rdmad) and host 3 every 300 ms with 64 B
# and 64 KiB rounds in turn: every 64 KiB round to host 3 is counted as a
# mismatch and none as verified, the 64 B ones verify (small probes alone
# would never have seen it), the log names the size and the offset (40),
# the peer stays "up" (it answers; its bytes are wrong), and the rounds to
# host 2 verify (round_timeout 5 s: a run here, beside the whole CI and a
# build, timed out two 64 KiB rounds to host 3 and one to host 2 at the
# default 900 ms, so the 64 KiB failures were not all mismatches).
# Blackbox-style GET /probe on host 1:
# host 2's rdmad -> probe_success 1, a port nobody listens on -> 0
# quickly, a second corrupting server (native session, one wrong byte in
# what it offers for READ) -> 0.
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require 3
A2=$(fab_addr 2) A3=$(fab_addr 3)
P2=$(fab_peer 2) P3=$(fab_peer 3)
HOSTILE=$RDMAD_BUILD_DIR/tests/hostile/rdmad-hostile
fab_spawn 3 corrupt "$HOSTILE -p 7471 -H 0 corrupt $A3"
fab_spawn 3 corrupt2 "$HOSTILE -p 7472 -H 0 corrupt $A3"
fab_wait_listen 3 7471
fab_wait_listen 3 7472
fab_rdmad_start 2 7471
fab_sh 1 "mkdir -p \$T && printf '%s\n' $P2 $P3 >\$T/peers"
fab_rdmad_start 1 7471 "mesh.targets = /tmp/fabric-test/peers" "mesh.interval = 300ms" \
	"mesh.sizes = 64 64k" "mesh.round_timeout = 5s"
sizes=2
fab_mesh_wait_up 1 30 "$P2"
sleep 5
fab_scrape 1 "$T/m.prom"
bad=$(prom_sum "$T/m.prom" rdmad_mesh_rounds_total "peer=\"$P3\"" 'result="mismatch"')
ok=$(prom_sum "$T/m.prom" rdmad_mesh_rounds_total "peer=\"$P3\"" 'result="ok"')
fab_log "host 1 -> corrupting host 3: $bad rounds mismatch, $ok ok"
big=$(prom_sum "$T/m.prom" rdmad_mesh_size_rounds_failed_total "peer=\"$P3\"" 'size="65536"')
small=$(prom_sum "$T/m.prom" rdmad_mesh_size_rounds_failed_total "peer=\"$P3\"" 'size="64"')
[ "$bad" -ge 5 ] || fab_fail "only $bad mismatching rounds counted to the corrupting server in ~8 s"
[ "$big" = "$bad" ] && [ "$small" = 0 ] || fab_fail "mismatches by size: 64 KiB $big, 64 B $small, of $bad"
[ "$ok" -ge "$((bad - 1))" ] && [ "$ok" -le "$((bad + 1))" ] || fab_fail "$ok rounds verified for $bad mismatches: the 64 KiB rounds must all fail, the 64 B ones pass"
[ "$(prom_sum "$T/m.prom" rdmad_mesh_peer_up "peer=\"$P3\"")" = 1 ] || fab_fail "the corrupting peer is not reported up (it answers)"
[ "$(prom_sum "$T/m.prom" rdmad_mesh_rounds_total "peer=\"$P2\"" 'result="ok"')" -ge 10 ] || fab_fail "rounds to host 2 did not verify"
line=$(fab_sh 1 "grep -m1 'DATA MISMATCH' \$T/rdmad.log")
fab_log "host 1's log: $line"
[[ $line == *"$P3"*"65536 bytes written and read back, the first bad byte at offset 40"* ]] ||
	fab_fail "the mismatch line does not name the peer, size and offset 40: $line"
fab_sh 1 "\$RDMADCTL mesh" | grep "$P3" >"$T/row.txt"
fab_log "rdmadctl mesh: $(cat "$T/row.txt")"
grep -q mismatch "$T/row.txt" || fab_fail "rdmadctl mesh does not show the mismatch"

probe() { # probe QUERY: probe_success of GET /probe?QUERY on host 1
	fab_sh 1 -t 30 "curl -s 'http://127.0.0.1:9470/probe?$1'" >"$T/probe.out"
	awk '$1 == "probe_success" { print $2 }' "$T/probe.out"
}
t0=$(fab_now)
[ "$(probe "target=$A2:7471")" = 1 ] || fab_fail "/probe of host 2's rdmad: $(cat "$T/probe.out")"
fab_log "/probe host 2: success 1 in $(fab_since "$t0")s"
t0=$(fab_now)
[ "$(probe "target=$A2:7999")" = 0 ] || fab_fail "/probe of a dead port: $(cat "$T/probe.out")"
fab_log "/probe dead port: success 0 in $(fab_since "$t0")s"
t0=$(fab_now)
[ "$(probe "target=$A3:7472")" = 0 ] || fab_fail "/probe of the corrupting server: $(cat "$T/probe.out")"
grep -q mismatch "$T/probe.out" || fab_fail "/probe of the corrupting server does not say mismatch: $(cat "$T/probe.out")"
fab_log "/probe corrupting server: success 0 (mismatch) in $(fab_since "$t0")s"
fab_kill 3 corrupt
fab_kill 3 corrupt2
