/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-mesh-health-fsm.c - mesh_health_fsm.c: the configuration's bounds;
 * learning; the loss test at its thresholds (bad rounds in a row, good
 * rounds back), a late round at retrans_ns and one over, pressured and
 * down rounds ignored; late rounds in flight at once no evidence (a
 * stall), a lone one held until its span is over, at the boundary; the run lengths of mesh_health_arl()
 * against the machine itself on random rounds (false alarms at p0, delay
 * at p1); the slow test on noisy samples, and a quiet path's false slows;
 * flaps (an outage a reconnect met, a lost round otherwise) at the
 * window's boundary.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "mesh/mesh_health_fsm.h"
#include "tap.h"

#define MS	1000000ull
#define S	1000000000ull

static struct mesh_health_cfg cfg;
static struct mesh_health h;
static struct mesh_health_step last;
static uint64_t now;

static void reset(void)
{
	now = 1;
	mesh_health_init(&h, now);
}

static void feed(const struct mesh_health_obs *o)
{
	mesh_health_feed(&h, &cfg, o, now, &last);
	h = last.next;
}

static void round_ok(uint64_t rtt)
{
	struct mesh_health_obs o = { .kind = MESH_HOBS_ROUND, .rtt_ns = rtt };

	now += S;
	feed(&o);
}

static void round_pressured(uint64_t rtt, uint64_t local)
{
	struct mesh_health_obs o = { .kind = MESH_HOBS_ROUND, .rtt_ns = rtt,
				     .pressured = true, .local_ns = local };

	now += S;
	feed(&o);
}

static void round_failed(void)
{
	struct mesh_health_obs o = { .kind = MESH_HOBS_ROUND, .failed = true };

	now += S;
	feed(&o);
}

/* K; a DOWN of a path that was up */
static void event(enum mesh_health_obs_kind k)
{
	struct mesh_health_obs o = { .kind = k, .was_up = true };

	feed(&o);
}

/* K on path P (a DOWN of a path that was up) */
static void event_on(struct mesh_health *p, enum mesh_health_obs_kind k)
{
	struct mesh_health_obs o = { .kind = k, .was_up = true };
	struct mesh_health_step st;

	mesh_health_feed(p, &cfg, &o, now, &st);
	*p = st.next;
}

static void sample(double bytes_per_s)
{
	struct mesh_health_obs o = { .kind = MESH_HOBS_SAMPLE,
				     .bytes_per_s = (uint64_t)bytes_per_s };

	now += 10 * S;
	feed(&o);
}

/* A base of 10 ms learnt. */
static void learnt(void)
{
	unsigned int i;

	reset();
	for (i = 0; i < cfg.learn_rounds; i++)
		round_ok(10 * MS);
}

static uint64_t rng = 88172645463325252ull;
static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (rng >> 11) * (1.0 / 9007199254740992.0);
}

static double gauss(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2 * log(u + 1e-300)) * cos(2 * M_PI * v);
}

/* Rounds, a share P bad, until the test says lossy; at most MAX. */
static unsigned long rounds_to_lossy(double p, unsigned long max)
{
	unsigned long n;

	learnt();
	for (n = 1; n <= max; n++) {
		if (uniform() < p)
			round_failed();
		else
			round_ok(10 * MS);
		if (h.lossy)
			return n;
	}
	return 0;
}

static void check_cfg(void)
{
	struct mesh_health_cfg c;

	mesh_health_cfg_default(&c);
	tap_ok(!mesh_health_cfg_check(&c), "the defaults pass");
	c.p0_ppm = 0;
	tap_ok(mesh_health_cfg_check(&c) != NULL, "p0 0: refused");
	c.p0_ppm = 1;
	tap_ok(!mesh_health_cfg_check(&c), "p0 1 ppm: taken");
	mesh_health_cfg_default(&c);
	c.p1_ppm = c.p0_ppm;
	tap_ok(mesh_health_cfg_check(&c) != NULL, "p1 = p0: refused");
	c.p1_ppm = c.p0_ppm + 1;
	tap_ok(!mesh_health_cfg_check(&c), "p1 = p0 + 1: taken");
	c.p1_ppm = 999999;
	tap_ok(!mesh_health_cfg_check(&c), "p1 999999 ppm: taken");
	c.p1_ppm = 1000000;
	tap_ok(mesh_health_cfg_check(&c) != NULL, "p1 100 %%: refused");
	mesh_health_cfg_default(&c);
	c.flap_downs = 1;
	tap_ok(mesh_health_cfg_check(&c) != NULL, "flap_downs 1: refused");
	c.flap_downs = 2;
	tap_ok(!mesh_health_cfg_check(&c), "flap_downs 2: taken");
	c.flap_downs = MESH_HEALTH_FLAPS_MAX;
	tap_ok(!mesh_health_cfg_check(&c), "flap_downs max: taken");
	c.flap_downs = MESH_HEALTH_FLAPS_MAX + 1;
	tap_ok(mesh_health_cfg_check(&c) != NULL, "flap_downs max + 1: refused");
	mesh_health_cfg_default(&c);
	c.slow_pct = 0;
	tap_ok(mesh_health_cfg_check(&c) != NULL, "slow_pct 0: refused");
	c.slow_pct = 99;
	tap_ok(!mesh_health_cfg_check(&c), "slow_pct 99: taken");
	c.slow_pct = 100;
	tap_ok(mesh_health_cfg_check(&c) != NULL, "slow_pct 100: refused");
	mesh_health_cfg_default(&c);
	c.h_loss = 0;
	tap_ok(mesh_health_cfg_check(&c) != NULL, "h_loss 0: refused");
}

