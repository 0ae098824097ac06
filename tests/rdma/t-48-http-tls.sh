#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# [http] web_config: TLS and basic auth on the status endpoint.  A CA, a
# server certificate (SAN IP 127.0.0.1), a client certificate and one
# from another CA are made here; bcrypt hashes with python3's crypt.
# Scrapes over TLS with the right password pass; a wrong or no password
# gets 401, plain HTTP to the TLS port the plain 400, garbage is counted;
# a peer outside [http] allow gets no TLS byte (no certificate), and
# every refusal's line names the peer's ADDRESS:PORT; a /probe asker
# that leaves with close_notify aborts its probe at once; a wrong
# password at cost 13 does not stall another asker's requests (bcrypt
# runs off the loop);
# with RequireAndVerifyClientCert no certificate and a foreign one are
# refused and counted, the good one passes; a new certificate and key
# on disk are served without a restart; a reload with a broken web
# config keeps the old one (rdmad_config_last_reload_successful 0); a
# hardened node_exporter web config (cipher_suites, curve_preferences,
# client_allowed_sans, http_server_config headers) is taken and holds; a
# probe verifies its bytes during a wrong-password flood, and its time
# with and without the flood is printed.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe
need ctl
PY=/usr/bin/python3
port=7448
hp=9448
url=https://127.0.0.1:$hp
C=$T/tls
mkdir -p "$C"
command -v openssl >/dev/null || fail "no openssl command"
command -v curl >/dev/null || fail "no curl"

# --- the PKI ------------------------------------------------------------
# The PKI (tests/lib.sh: tls_ca, tls_leaf, P-256) in $C.
ca() { tls_ca "$C" "$1"; }
leaf() { tls_leaf "$C" "$@"; }
ca ca
ca otherca
leaf server ca "subjectAltName=IP:127.0.0.1"
leaf client ca
leaf badclient otherca
leaf sanclient ca "subjectAltName=DNS:prometheus.test"
cp "$C/server.crt" "$C/cur.crt"
cp "$C/server.key" "$C/cur.key"

# hash PW ROUNDS: a bcrypt hash (rounds 16: cost 04, 1024: cost 10).
# prom's is cost 04: a guest under TCG with ASan takes seconds for a
# cost 10 bcrypt, which would spend the budget (a tenth of the loop) on
# the functional checks; the flood is against "slow", cost 10.
hash() { bcrypt_hash "$@"; }
H=$(hash 's3cret pw' 16)
HS=$(hash 'slow pw' 1024)
H13=$(hash 'slower pw' 8192)
case $H in '$2b$04$'*) ;; *) fail "python3 crypt gave no bcrypt hash: '$H'" ;; esac
case $HS in '$2b$10$'*) ;; *) fail "python3 crypt gave no cost 10 hash: '$HS'" ;; esac

# web TLS-LINES [slower]: the web config; "slower" adds the cost 13 user
# (whose cost the unknown users' dummy hash takes: only for the stall)
web() {
	cat >"$C/web.yml" <<YML
tls_server_config:
  cert_file: cur.crt
  key_file: cur.key
$1
basic_auth_users:
  prom: '$H'
  slow: '$HS'
${2:+  slower: '$H13'}
YML
}
web ""
rdmad_conf $port "http.listen = 127.0.0.1:$hp" "http.web_config = $C/web.yml" "http.allow = 127.0.0.1/32"
cat >>"$T/rdmad.ini" <<INI
[module.huge]
size = 64
iterations = 100000
timeout = 60s
INI
rdmad_start
rpid=$RDMAD_PID
wait_log "status and metrics on https://127.0.0.1:$hp/.*basic auth" 5

# get NAME [CURL ARG...]: the answer's status in $T/NAME.code, body $T/NAME.body
get() {
	local n=$1
	shift
	curl -s -o "$T/$n.body" -D "$T/$n.hdr" -w '%{http_code}' --max-time 10 "$@" >"$T/$n.code" 2>"$T/$n.err"
	echo "$(cat "$T/$n.code")"
}
ok() { curl -sf --max-time 10 --cacert "$C/ca.crt" -u 'prom:s3cret pw' "$@"; }
refused() { ok "$url/metrics" | prom_sum - rdmad_http_requests_refused_total "reason=\"$1\""; }

# --- TLS and basic auth ---------------------------------------------------
[ "$(get good --cacert "$C/ca.crt" -u 'prom:s3cret pw' "$url/metrics")" = 200 ] ||
	fail "https with the password: $(cat "$T/good.code") $(cat "$T/good.err")"
