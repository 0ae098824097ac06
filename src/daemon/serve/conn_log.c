/* SPDX-License-Identifier: BSD-2-Clause */
/* conn_log.c - what is said about a connection (see conn_log.h). */
#include <stdarg.h>
#include <stdio.h>

#include "clock.h"
#include "serve/conn_log.h"
#include "core/log.h"

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

double conn_log_age(const struct conn *c)
{
	return (double)clock_since_ns(c->t_open) / 1e9;
}
