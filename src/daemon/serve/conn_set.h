/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_set.h - the connections of their owner (struct conn_set, in
 * conn_core.h): the loop, the owner's configuration (current after a
 * reload), the counters, the device registry, and gone(), called after a
 * connection was freed.  The connections know nothing else of the daemon.
 */
#ifndef RDMAD_CONN_SET_H
#define RDMAD_CONN_SET_H

#include <stdbool.h>

#include "serve/conn_core.h"

void conn_set_init(struct conn_set *s, struct event_base *base,
		   const struct rdmad_config *cfg, struct stats *stats,
		   struct rdma_devs *devs, void (*gone)(void *arg),
		   void *arg);
/* Live connections, counted against the limit: the stats' active ones. */
unsigned int conn_set_count(const struct conn_set *s);
/* No connection left, not even one closing. */
bool conn_set_empty(const struct conn_set *s);
/* Up to MAX live connections for the status, in accept order. */
unsigned int conn_set_snapshot(const struct conn_set *s,
			       struct stats_conn *out, unsigned int max);

#endif /* RDMAD_CONN_SET_H */
