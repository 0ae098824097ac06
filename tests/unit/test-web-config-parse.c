/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-web-config-parse.c - web_config_parse.c: exporter-toolkit's web
 * configuration, what it takes, what it refuses and on which line,
 * relative paths, bcrypt hashes' shape and cost at their bounds, a
 * hardened node_exporter web config taken whole (cipher_suites,
 * curve_preferences, client_allowed_sans, http_server_config...), the
 * lists at their bounds.
 */
#include <stdio.h>
#include <string.h>

#include "http/web_config_parse.h"
#include "tap.h"

#define H_A	"$2a$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234"
#define H_Y	"$2y$04$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234"
#define H_16	"$2b$16$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234"
#define H_17	"$2b$17$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234"
#define TLS_AB	"tls_server_config:\n  cert_file: a\n  key_file: b\n"

/* TEXT parsed as /etc/rdmad/web.yml: 0 or -errno, ERR filled. */
static int parse(const char *text, struct web_config *wc, char *err,
		 size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	if (!f)
		return -1;
	rc = web_config_parse(f, "/etc/rdmad/web.yml", wc, err, errlen);
	fclose(f);
	return rc;
}

/* TEXT is refused with a message starting with WANT. */
static void refused(const char *text, const char *want, const char *what)
{
	struct web_config wc;
	char err[512];
	int rc = parse(text, &wc, err, sizeof(err));

	if (!tap_ok(rc < 0 && !strncmp(err, want, strlen(want)),
		    "refused: %s", what))
		tap_diag("rc %d, err '%s', wanted '%s...'", rc, err, want);
}

