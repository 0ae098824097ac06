/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http.h - rdmad's HTTP endpoint ([http] in the config): the transport.
 * It listens, speaks TLS, checks [http] allow and basic auth, answers
 * the methods and paths it does not serve, encodes the replies
 * (http_reply.h), and keeps a route table.  It knows no wing: each wing
 * registers its paths (http_route_add) with a handler and its owner's
 * pointer, and renders its own views; the page at / lists the routes.
 */
#ifndef RDMAD_HTTP_H
#define RDMAD_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>
#include <event2/http.h>

#include "core/config.h"

struct http;
struct web_config;

#define HTTP_ROUTES_MAX		16
#define HTTP_PARAMS_MAX		4

/* A format a route renders, format=NAME in the query; the first of a
 * route's is its default. */
struct http_format {
	const char *name;
	int fmt;			/* the renderer's enum */
	const char *ctype;
};

/* A number a route takes in its query (NAME=N, 0..MAX, DFLT when
 * absent), read by PARSE (0, or -EINVAL: the route's usage). */
struct http_param {
	const char *name;
	unsigned int dflt, max;
	int (*parse)(const char *s, unsigned int max, unsigned int *out);
};

/* A request's query as its route takes it. */
struct http_query {
	const struct http_format *format;	/* NULL: the route has none */
	unsigned int param[HTTP_PARAMS_MAX];	/* in the route's order */
};

/* Answer REQ (http_reply.h, or later for a deferred answer). */
typedef void http_serve_fn(void *owner, struct evhttp_request *req,
			   const struct http_query *q);

struct http_route {
	const char *path;
	/* EVHTTP_REQ_GET | EVHTTP_REQ_HEAD; the other of the two gets a
	 * 405 with NOT_METHOD as its text (any other method: the endpoint's
	 * own 405) */
	unsigned int methods;
	const char *not_method;
	http_serve_fn *serve;
	void *owner;
	const struct http_format *formats;	/* NULL: no format= */
	const struct http_param *params;	/* NULL-named end; NULL: none */
	/* The 400's text for a query it does not take; NULL: the handler
	 * reads the query itself */
	const char *usage;
	/* Its line on the page at / (HTML); NULL: not listed */
	const char *what;
};

/*
 * Serve in BASE's loop as CFG says (the owner's configuration, read at
 * each request for [http] allow), with WC (http_web.h: http_web_read of CFG's
 * web_config; NULL: none).  Only / is served until routes are added.
 * 0, or -errno with the reason in ERR.
 */
int http_start(struct http **out, struct event_base *base,
	       const struct rdmad_config *cfg, const struct web_config *wc,
	       char *err, size_t errlen);
/* Harmless on NULL. */
void http_stop(struct http *h);
/*
 * Serve R (copied; its strings and OWNER must outlive H) from now on, in
 * the order added (the page at / and the 404 list them so).  0, -EEXIST
 * (its path is taken), -ENOSPC (HTTP_ROUTES_MAX), -EINVAL (too many
 * params).
 */
int http_route_add(struct http *h, const struct http_route *r);
/* The requests refused so far, [STATS_HTTP_N] by reason (for /metrics). */
const uint64_t *http_refused(const struct http *h);
/*
 * Reload in two steps: http_prepare() builds WC (http_web.h: http_web_read of CFG's
 * web_config) and binds CFG's address if it changed (nothing else
 * changes; -errno and ERR if it cannot), then either
 * http_commit() (the old address closes) or http_rollback().
 */
int http_prepare(struct http *h, const struct rdmad_config *cfg,
		 const struct web_config *wc, char *err, size_t errlen);
void http_commit(struct http *h);
void http_rollback(struct http *h);

#endif /* RDMAD_HTTP_H */
