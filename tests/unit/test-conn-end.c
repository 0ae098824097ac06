/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-conn-end.c - conn_end_rules.c: how a served connection's outcome
 * is decided.  The first cause decides the result (its metric label), the
 * first cause with an ABORT reason the ABORT, whatever comes after; a
 * connection closed without a cause is "aborted"; an ABORT with none
 * decided says "stalled" and the detail.  From tables.
 */
#include <string.h>

#include "serve/conn_end_rules.h"
#include "tap.h"

/* Each cause alone: its result's label, its ABORT. */
static const struct {
	enum conn_cause cause;
	const char *label;
	uint8_t abort;
	const char *text;	/* the ABORT's, with why "W" and no tell */
} alone[] = {
	{ CONN_CAUSE_CLIENT_LEFT, "ok", 0, NULL },
	{ CONN_CAUSE_CLIENT_LEFT_EARLY, "aborted", 0, NULL },
	{ CONN_CAUSE_LINGERED, "ok", 0, NULL },
	{ CONN_CAUSE_PROTOCOL, "protocol-error", PROTO_ABORT_PROTOCOL, "W" },
	{ CONN_CAUSE_BAD_MESSAGE, "bad-message", PROTO_ABORT_PROTOCOL, "W" },
	{ CONN_CAUSE_AUTH_FAILED, "auth-failed", PROTO_ABORT_AUTH, "W" },
	{ CONN_CAUSE_BAD_DONE, "bad-done", 0, NULL },
	{ CONN_CAUSE_MISMATCH, "mismatch", 0, NULL },
	{ CONN_CAUSE_OVER_LIMIT, "over-limit", 0, NULL },
	{ CONN_CAUSE_IDLE, "timeout", PROTO_ABORT_IDLE, "" },
	{ CONN_CAUSE_SESSION, "timeout", PROTO_ABORT_SESSION, "" },
	{ CONN_CAUSE_STALLED, "timeout", PROTO_ABORT_STALLED, "W" },
	{ CONN_CAUSE_MAX_DURATION, "timeout", PROTO_ABORT_DURATION, "" },
	{ CONN_CAUSE_SHUTDOWN, "shutdown", PROTO_ABORT_SHUTDOWN, "" },
	{ CONN_CAUSE_POST_FAILED, "post-failed", 0, NULL },
	{ CONN_CAUSE_COMPLETION, "completion-error", 0, NULL },
	{ CONN_CAUSE_PEER_LOST, "peer-unreachable", 0, NULL },
	{ CONN_CAUSE_CONNECT_ERROR, "connect-error", 0, NULL },
	{ CONN_CAUSE_DEVICE_ERROR, "device-error", 0, NULL },
	{ CONN_CAUSE_DEVICE_REMOVED, "device-removed", 0, NULL },
	{ CONN_CAUSE_INTERNAL, "internal-error", 0, NULL },
	{ CONN_CAUSE_CLOSED, "aborted", 0, NULL },
};

static void test_alone(void)
{
	struct conn_end e;
	unsigned int i;

	tap_ok(sizeof(alone) / sizeof(alone[0]) == CONN_CAUSE_N,
	       "every cause has a row here");
	for (i = 0; i < sizeof(alone) / sizeof(alone[0]); i++) {
		conn_end_init(&e);
		tap_ok(conn_end_decide(&e, alone[i].cause, 7, "W", NULL) &&
		       !strcmp(stats_result_name(conn_end_result(&e)),
			       alone[i].label) &&
		       !strcmp(stats_result_name(conn_cause_result(
			       alone[i].cause)), alone[i].label) &&
		       !strcmp(e.why, "W") && e.abort.reason == alone[i].abort &&
		       (!alone[i].abort || (e.abort.limit_ms == 7 &&
			!strcmp(e.abort.text, alone[i].text))),
		       "%s alone: result %s, ABORT %u",
		       conn_cause_name(alone[i].cause), alone[i].label,
		       alone[i].abort);
	}
}

