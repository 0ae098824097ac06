/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_targets_parse.h - [mesh] as the agent needs it, pure: the targets
 * file's entries as numeric addresses, the entries that are this rdmad
 * itself (one file serves the whole fabric: a host skips itself), and
 * whether this rdmad can serve such a mesh at all (every other peer
 * opens its paths here too).  rdmad --check-config, start and reload
 * all call mesh_targets_check() (through mesh_local_targets(), which
 * opens the file); nothing here needs a loop, a device or a file name.
 *
 * The host's own addresses are an argument (mesh_local.h gathers them),
 * so tests give any.
 */
#ifndef RDMAD_MESH_TARGETS_PARSE_H
#define RDMAD_MESH_TARGETS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "core/config.h"
#include "mesh/mesh_sched.h"
#include "mesh/mesh_inventory_parse.h"
#include "mesh/mesh_stats.h"
#include "targets.h"

struct mesh_inventory;
struct mesh_select;

/* One peer to probe. */
struct mesh_target {
	char name[MESH_NAME_LEN];	/* "HOST:PORT", the metrics label */
	struct sockaddr_storage dst;
	/* With topology: this host's address on the peer's rail (port 0),
	 * the probe's source; ss_family 0: [mesh] source. */
	struct sockaddr_storage src;
	/* Where the peer stands and why it is probed (mesh_select_sched.h);
	 * tor and host point into the inventory ("" without topology). */
	const char *tor, *host;
	uint8_t why;			/* enum mesh_select_why */
	uint8_t slot, rail;
	uint64_t epoch;			/* cross-ToR: the slot's epoch */
};

struct mesh_targets {
	struct mesh_target *v;		/* the peers: file order, or the
					   selection's (same ToR, slots) */
	unsigned int n;
	unsigned int n_file;		/* addresses in the file */
	unsigned int n_self;		/* of them this rdmad */
	char self[MESH_SELF_MAX][MESH_NAME_LEN];	/* the first ones */
	/* The inventory and, with topology, its selection (owned). */
	struct mesh_inventory *inv;
	struct mesh_select *sel;
	uint32_t self_host;		/* with topology: this host's id */
	uint64_t next_ms;		/* a slot switches then (Unix ms);
					   0: the peers never change */
	unsigned int cap;		/* room in v */
	/* After a reload, the previous inventory and selection, whose
	 * cross-ToR peers slot [rail][j] keeps until prev_until (its own
	 * switch), so that a new inventory comes in slot by slot. */
	struct mesh_inventory *prev_inv;
	struct mesh_select *prev_sel;
	uint32_t prev_self_host;
	uint64_t prev_until[MESH_INV_RAILS_MAX][CONFIG_MESH_CROSS_TOR_MAX];
};

/* This host's addresses (no ports), for self-detection. */
struct mesh_locals {
	const struct sockaddr_storage *v;
	unsigned int n;
};

/* T as an address: numeric only.  0, or -EINVAL with *WHY set. */
int mesh_target_addr(const struct target *t, struct sockaddr_storage *ss,
		     const char **why);
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
/*
 * T's peers at NOW_MS (Unix ms), into T->v (same ToR, then each slot at
 * the epoch it is in then, no peer twice), and T->next_ms, when the next
 * slot switches.  Without topology the peers never change.  0 or
 * -ENOMEM.
 */
int mesh_targets_at(struct mesh_targets *t, uint64_t now_ms);
/*
 * A reload replaces CUR by NEXT at NOW_MS: NEXT takes CUR's inventory and
 * selection as its previous ones, each of CUR's cross-ToR slots kept
 * until its next switch (mesh_targets_at() then hands it over).  Without
 * topology on either side, nothing: NEXT's peers are taken at once.
 */
void mesh_targets_handover(struct mesh_targets *next, struct mesh_targets *cur,
			   uint64_t now_ms);
void mesh_targets_free(struct mesh_targets *t);

#endif /* RDMAD_MESH_TARGETS_PARSE_H */
