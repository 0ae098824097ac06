/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config_mesh_parse.c - the parsers of the [mesh] keys with a meaning of
 * their own (sizes, rails, peer_series), named by config.c's key table
 * (see config_key_parse.h).  Pure.
 */
#include <stdio.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "core/acl_match.h"
#include "core/config.h"
#include "core/config_key_parse.h"

struct config_sizes {
	const struct config_key *k;
	uint32_t v[CONFIG_MESH_SIZES_MAX];
	char text[CONFIG_MESH_SIZES_MAX][24];	/* as written, for messages */
	unsigned int n;
};

static int size_word(struct config_err *e, const char *key,
		     const char *word, void *arg)
{
	struct config_sizes *s = arg;
	unsigned int i;
	uint64_t v;

	if (s->n == CONFIG_MESH_SIZES_MAX) {
		config_perr(e, "%s: more than %d sizes", key,
			    CONFIG_MESH_SIZES_MAX);
		return -1;
	}
	if (config_key_number(e, s->k, word, &v))
		return -1;
	for (i = 0; i < s->n; i++)
		if (s->v[i] == v) {	/* one series per size on /metrics */
			if (!strcmp(s->text[i], word))
				config_perr(e, "%s: '%s' given twice", key,
					    word);
			else
				config_perr(e, "%s: '%s' given twice (%llu "
					    "bytes, as '%s' before)", key, word,
					    (unsigned long long)v, s->text[i]);
			return -1;
		}
	s->v[s->n] = (uint32_t)v;
	snprintf(s->text[s->n], sizeof(s->text[0]), "%s", word);
	s->n++;
	return 0;
}

/* [mesh] sizes = SIZE ...: 1 to CONFIG_MESH_SIZES_MAX, each once. */
void config_key_sizes(struct config_err *e, const struct config_key *k,
			     void *field, const char *value)
{
	struct config_mesh *m = field;
	struct config_sizes s = { .k = k };
	int n = config_words(e, k->name, value, size_word, &s);

	if (n < 0)
		return;
	if (!n) {
		config_perr(e, "%s: no size given", k->name);
		return;
	}
	memcpy(m->sizes, s.v, s.n * sizeof(s.v[0]));
	m->n_sizes = s.n;
}

/* E's network address as a socket address (port 0). */
static struct sockaddr_storage rail_net(const struct acl_entry *e)
{
	struct sockaddr_storage ss;

	memset(&ss, 0, sizeof(ss));
	ss.ss_family = (sa_family_t)e->family;
	if (e->family == AF_INET)
		memcpy(&((struct sockaddr_in *)(void *)&ss)->sin_addr, e->addr, 4);
	else
		memcpy(&((struct sockaddr_in6 *)(void *)&ss)->sin6_addr,
		       e->addr, 16);
	return ss;
}

static int rail_word(struct config_err *e, const char *key, const char *word,
		     void *arg)
{
	struct config_mesh *m = arg;
	struct sockaddr_storage a, b;
	struct acl_entry ent;
	char other[64];
	unsigned int i;

	if (m->n_rails == CONFIG_MESH_RAILS_MAX) {
		config_perr(e, "%s: more than %d rails", key,
			    CONFIG_MESH_RAILS_MAX);
		return -1;
	}
	if (acl_match_parse(word, &ent)) {
		config_perr(e, "%s: '%s' is not a network (A.B.C.D/N or "
			    "IPV6/N, no host bits below the prefix)", key, word);
		return -1;
	}
	a = rail_net(&ent);
	for (i = 0; i < m->n_rails; i++) {
		b = rail_net(&m->rails[i]);
		if (acl_match_entry(&m->rails[i], (struct sockaddr *)&a) ||
		    acl_match_entry(&ent, (struct sockaddr *)&b)) {
			config_perr(e, "%s: '%s' overlaps rail %u's %s: an "
				    "address is on one rail", key, word, i,
				    acl_match_entry_str(&m->rails[i], other,
							sizeof(other)));
			return -1;
		}
	}
	m->rails[m->n_rails++] = ent;
	return 0;
}

/*
 * [mesh] rails = NETWORK ...: rail 0's subnet, rail 1's...; empty: no
 * rails.  Each address on one rail at most: no two overlap.
 */
void config_key_rails(struct config_err *e, const struct config_key *k,
			     void *field, const char *value)
{
	struct config_mesh *m = field, next = *m;

	next.n_rails = 0;
	if (config_words(e, k->name, value, rail_word, &next) < 0)
		return;
	memcpy(m->rails, next.rails, sizeof(m->rails));
	m->n_rails = next.n_rails;
}

/* [mesh] peer_series = full | compact; empty: by the inventory. */
void config_key_peer_series(struct config_err *e,
				   const struct config_key *k, void *field,
				   const char *value)
{
	enum config_peer_series *out = field;

	if (!*value)
		*out = CONFIG_PEER_SERIES_DEFAULT;
	else if (!strcmp(value, "full"))
		*out = CONFIG_PEER_SERIES_FULL;
	else if (!strcmp(value, "compact"))
		*out = CONFIG_PEER_SERIES_COMPACT;
	else
		config_perr(e, "%s: '%s' is not one of full, compact", k->name,
			    value);
}
