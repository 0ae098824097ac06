/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * targets.h - a list of hosts to probe, one a line: rdma-probe --targets
 * FILE and rdmad's [mesh] targets.  Pure: reads a FILE *, reports through
 * the caller's buffer and callback; no name resolution.  The one reader
 * of the format is targets_scan(): targets_read() (rdma-probe) and the
 * mesh's inventory (mesh_inventory_parse.c, whose lines may carry KEY=VALUE
 * words after the address) both read through it.
 *
 * One target a line: HOST, HOST:PORT, [IPV6]:PORT or a bare IPv6 address
 * (two colons or more, no port).  '#' starts a comment; blank lines are
 * ignored.  A line without a port gets the default port.  A numeric
 * address is kept in its canonical spelling (addr_host_canon(): fd00:0::2
 * is fd00::2), and an IPv4 shorthand (10.2, 167772162) is refused.  A
 * target that repeats an earlier one (same host, case aside, an address
 * by value, and same port) is dropped with a warning; past the first
 * TARGETS_WARN_FIRST such warnings of a file, one line says how many
 * more.
 */
#ifndef RDMAD_TARGETS_H
#define RDMAD_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TARGETS_MAX		4096u	/* the most any caller may ask for */
#define TARGET_HOST_MAX		255u	/* a DNS name is at most 253 */
#define TARGETS_WARN_FIRST	5u	/* repeats warned of one by one */

struct target {
	char text[TARGET_HOST_MAX + 10];	/* as written */
	char host[TARGET_HOST_MAX + 1];		/* without brackets */
	uint16_t port;
	bool port_set;		/* the line gave the port */
	unsigned int line;	/* in the file, from 1 */
};

struct target_list {
	struct target *v;
	unsigned int n;
};

/*
 * Parse one line (comment and blank included) into *t.  Returns 1 for a
 * target, 0 for a line without one, or -EINVAL with *why set.
 */
int targets_parse_line(const char *line, uint16_t port, struct target *t,
		       const char **why);

/*
 * The reader: each line of IN (called NAME in messages) read, a NUL byte
 * refused, its comment and blanks dropped, its first word read as a
 * target (targets_parse_line, T->line set) and handed to FN with the rest
 * of the line (its words after the target, blanks around them dropped;
 * "" for none).  FN returns 0 to go on, or -errno with ERR written ("NAME:
 * LINE: problem").  Returns 0, -EINVAL (ERR: "NAME:LINE: 'x': problem"),
 * -EIO ("NAME: read error") or FN's.
 */
typedef int targets_line_fn(void *arg, struct target *t, char *rest);
int targets_scan(FILE *in, const char *name, uint16_t port,
		 targets_line_fn *fn, void *arg, char *err, size_t errlen);

/*
 * Read every line of IN (called NAME in messages) into *tl, at most MAX
 * targets (0 or above TARGETS_MAX: TARGETS_MAX).  A file without targets
 * is no error: *tl is then empty.  WARN (may be NULL) gets the first
 * TARGETS_WARN_FIRST dropped repeats as "NAME:LINE: 'x': same target as
 * line N, probed once", then (if more) one "NAME: ... and K more like it
 * (N repeated targets in all, each probed once)".
 * Returns 0, or -EINVAL, -EIO or -ENOMEM with nothing kept and the
 * problem in ERR: "NAME:LINE: problem" ("NAME: problem" for the file as
 * a whole).
 */
int targets_read(FILE *in, const char *name, uint16_t port, unsigned int max,
		 struct target_list *tl,
		 void (*warn)(void *arg, const char *msg), void *arg,
		 char *err, size_t errlen);
void targets_free(struct target_list *tl);

/*
 * A file's warnings, summarised: the first TARGETS_WARN_FIRST go to FN
 * (may be NULL) as they come, the others are counted, and
 * targets_warn_end() says how many ("NAME: ... and K more like it").
 */
struct targets_warn {
	void (*fn)(void *arg, const char *msg);
	void *arg;
	unsigned int n;		/* warnings so far */
};
void targets_warn_say(struct targets_warn *w, const char *msg);
void targets_warn_end(struct targets_warn *w, const char *name);

#endif /* RDMAD_TARGETS_H */
