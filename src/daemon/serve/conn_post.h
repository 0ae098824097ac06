/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_post.h - a connection's work requests on its rdma_qp: receives
 * into the control slots, SENDs from them, RDMA READ/WRITE of the data
 * buffer, liveness checks; ids from rdma_wr.h.  0 or -errno.
 */
#ifndef RDMAD_CONN_POST_H
#define RDMAD_CONN_POST_H

#include <stddef.h>
#include <stdint.h>

#include "serve/conn_core.h"

/* Receive slot I of the control buffer. */
uint8_t *conn_post_recv_slot(struct conn *c, unsigned int i);
/* The next send slot (a ring of CONN_SEND_SLOTS). */
uint8_t *conn_post_slot(struct conn *c);
int conn_post_recv(struct conn *c, unsigned int slot);
/* A SEND of LEN bytes already in the slot P, its id of KIND. */
int conn_post_send(struct conn *c, enum rdma_wr_kind kind, uint8_t *p,
		   size_t len);
int conn_post_msg(struct conn *c, uint8_t *p, size_t len);
/* rping: RDMA READ or WRITE of LEN bytes of the data buffer. */
int conn_post_rdma(struct conn *c, enum ibv_wr_opcode op, uint64_t raddr,
		   uint32_t rkey, uint32_t len);
int conn_post_liveness(struct conn *c);

#endif /* RDMAD_CONN_POST_H */
