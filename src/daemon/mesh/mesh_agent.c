/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_agent.c - rdmad's mesh agent (see mesh_agent.h): the set of peers
 * and their paths, its reload (what changes is mesh_peers_diff's), and
 * the view the renderers are given.  Each path's driver is mesh_path.c;
 * the targets file and its checks are mesh_targets_check.c, the peers
 * in time and a reload's handover mesh_targets_sched.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "clock.h"
#include "core/log.h"
#include "mesh/mesh_agent.h"
#include "mesh/mesh_local.h"
#include "mesh/mesh_path.h"
#include "mesh/mesh_peers_diff.h"
#include "mesh/mesh_select_sched.h"
#include "mesh/mesh_targets_sched.h"

struct mesh_peer {
	char name[MESH_NAME_LEN];	/* "HOST:PORT", the metrics label */
	struct sockaddr_storage dst;
	struct sockaddr_storage src;	/* ss_family 0: [mesh] source */
	char source[64];		/* the view's: src or [mesh] source */
	/* its place and why it is probed (mesh_target's) */
	char tor[MESH_NAME_LEN], host[MESH_NAME_LEN];
	uint8_t why, slot, rail;
	uint64_t epoch;
	unsigned int n_paths;		/* running */
	unsigned int n_figures;		/* with figures (see the diff) */
	/* allocated as [mesh] paths asks (a dropped path's stay: its
	 * figures count), not CONFIG_MESH_PATHS_MAX of them a peer */
	struct mesh_path *path[CONFIG_MESH_PATHS_MAX];
	bool keep;			/* reload: in the new file too */
	bool remake;			/* reload: its sessions made anew */
	struct mesh_health health;	/* its paths' rounds together */
};

struct mesh_agent {
	struct mesh_ctx x;		/* shared by every path */

	struct mesh_peer **peers;	/* in file order */
	unsigned int n_peers;

	/* prepared by mesh_agent_prepare (or a slot's switch) */
	bool prepared;
	struct config_mesh next_cfg;
	struct mesh_targets next;

	/* the inventory in force and its selection; its next slot switch */
	struct mesh_targets cur;
	struct event *switch_ev;
	uint64_t switches;
	bool switching;			/* the commit is a slot's switch */

	/* targets entries that are this rdmad (rdmad_mesh_self_info) */
	char self[MESH_SELF_MAX][MESH_NAME_LEN];
	unsigned int n_self;

	bool stopping;
	uint64_t reloads;

	struct mesh_view_peer *view;	/* mesh_agent_view's */
	unsigned int view_n;
	enum mesh_health_state view_rails[MESH_INV_RAILS_MAX];
	enum mesh_health_state view_places[MESH_INV_RAILS_MAX][MESH_PLACES];
};

/* ---- peers ------------------------------------------------------------ */

static void mesh_peer_free(struct mesh_peer *peer)
{
	unsigned int i;

	for (i = 0; i < CONFIG_MESH_PATHS_MAX; i++) {
		if (!peer->path[i])
			continue;
		mesh_path_fini(peer->path[i]);
		free(peer->path[i]);
	}
	free(peer);
}

/* Where T stands and why it is probed now (a kept peer's too). */
static void mesh_peer_place(struct mesh_peer *peer, const struct mesh_target *t)
{
	snprintf(peer->tor, sizeof(peer->tor), "%s", t->tor ? t->tor : "");
	snprintf(peer->host, sizeof(peer->host), "%s", t->host ? t->host : "");
	peer->why = t->why;
	peer->slot = t->slot;
	peer->rail = t->rail;
	peer->epoch = t->epoch;
}

/* The address PEER's rounds leave from as text (its own, else CFG_SRC,
 * [mesh] source), kept in PEER; NULL when rdma_cm picks. */
static const char *mesh_peer_source(struct mesh_peer *peer,
				    const struct sockaddr_storage *cfg_src)
{
	const struct sockaddr_storage *s = peer->src.ss_family ? &peer->src :
					   cfg_src;
	uint16_t port;

	if (!s->ss_family ||
	    addr_split((const struct sockaddr *)(const void *)s, peer->source,
		       sizeof(peer->source), &port))
		return NULL;
	return peer->source;
}

/* A peer of T with no path yet (mesh_peer_start makes them). */
static int mesh_peer_new(const struct mesh_target *t, struct mesh_peer **out)
{
	struct mesh_peer *peer = calloc(1, sizeof(*peer));

	if (!peer)
		return -ENOMEM;
	peer->dst = t->dst;
	peer->src = t->src;
	snprintf(peer->name, sizeof(peer->name), "%s", t->name);
	mesh_peer_place(peer, t);
	mesh_health_init(&peer->health, clock_now_ns());
	*out = peer;
	return 0;
}

/* Paths FROM.. of PEER stop (all: 0). */
static void mesh_peer_stop(struct mesh_peer *peer, unsigned int from)
{
	unsigned int i;

	for (i = from; i < peer->n_paths; i++)
		mesh_path_feed(peer->path[i], MESH_EV_STOP);
	if (from < peer->n_paths)
		peer->n_paths = from;
}

/*
 * PEER's paths count their rounds in its rail's too, and with topology in
 * its rail's pool of its place (a kept peer's rail and place may change
 * with a reload: what it counted stays where it was).
 */
static void mesh_peer_rail(struct mesh_peer *peer, struct mesh_ctx *x)
{
	unsigned int r = peer->rail < MESH_INV_RAILS_MAX ? peer->rail : 0;
	struct mesh_rail_stats *rail = &x->rails[r];
	struct mesh_health *place = NULL;
	enum mesh_place k = MESH_PLACE_SAME_TOR;
	unsigned int i;

	rail->seen = true;
	if (peer->why == MESH_SELECT_SAME_TOR ||
	    peer->why == MESH_SELECT_CROSS_TOR) {
		k = peer->why == MESH_SELECT_SAME_TOR ? MESH_PLACE_SAME_TOR :
							MESH_PLACE_CROSS_TOR;
		place = &x->place_health[r][k];
		rail->place_seen[k] = true;
	}
	for (i = 0; i < CONFIG_MESH_PATHS_MAX; i++) {
		if (!peer->path[i])
			continue;
		peer->path[i]->st.rail = rail;
		peer->path[i]->health.rail = &x->rail_health[r];
		peer->path[i]->health.rail_no = r;
		peer->path[i]->health.place = place;
		peer->path[i]->health.place_no = k;
	}
}

/* Paths up to N of PEER run (made as they are first needed). */
static void mesh_peer_start(struct mesh_peer *peer, struct mesh_ctx *x,
			    unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (peer->path[i])
			continue;
		peer->path[i] = calloc(1, sizeof(*peer->path[i]));
		if (!peer->path[i] ||
		    mesh_path_init(peer->path[i], x, peer->name, &peer->dst,
				   &peer->src, i)) {
			free(peer->path[i]);
			peer->path[i] = NULL;
			log_err("mesh: %s: out of memory: %u of its %u paths "
				"probed", peer->name, i, n);
			n = i;
			break;
		}
	}
	mesh_peer_rail(peer, x);
	for (i = 0; i < n; i++) {
		peer->path[i]->named_idx = n > 1;
		peer->path[i]->health.peer = n > 1 ? &peer->health : NULL;
	}
	for (i = peer->n_paths; i < n; i++) {
		peer->n_paths = i + 1;
		mesh_path_start(peer->path[i]);
	}
	if (peer->n_figures < peer->n_paths)
		peer->n_figures = peer->n_paths;
}

