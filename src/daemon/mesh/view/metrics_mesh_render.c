/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metrics_mesh_render.c - the mesh agent's part of /metrics: per peer,
 * the compact fleet form, rails and places (see metrics_mesh_render.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_select_sched.h"
#include "mesh/view/metrics_mesh_render.h"

/* One peer's paths added up. */
struct peer_sum {
	uint64_t rounds[MESH_RES_N];
	uint64_t size_failed[CONFIG_MESH_SIZES_MAX];
	struct mesh_hist rtt;
	uint64_t connects, downs, pressured;
	const struct mesh_view_path *bw;	/* the latest sample, or NULL */
};

static void peer_sum(const struct mesh_view_peer *p, struct peer_sum *o)
{
	unsigned int i, j;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < mesh_stats_n_figures(p); i++) {
		const struct mesh_path_stats *st = p->path[i].st;

		for (j = 0; j < MESH_RES_N; j++)
			o->rounds[j] += st->rounds[j];
		for (j = 0; j < CONFIG_MESH_SIZES_MAX; j++)
			o->size_failed[j] += st->size_failed[j];
		for (j = 0; j <= MESH_HIST_BUCKETS; j++)
			o->rtt.bucket[j] += st->rtt.bucket[j];
		o->rtt.count += st->rtt.count;
		o->rtt.sum_ns += st->rtt.sum_ns;
		o->connects += st->connects;
		o->downs += st->downs;
		o->pressured += st->pressured;
		if (mesh_view_bw(&p->path[i]) &&
		    (!o->bw || st->bw_at > o->bw->st->bw_at))
			o->bw = &p->path[i];
	}
}

/*
 * What the agent decided of each peer and rail (mesh_health_fsm.h), full
 * and compact alike, read by the mixin without a rate window; the code
 * is the state's place in MESH_HEALTH_LIST.  A peer's series are there
 * only while something is wrong with it (its health slow or worse, its
 * flaps above 0): a healthy fleet pays nothing for them, and a compact
 * host stays within its bound.  A rail's is always there (a few a host),
 * and with topology its places' (two a rail).
 */
#define HEALTH_HELP "0 learning, 1 healthy, 2 slow, 3 lossy, 4 down, " \
	"5 flapping (docs/mesh.md, \"Decided in the agent\")."

/* A peer's sparse series NAME: there only while GET says more than 0. */
static void render_peer_sparse(struct mw *w, const struct mesh_view *m,
			       const char *name, const char *help,
			       unsigned int (*get)(const struct mesh_view_peer *))
{
	unsigned int i;

	mw_family(w, name, FT_GAUGE, NULL, help);
	for (i = 0; i < m->n_peers; i++)
		if (get(&m->peers[i]))
			mw_u64(w, name, "", ONE("peer", m->peers[i].name),
			       get(&m->peers[i]));
}

static unsigned int peer_health_bad(const struct mesh_view_peer *p)
{
	return p->health >= MESH_HEALTH_SLOW ? p->health : 0;
}

static unsigned int peer_flaps(const struct mesh_view_peer *p)
{
	return p->flaps;
}

static unsigned int peer_split(const struct mesh_view_peer *p)
{
	return p->paths_split;
}

static void render_mesh_health(struct mw *w, const struct mesh_view *m)
{
	unsigned int r, k;
	char label[12];

	render_peer_sparse(w, m, "rdmad_mesh_peer_health",
			   "What the agent decided of the peer from its paths' "
			   "rounds and samples, while it is slow or worse "
			   "(absent: learning or healthy): " HEALTH_HELP,
			   peer_health_bad);
	render_peer_sparse(w, m, "rdmad_mesh_peer_flaps",
			   "Downs of the peer's most flapping path within "
			   "[mesh] flap_window (absent: none; flapping from "
			   "[mesh] flap_downs on).", peer_flaps);
	render_peer_sparse(w, m, "rdmad_mesh_peer_paths_split",
			   "The peer's paths decided lossy while another of "
			   "its paths has stayed clean (absent: none): loss on "
			   "the paths whose source port hashes onto one ECMP "
			   "link, not on the port (docs/mesh.md, \"Which "
			   "paths see it\").", peer_split);
	mw_family(w, "rdmad_mesh_rail_health", FT_GAUGE, NULL,
		  "What the agent decided of the rail from its peers' rounds "
		  "together: " HEALTH_HELP);
	for (r = 0; r < m->n_rails && m->rail_health; r++) {
		if (!m->rails[r].seen)
			continue;
		snprintf(label, sizeof(label), "%u", r);
		mw_u64(w, "rdmad_mesh_rail_health", "", ONE("rail", label),
		       m->rail_health[r]);
	}
	mw_family(w, "rdmad_mesh_rail_place_health", FT_GAUGE, NULL,
		  "With an inventory that has topology: what the agent "
		  "decided of the rail's peers under this host's ToR (why="
		  "\"same ToR\") and under others (\"cross-ToR\": this "
		  "ToR's uplinks), each place's rounds together across "
		  "epochs: " HEALTH_HELP);
	for (r = 0; r < m->n_rails && m->place_health; r++) {
		for (k = 0; k < MESH_PLACES; k++) {
			if (!m->rails[r].place_seen[k])
				continue;
			snprintf(label, sizeof(label), "%u", r);
			mw_u64(w, "rdmad_mesh_rail_place_health", "", "rail",
			       label, "why", mesh_select_why_name(
				       k == MESH_PLACE_SAME_TOR ?
				       MESH_SELECT_SAME_TOR :
				       MESH_SELECT_CROSS_TOR),
			       m->place_health[r][k]);
		}
	}
}

