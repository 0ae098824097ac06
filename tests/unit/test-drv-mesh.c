/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-drv-mesh.c - the mesh agent and its paths (mesh_agent, mesh_path,
 * rdma_client's mesh sessions) against real served rdmads over the fake
 * RDMA layer; what is asserted is what /metrics says:
 *  1. rounds to a serving peer verified (the bytes written and read back
 *     through the fake), the peer up on both its paths, a bandwidth
 *     sample, its paths healthy in /peers; A skips itself;
 *  2. nobody on a peer's port (a reject): down, its attempts counted
 *     unreachable and backing off; a peer that never answers the
 *     connect: down;
 *  3. a peer that stops answering mid-session: its rounds fail, it goes
 *     down (its paths' health too), and comes back up when it answers
 *     again;
 *  4. a reload that takes one peer out and brings one in: the one left
 *     is closed cleanly on its side, the new one comes up, the one kept
 *     keeps its session (no new connect);
 *  5. a reload refused after the mesh was prepared (a listen address in
 *     use): rolled back, the peers and sessions as they were;
 *  6. the device removed under the sessions: the peers down; back with
 *     it;
 *  7. a peer's rdmad stops: its mesh sessions end at once, A sees it
 *     down; A stops: its peer sees its sessions end cleanly.
 * A targets file with a bad line is refused with FILE:LINE, nothing
 * changed.
 * (was tests/rdma/t-73-mesh-agent; see docs/testbed.md)
 */
#include "drv-fixture.h"

#define A_INI	"[server]\nlisten = 10.0.0.1:7471\n[mesh]\n" \
		"interval = 20ms\nsizes = 64 4k\nconnect_timeout = 300ms\n" \
		"round_timeout = 300ms\nbackoff_min = 100ms\nbackoff_max = 1s\n" \
		"paths = 2\nbandwidth_every = 1s\nbandwidth_duration = 10ms\n" \
		"bandwidth_share = 50%%\n"

struct cond {
	struct drv *d;
	const char *peer;	/* "peer=\"10.0.0.2:7472\"" */
	const char *family;
	const char *label;	/* a second label, or NULL */
	double at_least;
	double equal;		/* <0: at_least */
};

static double peer_metric(struct drv *d, const char *peer, const char *family,
			  const char *label)
{
	const char *want[2] = { peer, label };

	return drv_metric(d, family, want, label ? 2 : 1);
}

static bool metric_holds(void *arg)
{
	static uint64_t last;
	struct cond *c = arg;
	double v;

	/* a scrape each 10 ms of the loop's running at most */
	if (last && clock_since_ns(last) < 10000000u)
		return false;
	last = clock_now_ns();
	v = peer_metric(c->d, c->peer, c->family, c->label);
	return c->equal >= 0 ? v == c->equal : v >= c->at_least;
}

/* Wait until FAMILY{PEER, LABEL} >= MIN (EQ < 0) or == EQ. */
static bool wait_metric(struct drv *d, const char *peer, const char *family,
			const char *label, double min, double eq)
{
	struct cond c = { d, peer, family, label, min, eq };

	return drv_wait(d->base, metric_holds, &c);
}

/* PEER ("10.0.0.2:7472") and its paths whose health in D's /peers is
 * STATE. */
static unsigned int paths_health(struct drv *d, const char *peer,
				 const char *state)
{
	static struct drv_reply r;
	char key[64], want[64];
	const char *p, *end;
	unsigned int n = 0;

	if (drv_get(d, "/peers", &r) != 200)
		return 0;
	snprintf(key, sizeof(key), "\"peer\":\"%s\"", peer);
	snprintf(want, sizeof(want), "\"health\":\"%s\"", state);
	p = strstr(r.body, key);
	if (!p)
		return 0;
	end = strstr(p + 1, "\"peer\":\"");
	for (p = strstr(p, want); p && (!end || p < end);
	     p = strstr(p + 1, want))
		n++;
	return n;
}

struct health_cond {
	struct drv *d;
	const char *peer, *state;
	unsigned int n;
};

static bool health_holds(void *arg)
{
	static uint64_t last;
	struct health_cond *c = arg;

	if (last && clock_since_ns(last) < 10000000u)
		return false;
	last = clock_now_ns();
	return paths_health(c->d, c->peer, c->state) == c->n;
}

/* Wait until N paths of PEER have health STATE in D's /peers. */
static bool wait_health(struct drv *d, const char *peer, const char *state,
			unsigned int n)
{
	struct health_cond c = { d, peer, state, n };

	return drv_wait(d->base, health_holds, &c);
}

struct two_sessions {
	struct cond *up;	/* A's paths to the peer */
	struct drv *peer;
};

/* Both of A's paths to the peer up and the peer holding two sessions. */
static bool two_sessions_hold(void *arg)
{
	struct two_sessions *t = arg;

	return metric_holds(t->up) && conn_set_count(&t->peer->conns) == 2;
}

#define P2 "peer=\"10.0.0.2:7472\""
#define P3 "peer=\"10.0.0.3:7473\""
#define P4 "peer=\"10.0.0.4:7474\""
#define P5 "peer=\"10.0.0.5:7475\""

int main(void)
{
	struct event_base *base = event_base_new();
	struct drv a, b, d, e;
	char ini[PATH_MAX + 1024], targets[PATH_MAX];
	double ok2, conn2, gone_b;

	tap_plan(29);
	/* B and E serve; nobody is on 7473; D listens but never answers */
	if (!tap_ok(!drv_start(&b, base, "[server]\nlisten = 10.0.0.2:7472\n") &&
		    !drv_start(&d, base, "[server]\nlisten = 10.0.0.4:7474\n") &&
		    !drv_start(&e, base, "[server]\nlisten = 10.0.0.5:7475\n"),
		    "the peers start"))
		return tap_done();
	fake_mute(7474, true);
	if (!tap_ok(!drv_start(&a, base, "[server]\nlisten = 10.0.0.1:7471\n"),
		    "A starts"))
		return tap_done();
	drv_file(&a, "peers", "10.0.0.1:7471\n10.0.0.2:7472\n10.0.0.3:7473\n"
		 "10.0.0.4:7474\n", targets, sizeof(targets));
	snprintf(ini, sizeof(ini), A_INI "targets = %s\n", targets);
	tap_ok(!drv_reload(&a, ini), "A's mesh on (itself, B, nobody, D)");

	/* 1. verified rounds, both sizes */
	tap_ok(wait_metric(&a, P2, "rdmad_mesh_rounds_total", "result=\"ok\"",
			   6, -1) &&
	       peer_metric(&a, P2, "rdmad_mesh_peer_up", NULL) == 1 &&
	       peer_metric(&a, P2, "rdmad_mesh_size_rounds_failed_total", NULL) == 0,
	       "B: verified rounds, up, none failed");
	tap_ok(peer_metric(&a, "peer=\"10.0.0.1:7471\"", "rdmad_mesh_peer_up",
			   NULL) < 0, "A does not probe itself");
	tap_ok(wait_metric(&a, P2, "rdmad_mesh_peer_paths_up", NULL, 2, 2) &&
	       wait_metric(&a, P2, "rdmad_mesh_bandwidth_bytes_per_second",
			   NULL, 1, -1),
	       "B up on both paths, a bandwidth sample of B");
	tap_ok(wait_health(&a, "10.0.0.2:7472", "healthy", 3),
	       "B and its two paths healthy once their bases are learnt "
	       "(/peers)");
	{
		static struct drv_reply r;
		const char *p;

		p = drv_get(&a, "/peers", &r) == 200 ?
		    strstr(r.body, "\"peer\":\"10.0.0.2:7472\"") : NULL;
		p = p ? strstr(p, "\"health\":") : NULL;
		tap_ok(p && !strncmp(p, "\"health\":\"healthy\","
				     "\"bandwidth_learnt\":false,", 44),
		       "B healthy, its slow test still learning (a few of "
		       "the 32 samples it wants)");
	}
	tap_ok(peer_metric(&a, P2, "rdmad_mesh_peer_health", NULL) < 0 &&
	       peer_metric(&a, P2, "rdmad_mesh_peer_flaps", NULL) < 0,
	       "healthy, never down: no health or flaps series of B");

	/* 2. a reject, and a peer that never answers the connect */
	tap_ok(wait_metric(&a, P3, "rdmad_mesh_rounds_total",
			   "result=\"unreachable\"", 2, -1) &&
	       peer_metric(&a, P3, "rdmad_mesh_peer_up", NULL) == 0 &&
	       peer_metric(&a, P3, "rdmad_mesh_rounds_total", "result=\"ok\"") == 0,
	       "nobody on the port: down, its attempts unreachable");
	tap_ok(wait_metric(&a, P4, "rdmad_mesh_rounds_total", NULL, 2, -1) &&
	       peer_metric(&a, P4, "rdmad_mesh_peer_up", NULL) == 0 &&
	       peer_metric(&a, P4, "rdmad_mesh_rounds_total", "result=\"ok\"") == 0,
	       "a peer that never answers: down, attempts failed");
	tap_ok(wait_health(&a, "10.0.0.3:7473", "down", 3) &&
	       wait_health(&a, "10.0.0.4:7474", "down", 3) &&
	       peer_metric(&a, P3, "rdmad_mesh_peer_health", NULL) == 4,
	       "refused, never answering: their health down, not lossy "
	       "(failed connects are no rounds of it)");

	/* the dead port backs off: far fewer attempts than B's rounds (at
	 * 60, whatever the machine's speed: both go by the same clock) */
	wait_metric(&a, P2, "rdmad_mesh_rounds_total", "result=\"ok\"", 60, -1);
	ok2 = peer_metric(&a, P2, "rdmad_mesh_rounds_total", "result=\"ok\"");
	tap_ok(peer_metric(&a, P3, "rdmad_mesh_rounds_total", NULL) * 3 < ok2,
	       "nobody on the port: backing off (%g attempts, B %g rounds)",
	       peer_metric(&a, P3, "rdmad_mesh_rounds_total", NULL), ok2);

	/* 3. B stops answering mid-session, then answers again */
	fake_mute(7472, true);
	tap_ok(wait_metric(&a, P2, "rdmad_mesh_peer_up", NULL, 0, 0) &&
	       peer_metric(&a, P2, "rdmad_mesh_rounds_total", "result=\"timeout\"") >= 1,
	       "B silent: a round times out, B down");
	tap_ok(wait_health(&a, "10.0.0.2:7472", "down", 3),
	       "B's health and its paths': down");
	/* a flap once a reconnect met the silence (an outage, not one lost
	 * round): one of B's paths' counts for its peer */
	tap_ok(wait_metric(&a, P2, "rdmad_mesh_peer_flaps", NULL, 1, 1) &&
	       peer_metric(&a, P2, "rdmad_mesh_peer_health", NULL) == 4,
	       "B down, a reconnect failed: rdmad_mesh_peer_health 4, one "
	       "flap (%g, %g)",
	       peer_metric(&a, P2, "rdmad_mesh_peer_health", NULL),
	       peer_metric(&a, P2, "rdmad_mesh_peer_flaps", NULL));
	fake_mute(7472, false);
	tap_ok(wait_metric(&a, P2, "rdmad_mesh_peer_paths_up", NULL, 2, 2),
	       "B answers again: up on both paths");

	/* 4. reload: B stays, D out, E in */
	ok2 = peer_metric(&a, P2, "rdmad_mesh_rounds_total", "result=\"ok\"");
	conn2 = peer_metric(&a, P2, "rdmad_mesh_connects_total", NULL);
	gone_b = b.gone;
	drv_file(&a, "peers", "10.0.0.2:7472\n10.0.0.3:7473\n10.0.0.5:7475\n",
		 targets, sizeof(targets));
	tap_ok(!drv_reload(&a, ini), "reload: D out, E in");
	tap_ok(wait_metric(&a, P5, "rdmad_mesh_rounds_total", "result=\"ok\"",
			   2, -1) &&
	       peer_metric(&a, P4, "rdmad_mesh_peer_up", NULL) < 0,
	       "E verified, D's series gone");
	tap_ok(wait_metric(&a, P2, "rdmad_mesh_rounds_total", "result=\"ok\"",
			   ok2 + 2, -1) &&
	       peer_metric(&a, P2, "rdmad_mesh_connects_total", NULL) == conn2 &&
	       b.gone == gone_b,
	       "B kept its session through the reload (connects %g)", conn2);

	/* a targets file with a bad line: refused, naming it */
	drv_file(&a, "peers", "10.0.0.2:7472\n10.0.0.9:99999\n", targets,
		 sizeof(targets));
	conn2 = peer_metric(&a, P2, "rdmad_mesh_connects_total", NULL);
	tap_ok(drv_reload(&a, ini) != 0 && strstr(a.stage.err, "peers:2"),
	       "a bad targets line: the reload refused, naming the line (%s)",
	       a.stage.err);
	tap_ok(peer_metric(&a, P5, "rdmad_mesh_peer_up", NULL) == 1 &&
	       peer_metric(&a, P2, "rdmad_mesh_connects_total", NULL) == conn2,
	       "nothing changed: E still probed, B's sessions the same");

	/* 5. a reload refused after the mesh was prepared: rolled back */
	drv_file(&a, "peers", "10.0.0.3:7473\n", targets, sizeof(targets));
	snprintf(ini, sizeof(ini), A_INI "targets = %s\n[server]\n"
		 "listen = 10.0.0.5:7475\n", targets);
	tap_ok(drv_reload(&a, ini) != 0, "a reload whose listen is in use is "
	       "refused");
	conn2 = peer_metric(&a, P5, "rdmad_mesh_connects_total", NULL);
	tap_ok(wait_metric(&a, P5, "rdmad_mesh_rounds_total", "result=\"ok\"",
			   peer_metric(&a, P5, "rdmad_mesh_rounds_total",
				       "result=\"ok\"") + 2, -1) &&
	       wait_metric(&a, P2, "rdmad_mesh_peer_up", NULL, 1, 1) &&
	       peer_metric(&a, P5, "rdmad_mesh_connects_total", NULL) == conn2,
	       "rolled back: B and E still probed on their sessions");

	/* 6. the device removed under the sessions, then back */
	fake_dev_remove();
	tap_ok(wait_metric(&a, P2, "rdmad_mesh_peer_up", NULL, 0, 0) &&
	       wait_metric(&a, P5, "rdmad_mesh_peer_up", NULL, 0, 0),
	       "device removed: B and E down");
	fake_dev_restore();
	tap_ok(wait_metric(&a, P2, "rdmad_mesh_peer_paths_up", NULL, 2, 2) &&
	       wait_metric(&a, P5, "rdmad_mesh_peer_paths_up", NULL, 2, 2),
	       "device back: B and E up again on both paths");

	/* 7. B stops (rdmad's drain: no listener, its mesh sessions ended
	 * at once); A sees it down */
	listener_stop(&b.ls);
	tap_ok(conn_shutdown_mesh(&b.conns) == 2 &&
	       wait_metric(&a, P2, "rdmad_mesh_peer_up", NULL, 0, 0) &&
	       conn_set_empty(&b.conns), "B drains: its two mesh sessions end "
	       "at once, A sees B down");

	/* 8. A stops: its sessions to E end cleanly on E's side. A round
	 * of a loaded machine may time out just before (round_timeout
	 * 300 ms) and its path be reconnecting: wait until both of A's
	 * paths to E are up and E holds their two sessions; no event runs
	 * between that wait and the stop. */
	{
		struct cond up = { &a, P5, "rdmad_mesh_peer_paths_up", NULL,
				   2, 2 };
		struct two_sessions t = { &up, &e };

		tap_ok(drv_wait(base, two_sessions_hold, &t),
		       "before A stops: both its paths to E up, E holds "
		       "their two sessions");
	}
	conn2 = peer_metric(&e, "proto=\"native\"", "rdmad_sessions_total",
			    "result=\"ok\"");
	gone_b = e.gone;
	drv_stop(&a);
	{
		bool gone = drv_wait(base, drv_conns_gone, &e);
		double ok = peer_metric(&e, "proto=\"native\"",
					"rdmad_sessions_total",
					"result=\"ok\"") - conn2;

		tap_ok(gone && e.gone == gone_b + 2 && ok == 2,
		       "A stops: E saw its two sessions end, result ok (%u "
		       "ended, %g ok)", e.gone - (unsigned int)gone_b, ok);
	}
	drv_stop(&b);
	drv_stop(&d);
	drv_stop(&e);
	event_base_free(base);
	return tap_done();
}
