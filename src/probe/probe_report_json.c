/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_report_json.c - rdma-probe --json: the document of every run
 * (options, per-kind figures, phases, each connection) and of a
 * --targets mesh (one object per target, the summary).  Strings through
 * json_str, so the document is valid whatever a message holds.  Pure:
 * part of probe_lib, unit-tested by test-probe-report.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "probe_report.h"
#include "probe_report_json.h"
#include "probe_exit_rules.h"
#include "probe_opts.h"
#include "probe_report_matrix.h"
#include "probe_rounds.h"
#include "json.h"
#include "proto.h"
#include "targets.h"
#include "version.h"

static const char *op_name(uint8_t ops)
{
	if (ops == (PROTO_OP_READ | PROTO_OP_WRITE))
		return "both";
	return ops == PROTO_OP_READ ? "read" : "write";
}

static void json_fail(FILE *f, enum rdma_client_fail fail)
{
	char key[16];

	probe_report_fail_key(fail, key, sizeof(key));
	fprintf(f, "\"exit_code\": %d, \"class\": ",
		rdma_client_fsm_fail_code(fail));
	json_str(f, key);
}

static void json_kind(FILE *f, const struct probe_run *r,
		      enum probe_report_kind k,
		      bool *first)
{
	struct probe_figures x;

	if (!probe_report_run_figures(r, k, &x))
		return;
	fprintf(f, "%s\"%s\": {\"ops\": %" PRIu64 ", \"bytes\": %" PRIu64
		", \"span_ns\": %" PRIu64 ", \"mb_per_s\": %.3f, "
		"\"gb_per_s\": %.6f, \"ops_per_s\": %.1f, \"latency_ns\": "
		"{\"min\": %" PRIu64 ", \"p50\": %" PRIu64 ", \"p90\": %"
		PRIu64 ", \"p99\": %" PRIu64 ", \"p99_9\": %" PRIu64
		", \"max\": %" PRIu64 ", \"avg\": %" PRIu64 "}, "
		"\"slow_ops\": %" PRIu64 ", \"slow_limit_ns\": %" PRIu64 "}",
		*first ? "" : ", ", probe_report_kind_names[k], x.ops,
		x.bytes, x.span_ns, x.mbps, x.gbps, x.rate, x.min, x.p50, x.p90, x.p99, x.p999,
		x.max, x.avg, x.slow, x.slow_limit);
	*first = false;
}

/* "rounds": {...}: the first mismatch's round and offset are null
 * without one. */
static void json_rounds(FILE *f, const struct probe_rounds *s)
{
	fprintf(f, ", \"rounds\": {\"requested\": %u, \"done\": %u, "
		"\"verified\": %u, \"mismatch\": %u, ", s->want, s->done,
		s->done - s->mismatch, s->mismatch);
	if (s->mismatch)
		fprintf(f, "\"first_bad_round\": %u, \"first_bad_offset\": "
			"%u, ", s->first_bad, s->first_bad_offset);
	else
		fputs("\"first_bad_round\": null, \"first_bad_offset\": null, ",
		      f);
	fprintf(f, "\"round_ns\": {\"min\": %" PRIu64 ", \"p50\": %" PRIu64
		", \"p99\": %" PRIu64 ", \"max\": %" PRIu64 "}}",
		s->done ? s->lat.min : 0, probe_hist_percentile(&s->lat, 50),
		probe_hist_percentile(&s->lat, 99), s->lat.max);
}

static void json_conn(FILE *f, const struct probe_outcome *o, bool rping)
{
	bool first = true;
	int64_t d;
	int p;

	fprintf(f, "{\"index\": %u, \"seed\": \"0x%016" PRIx64 "\", ",
		o->idx, o->seed);
	json_fail(f, probe_exit_rules_outcome(o));
	fputs(", \"error\": ", f);
	json_str(f, o->fail == RDMA_CLIENT_FAIL_NONE ? NULL : o->error);
	fputs(", \"last_state\": ", f);
	json_str(f, rdma_client_fsm_state_str(o->last_state));
	if (o->have_welcome)
		fprintf(f, ", \"server_conn\": %" PRIu64, o->conn_id);
	if (o->rounds)
		json_rounds(f, o->rounds);
	if (rping)
		fprintf(f, ", \"pings_verified\": %u", o->pings_verified);
	else
		fprintf(f, ", \"reads_done\": %u, \"writes_done\": %u, "
			"\"write_crc32c\": \"0x%08x\"", o->reads_verified,
			o->writes_done, o->write_crc);
	fputs(", \"phases_ns\": {", f);
	for (p = 0; p < PROBE_PH__COUNT; p++) {
		d = probe_report_phase_ns(o->times, (enum probe_report_phase)p);
		if (d < 0)
			continue;
		fprintf(f, "%s\"%s\": %" PRId64, first ? "" : ", ",
			probe_report_phase_keys[p], d);
		first = false;
	}
	fputs("}}", f);
}

/* "phases_ns": {...}, "ops": {...}, "conns": [...] of a run. */
static void json_run_figures(FILE *f, const struct probe_run *r)
{
	int64_t p50, max;
	unsigned int i;
	bool first;
	int p;

	fputs("\"phases_ns\": {", f);
	first = true;
	for (p = 0; p < PROBE_PH__COUNT; p++) {
		if (!probe_report_phase_stats(r, (enum probe_report_phase)p,
					      &p50, &max))
			continue;
		fprintf(f, "%s\"%s\": {\"p50\": %" PRId64 ", \"max\": %" PRId64
			"}", first ? "" : ", ", probe_report_phase_keys[p],
			p50, max);
		first = false;
	}
	fputs("}, \"ops\": {", f);
	first = true;
	json_kind(f, r, PROBE_K_READ, &first);
	json_kind(f, r, PROBE_K_WRITE, &first);
	json_kind(f, r, PROBE_K_PING, &first);
	fputs("}, \"conns\": [", f);
	for (i = 0; i < r->n; i++) {
		fputs(i ? ",\n    " : "\n    ", f);
		json_conn(f, &r->outcomes[i], r->opts->rping);
	}
	fputc(']', f);
}

