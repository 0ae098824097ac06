/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_report_matrix.c - rdma-probe --targets' matrix: one row per
 * target (the target, its result, p50/p99 and MB/s of each kind), then
 * the summary; with -q only the failed rows.  Pure: part of probe_lib,
 * unit-tested by test-probe-report.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "probe_report.h"
#include "probe_report_matrix.h"
#include "probe_exit_rules.h"
#include "probe_opts.h"
#include <strings.h>

#include "targets.h"

/*
 * "ok", or the class and a short reason: "rejected: busy", "connect:
 * refused", "addr: unknown host", "timeout in descriptor", "mismatch";
 * with -P, "(K of N failed)" after it.
 */
void probe_report_matrix_result(const struct probe_mesh_row *row, char *buf,
				size_t len)
{
	enum rdma_client_fail f = probe_exit_rules_row(row);
	const struct probe_outcome *o = NULL;
	const char *reason = row->reason;
	unsigned int failed = probe_exit_rules_failed(&row->run);
	char key[16];
	int n;

	if (f == RDMA_CLIENT_FAIL_NONE) {
		snprintf(buf, len, "ok");
		return;
	}
	probe_report_fail_key(f, key, sizeof(key));
	if (row->fail == RDMA_CLIENT_FAIL_NONE) {
		o = probe_exit_rules_row_worst(row);
		reason = o ? o->reason : NULL;
	}
	if (reason)
		n = snprintf(buf, len, "%s: %s", key, reason);
	else if (o && (f == RDMA_CLIENT_FAIL_TIMEOUT ||
		       f == RDMA_CLIENT_FAIL_COMPLETION ||
		       f == RDMA_CLIENT_FAIL_PROTOCOL))
		n = snprintf(buf, len, "%s%s in %s", key,
			     f == RDMA_CLIENT_FAIL_TIMEOUT ? "" : " error",
			     rdma_client_fsm_state_step(o->fail_state));
	else
		n = snprintf(buf, len, "%s", key);
	if (row->run.n > 1 && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " (%u of %u failed)",
			 failed, row->run.n);
}

/* The target as written, and the address (and port) probed when they
 * say something else. */
static void row_target(const struct probe_mesh_row *row, char *buf,
		       size_t len)
{
	if (row->fail == RDMA_CLIENT_FAIL_ADDR ||
	    !strcasecmp(row->dest.addr, row->target->text))
		snprintf(buf, len, "%s", row->target->text);
	else
		snprintf(buf, len, "%s (%s)", row->target->text,
			 row->dest.addr);
}

/* p50 and p99 and MB/s of one kind of a row's run, "-" if none. */
static void row_cells(const struct probe_mesh_row *row,
		      enum probe_report_kind k,
		      char *p50, char *p99, char *mbps, size_t len)
{
	struct probe_figures x;

	snprintf(p50, len, "-");
	snprintf(p99, len, "-");
	snprintf(mbps, len, "-");
	if (!probe_report_run_figures(&row->run, k, &x))
		return;
	probe_report_fmt_ns(p50, len, x.p50);
	probe_report_fmt_ns(p99, len, x.p99);
	snprintf(mbps, len, "%.*f", x.mbps < 1 ? 4 : 2, x.mbps);
}

void probe_report_matrix(FILE *f, const struct probe_mesh *m)
{
	const struct probe_opts *opts = m->opts;
	static const enum probe_report_kind kinds_native[] = {
		PROBE_K_READ, PROBE_K_WRITE
	};
	static const enum probe_report_kind kinds_rping[] = { PROBE_K_PING };
	const enum probe_report_kind *kinds = opts->rping ? kinds_rping :
							    kinds_native;
	unsigned int nk = opts->rping ? 1 : 2;
	unsigned int failed = probe_exit_rules_mesh_failed(m);
	char tgt[TARGET_HOST_MAX + PROBE_ADDR_LEN + 16], res[96];
	char p50[2][32], p99[2][32], mbps[2][32], head[2][3][24], dur[64];
	int wt = (int)strlen("TARGET"), wr = (int)strlen("RESULT"), w;
	bool quiet = opts->verbosity < 0;
	unsigned int i, k;

	if (quiet && !failed)
		return;
	for (i = 0; i < m->n; i++) {
		row_target(&m->rows[i], tgt, sizeof(tgt));
		probe_report_matrix_result(&m->rows[i], res, sizeof(res));
		w = (int)strlen(tgt);
		wt = w > wt ? w : wt;
		w = (int)strlen(res);
		wr = w > wr ? w : wr;
	}
	probe_report_fmt_count(dur, sizeof(dur), opts);
	fprintf(f, "rdma-probe: %u targets, %s, %u bytes%s%s, depth %u, "
		"%u connection%s each%s%s, seed 0x%016" PRIx64 "\n", m->n,
		opts->rping ? "rping protocol" : "rdmad protocol",
		opts->size, dur, opts->rping ? " pings" : " each",
		opts->rping ? 1 : opts->depth, opts->parallel,
		opts->parallel > 1 ? "s" : "", opts->source ? ", from " : "",
		opts->source ? opts->source : "", opts->seed);
	for (k = 0; k < nk; k++) {
		snprintf(head[k][0], sizeof(head[k][0]), "%s p50",
			 probe_report_kind_labels[kinds[k]]);
		snprintf(head[k][1], sizeof(head[k][1]), "%s p99",
			 probe_report_kind_labels[kinds[k]]);
		snprintf(head[k][2], sizeof(head[k][2]), "%s MB/s",
			 probe_report_kind_labels[kinds[k]]);
	}
	fprintf(f, "%-*s  %-*s", wt, "TARGET", wr, "RESULT");
	for (k = 0; k < nk; k++)
		fprintf(f, "  %10s  %10s", head[k][0], head[k][1]);
	for (k = 0; k < nk; k++)
		fprintf(f, "  %10s", head[k][2]);
	fputc('\n', f);
	for (i = 0; i < m->n; i++) {
		if (quiet && probe_exit_rules_row(&m->rows[i]) ==
			     RDMA_CLIENT_FAIL_NONE)
			continue;
		row_target(&m->rows[i], tgt, sizeof(tgt));
		probe_report_matrix_result(&m->rows[i], res, sizeof(res));
		for (k = 0; k < nk; k++)
			row_cells(&m->rows[i], kinds[k], p50[k], p99[k],
				  mbps[k], sizeof(p50[k]));
		fprintf(f, "%-*s  %-*s", wt, tgt, wr, res);
		for (k = 0; k < nk; k++)
			fprintf(f, "  %10s  %10s", p50[k], p99[k]);
		for (k = 0; k < nk; k++)
			fprintf(f, "  %10s", mbps[k]);
		fputc('\n', f);
	}
	fprintf(f, "%u targets: %u ok, %u failed\n", m->n, m->n - failed,
		failed);
}
