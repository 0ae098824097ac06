/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_wr.h - the one work request id scheme of every program.
 */
#ifndef RDMAD_RDMA_WR_H
#define RDMAD_RDMA_WR_H

#include <stdint.h>

/*
 * Work request ids: the kind in the upper 32 bits, an index (a slot, an
 * iteration) in the lower, so that error completions, whose opcode is
 * undefined, can still be accounted for.
 */
enum rdma_wr_kind {
	RDMA_WR_RECV = 1,
	RDMA_WR_SEND,
	RDMA_WR_READ,
	RDMA_WR_WRITE,
	RDMA_WR_LIVE,		/* zero-length RDMA WRITE: is the peer there? */
	RDMA_WR_ABORT,		/* SEND of an ABORT */
};

static inline uint64_t rdma_wr_id(enum rdma_wr_kind kind, uint32_t idx)
{
	return ((uint64_t)kind << 32) | idx;
}

static inline enum rdma_wr_kind rdma_wr_kind(uint64_t wr_id)
{
	return (enum rdma_wr_kind)(wr_id >> 32);
}

static inline uint32_t rdma_wr_idx(uint64_t wr_id)
{
	return (uint32_t)wr_id;
}

/* "receive", "RDMA READ"... */
const char *rdma_wr_str(enum rdma_wr_kind kind);

#endif /* RDMAD_RDMA_WR_H */
