/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_targets_check.h - [mesh] targets as the agent needs it, pure: the
 * targets file (or inventory) read and checked, its entries as numeric
 * addresses, the entries that are this rdmad itself (one file serves the
 * whole fabric: a host skips itself), and whether this rdmad can serve
 * such a mesh at all (every other peer opens its paths here too).  rdmad
 * --check-config, start and reload all call mesh_targets_check()
 * (through mesh_local_targets(), which opens the file); nothing here
 * needs a loop, a device or a file name.  The peers in time and a
 * reload's handover are mesh_targets_sched.h's.
 *
 * The host's own addresses are an argument (mesh_local.h gathers them),
 * so tests give any.
 */
#ifndef RDMAD_MESH_TARGETS_CHECK_H
#define RDMAD_MESH_TARGETS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/socket.h>

#include "core/config.h"
#include "mesh/mesh_targets_sched.h"

/* This host's addresses (no ports), for self-detection. */
struct mesh_locals {
	const struct sockaddr_storage *v;
	unsigned int n;
};

/*
 * ADDR (with its port) is this rdmad: one of CFG's listeners, that is
 * the same address and port, or the wildcard on that port and one of
 * LOCALS.  Another port, or an address of this host that this rdmad's
 * listeners do not cover, may be another rdmad: a peer.
 */
bool mesh_target_is_self(const struct rdmad_config *cfg,
			 const struct mesh_locals *locals,
			 const struct sockaddr_storage *addr);

/*
 * Can this rdmad probe N_OUT peers and serve N_IN probers, each with
 * CFG's paths?  0, or -EINVAL with the numbers in ERR (needed,
 * configured).  A full mesh: N_OUT = N_IN = the other peers; with
 * topology, the selection's bounds for any host of the inventory (every
 * host refuses alike).
 */
int mesh_targets_capacity(const struct rdmad_config *cfg, unsigned int n_out,
			  unsigned int n_in, char *err, size_t errlen);

/*
 * All of [mesh] for CFG: its targets file (IN, opened by the caller:
 * mesh_local_targets(); unused when [mesh] targets is unset), an
 * inventory (docs/fleet.md), read into *OUT with this rdmad's own
 * entries found, the selection set up when it has topology, the
 * capacity checked, and the peers at NOW_MS (Unix ms: the epochs are
 * the fleet's, mesh_targets_at()).  WARN (may be NULL) gets the file's
 * warnings.  0, or -errno with the reason in ERR ("FILE:LINE: ..."),
 * nothing kept.
 */
int mesh_targets_check(const struct rdmad_config *cfg,
		       const struct mesh_locals *locals, FILE *in,
		       uint64_t now_ms, struct mesh_targets *out,
		       void (*warn)(void *arg, const char *msg), void *arg,
		       char *err, size_t errlen);

#endif /* RDMAD_MESH_TARGETS_CHECK_H */
