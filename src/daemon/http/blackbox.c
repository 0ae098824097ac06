/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blackbox.c - the probes of GET /probe (blackbox.h): one rdma_client
 * each, a native session with the module's settings, on rdmad's loop and
 * CM channel, with the [auth] key only for the targets of [http]
 * probe_key_allow.  The module's timeout bounds the whole probe (and each of
 * its steps); a probe whose asker went away is aborted and freed when its
 * client is over.  A client is never freed from its own callbacks: that
 * waits for the loop (an event of its own).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/acl_match.h"
#include "http/blackbox.h"
#include "clock.h"
#include "rdma_client.h"
#include "rdma_client_result.h"

struct blackbox_probe {
	struct blackbox *bb;
	struct blackbox_probe *next;
	struct rdma_client *c;
	blackbox_done_fn done;		/* NULL: canceled */
	void *arg;
	struct event *timer;		/* the module's timeout */
	struct event *reap;		/* free from the loop */
	bool timed_out;
	uint32_t size;			/* of each operation */
	uint64_t start;
	struct blackbox_result r;
};

void blackbox_init(struct blackbox *bb, struct event_base *base,
		   struct rdma_cm_chan *cm, struct rdma_devs *devs,
		   const struct rdmad_config *cfg)
{
	memset(bb, 0, sizeof(*bb));
	bb->base = base;
	bb->cm = cm;
	bb->devs = devs;
	bb->cfg = cfg;
}

static void blackbox_free(struct blackbox_probe *p)
{
	struct blackbox_probe **pp;

	for (pp = &p->bb->probes; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	p->bb->n--;
	if (p->c)
		rdma_client_free(p->c);
	if (p->timer)
		event_free(p->timer);
	if (p->reap)
		event_free(p->reap);
	free(p);
}

/* Tell the asker, once. */
static void blackbox_answer(struct blackbox_probe *p)
{
	blackbox_done_fn done = p->done;

	p->done = NULL;
	if (done)
		done(p->arg, &p->r);
}

/* Over: tell the asker (from the loop, never from inside
 * blackbox_start), then free. */
static void blackbox_reap_cb(evutil_socket_t fd, short what, void *arg)
{
	struct blackbox_probe *p = arg;

	blackbox_answer(p);
	blackbox_free(p);
}

static void blackbox_fill(struct blackbox_probe *p,
			  const struct rdma_client_outcome *o);

/*
 * The module's timeout bounds the answer: the client is aborted, and if
 * it is still closing (waiting for the peer to acknowledge the
 * disconnect, which a stalled peer never does, bounded only by another
 * step deadline) the asker is answered now and the probe freed when the
 * client is over.
 */
static void blackbox_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct blackbox_probe *p = arg;
	struct rdma_client_outcome o;

	p->timed_out = true;
	rdma_client_abort(p->c, "the module's timeout passed");
	if (rdma_client_finished(p->c) || !p->done)
		return;		/* answered from the reap */
	rdma_client_outcome(p->c, &o);
	blackbox_fill(p, &o);
	blackbox_answer(p);
}

static void blackbox_op(void *arg, enum rdma_client_op kind, uint32_t bytes,
			uint64_t posted, uint64_t done)
{
	struct blackbox_probe *p = arg;
	unsigned int k = kind == RDMA_CLIENT_OP_WRITE;
	double s = done > posted ? (double)(done - posted) / 1e9 : 0;

	p->r.ops[k]++;
	p->r.op_sum_s[k] += s;
	if (s > p->r.op_max_s[k])
		p->r.op_max_s[k] = s;
	if (kind == RDMA_CLIENT_OP_READ)
		p->r.bytes_verified += bytes;
}

