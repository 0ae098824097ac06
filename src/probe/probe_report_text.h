/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_report_text.h - the human report of a run and --rounds' round
 * lines (probe_report_text.c, pure).
 */
#ifndef RDMAD_PROBE_REPORT_TEXT_H
#define RDMAD_PROBE_REPORT_TEXT_H

#include <stdio.h>

struct probe_run;
struct rdma_client_round;

/* The human report of a run to TARGET. */
void probe_report_text(FILE *f, const char *target, const struct probe_run *r);
/* One line a round, like ping's: "round 3: 64 bytes written and read
 * back, verified, write 0.120 ms read 0.110 ms". */
void probe_report_text_round(FILE *f, const struct rdma_client_round *r);

#endif /* RDMAD_PROBE_REPORT_TEXT_H */
