/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_select_sched.c - each rdmad's peers from the inventory (the rule
 * and what it guarantees in mesh_select_sched.h).  Pure; unit-tested
 * (test-mesh-select), measured at 100,000 hosts (tests/bench/fleet-sim).
 */
#include "mesh/mesh_select_sched.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

/* Every rdmad hashes names with this key, so all agree on the order. */
static const unsigned char select_key[crypto_shorthash_KEYBYTES] = {
	'r', 'd', 'm', 'a', 'd', '-', 'f', 'l',
	'e', 'e', 't', '-', 's', 'e', 'l', '1',
};

static uint64_t select_hash(const char *s)
{
	unsigned char out[crypto_shorthash_BYTES];
	uint64_t h = 0;
	unsigned int i;

	crypto_shorthash(out, (const unsigned char *)s, strlen(s),
			 select_key);
	for (i = 0; i < sizeof(out); i++)
		h = h << 8 | out[i];
	return h;
}

void mesh_select_params_default(struct mesh_select_params *p)
{
	p->cross_tor = MESH_SELECT_CROSS_TOR_DEFAULT;
	p->epoch_s = MESH_SELECT_EPOCH_DEFAULT;
	p->max_peers = MESH_SELECT_PEERS_DEFAULT;
	p->max_inbound = MESH_SELECT_INBOUND_DEFAULT;
}

int mesh_select_params_check(const struct mesh_select_params *p, char *err,
			     size_t errlen)
{
	static const struct {
		const char *key;
		size_t off;
		unsigned int min, max;
	} lim[] = {
		{ "cross_tor", offsetof(struct mesh_select_params, cross_tor),
		  MESH_SELECT_CROSS_TOR_MIN, MESH_SELECT_CROSS_TOR_MAX },
		{ "epoch", offsetof(struct mesh_select_params, epoch_s),
		  MESH_SELECT_EPOCH_MIN, MESH_SELECT_EPOCH_MAX },
		{ "max_peers", offsetof(struct mesh_select_params, max_peers),
		  1, MESH_SELECT_PEERS_MAX },
		{ "max_inbound",
		  offsetof(struct mesh_select_params, max_inbound),
		  1, MESH_SELECT_INBOUND_MAX },
	};
	unsigned int i, v;

	for (i = 0; i < sizeof(lim) / sizeof(lim[0]); i++) {
		memcpy(&v, (const char *)p + lim[i].off, sizeof(v));
		if (v < lim[i].min || v > lim[i].max) {
			snprintf(err, errlen, "%s: %u is out of range %u..%u",
				 lim[i].key, v, lim[i].min, lim[i].max);
			return -ERANGE;
		}
	}
	return 0;
}

/* A ToR, or an address, with what orders it. */
struct select_key {
	uint64_t major, hash;
	uint32_t minor, id;
	const char *name;
};

