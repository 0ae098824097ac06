/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmad_pages - the daemon's own pages: GET /metrics (every wing's
 * families, metrics_render.c) and GET /status (the served side,
 * status_render.c), registered on the HTTP endpoint's route table.
 * Their figures are main's state (listeners, connections, counters,
 * reloads): main says how to read them through VIEW.  Main (and the
 * driver tests' fixture) adds every route of the endpoint through it.
 */
#ifndef RDMAD_PAGES_H
#define RDMAD_PAGES_H

#include "core/stats.h"

struct blackbox;
struct conn_set;
struct http;
struct mesh_agent;

struct rdmad_pages {
	/* fill V (and LS, and up to MAX of CONNS when CONNS) */
	void (*view)(void *arg, struct stats_view *v,
		     struct stats_listener *ls, struct stats_conn *conns,
		     unsigned int max);
	void *arg;
	struct conn_set *conns;		/* how many rows /status needs */
	struct mesh_agent **mesh;	/* its families, when it runs */
	struct http *http;		/* its refusals */
	struct blackbox *probes;	/* GET /probe's */
};

/*
 * Fill P->http's route table, in the order of the page at /: /metrics
 * and /status, the mesh's (/peers, /mesh: mesh_http.c), the blackbox's
 * (/probe: blackbox_http.c).  0 or -errno.
 */
int rdmad_pages_routes(struct rdmad_pages *p);

#endif