/* ---- the agent -------------------------------------------------------- */

static void mesh_switch_cb(evutil_socket_t fd, short what, void *arg);

/* The timer of the next slot switch of the inventory in force. */
static void mesh_agent_arm_switch(struct mesh_agent *a)
{
	uint64_t now = clock_wall_ms(), wait;
	struct timeval tv;

	evtimer_del(a->switch_ev);
	if (!a->cur.next_ms || a->stopping)
		return;
	wait = a->cur.next_ms > now ? a->cur.next_ms - now : 0;
	tv.tv_sec = (time_t)(wait / 1000);
	tv.tv_usec = (suseconds_t)(wait % 1000 * 1000);
	if (evtimer_add(a->switch_ev, &tv))
		log_err("mesh: cannot arm the epoch timer: the cross-ToR "
			"peers stay as they are until a reload");
}

/*
 * A slot's epoch ended: the peers at this moment (the selection's), as a
 * reload with the same settings would take them: peers still selected
 * keep their sessions, the others stop, the new ones start.  One slot
 * switches at a time, so this is a few peers, never the whole set.
 */
static void mesh_switch_cb(evutil_socket_t fd, short what, void *arg)
{
	struct mesh_agent *a = arg;
	uint64_t now = clock_wall_ms();

	(void)fd;
	(void)what;
	if (a->prepared || a->stopping)
		return;		/* a reload is under way: it re-arms */
	if (now < a->cur.next_ms) {
		mesh_agent_arm_switch(a);	/* the wall clock went back */
		return;
	}
	if (mesh_targets_at(&a->cur, now)) {
		log_err("mesh: epoch: out of memory; the peers stay as they "
			"were");
		a->cur.next_ms = now + 1000;
		mesh_agent_arm_switch(a);
		return;
	}
	memset(&a->next, 0, sizeof(a->next));
	a->next.v = a->cur.v;
	a->next.n = a->cur.n;
	a->next.cap = a->cur.cap;
	a->cur.v = NULL;
	a->cur.n = a->cur.cap = 0;
	memcpy(a->next.self, a->self, sizeof(a->self));
	a->next.n_self = a->n_self;
	a->next_cfg = a->x.cfg;
	a->prepared = true;
	a->switching = true;
	a->switches++;
	mesh_agent_commit(a);
}