static int select_key_cmp(const void *a, const void *b)
{
	const struct select_key *x = a, *y = b;

	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	if (x->minor != y->minor)
		return x->minor < y->minor ? -1 : 1;
	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * RANK[tor id]: the ToRs' order.  Pods in hash order, ToRs in a pod in
 * hash order, then round robin over the pods: the k-th ToR of every pod
 * before the (k+1)-th of any.
 */
static int select_tor_rank(const struct mesh_inventory *inv, uint32_t *rank)
{
	struct select_key *k;
	uint64_t *pod_rank = NULL;
	uint32_t n = inv->n_tor, i, in_pod = 0;

	k = calloc(n > inv->n_pod ? n : inv->n_pod, sizeof(*k));
	pod_rank = calloc(inv->n_pod + 1, sizeof(*pod_rank));
	if (!k || !pod_rank) {
		free(k);
		free(pod_rank);
		return -ENOMEM;
	}
	for (i = 0; i < inv->n_pod; i++) {
		k[i].name = inv->pool + inv->pod_name[i];
		k[i].hash = select_hash(k[i].name);
		k[i].id = i;
	}
	qsort(k, inv->n_pod, sizeof(*k), select_key_cmp);
	for (i = 0; i < inv->n_pod; i++)
		pod_rank[k[i].id] = i;
	/* By pod, then hash: the index in the pod is the round. */
	for (i = 0; i < n; i++) {
		k[i].name = inv->pool + inv->tor_name[i];
		k[i].hash = select_hash(k[i].name);
		k[i].major = inv->tor_pod[i] == MESH_INV_NONE ? 0 :
			     pod_rank[inv->tor_pod[i]];
		k[i].minor = 0;
		k[i].id = i;
	}
	qsort(k, n, sizeof(*k), select_key_cmp);
	for (i = 0; i < n; i++) {
		/* k[i - 1].minor: its pod, already moved there. */
		in_pod = i && k[i].major == k[i - 1].minor ? in_pod + 1 : 0;
		k[i].minor = (uint32_t)k[i].major;
		k[i].major = in_pod;
	}
	qsort(k, n, sizeof(*k), select_key_cmp);
	for (i = 0; i < n; i++)
		rank[k[i].id] = i;
	free(k);
	free(pod_rank);
	return 0;
}

static uint32_t div_up(uint32_t a, uint32_t b)
{
	return (a + b - 1) / b;
}

/* Group the addresses by rail, ToR position and host hash. */
static int select_members(struct mesh_select *s, const uint32_t *rank)
{
	const struct mesh_inventory *inv = s->inv;
	struct mesh_select_rail *R;
	struct select_key *k;
	uint32_t i, a, pos, r, last_rank = 0;

	k = calloc(inv->n_addr ? inv->n_addr : 1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	for (a = 0; a < inv->n_addr; a++) {
		const struct mesh_inv_host *h = &inv->host[inv->addr[a].host];

		k[a].major = inv->addr[a].rail;
		k[a].minor = inv->topology ? rank[h->tor] : 0;
		k[a].name = inv->pool + h->name;
		k[a].hash = select_hash(k[a].name);
		k[a].id = a;
	}
	qsort(k, inv->n_addr, sizeof(*k), select_key_cmp);
	for (i = 0; i < inv->n_addr;) {
		r = (uint32_t)k[i].major;
		R = &s->rail[r];
		for (a = i; a < inv->n_addr && k[a].major == r; a++)
			if (a == i || k[a].minor != k[a - 1].minor)
				R->n_tor++;
		R->first = calloc(R->n_tor + 1, sizeof(*R->first));
		R->tor = calloc(R->n_tor, sizeof(*R->tor));
		R->member = calloc(a - i, sizeof(*R->member));
		if (!R->first || !R->tor || !R->member) {
			free(k);
			return -ENOMEM;
		}
		pos = 0;
		R->s_min = UINT32_MAX;
		for (a = i; a < inv->n_addr && k[a].major == r; a++) {
			if (a > i && k[a].minor != last_rank)
				R->first[++pos] = a - i;
			last_rank = k[a].minor;
			R->tor[pos] = inv->topology ?
				inv->host[inv->addr[k[a].id].host].tor : 0;
			R->member[a - i] = k[a].id;
			s->addr_pos[k[a].id] = pos;
			s->addr_idx[k[a].id] = a - i - R->first[pos];
		}
		R->first[R->n_tor] = a - i;
		for (pos = 0; pos < R->n_tor; pos++) {
			uint32_t n = R->first[pos + 1] - R->first[pos];

			if (n < R->s_min)
				R->s_min = n;
			if (n > R->s_max)
				R->s_max = n;
		}
		R->m = R->n_tor > 1 ? s->p.cross_tor : 0;
		if (R->m > R->n_tor - 1 && R->n_tor)
			R->m = R->n_tor - 1;
		i = a;
	}
	free(k);
	return 0;
}

/* ADDR's peers at most, and inbound in an epoch: P4. */
static void select_addr_bounds(const struct mesh_select *s, uint32_t a,
			       unsigned int *peers, unsigned int *inbound)
{
	const struct mesh_select_rail *R = &s->rail[s->inv->addr[a].rail];
	uint32_t pos = s->addr_pos[a];
	uint32_t sa = R->first[pos + 1] - R->first[pos];

	*peers = sa - 1 + R->m * div_up(R->s_max, sa);
	*inbound = sa - 1 + R->m;
}

void mesh_select_bounds(const struct mesh_select *s,
			struct mesh_select_bounds *b)
{
	const struct mesh_inventory *inv = s->inv;
	unsigned int r, h, peers, inbound, moment, p, in, m;
	const struct mesh_select_rail *R;

	memset(b, 0, sizeof(*b));
	b->m_min = UINT32_MAX;
	for (r = 0; r < s->n_rails; r++) {
		R = &s->rail[r];
		if (R->n_tor < 2)
			continue;
		if (R->m < b->m_min)
			b->m_min = R->m;
		if (R->m > b->m_max)
			b->m_max = R->m;
		if (div_up(R->n_tor - 1, R->m) > b->epochs_all_pairs)
			b->epochs_all_pairs = div_up(R->n_tor - 1, R->m);
	}
	if (b->m_min == UINT32_MAX)
		b->m_min = 0;
	for (h = 0; h < inv->n_host; h++) {
		peers = inbound = moment = 0;
		for (r = 0; r < MESH_INV_RAILS_MAX; r++) {
			if (inv->host[h].addr[r] == MESH_INV_NONE)
				continue;
			select_addr_bounds(s, inv->host[h].addr[r], &p, &in);
			m = s->rail[r].m;
			peers += p;
			inbound += in;
			moment += in + m;
		}
		if (peers > b->max_peers)
			b->max_peers = peers;
		if (inbound > b->max_inbound_epoch)
			b->max_inbound_epoch = inbound;
		if (moment > b->max_inbound)
			b->max_inbound = moment;
	}
}

int mesh_select_init(struct mesh_select *s, const struct mesh_inventory *inv,
		     const struct mesh_select_params *p, char *err,
		     size_t errlen)
{
	struct mesh_select_bounds b;
	uint32_t *rank = NULL, h;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = mesh_select_params_check(p, err, errlen);
	if (ret)
		return ret;
	s->inv = inv;
	s->p = *p;
	s->n_rails = inv->n_rails;
	s->addr_pos = calloc(inv->n_addr + 1, sizeof(*s->addr_pos));
	s->addr_idx = calloc(inv->n_addr + 1, sizeof(*s->addr_idx));
	s->phase_ms = calloc(inv->n_host + 1, sizeof(*s->phase_ms));
	rank = calloc(inv->n_tor + 1, sizeof(*rank));
	ret = -ENOMEM;
	if (!s->addr_pos || !s->addr_idx || !s->phase_ms || !rank)
		goto fail;
	if ((inv->topology && select_tor_rank(inv, rank)) ||
	    select_members(s, rank))
		goto fail;
	for (h = 0; h < inv->n_host; h++)
		s->phase_ms[h] = select_hash(inv->pool + inv->host[h].name) %
				 ((uint64_t)p->epoch_s * 1000);
	free(rank);
	rank = NULL;
	mesh_select_bounds(s, &b);
	ret = -E2BIG;
	if (b.max_peers > p->max_peers) {
		snprintf(err, errlen, "a host could have %u peers, more than "
			 "max_peers %u", b.max_peers, p->max_peers);
		goto fail;
	}
	if (b.max_inbound > p->max_inbound) {
		snprintf(err, errlen, "a host could have %u inbound probers, "
			 "more than max_inbound %u", b.max_inbound,
			 p->max_inbound);
		goto fail;
	}
	return 0;
fail:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(rank);
	mesh_select_fini(s);
	return ret;
}

void mesh_select_fini(struct mesh_select *s)
{
	unsigned int r;

	for (r = 0; r < MESH_INV_RAILS_MAX; r++) {
		free(s->rail[r].first);
		free(s->rail[r].member);
		free(s->rail[r].tor);
	}
	free(s->addr_pos);
	free(s->addr_idx);
	free(s->phase_ms);
	memset(s, 0, sizeof(*s));
}

static int select_put(struct mesh_select_peer *out, unsigned int cap,
		      unsigned int *n, const struct mesh_select_peer *p)
{
	if (*n == cap)
		return -ENOSPC;
	out[(*n)++] = *p;
	return 0;
}

int mesh_select_slot_peers(const struct mesh_select *s, uint32_t addr,
			   uint64_t epoch, unsigned int slot,
			   struct mesh_select_peer *out, unsigned int cap)
{
	const struct mesh_select_rail *R = &s->rail[s->inv->addr[addr].rail];
	struct mesh_select_peer p = {
		.from = addr, .epoch = epoch, .why = MESH_SELECT_CROSS_TOR,
		.slot = (uint8_t)slot, .rail = s->inv->addr[addr].rail,
	};
	uint32_t t = R->n_tor, a = s->addr_pos[addr], bpos, off, sa, sb, b;
	unsigned int n = 0;

	if (slot >= R->m)
		return 0;
	off = 1 + (uint32_t)(((epoch % (t - 1)) * R->m + slot) % (t - 1));
	bpos = (a + off) % t;
	sa = R->first[a + 1] - R->first[a];
	sb = R->first[bpos + 1] - R->first[bpos];
	for (b = (uint32_t)((s->addr_idx[addr] + epoch % sa) % sa); b < sb;
	     b += sa) {
		p.addr = R->member[R->first[bpos] + b];
		if (select_put(out, cap, &n, &p))
			return -ENOSPC;
	}
	return (int)n;
}

int mesh_select_addr_peers(const struct mesh_select *s, uint32_t addr,
			   uint64_t epoch, struct mesh_select_peer *out,
			   unsigned int cap)
{
	const struct mesh_select_rail *R = &s->rail[s->inv->addr[addr].rail];
	struct mesh_select_peer p = {
		.from = addr, .rail = s->inv->addr[addr].rail,
		.why = s->inv->topology ? MESH_SELECT_SAME_TOR :
					  MESH_SELECT_FULL,
	};
	uint32_t pos = s->addr_pos[addr], k;
	unsigned int n = 0, j;
	int got;

	for (k = R->first[pos]; k < R->first[pos + 1]; k++) {
		if (R->member[k] == addr)
			continue;
		p.addr = R->member[k];
		if (select_put(out, cap, &n, &p))
			return -ENOSPC;
	}
	for (j = 0; j < R->m; j++) {
		got = mesh_select_slot_peers(s, addr, epoch, j, out + n,
					     cap - n);
		if (got < 0)
			return got;
		n += (unsigned int)got;
	}
	return (int)n;
}

int mesh_select_host_peers(const struct mesh_select *s, uint32_t host,
			   uint64_t epoch, struct mesh_select_peer *out,
			   unsigned int cap)
{
	const struct mesh_inv_host *h = &s->inv->host[host];
	unsigned int n = 0, r;
	int got;

	for (r = 0; r < MESH_INV_RAILS_MAX; r++) {
		if (h->addr[r] == MESH_INV_NONE)
			continue;
		got = mesh_select_addr_peers(s, h->addr[r], epoch, out + n,
					     cap - n);
		if (got < 0)
			return got;
		n += (unsigned int)got;
	}
	return (int)n;
}

/* Where slot SLOT of ADDR starts its epochs, ms after a multiple of the
 * epoch: its host's phase, then the (slot, rail)'s share of the epoch. */
static uint64_t select_shift(const struct mesh_select *s, uint32_t addr,
			     unsigned int slot)
{
	const struct mesh_inv_addr *a = &s->inv->addr[addr];
	uint64_t len = (uint64_t)s->p.epoch_s * 1000;
	uint64_t m = s->rail[a->rail].m, r = s->n_rails;

	if (!m)
		return s->phase_ms[a->host];
	return s->phase_ms[a->host] + len * (slot * r + a->rail) / (m * r);
}

uint64_t mesh_select_epoch_at(const struct mesh_select *s, uint32_t addr,
			      unsigned int slot, uint64_t t_ms)
{
	uint64_t shift = select_shift(s, addr, slot);

	return t_ms < shift ? 0 : (t_ms - shift) / ((uint64_t)s->p.epoch_s *
						     1000);
}

uint64_t mesh_select_switch_ms(const struct mesh_select *s, uint32_t addr,
			       unsigned int slot, uint64_t epoch)
{
	return epoch * s->p.epoch_s * 1000 + select_shift(s, addr, slot);
}

const char *mesh_select_why_name(enum mesh_select_why why)
{
	switch (why) {
	case MESH_SELECT_FULL:
		return "full mesh";
	case MESH_SELECT_SAME_TOR:
		return "same ToR";
	case MESH_SELECT_CROSS_TOR:
		return "cross-ToR";
	}
	return "?";
}
