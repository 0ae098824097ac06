/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_conn.c - the client connection's messages (the first
 * failure's reason and text, log lines with its name) and sends, shared
 * by the driver and the sessions (see rdma_client_conn.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "rdma_client_conn.h"
#include "rdma_log.h"

void rdma_client_conn_log(struct rdma_client *c, int prio,
			  const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	/* Nothing is formatted for a line nobody reads: the data path
	 * logs per operation at LOG_DEBUG. */
	if (c->o.log_prio < 0 || (prio > LOG_ERR && prio > c->o.log_prio))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rdma_log(prio, "%s: %s", c->o.name, msg);
}

void rdma_client_conn_reason(struct rdma_client *c, const char *reason)
{
	if (!c->reason && !rdma_client_fsm_terminal(&c->fsm))
		c->reason = reason;
}

void rdma_client_conn_error(struct rdma_client *c, const char *fmt, ...)
{
	va_list ap;

	if (c->error[0] || rdma_client_fsm_terminal(&c->fsm))
		return;
	va_start(ap, fmt);
	vsnprintf(c->error, sizeof(c->error), fmt, ap);
	va_end(ap);
	rdma_client_conn_log(c, LOG_INFO, "error: %s", c->error);
}

uint8_t *rdma_client_conn_send_slot(struct rdma_client *c)
{
	return c->msg.p + RDMA_CLIENT_RECV_SLOTS * RDMA_CLIENT_SLOT_LEN;
}

int rdma_client_conn_send(struct rdma_client *c, uint32_t len, uint32_t idx)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)rdma_client_conn_send_slot(c),
		.length = len,
		.lkey = c->msg.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = rdma_wr_id(RDMA_WR_SEND, idx),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	};

	return rdma_qp_post_send(&c->q, &wr);
}

int rdma_client_conn_post_recv(struct rdma_client *c, uint32_t slot)
{
	return rdma_qp_post_recv(&c->q, rdma_wr_id(RDMA_WR_RECV, slot),
				 c->msg.p + slot * RDMA_CLIENT_SLOT_LEN,
				 RDMA_CLIENT_SLOT_LEN, c->msg.mr->lkey);
}
