/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_rounds.c - the rounds of one --rounds connection: how many were
 * checked, the first mismatch, their times (see probe_rounds.h).  Pure: part of
 * probe_lib.
 */
#include <string.h>

#include "probe_rounds.h"
#include "rdma_client_types.h"

void probe_rounds_init(struct probe_rounds *s, uint32_t want)
{
	memset(s, 0, sizeof(*s));
	s->want = want;
	probe_hist_init(&s->lat);
}

void probe_rounds_add(struct probe_rounds *s,
		      const struct rdma_client_round *r)
{
	if (r->result != RDMA_CLIENT_FAIL_NONE && !s->mismatch++) {
		s->first_bad = r->round;
		s->first_bad_offset = r->bad_offset;
	}
	s->done++;
	probe_hist_add(&s->lat, r->write_ns + r->read_ns);
}