int mesh_agent_new(struct mesh_agent **out, struct event_base *base,
		   struct rdma_cm_chan *cm, struct rdma_devs *devs,
		   const struct auth_key *psk,
		   const struct rdma_counters *counters)
{
	struct mesh_agent *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	if (mesh_ctx_init(&a->x, base, cm, devs, psk, counters)) {
		free(a);
		return -ENOMEM;
	}
	a->switch_ev = evtimer_new(base, mesh_switch_cb, a);
	if (!a->switch_ev) {
		mesh_ctx_fini(&a->x);
		free(a);
		return -ENOMEM;
	}
	*out = a;
	return 0;
}

void mesh_agent_prepare(struct mesh_agent *a, const struct rdmad_config *cfg,
			struct mesh_targets *t)
{
	mesh_agent_rollback(a);
	a->next = *t;
	memset(t, 0, sizeof(*t));
	if (a->next.n_self)
		log_info("mesh: %u of %u targets in %s are this rdmad "
			 "itself (its address and port): not probed",
			 a->next.n_self, a->next.n_file, cfg->mesh.targets);
	a->next_cfg = cfg->mesh;
	a->prepared = true;
}

void mesh_agent_rollback(struct mesh_agent *a)
{
	if (!a->prepared)
		return;
	mesh_targets_free(&a->next);
	a->prepared = false;
}

static void mesh_agent_sizes(const struct config_mesh *m, char *buf,
			     size_t len)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < m->n_sizes && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%u",
					i ? " " : "", m->sizes[i]);
}

/* The new peer list: old peers where the names match, new ones else. */
static int mesh_agent_next_peers(struct mesh_agent *a,
				 struct mesh_peer ***out)
{
	const char **old = calloc(a->n_peers + 1, sizeof(*old));
	const char **next = calloc(a->next.n + 1, sizeof(*next));
	int *map = calloc(a->next.n + 1, sizeof(*map));
	struct mesh_peer **v = calloc(a->next.n + 1, sizeof(*v));
	unsigned int i;
	int ret = -ENOMEM;

	if (!old || !next || !map || !v)
		goto out;
	for (i = 0; i < a->n_peers; i++)
		old[i] = a->peers[i]->name;
	for (i = 0; i < a->next.n; i++)
		next[i] = a->next.v[i].name;
	mesh_peers_match(old, a->n_peers, next, a->next.n, map);
	for (i = 0; i < a->next.n; i++) {
		if (map[i] >= 0 && !a->peers[map[i]]->keep) {
			v[i] = a->peers[map[i]];
			v[i]->keep = true;
		} else if (mesh_peer_new(&a->next.v[i], &v[i])) {
			while (i--)
				if (!v[i]->keep)
					mesh_peer_free(v[i]);
			for (i = 0; i < a->n_peers; i++)
				a->peers[i]->keep = false;
			goto out;
		}
	}
	*out = v;
	v = NULL;
	ret = 0;
out:
	free(old);
	free(next);
	free(map);
	free(v);
	return ret;
}

