/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpu_wait.c - the host's CPU pressure (/proc/pressure/cpu, or the root
 * cgroup's cpu.pressure where the unit's sandbox hides /proc's) and
 * /proc/self/schedstat, kept open (see cpu_wait.h).  /proc/self/schedstat
 * is the main thread's: the loop's, which is what delays rdmad's rounds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "core/cpu_wait.h"
#include "core/proc_sched_parse.h"

#define PSI_PATH	"/proc/pressure/cpu"
/* The root cgroup's: the kernel fills it from the same counters
 * (psi_system) as /proc/pressure/cpu. */
#define PSI_CGROUP_PATH	"/sys/fs/cgroup/cpu.pressure"
#define STAT_PATH	"/proc/self/schedstat"

static int open_or_say(const char *path, const char *without)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		log_notice("mesh: cannot read %s (%s): %s", path,
			   strerror(errno), without);
	return fd;
}

/* FD's text from its start into BUF (NUL-terminated): 0, or -errno. */
static int pread_text(int fd, char *buf, size_t len)
{
	ssize_t n;

	if (fd < 0)
		return -EBADF;
	do
		n = pread(fd, buf, len - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/* PATH opened and its "some" total read once: the fd, or -errno
 * (-EBADMSG: no such total in it). */
static int psi_try(const char *path)
{
	char buf[256];
	uint64_t us;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = pread_text(fd, buf, sizeof(buf));
	if (!ret && proc_psi_parse_some(buf, &us))
		ret = -EBADMSG;
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

/* Why a PSI file could not be read with -ERR (PROC: /proc/pressure/cpu,
 * else the cgroup's): a file the sandbox hides is not a kernel without
 * PSI. */
static const char *psi_why(int err, bool proc)
{
	switch (err) {
	case -ENOENT:
		/* every /proc has stat, but one mounted subset=pid */
		if (proc && access("/proc/stat", F_OK) && errno == ENOENT)
			return "hidden by the sandbox: this /proc shows "
			       "processes only (systemd's ProcSubset=pid)";
		if (!proc && access("/sys/fs/cgroup/cgroup.controllers",
				    F_OK))
			return "no cgroup v2 hierarchy at /sys/fs/cgroup";
		return "the kernel has no PSI (CONFIG_PSI, or psi=0 on its "
		       "command line)";
	case -EACCES:
	case -EPERM:
		return "unreadable here: the file's mode, or the sandbox "
		       "(InaccessiblePaths=, ProtectProc=)";
	case -EOPNOTSUPP:
		return "PSI is off (psi=0 on the kernel's command line)";
	case -EBADMSG:
		return "no \"some ... total=\" line in it";
	default:
		return "cannot be read";
	}
}

/* "PATH: ERROR, WHY" into BUF. */
static const char *psi_say(char *buf, size_t len, const char *path,
			   int err, bool proc)
{
	snprintf(buf, len, "%s: %s, %s", path,
		 err == -EBADMSG ? "not PSI" : strerror(-err),
		 psi_why(err, proc));
	return buf;
}

/*
 * The host's CPU pressure: /proc/pressure/cpu or, where that cannot be
 * read (the unit's ProcSubset=pid hides it), the root cgroup's
 * cpu.pressure.  The fd, or -1 with the reasons in the log.
 */
static int psi_open(void)
{
	char why1[256], why2[256];
	int e1, e2;

	e1 = psi_try(PSI_PATH);
	if (e1 >= 0)
		return e1;
	e2 = psi_try(PSI_CGROUP_PATH);
	if (e2 >= 0) {
		log_info("mesh: the host's CPU pressure (PSI) is read from "
			 "%s (%s)", PSI_CGROUP_PATH,
			 psi_say(why1, sizeof(why1), PSI_PATH, e1, true));
		return e2;
	}
	log_notice("mesh: no CPU pressure (PSI) of this host: %s; %s; "
		   "rounds are judged by the loop's lag and rdmad's "
		   "run-queue wait alone",
		   psi_say(why1, sizeof(why1), PSI_PATH, e1, true),
		   psi_say(why2, sizeof(why2), PSI_CGROUP_PATH, e2, false));
	return -1;
}

void cpu_wait_open(struct cpu_wait *ps)
{
	ps->psi_fd = psi_open();
	ps->stat_fd = open_or_say(STAT_PATH, "no run-queue wait of rdmad "
				  "(CONFIG_SCHEDSTATS); rounds are judged "
				  "without it");
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
