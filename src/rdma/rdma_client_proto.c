/* SPDX-License-Identifier: BSD-2-Clause */
/* rdma_client_proto.c - the client's protocols by kind (see
 * rdma_client_proto.h). */
#include "rdma_client_mesh.h"
#include "rdma_client_native.h"
#include "rdma_client_proto.h"
#include "rdma_client_rping.h"

const struct rdma_client_proto *
rdma_client_proto_of(const struct rdma_client_opts *o)
{
	if (o->rping)
		return &rdma_client_rping_proto;
	return o->mesh ? &rdma_client_mesh_proto : &rdma_client_native_proto;
}
