/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_rping.h - the client's rping session (see
 * rdma_client_rping.c).  Each action returns the event it leads to, or
 * RDMA_CLIENT_EV_NONE.
 */
#ifndef RDMAD_RDMA_CLIENT_RPING_H
#define RDMAD_RDMA_CLIENT_RPING_H

#include <stdbool.h>
#include <stdint.h>

#include "rdma_client_conn.h"

/* The rping protocol (struct rdma_client_proto). */
extern const struct rdma_client_proto rdma_client_rping_proto;

#endif /* RDMAD_RDMA_CLIENT_RPING_H */
