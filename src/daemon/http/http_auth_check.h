/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_auth_check.h - basic authentication of the endpoint's requests against
 * the web config's basic_auth_users (bcrypt hashes, libcrypt).
 *
 * bcrypt is slow on purpose (cost 10: 50-200 ms) and runs on the one
 * event loop: a verified user:password is remembered (a table keyed by a
 * keyed BLAKE2b of it, the key random per table) so repeated scrapes cost
 * a hash, and bcrypt runs only while its budget allows (a tenth of wall
 * time, http_auth_parse.h); beyond, the request is refused as busy.
 */
#ifndef RDMAD_HTTP_AUTH_CHECK_H
#define RDMAD_HTTP_AUTH_CHECK_H

#include <stdint.h>

#include "http/web_config_parse.h"

struct http_auth;

enum http_auth_result {
	HTTP_AUTH_OK,
	HTTP_AUTH_MISSING,	/* no Authorization: Basic */
	HTTP_AUTH_WRONG,	/* unknown user, wrong password, malformed */
	HTTP_AUTH_BUSY,		/* bcrypt's budget spent */
};

/* WC's users (none: every request passes); NULL when out of memory. */
struct http_auth *http_auth_check_new(const struct web_config *wc);
/* Harmless on NULL. */
void http_auth_check_free(struct http_auth *a);
/* The request's Authorization HEADER (NULL: none) at NOW (ns). */
enum http_auth_result http_auth_check(struct http_auth *a,
				      const char *header, uint64_t now);
/* The last bcrypt's cost, ns (0: none yet); for the log and tests. */
uint64_t http_auth_check_last_cost(const struct http_auth *a);

#endif /* RDMAD_HTTP_AUTH_CHECK_H */
