/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_report_text.c - the human report of a run: the header, the
 * operations, bytes moved, phases, each kind's latency and bandwidth,
 * the verification verdict; --rounds' session and its round lines.
 * Pure: part of probe_lib, unit-tested by test-probe-report.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "probe_report.h"
#include "probe_report_text.h"
#include "probe_exit_rules.h"
#include "probe_opstat.h"
#include "probe_opts.h"
#include "probe_rounds.h"
#include "proto.h"

/* probe_report_fmt_ns into the array BUF. */
#define NS(buf, ns) probe_report_fmt_ns(buf, sizeof(buf), ns)

static void phases_line(FILE *f, const struct probe_run *r)
{
	char a[32], b[32];
	int64_t p50, max;
	bool first = true;
	int p;

	fprintf(f, "  %-14s ", r->n > 1 ? "phases p50/max" : "phases");
	for (p = 0; p < PROBE_PH__COUNT; p++) {
		if ((p == PROBE_PH_DESC || p == PROBE_PH_DONE) &&
		    r->opts->rping)
			continue;
		if (!probe_report_phase_stats(r, (enum probe_report_phase)p,
					      &p50, &max))
			continue;
		if (r->n > 1)
			fprintf(f, "%s%s %s/%s", first ? "" : ", ",
				probe_report_phase_labels[p],
				NS(a, (uint64_t)p50), NS(b, (uint64_t)max));
		else
			fprintf(f, "%s%s %s", first ? "" : ", ",
				probe_report_phase_labels[p],
				NS(a, (uint64_t)p50));
		first = false;
	}
	fprintf(f, "%s\n", first ? "none completed" : "");
}

/*
 * Two lines per kind.  "latency": post to completion of each operation;
 * at depth 1 that is the operation's latency, at depth > 1 it includes
 * the wait behind the others in flight (the header says which).
 * "bandwidth": bytes over the span from the first post to the last
 * completion of that kind, over all connections.
 */
static void kind_lines(FILE *f, const struct probe_run *r,
		       enum probe_report_kind k)
{
	struct probe_figures x;
	char l[32], a[32], b[32], c[32], d[32], e[32], g[32];

	if (!probe_report_run_figures(r, k, &x))
		return;
	snprintf(l, sizeof(l), "%s latency", probe_report_kind_labels[k]);
	fprintf(f, "  %-14s min %s, p50 %s, p90 %s, p99 %s, p99.9 %s, "
		"max %s (%" PRIu64 " ops)\n", l,
		NS(a, x.min), NS(b, x.p50),
		NS(c, x.p90), NS(d, x.p99),
		NS(e, x.p999), NS(g, x.max),
		x.ops);
	snprintf(l, sizeof(l), "%s bandwidth", probe_report_kind_labels[k]);
	fprintf(f, "  %-14s %.*f MB/s (%.3f Gb/s), %.0f ops/s over %s\n", l,
		x.mbps < 1 ? 4 : 2, x.mbps, x.gbps, x.rate,
		NS(a, x.span_ns));
	if (!x.slow)
		return;
	snprintf(l, sizeof(l), "%s slow", probe_report_kind_labels[k]);
	fprintf(f, "  %-14s %" PRIu64 " of %" PRIu64 " operations took over "
		"%s: retransmissions (packet loss on the path?); the fastest "
		"took %s\n", l, x.slow, x.ops,
		NS(a, x.slow_limit), NS(b, x.min));
}

