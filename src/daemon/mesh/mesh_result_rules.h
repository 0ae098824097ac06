/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_result_rules.h - how a probe's round (or a connect in its place)
 * ended, as a class an operator alerts on: the mesh's vocabulary, which
 * the daemon's views and GET /probe name too.  Pure: the class of each
 * rdma_client_fail (rdma_client_fsm.h), and the classes' names.
 */
#ifndef RDMAD_MESH_RESULT_RULES_H
#define RDMAD_MESH_RESULT_RULES_H

#include <stdbool.h>

#include "rdma_client_fsm.h"

#define MESH_RESULTS(X)					\
	X(OK, "ok")					\
	X(MISMATCH, "mismatch")				\
	X(TIMEOUT, "timeout")				\
	X(COMPLETION_ERROR, "completion-error")		\
	X(REFUSED, "refused")				\
	X(UNREACHABLE, "unreachable")			\
	X(AUTH_FAILED, "auth-failed")			\
	X(PROTOCOL_ERROR, "protocol-error")		\
	X(LOCAL_ERROR, "local-error")

#define X_RES(id, name)	MESH_RES_##id,
enum mesh_result { MESH_RESULTS(X_RES) MESH_RES_N };
#undef X_RES

/* The class of a connection's failure (RDMA_CLIENT_FAIL_NONE: OK). */
enum mesh_result mesh_result_of(enum rdma_client_fail f);
/*
 * The class of a probe's step, every rule in one place (the schedule's
 * and GET /probe's): FAIL, what the client reported (NONE: no failure);
 * EXPIRED, the prober's own deadline passed first (whatever the client
 * then failed with, a timeout); SESSION_END, the client's session ended,
 * which a mesh path keeps open (an end without a failure is then a
 * completion error, not a success).
 */
enum mesh_result mesh_result_class(enum rdma_client_fail fail, bool expired,
				   bool session_end);
const char *mesh_result_name(enum mesh_result r);

#endif /* RDMAD_MESH_RESULT_RULES_H */
