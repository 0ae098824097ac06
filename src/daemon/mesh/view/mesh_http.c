/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_http.c - the mesh's routes (mesh_http.h):
 *
 *   GET /peers                the mesh agent's peers, JSON
 *   GET /peers?format=text    the same for people (rdmadctl mesh)
 *   GET /peers?format=matrix  peers by sizes (rdmadctl mesh --matrix)
 *   GET /mesh[?refresh=S][&from=N]
 *                             the mesh as a heatmap, HTML, at most
 *                             MESH_RENDER_PEERS_MAX peers a page
 *
 * Each answer is the agent's view of the moment (mesh_agent_view),
 * rendered by mesh_render() in the format the route table chose.
 */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "http/http_reply.h"
#include "mesh/mesh_stats.h"
#include "mesh/view/mesh_http.h"
#include "mesh/view/mesh_render.h"

#define CT_TEXT	"text/plain; charset=utf-8"
#define CT_JSON	"application/json"

static const struct http_format mesh_http_peers_formats[] = {
	{ "json", MESH_FORMAT_JSON, CT_JSON },
	{ "text", MESH_FORMAT_TEXT, CT_TEXT },
	{ "matrix", MESH_FORMAT_MATRIX, CT_TEXT },
	{ NULL, 0, NULL },
};

/* /mesh has one format, which its query does not name. */
static const struct http_format mesh_http_page =
	{ "html", MESH_FORMAT_PAGE, "text/html; charset=utf-8" };

/* /mesh's query: param[0] refresh=S, param[1] from=N. */
static const struct http_param mesh_http_page_params[] = {
	{ "refresh", MESH_RENDER_REFRESH_DEFAULT, MESH_RENDER_REFRESH_MAX,
	  mesh_render_number_parse },
	{ "from", 0, MESH_RENDER_FROM_MAX, mesh_render_number_parse },
	{ NULL, 0, 0, NULL },
};

/* What a render gets: the view and the query. */
struct mesh_http_render {
	const struct mesh_view *mesh;
	const struct http_query *q;
};

static int mesh_http_render(FILE *f, const void *arg, int fmt)
{
	const struct mesh_http_render *r = arg;
	struct mesh_render_opts o = { "", time(NULL), 0, 0 };
	char host[256] = "";

	if (fmt == MESH_FORMAT_PAGE) {
		o.refresh_s = r->q->param[0];
		o.from = r->q->param[1];
		if (!gethostname(host, sizeof(host) - 1))
			o.host = host;
	}
	return mesh_render(f, r->mesh, (enum mesh_format)fmt, &o);
}

/* /peers in each of its formats, /mesh (no format=: the page). */
static void mesh_http_serve(void *owner, struct evhttp_request *req,
			    const struct http_query *q)
{
	const struct http_format *fm = q->format ? q->format : &mesh_http_page;
	struct mesh_view mv;
	struct mesh_http_render r = { &mv, q };

	memset(&mv, 0, sizeof(mv));
	mesh_agent_view(owner, &mv);
	http_reply_render(req, fm->ctype, mesh_http_render, &r, fm->fmt);
}

int mesh_http_routes(struct http *h, struct mesh_agent *a)
{
	const struct http_route peers = {
		.path = "/peers",
		.methods = HTTP_GET | HTTP_HEAD,
		.serve = mesh_http_serve,
		.owner = a,
		.formats = mesh_http_peers_formats,
		.usage = "bad query: the only parameter is "
			 "format=json|text|matrix",
		.what = "the mesh agent's peers and their paths, JSON "
			"(?format=text, ?format=matrix)",
	};
	const struct http_route page = {
		.path = "/mesh",
		.methods = HTTP_GET | HTTP_HEAD,
		.serve = mesh_http_serve,
		.owner = a,
		.params = mesh_http_page_params,
		.usage = "bad query: the parameters are refresh=SECONDS, 0 "
			 "(no reload) or 1..3600, and from=N, the first peer "
			 "shown (0..99999)",
		.what = "the mesh as a heatmap page",
	};
	int ret;

	ret = http_route_add(h, &peers);
	return ret ? ret : http_route_add(h, &page);
}
