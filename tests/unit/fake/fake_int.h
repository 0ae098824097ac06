/* SPDX-License-Identifier: BSD-2-Clause */
/* fake_int.h - what the fake's files share (see fake.h). */
#ifndef RDMAD_FAKE_INT_H
#define RDMAD_FAKE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "rdma_cm.h"
#include "rdma_qp.h"
#include "fake.h"

struct fake_id;
struct fake_cq;

/* A work request waiting: for the peer's receive (SEND), or forever
 * (towards a muted port), until the QP flushes. */
struct fake_wr {
	struct ibv_send_wr wr;
	struct ibv_sge sge[4];
	struct fake_wr *next;
};

struct fake_recv {
	uint64_t wr_id;
	void *addr;
	uint32_t len;
};

struct fake_qp {
	struct ibv_qp qp;		/* first: rdma_qp holds &qp */
	struct rdma_qp *q;
	struct fake_id *fid;		/* NULL once the id is destroyed */
	struct fake_recv *rq;		/* posted receives, oldest first */
	unsigned int rq_n, rq_cap;
	struct fake_wr *held, **held_tail;
	bool err;
	struct fake_qp *next;		/* every QP alive */
};

struct fake_id {
	struct rdma_cm_id id;		/* first: the drivers hold &id */
	struct rdma_cm_chan *chan;
	struct fake_id *next;		/* every id alive */
	bool bound, listening, connected;
	bool waiting;			/* client: CONNECT sent, no answer */
	struct fake_id *peer;		/* the other end of a connection */
	struct fake_qp *qp;
	uint16_t serve_port;		/* the port it serves or connects to */
};

struct fake_state {
	bool dev_gone;
	uint16_t muted[16];
	enum ibv_wc_status fail_next;	/* IBV_WC_SUCCESS: none */
	struct fake_counts n;
};
extern struct fake_state fake;

static inline struct fake_id *fake_id_of(struct rdma_cm_id *id)
{
	return (struct fake_id *)(void *)id;
}

bool fake_is_muted(uint16_t port);
/* Queue an event for ID's owner, delivered through its channel's fd. */
void fake_cm_queue(struct fake_id *f, enum rdma_cm_event_type type,
		   int status, struct fake_id *listen, const void *pdata,
		   uint8_t pdata_len);
/* Client F connects to whoever listens on its destination. */
void fake_cm_connect(struct fake_id *f, const void *pdata,
		     uint8_t pdata_len, uint8_t init, uint8_t resp);
/* The QP of F goes to error: everything posted on it flushes. */
void fake_qp_error(struct fake_qp *fq);
/* A receive was posted on FQ: the peer's waiting SENDs may go. */
void fake_qp_kick_peer(struct fake_qp *fq);
/* Flush every QP on the device (fake_dev_remove). */
void fake_qp_error_all(void);
/* Tell every registry holding the device of its loss (from the loop). */
void fake_dev_fatal_all(void);
extern struct fake_id *fake_ids;

#endif /* RDMAD_FAKE_INT_H */
