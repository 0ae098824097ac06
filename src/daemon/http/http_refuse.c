/* SPDX-License-Identifier: BSD-2-Clause */
/* http_refuse.c - the endpoint's refused requests (see http_refuse.h). */
#include "http/http_refuse.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <arpa/inet.h>

#include "addr.h"
#include "clock.h"
#include "core/log.h"

/* The lines of refused requests: this many per period, then a summary. */
#define HTTP_REFUSE_LOG_BURST	10
#define HTTP_REFUSE_LOG_PERIOD	(60 * 1000000000ull)

static void http_refuse_summary_cb(evutil_socket_t fd, short what, void *arg)
{
	struct http_refuse *r = arg;
	uint64_t n = log_limit_summary(&r->limit);

	(void)fd;
	(void)what;
	if (n)
		log_notice("http: %" PRIu64 " more refused requests were "
			   "not logged in the last %llu s; "
			   "rdmad_http_requests_refused_total counts them all "
			   "by reason",
			   n, HTTP_REFUSE_LOG_PERIOD / 1000000000ull);
}

/* The summary at the end of the period its first dropped line is in. */
static void http_refuse_arm(struct http_refuse *r)
{
	uint64_t end = log_limit_period_end(&r->limit);
	uint64_t now = clock_now_ns(), ns = end > now ? end - now : 0;
	struct timeval tv = { (time_t)(ns / 1000000000ull),
			      (suseconds_t)(ns % 1000000000ull / 1000) };

	evtimer_add(r->timer, &tv);
}

int http_refuse_init(struct http_refuse *r, struct event_base *base)
{
	memset(r, 0, sizeof(*r));
	log_limit_init(&r->limit, HTTP_REFUSE_LOG_BURST,
		       HTTP_REFUSE_LOG_PERIOD);
	r->timer = evtimer_new(base, http_refuse_summary_cb, r);
	return r->timer ? 0 : -ENOMEM;
}

void http_refuse_fini(struct http_refuse *r)
{
	if (!r->timer)
		return;
	http_refuse_summary_cb(-1, 0, r);	/* what was not logged yet */
	event_free(r->timer);
	r->timer = NULL;
}

/* Why a request was refused, in its log line; NULL: not logged. */
static const char *http_refuse_why(enum stats_http_refusal reason)
{
	switch (reason) {
	case STATS_HTTP_FORBIDDEN:
		return "not in [http] allow";
	case STATS_HTTP_AUTH_MISSING:
		return "no basic auth credentials";
	case STATS_HTTP_AUTH_WRONG:
		return "wrong user or password";
	case STATS_HTTP_AUTH_BUSY:
		return "password checks over their share of the loop";
	case STATS_HTTP_TLS_PLAINTEXT:
		return "plain HTTP sent to the TLS port";
	case STATS_HTTP_TLS_GARBAGE:
		return "neither TLS nor HTTP";
	case STATS_HTTP_TLS_HANDSHAKE:
		return "TLS handshake failed";
	case STATS_HTTP_TLS_CLIENT_CERT:
		return "client certificate missing or refused";
	default:
		return NULL;
	}
}

/* Count a refused request by REASON; its line only while the limiter
 * allows (a summary of the others follows at the period's end). */
void http_refuse_count(struct http_refuse *r, enum stats_http_refusal reason,
		       const struct sockaddr *sa)
{
	const char *why = http_refuse_why(reason);
	char peer[INET6_ADDRSTRLEN + 8] = "?";

	r->n[reason]++;
	if (!why)
		return;
	if (!log_limit_take(&r->limit, clock_now_ns())) {
		if (!evtimer_pending(r->timer, NULL))
			http_refuse_arm(r);
		return;
	}
	if (sa)
		addr_str(sa, peer, sizeof(peer));
	log_notice("http: request from %s refused: %s", peer, why);
}
