/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_inventory_parse.c - the fabric's inventory (format in
 * mesh_inventory_parse.h and docs/fleet.md), read through the targets
 * file's one reader (targets_scan: lines, comments, the address) with
 * its KEY=VALUE words.  Pure; unit-tested (test-mesh-inventory).
 */
#include "mesh/mesh_inventory_parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "targets.h"
#include "value_parse.h"

/* What one line said, before it is checked against the others. */
struct inv_line {
	struct target t;
	char label[MESH_NAME_LEN];
	const char *host, *tor, *pod;	/* into the line, or NULL */
	unsigned int rail;
	bool has_rail, has_keys;
};

/* The parse in progress. */
struct inv_ctx {
	struct mesh_inventory *inv;
	const char *name;
	uint16_t port;
	unsigned int max_hosts;
	unsigned int lineno;
	/* The first line of each kind, for contradictions (0: none yet). */
	unsigned int first, first_rail, first_norail, first_pod, first_nopod;
	char *err;
	size_t errlen;
	struct targets_warn w;	/* the repeats' warnings, summarised */
};

__attribute__((format(printf, 2, 3)))
static int inv_fail(struct inv_ctx *c, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s:%u: %s", c->name, c->lineno, what);
	return -EINVAL;
}

/* FNV-1a: names are the operator's, no one floods them. */
static uint32_t inv_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	/* Mix the high bits down: the table uses the low ones. */
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}

static int table_init(struct mesh_inv_table *t, uint32_t cap)
{
	t->key = malloc(cap * sizeof(*t->key));
	t->id = malloc(cap * sizeof(*t->id));
	t->hash = malloc(cap * sizeof(*t->hash));
	if (!t->key || !t->id || !t->hash)
		return -ENOMEM;
	memset(t->key, 0xff, cap * sizeof(*t->key));
	t->mask = cap - 1;
	t->n = 0;
	return 0;
}

static void table_free(struct mesh_inv_table *t)
{
	free(t->key);
	free(t->id);
	free(t->hash);
	memset(t, 0, sizeof(*t));
}

/* The id of S in T, or MESH_INV_NONE. */
static uint32_t table_find(const struct mesh_inv_table *t, const char *pool,
			   const char *s)
{
	uint32_t i, h;

	if (!t->key)
		return MESH_INV_NONE;
	h = inv_hash(s);
	for (i = h & t->mask; t->key[i] != MESH_INV_NONE;
	     i = (i + 1) & t->mask)
		if (t->hash[i] == h && !strcmp(pool + t->key[i], s))
			return t->id[i];
	return MESH_INV_NONE;
}

static void table_put(struct mesh_inv_table *t, uint32_t key, uint32_t id,
		      uint32_t h)
{
	uint32_t i = h & t->mask;

	while (t->key[i] != MESH_INV_NONE)
		i = (i + 1) & t->mask;
	t->key[i] = key;
	t->id[i] = id;
	t->hash[i] = h;
	t->n++;
}

/* Add KEY (a pool offset) -> ID, growing T to stay at most half full. */
static int table_add(struct mesh_inv_table *t, const char *pool,
		     uint32_t key, uint32_t id)
{
	struct mesh_inv_table old = *t;
	uint32_t i;

	if (!t->key || (t->n + 1) * 2 > t->mask + 1) {
		if (table_init(t, t->key ? (t->mask + 1) * 2 : 1024)) {
			table_free(t);
			*t = old;
			return -ENOMEM;
		}
		for (i = 0; old.key && i <= old.mask; i++)
			if (old.key[i] != MESH_INV_NONE)
				table_put(t, old.key[i], old.id[i],
					  old.hash[i]);
		table_free(&old);
	}
	table_put(t, key, id, inv_hash(pool + key));
	return 0;
}

