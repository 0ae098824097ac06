/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_auth_check.h - basic authentication of the endpoint's requests
 * against the web config's basic_auth_users (bcrypt hashes, libcrypt):
 * the decisions, not the waiting.
 *
 * bcrypt is slow on purpose (cost 10: 50-200 ms).  A verified
 * user:password is remembered (a table keyed by a keyed BLAKE2b of it,
 * the key random per table) so repeated scrapes cost a hash; a bcrypt
 * starts only while its budget allows (a tenth of wall time,
 * http_auth_parse.h), else the request is refused as busy.  What needs
 * a bcrypt is handed out as a job (http_auth_check() says
 * HTTP_AUTH_VERIFY): http_auth_job_run() does the bcrypt, on any thread
 * (http_auth.c runs it off the loop), and http_auth_check_finish()
 * charges its cost and remembers a good credential.
 *
 * An unknown user is checked against a dummy hash of the highest cost
 * among the users, so that it costs what the dearest known user does.
 */
#ifndef RDMAD_HTTP_AUTH_CHECK_H
#define RDMAD_HTTP_AUTH_CHECK_H

#include <stdint.h>

#include <crypt.h>
#include <sodium.h>

#include "http/http_auth_parse.h"
#include "http/web_config_parse.h"

struct http_auth;

enum http_auth_result {
	HTTP_AUTH_OK,
	HTTP_AUTH_MISSING,	/* no Authorization: Basic */
	HTTP_AUTH_WRONG,	/* unknown user, wrong password, malformed */
	HTTP_AUTH_BUSY,		/* bcrypt's budget spent */
	HTTP_AUTH_VERIFY,	/* a bcrypt is needed: run the job */
};

/* One bcrypt to run: what it checks, then what it found. */
struct http_auth_job {
	char pass[HTTP_AUTH_CRED_MAX];
	char hash[WEB_CONFIG_HASH_LEN + 1];	/* the user's, or the dummy */
	unsigned char digest[crypto_generichash_BYTES];
	int known;			/* the user exists */
	int ok;				/* run: the password matched */
	uint64_t cost_ns;		/* run: how long the bcrypt took */
	struct crypt_data cd;		/* crypt_rn's work area, 32 KB */
};

/* WC's users (none: every request passes); NULL when out of memory. */
struct http_auth *http_auth_check_new(const struct web_config *wc);
/* Harmless on NULL. */
void http_auth_check_free(struct http_auth *a);
/*
 * The request's Authorization HEADER (NULL: none) at NOW (ns).  When a
 * bcrypt is needed: with JOB, and while the budget allows, JOB is filled
 * and HTTP_AUTH_VERIFY returned (else HTTP_AUTH_BUSY); with JOB NULL,
 * HTTP_AUTH_VERIFY says one would be needed (nothing is spent).
 */
enum http_auth_result http_auth_check(struct http_auth *a,
				      const char *header, uint64_t now,
				      struct http_auth_job *job);
/* The bcrypt of JOB (any thread; touches nothing but JOB). */
void http_auth_job_run(struct http_auth_job *job);
/* JOB ran (it came from A): its cost charged at NOW, a good credential
 * remembered; HTTP_AUTH_OK or HTTP_AUTH_WRONG.  JOB is wiped. */
enum http_auth_result http_auth_check_finish(struct http_auth *a,
					     struct http_auth_job *job,
					     uint64_t now);
/* check, run and finish at once (on the caller's thread). */
enum http_auth_result http_auth_check_now(struct http_auth *a,
					  const char *header, uint64_t now,
					  struct http_auth_job *job);
/* The last bcrypt's cost, ns (0: none yet); for the log and tests. */
uint64_t http_auth_check_last_cost(const struct http_auth *a);

#endif /* RDMAD_HTTP_AUTH_CHECK_H */
