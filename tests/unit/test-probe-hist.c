/* SPDX-License-Identifier: BSD-2-Clause */
/* test-probe-hist.c - the latency histogram: buckets, percentiles, merge. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "probe_hist.h"
#include "tap.h"

static struct probe_hist h1, h2;

/* Every value lands in a bucket that holds it; buckets tile the range. */
static void test_buckets(void)
{
	uint64_t v, low, w, prev_end = 0;
	bool holds = true, tiles = true, narrow = true;
	uint32_t b, i;

	for (i = 0; i < 200000; i++) {
		v = i < 100000 ? i : (((uint64_t)rand() << 20 ^ (uint64_t)rand()) %
					 (1ull << PROBE_HIST_MAX_BITS));
		b = probe_hist_bucket(v);
		low = probe_hist_bucket_low(b);
		w = probe_hist_bucket_width(b);
		if (b >= PROBE_HIST_BUCKETS || v < low || v >= low + w)
			holds = false;
	}
	for (b = 0; b < PROBE_HIST_BUCKETS; b++) {
		low = probe_hist_bucket_low(b);
		w = probe_hist_bucket_width(b);
		if (low != prev_end || probe_hist_bucket(low) != b ||
		    probe_hist_bucket(low + w - 1) != b)
			tiles = false;
		if (low >= PROBE_HIST_SUB && w * PROBE_HIST_SUB > low)
			narrow = false;
		prev_end = low + w;
	}
	tap_ok(holds, "every value falls in the bucket probe_hist_bucket names");
	tap_ok(tiles, "buckets are contiguous, none overlaps, none is empty");
	tap_ok(narrow, "no bucket is wider than 1/%u of its lowest value",
	       PROBE_HIST_SUB);
	tap_ok(probe_hist_bucket(UINT64_MAX) == PROBE_HIST_BUCKETS - 1 &&
	       probe_hist_bucket(1ull << PROBE_HIST_MAX_BITS) ==
	       PROBE_HIST_BUCKETS - 1, "huge values share the last bucket");
}

static bool near(uint64_t got, uint64_t want)
{
	uint64_t d = got > want ? got - want : want - got;

	return d * 256 <= want;	/* within 1/256 */
}

static void test_percentiles(void)
{
	uint64_t i;

	probe_hist_init(&h1);
	tap_ok(probe_hist_percentile(&h1, 50) == 0 && probe_hist_mean(&h1) == 0,
	       "empty histogram: 0");

	/* 1..100 exactly: small values are exact. */
	for (i = 1; i <= 100; i++)
		probe_hist_add(&h1, i);
	tap_ok(probe_hist_percentile(&h1, 50) == 50 &&
	       probe_hist_percentile(&h1, 90) == 90 &&
	       probe_hist_percentile(&h1, 99) == 99 &&
	       probe_hist_percentile(&h1, 99.9) == 100 &&
	       probe_hist_percentile(&h1, 100) == 100 &&
	       probe_hist_percentile(&h1, 0) == 1,
	       "1..100: p50 50, p90 90, p99 99, p99.9 100, min 1 (nearest rank)");
	tap_ok(h1.count == 100 && probe_hist_mean(&h1) == 50 && h1.min == 1 &&
	       h1.max == 100, "count, mean, min, max are exact");

	/* 10 us .. 10 ms in 1 us steps: within the bucket error. */
	probe_hist_init(&h1);
	for (i = 1; i <= 10000; i++)
		probe_hist_add(&h1, i * 1000);
	tap_ok(near(probe_hist_percentile(&h1, 50), 5000000) &&
	       near(probe_hist_percentile(&h1, 90), 9000000) &&
	       near(probe_hist_percentile(&h1, 99), 9900000) &&
	       near(probe_hist_percentile(&h1, 99.9), 9990000),
	       "1 us .. 10 ms: p50 %llu, p90 %llu, p99 %llu, p99.9 %llu "
	       "within 0.4 %%",
	       (unsigned long long)probe_hist_percentile(&h1, 50),
	       (unsigned long long)probe_hist_percentile(&h1, 90),
	       (unsigned long long)probe_hist_percentile(&h1, 99),
	       (unsigned long long)probe_hist_percentile(&h1, 99.9));
	tap_ok(probe_hist_percentile(&h1, 100) == 10000000,
	       "p100 is the exact maximum");

	/* A tail: 999 fast, 1 slow.  p99.9 is fast, max is slow. */
	probe_hist_init(&h1);
	for (i = 0; i < 999; i++)
		probe_hist_add(&h1, 80000);
	probe_hist_add(&h1, 5000000);
	tap_ok(near(probe_hist_percentile(&h1, 99.9), 80000) &&
	       probe_hist_percentile(&h1, 100) == 5000000,
	       "999 x 80 us + 1 x 5 ms: p99.9 80 us, max 5 ms");

	/* One value: every percentile is that value (clamped). */
	probe_hist_init(&h1);
	probe_hist_add(&h1, 123457);
	tap_ok(probe_hist_percentile(&h1, 50) == 123457 &&
	       probe_hist_percentile(&h1, 99.9) == 123457,
	       "a single value: percentiles equal it exactly");
}

