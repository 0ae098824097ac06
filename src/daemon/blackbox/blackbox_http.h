/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blackbox_http.h - GET /probe on rdmad's HTTP endpoint: the blackbox
 * wing's route (blackbox_http.c).
 */
#ifndef RDMAD_BLACKBOX_HTTP_H
#define RDMAD_BLACKBOX_HTTP_H

#include "blackbox/blackbox.h"
#include "http/http.h"

/* Serve GET /probe on H with BB's probes (BB outlives H's requests:
 * blackbox_fini after http_stop).  0, or http_route_add's -errno. */
int blackbox_http_routes(struct http *h, struct blackbox *bb);

#endif /* RDMAD_BLACKBOX_HTTP_H */
