/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_end.h - the one place a served connection's outcome is set and
 * said (as relayd's server_close(clt, why)): whatever ends a connection
 * (its driver, its timers, its protocol) reports the cause here, the
 * rules of conn_end_rules.h decide, and the close line and the session
 * counters come from here alone.
 */
#ifndef RDMAD_CONN_END_H
#define RDMAD_CONN_END_H

#include <stdint.h>

#include "serve/conn_core.h"

/*
 * CAUSE ends C (or will): its detail from FMT, TELL the ABORT's text (NULL:
 * the cause's own), LIMIT_MS the limit the ABORT names.  Only the first
 * cause decides the result (later ones are logged at debug level).
 */
__attribute__((format(printf, 5, 6)))
void conn_end(struct conn *c, enum conn_cause cause, uint32_t limit_ms,
	      const char *tell, const char *fmt, ...);
/* The ABORT to send the client (native). */
const struct proto_abort *conn_end_abort_msg(struct conn *c);
/* C is freed: its close line, and its session counted by result. */
void conn_end_close(struct conn *c);

#endif /* RDMAD_CONN_END_H */
