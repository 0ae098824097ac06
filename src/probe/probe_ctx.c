/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_ctx.c - rdma-probe's runs on the RDMA layer's client module
 * (rdma_client.h), used as any embedder would: the one rdma_cm channel
 * and event loop, the run's connections (one destination's, or every
 * target's with --targets), each one's figures kept from the module's
 * callbacks, busy polling, and the layer's lines on stderr under -v.
 * With --rounds, the one connection is a mesh session: its rounds are
 * started from a timer, --interval apart (start to start), and it is
 * closed once the last one is checked.
 */
#include "probe_ctx.h"
#include "probe_log.h"
#include "probe_opstat.h"
#include "probe_opts.h"
#include "probe_dest.h"
#include "probe_rounds.h"
#include "probe_run.h"
#include "probe_report_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "rdma_client.h"
#include "rdma_cm.h"
#include "rdma_log.h"

/* One connection of a run: the module's client and the probe's figures. */
struct probe_conn {
	struct probe_ctx *ctx;
	struct rdma_client *cl;
	unsigned int idx;
	struct probe_opstat reads;
	struct probe_opstat writes;
	struct probe_opstat pings;
	/* --rounds */
	const struct probe_opts *o;
	struct probe_rounds rounds;
	struct event *round_timer;
	uint64_t round_start;		/* of the last round, ns */
	bool rounds_begun;
};

/* The layer's lines: errors always, the rest with -v (debug: -vv). */
static void probe_ctx_log(int prio, const char *msg)
{
	if (prio <= LOG_ERR)
		probe_err("%s", msg);
	else
		probe_dbg(prio >= LOG_DEBUG ? 2 : 1, "%s", msg);
}

int probe_ctx_init(struct probe_ctx *ctx, struct event_base *base,
		   bool busy_poll)
{
	int ret;

	memset(ctx, 0, sizeof(*ctx));
	ctx->base = base;
	ctx->busy_poll = busy_poll;
	rdma_log_set(probe_ctx_log);
	ctx->chan = calloc(1, sizeof(*ctx->chan));
	if (!ctx->chan)
		return -ENOMEM;
	ret = rdma_cm_chan_open(ctx->chan, base);
	if (ret) {
		probe_err("cannot open the rdma_cm event channel: %s (is the "
			  "rdma_ucm module loaded?)", strerror(-ret));
		free(ctx->chan);
		ctx->chan = NULL;
	}
	return ret;
}

void probe_ctx_fini(struct probe_ctx *ctx)
{
	if (ctx->chan) {
		rdma_cm_chan_close(ctx->chan);
		free(ctx->chan);
	}
	ctx->chan = NULL;
}

/* ---- the module's callbacks ------------------------------------------ */

static void probe_ctx_op(void *arg, enum rdma_client_op kind, uint32_t bytes,
			 uint64_t posted, uint64_t done)
{
	struct probe_conn *c = arg;
	struct probe_opstat *s = kind == RDMA_CLIENT_OP_READ ? &c->reads :
				 kind == RDMA_CLIENT_OP_WRITE ? &c->writes :
				 &c->pings;

	probe_opstat_add(s, posted, done, bytes);
}

/* The next round (or the close) in DELAY_NS. */
static void probe_ctx_round_later(struct probe_conn *c, uint64_t delay_ns)
{
	struct timeval tv = {
		.tv_sec = (time_t)(delay_ns / 1000000000u),
		.tv_usec = (suseconds_t)(delay_ns % 1000000000u / 1000u),
	};

	if (evtimer_add(c->round_timer, &tv))
		rdma_client_abort(c->cl, "cannot arm the round timer");
}

static void probe_ctx_round_cb(evutil_socket_t fd, short what, void *arg)
{
	struct probe_conn *c = arg;
	int ret;

	(void)fd;
	(void)what;
	if (c->rounds.done >= c->rounds.want) {
		rdma_client_close(c->cl);
		return;
	}
	c->round_start = clock_now_ns();
	ret = rdma_client_round(c->cl, c->o->size);
	if (ret && ret != -ENOTCONN)
		rdma_client_abort(c->cl, "cannot start a round");
}

