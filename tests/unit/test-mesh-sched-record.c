/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-mesh-sched-record.c - what mesh_sched decides besides when: what
 * the driver records of each step (rounds by class, sized or not,
 * samples, sessions, up -> down), the connect slots it holds in the
 * budget, samples reaching running paths when a reload turns them on,
 * and how long a sample describes its path.
 */
#include <string.h>

#include "mesh-sched-cfg.h"
#include "mesh/mesh_sched.h"
#include "tap.h"

/* Samples turned on by a reload reach paths already running. */
static void test_bw_reload(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	uint64_t now = 100 * SEC, end;
	struct mesh_budget bud;
	struct mesh_sched s;
	struct mesh_step out;
	unsigned int samples = 0;

	mesh_budget_init(&bud, &cfg, now);
	mesh_sched_init(&s, 9);
	mesh_sched_step(&s, &cfg, &bud, MESH_EV_START, now, &out);
	s = out.next;
	mesh_sched_step(&s, &cfg, &bud, MESH_EV_TIMER, s.due, &out);
	s = out.next;
	mesh_sched_step(&s, &cfg, &bud, MESH_EV_CONNECTED, s.due, &out);
	s = out.next;
	/* the reload: every 60 s, an ample share */
	cfg.bw_every_ns = 60 * SEC;
	cfg.bw_share_ppm = 1000000;
	now = s.round_at;
	end = now + 150 * SEC;
	while (now < end) {
		mesh_sched_step(&s, &cfg, &bud, MESH_EV_ROUND_DONE, now + MS,
				&out);
		s = out.next;
		now = s.due;
		mesh_sched_step(&s, &cfg, &bud, MESH_EV_TIMER, now, &out);
		samples += !!(out.act & MESH_ACT_BW);
		s = out.next;
	}
	tap_ok(samples >= 2 && samples <= 3, "bandwidth_every turned on by "
	       "reload: a running path samples (%u in 150 s at 60 s)",
	       samples);
	tap_ok(bud.took_ns == MS, "budget: the last sample's time is kept "
	       "(%llu ns, each ran 1 ms)", (unsigned long long)bud.took_ns);
}

/* A path's round from TIMER in "wait" at NOW, ended by EV at NOW + 1 ms:
 * the size it was started with; *OUT the record. */
static uint32_t round_of(struct mesh_sched *s, struct mesh_sched_cfg *cfg,
			 struct mesh_budget *b, enum mesh_event ev,
			 struct mesh_step *out)
{
	uint32_t size;

	mesh_sched_step(s, cfg, b, MESH_EV_TIMER, s->due, out);
	*s = out->next;
	size = out->act & MESH_ACT_BW ? 0 : out->size;
	mesh_sched_step(s, cfg, b, ev, s->round_at + MS, out);
	*s = out->next;
	return size;
}

/* The schedule says each round's size: the sizes in turn, a sample
 * taking a turn, a reload's sizes from the next round on. */