/* S into the pool: its offset, or MESH_INV_NONE (out of memory). */
static uint32_t pool_add(struct mesh_inventory *inv, const char *s)
{
	size_t len = strlen(s) + 1, ncap;
	uint32_t off;
	char *p;

	if (inv->pool_len + len > inv->pool_cap) {
		ncap = inv->pool_cap ? inv->pool_cap * 2 : 65536;
		while (ncap < inv->pool_len + len)
			ncap *= 2;
		if (ncap > UINT32_MAX)
			return MESH_INV_NONE;
		p = realloc(inv->pool, ncap);
		if (!p)
			return MESH_INV_NONE;
		inv->pool = p;
		inv->pool_cap = ncap;
	}
	off = (uint32_t)inv->pool_len;
	memcpy(inv->pool + off, s, len);
	inv->pool_len += len;
	return off;
}

/* Room for element N of *V (SIZE bytes each, *CAP now). */
static int grow(void *v, uint32_t *cap, uint32_t n, size_t size)
{
	void **pv = v, *nv;
	uint32_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 256;
	nv = realloc(*pv, (size_t)ncap * size);
	if (!nv)
		return -ENOMEM;
	*pv = nv;
	*cap = ncap;
	return 0;
}

/* A host, ToR or pod name: 1..63 of [A-Za-z0-9._:/-]. */
static int inv_name_ok(struct inv_ctx *c, const char *key, const char *v)
{
	const char *s;

	if (strlen(v) > MESH_INV_NAME_MAX)
		return inv_fail(c, "%s name longer than %u characters", key,
				MESH_INV_NAME_MAX);
	for (s = v; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._:/-", *s))
			return inv_fail(c, "%s=%s: a name is letters, digits "
					"and . _ : / -", key, v);
	return 0;
}

/* One KEY=VALUE token of the line into *L. */
static int inv_key(struct inv_ctx *c, struct inv_line *l, char *tok,
		   unsigned int *seen)
{
	static const char *const keys[] = { "host", "tor", "pod", "rail" };
	static const struct value_spec rail_spec = {
		.kind = VALUE_COUNT, .min = 0, .max = MESH_INV_RAILS_MAX - 1,
	};
	char why[VALUE_WHY_MAX];
	char *eq = strchr(tok, '=');
	uint64_t v;
	unsigned int k;

	if (!eq || eq == tok)
		return inv_fail(c, "'%s': expected KEY=VALUE after the "
				"address", tok);
	*eq = '\0';
	for (k = 0; k < 4; k++)
		if (!strcmp(tok, keys[k]))
			break;
	if (k == 4)
		return inv_fail(c, "unknown key '%s' (host, tor, pod, rail)",
				tok);
	if (*seen & (1u << k))
		return inv_fail(c, "'%s' given twice", tok);
	*seen |= 1u << k;
	if (!eq[1])
		return inv_fail(c, "'%s=': empty value", tok);
	if (k == 3) {
		if (value_parse(&rail_spec, eq + 1, &v, why, sizeof(why)))
			return inv_fail(c, "rail: %s", why);
		l->rail = (unsigned int)v;
		l->has_rail = true;
		return 0;
	}
	if (inv_name_ok(c, tok, eq + 1))
		return -EINVAL;
	if (k == 0)
		l->host = eq + 1;
	else if (k == 1)
		l->tor = eq + 1;
	else
		l->pod = eq + 1;
	return 0;
}

/* The address T (targets_scan read it) and the words after it, S, into
 * *L: 0 or -EINVAL. */
static int inv_split(struct inv_ctx *c, const struct target *t, char *s,
		     struct inv_line *l)
{
	unsigned int seen = 0;
	char *tok;

	memset(l, 0, sizeof(*l));
	l->t = *t;
	mesh_inventory_label(&l->t, l->label, sizeof(l->label));
	for (tok = l->label; *tok; tok++)
		*tok = (char)tolower((unsigned char)*tok);
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		tok = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
		l->has_keys = true;
		if (inv_key(c, l, tok, &seen))
			return -EINVAL;
	}
	if (l->has_keys && !l->tor)
		return inv_fail(c, "tor= missing: a line with topology names "
				"its ToR");
	return 0;
}

