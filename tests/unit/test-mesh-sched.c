/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-mesh-sched.c - a mesh peer's schedule with a fake clock.
 *
 * First the transitions from a table (every state times every event:
 * what no row allows must be refused with -EPROTO and change nothing),
 * then whole fleets of peers simulated over hours of fake time: start
 * spread, cadence and jitter, backoff and its reset, a partition seen
 * within the round deadline, and the bandwidth budget (its share of the
 * time, one sample at a time, overruns charged).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mesh-sched-cfg.h"
#include "mesh/mesh_sched.h"
#include "tap.h"


/* ---- the table --------------------------------------------------------- */

#define ST(x)	MESH_ST_##x
#define EV(x)	MESH_EV_##x
#define A(x)	MESH_ACT_##x

struct row {
	enum mesh_state st;
	enum mesh_event ev;
	enum mesh_state next;
	unsigned int act;
};

/* Reachability is UP in the table's starting states, so a failure also
 * reports DOWN; STOP in IDLE changes nothing and asks for nothing. */
static const struct row rows[] = {
	{ ST(IDLE), EV(START), ST(PENDING), A(TIMER) },
	{ ST(IDLE), EV(STOP), ST(IDLE), 0 },
	{ ST(PENDING), EV(TIMER), ST(CONNECTING), A(CONNECT) | A(TIMER) },
	{ ST(PENDING), EV(STOP), ST(IDLE), A(TIMER) | A(DEQUEUE) },
	{ ST(CONNECTING), EV(CONNECTED), ST(ROUND),
	  A(ROUND) | A(TIMER) | A(SLOT) },
	{ ST(CONNECTING), EV(CONNECT_FAILED), ST(BACKOFF),
	  A(CLOSE) | A(DOWN) | A(TIMER) | A(SLOT) },
	{ ST(CONNECTING), EV(TIMER), ST(BACKOFF),
	  A(CLOSE) | A(DOWN) | A(TIMER) | A(SLOT) },
	{ ST(CONNECTING), EV(LOST), ST(BACKOFF),
	  A(CLOSE) | A(DOWN) | A(TIMER) | A(SLOT) },
	{ ST(CONNECTING), EV(STOP), ST(IDLE),
	  A(CLOSE) | A(TIMER) | A(SLOT) },
	{ ST(WAIT), EV(TIMER), ST(ROUND), A(ROUND) | A(TIMER) },
	{ ST(WAIT), EV(LOST), ST(BACKOFF), A(CLOSE) | A(DOWN) | A(TIMER) },
	{ ST(WAIT), EV(STOP), ST(IDLE), A(CLOSE) | A(TIMER) },
	{ ST(ROUND), EV(ROUND_DONE), ST(WAIT), A(TIMER) },
	{ ST(ROUND), EV(TIMER), ST(BACKOFF), A(CLOSE) | A(DOWN) | A(TIMER) },
	{ ST(ROUND), EV(LOST), ST(BACKOFF), A(CLOSE) | A(DOWN) | A(TIMER) },
	{ ST(ROUND), EV(STOP), ST(IDLE), A(CLOSE) | A(TIMER) },
	{ ST(BACKOFF), EV(TIMER), ST(CONNECTING), A(CONNECT) | A(TIMER) },
	{ ST(BACKOFF), EV(STOP), ST(IDLE), A(TIMER) | A(DEQUEUE) },
};

static const struct row *find_row(enum mesh_state st, enum mesh_event ev)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].st == st && rows[i].ev == ev)
			return &rows[i];
	return NULL;
}

static bool same(const struct mesh_sched *a, const struct mesh_sched *b)
{
	return a->state == b->state && a->reach == b->reach &&
	       a->due == b->due && a->round_at == b->round_at &&
	       a->bw_due == b->bw_due && a->fails == b->fails &&
	       a->bw == b->bw && a->rng == b->rng;
}

