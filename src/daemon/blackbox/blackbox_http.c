/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blackbox_http.c - GET /probe?target=HOST:PORT[&module=NAME][&debug=true]
 * of rdmad's HTTP endpoint (http.c): one RDMA probe of the target by
 * blackbox.c, answered when it is over in Prometheus text (at the latest
 * when its timeout passes: the module's, bounded by the scrape's header),
 * or with debug=true its steps; a client that leaves first aborts it.
 * As blackbox_exporter: a probe that ran, or could not (busy), answers
 * 200 with probe_success 0 and why; only a malformed request gets 400.
 * HEAD runs nothing: 405 (the route takes GET only).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include <event2/bufferevent.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "blackbox/blackbox_http.h"
#include "http/http_reply.h"
#include "http/http_tls.h"

#define STR(x)	#x
#define XSTR(x)	STR(x)

static int blackbox_http_render(FILE *f, const void *r, int unused)
{
	return blackbox_render(f, r);
}

struct blackbox_http {
	struct blackbox_ask ask;
	struct evhttp_request *req;
	struct evhttp_connection *ec;
	struct blackbox_probe *bp;
	struct event *watch;	/* the client's socket, for its close */
};

static void blackbox_http_end(struct blackbox_http *hp)
{
	evhttp_connection_set_closecb(hp->ec, NULL, NULL);
	if (hp->watch)
		event_free(hp->watch);
	hp->watch = NULL;
}

struct debug_arg {
	const struct blackbox_result *r;
	const struct blackbox_ask *ask;
};

static int blackbox_http_render_debug(FILE *f, const void *arg, int unused)
{
	const struct debug_arg *d = arg;

	return blackbox_render_debug(f, d->r, d->ask);
}

/* The answer to ASK: its metrics, or its steps. */
static void blackbox_http_reply(struct evhttp_request *req,
			     const struct blackbox_ask *ask,
			     const struct blackbox_result *r)
{
	struct debug_arg d = { r, ask };

	if (ask->debug)
		http_reply_render(req, "text/plain; charset=utf-8",
				  blackbox_http_render_debug, &d, 0);
	else
		http_reply_render(req, "text/plain; version=0.0.4; "
				  "charset=utf-8", blackbox_http_render, r, 0);
}

static void blackbox_http_done(void *arg, const struct blackbox_result *r)
{
	struct blackbox_http *hp = arg;

	blackbox_http_end(hp);
	blackbox_http_reply(hp->req, &hp->ask, r);
	free(hp);
}

/* A probe asked for properly that did not start (RET: -EBUSY,
 * -ENOMEM...): 200, probe_success 0, and why. */
static void blackbox_http_not_run(struct evhttp_request *req,
			       const struct blackbox_ask *ask, int ret)
{
	struct blackbox_result r;

	blackbox_render_init(&r);
	r.failed = ret == -EBUSY ? "busy" : "local-error";
	r.error = ret == -EBUSY ? "not run: " XSTR(BLACKBOX_MAX) " probes "
		  "are running (scrape fewer targets at once)" :
		  "not run: cannot start the probe (out of memory)";
	blackbox_render_step(&r, 0, "probe of %s, module %s: %s", ask->target,
			     ask->m.name, r.error);
	blackbox_http_reply(req, ask, &r);
}

/* The client went away first: the probe is aborted, nobody answered. */
static void blackbox_http_closed(struct evhttp_connection *ec, void *arg)
{
	struct blackbox_http *hp = arg;

	if (hp->watch)
		event_free(hp->watch);
	blackbox_cancel(hp->bp);
	free(hp);
}

/*
 * evhttp reads nothing while a request waits for its reply, so it does
 * not see the client leave: we peek at the socket.  At its end of file
 * the probe is aborted and a reply goes out to no one, which has evhttp
 * free the connection.  Bytes from the client (pipelined requests): we
 * stop watching.  Over TLS, bytes may be the client's close_notify:
 * http_tls_peer_left() reads them.
 */
