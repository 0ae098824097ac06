/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http.c - rdmad's HTTP endpoint: libevent's evhttp on the daemon's one
 * event loop, bound to [http] listen (the loopback by default), answering
 * only the networks of [http] allow, with TLS and basic auth as [http]
 * web_config asks (http_tls.c, http_auth.c).
 *
 * The paths are a table the wings fill (http_route_add): each route names
 * its methods, its handler and its owner, the formats it renders
 * (format=NAME, an enum of its renderer) and the numbers its query takes.
 * The endpoint serves only / itself (index_render.c: rdmad, its version,
 * each route's line); rdmad.c adds /metrics and /status, the mesh wing
 * /peers and /mesh (mesh/view/mesh_http.c), the blackbox wing /probe
 * (blackbox/blackbox_http.c).  A refused request (403, 405, 400, 404,
 * 401, 429, TLS) is counted by reason and the ones an operator acts on
 * are logged, rate-limited (http_refuse.c).
 *
 * Every rendered answer (all but the one-line errors) is gzip-compressed
 * when the request's Accept-Encoding asks for it (http_reply.c).
 *
 * Requests are answered at once from the loop: rendering walks the live
 * connections and the counters, a few kilobytes, no I/O but the reply;
 * with 1,024 mesh peers /metrics is 2.5 MB and some 10 ms of CPU (124 KB
 * and some 6 ms more gzip-compressed)
 * (tests/bench/scrape-bench.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <sys/queue.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "core/acl_match.h"
#include "addr.h"
#include "http/http.h"
#include "http/http_auth.h"
#include "http/http_auth_check.h"
#include "http/http_tls.h"
#include "http/http_web.h"
#include "http/web_config_parse.h"
#include "http/http_refuse.h"
#include "http/http_reply.h"
#include "http/http_route_match.h"
#include "http/index_render.h"
#include "core/log.h"
#include "version.h"

#define HTTP_TIMEOUT_S		10
#define HTTP_MAX_HEADERS	8192
#define HTTP_MAX_BODY		1024

struct http {
	struct event_base *base;
	const struct rdmad_config *cfg;
	struct evhttp *eh;
	struct evhttp_bound_socket *bound;	/* serving now, NULL: off */
	struct config_listen addr;
	struct evhttp_bound_socket *next;	/* http_prepare()d */
	struct config_listen next_addr;
	int next_on;
	int prepared;
	int swapped;		/* prepared: bound closed for next's port */
	struct http_refuse refuse;		/* refused requests */
	/* [http] web_config: NULL when there is none, or no TLS */
	struct http_auth *auth;
	struct http_tls *tls;
	struct http_auth_gate *gate;		/* bcrypt off the loop */
	struct web_config_http hdrs;		/* http_server_config */
	struct web_config_http next_hdrs;
	struct http_auth *next_auth;		/* http_prepare()d */
	struct http_tls *next_tls;
	struct http_routes routes;		/* [0]: / */
};

/* Q (its defaults set) from QUERY as route R takes it; -EINVAL for
 * anything else. */
static int http_query_parse(const struct http_route *r, const char *query,
			    struct http_query *q)
{
	struct evkeyvalq kv;
	struct evkeyval *e;
	int ret = 0;

	if (!query || !*query)
		return 0;
	TAILQ_INIT(&kv);
	if (evhttp_parse_query_str(query, &kv))
		return -EINVAL;
	TAILQ_FOREACH(e, &kv, next)
		if (http_route_match_query(r, e->key, e->value, q))
			ret = -EINVAL;
	evhttp_clear_headers(&kv);
	return ret;
}

/* The page at /: rdmad, its version, each route with its line. */
static int http_index_render(FILE *f, const void *arg, int unused)
{
	const struct http *h = arg;
	struct index_entry e[HTTP_ROUTES_MAX];
	unsigned int i, n = 0;

	for (i = 0; i < h->routes.n; i++)
		if (h->routes.r[i].what)
			e[n++] = (struct index_entry){ h->routes.r[i].path,
						       h->routes.r[i].what };
	return index_render(f, RDMAD_VERSION, e, n);
}

static void http_index_serve(void *owner, struct evhttp_request *req,
			const struct http_query *q)
{
	http_reply_render(req, "text/html; charset=utf-8", http_index_render,
			  owner, 0);
}

int http_route_add(struct http *h, const struct http_route *r)
{
	return http_route_match_add(&h->routes, r);
}

const uint64_t *http_refused(const struct http *h)
{
	return h->refuse.n;
}

/* http_tls's report of a connection it refused. */
static void http_tls_refused(void *arg, enum stats_http_refusal why,
			     const struct sockaddr *peer)
{
	struct http *h = arg;

	http_refuse_count(&h->refuse, why, peer);
}

/* http_tls asks, before any TLS work, whether PEER may go on: [http]
 * allow (the same list request_cb checks on plain HTTP). */
static int http_tls_admit(void *arg, const struct sockaddr *peer)
{
	struct http *h = arg;

	return acl_match(&h->cfg->http_allow, peer);
}

/* The answer to a request whose credentials were checked (R): 0 to go
 * on, or -1 after the refusal is answered. */
static int http_auth_answer(struct http *h, struct evhttp_request *req,
			    enum http_auth_result r)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);
	struct evhttp_connection *ec = evhttp_request_get_connection(req);
	const struct sockaddr *sa = ec ? evhttp_connection_get_addr(ec) : NULL;

	switch (r) {
	case HTTP_AUTH_OK:
	case HTTP_AUTH_VERIFY:	/* not an answer */
		return 0;
	case HTTP_AUTH_BUSY:
		http_refuse_count(&h->refuse, STATS_HTTP_AUTH_BUSY, sa);
		evhttp_add_header(out, "Retry-After", "1");
		http_reply_text(req, 429, "Too Many Requests", "too many "
				"password checks: try again in a second");
		return -1;
	case HTTP_AUTH_MISSING:
		http_refuse_count(&h->refuse, STATS_HTTP_AUTH_MISSING, sa);
		break;
	case HTTP_AUTH_WRONG:
		http_refuse_count(&h->refuse, STATS_HTTP_AUTH_WRONG, sa);
		break;
	}
	evhttp_add_header(out, "WWW-Authenticate", "Basic realm=\"rdmad\"");
	http_reply_text(req, 401, "Unauthorized", "unauthorized: rdmad's "
			"endpoint asks for a user and password");
	return -1;
}