static void test_sizes(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	struct mesh_budget b;
	struct mesh_sched s;
	struct mesh_step out;
	uint32_t got[4];
	unsigned int i;

	cfg.sizes[2] = 65536;
	cfg.n_sizes = 3;
	mesh_budget_init(&b, &cfg, 0);
	mesh_sched_init(&s, 5);
	mesh_sched_step(&s, &cfg, &b, MESH_EV_START, 0, &out);
	s = out.next;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_TIMER, s.due, &out);
	s = out.next;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_CONNECTED, s.due, &out);
	tap_ok((out.act & MESH_ACT_ROUND) && out.size == 64 &&
	       out.next.slot == 0, "the first round: the first size");
	s = out.next;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_ROUND_DONE, s.round_at + MS,
			&out);
	tap_ok(out.rec.sized && out.rec.slot == 0 && out.rec.size == 64,
	       "its record: slot 0, 64 bytes");
	s = out.next;
	for (i = 0; i < 4; i++)
		got[i] = round_of(&s, &cfg, &b, MESH_EV_ROUND_DONE, &out);
	tap_ok(got[0] == 4096 && got[1] == 65536 && got[2] == 64 &&
	       got[3] == 4096 && out.rec.slot == 1 && out.rec.size == 4096,
	       "then each size in turn, round the list (%u %u %u %u)",
	       got[0], got[1], got[2], got[3]);
	/* a sample takes the next turn: the round after it skips 65536 */
	cfg.bw_every_ns = SEC;
	cfg.bw_share_ppm = 1000000;
	s.bw_due = 1;
	got[0] = round_of(&s, &cfg, &b, MESH_EV_ROUND_DONE, &out);
	tap_ok(got[0] == 0 && (out.rec.what & MESH_REC_SAMPLE) &&
	       !out.rec.sized, "a sample: no size of the list, no sized "
	       "record");
	cfg.bw_every_ns = 0;
	got[0] = round_of(&s, &cfg, &b, MESH_EV_ROUND_DONE, &out);
	tap_ok(got[0] == 64, "the round after the sample: the turn after "
	       "the one it took (%u)", got[0]);
	/* a reload to one size while a round of slot 1 is in flight */
	mesh_sched_step(&s, &cfg, &b, MESH_EV_TIMER, s.due, &out);
	s = out.next;
	cfg.n_sizes = 1;
	cfg.sizes[0] = 128;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_ROUND_DONE, s.round_at + MS,
			&out);
	s = out.next;
	tap_ok(!out.rec.sized && out.rec.slot == CONFIG_MESH_SIZES_MAX,
	       "its size gone by a reload: recorded without a size");
	got[0] = round_of(&s, &cfg, &b, MESH_EV_ROUND_DONE, &out);
	tap_ok(got[0] == 128 && out.rec.sized && out.rec.size == 128,
	       "the next round: the new size");
}

/* Run a path at S up to "wait" after a good round at *NOW. */
static void up_and_wait(struct mesh_sched *s, struct mesh_sched_cfg *cfg,
			struct mesh_budget *b, uint64_t *now)
{
	struct mesh_step out;

	mesh_sched_step(s, cfg, b, MESH_EV_TIMER, *now, &out);
	*s = out.next;
	mesh_sched_step(s, cfg, b, MESH_EV_CONNECTED, *now, &out);
	*s = out.next;
	mesh_sched_step(s, cfg, b, MESH_EV_ROUND_DONE, *now + MS, &out);
	*s = out.next;
	*now = s->due;
}

/*
 * Failures in a row before a path is down (down_after = N): how many of
 * N failures of an up path, lost rounds and failed reconnects mixed, it
 * takes to report DOWN (0: not within N + 1).
 */
static unsigned int fails_to_down(unsigned int n, enum mesh_reach *before)
{
	struct mesh_sched_cfg cfg = base_cfg();
	struct mesh_budget b;
	struct mesh_sched s;
	struct mesh_step out;
	uint64_t now = 10 * SEC;
	unsigned int i;

	cfg.down_after = n;
	mesh_budget_init(&b, &cfg, 0);
	mesh_sched_init(&s, 11);
	s.state = MESH_ST_BACKOFF;
	up_and_wait(&s, &cfg, &b, &now);
	/* a lost round first, then connects that fail */
	mesh_sched_step(&s, &cfg, &b, MESH_EV_TIMER, now, &out);
	s = out.next;
	for (i = 1; i <= n + 1; i++) {
		*before = s.reach;
		if (i == 1)
			mesh_sched_feed(&s, &cfg, &b, MESH_EV_LOST,
					RDMA_CLIENT_FAIL_COMPLETION,
					s.round_at + MS, &out);
		else
			mesh_sched_feed(&s, &cfg, &b, MESH_EV_CONNECT_FAILED,
					RDMA_CLIENT_FAIL_REJECTED, s.due, &out);
		if (out.next.state != MESH_ST_BACKOFF ||
		    !(out.rec.what & MESH_REC_ROUND))
			return 0;
		if (out.act & MESH_ACT_DOWN)
			return (out.rec.what & MESH_REC_DOWN) &&
			       out.next.reach == MESH_REACH_DOWN ? i : 0;
		if (out.rec.what & MESH_REC_DOWN)
			return 0;
		s = out.next;
		mesh_sched_step(&s, &cfg, &b, MESH_EV_TIMER, s.due, &out);
		s = out.next;
	}
	return 0;
}

