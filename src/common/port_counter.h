/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * port_counter.h - one RDMA port counter as rdmad keeps it (pure: no I/O).
 *
 * A port's counters live in sysfs: counters/ (the InfiniBand PMA's, some
 * of them legacy fields of 4 to 32 bits that stop at their ceiling:
 * link_downed at 255, port_xmit_wait at 2^32-1) and hw_counters/ (the
 * driver's, 64 bits).  rdmad reads each one now and then
 * (rdma_counters.c) and hands every reading to port_counter_update(),
 * the one place that turns readings into what /metrics shows:
 *
 *   total      rdmad's count, which never goes down: the first reading,
 *              then each reading's increase over the one before.  A
 *              reading below the one before is a reset (the counter was
 *              cleared: perfquery -R, a driver reload); what it shows
 *              then is what happened since, so it is added.  A 64-bit
 *              counter does not wrap in a machine's lifetime: going down
 *              is never taken for a wrap.  The total itself stops at
 *              UINT64_MAX rather than wrap.
 *   saturated  the reading sits at the ceiling of its legacy width: the
 *              counter counts no more and its rate of zero means nothing.
 *              A reading above that ceiling shows the port has the wider
 *              (extended) counter: never saturated then.
 */
#ifndef RDMAD_PORT_COUNTER_H
#define RDMAD_PORT_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PORT_COUNTER_DEVICE_MAX	32
#define PORT_COUNTER_NAME_MAX	64

/*
 * The skip list ([counters] skip, docs/configuration.md): counters rdmad
 * never reads.  A pattern is NAME (every device's counter NAME) or
 * DEVICE/NAME, with the shell's wildcards (* ? [...]): link_downed,
 * *_err, or every counter of mlx5_3 as that name, a slash and a star.
 */
#define PORT_COUNTER_PATTERN_MAX	64
#define PORT_COUNTER_SKIP_MAX	32
struct port_counter_skip {
	char pat[PORT_COUNTER_SKIP_MAX][PORT_COUNTER_PATTERN_MAX];
	unsigned int n;
};

/* Whether PAT is a pattern: 1 to 63 of A-Z a-z 0-9 _ . - * ? [ ] !, at
 * most one '/' with something on each side. */
bool port_counter_pattern_ok(const char *pat);
/* Whether counter NAME of DEVICE matches a pattern of S. */
bool port_counter_skipped(const struct port_counter_skip *s,
			  const char *device, const char *name);

/* Which sysfs directory a counter is read from. */
enum port_counter_dir {
	PORT_COUNTER_PMA,	/* ports/N/counters/ */
	PORT_COUNTER_HW,	/* ports/N/hw_counters/ */
};

struct port_counter {
	char device[PORT_COUNTER_DEVICE_MAX];
	unsigned int port;
	char name[PORT_COUNTER_NAME_MAX];
	enum port_counter_dir dir;
	uint64_t ceiling;	/* legacy width's maximum; 0: none */
	bool seen;		/* one reading at least */
	uint64_t raw;		/* the last reading */
	uint64_t total;		/* never goes down */
	uint64_t resets;	/* readings below the one before */
	bool saturated;		/* raw == ceiling */
	int read_err;		/* the last read's -errno; 0: it was read */
	/* The total when the pass before the last one ended (base) and
	 * when the last one ended (mark): total - base is what moved over
	 * the last one to two passes (port_counter_pass). */
	uint64_t base, mark;
};

/* What one reading CUR after PREV means, for a counter with CEILING. */
struct port_counter_step {
	uint64_t delta;		/* to add to the total */
	bool reset;		/* CUR < PREV */
	bool saturated;		/* CUR == CEILING */
};

/*
 * The value of a counter file's TEXT (decimal digits, an optional
 * newline): 0, or -EINVAL (empty, not a number, trailing junk) or
 * -ERANGE (above 2^64-1).
 */
int port_counter_parse(const char *text, uint64_t *out);

/* The ceiling of counter NAME read from DIR: the maximum of its legacy
 * PMA width, or 0 when it has none (64 bits, every hw_counter). */
uint64_t port_counter_ceiling(enum port_counter_dir dir, const char *name);

struct port_counter_step port_counter_step(uint64_t prev, uint64_t cur,
					   uint64_t ceiling);

/* C is counter NAME of DEVICE's PORT in DIR, not read yet. */
void port_counter_init(struct port_counter *c, const char *device,
		       unsigned int port, enum port_counter_dir dir,
		       const char *name);
/* A reading RAW of C. */
void port_counter_update(struct port_counter *c, uint64_t raw);

/* A pass over every counter ended: C's window moves on. */
void port_counter_pass(struct port_counter *c);

/*
 * What moved of the N counters C (ordered by port) over their windows,
 * for a log line: "rxe0/1: rcvd_seq_err +14, retry_exceeded_err +2"
 * (another port after "; "), only counters that moved, into BUF
 * (truncated with "..." when it does not fit).  The number of counters
 * that moved; 0 leaves "".
 */
unsigned int port_counter_changes(char *buf, size_t len,
				  const struct port_counter *c, unsigned int n);

#endif /* RDMAD_PORT_COUNTER_H */
