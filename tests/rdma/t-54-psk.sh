#!/bin/bash
# Pre-shared key: the right key gets a verified session; a wrong key, a
# MAC for other parameters, a replayed MAC, no AUTH at all (DONE
# straight away, or silence) are all disconnected without ever seeing
# the server's DESC (its address and rkey); rping clients and clients
# without a key are refused or cut off.  After every case rdmad is alive,
# a keyed honest client verifies, resources are back to the baseline.
#
# rdmad binds the key to the server the client connected to (auth.h,
# PROTO_WELCOME_F_BIND): rdmad-hostile's honest MAC is bound as
# rdma-probe's is, its wrong MACs too (so only the part under test is wrong).
source "$(dirname "$0")/lib.sh"
source "$RDMAD_SOURCE_DIR/tests/hostile/lib-hostile.sh"
port=7654
HOSTILE_KEY=$T/psk
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$HOSTILE_KEY"
chmod 600 "$HOSTILE_KEY"
rdmad_conf $port "auth.psk_file = $HOSTILE_KEY" "timeouts.idle = 3s"
rdmad_start
grep -q 'key required' "$T/rdmad.log" && fail "odd: key required before any client"
baseline
grep -q 'client authenticated' "$T/rdmad.log" || fail "keyed session not logged as authenticated"
for c in psk-good psk-wrong psk-other-hello psk-replay psk-skip silent-auth \
	psk-rping; do
	hostile_case "$c"
done
n=$(grep -c 'authentication failed' "$T/rdmad.log")
[ "$n" -ge 3 ] || fail "only $n authentication failures logged"
grep -q 'result auth-failed' "$T/rdmad.log" || fail "no auth-failed close"
# rdma-probe with the key: a verified session (its own bound AUTH).
cli timeout 60 "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -t 20 \
	--psk-file "$HOSTILE_KEY" --op both -s 64k -n 3 "$RDMAD_SRV_ADDR" \
	>"$T/probe-key.log" 2>&1 || fail "keyed rdma-probe failed: $(tail -3 "$T/probe-key.log")"
check_after keyed-probe
# rdma-probe without a key: never gets a DESC; rdmad cuts it off.
cli timeout 60 "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -t 8 -s 4k -n 1 \
	"$RDMAD_SRV_ADDR" >"$T/nokey.log" 2>&1 && fail "probe without a key succeeded"
log "probe without a key: $(tail -1 "$T/nokey.log")"
check_after nokey-probe
rss_check
exit 0
