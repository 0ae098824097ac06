/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http.h - rdmad's status and metrics endpoint ([http] in the config).
 * What it renders comes from its owner through struct http_ops.
 */
#ifndef RDMAD_HTTP_H
#define RDMAD_HTTP_H

#include <stddef.h>

#include <event2/event.h>

#include "http/blackbox.h"
#include "core/config.h"
#include "http/http_probe.h"
#include "core/stats.h"

struct http;
struct mesh_view;

struct http_ops {
	/* Fill V: LS has room for CONFIG_MAX_LISTEN listeners; CONNS, if
	 * not NULL, for up to MAX live connections. */
	void (*view)(void *arg, struct stats_view *v,
		     struct stats_listener *ls, struct stats_conn *conns,
		     unsigned int max);
	/* Live connections now. */
	unsigned int (*n_conns)(void *arg);
	/* Fill V (zeroed) with the mesh agent's peers; valid until the
	 * loop runs again.  NULL, or V left off: the mesh is off. */
	void (*mesh_view)(void *arg, struct mesh_view *v);
	/* GET /probe: probe what ASK asks for (blackbox_start's contract:
	 * 0, -EBUSY, -ENOMEM); NULL: /probe is not served. */
	http_probe_start_fn *probe;
	/* The asker of probe P went away (blackbox_cancel). */
	http_probe_cancel_fn *probe_cancel;
};

struct web_config;

/*
 * Serve in BASE's loop as CFG says (the owner's configuration, read at
 * each request for [http] allow), with WC (http_web.h: http_web_read of CFG's
 * web_config; NULL: none).  0, or -errno with the reason in ERR.
 */
int http_start(struct http **out, struct event_base *base,
	       const struct rdmad_config *cfg, const struct web_config *wc,
	       const struct http_ops *ops, void *arg, char *err,
	       size_t errlen);
/* Harmless on NULL. */
void http_stop(struct http *h);
/*
 * Reload in two steps: http_prepare() builds WC (http_web.h: http_web_read of CFG's
 * web_config) and binds CFG's address if it changed (nothing else
 * changes; -errno and ERR if it cannot), then either
 * http_commit() (the old address closes) or http_rollback().
 */
int http_prepare(struct http *h, const struct rdmad_config *cfg,
		 const struct web_config *wc, char *err, size_t errlen);
void http_commit(struct http *h);
void http_rollback(struct http *h);

#endif /* RDMAD_HTTP_H */
