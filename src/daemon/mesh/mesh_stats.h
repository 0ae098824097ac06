/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_stats.h - what rdmad's mesh agent saw of each peer, path by path:
 * rounds by result class, failures by size, a latency histogram of the
 * good rounds, a window of recent rounds (p50, p99, loss), a smaller one
 * per size (the heatmap of GET /mesh), the last bandwidth sample.  Pure (no I/O, no clock: times are arguments).
 *
 * The agent (mesh_agent.c) feeds one struct mesh_path_stats per path;
 * the renderers (metrics_render.c: GET /metrics; status_render.c: GET /peers and
 * rdmadctl mesh) are given a struct mesh_view.  Label values are fixed
 * sets, so every series of a configured peer exists from the start.
 */
#ifndef RDMAD_MESH_STATS_H
#define RDMAD_MESH_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "mesh/mesh_health_fsm.h"
#include "mesh/mesh_sched.h"
#include "mesh/mesh_result_rules.h"

/* How a round ended: enum mesh_result (mesh_result_rules.h). */

/* Good rounds' latency (WRITE posted to READ back), fixed bounds. */
#define MESH_HIST_BUCKETS	12
struct mesh_hist {
	uint64_t bucket[MESH_HIST_BUCKETS + 1];	/* per bucket; last +Inf */
	uint64_t count;
	uint64_t sum_ns;
};
extern const uint64_t mesh_hist_bounds_ns[MESH_HIST_BUCKETS];

/*
 * The window of the figures a person reads (the live table's p50, p99
 * and loss: /peers, rdmadctl mesh): a path's last MESH_WINDOW rounds,
 * every one of them, those under local pressure too (they count for the
 * loss; their latency is left out of p50 and p99).  A value: a failed
 * round's 0, MESH_W_PRESSURED, or the latency (1 ns at least).
 */
#define MESH_WINDOW	128
#define MESH_W_PRESSURED	UINT64_MAX

/*
 * Recent rounds of one size slot (the heatmap's cells, GET /mesh): the
 * last MESH_SIZE_WINDOW of the slot, each its latency in us (at least
 * 1), 0 for a failed round, MESH_SW_MISMATCH for a mismatch (failed
 * too), MESH_SW_PRESSURED for a good round under local pressure (in the
 * loss, not in the latency).  8 slots of these are 1,056 bytes per path.
 */
#define MESH_SIZE_WINDOW	32
#define MESH_SW_MISMATCH	UINT32_MAX
#define MESH_SW_PRESSURED	(UINT32_MAX - 1)
struct mesh_size_window {
	uint32_t us[MESH_SIZE_WINDOW];
	uint8_t n, pos;
};

/*
 * Where a peer is, for the pools that outlive a cross-ToR epoch: under
 * this host's ToR, or under another (an inventory with topology).
 */
enum mesh_place { MESH_PLACE_SAME_TOR, MESH_PLACE_CROSS_TOR, MESH_PLACES };

/*
 * One rail's rounds, every peer on it together ([mesh] peer_series =
 * compact: rdmad_mesh_rail_*).  Counted as each round is recorded, never
 * summed from the peers there now: a peer that leaves (a cross-ToR slot's
 * epoch ends) takes none of its rounds with it.
 */
struct mesh_rail_stats {
	uint64_t rounds[MESH_RES_N];
	struct mesh_hist rtt;		/* the ok rounds */
	bool seen;			/* a peer was on it: its series exist */
	/* with topology, a peer of that place was on it (MESH_PLACE_*) */
	bool place_seen[MESH_PLACES];
};

struct mesh_path_stats {
	/* the rail of the path's peer: each round counted there too (the
	 * agent points it; NULL: nowhere) */
	struct mesh_rail_stats *rail;
	uint64_t rounds[MESH_RES_N];
	uint64_t size_rounds[CONFIG_MESH_SIZES_MAX];	/* by size slot */
	uint64_t size_failed[CONFIG_MESH_SIZES_MAX];
	struct mesh_size_window sw[CONFIG_MESH_SIZES_MAX];
	struct mesh_hist rtt;
	uint64_t connects;		/* sessions established */
	uint64_t downs;			/* up -> down */
	uint64_t pressured;		/* rounds under local pressure */
	/* ring of the last rounds: latency ns, 0 for a failed one,
	 * MESH_W_PRESSURED for a good one under local pressure */
	uint64_t window[MESH_WINDOW];
	unsigned int w_n, w_pos;
	enum mesh_result last;		/* of the last round; OK at first */
	bool have_last;
	uint64_t last_at;		/* CLOCK_MONOTONIC ns */
	uint32_t last_size;
	uint32_t last_bad_offset;	/* with MISMATCH */
	uint64_t bw_bytes_per_s;	/* last bandwidth sample */
	uint64_t bw_at;			/* CLOCK_MONOTONIC ns of it; 0: none */
	uint64_t bw_samples;
};

