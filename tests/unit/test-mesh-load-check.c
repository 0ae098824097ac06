/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-mesh-load-check.c - mesh_load_check.c: the decision of a round taken under
 * local pressure at each threshold's boundary (1 under, at, 1 over), the
 * tests off, huge figures; the loop-lag ring.
 */
#include <stdint.h>
#include <string.h>

#include "mesh/mesh_load_check.h"
#include "tap.h"

#define MS	1000000ull

static unsigned int judge_psi(uint64_t lag_max, unsigned int pct,
			      uint64_t timer_lag, uint64_t loop_lag,
			      uint64_t delay, uint64_t took, uint64_t psi_us,
			      bool psi_known)
{
	struct mesh_load_cfg c = { .lag_max_ns = lag_max,
				   .wait_max_pct = pct };
	struct mesh_load_round r = { .timer_lag_ns = timer_lag,
				     .loop_lag_ns = loop_lag,
				     .run_delay_ns = delay, .took_ns = took,
				     .psi_us = psi_us, .psi_known = psi_known };

	return mesh_load_check(&c, &r);
}

/* Without PSI (a host without it): the lags and rdmad's wait only. */
static unsigned int judge(uint64_t lag_max, unsigned int pct,
			  uint64_t timer_lag, uint64_t loop_lag,
			  uint64_t delay, uint64_t took)
{
	return judge_psi(lag_max, pct, timer_lag, loop_lag, delay, took,
			 UINT64_MAX, false);
}

/*
 * A round's figures from its start and end (mesh_load_check_start/_end):
 * its timer's lateness (none when it had no due time, or ran before it),
 * the ring's worst lag from one sampler period before it was due, the
 * host's run-queue wait and PSI as differences (0 when one went back or
 * is unknown at either end), and their sum as what the host may have
 * added.
 */
static void check_run(struct mesh_lag_ring *ring)
{
	const uint64_t period = MESH_LAG_PERIOD_MS * MS;
	struct cpu_wait_now at = { .run_delay_ns = 1000, .psi_us = 10,
				   .run_delay_known = true, .psi_known = true };
	struct cpu_wait_now end = { .run_delay_ns = 4000, .psi_us = 13,
				    .run_delay_known = true, .psi_known = true };
	struct mesh_load_run r;
	struct mesh_load_round lr;
	uint64_t local;

	memset(ring, 0, sizeof(*ring));
	mesh_lag_add(ring, 10 * period - period - 1, 900);	/* too early */
	mesh_lag_add(ring, 10 * period - period, 70);
	mesh_load_check_start(&r, 10 * period, 10 * period + 5, &at);
	mesh_load_check_end(&r, 10 * period + 105, &end, ring, &lr, &local);
	tap_ok(!r.on && lr.timer_lag_ns == 5 && lr.took_ns == 100 &&
	       lr.loop_lag_ns == 70 && lr.run_delay_ns == 3000 &&
	       lr.psi_us == 3 && lr.psi_known && local == 70 + 3000 + 3000,
	       "a round's figures: timer lag 5, took 100, the lag from a "
	       "period before due (70, not 900), waits 3000 ns and 3 us "
	       "(local %llu)", (unsigned long long)local);
	mesh_load_check_start(&r, 0, 500, &at);
	tap_ok(r.on && r.due == 500, "no due time: due at its run");
	mesh_load_check_start(&r, 600, 500, &at);
	tap_ok(r.due == 500, "due after its run: due at its run");
	end.run_delay_ns = 999;
	end.psi_known = false;
	mesh_load_check_end(&r, 400, &end, ring, &lr, &local);
	tap_ok(lr.run_delay_ns == 0 && lr.psi_us == 0 && !lr.psi_known &&
	       lr.took_ns == 0, "a wait that went back, PSI unknown, an "
	       "end before the run: 0 each");
}

