/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-log-limit.c - log_limit.c: BURST lines per period, the rest
 * counted for the summary, a new period after PERIOD, a flood of 10,000
 * lines logs BURST per period and counts the others exactly.
 */
#include <stdint.h>

#include "core/log_limit.h"
#include "tap.h"

#define S	1000000000ull

static void test_burst(void)
{
	struct log_limit l;
	unsigned int i, logged = 0;

	log_limit_init(&l, 3, 60 * S);
	for (i = 0; i < 5; i++)
		logged += log_limit_take(&l, 100 * S + i);
	tap_ok(logged == 3, "5 lines at once, burst 3: %u logged", logged);
	tap_ok(log_limit_period_end(&l) == 160 * S,
	       "the period ends PERIOD after its first line");
	tap_ok(log_limit_summary(&l) == 2 && log_limit_summary(&l) == 0,
	       "the summary: 2 dropped, then forgotten");
	tap_ok(!log_limit_take(&l, 160 * S - 1),
	       "still the same period 1 ns before its end: dropped");
	tap_ok(log_limit_take(&l, 160 * S) && log_limit_summary(&l) == 1,
	       "a new period at its end: logged; the one before counted");
	tap_ok(log_limit_period_end(&l) == 220 * S,
	       "the new period ends PERIOD after its first line");
}

static void test_zero_clock(void)
{
	struct log_limit l;

	log_limit_init(&l, 1, 10 * S);
	tap_ok(log_limit_take(&l, 0) && !log_limit_take(&l, 5 * S) &&
	       log_limit_take(&l, 10 * S), "a clock starting at 0: the "
	       "first line opens the period");
}

static void test_flood(void)
{
	struct log_limit l;
	uint64_t dropped = 0, t;
	unsigned int logged = 0, i;

	/* 10,000 lines over 100 s (one each 10 ms), 10 a minute allowed */
	log_limit_init(&l, 10, 60 * S);
	for (i = 0, t = 5 * S; i < 10000; i++, t += S / 100) {
		logged += log_limit_take(&l, t);
		if (i % 1000 == 999)
			dropped += log_limit_summary(&l);
	}
	dropped += log_limit_summary(&l);
	tap_ok(logged == 20, "a flood of 10,000 over 100 s: %u lines logged "
	       "(10 in each of 2 periods)", logged);
	tap_ok(logged + dropped == 10000, "every other line counted: %llu",
	       (unsigned long long)dropped);
}

int main(void)
{
	test_burst();
	test_zero_clock();
	test_flood();
	return tap_done();
}
