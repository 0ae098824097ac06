/* SPDX-License-Identifier: BSD-2-Clause */
/* conn_end.c - a connection's outcome, set and said (see conn_end.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "clock.h"
#include "serve/conn_end.h"
#include "serve/conn_log.h"
#include "core/log.h"

void conn_end(struct conn *c, enum conn_cause cause, uint32_t limit_ms,
	      const char *tell, const char *fmt, ...)
{
	char why[CONN_END_WHY_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (conn_end_decide(&c->end, cause, limit_ms, why, tell))
		conn_log(c, LOG_DEBUG, NULL, "outcome %s (%s): %s",
			 stats_result_name(c->end.res),
			 conn_cause_name(cause), why);
	else
		conn_log(c, LOG_DEBUG, NULL, "%s after the outcome %s (%s): "
			 "%s; kept", conn_cause_name(cause),
			 stats_result_name(c->end.res),
			 conn_cause_name(c->end.cause), why);
}

const struct proto_abort *conn_end_abort_msg(struct conn *c)
{
	return conn_end_abort(&c->end);
}

void conn_end_close(struct conn *c)
{
	struct log_ctx ctx = {
		.conn = c->id,
		.peer = c->peer,
		.proto = conn_proto_name(c->fsm.proto),
		.state = "closed",
		.msgid = LOG_MSGID_CONN_CLOSE,
	};
	enum stats_result res = conn_end_result(&c->end);

	ctx.bytes = (int64_t)c->bytes;
	ctx.result = stats_result_name(res);
	log_conn(res == STATS_RES_OK ? LOG_INFO : LOG_NOTICE, &ctx,
		 "close: %s, result %s (%s), %" PRIu64 " bytes, %" PRIu64
		 " %s, %.3fs", conn_proto_name(c->fsm.proto), ctx.result,
		 c->end.why, c->bytes, c->rounds, c->ops->rounds_unit,
		 conn_log_age(c));
	if (c->counted) {
		c->counted = 0;
		stats_closed(c->s->stats, conn_stats_proto(c), res,
			     clock_since_ns(c->t_open));
	}
}
