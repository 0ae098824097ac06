/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_qp.h - one connection's verbs objects: protection domain,
 * completion queue (rdma_cq.h), RC queue pair, registered buffers; the
 * queue pair's states; posting work requests (their ids: rdma_wr.h).
 *
 * Both sides move their QP themselves (INIT, RTR, RTS, ERR), so that the
 * transport's budget for a silent peer is ours on every QP: each try waits
 * the local ACK timeout, 4.096 us * 2^17 = 0.537 s, and 6 retries follow
 * the first, so a peer that stopped acknowledging is given up on about
 * 3.8 s after our last unanswered packet.  rdma_cm would take the peer's
 * retry count (7 from rping, which soft-RoCE takes as "retry forever")
 * and an ACK timeout of 19 (2.1 s) on soft-RoCE.
 *
 * Passive side: rdma_qp_create, rdma_qp_accept (RTR, RTS, rdma_accept).
 * Active side: rdma_qp_create once the address is resolved,
 * rdma_qp_connect when the route is, and on CONNECT_RESPONSE
 * rdma_qp_establish (RTR, RTS, rdma_establish): the connection is then
 * established (the active side gets no ESTABLISHED event).
 *
 * Teardown, one order whatever the path: rdma_qp_disconnect (or
 * rdma_qp_error) flushes every posted work request; once they have
 * completed (posted_send and posted_recv at 0) or a deadline passed,
 * rdma_qp_destroy frees the QP, the buffers, the CQ and the PD.  The
 * cm_id is the owner's and goes last.  Never from a completion callback.
 */
#ifndef RDMAD_RDMA_QP_H
#define RDMAD_RDMA_QP_H

#include <stdbool.h>
#include <stdint.h>

#include <event2/event.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "rdma_buf.h"
#include "rdma_cm.h"
#include "rdma_cq.h"
#include "rdma_wr.h"

#define RDMA_QP_ACK_TIMEOUT	17
#define RDMA_QP_RETRY_CNT	6
#define RDMA_QP_RNR_RETRY	7	/* receiver not ready: wait forever */
#define RDMA_QP_RD_ATOM_MAX	128	/* READs in flight, device permitting */

struct rdma_qp_ops {
	/* Each completion, in order (posted counts already updated). */
	void (*wc)(void *arg, const struct ibv_wc *wc);
	/* An async error of the QP or its CQ (WHAT: its name). */
	void (*fatal)(void *arg, const char *what);
};

struct rdma_qp_attr {
	uint32_t send_depth;
	uint32_t recv_depth;
	bool polled;		/* no completion channel: rdma_qp_poll() */
};

struct rdma_qp {
	struct rdma_cm_id *id;		/* the owner's */
	struct ibv_pd *pd;
	struct rdma_cq cq;
	struct ibv_qp *qp;
	struct rdma_buf *bufs;		/* registered on pd */
	unsigned int posted_send;	/* not completed yet */
	unsigned int posted_recv;
	const struct rdma_qp_ops *ops;
	void *arg;
};

/*
 * PD, CQ (in BASE's loop unless polled) and RC QP on ID's device, the QP
 * in INIT.  0 or -errno with the step that failed in *step; on failure
 * nothing is left (rdma_qp_destroy is harmless).
 */
int rdma_qp_create(struct rdma_qp *q, struct event_base *base,
		   struct rdma_cm_id *id, const struct rdma_qp_attr *a,
		   const struct rdma_qp_ops *ops, void *arg,
		   const char **step);
/* Everything but the cm_id, in the safe order; harmless twice. */
void rdma_qp_destroy(struct rdma_qp *q);

/* A buffer registered on the QP's PD, freed with it at the latest. */
int rdma_qp_buf(struct rdma_qp *q, struct rdma_buf *b, size_t len,
		int access);
void rdma_qp_buf_free(struct rdma_qp *q, struct rdma_buf *b);

/*
 * Passive side, on CONNECT_REQUEST REQ: RTR and RTS with responder
 * resources and initiator depth within the peer's and the device's
 * (DA), then rdma_accept with PDATA.  0 or -errno.
 */
int rdma_qp_accept(struct rdma_qp *q, const struct rdma_cm_ev *req,
		   const struct ibv_device_attr *da, const void *pdata,
		   uint8_t pdata_len);
/* Active side, on ROUTE_RESOLVED: rdma_connect with PDATA. */
int rdma_qp_connect(struct rdma_qp *q, const struct ibv_device_attr *da,
		    const void *pdata, uint8_t pdata_len);
/* Active side, on CONNECT_RESPONSE: RTR, RTS, rdma_establish. */
int rdma_qp_establish(struct rdma_qp *q);

/*
 * rdma_disconnect, and the QP to ERR so every posted request flushes;
 * both are tried.  Returns 0 or -errno of rdma_disconnect (the connection
 * is not up, or no more: the peer left first; no DISCONNECTED may come).
 * *FLUSH_ERR: 0 or -errno of the move to ERR; then posted requests may
 * never complete, and only the owner's deadline bounds the wait: worth a
 * warning.
 */
int rdma_qp_disconnect(struct rdma_qp *q, int *flush_err);

int rdma_qp_post_recv(struct rdma_qp *q, uint64_t wr_id, void *addr,
		      uint32_t len, uint32_t lkey);
/* Post WR (a chain); each counts in posted_send until it completes. */
int rdma_qp_post_send(struct rdma_qp *q, struct ibv_send_wr *wr);
/* A signalled zero-length RDMA WRITE: no key, no peer CPU; its ACK is a
 * sign of life, silence ends in a retry-exceeded completion. */
int rdma_qp_post_liveness(struct rdma_qp *q, uint64_t wr_id);

/* Polled QPs: take every completion there is now (count or -errno). */
int rdma_qp_poll(struct rdma_qp *q);

/* Async events (rdma_dev.c): tell the owner. */
void rdma_qp_fatal(struct rdma_qp *q, const char *what);

/* The transport's budget in words, for a debug line: "local ACK
 * timeout 17 (0.537 s), retry count 6, ...". */
void rdma_qp_describe(struct rdma_qp *q, char *buf, size_t len);

#endif /* RDMAD_RDMA_QP_H */
