/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-proc-self.c - proc_self.c on this process: the start time it
 * gives (the boot time from the clocks, not /proc/stat, which the unit's
 * ProcSubset=pid hides) is the one /proc/stat's btime and
 * /proc/self/stat's starttime give, as Prometheus client libraries
 * compute it, and lies between this test's start and now; the file
 * descriptors are counted and the limit is RLIMIT_NOFILE's.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#include "core/proc_self.h"
#include "tap.h"

static double now_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether CLOCK_REALTIME - CLOCK_BOOTTIME is within 1 ms of a whole
 * second. */
static int near_second(void)
{
	struct timespec r, b;
	long long ns;

	clock_gettime(CLOCK_BOOTTIME, &b);
	clock_gettime(CLOCK_REALTIME, &r);
	ns = ((long long)r.tv_nsec - b.tv_nsec + 1000000000LL) % 1000000000LL;
	return ns < 1000000 || ns > 999000000;
}

/* /proc/stat's btime and /proc/self/stat's starttime: the start time
 * as client libraries read it; -1 when /proc/stat cannot be read. */
static double start_from_proc(void)
{
	FILE *f = fopen("/proc/stat", "re");
	unsigned long long btime = 0, start = 0;
	char line[4096], *p;
	int found = 0, i;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "btime %llu", &btime) == 1;
	fclose(f);
	f = fopen("/proc/self/stat", "re");
	if (!found || !f || !fgets(line, sizeof(line), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	p = strrchr(line, ')');
	for (i = 2; p && i < 22; i++)	/* to field (22) */
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &start) != 1)
		return -1;
	return (double)btime + (double)start / (double)sysconf(_SC_CLK_TCK);
}

int main(void)
{
	double t0 = now_real(), want;
	struct proc_self ps;
	struct rlimit rl;
	int fd, ret;
	uint64_t fds;

	tap_plan(6);
	ret = proc_self_read(&ps);
	tap_ok(ret == 0, "proc_self_read: %d", ret);
	tap_ok(ps.start_time > t0 - 60 && ps.start_time <= now_real() + 0.01,
	       "start time %.3f: in the last minute, not after now (%.3f)",
	       ps.start_time, t0);
	want = start_from_proc();
	if (want < 0)
		tap_ok(1, "# SKIP /proc/stat or /proc/self/stat unreadable");
	else
		/* equal; a second apart only where the boot time is
		 * within a millisecond of a whole second (the two
		 * truncations may then fall on either side of it) */
		tap_ok(fabs(ps.start_time - want) < 1e-6 ||
		       (near_second() &&
			fabs(fabs(ps.start_time - want) - 1) < 1e-6),
		       "start time %.3f is /proc/stat's btime + starttime "
		       "(%.3f)", ps.start_time, want);
	fds = ps.open_fds;
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ret = proc_self_read(&ps);
	tap_ok(fd >= 0 && !ret && ps.open_fds == fds + 1,
	       "one more open file: %llu -> %llu open fds",
	       (unsigned long long)fds, (unsigned long long)ps.open_fds);
	if (fd >= 0)
		close(fd);
	getrlimit(RLIMIT_NOFILE, &rl);
	tap_ok(ps.max_fds == (rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX :
			      (uint64_t)rl.rlim_cur),
	       "max fds %llu is RLIMIT_NOFILE's",
	       (unsigned long long)ps.max_fds);
	tap_ok(ps.cpu_seconds >= 0 && ps.resident_bytes > 0 &&
	       ps.virtual_bytes >= ps.resident_bytes,
	       "cpu %.3f s, rss %llu, vsize %llu", ps.cpu_seconds,
	       (unsigned long long)ps.resident_bytes,
	       (unsigned long long)ps.virtual_bytes);
	return tap_done();
}
