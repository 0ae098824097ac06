/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_log.h - rdma-probe's lines on stderr (probe_log.c): errors
 * always, the rest by -v level.
 */
#ifndef RDMAD_PROBE_LOG_H
#define RDMAD_PROBE_LOG_H

/* -1 quiet, 0 normal, 1 -v, 2 -vv: main sets it from the options. */
extern int probe_verbosity;

/* "rdma-probe: MESSAGE" on stderr. */
__attribute__((format(printf, 1, 2)))
void probe_err(const char *fmt, ...);
/* The same, when probe_verbosity is at least LEVEL. */
__attribute__((format(printf, 2, 3)))
void probe_dbg(int level, const char *fmt, ...);

#endif /* RDMAD_PROBE_LOG_H */