/*
 * Families of one peer at a time would interleave families, which the
 * formats forbid: each family walks every peer.  The sums are made once.
 */
static void render_mesh_peers(struct mw *w, char (*le)[24],
			      const struct mesh_view *m,
			      const struct peer_sum *sum)
{
	unsigned int i, j;
	char label[16];

	mw_family(w, "rdmad_mesh_peer_up", FT_GAUGE, NULL,
		  "1 while at least one path to the peer is up.");
	for (i = 0; i < m->n_peers; i++)
		mw_u64(w, "rdmad_mesh_peer_up", "",
		       ONE("peer", m->peers[i].name),
		       mesh_stats_paths_up(&m->peers[i]) > 0);
	mw_family(w, "rdmad_mesh_peer_paths_up", FT_GAUGE, NULL,
		  "Paths (connections, [mesh] paths) to the peer that are up.");
	for (i = 0; i < m->n_peers; i++)
		mw_u64(w, "rdmad_mesh_peer_paths_up", "",
		       ONE("peer", m->peers[i].name),
		       mesh_stats_paths_up(&m->peers[i]));
	mw_family(w, "rdmad_mesh_rounds", FT_COUNTER, NULL,
		  "Probe rounds to the peer, all paths, by result (a failed "
		  "connect counts as a round).");
	for (i = 0; i < m->n_peers; i++)
		for (j = 0; j < MESH_RES_N; j++)
			mw_u64(w, "rdmad_mesh_rounds", "_total",
			       "peer", m->peers[i].name,
			       "result", mesh_result_name(j),
			       sum[i].rounds[j]);
	mw_family(w, "rdmad_mesh_rounds_pressured", FT_COUNTER, NULL,
		  "Rounds to the peer taken under local pressure (this host's "
		  "loop lag or CPU wait above [mesh] prober_lag_max, "
		  "prober_wait_max): counted in rdmad_mesh_rounds_total too, "
		  "their latency in no histogram.");
	for (i = 0; i < m->n_peers; i++)
		mw_u64(w, "rdmad_mesh_rounds_pressured", "_total",
		       ONE("peer", m->peers[i].name), sum[i].pressured);
	mw_family(w, "rdmad_mesh_path_rounds_failed", FT_COUNTER, NULL,
		  "Failed rounds by path (0 .. [mesh] paths - 1): a bad ECMP "
		  "path shows as one path failing.");
	for (i = 0; i < m->n_peers; i++)
		for (j = 0; j < m->peers[i].n_paths; j++) {
			snprintf(label, sizeof(label), "%u", j);
			mw_u64(w, "rdmad_mesh_path_rounds_failed", "_total",
			       "peer", m->peers[i].name, "path", label,
			       mesh_stats_failed(m->peers[i].path[j].st));
		}
	mw_family(w, "rdmad_mesh_size_rounds_failed", FT_COUNTER, NULL,
		  "Failed rounds by size in bytes ([mesh] sizes), all paths: "
		  "loss that hits large packets only shows here.");
	for (i = 0; i < m->n_peers; i++)
		for (j = 0; j < m->n_sizes && j < CONFIG_MESH_SIZES_MAX; j++) {
			snprintf(label, sizeof(label), "%" PRIu32,
				 m->sizes[j]);
			mw_u64(w, "rdmad_mesh_size_rounds_failed", "_total",
			       "peer", m->peers[i].name, "size", label,
			       sum[i].size_failed[j]);
		}
	mw_family(w, "rdmad_mesh_round_duration_seconds", FT_HISTOGRAM,
		  "seconds", "Verified rounds from the first post to the last "
		  "completion, all paths.");
	for (i = 0; i < m->n_peers; i++)
		mw_histogram_of(w, "rdmad_mesh_round_duration_seconds", "peer",
				m->peers[i].name, le, MESH_HIST_BUCKETS, sum[i].rtt.bucket,
				sum[i].rtt.count, sum[i].rtt.sum_ns);
	mw_family(w, "rdmad_mesh_bandwidth_bytes_per_second", FT_GAUGE,
		  "bytes_per_second", "The peer's last bandwidth sample "
		  "(absent until one was taken).");
	for (i = 0; i < m->n_peers; i++)
		if (sum[i].bw)
			mw_u64(w, "rdmad_mesh_bandwidth_bytes_per_second",
			       "", ONE("peer", m->peers[i].name),
			       mesh_view_bw(sum[i].bw));
	mw_family(w, "rdmad_mesh_connects", FT_COUNTER, NULL,
		  "Mesh sessions established to the peer, all paths.");
	for (i = 0; i < m->n_peers; i++)
		mw_u64(w, "rdmad_mesh_connects", "_total",
		       ONE("peer", m->peers[i].name), sum[i].connects);
	mw_family(w, "rdmad_mesh_peer_downs", FT_COUNTER, NULL,
		  "Paths to the peer that went from up to down.");
	for (i = 0; i < m->n_peers; i++)
		mw_u64(w, "rdmad_mesh_peer_downs", "_total",
		       ONE("peer", m->peers[i].name), sum[i].downs);
}

