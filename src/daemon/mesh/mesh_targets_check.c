/* SPDX-License-Identifier: BSD-2-Clause */
/* mesh_targets_check.c - [mesh] targets read and checked, pure (see
 * mesh_targets_check.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "mesh/mesh_inventory_parse.h"
#include "mesh/mesh_policy_rules.h"
#include "mesh/mesh_select_sched.h"
#include "mesh/mesh_targets_check.h"

_Static_assert(CONFIG_MESH_RAILS_MAX <= MESH_INV_RAILS_MAX,
	       "[mesh] rails: more rails than an inventory has");

static uint16_t mesh_port(const struct sockaddr_storage *ss)
{
	return ntohs(ss->ss_family == AF_INET6 ?
		     ((const struct sockaddr_in6 *)(const void *)ss)->sin6_port :
		     ((const struct sockaddr_in *)(const void *)ss)->sin_port);
}

/* A and B are the same host address (ports aside). */
static bool mesh_same_host(const struct sockaddr_storage *a,
			   const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)(const void *)a)
		       ->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)(const void *)b)
		       ->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)(const void *)a)
			       ->sin6_addr,
			       &((const struct sockaddr_in6 *)(const void *)b)
			       ->sin6_addr, sizeof(struct in6_addr));
	return false;
}

static bool mesh_wildcard(const struct sockaddr_storage *a)
{
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)(const void *)a)
		       ->sin_addr.s_addr == htonl(INADDR_ANY);
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)(const void *)a)
			       ->sin6_addr, &in6addr_any,
			       sizeof(struct in6_addr));
	return false;
}

bool mesh_target_is_self(const struct rdmad_config *cfg,
			 const struct mesh_locals *locals,
			 const struct sockaddr_storage *addr)
{
	unsigned int k, i;

	for (k = 0; k < cfg->n_listen; k++) {
		const struct sockaddr_storage *l = &cfg->listen[k].addr;

		if (mesh_port(l) != mesh_port(addr))
			continue;
		if (mesh_same_host(l, addr))
			return true;
		/* The wildcard listens on every address of its family
		 * (an IPv6 one on IPv4 addresses too). */
		if (!mesh_wildcard(l) || (l->ss_family == AF_INET &&
					  addr->ss_family != AF_INET))
			continue;
		for (i = 0; locals && i < locals->n; i++)
			if (mesh_same_host(&locals->v[i], addr))
				return true;
	}
	return false;
}

int mesh_targets_capacity(const struct rdmad_config *cfg, unsigned int n_out,
			  unsigned int n_in, char *err, size_t errlen)
{
	const struct config_mesh *m = &cfg->mesh;
	struct mesh_policy pol;
	uint64_t served = (uint64_t)n_in * m->paths, bytes;

	mesh_policy_of(m, &pol);
	bytes = ((uint64_t)n_in + n_out) * m->paths * pol.session.size;

	if (!m->targets[0] || (!n_out && !n_in))
		return 0;
	if (served > cfg->max_connections) {
		snprintf(err, errlen, "[mesh]: %u probers x %u paths need %llu "
			 "connections here (every peer that probes this rdmad), "
			 "[server] max_connections is %u", n_in, m->paths,
			 (unsigned long long)served, cfg->max_connections);
		return -EINVAL;
	}
	if (cfg->max_per_host && m->paths > cfg->max_per_host) {
		snprintf(err, errlen, "[mesh]: each peer opens %u paths here, "
			 "[server] max_connections_per_host is %u", m->paths,
			 cfg->max_per_host);
		return -EINVAL;
	}
	if (bytes > cfg->max_registered_bytes) {
		snprintf(err, errlen, "[mesh]: (%u peers + %u probers) x %u "
			 "paths x %u bytes need %llu registered bytes, "
			 "[limits] max_registered_bytes is %llu", n_out, n_in,
			 m->paths, pol.session.size,
			 (unsigned long long)bytes,
			 (unsigned long long)cfg->max_registered_bytes);
		return -EINVAL;
	}
	return 0;
}

/* The file's addresses: this rdmad's own found, each numeric. */
static int mesh_targets_self(const struct rdmad_config *cfg,
			     const struct mesh_locals *locals,
			     struct mesh_targets *t, char *err, size_t errlen)
{
	const struct config_mesh *m = &cfg->mesh;
	const struct mesh_inventory *inv = t->inv;
	struct sockaddr_storage ss;
	uint32_t a;