/* This line against the first ones: every line or none, per kind. */
static int inv_same_kind(struct inv_ctx *c, const struct inv_line *l)
{
	struct mesh_inventory *inv = c->inv;

	if (!c->first) {
		c->first = c->lineno;
		inv->topology = l->has_keys;
	} else if (l->has_keys != inv->topology) {
		return inv_fail(c, "%s here, but line %u has %s (topology on "
				"every line or none)",
				l->has_keys ? "topology" : "no topology",
				c->first, inv->topology ? "some" : "none");
	}
	if (!l->has_keys)
		return 0;
	if (l->has_rail && c->first_norail)
		return inv_fail(c, "rail= here, but line %u has none (rail "
				"on every line or none)", c->first_norail);
	if (!l->has_rail && c->first_rail)
		return inv_fail(c, "no rail= here, but line %u has one (rail "
				"on every line or none)", c->first_rail);
	if (l->pod && c->first_nopod)
		return inv_fail(c, "pod= here, but line %u has none (pod on "
				"every line or none)", c->first_nopod);
	if (!l->pod && c->first_pod)
		return inv_fail(c, "no pod= here, but line %u has one (pod on "
				"every line or none)", c->first_pod);
	if (l->has_rail && !c->first_rail)
		c->first_rail = c->lineno;
	if (!l->has_rail && !c->first_norail)
		c->first_norail = c->lineno;
	if (l->pod && !c->first_pod)
		c->first_pod = c->lineno;
	if (!l->pod && !c->first_nopod)
		c->first_nopod = c->lineno;
	inv->rails = l->has_rail;
	inv->pods = l->pod != NULL;
	return 0;
}

/* The id of pod NAME, added if new; MESH_INV_NONE when out of memory. */
static uint32_t inv_pod(struct mesh_inventory *inv, const char *name)
{
	uint32_t id = table_find(&inv->by_pod, inv->pool, name), off;

	if (id != MESH_INV_NONE)
		return id;
	if (grow(&inv->pod_name, &inv->pod_cap, inv->n_pod,
		 sizeof(*inv->pod_name)))
		return MESH_INV_NONE;
	off = pool_add(inv, name);
	if (off == MESH_INV_NONE ||
	    table_add(&inv->by_pod, inv->pool, off, inv->n_pod))
		return MESH_INV_NONE;
	inv->pod_name[inv->n_pod] = off;
	return inv->n_pod++;
}

/* The id of ToR NAME in POD (MESH_INV_NONE: none), added if new. */
static int inv_tor(struct inv_ctx *c, const char *name, uint32_t pod,
		   uint32_t *out)
{
	struct mesh_inventory *inv = c->inv;
	uint32_t id = table_find(&inv->by_tor, inv->pool, name), off;
	uint32_t cap;

	if (id != MESH_INV_NONE) {
		if (inv->tor_pod[id] != pod)
			return inv_fail(c, "tor %s: pod %s here, pod %s on "
					"line %u (a ToR is in one pod)", name,
					inv->pool + inv->pod_name[pod],
					inv->pool +
					inv->pod_name[inv->tor_pod[id]],
					inv->tor_line[id]);
		*out = id;
		return 0;
	}
	cap = inv->tor_cap;
	if (grow(&inv->tor_name, &cap, inv->n_tor, sizeof(uint32_t)))
		goto nomem;
	cap = inv->tor_cap;
	if (grow(&inv->tor_pod, &cap, inv->n_tor, sizeof(uint32_t)))
		goto nomem;
	if (grow(&inv->tor_line, &inv->tor_cap, inv->n_tor,
		 sizeof(uint32_t)))
		goto nomem;
	off = pool_add(inv, name);
	if (off == MESH_INV_NONE ||
	    table_add(&inv->by_tor, inv->pool, off, inv->n_tor))
		goto nomem;
	inv->tor_name[inv->n_tor] = off;
	inv->tor_pod[inv->n_tor] = pod;
	inv->tor_line[inv->n_tor] = c->lineno;
	*out = inv->n_tor++;
	return 0;
nomem:
	snprintf(c->err, c->errlen, "%s: out of memory", c->name);
	return -ENOMEM;
}