static void check_loss(void)
{
	double lb = log((double)cfg.p1_ppm / cfg.p0_ppm);
	double lg = log((1e6 - cfg.p1_ppm) / (1e6 - cfg.p0_ppm));
	unsigned int n_bad = (unsigned int)ceil(cfg.h_loss / lb);
	unsigned int n_good = (unsigned int)ceil(cfg.h_loss / -lg);
	unsigned int i;
	uint64_t judged, pressured;

	reset();
	for (i = 0; i + 1 < cfg.learn_rounds; i++)
		round_ok(10 * MS);
	tap_ok(h.state == MESH_HEALTH_LEARNING, "%u good rounds: learning",
	       cfg.learn_rounds - 1);
	round_ok(10 * MS);
	tap_ok(h.state == MESH_HEALTH_HEALTHY && last.changed &&
	       last.why == MESH_HWHY_LEARNT, "%u: healthy (learnt)",
	       cfg.learn_rounds);

	learnt();
	for (i = 0; i + 1 < n_bad; i++)
		round_failed();
	tap_ok(h.state == MESH_HEALTH_HEALTHY, "%u failed rounds: healthy",
	       n_bad - 1);
	round_failed();
	tap_ok(h.state == MESH_HEALTH_LOSSY && last.why == MESH_HWHY_LOSS,
	       "%u failed rounds in a row: lossy", n_bad);
	for (i = 0; i + 1 < n_good; i++)
		round_ok(10 * MS);
	tap_ok(h.state == MESH_HEALTH_LOSSY, "%u good rounds after: lossy",
	       n_good - 1);
	round_ok(10 * MS);
	tap_ok(h.state == MESH_HEALTH_HEALTHY &&
	       last.why == MESH_HWHY_LOSS_GONE, "%u: healthy again", n_good);

	/* late: above base + retrans_ns */
	learnt();
	for (i = 0; i < n_bad; i++)
		round_ok(10 * MS + cfg.retrans_ns);
	tap_ok(h.state == MESH_HEALTH_HEALTHY && h.bad == 0,
	       "%u rounds at base + retrans_ns: good", n_bad);
	learnt();
	for (i = 0; i < n_bad; i++)
		round_ok(10 * MS + cfg.retrans_ns + MS);
	round_ok(10 * MS);	/* the last one held until a round after it */
	tap_ok(h.state == MESH_HEALTH_LOSSY,
	       "%u rounds 1 ms over base + retrans_ns: lossy", n_bad);
	tap_ok(fabs(h.base_ns - 10 * MS) < 1,
	       "late rounds left the base alone (%.0f ns)", h.base_ns);

	/* pressured and down rounds are no evidence */
	learnt();
	judged = h.judged;
	for (i = 0; i < 100; i++) {
		struct mesh_health_obs o = { .kind = MESH_HOBS_ROUND,
					     .failed = true, .pressured = true };
		feed(&o);
	}
	tap_ok(h.state == MESH_HEALTH_HEALTHY && h.judged == judged,
	       "100 failed rounds under local pressure: healthy, none judged");
	/* under pressure, what a round took beyond the host's delay is the
	 * path's: late by less than that delay, counted apart, not judged */
	pressured = h.late_pressured;
	for (i = 0; i < 3; i++)
		round_pressured(10 * MS + cfg.retrans_ns + MS, 2 * MS);
	round_ok(10 * MS);
	tap_ok(h.judged == judged + 1 && h.late_pressured == pressured + 3 &&
	       h.late_judged == 0,
	       "3 rounds 1 ms late under pressure, 2 ms of it the host's: "
	       "counted (%llu), none judged",
	       (unsigned long long)(h.late_pressured - pressured));
	/* late by more than that: judged (bad, alone), as any late round */
	round_pressured(10 * MS + cfg.retrans_ns + 3 * MS, 2 * MS);
	round_ok(10 * MS);
	tap_ok(h.judged == judged + 3 && h.late_judged == 1 && h.bad == 1 &&
	       h.late_pressured == pressured + 3,
	       "one 3 ms late under pressure, 2 ms of it the host's: "
	       "judged bad");
	/* a good one under pressure: judged good, not learnt */
	round_pressured(20 * MS, 5 * MS);
	tap_ok(h.judged == judged + 4 && h.bad == 1 &&
	       fabs(h.base_ns - 10 * MS) < 1,
	       "a good round under pressure: judged good, the base left "
	       "alone (%.0f ns)", h.base_ns);
	judged = h.judged;
	event(MESH_HOBS_DOWN);
	tap_ok(h.state == MESH_HEALTH_DOWN && last.why == MESH_HWHY_DOWN,
	       "down");
	for (i = 0; i < 100; i++)
		round_failed();
	event(MESH_HOBS_CONNECT_FAILED);	/* an outage */
	event(MESH_HOBS_UP);
	tap_ok(h.state == MESH_HEALTH_HEALTHY && last.why == MESH_HWHY_UP &&
	       h.judged == judged, "rounds while down not judged; up: healthy");
	for (i = 0; i < cfg.learn_rounds; i++)
		round_failed();
	tap_ok(h.state == MESH_HEALTH_HEALTHY && h.judged == judged,
	       "the first %u rounds after an up, failed, not judged",
	       cfg.learn_rounds);
	round_failed();
	tap_ok(h.judged == judged + 1, "the next one is");

	/* a failed round that took the path down is the down's evidence:
	 * as many as make lossy otherwise, each followed by its down and an
	 * up, leave the loss test at 0 */
	learnt();
	judged = h.judged;
	for (i = 0; i < n_bad; i++) {
		struct mesh_health_obs o = { .kind = MESH_HOBS_ROUND,
					     .failed = true, .downs = true };
		unsigned int k;

		feed(&o);
		event(MESH_HOBS_DOWN);
		event(MESH_HOBS_CONNECT_FAILED);
		event(MESH_HOBS_UP);
		for (k = 0; k < cfg.learn_rounds; k++)
			round_ok(10 * MS);
	}
	tap_ok(!h.lossy && h.s_loss == 0 && h.judged == judged,
	       "%u failed rounds that each took the path down for an outage "
	       "(a connect failed): not lossy, none judged", n_bad);

	/* ... but a path back at its first connect lost one round: the
	 * loss test's, each up saying so (for the pools), and no flap */
	learnt();
	judged = h.judged;
	for (i = 0; i < n_bad; i++) {
		struct mesh_health_obs o = { .kind = MESH_HOBS_ROUND,
					     .failed = true, .downs = true };

		now += S;
		feed(&o);
		event(MESH_HOBS_DOWN);
		event(MESH_HOBS_UP);
		if (!last.next.down && last.lost_round)
			continue;
		break;
	}
	tap_ok(i == n_bad && h.lossy && h.bad == n_bad &&
	       h.judged == judged + n_bad && h.n_flaps == 0,
	       "%u downs each back at the first connect: %llu lost rounds "
	       "judged, lossy, no flap (%u)", n_bad,
	       (unsigned long long)h.bad, h.n_flaps);
}

