/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * select-check.h - the properties of mesh_select_sched.h (P1-P6) checked
 * on the selection's own output, host by host, epoch by epoch; shared by
 * test-mesh-select and tests/bench/fleet-sim (which also takes its
 * figures from here).  Nothing here recomputes the rule: it looks only
 * at the peers each address was given and at the inventory's topology.
 *
 *   struct select_check c; select_check_init(&c, &sel);
 *   select_check_epoch(&c, e);  ...  select_check_cover(&c, e0, ...);
 *   c.failures == 0, c.first: the first failure, in words.
 */
#ifndef RDMAD_SELECT_CHECK_H
#define RDMAD_SELECT_CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_select_sched.h"

#define SELECT_CHECK_SRC	(MESH_SELECT_CROSS_TOR_MAX + 1)

struct select_check {
	const struct mesh_select *s;
	struct mesh_select_bounds b;
	unsigned long failures;
	char first[512];
	/* Figures of the epochs checked (the largest seen). */
	unsigned int peers_max, in_max;		/* per host */
	unsigned long long peers_sum;		/* over hosts and epochs */
	unsigned int epochs;
	unsigned int no_cross_pod;		/* ToR-epochs without one */
	unsigned int moment_peers, moment_in;	/* at the moments checked */
	/* Scratch, by address. */
	struct mesh_select_peer *buf;
	unsigned int cap;
	uint32_t *in_same, *in_cross, *src, *seen;
	uint32_t *host_in;
	uint32_t *tgt, *ntgt;			/* by rail and ToR position */
	uint32_t tor_base[MESH_INV_RAILS_MAX];
};

__attribute__((format(printf, 2, 3)))
static void select_fail(struct select_check *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->failures++) {
		va_start(ap, fmt);
		vsnprintf(c->first, sizeof(c->first), fmt, ap);
		va_end(ap);
	}
}

static void select_check_init(struct select_check *c,
			      const struct mesh_select *s)
{
	const struct mesh_inventory *inv = s->inv;
	uint32_t n = inv->n_addr + 1, tors = 1, r;

	memset(c, 0, sizeof(*c));
	c->s = s;
	mesh_select_bounds(s, &c->b);
	c->cap = c->b.max_peers + 1;
	for (r = 0; r < MESH_INV_RAILS_MAX; r++) {
		c->tor_base[r] = tors;
		tors += s->rail[r].n_tor;
	}
	c->buf = calloc(c->cap, sizeof(*c->buf));
	c->in_same = calloc(n, sizeof(uint32_t));
	c->in_cross = calloc(n, sizeof(uint32_t));
	c->src = calloc((size_t)n * SELECT_CHECK_SRC, sizeof(uint32_t));
	c->seen = calloc(n, sizeof(uint32_t));
	c->host_in = calloc(inv->n_host + 1, sizeof(uint32_t));
	c->tgt = calloc((size_t)tors * SELECT_CHECK_SRC, sizeof(uint32_t));
	c->ntgt = calloc(tors, sizeof(uint32_t));
	if (!c->buf || !c->in_same || !c->in_cross || !c->src || !c->seen ||
	    !c->host_in || !c->tgt || !c->ntgt) {
		fprintf(stderr, "select-check: out of memory\n");
		exit(99);
	}
}

static void select_check_fini(struct select_check *c)
{
	free(c->buf);
	free(c->in_same);
	free(c->in_cross);
	free(c->src);
	free(c->seen);
	free(c->host_in);
	free(c->tgt);
	free(c->ntgt);
}

static uint32_t select_tor_size(const struct mesh_select *s, unsigned int r,
				uint32_t pos)
{
	return s->rail[r].first[pos + 1] - s->rail[r].first[pos];
}

/* Add V to the small set at SET (N so far, room for SELECT_CHECK_SRC). */
static void select_set_add(uint32_t *set, uint32_t *n, uint32_t v)
{
	uint32_t i;

	for (i = 0; i < *n; i++)
		if (set[i] == v)
			return;
	if (*n < SELECT_CHECK_SRC)
		set[*n] = v;
	(*n)++;
}

