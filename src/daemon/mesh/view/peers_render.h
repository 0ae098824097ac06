/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * peers_render.h - the mesh's peer table, pure: JSON (GET /peers) and
 * text (GET /peers?format=text); mesh_render() dispatches to them.  M
 * NULL or off: the "mesh off" document.  0, or -EIO when F reports an
 * error.
 */
#ifndef RDMAD_PEERS_RENDER_H
#define RDMAD_PEERS_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct mesh_view;

int peers_render_json(FILE *f, const struct mesh_view *m);
/* Bytes per second as bits per second, the way links are rated (the
 * heatmap's too). */
void peers_render_rate(char *buf, size_t len, uint64_t bytes_per_s);
int peers_render_text(FILE *f, const struct mesh_view *m);

#endif /* RDMAD_PEERS_RENDER_H */
