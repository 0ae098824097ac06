/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_opstat.h - the operations of one kind of a connection, or of a
 * whole run once merged (probe_opstat.c, pure).
 */
#ifndef RDMAD_PROBE_OPSTAT_H
#define RDMAD_PROBE_OPSTAT_H

#include <stdint.h>

#include "probe_hist.h"

/*
 * Operations of one kind (READ, WRITE or ping) of one connection, or of a
 * whole run once merged: latency histogram (post to completion, ns), and
 * the span from the first post to the last completion for bandwidth.
 */
struct probe_opstat {
	struct probe_hist lat;
	uint64_t ops;
	uint64_t bytes;
	uint64_t first_post;	/* CLOCK_MONOTONIC ns, 0: none */
	uint64_t last_done;
};

void probe_opstat_init(struct probe_opstat *s);
void probe_opstat_add(struct probe_opstat *s, uint64_t posted, uint64_t done,
		      uint32_t bytes);
/* dst += src; the span covers both. */
void probe_opstat_merge(struct probe_opstat *dst,
			const struct probe_opstat *src);

#endif /* RDMAD_PROBE_OPSTAT_H */
