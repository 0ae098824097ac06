/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_end_rules.h - how a served connection's outcome is decided (pure:
 * no loop, no verbs; test-conn-end).  Whatever ends a connection is a
 * cause (enum conn_cause); each cause names its result (the close line's
 * and the rdmad_sessions_total{result} label) and what the ABORT tells a
 * native client.  The rules:
 *
 *   - the first cause decides the result; later ones change nothing;
 *   - the first cause with an ABORT reason decides the ABORT (a cause
 *     without one, a failure of ours, leaves it to the next);
 *   - an ABORT sent with none decided says "stalled" and the result's
 *     detail;
 *   - a connection closed without a cause ended "aborted".
 *
 * conn_end.c is the funnel that applies them to a connection and logs
 * the outcome; nobody else writes it.
 */
#ifndef RDMAD_CONN_END_RULES_H
#define RDMAD_CONN_END_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "proto.h"
#include "core/stats.h"

/* X(cause, result, ABORT reason or 0, the ABORT's text is the detail) */
#define CONN_CAUSES(X)							\
	X(CLIENT_LEFT,	  OK,		    0, false)			\
	X(CLIENT_LEFT_EARLY, ABORTED,	    0, false)			\
	X(LINGERED,	  OK,		    0, false)			\
	X(PROTOCOL,	  PROTOCOL_ERROR,   PROTO_ABORT_PROTOCOL, true)	\
	X(BAD_MESSAGE,	  BAD_MESSAGE,	    PROTO_ABORT_PROTOCOL, true)	\
	X(AUTH_FAILED,	  AUTH_FAILED,	    PROTO_ABORT_AUTH, true)	\
	X(BAD_DONE,	  BAD_DONE,	    0, false)			\
	X(MISMATCH,	  MISMATCH,	    0, false)			\
	X(OVER_LIMIT,	  OVER_LIMIT,	    0, false)			\
	X(IDLE,		  TIMEOUT,	    PROTO_ABORT_IDLE, false)	\
	X(SESSION,	  TIMEOUT,	    PROTO_ABORT_SESSION, false)	\
	X(STALLED,	  TIMEOUT,	    PROTO_ABORT_STALLED, true)	\
	X(MAX_DURATION,	  TIMEOUT,	    PROTO_ABORT_DURATION, false) \
	X(SHUTDOWN,	  SHUTDOWN,	    PROTO_ABORT_SHUTDOWN, false) \
	X(POST_FAILED,	  POST_FAILED,	    0, false)			\
	X(COMPLETION,	  COMPLETION_ERROR, 0, false)			\
	X(PEER_LOST,	  PEER_UNREACHABLE, 0, false)			\
	X(CONNECT_ERROR,  CONNECT_ERROR,    0, false)			\
	X(DEVICE_ERROR,	  DEVICE_ERROR,	    0, false)			\
	X(DEVICE_REMOVED, DEVICE_REMOVED,   0, false)			\
	X(INTERNAL,	  INTERNAL_ERROR,   0, false)			\
	X(CLOSED,	  ABORTED,	    0, false)

#define X_CAUSE(c, r, a, t)	CONN_CAUSE_##c,
enum conn_cause { CONN_CAUSES(X_CAUSE) CONN_CAUSE_N };
#undef X_CAUSE

#define CONN_END_WHY_MAX	160

/* A connection's outcome, as decided so far. */
struct conn_end {
	enum conn_cause cause;		/* CONN_CAUSE_N: undecided */
	enum stats_result res;		/* STATS_RES_N: undecided */
	char why[CONN_END_WHY_MAX];	/* its detail, for the close line */
	struct proto_abort abort;	/* reason 0: none decided */
};

void conn_end_init(struct conn_end *e);
/*
 * CAUSE happened, WHY its detail.  TELL: the ABORT's text (NULL: the
 * cause's own, WHY or nothing); LIMIT_MS: the limit the ABORT names.
 * True when CAUSE decided the result.
 */
bool conn_end_decide(struct conn_end *e, enum conn_cause cause,
		     uint32_t limit_ms, const char *why, const char *tell);
/* The result, and its detail: CLOSED's when none was decided. */
enum stats_result conn_end_result(struct conn_end *e);
/* The ABORT to send: the one decided, else STALLED with the detail. */
const struct proto_abort *conn_end_abort(struct conn_end *e);

const char *conn_cause_name(enum conn_cause c);
enum stats_result conn_cause_result(enum conn_cause c);

#endif /* RDMAD_CONN_END_RULES_H */