/* The run lengths, computed and seen. */
static void check_arl(void)
{
	double arl0, arl1, arl5, sum = 0;
	unsigned long n, alarms = 0, total = 0, i;
	const unsigned int runs = 400;

	mesh_health_arl(&cfg, cfg.p0_ppm, &arl0);
	mesh_health_arl(&cfg, cfg.p1_ppm, &arl1);
	mesh_health_arl(&cfg, 5 * cfg.p1_ppm, &arl5);
	tap_diag("defaults: a false alarm every %.0f rounds at p0 %.2f %%, "
		 "lossy after %.0f rounds at p1 %.2f %%, %.0f at 5 %%",
		 arl0, cfg.p0_ppm / 1e4, arl1, cfg.p1_ppm / 1e4, arl5);
	tap_ok(arl0 > 1e5, "a false alarm at p0 takes over 1e5 rounds");
	tap_ok(arl5 > 0 && arl5 < arl1, "at 5 %% sooner than at p1 (the "
	       "sweeps' answer)");
	for (i = 0, sum = 0; i < runs; i++)
		sum += (double)rounds_to_lossy(5 * cfg.p1_ppm / 1e6, 100000);
	tap_ok(fabs(sum / runs - arl5) < 0.15 * arl5,
	       "at 5 %%, %u runs took %.0f rounds on average, ARL %.0f",
	       runs, sum / runs, arl5);
	sum = 0;
	tap_ok(arl1 > 0 && arl1 < 1000, "p1 is seen within 1000 rounds");

	for (i = 0; i < runs; i++) {
		n = rounds_to_lossy(cfg.p1_ppm / 1e6, 100000);
		sum += (double)n;
	}
	tap_ok(fabs(sum / runs - arl1) < 0.15 * arl1,
	       "at p1, %u runs took %.0f rounds on average, ARL %.0f",
	       runs, sum / runs, arl1);

	/* at p0: false alarms in 4e6 rounds, restarted after each */
	learnt();
	for (i = 0; i < 4000000; i++) {
		if (uniform() < cfg.p0_ppm / 1e6)
			round_failed();
		else
			round_ok(10 * MS);
		total++;
		if (h.lossy) {
			alarms++;
			learnt();
		}
	}
	tap_diag("at p0: %lu false alarms in %lu rounds (ARL %.0f: %.1f expected)",
		 alarms, total, arl0, total / arl0);
	tap_ok(alarms <= 3 * (total / arl0) + 3,
	       "at p0 the false alarms are what the ARL says");

	/* a quick test: its false alarms simulated against the chain */
	{
		struct mesh_health_cfg keep = cfg;
		double a, sw;

		cfg.p0_ppm = 10000;
		cfg.p1_ppm = 100000;
		cfg.h_loss = 4;
		mesh_health_arl(&cfg, cfg.p0_ppm, &a);
		for (i = 0, sum = 0; i < runs; i++)
			sum += (double)rounds_to_lossy(cfg.p0_ppm / 1e6, 10000000);
		tap_ok(a > 0 && fabs(sum / runs - a) < 0.15 * a,
		       "p0 1 %%, p1 10 %%, h 4: a false alarm after %.0f rounds "
		       "on average in %u runs, ARL %.0f", sum / runs, runs, a);
		mesh_health_arl_sweeps(&cfg, cfg.p0_ppm, &sw);
		tap_ok(fabs(sw - a) < 1e-6 * a, "the chain solved and swept "
		       "agree: %.6f, %.6f", a, sw);
		cfg = keep;
	}

	/* one cell: 1/p */
	{
		struct mesh_health_cfg c = cfg;
		double a;

		c.h_loss = 1e-9;
		mesh_health_arl(&c, 100000, &a);
		tap_ok(fabs(a - 10) < 1e-6, "a threshold of one cell: 1/p "
		       "rounds (%.6f)", a);
	}
}

