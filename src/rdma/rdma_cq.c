/* SPDX-License-Identifier: BSD-2-Clause */
/* rdma_cq.c - a completion queue and its one strategy (see rdma_cq.h). */
#include <errno.h>
#include <string.h>

#include "clock.h"
#include "fd.h"
#include "rdma_cq.h"
#include "rdma_log.h"

/* Up to ROUNDS full batches, fewer once RDMA_CQ_SLICE_NS have passed:
 * their count, or -errno; *more when the last batch was full. */
static int rdma_cq_take(struct rdma_cq *c, unsigned int rounds, bool *more)
{
	struct ibv_wc wc[RDMA_CQ_BATCH];
	uint64_t t0 = clock_now_ns();
	int n, i, total = 0;

	*more = false;
	while (rounds-- && (!total || clock_now_ns() - t0 < RDMA_CQ_SLICE_NS)) {
		n = ibv_poll_cq(c->cq, RDMA_CQ_BATCH, wc);
		if (n < 0)
			return -EIO;
		for (i = 0; i < n; i++)
			c->fn(c->arg, &wc[i]);
		total += n;
		if (n < RDMA_CQ_BATCH)
			return total;
	}
	*more = true;
	return total;
}

int rdma_cq_poll(struct rdma_cq *c)
{
	bool more;

	return rdma_cq_take(c, RDMA_CQ_ROUNDS, &more);
}

/* The next poll of a busy CQ: a timer that is due at once. */
static const struct timeval rdma_cq_now = { 0, 0 };

static void rdma_cq_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdma_cq *c = arg;
	const char *failed = NULL;
	struct ibv_cq *cq;
	void *ctx;
	bool more;

	/*
	 * One event at most: the CQ is armed once per event, so a second
	 * read would only return EAGAIN (a syscall per completion).  The
	 * again timer's run has no event to read and keeps the arming.
	 */
	if ((what & EV_READ) && !ibv_get_cq_event(c->cc, &cq, &ctx)) {
		if (++c->unacked >= RDMA_CQ_ACK_BATCH) {
			ibv_ack_cq_events(c->cq, c->unacked);
			c->unacked = 0;
		}
		if (ibv_req_notify_cq(c->cq, 0))
			failed = "completion queue: cannot re-arm it";
	}
	if (rdma_cq_take(c, RDMA_CQ_ROUNDS, &more) < 0)
		failed = "completion queue: polling it failed";
	else if (more && !failed && evtimer_add(c->again, &rdma_cq_now))
		failed = "completion queue: cannot schedule the next poll";
	if (failed && c->fail)
		c->fail(c->arg, failed);
}

int rdma_cq_open(struct rdma_cq *c, struct event_base *base,
		 struct ibv_context *verbs, int depth, bool polled,
		 void *cq_ctx, rdma_cq_fn *fn, rdma_cq_fail_fn *fail,
		 void *arg)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->fn = fn;
	c->fail = fail;
	c->arg = arg;
	if (!polled) {
		c->cc = ibv_create_comp_channel(verbs);
		if (!c->cc)
			return errno ? -errno : -ENOMEM;
		ret = fd_nonblock(c->cc->fd);
		if (ret)
			goto err;
	}
	c->cq = ibv_create_cq(verbs, depth, cq_ctx, c->cc, 0);
	if (!c->cq) {
		ret = errno ? -errno : -ENOMEM;
		goto err;
	}
	if (polled)
		return 0;
	ret = -ENOMEM;
	c->ev = event_new(base, c->cc->fd, EV_READ | EV_PERSIST, rdma_cq_cb,
			  c);
	c->again = evtimer_new(base, rdma_cq_cb, c);
	if (!c->ev || !c->again || event_add(c->ev, NULL))
		goto err;
	ret = ibv_req_notify_cq(c->cq, 0);
	if (ret) {
		ret = -ret;
		goto err;
	}
	return 0;
err:
	rdma_cq_close(c);
	return ret;
}

void rdma_cq_close(struct rdma_cq *c)
{
	if (c->ev)
		event_free(c->ev);
	if (c->again)
		event_free(c->again);
	if (c->cq && c->unacked)
		ibv_ack_cq_events(c->cq, c->unacked);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->cc)
		ibv_destroy_comp_channel(c->cc);
	memset(c, 0, sizeof(*c));
}
