/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_report.c - what a client tells its embedder, and its end.
 *
 * The reports (ops->ready, ->round, ->bw, ->done) are never made from
 * inside the client's own transition: the driver posts them while it
 * carries out the state machine's actions (rdma_client_report_post), and
 * they are delivered from the client's own zero-delay event once the loop
 * is back, in the order READY, round, sample, end.  So an embedder may
 * call the client from any of them (a round, a sample, a close, an abort)
 * and never re-enters a transition of its own making.
 *
 * rdma_client_release() and rdma_client_free() asked from inside a report
 * are carried out once it returns (no later report is delivered): an
 * embedder may let go of a client from its ops->done.
 */
#include <errno.h>
#include <stdlib.h>

#include "rdma_client.h"
#include "rdma_client_conn.h"

enum {
	REPORT_RELEASE = 1,
	REPORT_FREE = 2,
};

static void rdma_client_report_one(struct rdma_client *c, unsigned int r)
{
	const struct rdma_client_ops *ops = c->ops;

	if (r == RDMA_CLIENT_REPORT_READY && ops->ready)
		ops->ready(c->arg);
	else if (r == RDMA_CLIENT_REPORT_ROUND && ops->round)
		ops->round(c->arg, &c->rep_rnd);
	else if (r == RDMA_CLIENT_REPORT_BW && ops->bw)
		ops->bw(c->arg, &c->rep_bw);
	else if (r == RDMA_CLIENT_REPORT_DONE && ops->done)
		ops->done(c->arg, &c->rep_out);
}

static void rdma_client_report_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdma_client *c = arg;
	unsigned int r;

	(void)fd;
	(void)what;
	c->reporting = true;
	while (!c->end_asked && c->report) {
		r = c->report & -c->report;	/* the lowest first */
		c->report &= ~r;
		rdma_client_report_one(c, r);
	}
	c->reporting = false;
	if (c->end_asked == REPORT_FREE)
		rdma_client_free(c);
	else if (c->end_asked == REPORT_RELEASE)
		rdma_client_release(c);
}

int rdma_client_report_init(struct rdma_client *c)
{
	c->report_ev = event_new(c->base, -1, 0, rdma_client_report_cb, c);
	return c->report_ev ? 0 : -ENOMEM;
}

void rdma_client_report_post(struct rdma_client *c, unsigned int what)
{
	if (!c->report_ev)
		return;			/* released: nobody listens */
	c->report |= what;
	event_active(c->report_ev, EV_TIMEOUT, 0);
}

/* The layer's teardown order: events, QP with its buffers, CQ and PD,
 * then the cm_id; a second call finds nothing left. */
void rdma_client_release(struct rdma_client *c)
{
	if (c->reporting) {
		if (!c->end_asked)
			c->end_asked = REPORT_RELEASE;
		return;
	}
	if (c->timer)
		event_free(c->timer);
	if (c->dur_timer)
		event_free(c->dur_timer);
	if (c->report_ev)
		event_free(c->report_ev);
	c->timer = c->dur_timer = c->report_ev = NULL;
	c->report = 0;
	if (c->qp)
		rdma_qp_destroy(&c->q);
	c->qp = false;
	free(c->ref);
	free(c->sges);
	free(c->wrs);
	free(c->slot_posted);
	c->ref = NULL;
	c->sges = NULL;
	c->wrs = NULL;
	c->slot_posted = NULL;
	if (c->id)
		rdma_destroy_id(c->id);
	c->id = NULL;
	c->finished = true;
}

void rdma_client_free(struct rdma_client *c)
{
	if (!c)
		return;
	if (c->reporting) {
		c->end_asked = REPORT_FREE;
		return;
	}
	rdma_client_release(c);
	free(c);
}
