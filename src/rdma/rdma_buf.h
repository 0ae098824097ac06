/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_buf.h - registered memory: page-aligned, zeroed buffers with their
 * memory region, and the process's count of registered (pinned) bytes,
 * which the daemon caps ([limits] max_registered_bytes).
 */
#ifndef RDMAD_RDMA_BUF_H
#define RDMAD_RDMA_BUF_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

struct rdma_buf {
	uint8_t *p;
	size_t len;
	struct ibv_mr *mr;
	struct rdma_buf *next;	/* the owning rdma_qp's list */
};

/* LEN bytes registered on PD with ACCESS; 0 or -errno (*b untouched). */
int rdma_buf_alloc(struct rdma_buf *b, struct ibv_pd *pd, size_t len,
		   int access);
/* Deregister and free; an empty buffer is left alone. */
void rdma_buf_free(struct rdma_buf *b);
/* Bytes registered by this process now. */
uint64_t rdma_buf_registered(void);

#endif /* RDMAD_RDMA_BUF_H */
