/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_native.h - the native session of a connection (rdma-probe): the
 * client's buffer, DESC, AUTH, DONE and its verification, RESULT, ABORT.
 * The actions are the FSM's (conn_fsm.h); 0 or -errno of a failed post.
 */
#ifndef RDMAD_CONN_NATIVE_H
#define RDMAD_CONN_NATIVE_H

#include <stdint.h>

#include "serve/conn_core.h"

/* The protocol's table (conn_proto.c chooses it at admission). */
extern const struct conn_proto_ops conn_native_ops;

/* The data buffer with the least access: what the client said it does. */
int conn_native_buf(struct conn *c);
int conn_native_send_desc(struct conn *c);
/* Check DONE against the hello and the data written; sets c->result. */
void conn_native_verify(struct conn *c);
int conn_native_send_result(struct conn *c);
/* Tell the client why we end its session; the disconnect waits for it. */
int conn_native_send_abort(struct conn *c);
/* A received message as an FSM event (RECV_DONE, RECV_AUTH, RECV_BAD). */
enum conn_event conn_native_recv(struct conn *c, const uint8_t *p,
				 uint32_t len);

#endif /* RDMAD_CONN_NATIVE_H */