	t->n_file = inv->n_addr;
	t->self_host = MESH_INV_NONE;
	for (a = 0; a < inv->n_addr; a++) {
		const char *label = mesh_inventory_str(inv, inv->addr[a].label);

		if (mesh_target_inv_addr(inv, a, &ss)) {
			snprintf(err, errlen, "%s:%u: '%s' is not a numeric "
				 "address (rdmad resolves no names for the mesh: "
				 "write the peer's address)", m->targets,
				 inv->addr[a].line, label);
			return -EINVAL;
		}
		if (!mesh_target_is_self(cfg, locals, &ss))
			continue;
		if (t->n_self < MESH_SELF_MAX)
			snprintf(t->self[t->n_self], MESH_NAME_LEN, "%s", label);
		t->n_self++;
		if (!inv->topology)
			continue;
		if (t->self_host != MESH_INV_NONE &&
		    t->self_host != inv->addr[a].host) {
			snprintf(err, errlen, "%s:%u: '%s' is this rdmad, and so "
				 "is '%s' of another host: a host's addresses "
				 "share its host= name", m->targets,
				 inv->addr[a].line, label, t->self[0]);
			return -EINVAL;
		}
		t->self_host = inv->addr[a].host;
	}
	if (inv->topology && t->self_host == MESH_INV_NONE) {
		snprintf(err, errlen, "%s: none of its %u addresses is this "
			 "rdmad (its [server] listen addresses and ports): a "
			 "host of the fleet is in the inventory, with its own "
			 "addresses", m->targets, inv->n_addr);
		return -EINVAL;
	}
	return 0;
}

/*
 * [mesh] rails, rail R: this host's address in its subnet (port 0) into
 * SRC: a listener's address, else one of LOCALS.  0, or -ENOENT.
 */
static int mesh_rail_source(const struct rdmad_config *cfg,
			    const struct mesh_locals *locals, unsigned int r,
			    struct sockaddr_storage *src)
{
	const struct acl_entry *net = &cfg->mesh.rails[r];
	unsigned int i;

	memset(src, 0, sizeof(*src));
	for (i = 0; i < cfg->n_listen; i++) {
		const struct sockaddr_storage *l = &cfg->listen[i].addr;

		if (!mesh_wildcard(l) &&
		    acl_match_entry(net, (const struct sockaddr *)l)) {
			*src = *l;
			break;
		}
	}
	for (i = 0; !src->ss_family && locals && i < locals->n; i++)
		if (acl_match_entry(net, (const struct sockaddr *)&locals->v[i]))
			*src = locals->v[i];
	if (!src->ss_family)
		return -ENOENT;
	mesh_target_no_port(src);
	return 0;
}

/*
 * [mesh] rails: the peer MT of the file's address A on its rail, from
 * this host's address on it.  0, or -EINVAL with the reason in ERR.
 */
static int mesh_targets_rail(const struct rdmad_config *cfg,
			     const struct mesh_locals *locals,
			     const struct mesh_inventory *inv, uint32_t a,
			     struct mesh_target *mt, char *err, size_t errlen)
{
	const struct config_mesh *m = &cfg->mesh;
	char net[64];
	unsigned int r;

	for (r = 0; r < m->n_rails; r++)
		if (acl_match_entry(&m->rails[r],
				    (const struct sockaddr *)&mt->dst))
			break;
	if (r == m->n_rails) {
		snprintf(err, errlen, "%s:%u: '%s' is on none of the rails' "
			 "networks ([mesh] rails)", m->targets,
			 inv->addr[a].line,
			 mesh_inventory_str(inv, inv->addr[a].label));
		return -EINVAL;
	}
	if (mesh_rail_source(cfg, locals, r, &mt->src)) {
		snprintf(err, errlen, "%s:%u: '%s' is on rail %u (%s), where "
			 "this host has no address to probe it from (its "
			 "[server] listen addresses, its interfaces)",
			 m->targets, inv->addr[a].line,
			 mesh_inventory_str(inv, inv->addr[a].label), r,
			 acl_match_entry_str(&m->rails[r], net, sizeof(net)));
		return -EINVAL;
	}
	mt->rail = (uint8_t)r;
	return 0;
}