static void check_slow(void)
{
	unsigned int i, n;
	bool alarm = false;

	reset();
	for (i = 0; i < cfg.learn_samples; i++)
		sample(1e9 * (1 + 0.03 * gauss()));
	for (i = 0; i < 20000; i++) {
		sample(1e9 * (1 + 0.03 * gauss()));
		alarm |= h.slow;
	}
	tap_ok(!alarm, "20000 samples with 3 %% noise: never slow");
	for (n = 1; n <= 20; n++) {
		sample(0.78e9 * (1 + 0.03 * gauss()));
		if (h.slow)
			break;
	}
	tap_ok(h.slow && n <= 4 && last.why == MESH_HWHY_SLOW,
	       "bandwidth down 22 %%: slow after %u samples", n);
	for (n = 1; n <= 20; n++) {
		sample(1e9 * (1 + 0.03 * gauss()));
		if (!h.slow)
			break;
	}
	tap_ok(!h.slow && n <= 4, "restored: healthy after %u samples", n);
}

/*
 * Samples that spread 50 % (log-normal, as a starved TCG guest's: 0.5 to
 * 10 MB/s on the fabric): a 20 % drop is within their noise, so the
 * threshold grows with the spread (false alarms SLOW_ARL0 = 1e5 samples
 * apart: 0.2 expected here), and the base takes an excursion's samples
 * only once it came back: a quartered bandwidth still shows, in about 8
 * samples; healthy again takes the same test the other way (h/k, about
 * 90 samples: noise costs time both ways).
 */
/* N healthy samples of 1 GB/s spread SPREAD into the path: how many
 * times it turned slow. */
static unsigned int false_slows(double spread, unsigned int n)
{
	unsigned int i, alarms = 0;
	bool was = h.slow;

	for (i = 0; i < n; i++) {
		sample(1e9 * exp(spread * gauss()));
		alarms += h.slow && !was;
		was = h.slow;
	}
	return alarms;
}

static void check_slow_noisy(void)
{
	unsigned int i, n, alarms;

	reset();
	for (i = 0; i < cfg.learn_samples; i++)
		sample(1e9 * exp(0.5 * gauss()));
	alarms = false_slows(0.5, 20000);
	tap_ok(alarms <= 1, "20000 samples spread 50 %%: %u false slows, "
	       "at most 1", alarms);
	/* a path anew for the drop (the noise may have left this one slow) */
	reset();
	for (i = 0; i < 300; i++)
		sample(1e9 * exp(0.5 * gauss()));
	for (n = 1; n <= 30; n++) {
		sample(0.25e9 * exp(0.5 * gauss()));
		if (h.slow)
			break;
	}
	tap_ok(h.slow && n >= 2, "spread 50 %%, bandwidth quartered: slow "
	       "after %u samples", n);
	/* back: the same test the other way, about h/k = 90 samples */
	for (n = 1; n <= 400; n++) {
		sample(1e9 * exp(0.5 * gauss()));
		if (!h.slow)
			break;
	}
	tap_ok(!h.slow, "restored: healthy after %u samples", n);
}

/*
 * A quiet path's false slows, against the 1e5 samples apart its
 * threshold aims at: 200 paths of 1,000 healthy samples spread 10 %, each
 * learning anew.  With the base's memory at 8 samples it wandered a
 * quarter of a spread and they came one in 10,300 (about 19 here); at 32,
 * one in 120,000 (health-oracle, 1,000 path-hours).
 */
static void check_slow_quiet(void)
{
	unsigned int p, alarms = 0;

	for (p = 0; p < 200; p++) {
		reset();
		alarms += false_slows(0.1, 1000);
	}
	tap_ok(alarms <= 6, "200,000 samples spread 10 %%: %u false slows, "
	       "at most 6 (2 expected)", alarms);
}

/* Downs at 1000 s, 1150 s and AT. */
static void three_downs(uint64_t at)
{
	learnt();
	now = 1000 * S;
	event(MESH_HOBS_DOWN);
	event(MESH_HOBS_CONNECT_FAILED);
	event(MESH_HOBS_UP);
	now = 1150 * S;
	event(MESH_HOBS_DOWN);
	event(MESH_HOBS_CONNECT_FAILED);
	event(MESH_HOBS_CONNECT_FAILED);	/* one flap for all of them */
	event(MESH_HOBS_UP);
	now = at;
	event(MESH_HOBS_DOWN);
	event(MESH_HOBS_CONNECT_FAILED);
}

