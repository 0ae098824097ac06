/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpu_wait.h - the scheduler's figures of this host and of rdmad's
 * loop, read as often as the mesh starts and ends rounds: the files stay
 * open and each read is one pread (cpu_wait.c, with the parsers of
 * proc_sched_parse.h).
 */
#ifndef RDMAD_CPU_WAIT_H
#define RDMAD_CPU_WAIT_H

#include <stdbool.h>
#include <stdint.h>

struct cpu_wait {
	int psi_fd;			/* /proc/pressure/cpu, or
					   /sys/fs/cgroup/cpu.pressure;
					   -1: none */
	int stat_fd;			/* /proc/self/schedstat; -1: none */
};

struct cpu_wait_now {
	uint64_t run_delay_ns;		/* rdmad's loop on a run queue */
	uint64_t psi_us;		/* the host's PSI "some" total */
	bool run_delay_known, psi_known;
};

/*
 * Open the files: the host's PSI from /proc/pressure/cpu or, where the
 * sandbox hides it (ProcSubset=pid), from the root cgroup's
 * cpu.pressure.  No PSI (the kernel's CONFIG_PSI off or psi=0, or both
 * files hidden or unreadable: the log says which) or no schedstat is
 * said once in the log; the reads then go without that figure.
 */
void cpu_wait_open(struct cpu_wait *ps);
/* The figures now into OUT (what could not be read: not known). */
void cpu_wait_read(const struct cpu_wait *ps, struct cpu_wait_now *out);
void cpu_wait_close(struct cpu_wait *ps);

#endif /* RDMAD_CPU_WAIT_H */