grep -q '^rdmad_http_requests_refused_total' "$T/good.body" || fail "/metrics over TLS has no refusal counter"
[ "$(get wrong --cacert "$C/ca.crt" -u 'prom:nope' "$url/metrics")" = 401 ] || fail "wrong password: $(cat "$T/wrong.code")"
grep -qi '^WWW-Authenticate: Basic realm="rdmad"' "$T/wrong.hdr" || fail "401 without WWW-Authenticate"
[ "$(get nouser --cacert "$C/ca.crt" -u 'eve:s3cret pw' "$url/metrics")" = 401 ] || fail "unknown user: $(cat "$T/nouser.code")"
[ "$(get none --cacert "$C/ca.crt" "$url/metrics")" = 401 ] || fail "no password: $(cat "$T/none.code")"
[ "$(refused auth-wrong)" = 2 ] || fail "auth-wrong counted $(refused auth-wrong), want 2"
[ "$(refused auth-missing)" = 1 ] || fail "auth-missing counted $(refused auth-missing), want 1"
[ "$(get noca -u 'prom:s3cret pw' "$url/metrics")" = 000 ] || fail "a client without the CA trusted the server"
printf 's3cret pw\n' >"$C/pw"
"$CTL" -a 127.0.0.1:$hp --cacert "$C/ca.crt" --user prom --password-file "$C/pw" status >"$T/ctl.out" 2>&1 ||
	fail "rdmadctl status over TLS: $(cat "$T/ctl.out")"
RDMADCTL_PASSWORD='s3cret pw' "$CTL" -a 127.0.0.1:$hp --cacert "$C/ca.crt" --user prom metrics >"$T/ctl.prom" 2>&1 ||
	fail "rdmadctl metrics over TLS: $(head -3 "$T/ctl.prom")"
"$CTL" -a 127.0.0.1:$hp --cacert "$C/otherca.crt" --user prom --password-file "$C/pw" status >"$T/ctl.err" 2>&1 &&
	fail "rdmadctl trusted a certificate of another CA"
grep -q "not trusted" "$T/ctl.err" || fail "rdmadctl, wrong CA: $(cat "$T/ctl.err")"
"$CTL" -a 127.0.0.1:$hp --cacert "$C/ca.crt" status >"$T/ctl.err" 2>&1 && fail "rdmadctl without a password passed"
grep -q "answered 401" "$T/ctl.err" || fail "rdmadctl, no password: $(cat "$T/ctl.err")"

# plain HTTP to the TLS port: one plain 400
[ "$(get plain "http://127.0.0.1:$hp/metrics")" = 400 ] || fail "plain HTTP: $(cat "$T/plain.code") $(cat "$T/plain.err")"
grep -q 'speaks TLS' "$T/plain.body" || fail "plain HTTP: body '$(cat "$T/plain.body")'"
[ "$(refused tls-plaintext)" = 1 ] || fail "tls-plaintext counted $(refused tls-plaintext)"
"$PY" - 127.0.0.1 $hp <<'PY' || fail "garbage client"
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=10)
s.sendall(b"\x00\x01\x02garbage\r\n\r\n")
try:
    s.recv(100)
except OSError:
    pass
PY
sleep 0.5
[ "$(refused tls-garbage)" = 1 ] || fail "tls-garbage counted $(refused tls-garbage)"
log_has "request from 127.0.0.1:[0-9]* refused: plain HTTP sent to the TLS port" 3 "$T/rdmad.log" ||
	fail "plaintext refusal not logged with the peer: $(grep 'refused: plain' "$T/rdmad.log")"
log_has "request from 127.0.0.1:[0-9]* refused: neither TLS nor HTTP" 3 "$T/rdmad.log" ||
	fail "garbage refusal not logged with the peer: $(grep 'refused: neither' "$T/rdmad.log")"

# --- [http] allow before any TLS work ------------------------------------
# From 127.0.0.2 (not in allow = 127.0.0.1/32): a ClientHello gets no
# byte back (no ServerHello, no certificate), only the close.
got=$("$PY" - 127.0.0.1 $hp <<'PY'
import socket, ssl, sys
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
ctx.check_hostname = False
ctx.verify_mode = ssl.CERT_NONE
inc, out = ssl.MemoryBIO(), ssl.MemoryBIO()
tls = ctx.wrap_bio(inc, out)
try:
    tls.do_handshake()
except ssl.SSLWantReadError:
    pass
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=10,
                             source_address=("127.0.0.2", 0))
