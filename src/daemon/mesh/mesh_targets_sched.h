/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_targets_sched.h - this host's mesh peers in time, pure: the peers
 * of a checked targets file or inventory (mesh_targets_check.h) at a
 * moment (with topology the selection's slots switch epoch by epoch,
 * mesh_select_sched.h), and a reload's handover, slot by slot, from the
 * inventory in force to the new one; an address of the file as a socket
 * address.
 */
#ifndef RDMAD_MESH_TARGETS_SCHED_H
#define RDMAD_MESH_TARGETS_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/config.h"
#include "mesh/mesh_inventory_parse.h"
#include "mesh/mesh_sched.h"
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

/* T as an address: numeric only.  0, or -EINVAL with *WHY set. */
int mesh_target_addr(const struct target *t, struct sockaddr_storage *ss,
		     const char **why);
/* The inventory's address A (its label, "HOST:PORT" or "[V6]:PORT", read
 * back as the targets file's syntax) as a socket address: numeric only.
 * 0, or -EINVAL. */
int mesh_target_inv_addr(const struct mesh_inventory *inv, uint32_t a,
			 struct sockaddr_storage *ss);
/* SS without its port: a probe's source, bound before the connect. */
void mesh_target_no_port(struct sockaddr_storage *ss);
/* Room for N peers in T->v: 0 or -ENOMEM. */
int mesh_targets_room(struct mesh_targets *t, unsigned int n);
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

#endif /* RDMAD_MESH_TARGETS_SCHED_H */