static void verification_line(FILE *f, const struct probe_run *r)
{
	const struct probe_opts *opts = r->opts;
	const struct probe_outcome *o;
	unsigned int i, failed = probe_exit_rules_failed(r), shown = 0;
	uint64_t reads = 0, writes = 0, pings = 0;
	bool first = true;

	for (i = 0; i < r->n; i++) {
		reads += r->outcomes[i].reads_verified;
		writes += r->outcomes[i].writes_done;
		pings += r->outcomes[i].pings_verified;
	}
	fprintf(f, "  %-14s ", "verification");
	if (failed) {
		fprintf(f, "FAILED (exit %d, %s): ", probe_exit_rules_run(r),
			rdma_client_fsm_fail_str(probe_exit_rules_worst(r)));
		for (i = 0; i < r->n; i++) {
			o = &r->outcomes[i];
			if (o->fail == RDMA_CLIENT_FAIL_NONE)
				continue;
			if (r->n == 1) {
				fprintf(f, "%s\n", o->error);
				return;
			}
			if (!shown)
				fprintf(f, "%u of %u connections failed\n",
					failed, r->n);
			if (shown++ == 10)
				break;
			fprintf(f, "  conn %-9u exit %d (%s): %s\n", o->idx,
				rdma_client_fsm_fail_code(o->fail),
				rdma_client_fsm_fail_str(o->fail), o->error);
		}
		return;
	}
	if (r->n > 1)
		fprintf(f, "OK: %u connections; ", r->n);
	else
		fputs("OK: ", f);
	if (opts->rping) {
		fprintf(f, "%" PRIu64 " pings, sink matched source\n", pings);
		return;
	}
	if (opts->ops & PROTO_OP_READ) {
		if (opts->verify)
			fprintf(f, "%" PRIu64 " READs matched the server's "
				"pattern", reads);
		else
			fprintf(f, "%" PRIu64 " READs not checked "
				"(--no-verify)", reads);
		first = false;
	}
	if (opts->ops & PROTO_OP_WRITE) {
		if (r->n == 1)
			fprintf(f, "%sserver verified the last of %" PRIu64
				" WRITEs (crc32c 0x%08x)", first ? "" : "; ",
				writes, r->outcomes[0].write_crc);
		else
			fprintf(f, "%sserver verified the last WRITE of each "
				"(%" PRIu64 " WRITEs)", first ? "" : "; ",
				writes);
	}
	fputc('\n', f);
}

/* ", TOS 0x68" with --tos, else nothing. */
static const char *fmt_tos(char *buf, size_t len,
			   const struct probe_opts *opts)
{
	buf[0] = '\0';
	if (opts->tos >= 0)
		snprintf(buf, len, ", TOS 0x%02x",
			 (unsigned int)opts->tos & 0xffu);
	return buf;
}

/* --rounds: the session, its rounds and their verdict. */
static void rounds_report(FILE *f, const struct probe_run *r)
{
	const struct probe_opts *opts = r->opts;
	const struct probe_outcome *o = &r->outcomes[0];
	const struct probe_rounds *s = o->rounds;
	char a[32], b[32], c[32], d[32], tos[24];
	uint64_t p50 = s ? probe_hist_percentile(&s->lat, 50) : 0;
	uint64_t p99 = s ? probe_hist_percentile(&s->lat, 99) : 0;

	fprintf(f, "  %-14s mesh session, %u rounds of %u bytes (%s), "
		"interval %u.%03u s%s, seed 0x%016" PRIx64 "\n",
		"operations", opts->rounds, opts->size,
		opts->ops == PROTO_OP_READ ? "READ back of a pattern written "
		"once" : "WRITE, then READ back",
		opts->interval_ms / 1000, opts->interval_ms % 1000,
		fmt_tos(tos, sizeof(tos), opts), opts->seed);
	phases_line(f, r);
	if (s && s->done) {
		fprintf(f, "  %-14s %u of %u: %u verified, %u mismatched\n",
			"rounds", s->done, s->want, s->done - s->mismatch,
			s->mismatch);
		fprintf(f, "  %-14s min %s, p50 %s, p99 %s, max %s (%s)\n",
			"round time", NS(a, s->lat.min),
			NS(b, p50), NS(c, p99),
			NS(d, s->lat.max),
			opts->ops == PROTO_OP_READ ? "READ, + WRITE in a round "
			"that wrote" : "WRITE + READ");
	}
	fprintf(f, "  %-14s ", "verification");
	if (o->fail != RDMA_CLIENT_FAIL_NONE)
		fprintf(f, "FAILED (exit %d, %s): %s\n",
			probe_exit_rules_run(r),
			rdma_client_fsm_fail_str(probe_exit_rules_worst(r)),
			o->error);
	else if (s && s->mismatch)
		fprintf(f, "FAILED (exit %d, %s): %u of %u rounds read back "
			"other data; the first, round %u, at offset %u\n",
			probe_exit_rules_run(r),
			rdma_client_fsm_fail_str(probe_exit_rules_worst(r)),
			s->mismatch, s->done, s->first_bad,
			s->first_bad_offset);
	else
		fprintf(f, "OK: %u rounds, every byte read back as written\n",
			s ? s->done : 0);
}

