/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * auth-fixture.h - what the basic auth tests share (test-http-auth-check.c,
 * test-http-auth.c): a user with a real bcrypt hash (libcrypt), an
 * Authorization header.
 */
#ifndef RDMAD_TEST_AUTH_FIXTURE_H
#define RDMAD_TEST_AUTH_FIXTURE_H

#include <crypt.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "http/web_config_parse.h"

/* A bcrypt hash of PW at COST into WC's user NAME. */
static inline int add_user(struct web_config *wc, const char *name,
			   const char *pw, unsigned long cost)
{
	static struct crypt_data cd;
	char salt[CRYPT_GENSALT_OUTPUT_SIZE];
	const char *h;

	if (!crypt_gensalt_rn("$2b$", cost, NULL, 0, salt, sizeof(salt)))
		return -1;
	h = crypt_rn(pw, salt, &cd, sizeof(cd));
	if (!h || strlen(h) != WEB_CONFIG_HASH_LEN)
		return -1;
	snprintf(wc->users[wc->n_users].name, WEB_CONFIG_USER_MAX, "%s", name);
	memcpy(wc->users[wc->n_users].hash, h, WEB_CONFIG_HASH_LEN + 1);
	wc->n_users++;
	return 0;
}

/* "Basic base64(USER:PW)" into BUF. */
static inline const char *basic(char *buf, size_t len, const char *user,
				const char *pw)
{
	char raw[256];
	int n = snprintf(raw, sizeof(raw), "%s:%s", user, pw);

	memcpy(buf, "Basic ", 6);
	sodium_bin2base64(buf + 6, len - 6, (unsigned char *)raw, (size_t)n,
			  sodium_base64_VARIANT_ORIGINAL);
	return buf;
}

#endif /* RDMAD_TEST_AUTH_FIXTURE_H */
