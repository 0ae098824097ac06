/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_render.h - every rendering of this host's view of the mesh, chosen
 * by enum mesh_format (mesh_http.c maps the requests to it):
 *
 *   JSON     GET /peers: the agent and a row per path (rdmadctl --json mesh)
 *   TEXT     GET /peers?format=text: the same as a table (rdmadctl mesh)
 *   MATRIX   GET /peers?format=matrix: peers by sizes, text (rdmadctl
 *            mesh --matrix)
 *   PAGE     GET /mesh: an HTML page, a heatmap in inline SVG (peers
 *            across, sizes down, colour by the p99 of the recent rounds,
 *            marks for loss and mismatch, figures in the hover titles)
 *            and a table below; no script, no external asset, reloads
 *            itself; at most MESH_RENDER_PEERS_MAX peers a page
 *
 * Pure: the view, the host name and the time are arguments (see
 * docs/monitoring.md, "The heatmap").
 */
#ifndef RDMAD_MESH_RENDER_H
#define RDMAD_MESH_RENDER_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct mesh_view;

#define MESH_RENDER_REFRESH_DEFAULT	10	/* seconds */
#define MESH_RENDER_REFRESH_MAX		3600

/*
 * The page shows at most this many peers (from opts.from on) and says
 * what it left out, with links to the other pages (?from=N): 512 peers
 * are some 1.4 MB of HTML and a few ms to render; every peer at once is
 * the matrix's job.
 */
#define MESH_RENDER_PEERS_MAX		512
#define MESH_RENDER_FROM_MAX		99999	/* ?from=N */

enum mesh_format {
	MESH_FORMAT_JSON,
	MESH_FORMAT_TEXT,
	MESH_FORMAT_MATRIX,
	MESH_FORMAT_PAGE,
};

/* Of the page (MESH_FORMAT_PAGE) only. */
struct mesh_render_opts {
	const char *host;		/* this host's name */
	time_t now;			/* of the render, shown in UTC */
	unsigned int refresh_s;		/* 0: the page does not reload */
	unsigned int from;		/* the page's first peer (0 ..) */
};

/*
 * M as FMT into F; O (may be NULL) for the page.  M NULL or off: the
 * "mesh off" document of each format.  0, or -EIO when F reports an
 * error, -ENOMEM.
 *
 * The matrix: a row per peer, a column per size and "all", each cell
 * the p99 with "~N%" for loss and "!" for a mismatch, DOWN, "failed"
 * (every round) or "-" (none).
 */
int mesh_render(FILE *f, const struct mesh_view *m, enum mesh_format fmt,
		     const struct mesh_render_opts *o);

/* A decimal number 0..MAX (at most 5 digits): refresh=S (MAX
 * MESH_RENDER_REFRESH_MAX), from=N (MESH_RENDER_FROM_MAX); -EINVAL. */
int mesh_render_number_parse(const char *s, unsigned int max,
			   unsigned int *out);

/* The colour scale: 4 steps a decade from 10 us to 1 s, the fill of a
 * cell whose p99 is P99_NS (> 0); "#rrggbb". */
#define MESH_RENDER_STEPS		20
const char *mesh_render_colour(uint64_t p99_ns);
extern const char mesh_render_nodata[];	/* grey: no round of that size */
extern const char mesh_render_down[];	/* peer down, or every round failed */

#endif /* RDMAD_MESH_RENDER_H */
