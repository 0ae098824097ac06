/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * web_config_parse.h - [http] web_config: Prometheus exporter-toolkit's
 * web configuration (YAML), the part rdmad takes:
 *
 *   tls_server_config:
 *     cert_file, key_file            the server's certificate and key
 *     client_auth_type               NoClientCert (default),
 *                                    RequestClientCert,
 *                                    RequireAnyClientCert,
 *                                    VerifyClientCertIfGiven,
 *                                    RequireAndVerifyClientCert
 *     client_ca_file                 CAs a client certificate is checked
 *                                    against
 *     min_version, max_version       TLS10, TLS11, TLS12, TLS13
 *   basic_auth_users:
 *     NAME: BCRYPT-HASH              $2a$, $2b$ or $2y$
 *
 * The format's other keys (cert, key, client_ca, cipher_suites,
 * curve_preferences, prefer_server_cipher_suites, client_allowed_sans,
 * http_server_config, rate_limit) are refused by name.  Pure: reads a
 * FILE, fills a struct; every error is "FILE:LINE: what".
 */
#ifndef RDMAD_WEB_CONFIG_PARSE_H
#define RDMAD_WEB_CONFIG_PARSE_H

#include <stddef.h>
#include <stdio.h>

#define WEB_CONFIG_PATH_MAX	512
#define WEB_CONFIG_USERS_MAX	64
#define WEB_CONFIG_USER_MAX	128	/* a user name's bytes, with NUL */
#define WEB_CONFIG_HASH_LEN	60	/* a bcrypt hash's */

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

struct web_config {
	int tls;				/* tls_server_config given */
	char cert_file[WEB_CONFIG_PATH_MAX];	/* absolute, or as written */
	char key_file[WEB_CONFIG_PATH_MAX];
	char client_ca_file[WEB_CONFIG_PATH_MAX];	/* "": none */
	enum web_client_auth client_auth;
	int min_version;			/* WEB_TLS1x; 0: default */
	int max_version;			/* 0: the newest */
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

/* "RequireAndVerifyClientCert" for WEB_CLIENT_AUTH_REQUIRE_VERIFY ... */
const char *web_config_client_auth_name(enum web_client_auth a);
/* The auth type needs a client certificate checked against a CA. */
int web_config_client_auth_verifies(enum web_client_auth a);

#endif /* RDMAD_WEB_CONFIG_PARSE_H */
