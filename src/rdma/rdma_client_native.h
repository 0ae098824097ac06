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

/* Buffers of the native session, on the QP's PD; 0 or -errno. */
int rdma_client_native_bufs(struct rdma_client *c);
/* The HELLO, into BUF; its length or -errno. */
int rdma_client_native_hello(struct rdma_client *c, uint8_t *buf,
			     size_t len);
/* The welcome in the server's CONNECT_RESPONSE: ESTABLISHED,
 * ESTABLISHED_AUTH (it wants AUTH), PROTO_ERR or KEY_ERR. */
enum rdma_client_event rdma_client_native_welcome(struct rdma_client *c);
enum rdma_client_event rdma_client_native_send_auth(struct rdma_client *c);
/* Operations ITER .. ITER + COUNT - 1 as one chain. */
enum rdma_client_event rdma_client_native_post(struct rdma_client *c,
					       bool read, uint32_t iter,
					       uint32_t count);
/* What READ ITER got, against the server's pattern. */
enum rdma_client_event rdma_client_native_verify(struct rdma_client *c,
						 uint32_t iter);
enum rdma_client_event rdma_client_native_send_done(struct rdma_client *c);
/* A message from the server: DESC, RESULT or ABORT. */
enum rdma_client_event rdma_client_native_msg(struct rdma_client *c,
					      const uint8_t *buf,
					      uint32_t len);
/* When operation ITER was posted (ns). */
uint64_t rdma_client_native_posted(const struct rdma_client *c,
				   uint32_t iter);

#endif /* RDMAD_RDMA_CLIENT_NATIVE_H */