static void http_serve(struct http *h, struct evhttp_request *req);

/* The asker of a request waiting for its bcrypt went away. */
static void http_auth_left(struct evhttp_connection *ec, void *arg)
{
	http_auth_gate_cancel(arg);
}

/* The gate's answer to a request that waited for its bcrypt. */
static void http_auth_done(void *arg, void *r, enum http_auth_result res)
{
	struct evhttp_request *req = r;
	struct http *h = arg;

	evhttp_connection_set_closecb(evhttp_request_get_connection(req),
				      NULL, NULL);
	if (!http_auth_answer(h, req, res))
		http_serve(h, req);
}

/* With TLS on, a connection that is not TLS (the bufferevent could not
 * be made, so evhttp made a plain one) is refused. */
static int http_is_tls(struct evhttp_connection *ec)
{
	struct bufferevent *bev = ec ? evhttp_connection_get_bufferevent(ec) :
				  NULL;

	return bev && bufferevent_openssl_get_ssl(bev);
}

static void request_cb(struct evhttp_request *req, void *arg)
{
	struct http *h = arg;
	struct evhttp_connection *ec = evhttp_request_get_connection(req);
	const struct sockaddr *sa = ec ? evhttp_connection_get_addr(ec) : NULL;
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);
	struct http_auth_wait *w;
	enum http_auth_result r;
	unsigned int i;

	/* http_server_config's headers, on every answer (as
	 * exporter-toolkit sets them before its checks) */
	for (i = 0; i < h->hdrs.n_headers; i++)
		evhttp_add_header(out, h->hdrs.headers[i].name,
				  h->hdrs.headers[i].value);
	if (!sa || !acl_match(&h->cfg->http_allow, sa)) {
		http_refuse_count(&h->refuse, STATS_HTTP_FORBIDDEN, sa);
		http_reply_text(req, 403, "Forbidden", "forbidden: your address "
				"is not in rdmad's [http] allow list");
		return;
	}
	if (h->tls && !http_is_tls(ec)) {
		http_refuse_count(&h->refuse, STATS_HTTP_TLS_PLAINTEXT, sa);
		http_reply_text(req, 400, "Bad Request", "this endpoint speaks "
				"TLS: use https://");
		return;
	}
	/* a bcrypt runs off the loop: the answer comes later */
	r = http_auth_gate_check(h->gate, evhttp_find_header(
			evhttp_request_get_input_headers(req), "Authorization"),
			req, &w);
	if (r == HTTP_AUTH_VERIFY) {
		evhttp_connection_set_closecb(ec, http_auth_left, w);
		return;
	}
	if (!http_auth_answer(h, req, r))
		http_serve(h, req);
}