static void check_flaps(void)
{
	three_downs(1300 * S);
	tap_ok(h.state == MESH_HEALTH_DOWN && h.n_flaps == 3,
	       "3 flaps, the first a full window before the last: down");
	three_downs(1300 * S - 1);
	tap_ok(h.state == MESH_HEALTH_FLAPPING && last.why == MESH_HWHY_FLAPS,
	       "3 flaps within the window (1 ns inside), the third at its "
	       "failed connect: flapping");
	event(MESH_HOBS_UP);
	tap_ok(h.state == MESH_HEALTH_FLAPPING, "up again: still flapping");
	now = 1300 * S - 1;
	event(MESH_HOBS_TICK);
	tap_ok(h.state == MESH_HEALTH_FLAPPING,
	       "1 ns before the first down leaves the window: flapping");
	now = 1300 * S;
	event(MESH_HOBS_TICK);
	tap_ok(h.state == MESH_HEALTH_HEALTHY &&
	       last.why == MESH_HWHY_FLAPS_GONE,
	       "the first down out of the window: healthy");

	/* a down is no flap until a connect fails, and then dated at the
	 * down: in the window from it, out of it a window after it */
	learnt();
	now = 2000 * S;
	event(MESH_HOBS_DOWN);
	tap_ok(h.state == MESH_HEALTH_DOWN && h.n_flaps == 0,
	       "down: no flap yet");
	now = 2100 * S;
	event(MESH_HOBS_CONNECT_FAILED);
	tap_ok(mesh_health_flaps(&h, &cfg, 2300 * S - 1) == 1 &&
	       mesh_health_flaps(&h, &cfg, 2300 * S) == 0,
	       "a connect failed 100 s later: a flap, dated at the down");
	event(MESH_HOBS_UP);
	event(MESH_HOBS_CONNECT_FAILED);
	tap_ok(h.n_flaps == 1 && !last.lost_round,
	       "up after it: no lost round; a failed connect while up: "
	       "nothing");

	/* a path never up (its connects fail) is down, and no flap: three
	 * such downs within the window are not flapping */
	{
		struct mesh_health_obs never = { .kind = MESH_HOBS_DOWN,
						 .was_up = false };
		unsigned int k;

		learnt();
		for (k = 0; k < 3; k++) {
			now = (2000 + k * 10) * S;
			feed(&never);
			event(MESH_HOBS_UP);
		}
		feed(&never);
		tap_ok(h.state == MESH_HEALTH_DOWN &&
		       mesh_health_flaps(&h, &cfg, now) == 0,
		       "four downs of a path never up: down, no flap (%u)",
		       mesh_health_flaps(&h, &cfg, now));
	}
}

/* A round that ended at END, RTT long (late or not). */
static void round_end(uint64_t end, uint64_t rtt)
{
	struct mesh_health_obs o = { .kind = MESH_HOBS_ROUND, .rtt_ns = rtt };

	now = end;
	feed(&o);
}

/*
 * Late rounds in flight at once are a stall, no evidence (a pool's
 * paths: CI-O's starved guest made three rounds to it late together and
 * the peer lossy; in CI-P six stalls each counted once did): a late
 * round is held until a round that started at its span's end or later;
 * one starting 1 ns before joins the span.
 */
static void check_stall(void)
{
	double lb = log((double)cfg.p1_ppm / cfg.p0_ppm);
	unsigned int n_bad = (unsigned int)ceil(cfg.h_loss / lb);
	uint64_t late = 10 * MS + cfg.retrans_ns + 300 * MS, t;
	unsigned int i;

	learnt();
	t = now + 10 * S;
	for (i = 0; i < 2 * n_bad; i++)		/* 10 ms apart, 560 ms long */
		round_end(t + i * 10 * MS, late);
	round_end(t + 10 * S, 10 * MS);		/* after the span: it is over */
	tap_ok(h.state == MESH_HEALTH_HEALTHY && h.bad == 0 &&
	       h.shared == 2 * n_bad,
	       "%u late rounds in flight at once: a stall, none judged "
	       "(%llu bad, %llu shared)", 2 * n_bad,
	       (unsigned long long)h.bad, (unsigned long long)h.shared);

	/* a lone late round: held until a round starting at its end or
	 * later, then bad; one starting 1 ns before joins it (a stall) */
	t += 20 * S;
	round_end(t, late);
	round_end(t + late - 1, late);
	round_end(t + 5 * S, 10 * MS);
	tap_ok(h.bad == 0 && h.shared == 2 * n_bad + 2,
	       "a late round starting 1 ns before the last one ended: a "
	       "stall of two, none judged");
	t += 20 * S;
	round_end(t, late);
	round_end(t + 1 * MS, 10 * MS);		/* started before its end */
	tap_ok(h.bad == 0, "a round in flight when it ended: still held");
	round_end(t + late, late);		/* started at its end */
	tap_ok(h.bad == 1 && h.late_judged == 1 && h.shared == 2 * n_bad + 2,
	       "one starting at its end: the first judged bad (alone), the "
	       "second held");

	/* stalls are no evidence, lone late rounds are: n_bad of each */
	learnt();
	for (i = 0; i < n_bad; i++) {
		t = now + S;
		round_end(t, late);
		round_end(t + 5 * MS, late);
	}
	round_end(now + S, 10 * MS);
	tap_ok(h.state == MESH_HEALTH_HEALTHY && h.bad == 0,
	       "%u stalls of two rounds, apart: none bad, healthy", n_bad);
	for (i = 0; i < n_bad; i++)
		round_end(now + S, late);
	round_end(now + S, 10 * MS);
	tap_ok(h.state == MESH_HEALTH_LOSSY && h.bad == n_bad,
	       "%u lone late rounds, apart: %llu bad, lossy", n_bad,
	       (unsigned long long)h.bad);
}

