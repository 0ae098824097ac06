/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-mesh-result-rules.c - mesh_result_rules.c: the class of each
 * rdma_client failure, the classes' names, and the rules every prober
 * applies on top (a deadline of its own, a session that ended).
 */
#include <string.h>

#include "mesh/mesh_result_rules.h"
#include "tap.h"

static void test_classes(void)
{
	static const struct {
		enum rdma_client_fail f;
		enum mesh_result r;
	} map[] = {
		{ RDMA_CLIENT_FAIL_NONE, MESH_RES_OK },
		{ RDMA_CLIENT_FAIL_LOCAL, MESH_RES_LOCAL_ERROR },
		{ RDMA_CLIENT_FAIL_ADDR, MESH_RES_UNREACHABLE },
		{ RDMA_CLIENT_FAIL_ROUTE, MESH_RES_UNREACHABLE },
		{ RDMA_CLIENT_FAIL_CONNECT, MESH_RES_UNREACHABLE },
		{ RDMA_CLIENT_FAIL_REJECTED, MESH_RES_REFUSED },
		{ RDMA_CLIENT_FAIL_TIMEOUT, MESH_RES_TIMEOUT },
		{ RDMA_CLIENT_FAIL_COMPLETION, MESH_RES_COMPLETION_ERROR },
		{ RDMA_CLIENT_FAIL_PROTOCOL, MESH_RES_PROTOCOL_ERROR },
		{ RDMA_CLIENT_FAIL_MISMATCH, MESH_RES_MISMATCH },
		{ RDMA_CLIENT_FAIL_KEY, MESH_RES_AUTH_FAILED },
	};
	static const char *const names[MESH_RES_N] = {
		"ok", "mismatch", "timeout", "completion-error", "refused",
		"unreachable", "auth-failed", "protocol-error", "local-error",
	};
	unsigned int i;
	int ok = 1;

	tap_ok(sizeof(map) / sizeof(map[0]) == RDMA_CLIENT_FAIL__COUNT,
	       "classes: every rdma_client failure in the table");
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (mesh_result_of(map[i].f) != map[i].r) {
			tap_diag("fail %d -> %s", map[i].f,
				 mesh_result_name(mesh_result_of(map[i].f)));
			ok = 0;
		}
	tap_ok(ok, "classes: each failure's result class");
	tap_ok(mesh_result_of(RDMA_CLIENT_FAIL__COUNT) == MESH_RES_LOCAL_ERROR,
	       "classes: an unknown failure is a local error");
	ok = 1;
	for (i = 0; i < MESH_RES_N; i++)
		if (strcmp(mesh_result_name(i), names[i]))
			ok = 0;
	tap_ok(ok && !strcmp(mesh_result_name(MESH_RES_N), "?"),
	       "names: the metrics' result label values");
}

/* The rules on top of the table, as the mesh's schedule and GET /probe
 * take them. */
static void test_rules(void)
{
	tap_ok(mesh_result_class(RDMA_CLIENT_FAIL_NONE, false, false) ==
	       MESH_RES_OK, "a round verified: ok");
	tap_ok(mesh_result_class(RDMA_CLIENT_FAIL_MISMATCH, false, false) ==
	       MESH_RES_MISMATCH, "a round with bad bytes: mismatch");
	tap_ok(mesh_result_class(RDMA_CLIENT_FAIL_NONE, false, true) ==
	       MESH_RES_COMPLETION_ERROR, "a mesh session that ended with no "
	       "failure: a completion error (it is kept open)");
	tap_ok(mesh_result_class(RDMA_CLIENT_FAIL_REJECTED, false, true) ==
	       MESH_RES_REFUSED, "a session refused: the table's class");
	tap_ok(mesh_result_class(RDMA_CLIENT_FAIL_LOCAL, true, false) ==
	       MESH_RES_TIMEOUT, "aborted at the prober's deadline: a "
	       "timeout, whatever the client failed with");
	tap_ok(mesh_result_class(RDMA_CLIENT_FAIL_TIMEOUT, true, false) ==
	       MESH_RES_TIMEOUT, "the schedule's deadline: a timeout");
	tap_ok(mesh_result_class(RDMA_CLIENT_FAIL_NONE, true, false) ==
	       MESH_RES_OK, "done as the deadline passed: still ok");
}

int main(void)
{
	test_classes();
	test_rules();
	return tap_done();
}
