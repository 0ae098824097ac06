/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh-sched-cfg.h - the schedule settings the mesh_sched tests start
 * from: 1 s rounds, 10 % jitter, 2 s connect and 1 s round deadlines,
 * backoff 1..30 s, samples off (100 ms at 1 % when turned on), rounds of
 * 64 and 4096 bytes in turn, down at the first failure.
 */
#ifndef RDMAD_TEST_MESH_SCHED_CFG_H
#define RDMAD_TEST_MESH_SCHED_CFG_H

#include "mesh/mesh_sched.h"

#define MS	1000000ull
#define SEC	(1000 * MS)

static struct mesh_sched_cfg base_cfg(void)
{
	struct mesh_sched_cfg c = {
		.interval_ns = 1 * SEC,
		.jitter_pct = 10,
		.connect_timeout_ns = 2 * SEC,
		.round_timeout_ns = 1 * SEC,
		.backoff_min_ns = 1 * SEC,
		.backoff_max_ns = 30 * SEC,
		.bw_every_ns = 0,
		.bw_duration_ns = 100 * MS,
		.bw_share_ppm = 10000,		/* 1 % */
		.down_after = 1,
		.sizes = { 64, 4096 },
		.n_sizes = 2,
	};
	return c;
}

#endif /* RDMAD_TEST_MESH_SCHED_CFG_H */
