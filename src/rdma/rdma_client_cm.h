/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_cm.h - the client connection's CM events (rdma_client_cm.c):
 * the handler rdma_client_new puts on its cm_id.
 */
#ifndef RDMAD_RDMA_CLIENT_CM_H
#define RDMAD_RDMA_CLIENT_CM_H

#include "rdma_cm.h"

/* One CM event of the connection that holds H, fed to its machine. */
void rdma_client_cm_event(struct rdma_cm_handler *h,
			  const struct rdma_cm_ev *e);

#endif /* RDMAD_RDMA_CLIENT_CM_H */