s.sendall(out.read())
n = 0
try:
    while True:
        b = s.recv(65536)
        if not b:
            break
        n += len(b)
except OSError:
    pass
print(n)
PY
)
[ "$got" = 0 ] || fail "a peer outside [http] allow got $got bytes of TLS (want none: closed before the handshake)"
log_has "request from 127.0.0.2:[0-9]* refused: not in \[http\] allow" 5 "$T/rdmad.log" ||
	fail "the refused peer was not logged with its address: $(grep 'refused' "$T/rdmad.log" | tail -3)"
[ "$(refused forbidden)" = 1 ] || fail "forbidden counted $(refused forbidden), want 1"
log "a peer outside [http] allow: 0 bytes of TLS, refused and logged by ADDRESS:PORT"

# --- costs: a bcrypt, a cached check, a handshake ---------------------------
t0=$(now_ms)
for i in 1 2 3 4 5; do curl -s -o /dev/null --cacert "$C/ca.crt" -u "prom:wrong$i" "$url/status"; done
t1=$(now_ms)
for i in 1 2 3 4 5; do curl -s -o /dev/null --cacert "$C/ca.crt" -u 'prom:s3cret pw' "$url/status"; done
t2=$(now_ms)
log "figures: 5 requests with a wrong password (a bcrypt each, cost 04) $((t1 - t0)) ms; 5 with the right one (cached) $((t2 - t1)) ms (each a new TLS handshake)"

# --- a /probe asker that leaves with close_notify ---------------------------
# As Prometheus does at its scrape timeout: TLS close_notify, then FIN.
# The probe (100,000 operations, some 15 s) must be aborted at once.
n0=$(grep -c 'close: native' "$T/rdmad.log")
"$PY" - 127.0.0.1 $hp "$C/ca.crt" "$RDMAD_SRV_ADDR:$port" "$T/rdmad.log" <<'PY' || fail "close_notify asker"
import base64, socket, ssl, sys, time
host, port, ca, target, logf = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
ctx = ssl.create_default_context(cafile=ca)
s = ctx.wrap_socket(socket.create_connection((host, port), timeout=30),
                    server_hostname=host)
auth = base64.b64encode(b"prom:s3cret pw").decode()
s.sendall(("GET /probe?target=%s&module=huge HTTP/1.1\r\nHost: x\r\n"
           "Authorization: Basic %s\r\n\r\n" % (target, auth)).encode())
for _ in range(300):             # until the probe's session is open
    if "open: native" in open(logf).read():
        break
    time.sleep(0.1)
try:
    s.unwrap()                   # close_notify; rdmad may answer first
except (ssl.SSLError, OSError):
    pass
s.close()
PY
t0=$(now_ms)
for ((i = 0; i < 100; i++)); do
	[ "$(grep -c 'close: native' "$T/rdmad.log")" -gt "$n0" ] && break
	sleep 0.1
done
t1=$(now_ms)
n=$(grep 'close: native' "$T/rdmad.log" | tail -1 | sed -n 's/.* \([0-9]*\) operations.*/\1/p')
[ "$(grep -c 'close: native' "$T/rdmad.log")" -gt "$n0" ] && [ -n "$n" ] && [ "$n" -lt 200000 ] ||
	fail "a TLS asker's close_notify did not abort its probe: $(grep 'close:' "$T/rdmad.log" | tail -1)"
log "a TLS /probe asker's close_notify: its probe aborted $((t1 - t0)) ms after, at $n operations"

# --- a wrong password never stalls the loop ------------------------------
# One asker keeps a connection and its cached credential and asks every
# 50 ms; another sends a wrong password for "slower" (cost 13, seconds
# of bcrypt here).  The first one's longest wait must stay well under
# the bcrypt's time (with bcrypt on the loop it waited the bcrypt out).
# A reload: a new table, a full budget.
web "" slower
rdmad_reload
"$PY" - 127.0.0.1 $hp "$C/ca.crt" >"$T/stall.out" <<'PY' || fail "stall check: $(cat "$T/stall.out")"
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

# --- certificates replaced on disk: served without a restart ---------------
fp() { openssl s_client -connect 127.0.0.1:$hp -CAfile "$C/ca.crt" </dev/null 2>/dev/null |
	openssl x509 -noout -fingerprint -sha256; }
