/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proc_stat_parse.h - the process metrics Prometheus client libraries export
 * (process_cpu_seconds_total, process_resident_memory_bytes, ...): the
 * parser of /proc/self/stat (pure), and the figures the daemon reads
 * with it (proc_self.h) for metrics_render.c.
 */
#ifndef RDMAD_PROC_STAT_PARSE_H
#define RDMAD_PROC_STAT_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* The fields of /proc/PID/stat rdmad uses (proc(5)). */
struct proc_stat {
	uint64_t utime, stime;		/* (14), (15): clock ticks */
	uint64_t starttime;		/* (22): clock ticks after boot */
	uint64_t vsize;			/* (23): bytes */
	uint64_t rss;			/* (24): pages */
};

/* The process as the metrics show it. */
struct proc_self {
	double cpu_seconds;		/* user + system */
	uint64_t resident_bytes;
	uint64_t virtual_bytes;
	uint64_t open_fds;
	uint64_t max_fds;		/* RLIMIT_NOFILE, soft */
	double start_time;		/* unix seconds */
};

/*
 * /proc/PID/stat's text BUF (NUL-terminated) into OUT.  The command
 * name (2) is in parentheses and may hold spaces and ')': the fields
 * start after the last ')'.  0, or -EINVAL when BUF is not such a line.
 */
int proc_stat_parse(const char *buf, struct proc_stat *out);
/*
 * An unsigned decimal at *P that fits 64 bits into V, *P moved past it;
 * 0 if there is none (the parsers of /proc files share it).
 */
int proc_parse_u64(const char **p, uint64_t *v);

#endif /* RDMAD_PROC_STAT_PARSE_H */