static int select_u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int select_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One address's peers in epoch E, against P1, P2, P4. */
static void select_check_addr(struct select_check *c, uint32_t a, uint64_t e,
			      unsigned int *host_peers)
{
	const struct mesh_select *s = c->s;
	const struct mesh_inventory *inv = s->inv;
	unsigned int r = inv->addr[a].rail, same = 0, i;
	const struct mesh_select_rail *R = &s->rail[r];
	uint32_t pos = s->addr_pos[a], ppos, base = c->tor_base[r];
	int n;

	n = mesh_select_addr_peers(s, a, e, c->buf, c->cap);
	if (n < 0) {
		select_fail(c, "epoch %llu: %s has more peers than the "
			    "bound %u", (unsigned long long)e,
			    inv->pool + inv->addr[a].label, c->b.max_peers);
		return;
	}
	*host_peers += (unsigned int)n;
	for (i = 0; i < (unsigned int)n; i++) {
		const struct mesh_select_peer *p = &c->buf[i];

		ppos = s->addr_pos[p->addr];
		if (p->addr == a || p->from != a ||
		    inv->addr[p->addr].rail != r || p->rail != r) {
			select_fail(c, "epoch %llu: %s: peer %s is itself or "
				    "on another rail",
				    (unsigned long long)e,
				    inv->pool + inv->addr[a].label,
				    inv->pool + inv->addr[p->addr].label);
			continue;
		}
		if (c->seen[p->addr] == a + 1) {
			select_fail(c, "epoch %llu: %s probes %s twice",
				    (unsigned long long)e,
				    inv->pool + inv->addr[a].label,
				    inv->pool + inv->addr[p->addr].label);
			continue;
		}
		c->seen[p->addr] = a + 1;
		c->host_in[inv->addr[p->addr].host]++;
		if (p->why != MESH_SELECT_CROSS_TOR) {
			if (ppos != pos)
				select_fail(c, "%s: same-ToR peer %s under "
					    "another ToR",
					    inv->pool + inv->addr[a].label,
					    inv->pool +
					    inv->addr[p->addr].label);
			same++;
			c->in_same[p->addr]++;
			continue;
		}
		if (ppos == pos || p->slot >= R->m || p->epoch != e) {
			select_fail(c, "epoch %llu: %s: cross-ToR peer %s "
				    "under its own ToR, or slot %u of %u",
				    (unsigned long long)e,
				    inv->pool + inv->addr[a].label,
				    inv->pool + inv->addr[p->addr].label,
				    p->slot, R->m);
			continue;
		}
		if (c->in_cross[p->addr] < SELECT_CHECK_SRC)
			c->src[(size_t)p->addr * SELECT_CHECK_SRC +
			       c->in_cross[p->addr]] = pos;
		c->in_cross[p->addr]++;
		select_set_add(c->tgt + (size_t)(base + pos) *
			       SELECT_CHECK_SRC, &c->ntgt[base + pos], ppos);
	}
	if (same != select_tor_size(s, r, pos) - 1)
		select_fail(c, "%s: %u same-ToR peers, %u under its ToR",
			    inv->pool + inv->addr[a].label, same,
			    select_tor_size(s, r, pos));
}

/* A ToR's sources are in another pod than it? (P6) */
static int select_cross_pod(const struct mesh_select *s, unsigned int r,
			    uint32_t pos, const uint32_t *src, unsigned int n)
{
	const struct mesh_inventory *inv = s->inv;
	uint32_t pod = inv->tor_pod[s->rail[r].tor[pos]];
	unsigned int i;

	for (i = 0; i < n; i++)
		if (inv->tor_pod[s->rail[r].tor[src[i]]] != pod)
			return 1;
	return 0;
}

