/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proc_self.h - this process's figures for /metrics, read from /proc at
 * each scrape (proc_self.c, with the parsers of proc_stat_parse.h).
 */
#ifndef RDMAD_PROC_SELF_H
#define RDMAD_PROC_SELF_H

#include "core/proc_stat_parse.h"

/* Read this process's figures into OUT: 0, or -errno (/proc/self
 * missing or unreadable). */
int proc_self_read(struct proc_self *out);

#endif /* RDMAD_PROC_SELF_H */
