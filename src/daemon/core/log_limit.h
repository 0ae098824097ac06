/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * log_limit.h - at most BURST lines of one kind per PERIOD, the others
 * counted for a summary line (pure: times are arguments).  rdmad logs a
 * refused HTTP request through one, so that whoever reaches the port
 * cannot flood the journal until journald drops rdmad's real lines.
 *
 *   if (log_limit_take(&l, now))
 *           log the line;
 *   else if it is the period's first dropped line
 *           at log_limit_period_end(&l): n = log_limit_summary(&l),
 *           log "n more not logged" if n
 */
#ifndef RDMAD_LOG_LIMIT_H
#define RDMAD_LOG_LIMIT_H

#include <stdbool.h>
#include <stdint.h>

struct log_limit {
	uint64_t period_ns;
	unsigned int burst;
	bool begun;			/* a period has begun */
	uint64_t start;			/* of the period */
	unsigned int used;		/* lines logged in it */
	uint64_t dropped;		/* not logged since the last summary */
};

void log_limit_init(struct log_limit *l, unsigned int burst,
		    uint64_t period_ns);
/* A line at NOW: true to log it, false if it is dropped (counted). */
bool log_limit_take(struct log_limit *l, uint64_t now);
/* When the current period ends (NOW of its first line + PERIOD). */
uint64_t log_limit_period_end(const struct log_limit *l);
/* Lines dropped since the last call; they are forgotten. */
uint64_t log_limit_summary(struct log_limit *l);

#endif /* RDMAD_LOG_LIMIT_H */
