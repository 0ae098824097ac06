/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * log_limit.c - a line budget per period (see log_limit.h).  A period
 * begins with the first line after the previous one ended (a fixed
 * window, not a sliding one): at most BURST lines in any PERIOD that
 * starts with a logged line, 2 x BURST across a boundary.
 */
#include <string.h>

#include "core/log_limit.h"

void log_limit_init(struct log_limit *l, unsigned int burst,
		    uint64_t period_ns)
{
	memset(l, 0, sizeof(*l));
	l->burst = burst;
	l->period_ns = period_ns;
}

bool log_limit_take(struct log_limit *l, uint64_t now)
{
	if (!l->begun || now - l->start >= l->period_ns) {
		l->begun = true;
		l->start = now;
		l->used = 0;
	}
	if (l->used < l->burst) {
		l->used++;
		return true;
	}
	l->dropped++;
	return false;
}

uint64_t log_limit_period_end(const struct log_limit *l)
{
	return l->start + l->period_ns;
}

uint64_t log_limit_summary(struct log_limit *l)
{
	uint64_t n = l->dropped;

	l->dropped = 0;
	return n;
}
