/* SPDX-License-Identifier: BSD-2-Clause */
/* fake_clock.c - the clock (clock.h), with a wall clock the tests move
 * (see fake.h). */
#include <time.h>

#include "clock.h"
#include "fake.h"

static int64_t fake_wall_shift_ms;

void fake_clock_wall_shift(int64_t ms)
{
	fake_wall_shift_ms += ms;
}

uint64_t clock_now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

uint64_t clock_since_ns(uint64_t t0)
{
	uint64_t now = clock_now_ns();

	return now > t0 ? now - t0 : 0;
}

uint64_t clock_wall_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (uint64_t)((int64_t)now.tv_sec * 1000 +
			  (int64_t)now.tv_nsec / 1000000 + fake_wall_shift_ms);
}
