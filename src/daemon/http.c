/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http.c - rdmad's status and metrics endpoint: libevent's evhttp on the
 * daemon's one event loop, bound to [http] listen (the loopback by
 * default), answering only the networks of [http] allow.
 *
 *   GET /metrics              Prometheus text, or OpenMetrics when the
 *                             Accept header asks for it (metrics.c)
 *   GET /status               JSON document (status.c)
 *   GET /status?format=text   the same for people (rdmadctl status)
 *   GET /peers                the mesh agent's peers, JSON (status.c)
 *   GET /peers?format=text    the same for people (rdmadctl mesh)
 *   GET /peers?format=matrix  peers by sizes (rdmadctl mesh --matrix)
 *   GET /mesh[?refresh=S]     the mesh as a heatmap, HTML (mesh_page.c)
 *   GET /probe?target=HOST:PORT[&module=NAME]
 *                             one RDMA probe of the target, answered when
 *                             it is over (blackbox.h, http_probe.c),
 *                             Prometheus text
 *
 * Requests are answered at once from the loop: rendering walks the live
 * connections and the counters, a few kilobytes, no I/O but the reply;
 * with 1,024 mesh peers /metrics is 2.5 MB and some 10 ms of CPU
 * (tests/bench/scrape-bench.c).
 */
#include <errno.h>
#include <sys/queue.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "acl.h"
#include "addr.h"
#include "proto.h"
#include "http.h"
#include "http_probe.h"
#include "http_reply.h"
#include "log.h"
#include "mesh_page.h"
#include "mesh_stats.h"
#include "metrics.h"
#include "status.h"

#define HTTP_TIMEOUT_S		10
#define HTTP_MAX_HEADERS	8192
#define HTTP_MAX_BODY		1024
#define HTTP_MAX_CONNS_SHOWN	4096	/* status lists at most this many */

struct http {
	struct event_base *base;
	const struct rdmad_config *cfg;
	const struct http_ops *ops;
	void *arg;
	struct evhttp *eh;
	struct evhttp_bound_socket *bound;	/* serving now, NULL: off */
	struct config_listen addr;
	struct evhttp_bound_socket *next;	/* http_prepare()d */
	struct config_listen next_addr;
	int next_on;
	int prepared;
};

static int render_metrics(FILE *f, const void *v, int fmt)
{
	return metrics_render(f, v, (enum metrics_format)fmt);
}

static int render_status(FILE *f, const void *v, int text)
{
	return text ? status_render_text(f, v) : status_render_json(f, v);
}

static int render_peers(FILE *f, const void *arg, int text)
{
	const struct stats_view *v = arg;

	if (text == 2)
		return mesh_page_render_matrix(f, v->mesh);
	return text ? status_render_mesh_text(f, v->mesh) :
		      status_render_mesh_json(f, v->mesh);
}

static int render_mesh_page(FILE *f, const void *arg, int refresh)
{
	const struct stats_view *v = arg;
	struct mesh_page_opts o = { "", time(NULL), (unsigned int)refresh };
	char host[256] = "";

	if (!gethostname(host, sizeof(host) - 1))
		o.host = host;
	return mesh_page_render(f, v->mesh, &o);
}

/* ?refresh=S of GET /mesh (0..3600, MESH_PAGE_REFRESH_DEFAULT if not
 * given); other keys are refused. */
static int mesh_query(const char *query, unsigned int *refresh)
{
	struct evkeyvalq q;
	struct evkeyval *kv;
	int ret = 0;

	*refresh = MESH_PAGE_REFRESH_DEFAULT;
	TAILQ_INIT(&q);
	if (query && evhttp_parse_query_str(query, &q))
		return -EINVAL;
	TAILQ_FOREACH(kv, &q, next)
		if (strcmp(kv->key, "refresh") ||
		    mesh_page_refresh_parse(kv->value, refresh))
			ret = -EINVAL;
	evhttp_clear_headers(&q);
	return ret;
}

/* The mesh agent's view into MV (off when the owner has none). */
static const struct mesh_view *http_mesh(struct http *h, struct mesh_view *mv)
{
	memset(mv, 0, sizeof(*mv));
	if (h->ops->mesh_view)
		h->ops->mesh_view(h->arg, mv);
	return mv;
}

/* "format=text" in the query (1; MATRIX: "format=matrix" too, 2);
 * other keys and values are refused. */
