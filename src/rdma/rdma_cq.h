/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_cq.h - a completion queue and how its completions are taken: the
 * one strategy of every program.
 *
 * Event-driven (the default): the completion channel's fd is non-blocking
 * in the loop.  On wake-up the CQ event is taken (one: the CQ is armed
 * once per event, so a second read would only cost a syscall; acked in
 * batches), the CQ is re-armed, then polled until empty, so a completion
 * that arrives between the poll and the re-arm is never missed.  At most
 * RDMA_CQ_ROUNDS full batches are taken per wake-up, and no new batch
 * once RDMA_CQ_SLICE_NS have passed (the owner's work per completion, a
 * verified 1 MiB READ, can be slow); if there may be more, the next poll
 * is a timer due at once, so the loop collects its
 * expired timers and ready fds first: one busy connection starves
 * neither the others nor its own deadlines.  (Making the event active
 * again from its callback would not do: libevent runs the active queue
 * until it is empty before it looks at timers, so at a queue depth of
 * RDMA_CQ_BATCH or more, where every poll is a full batch, no -D or
 * step timer ever fired.)
 *
 * Polled (busy polling): no channel; the owner calls rdma_cq_poll()
 * again and again, and runs its loop between calls.
 *
 * A CQ that cannot be re-armed or polled would leave its owner waiting
 * for completions that are never seen: the owner's fail callback hears
 * of it at once (after the completions that could still be taken).
 *
 * The owner must not close the CQ from inside its callbacks (defer the
 * teardown to the loop).
 */
#ifndef RDMAD_RDMA_CQ_H
#define RDMAD_RDMA_CQ_H

#include <stdbool.h>

#include <event2/event.h>
#include <infiniband/verbs.h>

#define RDMA_CQ_BATCH		32	/* completions per ibv_poll_cq */
#define RDMA_CQ_ROUNDS		8	/* full batches per wake-up */
#define RDMA_CQ_ACK_BATCH	16	/* CQ events acked together */
#define RDMA_CQ_SLICE_NS	2000000u /* no new batch after 2 ms */

typedef void rdma_cq_fn(void *arg, const struct ibv_wc *wc);
/* WHAT failed: "completion queue: cannot re-arm it" ... */
typedef void rdma_cq_fail_fn(void *arg, const char *what);

struct rdma_cq {
	struct ibv_comp_channel *cc;	/* NULL: polled */
	struct ibv_cq *cq;
	struct event *ev;
	struct event *again;		/* the next poll of a busy CQ */
	unsigned int unacked;
	rdma_cq_fn *fn;
	rdma_cq_fail_fn *fail;
	void *arg;
};

/*
 * A CQ of DEPTH entries on VERBS, its cq_context CQ_CTX (for async
 * errors); each completion goes to FN(ARG), a failure of the CQ itself
 * to FAIL(ARG).  0 or -errno; on failure nothing is left to close.
 */
int rdma_cq_open(struct rdma_cq *c, struct event_base *base,
		 struct ibv_context *verbs, int depth, bool polled,
		 void *cq_ctx, rdma_cq_fn *fn, rdma_cq_fail_fn *fail,
		 void *arg);
void rdma_cq_close(struct rdma_cq *c);
/* Take the completions there are now, at most RDMA_CQ_ROUNDS full
 * batches (call again for the rest).  The count, or -errno. */
int rdma_cq_poll(struct rdma_cq *c);

#endif /* RDMAD_RDMA_CQ_H */
