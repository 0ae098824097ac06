/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_load_check.c - the prober's share of a round: the decision and the
 * loop-lag samples (see mesh_load_check.h), pure.
 */
#include <stdint.h>
#include <string.h>

#include "mesh/mesh_load_check.h"

/* floor(V * PCT / 100) without overflow (saturated). */
static uint64_t share_of(uint64_t v, unsigned int pct)
{
	uint64_t q = v / 100, r = v % 100;

	if (pct && q > (UINT64_MAX - 99) / pct)
		return UINT64_MAX;
	return q * pct + r * pct / 100;
}

unsigned int mesh_load_check(const struct mesh_load_cfg *cfg,
			     const struct mesh_load_round *r)
{
	uint64_t lag = r->timer_lag_ns > r->loop_lag_ns ? r->timer_lag_ns :
		       r->loop_lag_ns;
	uint64_t wait_max = share_of(r->took_ns, cfg->wait_max_pct);
	unsigned int why = 0;

	if (cfg->lag_max_ns && lag > cfg->lag_max_ns)
		why |= MESH_LOAD_LAG;
	if (cfg->wait_max_pct && r->run_delay_ns > wait_max)
		why |= MESH_LOAD_WAIT;
	if (cfg->wait_max_pct && r->psi_known &&
	    (r->psi_us > UINT64_MAX / 1000 || r->psi_us * 1000 > wait_max))
		why |= MESH_LOAD_PSI;
	return why;
}

void mesh_lag_add(struct mesh_lag_ring *ring, uint64_t at, uint64_t lag)
{
	ring->at[ring->pos] = at;
	ring->lag[ring->pos] = lag;
	ring->pos = (ring->pos + 1) % MESH_LAG_RING;
	if (ring->n < MESH_LAG_RING)
		ring->n++;
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

void mesh_load_check_start(struct mesh_load_run *r, uint64_t due,
			   uint64_t now, const struct cpu_wait_now *at)
{
	r->on = true;
	r->due = due && due < now ? due : now;
	r->run = now;
	r->at = *at;
}

void mesh_load_check_end(struct mesh_load_run *r, uint64_t now,
			 const struct cpu_wait_now *end,
			 const struct mesh_lag_ring *lag,
			 struct mesh_load_round *lr, uint64_t *local_ns)
{
	uint64_t period = MESH_LAG_PERIOD_MS * 1000000ull;

	r->on = false;
	memset(lr, 0, sizeof(*lr));
	lr->timer_lag_ns = r->run - r->due;
	lr->loop_lag_ns = mesh_lag_max_since(lag, r->due > period ?
					     r->due - period : 0);
	lr->took_ns = now > r->run ? now - r->run : 0;
	if (end->run_delay_known && r->at.run_delay_known &&
	    end->run_delay_ns > r->at.run_delay_ns)
		lr->run_delay_ns = end->run_delay_ns - r->at.run_delay_ns;
	lr->psi_known = end->psi_known && r->at.psi_known;
	if (lr->psi_known && end->psi_us > r->at.psi_us)
		lr->psi_us = end->psi_us - r->at.psi_us;
	*local_ns = lr->loop_lag_ns + lr->run_delay_ns + lr->psi_us * 1000;
}
