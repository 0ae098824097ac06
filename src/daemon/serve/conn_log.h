/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_log.h - a connection's log lines, with its id, peer, protocol and
 * state as journal fields.  Its outcome and close line: conn_end.h.
 */
#ifndef RDMAD_CONN_LOG_H
#define RDMAD_CONN_LOG_H

#include <stdint.h>

#include "serve/conn_core.h"

__attribute__((format(printf, 4, 5)))
void conn_log(struct conn *c, int prio, const char *msgid, const char *fmt,
	      ...);
/* Seconds since the request, for the logs. */
double conn_log_age(const struct conn *c);

#endif /* RDMAD_CONN_LOG_H */
