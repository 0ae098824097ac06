/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_mesh.h - rdma-probe --targets (probe_mesh.c): every target of a
 * list probed at once, a row each (struct probe_mesh, probe_run.h).
 */
#ifndef RDMAD_PROBE_MESH_H
#define RDMAD_PROBE_MESH_H

#include "probe_run.h"

struct probe_ctx;
struct probe_opts;
struct target_list;

/*
 * Resolve every target, then run opts->parallel connections to each, all
 * at once in ctx's one event loop; the connections' RDMA resources are
 * released at the end, their figures kept in *m.  A target that does not
 * resolve or cannot be set up fails alone.  0, or -ENOMEM (then nothing
 * to report; probe_mesh_free() still).
 */
int probe_mesh_run(struct probe_mesh *m, struct probe_ctx *ctx,
		   const struct probe_opts *opts,
		   const struct target_list *tl);
/* Each failure's message on stderr: "rdma-probe: TARGET[: conn N]: ..." */
void probe_mesh_log_errors(const struct probe_mesh *m);
void probe_mesh_free(struct probe_mesh *m);

#endif /* RDMAD_PROBE_MESH_H */
