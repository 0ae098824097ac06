/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_rounds.h - the rounds of one --rounds connection, a mesh session
 * (probe_rounds.c, pure).
 */
#ifndef RDMAD_PROBE_ROUNDS_H
#define RDMAD_PROBE_ROUNDS_H

#include <stdint.h>

#include "probe_hist.h"

struct rdma_client_round;

/* The rounds of one connection. */
struct probe_rounds {
	uint32_t want;		/* --rounds */
	uint32_t done;		/* checked */
	uint32_t mismatch;	/* of them, data read back differed */
	uint32_t first_bad;	/* round of the first mismatch */
	uint32_t first_bad_offset;
	struct probe_hist lat;	/* write + read of each round, ns */
};

void probe_rounds_init(struct probe_rounds *s, uint32_t want);
void probe_rounds_add(struct probe_rounds *s,
		      const struct rdma_client_round *r);

#endif /* RDMAD_PROBE_ROUNDS_H */