int main(void)
{
	struct mesh_lag_ring ring;
	unsigned int i;

	tap_plan(31);
	/* lag: the timer's and the sampler's, each at the boundary */
	tap_ok(judge(20 * MS, 0, 20 * MS - 1, 0, 0, MS) == 0,
	       "timer lag 1 ns under lag_max: clean");
	tap_ok(judge(20 * MS, 0, 20 * MS, 0, 0, MS) == 0,
	       "timer lag at lag_max: clean");
	tap_ok(judge(20 * MS, 0, 20 * MS + 1, 0, 0, MS) == MESH_LOAD_LAG,
	       "timer lag 1 ns over lag_max: lag");
	tap_ok(judge(20 * MS, 0, 0, 20 * MS - 1, 0, MS) == 0,
	       "loop lag 1 ns under lag_max: clean");
	tap_ok(judge(20 * MS, 0, 0, 20 * MS, 0, MS) == 0,
	       "loop lag at lag_max: clean");
	tap_ok(judge(20 * MS, 0, 0, 20 * MS + 1, 0, MS) == MESH_LOAD_LAG,
	       "loop lag 1 ns over lag_max: lag");
	tap_ok(judge(0, 0, UINT64_MAX, UINT64_MAX, UINT64_MAX, 1) == 0,
	       "both tests off: never pressure");
	/* run-queue wait: 50 % of a 1,000 ns round is 500 ns */
	tap_ok(judge(0, 50, 0, 0, 499, 1000) == 0,
	       "wait 1 ns under 50 %%: clean");
	tap_ok(judge(0, 50, 0, 0, 500, 1000) == 0, "wait at 50 %%: clean");
	tap_ok(judge(0, 50, 0, 0, 501, 1000) == MESH_LOAD_WAIT,
	       "wait 1 ns over 50 %%: wait");
	/* a share that is not a whole number of ns: 33 % of 1,001 = 330.33 */
	tap_ok(judge(0, 33, 0, 0, 330, 1001) == 0, "wait 330 of 330.33: clean");
	tap_ok(judge(0, 33, 0, 0, 331, 1001) == MESH_LOAD_WAIT,
	       "wait 331 of 330.33: wait");
	tap_ok(judge(0, 100, 0, 0, 1000, 1000) == 0,
	       "100 %%: the whole round waiting is at it");
	tap_ok(judge(0, 100, 0, 0, 1001, 1000) == MESH_LOAD_WAIT,
	       "100 %%: more than the round (it waited before it too)");
	tap_ok(judge(0, 1, 0, 0, 1, 0) == MESH_LOAD_WAIT,
	       "a round of 0 ns with any wait: wait");
	tap_ok(judge(0, 100, 0, 0, UINT64_MAX, UINT64_MAX) == 0,
	       "huge: wait = round at 100 %%, no overflow");
	tap_ok(judge(0, 99, 0, 0, UINT64_MAX - 1, UINT64_MAX) ==
	       MESH_LOAD_WAIT, "huge: 99 %% of the largest round exceeded");
	tap_ok(judge(10 * MS, 25, 11 * MS, 0, 2 * MS, 4 * MS) ==
	       (MESH_LOAD_LAG | MESH_LOAD_WAIT), "both at once: both reasons");

	/* PSI: us against the same share of the round's ns */
	tap_ok(judge_psi(0, 50, 0, 0, 0, 1000 * 1000, 499, true) == 0,
	       "psi 1 us under 50 %%: clean");
	tap_ok(judge_psi(0, 50, 0, 0, 0, 1000 * 1000, 500, true) == 0,
	       "psi at 50 %%: clean");
	tap_ok(judge_psi(0, 50, 0, 0, 0, 1000 * 1000, 501, true) ==
	       MESH_LOAD_PSI, "psi 1 us over 50 %%: psi");
	tap_ok(judge_psi(0, 50, 0, 0, 0, 1000 * 1000, 501, false) == 0,
	       "psi unknown (no PSI on the host): not judged");
	tap_ok(judge_psi(0, 100, 0, 0, 0, UINT64_MAX, UINT64_MAX, true) ==
	       MESH_LOAD_PSI, "huge psi: no overflow");
	tap_ok(judge_psi(0, 0, 0, 0, 0, 1, UINT64_MAX, true) == 0,
	       "wait_max 0: psi not judged either");

	/* the ring: the worst since a time, older samples out */
	memset(&ring, 0, sizeof(ring));
	tap_ok(mesh_lag_max_since(&ring, 0) == 0, "empty ring: 0");
	mesh_lag_add(&ring, 100, 7);
	mesh_lag_add(&ring, 200, 90);
	mesh_lag_add(&ring, 300, 5);
	tap_ok(mesh_lag_max_since(&ring, 200) == 90 &&
	       mesh_lag_max_since(&ring, 201) == 5,
	       "the worst of the samples at FROM or later");
	for (i = 0; i < MESH_LAG_RING; i++)
		mesh_lag_add(&ring, 1000 + i, 1);
	tap_ok(mesh_lag_max_since(&ring, 0) == 1 && ring.n == MESH_LAG_RING,
	       "a full ring forgets the oldest");
	check_run(&ring);
	return tap_done();
}
