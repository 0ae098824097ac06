/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_auth.h - basic authentication off the event loop: the requests
 * whose password needs a bcrypt (http_auth_check.h) wait while one worker
 * thread runs it, one at a time, and are answered from the loop when it
 * is done.  The loop never waits on a bcrypt: a wrong password at any
 * cost stalls nothing but its own answer.
 *
 * The budget is the table's (a tenth of wall time, charged with each
 * bcrypt's time when it ends); a request waits in line behind at most
 * HTTP_AUTH_WAIT_MAX others, and the next one starts only while the
 * budget allows (else it gets HTTP_AUTH_BUSY, like a new one beyond the
 * line).  A reload's new table takes over the waiting requests: the one
 * running is checked again against the new table.
 */
#ifndef RDMAD_HTTP_AUTH_H
#define RDMAD_HTTP_AUTH_H

#include <event2/event.h>

#include "http/http_auth_check.h"

#define HTTP_AUTH_WAIT_MAX	16	/* requests in line for a bcrypt */

struct http_auth_gate;
struct http_auth_wait;			/* one waiting request */

/* REQ's check ended with R (HTTP_AUTH_OK, _WRONG, _BUSY). */
typedef void http_auth_done_fn(void *arg, void *req,
			       enum http_auth_result r);

/* A gate in BASE's loop (its worker started); DONE(ARG, ...) for each
 * request that waited.  0 or -errno. */
int http_auth_gate_new(struct http_auth_gate **out, struct event_base *base,
		       http_auth_done_fn *done, void *arg);
/* Waits for the bcrypt running, if any; the waiting requests are
 * dropped without DONE.  Harmless on NULL. */
void http_auth_gate_free(struct http_auth_gate *g);
/* Check against TABLE from now on (NULL: no basic auth; the caller keeps
 * owning it and keeps it until the next call). */
void http_auth_gate_set(struct http_auth_gate *g, struct http_auth *table);
/*
 * REQ's Authorization HEADER (NULL: none): the answer now (OK, MISSING,
 * WRONG, BUSY), or HTTP_AUTH_VERIFY with *W set: DONE(ARG, REQ, ...)
 * follows from the loop, unless http_auth_gate_cancel(G, *W) first.
 */
enum http_auth_result http_auth_gate_check(struct http_auth_gate *g,
					   const char *header, void *req,
					   struct http_auth_wait **w);
/* The request of W went away: no DONE for it (W is freed; its bcrypt,
 * if running, still counts). */
void http_auth_gate_cancel(struct http_auth_wait *w);

#endif /* RDMAD_HTTP_AUTH_H */
