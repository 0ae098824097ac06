/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_log.c - rdma-probe's lines on stderr: "rdma-probe: " and the
 * message; debug lines only at the -v level asked for.  Every file of
 * the probe logs here, none through main.
 */
#include "probe_log.h"

#include <stdarg.h>
#include <stdio.h>

int probe_verbosity;

__attribute__((format(printf, 1, 0)))
static void probe_log_line(const char *fmt, va_list ap)
{
	fputs("rdma-probe: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void probe_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	probe_log_line(fmt, ap);
	va_end(ap);
}

void probe_dbg(int level, const char *fmt, ...)
{
	va_list ap;

	if (probe_verbosity < level)
		return;
	va_start(ap, fmt);
	probe_log_line(fmt, ap);
	va_end(ap);
}
