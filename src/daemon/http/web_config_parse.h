/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * web_config_parse.h - [http] web_config: Prometheus exporter-toolkit's
 * web configuration (YAML), the part rdmad takes:
 *
 *   tls_server_config:
 *     cert_file, key_file            the server's certificate and key
 *     client_auth_type               NoClientCert (default),
 *                                    RequestClientCert,
 *                                    RequireAnyClientCert (or its old
 *                                    name RequireClientCert),
 *                                    VerifyClientCertIfGiven,
 *                                    RequireAndVerifyClientCert
 *     client_ca_file                 CAs a client certificate is checked
 *                                    against
 *     min_version, max_version       TLS10, TLS11, TLS12, TLS13
 *     cipher_suites                  a list of IANA names (Go's), for
 *                                    TLS 1.0-1.2; checked against
 *                                    OpenSSL's when the context is made
 *     prefer_server_cipher_suites    true (default) or false
 *     curve_preferences              CurveP256, CurveP384, CurveP521,
 *                                    X25519
 *     client_allowed_sans            a list: a client certificate must
 *                                    name one (DNS, IP, e-mail, URI)
 *   http_server_config:
 *     http2                          true or false (rdmad speaks
 *                                    HTTP/1.1 only: clients fall back)
 *     headers                        Content-Security-Policy,
 *                                    X-Frame-Options (deny,
 *                                    sameorigin), X-Content-Type-Options
 *                                    (nosniff), X-XSS-Protection,
 *                                    Strict-Transport-Security
 *   basic_auth_users:
 *     NAME: BCRYPT-HASH              $2a$, $2b$ or $2y$, cost 04 to
 *                                    WEB_CONFIG_BCRYPT_COST_MAX
 *
 * The format's other keys (cert, key, client_ca, rate_limit) are
 * refused by name.  Pure: reads a FILE, fills a struct; every error is
 * "FILE:LINE: what".
 */
#ifndef RDMAD_WEB_CONFIG_PARSE_H
#define RDMAD_WEB_CONFIG_PARSE_H

#include <stddef.h>
#include <stdio.h>

#define WEB_CONFIG_PATH_MAX	512
#define WEB_CONFIG_USERS_MAX	64
#define WEB_CONFIG_USER_MAX	128	/* a user name's bytes, with NUL */
#define WEB_CONFIG_HASH_LEN	60	/* a bcrypt hash's */
/* The dearest bcrypt taken: cost 16 is 4-7 s a check (docs/security.md) */
#define WEB_CONFIG_BCRYPT_COST_MAX	16
#define WEB_CONFIG_LIST_MAX	32	/* cipher_suites, client_allowed_sans */
#define WEB_CONFIG_NAME_MAX	256	/* one of their entries, with NUL */
#define WEB_CONFIG_HEADERS_MAX	5
#define WEB_CONFIG_HEADER_MAX	1024	/* a header's value, with NUL */

enum web_client_auth {
	WEB_CLIENT_AUTH_NONE,			/* NoClientCert */
	WEB_CLIENT_AUTH_REQUEST,		/* RequestClientCert */
	WEB_CLIENT_AUTH_REQUIRE_ANY,		/* RequireAnyClientCert */
	WEB_CLIENT_AUTH_VERIFY_IF_GIVEN,	/* VerifyClientCertIfGiven */
	WEB_CLIENT_AUTH_REQUIRE_VERIFY,		/* RequireAndVerifyClientCert */
};

/* TLS versions as OpenSSL numbers them (TLS1_VERSION ...); 0: not set. */
#define WEB_TLS10	0x0301
#define WEB_TLS11	0x0302
#define WEB_TLS12	0x0303
#define WEB_TLS13	0x0304

struct web_config_user {
	char name[WEB_CONFIG_USER_MAX];
	char hash[WEB_CONFIG_HASH_LEN + 1];
};

/* A list of strings (cipher_suites, client_allowed_sans). */
struct web_config_list {
	char s[WEB_CONFIG_LIST_MAX][WEB_CONFIG_NAME_MAX];
	unsigned int n;
};

/* http_server_config: the headers added to every answer. */
struct web_config_http {
	struct {
		const char *name;		/* a static string */
		char value[WEB_CONFIG_HEADER_MAX];
	} headers[WEB_CONFIG_HEADERS_MAX];
	unsigned int n_headers;
	int http2;				/* read, not used */
};

struct web_config {
	int tls;				/* tls_server_config given */
	char cert_file[WEB_CONFIG_PATH_MAX];	/* absolute, or as written */
	char key_file[WEB_CONFIG_PATH_MAX];
	char client_ca_file[WEB_CONFIG_PATH_MAX];	/* "": none */
	enum web_client_auth client_auth;
	int min_version;			/* WEB_TLS1x; 0: default */
	int max_version;			/* 0: the newest */
	struct web_config_list ciphers;		/* n 0: OpenSSL's default */
	int prefer_server_ciphers;		/* default 1 */
	char curves[64];		/* OpenSSL's groups list, "": default */
	struct web_config_list sans;		/* n 0: any certificate */
	struct web_config_http http;
	struct web_config_user users[WEB_CONFIG_USERS_MAX];
	unsigned int n_users;			/* 0: no basic auth */
};

/*
 * Parse F (NAME in messages; relative paths in it are taken from NAME's
 * folder) into WC.  0, or -EINVAL with "NAME:LINE: what" in ERR.  An
 * empty file is an empty configuration (no TLS, no auth).
 */
int web_config_parse(FILE *f, const char *name, struct web_config *wc,
		     char *err, size_t errlen);

/* A bcrypt hash's shape: $2a$/$2b$/$2y$, cost 04-31, 53 characters. */
int web_config_bcrypt_shape(const char *hash);
/* The cost of a HASH of that shape. */
unsigned int web_config_bcrypt_cost(const char *hash);

/* "RequireAndVerifyClientCert" for WEB_CLIENT_AUTH_REQUIRE_VERIFY ... */
const char *web_config_client_auth_name(enum web_client_auth a);
/* The auth type needs a client certificate checked against a CA. */
int web_config_client_auth_verifies(enum web_client_auth a);

#endif /* RDMAD_WEB_CONFIG_PARSE_H */
