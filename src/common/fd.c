/* SPDX-License-Identifier: BSD-2-Clause */
/* fd.c - file descriptor flags (see fd.h). */
#include <errno.h>
#include <fcntl.h>

#include "fd.h"

int fd_nonblock(int fd)
{
	int fl;

	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	fl = fcntl(fd, F_GETFD);
	if (fl < 0 || fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0)
		return -errno;
	return 0;
}
