/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_report_matrix.h - rdma-probe --targets' matrix: a row per target,
 * then the summary; a row's result in words, which the JSON shows too
 * (probe_report_matrix.c, pure).
 */
#ifndef RDMAD_PROBE_REPORT_MATRIX_H
#define RDMAD_PROBE_REPORT_MATRIX_H

#include <stddef.h>
#include <stdio.h>

struct probe_mesh;
struct probe_mesh_row;

void probe_report_matrix(FILE *f, const struct probe_mesh *m);
/* A --targets row's result: "ok", or the class and a short reason. */
void probe_report_matrix_result(const struct probe_mesh_row *row, char *buf,
				size_t len);

#endif /* RDMAD_PROBE_REPORT_MATRIX_H */