/* The count of failures is the schedule's: [mesh] down_after at its
 * bounds (1, max - 1, max), a good round resets it, a path never up stays
 * unknown until then. */
static void test_down_after(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	enum mesh_reach before = MESH_REACH_UNKNOWN;
	unsigned int n, got;
	struct mesh_budget b;
	struct mesh_sched s;
	struct mesh_step out;
	uint64_t now = 10 * SEC;

	got = fails_to_down(1, &before);
	tap_ok(got == 1, "down_after 1: down at the first failure (%u)", got);
	n = CONFIG_MESH_DOWN_AFTER_MAX - 1;
	got = fails_to_down(n, &before);
	tap_ok(got == n && before == MESH_REACH_UP, "down_after %u: up "
	       "through %u failures, down at the %uth (%u)", n, n - 1, n, got);
	n = CONFIG_MESH_DOWN_AFTER_MAX;
	got = fails_to_down(n, &before);
	tap_ok(got == n, "down_after %u: down at the %uth (%u)", n, n, got);
	got = fails_to_down(3, &before);
	tap_ok(got == 3, "down_after 3: down at the third (%u)", got);

	/* two failures, a good round, two more: never three in a row */
	cfg.down_after = 3;
	mesh_budget_init(&b, &cfg, 0);
	mesh_sched_init(&s, 12);
	s.state = MESH_ST_BACKOFF;
	up_and_wait(&s, &cfg, &b, &now);
	for (n = 0, got = 0; n < 2; n++) {
		mesh_sched_step(&s, &cfg, &b, MESH_EV_TIMER, now, &out);
		s = out.next;
		mesh_sched_step(&s, &cfg, &b, MESH_EV_TIMER, s.due, &out);
		got |= out.act & MESH_ACT_DOWN;	/* the round timed out */
		s = out.next;
		now = s.due;
		if (n == 0)
			up_and_wait(&s, &cfg, &b, &now);
	}
	tap_ok(!got && s.reach == MESH_REACH_UP && s.fails == 1,
	       "down_after 3: a good round between failures resets the count "
	       "(%u in a row)", s.fails);

	/* never up: unknown until down_after connects failed */
	mesh_sched_init(&s, 13);
	s.state = MESH_ST_BACKOFF;
	for (n = 1; n <= 3; n++) {
		mesh_sched_step(&s, &cfg, &b, MESH_EV_TIMER, now, &out);
		s = out.next;
		mesh_sched_step(&s, &cfg, &b, MESH_EV_CONNECT_FAILED, now,
				&out);
		if (n < 3 && out.next.reach != MESH_REACH_UNKNOWN)
			break;
		s = out.next;
		now = s.due;
	}
	tap_ok(n == 4 && s.reach == MESH_REACH_DOWN &&
	       (out.act & MESH_ACT_DOWN) && !(out.rec.what & MESH_REC_DOWN),
	       "never up: unknown through 2 failed connects, down at the "
	       "third (not from up: no up -> down recorded)");
}

