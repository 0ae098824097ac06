// SPDX-License-Identifier: BSD-2-Clause
/*
 * rdmad_pages - GET /metrics and GET /status (rdmad_pages.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "blackbox/blackbox_http.h"
#include "core/config.h"
#include "core/proc_self.h"
#include "http/http.h"
#include "http/http_reply.h"
#include "mesh/mesh_agent.h"
#include "mesh/view/mesh_http.h"
#include "metrics_render.h"
#include "rdmad_pages.h"
#include "serve/conn_set.h"
#include "serve/status_render.h"

#define RDMAD_PAGES_CONNS_SHOWN	4096	/* /status lists at most this many */

static int rdmad_pages_render_metrics(FILE *f, const void *v, int fmt)
{
	return metrics_render(f, v, (enum metrics_format)fmt);
}

/* GET /metrics: the daemon's families, the endpoint's refusals, the
 * mesh's (metrics_render.c). */
static void rdmad_pages_metrics(void *arg, struct evhttp_request *req,
				const struct http_query *q)
{
	const char *acc = evhttp_find_header(
		evhttp_request_get_input_headers(req), "Accept");
	enum metrics_format fmt = metrics_negotiate(acc);
	struct stats_listener ls[CONFIG_MAX_LISTEN];
	struct rdmad_pages *p = arg;
	struct proc_self ps;
	struct mesh_view mv;
	struct stats_view v;

	p->view(p->arg, &v, ls, NULL, 0);
	memset(&mv, 0, sizeof(mv));
	if (*p->mesh)
		mesh_agent_view(*p->mesh, &mv);
	v.mesh = &mv;
	v.proc = proc_self_read(&ps) ? NULL : &ps;
	v.http_refused = http_refused(p->http);
	http_reply_render(req, metrics_content_type(fmt),
			  rdmad_pages_render_metrics, &v, (int)fmt);
}

static int rdmad_pages_render_status(FILE *f, const void *v, int fmt)
{
	return status_render(f, v, (enum status_format)fmt);
}

/* GET /status: the served side's state and live connections
 * (status_render.c). */
static void rdmad_pages_status(void *arg, struct evhttp_request *req,
			       const struct http_query *q)
{
	struct stats_listener ls[CONFIG_MAX_LISTEN];
	struct rdmad_pages *p = arg;
	struct stats_conn *conns;
	struct stats_view v;
	unsigned int n;

	/* As many rows as there are connections (+1: never 0). */
	n = conn_set_count(p->conns);
	if (n > RDMAD_PAGES_CONNS_SHOWN)
		n = RDMAD_PAGES_CONNS_SHOWN;
	conns = calloc(n + 1, sizeof(*conns));
	if (!conns) {
		http_reply_text(req, 500, "Internal Server Error",
				"out of memory");
		return;
	}
	p->view(p->arg, &v, ls, conns, n);
	http_reply_render(req, q->format->ctype, rdmad_pages_render_status,
			  &v, q->format->fmt);
	free(conns);
}

static const struct http_format rdmad_pages_status_formats[] = {
	{ "json", STATUS_FORMAT_JSON, "application/json" },
	{ "text", STATUS_FORMAT_TEXT, "text/plain; charset=utf-8" },
	{ NULL, 0, NULL },
};

int rdmad_pages_routes(struct rdmad_pages *p)
{
	const struct http_route metrics = {
		.path = "/metrics",
		.methods = HTTP_GET | HTTP_HEAD,
		.serve = rdmad_pages_metrics,
		.owner = p,
		.what = "metrics for Prometheus (text format, or OpenMetrics "
			"when asked)",
	};
	const struct http_route status = {
		.path = "/status",
		.methods = HTTP_GET | HTTP_HEAD,
		.serve = rdmad_pages_status,
		.owner = p,
		.formats = rdmad_pages_status_formats,
		.usage = "bad query: the only parameter is format=json|text",
		.what = "the daemon's state and live connections, JSON "
			"(?format=text for people)",
	};
	int ret;

	ret = http_route_add(p->http, &metrics);
	if (!ret)
		ret = http_route_add(p->http, &status);
	if (!ret)
		ret = mesh_http_routes(p->http, *p->mesh);
	if (!ret)
		ret = blackbox_http_routes(p->http, p->probes);
	return ret;
}
