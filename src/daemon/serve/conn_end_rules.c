/* SPDX-License-Identifier: BSD-2-Clause */
/* conn_end_rules.c - how a connection's outcome is decided (see
 * conn_end_rules.h). */
#include <string.h>

#include "serve/conn_end_rules.h"

struct cause_row {
	const char *name;
	enum stats_result res;
	uint8_t abort;
	bool tell_why;
};

#define X_ROW(c, r, a, t)	{ #c, STATS_RES_##r, a, t },
static const struct cause_row rows[] = { CONN_CAUSES(X_ROW) };
#undef X_ROW

/* SRC into DST of LEN bytes, cut short if need be. */
static void copy_text(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

void conn_end_init(struct conn_end *e)
{
	memset(e, 0, sizeof(*e));
	e->cause = CONN_CAUSE_N;
	e->res = STATS_RES_N;
}

bool conn_end_decide(struct conn_end *e, enum conn_cause cause,
		     uint32_t limit_ms, const char *why, const char *tell)
{
	const struct cause_row *r;

	if ((unsigned int)cause >= CONN_CAUSE_N)
		cause = CONN_CAUSE_INTERNAL;
	r = &rows[cause];
	if (!why)
		why = "";
	if (r->abort && !e->abort.reason) {
		e->abort.reason = r->abort;
		e->abort.limit_ms = limit_ms;
		copy_text(e->abort.text, sizeof(e->abort.text),
			  tell ? tell : r->tell_why ? why : "");
	}
	if (e->cause != CONN_CAUSE_N)
		return false;
	e->cause = cause;
	e->res = r->res;
	copy_text(e->why, sizeof(e->why), why);
	return true;
}

enum stats_result conn_end_result(struct conn_end *e)
{
	if (e->cause == CONN_CAUSE_N)
		conn_end_decide(e, CONN_CAUSE_CLOSED, 0, "closed without a "
				"result", NULL);
	return e->res;
}

const struct proto_abort *conn_end_abort(struct conn_end *e)
{
	if (!e->abort.reason) {
		e->abort.reason = PROTO_ABORT_STALLED;
		e->abort.limit_ms = 0;
		copy_text(e->abort.text, sizeof(e->abort.text), e->why);
	}
	return &e->abort;
}

const char *conn_cause_name(enum conn_cause c)
{
	return (unsigned int)c < CONN_CAUSE_N ? rows[c].name : "?";
}

enum stats_result conn_cause_result(enum conn_cause c)
{
	return (unsigned int)c < CONN_CAUSE_N ? rows[c].res :
						STATS_RES_INTERNAL_ERROR;
}
