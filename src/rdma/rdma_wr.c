/* SPDX-License-Identifier: BSD-2-Clause */
/* rdma_wr.c - work request ids (see rdma_wr.h). */
#include "rdma_wr.h"

const char *rdma_wr_str(enum rdma_wr_kind kind)
{
	switch (kind) {
	case RDMA_WR_RECV:	return "receive";
	case RDMA_WR_SEND:	return "send";
	case RDMA_WR_READ:	return "RDMA READ";
	case RDMA_WR_WRITE:	return "RDMA WRITE";
	case RDMA_WR_LIVE:	return "liveness check";
	case RDMA_WR_ABORT:	return "ABORT send";
	}
	return "unknown";
}
