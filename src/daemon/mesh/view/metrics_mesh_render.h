/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metrics_mesh_render.h - the mesh agent's families of /metrics: per peer,
 * bounded by fixed label sets (peer, size, rail, place).
 */
#ifndef RDMAD_METRICS_MESH_RENDER_H
#define RDMAD_METRICS_MESH_RENDER_H

#include "http/mw_render.h"
#include "mesh/mesh_stats.h"

/* M's families into W (M NULL or off: the mesh's gauges as off); 0, or
 * -ENOMEM. */
int metrics_mesh_render(struct mw *w, const struct mesh_view *m);

#endif