static void test_table(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	struct mesh_budget b;
	struct mesh_sched s;
	struct mesh_step out;
	unsigned int st, ev, bad = 0, checked = 0, legal = 0;
	int ret;

	for (st = 0; st < MESH_ST__COUNT; st++) {
		for (ev = 0; ev < MESH_EV__COUNT; ev++) {
			const struct row *r = find_row(st, ev);
			uint64_t now = 1000 * SEC;

			mesh_budget_init(&b, &cfg, 0);
			mesh_sched_init(&s, 42 + st * 16 + ev);
			s.state = st;
			s.reach = MESH_REACH_UP;
			s.due = now;
			s.round_at = now - 10 * MS;
			ret = mesh_sched_step(&s, &cfg, &b, ev, now, &out);
			checked++;
			if (!r) {
				if (ret != -EPROTO || out.act ||
				    !same(&out.next, &s)) {
					tap_diag("%s + %s: accepted, want "
						 "-EPROTO", mesh_state_name(st),
						 mesh_event_name(ev));
					bad++;
				}
				continue;
			}
			legal++;
			if (ret || out.next.state != r->next ||
			    out.act != r->act) {
				tap_diag("%s + %s: %d, %s, actions 0x%x; want "
					 "%s, 0x%x", mesh_state_name(st),
					 mesh_event_name(ev), ret,
					 mesh_state_name(out.next.state),
					 out.act, mesh_state_name(r->next),
					 r->act);
				bad++;
			}
		}
	}
	tap_ok(!bad && checked == MESH_ST__COUNT * MESH_EV__COUNT &&
	       legal == sizeof(rows) / sizeof(rows[0]),
	       "every state x event: %u checked, %u legal, the rest refused "
	       "unchanged (%u wrong)", checked, legal, bad);
}

/* Deadlines and waits the table does not show. */
static void test_timers(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	struct mesh_budget b;
	struct mesh_sched s;
	struct mesh_step out;
	uint64_t now = 50 * SEC;

	mesh_budget_init(&b, &cfg, 0);
	mesh_sched_init(&s, 7);
	mesh_sched_step(&s, &cfg, &b, MESH_EV_START, now, &out);
	tap_ok(out.next.due >= now && out.next.due < now + cfg.interval_ns &&
	       out.wait_ns == out.next.due - now,
	       "start: the first connect within one interval (%llu ms)",
	       (unsigned long long)(out.wait_ns / MS));
	s = out.next;
	now = s.due;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_TIMER, now, &out);
	tap_ok(out.next.due == now + cfg.connect_timeout_ns,
	       "connecting: the timer is the connect deadline");
	s = out.next;
	now += 3 * MS;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_CONNECTED, now, &out);
	tap_ok(out.next.due == now + cfg.round_timeout_ns &&
	       out.next.round_at == now,
	       "connected: a round at once, its deadline armed");
	s = out.next;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_ROUND_DONE, now + 2 * MS, &out);
	tap_ok(out.next.state == MESH_ST_WAIT &&
	       out.next.due >= now + 900 * MS &&
	       out.next.due <= now + 1100 * MS &&
	       (out.act & MESH_ACT_UP) && out.next.reach == MESH_REACH_UP,
	       "a good round: up, the next round an interval (+-10 %%) "
	       "after this one started, not after it ended (%llu ms)",
	       (unsigned long long)((out.next.due - now) / MS));
	s = out.next;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_TIMER, s.due, &out);
	s = out.next;
	now = s.round_at;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_ROUND_DONE, now + 1500 * MS,
			&out);
	tap_ok(out.next.due == now + 1500 * MS && out.wait_ns == 0 &&
	       !(out.act & MESH_ACT_UP),
	       "a round longer than the interval: the next one at once, "
	       "no second UP");
	s = out.next;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_ROUND_DONE, s.due, &out);
	tap_ok(out.next.state == MESH_ST_WAIT && out.act == 0,
	       "a stale ROUND_DONE in wait is refused, nothing done");
}

/* ---- jitter and backoff ------------------------------------------------ */

