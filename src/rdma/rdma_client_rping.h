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

/* The sink and the source, on the QP's PD; 0 or -errno. */
int rdma_client_rping_bufs(struct rdma_client *c);
/* Advertise the source (with this ping's text) or the sink. */
enum rdma_client_event rdma_client_rping_advert(struct rdma_client *c,
						bool source, uint32_t iter);
/* The round trip is over: its figure, then sink against source. */
enum rdma_client_event rdma_client_rping_verify(struct rdma_client *c,
						uint32_t iter);
/* A message of LEN bytes from the server: its go-ahead. */
enum rdma_client_event rdma_client_rping_msg(struct rdma_client *c,
					     uint32_t len);

#endif /* RDMAD_RDMA_CLIENT_RPING_H */
