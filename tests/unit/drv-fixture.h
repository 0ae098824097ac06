/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * drv-fixture.h - rdmads in one process over the fake RDMA layer
 * (fake/fake.h), for the drivers' unit tests (test-drv-*.c).
 *
 * A struct drv is one rdmad's wiring as rdmad.c does it: its
 * configuration read by rdmad_stage_read() from an rdmad.ini the test
 * writes, the CM channel, the device registry, the served side
 * (listeners, connections), the mesh agent, /probe and the HTTP endpoint
 * on a free loopback port.  Several share one loop (the fake routes by
 * address and port between them).  The tests speak to them as an
 * operator does: RDMA clients (rdma_client), reloads, and HTTP GETs over
 * a real loopback socket (drv_get); what they assert is what /metrics,
 * /status, /peers say.  This file is the one place that knows the
 * wiring: a change of the drivers' API is adapted here.
 *
 * Waits are on conditions (drv_wait), bounded by DRV_WAIT_MS only so
 * that a broken driver fails instead of hanging the suite.
 */
#ifndef RDMAD_DRV_FIXTURE_H
#define RDMAD_DRV_FIXTURE_H

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <syslog.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>

#include "core/log.h"
#include "core/stats.h"
#include "fake.h"
#include "blackbox/blackbox.h"
#include "http/http.h"
#include "mesh/mesh_agent.h"
#include "rdma_buf.h"
#include "rdma_client.h"
#include "rdma_counters.h"
#include "clock.h"
#include "rdma_log.h"
#include "rdmad_pages.h"
#include "rdmad_stage.h"
#include "serve/conn.h"
#include "serve/conn_set.h"
#include "serve/listener.h"
#include "tap.h"

#define DRV_WAIT_MS	20000u	/* a broken driver's bound, not a timing */

struct drv {
	struct event_base *base;
	char dir[64];			/* its files: rdmad.ini, targets */
	char ini[PATH_MAX];
	unsigned int http_port;
	struct rdmad_config cfg;
	struct rdmad_stage stage;
	struct stats stats;
	struct rdma_cm_chan cm;
	struct rdma_devs devs;
	struct conn_set conns;
	struct listeners ls;
	struct rdma_counters *counters;
	struct mesh_agent *mesh;
	struct blackbox probes;
	struct rdmad_pages pages;
	struct http *http;
	unsigned int fatal;		/* device fatal heard */
	unsigned int gone;		/* connections freed */
};

static inline void drv_rdma_log(int prio, const char *msg)
{
	log_msg(prio, "%s", msg);
}