static void blackbox_http_watch_cb(evutil_socket_t fd, short what, void *arg)
{
	struct blackbox_http *hp = arg;
	char c;
	ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0) {
		int left = http_tls_peer_left(
			evhttp_connection_get_bufferevent(hp->ec));

		if (left == -EAGAIN)
			return;
		if (!left) {
			event_free(hp->watch);
			hp->watch = NULL;
			return;
		}
	}
	blackbox_http_end(hp);
	blackbox_cancel(hp->bp);
	http_reply_text(hp->req, 503, "Service Unavailable", "the client left");
	free(hp);
}

/*
 * What REQ asks for (blackbox_ask_parse): the query decoded here, the
 * scrape's timeout header.  0, or -EINVAL with ERR.
 */
static int blackbox_http_query(const struct rdmad_config *cfg,
		       struct evhttp_request *req, const char *query,
		       struct blackbox_ask *ask, char *err, size_t errlen)
{
	struct blackbox_param p[8];
	struct evkeyvalq q;
	struct evkeyval *kv;
	unsigned int n = 0;
	int ret;

	TAILQ_INIT(&q);
	if (query && evhttp_parse_query_str(query, &q)) {
		snprintf(err, errlen, "bad query: want "
			 "target=HOST:PORT[&module=NAME][&debug=true]");
		return -EINVAL;
	}
	TAILQ_FOREACH(kv, &q, next) {
		if (n == sizeof(p) / sizeof(p[0])) {
			snprintf(err, errlen, "bad query: too many "
				 "parameters");
			evhttp_clear_headers(&q);
			return -EINVAL;
		}
		p[n++] = (struct blackbox_param){ kv->key, kv->value };
	}
	ret = blackbox_ask_parse(ask, cfg, p, n, evhttp_find_header(
				 evhttp_request_get_input_headers(req),
				 BLACKBOX_SCRAPE_HEADER), err, errlen);
	evhttp_clear_headers(&q);
	return ret;
}

/* GET /probe: start the probe REQ asks for; the reply goes out when it
 * is over: 200 whenever a probe was asked for properly (run or not:
 * probe_success 0 and why), 400 for a malformed request. */
static void blackbox_http_serve(void *owner, struct evhttp_request *req,
				const struct http_query *q)
{
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	struct blackbox *bb = owner;
	struct blackbox_http *hp;
	evutil_socket_t fd;
	char err[160];
	int ret;

	hp = calloc(1, sizeof(*hp));
	if (!hp) {
		http_reply_text(req, 500, "Internal Server Error", "out of memory");
		return;
	}
	if (blackbox_http_query(bb->cfg, req, uri ? evhttp_uri_get_query(uri) : NULL,
			&hp->ask, err, sizeof(err))) {
		free(hp);
		http_reply_text(req, 400, "Bad Request", err);
		return;
	}
	hp->req = req;
	hp->ec = evhttp_request_get_connection(req);
	ret = blackbox_start(bb, &hp->ask, blackbox_http_done, hp, &hp->bp);
	if (ret) {
		blackbox_http_not_run(req, &hp->ask, ret);
		free(hp);
		return;
	}
	evhttp_connection_set_closecb(hp->ec, blackbox_http_closed, hp);
	fd = bufferevent_getfd(evhttp_connection_get_bufferevent(hp->ec));
	hp->watch = event_new(bb->base, fd, EV_READ | EV_PERSIST,
			      blackbox_http_watch_cb, hp);
	if (hp->watch && event_add(hp->watch, NULL)) {
		event_free(hp->watch);
		hp->watch = NULL;
	}
}

int blackbox_http_routes(struct http *h, struct blackbox *bb)
{
	const struct http_route probe = {
		.path = "/probe",
		.methods = HTTP_GET,
		/* A HEAD would run a probe (one RDMA session) to answer with
		 * no body: the probe is what GET asks for, HEAD may not. */
		.not_method = "HEAD /probe would run a probe: use GET",
		.serve = blackbox_http_serve,
		.owner = bb,
		.what = "one RDMA probe of ?target=HOST:PORT (&amp;module=NAME), "
			"answered in Prometheus text when it is over",
	};

	return http_route_add(h, &probe);
}
