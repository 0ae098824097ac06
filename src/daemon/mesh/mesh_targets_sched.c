/* SPDX-License-Identifier: BSD-2-Clause */
/* mesh_targets_sched.c - this host's mesh peers in time, pure (see
 * mesh_targets_sched.h). */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "mesh/mesh_inventory_parse.h"
#include "mesh/mesh_select_sched.h"
#include "mesh/mesh_targets_sched.h"

int mesh_target_addr(const struct target *t, struct sockaddr_storage *ss,
		     const char **why)
{
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
		.ai_socktype = SOCK_STREAM,
	}, *ai = NULL;
	char port[8];

	snprintf(port, sizeof(port), "%u", t->port);
	if (getaddrinfo(t->host, port, &hints, &ai) || !ai) {
		*why = "not a numeric address (rdmad resolves no names for "
		       "the mesh: write the peer's address)";
		return -EINVAL;
	}
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	return 0;
}

void mesh_target_no_port(struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)(void *)ss)->sin_port = 0;
	else
		((struct sockaddr_in6 *)(void *)ss)->sin6_port = 0;
}

void mesh_targets_free(struct mesh_targets *t)
{
	if (t->prev_sel) {
		mesh_select_fini(t->prev_sel);
		free(t->prev_sel);
	}
	if (t->prev_inv) {
		mesh_inventory_free(t->prev_inv);
		free(t->prev_inv);
	}
	if (t->sel) {
		mesh_select_fini(t->sel);
		free(t->sel);
	}
	if (t->inv) {
		mesh_inventory_free(t->inv);
		free(t->inv);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

int mesh_target_inv_addr(const struct mesh_inventory *inv, uint32_t a,
			  struct sockaddr_storage *ss)
{
	struct target t;
	const char *why;

	if (targets_parse_line(mesh_inventory_str(inv, inv->addr[a].label),
			       inv->addr[a].port, &t, &why) != 1)
		return -EINVAL;
	return mesh_target_addr(&t, ss, &why);
}

int mesh_targets_room(struct mesh_targets *t, unsigned int n)
{
	struct mesh_target *v;

	if (n <= t->cap)
		return 0;
	v = realloc(t->v, n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->v = v;
	t->cap = n;
	return 0;
}

/* One peer SP of INV's selection into T->v, unless it is there already. */
static int mesh_targets_add(struct mesh_targets *t,
			    const struct mesh_inventory *inv,
			    const struct mesh_select_peer *sp)
{
	const struct mesh_inv_addr *pa = &inv->addr[sp->addr];
	const struct mesh_inv_host *ph = &inv->host[pa->host];
	struct mesh_target *mt;
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, mesh_inventory_str(inv, pa->label)))
			return 0;
	if (mesh_targets_room(t, t->n + 1))
		return -ENOMEM;
	mt = &t->v[t->n];
	memset(mt, 0, sizeof(*mt));
	snprintf(mt->name, sizeof(mt->name), "%s",
		 mesh_inventory_str(inv, pa->label));
	if (mesh_target_inv_addr(inv, sp->addr, &mt->dst) ||
	    mesh_target_inv_addr(inv, sp->from, &mt->src))
		return -EINVAL;	/* checked when read */
	mesh_target_no_port(&mt->src);
	mt->tor = mesh_inventory_str(inv, inv->tor_name[ph->tor]);
	mt->host = mesh_inventory_str(inv, ph->name);
	mt->why = sp->why;
	mt->slot = sp->slot;
	mt->rail = sp->rail;
	mt->epoch = sp->epoch;
	t->n++;
	return 0;
}

/* A growing buffer of selected peers. */
struct mesh_sp_buf {
	struct mesh_select_peer *v;
	unsigned int cap;
};

/*
 * The peers of address A of S: slot SLOT at EPOCH, or (SLOT < 0) every
 * peer at EPOCH, into B, grown as needed.  How many, or -ENOMEM.
 */
static int mesh_sp_get(struct mesh_sp_buf *b, const struct mesh_select *s,
		       uint32_t a, uint64_t epoch, int slot)
{
	int n;

	for (;;) {
		n = slot < 0 ? mesh_select_addr_peers(s, a, epoch, b->v, b->cap) :
		    mesh_select_slot_peers(s, a, epoch, (unsigned int)slot,
					   b->v, b->cap);
		if (n != -ENOSPC)
			return n;
		free(b->v);
		b->cap = b->cap ? 2 * b->cap : 64;
		b->v = malloc(b->cap * sizeof(*b->v));
		if (!b->v) {
			b->cap = 0;
			return -ENOMEM;
		}
	}
}

/* Slot SLOT of address A of SEL (of INV) at NOW into T; its next switch
 * lowers *NEXT. */
static int mesh_targets_slot(struct mesh_targets *t, struct mesh_sp_buf *b,
			     const struct mesh_inventory *inv,
			     const struct mesh_select *sel, uint32_t a,
			     unsigned int slot, uint64_t now, uint64_t *next)
{
	uint64_t e = mesh_select_epoch_at(sel, a, slot, now);
	uint64_t at = mesh_select_switch_ms(sel, a, slot, e + 1);
	int n, k, ret = 0;

	if (!*next || at < *next)
		*next = at;
	n = mesh_sp_get(b, sel, a, e, (int)slot);
	if (n < 0)
		return n;
	for (k = 0; k < n && !ret; k++)
		ret = mesh_targets_add(t, inv, &b->v[k]);
	return ret;
}

/* The previous inventory's slots, all handed over by NOW: let it go. */
static void mesh_targets_prev_done(struct mesh_targets *t, uint64_t now)
{
	unsigned int r, j;

	if (!t->prev_sel)
		return;
	for (r = 0; r < MESH_INV_RAILS_MAX; r++)
		for (j = 0; j < CONFIG_MESH_CROSS_TOR_MAX; j++)
			if (now < t->prev_until[r][j])
				return;
	mesh_select_fini(t->prev_sel);
	free(t->prev_sel);
	mesh_inventory_free(t->prev_inv);
	free(t->prev_inv);
	t->prev_sel = NULL;
	t->prev_inv = NULL;
}

int mesh_targets_at(struct mesh_targets *t, uint64_t now_ms)
{
	const struct mesh_inv_host *h, *ph = NULL;
	struct mesh_sp_buf b = { NULL, 0 };
	unsigned int r, j;
	uint64_t next = 0;
	int n, k, ret = 0;

	if (!t->sel)
		return 0;	/* a full mesh: the file's order, for good */
	mesh_targets_prev_done(t, now_ms);
	t->n = 0;
	h = &t->inv->host[t->self_host];
	if (t->prev_sel)
		ph = &t->prev_inv->host[t->prev_self_host];
	for (r = 0; r < MESH_INV_RAILS_MAX && !ret; r++) {
		uint32_t a = h->addr[r], pa = ph ? ph->addr[r] : MESH_INV_NONE;
		unsigned int m = 0, pm = 0;

		if (a == MESH_INV_NONE)
			continue;
		m = t->sel->rail[t->inv->addr[a].rail].m;
		if (pa != MESH_INV_NONE)
			pm = t->prev_sel->rail[t->prev_inv->addr[pa].rail].m;
		/* same ToR: this inventory's at once (any epoch) */
		n = mesh_sp_get(&b, t->sel, a, 0, -1);
		if (n < 0)
			ret = n;
		for (k = 0; k < n && !ret; k++)
			if (b.v[k].why != MESH_SELECT_CROSS_TOR)
				ret = mesh_targets_add(t, t->inv, &b.v[k]);
		/*
		 * Each slot at the epoch it is in now; after a reload, a slot
		 * keeps the previous inventory's peers until its own switch
		 * (prev_until), so a new inventory comes in slot by slot.
		 */
		for (j = 0; j < (m > pm ? m : pm) && !ret; j++) {
			if (j < pm && now_ms < t->prev_until[r][j]) {
				if (!next || t->prev_until[r][j] < next)
					next = t->prev_until[r][j];
				ret = mesh_targets_slot(t, &b, t->prev_inv,
							t->prev_sel, pa, j,
							now_ms, &next);
			} else if (j < m) {
				ret = mesh_targets_slot(t, &b, t->inv, t->sel,
							a, j, now_ms, &next);
			}
		}
	}
	free(b.v);
	t->next_ms = next;
	return ret;
}

void mesh_targets_handover(struct mesh_targets *next, struct mesh_targets *cur,
			   uint64_t now_ms)
{
	const struct mesh_inv_host *h;
	unsigned int r, j;

	if (!next->sel || !cur->sel)
		return;
	h = &cur->inv->host[cur->self_host];
	memset(next->prev_until, 0, sizeof(next->prev_until));
	for (r = 0; r < MESH_INV_RAILS_MAX; r++) {
		uint32_t a = h->addr[r];
		unsigned int m;

		if (a == MESH_INV_NONE)
			continue;
		m = cur->sel->rail[cur->inv->addr[a].rail].m;
		for (j = 0; j < m; j++)
			next->prev_until[r][j] = mesh_select_switch_ms(cur->sel,
				a, j, mesh_select_epoch_at(cur->sel, a, j,
							   now_ms) + 1);
	}
	next->prev_inv = cur->inv;
	next->prev_sel = cur->sel;
	next->prev_self_host = cur->self_host;
	cur->inv = NULL;
	cur->sel = NULL;
}