/* The id of host NAME, checked against what earlier lines said of it. */
static int inv_host(struct inv_ctx *c, const char *name, uint32_t tor,
		    uint32_t pod, unsigned int rail, uint32_t *out)
{
	struct mesh_inventory *inv = c->inv;
	uint32_t id = table_find(&inv->by_host, inv->pool, name), off, r;
	struct mesh_inv_host *h;

	if (id != MESH_INV_NONE) {
		h = &inv->host[id];
		if (h->tor != tor)
			return inv_fail(c, "host %s: tor %s here, tor %s on "
					"line %u (a host is under one ToR)",
					name, inv->pool + inv->tor_name[tor],
					inv->pool + inv->tor_name[h->tor],
					h->line);
		if (h->pod != pod)
			return inv_fail(c, "host %s: pod %s here, pod %s on "
					"line %u (a host is in one pod)", name,
					inv->pool + inv->pod_name[pod],
					inv->pool + inv->pod_name[h->pod],
					h->line);
		if (h->addr[rail] != MESH_INV_NONE)
			return inv_fail(c, "host %s has an address on rail %u "
					"already: '%s' on line %u", name, rail,
					inv->pool +
					inv->addr[h->addr[rail]].label,
					inv->addr[h->addr[rail]].line);
		*out = id;
		return 0;
	}
	if (inv->n_host == c->max_hosts)
		return inv_fail(c, "more hosts than the most allowed (%u)",
				c->max_hosts);
	if (grow(&inv->host, &inv->host_cap, inv->n_host, sizeof(*h)))
		goto nomem;
	off = pool_add(inv, name);
	if (off == MESH_INV_NONE ||
	    table_add(&inv->by_host, inv->pool, off, inv->n_host))
		goto nomem;
	h = &inv->host[inv->n_host];
	h->name = off;
	h->tor = tor;
	h->pod = pod;
	h->line = c->lineno;
	for (r = 0; r < MESH_INV_RAILS_MAX; r++)
		h->addr[r] = MESH_INV_NONE;
	*out = inv->n_host++;
	return 0;
nomem:
	snprintf(c->err, c->errlen, "%s: out of memory", c->name);
	return -ENOMEM;
}

/* One line's address T and the words after it, REST (targets_scan): 0
 * (kept, or a repeat dropped), or -EINVAL / -ENOMEM. */
static int inv_parse_line(void *arg, struct target *t, char *rest)
{
	struct inv_ctx *c = arg;
	struct mesh_inventory *inv = c->inv;
	uint32_t pod = MESH_INV_NONE, tor = 0, host = 0, dup, off;
	struct mesh_inv_addr *a;
	struct inv_line l;
	char msg[2 * MESH_NAME_LEN + 256];
	bool same;
	int r;

	c->lineno = t->line;
	r = inv_split(c, t, rest, &l);
	if (r)
		return r;
	if (inv_same_kind(c, &l))
		return -EINVAL;
	/* Labels are canonical (targets_parse_line): compared by value. */
	dup = table_find(&inv->by_label, inv->pool, l.label);
	if (dup != MESH_INV_NONE) {
		/* Another spelling: name the address it is. */
		same = !strcmp(l.t.text, l.label);
		if (inv->topology)
			return inv_fail(c, "'%s' is %s%slisted on line %u "
					"already (an address is listed once, "
					"however it is spelled)", l.t.text,
					same ? "" : l.label, same ? "" : ", ",
					inv->addr[dup].line);
		snprintf(msg, sizeof(msg), "%s:%u: '%s': same target as line "
			 "%u%s%s%s, probed once", c->name, c->lineno, l.t.text,
			 inv->addr[dup].line, same ? "" : " (",
			 same ? "" : l.label, same ? "" : ")");
		targets_warn_say(&c->w, msg);
		return 0;
	}
	if (l.pod) {
		pod = inv_pod(inv, l.pod);
		if (pod == MESH_INV_NONE)
			goto nomem;
	}
	if (l.tor && (r = inv_tor(c, l.tor, pod, &tor)))
		return r;
	r = inv_host(c, l.host ? l.host : l.label, tor, pod, l.rail, &host);
	if (r)
		return r;
	if (grow(&inv->addr, &inv->addr_cap, inv->n_addr, sizeof(*a)))
		goto nomem;
	off = pool_add(inv, l.label);
	if (off == MESH_INV_NONE ||
	    table_add(&inv->by_label, inv->pool, off, inv->n_addr))
		goto nomem;
	a = &inv->addr[inv->n_addr];
	a->label = off;
	a->host = host;
	a->line = c->lineno;
	a->port = l.t.port;
	a->rail = (uint8_t)l.rail;
	a->pad = 0;
	inv->host[host].addr[l.rail] = inv->n_addr++;
	if (l.rail + 1 > inv->n_rails)
		inv->n_rails = l.rail + 1;
	return 0;
nomem:
	snprintf(c->err, c->errlen, "%s: out of memory", c->name);
	return -ENOMEM;
}

