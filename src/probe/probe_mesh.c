/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_mesh.c - rdma-probe --targets: every host of a list probed at
 * once.  Each target gets opts->parallel connections with the same
 * options; all of them run together in the one event loop and on the one
 * rdma_cm event channel of the context.  A target whose name does not
 * resolve, or whose connections cannot be set up, fails alone.
 */
#include "probe_mesh.h"
#include "probe_ctx.h"
#include "probe_log.h"
#include "probe_opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "targets.h"

/* Names first (getaddrinfo blocks), so that every probe starts together. */
static void mesh_resolve(struct probe_mesh_row *row,
			 const struct probe_opts *opts)
{
	const struct target *t = row->target;

	if (probe_dest_resolve(&row->dest, "target", t->host, t->port,
			       opts->source, row->error, sizeof(row->error))) {
		row->fail = RDMA_CLIENT_FAIL_ADDR;
		row->reason = "unknown host";
	}
}

static int mesh_add(struct probe_mesh_row *row, struct probe_ctx *ctx,
		    const struct probe_opts *opts)
{
	int ret;

	row->run.outcomes = calloc(opts->parallel, sizeof(*row->run.outcomes));
	if (!row->run.outcomes)
		return -ENOMEM;
	ret = probe_ctx_add(ctx, opts, &row->dest, row->target->text,
			    opts->parallel);
	if (ret) {
		row->fail = RDMA_CLIENT_FAIL_LOCAL;
		row->reason = "set-up failed";
		snprintf(row->error, sizeof(row->error), "cannot set up the "
			 "connections: %s", strerror(-ret));
	}
	return 0;
}

int probe_mesh_run(struct probe_mesh *m, struct probe_ctx *ctx,
		   const struct probe_opts *opts,
		   const struct target_list *tl)
{
	struct probe_mesh_row *row;
	unsigned int i, j, k = 0;
	int ret;

	memset(m, 0, sizeof(*m));
	m->opts = opts;
	m->rows = calloc(tl->n, sizeof(*m->rows));
	if (!m->rows)
		return -ENOMEM;
	m->n = tl->n;
	for (i = 0; i < m->n; i++) {
		row = &m->rows[i];
		row->target = &tl->v[i];
		row->run.opts = opts;
		mesh_resolve(row, opts);
	}
	for (i = 0; i < m->n; i++) {
		row = &m->rows[i];
		if (row->fail != RDMA_CLIENT_FAIL_NONE)
			continue;
		ret = mesh_add(row, ctx, opts);
		if (ret)
			goto out;
	}
	probe_dbg(1, "mesh: %u target(s), %u connection(s), %u bytes", m->n,
		  ctx->nconns, opts->size);
	ret = probe_ctx_run(ctx);
	if (ret)
		probe_err("event loop failed");
	/* Connections are in ctx->conns in row order, parallel each. */
	for (i = 0; i < m->n; i++) {
		row = &m->rows[i];
		if (row->fail != RDMA_CLIENT_FAIL_NONE)
			continue;
		for (j = 0; j < opts->parallel; j++)
			probe_ctx_outcome(ctx->conns[k++],
					   &row->run.outcomes[j]);
		row->run.n = opts->parallel;
	}
	ret = 0;
out:
	probe_ctx_release(ctx, &m->conns, &m->nconns);
	return ret;
}

void probe_mesh_log_errors(const struct probe_mesh *m)
{
	const struct probe_mesh_row *row;
	unsigned int i, j;

	for (i = 0; i < m->n; i++) {
		row = &m->rows[i];
		if (row->fail != RDMA_CLIENT_FAIL_NONE)
			probe_err("%s: %s", row->target->text, row->error);
		for (j = 0; j < row->run.n; j++)
			if (row->run.outcomes[j].fail != RDMA_CLIENT_FAIL_NONE)
				probe_err("%s: conn %u: %s", row->target->text,
					  j, row->run.outcomes[j].error);
	}
}

void probe_mesh_free(struct probe_mesh *m)
{
	unsigned int i;

	probe_ctx_free_conns(m->conns, m->nconns);
	for (i = 0; i < m->n; i++)
		free(m->rows[i].run.outcomes);
	free(m->rows);
	memset(m, 0, sizeof(*m));
}
