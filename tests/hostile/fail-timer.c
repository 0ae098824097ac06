/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fail-timer.c - an LD_PRELOAD shim for the rdma suite (t-59): libevent's
 * event_add() fails (-1) for every timer armed with exactly
 * $RDMAD_FAIL_TIMER_MS milliseconds, as it may under memory pressure;
 * everything else goes to the real event_add().  Not installed.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

typedef int event_add_fn(struct event *ev, const struct timeval *tv);

int event_add(struct event *ev, const struct timeval *tv)
{
	static event_add_fn *real;
	static long fail_ms = -2;
	const char *s;

	if (!real) {
		void *sym = dlsym(RTLD_NEXT, "event_add");

		/* POSIX: a function's address through void * */
		memcpy(&real, &sym, sizeof(real));
	}
	if (fail_ms == -2) {
		s = getenv("RDMAD_FAIL_TIMER_MS");
		fail_ms = s ? atol(s) : -1;
	}
	if (tv && fail_ms >= 0 && event_get_fd(ev) < 0 &&
	    tv->tv_sec * 1000 + tv->tv_usec / 1000 == fail_ms)
		return -1;
	return real ? real(ev, tv) : -1;
}
