/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-drv-epoch.c - the mesh agent's epoch switch over the fake RDMA
 * layer: an inventory of four hosts on four ToRs, one cross-ToR ToR an
 * epoch ([mesh] cross_tor = 1): A probes one peer at a time; when the
 * slot's epoch ends (the wall clock moved to just before the switch, the
 * agent's own timer fires it) the agent takes the next epoch's peer with
 * no failed round, and the peer it left is closed cleanly on its side.
 * (was tests/fabric t-97's claim on the agent, without the wire; the
 * fabric keeps the wire's part)
 */
#include "drv-fixture.h"

struct peer {
	struct drv d;
	const char *label;
};

static struct drv a;
static struct peer p[3];

/* The one peer A probes now (its series exist), or -1 (none, several). */
static int probed(void)
{
	static struct drv_reply r;
	const char *want[1];
	int i, who = -1;

	if (drv_get(&a, "/metrics", &r) != 200)
		return -1;
	for (i = 0; i < 3; i++) {
		want[0] = p[i].label;
		if (drv_prom(r.body, "rdmad_mesh_peer_up", want, 1) < 0)
			continue;
		if (who >= 0)
			return -1;
		who = i;
	}
	return who;
}

static int want_peer;

/* WANT_PEER (>= 0), or any single peer (-1), probed with 2 verified
 * rounds. */
static bool peer_verified(void *arg)
{
	static uint64_t last;
	const char *want[2] = { NULL, "result=\"ok\"" };
	int who;

	(void)arg;
	if (last && clock_since_ns(last) < 10000000u)
		return false;
	last = clock_now_ns();
	who = probed();
	if (who < 0 || (want_peer >= 0 && who != want_peer))
		return false;
	want[0] = p[who].label;
	return drv_metric(&a, "rdmad_mesh_rounds_total", want, 2) >= 2;
}

static bool switched(void *arg)
{
	static uint64_t last;

	(void)arg;
	if (last && clock_since_ns(last) < 10000000u)
		return false;
	last = clock_now_ns();
	return drv_metric(&a, "rdmad_mesh_epoch_switches_total", NULL, 0) >= 1 &&
	       probed() >= 0 && probed() != want_peer;
}

int main(void)
{
	struct event_base *base = event_base_new();
	static const char *const listen[3] = {
		"[server]\nlisten = 10.0.0.2:7472\n",
		"[server]\nlisten = 10.0.0.3:7473\n",
		"[server]\nlisten = 10.0.0.4:7474\n",
	};
	static const char *const labels[3] = {
		"peer=\"10.0.0.2:7472\"", "peer=\"10.0.0.3:7473\"",
		"peer=\"10.0.0.4:7474\"",
	};
	char ini[PATH_MAX + 512], inv[PATH_MAX];
	struct mesh_view v;
	unsigned int gone0;
	int i, first, next;
	uint64_t wait_ms;

	tap_plan(6);
	for (i = 0; i < 3; i++) {
		p[i].label = labels[i];
		if (drv_start(&p[i].d, base, listen[i]))
			return tap_done();
	}
	if (drv_start(&a, base, "[server]\nlisten = 10.0.0.1:7471\n"))
		return tap_done();
	drv_file(&a, "inventory",
		 "10.0.0.1:7471 host=h1 tor=t1\n10.0.0.2:7472 host=h2 tor=t2\n"
		 "10.0.0.3:7473 host=h3 tor=t3\n10.0.0.4:7474 host=h4 tor=t4\n",
		 inv, sizeof(inv));
	snprintf(ini, sizeof(ini), "[server]\nlisten = 10.0.0.1:7471\n"
		 "[mesh]\ninterval = 20ms\ncross_tor = 1\nepoch = 60s\n"
		 "targets = %s\n", inv);
	want_peer = -1;
	tap_ok(!drv_reload(&a, ini) && drv_wait(base, peer_verified, NULL),
	       "with an inventory, A probes one cross-ToR peer, verified");
	first = probed();
	mesh_agent_view(a.mesh, &v);
	tap_ok(v.topology && v.next_switch_ms > 0 &&
	       v.next_switch_ms <= 60000, "a switch is due within the epoch "
	       "(in %llu ms)", (unsigned long long)v.next_switch_ms);

	/* the wall clock to 300 ms before the switch; a reload of the same
	 * configuration re-arms the agent's timer from it */
	wait_ms = v.next_switch_ms;
	fake_clock_wall_shift((int64_t)wait_ms - 300);
	gone0 = first >= 0 ? p[first].d.gone : 0;
	tap_ok(!drv_reload(&a, ini), "an unchanged reload");
	tap_ok(probed() == first &&
	       drv_metric(&a, "rdmad_mesh_epoch_switches_total", NULL, 0) == 0,
	       "the reload itself switches nothing");
	want_peer = first;
	tap_ok(drv_wait(base, switched, NULL) &&
	       (next = probed(), want_peer = next, drv_wait(base, peer_verified,
							    NULL)),
	       "the epoch ends: the agent switches to another peer, verified");
	{
		/* the rail's rounds keep a peer's that left */
		const char *fail[1] = { "result=\"ok\"" };
		double all = drv_metric(&a, "rdmad_mesh_rail_rounds_total", NULL, 0);
		double ok = drv_metric(&a, "rdmad_mesh_rail_rounds_total", fail, 1);

		tap_ok(first >= 0 && all == ok && ok >= 4 &&
		       p[first].d.gone > gone0,
		       "no failed round; the peer left saw its session end "
		       "(%g of %g rounds ok)", ok, all);
	}
	drv_stop(&a);
	for (i = 0; i < 3; i++)
		drv_stop(&p[i].d);
	event_base_free(base);
	return tap_done();
}