/* A window's rounds: the loss is failed / n. */
struct mesh_window_sum {
	unsigned int n;			/* rounds in the window */
	unsigned int failed;
	unsigned int mismatched;	/* of the failed (per-size windows) */
	unsigned int pressured;		/* good, under local pressure */
	uint64_t p50_ns, p99_ns;	/* of the good ones not under local
					   pressure; 0: none */
};

void mesh_stats_init(struct mesh_path_stats *s);
/* A round (or a failed connect, SIZE_SLOT then the round's turn) ended. */
void mesh_stats_round(struct mesh_path_stats *s, unsigned int size_slot,
		      uint32_t size, enum mesh_result r, uint64_t rtt_ns,
		      uint32_t bad_offset, uint64_t now);
/*
 * A round taken under local pressure (mesh_load_check.h): counted as
 * mesh_stats_round counts it, and in pressured, in the windows too (a
 * window is the last rounds, all of them: its loss is recent); an ok
 * one's latency is kept out of the histograms and the windows' p50 and
 * p99 (it holds the host's delay, not only the network's), a failed one
 * counts as failed as any other.
 */
void mesh_stats_round_pressured(struct mesh_path_stats *s,
				unsigned int size_slot, uint32_t size,
				enum mesh_result r, uint64_t rtt_ns,
				uint32_t bad_offset, uint64_t now);
void mesh_stats_bw(struct mesh_path_stats *s, uint64_t bytes, uint64_t ns,
		   uint64_t now);
/*
 * A bandwidth sample ended with R: no round, good or failed (rounds are
 * verified round trips: the ok ones are the latency histogram's), only
 * the last result; when OK, BYTES in NS are its figures.  A failed one
 * shows as the path going down.
 */
void mesh_stats_sample(struct mesh_path_stats *s, enum mesh_result r,
		       uint64_t bytes, uint64_t ns, uint64_t now);
/*
 * The last sample is older than MAX_AGE_NS at NOW (0: any age): it no
 * longer describes the path, and the view leaves it out (the statistics
 * keep it; bw_samples counts it).  A stale figure would keep an alert
 * firing.  True also when there is no sample.
 */
bool mesh_stats_bw_stale(const struct mesh_path_stats *s, uint64_t now,
			 uint64_t max_age_ns);
void mesh_stats_connected(struct mesh_path_stats *s);
void mesh_stats_down(struct mesh_path_stats *s);
/* Every per-size count and window starts again. */
void mesh_stats_sizes_reset(struct mesh_path_stats *s);
/*
 * The sizes changed from OLD (N_OLD) to NEXT (N_NEW) by a reload: a size
 * in both keeps its counts and window in its new slot (its counters never
 * go back), a new one starts empty.
 */
void mesh_stats_sizes_remap(struct mesh_path_stats *s, const uint32_t *old,
			    unsigned int n_old, const uint32_t *next,
			    unsigned int n_new);
void mesh_stats_window(const struct mesh_path_stats *s,
		       struct mesh_window_sum *w);
void mesh_hist_add(struct mesh_hist *h, uint64_t ns);
/* Rounds of S that did not end OK. */
uint64_t mesh_stats_failed(const struct mesh_path_stats *s);

/*
 * The compact result classes of rdmad_mesh_rounds_total: ok, mismatch,
 * and failed for every other class, so that result!="ok" and
 * result="mismatch" select the same rounds in both modes.
 */
enum mesh_compact_result { MESH_CRES_OK, MESH_CRES_MISMATCH,
			   MESH_CRES_FAILED, MESH_CRES_N };
enum mesh_compact_result mesh_compact_result_of(enum mesh_result r);
const char *mesh_compact_result_name(enum mesh_compact_result r);

/* ---- the view the renderers are given ----------------------------- */

struct mesh_view_path {
	enum mesh_state state;
	enum mesh_reach reach;
	enum mesh_health_state health;	/* what its rounds say of it */
	const struct mesh_path_stats *st;
	const char *error;		/* last failure's message, or "" */
	bool bw_stale;			/* st's bandwidth sample is too old
					   (mesh_stats_bw_stale) */
};

/* P's last bandwidth sample in bytes/s; 0 when none or stale. */
uint64_t mesh_view_bw(const struct mesh_view_path *p);

