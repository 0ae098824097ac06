/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_proto.h - the protocols a served connection can speak, each a
 * struct conn_proto_ops (conn_core.h), as memcached plugs its protocol
 * handlers: chosen at admission by the kind of the client's request, and
 * called by pointer, so that the driver (conn.c) names none of them.
 */
#ifndef RDMAD_CONN_PROTO_H
#define RDMAD_CONN_PROTO_H

#include "serve/conn_core.h"

/* The protocol of an admitted request of KIND (conn_admit.h); NULL for
 * none. */
const struct conn_proto_ops *conn_proto_of(enum proto_kind kind);

#endif /* RDMAD_CONN_PROTO_H */