static void test_jitter(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	uint64_t rng = 1, v, lo = ~0ull, hi = 0, sum = 0;
	unsigned int i, low_half = 0, n = 20000;

	for (i = 0; i < n; i++) {
		v = mesh_sched_jitter(&cfg, &rng, 1 * SEC);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		sum += v / 1000;
		low_half += v < 1 * SEC;
	}
	tap_ok(lo >= 900 * MS && hi <= 1100 * MS && lo < 905 * MS &&
	       hi > 1095 * MS,
	       "jitter 10 %%: waits within 0.9..1.1 s and reaching both ends "
	       "(%llu..%llu ms)", (unsigned long long)(lo / MS),
	       (unsigned long long)(hi / MS));
	tap_ok(sum / n > 995000 && sum / n < 1005000 &&
	       low_half > n * 45 / 100 && low_half < n * 55 / 100,
	       "jitter: mean %llu us, %u of %u below the interval",
	       (unsigned long long)(sum / n), low_half, n);
	cfg.jitter_pct = 0;
	tap_ok(mesh_sched_jitter(&cfg, &rng, 1 * SEC) == 1 * SEC,
	       "jitter 0: exactly the interval");
	cfg = base_cfg();
	cfg.jitter_pct = 50;
	lo = ~0ull;
	for (i = 0; i < n; i++) {
		v = mesh_sched_jitter(&cfg, &rng, 1 * SEC);
		lo = v < lo ? v : lo;
	}
	tap_ok(lo >= 500 * MS, "jitter 50 %%: never below half the interval");
}

static void test_backoff(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	static const unsigned int want[] = { 1, 1, 2, 4, 8, 16, 30, 30 };
	unsigned int i, ok = 1;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (mesh_sched_backoff(&cfg, i) != want[i] * SEC) {
			tap_diag("backoff after %u failures: %llu ms, want %u s",
				 i, (unsigned long long)
				 (mesh_sched_backoff(&cfg, i) / MS), want[i]);
			ok = 0;
		}
	tap_ok(ok, "backoff doubles from 1 s and stops at 30 s");
	tap_ok(mesh_sched_backoff(&cfg, 4000000000u) == 30 * SEC,
	       "backoff after billions of failures: the maximum, no overflow");
}

/* ---- a fleet over fake time -------------------------------------------- */

struct fake_peer {
	struct mesh_sched s;
	uint64_t done_at;		/* the fake peer answers then; 0: never */
	enum mesh_event done_ev;
	unsigned int connects, rounds, samples, ups, downs;
	uint64_t last_connect;
	uint64_t min_connect_gap;	/* between connect attempts */
};

struct fleet {
	struct mesh_sched_cfg cfg;
	struct mesh_budget b;
	struct fake_peer *p;
	unsigned int n;
	uint64_t now;
	bool (*reachable)(unsigned int i, uint64_t now);
	uint64_t bw_time;		/* link time used by samples */
	uint64_t bw_overrun;		/* a sample runs this much over */
	unsigned int overlap;		/* samples at once, at worst */
	unsigned int running;
	unsigned int refused;		/* steps refused: must stay 0 */
};

static bool always(unsigned int i, uint64_t now)
{
	return true;
}

static void fleet_init(struct fleet *f, unsigned int n,
		       const struct mesh_sched_cfg *cfg)
{
	unsigned int i;

	memset(f, 0, sizeof(*f));
	f->cfg = *cfg;
	f->n = n;
	f->p = calloc(n, sizeof(*f->p));
	f->reachable = always;
	mesh_budget_init(&f->b, cfg, 0);
	for (i = 0; i < n; i++) {
		mesh_sched_init(&f->p[i].s, 1000 + i);
		f->p[i].min_connect_gap = ~0ull;
	}
}

/* The fake driver: carry out the actions, as rdmad would. */
static void fleet_feed(struct fleet *f, unsigned int i, enum mesh_event ev)
{
	struct fake_peer *p = &f->p[i];
	struct mesh_step out;
	bool up = f->reachable(i, f->now);

	if (mesh_sched_step(&p->s, &f->cfg, &f->b, ev, f->now, &out)) {
		f->refused++;
		return;
	}
	if (p->s.state == MESH_ST_ROUND && p->s.bw &&
	    out.next.state != MESH_ST_ROUND)
		f->running--;
	p->s = out.next;
	p->done_at = 0;
	if (out.act & MESH_ACT_UP)
		p->ups++;
	if (out.act & MESH_ACT_DOWN)
		p->downs++;
	if (out.act & MESH_ACT_CONNECT) {
		if (p->connects && f->now - p->last_connect <
		    p->min_connect_gap)
			p->min_connect_gap = f->now - p->last_connect;
		p->connects++;
		p->last_connect = f->now;
		/* A dead peer never answers: the connect deadline ends it. */
		if (up) {
			p->done_at = f->now + 2 * MS;
			p->done_ev = MESH_EV_CONNECTED;
		}
	}
	if (out.act & MESH_ACT_ROUND) {
		uint64_t t = 200000;	/* 200 us */

		p->rounds++;
		if (out.act & MESH_ACT_BW) {
			t = f->cfg.bw_duration_ns + f->bw_overrun;
			p->samples++;
			f->bw_time += t;
			if (++f->running > f->overlap)
				f->overlap = f->running;
		}
		if (up) {
			p->done_at = f->now + t;
			p->done_ev = MESH_EV_ROUND_DONE;
		}
	}
}

