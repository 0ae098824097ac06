/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_log.h - how the RDMA layer speaks: through the program's own
 * logger.  The daemon sends these lines to the journal, the probe to
 * stderr under -v; without a logger they are dropped.
 */
#ifndef RDMAD_RDMA_LOG_H
#define RDMAD_RDMA_LOG_H

#include <syslog.h>	/* LOG_ERR ... LOG_DEBUG */

/* PRIO is a syslog priority; MSG one line without a newline. */
typedef void rdma_log_fn(int prio, const char *msg);

void rdma_log_set(rdma_log_fn *fn);

__attribute__((format(printf, 2, 3)))
void rdma_log(int prio, const char *fmt, ...);

#endif /* RDMAD_RDMA_LOG_H */
