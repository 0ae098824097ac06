/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proc_stat_parse.c - the parser of /proc/PID/stat (see proc_stat_parse.h),
 * pure.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/proc_stat_parse.h"

/* The field after (2) comm is (3) state; we want (14) .. (24). */
#define FIELD_FIRST	3
#define FIELD_LAST	24

int proc_parse_u64(const char **p, uint64_t *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return 0;
	errno = 0;
	*v = strtoull(*p, &end, 10);
	if (errno)
		return 0;
	*p = end;
	return 1;
}

int proc_stat_parse(const char *buf, struct proc_stat *out)
{
	const char *p = strrchr(buf, ')');
	uint64_t v;
	int field;

	if (!p || !strchr(buf, '(') || strchr(buf, '(') > p)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	p++;
	for (field = FIELD_FIRST; field <= FIELD_LAST; field++) {
		if (*p++ != ' ')
			return -EINVAL;
		if (field == FIELD_FIRST) {	/* state: one letter */
			if (!*p || *p == ' ')
				return -EINVAL;
			p++;
			continue;
		}
		/* (4) .. (13) and others: signed in proc(5); skip a '-' */
		if (*p == '-' && field != 14 && field != 15 && field < 22)
			p++;
		if (!proc_parse_u64(&p, &v))
			return -EINVAL;
		switch (field) {
		case 14: out->utime = v; break;
		case 15: out->stime = v; break;
		case 22: out->starttime = v; break;
		case 23: out->vsize = v; break;
		case 24: out->rss = v; break;
		default: break;
		}
	}
	return *p == ' ' || *p == '\n' || !*p ? 0 : -EINVAL;
}
