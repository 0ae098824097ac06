/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_exit_rules.c - which failure a run, a --targets row and a whole
 * --targets mesh end with, and so rdma-probe's exit code: the worst class
 * (rdma_client_fsm_fail_worse) over the connections, a round's mismatch
 * counted.  Pure: part of probe_lib, unit-tested by test-probe-report.c.
 */
#include "probe_exit_rules.h"
#include "probe_rounds.h"
#include "probe_run.h"

/* The outcome's class, a round's mismatch counted. */
enum rdma_client_fail probe_exit_rules_outcome(const struct probe_outcome *o)
{
	if (o->rounds && o->rounds->mismatch &&
	    rdma_client_fsm_fail_worse(RDMA_CLIENT_FAIL_MISMATCH, o->fail))
		return RDMA_CLIENT_FAIL_MISMATCH;
	return o->fail;
}

/* The worse of A and B: the one with the larger exit code. */
static enum rdma_client_fail worse(enum rdma_client_fail a,
				   enum rdma_client_fail b)
{
	return rdma_client_fsm_fail_worse(a, b) ? a : b;
}

/* The failure with the largest exit code, RDMA_CLIENT_FAIL_NONE if none. */
enum rdma_client_fail probe_exit_rules_worst(const struct probe_run *r)
{
	enum rdma_client_fail w = RDMA_CLIENT_FAIL_NONE;
	unsigned int i;

	for (i = 0; i < r->n; i++)
		w = worse(probe_exit_rules_outcome(&r->outcomes[i]), w);
	return w;
}

int probe_exit_rules_run(const struct probe_run *r)
{
	return rdma_client_fsm_fail_code(probe_exit_rules_worst(r));
}

enum rdma_client_fail probe_exit_rules_row(const struct probe_mesh_row *row)
{
	if (row->fail != RDMA_CLIENT_FAIL_NONE)
		return row->fail;
	return probe_exit_rules_worst(&row->run);
}

int probe_exit_rules_mesh(const struct probe_mesh *m)
{
	enum rdma_client_fail w = RDMA_CLIENT_FAIL_NONE;
	unsigned int i;

	for (i = 0; i < m->n; i++)
		w = worse(probe_exit_rules_row(&m->rows[i]), w);
	return rdma_client_fsm_fail_code(w);
}

unsigned int probe_exit_rules_failed(const struct probe_run *r)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->n; i++)
		n += probe_exit_rules_outcome(&r->outcomes[i]) !=
		     RDMA_CLIENT_FAIL_NONE;
	return n;
}

/* The outcome that gave a row its class: the first with the worst. */
const struct probe_outcome *
probe_exit_rules_row_worst(const struct probe_mesh_row *row)
{
	enum rdma_client_fail f = probe_exit_rules_worst(&row->run);
	unsigned int i;

	for (i = 0; i < row->run.n; i++)
		if (row->run.outcomes[i].fail == f)
			return &row->run.outcomes[i];
	return NULL;
}

unsigned int probe_exit_rules_mesh_failed(const struct probe_mesh *m)
{
	unsigned int i, n = 0;

	for (i = 0; i < m->n; i++)
		n += probe_exit_rules_row(&m->rows[i]) != RDMA_CLIENT_FAIL_NONE;
	return n;
}
