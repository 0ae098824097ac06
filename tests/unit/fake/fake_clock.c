/* SPDX-License-Identifier: BSD-2-Clause */
/* fake_clock.c - the wall clock (clock_wall.c), moved by the tests (see
 * fake.h); the monotonic clock is the real one (clock.c). */
#include <time.h>

#include "clock.h"
#include "fake.h"

static int64_t fake_wall_shift_ms;

void fake_clock_wall_shift(int64_t ms)
{
	fake_wall_shift_ms += ms;
}

uint64_t clock_wall_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (uint64_t)((int64_t)now.tv_sec * 1000 +
			  (int64_t)now.tv_nsec / 1000000 + fake_wall_shift_ms);
}
