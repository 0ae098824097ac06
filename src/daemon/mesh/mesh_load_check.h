/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_load_check.h - the prober's share of a mesh round (docs/mesh.md, "The
 * prober's share"): what this host added to a round, and whether the
 * round was taken under local pressure.  Pure: the agent (mesh_path.c)
 * reads the host's figures at a round's start and end, this file adds
 * them up and decides; times are arguments.
 *
 * What a round carries: the lateness of its own timer (when it was due
 * vs when the loop ran it), the worst lateness of the loop-lag sampler
 * (a periodic timer, MESH_LAG_PERIOD_MS) from one period before the
 * round was due to its end, rdmad's own run-queue wait over the round
 * (/proc/self/schedstat) and the host's CPU pressure (PSI "some",
 * /proc/pressure/cpu) over it.  Lags and rdmad's wait are delays of
 * rdmad itself, which the round's latency includes; PSI is the host's:
 * the kernel's RDMA work (rxe's tasks, softirqs) waits for a CPU too.
 */
#ifndef RDMAD_MESH_LOAD_CHECK_H
#define RDMAD_MESH_LOAD_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/cpu_wait.h"

/* The loop-lag sampler's period, and the samples a round can look at. */
#define MESH_LAG_PERIOD_MS	50
#define MESH_LAG_RING		64

/* [mesh] prober_lag_max and prober_wait_max; 0: that test is off. */
struct mesh_load_cfg {
	uint64_t lag_max_ns;
	unsigned int wait_max_pct;	/* of the round's time, 0..100 */
};

/* One round's figures of this host. */
struct mesh_load_round {
	uint64_t timer_lag_ns;		/* its timer: run - due */
	uint64_t loop_lag_ns;		/* the sampler's worst in its window */
	uint64_t run_delay_ns;		/* rdmad on a run queue, over it */
	uint64_t took_ns;		/* from its timer's run to its end */
	uint64_t psi_us;		/* the host's PSI "some", over it */
	bool psi_known;			/* the host has PSI */
};

/* A path's round under way: its timer's due and run, and the host's
 * figures (cpu_wait_read's) at its run. */
struct mesh_load_run {
	bool on;
	uint64_t due, run;
	struct cpu_wait_now at;
};

/* Why a round was under local pressure (a mask; 0: it was not). */
enum mesh_load_why {
	MESH_LOAD_LAG	= 1u << 0,	/* a lag above lag_max */
	MESH_LOAD_WAIT	= 1u << 1,	/* rdmad's run-queue wait above
					   wait_max */
	MESH_LOAD_PSI	= 1u << 2,	/* the host's PSI above wait_max */
};

/*
 * Whether R was taken under local pressure under CFG: its timer's or
 * the sampler's lag above lag_max_ns, or rdmad's run-queue wait, or the
 * host's PSI "some" time (when known), above wait_max_pct percent of
 * took_ns (strictly above: a figure at the threshold is not pressure).
 * The mask of enum mesh_load_why.
 */
unsigned int mesh_load_check(const struct mesh_load_cfg *cfg,
			     const struct mesh_load_round *r);

/* The loop-lag sampler's last samples: when each ran and how late. */
struct mesh_lag_ring {
	uint64_t at[MESH_LAG_RING];	/* CLOCK_MONOTONIC ns */
	uint64_t lag[MESH_LAG_RING];
	unsigned int n, pos;
};

/* A sample that ran at AT, LAG late, into RING (the oldest out). */
void mesh_lag_add(struct mesh_lag_ring *ring, uint64_t at, uint64_t lag);
/* The worst lag of the samples in RING that ran at FROM or later. */
uint64_t mesh_lag_max_since(const struct mesh_lag_ring *ring, uint64_t from);

/* The round R starts at NOW, its timer due at DUE (0: none), the host's
 * figures AT. */
void mesh_load_check_start(struct mesh_load_run *r, uint64_t due,
			   uint64_t now, const struct cpu_wait_now *at);

/*
 * The round R ended at NOW, the host's figures END: its figures into *LR
 * (the loop's lag from LAG, over one sampler period before it was due to
 * its end), and what the host may have added to it into *LOCAL_NS (at
 * most: the loop's lag, rdmad's run-queue wait and the host's CPU
 * pressure, together).  mesh_load_check decides on *LR.
 */
void mesh_load_check_end(struct mesh_load_run *r, uint64_t now,
			 const struct cpu_wait_now *end,
			 const struct mesh_lag_ring *lag,
			 struct mesh_load_round *lr, uint64_t *local_ns);

#endif /* RDMAD_MESH_LOAD_CHECK_H */
