/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_mesh.h - the embedder's side of a mesh session (opts.mesh,
 * see rdma_client.h, which includes this): a round, a bandwidth sample,
 * the close.  The session's actions are in rdma_client_mesh_act.h.
 */
#ifndef RDMAD_RDMA_CLIENT_MESH_H
#define RDMAD_RDMA_CLIENT_MESH_H

#include <stdint.h>

struct rdma_client;

/*
 * Mesh: run one round of SIZE bytes (1 .. the DESC buffer's length, and at
 * most opts.size).  0, -ENOTCONN (not a mesh session, or not READY yet or
 * any more), -EBUSY (a round is in flight), -EINVAL (size).
 */
int rdma_client_round(struct rdma_client *c, uint32_t size);
/*
 * Mesh: a bandwidth sample: RDMA WRITEs of SIZE bytes (1 .. the DESC
 * buffer's length, and at most opts.size: they are sent from the round
 * buffer), opts.depth of them in flight, for DURATION_MS (>= 1); then no
 * more are posted and, once those in flight completed, the result
 * through ops->bw.  Each completion has the step deadline (opts.
 * timeout_ms); an error ends the connection (ops->done).  0, -ENOTCONN,
 * -EBUSY (a round or sample in flight), -EINVAL (size, duration).
 */
int rdma_client_bw(struct rdma_client *c, uint32_t size,
		   uint32_t duration_ms);
/* Mesh: end a READY session cleanly (disconnect; done with
 * RDMA_CLIENT_FAIL_NONE).  0, -ENOTCONN or -EBUSY as above. */
int rdma_client_close(struct rdma_client *c);

#endif /* RDMAD_RDMA_CLIENT_MESH_H */