/* The result of the probe from the client's outcome O. */
static void blackbox_fill(struct blackbox_probe *p,
			  const struct rdma_client_outcome *o)
{
	struct blackbox_result *r = &p->r;
	const struct rdma_client_times *t = o->times;
	enum rdma_client_fail fail = o->fail;

	if (p->timed_out && fail != RDMA_CLIENT_FAIL_NONE)
		fail = RDMA_CLIENT_FAIL_TIMEOUT;
	r->success = fail == RDMA_CLIENT_FAIL_NONE;
	r->failed = r->success ? NULL :
		    mesh_result_name(mesh_result_of(fail));
	r->error = r->success ? NULL : o->error;
	r->duration_s = (double)(clock_now_ns() - p->start) / 1e9;
	r->connect_s = t->established && t->start ?
		       (double)(t->established - t->start) / 1e9 : -1;
	/* The server checked the last WRITE: RESULT ok. */
	if (r->success && o->writes_done)
		r->bytes_verified += p->size;
}

static void blackbox_client_done(void *arg,
				 const struct rdma_client_outcome *o)
{
	struct blackbox_probe *p = arg;

	evtimer_del(p->timer);
	if (p->done)
		blackbox_fill(p, o);
	event_active(p->reap, EV_TIMEOUT, 0);
}

static const struct rdma_client_ops blackbox_client_ops = {
	.op = blackbox_op,
	.done = blackbox_client_done,
};

int blackbox_start(struct blackbox *bb, const struct sockaddr_storage *dst,
		   const struct config_module *m, blackbox_done_fn done,
		   void *arg, struct blackbox_probe **out)
{
	struct timeval tv = { m->timeout_ms / 1000,
			      (m->timeout_ms % 1000) * 1000 };
	struct rdma_client_opts o;
	struct blackbox_probe *p;
	int ret;

	if (bb->n >= BLACKBOX_MAX)
		return -EBUSY;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->bb = bb;
	p->done = done;
	p->arg = arg;
	p->size = m->size;
	p->next = bb->probes;
	bb->probes = p;
	bb->n++;
	p->timer = evtimer_new(bb->base, blackbox_timer_cb, p);
	p->reap = event_new(bb->base, -1, 0, blackbox_reap_cb, p);
	if (!p->timer || !p->reap) {
		ret = -ENOMEM;
		goto err;
	}

	memset(&o, 0, sizeof(o));
	o.dst = *dst;
	o.ops = m->ops;
	o.size = m->size;
	o.iters = m->iterations;
	o.timeout_ms = m->timeout_ms;
	o.depth = 1;
	o.seed = clock_now_ns() ^ ((uint64_t)bb->seq << 32);
	o.verify = true;
	o.tos = m->tos;
	/* The key only for targets the operator named: anyone who may ask
	 * for /probe names the target, and a keyed session proves the key
	 * to whoever answers there. */
	o.psk = bb->cfg->psk.len && acl_match(&bb->cfg->probe_key_allow,
					      (const struct sockaddr *)dst) ?
		&bb->cfg->psk : NULL;
	o.devs = bb->devs;
	/* The failure is the answer; Prometheus probing a dead host every
	 * scrape must not write an error line to the journal each time. */
	o.log_prio = -1;
	snprintf(o.name, sizeof(o.name), "probe %u (module %s)", bb->seq++,
		 m->name);
	ret = rdma_client_new(&p->c, bb->base, bb->cm, &o,
			      &blackbox_client_ops, p);
	if (ret)
		goto err;
	if (evtimer_add(p->timer, &tv)) {
		ret = -ENOMEM;
		goto err;
	}
	p->start = clock_now_ns();
	rdma_client_start(p->c);
	*out = p;
	return 0;
err:
	blackbox_free(p);
	return ret;
}

void blackbox_cancel(struct blackbox_probe *p)
{
	p->done = NULL;
	rdma_client_abort(p->c, "the HTTP client went away");
}

void blackbox_fini(struct blackbox *bb)
{
	struct blackbox_probe *p;

	for (p = bb->probes; p; p = p->next)
		blackbox_cancel(p);
	while (bb->probes)
		blackbox_free(bb->probes);
}
