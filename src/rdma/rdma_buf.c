/* SPDX-License-Identifier: BSD-2-Clause */
/* rdma_buf.c - registered memory (see rdma_buf.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma_buf.h"

static uint64_t rdma_buf_total;

int rdma_buf_alloc(struct rdma_buf *b, struct ibv_pd *pd, size_t len,
		   int access)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct ibv_mr *mr;
	void *p;
	int ret;

	ret = posix_memalign(&p, pg > 0 ? (size_t)pg : 4096, len ? len : 1);
	if (ret)
		return -ret;
	memset(p, 0, len);
	mr = ibv_reg_mr(pd, p, len, access);
	if (!mr) {
		ret = errno ? -errno : -ENOMEM;
		free(p);
		return ret;
	}
	b->p = p;
	b->len = len;
	b->mr = mr;
	rdma_buf_total += len;
	return 0;
}

void rdma_buf_free(struct rdma_buf *b)
{
	if (b->mr) {
		ibv_dereg_mr(b->mr);
		rdma_buf_total -= b->len;
	}
	free(b->p);
	b->p = NULL;
	b->mr = NULL;
	b->len = 0;
}

uint64_t rdma_buf_registered(void)
{
	return rdma_buf_total;
}