fp0=$(fp)
[ -n "$fp0" ] && [ "$fp0" = "$(openssl x509 -in "$C/server.crt" -noout -fingerprint -sha256)" ] ||
	fail "s_client: fingerprint '$fp0'"
leaf server2 ca "subjectAltName=IP:127.0.0.1"
cp "$C/server2.key" "$C/cur.key.new" && cp "$C/server2.crt" "$C/cur.crt.new"
mv "$C/cur.key.new" "$C/cur.key" && mv "$C/cur.crt.new" "$C/cur.crt"
sleep 6
fp
fp1=$(fp)
[ "$fp1" = "$(openssl x509 -in "$C/server2.crt" -noout -fingerprint -sha256)" ] ||
	fail "after the pair was replaced: fingerprint '$fp1', was '$fp0'"
log_has "TLS certificate .* read again" 3 "$T/rdmad.log" || fail "no log line for the new pair"
log "new certificate served without a restart: $fp0 -> $fp1"
# a broken pair keeps the one served
echo broken >"$C/cur.crt"
sleep 6
fp
[ "$(fp)" = "$fp1" ] || fail "a broken certificate file replaced the served one"
log_has "does not load, still serving the previous one" 3 "$T/rdmad.log" || fail "no log line for the broken pair"
cp "$C/server2.crt" "$C/cur.crt"

# --- client certificates ----------------------------------------------------
web "  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: ca.crt"
rdmad_reload
c0=$(refused tls-client-cert)
[ "$(get nocert --cacert "$C/ca.crt" -u 'prom:s3cret pw' "$url/metrics")" = 000 ] || fail "no client certificate: $(cat "$T/nocert.code")"
[ "$(get badcert --cacert "$C/ca.crt" --cert "$C/badclient.crt" --key "$C/badclient.key" -u 'prom:s3cret pw' "$url/metrics")" = 000 ] ||
	fail "foreign client certificate: $(cat "$T/badcert.code")"
[ "$(get goodcert --cacert "$C/ca.crt" --cert "$C/client.crt" --key "$C/client.key" -u 'prom:s3cret pw' "$url/metrics")" = 200 ] ||
	fail "good client certificate: $(cat "$T/goodcert.code") $(cat "$T/goodcert.err")"
c1=$(prom_sum "$T/goodcert.body" rdmad_http_requests_refused_total 'reason="tls-client-cert"')
[ "$c1" -ge $((c0 + 2)) ] || fail "tls-client-cert counted $c0 -> $c1, want 2 more"
ok() { curl -sf --max-time 10 --cacert "$C/ca.crt" --cert "$C/client.crt" --key "$C/client.key" -u 'prom:s3cret pw' "$@"; }

# --- a hardened node_exporter web config -------------------------------------
# TLS 1.2 only, one cipher suite, one curve, a client certificate that
# must name prometheus.test, the headers: each holds.
web "  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: ca.crt
  client_allowed_sans: [prometheus.test]
  max_version: TLS12
  cipher_suites: [TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]
  prefer_server_cipher_suites: true
  curve_preferences: [CurveP384, CurveP256]
http_server_config:
  http2: false
  headers:
    Strict-Transport-Security: max-age=31536000
    X-Frame-Options: deny
    X-Content-Type-Options: nosniff"
rdmad_reload
ok() { curl -sf --max-time 10 --cacert "$C/ca.crt" --cert "$C/sanclient.crt" --key "$C/sanclient.key" -u 'prom:s3cret pw' "$@"; }
[ "$(get hard --cacert "$C/ca.crt" --cert "$C/sanclient.crt" --key "$C/sanclient.key" -u 'prom:s3cret pw' "$url/metrics")" = 200 ] ||
	fail "hardened config, the allowed client: $(cat "$T/hard.code") $(cat "$T/hard.err")"
grep -qi '^Strict-Transport-Security: max-age=31536000' "$T/hard.hdr" &&
	grep -qi '^X-Frame-Options: deny' "$T/hard.hdr" && grep -qi '^X-Content-Type-Options: nosniff' "$T/hard.hdr" ||
	fail "hardened config: headers missing: $(cat "$T/hard.hdr")"
[ "$(get hard401 --cacert "$C/ca.crt" --cert "$C/sanclient.crt" --key "$C/sanclient.key" -u 'prom:nope' "$url/metrics")" = 401 ] &&
	grep -qi '^Strict-Transport-Security:' "$T/hard401.hdr" || fail "hardened config: a 401 without the headers"
