/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmad.h - the daemon's global state, shared by rdmad.c, listener.c and
 * conn.c.  One event loop; everything hangs off struct rdmad.
 */
#ifndef RDMAD_RDMAD_H
#define RDMAD_RDMAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>
#include <time.h>

#include <event2/event.h>

#include "config.h"
#include "rdma_cm.h"
#include "rdma_dev.h"
#include "stats.h"

#ifndef TAILQ_FOREACH_SAFE	/* not in glibc's sys/queue.h */
#define TAILQ_FOREACH_SAFE(var, head, field, tvar)			\
	for ((var) = TAILQ_FIRST(head);					\
	     (var) && ((tvar) = TAILQ_NEXT(var, field), 1);		\
	     (var) = (tvar))
#endif

struct conn;
TAILQ_HEAD(conn_list, conn);

struct rdmad_listener {
	struct rdma_cm_handler cmh;	/* its id's context */
	struct rdma_cm_id *id;		/* NULL while the device is gone */
	const struct config_listen *addr;
	struct rdmad *d;
	struct event *retry;		/* re-listen timer, with backoff */
	unsigned int retry_ms;
};

struct rdmad {
	struct event_base *base;
	struct rdmad_config cfg;
	const char *config_path;

	struct rdma_cm_chan cm;		/* listeners' and connections' ids */
	struct rdmad_listener listeners[CONFIG_MAX_LISTEN];
	unsigned int n_listeners;

	struct rdma_devs devs;		/* devices in use, their async events */

	struct conn_list conns;
	uint64_t next_conn_id;
	struct stats stats;
	struct timespec t_start;	/* CLOCK_MONOTONIC, for the uptime */
	double start_time;		/* unix seconds */
	struct rdmad_http *http;	/* status and metrics, NULL: off */

	int stopping;
	struct event *stop_timer;
};

/* Live connections, counted against the limit: the stats' active ones. */
static inline unsigned int rdmad_n_conns(const struct rdmad *d)
{
	return (unsigned int)stats_active_total(&d->stats);
}

/* listener.c */
int listener_start(struct rdmad *d);
void listener_stop(struct rdmad *d);
/*
 * Reload: listen on the addresses of CFG, keeping the listeners whose
 * address stays, opening the added ones, closing the removed ones (live
 * connections are untouched).  On success d->cfg becomes *CFG; on failure
 * nothing changes and -errno comes back with the reason in ERR.
 */
int listener_reload(struct rdmad *d, const struct rdmad_config *cfg,
		    char *err, size_t errlen);


/* rdmad.c: called by conn.c when a connection is gone. */
void rdmad_conn_gone(struct rdmad *d);

/* http.c: the status and metrics endpoint ([http] in the config). */
int http_start(struct rdmad *d, char *err, size_t errlen);
void http_stop(struct rdmad *d);
/*
 * Reload in two steps: http_prepare() binds CFG's address if it changed
 * (nothing else changes; -errno and ERR if it cannot), then either
 * http_commit() (the old address closes) or http_rollback().
 */
int http_prepare(struct rdmad *d, const struct rdmad_config *cfg, char *err,
		 size_t errlen);
void http_commit(struct rdmad *d);
void http_rollback(struct rdmad *d);

#endif /* RDMAD_RDMAD_H */
