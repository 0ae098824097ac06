/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_ctx.c - rdma-probe's runs on the RDMA layer's client module
 * (rdma_client.h), used as any embedder would: the one rdma_cm channel
 * and event loop, the run's connections (one destination's, or every
 * target's with --targets), each one's figures kept from the module's
 * callbacks, busy polling, and the layer's lines on stderr under -v.
 */
#include "probe.h"

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

static void probe_ctx_done(void *arg, const struct rdma_client_outcome *o)
{
	struct probe_conn *c = arg;

	(void)o;
	if (--c->ctx->active == 0)
		event_base_loopbreak(c->ctx->base);
}

static const struct rdma_client_ops probe_ctx_ops = {
	.op = probe_ctx_op,
	.done = probe_ctx_done,
};

/* ---- connections ----------------------------------------------------- */

static void probe_ctx_conn_free(struct probe_conn *c)
{
	if (!c)
		return;
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

	memset(&co, 0, sizeof(co));
	memcpy(&co.dst, &d->dst, d->dst_len);
	if (d->src_len)
		memcpy(&co.src, &d->src, d->src_len);
	co.rping = o->rping;
	co.ops = o->ops;
	co.size = o->size;
	co.iters = o->iters;
	co.duration_ms = o->duration_ms;
	co.timeout_ms = o->timeout_ms;
	co.depth = o->depth;
	co.seed = o->seed + idx;
	co.verify = o->verify;
	co.busy_poll = o->busy_poll;
	co.psk = o->psk;
	co.log_prio = o->verbosity >= 2 ? LOG_DEBUG :
		      o->verbosity >= 1 ? LOG_INFO : LOG_ERR;
	snprintf(co.name, sizeof(co.name), "%s%sconn %u", label ? label : "",
		 label ? " " : "", idx);
	ret = rdma_client_new(&c->cl, ctx->base, ctx->chan, &co,
			      &probe_ctx_ops, c);
	if (ret) {
		free(c);
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

	for (i = 0; i < ctx->nconns; i++)
		rdma_client_release(ctx->conns[i]->cl);
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