/* This host's place in the inventory in force, and its slots' timing. */
static void mesh_agent_view_place(const struct mesh_agent *a,
				  struct mesh_view *v)
{
	const struct mesh_inventory *inv = a->cur.inv;
	const struct mesh_inv_host *h;
	uint64_t now;

	if (!inv || !inv->topology || a->cur.self_host == MESH_INV_NONE)
		return;
	h = &inv->host[a->cur.self_host];
	v->topology = true;
	v->host = mesh_inventory_str(inv, h->name);
	v->tor = mesh_inventory_str(inv, inv->tor_name[h->tor]);
	v->pod = h->pod == MESH_INV_NONE ? "" :
		 mesh_inventory_str(inv, inv->pod_name[h->pod]);
	v->switches = a->switches;
	now = clock_wall_ms();
	v->next_switch_ms = a->cur.next_ms > now ? a->cur.next_ms - now : 0;
}

/* With an inventory: where this host stands and how it picks its peers. */
static void mesh_agent_log_place(const struct mesh_agent *a)
{
	struct mesh_view v;
	struct mesh_select_bounds b;

	memset(&v, 0, sizeof(v));
	mesh_agent_view_place(a, &v);
	if (!v.topology)
		return;
	mesh_select_bounds(a->cur.sel, &b);
	log_notice("mesh: inventory: this is host %s under ToR %s%s%s, of %u "
		   "hosts; ToRs probing each ToR: %u an epoch (%u s); a host: "
		   "at most %u peers, %u probers", v.host, v.tor,
		   *v.pod ? " in pod " : "", v.pod, a->cur.inv->n_host,
		   b.m_max, a->x.cfg.epoch_ms / 1000, b.max_peers,
		   b.max_inbound);
}