static void check_peer(void)
{
	enum mesh_health_state two[2];
	struct mesh_health pool;

	mesh_health_init(&pool, 1);
	pool.state = MESH_HEALTH_LOSSY;
	two[0] = MESH_HEALTH_DOWN;
	two[1] = MESH_HEALTH_HEALTHY;
	tap_ok(mesh_health_peer(&pool, two, 2) == MESH_HEALTH_LOSSY,
	       "one of two paths down: the pool's (lossy)");
	two[1] = MESH_HEALTH_DOWN;
	tap_ok(mesh_health_peer(&pool, two, 2) == MESH_HEALTH_DOWN,
	       "both down: down");
	two[0] = MESH_HEALTH_FLAPPING;
	tap_ok(mesh_health_peer(&pool, two, 2) == MESH_HEALTH_FLAPPING,
	       "one flapping: flapping");
	two[0] = MESH_HEALTH_SLOW;
	tap_ok(mesh_health_peer(NULL, two, 1) == MESH_HEALTH_SLOW,
	       "one path, no pool: the path's");
	tap_ok(mesh_health_peer(NULL, two, 0) == MESH_HEALTH_LEARNING,
	       "no path: learning");
}


/* Path I of PS fed one round 1 ms later, bad (failed) or good (10 ms). */
static void path_round(struct mesh_health *ps, unsigned int i, bool bad)
{
	struct mesh_health_obs o = { .kind = MESH_HOBS_ROUND,
				     .failed = bad, .rtt_ns = 10 * MS };
	struct mesh_health_step st;

	now += MS;
	mesh_health_feed(&ps[i], &cfg, &o, now, &st);
	ps[i] = st.next;
}

/* N paths learnt, 2,000 good rounds each (no bad one in them). */
static void paths_fresh(struct mesh_health *ps, unsigned int n)
{
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		mesh_health_init(&ps[i], now);
		for (k = 0; k < 2000; k++)
			path_round(ps, i, false);
	}
}

/* Rounds to path I, a bad one each EVERY, until it is lossy. */
static void path_lossy(struct mesh_health *ps, unsigned int i,
		       unsigned int every)
{
	unsigned int k;

	for (k = 1; k < 100000 && !ps[i].lossy; k++)
		path_round(ps, i, k % every == 0);
}

/* Path I's judged rounds since its lossy excursion began, and since it
 * began to count as a sibling. */
static uint64_t span(const struct mesh_health *p)
{
	return p->judged - p->lossy_from + 1;
}

static uint64_t fresh(const struct mesh_health *p)
{
	return p->judged - p->fresh_from;
}

static bool lossy_all(const struct mesh_health *ps)
{
	return ps[0].lossy && ps[1].lossy && ps[2].lossy && ps[3].lossy;
}

/*
 * Rounds to each of 4 paths in turn, a share P bad on the first
 * BAD_PATHS of them, MAX rounds a path at most (until all four are
 * lossy; with HEAL, then 600 rounds more and clean rounds until none
 * is): whether the peer was split meanwhile (mesh_health_split).  With
 * COLD the paths start unlearnt, the share bad from their first round.
 */
static bool ever_split(double p, unsigned int bad_paths, unsigned int max,
		       bool heal, bool cold)
{
	struct mesh_health ps[4];
	const struct mesh_health *pp[4] = { &ps[0], &ps[1], &ps[2], &ps[3] };
	unsigned int i, k, lossy, fault = UINT_MAX;
	bool split = false;

	if (cold)
		for (i = 0; i < 4; i++)
			mesh_health_init(&ps[i], now);
	else
		paths_fresh(ps, 4);
	for (k = 0; k < 100000; k++) {
		if (lossy_all(ps) && fault == UINT_MAX && !cold) {
			if (!heal)
				break;
			fault = k + 600;
		}
		if (k == max && fault == UINT_MAX)
			break;
		for (i = 0, lossy = 0; i < 4; i++) {
			path_round(ps, i, k < fault && i < bad_paths &&
					  uniform() < p);
			lossy += ps[i].lossy;
		}
		split |= mesh_health_split(pp, 4, &cfg) > 0;
		if (k >= fault && !lossy)
			break;
	}
	return split;
}

/* Path I lossy from a run of bad rounds, with B bad rounds since its
 * excursion began in all, and clean rounds until it has been lossy for
 * LEAST. */
static void path_lossy_with(struct mesh_health *ps, unsigned int i,
			    unsigned int b, uint64_t least)
{
	unsigned int k;

	while (!ps[i].lossy)
		path_round(ps, i, true);
	for (k = ps[i].bad - ps[i].lossy_bad; k < b; k++)
		path_round(ps, i, true);
	while (span(&ps[i]) < least)
		path_round(ps, i, false);
}

