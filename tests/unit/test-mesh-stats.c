/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-mesh-stats.c - mesh_stats.c: counts by result and size, the
 * histogram's bounds, the window's p50/p99 (nearest rank) and loss as it
 * rolls over, the per-size windows of the heatmap (by slot, over paths,
 * mismatches, reset on a sizes change), bandwidth samples; a rail's
 * counts, the compact
 * classes, a peer's pooled window; loss that is recent (failed rounds at
 * start leave the windows as good ones, pressured or not, come in) and
 * the windows' marks never taken for a latency.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_stats.h"
#include "tap.h"

#define US	1000ull
#define MS	1000000ull
#define S	1000000000ull

static void test_bounds(void)
{
	static const uint64_t want[MESH_HIST_BUCKETS] = {
		25 * US, 50 * US, 100 * US, 250 * US, 500 * US, 1 * MS,
		2500 * US, 5 * MS, 10 * MS, 25 * MS, 100 * MS, 1 * S,
	};
	struct mesh_hist h;
	unsigned int i;
	int ok = 1;

	tap_ok(!memcmp(mesh_hist_bounds_ns, want, sizeof(want)),
	       "hist: bounds 25us .. 1s as documented");
	/* a bound itself falls in its bucket (le), one more in the next */
	for (i = 0; i < MESH_HIST_BUCKETS; i++) {
		memset(&h, 0, sizeof(h));
		mesh_hist_add(&h, want[i]);
		mesh_hist_add(&h, want[i] + 1);
		if (h.bucket[i] != 1 || h.bucket[i + 1] != 1 || h.count != 2 ||
		    h.sum_ns != 2 * want[i] + 1) {
			tap_diag("bound %u", i);
			ok = 0;
		}
	}
	tap_ok(ok, "hist: a bound is in its bucket, one ns more in the next");
	memset(&h, 0, sizeof(h));
	mesh_hist_add(&h, 0);
	mesh_hist_add(&h, 60 * S);
	tap_ok(h.bucket[0] == 1 && h.bucket[MESH_HIST_BUCKETS] == 1,
	       "hist: 0 in the first bucket, a minute in +Inf");
}

