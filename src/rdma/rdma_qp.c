/* SPDX-License-Identifier: BSD-2-Clause */
/* rdma_qp.c - one connection's verbs objects (see rdma_qp.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rdma_log.h"
#include "rdma_qp.h"

static int rdma_qp_errno(void)
{
	return errno ? -errno : -EIO;
}

/* Each completion: account for it, then tell the owner. */
static void rdma_qp_wc(void *arg, const struct ibv_wc *wc)
{
	struct rdma_qp *q = arg;

	if (rdma_wr_kind(wc->wr_id) == RDMA_WR_RECV) {
		if (q->posted_recv)
			q->posted_recv--;
	} else if (q->posted_send) {
		q->posted_send--;
	}
	q->ops->wc(q->arg, wc);
}

void rdma_qp_fatal(struct rdma_qp *q, const char *what)
{
	if (q->ops->fatal)
		q->ops->fatal(q->arg, what);
}

static void rdma_qp_cq_fail(void *arg, const char *what)
{
	rdma_qp_fatal(arg, what);
}

/*
 * Move the QP to STATE with the attributes rdma_cm computed for this
 * connection.  RD and INIT (-1: rdma_cm's) are the READs the peer may
 * have in flight to us (RTR) and ours to it (RTS); RTS gets our retry
 * budget.
 */
static int rdma_qp_move(struct rdma_qp *q, enum ibv_qp_state state, int rd,
			int init)
{
	struct ibv_qp_attr a;
	int mask = 0;

	memset(&a, 0, sizeof(a));
	a.qp_state = state;
	if (rdma_init_qp_attr(q->id, &a, &mask))
		return rdma_qp_errno();
	if (state == IBV_QPS_RTR && rd >= 0)
		a.max_dest_rd_atomic = (uint8_t)rd;
	if (state == IBV_QPS_RTS) {
		if (init >= 0)
			a.max_rd_atomic = (uint8_t)init;
		a.timeout = RDMA_QP_ACK_TIMEOUT;
		a.retry_cnt = RDMA_QP_RETRY_CNT;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT;
	}
	if (ibv_modify_qp(q->qp, &a, mask))
		return rdma_qp_errno();
	return 0;
}

/*
 * INIT again (the connection's access rights are known only once the CM
 * exchange began: before it, rdma_cm gives none), then RTR and RTS.
 */
static int rdma_qp_ready(struct rdma_qp *q, int rd, int init)
{
	int ret;

	ret = rdma_qp_move(q, IBV_QPS_INIT, -1, -1);
	if (!ret)
		ret = rdma_qp_move(q, IBV_QPS_RTR, rd, -1);
	if (!ret)
		ret = rdma_qp_move(q, IBV_QPS_RTS, -1, init);
	return ret;
}

int rdma_qp_create(struct rdma_qp *q, struct event_base *base,
		   struct rdma_cm_id *id, const struct rdma_qp_attr *a,
		   const struct rdma_qp_ops *ops, void *arg,
		   const char **step)
{
	struct ibv_qp_init_attr qa;
	int ret;

	memset(q, 0, sizeof(*q));
	q->id = id;
	q->ops = ops;
	q->arg = arg;
	*step = "ibv_alloc_pd";
	q->pd = ibv_alloc_pd(id->verbs);
	if (!q->pd)
		return rdma_qp_errno();
	*step = "completion queue";
	ret = rdma_cq_open(&q->cq, base, id->verbs,
			   (int)(a->send_depth + a->recv_depth), a->polled, q,
			   rdma_qp_wc, rdma_qp_cq_fail, q);
	if (ret)
		goto err;

	memset(&qa, 0, sizeof(qa));
	qa.qp_context = q;
	qa.send_cq = q->cq.cq;
	qa.recv_cq = q->cq.cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = a->send_depth;
	qa.cap.max_recv_wr = a->recv_depth;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	*step = "ibv_create_qp";
	q->qp = ibv_create_qp(q->pd, &qa);
	if (!q->qp) {
		ret = rdma_qp_errno();
		goto err;
	}
	*step = "QP to INIT";
	ret = rdma_qp_move(q, IBV_QPS_INIT, -1, -1);
	if (ret)
		goto err;
	return 0;
err:
	rdma_qp_destroy(q);
	return ret;
}

void rdma_qp_destroy(struct rdma_qp *q)
{
	if (q->qp)
		ibv_destroy_qp(q->qp);
	q->qp = NULL;
	while (q->bufs)
		rdma_qp_buf_free(q, q->bufs);
	rdma_cq_close(&q->cq);
	if (q->pd)
		ibv_dealloc_pd(q->pd);
	q->pd = NULL;
}

static uint8_t rdma_qp_min(int a, int b)
{
	int m = a < b ? a : b;

	if (m > RDMA_QP_RD_ATOM_MAX)
		m = RDMA_QP_RD_ATOM_MAX;
	return (uint8_t)(m > 0 ? m : 0);
}