/* Run until END: the earliest answer or timer of any peer, in turn. */
static void fleet_run(struct fleet *f, uint64_t end)
{
	unsigned int i, best;
	uint64_t t, best_t;
	bool answer;

	for (;;) {
		best = f->n;
		best_t = ~0ull;
		answer = false;
		for (i = 0; i < f->n; i++) {
			struct fake_peer *p = &f->p[i];

			if (p->done_at && p->done_at < best_t) {
				best = i;
				best_t = p->done_at;
				answer = true;
			}
			t = p->s.due;
			if (p->s.state != MESH_ST_IDLE && t < best_t) {
				best = i;
				best_t = t;
				answer = false;
			}
		}
		if (best == f->n || best_t > end)
			break;
		f->now = best_t > f->now ? best_t : f->now;
		fleet_feed(f, best, answer ? f->p[best].done_ev :
			   MESH_EV_TIMER);
	}
	f->now = end;
}

static void fleet_start(struct fleet *f)
{
	unsigned int i;

	for (i = 0; i < f->n; i++)
		fleet_feed(f, i, MESH_EV_START);
}

static void test_spread_and_cadence(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	unsigned int i, tenth[10] = { 0 }, worst = 0, best = ~0u;
	unsigned int min_r = ~0u, max_r = 0, total = 0;
	struct fleet f;

	fleet_init(&f, 1000, &cfg);
	fleet_start(&f);
	for (i = 0; i < f.n; i++)
		tenth[f.p[i].s.due * 10 / cfg.interval_ns]++;
	for (i = 0; i < 10; i++) {
		worst = tenth[i] > worst ? tenth[i] : worst;
		best = tenth[i] < best ? tenth[i] : best;
	}
	tap_ok(worst < 140 && best > 60,
	       "1000 peers started at once: first connects spread over the "
	       "interval (%u..%u per tenth)", best, worst);
	free(f.p);

	/* An hour of 100 of them (the fake driver scans every peer at each
	 * event: a thousand would take minutes under ASan). */
	fleet_init(&f, 100, &cfg);
	fleet_start(&f);
	fleet_run(&f, 3600 * SEC);
	for (i = 0; i < f.n; i++) {
		min_r = f.p[i].rounds < min_r ? f.p[i].rounds : min_r;
		max_r = f.p[i].rounds > max_r ? f.p[i].rounds : max_r;
		total += f.p[i].connects;
	}
	tap_ok(min_r >= 3570 && max_r <= 3630 && total == f.n && !f.refused,
	       "one hour at 1 s (+-10 %%): %u..%u rounds per peer, one "
	       "connect each (%u in all), nothing refused", min_r, max_r,
	       total);
	free(f.p);
}

/* Peers 0..9 are cut off between 100 s and 400 s. */
static bool partition(unsigned int i, uint64_t now)
{
	return i >= 10 || now < 100 * SEC || now >= 400 * SEC;
}

static void test_partition(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	unsigned int i, cut_down = 0, others_down = 0, back = 0;
	uint64_t gap = ~0ull;
	unsigned int connects_cut = 0;
	struct fleet f;

	fleet_init(&f, 50, &cfg);
	f.reachable = partition;
	fleet_start(&f);
	fleet_run(&f, 100 * SEC);
	fleet_run(&f, 100 * SEC + 3 * cfg.interval_ns);
	for (i = 0; i < f.n; i++) {
		if (i < 10)
			cut_down += f.p[i].s.reach == MESH_REACH_DOWN;
		else
			others_down += f.p[i].downs;
	}
	tap_ok(cut_down == 10 && others_down == 0,
	       "partition: all 10 cut-off peers down within 3 intervals "
	       "(%u), the 40 others never (%u)", cut_down, others_down);

	fleet_run(&f, 399 * SEC);
	for (i = 0; i < 10; i++) {
		connects_cut += f.p[i].connects;
		gap = f.p[i].min_connect_gap < gap ? f.p[i].min_connect_gap :
		      gap;
	}
	/* 299 s cut off: backoff 1, 2, 4, 8, 16, then 30 s waits (+-10 %),
	 * each after a 2 s connect deadline: about 14 attempts, not 150. */
	tap_ok(connects_cut >= 10 * 10 && connects_cut <= 10 * 17,
	       "while cut off: %u connect attempts by 10 peers in 299 s "
	       "(backoff, not a storm)", connects_cut);
	tap_ok(f.p[0].s.state == MESH_ST_BACKOFF ||
	       f.p[0].s.state == MESH_ST_CONNECTING,
	       "a cut-off peer is backing off (%s)",
	       mesh_state_name(f.p[0].s.state));

	fleet_run(&f, 440 * SEC);
	for (i = 0; i < 10; i++)
		back += f.p[i].s.reach == MESH_REACH_UP;
	tap_ok(back == 10, "healed: all 10 back up within one maximum "
	       "backoff (%u)", back);
	free(f.p);
}

