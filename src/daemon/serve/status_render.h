/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * status_render.h - rdmad's live status (uptime, listeners, counters, the
 * connections of the moment) as a JSON document or a text table for
 * people, rendered from a stats_view (pure).  Served on GET /status (the
 * route rdmad.c adds) and printed by `rdmadctl status` (the mesh's peers:
 * mesh/view/mesh_render.h).
 */
#ifndef RDMAD_STATUS_RENDER_H
#define RDMAD_STATUS_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/stats.h"

/* What GET /status?format= asks for. */
enum status_format { STATUS_FORMAT_JSON, STATUS_FORMAT_TEXT };

/* 0, or -EIO when F reports an error. */
int status_render_json(FILE *f, const struct stats_view *v);
int status_render_text(FILE *f, const struct stats_view *v);
int status_render(FILE *f, const struct stats_view *v,
		  enum status_format fmt);

#endif /* RDMAD_STATUS_RENDER_H */