static void test_rounds(void)
{
	struct mesh_path_stats s;

	mesh_stats_init(&s);
	tap_ok(!s.have_last && s.last == MESH_RES_OK && !s.w_n &&
	       !s.bw_samples, "init: nothing seen, last ok");
	mesh_stats_round(&s, 0, 64, MESH_RES_OK, 30 * US, 0, 100);
	mesh_stats_round(&s, 1, 1100, MESH_RES_OK, 40 * US, 0, 200);
	mesh_stats_round(&s, 2, 4096, MESH_RES_MISMATCH, 0, 40, 300);
	tap_ok(s.rounds[MESH_RES_OK] == 2 && s.rounds[MESH_RES_MISMATCH] == 1,
	       "rounds: counted by result");
	tap_ok(s.size_rounds[0] == 1 && s.size_rounds[1] == 1 &&
	       s.size_rounds[2] == 1 && s.size_failed[0] == 0 &&
	       s.size_failed[1] == 0 && s.size_failed[2] == 1,
	       "rounds: by size slot, failures by size slot");
	tap_ok(s.rtt.count == 2 && s.rtt.sum_ns == 70 * US &&
	       s.rtt.bucket[1] == 2,
	       "rounds: only good rounds in the latency histogram");
	tap_ok(s.have_last && s.last == MESH_RES_MISMATCH && s.last_at == 300 &&
	       s.last_size == 4096 && s.last_bad_offset == 40,
	       "rounds: the last one, its size and the mismatch offset");
	mesh_stats_round(&s, 3, 65536, MESH_RES_TIMEOUT, 0, 99, 400);
	tap_ok(s.last == MESH_RES_TIMEOUT && s.last_bad_offset == 0 &&
	       s.size_failed[3] == 1 && mesh_stats_failed(&s) == 2,
	       "rounds: an offset only with a mismatch");
	mesh_stats_round(&s, CONFIG_MESH_SIZES_MAX, 8, MESH_RES_OK, 1, 0, 500);
	tap_ok(s.rounds[MESH_RES_OK] == 3,
	       "rounds: a slot out of range counts the round, not the size");
	mesh_stats_connected(&s);
	mesh_stats_connected(&s);
	mesh_stats_down(&s);
	tap_ok(s.connects == 2 && s.downs == 1, "connects and downs counted");
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * p50 and p99 picked without sorting the window equal the sorted
 * window's nearest ranks: every fill from 1 to 128 values, values drawn
 * from a few (many equal ones) and from many, in 4,000 windows.
 */
static void test_window_ranks(void)
{
	uint64_t rng = 12345, sorted[MESH_WINDOW];
	unsigned int trial, i, n, bad = 0, spread;
	struct mesh_path_stats s;
	struct mesh_window_sum w;

	for (trial = 0; trial < 4000; trial++) {
		n = trial % MESH_WINDOW + 1;
		spread = trial % 3 == 0 ? 3 : trial % 3 == 1 ? 50 : 1000000;
		mesh_stats_init(&s);
		for (i = 0; i < n; i++) {
			rng = rng * 6364136223846793005ull + 1442695040888963407ull;
			s.window[i] = (rng >> 33) % spread + 1;
			sorted[i] = s.window[i];
		}
		s.w_n = n;
		qsort(sorted, n, sizeof(*sorted), cmp_u64);
		mesh_stats_window(&s, &w);
		if (w.p50_ns != sorted[(50 * n + 99) / 100 - 1] ||
		    w.p99_ns != sorted[(99 * n + 99) / 100 - 1]) {
			if (!bad)
				tap_diag("window of %u (spread %u): p50 %llu p99 "
					 "%llu, sorted: %llu %llu", n, spread,
					 (unsigned long long)w.p50_ns,
					 (unsigned long long)w.p99_ns,
					 (unsigned long long)
					 sorted[(50 * n + 99) / 100 - 1],
					 (unsigned long long)
					 sorted[(99 * n + 99) / 100 - 1]);
			bad++;
		}
	}
	tap_ok(!bad, "window ranks by selection equal the sorted ranks "
	       "(%u of 4000 windows differ)", bad);
}

static void test_window(void)
{
	struct mesh_path_stats s;
	struct mesh_window_sum w;
	unsigned int i;

	mesh_stats_init(&s);
	mesh_stats_window(&s, &w);
	tap_ok(!w.n && !w.failed && !w.p50_ns && !w.p99_ns,
	       "window: empty at first");
	/* 1..100 us in a shuffled order, then 2 failures */
	for (i = 0; i < 100; i++)
		mesh_stats_round(&s, 0, 64, MESH_RES_OK,
				 ((i * 37) % 100 + 1) * US, 0, i);
	mesh_stats_round(&s, 0, 64, MESH_RES_TIMEOUT, 0, 0, 100);
	mesh_stats_round(&s, 0, 64, MESH_RES_COMPLETION_ERROR, 0, 0, 101);
	mesh_stats_window(&s, &w);
	tap_ok(w.n == 102 && w.failed == 2,
	       "window: 102 rounds, 2 failed (loss = failed / n)");
	tap_ok(w.p50_ns == 50 * US && w.p99_ns == 99 * US,
	       "window: nearest-rank p50 50us, p99 99us of 1..100us "
	       "(got %llu, %llu)", (unsigned long long)w.p50_ns,
	       (unsigned long long)w.p99_ns);
	/* roll over: 128 failures push every good round out */
	for (i = 0; i < MESH_WINDOW; i++)
		mesh_stats_round(&s, 0, 64, MESH_RES_UNREACHABLE, 0, 0, 200 + i);
	mesh_stats_window(&s, &w);
	tap_ok(w.n == MESH_WINDOW && w.failed == MESH_WINDOW &&
	       !w.p50_ns && !w.p99_ns,
	       "window: rolls over, keeps the last %u rounds only",
	       MESH_WINDOW);
	/* one good round of 0 ns is still good, not a failure */
	mesh_stats_round(&s, 0, 64, MESH_RES_OK, 0, 0, 400);
	mesh_stats_window(&s, &w);
	tap_ok(w.n == MESH_WINDOW && w.failed == MESH_WINDOW - 1 &&
	       w.p50_ns == 1 && w.p99_ns == 1,
	       "window: a 0 ns good round counts as good");
	mesh_stats_init(&s);
	mesh_stats_round(&s, 0, 64, MESH_RES_OK, 7 * US, 0, 1);
	mesh_stats_window(&s, &w);
	tap_ok(w.n == 1 && w.p50_ns == 7 * US && w.p99_ns == 7 * US,
	       "window: one round is its own p50 and p99");
	mesh_stats_round(&s, 0, 64, MESH_RES_OK, 9 * US, 0, 2);
	mesh_stats_window(&s, &w);
	tap_ok(w.p50_ns == 7 * US && w.p99_ns == 9 * US,
	       "window: two rounds: p50 the lower, p99 the higher");
}

static void test_size_window(void)
{
	struct mesh_path_stats s, t;
	struct mesh_view_peer p = { .name = "h:1", .n_paths = 1 };
	struct mesh_window_sum w;
	unsigned int i;

	tap_ok(sizeof(s.sw) <= 1100, "size windows: %zu bytes a path",
	       sizeof(s.sw));
	mesh_stats_init(&s);
	mesh_stats_init(&t);
	p.path[0] = (struct mesh_view_path){ .state = MESH_ST_WAIT,
		.reach = MESH_REACH_UP, .st = &s,
		.error = "", .bw_stale = false };
	mesh_stats_size_sum(&p, 0, &w);
	tap_ok(!w.n && !w.failed && !w.mismatched && !w.p99_ns,
	       "size windows: empty at first");
	/* slot 0: 1..40 us (and 999 ns: whole us); slot 1: 2 timeouts, a mismatch, 5 ms */
	for (i = 0; i < 40; i++)
		mesh_stats_round(&s, 0, 64, MESH_RES_OK,
				 (i + 1) * US + 999, 0, i);
	mesh_stats_round(&s, 1, 65536, MESH_RES_TIMEOUT, 0, 0, 50);
	mesh_stats_round(&s, 1, 65536, MESH_RES_MISMATCH, 0, 8, 51);
	mesh_stats_round(&s, 1, 65536, MESH_RES_TIMEOUT, 0, 0, 52);
	mesh_stats_round(&s, 1, 65536, MESH_RES_OK, 5 * MS, 0, 53);
	/* a failed connect has no size: in no size window */
	mesh_stats_round(&s, CONFIG_MESH_SIZES_MAX, 0, MESH_RES_UNREACHABLE,
			 0, 0, 54);
	mesh_stats_size_sum(&p, 0, &w);
	tap_ok(w.n == MESH_SIZE_WINDOW && !w.failed &&
	       w.p50_ns == 24 * US && w.p99_ns == 40 * US,
	       "size windows: the last %u rounds of slot 0 (9..40 us): p50 "
	       "24us, p99 40us, in whole us (got %llu, %llu)",
	       MESH_SIZE_WINDOW, (unsigned long long)w.p50_ns,
	       (unsigned long long)w.p99_ns);
	mesh_stats_size_sum(&p, 1, &w);
	tap_ok(w.n == 4 && w.failed == 3 && w.mismatched == 1 &&
	       w.p50_ns == 5 * MS && w.p99_ns == 5 * MS,
	       "size windows: slot 1: 4 rounds, 3 failed, 1 mismatch, 5 ms");
	mesh_stats_size_sum(&p, 2, &w);
	tap_ok(!w.n, "size windows: slot 2 saw nothing");
	mesh_stats_size_sum(&p, CONFIG_MESH_SIZES_MAX, &w);
	tap_ok(w.n == 36 && w.failed == 3 && w.mismatched == 1 &&
	       w.p99_ns == 5 * MS, "size windows: all sizes together");
	/* a second path: its rounds join the peer's cells */
	mesh_stats_round(&t, 1, 65536, MESH_RES_OK, 7 * MS, 0, 60);
	mesh_stats_round(&t, 1, 65536, MESH_RES_MISMATCH, 0, 0, 61);
	p.path[1] = (struct mesh_view_path){ .state = MESH_ST_WAIT,
		.reach = MESH_REACH_DOWN, .st = &t,
		.error = "", .bw_stale = false };
	p.n_paths = 2;
	mesh_stats_size_sum(&p, 1, &w);
	tap_ok(w.n == 6 && w.failed == 4 && w.mismatched == 2 &&
	       w.p50_ns == 5 * MS && w.p99_ns == 7 * MS,
	       "size windows: a peer's paths together");
	/* 0 ns good is 1 us, not a failure; an hour fits */
	mesh_stats_init(&t);
	mesh_stats_round(&t, 3, 8, MESH_RES_OK, 0, 0, 1);
	mesh_stats_round(&t, 3, 8, MESH_RES_OK, 3600 * S, 0, 2);
	p.n_paths = 1;
	p.path[0].st = &t;
	mesh_stats_size_sum(&p, 3, &w);
	tap_ok(w.n == 2 && !w.failed && w.p50_ns == 1 * US &&
	       w.p99_ns == 3600 * S, "size windows: 0 ns is 1 us, an hour "
	       "fits");
	mesh_stats_sizes_reset(&s);
	p.path[0].st = &s;
	mesh_stats_size_sum(&p, CONFIG_MESH_SIZES_MAX, &w);
	tap_ok(!w.n && s.w_n == 45, "size windows: a sizes change empties "
	       "them (the all-sizes window stays)");
}

/* Sizes changed by a reload: the sizes that stay keep their counters. */
static void test_sizes_remap(void)
{
	static const uint32_t old[] = { 64, 1100, 4096 };
	static const uint32_t next[] = { 4096, 64, 512 };
	struct mesh_path_stats s;

	mesh_stats_init(&s);
	mesh_stats_round(&s, 0, 64, MESH_RES_TIMEOUT, 0, 0, 1);
	mesh_stats_round(&s, 0, 64, MESH_RES_OK, 10 * US, 0, 2);
	mesh_stats_round(&s, 1, 1100, MESH_RES_TIMEOUT, 0, 0, 3);
	mesh_stats_round(&s, 2, 4096, MESH_RES_OK, 20 * US, 0, 4);
	mesh_stats_sizes_remap(&s, old, 3, next, 3);
	tap_ok(s.size_rounds[1] == 2 && s.size_failed[1] == 1 &&
	       s.sw[1].n == 2 && s.size_rounds[0] == 1 &&
	       !s.size_failed[0] && s.sw[0].us[0] == 20 &&
	       !s.size_rounds[2] && !s.size_failed[2] && !s.sw[2].n,
	       "sizes 64 1100 4096 -> 4096 64 512: 64 and 4096 keep their "
	       "counters in their new slots, 512 starts at 0");
}

static void test_bw(void)
{
	struct mesh_path_stats s;

	mesh_stats_init(&s);
	mesh_stats_bw(&s, 1250000000ull, S, 77);
	tap_ok(s.bw_bytes_per_s == 1250000000ull && s.bw_at == 77 &&
	       s.bw_samples == 1, "bw: 1.25 GB in 1 s");
	mesh_stats_bw(&s, 64ull << 30, 200 * MS, 88);
	tap_ok(s.bw_bytes_per_s == 343597383680ull && s.bw_samples == 2,
	       "bw: 64 GiB in 200 ms does not overflow (%llu)",
	       (unsigned long long)s.bw_bytes_per_s);
	mesh_stats_bw(&s, 1000, 0, 99);
	tap_ok(s.bw_samples == 2 && s.bw_at == 88,
	       "bw: a sample of no time is ignored");
}

static void test_paths_up(void)
{
	struct mesh_path_stats s;
	struct mesh_view_peer p = { .name = "h:1", .n_paths = 3 };

	mesh_stats_init(&s);
	p.path[0] = (struct mesh_view_path){ .state = MESH_ST_WAIT,
		.reach = MESH_REACH_UP, .st = &s,
		.error = "", .bw_stale = false };
	p.path[1] = (struct mesh_view_path){ .state = MESH_ST_BACKOFF,
		.reach = MESH_REACH_DOWN, .st = &s,
		.error = "", .bw_stale = false };
	p.path[2] = (struct mesh_view_path){ .state = MESH_ST_ROUND,
		.reach = MESH_REACH_UP, .st = &s,
		.error = "", .bw_stale = false };
	p.path[3] = p.path[0];		/* past n_paths: not counted */
	tap_ok(mesh_stats_paths_up(&p) == 2, "paths up: up ones of n_paths");
	p.path[0].reach = MESH_REACH_UNKNOWN;
	p.path[2].reach = MESH_REACH_DOWN;
	tap_ok(mesh_stats_paths_up(&p) == 0, "paths up: unknown is not up");
}

/* A bandwidth sample is no round, whichever way it ends: the ok rounds
 * stay the histogram's (a failed sample counted as a round, a good one
 * did not). */
static void test_sample_round(void)
{
	struct mesh_path_stats s;
	unsigned int r;
	uint64_t n = 0;

	mesh_stats_init(&s);
	mesh_stats_sample(&s, MESH_RES_OK, 1000000, 1000000, 5 * S);
	tap_ok(!s.rounds[MESH_RES_OK] && s.bw_samples == 1 &&
	       s.bw_bytes_per_s == 1000000000ull && !s.rtt.count &&
	       !s.w_n, "a good sample: its figures, no round, no latency");
	mesh_stats_sample(&s, MESH_RES_TIMEOUT, 0, 0, 6 * S);
	for (r = 0; r < MESH_RES_N; r++)
		n += s.rounds[r];
	tap_ok(!n && s.bw_samples == 1 && s.last == MESH_RES_TIMEOUT &&
	       !s.w_n, "a failed sample: no round either, its result the "
	       "last one");
}

/* A stale bandwidth figure leaves the view; the statistics stay as
 * they are (a scrape reads, never writes). */
static void test_bw_age(void)
{
	struct mesh_path_stats s;
	struct mesh_view_path vp = { .state = MESH_ST_WAIT,
		.reach = MESH_REACH_UP, .st = &s,
		.error = "", .bw_stale = false };

	mesh_stats_init(&s);
	tap_ok(mesh_stats_bw_stale(&s, 0, 30 * S) && !mesh_view_bw(&vp),
	       "bw age: no sample: none to show");
	mesh_stats_bw(&s, 1000000, 1000000, 10 * S);
	vp.bw_stale = mesh_stats_bw_stale(&s, 40 * S, 30 * S);
	tap_ok(!vp.bw_stale && mesh_view_bw(&vp) == 1000000000ull,
	       "bw age: a sample 30 s old, 30 s allowed: shown");
	vp.bw_stale = mesh_stats_bw_stale(&s, 40 * S + 1, 30 * S);
	tap_ok(vp.bw_stale && !mesh_view_bw(&vp) && s.bw_at == 10 * S &&
	       s.bw_bytes_per_s == 1000000000ull && s.bw_samples == 1,
	       "bw age: 1 ns older: left out of the view, the statistics "
	       "unchanged");
	tap_ok(mesh_stats_bw_stale(&s, 10 * S, 0),
	       "bw age: samples turned off: none is current");
}

/* A rail counts the rounds of every path pointed at it, as they come. */
static void test_rail(void)
{
	struct mesh_rail_stats rail;
	struct mesh_path_stats a, b, none;
	unsigned int r, ok = 1;

	memset(&rail, 0, sizeof(rail));
	mesh_stats_init(&a);
	mesh_stats_init(&b);
	mesh_stats_init(&none);
	tap_ok(!a.rail, "rail: a path counts in none until pointed at one");
	a.rail = b.rail = &rail;
	mesh_stats_round(&a, 0, 64, MESH_RES_OK, 30 * US, 0, 1);
	mesh_stats_round(&b, 0, 64, MESH_RES_OK, 2 * MS, 0, 1);
	mesh_stats_round(&b, 1, 1100, MESH_RES_MISMATCH, 0, 8, 2);
	mesh_stats_round(&a, 0, 64, (enum mesh_result)99, 0, 0, 3);
	mesh_stats_round(&none, 0, 64, MESH_RES_OK, 1 * MS, 0, 1);
	tap_ok(rail.rounds[MESH_RES_OK] == 2 &&
	       rail.rounds[MESH_RES_MISMATCH] == 1 &&
	       rail.rounds[MESH_RES_LOCAL_ERROR] == 1 &&
	       rail.rtt.count == 2 && rail.rtt.sum_ns == 2 * MS + 30 * US &&
	       a.rounds[MESH_RES_OK] == 1 && b.rounds[MESH_RES_OK] == 1,
	       "rail: both paths' rounds, the ok ones in its histogram, an "
	       "unknown class as local-error, a path pointed nowhere not");
	/* the compact classes */
	for (r = 0; r < MESH_RES_N; r++)
		ok &= mesh_compact_result_of(r) ==
		      (r == MESH_RES_OK ? MESH_CRES_OK :
		       r == MESH_RES_MISMATCH ? MESH_CRES_MISMATCH :
		       MESH_CRES_FAILED);
	tap_ok(ok && !strcmp(mesh_compact_result_name(MESH_CRES_OK), "ok") &&
	       !strcmp(mesh_compact_result_name(MESH_CRES_MISMATCH),
		       "mismatch") &&
	       !strcmp(mesh_compact_result_name(MESH_CRES_FAILED), "failed"),
	       "compact classes: ok, mismatch, failed for the 7 others");
}

/* A peer's p99 over its running paths' windows together. */
static void test_peer_window(void)
{
	static struct mesh_path_stats st[3];
	struct mesh_view_peer p;
	struct mesh_window_sum w;
	unsigned int i;

	memset(&p, 0, sizeof(p));
	for (i = 0; i < 3; i++) {
		mesh_stats_init(&st[i]);
		p.path[i].st = &st[i];
	}
	p.n_paths = 2;
	p.n_figures = 3;
	mesh_stats_peer_window(&p, &w);
	tap_ok(!w.n && !w.p99_ns, "peer window: no round, no p99");
	for (i = 1; i <= 99; i++)
		mesh_stats_round(&st[0], 0, 64, MESH_RES_OK, i * US, 0, i);
	mesh_stats_round(&st[0], 0, 64, MESH_RES_TIMEOUT, 0, 0, 100);
	mesh_stats_round(&st[1], 0, 64, MESH_RES_OK, 500 * US, 0, 1);
	mesh_stats_round(&st[1], 0, 64, MESH_RES_OK, 700 * US, 0, 2);
	/* a dropped path's window is not the peer's now */
	mesh_stats_round(&st[2], 0, 64, MESH_RES_OK, 9 * S, 0, 1);
	mesh_stats_peer_window(&p, &w);
	/* 101 good values: rank 99 is ceil(0.99 x 101) = 100th: 500 us */
	tap_ok(w.n == 102 && w.failed == 1 && w.p99_ns == 500 * US &&
	       w.p50_ns == 51 * US,
	       "peer window: both running paths pooled, the dropped one "
	       "left out (n %u, failed %u, p50 %llu, p99 %llu)", w.n,
	       w.failed, (unsigned long long)w.p50_ns,
	       (unsigned long long)w.p99_ns);
}

/* A round under local pressure: counted, its latency kept out. */
static void test_pressured(void)
{
	struct mesh_path_stats s;
	struct mesh_rail_stats rail;
	struct mesh_window_sum w;

	mesh_stats_init(&s);
	memset(&rail, 0, sizeof(rail));
	s.rail = &rail;
	mesh_stats_round(&s, 0, 64, MESH_RES_OK, 30 * US, 0, 100);
	mesh_stats_round_pressured(&s, 0, 64, MESH_RES_OK, 900 * MS, 0, 200);
	tap_ok(s.rounds[MESH_RES_OK] == 2 && s.pressured == 1 &&
	       rail.rounds[MESH_RES_OK] == 2,
	       "pressured: counted as ok (path and rail), and as pressured");
	tap_ok(s.rtt.count == 1 && s.rtt.sum_ns == 30 * US &&
	       rail.rtt.count == 1,
	       "pressured ok: its latency in no histogram");
	mesh_stats_window(&s, &w);
	tap_ok(w.n == 2 && w.pressured == 1 && !w.failed &&
	       w.p99_ns == 30 * US && s.sw[0].n == 2,
	       "pressured ok: in the windows (a good round for the loss), "
	       "the p99 is the clean round's");
	mesh_stats_round_pressured(&s, 0, 64, MESH_RES_TIMEOUT, 0, 0, 300);
	mesh_stats_window(&s, &w);
	tap_ok(s.pressured == 2 && s.size_failed[0] == 1 && w.failed == 1 &&
	       s.last == MESH_RES_TIMEOUT,
	       "pressured failed: a failure as any other, and pressured");
}

/* Good round I of a loaded host's: every third one under local pressure. */
static void good_round(struct mesh_path_stats *s, unsigned int slot,
		       unsigned int i)
{
	(i % 3 ? mesh_stats_round : mesh_stats_round_pressured)
		(s, slot, 64, MESH_RES_OK, (20 + i % 7) * US, 0, 1000 + i);
}

/*
 * Loss is recent (the demo's first view): rounds that failed while the
 * peer's rdmad was starting, then good ones on a loaded host (a third
 * under local pressure) leave the window as the good ones come in: the
 * last failure one round inside the window counts, one round outside
 * it does not, and after a window of good rounds the loss is 0.  A
 * round under pressure is in the window (it counts for the loss), its
 * latency is not (no p50, p99).  The same for a size's window (the
 * heatmap's cells).
 */
static void test_window_recent(void)
{
	struct mesh_path_stats s;
	struct mesh_view_peer p = { .name = "h:1", .n_paths = 1 };
	struct mesh_window_sum w;
	unsigned int i;

	p.path[0] = (struct mesh_view_path){ .state = MESH_ST_WAIT,
		.reach = MESH_REACH_UP, .st = &s,
		.error = "", .bw_stale = false };
	mesh_stats_init(&s);
	for (i = 0; i < 10; i++)
		mesh_stats_round(&s, CONFIG_MESH_SIZES_MAX, 0,
				 i % 2 ? MESH_RES_REFUSED : MESH_RES_TIMEOUT,
				 0, 0, i);
	for (i = 0; i < MESH_WINDOW - 1; i++)
		good_round(&s, 0, i);
	mesh_stats_window(&s, &w);
	tap_ok(w.n == MESH_WINDOW && w.failed == 1,
	       "recent: the last failure, %u good rounds after it (a third "
	       "pressured): inside the window, 1 of %u (got %u of %u)",
	       MESH_WINDOW - 1, MESH_WINDOW, w.failed, w.n);
	good_round(&s, 0, i++);
	mesh_stats_window(&s, &w);
	tap_ok(w.n == MESH_WINDOW && w.failed == 0,
	       "recent: %u good rounds after it: outside, loss 0 (got %u "
	       "of %u)", MESH_WINDOW, w.failed, w.n);
	for (; i < 10 * MESH_WINDOW; i++)
		good_round(&s, 0, i);
	mesh_stats_window(&s, &w);
	tap_ok(w.n == MESH_WINDOW && w.failed == 0 &&
	       w.p50_ns >= 20 * US && w.p99_ns <= 26 * US,
	       "recent: ten windows later, loss 0 and the clean rounds' "
	       "latency (got %u of %u, p99 %llu)", w.failed, w.n,
	       (unsigned long long)w.p99_ns);

	/* every good round pressured: nothing left of the failures */
	mesh_stats_init(&s);
	for (i = 0; i < 10; i++)
		mesh_stats_round(&s, 0, 64, MESH_RES_TIMEOUT, 0, 0, i);
	for (i = 0; i < MESH_WINDOW; i++)
		mesh_stats_round_pressured(&s, 0, 64, MESH_RES_OK, 30 * US, 0,
					   100 + i);
	mesh_stats_window(&s, &w);
	tap_ok(w.n == MESH_WINDOW && w.failed == 0 && !w.p99_ns,
	       "recent: a window of rounds all under pressure: loss 0, no "
	       "latency (got %u of %u)", w.failed, w.n);
	mesh_stats_size_sum(&p, 0, &w);
	tap_ok(w.n == MESH_SIZE_WINDOW && w.failed == 0 && !w.p99_ns,
	       "recent: its size window the same (got %u of %u)", w.failed,
	       w.n);

	/* a size's window: 5 timeouts, then 31 and 32 good rounds */
	mesh_stats_init(&s);
	for (i = 0; i < 5; i++)
		mesh_stats_round(&s, 0, 64, MESH_RES_TIMEOUT, 0, 0, i);
	for (i = 0; i < MESH_SIZE_WINDOW - 1; i++)
		good_round(&s, 0, i);
	mesh_stats_size_sum(&p, 0, &w);
	tap_ok(w.n == MESH_SIZE_WINDOW && w.failed == 1,
	       "recent: size window, the last failure %u rounds back: "
	       "inside, 1 of %u (got %u of %u)", MESH_SIZE_WINDOW - 1,
	       MESH_SIZE_WINDOW, w.failed, w.n);
	good_round(&s, 0, i);
	mesh_stats_size_sum(&p, 0, &w);
	tap_ok(w.n == MESH_SIZE_WINDOW && w.failed == 0 &&
	       w.p99_ns >= 20 * US && w.p99_ns <= 26 * US,
	       "recent: size window, %u rounds back: outside, loss 0 (got "
	       "%u of %u)", MESH_SIZE_WINDOW, w.failed, w.n);
	mesh_stats_size_sum(&p, CONFIG_MESH_SIZES_MAX, &w);
	tap_ok(w.n == MESH_SIZE_WINDOW && w.failed == 0,
	       "recent: all sizes together the same");
}

/*
 * The windows' marks are no latency: a good round of the largest
 * latency is a latency one below the pressured mark (ns and us), never
 * the mark; one below it stays what it is.
 */
static void test_window_marks(void)
{
	struct mesh_path_stats s;
	struct mesh_view_peer p = { .name = "h:1", .n_paths = 1 };
	struct mesh_window_sum w;

	p.path[0] = (struct mesh_view_path){ .state = MESH_ST_WAIT,
		.reach = MESH_REACH_UP, .st = &s,
		.error = "", .bw_stale = false };
	mesh_stats_init(&s);
	mesh_stats_round(&s, 0, 64, MESH_RES_OK, UINT64_MAX, 0, 1);
	/* the pressured mark's value in us, exactly */
	mesh_stats_round(&s, 0, 64, MESH_RES_OK,
			 (uint64_t)MESH_SW_PRESSURED * US + 999, 0, 2);
	mesh_stats_window(&s, &w);
	tap_ok(w.n == 2 && !w.pressured && !w.failed &&
	       w.p99_ns == UINT64_MAX - 1,
	       "marks: a good round of UINT64_MAX ns is a latency, not the "
	       "pressured mark");
	mesh_stats_size_sum(&p, 0, &w);
	tap_ok(w.n == 2 && !w.pressured && !w.failed && !w.mismatched &&
	       w.p50_ns == (uint64_t)(MESH_SW_PRESSURED - 1) * US &&
	       w.p99_ns == (uint64_t)(MESH_SW_PRESSURED - 1) * US,
	       "marks: in a size window, the mark's value and more are the "
	       "largest latency below both marks");
	mesh_stats_init(&s);
	mesh_stats_round(&s, 0, 64, MESH_RES_OK, UINT64_MAX - 1, 0, 1);
	mesh_stats_round(&s, 0, 64, MESH_RES_OK,
			 (uint64_t)(MESH_SW_PRESSURED - 1) * US, 0, 2);
	mesh_stats_window(&s, &w);
	tap_ok(w.n == 2 && !w.pressured && w.p99_ns == UINT64_MAX - 1,
	       "marks: one below the mark is kept as it is");
	mesh_stats_size_sum(&p, 0, &w);
	tap_ok(w.n == 2 && !w.pressured &&
	       w.p50_ns == (uint64_t)(MESH_SW_PRESSURED - 1) * US,
	       "marks: in a size window too");
}

int main(void)
{
	test_bounds();
	test_rounds();
	test_window();
	test_window_ranks();
	test_size_window();
	test_bw();
	test_paths_up();
	test_sample_round();
	test_sizes_remap();
	test_bw_age();
	test_rail();
	test_peer_window();
	test_pressured();
	test_window_recent();
	test_window_marks();
	return tap_done();
}
