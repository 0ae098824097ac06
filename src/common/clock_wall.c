/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * clock_wall.c - the wall clock (see clock.h), apart from the monotonic
 * one so that the unit tests' fake (tests/unit/fake) moves it alone.
 */
#include <time.h>

#include "clock.h"

uint64_t clock_wall_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
}