/* The session is READY: the first round at once. */
static void probe_ctx_ready(void *arg)
{
	struct probe_conn *c = arg;

	if (c->rounds_begun || !c->round_timer)
		return;
	c->rounds_begun = true;
	probe_ctx_round_later(c, 0);
}

static void probe_ctx_round(void *arg, const struct rdma_client_round *r)
{
	struct probe_conn *c = arg;
	uint64_t next, now;

	probe_rounds_add(&c->rounds, r);
	if (c->o->verbosity >= 0 && !c->o->json) {
		probe_report_text_round(stdout, r);
		fflush(stdout);
	}
	if (c->rounds.done >= c->rounds.want) {
		probe_ctx_round_later(c, 0);
		return;
	}
	next = c->round_start + (uint64_t)c->o->interval_ms * 1000000u;
	now = clock_now_ns();
	probe_ctx_round_later(c, next > now ? next - now : 0);
}

static void probe_ctx_done(void *arg, const struct rdma_client_outcome *o)
{
	struct probe_conn *c = arg;

	(void)o;
	if (c->round_timer)
		evtimer_del(c->round_timer);
	if (--c->ctx->active == 0)
		event_base_loopbreak(c->ctx->base);
}

static const struct rdma_client_ops probe_ctx_ops = {
	.op = probe_ctx_op,
	.ready = probe_ctx_ready,
	.round = probe_ctx_round,
	.done = probe_ctx_done,
};

/* ---- connections ----------------------------------------------------- */

static void probe_ctx_conn_free(struct probe_conn *c)
{
	if (!c)
		return;
	if (c->round_timer)
		event_free(c->round_timer);
	rdma_client_free(c->cl);
	free(c);
}

static int probe_ctx_conn_new(struct probe_ctx *ctx,
			      const struct probe_opts *o,
			      const struct probe_dest *d, const char *label,
			      unsigned int idx, struct probe_conn **out)
{
	struct rdma_client_opts co;
	struct probe_conn *c;
	int ret;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->ctx = ctx;
	c->idx = idx;
	probe_opstat_init(&c->reads);
	probe_opstat_init(&c->writes);
	probe_opstat_init(&c->pings);
	c->o = o;
	probe_rounds_init(&c->rounds, o->rounds);
	if (o->rounds) {
		c->round_timer = evtimer_new(ctx->base, probe_ctx_round_cb, c);
		if (!c->round_timer) {
			free(c);
			return -ENOMEM;
		}
	}

	memset(&co, 0, sizeof(co));
	memcpy(&co.dst, &d->dst, d->dst_len);
	if (d->src_len)
		memcpy(&co.src, &d->src, d->src_len);
	co.rping = o->rping;
	co.mesh = o->rounds != 0;
	co.ops = o->ops;
	co.size = o->size;
	co.iters = o->iters;
	co.duration_ms = o->duration_ms;
	co.timeout_ms = o->timeout_ms;
	co.depth = o->depth;
	co.seed = o->seed + idx;
	co.verify = o->verify;
	co.busy_poll = o->busy_poll;
	co.tos = o->tos;
	co.psk = o->psk;
	co.log_prio = o->verbosity >= 2 ? LOG_DEBUG :
		      o->verbosity >= 1 ? LOG_INFO : LOG_ERR;
	snprintf(co.name, sizeof(co.name), "%s%sconn %u", label ? label : "",
		 label ? " " : "", idx);
	ret = rdma_client_new(&c->cl, ctx->base, ctx->chan, &co,
			      &probe_ctx_ops, c);
	if (ret) {
		probe_ctx_conn_free(c);
		return ret;
	}
	*out = c;
	return 0;
}

