#!/bin/bash
# The mesh agent in one rdmad (loopback rxe: no wire, but the whole agent:
# targets file, sessions, rounds, samples, metrics, /peers, reload, stop).
# rdmad A (port 7731) probes a targets file naming itself, two serving
# rdmads (7732, 7733) and a port nobody listens on (7739), 2 paths per
# peer, 200 ms rounds of 64 B and 4 KiB, bandwidth samples every 2 s on a
# 20 % budget.
# Rounds get 5 s, not 900 ms: under CI's load a 4 KiB round on loopback
# rxe once waited out a retransmission (duplicate_request +43) past
# 900 ms, and the path's reconnect looked like the reload's.
#  1. Itself skipped (3 peers); 7732 and 7733 up on both paths with
#     verified rounds of both sizes and a bandwidth sample; 7739 down,
#     its attempts counted (unreachable) and backing off, not one per round.
#  2. GET /peers (JSON) and rdmadctl mesh show the table.
#  3. Reload: 7733 out, 7734 in: 7733's rdmad logs two clean closes, 7734
#     comes up, 7732's sessions are the same (connects stay 2, its rdmad
#     saw 2 opens and no close); 7733's series leave the metrics.
#  4. --check-config and a reload with a bad targets line: refused with
#     FILE:LINE; nothing changes.
#  5. SIGTERM to 7732's rdmad (drain_timeout 30 s): it ends A's two mesh
#     sessions at once and exits within 5 s; A sees it down.
#  6. SIGTERM to A: its sessions to 7734 close cleanly (result ok) and
#     7734's rdmad holds no more resources than before A came.
source "$(dirname "$0")/lib.sh"
RDMADCTL=$RDMAD_BUILD_DIR/src/ctl/rdmadctl
A=$RDMAD_SRV_ADDR
http=127.0.0.1:9473
declare -A SPID
rdmad_serve 7732
rdmad_serve 7733
base7734=""
printf '%s\n' "$A:7731" "$A:7732" "$A:7733" "$A:7739 # nobody" >"$T/peers"
rdmad_conf 7731 "mesh.targets = $T/peers" "mesh.interval = 200ms" \
	"mesh.sizes = 64 4k" "mesh.paths = 2" "mesh.bandwidth_every = 2s" \
	"mesh.bandwidth_duration = 100ms" "mesh.bandwidth_share = 20%" \
	"mesh.backoff_min = 500ms" "mesh.backoff_max = 4s" \
	"mesh.connect_timeout = 1s" "mesh.round_timeout = 5s" "http.listen = $http"
rdmad_start "$T/rdmad.ini" "$T/a.log"
APID=$RDMAD_PID
scrape() { curl -sf "http://$http/metrics" >"$1" || fail "cannot scrape rdmad A"; }
up_both() { # up_both FILE PEER: both paths up, both sizes verified
	[ "$(prom_sum "$1" rdmad_mesh_peer_paths_up "peer=\"$2\"")" = 2 ] &&
		[ "$(prom_sum "$1" rdmad_mesh_rounds_total "peer=\"$2\"" 'result="ok"')" -ge 4 ]
}
end=$(($(now_ms) + 30000))
while :; do
	scrape "$T/m1.prom"
	# Samples go one at a time to whichever path is due: wait for one
	# of 7732's, not just any two.
	up_both "$T/m1.prom" "$A:7732" && up_both "$T/m1.prom" "$A:7733" &&
		[ "$(prom_sum "$T/m1.prom" rdmad_mesh_bandwidth_samples_total)" -ge 2 ] &&
		grep -q "^rdmad_mesh_bandwidth_bytes_per_second{peer=\"$A:7732\"}" "$T/m1.prom" && break
	[ "$(now_ms)" -lt "$end" ] || fail "peers not up on both paths with samples (one of 7732's) after 30 s: $(grep -E '^rdmad_mesh_(peer_paths_up|rounds_total|bandwidth)' "$T/m1.prom" | grep -v ' 0$')"
	sleep 0.5