/*
 * Which paths see it.  A lossy path splits its peer once it has been
 * lossy for LEAST = log 0.01 / log(1 - p1) rounds (from its excursion's
 * start), not one sooner, while a healthy sibling, counting LEAST rounds
 * and the lossy one's window (back to its last K bad rounds, 2 LEAST at
 * least) since it began to count, met so few bad rounds in the window
 * that a sign test at MESH_HEALTH_SPLIT_ALPHA calls the K more: 10
 * against none, 16 against 2, not 9 against none nor 16 against 3.
 * The window is 2 LEAST rounds at least.  Measured: 2 % of rounds bad
 * on every path (a port, an uplink, twice lossy_bad) split 1 peer of 400
 * on its way to lossy and back (a sibling that met 2 bad rounds where 9
 * were due, against 16; a path begins to count when it leaves lossy:
 * without that, 80 of 200 on the way back), none at 1 % from the
 * paths' start (without LEAST rounds before the window, 7 of 100: the
 * loss test's false start); on one path of four (an ECMP link) always.
 */
static void check_split(void)
{
	struct mesh_health ps[3];
	const struct mesh_health *pp[3] = { &ps[0], &ps[1], &ps[2] };
	uint64_t least = (uint64_t)ceil(log(0.01) / log(1 - cfg.p1_ppm / 1e6));
	unsigned int i, k, n_uni = 0, n_out = 0, n_cold = 0, n_one = 0;
	unsigned int trials = 200;

	now = 1;
	paths_fresh(ps, 3);
	tap_ok(mesh_health_split(pp, 3, &cfg) == 0, "split: none lossy: 0");
	path_lossy(ps, 0, 10);
	for (k = 1; span(&ps[0]) < least - 1; k++)
		path_round(ps, 0, k % 10 == 0);
	tap_ok(ps[0].lossy && mesh_health_split(pp, 3, &cfg) == 0,
	       "split: lossy for %llu rounds (least %llu - 1): 0",
	       (unsigned long long)span(&ps[0]), (unsigned long long)least);
	path_round(ps, 0, k % 10 == 0);
	tap_ok(span(&ps[0]) == least && mesh_health_split(pp, 3, &cfg) == 1,
	       "split: lossy for least rounds, two siblings without a bad "
	       "round, counting for %llu: 1", (unsigned long long)fresh(&ps[1]));

	/* its last 16 bad rounds against 2, then 3, on each sibling */
	for (i = 1; i < 3; i++)
		for (k = 0; k < 2; k++)
			path_round(ps, i, true);
	tap_ok(ps[1].state == MESH_HEALTH_HEALTHY &&
	       mesh_health_split(pp, 3, &cfg) == 1,
	       "split: 16 bad rounds against a sibling's 2: 1");
	path_round(ps, 1, true);
	tap_ok(mesh_health_split(pp, 3, &cfg) == 1,
	       "split: ... against one's 3, the other's 2: 1");
	path_round(ps, 2, true);
	tap_ok(ps[2].state == MESH_HEALTH_HEALTHY &&
	       mesh_health_split(pp, 3, &cfg) == 0,
	       "split: ... against 3 on each: 0");

	/* K: 9 bad rounds against none, and 10 */
	paths_fresh(ps, 3);
	path_lossy_with(ps, 0, 9, least);
	tap_ok(ps[0].lossy && mesh_health_split(pp, 3, &cfg) == 0,
	       "split: lossy with %llu bad rounds, siblings none: 0",
	       (unsigned long long)(ps[0].bad - ps[0].lossy_bad));
	paths_fresh(ps, 3);
	path_lossy_with(ps, 0, 10, least);
	tap_ok(ps[0].lossy && mesh_health_split(pp, 3, &cfg) == 1,
	       "split: ... with %llu: 1",
	       (unsigned long long)(ps[0].bad - ps[0].lossy_bad));

	/* a sibling counting for the window and LEAST, one round less */
	event_on(&ps[1], MESH_HOBS_DOWN);
	event_on(&ps[1], MESH_HOBS_CONNECT_FAILED);
	event_on(&ps[1], MESH_HOBS_UP);
	event_on(&ps[2], MESH_HOBS_DOWN);
	tap_ok(fresh(&ps[1]) == 0 && mesh_health_split(pp, 3, &cfg) == 0,
	       "split: a sibling back up after an outage, the other down: 0");
	for (k = 0; k < cfg.learn_rounds; k++)
		path_round(ps, 1, false);
	while (fresh(&ps[1]) < 3 * least - 1)
		path_round(ps, 1, false);
	tap_ok(mesh_health_split(pp, 2, &cfg) == 0,
	       "split: the sibling counting for %llu rounds (the window, "
	       "2 least, and least, - 1): 0", (unsigned long long)fresh(&ps[1]));
	path_round(ps, 1, false);
	tap_ok(mesh_health_split(pp, 2, &cfg) == 1,
	       "split: ... for %llu: 1", (unsigned long long)fresh(&ps[1]));
	path_lossy(ps, 1, 10);
	tap_ok(mesh_health_split(pp, 2, &cfg) == 0,
	       "split: two paths, both lossy: 0");

	for (i = 0; i < trials; i++) {
		n_uni += ever_split(0.02, 4, 20000, false, false);
		n_out += ever_split(0.02, 4, 20000, true, false);
		n_cold += ever_split(0.01, 4, 1500, false, true);
		n_one += ever_split(0.02, 1, 2000, false, false);
	}
	tap_ok(n_uni + n_out <= 2 && n_cold == 0 && n_one == trials,
	       "split: 2 %% of rounds bad on all four paths: split on the "
	       "way in %u of %u trials, on the way in and out (600 rounds "
	       "after all were lossy, the loss gone) %u; 1 %% on all four from "
	       "their start, 1,500 rounds: %u; on one path of four: split "
	       "in %u within 2,000 rounds a path", n_uni, trials, n_out,
	       n_cold, n_one);
}

