/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * status.h - rdmad's live status (uptime, listeners, counters, the
 * connections of the moment) as a JSON document or a text table for
 * people, rendered from a stats_view (pure).  Served on GET /status by
 * http.c and printed by `rdmadctl status`; the mesh peers likewise on
 * GET /peers and by `rdmadctl mesh`.
 */
#ifndef RDMAD_STATUS_H
#define RDMAD_STATUS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

/* 0, or -EIO when F reports an error. */
int status_render_json(FILE *f, const struct stats_view *v);
int status_render_text(FILE *f, const struct stats_view *v);

/*
 * The mesh agent's live peer table (GET /peers, rdmadctl mesh): a row
 * per path.  M NULL or not on: the "mesh off" document.
 */
struct mesh_view;
int status_render_mesh_json(FILE *f, const struct mesh_view *m);
int status_render_mesh_text(FILE *f, const struct mesh_view *m);
/* "9.87 Gbit/s": bytes per second as bits, the way links are rated
 * (also GET /mesh's table). */
void status_fmt_rate(char *buf, size_t len, uint64_t bytes_per_s);

#endif /* RDMAD_STATUS_H */
