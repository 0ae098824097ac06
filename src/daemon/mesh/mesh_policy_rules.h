/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_policy_rules.h - what the [mesh] keys mean for the wing, pure: the
 * one place that turns struct config_mesh (as the operator wrote it, in
 * ms, percent and bytes) into every setting the mesh's parts use - the
 * schedule's (mesh_sched), the selection's (mesh_select_sched), the
 * prober's share (mesh_load_check), a session's (the rdma_client each
 * path opens) and the slow-round line's.  Nothing else converts a [mesh]
 * key; a reload compares two policies (mesh_peers_diff.h).
 */
#ifndef RDMAD_MESH_POLICY_RULES_H
#define RDMAD_MESH_POLICY_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "mesh/mesh_health_fsm.h"
#include "mesh/mesh_load_check.h"
#include "mesh/mesh_sched.h"
#include "mesh/mesh_select_sched.h"

/* Work requests a mesh session keeps in flight. */
#define MESH_SESSION_DEPTH	4
/* The buffer of a session whose rounds and samples name no size. */
#define MESH_SESSION_SIZE_MIN	64

/* One path's rdma_client session: what it is opened with. */
struct mesh_session_cfg {
	uint32_t size;		/* registered: the largest round or sample */
	uint32_t timeout_ms;	/* its deadline: connect's or round's */
	unsigned int depth;	/* MESH_SESSION_DEPTH */
	uint8_t ops;		/* PROTO_OP_* of a round */
	int tos;		/* -1: not set */
	uint32_t bw_size;	/* a bandwidth sample's WRITEs */
	unsigned int bw_duration_ms;
};

struct mesh_policy {
	struct mesh_sched_cfg sched;
	struct mesh_select_params select;
	struct mesh_load_cfg load;
	struct mesh_session_cfg session;
	uint64_t slow_round_ns;		/* a slower verified round is logged;
					   0: none is */
	struct mesh_health_cfg health;	/* a path's health (its defaults; a
					   late round: slow_round) */
};

/* Every setting of the wing from M.  Whatever the configuration's checks
 * accept (core/config.c, config_check.c) gives a policy whose schedule
 * passes mesh_sched_cfg_check() (test-mesh-targets, at the keys' bounds). */
void mesh_policy_of(const struct config_mesh *m, struct mesh_policy *p);

/* A and B open the same sessions: a reload from one to the other keeps
 * the live ones (the rest of the policy applies to them as it is). */
bool mesh_policy_same_session(const struct mesh_policy *a,
			      const struct mesh_policy *b);

#endif /* RDMAD_MESH_POLICY_RULES_H */
