/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn.h - one client connection of rdmad: its verbs resources (own PD,
 * completion channel, CQ, QP, MRs), libevent wiring and deadline timer,
 * driven by the pure state machine in conn_fsm.c.
 */
#ifndef RDMAD_CONN_H
#define RDMAD_CONN_H

#include <rdma/rdma_cma.h>

#include "rdmad.h"

/* A CM event, copied out of librdmacm's buffer (which is acked at once). */
struct conn_cm_event {
	enum rdma_cm_event_type type;
	int status;
	struct rdma_cm_id *id;
	struct rdma_cm_id *listen_id;
	uint8_t responder_resources;
	uint8_t initiator_depth;
	uint8_t pdata_len;
	uint8_t pdata[256];
};

/* CONNECT_REQUEST on a listener: admit and accept, or reject. */
void conn_connect_request(struct rdmad *d, const struct conn_cm_event *e);
/* Any other CM event on a connection's id. */
void conn_cm_event(struct conn *c, const struct conn_cm_event *e);
/* Device async events. */
void conn_qp_fatal(struct conn *c, const char *what);
/* Drop the connections on PORT of CTX (0: every port). */
void conn_device_fatal(struct rdmad *d, struct ibv_context *ctx,
		       uint8_t port, const char *what);
/* Daemon stopping: disconnect everybody. */
void conn_shutdown_all(struct rdmad *d);
/* Up to MAX live connections for the status, in accept order. */
unsigned int conn_snapshot(struct rdmad *d, struct stats_conn *out,
			   unsigned int max);

#endif /* RDMAD_CONN_H */
