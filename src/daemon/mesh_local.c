/* SPDX-License-Identifier: BSD-2-Clause */
/* mesh_local.c - this host's addresses (see mesh_local.h). */
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_local.h"

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
