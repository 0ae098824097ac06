#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# [http] web_config: TLS and basic auth on the status endpoint (the PKI
# of https_conf, bcrypt hashes with python3's crypt).  Scrapes over TLS
# with the right password pass, rdmadctl's too; a wrong or no password
# gets 401 (with WWW-Authenticate), each counted by reason; a client
# without the CA does not trust the server, nor rdmadctl with another
# CA; plain HTTP to the TLS port gets one plain 400, garbage is counted;
# a peer outside [http] allow gets no TLS byte (no certificate), and
# every refusal's line names the peer's ADDRESS:PORT.  The cost of a
# bcrypt, a cached check and a handshake is printed.
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
https_conf
tls_ca "$C" otherca
rdmad_start
wait_log "status and metrics on https://127.0.0.1:$hp/.*basic auth" 10

# --- TLS and basic auth ---------------------------------------------------
[ "$(http_get good "${HTTPS_AUTH[@]}" "$url/metrics")" = 200 ] ||
	fail "https with the password: $(cat "$T/good.code") $(cat "$T/good.err")"
grep -q '^rdmad_http_requests_refused_total' "$T/good.body" || fail "/metrics over TLS has no refusal counter"
[ "$(http_get wrong --cacert "$C/ca.crt" -u 'prom:nope' "$url/metrics")" = 401 ] || fail "wrong password: $(cat "$T/wrong.code")"
grep -qi '^WWW-Authenticate: Basic realm="rdmad"' "$T/wrong.hdr" || fail "401 without WWW-Authenticate"
[ "$(http_get nouser --cacert "$C/ca.crt" -u 'eve:s3cret pw' "$url/metrics")" = 401 ] || fail "unknown user: $(cat "$T/nouser.code")"
[ "$(http_get none --cacert "$C/ca.crt" "$url/metrics")" = 401 ] || fail "no password: $(cat "$T/none.code")"
[ "$(https_refused auth-wrong)" = 2 ] || fail "auth-wrong counted $(https_refused auth-wrong), want 2"
[ "$(https_refused auth-missing)" = 1 ] || fail "auth-missing counted $(https_refused auth-missing), want 1"
[ "$(http_get noca -u 'prom:s3cret pw' "$url/metrics")" = 000 ] || fail "a client without the CA trusted the server"
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
[ "$(http_get plain "http://127.0.0.1:$hp/metrics")" = 400 ] || fail "plain HTTP: $(cat "$T/plain.code") $(cat "$T/plain.err")"
grep -q 'speaks TLS' "$T/plain.body" || fail "plain HTTP: body '$(cat "$T/plain.body")'"
[ "$(https_refused tls-plaintext)" = 1 ] || fail "tls-plaintext counted $(https_refused tls-plaintext)"
"$PY" - 127.0.0.1 "$hp" <<'PY' || fail "garbage client"
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=30)
s.sendall(b"\x00\x01\x02garbage\r\n\r\n")
try:
    s.recv(100)
except OSError:
    pass
PY
log_has "request from 127.0.0.1:[0-9]* refused: plain HTTP sent to the TLS port" 10 "$T/rdmad.log" ||
	fail "plaintext refusal not logged with the peer: $(grep 'refused: plain' "$T/rdmad.log")"
log_has "request from 127.0.0.1:[0-9]* refused: neither TLS nor HTTP" 10 "$T/rdmad.log" ||
	fail "garbage refusal not logged with the peer: $(grep 'refused: neither' "$T/rdmad.log")"
[ "$(https_refused tls-garbage)" = 1 ] || fail "tls-garbage counted $(https_refused tls-garbage)"

# --- [http] allow before any TLS work ------------------------------------
# From 127.0.0.2 (not in allow = 127.0.0.1/32): a ClientHello gets no
# byte back (no ServerHello, no certificate), only the close.
got=$("$PY" - 127.0.0.1 "$hp" <<'PY'
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
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=30,
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
log_has "request from 127.0.0.2:[0-9]* refused: not in \[http\] allow" 10 "$T/rdmad.log" ||
	fail "the refused peer was not logged with its address: $(grep 'refused' "$T/rdmad.log" | tail -3)"
[ "$(https_refused forbidden)" = 1 ] || fail "forbidden counted $(https_refused forbidden), want 1"
log "a peer outside [http] allow: 0 bytes of TLS, refused and logged by ADDRESS:PORT"
# every refusal's line names its peer
bad=$(grep 'refused: ' "$T/rdmad.log" | grep -v 'request from 127\.0\.0\.[12]:[0-9][0-9]* refused: ')
[ -z "$bad" ] || fail "refusal lines without ADDRESS:PORT: $bad"

# --- costs: a bcrypt, a cached check, a handshake ---------------------------
t0=$(now_ms)
for i in 1 2 3 4 5; do curl -s -o /dev/null --cacert "$C/ca.crt" -u "prom:wrong$i" "$url/status"; done
t1=$(now_ms)
for i in 1 2 3 4 5; do curl -s -o /dev/null "${HTTPS_AUTH[@]}" "$url/status"; done
t2=$(now_ms)
log "figures: 5 requests with a wrong password (a bcrypt each, cost 04) $((t1 - t0)) ms; 5 with the right one (cached) $((t2 - t1)) ms (each a new TLS handshake)"
rdmad_alive
exit 0
