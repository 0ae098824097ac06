/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-drv-client.c - the client module's reports (rdma_client_report.c)
 * over the fake RDMA layer, against an rdmad's served side: READY, a
 * round, a sample and the end are told from the loop, never from inside
 * a call the embedder made into the client, so the embedder may call the
 * client from each of them; a client freed from its own ops->done is
 * freed once that returns.  "From the loop": each report comes in
 * another of the loop's dispatches than the transition that made it
 * (libevent's running event, seen from the state hook).
 *  1. a mesh session: READY once, outside any call; a round started from
 *     READY, a sample from the round, the close from the sample; the
 *     end told outside the close; the client freed from its ops->done,
 *     its QP and id gone after, nothing told after it;
 *  2. an abort from the embedder before the connection is up (the
 *     machine fails at once): the end is not told inside
 *     rdma_client_abort() but from the loop, once;
 *  3. a refused connect (a port nobody serves): the end from the loop.
 */
#include "drv-fixture.h"

#include "proto.h"

struct probe {
	struct rdma_client *c;
	struct event_base *base;
	/* the running event when a report's transition was made: into
	 * READY (first, or after a round or sample), or the end */
	struct event *made;
	unsigned int same;		/* reports told in its dispatch */
	unsigned int in_call;		/* inside a call into the client */
	unsigned int inside;		/* reports told inside one */
	unsigned int ready, rounds, samples, done, after_free;
	int ret_round, ret_bw, ret_close;
	bool chain;			/* each report asks for the next */
	bool free_in_done;
	bool freed;
	struct rdma_client_outcome o;
};

/* Every call the test makes into the client goes through these. */
#define CALL(p, expr) ((p)->in_call++, (expr), (p)->in_call--)
/* main's own, outside the loop (where libevent has no running event to
 * tell, and its event_base_get_running_event() must not be asked). */
static bool outside;
#define MAIN_CALL(p, expr) (outside = true, CALL(p, expr), outside = false)

static struct event *running(struct probe *p)
{
	return outside ? NULL : event_base_get_running_event(p->base);
}

static void seen(struct probe *p)
{
	if (p->made && running(p) == p->made)
		p->same++;
	p->made = NULL;
	if (p->in_call)
		p->inside++;
	if (p->freed)
		p->after_free++;
}

static void p_ready(void *arg)
{
	struct probe *p = arg;

	seen(p);
	p->ready++;
	if (p->chain)
		CALL(p, p->ret_round = rdma_client_round(p->c, 4096));
}

static void p_round(void *arg, const struct rdma_client_round *r)
{
	struct probe *p = arg;

	seen(p);
	if (r->result == RDMA_CLIENT_FAIL_NONE)
		p->rounds++;
	CALL(p, p->ret_bw = rdma_client_bw(p->c, 4096, 5));
}

static void p_bw(void *arg, const struct rdma_client_bw *b)
{
	struct probe *p = arg;

	seen(p);
	if (b->ops)
		p->samples++;
	CALL(p, p->ret_close = rdma_client_close(p->c));
}

static void p_done(void *arg, const struct rdma_client_outcome *o)
{
	struct probe *p = arg;

	seen(p);
	p->done++;
	p->o = *o;
	p->o.error = NULL;
	if (p->free_in_done) {
		CALL(p, rdma_client_free(p->c));
		p->freed = true;
	}
}

/* The transitions that make a report: into READY (from DESC, a round,
 * a sample) and into the end. */
static void p_state(void *arg, enum rdma_client_state from,
		    enum rdma_client_state to, enum rdma_client_event ev)
{
	struct probe *p = arg;

	(void)ev;
	if ((to == RDMA_CLIENT_ST_READY && from != RDMA_CLIENT_ST_READY) ||
	    to == RDMA_CLIENT_ST_DONE || to == RDMA_CLIENT_ST_FAILED)
		p->made = running(p);
}

static const struct rdma_client_ops p_ops = {
	.state = p_state,
	.ready = p_ready,
	.round = p_round,
	.bw = p_bw,
	.done = p_done,
};

static bool p_over(void *arg)
{
	return ((struct probe *)arg)->done > 0;
}

static void p_start(struct probe *p, struct event_base *base,
		    struct rdma_cm_chan *cm, unsigned int port, bool mesh,
		    const struct rdma_client_ops *ops)
{
	struct rdma_client_opts o;

	memset(p, 0, sizeof(*p));
	p->base = base;
	drv_client_opts(&o, "10.0.0.1", port, PROTO_OP_READ | PROTO_OP_WRITE,
			4096, 1);
	o.mesh = mesh;
	o.depth = 4;
	if (rdma_client_new(&p->c, base, cm, &o, ops, p))
		return;
	MAIN_CALL(p, rdma_client_start(p->c));
}

/* The loop's pending work runs (the client's deferred free among it). */
static void drain(struct event_base *base)
{
	event_base_loop(base, EVLOOP_NONBLOCK);
}

int main(void)
{
	struct event_base *base = event_base_new();
	struct fake_counts n0, n1;
	struct rdma_cm_chan cm;
	struct probe p, q;
	struct drv a;

	tap_plan(9);
	if (!tap_ok(!drv_start(&a, base, "[server]\nlisten = 10.0.0.1:7471\n")
		    && !rdma_cm_chan_open(&cm, base), "rdmad serves on the fake"))
		return tap_done();

	/* 1. a mesh session, each step asked from the report before */
	fake_counts(&n0);
	p_start(&p, base, &cm, 7471, true, &p_ops);
	p.chain = true;
	p.free_in_done = true;
	drv_wait(base, p_over, &p);
	tap_ok(p.ready == 1 && p.rounds == 1 && p.samples == 1 &&
	       p.ret_round == 0 && p.ret_bw == 0 && p.ret_close == 0,
	       "READY, a round, a sample, each asked from the report before "
	       "(%u, %u, %u; %d %d %d)", p.ready, p.rounds, p.samples,
	       p.ret_round, p.ret_bw, p.ret_close);
	tap_ok(p.done == 1 && p.o.fail == RDMA_CLIENT_FAIL_NONE,
	       "the close ends it well, told once (%u, %s)", p.done,
	       rdma_client_fsm_fail_str(p.o.fail));
	tap_ok(p.inside == 0 && p.same == 0, "no report inside a call into "
	       "the client (%u) or in its transition's dispatch (%u)",
	       p.inside, p.same);
	drain(base);
	fake_counts(&n1);
	tap_ok(n1.qps == n0.qps && n1.ids == n0.ids && p.after_free == 0,
	       "freed from its ops->done: its QP and id gone once it returned "
	       "(%u QPs, %u ids), nothing told after (%u)", n1.qps, n1.ids,
	       p.after_free);

	/* 2. an abort from the embedder, resolving still: over at once */
	p_start(&q, base, &cm, 7471, true, &p_ops);
	MAIN_CALL(&q, rdma_client_abort(q.c, "the test aborts"));
	tap_ok(q.done == 0, "the end is not told inside rdma_client_abort "
	       "(%u)", q.done);
	drv_wait(base, p_over, &q);
	tap_ok(q.done == 1 && q.inside == 0 && q.same == 0 &&
	       q.o.fail == RDMA_CLIENT_FAIL_LOCAL,
	       "it is told from the loop, once (%u, %s)", q.done,
	       rdma_client_fsm_fail_str(q.o.fail));
	MAIN_CALL(&q, rdma_client_free(q.c));

	/* 3. a port nobody serves */
	p_start(&q, base, &cm, 7499, false, &p_ops);
	tap_ok(q.done == 0, "a refused connect: nothing told inside start");
	drv_wait(base, p_over, &q);
	tap_ok(q.done == 1 && q.inside == 0 && q.same == 0 &&
	       q.o.fail != RDMA_CLIENT_FAIL_NONE,
	       "its end told from the loop (%s)",
	       rdma_client_fsm_fail_str(q.o.fail));
	MAIN_CALL(&q, rdma_client_free(q.c));

	rdma_cm_chan_close(&cm);
	drv_stop(&a);
	event_base_free(base);
	return tap_done();
}
