/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_mesh_act.h - the actions of a mesh session (defined in
 * rdma_client_mesh.c), carried out by the driver (rdma_client.c) when
 * the state machine asks for them.  Each returns the event it leads to,
 * or RDMA_CLIENT_EV_NONE.  Not for embedders: they use rdma_client.h.
 */
#ifndef RDMAD_RDMA_CLIENT_MESH_ACT_H
#define RDMAD_RDMA_CLIENT_MESH_ACT_H

#include <stdint.h>

#include "rdma_client_conn.h"

/* Round ROUND: the WRITE of pattern(seed, ROUND) (c->rnd.size bytes). */
enum rdma_client_event rdma_client_mesh_write(struct rdma_client *c,
					      uint32_t round);
/* Its READ back. */
enum rdma_client_event rdma_client_mesh_read(struct rdma_client *c,
					     uint32_t round);
/* The round's WRITE or READ completed (at DONE, ns). */
void rdma_client_mesh_done(struct rdma_client *c, uint64_t done);
/* What the READ got, against what was written: CHECK_OK or CHECK_BAD. */
enum rdma_client_event rdma_client_mesh_check(struct rdma_client *c,
					      uint32_t round);
/* The round's result to the embedder (posted: told from the loop). */
void rdma_client_mesh_report(struct rdma_client *c, uint32_t round);
/* A bandwidth sample's WRITEs ITER .. ITER + COUNT - 1 (c->bw.size
 * bytes each, COUNT <= depth), as one chain. */
enum rdma_client_event rdma_client_mesh_bw_post(struct rdma_client *c,
						uint32_t iter, uint32_t count);
/* The sample's figures to the embedder (posted, as a round's). */
void rdma_client_mesh_bw_report(struct rdma_client *c);

#endif /* RDMAD_RDMA_CLIENT_MESH_ACT_H */