static void test_backoff_reset(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	struct mesh_budget b;
	struct mesh_sched s;
	struct mesh_step out;
	uint64_t now = 10 * SEC;
	unsigned int i;

	mesh_budget_init(&b, &cfg, 0);
	mesh_sched_init(&s, 3);
	s.state = MESH_ST_CONNECTING;
	/* Accepted, then every round lost: the backoff keeps growing. */
	for (i = 0; i < 5; i++) {
		mesh_sched_step(&s, &cfg, &b, MESH_EV_CONNECTED, now, &out);
		s = out.next;
		mesh_sched_step(&s, &cfg, &b, MESH_EV_LOST, now, &out);
		s = out.next;
		mesh_sched_step(&s, &cfg, &b, MESH_EV_TIMER, s.due, &out);
		s = out.next;
	}
	tap_ok(s.fails == 5, "connects that lose every round keep backing "
	       "off (%u failures counted)", s.fails);
	mesh_sched_step(&s, &cfg, &b, MESH_EV_CONNECTED, now, &out);
	s = out.next;
	mesh_sched_feed(&s, &cfg, &b, MESH_EV_ROUND_DONE,
			RDMA_CLIENT_FAIL_MISMATCH, now, &out);
	s = out.next;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_LOST, now, &out);
	tap_ok(out.next.fails == 1 && out.wait_ns >= 900 * MS &&
	       out.wait_ns <= 1100 * MS,
	       "a completed round resets it: the next loss waits the minimum "
	       "(%llu ms)", (unsigned long long)(out.wait_ns / MS));
}

/* ---- the bandwidth budget ---------------------------------------------- */

static void test_budget(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	uint64_t hour = 3600 * SEC, allowed;
	unsigned int i, samples = 0, starved = 0;
	struct fleet f;

	/* 100 peers each wanting a sample every 60 s: 1.7 a second, far
	 * more than 1 % of the time allows (one 100 ms sample per 10 s). */
	cfg.bw_every_ns = 60 * SEC;
	fleet_init(&f, 100, &cfg);
	fleet_start(&f);
	fleet_run(&f, hour);
	for (i = 0; i < f.n; i++)
		samples += f.p[i].samples;
	allowed = hour / 1000000 * cfg.bw_share_ppm + cfg.bw_duration_ns;
	tap_ok(f.bw_time <= allowed && f.bw_time >= allowed * 95 / 100,
	       "budget 1 %%, demand 17 %%: samples used %llu ms of link time "
	       "in an hour (at most %llu)",
	       (unsigned long long)(f.bw_time / MS),
	       (unsigned long long)(allowed / MS));
	tap_ok(f.overlap == 1 && samples >= 350 && samples <= 361,
	       "one sample at a time (%u at worst), %u samples", f.overlap,
	       samples);

	/* A sample that runs 400 ms over is charged: fewer samples. */
	free(f.p);
	fleet_init(&f, 100, &cfg);
	f.bw_overrun = 400 * MS;
	fleet_start(&f);
	fleet_run(&f, hour);
	tap_ok(f.bw_time <= allowed + 500 * MS,
	       "overruns charged: %llu ms used with 500 ms samples (at most "
	       "%llu)", (unsigned long long)(f.bw_time / MS),
	       (unsigned long long)(allowed / MS));
	free(f.p);

	/* Budget ample (10 %, 20 peers, every 60 s): each gets its samples
	 * about every 60 s (+-10 %). */
	cfg.bw_share_ppm = 100000;
	fleet_init(&f, 20, &cfg);
	fleet_start(&f);
	fleet_run(&f, hour);
	for (i = 0; i < f.n; i++)
		starved += f.p[i].samples < 55 || f.p[i].samples > 67;
	tap_ok(!starved && f.overlap == 1,
	       "ample budget: every peer samples 55..67 times an hour "
	       "(peer 0: %u)", f.p[0].samples);
	free(f.p);

	/* All the time may go to samples (100 %), and each runs 400 ms over
	 * its plan (the budget alone would let a second one start): still
	 * one at a time. */
	cfg.bw_share_ppm = 1000000;
	cfg.bw_every_ns = 1 * SEC;
	fleet_init(&f, 50, &cfg);
	f.bw_overrun = 400 * MS;
	fleet_start(&f);
	fleet_run(&f, 600 * SEC);
	tap_ok(f.overlap == 1 && f.bw_time > 300 * SEC,
	       "share 100 %%: samples back to back (%llu s of 600), never two "
	       "at once (%u at worst)", (unsigned long long)(f.bw_time / SEC),
	       f.overlap);
	free(f.p);

	cfg.bw_every_ns = 0;
	fleet_init(&f, 20, &cfg);
	fleet_start(&f);
	fleet_run(&f, 600 * SEC);
	tap_ok(f.bw_time == 0, "bw_every 0: no samples at all");
	free(f.p);
}

