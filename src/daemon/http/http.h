/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http.h - rdmad's HTTP endpoint ([http] in the config): the transport.
 * It listens, speaks TLS, checks [http] allow and basic auth, answers
 * the methods and paths it does not serve, encodes the replies
 * (http_reply.h), and keeps a route table.  It knows no wing: each wing
 * registers its paths (http_route_add: struct http_route, in
 * http_route_match.h) with a handler and its owner's pointer, and renders
 * its own views; the page at / lists the routes.
 */
#ifndef RDMAD_HTTP_H
#define RDMAD_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>

#include "core/config.h"
#include "http/http_route_match.h"

struct http;
struct web_config;

/*
 * Serve in BASE's loop as CFG says (the owner's configuration, read at
 * each request for [http] allow), with WC (http_web.h: http_web_read of CFG's
 * web_config; NULL: none).  Only / is served until routes are added.
 * 0, or -errno with the reason in ERR.
 */
int http_start(struct http **out, struct event_base *base,
	       const struct rdmad_config *cfg, const struct web_config *wc,
	       char *err, size_t errlen);
/* Harmless on NULL. */
void http_stop(struct http *h);
/*
 * Serve R (copied; its strings and OWNER must outlive H) from now on, in
 * the order added (the page at / and the 404 list them so):
 * http_route_match_add()'s 0 or -errno.
 */
int http_route_add(struct http *h, const struct http_route *r);
/* The requests refused so far, [STATS_HTTP_N] by reason (for /metrics). */
const uint64_t *http_refused(const struct http *h);
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