void mesh_agent_commit(struct mesh_agent *a)
{
	struct mesh_ctx *x = &a->x;
	unsigned int i, j, added = 0, removed = 0, kept = 0, moved = 0;
	bool first = !x->cfg.targets[0] && !a->reloads && !a->peers;
	bool remake, sizes_changed;
	struct mesh_peer **v;
	char sizes[96];

	if (!a->prepared)
		return;
	if (!a->switching && a->next.sel && a->cur.sel) {
		/* a new inventory's cross-ToR peers come slot by slot */
		mesh_targets_handover(&a->next, &a->cur, clock_wall_ms());
		if (mesh_targets_at(&a->next, clock_wall_ms()))
			log_err("mesh: reload: out of memory computing the "
				"peers; some may be missing until the next "
				"epoch switch");
	}
	if (mesh_agent_next_peers(a, &v)) {
		log_err("mesh: reload: out of memory; the peers stay as they "
			"were");
		if (a->next.prev_sel) {
			/* the inventory in force goes back where it was */
			a->cur.inv = a->next.prev_inv;
			a->cur.sel = a->next.prev_sel;
			a->next.prev_inv = NULL;
			a->next.prev_sel = NULL;
		}
		a->switching = false;
		mesh_agent_rollback(a);
		return;
	}
	remake = mesh_session_changed(&x->cfg, &a->next_cfg);
	sizes_changed = mesh_sizes_changed(&x->cfg, &a->next_cfg);
	for (i = 0; i < a->n_peers; i++) {
		if (a->peers[i]->keep)
			continue;
		mesh_peer_stop(a->peers[i], 0);
		mesh_peer_free(a->peers[i]);
		removed++;
	}
	for (i = 0; sizes_changed && i < a->next.n; i++)
		for (j = 0; v[i]->keep && j < CONFIG_MESH_PATHS_MAX; j++)
			if (v[i]->path[j])
				mesh_path_sizes(v[i]->path[j], &x->cfg,
						&a->next_cfg);
	x->cfg = a->next_cfg;
	mesh_policy_of(&x->cfg, &x->pol);
	if (first || !a->peers)
		mesh_budget_init(&x->budget, &x->pol.sched, clock_now_ns());
	free(a->peers);
	a->peers = v;
	a->n_peers = a->next.n;
	memcpy(a->self, a->next.self, sizeof(a->self));
	a->n_self = a->next.n_self < MESH_SELF_MAX ? a->next.n_self :
		    MESH_SELF_MAX;
	for (i = 0; i < a->n_peers; i++) {
		struct mesh_peer *peer = a->peers[i];

		if (!peer->keep)
			continue;
		mesh_peer_place(peer, &a->next.v[i]);
		/* a new source (rail address, renumbered inventory): its
		 * paths bind it when they are made anew below */
		peer->remake = mesh_peer_remake(remake, &peer->src,
						&a->next.v[i].src);
		if (peer->remake && !remake)
			moved++;
		peer->src = a->next.v[i].src;
	}
	if (!a->switching) {
		/* a reload: its inventory and selection are in force now
		 * (with the previous ones for the slots not handed over) */
		mesh_targets_free(&a->cur);
		a->cur = a->next;
		a->cur.v = NULL;
		a->cur.n = a->cur.cap = 0;
		a->next.inv = NULL;
		a->next.sel = NULL;
		a->next.prev_inv = NULL;
		a->next.prev_sel = NULL;
	}
	mesh_targets_free(&a->next);
	a->prepared = false;
	for (i = 0; i < a->n_peers; i++) {
		struct mesh_peer *peer = a->peers[i];
		struct mesh_paths_plan plan;

		if (!peer->keep) {
			added++;
		} else {
			kept++;
			peer->keep = false;
			mesh_peers_plan(peer->n_paths, peer->n_figures,
					x->cfg.paths, peer->remake, &plan);
			mesh_peer_stop(peer, plan.stop_from);
			peer->n_figures = plan.n_figures;
		}
		if (!a->stopping)
			mesh_peer_start(peer, x, x->cfg.paths);
	}
	mesh_agent_sizes(&x->cfg, sizes, sizeof(sizes));
	mesh_agent_arm_switch(a);
	if (a->switching) {
		a->switching = false;
		log_info("mesh: epoch: a cross-ToR slot moved on: %u peers in, "
			 "%u out, %u kept", added, removed, kept);
		return;
	}
	if (!x->cfg.targets[0]) {
		if (removed)
			log_notice("mesh: off; %u peers no longer probed",
				   removed);
	} else if (first) {
		log_notice("mesh: probing %u peers from %s, %u path%s each, "
			   "every %u ms, sizes %s bytes", a->n_peers,
			   x->cfg.targets, x->cfg.paths,
			   x->cfg.paths > 1 ? "s" : "", x->cfg.interval_ms,
			   sizes);
	} else {
		log_notice("mesh: reload: %u peers added, %u removed, %u kept%s",
			   added, removed, kept, remake ? " (their sessions "
			   "are made anew: sizes, ops, tos, source or timeouts "
			   "changed)" : "");
		if (moved)
			log_notice("mesh: reload: %u kept peers are probed from "
				   "a new source address (a rail's address or "
				   "the inventory changed): their paths are "
				   "made anew", moved);
	}
	mesh_agent_log_place(a);
	if (!first)
		a->reloads++;
}

void mesh_agent_stop(struct mesh_agent *a)
{
	unsigned int i;

	a->stopping = true;
	evtimer_del(a->switch_ev);
	for (i = 0; i < a->n_peers; i++)
		mesh_peer_stop(a->peers[i], 0);
}

