/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-mesh-path-health.c - mesh_path_health.c, the driver of a path's
 * health machine and its pools: a round goes to the path's own machine,
 * its peer's pool, its rail's and its rail's place's (the pool that
 * outlives the cross-ToR epochs); a sample to the path's and its peer's
 * only; a down to the path's only; a pool that is not pointed stays as
 * it was; the place pool's change is logged under its own name.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mesh/mesh_path_health.h"
#include "tap.h"

#define MS	1000000ull
#define S	1000000000ull

static void name_of(const void *arg, char *buf, size_t len)
{
	snprintf(buf, len, "%s", (const char *)arg);
}

static const struct mesh_health_obs good = {
	.kind = MESH_HOBS_ROUND, .rtt_ns = MS / 2 };
static const struct mesh_health_obs late = {
	.kind = MESH_HOBS_ROUND, .rtt_ns = 600 * MS };

/* What stderr got while F ran (the log lines). */
static char *logged(void (*f)(void *), void *arg)
{
	char path[] = "/tmp/test-mesh-path-health-XXXXXX", *buf;
	int fd = mkstemp(path), saved = dup(2);
	FILE *in;
	long n;

	if (fd < 0 || saved < 0)
		exit(99);
	unlink(path);
	fflush(stderr);
	dup2(fd, 2);
	f(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	in = fdopen(fd, "r");
	if (!in || fseek(in, 0, SEEK_END))
		exit(99);
	n = ftell(in);
	buf = calloc(1, n + 1);
	if (!buf || fseek(in, 0, SEEK_SET) || fread(buf, 1, n, in) != (size_t)n)
		exit(99);
	fclose(in);
	return buf;
}

struct fixture {
	struct mesh_health_cfg cfg;
	struct mesh_health peer, rail, place, other_place;
	struct mesh_path_health a, b;	/* two peers' paths, cross-ToR */
	struct mesh_path_health c;	/* a path of no place (full mesh) */
	struct mesh_path_health_who wa, wb, wc;
	uint64_t now;
	unsigned int rounds;		/* fed to a and b */
	/* rounds judged once all had learnt */
	uint64_t j_a, j_b, j_place, j_rail, j_peer;
};

/* A - B within one (a late round held until the next one comes) */
static bool near(uint64_t a, uint64_t b)
{
	return a <= b + 1 && b <= a + 1;
}

static void feed(struct fixture *x, struct mesh_path_health *h,
		 const struct mesh_path_health_who *w,
		 const struct mesh_health_obs *o)
{
	x->now += S / 4;
	mesh_path_health_feed(h, w, &x->cfg, o, x->now);
}

/* a's rounds 10 % late, b's all good, alternately, until a's own
 * machine and the place pool both called it lossy (or 4,000 rounds) */
static void run_lossy(void *arg)
{
	struct fixture *x = arg;
	unsigned int i;

	for (i = 0; i < 40; i++) {	/* every machine learns first */
		feed(x, &x->a, &x->wa, &good);
		feed(x, &x->b, &x->wb, &good);
	}
	x->j_a = x->a.own.judged;
	x->j_b = x->b.own.judged;
	x->j_place = x->place.judged;
	x->j_rail = x->rail.judged;
	x->j_peer = x->peer.judged;
	for (i = 0; i < 4000; i++) {
		feed(x, &x->a, &x->wa, i % 10 == 0 ? &late : &good);
		feed(x, &x->b, &x->wb, &good);
		x->rounds += 2;
		if (x->a.own.state == MESH_HEALTH_LOSSY &&
		    x->place.state == MESH_HEALTH_LOSSY)
			break;
	}
}

int main(void)
{
	static struct fixture x;
	uint64_t judged, rail_was;
	char *log;

	tap_plan(8);
	mesh_health_cfg_default(&x.cfg);
	mesh_health_init(&x.peer, 0);
	mesh_health_init(&x.rail, 0);
	mesh_health_init(&x.place, 0);
	mesh_health_init(&x.other_place, 0);
	mesh_health_init(&x.a.own, 0);
	mesh_health_init(&x.b.own, 0);
	mesh_health_init(&x.c.own, 0);
	x.a.peer = &x.peer;
	x.a.rail = x.b.rail = x.c.rail = &x.rail;
	x.a.place = x.b.place = &x.place;
	x.a.place_no = x.b.place_no = MESH_PLACE_CROSS_TOR;
	x.wa = (struct mesh_path_health_who){ .name = name_of, .arg = "a",
					      .peer = "10.0.0.2:7471" };
	x.wb = (struct mesh_path_health_who){ .name = name_of, .arg = "b",
					      .peer = "10.0.0.3:7471" };
	x.wc = (struct mesh_path_health_who){ .name = name_of, .arg = "c",
					      .peer = "10.0.0.4:7471" };

	log = logged(run_lossy, &x);
	tap_ok(x.a.own.state == MESH_HEALTH_LOSSY &&
	       x.place.state == MESH_HEALTH_LOSSY &&
	       x.b.own.state == MESH_HEALTH_HEALTHY,
	       "a's 10 %% late rounds: a lossy, the place pool lossy, b "
	       "healthy (%u rounds)", x.rounds);
	{
		uint64_t a = x.a.own.judged - x.j_a, b = x.b.own.judged - x.j_b,
			 place = x.place.judged - x.j_place,
			 rail = x.rail.judged - x.j_rail,
			 peer = x.peer.judged - x.j_peer;

		tap_ok(a >= 16 && b >= 16 && near(place, a + b) &&
		       rail == place && near(peer, a),
		       "the place and rail pools judged a's and b's rounds, "
		       "the peer pool a's (%llu ~ %llu + %llu, rail %llu, "
		       "peer %llu)", (unsigned long long)place,
		       (unsigned long long)a, (unsigned long long)b,
		       (unsigned long long)rail, (unsigned long long)peer);
	}
	tap_ok(strstr(log, "rail 0 (its peers under other ToRs together): "
			   "lossy") != NULL,
	       "the place pool's change is logged under its name");
	if (!strstr(log, "under other ToRs"))
		tap_diag("log: %s", log);
	free(log);

	/* a path of no place: the rail pool, not the place pool */
	judged = x.place.judged;
	rail_was = x.rail.judged;
	feed(&x, &x.c, &x.wc, &good);
	tap_ok(x.place.judged == judged && x.rail.judged == rail_was + 1,
	       "a path of no place: its round in the rail pool only");

	/* a sample: the path's and its peer's, not the rail's nor place's */
	{
		const struct mesh_health_obs smp = {
			.kind = MESH_HOBS_SAMPLE, .bytes_per_s = 1000000 };
		unsigned int n_peer = x.peer.n_bw + x.peer.n_pend;

		feed(&x, &x.a, &x.wa, &smp);
		tap_ok(x.peer.n_bw + x.peer.n_pend == n_peer + 1 &&
		       x.place.n_bw + x.place.n_pend == 0 &&
		       x.rail.n_bw + x.rail.n_pend == 0,
		       "a sample: the peer pool's, not the rail's nor the "
		       "place's");
	}

	/* a down: the path's own */
	{
		const struct mesh_health_obs down = {
			.kind = MESH_HOBS_DOWN, .was_up = true };

		feed(&x, &x.b, &x.wb, &down);
		tap_ok(x.b.own.down && !x.place.down && !x.rail.down,
		       "a down: the path's own, never a pool's");
	}

	/* the same ToR's pool: b's place moved (a reload), a's rounds stay */
	x.b.place = &x.other_place;
	x.b.place_no = MESH_PLACE_SAME_TOR;
	judged = x.place.judged;
	feed(&x, &x.a, &x.wa, &good);
	tap_ok(x.place.judged == judged + 1 && x.other_place.judged == 0,
	       "a's round in its own place's pool only");
	x.b.own.down = false;
	x.b.own.state = MESH_HEALTH_HEALTHY;
	x.b.own.settle = 0;
	feed(&x, &x.b, &x.wb, &good);
	tap_ok(x.other_place.n_base == 1,
	       "b's round, its place moved, in the same ToR's pool");
	return tap_done();
}