/* The kind of the path's error text is the schedule's. */
static void test_error_kinds(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	struct mesh_budget b;
	struct mesh_sched s, up;
	struct mesh_step out;
	uint64_t now = 10 * SEC;
	unsigned int bad = 0;

	mesh_budget_init(&b, &cfg, 0);
	mesh_sched_init(&s, 21);
#define KIND(ev, fail, want) do {					\
		mesh_sched_feed(&s, &cfg, &b, MESH_EV_##ev,		\
				RDMA_CLIENT_FAIL_##fail, now, &out);	\
		if (out.rec.error != MESH_ERROR_##want) {		\
			tap_diag("%s in %s: error kind %d, want %s",	\
				 #ev, mesh_state_name(s.state),		\
				 out.rec.error, #want);			\
			bad++;						\
		}							\
		s = out.next;						\
	} while (0)
	KIND(START, NONE, CLEAR);
	KIND(TIMER, NONE, KEEP);		/* connecting */
	KIND(TIMER, NONE, CONNECT_TIMEOUT);	/* its deadline */
	KIND(TIMER, NONE, KEEP);
	KIND(CONNECT_FAILED, KEY, KEY);
	KIND(TIMER, NONE, KEEP);
	KIND(CONNECT_FAILED, REJECTED, FAILED);
	KIND(TIMER, NONE, KEEP);
	KIND(CONNECTED, NONE, KEEP);
	KIND(ROUND_DONE, MISMATCH, CLEAR);	/* up: its line, then none */
	up = s;
	KIND(TIMER, NONE, KEEP);
	KIND(ROUND_DONE, MISMATCH, MISMATCH);
	KIND(TIMER, NONE, KEEP);
	KIND(ROUND_DONE, NONE, KEEP);
	KIND(TIMER, NONE, KEEP);
	KIND(TIMER, NONE, ROUND_TIMEOUT);	/* the round's deadline */
	s = up;
	KIND(LOST, NONE, FAILED);		/* between rounds */
#undef KIND
	tap_ok(!bad, "error text kinds: cleared at start and up, each "
	       "deadline, a key, the client's words, a mismatch");
}

/* What each step tells the driver to record. */
static void test_records(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	struct mesh_budget b;
	struct mesh_sched s;
	struct mesh_step out;
	uint64_t now = 10 * SEC;
	bool ok = true;

	mesh_budget_init(&b, &cfg, 0);
	mesh_sched_init(&s, 3);
	s.state = MESH_ST_CONNECTING;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_TIMER, now, &out);
	ok &= out.rec.what == MESH_REC_ROUND &&
	      out.rec.result == MESH_RES_TIMEOUT && !out.rec.sized;
	mesh_sched_feed(&s, &cfg, &b, MESH_EV_CONNECT_FAILED,
			RDMA_CLIENT_FAIL_REJECTED, now, &out);
	ok &= out.rec.what == MESH_REC_ROUND &&
	      out.rec.result == MESH_RES_REFUSED && !out.rec.sized;
	tap_ok(ok, "a connect timed out or refused: a round of that class, "
	       "of no size");
	mesh_sched_step(&s, &cfg, &b, MESH_EV_CONNECTED, now, &out);
	tap_ok(out.rec.what == MESH_REC_CONNECTED, "connected: a session");
	s = out.next;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_ROUND_DONE, now, &out);
	tap_ok(out.rec.what == MESH_REC_ROUND && out.rec.sized &&
	       out.rec.result == MESH_RES_OK, "a good round: ok, sized");
	mesh_sched_feed(&s, &cfg, &b, MESH_EV_ROUND_DONE,
			RDMA_CLIENT_FAIL_MISMATCH, now, &out);
	tap_ok(out.rec.what == MESH_REC_ROUND && out.rec.sized &&
	       out.rec.result == MESH_RES_MISMATCH, "a bad round: mismatch");
	mesh_sched_feed(&s, &cfg, &b, MESH_EV_LOST, RDMA_CLIENT_FAIL_NONE,
			now, &out);
	tap_ok(out.rec.what == MESH_REC_ROUND && out.rec.sized &&
	       out.rec.result == MESH_RES_COMPLETION_ERROR,
	       "lost in a round without a failure: a completion error");
	mesh_sched_feed(&s, &cfg, &b, MESH_EV_LOST, RDMA_CLIENT_FAIL_KEY,
			now, &out);
	tap_ok(out.rec.what == MESH_REC_ROUND &&
	       out.rec.result == MESH_RES_AUTH_FAILED,
	       "lost in a round: a round of the loss's class");
	s.bw = true;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_ROUND_DONE, now, &out);
	ok = out.rec.what == (MESH_REC_ROUND | MESH_REC_SAMPLE) &&
	     out.rec.result == MESH_RES_OK && !out.rec.sized;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_TIMER, now, &out);
	tap_ok(ok && out.rec.what == (MESH_REC_ROUND | MESH_REC_SAMPLE) &&
	       out.rec.result == MESH_RES_TIMEOUT, "a sample good or timed "
	       "out: a round either way, marked a sample");
	s.bw = false;
	s.state = MESH_ST_WAIT;
	s.reach = MESH_REACH_UP;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_LOST, now, &out);
	tap_ok(out.rec.what == MESH_REC_DOWN, "lost between rounds: no "
	       "round; up -> down is recorded");
	s.reach = MESH_REACH_UNKNOWN;
	mesh_sched_step(&s, &cfg, &b, MESH_EV_LOST, now, &out);
	tap_ok(out.rec.what == 0 && (out.act & MESH_ACT_DOWN),
	       "never up: down reported, no up -> down recorded");
}

