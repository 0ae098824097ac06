/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-mesh-peers.c - mesh_peers_diff.c: what a reload does to the
 * peers (kept by name, case aside), to a kept peer's paths (its counters
 * never go back: a dropped path's figures stay in the peer's sums), and
 * when sessions are made anew (what they are made of, their deadline, a
 * kept peer's source address).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "mesh/mesh_peers_diff.h"
#include "mesh/mesh_stats.h"
#include "tap.h"

/* The peer's counters as the metrics add them up: rounds of all paths. */
static uint64_t peer_rounds(const struct mesh_view_peer *p)
{
	uint64_t n = 0;
	unsigned int i, r;

	for (i = 0; i < mesh_stats_n_figures(p); i++)
		for (r = 0; r < MESH_RES_N; r++)
			n += p->path[i].st->rounds[r];
	return n;
}

static void test_paths(void)
{
	struct mesh_path_stats st[CONFIG_MESH_PATHS_MAX];
	struct mesh_view_peer vp;
	struct mesh_paths_plan plan;
	unsigned int i, j;
	uint64_t before;

	memset(&vp, 0, sizeof(vp));
	for (i = 0; i < CONFIG_MESH_PATHS_MAX; i++) {
		mesh_stats_init(&st[i]);
		vp.path[i].st = &st[i];
	}
	for (i = 0; i < 4; i++)
		for (j = 0; j < 10; j++)
			mesh_stats_round(&st[i], 0, 64, MESH_RES_OK, 1000, 0, 1);
	vp.n_paths = vp.n_figures = 4;
	before = peer_rounds(&vp);
	/* reload: paths 4 -> 2 */
	mesh_peers_plan(4, 4, 2, false, &plan);
	tap_ok(plan.stop_from == 2 && plan.start_to == 2,
	       "paths 4 -> 2: paths 2 and 3 stop, 0 and 1 stay");
	vp.n_paths = plan.start_to;
	vp.n_figures = plan.n_figures;
	tap_ok(peer_rounds(&vp) == before && before == 40,
	       "paths 4 -> 2: the peer's rounds stay %llu (counters never "
	       "go back while the peer is configured)",
	       (unsigned long long)peer_rounds(&vp));
	/* and back up: 2 -> 3; path 2 comes back with its figures */
	mesh_peers_plan(2, vp.n_figures, 3, false, &plan);
	tap_ok(plan.stop_from == 2 && plan.start_to == 3 &&
	       plan.n_figures == 4, "paths 2 -> 3: path 2 starts again, "
	       "the figures of all 4 still count");
	mesh_peers_plan(3, 4, 3, true, &plan);
	tap_ok(plan.stop_from == 0 && plan.start_to == 3 &&
	       plan.n_figures == 4, "sessions made anew: every path stops "
	       "and starts, no figure lost");
	mesh_peers_plan(0, 0, 2, false, &plan);
	tap_ok(plan.stop_from == 0 && plan.start_to == 2 &&
	       plan.n_figures == 2, "a new peer: its paths start");
}

static void test_match(void)
{
	static const char *const old[] = { "10.0.0.1:7471", "[fe80::A]:7471",
					   "10.0.0.3:7471" };
	static const char *const next[] = { "10.0.0.3:7471", "10.0.0.4:7471",
					    "[FE80::a]:7471" };
	int map[3];

	mesh_peers_match(old, 3, next, 3, map);
	tap_ok(map[0] == 2 && map[1] == -1 && map[2] == 1,
	       "peers matched by name, case aside; a new one is -1");
}

static void test_session(void)
{
	struct rdmad_config a, b;

	config_defaults(&a);
	b = a;
	tap_ok(!mesh_session_changed(&a.mesh, &b.mesh), "same [mesh]: the "
	       "sessions stay");
	b.mesh.round_timeout_ms = 5000;	/* above connect_timeout 3000 */
	tap_ok(mesh_session_changed(&a.mesh, &b.mesh),
	       "round_timeout raised past the session's deadline: made anew "
	       "(live sessions would keep the old one)");
	b = a;
	b.mesh.round_timeout_ms = 1000;	/* below connect_timeout */
	tap_ok(!mesh_session_changed(&a.mesh, &b.mesh),
	       "round_timeout within the session's deadline: kept");
	b = a;
	b.mesh.interval_ms = 5000;
	b.mesh.paths = 4;
	tap_ok(!mesh_session_changed(&a.mesh, &b.mesh),
	       "interval, paths: the schedule's, sessions kept");
	b = a;
	b.mesh.sizes[0] = 128;
	tap_ok(mesh_session_changed(&a.mesh, &b.mesh) &&
	       mesh_sizes_changed(&a.mesh, &b.mesh), "sizes: made anew");
}

/* TEXT as a source address (port 0); "" for none ([mesh] source). */
static struct sockaddr_storage src_of(const char *text)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

	memset(&ss, 0, sizeof(ss));
	if (inet_pton(AF_INET6, text, &in6->sin6_addr) == 1)
		in6->sin6_family = AF_INET6;
	else if (inet_pton(AF_INET, text, &in4->sin_addr) == 1)
		in4->sin_family = AF_INET;
	return ss;
}

/* A reload keeps a peer (same name): its paths are remade when the
 * address its rounds leave from changed, kept when it did not. */
static void test_source(void)
{
	static const struct {
		const char *old, *next;
		bool remake;
		const char *what;
	} cases[] = {
		{ "10.0.1.1", "10.0.1.1", false, "same rail address: kept" },
		{ "", "", false, "[mesh] source on both sides: kept" },
		{ "10.0.1.1", "10.0.1.9", true, "the inventory renumbered "
		  "this host on the peer's rail: remade" },
		{ "", "10.0.2.1", true, "a rail source appears (was [mesh] "
		  "source): remade" },
		{ "10.0.2.1", "", true, "the rail source goes ([mesh] source "
		  "now): remade" },
		{ "fd00::1", "fd00::2", true, "IPv6, another address: remade" },
		{ "fd00::1", "fd00:0::1", false, "IPv6, the same address: "
		  "kept" },
		{ "10.0.1.1", "fd00::1", true, "another family: remade" },
	};
	struct sockaddr_storage a, b;
	struct mesh_paths_plan plan;
	size_t i;
	bool r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		a = src_of(cases[i].old);
		b = src_of(cases[i].next);
		r = mesh_peer_remake(false, &a, &b);
		tap_ok(r == cases[i].remake, "'%s' -> '%s': %s", cases[i].old,
		       cases[i].next, cases[i].what);
	}
	a = src_of("10.0.1.1");
	tap_ok(mesh_peer_remake(true, &a, &a), "same source, the sessions' "
	       "make changed: remade");
	/* what the agent does with it: every path of the peer stops and
	 * starts from the new source, none of its figures lost */
	b = src_of("10.0.1.9");
	mesh_peers_plan(2, 2, 2, mesh_peer_remake(false, &a, &b), &plan);
	tap_ok(plan.stop_from == 0 && plan.start_to == 2 &&
	       plan.n_figures == 2, "a new source: both paths stop and start "
	       "again, their figures kept");
}

int main(void)
{
	test_paths();
	test_match();
	test_session();
	test_source();
	return tap_done();
}
