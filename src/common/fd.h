/* SPDX-License-Identifier: BSD-2-Clause */
/* fd.h - file descriptor flags for an event loop. */
#ifndef RDMAD_FD_H
#define RDMAD_FD_H

/* Set O_NONBLOCK and FD_CLOEXEC on FD; 0 or -errno. */
int fd_nonblock(int fd);

#endif /* RDMAD_FD_H */
