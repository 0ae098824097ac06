/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_targets.h - rdma-probe --targets FILE: the list of hosts to probe
 * at once.  Pure: reads a FILE * and prints its messages to another; no
 * name resolution (see probe_dest.c).
 *
 * One target a line: HOST, HOST:PORT, [IPV6]:PORT or a bare IPv6 address
 * (two colons or more, no port).  '#' starts a comment; blank lines are
 * ignored.  A line without a port gets the default port.  A target that
 * repeats an earlier one (same host, case aside, and same port) is
 * dropped with a warning.
 */
#ifndef RDMAD_PROBE_TARGETS_H
#define RDMAD_PROBE_TARGETS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PROBE_TARGETS_MAX	1024u
#define PROBE_TARGET_HOST_MAX	255u	/* a DNS name is at most 253 */

struct probe_target {
	char text[PROBE_TARGET_HOST_MAX + 10];	/* as written */
	char host[PROBE_TARGET_HOST_MAX + 1];	/* without brackets */
	uint16_t port;
	bool port_set;		/* the line gave the port */
	unsigned int line;	/* in the file, from 1 */
};

struct probe_targets {
	struct probe_target *v;
	unsigned int n;
};

/*
 * Parse one line (comment and blank included) into *t.  Returns 1 for a
 * target, 0 for a line without one, or -EINVAL with *why set.
 */
int probe_targets_parse_line(const char *line, uint16_t port,
			     struct probe_target *t, const char **why);

/*
 * Read every line of in (named name in messages) into *tl.  Errors are
 * printed to err as "rdma-probe: NAME:LINE: problem"; returns 0, or
 * -EINVAL, -EIO or -ENOMEM with nothing kept.
 */
int probe_targets_read(FILE *in, const char *name, uint16_t port,
		       struct probe_targets *tl, FILE *err);
void probe_targets_free(struct probe_targets *tl);

#endif /* RDMAD_PROBE_TARGETS_H */
