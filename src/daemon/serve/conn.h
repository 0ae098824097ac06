/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn.h - the client connections of rdmad: admitted (conn_admit.h) and
 * accepted on a listener's request, each with its queue pair and buffers
 * (rdma_qp.h), its CM events (rdma_cm.h) and timers, driven by the pure
 * state machine in conn_fsm.c.  They live in the struct conn_set their
 * owner gives them (conn_set.h).
 */
#ifndef RDMAD_CONN_H
#define RDMAD_CONN_H

#include <stdint.h>

#include "serve/conn_set.h"
#include "rdma_cm.h"

/* CONNECT_REQUEST on a listener: admit and accept, or reject. */
void conn_connect_request(struct conn_set *s, const struct rdma_cm_ev *e);
/* Drop the connections on PORT of CTX (0: every port). */
void conn_device_fatal(struct conn_set *s, struct ibv_context *ctx,
		       uint8_t port, const char *what);
/* Daemon stopping: disconnect everybody. */
void conn_shutdown_all(struct conn_set *s);
/* Daemon stopping: end the mesh sessions (they never end by themselves,
 * so the drain does not wait for them); the count. */
unsigned int conn_shutdown_mesh(struct conn_set *s);

#endif /* RDMAD_CONN_H */
