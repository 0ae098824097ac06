/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_exit_rules.h - which failure a run, a --targets row and a list
 * end with, and so rdma-probe's exit code (probe_exit_rules.c, pure).
 */
#ifndef RDMAD_PROBE_EXIT_RULES_H
#define RDMAD_PROBE_EXIT_RULES_H

#include "rdma_client_types.h"

struct probe_mesh;
struct probe_mesh_row;
struct probe_outcome;
struct probe_run;

/* An outcome's class, a round's mismatch counted as a data mismatch. */
enum rdma_client_fail
probe_exit_rules_outcome(const struct probe_outcome *o);
/* The failure of a run with the largest exit code, RDMA_CLIENT_FAIL_NONE
 * if none; that code; how many of its connections failed. */
enum rdma_client_fail probe_exit_rules_worst(const struct probe_run *r);
int probe_exit_rules_run(const struct probe_run *r);
unsigned int probe_exit_rules_failed(const struct probe_run *r);
/* A --targets row: its own failure, else the worst of its connections;
 * the outcome that gave it (the first with the worst), or NULL. */
enum rdma_client_fail probe_exit_rules_row(const struct probe_mesh_row *row);
const struct probe_outcome *
probe_exit_rules_row_worst(const struct probe_mesh_row *row);
/* 0 if every target passed, else the largest code of any; how many
 * targets failed. */
int probe_exit_rules_mesh(const struct probe_mesh *m);
unsigned int probe_exit_rules_mesh_failed(const struct probe_mesh *m);

#endif /* RDMAD_PROBE_EXIT_RULES_H */
