/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_ctx.h - rdma-probe's runs on the RDMA layer's client module
 * (probe_ctx.c): the one CM channel and event loop, the run's
 * connections, their outcomes.
 */
#ifndef RDMAD_PROBE_CTX_H
#define RDMAD_PROBE_CTX_H

#include <stdbool.h>

struct event_base;
struct rdma_cm_chan;
struct probe_conn;
struct probe_dest;
struct probe_opts;
struct probe_outcome;

/*
 * The one rdma_cm event channel and event loop, and the connections of the
 * current run: one destination's, or every target's with --targets.
 */
struct probe_ctx {
	struct event_base *base;
	struct rdma_cm_chan *chan;
	bool busy_poll;
	int active;		/* connections not finished yet */
	struct probe_conn **conns;	/* of the current run */
	unsigned int nconns;
	unsigned int interrupted;	/* SIGINT or SIGTERM seen, times */
	int signo;			/* the last of them */
	bool stop;			/* leave the loop now (a second one) */
};

int probe_ctx_init(struct probe_ctx *ctx, struct event_base *base,
		   bool busy_poll);
void probe_ctx_fini(struct probe_ctx *ctx);
/*
 * Add n connections to d, numbered 0..n-1 (seed + i each), to the run;
 * label (NULL: none) prefixes their -v messages.  d and opts must outlive
 * them.  On failure none of the n is kept.
 */
int probe_ctx_add(struct probe_ctx *ctx, const struct probe_opts *opts,
		  const struct probe_dest *d, const char *label,
		  unsigned int n);
/* Start every connection of the run at once; return when all are over.
 * 0, or -EIO if the event loop failed. */
int probe_ctx_run(struct probe_ctx *ctx);
/* After a run: release the connections' RDMA resources at once, keep
 * their figures; *kept takes them (free with probe_ctx_free_conns). */
void probe_ctx_release(struct probe_ctx *ctx, struct probe_conn ***kept,
		       unsigned int *nkept);

/* Fail every connection of the run from outside (a signal); why: a
 * static string. */
void probe_ctx_abort(struct probe_ctx *ctx, const char *why);
/* A connection's outcome; it points into c (until freed). */
void probe_ctx_outcome(struct probe_conn *c, struct probe_outcome *o);
/* Free kept connections and their array. */
void probe_ctx_free_conns(struct probe_conn **v, unsigned int n);

#endif /* RDMAD_PROBE_CTX_H */
