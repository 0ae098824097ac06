/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_route_match.c - the endpoint's route table (http_route_match.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "http/http_route_match.h"

/* The 404's text: the paths served, the last after "and". */
static void http_route_match_not_found(struct http_routes *t)
{
	size_t len = sizeof(t->not_found), off;
	unsigned int i;

	off = (size_t)snprintf(t->not_found, len, "not found: rdmad serves ");
	for (i = 0; i < t->n && off < len; i++)
		off += (size_t)snprintf(t->not_found + off, len - off, "%s%s",
					!i ? "" : i + 1 < t->n ? ", " :
					" and ", t->r[i].path);
}

void http_route_match_init(struct http_routes *t)
{
	memset(t, 0, sizeof(*t));
	http_route_match_not_found(t);
}

int http_route_match_add(struct http_routes *t, const struct http_route *r)
{
	unsigned int i;

	if (!r->path || !r->serve || !(r->methods & (HTTP_GET | HTTP_HEAD)))
		return -EINVAL;
	for (i = 0; r->params && r->params[i].name; i++)
		if (i == HTTP_PARAMS_MAX || !r->params[i].parse)
			return -EINVAL;
	if (http_route_match_find(t, r->path))
		return -EEXIST;
	if (t->n == HTTP_ROUTES_MAX)
		return -ENOSPC;
	t->r[t->n++] = *r;
	http_route_match_not_found(t);
	return 0;
}

const struct http_route *http_route_match_find(const struct http_routes *t,
					       const char *path)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->r[i].path, path))
			return &t->r[i];
	return NULL;
}

const char *http_route_match_allow(const struct http_route *r)
{
	switch (r->methods & (HTTP_GET | HTTP_HEAD)) {
	case HTTP_GET:
		return "GET";
	case HTTP_HEAD:
		return "HEAD";
	default:
		return "GET, HEAD";
	}
}

void http_route_match_query_init(const struct http_route *r,
				 struct http_query *q)
{
	unsigned int i;

	memset(q, 0, sizeof(*q));
	q->format = r->formats;
	for (i = 0; r->params && r->params[i].name; i++)
		q->param[i] = r->params[i].dflt;
}

int http_route_match_query(const struct http_route *r, const char *key,
			   const char *value, struct http_query *q)
{
	const struct http_format *fm;
	const struct http_param *pm;

	if (r->formats && !strcmp(key, "format")) {
		for (fm = r->formats; fm->name; fm++)
			if (!strcmp(fm->name, value)) {
				q->format = fm;
				return 0;
			}
		return -EINVAL;
	}
	for (pm = r->params; pm && pm->name; pm++)
		if (!strcmp(key, pm->name))
			return pm->parse(value, pm->max,
					 &q->param[pm - r->params]) ? -EINVAL : 0;
	return -EINVAL;
}
