/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_refuse.h - the endpoint's refused requests: counted by reason
 * (rdmad_http_requests_refused_total) and, for the reasons an operator
 * acts on (allow list, basic auth, TLS), logged: at most
 * HTTP_REFUSE_LOG_BURST lines a minute, then one summary line of how many
 * were not, so that whoever reaches the port cannot flood the journal.
 */
#ifndef RDMAD_HTTP_REFUSE_H
#define RDMAD_HTTP_REFUSE_H

#include <stdint.h>
#include <sys/socket.h>

#include <event2/event.h>

#include "core/log_limit.h"
#include "core/stats.h"

struct http_refuse {
	uint64_t n[STATS_HTTP_N];	/* requests, by reason */
	struct log_limit limit;		/* their log lines */
	struct event *timer;		/* the summary line */
};

/* 0, or -ENOMEM. */
int http_refuse_init(struct http_refuse *r, struct event_base *base);
/* Logs the summary of what was not logged yet. */
void http_refuse_fini(struct http_refuse *r);
/* A request or connection from SA (NULL: not known) refused for REASON;
 * its line names SA as ADDRESS:PORT. */
void http_refuse_count(struct http_refuse *r, enum stats_http_refusal reason,
		       const struct sockaddr *sa);

#endif /* RDMAD_HTTP_REFUSE_H */
