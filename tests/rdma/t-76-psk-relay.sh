#!/bin/bash
# A relay in the middle of a keyed session (tests/hostile/relay): it listens
# where the client believes rdmad is (another port), makes the client's
# CONNECT to the real keyed rdmad with the client's HELLO, accepts the
# client with the real WELCOME and passes the client's AUTH on.  The AUTH
# names the server the client connected to (the relay's address and
# port), so the real rdmad refuses it: "authentication failed", result
# auth-failed, no DESC for the relay; the client is told so.  A direct
# keyed client still verifies.
source "$(dirname "$0")/lib.sh"
port=7676
rport=7677
RELAY=$RDMAD_BUILD_DIR/tests/hostile/relay
[ -x "$RELAY" ] || fail "relay not built ($RELAY)"
key=$T/psk
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$key"
chmod 600 "$key"
rdmad_conf $port "auth.psk_file = $key"
rdmad_start
probe() { cli timeout 60 "$PROBE" -I "$RDMAD_CLI_ADDR" -t 8 "$@"; }

probe --psk-file "$key" -p $port --op both -s 4k -n 2 "$RDMAD_SRV_ADDR" \
	>"$T/direct.log" 2>&1 || { cat "$T/direct.log" >&2; fail "direct keyed probe failed"; }

# A test tool that exits without tearing down: its leaks (in the verbs
# provider) are not what is tested, its exit status is (ASan build).
srv env "ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$RELAY" -l "$RDMAD_SRV_ADDR" -p $rport -t 10 "$RDMAD_SRV_ADDR" $port \
	>"$T/relay.log" 2>"$T/relay.err" &
rpid=$!
wait_listen $rport
probe --psk-file "$key" -p $rport --op read -s 4k -n 2 "$RDMAD_SRV_ADDR" \
	>"$T/relayed.log" 2>&1
prc=$?
wait $rpid
rrc=$?
log "relay: exit $rrc: $(tail -1 "$T/relay.log") $(tail -1 "$T/relay.err")"
log "client through the relay: exit $prc: $(grep -m1 'rdma-probe:' "$T/relayed.log")"
grep -q 'client AUTH' "$T/relay.log" ||
	fail "the relay never passed an AUTH on: $(cat "$T/relay.log" "$T/relay.err")"
[ $rrc = 0 ] && fail "the relay got a session from the keyed rdmad without the key"
[ $rrc = 1 ] || fail "relay error (exit $rrc): $(tail -2 "$T/relay.err")"
wait_log 'authentication failed' 10
wait_log 'result auth-failed' 10
[ $prc != 0 ] || fail "the client through the relay succeeded"
grep -qi 'auth' "$T/relayed.log" ||
	{ cat "$T/relayed.log" >&2; fail "the client was not told of the failed authentication"; }
rdmad_alive
exit 0