/*
 * Without topology: every address but this rdmad's, in file order; with
 * [mesh] rails, each on its rail.  0, -ENOMEM, or -EINVAL with the
 * reason in ERR.
 */
static int mesh_targets_full(const struct rdmad_config *cfg,
			     const struct mesh_locals *locals,
			     struct mesh_targets *t, char *err, size_t errlen)
{
	const struct mesh_inventory *inv = t->inv;
	uint32_t a;

	if (mesh_targets_room(t, inv->n_addr ? inv->n_addr : 1))
		return -ENOMEM;
	for (a = 0; a < inv->n_addr; a++) {
		struct mesh_target *mt = &t->v[t->n];

		memset(mt, 0, sizeof(*mt));
		if (mesh_target_inv_addr(inv, a, &mt->dst))
			return -EINVAL;	/* checked in mesh_targets_self */
		if (mesh_target_is_self(cfg, locals, &mt->dst))
			continue;
		snprintf(mt->name, sizeof(mt->name), "%s",
			 mesh_inventory_str(inv, inv->addr[a].label));
		mt->tor = "";
		mt->host = "";
		mt->why = MESH_SELECT_FULL;
		if (cfg->mesh.n_rails &&
		    mesh_targets_rail(cfg, locals, inv, a, mt, err, errlen))
			return -EINVAL;
		t->n++;
	}
	return 0;
}

int mesh_targets_check(const struct rdmad_config *cfg,
		       const struct mesh_locals *locals, FILE *in,
		       uint64_t now_ms, struct mesh_targets *out,
		       void (*warn)(void *arg, const char *msg), void *arg,
		       char *err, size_t errlen)
{
	const struct config_mesh *m = &cfg->mesh;
	struct mesh_policy pol;
	struct mesh_select_bounds b;
	char why[160];
	int ret;

	memset(out, 0, sizeof(*out));
	out->self_host = MESH_INV_NONE;
	if (!m->targets[0])
		return 0;
	if (!in) {
		snprintf(err, errlen, "[mesh] targets: %s not open", m->targets);
		return -EBADF;
	}
	out->inv = calloc(1, sizeof(*out->inv));
	if (!out->inv) {
		snprintf(err, errlen, "mesh: out of memory");
		return -ENOMEM;
	}
	ret = mesh_inventory_parse(in, m->targets, m->port, 0, out->inv, warn,
				   arg, err, errlen);
	if (ret) {
		free(out->inv);
		out->inv = NULL;
		return ret;
	}
	ret = mesh_targets_self(cfg, locals, out, err, errlen);
	if (ret)
		goto fail;
	if (out->inv->topology && m->n_rails) {
		snprintf(err, errlen, "%s: an inventory (host=, tor=, rail= on "
			 "its lines) places its addresses itself, on its rails: "
			 "[mesh] rails is for a plain targets file", m->targets);
		ret = -EINVAL;
		goto fail;
	}
	if (!out->inv->topology) {
		ret = mesh_targets_full(cfg, locals, out, err, errlen);
		if (!ret && out->n > m->max_peers) {
			snprintf(err, errlen, "%s: %u peers, more than [mesh] "
				 "max_peers %u", m->targets, out->n,
				 m->max_peers);
			ret = -EINVAL;
		}
		if (!ret)
			ret = mesh_targets_capacity(cfg, out->n, out->n, err,
						    errlen);
		goto done;
	}
	out->sel = calloc(1, sizeof(*out->sel));
	ret = -ENOMEM;
	if (!out->sel)
		goto fail;
	mesh_policy_of(m, &pol);
	ret = mesh_select_init(out->sel, out->inv, &pol.select, why,
			       sizeof(why));
	if (ret) {
		free(out->sel);
		out->sel = NULL;
		snprintf(err, errlen, "%s: %s ([mesh] max_peers, max_inbound)",
			 m->targets, why);
		ret = -EINVAL;
		goto fail;
	}
	mesh_select_bounds(out->sel, &b);
	ret = mesh_targets_capacity(cfg, b.max_peers, b.max_inbound, err,
				    errlen);
	if (!ret)
		ret = mesh_targets_at(out, now_ms);
done:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "mesh: out of memory");
	if (!ret)
		return 0;
fail:
	mesh_targets_free(out);
	return ret;
}

