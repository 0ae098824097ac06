/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_admit.h - whether rdmad takes a connection request: a pure
 * decision (no fd, no verbs object, no clock) from what the request
 * carries and what the daemon holds now.
 *
 * The checks, in order, the first that fails decides: shutting down,
 * [access] allow/deny, the protocol (rdmad hello or rping), the hello's
 * version and fields, rping with a pre-shared key, max_connections,
 * max_per_host, max_buffer_size and max_iterations, max_registered_bytes.
 */
#ifndef RDMAD_CONN_ADMIT_H
#define RDMAD_CONN_ADMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/config.h"
#include "proto.h"
#include "core/stats.h"

struct conn_admit_req {
	const struct rdmad_config *cfg;
	const struct sockaddr *peer;
	const uint8_t *pdata;		/* the request's private data */
	uint8_t pdata_len;
	bool stopping;
	unsigned int n_conns;		/* live connections */
	unsigned int n_host;		/* live ones from the peer's host */
	uint64_t registered;		/* bytes registered now */
	uint64_t ctl_len;		/* a connection's control buffer */
};

struct conn_admit {
	enum stats_reject why;		/* STATS_REJ_N: admitted */
	char text[PROTO_REJECT_TEXT_MAX + 1];	/* why, for the client */
	enum proto_kind kind;
	struct proto_hello hello;	/* native: as decoded */
};

/* Decide R; true if admitted (OUT's kind and hello are set), false with
 * OUT's why and text. */
bool conn_admit(const struct conn_admit_req *r, struct conn_admit *out);

/* The reason code the client reads in the reject private data. */
uint8_t conn_admit_wire_reason(enum stats_reject why);

#endif /* RDMAD_CONN_ADMIT_H */
