/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_select_sched.h - which peers this rdmad probes, from the inventory
 * alone: no controller, every host computes its own peers the same way
 * (pure; proved in test-mesh-select, measured by tests/bench/fleet-sim;
 * docs/fleet.md for operators).
 *
 * Each rail is its own mesh: an address on rail r probes addresses on
 * rail r only.  On a rail, with T ToRs (those with an address on it),
 * S_A addresses under ToR A and M = min(cross_tor, T - 1):
 *
 *  - ToRs are ordered by a keyed hash of their names (SipHash, a fixed
 *    project key: every host agrees), interleaved across pods (pods in
 *    hash order, round robin); addresses under a ToR by their host's
 *    hash.  Positions 0..T-1, 0..S_A-1.
 *  - Same ToR: every address probes every other address under its ToR.
 *  - Across ToRs, epoch e, slot j < M: ToR A probes ToR
 *    B = A + off_j(e) mod T, off_j(e) = 1 + ((e*M + j) mod (T-1)).
 *    Address i of A probes the addresses b of B with
 *    b mod S_A == (i + e) mod S_A.
 *
 * What follows (test-mesh-select checks each on every host, every epoch
 * of a cycle, on small fleets; fleet-sim on 2,048 and 100,000 hosts):
 *  P1 every ToR probes exactly M other ToRs and is probed from exactly M
 *     other ToRs in each epoch (the M offsets of an epoch are distinct);
 *  P2 every address is probed in each epoch by exactly Q = M addresses
 *     outside its ToR, one from each of those M ToRs;
 *  P3 every ordered ToR pair is probed within ceil((T-1)/M) consecutive
 *     epochs (the offsets of those epochs cover 1..T-1);
 *  P4 peers of an address: at most S_A - 1 + M * ceil(S_max / S_A)
 *     (<= S_max - 1 + M * ceil(S_max / S_min)); per host, summed over its
 *     rails (mesh_select_bounds()).  Inbound probers in an epoch:
 *     S_A - 1 + M; at any moment, with slots switching, at most
 *     S_A - 1 + 2M;
 *  P5 an epoch change is no burst: slot j of rail r of a host switches
 *     at its own time, phase(host) + epoch * (j * R + r) / (M * R) (phase
 *     a hash of the host name, R rails), so a host replaces one slot's
 *     peers at a time, R * M times an epoch, and the fleet's switches
 *     (hosts x R x M an epoch, each about ceil(S_B / S_A) connects) are
 *     spread evenly over the epoch;
 *  P6 pods: with K >= 2 pods of equal ToR counts on the rail and M >= 2,
 *     every ToR has a source ToR from another pod in every epoch (with
 *     M = 1: in one of any two consecutive epochs).
 *
 * An inventory without topology is one ToR: a full mesh, as today.
 */
#ifndef RDMAD_MESH_SELECT_SCHED_H
#define RDMAD_MESH_SELECT_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "mesh/mesh_inventory_parse.h"

/* The parameters: [mesh] keys, whose limits and defaults core/config.h
 * holds (the configuration refuses out-of-range values; the selection's
 * own check is for its other callers: fleet-sim, the fuzzer). */
#define MESH_SELECT_CROSS_TOR_DEFAULT	CONFIG_MESH_CROSS_TOR_DEFAULT
#define MESH_SELECT_CROSS_TOR_MIN	1u
#define MESH_SELECT_CROSS_TOR_MAX	CONFIG_MESH_CROSS_TOR_MAX
#define MESH_SELECT_EPOCH_DEFAULT	(CONFIG_MESH_EPOCH_DEFAULT_MS / 1000)
#define MESH_SELECT_EPOCH_MIN		(CONFIG_MESH_EPOCH_MIN_MS / 1000)
#define MESH_SELECT_EPOCH_MAX		(CONFIG_MESH_EPOCH_MAX_MS / 1000)
#define MESH_SELECT_PEERS_DEFAULT	CONFIG_MESH_PEERS_DEFAULT
#define MESH_SELECT_PEERS_MAX		CONFIG_MESH_PEERS_MAX
#define MESH_SELECT_INBOUND_DEFAULT	CONFIG_MESH_PEERS_DEFAULT
#define MESH_SELECT_INBOUND_MAX		CONFIG_MESH_PEERS_MAX

struct mesh_select_params {
	/* M: ToRs probing each ToR per epoch; 1..16, default 5.  Above
	 * T - 1 on a rail it is clipped to T - 1 there (an inventory can
	 * shrink under a key that was right), never refused. */
	unsigned int cross_tor;
	/* Epoch length, s: 60..86400, default 300 (R-Pingmesh's). */
	unsigned int epoch_s;
	/* The inventory is refused when a host could have more peers, or
	 * more inbound probers at a moment (P4); 1..4096, default 1024. */
	unsigned int max_peers;
	unsigned int max_inbound;
};

