/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_mesh.h - a mesh session's protocol (struct rdma_client_proto,
 * defined in rdma_client_mesh.c): its actions, carried out by the driver
 * (rdma_client.c) through the protocol's table when the state machine
 * asks for them.  Each returns the event it leads to, or
 * RDMA_CLIENT_EV_NONE.  Not for embedders: they use rdma_client.h.
 */
#ifndef RDMAD_RDMA_CLIENT_MESH_H
#define RDMAD_RDMA_CLIENT_MESH_H

#include <stdint.h>

#include "rdma_client_conn.h"

/* The mesh protocol. */
extern const struct rdma_client_proto rdma_client_mesh_proto;

/* Round st->iter: the WRITE of pattern(seed, round) (c->rnd.size
 * bytes). */
enum rdma_client_event rdma_client_mesh_write(struct rdma_client *c,
					      const struct rdma_client_step *st);
/* Its READ back. */
enum rdma_client_event rdma_client_mesh_read(struct rdma_client *c,
					     const struct rdma_client_step *st);
/* The round's WRITE or READ (or a sample's WRITE) completed at DONE
 * (ns): OP_DONE. */
enum rdma_client_event rdma_client_mesh_done(struct rdma_client *c,
					     const struct ibv_wc *wc,
					     uint64_t done);
/* What the READ got, against what was written: CHECK_OK or CHECK_BAD. */
enum rdma_client_event rdma_client_mesh_check(struct rdma_client *c,
					      const struct rdma_client_step *st);
/* The round's result to the embedder (posted: told from the loop). */
enum rdma_client_event rdma_client_mesh_report(struct rdma_client *c,
					       const struct rdma_client_step *st);
/* A bandwidth sample's WRITEs st->iter .. + st->count - 1 (c->bw.size
 * bytes each, count <= depth), as one chain. */
enum rdma_client_event rdma_client_mesh_bw_post(struct rdma_client *c,
						const struct rdma_client_step *st);
/* The sample's figures to the embedder (posted, as a round's). */
enum rdma_client_event rdma_client_mesh_bw_report(struct rdma_client *c,
						  const struct rdma_client_step *st);

#endif /* RDMAD_RDMA_CLIENT_MESH_H */