static int status_wants_text(const char *query, int *text, int matrix)
{
	struct evkeyvalq q;
	struct evkeyval *kv;
	int ret = 0;

	*text = 0;
	if (!query || !*query)
		return 0;
	TAILQ_INIT(&q);
	if (evhttp_parse_query_str(query, &q))
		return -EINVAL;
	TAILQ_FOREACH(kv, &q, next) {
		if (strcmp(kv->key, "format"))
			ret = -EINVAL;
		else if (!strcmp(kv->value, "text"))
			*text = 1;
		else if (matrix && !strcmp(kv->value, "matrix"))
			*text = 2;
		else if (strcmp(kv->value, "json"))
			ret = -EINVAL;
	}
	evhttp_clear_headers(&q);
	return ret;
}

static void request_cb(struct evhttp_request *req, void *arg)
{
	struct http *h = arg;
	struct evhttp_connection *ec = evhttp_request_get_connection(req);
	const struct sockaddr *sa = ec ? evhttp_connection_get_addr(ec) : NULL;
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *path = uri ? evhttp_uri_get_path(uri) : NULL;
	struct stats_listener ls[CONFIG_MAX_LISTEN];
	struct stats_conn *conns = NULL;
	struct mesh_view mv;
	struct stats_view v;
	char peer[INET6_ADDRSTRLEN];
	uint16_t port;
	unsigned int n;
	int text;

	if (!sa || !acl_match(&h->cfg->http_allow, sa)) {
		addr_split(sa, peer, sizeof(peer), &port);
		log_notice("http: request from %s refused: not in [http] "
			   "allow", peer);
		http_reply_text(req, 403, "Forbidden", "forbidden: your address is "
			   "not in rdmad's [http] allow list");
		return;
	}
	if (evhttp_request_get_command(req) != EVHTTP_REQ_GET &&
	    evhttp_request_get_command(req) != EVHTTP_REQ_HEAD) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
				  "Allow", "GET, HEAD");
		http_reply_text(req, 405, "Method Not Allowed", "method not "
			   "allowed: rdmad answers GET and HEAD only");
		return;
	}
	if (!path || !*path)
		path = "/";
	if (!strcmp(path, "/metrics")) {
		const char *acc = evhttp_find_header(
			evhttp_request_get_input_headers(req), "Accept");
		enum metrics_format fmt = metrics_negotiate(acc);

		memset(&v, 0, sizeof(v));
		h->ops->view(h->arg, &v, ls, NULL, 0);
		v.mesh = http_mesh(h, &mv);
		http_reply_render(req, metrics_content_type(fmt), render_metrics,
			     &v, (int)fmt);
		return;
	}
	if (!strcmp(path, "/peers")) {
		if (status_wants_text(evhttp_uri_get_query(uri), &text, 1)) {
			http_reply_text(req, 400, "Bad Request", "bad query: the "
				   "only parameter is format=json|text|matrix");
			return;
		}
		memset(&v, 0, sizeof(v));
		v.mesh = http_mesh(h, &mv);
		http_reply_render(req, text ? "text/plain; charset=utf-8" :
			     "application/json", render_peers, &v, text);
		return;
	}
	if (!strcmp(path, "/mesh")) {
		unsigned int refresh;

		if (mesh_query(evhttp_uri_get_query(uri), &refresh)) {
			http_reply_text(req, 400, "Bad Request", "bad query: the "
				   "only parameter is refresh=SECONDS, 0 (no "
				   "reload) or 1..3600");
			return;
		}
		memset(&v, 0, sizeof(v));
		v.mesh = http_mesh(h, &mv);
		http_reply_render(req, "text/html; charset=utf-8", render_mesh_page,
			     &v, (int)refresh);
		return;
	}
	if (!strcmp(path, "/probe")) {
		http_probe_request(h->base, h->cfg, h->ops->probe,
				   h->ops->probe_cancel, h->arg, req, uri);
		return;
	}
	if (!strcmp(path, "/status")) {
		if (status_wants_text(evhttp_uri_get_query(uri), &text, 0)) {
			http_reply_text(req, 400, "Bad Request", "bad query: the "
				   "only parameter is format=json|text");
			return;
		}
		/* As many rows as there are connections (+1: never 0). */
		n = h->ops->n_conns(h->arg);
		if (n > HTTP_MAX_CONNS_SHOWN)
			n = HTTP_MAX_CONNS_SHOWN;
		conns = calloc(n + 1, sizeof(*conns));
		if (!conns) {
			http_reply_text(req, 500, "Internal Server Error",
				   "out of memory");
			return;
		}
		memset(&v, 0, sizeof(v));
		h->ops->view(h->arg, &v, ls, conns, n);
		http_reply_render(req, text ? "text/plain; charset=utf-8" :
			     "application/json", render_status, &v, text);
		free(conns);
		return;
	}
	http_reply_text(req, 404, "Not Found", "not found: rdmad serves /metrics, "
		   "/status, /peers, /mesh and /probe");
}