/* The connect budget is the schedule's: queued, then a slot. */
static void test_connect_slots(void)
{
	struct mesh_sched_cfg cfg = base_cfg();
	struct mesh_budget b;
	struct mesh_sched p[3];
	struct mesh_step out;
	uint64_t now = 10 * SEC;
	unsigned int i;

	cfg.connects_max = 2;
	mesh_budget_init(&b, &cfg, 0);
	for (i = 0; i < 3; i++) {
		mesh_sched_init(&p[i], i);
		p[i].state = MESH_ST_PENDING;
		mesh_sched_step(&p[i], &cfg, &b, MESH_EV_TIMER, now, &out);
		p[i] = out.next;
	}
	tap_ok(p[0].state == MESH_ST_CONNECTING &&
	       p[1].state == MESH_ST_CONNECTING &&
	       p[2].state == MESH_ST_PENDING && out.act == MESH_ACT_QUEUE &&
	       b.connecting == 2, "two slots: the third path is queued");
	mesh_sched_step(&p[0], &cfg, &b, MESH_EV_CONNECTED, now, &out);
	p[0] = out.next;
	tap_ok((out.act & MESH_ACT_SLOT) && b.connecting == 1,
	       "a connect that ends frees its slot");
	mesh_sched_step(&p[2], &cfg, &b, MESH_EV_TIMER, now, &out);
	p[2] = out.next;
	tap_ok(p[2].state == MESH_ST_CONNECTING && b.connecting == 2,
	       "the queued path connects");
	mesh_sched_step(&p[1], &cfg, &b, MESH_EV_STOP, now, &out);
	mesh_sched_step(&p[2], &cfg, &b, MESH_EV_TIMER, now, &out);
	tap_ok(b.connecting == 0, "stopped and timed out: no slot held");
}

/* How long a bandwidth sample describes its path. */
static void test_bw_max_age(void)
{
	struct mesh_sched_cfg cfg = base_cfg();

	cfg.bw_every_ns = 60 * SEC;
	cfg.bw_duration_ns = 200 * MS;
	cfg.bw_share_ppm = 10000;	/* 1 %: one sample per 20 s */
	tap_ok(mesh_sched_bw_max_age(&cfg, 2, 0) == 180 * SEC + 200 * MS,
	       "bw age: 2 paths, every 60 s: three periods");
	tap_ok(mesh_sched_bw_max_age(&cfg, 100, 0) == 6000 * SEC + 200 * MS,
	       "bw age: 100 paths at 1 %%: a sample each 2000 s, three of them");
	tap_ok(mesh_sched_bw_max_age(&cfg, 2, 200 * MS) == 180 * SEC + 200 * MS,
	       "bw age: a sample that ran its planned time: the same");
	tap_ok(mesh_sched_bw_max_age(&cfg, 2, 199 * MS) == 180 * SEC + 200 * MS,
	       "bw age: a shorter one costs the planned time");
	tap_ok(mesh_sched_bw_max_age(&cfg, 2, 201 * MS) == 180 * SEC + 201 * MS,
	       "bw age: 1 ms over: 2 x 20.1 s is still under 60 s: three periods and 201 ms");
	tap_ok(mesh_sched_bw_max_age(&cfg, 2, 2 * SEC) == 3 * 400 * SEC + 2 * SEC,
	       "bw age: a starved 2 s sample: each path one per 400 s at 1 %%, three of them");
	cfg.bw_every_ns = 0;
	tap_ok(mesh_sched_bw_max_age(&cfg, 2, 0) == 0, "bw age: samples off: 0");
	cfg.bw_every_ns = 60 * SEC;
	{
		struct mesh_budget b;

		mesh_budget_init(&b, &cfg, 0);
		tap_ok(b.took_ns == 0, "budget: no sample yet");
	}
}

int main(void)
{
	test_bw_reload();
	test_records();
	test_sizes();
	test_down_after();
	test_error_kinds();
	test_connect_slots();
	test_bw_max_age();
	return tap_done();
}
