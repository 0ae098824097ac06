/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_http.h - the mesh wing's routes on rdmad's HTTP endpoint
 * (mesh_http.c): GET /peers and GET /mesh, rendered by mesh_render.c
 * from the agent's view.
 */
#ifndef RDMAD_MESH_HTTP_H
#define RDMAD_MESH_HTTP_H

#include "http/http.h"
#include "mesh/mesh_agent.h"

/* Serve /peers and /mesh on H from A's view (A outlives H's requests).
 * 0, or http_route_add's -errno. */
int mesh_http_routes(struct http *h, struct mesh_agent *a);

#endif /* RDMAD_MESH_HTTP_H */