/* A free loopback TCP port (bound then closed: the test's own). */
static inline unsigned int drv_free_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	unsigned int port = 0;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&sa, sizeof(sa)) &&
	    !getsockname(fd, (struct sockaddr *)&sa, &len))
		port = ntohs(sa.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

/* D's file NAME (in its directory) holds TEXT; its path in PATH. */
static inline int drv_file(struct drv *d, const char *name, const char *text,
		    char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", d->dir, name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

static inline void drv_dev_port(void *arg, struct ibv_context *ctx, uint8_t port,
			 bool up)
{
	struct drv *d = arg;

	stats_port(&d->stats, ibv_get_device_name(ctx->device), port, up);
	if (!up)
		conn_device_fatal(&d->conns, ctx, port, "port down");
}

static inline void drv_dev_fatal(void *arg, struct ibv_context *ctx)
{
	struct drv *d = arg;

	d->fatal++;
	rdma_counters_drop_device(d->counters, ibv_get_device_name(ctx->device),
				  "had a fatal error or was removed");
	conn_device_fatal(&d->conns, ctx, 0, "device fatal");
}

static inline void drv_dev_port_seen(void *arg, struct ibv_context *ctx,
			      uint8_t port, bool up)
{
	struct drv *d = arg;

	stats_port_seen(&d->stats, ibv_get_device_name(ctx->device), port, up);
}

static const struct rdma_dev_ops drv_dev_ops = {
	.port = drv_dev_port,
	.port_seen = drv_dev_port_seen,
	.fatal = drv_dev_fatal,
};

static inline void drv_conn_gone(void *arg)
{
	((struct drv *)arg)->gone++;
}

static inline void drv_request(void *arg, const struct rdma_cm_ev *e)
{
	conn_connect_request(&((struct drv *)arg)->conns, e);
}

static inline void drv_view(void *arg, struct stats_view *v,
		     struct stats_listener *ls, struct stats_conn *conns,
		     unsigned int max)
{
	struct drv *d = arg;

	memset(v, 0, sizeof(*v));
	v->stats = &d->stats;
	v->version = "fake";
	v->pid = (long)getpid();
	v->max_connections = d->cfg.max_connections;
	v->n_listeners = listener_view(&d->ls, ls);
	v->listeners = ls;
	v->conns = conns;
	v->n_conns = conns ? conn_set_snapshot(&d->conns, conns, max) : 0;
	v->counters = rdma_counters_view(d->counters, &v->n_counters);
	v->reload_ok = true;
	v->registered_bytes = rdma_buf_registered();
	v->registered_max = d->cfg.max_registered_bytes;
}

/* Read D's rdmad.ini (TEXT, "[http] listen" added) into D->stage. */
static inline int drv_read(struct drv *d, const char *text)
{
	char buf[8192];

	snprintf(buf, sizeof(buf), "%s\n[http]\nlisten = 127.0.0.1:%u\n",
		 text, d->http_port);
	if (drv_file(d, "rdmad.ini", buf, d->ini, sizeof(d->ini)))
		return -EIO;
	rdmad_stage_free(&d->stage);
	memset(&d->stage, 0, sizeof(d->stage));
	if (rdmad_stage_read(&d->stage, d->ini)) {
		tap_diag("rdmad.ini refused: %s", d->stage.err);
		return -EINVAL;
	}
	return 0;
}

/*
 * An rdmad on BASE with the configuration TEXT (rdmad.ini's sections
 * and keys; "[http] listen" is the fixture's).  0, or -errno (said).
 */
static inline int drv_start(struct drv *d, struct event_base *base, const char *text)
{
	char err[512];
	int ret;

	memset(d, 0, sizeof(*d));
	d->base = base;
	snprintf(d->dir, sizeof(d->dir), "/tmp/rdmad-drv-XXXXXX");
	if (!mkdtemp(d->dir))
		return -errno;
	d->http_port = drv_free_port();
	ret = drv_read(d, text);
	if (ret)
		return ret;
	d->cfg = d->stage.cfg;
	log_init(LOG_WARNING);
	log_set_level(getenv("DRV_DEBUG") ? LOG_DEBUG : LOG_WARNING);
	rdma_log_set(drv_rdma_log);
	stats_init(&d->stats);
	ret = rdma_counters_new(&d->counters, base, d->dir);
	if (ret)
		return ret;
	rdma_devs_init(&d->devs, base, &drv_dev_ops, d);
	conn_set_init(&d->conns, base, &d->cfg, &d->stats, &d->devs,
		      drv_conn_gone, d);
	listener_init(&d->ls, base, &d->cm, &d->devs, drv_request, d);
	blackbox_init(&d->probes, base, &d->cm, &d->devs, &d->cfg);
	ret = rdma_cm_chan_open(&d->cm, base);
	if (!ret)
		ret = listener_start(&d->ls, &d->cfg);
	if (ret)
		return ret;
	ret = http_start(&d->http, base, &d->cfg, d->stage.web, err,
			 sizeof(err));
	if (ret) {
		tap_diag("http_start: %s", err);
		return ret;
	}
	ret = mesh_agent_new(&d->mesh, base, &d->cm, &d->devs, &d->cfg.psk,
			     d->counters);
	if (ret)
		return ret;
	/* the routes, as rdmad.c adds them */
	d->pages = (struct rdmad_pages){
		.view = drv_view,
		.arg = d,
		.conns = &d->conns,
		.mesh = &d->mesh,
		.http = d->http,
		.probes = &d->probes,
	};
	ret = rdmad_pages_routes(&d->pages);
	if (ret)
		return ret;
	mesh_agent_prepare(d->mesh, &d->cfg, &d->stage.targets);
	mesh_agent_commit(d->mesh);
	return 0;
}

/* A reload with TEXT, as rdmad.c's reload_apply: 0, or -errno (refused,
 * nothing changed). */
static inline int drv_reload(struct drv *d, const char *text)
{
	char err[512];
	int ret;

	ret = drv_read(d, text);
	if (ret)
		return ret;
	if (http_prepare(d->http, &d->stage.cfg, d->stage.web, err,
			 sizeof(err)))
		return -EINVAL;
	mesh_agent_prepare(d->mesh, &d->stage.cfg, &d->stage.targets);
	if (listener_reload(&d->ls, &d->stage.cfg, err, sizeof(err))) {
		tap_diag("reload refused: %s", err);
		http_rollback(d->http);
		mesh_agent_rollback(d->mesh);
		return -EINVAL;
	}
	d->cfg = d->stage.cfg;
	http_commit(d->http);
	mesh_agent_commit(d->mesh);
	return 0;
}

static inline bool drv_conns_gone(void *arg)
{
	return conn_set_empty(&((struct drv *)arg)->conns);
}

static inline bool drv_wait(struct event_base *base, bool (*cond)(void *),
			    void *arg);

/* D stops as rdmad does: its sessions closed, everything let go. */
static inline void drv_stop(struct drv *d)
{
	char cmd[128];

	listener_stop(&d->ls);
	if (d->mesh)
		mesh_agent_stop(d->mesh);
	conn_shutdown_all(&d->conns);
	drv_wait(d->base, drv_conns_gone, d);
	mesh_agent_free(d->mesh);
	d->mesh = NULL;
	http_stop(d->http);
	d->http = NULL;
	blackbox_fini(&d->probes);
	rdma_counters_free(d->counters);
	rdma_devs_fini(&d->devs);
	rdma_cm_chan_close(&d->cm);
	rdmad_stage_free(&d->stage);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->dir);
	if (system(cmd))
		tap_diag("cannot remove %s", d->dir);
}

static inline void drv_wait_tick(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
}

/* Run BASE until COND(ARG) holds (true), or DRV_WAIT_MS passed (false). */
static inline bool drv_wait(struct event_base *base, bool (*cond)(void *),
		     void *arg)
{
	struct timeval tick = { 0, 50000 };
	struct event *ev = event_new(base, -1, EV_PERSIST, drv_wait_tick,
				     NULL);
	uint64_t t0 = clock_now_ns();
	bool ok;

	/* the tick: the loop never blocks past the bound with nothing due */
	event_add(ev, &tick);
	while (!(ok = cond(arg)) &&
	       clock_since_ns(t0) < DRV_WAIT_MS * 1000000ull)
		event_base_loop(base, EVLOOP_ONCE);
	event_free(ev);
	return ok;
}

/* ---- HTTP, over a real loopback socket ---- */

struct drv_reply {
	bool done;
	int status;
	char body[256 * 1024];
	size_t len;
};

static inline void drv_reply_cb(struct evhttp_request *req, void *arg)
{
	struct drv_reply *r = arg;
	struct evbuffer *b;
	size_t n;

	r->done = true;
	if (!req)
		return;
	r->status = evhttp_request_get_response_code(req);
	b = evhttp_request_get_input_buffer(req);
	n = evbuffer_get_length(b);
	if (n >= sizeof(r->body))
		n = sizeof(r->body) - 1;
	evbuffer_remove(b, r->body, n);
	r->body[n] = 0;
	r->len = n;
}

static inline bool drv_reply_done(void *arg)
{
	return ((struct drv_reply *)arg)->done;
}

/* GET PATH of D's endpoint: the status (0: no answer), the body in R. */
static inline int drv_get(struct drv *d, const char *path, struct drv_reply *r)
{
	struct evhttp_connection *c;
	struct evhttp_request *req;

	memset(r, 0, sizeof(*r));
	c = evhttp_connection_base_new(d->base, NULL, "127.0.0.1",
				       (ev_uint16_t)d->http_port);
	req = c ? evhttp_request_new(drv_reply_cb, r) : NULL;
	if (!req)
		return 0;
	evhttp_add_header(evhttp_request_get_output_headers(req), "Host",
			  "127.0.0.1");
	if (evhttp_make_request(c, req, EVHTTP_REQ_GET, path)) {
		evhttp_connection_free(c);
		return 0;
	}
	drv_wait(d->base, drv_reply_done, r);
	evhttp_connection_free(c);
	return r->status;
}

/*
 * The sum of the samples of FAMILY in the Prometheus text TEXT whose
 * labels contain each of the N strings of WANT ("peer=\"a:1\""...);
 * -1 if there is none.
 */
static inline double drv_prom(const char *text, const char *family,
		       const char *const *want, unsigned int n)
{
	size_t fl = strlen(family);
	const char *l, *e, *sp;
	double sum = -1;
	char line[1024];
	unsigned int i;

	for (l = text; l && *l; l = e ? e + 1 : NULL) {
		e = strchr(l, '\n');
		snprintf(line, sizeof(line), "%.*s",
			 (int)(e ? (size_t)(e - l) : strlen(l)), l);
		if (strncmp(line, family, fl) ||
		    (line[fl] != '{' && line[fl] != ' '))
			continue;
		for (i = 0; i < n; i++)
			if (!strstr(line, want[i]))
				break;
		sp = strrchr(line, ' ');
		if (i < n || !sp)
			continue;
		sum = (sum < 0 ? 0 : sum) + strtod(sp + 1, NULL);
	}
	return sum;
}

/* GET /metrics of D and drv_prom() on it (-2: no answer). */
static inline double drv_metric(struct drv *d, const char *family,
			 const char *const *want, unsigned int n)
{
	static struct drv_reply r;

	if (drv_get(d, "/metrics", &r) != 200)
		return -2;
	return drv_prom(r.body, family, want, n);
}

/* ---- an RDMA client (rdma-probe's), run to its end ---- */

struct drv_client {
	struct rdma_client *c;
	bool done;
	unsigned int ops;		/* operations completed */
	struct rdma_client_outcome o;
	char error[256];
};

static inline void drv_client_done(void *arg, const struct rdma_client_outcome *o)
{
	struct drv_client *k = arg;

	k->done = true;
	k->o = *o;
	snprintf(k->error, sizeof(k->error), "%s", o->error ? o->error : "");
	k->o.error = k->error;
}

static inline void drv_client_op(void *arg, enum rdma_client_op kind,
			  uint32_t bytes, uint64_t posted, uint64_t done)
{
	((struct drv_client *)arg)->ops++;
	(void)kind;
	(void)bytes;
	(void)posted;
	(void)done;
}

static const struct rdma_client_ops drv_client_ops = {
	.op = drv_client_op,
	.done = drv_client_done,
};

static inline bool drv_client_finished(void *arg)
{
	return ((struct drv_client *)arg)->done;
}

/* Native options to ADDR:PORT (numeric): OPS, SIZE, ITERS, verified. */
static inline void drv_client_opts(struct rdma_client_opts *o, const char *addr,
			    unsigned int port, uint8_t ops, uint32_t size,
			    uint32_t iters)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&o->dst;

	memset(o, 0, sizeof(*o));
	sin->sin_family = AF_INET;
	sin->sin_port = htons((uint16_t)port);
	inet_pton(AF_INET, addr, &sin->sin_addr);
	o->ops = ops;
	o->size = size;
	o->iters = iters;
	o->timeout_ms = 5000;
	o->depth = 1;
	o->seed = 42;
	o->verify = true;
	o->log_prio = getenv("DRV_DEBUG") ? LOG_DEBUG : LOG_WARNING;
	snprintf(o->name, sizeof(o->name), "client");
}

/* Start a client with O on D's loop and a channel of its own. */
static inline int drv_client_start(struct drv_client *k, struct event_base *base,
			    struct rdma_cm_chan *cm,
			    const struct rdma_client_opts *o)
{
	int ret;

	memset(k, 0, sizeof(*k));
	ret = rdma_client_new(&k->c, base, cm, o, &drv_client_ops, k);
	if (!ret)
		rdma_client_start(k->c);
	return ret;
}

#endif /* RDMAD_DRV_FIXTURE_H */