/* Inbound of every address, and every ToR's sources and targets. */
static void select_check_inbound(struct select_check *c, uint64_t e)
{
	const struct mesh_select *s = c->s;
	const struct mesh_inventory *inv = s->inv;
	uint32_t a, pos, k, *src, *ref, m;
	unsigned int r, i;

	for (a = 0; a < inv->n_addr; a++) {
		r = inv->addr[a].rail;
		m = s->rail[r].m;
		pos = s->addr_pos[a];
		src = c->src + (size_t)a * SELECT_CHECK_SRC;
		if (c->in_cross[a] != m) {
			select_fail(c, "epoch %llu: %s probed from %u other "
				    "ToRs' hosts, not Q = M = %u",
				    (unsigned long long)e,
				    inv->pool + inv->addr[a].label,
				    c->in_cross[a], m);
			continue;
		}
		if (c->in_same[a] != select_tor_size(s, r, pos) - 1)
			select_fail(c, "%s: probed by %u under its ToR, not "
				    "%u", inv->pool + inv->addr[a].label,
				    c->in_same[a],
				    select_tor_size(s, r, pos) - 1);
		qsort(src, m, sizeof(*src), select_u32_cmp);
		for (i = 0; i < m; i++)
			if (src[i] == pos || (i && src[i] == src[i - 1]))
				select_fail(c, "epoch %llu: %s: two probers "
					    "from one ToR, or its own",
					    (unsigned long long)e,
					    inv->pool + inv->addr[a].label);
	}
	/* Every address of a ToR: the same M source ToRs. */
	for (a = 0; a < inv->n_addr; a++) {
		r = inv->addr[a].rail;
		m = s->rail[r].m;
		pos = s->addr_pos[a];
		src = c->src + (size_t)a * SELECT_CHECK_SRC;
		k = s->rail[r].member[s->rail[r].first[pos]];
		ref = c->src + (size_t)k * SELECT_CHECK_SRC;
		if (c->in_cross[a] != m || c->in_cross[k] != m)
			continue;
		if (memcmp(ref, src, m * sizeof(*src)))
			select_fail(c, "epoch %llu: %s and %s are probed from "
				    "different ToRs", (unsigned long long)e,
				    inv->pool + inv->addr[a].label,
				    inv->pool + inv->addr[k].label);
		if (k == a && m && inv->pods &&
		    !select_cross_pod(s, r, pos, src, m))
			c->no_cross_pod++;
	}
	for (r = 0; r < MESH_INV_RAILS_MAX; r++)
		for (pos = 0; pos < s->rail[r].n_tor; pos++)
			if (c->ntgt[c->tor_base[r] + pos] != s->rail[r].m)
				select_fail(c, "epoch %llu: rail %u ToR %s "
					    "probes %u ToRs, not M = %u",
					    (unsigned long long)e, r,
					    inv->pool + inv->tor_name[
						s->rail[r].tor[pos]],
					    c->ntgt[c->tor_base[r] + pos],
					    s->rail[r].m);
}

/* Every host's inbound probers (host_in) against BOUND; the most in *MAX. */
static void select_check_host_in(struct select_check *c, unsigned int bound,
				 const char *when, unsigned int *max)
{
	const struct mesh_inventory *inv = c->s->inv;
	uint32_t h;

	for (h = 0; h < inv->n_host; h++) {
		if (c->host_in[h] > bound)
			select_fail(c, "host %s: %u inbound probers %s, bound "
				    "%u", inv->pool + inv->host[h].name,
				    c->host_in[h], when, bound);
		if (c->host_in[h] > *max)
			*max = c->host_in[h];
	}
}

