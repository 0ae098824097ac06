/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proc_self.c - this process's CPU time, memory, file descriptors and
 * start time, read at each scrape (proc_self.h): /proc/self/stat,
 * /proc/self/fd and getrlimit(RLIMIT_NOFILE), as Prometheus client
 * libraries read them, and the boot time from the clocks (they read
 * /proc/stat's btime, which the unit's ProcSubset=pid hides).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/resource.h>

#include "core/proc_self.h"

/* The text of PATH into BUF (NUL-terminated): 0, or -errno. */
static int read_text(const char *path, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (n < len - 1 && (r = read(fd, buf + n, len - 1 - n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			close(fd);
			return -e;
		}
		n += (size_t)r;
	}
	buf[n] = '\0';
	close(fd);
	return 0;
}

/*
 * The boot time in unix seconds, truncated as /proc/stat's "btime" is
 * (the kernel's is CLOCK_REALTIME's offset from CLOCK_BOOTTIME too), from
 * the clocks: under the unit's ProcSubset=pid there is no /proc/stat.
 * CLOCK_REALTIME is read between two reads of CLOCK_BOOTTIME; a pair
 * more than a millisecond apart (preempted between them) is read again.
 */
static int boot_time(uint64_t *btime)
{
	struct timespec b0, r, b1;
	int64_t gap_ns, off_ns;
	int tries;

	for (tries = 0; tries < 3; tries++) {
		if (clock_gettime(CLOCK_BOOTTIME, &b0) ||
		    clock_gettime(CLOCK_REALTIME, &r) ||
		    clock_gettime(CLOCK_BOOTTIME, &b1))
			return -errno;
		gap_ns = (int64_t)(b1.tv_sec - b0.tv_sec) * 1000000000 +
			 (b1.tv_nsec - b0.tv_nsec);
		if (gap_ns <= 1000000)
			break;
	}
	/* REALTIME - (B0 + B1) / 2, in nanoseconds from whole seconds */
	off_ns = (int64_t)(r.tv_sec - b0.tv_sec) * 1000000000 +
		 r.tv_nsec - b0.tv_nsec - gap_ns / 2;
	if (off_ns < 0)
		return -ERANGE;	/* a clock before 1970 */
	*btime = (uint64_t)(off_ns / 1000000000);
	return 0;
}

/* Entries of /proc/self/fd but . and .. (and the one the walk opens). */
static int count_fds(uint64_t *n)
{
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");

	if (!d)
		return -errno;
	*n = 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			(*n)++;
	closedir(d);
	if (*n)
		(*n)--;		/* the directory's own descriptor */
	return 0;
}

int proc_self_read(struct proc_self *out)
{
	char stat[1024];
	struct proc_stat ps;
	struct rlimit rl;
	uint64_t btime = 0;
	long tck = sysconf(_SC_CLK_TCK), page = sysconf(_SC_PAGESIZE);
	int ret;

	memset(out, 0, sizeof(*out));
	if (tck <= 0 || page <= 0)
		return -EINVAL;
	ret = read_text("/proc/self/stat", stat, sizeof(stat));
	if (!ret)
		ret = proc_stat_parse(stat, &ps);
	if (!ret)
		ret = boot_time(&btime);
	if (!ret)
		ret = count_fds(&out->open_fds);
	if (!ret && getrlimit(RLIMIT_NOFILE, &rl))
		ret = -errno;
	if (ret)
		return ret;
	out->cpu_seconds = (double)(ps.utime + ps.stime) / (double)tck;
	out->resident_bytes = ps.rss * (uint64_t)page;
	out->virtual_bytes = ps.vsize;
	out->max_fds = rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX :
		       (uint64_t)rl.rlim_cur;
	out->start_time = (double)btime + (double)ps.starttime / (double)tck;
	return 0;
}
