/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_auth_parse.c - an Authorization header's credentials, and
 * bcrypt's budget (see http_auth_parse.h).  Base64 is libsodium's.
 */
#include "http/http_auth_parse.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

int http_auth_parse(const char *h, char *cred, const char **user,
		    const char **pass)
{
	size_t len = 0;
	const char *end;
	char *colon;

	*cred = '\0';
	if (!h)
		return -ENOENT;
	while (*h == ' ' || *h == '\t')
		h++;
	if (strncasecmp(h, "Basic", 5) || (h[5] != ' ' && h[5] != '\t'))
		return -ENOENT;
	h += 6;
	while (*h == ' ' || *h == '\t')
		h++;
	end = h + strlen(h);
	while (end > h && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end == h)
		return -EINVAL;
	if (sodium_base642bin((unsigned char *)cred, HTTP_AUTH_CRED_MAX - 1,
			      h, (size_t)(end - h), NULL, &len, NULL,
			      sodium_base64_VARIANT_ORIGINAL))
		goto bad;
	cred[len] = '\0';
	if (strlen(cred) != len)
		goto bad;
	colon = strchr(cred, ':');
	if (!colon)
		goto bad;
	*colon = '\0';
	*user = cred;
	*pass = colon + 1;
	return 0;
bad:
	sodium_memzero(cred, HTTP_AUTH_CRED_MAX);
	return -EINVAL;
}

void http_auth_budget_init(struct http_auth_budget *b, uint32_t share_ppm,
			   int64_t burst_ns, uint64_t now)
{
	b->share_ppm = share_ppm;
	b->burst_ns = burst_ns;
	b->credit_ns = burst_ns;
	b->last = now;
}

/* The credit earned since b->last. */
static void http_auth_budget_fill(struct http_auth_budget *b, uint64_t now)
{
	uint64_t dt;

	if (now <= b->last)
		return;
	dt = now - b->last;
	b->last = now;
	/* beyond this the bucket is full anyway (no overflow below) */
	if (dt > (uint64_t)INT64_MAX / 1000000u)
		dt = (uint64_t)INT64_MAX / 1000000u;
	b->credit_ns += (int64_t)(dt * b->share_ppm / 1000000u);
	if (b->credit_ns > b->burst_ns)
		b->credit_ns = b->burst_ns;
}

int http_auth_budget_allows(struct http_auth_budget *b, uint64_t now)
{
	http_auth_budget_fill(b, now);
	return b->credit_ns > 0;
}

void http_auth_budget_charge(struct http_auth_budget *b, uint64_t now,
			     uint64_t cost_ns)
{
	http_auth_budget_fill(b, now);
	if (cost_ns > (uint64_t)INT64_MAX / 2)
		cost_ns = (uint64_t)INT64_MAX / 2;
	b->credit_ns -= (int64_t)cost_ns;
	if (b->credit_ns < -(int64_t)(INT64_MAX / 4))
		b->credit_ns = -(int64_t)(INT64_MAX / 4);
}
