/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_path_health.h - the driver of a path's health (mesh_health_fsm.h):
 * each round, sample, down and up of a path to its own machine, and its
 * rounds (and samples) to the pools it counts in: its peer's paths
 * together (a peer's verdict comes sooner from all its paths' rounds),
 * its rail's peers together (a local NIC's or port's), and with
 * topology its rail's peers of its place together: those under this
 * host's ToR, or those under other ToRs (this ToR's uplinks: a pool
 * that outlives the cross-ToR slots' epochs, whatever peers they hold,
 * where one pair's test starts anew each epoch).  A pool
 * judges loss (and a peer's pool slowness); down and flapping are each
 * path's own.  Every change is logged here, the one setter, with the
 * figures that decided it.  mesh_path.c feeds it; it knows no path.
 */
#ifndef RDMAD_MESH_PATH_HEALTH_H
#define RDMAD_MESH_PATH_HEALTH_H

#include <stdint.h>

#include "mesh/mesh_health_fsm.h"
#include "mesh/mesh_stats.h"

struct mesh_path_health {
	struct mesh_health own;		/* the path's */
	/* the pools (the agent points them; NULL: none): its peer's paths
	 * together (only when it has several), its rail's peers together,
	 * its rail's peers of its place together (with topology) */
	struct mesh_health *peer, *rail, *place;
	unsigned int rail_no;		/* with rail, for the log */
	enum mesh_place place_no;	/* with place, for the log */
};

/* Who a change is logged for, named only when one is (every round feeds
 * up to three machines; a name costs a formatting): NAME writes the
 * path's name from ARG; PEER names its peer's pool. */
struct mesh_path_health_who {
	void (*name)(const void *arg, char *buf, size_t len);
	const void *arg;
	const char *peer;
};

/* O, observed at NOW on the path WHO names, to its machine and its
 * pools, under C. */
void mesh_path_health_feed(struct mesh_path_health *h,
			   const struct mesh_path_health_who *who,
			   const struct mesh_health_cfg *c,
			   const struct mesh_health_obs *o, uint64_t now);

#endif /* RDMAD_MESH_PATH_HEALTH_H */
