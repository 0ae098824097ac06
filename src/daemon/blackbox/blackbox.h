/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blackbox.h - GET /probe?target=HOST:PORT&module=NAME, the way
 * Prometheus' blackbox_exporter probes: one native probe of the target
 * with a module's settings ([module.NAME]: ops, size, iterations,
 * timeout, tos), run with the shared client (rdma_client.h) on rdmad's
 * loop and CM channel, every byte verified, answered in Prometheus text
 * (docs/monitoring.md, "Blackbox-style probes").  A target's name is
 * resolved on the loop too (libevent's evdns: /etc/hosts, then the
 * nameservers of /etc/resolv.conf), within the probe's timeout.
 *
 *   blackbox.c            runs the probes, at most BLACKBOX_MAX at once
 *   blackbox_ask_parse.c  what a request asks for (pure)
 *   blackbox_render.c     a result as the reply (pure)
 *   blackbox_http.c       the route GET /probe: the query, the wait, the
 *                         answer
 *
 * The HTTP endpoint (http/) knows no probe: the wing adds its route.
 */
#ifndef RDMAD_BLACKBOX_H
#define RDMAD_BLACKBOX_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include <event2/event.h>

#include "core/config.h"
#include "blackbox/blackbox_render.h"

#define BLACKBOX_MAX	16	/* probes at once; more: 503 */

/* Called once when a probe is over (never after blackbox_cancel). */
typedef void (*blackbox_done_fn)(void *arg, const struct blackbox_result *r);

struct rdma_cm_chan;
struct rdma_devs;
struct blackbox_probe;
struct evdns_base;

struct blackbox {
	struct event_base *base;
	struct rdma_cm_chan *cm;
	struct rdma_devs *devs;
	const struct rdmad_config *cfg;	/* [auth] key, read at each start */
	struct blackbox_probe *probes;	/* running or being freed */
	struct evdns_base *dns;		/* made at the first name */
	unsigned int n;
	unsigned int seq;
};

void blackbox_init(struct blackbox *bb, struct event_base *base,
		   struct rdma_cm_chan *cm, struct rdma_devs *devs,
		   const struct rdmad_config *cfg);
/*
 * Probe what ASK asks for (its target, module and timeout);
 * DONE(ARG, result) when over, never from inside this call.  *OUT: the
 * handle for blackbox_cancel.  0, -EBUSY (BLACKBOX_MAX probes running),
 * -ENOMEM.
 */
int blackbox_start(struct blackbox *bb, const struct blackbox_ask *ask,
		   blackbox_done_fn done, void *arg,
		   struct blackbox_probe **out);
/* The asker went away: abort the probe; DONE is not called. */
void blackbox_cancel(struct blackbox_probe *p);
/* Abort and free every probe (at exit, after the HTTP side is gone). */
void blackbox_fini(struct blackbox *bb);

#endif /* RDMAD_BLACKBOX_H */
