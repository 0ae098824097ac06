#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The endpoint's certificates: a new certificate and key on disk are
# served without a restart, a broken pair keeps the one served; with
# RequireAndVerifyClientCert no client certificate and one of another CA
# are refused and counted, the good one passes; a hardened
# node_exporter web config (TLS 1.2 only, one cipher suite, one curve,
# client_allowed_sans, http_server_config headers) is taken and each of
# its rules holds; a reload with a broken web config keeps the old one
# (rdmad_config_last_reload_successful 0).
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"

https_conf
tls_ca "$C" otherca
tls_leaf "$C" client ca
tls_leaf "$C" badclient otherca
tls_leaf "$C" sanclient ca "subjectAltName=DNS:prometheus.test"
tls_leaf "$C" server2 ca "subjectAltName=IP:127.0.0.1"
rdmad_start

# --- certificates replaced on disk: served without a restart ---------------
# fp: the fingerprint of the certificate served (each handshake lets
# rdmad look at the files, at most every few seconds)
fp() { openssl s_client -connect 127.0.0.1:$hp -CAfile "$C/ca.crt" </dev/null 2>/dev/null |
	openssl x509 -noout -fingerprint -sha256; }
cfp() { openssl x509 -in "$1" -noout -fingerprint -sha256; }
fp0=$(fp)
[ -n "$fp0" ] && [ "$fp0" = "$(cfp "$C/server.crt")" ] || fail "s_client: fingerprint '$fp0'"
cp "$C/server2.key" "$C/cur.key.new" && cp "$C/server2.crt" "$C/cur.crt.new"
mv "$C/cur.key.new" "$C/cur.key" && mv "$C/cur.crt.new" "$C/cur.crt"
want=$(cfp "$C/server2.crt")
for ((i = 0; i < 120; i++)); do
	fp1=$(fp)
	[ "$fp1" = "$want" ] && break
	sleep 0.5
done
[ "$fp1" = "$want" ] || fail "after the pair was replaced: fingerprint '$fp1', was '$fp0'"
log_has "TLS certificate .* read again" 10 "$T/rdmad.log" || fail "no log line for the new pair"
log "new certificate served without a restart: $fp0 -> $fp1"
# a broken pair keeps the one served
echo broken >"$C/cur.crt"
for ((i = 0; i < 120; i++)); do
	fp >/dev/null
	grep -q "does not load, still serving the previous one" "$T/rdmad.log" && break
	sleep 0.5
done
grep -q "does not load, still serving the previous one" "$T/rdmad.log" || fail "no log line for the broken pair"
[ "$(fp)" = "$fp1" ] || fail "a broken certificate file replaced the served one"
cp "$C/server2.crt" "$C/cur.crt"

# --- client certificates ----------------------------------------------------
web_yml "  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: ca.crt"
rdmad_reload
HTTPS_AUTH+=(--cert "$C/client.crt" --key "$C/client.key")
c0=$(https_refused tls-client-cert)
[ "$(http_get nocert --cacert "$C/ca.crt" -u 'prom:s3cret pw' "$url/metrics")" = 000 ] || fail "no client certificate: $(cat "$T/nocert.code")"
[ "$(http_get badcert --cacert "$C/ca.crt" --cert "$C/badclient.crt" --key "$C/badclient.key" -u 'prom:s3cret pw' "$url/metrics")" = 000 ] ||
	fail "foreign client certificate: $(cat "$T/badcert.code")"
[ "$(http_get goodcert "${HTTPS_AUTH[@]}" "$url/metrics")" = 200 ] ||
	fail "good client certificate: $(cat "$T/goodcert.code") $(cat "$T/goodcert.err")"
c1=$(prom_sum "$T/goodcert.body" rdmad_http_requests_refused_total 'reason="tls-client-cert"')
[ "$c1" = $((c0 + 2)) ] || fail "tls-client-cert counted $c0 -> $c1, want 2 more"

# --- a hardened node_exporter web config -------------------------------------
# TLS 1.2 only, one cipher suite, one curve, a client certificate that
# must name prometheus.test, the headers: each holds.
web_yml "  client_auth_type: RequireAndVerifyClientCert
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
HTTPS_AUTH=(--cacert "$C/ca.crt" --cert "$C/sanclient.crt" --key "$C/sanclient.key" -u 'prom:s3cret pw')
[ "$(http_get hard "${HTTPS_AUTH[@]}" "$url/metrics")" = 200 ] ||
	fail "hardened config, the allowed client: $(cat "$T/hard.code") $(cat "$T/hard.err")"
grep -qi '^Strict-Transport-Security: max-age=31536000' "$T/hard.hdr" &&
	grep -qi '^X-Frame-Options: deny' "$T/hard.hdr" && grep -qi '^X-Content-Type-Options: nosniff' "$T/hard.hdr" ||
	fail "hardened config: headers missing: $(cat "$T/hard.hdr")"
[ "$(http_get hard401 --cacert "$C/ca.crt" --cert "$C/sanclient.crt" --key "$C/sanclient.key" -u 'prom:nope' "$url/metrics")" = 401 ] &&
	grep -qi '^Strict-Transport-Security:' "$T/hard401.hdr" || fail "hardened config: a 401 without the headers"
c0=$(https_refused tls-client-cert)
[ "$(http_get nosan --cacert "$C/ca.crt" --cert "$C/client.crt" --key "$C/client.key" -u 'prom:s3cret pw' "$url/metrics")" = 000 ] ||
	fail "a client certificate without the allowed SAN: $(cat "$T/nosan.code")"
[ "$(https_refused tls-client-cert)" -gt "$c0" ] || fail "the SAN refusal was not counted"
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
kill -HUP "$RDMAD_PID"
wait_log "reload refused: .*web.yml:1: tls_server_config: key_file missing" 20
[ "$(https_ok "$url/metrics" | awk '$1 == "rdmad_config_last_reload_successful" {print $2}')" = 0 ] ||
	fail "a refused reload: rdmad_config_last_reload_successful not 0 (or the old config is gone)"
[ "$(http_get kept --cacert "$C/ca.crt" --cert "$C/client.crt" --key "$C/client.key" -u 'prom:s3cret pw' "$url/metrics")" = 000 ] ||
	fail "after a refused reload, the old config's SAN rule is gone: $(cat "$T/kept.code")"
[ "$(http_get kepthdr "${HTTPS_AUTH[@]}" "$url/metrics")" = 200 ] && grep -qi '^X-Frame-Options: deny' "$T/kepthdr.hdr" ||
	fail "after a refused reload: the old config's headers are gone"
rdmad_alive
exit 0
