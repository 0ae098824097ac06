/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * listener.h - rdmad's listening rdma_cm ids: one handler each on the
 * daemon's CM channel (rdma_cm.h), listening again with backoff when
 * their device is gone.  A CONNECT_REQUEST goes up to the owner through
 * request(); the listeners know nothing else of the daemon.
 */
#ifndef RDMAD_LISTENER_H
#define RDMAD_LISTENER_H

#include <stdbool.h>
#include <stddef.h>

#include <event2/event.h>

#include "core/config.h"
#include "rdma_cm.h"
#include "rdma_dev.h"
#include "core/stats.h"

struct listeners;

struct listener {
	struct rdma_cm_handler cmh;	/* its id's context */
	struct rdma_cm_id *id;		/* NULL while the device is gone */
	struct config_listen addr;
	struct listeners *set;
	struct event *retry;		/* re-listen timer, with backoff */
	unsigned int retry_ms;
};

struct listeners {
	struct event_base *base;
	struct rdma_cm_chan *cm;
	struct rdma_devs *devs;
	/* A connection request on one of them (its id: e->id). */
	void (*request)(void *arg, const struct rdma_cm_ev *e);
	void *arg;

	unsigned int backlog;
	struct listener l[CONFIG_MAX_LISTEN];
	unsigned int n;
	bool stopped;
};

void listener_init(struct listeners *ls, struct event_base *base,
		   struct rdma_cm_chan *cm, struct rdma_devs *devs,
		   void (*request)(void *arg, const struct rdma_cm_ev *e),
		   void *arg);
/* Listen on CFG's addresses; 0 or -errno (logged, nothing listens). */
int listener_start(struct listeners *ls, const struct rdmad_config *cfg);
/* Stop accepting: destroy the listening ids (connections stay). */
void listener_stop(struct listeners *ls);
/*
 * Reload: listen on the addresses of CFG, keeping the listeners whose
 * address stays, opening the added ones, closing the removed ones (live
 * connections are untouched).  0, or -errno with the reason in ERR and
 * nothing changed.
 */
int listener_reload(struct listeners *ls, const struct rdmad_config *cfg,
		    char *err, size_t errlen);
/* The listeners for the status: address and up; their count. */
unsigned int listener_view(const struct listeners *ls,
			   struct stats_listener *out);

#endif /* RDMAD_LISTENER_H */