/* Two causes in turn: what the second changes. */
static const struct {
	const char *name;
	enum conn_cause first, second;
	const char *label;		/* the result */
	uint8_t abort;			/* the ABORT's reason */
	const char *why;		/* the detail kept */
} pairs[] = {
	{ "first failure wins over a later one", CONN_CAUSE_MISMATCH,
	  CONN_CAUSE_COMPLETION, "mismatch", 0, "1" },
	{ "a timeout, then the client leaving: still timeout",
	  CONN_CAUSE_STALLED, CONN_CAUSE_CLIENT_LEFT, "timeout",
	  PROTO_ABORT_STALLED, "1" },
	{ "a clean end stays clean", CONN_CAUSE_CLIENT_LEFT,
	  CONN_CAUSE_PEER_LOST, "ok", 0, "1" },
	{ "a failure of ours leaves the ABORT to the next cause",
	  CONN_CAUSE_POST_FAILED, CONN_CAUSE_SHUTDOWN, "post-failed",
	  PROTO_ABORT_SHUTDOWN, "1" },
	{ "the first ABORT reason wins", CONN_CAUSE_AUTH_FAILED,
	  CONN_CAUSE_SHUTDOWN, "auth-failed", PROTO_ABORT_AUTH, "1" },
	{ "a mismatch, then shutdown: the client is told shutdown",
	  CONN_CAUSE_MISMATCH, CONN_CAUSE_SHUTDOWN, "mismatch",
	  PROTO_ABORT_SHUTDOWN, "1" },
};

static void test_pairs(void)
{
	struct conn_end e;
	unsigned int i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		conn_end_init(&e);
		conn_end_decide(&e, pairs[i].first, 0, "1", NULL);
		tap_ok(!conn_end_decide(&e, pairs[i].second, 0, "2", NULL) &&
		       !strcmp(stats_result_name(conn_end_result(&e)),
			       pairs[i].label) &&
		       e.abort.reason == pairs[i].abort &&
		       !strcmp(e.why, pairs[i].why) &&
		       e.cause == pairs[i].first, "%s", pairs[i].name);
	}
}

static void test_defaults(void)
{
	struct conn_end e;
	const struct proto_abort *a;
	char long_why[400];

	conn_end_init(&e);
	tap_ok(e.res == STATS_RES_N && e.cause == CONN_CAUSE_N,
	       "a new connection is undecided");
	tap_ok(conn_end_result(&e) == STATS_RES_ABORTED &&
	       e.cause == CONN_CAUSE_CLOSED &&
	       !strcmp(e.why, "closed without a result"),
	       "closed without a cause: aborted, and says so");

	conn_end_init(&e);
	conn_end_decide(&e, CONN_CAUSE_POST_FAILED, 0, "posting failed",
			NULL);
	a = conn_end_abort(&e);
	tap_ok(a->reason == PROTO_ABORT_STALLED &&
	       !strcmp(a->text, "posting failed"),
	       "an ABORT with none decided: stalled, the detail");

	conn_end_init(&e);
	conn_end_decide(&e, CONN_CAUSE_PROTOCOL, 0, "event x in state y",
			"unexpected x");
	tap_ok(!strcmp(e.abort.text, "unexpected x") &&
	       !strcmp(e.why, "event x in state y"),
	       "the ABORT's own text, the close line's detail");

	memset(long_why, 'w', sizeof(long_why) - 1);
	long_why[sizeof(long_why) - 1] = '\0';
	conn_end_init(&e);
	conn_end_decide(&e, CONN_CAUSE_BAD_MESSAGE, 0, long_why, NULL);
	tap_ok(strlen(e.why) == CONN_END_WHY_MAX - 1 &&
	       strlen(e.abort.text) == PROTO_ABORT_TEXT_MAX,
	       "long details cut to fit");
	conn_end_init(&e);
	tap_ok(conn_end_decide(&e, CONN_CAUSE_N, 0, NULL, NULL) &&
	       e.res == STATS_RES_INTERNAL_ERROR && !strcmp(e.why, ""),
	       "an unknown cause is an internal error");
	tap_ok(!strcmp(conn_cause_name(CONN_CAUSE_N), "?"),
	       "no name for an unknown cause");
}

int main(void)
{
	test_alone();
	test_pairs();
	test_defaults();
	return tap_done();
}