/* Ten idle hours save no more than one sample. */
static void test_budget_burst(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	uint64_t now = 36000 * SEC;
	struct mesh_sched a, b;
	struct mesh_budget bud;
	struct mesh_step out;

	cfg.bw_every_ns = 60 * SEC;
	mesh_budget_init(&bud, &cfg, 0);
	mesh_sched_init(&a, 1);
	mesh_sched_init(&b, 2);
	a.state = b.state = MESH_ST_WAIT;
	a.bw_due = b.bw_due = 1;
	mesh_sched_step(&a, &cfg, &bud, MESH_EV_TIMER, now, &out);
	tap_ok(out.act & MESH_ACT_BW, "after ten idle hours a sample starts");
	a = out.next;
	now += cfg.bw_duration_ns;
	mesh_sched_step(&a, &cfg, &bud, MESH_EV_ROUND_DONE, now, &out);
	mesh_sched_step(&b, &cfg, &bud, MESH_EV_TIMER, now + 1, &out);
	tap_ok(!(out.act & MESH_ACT_BW) && (out.act & MESH_ACT_ROUND),
	       "but not a second one right after it: a plain round");
}

static void test_cfg_check(void)
{
	struct mesh_sched_cfg cfg = base_cfg();

	tap_ok(!mesh_sched_cfg_check(&cfg), "the defaults are valid");
	cfg.jitter_pct = 51;
	tap_ok(mesh_sched_cfg_check(&cfg) != NULL, "jitter over 50 %% refused");
	cfg = base_cfg();
	cfg.backoff_max_ns = cfg.backoff_min_ns - 1;
	tap_ok(mesh_sched_cfg_check(&cfg) != NULL,
	       "backoff maximum below its minimum refused");
	cfg = base_cfg();
	cfg.bw_every_ns = SEC;
	cfg.bw_share_ppm = 0;
	tap_ok(mesh_sched_cfg_check(&cfg) != NULL,
	       "samples without a share refused");
	cfg.bw_share_ppm = 1000001;
	tap_ok(mesh_sched_cfg_check(&cfg) != NULL, "a share over 100 %% refused");
}

static void test_names(void)
{
	tap_ok(!strcmp(mesh_state_name(MESH_ST_BACKOFF), "backoff") &&
	       !strcmp(mesh_event_name(MESH_EV_ROUND_DONE), "round-done") &&
	       !strcmp(mesh_reach_name(MESH_REACH_DOWN), "down") &&
	       !strcmp(mesh_state_name(MESH_ST__COUNT), "?"),
	       "names from the X-macro lists");
}

int main(void)
{
	test_table();
	test_timers();
	test_jitter();
	test_backoff();
	test_spread_and_cadence();
	test_partition();
	test_backoff_reset();
	test_budget();
	test_budget_burst();
	test_cfg_check();
	test_names();
	return tap_done();
}
