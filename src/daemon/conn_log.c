/* SPDX-License-Identifier: BSD-2-Clause */
/* conn_log.c - what is said about a connection (see conn_log.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "clock.h"
#include "conn_log.h"
#include "log.h"

void conn_log(struct conn *c, int prio, const char *msgid,
		     const char *fmt, ...)
{
	char msg[512], state[64];
	struct log_ctx ctx = {
		.conn = c->id,
		.peer = c->peer,
		.proto = conn_proto_name(c->fsm.proto),
		.bytes = -1,
		.msgid = msgid,
	};
	va_list ap;

	if (prio > log_get_level())
		return;
	ctx.state = conn_fsm_str(&c->fsm, state, sizeof(state));
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_conn(prio, &ctx, "%s", msg);
}

void conn_log_result(struct conn *c, enum stats_result res,
		     const char *fmt, ...)
{
	va_list ap;

	if (c->res != STATS_RES_N)
		return;
	c->res = res;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
}

void conn_log_abort(struct conn *c, uint8_t reason, uint32_t limit_ms,
		    const char *fmt, ...)
{
	va_list ap;

	if (c->abort.reason)
		return;
	c->abort.reason = reason;
	c->abort.limit_ms = limit_ms;
	va_start(ap, fmt);
	vsnprintf(c->abort.text, sizeof(c->abort.text), fmt, ap);
	va_end(ap);
}

double conn_log_age(const struct conn *c)
{
	return (double)clock_since_ns(c->t_open) / 1e9;
}

void conn_log_close(struct conn *c)
{
	struct log_ctx ctx = {
		.conn = c->id,
		.peer = c->peer,
		.proto = conn_proto_name(c->fsm.proto),
		.state = "closed",
		.msgid = LOG_MSGID_CONN_CLOSE,
	};
	int ok;

	if (c->res == STATS_RES_N)
		conn_log_result(c, STATS_RES_ABORTED, "closed without a "
				"result");
	ok = c->res == STATS_RES_OK;
	ctx.bytes = (int64_t)c->bytes;
	ctx.result = stats_result_name(c->res);
	log_conn(ok ? LOG_INFO : LOG_NOTICE, &ctx,
		 "close: %s, result %s (%s), %" PRIu64 " bytes, %" PRIu64
		 " %s, %.3fs", conn_proto_name(c->fsm.proto), ctx.result,
		 c->why,
		 c->bytes, c->rounds,
		 c->fsm.proto == CONN_PROTO_RPING ? "pings" : "operations",
		 conn_log_age(c));
}