done
grep -q "1 of 4 targets in $T/peers are this rdmad itself" "$T/a.log" || fail "A did not say it skips itself: $(grep mesh: "$T/a.log" | head -3)"
[ "$(prom_sum "$T/m1.prom" rdmad_mesh_peers)" = 3 ] || fail "rdmad_mesh_peers is not 3"
for s in 64 4096; do
	[ "$(prom_sum "$T/m1.prom" rdmad_mesh_size_rounds_failed_total "peer=\"$A:7732\"" "size=\"$s\"")" = 0 ] || fail "failed $s B rounds to 7732"
done
bw=$(prom_sum "$T/m1.prom" rdmad_mesh_bandwidth_bytes_per_second "peer=\"$A:7732\"")
awk -v b="$bw" 'BEGIN { exit !(b > 0) }' || fail "no bandwidth sample of 7732"
log "7732 and 7733 up on 2 paths each; bandwidth to 7732 $(awk -v b="$bw" 'BEGIN { printf "%.1f", b / 1e6 }') MB/s"
sleep 3
scrape "$T/m2.prom"
dead_all=$(prom_sum "$T/m2.prom" rdmad_mesh_rounds_total "peer=\"$A:7739\"")
dead_unr=$(prom_sum "$T/m2.prom" rdmad_mesh_rounds_total "peer=\"$A:7739\"" 'result="unreachable"')
[ "$(prom_sum "$T/m2.prom" rdmad_mesh_peer_up "peer=\"$A:7739\"")" = 0 ] || fail "the dead port is not down"
[ "$dead_all" -ge 2 ] && [ "$dead_all" = "$dead_unr" ] || fail "dead port: $dead_all attempts, $dead_unr unreachable"
ok32=$(prom_sum "$T/m2.prom" rdmad_mesh_rounds_total "peer=\"$A:7732\"" 'result="ok"')
[ "$dead_all" -lt $((ok32 / 3)) ] || fail "the dead port was tried $dead_all times while 7732 had $ok32 rounds: no backoff"
grep -q "10.99.0.1:7739.*backing off\|$A:7739.*backing off" "$T/a.log" || fail "no backoff line for the dead port"
log "dead port: $dead_all attempts (unreachable), backing off; 7732: $ok32 rounds"
bad=$(awk '/^rdmad_mesh_rounds_total\{/ && !/7739/ && !/result="ok"/ { s += $NF } END { print s + 0 }' "$T/m2.prom")
[ "$bad" = 0 ] || fail "$bad failed rounds to live peers"

curl -sf "http://$http/peers" >"$T/peers.json" || fail "GET /peers failed"
python3 - "$T/peers.json" "$A" <<'PY' || fail "GET /peers: $(head -c 600 "$T/peers.json")"
import json, sys
d = json.load(open(sys.argv[1])); a = sys.argv[2]
p = {x["peer"]: x for x in d["peers"]}
assert d["mesh"] is True and set(p) == {a + ":7732", a + ":7733", a + ":7739"}, p.keys()
assert p[a + ":7732"]["up"] and len(p[a + ":7732"]["paths"]) == 2
assert all(x["rounds_ok"] > 0 and x["last"] == "ok" for x in p[a + ":7732"]["paths"])
assert not p[a + ":7739"]["up"] and p[a + ":7739"]["paths"][0]["error"]
PY
RDMADCTL_OUT=$("$RDMADCTL" -a "$http" mesh) || fail "rdmadctl mesh failed"
log "rdmadctl mesh:"$'\n'"$RDMADCTL_OUT"
[ "$(grep -c "$A:773[23] .* up " <<<"$RDMADCTL_OUT")" = 4 ] || fail "rdmadctl mesh does not show 4 paths up"

