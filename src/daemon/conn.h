/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn.h - one client connection of rdmad: its queue pair and buffers
 * (rdma_qp.h), its CM events (rdma_cm.h), libevent wiring and deadline
 * timers, driven by the pure state machine in conn_fsm.c.
 */
#ifndef RDMAD_CONN_H
#define RDMAD_CONN_H

#include "rdma_cm.h"
#include "rdmad.h"

/* CONNECT_REQUEST on a listener: admit and accept, or reject. */
void conn_connect_request(struct rdmad *d, const struct rdma_cm_ev *e);
/* Drop the connections on PORT of CTX (0: every port). */
void conn_device_fatal(struct rdmad *d, struct ibv_context *ctx,
		       uint8_t port, const char *what);
/* Daemon stopping: disconnect everybody. */
void conn_shutdown_all(struct rdmad *d);
/* Up to MAX live connections for the status, in accept order. */
unsigned int conn_snapshot(struct rdmad *d, struct stats_conn *out,
			   unsigned int max);

#endif /* RDMAD_CONN_H */
