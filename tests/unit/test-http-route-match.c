/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-http-route-match.c - http_route_match.c, the endpoint's route
 * table: routes added in order (a taken path, the table's limit, a route
 * with too many numbers refused), found by exact path, the 404's text
 * listing them as rdmad's endpoint has always said it, the Allow header
 * of a route's own 405, and a query read against a route's formats and
 * numbers (defaults, each bound, keys it does not take).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "http/http_route_match.h"
#include "mesh/view/mesh_render.h"
#include "tap.h"

static void serve(void *owner, struct evhttp_request *req,
		  const struct http_query *q)
{
}

static const struct http_format fmts[] = {
	{ "json", 0, "application/json" },
	{ "text", 1, "text/plain; charset=utf-8" },
	{ NULL, 0, NULL },
};

static const struct http_param params[] = {
	{ "refresh", 10, 3600, mesh_render_number_parse },
	{ "from", 0, 99999, mesh_render_number_parse },
	{ NULL, 0, 0, NULL },
};

static struct http_route route(const char *path)
{
	return (struct http_route){ .path = path,
				    .methods = HTTP_GET | HTTP_HEAD,
				    .serve = serve };
}

/* The table rdmad serves, in the order rdmad.c adds it. */
static void test_daemon_table(void)
{
	static const char *const paths[] = { "/", "/metrics", "/status",
					     "/peers", "/mesh", "/probe" };
	struct http_routes t;
	struct http_route r;
	unsigned int i;
	int ok = 1;

	http_route_match_init(&t);
	tap_ok(!strcmp(t.not_found, "not found: rdmad serves "),
	       "empty table: the 404 names no path");
	for (i = 0; i < 6; i++)
		ok &= !http_route_match_add(&t, &(struct http_route){
			.path = paths[i], .methods = HTTP_GET | HTTP_HEAD,
			.serve = serve });
	tap_ok(ok && t.n == 6, "rdmad's six routes added");
	tap_ok(!strcmp(t.not_found, "not found: rdmad serves /, /metrics, "
		       "/status, /peers, /mesh and /probe"),
	       "the 404's text as rdmad has always said it: \"%s\"",
	       t.not_found);
	for (i = 0, ok = 1; i < 6; i++)
		ok &= http_route_match_find(&t, paths[i]) == &t.r[i];
	tap_ok(ok, "each path finds its own route");
	tap_ok(!http_route_match_find(&t, "/metrics/") &&
	       !http_route_match_find(&t, "/Metrics") &&
	       !http_route_match_find(&t, "/metric") &&
	       !http_route_match_find(&t, ""),
	       "a path is found only exactly (no prefix, no case folding)");
	r = route("/status");
	tap_ok(http_route_match_add(&t, &r) == -EEXIST && t.n == 6,
	       "a path taken: -EEXIST, the table unchanged");
}

static void test_two(void)
{
	struct http_routes t;
	struct http_route r;

	http_route_match_init(&t);
	r = route("/");
	http_route_match_add(&t, &r);
	tap_ok(!strcmp(t.not_found, "not found: rdmad serves /"),
	       "one route: \"%s\"", t.not_found);
	r = route("/a");
	http_route_match_add(&t, &r);
	tap_ok(!strcmp(t.not_found, "not found: rdmad serves / and /a"),
	       "two routes: \"%s\"", t.not_found);
}

