/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_log.h - what is said about a connection: its log lines (with its
 * id, peer, protocol and state as journal fields), its outcome for the
 * close line and the counters, and what its ABORT tells the client.
 */
#ifndef RDMAD_CONN_LOG_H
#define RDMAD_CONN_LOG_H

#include <stdint.h>

#include "conn_core.h"

__attribute__((format(printf, 4, 5)))
void conn_log(struct conn *c, int prio, const char *msgid, const char *fmt,
	      ...);
/* Record the outcome once; the first cause wins. */
__attribute__((format(printf, 3, 4)))
void conn_log_result(struct conn *c, enum stats_result res, const char *fmt,
		     ...);
/* What the ABORT will tell the client; the first cause wins, as for the
 * result. */
__attribute__((format(printf, 4, 5)))
void conn_log_abort(struct conn *c, uint8_t reason, uint32_t limit_ms,
		    const char *fmt, ...);
/* Seconds since the request, for the logs. */
double conn_log_age(const struct conn *c);
/* The close line (and the result "aborted" if none was recorded). */
void conn_log_close(struct conn *c);

#endif /* RDMAD_CONN_LOG_H */
