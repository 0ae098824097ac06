/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_proto.h - the protocols a client connection can speak
 * (native, mesh, rping), each a struct rdma_client_proto
 * (rdma_client_conn.h), as the served side's conn_proto.h: chosen once
 * from the options, and called by pointer, so that the driver
 * (rdma_client.c) names none of them.  Not for embedders.
 */
#ifndef RDMAD_RDMA_CLIENT_PROTO_H
#define RDMAD_RDMA_CLIENT_PROTO_H

#include "rdma_client_conn.h"

/* The protocol of options O: rping, else a mesh session, else native. */
const struct rdma_client_proto *
rdma_client_proto_of(const struct rdma_client_opts *o);

#endif /* RDMAD_RDMA_CLIENT_PROTO_H */
