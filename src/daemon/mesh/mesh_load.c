/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_load.c - the prober's share of a round: the decision and the
 * loop-lag samples (see mesh_load.h), pure.
 */
#include <stdint.h>

#include "core/stats.h"
#include "mesh/mesh_load.h"

/* 100 us .. 1 s: an idle loop's lag is tens of us, a starved one's ms. */
const uint64_t mesh_lag_bounds_ns[MESH_LAG_BUCKETS] = {
	100000, 250000, 1000000, 2500000, 10000000, 25000000, 100000000,
	250000000, 1000000000,
};

/* floor(V * PCT / 100) without overflow (saturated). */
static uint64_t share_of(uint64_t v, unsigned int pct)
{
	uint64_t q = v / 100, r = v % 100;

	if (pct && q > (UINT64_MAX - 99) / pct)
		return UINT64_MAX;
	return q * pct + r * pct / 100;
}

unsigned int mesh_load_judge(const struct mesh_load_cfg *cfg,
			     const struct mesh_load_round *r)
{
	uint64_t lag = r->timer_lag_ns > r->loop_lag_ns ? r->timer_lag_ns :
		       r->loop_lag_ns;
	unsigned int why = 0;

	if (cfg->lag_max_ns && lag > cfg->lag_max_ns)
		why |= MESH_LOAD_LAG;
	if (cfg->wait_max_pct &&
	    r->run_delay_ns > share_of(r->took_ns, cfg->wait_max_pct))
		why |= MESH_LOAD_WAIT;
	return why;
}

void mesh_lag_add(struct mesh_lag_ring *ring, struct mesh_lag_hist *h,
		  uint64_t at, uint64_t lag)
{
	ring->at[ring->pos] = at;
	ring->lag[ring->pos] = lag;
	ring->pos = (ring->pos + 1) % MESH_LAG_RING;
	if (ring->n < MESH_LAG_RING)
		ring->n++;
	h->bucket[stats_bucket(mesh_lag_bounds_ns, MESH_LAG_BUCKETS, lag)]++;
	h->count++;
	h->sum_ns += lag;
}

uint64_t mesh_lag_max_since(const struct mesh_lag_ring *ring, uint64_t from)
{
	uint64_t max = 0;
	unsigned int i;

	for (i = 0; i < ring->n; i++)
		if (ring->at[i] >= from && ring->lag[i] > max)
			max = ring->lag[i];
	return max;
}
