/* SPDX-License-Identifier: BSD-2-Clause */
/* conn_post.c - a connection's work requests (see conn_post.h). */
#include "clock.h"
#include "serve/conn_post.h"

uint8_t *conn_post_recv_slot(struct conn *c, unsigned int i)
{
	return c->ctl.p + (size_t)i * PROTO_MSG_MAX;
}

uint8_t *conn_post_slot(struct conn *c)
{
	unsigned int i = CONN_RECV_DEPTH + c->send_next;

	c->send_next = (c->send_next + 1) % CONN_SEND_SLOTS;
	return c->ctl.p + (size_t)i * PROTO_MSG_MAX;
}

int conn_post_recv(struct conn *c, unsigned int slot)
{
	return rdma_qp_post_recv(&c->qp, rdma_wr_id(RDMA_WR_RECV, slot),
				 conn_post_recv_slot(c, slot), PROTO_MSG_MAX,
				 c->ctl.mr->lkey);
}

/* Post a SEND of LEN bytes already written into the slot P. */
int conn_post_send(struct conn *c, enum rdma_wr_kind kind, uint8_t *p,
		   size_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)p,
		.length = (uint32_t)len,
		.lkey = c->ctl.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = rdma_wr_id(kind, 0),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	};

	return rdma_qp_post_send(&c->qp, &wr);
}

int conn_post_msg(struct conn *c, uint8_t *p, size_t len)
{
	return conn_post_send(c, RDMA_WR_SEND, p, len);
}

/* Liveness check: a zero-length RDMA WRITE (rdma_qp.h). */
int conn_post_liveness(struct conn *c)
{
	int ret = rdma_qp_post_liveness(&c->qp, rdma_wr_id(RDMA_WR_LIVE, 0));

	if (!ret)
		stats_liveness_check(c->s->stats);
	return ret;
}

int conn_post_rdma(struct conn *c, enum ibv_wr_opcode op, uint64_t raddr,
		   uint32_t rkey, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)c->buf.p,
		.length = len,
		.lkey = c->buf.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = rdma_wr_id(op == IBV_WR_RDMA_READ ? RDMA_WR_READ :
				    RDMA_WR_WRITE, 0),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	};
	int ret = rdma_qp_post_send(&c->qp, &wr);

	if (ret)
		return ret;
	c->t_post[op == IBV_WR_RDMA_READ ? STATS_OP_READ : STATS_OP_WRITE] =
		clock_now_ns();
	return 0;
}