static void test_limits(void)
{
	struct http_param many[HTTP_PARAMS_MAX + 2];
	struct http_routes t;
	struct http_route r;
	char paths[HTTP_ROUTES_MAX + 1][8];
	unsigned int i;
	int ok = 1;

	http_route_match_init(&t);
	for (i = 0; i < HTTP_ROUTES_MAX; i++) {
		snprintf(paths[i], sizeof(paths[i]), "/%u", i);
		r = route(paths[i]);
		ok &= !http_route_match_add(&t, &r);
	}
	tap_ok(ok && t.n == HTTP_ROUTES_MAX, "HTTP_ROUTES_MAX (%d) routes "
	       "fit", HTTP_ROUTES_MAX);
	snprintf(paths[i], sizeof(paths[i]), "/%u", i);
	r = route(paths[i]);
	tap_ok(http_route_match_add(&t, &r) == -ENOSPC &&
	       t.n == HTTP_ROUTES_MAX, "one more: -ENOSPC");
	tap_ok(strlen(t.not_found) < sizeof(t.not_found) &&
	       !strncmp(t.not_found, "not found: rdmad serves /0, /1, ", 32),
	       "a full table's 404 text stays within its buffer");

	http_route_match_init(&t);
	for (i = 0; i < HTTP_PARAMS_MAX; i++)
		many[i] = (struct http_param){ "n", 0, 9,
					       mesh_render_number_parse };
	many[i] = (struct http_param){ NULL, 0, 0, NULL };
	r = route("/p");
	r.params = many;
	tap_ok(!http_route_match_add(&t, &r), "HTTP_PARAMS_MAX (%d) numbers "
	       "fit", HTTP_PARAMS_MAX);
	many[i] = (struct http_param){ "n", 0, 9, mesh_render_number_parse };
	many[i + 1] = (struct http_param){ NULL, 0, 0, NULL };
	r = route("/q");
	r.params = many;
	tap_ok(http_route_match_add(&t, &r) == -EINVAL && t.n == 1,
	       "one more number: -EINVAL");
	r = route("/m");
	r.methods = 0;
	tap_ok(http_route_match_add(&t, &r) == -EINVAL, "no method: -EINVAL");
	r = route("/s");
	r.serve = NULL;
	tap_ok(http_route_match_add(&t, &r) == -EINVAL, "no handler: -EINVAL");
}

static void test_allow(void)
{
	struct http_route r = route("/x");

	tap_ok(!strcmp(http_route_match_allow(&r), "GET, HEAD"),
	       "Allow of GET and HEAD");
	r.methods = HTTP_GET;
	tap_ok(!strcmp(http_route_match_allow(&r), "GET"),
	       "Allow of GET only (/probe)");
	r.methods = HTTP_HEAD;
	tap_ok(!strcmp(http_route_match_allow(&r), "HEAD"),
	       "Allow of HEAD only");
}

static void test_query(void)
{
	struct http_route r = route("/x");
	struct http_query q;

	r.formats = fmts;
	r.params = params;
	http_route_match_query_init(&r, &q);
	tap_ok(q.format == &fmts[0] && q.param[0] == 10 && q.param[1] == 0,
	       "an empty query: the first format, each number's default");
	tap_ok(!http_route_match_query(&r, "format", "text", &q) &&
	       q.format == &fmts[1], "format=text picks the second format");
	tap_ok(http_route_match_query(&r, "format", "xml", &q) == -EINVAL &&
	       q.format == &fmts[1], "format=xml: -EINVAL, format unchanged");
	tap_ok(!http_route_match_query(&r, "refresh", "3600", &q) &&
	       q.param[0] == 3600, "refresh=3600 (its max) taken");
	tap_ok(!http_route_match_query(&r, "refresh", "0", &q) &&
	       q.param[0] == 0, "refresh=0 (its min) taken");
	tap_ok(http_route_match_query(&r, "refresh", "3601", &q) == -EINVAL,
	       "refresh=3601 (max+1): -EINVAL");
	tap_ok(!http_route_match_query(&r, "from", "99999", &q) &&
	       q.param[1] == 99999, "from=99999 (its max) into the second "
	       "number");
	tap_ok(http_route_match_query(&r, "from", "100000", &q) == -EINVAL,
	       "from=100000 (max+1): -EINVAL");
	tap_ok(http_route_match_query(&r, "debug", "true", &q) == -EINVAL,
	       "a key the route does not take: -EINVAL");
	r.formats = NULL;
	http_route_match_query_init(&r, &q);
	tap_ok(!q.format && http_route_match_query(&r, "format", "json", &q) ==
	       -EINVAL, "a route without formats: no format, format= refused");
	r.params = NULL;
	tap_ok(http_route_match_query(&r, "refresh", "1", &q) == -EINVAL,
	       "a route without numbers refuses refresh=");
}

int main(void)
{
	tap_plan(29);
	test_daemon_table();
	test_two();
	test_limits();
	test_allow();
	test_query();
	return tap_done();
}