/* A request let in: its method and path. */
static void http_serve(struct http *h, struct evhttp_request *req)
{
	struct evhttp_connection *ec = evhttp_request_get_connection(req);
	const struct sockaddr *sa = ec ? evhttp_connection_get_addr(ec) : NULL;
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *path = uri ? evhttp_uri_get_path(uri) : NULL;
	const struct http_route *r;
	struct http_query q;

	if (evhttp_request_get_command(req) != EVHTTP_REQ_GET &&
	    evhttp_request_get_command(req) != EVHTTP_REQ_HEAD) {
		http_refuse_count(&h->refuse, STATS_HTTP_METHOD, sa);
		evhttp_add_header(evhttp_request_get_output_headers(req),
				  "Allow", "GET, HEAD");
		http_reply_text(req, 405, "Method Not Allowed", "method not "
				"allowed: rdmad answers GET and HEAD only");
		return;
	}
	if (!path || !*path)
		path = "/";
	r = http_route_match_find(&h->routes, path);
	if (!r) {
		http_refuse_count(&h->refuse, STATS_HTTP_NOT_FOUND, sa);
		http_reply_text(req, 404, "Not Found", h->routes.not_found);
		return;
	}
	/* GET or HEAD, which the route does not take (HEAD /probe would run
	 * a probe): its own 405, not a refusal */
	if (!(r->methods & (evhttp_request_get_command(req) == EVHTTP_REQ_GET ?
			    HTTP_GET : HTTP_HEAD))) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
				  "Allow", http_route_match_allow(r));
		http_reply_text(req, 405, "Method Not Allowed", r->not_method);
		return;
	}
	http_route_match_query_init(r, &q);
	if (r->usage && http_query_parse(r, uri ?
			evhttp_uri_get_query(uri) : NULL, &q)) {
		http_refuse_count(&h->refuse, STATS_HTTP_BAD_QUERY, sa);
		http_reply_text(req, 400, "Bad Request", r->usage);
		return;
	}
	r->serve(r->owner, req, &q);
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
	if (!b) {
		int e = errno;

		snprintf(err, errlen, "[http] listen %s: cannot listen: %s "
			 "(another process on that port? set [http] listen "
			 "to a free ADDRESS:PORT, or off)", a->text,
			 e ? strerror(e) : "bind failed");
		errno = e;
	}
	return b;
}

static uint16_t listen_port(const struct config_listen *a)
{
	char host[INET6_ADDRSTRLEN];
	uint16_t port = 0;

	addr_split((const struct sockaddr *)&a->addr, host, sizeof(host),
		   &port);
	return port;
}

/* Listen on the old address again (a reload that swapped was refused). */
static void rebind_old(struct http *h)
{
	char err[256];

	h->bound = bind_addr(h, &h->addr, err, sizeof(err));
	if (!h->bound)
		log_err("reload: status and metrics endpoint off: %s", err);
}

/* WC built for H (http_web_build): its TLS connections admitted by
 * [http] allow and their refusals counted here. */
static int http_web_build_for(struct http *h, const char *path,
			      const struct web_config *wc,
			      struct http_auth **auth, struct http_tls **tls,
			      struct web_config_http *hdrs, char *err,
			      size_t errlen)
{
	const struct http_tls_owner owner = { http_tls_admit,
					      http_tls_refused, h };

	return http_web_build(path, wc, &owner, auth, tls, hdrs, err, errlen);
}

/* Serve with AUTH, TLS and HDRS from now on (the old ones are freed). */
static void http_web_apply(struct http *h, struct http_auth *auth,
			   struct http_tls *tls,
			   const struct web_config_http *hdrs)
{
	h->hdrs = *hdrs;
	http_auth_gate_set(h->gate, auth);
	http_auth_check_free(h->auth);
	http_tls_free(h->tls);
	h->auth = auth;
	h->tls = tls;
	if (tls)
		evhttp_set_bevcb(h->eh, http_tls_bevcb, tls);
	else
		evhttp_set_bevcb(h->eh, NULL, NULL);
}

