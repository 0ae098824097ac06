/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_qp_buf.c - a connection's list of registered buffers (see
 * rdma_qp.h): no verbs here, so the unit tests' fake RDMA layer
 * (tests/unit/fake) links this file as it is.
 */
#include "rdma_qp.h"

int rdma_qp_buf(struct rdma_qp *q, struct rdma_buf *b, size_t len,
		int access)
{
	int ret;

	rdma_qp_buf_free(q, b);
	ret = rdma_buf_alloc(b, q->pd, len, access);
	if (ret)
		return ret;
	b->next = q->bufs;
	q->bufs = b;
	return 0;
}

void rdma_qp_buf_free(struct rdma_qp *q, struct rdma_buf *b)
{
	struct rdma_buf **pp;

	for (pp = &q->bufs; *pp; pp = &(*pp)->next) {
		if (*pp == b) {
			*pp = b->next;
			break;
		}
	}
	b->next = NULL;
	rdma_buf_free(b);
}