int rdma_qp_accept(struct rdma_qp *q, const struct rdma_cm_ev *req,
		   const struct ibv_device_attr *da, const void *pdata,
		   uint8_t pdata_len)
{
	struct rdma_conn_param cp;
	int ret;

	memset(&cp, 0, sizeof(cp));
	/* READs the peer sends us: our responder resources, no more than
	 * it will initiate; ours to it: no more than it will answer. */
	cp.responder_resources = rdma_qp_min(req->initiator_depth,
					     da->max_qp_rd_atom);
	cp.initiator_depth = rdma_qp_min(req->responder_resources,
					 da->max_qp_init_rd_atom);
	cp.retry_count = RDMA_QP_RETRY_CNT;
	cp.rnr_retry_count = RDMA_QP_RNR_RETRY;
	cp.private_data = pdata;
	cp.private_data_len = pdata_len;
	/* Ready to receive and to send before the peer hears of it. */
	ret = rdma_qp_ready(q, cp.responder_resources, cp.initiator_depth);
	if (ret)
		return ret;
	cp.qp_num = q->qp->qp_num;
	if (rdma_accept(q->id, &cp))
		return rdma_qp_errno();
	return 0;
}

int rdma_qp_connect(struct rdma_qp *q, const struct ibv_device_attr *da,
		    const void *pdata, uint8_t pdata_len)
{
	struct rdma_conn_param cp;

	memset(&cp, 0, sizeof(cp));
	cp.initiator_depth = rdma_qp_min(da->max_qp_init_rd_atom,
					 RDMA_QP_RD_ATOM_MAX);
	cp.responder_resources = rdma_qp_min(da->max_qp_rd_atom,
					     RDMA_QP_RD_ATOM_MAX);
	/* Goes to a peer whose rdma_cm moves its QP (rping) too. */
	cp.retry_count = RDMA_QP_RETRY_CNT;
	cp.rnr_retry_count = RDMA_QP_RNR_RETRY;
	cp.private_data = pdata;
	cp.private_data_len = pdata_len;
	cp.qp_num = q->qp->qp_num;
	if (rdma_connect(q->id, &cp))
		return rdma_qp_errno();
	return 0;
}

int rdma_qp_establish(struct rdma_qp *q)
{
	int ret;

	ret = rdma_qp_ready(q, -1, -1);
	if (ret)
		return ret;
	if (rdma_establish(q->id))
		return rdma_qp_errno();
	return 0;
}

int rdma_qp_disconnect(struct rdma_qp *q, int *flush_err)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	int ret = 0;

	if (rdma_disconnect(q->id))
		ret = rdma_qp_errno();
	*flush_err = 0;
	if (q->qp && ibv_modify_qp(q->qp, &a, IBV_QP_STATE))
		*flush_err = rdma_qp_errno();
	return ret;
}

int rdma_qp_post_recv(struct rdma_qp *q, uint64_t wr_id, void *addr,
		      uint32_t len, uint32_t lkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)addr,
		.length = len,
		.lkey = lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = wr_id,
		.sg_list = &sge,
		.num_sge = 1,
	}, *bad;
	int ret;

	ret = ibv_post_recv(q->qp, &wr, &bad);
	if (ret)
		return -ret;
	q->posted_recv++;
	return 0;
}

int rdma_qp_post_send(struct rdma_qp *q, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad, *w;
	unsigned int n = 0;
	int ret;

	ret = ibv_post_send(q->qp, wr, &bad);
	/* On failure the requests before BAD were posted. */
	for (w = wr; w && (!ret || w != bad); w = w->next)
		n++;
	q->posted_send += n;
	return -ret;
}

int rdma_qp_post_liveness(struct rdma_qp *q, uint64_t wr_id)
{
	struct ibv_send_wr wr = {
		.wr_id = wr_id,
		.num_sge = 0,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
	};

	return rdma_qp_post_send(q, &wr);
}

int rdma_qp_poll(struct rdma_qp *q)
{
	return rdma_cq_poll(&q->cq);
}

void rdma_qp_describe(struct rdma_qp *q, char *buf, size_t len)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;
	double t;

	if (!q->qp || ibv_query_qp(q->qp, &a, IBV_QP_TIMEOUT |
				   IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY, &ia)) {
		snprintf(buf, len, "QP: cannot query it");
		return;
	}
	t = a.timeout ? 4.096e-6 * (double)(1ull << a.timeout) : 0;
	snprintf(buf, len, "QP: local ACK timeout %u (%.3f s), retry count "
		 "%u, RNR retry %u: a silent peer is given up on after about "
		 "%.1f s", a.timeout, t, a.retry_cnt, a.rnr_retry,
		 t * (a.retry_cnt + 1));
}
