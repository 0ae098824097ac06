#!/bin/bash
# rdma-probe --psk-file against a keyed rdmad: the right key gets verified
# READ and WRITE; no key fails at once with a message naming the option
# and its own exit code (10);
# a wrong key is cut off by the server; an unsafe key file is refused.
# GET /probe uses rdmad's own key only for the targets of [http]
# probe_key_allow: of itself without it the probe has no key (class
# auth-failed); once allowed (reload), it verifies.
source "$(dirname "$0")/lib.sh"
port=7657
key=$T/psk
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$key"
chmod 600 "$key"
http=127.0.0.1:9657
rdmad_conf $port "auth.psk_file = $key" "http.listen = $http"
rdmad_start
probe() { cli timeout 60 "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -t 8 "$@" "$RDMAD_SRV_ADDR"; }

probe --psk-file "$key" --op both -s 64k -n 10 >"$T/good.log" 2>&1 ||
	{ cat "$T/good.log" >&2; fail "probe with the right key failed"; }
grep -q "verification   OK" "$T/good.log" || fail "no verified report with the right key"
probe --psk-file "$key" -P 4 --op read -s 4k -n 5 >"$T/good4.log" 2>&1 ||
	{ cat "$T/good4.log" >&2; fail "4 parallel keyed connections failed"; }

probe --op read -s 4k -n 2 >"$T/nokey.log" 2>&1
rc=$?
[ $rc = 10 ] || { cat "$T/nokey.log" >&2; fail "no key: exit $rc, want 10 (key class)"; }
grep -q "requires a pre-shared key.*--psk-file" "$T/nokey.log" || fail "no key: message does not name --psk-file"

head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$T/wrong"
chmod 600 "$T/wrong"
probe --psk-file "$T/wrong" --op read -s 4k -n 2 >"$T/wrong.log" 2>&1
rc=$?
[ $rc != 0 ] || fail "a wrong key succeeded"
log "wrong key: exit $rc: $(grep -m1 'rdma-probe:' "$T/wrong.log")"
grep -q "authentication failed" "$T/rdmad.log" || fail "rdmad did not log the failed authentication"

cp "$key" "$T/loose" && chmod 644 "$T/loose"
probe --psk-file "$T/loose" --op read -s 4k -n 2 >"$T/loose.log" 2>&1
rc=$?
[ $rc = 64 ] || { cat "$T/loose.log" >&2; fail "key readable by others: exit $rc, want 64"; }

# /probe: no key for a target the operator did not name.
get() { curl -s "http://$http/probe?target=$RDMAD_SRV_ADDR:$port&module=default"; }
get >"$T/p-nokey.out"
grep -q '^probe_success 0$' "$T/p-nokey.out" &&
	grep -q '^probe_rdma_failed{class="auth-failed"} 1$' "$T/p-nokey.out" ||
	{ cat "$T/p-nokey.out" >&2; fail "/probe of a keyed target not allowed the key: not probe_success 0, class auth-failed"; }
log "/probe without probe_key_allow: $(grep '^probe_rdma_failed' "$T/p-nokey.out")"
echo "probe_key_allow = $RDMAD_SRV_ADDR/32" >>"$T/rdmad.ini"
kill -HUP "$RDMAD_PID"
wait_log 'reload: configuration re-read' 10
get >"$T/p-key.out"
grep -q '^probe_success 1$' "$T/p-key.out" ||
	{ cat "$T/p-key.out" >&2; tail -5 "$T/rdmad.log" >&2; fail "/probe of an allowed keyed target: not probe_success 1"; }
rdmad_alive
exit 0
