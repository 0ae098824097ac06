/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_auth_check.c - basic authentication (see http_auth_check.h): the users, the
 * cache of verified credentials, bcrypt through libcrypt's crypt_rn,
 * compared with sodium_memcmp.
 */
#include "http/http_auth_check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <crypt.h>
#include <sodium.h>

#include "clock.h"
#include "http/http_auth_parse.h"

#define HTTP_AUTH_CACHE		32	/* verified credentials kept */
#define HTTP_AUTH_SHARE_PPM	100000	/* bcrypt: a tenth of wall time */
#define HTTP_AUTH_BURST_NS	(300 * 1000000ll)	/* ... 300 ms at once */

struct http_auth_check_cached {
	unsigned char digest[crypto_generichash_BYTES];
	uint64_t used;			/* 0: empty */
};

struct http_auth {
	struct web_config_user *users;
	unsigned int n_users;
	unsigned char key[crypto_generichash_KEYBYTES];
	struct http_auth_check_cached cache[HTTP_AUTH_CACHE];
	struct http_auth_budget budget;
	uint64_t last_cost;
	struct crypt_data cd;		/* crypt_rn's work area, 32 KB */
};

struct http_auth *http_auth_check_new(const struct web_config *wc)
{
	struct http_auth *a;

	if (sodium_init() < 0)
		return NULL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->n_users = wc->n_users;
	if (a->n_users) {
		a->users = calloc(a->n_users, sizeof(*a->users));
		if (!a->users) {
			free(a);
			return NULL;
		}
		memcpy(a->users, wc->users, a->n_users * sizeof(*a->users));
	}
	randombytes_buf(a->key, sizeof(a->key));
	http_auth_budget_init(&a->budget, HTTP_AUTH_SHARE_PPM,
			      HTTP_AUTH_BURST_NS, clock_now_ns());
	return a;
}

void http_auth_check_free(struct http_auth *a)
{
	if (!a)
		return;
	free(a->users);
	sodium_memzero(a, sizeof(*a));
	free(a);
}

uint64_t http_auth_check_last_cost(const struct http_auth *a)
{
	return a->last_cost;
}

/* The user called NAME, or NULL. */
static const struct web_config_user *http_auth_check_user(const struct http_auth *a,
						    const char *name)
{
	unsigned int i;

	for (i = 0; i < a->n_users; i++)
		if (!strcmp(a->users[i].name, name))
			return &a->users[i];
	return NULL;
}

/* PASS against HASH with bcrypt: 1 when it matches. */
static int http_auth_check_bcrypt(struct http_auth *a, const char *pass,
			    const char *hash)
{
	const char *out;
	size_t len = strlen(hash);

	out = crypt_rn(pass, hash, &a->cd, (int)sizeof(a->cd));
	return out && strlen(out) == len && !sodium_memcmp(out, hash, len);
}

enum http_auth_result http_auth_check(struct http_auth *a,
				      const char *header, uint64_t now)
{
	unsigned char d[crypto_generichash_BYTES];
	const struct web_config_user *u;
	char cred[HTTP_AUTH_CRED_MAX];
	struct http_auth_check_cached *slot;
	const char *user, *pass;
	uint64_t t0;
	size_t ulen;
	unsigned int i;
	int rc, ok;

	if (!a->n_users)
		return HTTP_AUTH_OK;
	rc = http_auth_parse(header, cred, &user, &pass);
	if (rc == -ENOENT)
		return HTTP_AUTH_MISSING;
	if (rc)
		return HTTP_AUTH_WRONG;
	/* the digest covers user:password whole */
	ulen = strlen(user);
	cred[ulen] = ':';
	crypto_generichash(d, sizeof(d), (const unsigned char *)cred,
			   strlen(cred), a->key, sizeof(a->key));
	cred[ulen] = '\0';
	slot = &a->cache[0];
	for (i = 0; i < HTTP_AUTH_CACHE; i++) {
		if (a->cache[i].used &&
		    !sodium_memcmp(a->cache[i].digest, d, sizeof(d))) {
			a->cache[i].used = now ? now : 1;
			sodium_memzero(cred, sizeof(cred));
			return HTTP_AUTH_OK;
		}
		if (a->cache[i].used < slot->used)
			slot = &a->cache[i];
	}
	if (!http_auth_budget_allows(&a->budget, now)) {
		sodium_memzero(cred, sizeof(cred));
		return HTTP_AUTH_BUSY;
	}
	/* An unknown user pays a bcrypt too (the first user's hash, whose
	 * cost is the table's), so timing does not tell who exists. */
	u = http_auth_check_user(a, user);
	t0 = clock_now_ns();
	ok = http_auth_check_bcrypt(a, pass, u ? u->hash : a->users[0].hash) && u;
	a->last_cost = clock_now_ns() - t0;
	http_auth_budget_charge(&a->budget, now, a->last_cost);
	sodium_memzero(cred, sizeof(cred));
	if (!ok)
		return HTTP_AUTH_WRONG;
	memcpy(slot->digest, d, sizeof(d));
	slot->used = now ? now : 1;
	return HTTP_AUTH_OK;
}
