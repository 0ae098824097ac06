/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_local.h - this host's addresses (getifaddrs), for telling the
 * targets entries that are this rdmad itself (mesh_targets_parse.h).
 */
#ifndef RDMAD_MESH_LOCAL_H
#define RDMAD_MESH_LOCAL_H

#include "mesh_targets_parse.h"

/* Into L (free with mesh_local_free); empty when they cannot be read. */
void mesh_local_addrs(struct mesh_locals *l);
void mesh_local_free(struct mesh_locals *l);

#endif /* RDMAD_MESH_LOCAL_H */
