/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_route_match.h - the HTTP endpoint's route table (pure): the
 * routes the wings add (a path, its methods, a handler and its owner's
 * pointer, the formats and numbers its query takes), a request's path,
 * method and query matched against them, and the 404's text that lists
 * them.  http.c holds one table and carries out what it says.
 */
#ifndef RDMAD_HTTP_ROUTE_MATCH_H
#define RDMAD_HTTP_ROUTE_MATCH_H

#include <stdbool.h>
#include <stddef.h>

struct evhttp_request;

#define HTTP_ROUTES_MAX		16
#define HTTP_PARAMS_MAX		4
#define HTTP_NOT_FOUND_MAX	160	/* the 404's text, with its NUL */

/* The methods a route takes (http.c maps libevent's to these). */
enum { HTTP_GET = 1, HTTP_HEAD = 2 };

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

/* Answer REQ (http_reply.h), at once or later. */
typedef void http_serve_fn(void *owner, struct evhttp_request *req,
			   const struct http_query *q);

struct http_route {
	const char *path;
	/* HTTP_GET | HTTP_HEAD; the other of the two gets a 405 with
	 * NOT_METHOD as its text (any other method: the endpoint's own 405) */
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

struct http_routes {
	struct http_route r[HTTP_ROUTES_MAX];
	unsigned int n;
	/* "not found: rdmad serves /, /a and /b", in the order added */
	char not_found[HTTP_NOT_FOUND_MAX];
};

/* An empty table. */
void http_route_match_init(struct http_routes *t);
/* R (copied) into T after the others; 0, -EEXIST (its path is taken),
 * -ENOSPC (HTTP_ROUTES_MAX routes), -EINVAL (more than HTTP_PARAMS_MAX
 * params, or no path, method or handler). */
int http_route_match_add(struct http_routes *t, const struct http_route *r);
/* The route of PATH, or NULL (404: T->not_found). */
const struct http_route *http_route_match_find(const struct http_routes *t,
					       const char *path);
/* The Allow header of a route's 405 ("GET", "HEAD", "GET, HEAD"). */
const char *http_route_match_allow(const struct http_route *r);
/* Q as R takes an empty query: its default format and numbers. */
void http_route_match_query_init(const struct http_route *r,
				 struct http_query *q);
/* KEY=VALUE of a query into Q; -EINVAL if R does not take it (the
 * 400's text: R->usage). */
int http_route_match_query(const struct http_route *r, const char *key,
			   const char *value, struct http_query *q);

#endif /* RDMAD_HTTP_ROUTE_MATCH_H */
