#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Basic auth's bcrypt runs off the event loop: a wrong password at cost
# 13 does not stall another asker's requests; and a /probe of rdmad-fake's
# own listener (READ and WRITE, bytes verified by the fake) passes during
# a 4-client wrong-password flood (cost 10) that spends bcrypt's budget
# (429 auth-busy), over TLS with client certificates; its time with and
# without the flood is printed, and the endpoint answers after it.
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
https_conf
tls_leaf "$C" client ca
HS=$(bcrypt_hash 'slow pw' 1024)
H13=$(bcrypt_hash 'slower pw' 8192)
case $HS in '$2b$10$'*) ;; *) fail "python3 crypt gave no cost 10 hash: '$HS'" ;; esac
case $H13 in '$2b$13$'*) ;; *) fail "python3 crypt gave no cost 13 hash: '$H13'" ;; esac
# "slower", cost 13 (whose cost the unknown users' dummy hash takes):
# only for the stall
web_yml "" "  slow: '$HS'
  slower: '$H13'"
cat >>"$T/rdmad.ini" <<INI
[module.small]
size = 4k
iterations = 200
INI
rdmad_start

# --- a wrong password never stalls the loop ------------------------------
# One asker keeps a connection and its cached credential and asks every
# 50 ms; another sends a wrong password for "slower" (cost 13).  The
# first one's longest wait must stay well under the bcrypt's time (with
# bcrypt on the loop it waited the bcrypt out).
"$PY" - 127.0.0.1 "$hp" "$C/ca.crt" >"$T/stall.out" <<'PY' || fail "stall check: $(cat "$T/stall.out")"
import base64, http.client, ssl, sys, threading, time
host, port, ca = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ctx = ssl.create_default_context(cafile=ca)
def hdr(u, p):
    return {"Authorization": "Basic " + base64.b64encode(("%s:%s" % (u, p)).encode()).decode()}
def get(c, h):
    t0 = time.monotonic()
    c.request("GET", "/status", headers=h)
    r = c.getresponse()
    r.read()
    return r.status, time.monotonic() - t0
a = http.client.HTTPSConnection(host, port, context=ctx, timeout=120)
st, _ = get(a, hdr("prom", "s3cret pw"))
assert st == 200, st
slow = {}
def wrong():
    b = http.client.HTTPSConnection(host, port, context=ctx, timeout=120)
    b.connect()                 # the handshake apart from the bcrypt
    slow["status"], slow["t"] = get(b, hdr("slower", "wrong"))
th = threading.Thread(target=wrong)
th.start()
worst = 0
while th.is_alive():
    st, t = get(a, hdr("prom", "s3cret pw"))
    assert st == 200, st
    worst = max(worst, t)
    time.sleep(0.05)
th.join()
print("wrong %d after %.0f ms; the other asker's longest wait meanwhile %.0f ms"
      % (slow["status"], slow["t"] * 1000, worst * 1000))
sys.exit(0 if slow["status"] == 401 and worst * 3 < slow["t"] else 1)
PY
log "figures: a wrong password at cost 13: $(cat "$T/stall.out")"

# --- a probe during a wrong-password flood ------------------------------------
web_yml "  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: ca.crt" "  slow: '$HS'"
rdmad_reload
HTTPS_AUTH+=(--cert "$C/client.crt" --key "$C/client.key")
# probe OUT: a /probe of rdmad-fake's own listener (module small: 4 KiB,
# 200 READs and 200 WRITEs); it must pass and verify bytes
probe() {
	https_ok "$url/probe?target=$RDMAD_SRV_ADDR:7471&module=small" >"$T/$1" ||
		fail "/probe ($1): no answer"
	grep -q '^probe_success 1' "$T/$1" || fail "/probe ($1) failed: $(cat "$T/$1")"
	[ "$(awk '$1 == "probe_rdma_bytes_verified" { print $2 }' "$T/$1")" -gt 0 ] ||
		fail "/probe ($1) verified no bytes"
}
t0=$(now_ms)
probe quiet.prom
t1=$(now_ms)
quiet=$((t1 - t0))
# flood: wrong passwords for "slow", one request after the other until
# SIGTERM, which ends the one under way too
flood() {
	local c=""
	trap 'kill $c 2>/dev/null; exit 0' TERM
	while :; do
		curl -s -o /dev/null --max-time 30 --cacert "$C/ca.crt" --cert "$C/client.crt" \
			--key "$C/client.key" -u "slow:flood$RANDOM" "$url/metrics" &
		c=$!
		wait $c
	done
}
fl=()
for i in 1 2 3 4; do flood & fl+=($!); done
# the flood is on once bcrypt's budget is spent
for ((i = 0; i < 600; i++)); do
	busy=$(https_refused auth-busy)
	[ "${busy:-0}" -gt 0 ] && break
	sleep 0.1
done
t0=$(now_ms)
probe flood.prom
t1=$(now_ms)
busy=$(https_refused auth-busy)
wrong=$(https_refused auth-wrong)
# the flood's loops only (cleanup_jobs would stop rdmad too)
kill "${fl[@]}" 2>/dev/null
wait "${fl[@]}" 2>/dev/null
log "figures: /probe of itself, 4 KiB x 200 (READ and WRITE, bytes verified): ${quiet} ms quiet, $((t1 - t0)) ms during a 4-client wrong-password flood ($wrong answered 401 after a bcrypt, $busy answered 429 auth-busy)"
[ "${busy:-0}" -gt 0 ] || fail "the flood never hit bcrypt's budget (auth-busy 0)"
https_ok "$url/metrics" >/dev/null || fail "the endpoint does not answer after the flood"
rdmad_alive
exit 0
