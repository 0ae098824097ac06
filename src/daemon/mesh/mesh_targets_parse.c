/* SPDX-License-Identifier: BSD-2-Clause */
/* mesh_targets_parse.c - [mesh] targets, pure (see mesh_targets_parse.h). */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "mesh/mesh_targets_parse.h"


uint32_t mesh_session_size(const struct config_mesh *m)
{
	uint32_t max = m->bw_every_ms ? m->bw_size : 0;
	unsigned int i;

	for (i = 0; i < m->n_sizes; i++)
		if (m->sizes[i] > max)
			max = m->sizes[i];
	return max ? max : 64;
}

void mesh_target_name(const struct target *t, char *buf, size_t len)
{
	if (strchr(t->host, ':'))
		snprintf(buf, len, "[%s]:%u", t->host, t->port);
	else
		snprintf(buf, len, "%s:%u", t->host, t->port);
}

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

int mesh_targets_capacity(const struct rdmad_config *cfg,
			  unsigned int n_peers, char *err, size_t errlen)
{
	const struct config_mesh *m = &cfg->mesh;
	uint64_t sessions = (uint64_t)n_peers * m->paths;
	uint64_t bytes = 2 * sessions * mesh_session_size(m);

	if (!m->targets[0] || !n_peers)
		return 0;
	if (sessions > cfg->max_connections) {
		snprintf(err, errlen, "[mesh]: %u peers x %u paths need %llu "
			 "connections here (each peer probes this rdmad too), "
			 "[server] max_connections is %u", n_peers, m->paths,
			 (unsigned long long)sessions, cfg->max_connections);
		return -EINVAL;
	}
	if (cfg->max_per_host && m->paths > cfg->max_per_host) {
		snprintf(err, errlen, "[mesh]: each peer opens %u paths here, "
			 "[server] max_connections_per_host is %u", m->paths,
			 cfg->max_per_host);
		return -EINVAL;
	}
	if (bytes > cfg->max_registered_bytes) {
		snprintf(err, errlen, "[mesh]: %u peers x %u paths x %u bytes, "
			 "served and probed, need %llu registered bytes, "
			 "[limits] max_registered_bytes is %llu", n_peers,
			 m->paths, mesh_session_size(m),
			 (unsigned long long)bytes,
			 (unsigned long long)cfg->max_registered_bytes);
		return -EINVAL;
	}
	return 0;
}

void mesh_targets_free(struct mesh_targets *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* The file's targets into T (addresses, self skipped). */
static int mesh_targets_of(const struct rdmad_config *cfg,
			   const struct mesh_locals *locals,
			   const struct target_list *tl,
			   struct mesh_targets *t, char *err, size_t errlen)
{
	const struct config_mesh *m = &cfg->mesh;
	unsigned int i;

	t->n_file = tl->n;
	t->v = calloc(tl->n ? tl->n : 1, sizeof(*t->v));
	if (!t->v) {
		snprintf(err, errlen, "mesh: out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < tl->n; i++) {
		struct mesh_target *mt = &t->v[t->n];
		const char *why = NULL;

		if (mesh_target_addr(&tl->v[i], &mt->dst, &why)) {
			snprintf(err, errlen, "%s:%u: '%s' is %s", m->targets,
				 tl->v[i].line, tl->v[i].host, why);
			return -EINVAL;
		}
		if (mesh_target_is_self(cfg, locals, &mt->dst)) {
			if (t->n_self < MESH_SELF_MAX)
				mesh_target_name(&tl->v[i],
						 t->self[t->n_self],
						 MESH_NAME_LEN);
			t->n_self++;
			continue;
		}
		mesh_target_name(&tl->v[i], mt->name, sizeof(mt->name));
		t->n++;
	}
	return 0;
}

int mesh_targets_check(const struct rdmad_config *cfg,
		       const struct mesh_locals *locals, FILE *in,
		       struct mesh_targets *out,
		       void (*warn)(void *arg, const char *msg), void *arg,
		       char *err, size_t errlen)
{
	const struct config_mesh *m = &cfg->mesh;
	struct target_list tl = { NULL, 0 };
	int ret;

	memset(out, 0, sizeof(*out));
	if (!m->targets[0])
		return 0;
	if (!in) {
		snprintf(err, errlen, "[mesh] targets: %s not open", m->targets);
		return -EBADF;
	}
	ret = targets_read(in, m->targets, m->port, m->max_peers, &tl, warn,
			   arg, err, errlen);
	if (ret)
		return ret;
	ret = mesh_targets_of(cfg, locals, &tl, out, err, errlen);
	if (!ret)
		ret = mesh_targets_capacity(cfg, out->n, err, errlen);
	targets_free(&tl);
	if (ret)
		mesh_targets_free(out);
	return ret;
}
