/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_local.h - this host's addresses (getifaddrs), for telling the
 * targets entries that are this rdmad itself (mesh_targets_check.h).
 */
#ifndef RDMAD_MESH_LOCAL_H
#define RDMAD_MESH_LOCAL_H

#include "mesh/mesh_targets_check.h"

/* Into L (free with mesh_local_free); empty when they cannot be read. */
void mesh_local_addrs(struct mesh_locals *l);
void mesh_local_free(struct mesh_locals *l);
/*
 * [mesh] of CFG checked as at start, reload and --check-config: this
 * host's addresses and its targets file (opened here) through
 * mesh_targets_check().  Its return and ERR; *OUT as there.
 */
int mesh_local_targets(const struct rdmad_config *cfg,
		       struct mesh_targets *out,
		       void (*warn)(void *arg, const char *msg), void *arg,
		       char *err, size_t errlen);

#endif /* RDMAD_MESH_LOCAL_H */
