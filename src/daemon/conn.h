/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn.h - the client connections of rdmad: each one's queue pair and
 * buffers (rdma_qp.h), its CM events (rdma_cm.h), libevent wiring and
 * deadline timers, driven by the pure state machine in conn_fsm.c.
 *
 * The connections live in a struct conn_set their owner gives them: the
 * loop, the configuration (the owner's, current after a reload), the
 * counters, the device registry, and gone(), called after a connection
 * was freed.  They know nothing else of the daemon.
 */
#ifndef RDMAD_CONN_H
#define RDMAD_CONN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

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

struct conn_set {
	struct event_base *base;
	const struct rdmad_config *cfg;	/* the owner's, read when used */
	struct stats *stats;
	struct rdma_devs *devs;
	void (*gone)(void *arg);	/* a connection was freed */
	void *arg;

	struct conn_list list;		/* in accept order */
	uint64_t next_id;
	bool stopping;			/* refuse new connections */
};

void conn_set_init(struct conn_set *s, struct event_base *base,
		   const struct rdmad_config *cfg, struct stats *stats,
		   struct rdma_devs *devs, void (*gone)(void *arg),
		   void *arg);
/* Live connections, counted against the limit: the stats' active ones. */
unsigned int conn_set_count(const struct conn_set *s);
/* No connection left, not even one closing. */
bool conn_set_empty(const struct conn_set *s);

/* CONNECT_REQUEST on a listener: admit and accept, or reject. */
void conn_connect_request(struct conn_set *s, const struct rdma_cm_ev *e);
/* Drop the connections on PORT of CTX (0: every port). */
void conn_device_fatal(struct conn_set *s, struct ibv_context *ctx,
		       uint8_t port, const char *what);
/* Daemon stopping: disconnect everybody. */
void conn_shutdown_all(struct conn_set *s);
/* Up to MAX live connections for the status, in accept order. */
unsigned int conn_snapshot(const struct conn_set *s, struct stats_conn *out,
			   unsigned int max);

#endif /* RDMAD_CONN_H */
