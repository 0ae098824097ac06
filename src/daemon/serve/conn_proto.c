/* SPDX-License-Identifier: BSD-2-Clause */
/* conn_proto.c - the served protocols by kind (see conn_proto.h). */
#include "serve/conn_native.h"
#include "serve/conn_proto.h"
#include "serve/conn_rping.h"

static const struct conn_proto_ops *const protos[] = {
	[PROTO_KIND_RPING] = &conn_rping_ops,
	[PROTO_KIND_NATIVE] = &conn_native_ops,
};

const struct conn_proto_ops *conn_proto_of(enum proto_kind kind)
{
	return (unsigned int)kind < sizeof(protos) / sizeof(protos[0]) ?
	       protos[kind] : NULL;
}
