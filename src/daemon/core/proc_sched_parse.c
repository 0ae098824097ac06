/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proc_sched_parse.c - the parsers of /proc/pressure/cpu and
 * /proc/PID/schedstat (see proc_sched_parse.h), pure.
 */
#include <errno.h>
#include <string.h>

#include "core/proc_sched_parse.h"
#include "core/proc_stat_parse.h"

int proc_psi_parse_some(const char *buf, uint64_t *total_us)
{
	const char *p, *end, *t;

	for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "some ", 5))
			continue;
		end = strchr(p, '\n');
		/* " total=" in this line, its last field */
		t = strstr(p, " total=");
		if (!t || (end && t > end))
			return -EINVAL;
		t += 7;
		return proc_parse_u64(&t, total_us) && (*t == '\n' || !*t) ?
		       0 : -EINVAL;
	}
	return -EINVAL;
}

int proc_schedstat_parse(const char *buf, uint64_t *run_delay_ns)
{
	const char *p = buf;
	uint64_t v[3];
	int i;

	for (i = 0; i < 3; i++) {
		if (i && *p++ != ' ')
			return -EINVAL;
		if (!proc_parse_u64(&p, &v[i]))
			return -EINVAL;
	}
	if (*p != '\n' && *p)
		return -EINVAL;
	*run_delay_ns = v[1];
	return 0;
}