struct mesh_view_peer {
	const char *name;		/* "HOST:PORT", the metrics label */
	/* what its rounds say of it: its paths' rounds judged together
	 * (one path: that path's), down when every path is, flapping when
	 * one is */
	enum mesh_health_state health;
	/* its slow test (the same machine's) has learnt its usual bandwidth
	 * and judges its samples */
	bool bw_learnt;
	/* downs of its most flapping path within [mesh] flap_window */
	unsigned int flaps;
	/* its paths lossy while a sibling stays clean (mesh_health_split:
	 * one of several ECMP links, not its port) */
	unsigned int paths_split;
	unsigned int n_paths;		/* configured: path[0 .. n_paths-1] */
	/* path[n_paths .. n_figures-1]: dropped by a smaller [mesh] paths,
	 * stopped; their figures stay in the peer's counters (which never
	 * go back while the peer is configured) */
	unsigned int n_figures;
	struct mesh_view_path path[CONFIG_MESH_PATHS_MAX];
	/* With an inventory (docs/fleet.md): where the peer stands and why
	 * it is probed ("same ToR", "cross-ToR" in SLOT of EPOCH, "full
	 * mesh"); host and tor "" without topology. */
	const char *host, *tor, *why;
	bool cross_tor;			/* slot and epoch say which */
	unsigned int rail, slot;
	/* the address its rounds leave from: its rail's address of this
	 * host in the inventory, else [mesh] source; NULL: rdma_cm picks */
	const char *source;
	uint64_t epoch;
};

/* V's N peers in the order the renderers show them: by ToR, then rail,
 * then name (with an inventory: /mesh groups its columns by ToR). */
void mesh_view_order(struct mesh_view_peer *v, unsigned int n);

/* Paths of P whose figures count in its counters (path[0 .. n-1]). */
unsigned int mesh_stats_n_figures(const struct mesh_view_peer *p);
/*
 * The windows of P's running paths together (their last MESH_WINDOW
 * rounds each, ns): n, failed, p50 and p99 by selection, as
 * mesh_stats_window for one path (rdmad_mesh_round_p99_seconds).
 */
void mesh_stats_peer_window(const struct mesh_view_peer *p,
			    struct mesh_window_sum *w);
/* Paths of P that are up (the peer is up with one or more). */
unsigned int mesh_stats_paths_up(const struct mesh_view_peer *p);
/*
 * The recent rounds of size slot SLOT on all of P's paths together
 * (SLOT >= CONFIG_MESH_SIZES_MAX: of every size): n, failed, mismatched,
 * p50 and p99 at the window's resolution (1 us).
 */
void mesh_stats_size_sum(const struct mesh_view_peer *p, unsigned int slot,
			 struct mesh_window_sum *w);

/* All of a peer's size sums at once: what a renderer shows of it. */
struct mesh_peer_sums {
	struct mesh_window_sum size[CONFIG_MESH_SIZES_MAX];	/* by slot */
	struct mesh_window_sum all;				/* every size */
};
/*
 * P's sums by size slot and of every size together, in one pass (each
 * value sorted once): the renderers call this once per peer, never per
 * cell (at 4,096 peers x 8 paths x 8 sizes per-cell sums took seconds).
 */
void mesh_stats_peer_sums(const struct mesh_view_peer *p,
			  struct mesh_peer_sums *out);

/* Targets entries recognised as this rdmad itself, kept for the view. */
#define MESH_SELF_MAX	4

struct mesh_view {
	bool on;			/* [mesh] targets set */
	const char *targets;		/* the file */
	unsigned int interval_ms;
	const uint32_t *sizes;
	unsigned int n_sizes;
	const struct mesh_view_peer *peers;
	unsigned int n_peers;
	uint64_t bw_samples;		/* all peers, since start */
	uint64_t bw_ns;			/* link time they took */
	uint64_t reloads;		/* targets re-read */
	/* the targets entries that are this rdmad (up to MESH_SELF_MAX):
	 * the names the other hosts label it with */
	const char *self[MESH_SELF_MAX];
	unsigned int n_self;
	/* With an inventory that has topology: this host's place, and the
	 * cross-ToR slots' switches so far and the next one's distance. */
	bool topology;
	const char *host, *tor, *pod;	/* pod "" when none */
	/* [mesh] rails without an inventory: each peer's rail is shown
	 * (with topology it always is). */
	bool rail_keys;
	/* /metrics with a few series a peer and the rest by rail ([mesh]
	 * peer_series, config_mesh_compact); RAILS[r] is rail r's, shown
	 * once seen */
	bool compact;
	const struct mesh_rail_stats *rails;
	/* each rail's health, its peers' rounds judged together */
	const enum mesh_health_state *rail_health;
	/* and with topology by place: its peers under this host's ToR, and
	 * under others (shown where rails[r].place_seen) */
	const enum mesh_health_state (*place_health)[MESH_PLACES];
	unsigned int n_rails;
	uint64_t switches;
	uint64_t next_switch_ms;	/* from now; 0: none */
	/* the prober's share (mesh_load_check.h): the loop-lag sampler's
	 * histogram (NULL: none), rounds under local pressure, rdmad's
	 * run-queue wait and the host's PSI "some" time in rounds */
	const struct mesh_hist *lag;
	uint64_t pressured;
	/* the late rounds: judged bad, of stalls, under local pressure */
	uint64_t late_judged, late_stall, late_pressured;
	uint64_t load_delay_ns;
	uint64_t load_psi_us;
	bool psi;			/* the host has PSI */
};

#endif /* RDMAD_MESH_STATS_H */