void mesh_agent_view(struct mesh_agent *a, struct mesh_view *v)
{
	uint64_t now = clock_now_ns(), max_age;
	enum mesh_health_state hs[CONFIG_MESH_PATHS_MAX];
	const struct mesh_health *own[CONFIG_MESH_PATHS_MAX];
	unsigned int i, j, n = 0;

	memset(v, 0, sizeof(*v));
	v->on = a->x.cfg.targets[0] != '\0';
	v->targets = a->x.cfg.targets;
	v->interval_ms = a->x.cfg.interval_ms;
	v->sizes = a->x.cfg.sizes;
	v->n_sizes = a->x.cfg.n_sizes;
	v->bw_samples = a->x.bw_samples;
	v->bw_ns = a->x.bw_ns;
	v->reloads = a->reloads;
	v->lag = &a->x.lag_hist;
	v->pressured = a->x.pressured;
	v->late_judged = a->x.late_judged;
	v->late_stall = a->x.late_stall;
	v->late_pressured = a->x.late_pressured;
	v->load_delay_ns = a->x.load_delay_ns;
	v->load_psi_us = a->x.load_psi_us;
	v->psi = a->x.psi;
	for (i = 0; i < a->n_self; i++)
		v->self[i] = a->self[i];
	v->n_self = a->n_self;
	mesh_agent_view_place(a, v);
	if (a->view_n < a->n_peers) {
		struct mesh_view_peer *nv = realloc(a->view, a->n_peers *
						    sizeof(*nv));

		if (!nv)
			return;
		a->view = nv;
		a->view_n = a->n_peers;
	}
	for (i = 0; i < a->n_peers; i++)
		n += a->peers[i]->n_paths;
	max_age = mesh_sched_bw_max_age(&a->x.pol.sched, n, a->x.budget.took_ns);
	for (i = 0; i < a->n_peers; i++) {
		struct mesh_peer *peer = a->peers[i];
		struct mesh_view_peer *vp = &a->view[i];

		vp->name = peer->name;
		vp->host = peer->host;
		vp->tor = peer->tor;
		vp->why = mesh_select_why_name(peer->why);
		vp->cross_tor = peer->why == MESH_SELECT_CROSS_TOR;
		vp->rail = peer->rail;
		vp->source = mesh_peer_source(peer, &a->x.cfg.source);
		vp->slot = peer->slot;
		vp->epoch = peer->epoch;
		vp->n_paths = peer->n_paths;
		vp->n_figures = peer->n_figures;
		vp->flaps = 0;
		for (j = 0; j < peer->n_figures; j++) {
			const struct mesh_health *ph = &peer->path[j]->health.own;
			unsigned int f = mesh_health_flaps(ph, &a->x.pol.health,
							   now);

			if (j < peer->n_paths && f > vp->flaps)
				vp->flaps = f;
			vp->path[j].state = peer->path[j]->s.state;
			vp->path[j].reach = peer->path[j]->s.reach;
			vp->path[j].health = peer->path[j]->health.own.state;
			hs[j] = vp->path[j].health;
			vp->path[j].st = &peer->path[j]->st;
			vp->path[j].error = peer->path[j]->error;
			vp->path[j].bw_stale = mesh_stats_bw_stale(
				&peer->path[j]->st, now, max_age);
		}
		vp->health = mesh_health_peer(peer->n_paths > 1 ? &peer->health :
					      NULL, hs, peer->n_paths);
		for (j = 0; j < peer->n_paths; j++)
			own[j] = &peer->path[j]->health.own;
		vp->paths_split = mesh_health_split(own, peer->n_paths,
						    &a->x.pol.health);
		if (peer->n_paths > 1)
			vp->bw_learnt = mesh_health_bw_learnt(
				&peer->health, &a->x.pol.health);
		else if (peer->n_paths == 1)
			vp->bw_learnt = mesh_health_bw_learnt(
				&peer->path[0]->health.own, &a->x.pol.health);
	}
	if (v->topology)
		mesh_view_order(a->view, a->n_peers);
	v->compact = config_mesh_compact(&a->x.cfg, v->topology);
	v->rails = a->x.rails;
	for (i = 0; i < MESH_INV_RAILS_MAX; i++) {
		a->view_rails[i] = a->x.rail_health[i].state;
		for (j = 0; j < MESH_PLACES; j++)
			a->view_places[i][j] = a->x.place_health[i][j].state;
	}
	v->rail_health = a->view_rails;
	v->place_health = (const enum mesh_health_state (*)[MESH_PLACES])
			  a->view_places;
	v->n_rails = MESH_INV_RAILS_MAX;
	v->rail_keys = a->x.cfg.n_rails > 0;
	v->peers = a->view;
	v->n_peers = a->n_peers;
}

void mesh_agent_free(struct mesh_agent *a)
{
	unsigned int i;

	if (!a)
		return;
	mesh_agent_rollback(a);
	for (i = 0; i < a->n_peers; i++)
		mesh_peer_free(a->peers[i]);
	free(a->peers);
	if (a->switch_ev)
		event_free(a->switch_ev);
	mesh_targets_free(&a->cur);
	mesh_ctx_fini(&a->x);
	free(a->view);
	free(a);
}