/* Every host's peers in epoch E: P1, P2, P4, P6. */
static void select_check_epoch(struct select_check *c, uint64_t e)
{
	const struct mesh_select *s = c->s;
	const struct mesh_inventory *inv = s->inv;
	unsigned int peers, r;
	char when[48];
	uint32_t h, tors = c->tor_base[MESH_INV_RAILS_MAX - 1] +
			   s->rail[MESH_INV_RAILS_MAX - 1].n_tor;

	memset(c->in_same, 0, inv->n_addr * sizeof(uint32_t));
	memset(c->in_cross, 0, inv->n_addr * sizeof(uint32_t));
	memset(c->seen, 0, inv->n_addr * sizeof(uint32_t));
	memset(c->host_in, 0, inv->n_host * sizeof(uint32_t));
	memset(c->ntgt, 0, tors * sizeof(uint32_t));
	for (h = 0; h < inv->n_host; h++) {
		peers = 0;
		for (r = 0; r < MESH_INV_RAILS_MAX; r++)
			if (inv->host[h].addr[r] != MESH_INV_NONE)
				select_check_addr(c, inv->host[h].addr[r], e,
						  &peers);
		if (peers > c->b.max_peers)
			select_fail(c, "host %s: %u peers, bound %u",
				    inv->pool + inv->host[h].name, peers,
				    c->b.max_peers);
		if (peers > c->peers_max)
			c->peers_max = peers;
		c->peers_sum += peers;
	}
	snprintf(when, sizeof(when), "in epoch %llu", (unsigned long long)e);
	select_check_host_in(c, c->b.max_inbound_epoch, when, &c->in_max);
	select_check_inbound(c, e);
	c->epochs++;
}

/*
 * P4 at the moment T_MS: every slot of every address at the epoch it is
 * in then (hosts switch at their own times), against the bounds on peers
 * and on inbound probers at a moment (S_A - 1 + 2M an address).
 */
static void select_check_moment(struct select_check *c, uint64_t t_ms)
{
	const struct mesh_select *s = c->s;
	const struct mesh_inventory *inv = s->inv;
	unsigned int r, j, peers, i;
	char when[48];
	uint32_t h, a;
	int n;

	memset(c->host_in, 0, inv->n_host * sizeof(uint32_t));
	for (h = 0; h < inv->n_host; h++) {
		peers = 0;
		for (r = 0; r < MESH_INV_RAILS_MAX; r++) {
			a = inv->host[h].addr[r];
			if (a == MESH_INV_NONE)
				continue;
			/* Same ToR: the peers of any epoch, before slot 0. */
			n = mesh_select_addr_peers(s, a, 0, c->buf, c->cap);
			for (i = 0; n > 0 && i < (unsigned int)n; i++) {
				if (c->buf[i].why == MESH_SELECT_CROSS_TOR)
					break;
				c->host_in[inv->addr[c->buf[i].addr].host]++;
				peers++;
			}
			for (j = 0; j < s->rail[r].m; j++) {
				n = mesh_select_slot_peers(s, a,
					mesh_select_epoch_at(s, a, j, t_ms), j,
					c->buf, c->cap);
				for (i = 0; n > 0 && i < (unsigned int)n; i++)
					c->host_in[inv->addr[
						c->buf[i].addr].host]++;
				peers += n > 0 ? (unsigned int)n : 0;
			}
		}
		if (peers > c->b.max_peers)
			select_fail(c, "host %s: %u peers at %llu ms, bound "
				    "%u", inv->pool + inv->host[h].name, peers,
				    (unsigned long long)t_ms, c->b.max_peers);
		if (peers > c->moment_peers)
			c->moment_peers = peers;
	}
	snprintf(when, sizeof(when), "at %llu ms", (unsigned long long)t_ms);
	select_check_host_in(c, c->b.max_inbound, when, &c->moment_in);
}

/*
 * P3 on RAIL: ordered ToR pairs probed, epochs E0, E0+1, ... until all
 * are (at most LIMIT epochs).  Returns the epochs it took (0: not within
 * LIMIT); *FIRST gets the share covered by epoch E0 alone.
 */
