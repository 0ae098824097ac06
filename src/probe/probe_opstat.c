/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_opstat.c - the operations of one kind of a connection, or of a
 * run once merged (see probe_opstat.h).  Pure: part of probe_lib.
 */
#include <string.h>

#include "probe_opstat.h"

void probe_opstat_init(struct probe_opstat *s)
{
	memset(s, 0, sizeof(*s));
	probe_hist_init(&s->lat);
}

void probe_opstat_add(struct probe_opstat *s, uint64_t posted, uint64_t done,
		      uint32_t bytes)
{
	probe_hist_add(&s->lat, done > posted ? done - posted : 0);
	s->ops++;
	s->bytes += bytes;
	if (!s->first_post || posted < s->first_post)
		s->first_post = posted;
	if (done > s->last_done)
		s->last_done = done;
}

void probe_opstat_merge(struct probe_opstat *dst,
			const struct probe_opstat *src)
{
	if (!src->ops)
		return;
	probe_hist_merge(&dst->lat, &src->lat);
	dst->ops += src->ops;
	dst->bytes += src->bytes;
	if (!dst->first_post || src->first_post < dst->first_post)
		dst->first_post = src->first_post;
	if (src->last_done > dst->last_done)
		dst->last_done = src->last_done;
}

/* Figures of one kind: latency percentiles, bandwidth, message rate. */
