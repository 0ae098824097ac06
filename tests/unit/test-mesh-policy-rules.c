/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-mesh-policy-rules.c - mesh_policy_rules.c: every setting of the
 * mesh wing from the [mesh] keys, read through the configuration as an
 * operator writes them, and which changes keep a path's session.
 */
#include <stdio.h>
#include <string.h>

#include "core/config.h"
#include "mesh/mesh_policy_rules.h"
#include "tap.h"

#define MS	1000000ull

/* The policy of "[mesh]\nTEXT"; 0, or -1 (the configuration refused it). */
static int policy_of(const char *text, struct rdmad_config *c,
		     struct mesh_policy *p)
{
	char ini[1024], err[256];

	config_defaults(c);
	snprintf(ini, sizeof(ini), "[mesh]\n%s\n", text);
	if (config_load_string(c, ini, "t.ini", err, sizeof(err)) ||
	    config_validate(c, "t.ini", err, sizeof(err))) {
		tap_diag("refused: %s", err);
		return -1;
	}
	mesh_policy_of(&c->mesh, p);
	return 0;
}

static void test_schedule(void)
{
	struct rdmad_config c;
	struct mesh_policy p;

	tap_ok(!policy_of("interval = 2s\njitter = 20\nconnect_timeout = 4s\n"
			  "round_timeout = 700ms\nbackoff_min = 3s\n"
			  "backoff_max = 90s\nbandwidth_every = 60s\n"
			  "bandwidth_duration = 150ms\nbandwidth_share = 2\n"
			  "down_after = 3\nsizes = 64 1k 2k",
			  &c, &p) &&
	       p.sched.interval_ns == 2000 * MS && p.sched.jitter_pct == 20 &&
	       p.sched.connect_timeout_ns == 4000 * MS &&
	       p.sched.round_timeout_ns == 700 * MS &&
	       p.sched.backoff_min_ns == 3000 * MS &&
	       p.sched.backoff_max_ns == 90000 * MS &&
	       p.sched.bw_every_ns == 60000 * MS &&
	       p.sched.bw_duration_ns == 150 * MS &&
	       p.sched.bw_share_ppm == c.mesh.bw_share_ppm &&
	       p.sched.connects_max == MESH_CONNECTS_MAX &&
	       p.sched.down_after == 3 && p.sched.n_sizes == 3 &&
	       p.sched.sizes[0] == 64 && p.sched.sizes[2] == 2048,
	       "the schedule: each key in ns, the connect slots, down_after, "
	       "the sizes");
	tap_ok(!mesh_sched_cfg_check(&p.sched), "a schedule it accepts");
}

static void test_select_load(void)
{
	struct rdmad_config c;
	struct mesh_policy p;

	tap_ok(!policy_of("cross_tor = 7\nepoch = 10min\nmax_peers = 100\n"
			  "max_inbound = 200\nprober_lag_max = 25ms\n"
			  "prober_wait_max = 30\nslow_round = 40ms", &c, &p) &&
	       p.select.cross_tor == 7 && p.select.epoch_s == 600 &&
	       p.select.max_peers == 100 && p.select.max_inbound == 200 &&
	       p.load.lag_max_ns == 25 * MS && p.load.wait_max_pct == 30 &&
	       p.slow_round_ns == 40 * MS,
	       "the selection, the prober's share, the slow round");
	tap_ok(!policy_of("prober_lag_max = 0\nprober_wait_max = 0\n"
			  "slow_round = 0", &c, &p) &&
	       !p.load.lag_max_ns && !p.load.wait_max_pct && !p.slow_round_ns,
	       "0 turns each test off");
	tap_ok(!policy_of("slow_round = 300ms\nhealthy_bad = 0.2%\n"
			  "lossy_bad = 2%\nslow_drop = 30%\nflap_downs = 4\n"
			  "flap_window = 2min", &c, &p) &&
	       p.health.retrans_ns == 300 * MS && p.health.p0_ppm == 2000 &&
	       p.health.p1_ppm == 20000 && p.health.slow_pct == 30 &&
	       p.health.flap_downs == 4 &&
	       p.health.flap_window_ns == 120000 * MS &&
	       !mesh_health_cfg_check(&p.health),
	       "a path's health: its keys, and a machine it accepts");
	tap_ok(!policy_of("", &c, &p) && p.health.p0_ppm == 1000 &&
	       p.health.p1_ppm == 10000 && p.health.retrans_ns == 250 * MS &&
	       !mesh_health_cfg_check(&p.health),
	       "a path's health: the defaults, 0.1 %% and 1 %% bad rounds, "
	       "late at 250 ms");
}

static void test_session(void)
{
	struct rdmad_config c;
	struct mesh_policy p;

	tap_ok(!policy_of("", &c, &p) && p.session.size == 65536 &&
	       p.session.timeout_ms == 3000 &&
	       p.session.depth == MESH_SESSION_DEPTH &&
	       p.session.ops == c.mesh.ops && p.session.tos == -1,
	       "defaults: the largest size, the connect's deadline, depth %u",
	       MESH_SESSION_DEPTH);
	tap_ok(!policy_of("sizes = 64 4096\nbandwidth_size = 1M", &c, &p) &&
	       p.session.size == 4096,
	       "samples off: their size registers nothing");
	tap_ok(!policy_of("sizes = 64 4096\nbandwidth_every = 1min\n"
			  "bandwidth_size = 1M", &c, &p) &&
	       p.session.size == 1u << 20 && p.session.bw_size == 1u << 20,
	       "samples on and larger: the session registers their size");
	tap_ok(!policy_of("round_timeout = 5s", &c, &p) &&
	       p.session.timeout_ms == 5000,
	       "a round deadline over the connect's: the session's");
	tap_ok(!policy_of("tos = 184", &c, &p) && p.session.tos == 184,
	       "tos");
}

static void test_same_session(void)
{
	struct rdmad_config c;
	struct mesh_policy a, b;

	policy_of("", &c, &a);
	tap_ok(!policy_of("interval = 5s\npaths = 4\nslow_round = 1s", &c,
			  &b) && mesh_policy_same_session(&a, &b),
	       "the schedule's keys: the sessions stay");
	tap_ok(!policy_of("round_timeout = 2s", &c, &b) &&
	       mesh_policy_same_session(&a, &b),
	       "a round deadline within the connect's: the sessions stay");
	tap_ok(!policy_of("round_timeout = 4s", &c, &b) &&
	       !mesh_policy_same_session(&a, &b),
	       "a round deadline past the connect's: made anew");
	tap_ok(!policy_of("sizes = 64 128", &c, &b) &&
	       !mesh_policy_same_session(&a, &b),
	       "a smaller largest size: made anew");
	tap_ok(!policy_of("ops = read", &c, &b) &&
	       !mesh_policy_same_session(&a, &b), "ops: made anew");
	tap_ok(!policy_of("tos = 1", &c, &b) &&
	       !mesh_policy_same_session(&a, &b), "tos: made anew");
}

int main(void)
{
	tap_plan(17);
	test_schedule();
	test_select_load();
	test_session();
	test_same_session();
	return tap_done();
}
