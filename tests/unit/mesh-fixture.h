/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh-fixture.h - one mesh view for the renderers' unit tests
 * (test-metrics-render, test-status-render, test-mesh-render): mesh_fixture_make() fills
 * mview.
 */
#ifndef RDMAD_MESH_FIXTURE_H
#define RDMAD_MESH_FIXTURE_H

#include <string.h>

#include "mesh/mesh_stats.h"

static struct mesh_path_stats mst[5];
static struct mesh_view_peer mpeers[3];
static const uint32_t msizes[3] = { 64, 1100, 65536 };
static struct mesh_view mview;

/* mview: on, /etc/rdmad/peers, a round a second, SIZES and PEERS. */
static inline void mesh_fixture_view(const uint32_t *sizes,
				     unsigned int n_sizes,
				     const struct mesh_view_peer *peers,
				     unsigned int n_peers)
{
	memset(&mview, 0, sizeof(mview));
	mview.on = true;
	mview.targets = "/etc/rdmad/peers";
	mview.interval_ms = 1000;
	mview.sizes = sizes;
	mview.n_sizes = n_sizes;
	mview.peers = peers;
	mview.n_peers = n_peers;
}

/*
 * Three peers: A two paths (0 up, 1 down), two bandwidth samples on
 * different paths; B two paths both down, never a good round; C, a
 * name to escape, one path up.
 */
static inline void mesh_fixture_make(void)
{
	unsigned int i;

	for (i = 0; i < 5; i++)
		mesh_stats_init(&mst[i]);
	/* A path 0: 3 ok (30us, 30us, 2ms), 1 mismatch at 1100 */
	mesh_stats_round(&mst[0], 0, 64, MESH_RES_OK, 30000, 0, 1);
	mesh_stats_round(&mst[0], 1, 1100, MESH_RES_MISMATCH, 0, 40, 2);
	mesh_stats_round(&mst[0], 2, 65536, MESH_RES_OK, 2000000, 0, 3);
	mesh_stats_round(&mst[0], 0, 64, MESH_RES_OK, 30000, 0, 4);
	mesh_stats_connected(&mst[0]);
	mesh_stats_bw(&mst[0], 1000000000ull, 1000000000ull, 10);
	/* A path 1: 1 ok (1s), 2 timeouts at 65536, went down once */
	mesh_stats_round(&mst[1], 2, 65536, MESH_RES_TIMEOUT, 0, 0, 1);
	mesh_stats_round(&mst[1], 0, 64, MESH_RES_OK, 1000000000ull, 0, 2);
	mesh_stats_round(&mst[1], 2, 65536, MESH_RES_TIMEOUT, 0, 0, 3);
	mesh_stats_connected(&mst[1]);
	mesh_stats_connected(&mst[1]);
	mesh_stats_down(&mst[1]);
	mesh_stats_bw(&mst[1], 3000000000ull, 1000000000ull, 20);
	/* B: unreachable and refused */
	mesh_stats_round(&mst[2], 0, 64, MESH_RES_UNREACHABLE, 0, 0, 1);
	mesh_stats_round(&mst[3], 0, 64, MESH_RES_REFUSED, 0, 0, 1);
	/* C: one ok */
	mesh_stats_round(&mst[4], 0, 64, MESH_RES_OK, 100000, 0, 1);

	memset(mpeers, 0, sizeof(mpeers));
	mpeers[0].name = "10.0.0.2:7471";
	mpeers[0].health = MESH_HEALTH_LOSSY;
	mpeers[0].flaps = 2;
	mpeers[0].paths_split = 1;
	mpeers[0].n_paths = 2;
	mpeers[0].path[0] = (struct mesh_view_path){ .state = MESH_ST_WAIT,
		.reach = MESH_REACH_UP, .st = &mst[0],
		.error = "", .bw_stale = false };
	mpeers[0].path[1] = (struct mesh_view_path){ .state = MESH_ST_BACKOFF,
		.reach = MESH_REACH_DOWN, .st = &mst[1],
		.error = "timed out", .bw_stale = false };
	mpeers[1].name = "[fe80::2]:7471";
	mpeers[1].health = MESH_HEALTH_DOWN;
	mpeers[1].n_paths = 2;
	mpeers[1].path[0] = (struct mesh_view_path){ .state = MESH_ST_BACKOFF,
		.reach = MESH_REACH_DOWN, .st = &mst[2],
		.error = "unreachable", .bw_stale = false };
	mpeers[1].path[1] = (struct mesh_view_path){ .state = MESH_ST_CONNECTING,
		.reach = MESH_REACH_UNKNOWN, .st = &mst[3],
		.error = "", .bw_stale = false };
	mpeers[2].name = "q\"\\:1";
	mpeers[2].health = MESH_HEALTH_HEALTHY;
	mpeers[2].n_paths = 1;
	mpeers[2].path[0] = (struct mesh_view_path){ .state = MESH_ST_ROUND,
		.reach = MESH_REACH_UP, .st = &mst[4],
		.error = "", .bw_stale = false };
	mesh_fixture_view(msizes, 3, mpeers, 3);
	mview.bw_samples = 2;
	mview.bw_ns = 2000000000ull;
	mview.reloads = 4;
	mview.self[0] = "10.0.0.1:7471";
	mview.self[1] = "[fe80::1]:7471";
	mview.n_self = 2;
}

/*
 * mview with an inventory: this host h1 under t1 (no pod), 7 switches,
 * the next in 42 s; A same ToR (h2, t1), B cross-ToR (h9, t3, rail 1,
 * slot 2, epoch 5999999), C same ToR (h3 under t2: the renderers take
 * what they are given).
 */
static inline void mesh_fixture_place(void)
{
	mview.topology = true;
	mview.host = "h1";
	mview.tor = "t1";
	mview.pod = "";
	mview.switches = 7;
	mview.next_switch_ms = 42000;
	mpeers[0].host = "h2";
	mpeers[0].tor = "t1";
	mpeers[0].why = "same ToR";
	mpeers[0].source = "10.0.0.1";
	mpeers[1].host = "h9";
	mpeers[1].tor = "t3";
	mpeers[1].why = "cross-ToR";
	mpeers[1].cross_tor = true;
	mpeers[1].rail = 1;
	mpeers[1].source = "10.0.1.1";
	mpeers[1].slot = 2;
	mpeers[1].epoch = 5999999;
	mpeers[2].host = "h3";
	mpeers[2].tor = "t2";
	mpeers[2].why = "same ToR";
}

#endif /* RDMAD_MESH_FIXTURE_H */