# 3. reload: 7733 out, 7734 in
rdmad_serve 7734
base7734=$(rdma_res_counts "${SPID[7734]}")
c32=$(prom_sum "$T/m2.prom" rdmad_mesh_connects_total "peer=\"$A:7732\"")
[ "$c32" = 2 ] || fail "7732 connected $c32 times before the reload, want 2 (one per path)"
printf '%s\n' "$A:7731" "$A:7732" "$A:7734" "$A:7739" >"$T/peers"
kill -HUP "$APID"
wait_log "mesh: reload: 1 peers added, 1 removed, 2 kept" 10 "$T/a.log"
end=$(($(now_ms) + 20000))
while :; do
	scrape "$T/m3.prom"
	up_both "$T/m3.prom" "$A:7734" && break
	[ "$(now_ms)" -lt "$end" ] || fail "7734 not up 20 s after the reload"
	sleep 0.5
done
[ "$(prom_sum "$T/m3.prom" rdmad_mesh_connects_total "peer=\"$A:7732\"")" = 2 ] || fail "the reload reconnected 7732"
grep -q "$A:7733" "$T/m3.prom" && fail "7733's series are still exported"
wait_log "close: .*result ok" 10 "$T/s7733.log"
[ "$(grep -c 'close: .*result ok' "$T/s7733.log")" = 2 ] || fail "7733's rdmad: not 2 clean closes: $(grep close: "$T/s7733.log")"
[ "$(grep -c 'open: native mesh' "$T/s7732.log") $(grep -c ' close: ' "$T/s7732.log")" = "2 0" ] || fail "7732's rdmad saw its sessions change on the reload"
log "reload: 7733 closed cleanly (2 paths), 7734 up, 7732 untouched"

# 4. a bad targets file
printf '%s\n' "$A:7732" "$A:99999" >"$T/bad-peers"
sed "s|^targets = .*|targets = $T/bad-peers|" "$T/rdmad.ini" >"$T/bad.ini"
out=$("$RDMAD" --check-config -c "$T/bad.ini" 2>&1)
rc=$?
[ "$rc" = 78 ] && grep -q "bad-peers:2:" <<<"$out" || fail "--check-config with a bad targets line: exit $rc: $out"
cp "$T/bad-peers" "$T/peers"
kill -HUP "$APID"
wait_log "reload refused: .*peers:2:" 10 "$T/a.log"
sleep 1
scrape "$T/m4.prom"
[ "$(prom_sum "$T/m4.prom" rdmad_mesh_peers)" = 3 ] && up_both "$T/m4.prom" "$A:7734" || fail "a refused reload changed the peers"
log "bad targets: $(grep 'reload refused' "$T/a.log" | tail -1 | cut -c25-)"

# 5. a serving rdmad stops: mesh sessions end at once
t0=$(now_ms)
kill -TERM "${SPID[7732]}"
wait "${SPID[7732]}" 2>/dev/null
took=$(($(now_ms) - t0))
# not held by the mesh sessions till the drain deadline (a loaded guest
# takes seconds to stop, never the 30 s)
[ "$took" -lt 30000 ] && ! grep -q "drain deadline passed" "$T/s7732.log" ||
	fail "7732's rdmad took $took ms to stop (drain_timeout 30 s held by mesh sessions)"
grep -q "ended 2 mesh sessions of peers" "$T/s7732.log" || fail "7732's rdmad did not end the mesh sessions: $(tail -3 "$T/s7732.log")"
end=$(($(now_ms) + 10000))
while :; do
	scrape "$T/m5.prom"
	[ "$(prom_sum "$T/m5.prom" rdmad_mesh_peer_up "peer=\"$A:7732\"")" = 0 ] && break
	[ "$(now_ms)" -lt "$end" ] || fail "A still sees 7732 up 10 s after it stopped"
	sleep 0.3
done
log "7732's rdmad stopped in $took ms; A saw it down"

# 6. A stops: its sessions close cleanly
kill -TERM "$APID"
wait "$APID" 2>/dev/null
wait_res_counts "${SPID[7734]}" "$base7734" 10
[ "$(grep -c 'close: .*result ok' "$T/s7734.log")" = 2 ] || fail "7734's rdmad: A's 2 sessions did not close cleanly: $(grep close: "$T/s7734.log")"
log "A stopped: 7734's rdmad saw 2 clean closes, resources back to $base7734"
kill -TERM "${SPID[7733]}" "${SPID[7734]}"
exit 0
