/* SPDX-License-Identifier: BSD-2-Clause */
/* rdma_log.c - the RDMA layer's lines, to the program's logger. */
#include <stdarg.h>
#include <stdio.h>

#include "rdma_log.h"

static rdma_log_fn *rdma_log_hook;

void rdma_log_set(rdma_log_fn *fn)
{
	rdma_log_hook = fn;
}

void rdma_log(int prio, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!rdma_log_hook)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rdma_log_hook(prio, msg);
}
