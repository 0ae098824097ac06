/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proc_self.c - this process's CPU time, memory, file descriptors and
 * start time, read at each scrape (proc_self.h): /proc/self/stat,
 * /proc/stat, /proc/self/fd and getrlimit(RLIMIT_NOFILE), as Prometheus
 * client libraries read them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

/* The boot time from /proc/stat, line by line: its "intr" line alone
 * can be tens of kilobytes. */
static int read_btime(uint64_t *btime)
{
	FILE *f = fopen("/proc/stat", "re");
	char *line = NULL;
	size_t len = 0;
	int ret = -EINVAL;

	if (!f)
		return -errno;
	while (ret && getline(&line, &len, f) > 0)
		if (!strncmp(line, "btime ", 6))
			ret = proc_stat_parse_btime(line, btime);
	free(line);
	fclose(f);
	return ret;
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
	uint64_t btime;
	long tck = sysconf(_SC_CLK_TCK), page = sysconf(_SC_PAGESIZE);
	int ret;

	memset(out, 0, sizeof(*out));
	if (tck <= 0 || page <= 0)
		return -EINVAL;
	ret = read_text("/proc/self/stat", stat, sizeof(stat));
	if (!ret)
		ret = proc_stat_parse(stat, &ps);
	if (!ret)
		ret = read_btime(&btime);
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
