/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_auth_parse.h - the pure parts of the endpoint's basic
 * authentication: an Authorization header's user and password (RFC
 * 7617), and the budget that bounds bcrypt's share of the event loop.
 */
#ifndef RDMAD_HTTP_AUTH_PARSE_H
#define RDMAD_HTTP_AUTH_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define HTTP_AUTH_CRED_MAX	256	/* user:password, decoded, with NUL */

/*
 * HEADER ("Basic BASE64", the scheme in any case) into USER and PASS
 * (split at the first ':', each NUL-terminated in CRED, HTTP_AUTH_CRED_MAX
 * bytes).  0; -ENOENT when HEADER is NULL or another scheme; -EINVAL
 * when malformed (bad base64, no ':', a NUL byte, too long).
 */
int http_auth_parse(const char *header, char *cred, const char **user,
		    const char **pass);

/*
 * bcrypt's budget: a bucket of loop time that fills at SHARE_PPM of wall
 * time up to BURST_NS; a verification may start while the bucket is not
 * empty and its cost is charged after (so the bucket can go negative).
 */
struct http_auth_budget {
	uint32_t share_ppm;
	int64_t burst_ns;
	int64_t credit_ns;		/* may be negative */
	uint64_t last;			/* when credit_ns was last brought up */
};

void http_auth_budget_init(struct http_auth_budget *b, uint32_t share_ppm,
			   int64_t burst_ns, uint64_t now);
/* A bcrypt may run at NOW. */
int http_auth_budget_allows(struct http_auth_budget *b, uint64_t now);
/* One ran at NOW and took COST_NS. */
void http_auth_budget_charge(struct http_auth_budget *b, uint64_t now,
			     uint64_t cost_ns);

#endif /* RDMAD_HTTP_AUTH_PARSE_H */