void mesh_inventory_label(const struct target *t, char *buf, size_t len)
{
	if (strchr(t->host, ':'))
		snprintf(buf, len, "[%s]:%u", t->host, t->port);
	else
		snprintf(buf, len, "%s:%u", t->host, t->port);
}

int mesh_inventory_parse(FILE *in, const char *name, uint16_t port,
			 unsigned int max_hosts, struct mesh_inventory *inv,
			 void (*warn)(void *arg, const char *msg), void *arg,
			 char *err, size_t errlen)
{
	struct inv_ctx c = {
		.inv = inv, .name = name, .port = port,
		.max_hosts = max_hosts, .err = err, .errlen = errlen,
		.w = { warn, arg, 0 },
	};
	int ret;

	if (!c.max_hosts || c.max_hosts > MESH_INV_HOSTS_MAX)
		c.max_hosts = MESH_INV_HOSTS_MAX;
	memset(inv, 0, sizeof(*inv));
	inv->n_rails = 1;
	ret = targets_scan(in, name, port, inv_parse_line, &c, err, errlen);
	if (ret)
		mesh_inventory_free(inv);
	else
		targets_warn_end(&c.w, name);
	return ret;
}

void mesh_inventory_free(struct mesh_inventory *inv)
{
	free(inv->addr);
	free(inv->host);
	free(inv->tor_name);
	free(inv->tor_pod);
	free(inv->tor_line);
	free(inv->pod_name);
	free(inv->pool);
	table_free(&inv->by_label);
	table_free(&inv->by_host);
	table_free(&inv->by_tor);
	table_free(&inv->by_pod);
	memset(inv, 0, sizeof(*inv));
}

uint32_t mesh_inventory_find(const struct mesh_inventory *inv,
			     const char *name)
{
	uint32_t id = table_find(&inv->by_host, inv->pool, name);

	if (id != MESH_INV_NONE)
		return id;
	id = table_find(&inv->by_label, inv->pool, name);
	return id == MESH_INV_NONE ? id : inv->addr[id].host;
}

static size_t table_bytes(const struct mesh_inv_table *t)
{
	return t->key ? (size_t)(t->mask + 1) * 3 * sizeof(uint32_t) : 0;
}

size_t mesh_inventory_bytes(const struct mesh_inventory *inv)
{
	return (size_t)inv->addr_cap * sizeof(*inv->addr) +
	       (size_t)inv->host_cap * sizeof(*inv->host) +
	       (size_t)inv->tor_cap * 3 * sizeof(uint32_t) +
	       (size_t)inv->pod_cap * sizeof(uint32_t) + inv->pool_cap +
	       table_bytes(&inv->by_label) + table_bytes(&inv->by_host) +
	       table_bytes(&inv->by_tor) + table_bytes(&inv->by_pod);
}