static const struct {
	const char *text, *want, *what;
} bad[] = {
	{ "foo: 1\n", "/etc/rdmad/web.yml:1: foo: unknown key", "unknown key" },
	{ "tls_server_config:\n  cert_file: a\n  key_file: b\n  bogus: 1\n",
	  "/etc/rdmad/web.yml:4: bogus: unknown key", "unknown tls key" },
	{ "tls_server_config:\n  cert_file: a\n  cert_file: b\n",
	  "/etc/rdmad/web.yml:3: cert_file: given twice (line 2 first)",
	  "duplicate key" },
	{ "basic_auth_users:\n  u: " H_A "\n  u: " H_A "\n",
	  "/etc/rdmad/web.yml:3: basic_auth_users: user 'u' given twice",
	  "duplicate user" },
	{ "tls_server_config:\n  key_file: b\n",
	  "/etc/rdmad/web.yml:2: tls_server_config: cert_file missing",
	  "key without cert" },
	{ "tls_server_config:\n  cert_file: a\n",
	  "/etc/rdmad/web.yml:2: tls_server_config: key_file missing",
	  "cert without key" },
	{ "tls_server_config:\n  cert_file: a\n  key_file: b\n"
	  "  client_auth_type: RequireAndVerifyClientCert\n",
	  "/etc/rdmad/web.yml:2: tls_server_config: client_auth_type "
	  "RequireAndVerifyClientCert needs client_ca_file", "CA missing" },
	{ "tls_server_config:\n  cert_file: a\n  key_file: b\n"
	  "  client_auth_type: VerifyClientCertIfGiven\n",
	  "/etc/rdmad/web.yml:2: tls_server_config: client_auth_type "
	  "VerifyClientCertIfGiven needs", "CA missing (if given)" },
	{ "tls_server_config:\n  cert_file: a\n  key_file: b\n"
	  "  client_ca_file: c\n",
	  "/etc/rdmad/web.yml:2: tls_server_config: client_ca_file given",
	  "CA without a verifying auth type" },
	{ "tls_server_config:\n  cert_file: a\n  key_file: b\n"
	  "  client_auth_type: requireandverifyclientcert\n",
	  "/etc/rdmad/web.yml:4: client_auth_type: 'requireandverifyclientcert'",
	  "auth type is case-sensitive" },
	{ "tls_server_config:\n  cert_file: a\n  key_file: b\n"
	  "  min_version: TLS13\n  max_version: TLS12\n",
	  "/etc/rdmad/web.yml:2: tls_server_config: min_version is newer",
	  "min > max" },
	{ "tls_server_config:\n  cert_file: a\n  key_file: b\n"
	  "  min_version: TLS14\n",
	  "/etc/rdmad/web.yml:4: min_version: 'TLS14'", "unknown version" },
	{ "tls_server_config:\n  cert_file: [a, b]\n  key_file: b\n",
	  "/etc/rdmad/web.yml:2: cert_file: expected a string, got a list",
	  "list for a string" },
	{ "tls_server_config: yes\n",
	  "/etc/rdmad/web.yml:1: tls_server_config: expected a mapping",
	  "scalar for a section" },
	{ "- a\n- b\n", "/etc/rdmad/web.yml:1: the web config: expected a "
	  "mapping", "a list at the top" },
	{ "basic_auth_users:\n  u: secret\n",
	  "/etc/rdmad/web.yml:2: basic_auth_users: user 'u': not a bcrypt",
	  "plain password" },
	{ "basic_auth_users:\n  u: $1$abc$abcdefghijklmnopqrstuv\n",
	  "/etc/rdmad/web.yml:2: basic_auth_users: user 'u': not a bcrypt",
	  "md5-crypt hash" },
	{ "basic_auth_users:\n  \"a:b\": " H_A "\n",
	  "/etc/rdmad/web.yml:2: basic_auth_users: user 'a:b'",
	  "':' in a user name" },
	{ "basic_auth_users:\n  u: {x: 1}\n",
	  "/etc/rdmad/web.yml:2: u: expected a string, got a mapping",
	  "mapping for a hash" },
	{ TLS_AB "  cipher_suites: TLS_AES_128_GCM_SHA256\n",
	  "/etc/rdmad/web.yml:4: cipher_suites: expected a list",
	  "cipher_suites not a list" },
	{ TLS_AB "  cipher_suites: ['']\n",
	  "/etc/rdmad/web.yml:4: cipher_suites: an entry is 1-255 bytes",
	  "an empty cipher suite" },
	{ TLS_AB "  cipher_suites: [[a]]\n",
	  "/etc/rdmad/web.yml:4: cipher_suites: expected a string",
	  "a list in the list" },
	{ "tls_server_config:\n  cert: abc\n",
	  "/etc/rdmad/web.yml:2: cert: not supported by rdmad", "inline cert" },
	{ "tls_server_config:\n  key: abc\n",
	  "/etc/rdmad/web.yml:2: key: not supported by rdmad", "inline key" },
	{ "tls_server_config:\n  client_ca: abc\n",
	  "/etc/rdmad/web.yml:2: client_ca: not supported by rdmad",
	  "inline client_ca" },
	{ "rate_limit:\n  interval: 1s\n  burst: 5\n",
	  "/etc/rdmad/web.yml:1: rate_limit: not supported by rdmad",
	  "rate_limit" },
	{ TLS_AB "  curve_preferences: [CurveP999]\n",
	  "/etc/rdmad/web.yml:4: curve_preferences: 'CurveP999' is not one of",
	  "unknown curve" },
	{ TLS_AB "  curve_preferences: [X25519, X25519]\n",
	  "/etc/rdmad/web.yml:4: curve_preferences: X25519 given twice",
	  "a curve twice" },
	{ TLS_AB "  client_allowed_sans: [a]\n",
	  "/etc/rdmad/web.yml:2: tls_server_config: client_allowed_sans needs "
	  "client_auth_type", "client_allowed_sans without a client cert" },
	{ TLS_AB "  client_allowed_sans: [a]\n  client_ca_file: c\n"
	  "  client_auth_type: VerifyClientCertIfGiven\n",
	  "/etc/rdmad/web.yml:2: tls_server_config: client_allowed_sans needs",
	  "client_allowed_sans with an optional cert" },
	{ TLS_AB "  prefer_server_cipher_suites: maybe\n",
	  "/etc/rdmad/web.yml:4: prefer_server_cipher_suites: 'maybe' is not "
	  "true or false", "not a boolean" },
	{ "http_server_config:\n  http2: 2\n",
	  "/etc/rdmad/web.yml:2: http2: '2' is not true or false", "http2: 2" },
	{ "http_server_config:\n  headers:\n    Server: rdmad\n",
	  "/etc/rdmad/web.yml:3: headers: Server cannot be set", "header Server" },
	{ "http_server_config:\n  headers:\n    x-frame-options: deny\n",
	  "/etc/rdmad/web.yml:3: headers: x-frame-options cannot be set",
	  "header names are case-sensitive (as exporter-toolkit's)" },
	{ "http_server_config:\n  headers:\n    X-Frame-Options: allow\n",
	  "/etc/rdmad/web.yml:3: headers: X-Frame-Options: 'allow' is not one "
	  "of deny, sameorigin", "X-Frame-Options: allow" },
	{ "http_server_config:\n  headers:\n    X-Content-Type-Options: sniff\n",
	  "/etc/rdmad/web.yml:3: headers: X-Content-Type-Options: 'sniff' is "
	  "not one of nosniff", "X-Content-Type-Options: sniff" },
	{ "http_server_config:\n  headers:\n    X-XSS-Protection: \"a\\nb\"\n",
	  "/etc/rdmad/web.yml:3: headers: X-XSS-Protection: a value is one line",
	  "a header value of two lines" },
	{ "http_server_config:\n  headers: [a]\n",
	  "/etc/rdmad/web.yml:2: headers: expected a mapping", "headers: a list" },
	{ "http_server_config:\n  http3: true\n",
	  "/etc/rdmad/web.yml:2: http3: unknown key", "unknown http key" },
	{ "basic_auth_users:\n  u: " H_17 "\n",
	  "/etc/rdmad/web.yml:2: basic_auth_users: user 'u': bcrypt cost 17 is "
	  "over rdmad's ceiling of 16", "bcrypt cost 17 (ceiling + 1)" },
	{ "basic_auth_users:\n  u: $2a$31$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234\n",
	  "/etc/rdmad/web.yml:2: basic_auth_users: user 'u': bcrypt cost 31",
	  "bcrypt cost 31" },
	{ "tls_server_config:\n  cert_file: \"a\n",
	  "/etc/rdmad/web.yml:", "not YAML (an open quote)" },
	{ "a: 1\n---\nb: 2\n", "/etc/rdmad/web.yml:1: a: unknown key",
	  "unknown key before a second document" },
	{ "basic_auth_users: {}\n---\nb: 2\n",
	  "/etc/rdmad/web.yml:3: a second YAML document", "two documents" },
};

