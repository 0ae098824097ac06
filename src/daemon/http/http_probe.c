/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_probe.c - GET /probe?target=HOST:PORT[&module=NAME] of rdmad's
 * HTTP endpoint (http.c): one RDMA probe of the target by blackbox.c,
 * answered when it is over in Prometheus text (at the latest when the
 * module's timeout passes); a client that leaves first aborts it.  HEAD
 * runs nothing: 405.
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

#include "addr.h"
#include "http/http_probe.h"
#include "http/http_reply.h"
#include "http/http_tls.h"
#include "proto.h"

static int render_probe(FILE *f, const void *r, int unused)
{
	return blackbox_render(f, r);
}

struct http_probe {
	http_probe_cancel_fn *cancel;
	void *arg;
	struct evhttp_request *req;
	struct evhttp_connection *ec;
	struct blackbox_probe *bp;
	struct event *watch;	/* the client's socket, for its close */
};

static void http_probe_end(struct http_probe *hp)
{
	evhttp_connection_set_closecb(hp->ec, NULL, NULL);
	if (hp->watch)
		event_free(hp->watch);
	hp->watch = NULL;
}

static void http_probe_done(void *arg, const struct blackbox_result *r)
{
	struct http_probe *hp = arg;

	http_probe_end(hp);
	http_reply_render(hp->req, "text/plain; version=0.0.4; charset=utf-8",
		     render_probe, r, 0);
	free(hp);
}

/* The client went away first: the probe is aborted, nobody answered. */
static void http_probe_closed(struct evhttp_connection *ec, void *arg)
{
	struct http_probe *hp = arg;

	if (hp->watch)
		event_free(hp->watch);
	hp->cancel(hp->arg, hp->bp);
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
static void http_probe_watch_cb(evutil_socket_t fd, short what, void *arg)
{
	struct http_probe *hp = arg;
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
	http_probe_end(hp);
	hp->cancel(hp->arg, hp->bp);
	http_reply_text(hp->req, 503, "Service Unavailable", "the client left");
	free(hp);
}

/* target= (numeric HOST[:PORT]) and module= (optional); 400 text. */
static int probe_query(const struct rdmad_config *cfg, const char *query,
		       struct addr_endpoint *dst,
		       const struct config_module **m, char *err,
		       size_t errlen)
{
	const char *target = NULL, *module = NULL;
	struct evkeyvalq q;
	struct evkeyval *kv;
	int ret = 0;

	TAILQ_INIT(&q);
	if (query && evhttp_parse_query_str(query, &q)) {
		snprintf(err, errlen, "bad query: want "
			 "target=HOST:PORT[&module=NAME]");
		return -EINVAL;
	}
	TAILQ_FOREACH(kv, &q, next) {
		if (!strcmp(kv->key, "target") && !target)
			target = kv->value;
		else if (!strcmp(kv->key, "module") && !module)
			module = kv->value;
		else {
			snprintf(err, errlen, "bad query: the parameters are "
				 "target=HOST:PORT and module=NAME, once each");
			ret = -EINVAL;
		}
	}
	if (!ret && (!target || addr_parse(target, PROTO_DEFAULT_PORT, dst))) {
		snprintf(err, errlen, "target: want HOST:PORT, a numeric "
			 "address (names are not resolved), port %u if left "
			 "out", PROTO_DEFAULT_PORT);
		ret = -EINVAL;
	}
	if (!ret) {
		*m = config_module_find(cfg, module);
		if (!*m) {
			snprintf(err, errlen, "unknown module '%.31s'", module);
			ret = -EINVAL;
		}
	}
	evhttp_clear_headers(&q);
	return ret;
}

void http_probe_request(struct event_base *base,
			const struct rdmad_config *cfg,
			http_probe_start_fn *start,
			http_probe_cancel_fn *cancel, void *arg,
			struct evhttp_request *req,
			const struct evhttp_uri *uri)
{
	const struct config_module *m = NULL;
	struct addr_endpoint dst;
	struct http_probe *hp;
	evutil_socket_t fd;
	char err[160];
	int ret;

	/* A HEAD would run a probe (one RDMA session) to answer with no
	 * body: the probe is what GET asks for, HEAD may not. */
	if (evhttp_request_get_command(req) == EVHTTP_REQ_HEAD) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
				  "Allow", "GET");
		http_reply_text(req, 405, "Method Not Allowed", "HEAD /probe "
				"would run a probe: use GET");
		return;
	}
	if (!start) {
		http_reply_text(req, 404, "Not Found", "not found: this rdmad does "
			   "not run probes");
		return;
	}
	if (probe_query(cfg, evhttp_uri_get_query(uri), &dst, &m, err,
			sizeof(err))) {
		http_reply_text(req, 400, "Bad Request", err);
		return;
	}
	hp = calloc(1, sizeof(*hp));
	if (!hp) {
		http_reply_text(req, 500, "Internal Server Error", "out of memory");
		return;
	}
	hp->cancel = cancel;
	hp->arg = arg;
	hp->req = req;
	hp->ec = evhttp_request_get_connection(req);
	ret = start(arg, &dst.addr, m, http_probe_done, hp,
			    &hp->bp);
	if (ret) {
		free(hp);
		if (ret == -EBUSY)
			http_reply_text(req, 503, "Service Unavailable", "busy: "
				   "16 probes are running; try again");
		else
			http_reply_text(req, 500, "Internal Server Error",
				   "cannot start the probe");
		return;
	}
	evhttp_connection_set_closecb(hp->ec, http_probe_closed, hp);
	fd = bufferevent_getfd(evhttp_connection_get_bufferevent(hp->ec));
	hp->watch = event_new(base, fd, EV_READ | EV_PERSIST,
			      http_probe_watch_cb, hp);
	if (hp->watch && event_add(hp->watch, NULL)) {
		event_free(hp->watch);
		hp->watch = NULL;
	}
}
