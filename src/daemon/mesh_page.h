/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_page.h - GET /mesh: this host's view of the mesh as an HTML page,
 * a heatmap drawn in inline SVG (peers across, sizes down, colour by the
 * p99 of the recent rounds, marks for loss and mismatch, figures in the
 * hover titles) and a table below.  No script, no external asset; the
 * page reloads itself; and the same matrix as text.  Pure: the view, the
 * host name and the time are arguments (see docs/monitoring.md, "The
 * heatmap").
 */
#ifndef RDMAD_MESH_PAGE_H
#define RDMAD_MESH_PAGE_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct mesh_view;

#define MESH_PAGE_REFRESH_DEFAULT	10	/* seconds */
#define MESH_PAGE_REFRESH_MAX		3600

struct mesh_page_opts {
	const char *host;		/* this host's name */
	time_t now;			/* of the render, shown in UTC */
	unsigned int refresh_s;		/* 0: the page does not reload */
};

/* 0, or -EIO when F reports an error.  M NULL or off: "mesh off". */
int mesh_page_render(FILE *f, const struct mesh_view *m,
		     const struct mesh_page_opts *o);

/*
 * The same matrix as text for a terminal (GET /peers?format=matrix,
 * rdmadctl mesh --matrix): a row per peer, a column per size and "all",
 * each cell the p99 with "~N%" for loss and "!" for a mismatch, DOWN,
 * "failed" (every round) or "-" (none).  0 or -EIO.
 */
int mesh_page_render_matrix(FILE *f, const struct mesh_view *m);

/* refresh=S: 0 or 1..MESH_PAGE_REFRESH_MAX decimal seconds; -EINVAL. */
int mesh_page_refresh_parse(const char *s, unsigned int *out);

/* The colour scale: 4 steps a decade from 10 us to 1 s, the fill of a
 * cell whose p99 is P99_NS (> 0); "#rrggbb". */
#define MESH_PAGE_STEPS		20
const char *mesh_page_colour(uint64_t p99_ns);
extern const char mesh_page_nodata[];	/* grey: no round of that size */
extern const char mesh_page_down[];	/* peer down, or every round failed */

#endif /* RDMAD_MESH_PAGE_H */
