/* SPDX-License-Identifier: BSD-2-Clause */
/* mesh_policy_rules.c - [mesh] keys to the wing's settings, pure (see
 * mesh_policy_rules.h). */
#include <string.h>

#include "mesh/mesh_policy_rules.h"

_Static_assert(CONFIG_MESH_FLAP_DOWNS_MAX <= MESH_HEALTH_FLAPS_MAX,
	       "[mesh] flap_downs beyond what a path's health remembers");

#define NS_PER_MS	1000000ull

static uint64_t mesh_policy_ns(unsigned int ms)
{
	return (uint64_t)ms * NS_PER_MS;
}

static void mesh_policy_sched(const struct config_mesh *m,
			      struct mesh_sched_cfg *s)
{
	s->interval_ns = mesh_policy_ns(m->interval_ms);
	s->jitter_pct = m->jitter_pct;
	s->connect_timeout_ns = mesh_policy_ns(m->connect_timeout_ms);
	s->round_timeout_ns = mesh_policy_ns(m->round_timeout_ms);
	s->backoff_min_ns = mesh_policy_ns(m->backoff_min_ms);
	s->backoff_max_ns = mesh_policy_ns(m->backoff_max_ms);
	s->bw_every_ns = mesh_policy_ns(m->bw_every_ms);
	s->bw_duration_ns = mesh_policy_ns(m->bw_duration_ms);
	s->bw_share_ppm = m->bw_share_ppm;
	s->connects_max = MESH_CONNECTS_MAX;
	s->down_after = m->down_after;
	memcpy(s->sizes, m->sizes, sizeof(s->sizes));
	s->n_sizes = m->n_sizes < CONFIG_MESH_SIZES_MAX ? m->n_sizes :
		     CONFIG_MESH_SIZES_MAX;
}

static void mesh_policy_session(const struct config_mesh *m,
				struct mesh_session_cfg *s)
{
	uint32_t max = m->bw_every_ms ? m->bw_size : 0;
	unsigned int i;

	for (i = 0; i < m->n_sizes; i++)
		if (m->sizes[i] > max)
			max = m->sizes[i];
	s->size = max ? max : MESH_SESSION_SIZE_MIN;
	/* one deadline for the client: the longer of its two steps */
	s->timeout_ms = m->connect_timeout_ms > m->round_timeout_ms ?
			m->connect_timeout_ms : m->round_timeout_ms;
	s->depth = MESH_SESSION_DEPTH;
	s->ops = m->ops;
	s->tos = m->tos;
	s->bw_size = m->bw_size;
	s->bw_duration_ms = m->bw_duration_ms;
}

void mesh_policy_of(const struct config_mesh *m, struct mesh_policy *p)
{
	memset(p, 0, sizeof(*p));
	mesh_policy_sched(m, &p->sched);
	mesh_select_params_default(&p->select);
	p->select.cross_tor = m->cross_tor;
	p->select.epoch_s = m->epoch_ms / 1000;
	p->select.max_peers = m->max_peers;
	p->select.max_inbound = m->max_inbound;
	p->load.lag_max_ns = mesh_policy_ns(m->prober_lag_max_ms);
	p->load.wait_max_pct = m->prober_wait_max_pct;
	mesh_policy_session(m, &p->session);
	p->slow_round_ns = mesh_policy_ns(m->slow_round_ms);
	mesh_health_cfg_default(&p->health);
	if (p->slow_round_ns)
		p->health.retrans_ns = p->slow_round_ns;
	p->health.p0_ppm = m->healthy_bad_ppm;
	p->health.p1_ppm = m->lossy_bad_ppm;
	p->health.slow_pct = m->slow_drop_pct;
	p->health.flap_downs = m->flap_downs;
	p->health.flap_window_ns = mesh_policy_ns(m->flap_window_ms);
}

bool mesh_policy_same_session(const struct mesh_policy *a,
			      const struct mesh_policy *b)
{
	return a->session.size == b->session.size &&
	       a->session.timeout_ms == b->session.timeout_ms &&
	       a->session.depth == b->session.depth &&
	       a->session.ops == b->session.ops &&
	       a->session.tos == b->session.tos;
}
