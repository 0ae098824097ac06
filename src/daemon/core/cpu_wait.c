/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpu_wait.c - /proc/pressure/cpu and /proc/self/schedstat, kept open
 * (see cpu_wait.h).  /proc/self/schedstat is the main thread's: the
 * loop's, which is what delays rdmad's rounds.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "core/cpu_wait.h"
#include "core/proc_sched_parse.h"

#define PSI_PATH	"/proc/pressure/cpu"
#define STAT_PATH	"/proc/self/schedstat"

static int open_or_say(const char *path, const char *without)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		log_notice("mesh: cannot read %s (%s): %s", path,
			   strerror(errno), without);
	return fd;
}

void cpu_wait_open(struct cpu_wait *ps)
{
	ps->psi_fd = open_or_say(PSI_PATH, "this host has no CPU pressure "
				 "(PSI: CONFIG_PSI, psi=1); rounds are judged "
				 "by the loop's lag and rdmad's run-queue wait "
				 "alone");
	ps->stat_fd = open_or_say(STAT_PATH, "no run-queue wait of rdmad "
				  "(CONFIG_SCHEDSTATS); rounds are judged "
				  "without it");
}

/* FD's text from its start into BUF (NUL-terminated): 0, or -1. */
static int pread_text(int fd, char *buf, size_t len)
{
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = pread(fd, buf, len - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

void cpu_wait_read(const struct cpu_wait *ps, struct cpu_wait_now *out)
{
	char buf[256];

	memset(out, 0, sizeof(*out));
	out->psi_known = !pread_text(ps->psi_fd, buf, sizeof(buf)) &&
			 !proc_psi_parse_some(buf, &out->psi_us);
	out->run_delay_known = !pread_text(ps->stat_fd, buf, sizeof(buf)) &&
			       !proc_schedstat_parse(buf, &out->run_delay_ns);
}

void cpu_wait_close(struct cpu_wait *ps)
{
	if (ps->psi_fd >= 0)
		close(ps->psi_fd);
	if (ps->stat_fd >= 0)
		close(ps->stat_fd);
	ps->psi_fd = ps->stat_fd = -1;
}
