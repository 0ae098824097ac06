/* SPDX-License-Identifier: BSD-2-Clause */
/* mesh_result_rules.c - result classes (see mesh_result_rules.h). */
#include "mesh/mesh_result_rules.h"

#define X_NAME(id, name)	name,
static const char *const result_names[] = { MESH_RESULTS(X_NAME) };
#undef X_NAME

enum mesh_result mesh_result_of(enum rdma_client_fail f)
{
	switch (f) {
	case RDMA_CLIENT_FAIL_NONE:
		return MESH_RES_OK;
	case RDMA_CLIENT_FAIL_MISMATCH:
		return MESH_RES_MISMATCH;
	case RDMA_CLIENT_FAIL_TIMEOUT:
		return MESH_RES_TIMEOUT;
	case RDMA_CLIENT_FAIL_COMPLETION:
		return MESH_RES_COMPLETION_ERROR;
	case RDMA_CLIENT_FAIL_REJECTED:
		return MESH_RES_REFUSED;
	case RDMA_CLIENT_FAIL_CONNECT:
	case RDMA_CLIENT_FAIL_ADDR:
	case RDMA_CLIENT_FAIL_ROUTE:
		return MESH_RES_UNREACHABLE;
	case RDMA_CLIENT_FAIL_KEY:
		return MESH_RES_AUTH_FAILED;
	case RDMA_CLIENT_FAIL_PROTOCOL:
		return MESH_RES_PROTOCOL_ERROR;
	case RDMA_CLIENT_FAIL_LOCAL:
	default:
		return MESH_RES_LOCAL_ERROR;
	}
}

enum mesh_result mesh_result_class(enum rdma_client_fail fail, bool expired,
				   bool session_end)
{
	if (fail == RDMA_CLIENT_FAIL_NONE)
		return session_end ? MESH_RES_COMPLETION_ERROR : MESH_RES_OK;
	if (expired)
		return MESH_RES_TIMEOUT;
	return mesh_result_of(fail);
}

const char *mesh_result_name(enum mesh_result r)
{
	return (unsigned int)r < MESH_RES_N ? result_names[r] : "?";
}
