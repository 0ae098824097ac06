#!/bin/bash
# Admission: a flood past max_connections_per_host and past
# max_connections is rejected "busy" with the reason in the reject
# private data; allow/deny lists refuse a client before any allocation;
# max_duration cuts an endless rping; max_registered_bytes caps the
# memory all connections pin.  After each: rdmad alive, honest client
# verified, resources back to the baseline.
source "$(dirname "$0")/lib.sh"
source "$RDMAD_SOURCE_DIR/tests/hostile/lib-hostile.sh"
need probe
port=7652
rdmad_conf $port "server.max_connections = 5" \
	"server.max_connections_per_host = 3" "limits.max_duration = 4s" \
	"timeouts.idle = 30s"
rdmad_start
baseline

# 1. Per host: 3 of 6 from the client address.
out=$(hostile flood 6)
log "$out"
echo "$out" | grep -q 'flood: accepted 3 busy 3 other 0' || fail "per-host flood: $out"
grep -q 'busy: 3/3 connections from this host' "$T/rdmad.log" ||
	fail "per-host reject reason not logged"
check_after per-host

# 2. Global: 3 held from the client, then 4 from the server's address
#    (another host to rdmad): 2 more fit, 2 are busy.  The 3 are held
#    until the 4 are done (SIGUSR1), however slow the guest: a hold of
#    8 s once ended before the fourth connected (busy 1, not 2).
opens=$(grep -c 'open: native' "$T/rdmad.log")
cli "$HOSTILE" -p $port -I "$RDMAD_CLI_ADDR" -t 20 -H 300 flood 3 \
	"$RDMAD_SRV_ADDR" >"$T/hold.log" 2>&1 &
hold=$!
log_has_n 'open: native' $((opens + 3)) 20 "$T/rdmad.log" ||
	fail "holding flood did not get its 3 connections"
out=$(cli timeout 60 "$HOSTILE" -p $port -I "$RDMAD_SRV_ADDR" -t 10 flood 4 "$RDMAD_SRV_ADDR" 2>>"$T/hostile.err")
log "$out"
echo "$out" | grep -q 'flood: accepted 2 busy 2 other 0' || fail "global flood: $out"
grep -q 'busy: 5/5 connections, retry later' "$T/rdmad.log" ||
	fail "global busy reason not logged"
kill -USR1 "$(real_pid $hold rdmad-hostile)"
wait $hold || fail "holding flood: $(cat "$T/hold.log")"
check_after global

# 3. Stock rping flood is limited alike.
out=$(hostile flood-rping 5)
log "$out"
echo "$out" | grep -q 'flood: accepted 3 busy 2 other 0' || fail "rping flood: $out"
check_after rping-flood

# 4. max_duration: an endless rping is cut after 4s.
cli rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" -p $port -C 0 -S 4096 \
	>"$T/rping-endless.log" 2>&1 &
rp=$!
wait_log 'max_duration 4000ms reached' 15
wait $rp 2>/dev/null
check_after max-duration
rss_check
kill -TERM "$RDMAD_PID"; wait "$RDMAD_PID" 2>/dev/null

# 5. Deny list: the client address is refused before anything is
#    allocated; the same client from another address is served.
rdmad_conf $port "access.deny = $RDMAD_CLI_ADDR/32 fd00::/8" \
	"access.allow = 10.0.0.0/8 2001:db8::/32"
rdmad_start "$T/rdmad.ini" "$T/rdmad-acl.log"
base=$(rdma_res_counts "$RDMAD_PID")
hostile_ok expect-reject 6
hostile_ok expect-reject-rping 6
grep -q 'rejected (access denied): denied: address on the deny list' "$T/rdmad-acl.log" ||
	fail "deny not logged: $(tail -3 "$T/rdmad-acl.log")"
[ "$(rdma_res_counts "$RDMAD_PID")" = "$base" ] || fail "resources changed by refused clients"
cli timeout 60 "${PROBE_CMD[@]}" -I "$RDMAD_SRV_ADDR" -p $port -s 4k -n 2 "$RDMAD_SRV_ADDR" \
	>"$T/other-host.log" 2>&1 || fail "allowed host refused: $(cat "$T/other-host.log")"
kill -TERM "$RDMAD_PID"; wait "$RDMAD_PID" 2>/dev/null

# 6. Allow list without the client: refused, with the reason printed by
#    rdma-probe.
rdmad_conf $port "access.allow = $RDMAD_SRV_ADDR/32"
rdmad_start "$T/rdmad.ini" "$T/rdmad-allow.log"
cli timeout 60 "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -s 4k -n 2 "$RDMAD_SRV_ADDR" \
	>"$T/denied.log" 2>&1 && fail "client off the allow list was served"
grep -q 'denied: address not on the allow list' "$T/denied.log" ||
	fail "probe did not print the reason: $(cat "$T/denied.log")"
log "probe says: $(grep -m1 denied "$T/denied.log")"
rdmad_alive
kill -TERM "$RDMAD_PID"; wait "$RDMAD_PID" 2>/dev/null

# 7. Pinned memory: with max_registered_bytes 2m, one 1 MiB session (and
#    its control slots) fits, a second at the same time is rejected busy
#    with the reason; once the first is over, the next one fits.
rdmad_conf $port "limits.max_registered_bytes = 2m"
rdmad_start "$T/rdmad.ini" "$T/rdmad-pinned.log"
cli "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -s 1m --op both -D 3 "$RDMAD_SRV_ADDR" \
	>"$T/pinned-first.log" 2>&1 &
first=$!
wait_log 'open: native' 20 "$T/rdmad-pinned.log"
cli timeout 60 "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -s 1m -n 2 "$RDMAD_SRV_ADDR" \
	>"$T/pinned-second.log" 2>&1
rc=$?
[ $rc = 5 ] || fail "second 1 MiB session under a 2m cap: exit $rc, want 5 (rejected): $(tail -2 "$T/pinned-second.log")"
grep -q 'exceed max_registered_bytes 2097152' "$T/pinned-second.log" ||
	fail "probe did not print the reason: $(cat "$T/pinned-second.log")"
grep -q 'rejected (busy): busy: registered memory' "$T/rdmad-pinned.log" ||
	fail "the reject is not logged: $(tail -3 "$T/rdmad-pinned.log")"
wait $first || fail "the first session failed: $(tail -3 "$T/pinned-first.log")"
cli timeout 60 "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -s 1m -n 2 "$RDMAD_SRV_ADDR" \
	>"$T/pinned-third.log" 2>&1 || fail "a session after the first ended: $(tail -2 "$T/pinned-third.log")"
rdmad_alive
exit 0