static void json_run(FILE *f, const struct probe_run *r)
{
	fprintf(f, "{\"size\": %u, \"connections\": %u, \"failed\": %u, ",
		r->opts->size, r->n, probe_exit_rules_failed(r));
	fprintf(f, "\"exit_code\": %d, \"ok\": %s, ", probe_exit_rules_run(r),
		probe_exit_rules_run(r) ? "false" : "true");
	json_run_figures(f, r);
	fputc('}', f);
}

/* "protocol": ..., "options": {...},\n "latency_note": ... */
static void json_options(FILE *f, const struct probe_opts *opts)
{
	char rounds[64] = "", tos[16] = "null";

	if (opts->tos >= 0)
		snprintf(tos, sizeof(tos), "%d", opts->tos);
	if (opts->rounds)
		snprintf(rounds, sizeof(rounds), "\"rounds\": %u, "
			 "\"interval_ms\": %u, ", opts->rounds,
			 opts->interval_ms);
	fprintf(f, "\"protocol\": \"%s\", \"options\": {\"op\": \"%s\", "
		"\"size\": %u, \"all_sizes\": %s, \"iters\": %u, "
		"\"duration_ms\": %u, \"parallel\": %u, \"depth\": %u, "
		"\"verify\": %s, \"busy_poll\": %s, \"timeout_ms\": %u, "
		"\"tos\": %s, %s\"seed\": \"0x%016" PRIx64 "\"},\n "
		"\"latency_note\": \"%s\"",
		opts->rping ? "rping" : "native",
		opts->rping ? "both" : op_name(opts->ops), opts->size,
		opts->all_sizes ? "true" : "false", opts->iters,
		opts->duration_ms, opts->parallel,
		opts->rping ? 1 : opts->depth, opts->verify ? "true" : "false",
		opts->busy_poll ? "true" : "false", opts->timeout_ms, tos,
		rounds, opts->seed, opts->depth > 1 && !opts->rping ?
		"depth > 1: latency_ns is post-to-completion under load" :
		"depth 1: latency_ns is the latency of single operations");
}

void probe_report_json(FILE *f, const struct probe_opts *opts,
		       const char *target, const struct probe_run *runs,
		       unsigned int nruns, int exit_code)
{
	unsigned int i;

	fputs("{\"tool\": \"rdma-probe\", \"version\": ", f);
	json_str(f, RDMAD_VERSION);
	fputs(", \"target\": ", f);
	json_str(f, target);
	fprintf(f, ", \"host\": ");
	json_str(f, opts->host);
	fprintf(f, ", \"port\": %u, \"source\": ", opts->port);
	json_str(f, opts->source);
	fputs(",\n ", f);
	json_options(f, opts);
	fputs(",\n \"runs\": [", f);
	for (i = 0; i < nruns; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		json_run(f, &runs[i]);
	}
	fprintf(f, "\n ],\n \"exit_code\": %d, \"ok\": %s}\n", exit_code,
		exit_code ? "false" : "true");
}

static void json_mesh_row(FILE *f, const struct probe_mesh_row *row)
{
	enum rdma_client_fail fail = probe_exit_rules_row(row);
	const struct probe_outcome *o = probe_exit_rules_row_worst(row);
	char res[96];

	fputs("{\"target\": ", f);
	json_str(f, row->target->text);
	fprintf(f, ", \"line\": %u, \"host\": ", row->target->line);
	json_str(f, row->target->host);
	fputs(", \"address\": ", f);
	json_str(f, row->fail == RDMA_CLIENT_FAIL_ADDR ? NULL : row->dest.host);
	fprintf(f, ", \"port\": %u, \"result\": ", row->target->port);
	probe_report_matrix_result(row, res, sizeof(res));
	json_str(f, res);
	fputs(", ", f);
	json_fail(f, fail);
	fputs(", \"error\": ", f);
	json_str(f, row->fail != RDMA_CLIENT_FAIL_NONE ? row->error :
		 fail != RDMA_CLIENT_FAIL_NONE && o ? o->error : NULL);
	fprintf(f, ", \"ok\": %s, \"connections\": %u, \"failed\": %u, ",
		fail == RDMA_CLIENT_FAIL_NONE ? "true" : "false", row->run.n,
		probe_exit_rules_failed(&row->run));
	json_run_figures(f, &row->run);
	fputc('}', f);
}

void probe_report_json_mesh(FILE *f, const struct probe_mesh *m,
			    int exit_code)
{
	const struct probe_opts *opts = m->opts;
	unsigned int i, failed = probe_exit_rules_mesh_failed(m);

	fputs("{\"tool\": \"rdma-probe\", \"version\": ", f);
	json_str(f, RDMAD_VERSION);
	fputs(", \"targets_file\": ", f);
	json_str(f, opts ? opts->targets : NULL);
	fputs(", \"source\": ", f);
	json_str(f, opts ? opts->source : NULL);
	if (opts) {
		fputs(",\n ", f);
		json_options(f, opts);
	}
	fputs(",\n \"targets\": [", f);
	for (i = 0; i < m->n; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		json_mesh_row(f, &m->rows[i]);
	}
	fprintf(f, "\n ],\n \"summary\": {\"targets\": %u, \"ok\": %u, "
		"\"failed\": %u},\n \"exit_code\": %d, \"ok\": %s}\n", m->n,
		m->n - failed, failed, exit_code, exit_code ? "false" : "true");
}