/* Bind ADDR on h->eh; the handle, or NULL with ERR filled in. */
static struct evhttp_bound_socket *bind_addr(struct http *h,
					     const struct config_listen *a,
					     char *err, size_t errlen)
{
	struct evhttp_bound_socket *b;
	char host[INET6_ADDRSTRLEN] = "";
	uint16_t port;

	addr_split((const struct sockaddr *)&a->addr, host, sizeof(host),
		   &port);
	errno = 0;
	b = evhttp_bind_socket_with_handle(h->eh, host, port);
	if (!b)
		snprintf(err, errlen, "[http] listen %s: cannot listen: %s "
			 "(another process on that port? set [http] listen "
			 "to a free ADDRESS:PORT, or off)", a->text,
			 errno ? strerror(errno) : "bind failed");
	return b;
}

int http_start(struct http **out, struct event_base *base,
	       const struct rdmad_config *cfg, const struct http_ops *ops,
	       void *arg, char *err, size_t errlen)
{
	struct http *h;

	h = calloc(1, sizeof(*h));
	if (!h) {
		snprintf(err, errlen, "[http]: out of memory");
		return -ENOMEM;
	}
	h->base = base;
	h->cfg = cfg;
	h->ops = ops;
	h->arg = arg;
	h->eh = evhttp_new(base);
	if (!h->eh) {
		free(h);
		snprintf(err, errlen, "[http]: cannot create the server");
		return -ENOMEM;
	}
	/* Every method libevent knows reaches request_cb, which answers
	 * 405 to all but GET and HEAD (libevent itself would say 501). */
	evhttp_set_allowed_methods(h->eh, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD |
				   EVHTTP_REQ_POST | EVHTTP_REQ_PUT |
				   EVHTTP_REQ_DELETE | EVHTTP_REQ_OPTIONS |
				   EVHTTP_REQ_TRACE | EVHTTP_REQ_CONNECT |
				   EVHTTP_REQ_PATCH);
	evhttp_set_timeout(h->eh, HTTP_TIMEOUT_S);
	evhttp_set_max_headers_size(h->eh, HTTP_MAX_HEADERS);
	evhttp_set_max_body_size(h->eh, HTTP_MAX_BODY);
	evhttp_set_gencb(h->eh, request_cb, h);
	*out = h;
	if (!cfg->http_on)
		return 0;
	h->bound = bind_addr(h, &cfg->http_listen, err, errlen);
	if (!h->bound) {
		http_stop(h);
		*out = NULL;
		return -EADDRNOTAVAIL;
	}
	h->addr = cfg->http_listen;
	log_info("status and metrics on http://%s/ (/status, /metrics, "
		 "/peers, /mesh)",
		 h->addr.text);
	return 0;
}

void http_stop(struct http *h)
{
	if (!h)
		return;
	evhttp_free(h->eh);	/* closes the sockets and connections */
	free(h);
}

int http_prepare(struct http *h, const struct rdmad_config *cfg, char *err,
		 size_t errlen)
{
	h->prepared = 1;
	h->next = NULL;
	h->next_on = cfg->http_on;
	h->next_addr = cfg->http_listen;
	if (!cfg->http_on ||
	    (h->bound && config_listen_equal(&h->addr, &cfg->http_listen)))
		return 0;
	h->next = bind_addr(h, &cfg->http_listen, err, errlen);
	if (!h->next) {
		h->prepared = 0;
		return -EADDRNOTAVAIL;
	}
	return 0;
}

void http_commit(struct http *h)
{
	if (!h->prepared)
		return;
	h->prepared = 0;
	if (!h->next_on) {
		if (h->bound) {
			evhttp_del_accept_socket(h->eh, h->bound);
			log_notice("reload: status and metrics endpoint %s "
				   "closed ([http] listen = off)",
				   h->addr.text);
		}
		h->bound = NULL;
		return;
	}
	if (!h->next)
		return;		/* same address */
	if (h->bound)
		evhttp_del_accept_socket(h->eh, h->bound);
	h->bound = h->next;
	h->next = NULL;
	h->addr = h->next_addr;
	log_notice("reload: status and metrics now on http://%s/",
		   h->addr.text);
}

void http_rollback(struct http *h)
{
	if (!h->prepared)
		return;
	h->prepared = 0;
	if (h->next)
		evhttp_del_accept_socket(h->eh, h->next);
	h->next = NULL;
}