int probe_ctx_add(struct probe_ctx *ctx, const struct probe_opts *opts,
		  const struct probe_dest *d, const char *label,
		  unsigned int n)
{
	struct probe_conn **v;
	unsigned int first = ctx->nconns, i;
	int ret;

	v = reallocarray(ctx->conns, first + n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	ctx->conns = v;
	for (i = 0; i < n; i++) {
		ret = probe_ctx_conn_new(ctx, opts, d, label, i, &v[first + i]);
		if (ret)
			goto err;
	}
	ctx->nconns = first + n;
	return 0;

err:
	while (i-- > 0)
		probe_ctx_conn_free(v[first + i]);
	return ret;
}

/*
 * --busy-poll: spin on every completion queue without going back to the
 * event loop between operations.  The clock is read once per
 * PROBE_SPIN_ROUNDS rounds; once PROBE_SPIN_SLICE_NS has passed, the event
 * loop runs once without blocking, for CM events, step deadlines, -D
 * timers and signals (so they are serviced within about a slice).
 */
#define PROBE_SPIN_ROUNDS	64
#define PROBE_SPIN_SLICE_NS	1000000u	/* 1 ms */

static int probe_ctx_spin(struct probe_ctx *ctx)
{
	uint64_t now, next = 0;
	unsigned int i, r;

	while (ctx->active > 0 && !ctx->stop) {
		for (r = 0; r < PROBE_SPIN_ROUNDS && ctx->active > 0 &&
			    !ctx->stop; r++)
			for (i = 0; i < ctx->nconns; i++)
				rdma_client_poll(ctx->conns[i]->cl);
		now = clock_now_ns();
		if (now < next)
			continue;
		if (event_base_loop(ctx->base, EVLOOP_NONBLOCK) < 0)
			return -EIO;
		next = now + PROBE_SPIN_SLICE_NS;
	}
	return 0;
}

int probe_ctx_run(struct probe_ctx *ctx)
{
	unsigned int i;

	/* Counted before it starts: a connection may be over at once. */
	for (i = 0; i < ctx->nconns; i++) {
		ctx->active++;
		rdma_client_start(ctx->conns[i]->cl);
	}
	if (ctx->busy_poll)
		return probe_ctx_spin(ctx);
	return ctx->active > 0 && event_base_dispatch(ctx->base) < 0 ?
	       -EIO : 0;
}

void probe_ctx_abort(struct probe_ctx *ctx, const char *why)
{
	unsigned int i;

	for (i = 0; i < ctx->nconns; i++)
		rdma_client_abort(ctx->conns[i]->cl, why);
}

void probe_ctx_release(struct probe_ctx *ctx, struct probe_conn ***kept,
		       unsigned int *nkept)
{
	unsigned int i;

	for (i = 0; i < ctx->nconns; i++) {
		/* Events go while their loop is there. */
		if (ctx->conns[i]->round_timer)
			event_free(ctx->conns[i]->round_timer);
		ctx->conns[i]->round_timer = NULL;
		rdma_client_release(ctx->conns[i]->cl);
	}
	*kept = ctx->conns;
	*nkept = ctx->nconns;
	ctx->conns = NULL;
	ctx->nconns = 0;
}

void probe_ctx_outcome(struct probe_conn *c, struct probe_outcome *o)
{
	struct rdma_client_outcome co;

	rdma_client_outcome(c->cl, &co);
	memset(o, 0, sizeof(*o));
	o->fail = co.fail;
	o->error = co.error;
	o->reason = co.reason;
	o->fail_state = co.fail_state;
	o->last_state = co.last_state;
	o->times = co.times;
	o->reads = &c->reads;
	o->writes = &c->writes;
	o->pings = &c->pings;
	o->rounds = c->o->rounds ? &c->rounds : NULL;
	o->idx = c->idx;
	o->seed = co.seed;
	o->conn_id = co.conn_id;
	o->max_size = co.max_size;
	o->max_iters = co.max_iters;
	o->have_welcome = co.have_welcome;
	o->write_crc = co.write_crc;
	o->reads_verified = co.reads_verified;
	o->writes_done = co.writes_done;
	o->pings_verified = co.pings_verified;
}

void probe_ctx_free_conns(struct probe_conn **v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		probe_ctx_conn_free(v[i]);
	free(v);
}