void probe_report_text(FILE *f, const char *target, const struct probe_run *r)
{
	const struct probe_opts *opts = r->opts;
	const struct probe_outcome *o0 = &r->outcomes[0];
	const char *opname;
	uint64_t rb = 0, wb = 0, pb = 0;
	char dur[64] = "", tos[24];
	unsigned int i;

	if (opts->rping)
		fprintf(f, "rdma-probe %s: rping protocol", target);
	else if (r->n == 1 && o0->have_welcome)
		fprintf(f, "rdma-probe %s: rdmad protocol v%u, server "
			"connection %" PRIu64 " (limits: size %u, "
			"iterations %u)", target, PROTO_VERSION, o0->conn_id,
			o0->max_size, o0->max_iters);
	else
		fprintf(f, "rdma-probe %s: rdmad protocol v%u", target,
			PROTO_VERSION);
	if (r->n > 1)
		fprintf(f, ", %u connections (%u failed)", r->n,
			probe_exit_rules_failed(r));
	fputc('\n', f);
	if (opts->rounds && r->n) {
		rounds_report(f, r);
		return;
	}

	if (opts->rping)
		opname = "rping (server READ, then WRITE)";
	else if (opts->ops == (PROTO_OP_READ | PROTO_OP_WRITE))
		opname = "READ then WRITE";
	else
		opname = opts->ops == PROTO_OP_READ ? "READ" : "WRITE";
	probe_report_fmt_count(dur, sizeof(dur), opts);
	fprintf(f, "  %-14s %s, %u bytes%s%s, depth %u, %s%s%s, seed "
		"0x%016" PRIx64 "%s\n", "operations", opname, opts->size, dur,
		opts->rping ? " pings" : " each", opts->rping ? 1 : opts->depth,
		opts->verify ? "verified" : "not verified",
		opts->busy_poll ? ", busy-poll" : "",
		fmt_tos(tos, sizeof(tos), opts), opts->seed,
		r->n > 1 ? " (+ connection number)" : "");

	for (i = 0; i < r->n; i++) {
		o0 = &r->outcomes[i];
		rb += o0->reads ? o0->reads->bytes : 0;
		wb += o0->writes ? o0->writes->bytes : 0;
		pb += o0->pings ? o0->pings->bytes : 0;
	}
	if (opts->rping)
		fprintf(f, "  %-14s %" PRIu64 " (%" PRIu64 " read by server, "
			"%" PRIu64 " written back)\n", "bytes moved", 2 * pb,
			pb, pb);
	else
		fprintf(f, "  %-14s %" PRIu64 " (read %" PRIu64 ", write %"
			PRIu64 ")\n", "bytes moved", rb + wb, rb, wb);

	phases_line(f, r);
	if (opts->rping) {
		kind_lines(f, r, PROBE_K_PING);
	} else {
		kind_lines(f, r, PROBE_K_READ);
		kind_lines(f, r, PROBE_K_WRITE);
	}
	verification_line(f, r);
}


void probe_report_text_round(FILE *f, const struct rdma_client_round *r)
{
	char w[32], rd[32], bad[48] = "verified";

	if (r->result != RDMA_CLIENT_FAIL_NONE)
		snprintf(bad, sizeof(bad), "MISMATCH at offset %u",
			 r->bad_offset);
	/* A READ-only round that did not WRITE has no write time. */
	if (!r->write_ns) {
		fprintf(f, "round %u: %u bytes read back, %s, read %s\n",
			r->round, r->size, bad,
			NS(rd, r->read_ns));
		return;
	}
	fprintf(f, "round %u: %u bytes written and read back, %s, write %s "
		"read %s\n", r->round, r->size, bad,
		NS(w, r->write_ns),
		NS(rd, r->read_ns));
}