/* A bcrypt hash's shape, at its bounds. */
static const struct {
	const char *hash;
	int ok;
} hashes[] = {
	{ H_A, 1 },
	{ "$2b$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234", 1 },
	{ H_Y, 1 },
	{ "$2x$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234", 0 },
	{ "$2$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ012345", 0 },
	{ "$2a$31$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234", 1 },
	{ "$2a$32$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234", 0 },
	{ "$2a$03$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234", 0 },
	{ "$2a$1a$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234", 0 },
	{ "$2a$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ0123", 0 },
	{ "$2a$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ012345", 0 },
	{ "$2a$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ0123+", 0 },
	{ "", 0 },
};

int main(void)
{
	struct web_config wc;
	char err[512];
	unsigned int i;
	int rc;

	tap_plan(29 + (int)(sizeof(bad) / sizeof(bad[0])) +
		 (int)(sizeof(hashes) / sizeof(hashes[0])));

	rc = parse("", &wc, err, sizeof(err));
	tap_ok(!rc && !wc.tls && !wc.n_users, "empty file: no TLS, no auth");
	rc = parse("tls_server_config:\nbasic_auth_users: ~\n", &wc, err,
		   sizeof(err));
	tap_ok(!rc && !wc.tls && !wc.n_users, "empty sections: absent");

	rc = parse("# exporter-toolkit\ntls_server_config:\n"
		   "  cert_file: server.crt\n  key_file: /k/server.key\n"
		   "  client_auth_type: RequireAndVerifyClientCert\n"
		   "  client_ca_file: ../ca.crt\n"
		   "  min_version: TLS12\n  max_version: TLS13\n"
		   "basic_auth_users:\n  prometheus: " H_A "\n"
		   "  \"other user\": '" H_Y "'\n", &wc, err, sizeof(err));
	if (!tap_ok(!rc, "full config parses"))
		tap_diag("%s", err);
	tap_ok(wc.tls && !strcmp(wc.cert_file, "/etc/rdmad/server.crt"),
	       "relative cert_file from the config's folder");
	tap_ok(!strcmp(wc.key_file, "/k/server.key"), "absolute key_file as is");
	tap_ok(!strcmp(wc.client_ca_file, "/etc/rdmad/../ca.crt"),
	       "client_ca_file");
	tap_ok(wc.client_auth == WEB_CLIENT_AUTH_REQUIRE_VERIFY,
	       "client_auth_type");
	tap_ok(wc.min_version == WEB_TLS12 && wc.max_version == WEB_TLS13,
	       "min and max version");
	tap_ok(wc.n_users == 2 && !strcmp(wc.users[0].name, "prometheus") &&
	       !strcmp(wc.users[0].hash, H_A) &&
	       !strcmp(wc.users[1].name, "other user") &&
	       !strcmp(wc.users[1].hash, H_Y), "two users with their hashes");

	rc = parse("tls_server_config:\n  cert_file: a\n  key_file: b\n"
		   "  min_version: TLS13\n  max_version: TLS13\n", &wc, err,
		   sizeof(err));
	tap_ok(!rc && wc.min_version == WEB_TLS13 &&
	       wc.client_auth == WEB_CLIENT_AUTH_NONE, "min == max is fine");

	{
		char text[WEB_CONFIG_USERS_MAX * 80 + 64];
		size_t n = 0;

		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "basic_auth_users:\n");
		for (i = 0; i < WEB_CONFIG_USERS_MAX; i++)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "  u%u: " H_A "\n", i);
		rc = parse(text, &wc, err, sizeof(err));
		tap_ok(!rc && wc.n_users == WEB_CONFIG_USERS_MAX,
		       "%d users: the most", WEB_CONFIG_USERS_MAX);
		snprintf(text + n, sizeof(text) - n, "  one_more: " H_A "\n");
		rc = parse(text, &wc, err, sizeof(err));
		tap_ok(rc < 0 && strstr(err, "more than"),
		       "%d users: refused", WEB_CONFIG_USERS_MAX + 1);
	}

	/* a hardened node_exporter web config, unchanged */
	rc = parse("tls_server_config:\n"
		   "  cert_file: server.crt\n  key_file: server.key\n"
		   "  client_auth_type: RequireAndVerifyClientCert\n"
		   "  client_ca_file: ca.crt\n"
		   "  client_allowed_sans:\n    - prometheus.example\n"
		   "    - 10.0.0.1\n"
		   "  min_version: TLS12\n  max_version: TLS13\n"
		   "  cipher_suites:\n"
		   "    - TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384\n"
		   "    - TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384\n"
		   "  prefer_server_cipher_suites: true\n"
		   "  curve_preferences: [X25519, CurveP256, CurveP384]\n"
		   "http_server_config:\n  http2: false\n  headers:\n"
		   "    Strict-Transport-Security: max-age=31536000\n"
		   "    X-Frame-Options: deny\n"
		   "    X-Content-Type-Options: nosniff\n"
		   "    X-XSS-Protection: '1; mode=block'\n"
		   "    Content-Security-Policy: \"default-src 'none'\"\n"
		   "basic_auth_users:\n  prometheus: " H_16 "\n",
		   &wc, err, sizeof(err));
	if (!tap_ok(!rc, "a hardened node_exporter web config parses"))
		tap_diag("%s", err);
	tap_ok(wc.ciphers.n == 2 && !strcmp(wc.ciphers.s[1],
			"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"),
	       "cipher_suites: both, in order");
	tap_ok(!strcmp(wc.curves, "X25519:P-256:P-384"),
	       "curve_preferences as OpenSSL's groups: '%s'", wc.curves);
	tap_ok(wc.sans.n == 2 && !strcmp(wc.sans.s[1], "10.0.0.1"),
	       "client_allowed_sans");
	tap_ok(wc.prefer_server_ciphers == 1 && wc.http.http2 == 0,
	       "prefer_server_cipher_suites, http2");
	tap_ok(wc.http.n_headers == 5 &&
	       !strcmp(wc.http.headers[0].name, "Strict-Transport-Security") &&
	       !strcmp(wc.http.headers[0].value, "max-age=31536000") &&
	       !strcmp(wc.http.headers[4].value, "default-src 'none'"),
	       "the five headers");
	tap_ok(wc.n_users == 1, "cost 16 (the ceiling) is taken");

	rc = parse(TLS_AB "  prefer_server_cipher_suites: false\n"
		   "  client_auth_type: RequireClientCert\n"
		   "  client_allowed_sans: [a]\n"
		   "http_server_config:\n  headers:\n"
		   "    X-Frame-Options: sameorigin\n    X-XSS-Protection:\n"
		   "    Content-Security-Policy: ''\n", &wc, err, sizeof(err));
	tap_ok(!rc && !wc.prefer_server_ciphers &&
	       wc.client_auth == WEB_CLIENT_AUTH_REQUIRE_ANY,
	       "RequireClientCert: RequireAnyClientCert's old name");
	tap_ok(!rc && wc.http.n_headers == 1 && wc.http.http2 == 1,
	       "blank headers are not set; http2 defaults to true");
	rc = parse(TLS_AB, &wc, err, sizeof(err));
	tap_ok(!rc && wc.prefer_server_ciphers && !wc.ciphers.n &&
	       !*wc.curves && !wc.sans.n && !wc.http.n_headers,
	       "defaults: server's preference, OpenSSL's suites and groups");
	rc = parse(TLS_AB "  client_auth_type: ''\n", &wc, err, sizeof(err));
	tap_ok(!rc && wc.client_auth == WEB_CLIENT_AUTH_NONE,
	       "client_auth_type '': NoClientCert");

	/* lists at their bounds: 32 entries, 33; 255 bytes, 256 */
	{
		char text[WEB_CONFIG_LIST_MAX * 16 + 600];
		size_t n = (size_t)snprintf(text, sizeof(text), TLS_AB
					    "  cipher_suites:\n");

		for (i = 0; i < WEB_CONFIG_LIST_MAX; i++)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "    - S%u\n", i);
		rc = parse(text, &wc, err, sizeof(err));
		tap_ok(!rc && wc.ciphers.n == WEB_CONFIG_LIST_MAX,
		       "%d cipher suites: the most", WEB_CONFIG_LIST_MAX);
		snprintf(text + n, sizeof(text) - n, "    - one_more\n");
		rc = parse(text, &wc, err, sizeof(err));
		tap_ok(rc < 0 && strstr(err, "cipher_suites: more than 32"),
		       "%d: refused", WEB_CONFIG_LIST_MAX + 1);
		n = (size_t)snprintf(text, sizeof(text), TLS_AB
				     "  cipher_suites: [");
		memset(text + n, 'x', WEB_CONFIG_NAME_MAX - 1);
		n += WEB_CONFIG_NAME_MAX - 1;
		snprintf(text + n, sizeof(text) - n, "]\n");
		rc = parse(text, &wc, err, sizeof(err));
		tap_ok(!rc && strlen(wc.ciphers.s[0]) == WEB_CONFIG_NAME_MAX - 1,
		       "an entry of %d bytes", WEB_CONFIG_NAME_MAX - 1);
		snprintf(text + n, sizeof(text) - n, "x]\n");
		rc = parse(text, &wc, err, sizeof(err));
		tap_ok(rc < 0 && strstr(err, "an entry is 1-255 bytes"),
		       "an entry of %d bytes: refused", WEB_CONFIG_NAME_MAX);
	}
	/* bcrypt costs at their bounds: 04 and 16 taken, 03 and 17 not */
	rc = parse("basic_auth_users:\n  u: " H_Y "\n", &wc, err, sizeof(err));
	tap_ok(!rc && web_config_bcrypt_cost(H_Y) == 4, "cost 04 taken");
	rc = parse("basic_auth_users:\n  u: $2b$03$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234\n",
		   &wc, err, sizeof(err));
	tap_ok(rc < 0 && strstr(err, "not a bcrypt hash"), "cost 03 refused");

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i].text, bad[i].want, bad[i].what);
	for (i = 0; i < sizeof(hashes) / sizeof(hashes[0]); i++)
		tap_ok(web_config_bcrypt_shape(hashes[i].hash) == hashes[i].ok,
		       "bcrypt shape of '%s': %s", hashes[i].hash,
		       hashes[i].ok ? "yes" : "no");
	return tap_done();
}