c0=$(refused tls-client-cert)
[ "$(get nosan --cacert "$C/ca.crt" --cert "$C/client.crt" --key "$C/client.key" -u 'prom:s3cret pw' "$url/metrics")" = 000 ] ||
	fail "a client certificate without the allowed SAN: $(cat "$T/nosan.code")"
[ "$(refused tls-client-cert)" -gt "$c0" ] || fail "the SAN refusal was not counted"
sc() { openssl s_client -connect 127.0.0.1:$hp -CAfile "$C/ca.crt" -cert "$C/sanclient.crt" -key "$C/sanclient.key" "$@" </dev/null >"$T/sc.out" 2>&1; }
# (TLS 1.2 with OpenSSL: the certificates' curve, P-256, must be in both
# sides' groups; the server's preference picks P-384 for the ECDHE)
sc -tls1_2 -cipher ECDHE-ECDSA-AES128-GCM-SHA256 -groups P-256:P-384 || fail "s_client, the allowed suite and curve: $(tail -5 "$T/sc.out")"
grep -q 'Cipher is ECDHE-ECDSA-AES128-GCM-SHA256' "$T/sc.out" && grep -q 'Server Temp Key: ECDH, secp384r1' "$T/sc.out" ||
	fail "s_client: $(grep -i 'cipher is\|temp key' "$T/sc.out")"
sc -tls1_2 -cipher ECDHE-ECDSA-AES256-GCM-SHA384 -groups P-256:P-384 && fail "a cipher suite not in cipher_suites was taken"
sc -tls1_2 -cipher ECDHE-ECDSA-AES128-GCM-SHA256 -groups X25519 && fail "a curve not in curve_preferences was taken"
sc -tls1_3 && fail "TLS 1.3 was taken with max_version TLS12"
log "hardened web config: suite, curve, version, SAN and headers hold"

# --- a broken web config on reload keeps the old one -------------------------
echo "tls_server_config: {cert_file: cur.crt}" >"$C/web.yml"
kill -HUP "$rpid"
wait_log "reload refused: .*web.yml:1: tls_server_config: key_file missing" 10
[ "$(ok "$url/metrics" | awk '$1 == "rdmad_config_last_reload_successful" {print $2}')" = 0 ] ||
	fail "a refused reload: rdmad_config_last_reload_successful not 0"

# --- a probe during a wrong-password flood ------------------------------------
web "  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: ca.crt"
rdmad_reload
t0=$(now_ms)
probe_ok quiet.out -s 4k -n 200
t1=$(now_ms)
quiet=$((t1 - t0))
flood() {
	while :; do
		curl -s -o /dev/null --max-time 5 --cacert "$C/ca.crt" --cert "$C/client.crt" \
			--key "$C/client.key" -u "slow:flood$RANDOM" "$url/metrics"
	done
}
fl=()
for i in 1 2 3 4; do flood & fl+=($!); done
# the flood is on once bcrypt's budget is spent (TLS handshakes are slow
# in a TCG guest: wait for it, up to 60 s)
for ((i = 0; i < 60; i++)); do
	busy=$(ok "$url/metrics" | prom_sum - rdmad_http_requests_refused_total 'reason="auth-busy"')
	[ "${busy:-0}" -gt 0 ] && break
	sleep 1
done
t0=$(now_ms)
probe_ok flood.out -s 4k -n 200
t1=$(now_ms)
busy=$(ok "$url/metrics" | prom_sum - rdmad_http_requests_refused_total 'reason="auth-busy"')
wrong=$(ok "$url/metrics" | prom_sum - rdmad_http_requests_refused_total 'reason="auth-wrong"')
# the flood's loops only (cleanup_jobs would stop rdmad too)
kill "${fl[@]}" 2>/dev/null
wait "${fl[@]}" 2>/dev/null
log "figures: rdma-probe -s 4k -n 200 (READ and WRITE, bytes verified): ${quiet} ms quiet, $((t1 - t0)) ms during a 4-client wrong-password flood ($wrong answered 401 after a bcrypt, $busy answered 429 auth-busy)"
[ "${busy:-0}" -gt 0 ] || fail "the flood never hit bcrypt's budget (auth-busy 0)"
# the flood's last curls (--max-time 5) outlive their loops
sleep 6
for i in 1 2 3; do ok "$url/metrics" >/dev/null && break; sleep 2; done
[ "$i" -lt 3 ] || ok "$url/metrics" >/dev/null || fail "the endpoint does not answer after the flood"
rdmad_alive
log "TLS, basic auth, client certificates, rotation and the flood hold"
exit 0
