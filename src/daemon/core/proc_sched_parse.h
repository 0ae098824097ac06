/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proc_sched_parse.h - what the scheduler says of this host and of rdmad,
 * for the mesh prober's share of a round (docs/monitoring.md, "The
 * prober's share"): the parsers of /proc/pressure/cpu (Linux PSI) and of
 * /proc/PID/schedstat, pure; cpu_wait.h reads the files with them.
 */
#ifndef RDMAD_PROC_SCHED_PARSE_H
#define RDMAD_PROC_SCHED_PARSE_H

#include <stdint.h>

/*
 * The "some" line's total= of /proc/pressure/cpu's text BUF
 * (NUL-terminated): microseconds in which at least one task waited for a
 * CPU, since boot.  0, or -EINVAL when BUF has no such line or its total
 * is not a decimal that fits 64 bits.
 */
int proc_psi_parse_some(const char *buf, uint64_t *total_us);

/*
 * /proc/PID/schedstat's text BUF ("RUNTIME_NS RUN_DELAY_NS TIMESLICES"):
 * its second field, nanoseconds the task waited on a run queue.  0, or
 * -EINVAL when BUF is not three decimals that fit 64 bits.
 */
int proc_schedstat_parse(const char *buf, uint64_t *run_delay_ns);

#endif /* RDMAD_PROC_SCHED_PARSE_H */