int http_start(struct http **out, struct event_base *base,
	       const struct rdmad_config *cfg, const struct web_config *wc,
	       char *err, size_t errlen)
{
	const struct http_route root = {
		.path = "/", .methods = HTTP_GET | HTTP_HEAD,
		.serve = http_index_serve,
	};
	struct web_config_http hdrs;
	struct http_auth *auth;
	struct http_tls *tls;
	struct http *h;
	int ret;

	h = calloc(1, sizeof(*h));
	if (!h) {
		snprintf(err, errlen, "[http]: out of memory");
		return -ENOMEM;
	}
	h->base = base;
	h->cfg = cfg;
	h->eh = http_refuse_init(&h->refuse, base) ||
		http_auth_gate_new(&h->gate, base, http_auth_done, h) ? NULL :
		evhttp_new(base);
	if (!h->eh) {
		http_auth_gate_free(h->gate);
		http_refuse_fini(&h->refuse);
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
	http_route_match_init(&h->routes);
	http_route_match_add(&h->routes, &root);
	h->routes.r[0].owner = h;
	ret = http_web_build_for(h, cfg->http_web_config, wc, &auth, &tls, &hdrs,
			     err, errlen);
	if (ret) {
		http_stop(h);
		*out = NULL;
		return ret;
	}
	http_web_apply(h, auth, tls, &hdrs);
	if (!cfg->http_on)
		return 0;
	h->bound = bind_addr(h, &cfg->http_listen, err, errlen);
	if (!h->bound) {
		http_stop(h);
		*out = NULL;
		return -EADDRNOTAVAIL;
	}
	h->addr = cfg->http_listen;
	log_info("status and metrics on http%s://%s/ (/, /status, /metrics, "
		 "/peers, /mesh)%s",
		 h->tls ? "s" : "", h->addr.text,
		 h->auth ? ", basic auth" : "");
	return 0;
}

void http_stop(struct http *h)
{
	if (!h)
		return;
	evhttp_free(h->eh);	/* closes the sockets and connections */
	http_auth_gate_free(h->gate);	/* after: their requests are gone */
	http_auth_check_free(h->auth);
	http_tls_free(h->tls);
	http_auth_check_free(h->next_auth);
	http_tls_free(h->next_tls);
	http_refuse_fini(&h->refuse);
	free(h);
}

int http_prepare(struct http *h, const struct rdmad_config *cfg,
		 const struct web_config *wc, char *err, size_t errlen)
{
	http_auth_check_free(h->next_auth);
	http_tls_free(h->next_tls);
	h->next_auth = NULL;
	h->next_tls = NULL;
	if (http_web_build_for(h, cfg->http_web_config, wc, &h->next_auth,
			   &h->next_tls, &h->next_hdrs, err, errlen))
		return -EINVAL;
	h->prepared = 1;
	h->swapped = 0;
	h->next = NULL;
	h->next_on = cfg->http_on;
	h->next_addr = cfg->http_listen;
	if (!cfg->http_on ||
	    (h->bound && config_listen_equal(&h->addr, &cfg->http_listen)))
		return 0;
	h->next = bind_addr(h, &cfg->http_listen, err, errlen);
	/* The wildcard and an address on the same port cannot listen side
	 * by side: the old socket closes first, and listens again if the
	 * new address fails or the reload is rolled back. */
	if (!h->next && errno == EADDRINUSE && h->bound &&
	    listen_port(&h->addr) == listen_port(&cfg->http_listen)) {
		evhttp_del_accept_socket(h->eh, h->bound);
		h->bound = NULL;
		h->swapped = 1;
		h->next = bind_addr(h, &cfg->http_listen, err, errlen);
	}
	if (!h->next) {
		if (h->swapped)
			rebind_old(h);
		h->swapped = 0;
		h->prepared = 0;
		http_auth_check_free(h->next_auth);
		http_tls_free(h->next_tls);
		h->next_auth = NULL;
		h->next_tls = NULL;
		return -EADDRNOTAVAIL;
	}
	return 0;
}

void http_commit(struct http *h)
{
	if (!h->prepared)
		return;
	h->prepared = 0;
	h->swapped = 0;
	/* web_config: re-read at each reload (new users, a new pair) */
	http_web_apply(h, h->next_auth, h->next_tls, &h->next_hdrs);
	h->next_auth = NULL;
	h->next_tls = NULL;
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
	log_notice("reload: status and metrics now on http%s://%s/",
		   h->tls ? "s" : "", h->addr.text);
}

void http_rollback(struct http *h)
{
	if (!h->prepared)
		return;
	h->prepared = 0;
	http_auth_check_free(h->next_auth);
	http_tls_free(h->next_tls);
	h->next_auth = NULL;
	h->next_tls = NULL;
	if (h->next)
		evhttp_del_accept_socket(h->eh, h->next);
	h->next = NULL;
	if (h->swapped)
		rebind_old(h);
	h->swapped = 0;
}