static void test_merge(void)
{
	uint64_t i;

	probe_hist_init(&h1);
	probe_hist_init(&h2);
	for (i = 0; i < 500; i++)
		probe_hist_add(&h1, 1000 + i);
	for (i = 0; i < 500; i++)
		probe_hist_add(&h2, 100000 + i);
	probe_hist_merge(&h1, &h2);
	tap_ok(h1.count == 1000 && h1.min == 1000 && h1.max == 100499,
	       "merge adds counts and keeps min and max");
	tap_ok(near(probe_hist_percentile(&h1, 25), 1250) &&
	       near(probe_hist_percentile(&h1, 75), 100250),
	       "merged percentiles come from both halves");
	probe_hist_init(&h2);
	probe_hist_merge(&h1, &h2);
	tap_ok(h1.count == 1000 && h1.min == 1000,
	       "merging an empty histogram changes nothing");
}

/*
 * The loss story: 20 operations of about 1 ms, 3 of them retransmitted
 * (a second and more): 3 slow; a healthy path with jitter: none.
 */
static void test_slow(void)
{
	struct probe_hist h;
	int i;

	probe_hist_init(&h);
	tap_ok(probe_hist_slow_limit(&h) == 0 &&
	       probe_hist_count_above(&h, 0) == 0, "slow: empty, nothing");
	for (i = 0; i < 17; i++)
		probe_hist_add(&h, 1000000 + (uint64_t)i * 50000);
	probe_hist_add(&h, 2100000000ull);
	probe_hist_add(&h, 4300000000ull);
	probe_hist_add(&h, 7000000000ull);
	tap_ok(probe_hist_slow_limit(&h) == 250000000ull,
	       "slow: limit is the 250 ms floor above 10 x a 1 ms fastest");
	tap_ok(probe_hist_count_above(&h, probe_hist_slow_limit(&h)) == 3,
	       "slow: 3 of 20 retransmitted operations counted");

	probe_hist_init(&h);
	for (i = 0; i < 100; i++)
		probe_hist_add(&h, 30000000 + (uint64_t)(i % 7) * 3000000);
	probe_hist_add(&h, 225000000);
	probe_hist_add(&h, 310000000);
	tap_ok(probe_hist_slow_limit(&h) == 300000000ull &&
	       probe_hist_count_above(&h, probe_hist_slow_limit(&h)) == 1,
	       "slow: 10 x a 30 ms fastest; 7.5 x is jitter, 10.3 x is slow");

	probe_hist_init(&h);
	for (i = 0; i < 50; i++)
		probe_hist_add(&h, 1000000 + (uint64_t)(i % 10) * 7000000);
	probe_hist_add(&h, 62000000);
	tap_ok(probe_hist_count_above(&h, probe_hist_slow_limit(&h)) == 0,
	       "slow: a loaded host's 62 ms outlier of 1 ms operations is not "
	       "slow (floor)");
}

int main(void)
{
	tap_plan(19);
	test_buckets();
	test_percentiles();
	test_merge();
	test_slow();
	return tap_done();
}
