/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_probe.h - GET /probe of rdmad's HTTP endpoint (http_probe.c).
 */
#ifndef RDMAD_HTTP_PROBE_H
#define RDMAD_HTTP_PROBE_H

#include <sys/socket.h>

#include <event2/event.h>
#include <event2/http.h>

#include "http/blackbox.h"
#include "core/config.h"

/* Probe what ASK asks for (blackbox_start's contract: 0, -EBUSY,
 * -ENOMEM); the asker went away: cancel P (blackbox_cancel). */
typedef int http_probe_start_fn(void *arg, const struct blackbox_ask *ask,
				blackbox_done_fn done, void *darg,
				struct blackbox_probe **out);
typedef void http_probe_cancel_fn(void *arg, struct blackbox_probe *p);

/* Start the probe REQ asks for with START (NULL: 404); the reply goes
 * out when it is over: 200 whenever a probe was asked for properly (run
 * or not: probe_success 0 and why), 400 for a malformed request. */
void http_probe_request(struct event_base *base,
			const struct rdmad_config *cfg,
			http_probe_start_fn *start,
			http_probe_cancel_fn *cancel, void *arg,
			struct evhttp_request *req,
			const struct evhttp_uri *uri);

#endif /* RDMAD_HTTP_PROBE_H */