/*
 * When the slow test has learnt (mesh_health_bw_learnt, /peers'
 * bandwidth_learnt): a quiet path at its base's memory (32 samples, more
 * than learn_samples), not one sample sooner; a path spread 30 % at its
 * longer memory (8/k^2 samples), not at 32; the rounds' base alone never.
 */
static void check_bw_learnt(void)
{
	unsigned int i, n;

	learnt();
	tap_ok(!mesh_health_bw_learnt(&h, &cfg) &&
	       h.state == MESH_HEALTH_HEALTHY,
	       "bw learnt: rounds learnt, no sample: healthy, not learnt");
	for (i = 0; i < 31; i++)
		sample(1e9);
	tap_ok(!mesh_health_bw_learnt(&h, &cfg), "bw learnt: quiet, 31 "
	       "samples: not yet");
	sample(1e9);
	tap_ok(mesh_health_bw_learnt(&h, &cfg), "bw learnt: quiet, 32: learnt");

	learnt();
	for (n = 0; n < 600 && !mesh_health_bw_learnt(&h, &cfg); n++)
		sample(1e9 * exp(0.3 * gauss()));
	tap_ok(n > 32 && n <= 256 && h.n_bw == n,
	       "bw learnt: spread 30 %%: after %u samples (over 32, at most "
	       "256), as its learning ended", n);
}

/* N rounds into the machine, a share P of them failed (at random). */
static unsigned long rounds_at(double p, unsigned long n, unsigned long *lossy)
{
	unsigned long i, in_lossy = 0;

	for (i = 0; i < n; i++) {
		if (uniform() < p)
			round_failed();
		else
			round_ok(10 * MS);
		in_lossy += h.lossy;
	}
	if (lossy)
		*lossy = in_lossy;
	return in_lossy;
}

/*
 * A place pool's usual share of bad rounds (mesh_health_init_pool):
 * learning for its first MESH_HEALTH_POOL_MEMORY judged rounds (one
 * fewer: learning, that many: healthy), then judged against it: 1 % of
 * its rounds failing at random, which a machine without one calls lossy
 * (1 % is lossy_bad), is its usual and never lossy in 100,000 rounds; a
 * fault of 3 % more on top of it is lossy within 3,000 rounds; while
 * lossy the usual stands still.
 */
static void check_usual(void)
{
	unsigned long lossy, n;
	double u;

	now = 1;
	mesh_health_init_pool(&h, now, MESH_HEALTH_POOL_MEMORY);
	while (h.judged < MESH_HEALTH_POOL_MEMORY - 1)	/* base, then usual */
		round_ok(10 * MS);
	tap_ok(h.state == MESH_HEALTH_LEARNING && h.n_base >= cfg.learn_rounds,
	       "usual: %u judged rounds: learning",
	       MESH_HEALTH_POOL_MEMORY - 1);
	round_ok(10 * MS);
	tap_ok(h.state == MESH_HEALTH_HEALTHY,
	       "usual: %u: healthy", MESH_HEALTH_POOL_MEMORY);

	now = 1;
	mesh_health_init_pool(&h, now, MESH_HEALTH_POOL_MEMORY);
	rounds_at(0.01, 100000, &lossy);
	tap_ok(!lossy && h.usual_bad > 0.007 && h.usual_bad < 0.013,
	       "usual: 1 %% failing at random, 100,000 rounds: never lossy "
	       "(usual %.4f)", h.usual_bad);
	reset();
	rounds_at(0.01, 100000, &lossy);
	tap_ok(lossy > 10000, "usual: the same without one: lossy %lu of "
	       "100,000 rounds", lossy);

	now = 1;
	mesh_health_init_pool(&h, now, MESH_HEALTH_POOL_MEMORY);
	rounds_at(0.01, 20000, NULL);
	for (n = 1; n <= 3000 && !h.lossy; n++)
		rounds_at(0.04, 1, NULL);
	tap_ok(h.lossy, "usual: 3 %% more on top of it: lossy after %lu "
	       "rounds", n - 1);
	u = h.usual_bad;
	rounds_at(0.04, 5000, &lossy);
	tap_ok(h.usual_bad == u && lossy == 5000,
	       "usual: while lossy it stands still (%.4f)", h.usual_bad);
}

int main(void)
{
	tap_plan(94);
	mesh_health_cfg_default(&cfg);
	check_cfg();
	check_loss();
	check_arl();
	check_slow();
	check_slow_noisy();
	check_slow_quiet();
	check_flaps();
	check_stall();
	check_peer();
	check_bw_learnt();
	check_usual();
	check_split();
	tap_ok(!strcmp(mesh_health_name(MESH_HEALTH_FLAPPING), "flapping") &&
	       !strcmp(mesh_health_name(MESH_HEALTH__COUNT), "?"), "names");
	return tap_done();
}
