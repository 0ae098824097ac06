/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metrics_render.h - rdmad's metrics as Prometheus text (format 0.0.4) or
 * OpenMetrics 1.0.0 text, rendered from a stats_view (pure): the whole
 * document, the daemon's families, the endpoint's refusals, then the
 * mesh's (mesh/view/metrics_mesh_render.c), written with the endpoint's
 * metrics writer (http/mw_render.h).  Served on GET /metrics (the route
 * rdmad.c adds); docs/monitoring.md lists the families.
 */
#ifndef RDMAD_METRICS_RENDER_H
#define RDMAD_METRICS_RENDER_H

#include <stdio.h>

#include "defaults.h"
#include "core/stats.h"
#include "http/mw_render.h"

#define METRICS_CTYPE_PROMETHEUS	RDMAD_CTYPE_PROMETHEUS
#define METRICS_CTYPE_OPENMETRICS	RDMAD_CTYPE_OPENMETRICS

/* The format an Accept header asks for (NULL: Prometheus text). */
enum metrics_format metrics_negotiate(const char *accept);
const char *metrics_content_type(enum metrics_format fmt);

/* Write every family to F; 0, or -EIO when F reports an error. */
int metrics_render(FILE *f, const struct stats_view *v,
		   enum metrics_format fmt);

#endif /* RDMAD_METRICS_RENDER_H */