/* Why a peer is probed. */
enum mesh_select_why {
	MESH_SELECT_FULL,	/* no topology: every host */
	MESH_SELECT_SAME_TOR,	/* under this host's ToR */
	MESH_SELECT_CROSS_TOR,	/* another ToR, slot SLOT of EPOCH */
};

struct mesh_select_peer {
	uint32_t addr;		/* the peer's address (inventory index) */
	uint32_t from;		/* this host's address on the same rail */
	uint64_t epoch;		/* cross-ToR: the slot's epoch */
	uint8_t why;		/* enum mesh_select_why */
	uint8_t slot;		/* cross-ToR: j */
	uint8_t rail;
};

/* One rail's mesh. */
struct mesh_select_rail {
	uint32_t n_tor;		/* ToRs with an address on the rail: T */
	uint32_t m;		/* min(cross_tor, T - 1) */
	uint32_t s_min, s_max;	/* addresses under a ToR */
	uint32_t *first;	/* T + 1: a ToR position's first member */
	uint32_t *member;	/* addresses, by ToR position, then host hash */
	uint32_t *tor;		/* T: the ToR id at each position */
};

struct mesh_select {
	const struct mesh_inventory *inv;
	struct mesh_select_params p;
	struct mesh_select_rail rail[MESH_INV_RAILS_MAX];
	unsigned int n_rails;
	uint32_t *addr_pos;	/* per address: its ToR's position on its rail */
	uint32_t *addr_idx;	/* per address: its index under the ToR */
	uint64_t *phase_ms;	/* per host: hash(name) mod epoch */
};

/* What the selection promises for this inventory (P1-P4). */
struct mesh_select_bounds {
	unsigned int m_min, m_max;	/* M over the rails with T >= 2 */
	unsigned int epochs_all_pairs;	/* P3: max over rails */
	unsigned int max_peers;		/* P4: per host, all rails */
	unsigned int max_inbound_epoch;	/* P4: per host, in an epoch */
	unsigned int max_inbound;	/* P4: per host, at any moment */
};

/* The defaults. */
void mesh_select_params_default(struct mesh_select_params *p);
/* 0, or -ERANGE with "KEY: V is out of range MIN..MAX" in ERR. */
int mesh_select_params_check(const struct mesh_select_params *p, char *err,
			     size_t errlen);

/*
 * Set up the selection of INV (kept by pointer: it must outlive *S):
 * O(addresses log addresses).  0; -ENOMEM; or -E2BIG when a host could
 * have more peers or inbound probers than P allows, with the numbers in
 * ERR.
 */
int mesh_select_init(struct mesh_select *s, const struct mesh_inventory *inv,
		     const struct mesh_select_params *p, char *err,
		     size_t errlen);
void mesh_select_fini(struct mesh_select *s);
void mesh_select_bounds(const struct mesh_select *s,
			struct mesh_select_bounds *b);

/*
 * The peers of address ADDR in epoch EPOCH (every slot at EPOCH), at
 * most CAP into OUT: same ToR first, then slot by slot.  Returns how
 * many, or -ENOSPC.  O(its peers).
 */
int mesh_select_addr_peers(const struct mesh_select *s, uint32_t addr,
			   uint64_t epoch, struct mesh_select_peer *out,
			   unsigned int cap);
/* The same for every address of HOST. */
int mesh_select_host_peers(const struct mesh_select *s, uint32_t host,
			   uint64_t epoch, struct mesh_select_peer *out,
			   unsigned int cap);
/* Only slot SLOT's cross-ToR peers of ADDR in EPOCH (0 if SLOT >= M). */
int mesh_select_slot_peers(const struct mesh_select *s, uint32_t addr,
			   uint64_t epoch, unsigned int slot,
			   struct mesh_select_peer *out, unsigned int cap);

/*
 * The epoch slot SLOT of address ADDR is in at T_MS (ms since the Unix
 * epoch).  A slot's epochs start at phase(host) + epoch * (SLOT * R +
 * rail) / (M * R), R the inventory's rails: every (rail, slot) of a host
 * switches at its own moment.
 */
uint64_t mesh_select_epoch_at(const struct mesh_select *s, uint32_t addr,
			      unsigned int slot, uint64_t t_ms);
/* When slot SLOT of ADDR enters epoch EPOCH (ms since the Unix epoch). */
uint64_t mesh_select_switch_ms(const struct mesh_select *s, uint32_t addr,
			       unsigned int slot, uint64_t epoch);

const char *mesh_select_why_name(enum mesh_select_why why);

#endif /* RDMAD_MESH_SELECT_SCHED_H */
