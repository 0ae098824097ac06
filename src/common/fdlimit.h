/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fdlimit.h - raise the soft open-files limit: rdmad and rdma-probe hold
 * a completion channel fd per connection (and rdmad a socket per HTTP
 * client), and both use epoll, so fds past 1024 are fine.
 */
#ifndef RDMAD_FDLIMIT_H
#define RDMAD_FDLIMIT_H

#include <sys/resource.h>

/*
 * Soft RLIMIT_NOFILE to at least WANT, capped by the hard limit
 * (RLIM_INFINITY: the hard limit).  0, or -errno.
 */
int fdlimit_raise(rlim_t want);

#endif /* RDMAD_FDLIMIT_H */
