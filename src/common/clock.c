/* SPDX-License-Identifier: BSD-2-Clause */
/* clock.c - the monotonic clock (see clock.h; the wall clock: clock_wall.c). */
#include <time.h>

#include "clock.h"

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