static unsigned int select_check_cover(struct select_check *c,
				       unsigned int r, uint64_t e0,
				       unsigned int limit, double *first)
{
	const struct mesh_select *s = c->s;
	const struct mesh_select_rail *R = &s->rail[r];
	uint64_t t = R->n_tor, want = t * (t - 1), have = 0, cell;
	struct mesh_select_peer p[64];
	unsigned int e, j, k;
	uint8_t *bits;
	uint32_t i, a;
	int n;

	*first = 1;
	if (t < 2)
		return 1;
	bits = calloc((t * t + 7) / 8, 1);
	if (!bits)
		exit(99);
	for (e = 0; e < limit && have < want; e++) {
		for (i = 0; i < R->first[t]; i++) {
			a = R->member[i];
			for (j = 0; j < R->m; j++) {
				n = mesh_select_slot_peers(s, a, e0 + e, j, p,
							   64);
				for (k = 0; k < (unsigned int)(n > 0 ? n : 0);
				     k++) {
					cell = s->addr_pos[a] * t +
					       s->addr_pos[p[k].addr];
					if (bits[cell / 8] & (1u << cell % 8))
						continue;
					bits[cell / 8] |= (uint8_t)(1u <<
								    cell % 8);
					have++;
				}
			}
		}
		if (!e)
			*first = (double)have / (double)want;
	}
	free(bits);
	if (have < want) {
		select_fail(c, "rail %u: %llu of %llu ToR pairs probed in %u "
			    "epochs", r, (unsigned long long)have,
			    (unsigned long long)want, limit);
		return 0;
	}
	return e;
}

/*
 * P5 over epoch E: every (rail, slot) of a host switches once, at its
 * own moment, inside the epoch's length.  *PEAK gets the most connects
 * (new cross-ToR peers) the fleet makes in one second of the epoch,
 * *MEAN the mean per second.
 */
static void select_check_switch(struct select_check *c, uint64_t e,
				unsigned int *peak, double *mean)
{
	const struct mesh_select *s = c->s;
	const struct mesh_inventory *inv = s->inv;
	uint64_t len = (uint64_t)s->p.epoch_s * 1000, t, prev, base;
	unsigned long long total = 0;
	struct mesh_select_peer p[64];
	unsigned int *bin, j, r, i, nt;
	uint64_t times[MESH_INV_RAILS_MAX * MESH_SELECT_CROSS_TOR_MAX];
	uint32_t h, a;
	int n;

	bin = calloc(s->p.epoch_s, sizeof(*bin));
	if (!bin)
		exit(99);
	for (h = 0; h < inv->n_host; h++) {
		nt = 0;
		for (r = 0; r < MESH_INV_RAILS_MAX; r++) {
			a = inv->host[h].addr[r];
			if (a == MESH_INV_NONE)
				continue;
			for (j = 0; j < s->rail[r].m; j++) {
				t = mesh_select_switch_ms(s, a, j, e);
				base = e * len;
				if (t < base || t >= base + 2 * len ||
				    mesh_select_epoch_at(s, a, j, t) != e ||
				    mesh_select_epoch_at(s, a, j, t - 1) !=
				    e - 1)
					select_fail(c, "%s slot %u: switch "
						    "to epoch %llu at %llu ms",
						    inv->pool +
						    inv->addr[a].label, j,
						    (unsigned long long)e,
						    (unsigned long long)t);
				times[nt++] = t;
				n = mesh_select_slot_peers(s, a, e, j, p, 64);
				if (n > 0) {
					bin[t / 1000 % s->p.epoch_s] +=
						(unsigned int)n;
					total += (unsigned int)n;
				}
			}
		}
		/* One (rail, slot) at a time: no two at the same ms. */
		qsort(times, nt, sizeof(times[0]), select_u64_cmp);
		for (i = 1, prev = nt ? times[0] : 0; i < nt; i++) {
			if (times[i] == prev)
				select_fail(c, "host %s switches two slots at "
					    "%llu ms",
					    inv->pool + inv->host[h].name,
					    (unsigned long long)prev);
			prev = times[i];
		}
	}
	*peak = 0;
	for (i = 0; i < s->p.epoch_s; i++)
		if (bin[i] > *peak)
			*peak = bin[i];
	*mean = (double)total / s->p.epoch_s;
	free(bin);
}

#endif /* RDMAD_SELECT_CHECK_H */
