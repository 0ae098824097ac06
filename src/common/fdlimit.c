/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fdlimit.c - raise the soft open-files limit (see fdlimit.h).
 */
#include <errno.h>

#include "fdlimit.h"

int fdlimit_raise(rlim_t want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	if (rl.rlim_cur >= want || rl.rlim_cur >= rl.rlim_max)
		return 0;
	rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
	return setrlimit(RLIMIT_NOFILE, &rl) ? -errno : 0;
}
