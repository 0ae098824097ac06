/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_rping.h - the rping session of a connection (stock rping client):
 * the server READs the client's source, says "go ahead", WRITEs the
 * client's sink, says "go ahead".  The actions are the FSM's
 * (conn_fsm.h); 0 or -errno of a failed post.
 */
#ifndef RDMAD_CONN_RPING_H
#define RDMAD_CONN_RPING_H

#include <stdint.h>

#include "serve/conn_core.h"

/* The protocol's table (conn_proto.c chooses it at admission). */
extern const struct conn_proto_ops conn_rping_ops;

int conn_rping_post_read(struct conn *c);
int conn_rping_post_write(struct conn *c);
int conn_rping_send_go(struct conn *c);
/* A received advert as an FSM event (RECV_ADVERT or RECV_BAD). */
enum conn_event conn_rping_recv(struct conn *c, const uint8_t *p,
				uint32_t len);

#endif /* RDMAD_CONN_RPING_H */