/*
 * [mesh] peer_series = compact: 5 series a peer (up with its place,
 * rounds as ok / mismatch / failed, the p99 of its window); the rest by
 * rail (render_mesh_rails).
 */
static void render_mesh_compact(struct mw *w, const struct mesh_view *m,
				const struct peer_sum *sum)
{
	static const char *const uk[] = { "peer", "peer_host", "peer_tor",
					  "rail", "why" };
	unsigned int i, j;

	mw_family(w, "rdmad_mesh_peer_up", FT_GAUGE, NULL,
		  "1 while at least one path to the peer is up; peer_host, "
		  "peer_tor, rail: its place in the inventory, why: why it is "
		  "probed.");
	for (i = 0; i < m->n_peers; i++) {
		const struct mesh_view_peer *p = &m->peers[i];
		char rail[12];

		snprintf(rail, sizeof(rail), "%u", p->rail);
		mw_series_n(w, "rdmad_mesh_peer_up", "", uk,
			    (const char *const[]){ p->name, p->host, p->tor, rail,
			    p->why }, 5);
		mw_value_u64(w->f, mesh_stats_paths_up(p) > 0);
	}
	mw_family(w, "rdmad_mesh_rounds", FT_COUNTER, NULL,
		  "Probe rounds to the peer, all paths: ok, mismatch, failed "
		  "(every other class; by class in rdmad_mesh_rail_rounds).");
	for (i = 0; i < m->n_peers; i++) {
		uint64_t n[MESH_CRES_N] = { 0 };

		for (j = 0; j < MESH_RES_N; j++)
			n[mesh_compact_result_of(j)] += sum[i].rounds[j];
		for (j = 0; j < MESH_CRES_N; j++)
			mw_u64(w, "rdmad_mesh_rounds", "_total",
			       "peer", m->peers[i].name,
			       "result", mesh_compact_result_name(j), n[j]);
	}
	mw_family(w, "rdmad_mesh_round_p99_seconds", FT_GAUGE, "seconds",
		  "p99 of the peer's verified rounds among its paths' last 128 "
		  "rounds each (absent while there is none).");
	for (i = 0; i < m->n_peers; i++) {
		struct mesh_window_sum ws;

		mesh_stats_peer_window(&m->peers[i], &ws);
		if (!ws.p99_ns)
			continue;
		mw_series(w, "rdmad_mesh_round_p99_seconds", "",
			  ONE("peer", m->peers[i].name));
		mw_seconds_line(w, ws.p99_ns);
	}
}

