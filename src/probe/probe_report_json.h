/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_report_json.h - rdma-probe --json: the document of every run, and
 * of a --targets list (probe_report_json.c, pure).
 */
#ifndef RDMAD_PROBE_REPORT_JSON_H
#define RDMAD_PROBE_REPORT_JSON_H

#include <stdio.h>

struct probe_mesh;
struct probe_opts;
struct probe_run;

/* The document of every run to TARGET (nruns 0: none could run). */
void probe_report_json(FILE *f, const struct probe_opts *opts,
		       const char *target, const struct probe_run *runs,
		       unsigned int nruns, int exit_code);
/* The document of a --targets list: a row each, the summary. */
void probe_report_json_mesh(FILE *f, const struct probe_mesh *m,
			    int exit_code);

#endif /* RDMAD_PROBE_REPORT_JSON_H */
