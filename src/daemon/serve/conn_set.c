/* SPDX-License-Identifier: BSD-2-Clause */
/* conn_set.c - the connections of an owner (see conn_set.h). */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "serve/conn_set.h"

void conn_set_init(struct conn_set *s, struct event_base *base,
		   const struct rdmad_config *cfg, struct stats *stats,
		   struct rdma_devs *devs, void (*gone)(void *arg),
		   void *arg)
{
	memset(s, 0, sizeof(*s));
	s->base = base;
	s->cfg = cfg;
	s->stats = stats;
	s->devs = devs;
	s->gone = gone;
	s->arg = arg;
	TAILQ_INIT(&s->list);
}

unsigned int conn_set_count(const struct conn_set *s)
{
	return (unsigned int)stats_active_total(s->stats);
}

bool conn_set_empty(const struct conn_set *s)
{
	return TAILQ_EMPTY(&s->list);
}

unsigned int conn_set_snapshot(const struct conn_set *s, struct stats_conn *out,
			       unsigned int max)
{
	unsigned int n = 0;
	struct conn *c;

	TAILQ_FOREACH(c, &s->list, link) {
		struct stats_conn *o;

		if (n >= max)
			break;
		o = &out[n];
		memset(o, 0, sizeof(*o));
		o->id = c->id;
		snprintf(o->peer, sizeof(o->peer), "%s", c->peer);
		o->proto = conn_stats_proto(c);
		conn_fsm_str(&c->fsm, o->state, sizeof(o->state));
		o->bytes = c->bytes;
		o->ops = c->rounds;
		o->age_ms = clock_since_ns(c->t_open) / 1000000u;
		n++;
	}
	return n;
}