/* Compact: each rail's rounds since start, every peer that was on it. */
static void render_mesh_rails(struct mw *w, char (*le)[24],
			      const struct mesh_view *m)
{
	char label[12];
	unsigned int r, j;

	mw_family(w, "rdmad_mesh_rail_rounds", FT_COUNTER, NULL,
		  "Probe rounds to the peers on the rail since start, by "
		  "result (a peer that left keeps its rounds here).");
	for (r = 0; r < m->n_rails; r++) {
		if (!m->rails[r].seen)
			continue;
		snprintf(label, sizeof(label), "%u", r);
		for (j = 0; j < MESH_RES_N; j++)
			mw_u64(w, "rdmad_mesh_rail_rounds", "_total",
			       "rail", label, "result", mesh_result_name(j),
			       m->rails[r].rounds[j]);
	}
	mw_family(w, "rdmad_mesh_rail_round_duration_seconds", FT_HISTOGRAM,
		  "seconds", "Verified rounds to the peers on the rail since "
		  "start, all paths.");
	for (r = 0; r < m->n_rails; r++) {
		const struct mesh_hist *h = &m->rails[r].rtt;

		if (!m->rails[r].seen)
			continue;
		snprintf(label, sizeof(label), "%u", r);
		mw_histogram_of(w, "rdmad_mesh_rail_round_duration_seconds",
				"rail", label, le, MESH_HIST_BUCKETS,
				h->bucket, h->count, h->sum_ns);
	}
}

/*
 * With an inventory: where this host stands, each peer's place and why
 * it is probed (full: one info series a peer, join on peer; compact: the
 * place is on rdmad_mesh_peer_up), and how often the cross-ToR slots
 * moved on.
 */
static void render_mesh_place(struct mw *w, const struct mesh_view *m)
{
	static const char *const pk[] = { "host", "tor", "pod" };
	static const char *const qk[] = { "peer", "peer_host", "peer_tor",
					  "rail", "why" };
	unsigned int i;

	if (!m->topology)
		return;
	mw_family(w, "rdmad_mesh_place", FT_INFO, NULL,
		  "Where this rdmad stands in the inventory ([mesh] targets).");
	mw_info(w, "rdmad_mesh_place",
		pk, (const char *const[]){ m->host, m->tor, m->pod }, 3);
	/* compact: the peer's place is on rdmad_mesh_peer_up */
	if (!m->compact)
		mw_family(w, "rdmad_mesh_peer", FT_INFO, NULL,
			  "Each peer's place in the inventory and why it is "
			  "probed (same ToR, cross-ToR this epoch).");
	for (i = 0; i < m->n_peers && !m->compact; i++) {
		const struct mesh_view_peer *p = &m->peers[i];
		char rail[12];

		snprintf(rail, sizeof(rail), "%u", p->rail);
		mw_info(w, "rdmad_mesh_peer", qk,
			(const char *const[]){ p->name, p->host, p->tor,
			rail, p->why }, 5);
	}
	mw_family(w, "rdmad_mesh_epoch_switches", FT_COUNTER, NULL,
		  "Times a cross-ToR slot of this host moved on to its next "
		  "epoch's peers.");
	mw_u64(w, "rdmad_mesh_epoch_switches", "_total", NULL, NULL,
	       NULL, NULL, m->switches);
}

/*
 * The prober's share (mesh_load_check.h): this host's loop lag, and what its
 * rounds spent waiting for a CPU (docs/monitoring.md, "The prober's
 * share").  The PSI family is absent on a host without PSI.
 */
