/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_native.h - the client's native session with rdmad (see
 * rdma_client_native.c).  Each action returns the event it leads to, or
 * RDMA_CLIENT_EV_NONE.
 */
#ifndef RDMAD_RDMA_CLIENT_NATIVE_H
#define RDMAD_RDMA_CLIENT_NATIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdma_client_conn.h"

/* The native protocol (struct rdma_client_proto). */
extern const struct rdma_client_proto rdma_client_native_proto;

/* What a mesh session shares with it (rdma_client_mesh.c): buffers,
 * HELLO, welcome, AUTH, messages. */
int rdma_client_native_bufs(struct rdma_client *c);
int rdma_client_native_hello(struct rdma_client *c, uint8_t *buf,
			     size_t len);
enum rdma_client_event rdma_client_native_welcome(struct rdma_client *c);
enum rdma_client_event rdma_client_native_send_auth(struct rdma_client *c,
						    const struct rdma_client_step *st);
enum rdma_client_event rdma_client_native_msg(struct rdma_client *c,
					      const uint8_t *buf,
					      uint32_t len, uint32_t bytes);

#endif /* RDMAD_RDMA_CLIENT_NATIVE_H */
