/* SPDX-License-Identifier: BSD-2-Clause */
/* mesh_local.c - this host's addresses and targets file (see mesh_local.h). */
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "mesh/mesh_local.h"

void mesh_local_addrs(struct mesh_locals *l)
{
	struct ifaddrs *ifa = NULL, *i;
	struct sockaddr_storage *v;
	unsigned int n = 0;

	l->v = NULL;
	l->n = 0;
	if (getifaddrs(&ifa))
		return;
	for (i = ifa; i; i = i->ifa_next)
		n++;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v) {
		freeifaddrs(ifa);
		return;
	}
	n = 0;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr)
			continue;
		if (i->ifa_addr->sa_family == AF_INET)
			memcpy(&v[n++], i->ifa_addr, sizeof(struct sockaddr_in));
		else if (i->ifa_addr->sa_family == AF_INET6)
			memcpy(&v[n++], i->ifa_addr,
			       sizeof(struct sockaddr_in6));
	}
	freeifaddrs(ifa);
	l->v = v;
	l->n = n;
}

void mesh_local_free(struct mesh_locals *l)
{
	free((void *)l->v);
	l->v = NULL;
	l->n = 0;
}

int mesh_local_targets(const struct rdmad_config *cfg,
		       struct mesh_targets *out,
		       void (*warn)(void *arg, const char *msg), void *arg,
		       char *err, size_t errlen)
{
	struct mesh_locals locals;
	FILE *f = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	if (cfg->mesh.targets[0]) {
		f = fopen(cfg->mesh.targets, "re");
		if (!f) {
			ret = -errno;
			snprintf(err, errlen, "[mesh] targets: cannot read %s: %s",
				 cfg->mesh.targets, strerror(-ret));
			return ret;
		}
	}
	mesh_local_addrs(&locals);
	ret = mesh_targets_check(cfg, &locals, f, clock_wall_ms(), out, warn, arg,
				 err, errlen);
	mesh_local_free(&locals);
	if (f)
		fclose(f);
	return ret;
}