static void render_mesh_load(struct mw *w, char (*le)[24],
			     const struct mesh_view *m)
{
	static const struct mesh_hist none;
	const struct mesh_hist *h = m->lag ? m->lag : &none;

	mw_family(w, "rdmad_mesh_loop_lag_seconds", FT_HISTOGRAM, "seconds",
		  "How late a timer of rdmad's loop ran (a sampler every "
		  "50 ms while the mesh is on): this host's delay of any "
		  "round.");
	mw_histogram_of(w, "rdmad_mesh_loop_lag_seconds", NULL, NULL,
			le, MESH_HIST_BUCKETS, h->bucket, h->count,
			h->sum_ns);
	mw_family(w, "rdmad_mesh_round_run_delay_seconds", FT_COUNTER,
		  "seconds", "Time rdmad's loop waited on a CPU run queue "
		  "during mesh rounds (/proc/self/schedstat), all peers.");
	mw_series(w, "rdmad_mesh_round_run_delay_seconds", "_total", NULL,
		  NULL, NULL, NULL);
	mw_seconds_line(w, m->load_delay_ns);
	mw_family(w, "rdmad_mesh_prober_rounds_pressured", FT_COUNTER, NULL,
		  "Rounds taken under local pressure, all peers (by peer: "
		  "rdmad_mesh_rounds_pressured_total, full series).");
	mw_u64(w, "rdmad_mesh_prober_rounds_pressured", "_total", NULL, NULL,
	       NULL, NULL, m->pressured);
	mw_family(w, "rdmad_mesh_prober_late_rounds", FT_COUNTER, NULL,
		  "Rounds that verified late ([mesh] slow_round above their "
		  "path's usual latency), all peers, by what the agent's loss "
		  "test made of them: judged (bad, alone: a retransmission), "
		  "stall (late at once with another: not judged), pressured "
		  "(under local pressure, and not late beyond the host's "
		  "own delay over it: not judged).");
	mw_u64(w, "rdmad_mesh_prober_late_rounds", "_total", ONE("fate",
	       "judged"), m->late_judged);
	mw_u64(w, "rdmad_mesh_prober_late_rounds", "_total", ONE("fate",
	       "stall"), m->late_stall);
	mw_u64(w, "rdmad_mesh_prober_late_rounds", "_total", ONE("fate",
	       "pressured"), m->late_pressured);
	if (m->psi) {
		mw_family(w, "rdmad_mesh_round_cpu_pressure_seconds",
			  FT_COUNTER, "seconds", "Time some task of this host "
			  "waited for a CPU during mesh rounds (PSI, "
			  "/proc/pressure/cpu \"some\"), all peers.");
		mw_series(w, "rdmad_mesh_round_cpu_pressure_seconds", "_total",
			  NULL, NULL, NULL, NULL);
		mw_seconds_line(w, m->load_psi_us * 1000);
	}
}

/*
 * The mesh families are declared even with no agent (as
 * rdmad_listener_up without listeners); per-peer series come with peers.
 * -ENOMEM when the per-peer sums cannot be allocated.
 */
int metrics_mesh_render(struct mw *w, const struct mesh_view *m)
{
	static const struct mesh_view off;
	char le[MESH_HIST_BUCKETS][24];	/* the histograms' le values */
	struct peer_sum *sum = NULL;
	unsigned int i;

	for (i = 0; i < MESH_HIST_BUCKETS; i++)
		mw_fmt_seconds(le[i], sizeof(le[i]), mesh_hist_bounds_ns[i]);
	if (!m || !m->on)
		m = &off;
	if (m->n_peers) {
		sum = calloc(m->n_peers, sizeof(*sum));
		if (!sum)
			return -ENOMEM;
	}
	for (i = 0; i < m->n_peers; i++)
		peer_sum(&m->peers[i], &sum[i]);
	mw_family(w, "rdmad_mesh_peers", FT_GAUGE, NULL,
		  "Peers the mesh agent probes ([mesh] targets).");
	mw_u64(w, "rdmad_mesh_peers", "", NULL, NULL, NULL, NULL,
	       m->n_peers);
	mw_family(w, "rdmad_mesh_self_info", FT_GAUGE, NULL,
		  "1 for each [mesh] targets entry that is this rdmad itself: "
		  "the peer label other hosts give it.");
	for (i = 0; i < m->n_self; i++)
		mw_u64(w, "rdmad_mesh_self_info", "", "peer", m->self[i],
		       NULL, NULL, 1);
	if (m->compact)
		render_mesh_compact(w, m, sum);
	else
		render_mesh_peers(w, le, m, sum);
	free(sum);
	render_mesh_health(w, m);
	render_mesh_place(w, m);
	if (m->compact)
		render_mesh_rails(w, le, m);
	mw_family(w, "rdmad_mesh_bandwidth_samples", FT_COUNTER, NULL,
		  "Bandwidth samples taken, all peers.");
	mw_u64(w, "rdmad_mesh_bandwidth_samples", "_total", NULL, NULL,
	       NULL, NULL, m->bw_samples);
	mw_family(w, "rdmad_mesh_bandwidth_seconds", FT_COUNTER, "seconds",
		  "Link time the bandwidth samples took, all peers (held "
		  "under [mesh] bandwidth_share).");
	mw_series(w, "rdmad_mesh_bandwidth_seconds", "_total", NULL, NULL, NULL,
		  NULL);
	mw_seconds_line(w, m->bw_ns);
	render_mesh_load(w, le, m);
	mw_family(w, "rdmad_mesh_targets_reloads", FT_COUNTER, NULL,
		  "Times the targets file was read again (reload).");
	mw_u64(w, "rdmad_mesh_targets_reloads", "_total", NULL, NULL,
	       NULL, NULL, m->reloads);
	return 0;
}
