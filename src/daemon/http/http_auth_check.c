/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_auth_check.c - basic authentication (see http_auth_check.h): the
 * users, the cache of verified credentials, the dummy hash for unknown
 * users, bcrypt through libcrypt's crypt_rn, compared with sodium_memcmp.
 */
#include "http/http_auth_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

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
	/* an unknown user's: a setting of the users' highest cost, a
	 * checksum that no password gives */
	char dummy[WEB_CONFIG_HASH_LEN + 1];
};

/* The cost of a bcrypt hash H (its shape checked by the parser). */
static unsigned int http_auth_check_cost(const char *h)
{
	return (unsigned int)(h[4] - '0') * 10 + (unsigned int)(h[5] - '0');
}

/* A's dummy hash: "$2b$CC$" and 53 characters of bcrypt's base64 (a
 * salt from crypt_gensalt_rn, a random checksum).  0 or -1. */
static int http_auth_check_dummy(struct http_auth *a)
{
	static const char b64[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789";
	char setting[CRYPT_GENSALT_OUTPUT_SIZE];
	unsigned char rnd[16];
	unsigned int i, cost = 4;
	size_t len;

	for (i = 0; i < a->n_users; i++)
		if (http_auth_check_cost(a->users[i].hash) > cost)
			cost = http_auth_check_cost(a->users[i].hash);
	randombytes_buf(rnd, sizeof(rnd));
	if (!crypt_gensalt_rn("$2b$", cost, (const char *)rnd, sizeof(rnd),
			      setting, sizeof(setting)))
		return -1;
	len = strlen(setting);
	if (len != 29)
		return -1;
	memcpy(a->dummy, setting, len);
	for (i = (unsigned int)len; i < WEB_CONFIG_HASH_LEN; i++)
		a->dummy[i] = b64[randombytes_uniform(sizeof(b64) - 1)];
	a->dummy[WEB_CONFIG_HASH_LEN] = '\0';
	return 0;
}

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
	if (a->n_users && http_auth_check_dummy(a)) {
		http_auth_check_free(a);
		return NULL;
	}
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

void http_auth_job_run(struct http_auth_job *job)
{
	size_t len = strlen(job->hash);
	uint64_t t0 = clock_now_ns();
	const char *out;

	out = crypt_rn(job->pass, job->hash, &job->cd, (int)sizeof(job->cd));
	job->ok = out && strlen(out) == len &&
		  !sodium_memcmp(out, job->hash, len) && job->known;
	job->cost_ns = clock_now_ns() - t0;
}

enum http_auth_result http_auth_check_finish(struct http_auth *a,
					     struct http_auth_job *job,
					     uint64_t now)
{
	struct http_auth_check_cached *slot = &a->cache[0];
	int ok = job->ok;
	unsigned int i;

	a->last_cost = job->cost_ns;
	http_auth_budget_charge(&a->budget, now, job->cost_ns);
	if (ok) {
		for (i = 0; i < HTTP_AUTH_CACHE; i++)
			if (a->cache[i].used < slot->used)
				slot = &a->cache[i];
		memcpy(slot->digest, job->digest, sizeof(slot->digest));
		slot->used = now ? now : 1;
	}
	sodium_memzero(job->pass, sizeof(job->pass));
	sodium_memzero(job->digest, sizeof(job->digest));
	return ok ? HTTP_AUTH_OK : HTTP_AUTH_WRONG;
}

enum http_auth_result http_auth_check(struct http_auth *a,
				      const char *header, uint64_t now,
				      struct http_auth_job *job)
{
	unsigned char d[crypto_generichash_BYTES];
	const struct web_config_user *u;
	char cred[HTTP_AUTH_CRED_MAX];
	const char *user, *pass;
	enum http_auth_result r = HTTP_AUTH_VERIFY;
	size_t ulen;
	unsigned int i;
	int rc;

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
	for (i = 0; i < HTTP_AUTH_CACHE; i++)
		if (a->cache[i].used &&
		    !sodium_memcmp(a->cache[i].digest, d, sizeof(d))) {
			a->cache[i].used = now ? now : 1;
			r = HTTP_AUTH_OK;
			goto out;
		}
	if (!job)
		goto out;
	if (!http_auth_budget_allows(&a->budget, now)) {
		r = HTTP_AUTH_BUSY;
		goto out;
	}
	/* An unknown user pays a bcrypt too, against the dummy hash of the
	 * users' highest cost, so timing does not tell who exists. */
	u = http_auth_check_user(a, user);
	job->known = u != NULL;
	job->ok = 0;
	job->cost_ns = 0;
	snprintf(job->hash, sizeof(job->hash), "%s", u ? u->hash : a->dummy);
	snprintf(job->pass, sizeof(job->pass), "%s", pass);
	memcpy(job->digest, d, sizeof(d));
out:
	sodium_memzero(cred, sizeof(cred));
	sodium_memzero(d, sizeof(d));
	return r;
}

enum http_auth_result http_auth_check_now(struct http_auth *a,
					  const char *header, uint64_t now,
					  struct http_auth_job *job)
{
	enum http_auth_result r = http_auth_check(a, header, now, job);

	if (r != HTTP_AUTH_VERIFY)
		return r;
	http_auth_job_run(job);
	return http_auth_check_finish(a, job, now);
}
