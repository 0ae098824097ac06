/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_report.c - per-operation records, latency figures, the exit code
 * of a run and of a --targets mesh, the human report, the matrix, their
 * JSON, and the probe's stderr logging.  Pure (no verbs, no event loop):
 * part of probe_lib, unit-tested by tests/unit/test-probe-report.c.
 */
#include "probe.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "version.h"
#include "json.h"
#include "targets.h"
#include "proto.h"

int probe_verbosity;

void probe_err(const char *fmt, ...)
{
	va_list ap;

	fputs("rdma-probe: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void probe_dbg(int level, const char *fmt, ...)
{
	va_list ap;

	if (probe_verbosity < level)
		return;
	fputs("rdma-probe: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- per-kind statistics ---------------------------------------------- */

void probe_opstat_init(struct probe_opstat *s)
{
	memset(s, 0, sizeof(*s));
	probe_hist_init(&s->lat);
}

void probe_opstat_add(struct probe_opstat *s, uint64_t posted, uint64_t done,
		      uint32_t bytes)
{
	probe_hist_add(&s->lat, done > posted ? done - posted : 0);
	s->ops++;
	s->bytes += bytes;
	if (!s->first_post || posted < s->first_post)
		s->first_post = posted;
	if (done > s->last_done)
		s->last_done = done;
}

void probe_opstat_merge(struct probe_opstat *dst,
			const struct probe_opstat *src)
{
	if (!src->ops)
		return;
	probe_hist_merge(&dst->lat, &src->lat);
	dst->ops += src->ops;
	dst->bytes += src->bytes;
	if (!dst->first_post || src->first_post < dst->first_post)
		dst->first_post = src->first_post;
	if (src->last_done > dst->last_done)
		dst->last_done = src->last_done;
}

/* Figures of one kind: latency percentiles, bandwidth, message rate. */
struct probe_figures {
	uint64_t ops, bytes, span_ns;
	uint64_t min, p50, p90, p99, p999, max, avg;
	uint64_t slow, slow_limit;	/* probe_hist_slow_limit() */
	double mbps, gbps, rate;
};

static void figures(const struct probe_opstat *s, struct probe_figures *f)
{
	memset(f, 0, sizeof(*f));
	if (!s->ops)
		return;
	f->ops = s->ops;
	f->bytes = s->bytes;
	f->min = s->lat.min;
	f->p50 = probe_hist_percentile(&s->lat, 50);
	f->p90 = probe_hist_percentile(&s->lat, 90);
	f->p99 = probe_hist_percentile(&s->lat, 99);
	f->p999 = probe_hist_percentile(&s->lat, 99.9);
	f->max = s->lat.max;
	f->avg = probe_hist_mean(&s->lat);
	f->slow_limit = probe_hist_slow_limit(&s->lat);
	f->slow = probe_hist_count_above(&s->lat, f->slow_limit);
	f->span_ns = s->last_done > s->first_post ?
		     s->last_done - s->first_post : 0;
	if (f->span_ns) {
		f->mbps = (double)s->bytes * 1e3 / (double)f->span_ns;
		f->gbps = f->mbps * 8 / 1e3;
		f->rate = (double)s->ops * 1e9 / (double)f->span_ns;
	}
}

/* ---- mesh session rounds --------------------------------------------- */

void probe_rounds_init(struct probe_rounds *s, uint32_t want)
{
	memset(s, 0, sizeof(*s));
	s->want = want;
	probe_hist_init(&s->lat);
}

void probe_rounds_add(struct probe_rounds *s,
		      const struct rdma_client_round *r)
{
	if (r->result != RDMA_CLIENT_FAIL_NONE && !s->mismatch++) {
		s->first_bad = r->round;
		s->first_bad_offset = r->bad_offset;
	}
	s->done++;
	probe_hist_add(&s->lat, r->write_ns + r->read_ns);
}

static const char *fmt_ns(char *buf, size_t len, uint64_t ns);

void probe_report_round(FILE *f, const struct rdma_client_round *r)
{
	char w[32], rd[32], bad[48] = "verified";

	if (r->result != RDMA_CLIENT_FAIL_NONE)
		snprintf(bad, sizeof(bad), "MISMATCH at offset %u",
			 r->bad_offset);
	fprintf(f, "round %u: %u bytes written and read back, %s, write %s "
		"read %s\n", r->round, r->size, bad,
		fmt_ns(w, sizeof(w), r->write_ns),
		fmt_ns(rd, sizeof(rd), r->read_ns));
}

/* The outcome's class, a round's mismatch counted. */
static enum rdma_client_fail outcome_fail(const struct probe_outcome *o)
{
	if (o->rounds && o->rounds->mismatch &&
	    rdma_client_fsm_fail_worse(RDMA_CLIENT_FAIL_MISMATCH, o->fail))
		return RDMA_CLIENT_FAIL_MISMATCH;
	return o->fail;
}

/* ---- runs ------------------------------------------------------------ */

/* Heap-allocated merge of one kind over every connection of a run. */
enum kind { K_READ, K_WRITE, K_PING, K__COUNT };
static const char *const kind_names[K__COUNT] = { "read", "write", "ping" };
static const char *const kind_labels[K__COUNT] = { "READ", "WRITE", "ping" };

static const struct probe_opstat *outcome_kind(const struct probe_outcome *o,
					       enum kind k)
{
	return k == K_READ ? o->reads : k == K_WRITE ? o->writes : o->pings;
}

static struct probe_opstat *run_merge(const struct probe_run *r, enum kind k)
{
	struct probe_opstat *m = malloc(sizeof(*m));
	const struct probe_opstat *s;
	unsigned int i;

	if (!m)
		return NULL;
	probe_opstat_init(m);
	for (i = 0; i < r->n; i++) {
		s = outcome_kind(&r->outcomes[i], k);
		if (s)
			probe_opstat_merge(m, s);
	}
	return m;
}

/* Figures of one kind over a run's connections; false if none ran. */
static bool run_figures(const struct probe_run *r, enum kind k,
			struct probe_figures *x)
{
	struct probe_opstat *m = run_merge(r, k);

	memset(x, 0, sizeof(*x));
	if (!m)
		return false;
	figures(m, x);
	free(m);
	return x->ops != 0;
}

/* The failure with the largest exit code, RDMA_CLIENT_FAIL_NONE if none. */
enum rdma_client_fail probe_run_worst(const struct probe_run *r)
{
	enum rdma_client_fail worst = RDMA_CLIENT_FAIL_NONE;
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (rdma_client_fsm_fail_worse(outcome_fail(&r->outcomes[i]),
					       worst))
			worst = outcome_fail(&r->outcomes[i]);
	return worst;
}

int probe_run_exit(const struct probe_run *r)
{
	return rdma_client_fsm_fail_code(probe_run_worst(r));
}

enum rdma_client_fail probe_mesh_row_fail(const struct probe_mesh_row *row)
{
	if (row->fail != RDMA_CLIENT_FAIL_NONE)
		return row->fail;
	return probe_run_worst(&row->run);
}

int probe_mesh_exit(const struct probe_mesh *m)
{
	enum rdma_client_fail worst = RDMA_CLIENT_FAIL_NONE, f;
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		f = probe_mesh_row_fail(&m->rows[i]);
		if (rdma_client_fsm_fail_worse(f, worst))
			worst = f;
	}
	return rdma_client_fsm_fail_code(worst);
}

static unsigned int run_failed(const struct probe_run *r)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->n; i++)
		n += outcome_fail(&r->outcomes[i]) != RDMA_CLIENT_FAIL_NONE;
	return n;
}

/* Phases: name, and the moments that bound it. */
enum phase {
	PH_ADDR, PH_ROUTE, PH_CONNECT, PH_DESC, PH_OPS, PH_DONE, PH_DISC,
	PH_TOTAL, PH__COUNT
};
static const char *const phase_labels[PH__COUNT] = {
	"resolve addr", "resolve route", "connect", "descriptor", "ops",
	"done", "disconnect", "total",
};
static const char *const phase_keys[PH__COUNT] = {
	"resolve_addr", "resolve_route", "connect", "descriptor", "ops",
	"done", "disconnect", "total",
};

/* Duration of a phase in ns, or -1 when the connection did not go
 * through it. */
static int64_t phase_ns(const struct rdma_client_times *t, enum phase p)
{
	uint64_t a = 0, b = 0;

	switch (p) {
	case PH_ADDR:	 a = t->start;	      b = t->addr;	  break;
	case PH_ROUTE:	 a = t->addr;	      b = t->route;	  break;
	case PH_CONNECT: a = t->route;	      b = t->established; break;
	case PH_DESC:
		/* DESC may come before ESTABLISHED: then it took no time
		 * after the connection was up. */
		a = t->established;
		b = t->desc && t->desc < a ? a : t->desc;
		break;
	case PH_OPS:	 a = t->ops_start;    b = t->ops_end;	  break;
	case PH_DONE:	 a = t->done_sent;    b = t->result;	  break;
	case PH_DISC:	 a = t->disconnect;   b = t->closed;	  break;
	case PH_TOTAL:	 a = t->start;	      b = t->closed;	  break;
	case PH__COUNT:	 break;
	}
	if (!a || !b || b < a)
		return -1;
	return (int64_t)(b - a);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* p50 and max of a phase over the connections that went through it. */
static unsigned int phase_stats(const struct probe_run *r, enum phase p,
				int64_t *p50, int64_t *max)
{
	int64_t *v = malloc(r->n * sizeof(*v)), d;
	unsigned int i, n = 0;

	*p50 = *max = -1;
	if (!v)
		return 0;
	for (i = 0; i < r->n; i++) {
		d = phase_ns(r->outcomes[i].times, p);
		if (d >= 0)
			v[n++] = d;
	}
	if (n) {
		qsort(v, n, sizeof(*v), cmp_i64);
		*p50 = v[(n - 1) / 2];
		*max = v[n - 1];
	}
	free(v);
	return n;
}

/* The failure class in lower case: "none", "addr", "rejected"... */
static void fail_key(enum rdma_client_fail fail, char *key, size_t len)
{
	static const char *const keys[] = {
#define RDMA_CLIENT_X_KEY(name, code, text) [RDMA_CLIENT_FAIL_##name] = #name,
		RDMA_CLIENT_FAILS(RDMA_CLIENT_X_KEY)
#undef RDMA_CLIENT_X_KEY
	};
	size_t i;

	snprintf(key, len, "%s", (unsigned)fail < RDMA_CLIENT_FAIL__COUNT ?
		 keys[fail] : "LOCAL");
	for (i = 0; key[i]; i++)
		key[i] = (char)(key[i] >= 'A' && key[i] <= 'Z' ?
				key[i] - 'A' + 'a' : key[i]);
}

/* ---- human report ----------------------------------------------------- */

static const char *fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000000ull)
		snprintf(buf, len, "%.1f us", (double)ns / 1e3);
	else if (ns < 10000000000ull)
		snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3f s", (double)ns / 1e9);
	return buf;
}

/* " x N", or " for S s (at most N)" with -D. */
static void fmt_count(char *buf, size_t len, const struct probe_opts *opts)
{
	if (opts->duration_ms)
		snprintf(buf, len, " for %u.%03u s (at most %u)",
			 opts->duration_ms / 1000, opts->duration_ms % 1000,
			 opts->iters);
	else
		snprintf(buf, len, " x %u", opts->iters);
}

static void phases_line(FILE *f, const struct probe_run *r)
{
	char a[32], b[32];
	int64_t p50, max;
	bool first = true;
	int p;

	fprintf(f, "  %-14s ", r->n > 1 ? "phases p50/max" : "phases");
	for (p = 0; p < PH__COUNT; p++) {
		if ((p == PH_DESC || p == PH_DONE) && r->opts->rping)
			continue;
		if (!phase_stats(r, (enum phase)p, &p50, &max))
			continue;
		if (r->n > 1)
			fprintf(f, "%s%s %s/%s", first ? "" : ", ",
				phase_labels[p], fmt_ns(a, sizeof(a),
				(uint64_t)p50), fmt_ns(b, sizeof(b),
				(uint64_t)max));
		else
			fprintf(f, "%s%s %s", first ? "" : ", ",
				phase_labels[p], fmt_ns(a, sizeof(a),
				(uint64_t)p50));
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
static void kind_lines(FILE *f, const struct probe_run *r, enum kind k)
{
	struct probe_figures x;
	char l[32], a[32], b[32], c[32], d[32], e[32], g[32];

	if (!run_figures(r, k, &x))
		return;
	snprintf(l, sizeof(l), "%s latency", kind_labels[k]);
	fprintf(f, "  %-14s min %s, p50 %s, p90 %s, p99 %s, p99.9 %s, "
		"max %s (%" PRIu64 " ops)\n", l,
		fmt_ns(a, sizeof(a), x.min), fmt_ns(b, sizeof(b), x.p50),
		fmt_ns(c, sizeof(c), x.p90), fmt_ns(d, sizeof(d), x.p99),
		fmt_ns(e, sizeof(e), x.p999), fmt_ns(g, sizeof(g), x.max),
		x.ops);
	snprintf(l, sizeof(l), "%s bandwidth", kind_labels[k]);
	fprintf(f, "  %-14s %.*f MB/s (%.3f Gb/s), %.0f ops/s over %s\n", l,
		x.mbps < 1 ? 4 : 2, x.mbps, x.gbps, x.rate,
		fmt_ns(a, sizeof(a), x.span_ns));
	if (!x.slow)
		return;
	snprintf(l, sizeof(l), "%s slow", kind_labels[k]);
	fprintf(f, "  %-14s %" PRIu64 " of %" PRIu64 " operations took over "
		"%s: retransmissions (packet loss on the path?); the fastest "
		"took %s\n", l, x.slow, x.ops,
		fmt_ns(a, sizeof(a), x.slow_limit), fmt_ns(b, sizeof(b), x.min));
}

static void verification_line(FILE *f, const struct probe_run *r)
{
	const struct probe_opts *opts = r->opts;
	const struct probe_outcome *o;
	unsigned int i, failed = run_failed(r), shown = 0;
	uint64_t reads = 0, writes = 0, pings = 0;
	bool first = true;

	for (i = 0; i < r->n; i++) {
		reads += r->outcomes[i].reads_verified;
		writes += r->outcomes[i].writes_done;
		pings += r->outcomes[i].pings_verified;
	}
	fprintf(f, "  %-14s ", "verification");
	if (failed) {
		fprintf(f, "FAILED (exit %d, %s): ", probe_run_exit(r),
			rdma_client_fsm_fail_str(probe_run_worst(r)));
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

/* --rounds: the session, its rounds and their verdict. */
static void rounds_report(FILE *f, const struct probe_run *r)
{
	const struct probe_opts *opts = r->opts;
	const struct probe_outcome *o = &r->outcomes[0];
	const struct probe_rounds *s = o->rounds;
	char a[32], b[32], c[32], d[32];
	uint64_t p50 = s ? probe_hist_percentile(&s->lat, 50) : 0;
	uint64_t p99 = s ? probe_hist_percentile(&s->lat, 99) : 0;

	fprintf(f, "  %-14s mesh session, %u rounds of %u bytes (WRITE, then "
		"READ back), interval %u.%03u s, seed 0x%016" PRIx64 "\n",
		"operations", opts->rounds, opts->size,
		opts->interval_ms / 1000, opts->interval_ms % 1000, opts->seed);
	phases_line(f, r);
	if (s && s->done) {
		fprintf(f, "  %-14s %u of %u: %u verified, %u mismatched\n",
			"rounds", s->done, s->want, s->done - s->mismatch,
			s->mismatch);
		fprintf(f, "  %-14s min %s, p50 %s, p99 %s, max %s (WRITE + "
			"READ)\n", "round time",
			fmt_ns(a, sizeof(a), s->lat.min),
			fmt_ns(b, sizeof(b), p50), fmt_ns(c, sizeof(c), p99),
			fmt_ns(d, sizeof(d), s->lat.max));
	}
	fprintf(f, "  %-14s ", "verification");
	if (o->fail != RDMA_CLIENT_FAIL_NONE)
		fprintf(f, "FAILED (exit %d, %s): %s\n", probe_run_exit(r),
			rdma_client_fsm_fail_str(probe_run_worst(r)),
			o->error);
	else if (s && s->mismatch)
		fprintf(f, "FAILED (exit %d, %s): %u of %u rounds read back "
			"other data; the first, round %u, at offset %u\n",
			probe_run_exit(r),
			rdma_client_fsm_fail_str(probe_run_worst(r)),
			s->mismatch, s->done, s->first_bad,
			s->first_bad_offset);
	else
		fprintf(f, "OK: %u rounds, every byte read back as written\n",
			s ? s->done : 0);
}

void probe_report(FILE *f, const char *target, const struct probe_run *r)
{
	const struct probe_opts *opts = r->opts;
	const struct probe_outcome *o0 = &r->outcomes[0];
	const char *opname;
	uint64_t rb = 0, wb = 0, pb = 0;
	char dur[64] = "";
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
			run_failed(r));
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
	fmt_count(dur, sizeof(dur), opts);
	fprintf(f, "  %-14s %s, %u bytes%s%s, depth %u, %s%s, seed "
		"0x%016" PRIx64 "%s\n", "operations", opname, opts->size, dur,
		opts->rping ? " pings" : " each", opts->rping ? 1 : opts->depth,
		opts->verify ? "verified" : "not verified",
		opts->busy_poll ? ", busy-poll" : "", opts->seed,
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
		kind_lines(f, r, K_PING);
	} else {
		kind_lines(f, r, K_READ);
		kind_lines(f, r, K_WRITE);
	}
	verification_line(f, r);
}

/* ---- JSON ------------------------------------------------------------- */

static const char *op_name(uint8_t ops)
{
	if (ops == (PROTO_OP_READ | PROTO_OP_WRITE))
		return "both";
	return ops == PROTO_OP_READ ? "read" : "write";
}

static void json_fail(FILE *f, enum rdma_client_fail fail)
{
	char key[16];

	fail_key(fail, key, sizeof(key));
	fprintf(f, "\"exit_code\": %d, \"class\": ",
		rdma_client_fsm_fail_code(fail));
	json_str(f, key);
}

static void json_kind(FILE *f, const struct probe_run *r, enum kind k,
		      bool *first)
{
	struct probe_figures x;

	if (!run_figures(r, k, &x))
		return;
	fprintf(f, "%s\"%s\": {\"ops\": %" PRIu64 ", \"bytes\": %" PRIu64
		", \"span_ns\": %" PRIu64 ", \"mb_per_s\": %.3f, "
		"\"gb_per_s\": %.6f, \"ops_per_s\": %.1f, \"latency_ns\": "
		"{\"min\": %" PRIu64 ", \"p50\": %" PRIu64 ", \"p90\": %"
		PRIu64 ", \"p99\": %" PRIu64 ", \"p99_9\": %" PRIu64
		", \"max\": %" PRIu64 ", \"avg\": %" PRIu64 "}, "
		"\"slow_ops\": %" PRIu64 ", \"slow_limit_ns\": %" PRIu64 "}",
		*first ? "" : ", ", kind_names[k], x.ops, x.bytes, x.span_ns,
		x.mbps, x.gbps, x.rate, x.min, x.p50, x.p90, x.p99, x.p999,
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
	json_fail(f, outcome_fail(o));
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
	for (p = 0; p < PH__COUNT; p++) {
		d = phase_ns(o->times, (enum phase)p);
		if (d < 0)
			continue;
		fprintf(f, "%s\"%s\": %" PRId64, first ? "" : ", ",
			phase_keys[p], d);
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
	for (p = 0; p < PH__COUNT; p++) {
		if (!phase_stats(r, (enum phase)p, &p50, &max))
			continue;
		fprintf(f, "%s\"%s\": {\"p50\": %" PRId64 ", \"max\": %" PRId64
			"}", first ? "" : ", ", phase_keys[p], p50, max);
		first = false;
	}
	fputs("}, \"ops\": {", f);
	first = true;
	json_kind(f, r, K_READ, &first);
	json_kind(f, r, K_WRITE, &first);
	json_kind(f, r, K_PING, &first);
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
		r->opts->size, r->n, run_failed(r));
	fprintf(f, "\"exit_code\": %d, \"ok\": %s, ", probe_run_exit(r),
		probe_run_exit(r) ? "false" : "true");
	json_run_figures(f, r);
	fputc('}', f);
}

/* "protocol": ..., "options": {...},\n "latency_note": ... */
static void json_options(FILE *f, const struct probe_opts *opts)
{
	char rounds[64] = "";

	if (opts->rounds)
		snprintf(rounds, sizeof(rounds), "\"rounds\": %u, "
			 "\"interval_ms\": %u, ", opts->rounds,
			 opts->interval_ms);
	fprintf(f, "\"protocol\": \"%s\", \"options\": {\"op\": \"%s\", "
		"\"size\": %u, \"all_sizes\": %s, \"iters\": %u, "
		"\"duration_ms\": %u, \"parallel\": %u, \"depth\": %u, "
		"\"verify\": %s, \"busy_poll\": %s, \"timeout_ms\": %u, "
		"%s\"seed\": \"0x%016" PRIx64 "\"},\n \"latency_note\": \"%s\"",
		opts->rping ? "rping" : "native",
		opts->rping ? "both" : op_name(opts->ops), opts->size,
		opts->all_sizes ? "true" : "false", opts->iters,
		opts->duration_ms, opts->parallel,
		opts->rping ? 1 : opts->depth, opts->verify ? "true" : "false",
		opts->busy_poll ? "true" : "false", opts->timeout_ms,
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

/* ---- --targets: the matrix and its JSON ------------------------------- */

/* The outcome that gave a row its class: the first with the worst. */
static const struct probe_outcome *row_worst(const struct probe_mesh_row *row)
{
	enum rdma_client_fail f = probe_run_worst(&row->run);
	unsigned int i;

	for (i = 0; i < row->run.n; i++)
		if (row->run.outcomes[i].fail == f)
			return &row->run.outcomes[i];
	return NULL;
}

/*
 * "ok", or the class and a short reason: "rejected: busy", "connect:
 * refused", "addr: unknown host", "timeout in descriptor", "mismatch";
 * with -P, "(K of N failed)" after it.
 */
static void row_result(const struct probe_mesh_row *row, char *buf,
		       size_t len)
{
	enum rdma_client_fail f = probe_mesh_row_fail(row);
	const struct probe_outcome *o = NULL;
	const char *reason = row->reason;
	unsigned int failed = run_failed(&row->run);
	char key[16];
	int n;

	if (f == RDMA_CLIENT_FAIL_NONE) {
		snprintf(buf, len, "ok");
		return;
	}
	fail_key(f, key, sizeof(key));
	if (row->fail == RDMA_CLIENT_FAIL_NONE) {
		o = row_worst(row);
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
static void row_cells(const struct probe_mesh_row *row, enum kind k,
		      char *p50, char *p99, char *mbps, size_t len)
{
	struct probe_figures x;

	snprintf(p50, len, "-");
	snprintf(p99, len, "-");
	snprintf(mbps, len, "-");
	if (!run_figures(&row->run, k, &x))
		return;
	fmt_ns(p50, len, x.p50);
	fmt_ns(p99, len, x.p99);
	snprintf(mbps, len, "%.*f", x.mbps < 1 ? 4 : 2, x.mbps);
}

static unsigned int mesh_failed(const struct probe_mesh *m)
{
	unsigned int i, n = 0;

	for (i = 0; i < m->n; i++)
		n += probe_mesh_row_fail(&m->rows[i]) != RDMA_CLIENT_FAIL_NONE;
	return n;
}

void probe_report_mesh(FILE *f, const struct probe_mesh *m)
{
	const struct probe_opts *opts = m->opts;
	const enum kind kinds_native[] = { K_READ, K_WRITE };
	const enum kind kinds_rping[] = { K_PING };
	const enum kind *kinds = opts->rping ? kinds_rping : kinds_native;
	unsigned int nk = opts->rping ? 1 : 2, failed = mesh_failed(m);
	char tgt[TARGET_HOST_MAX + PROBE_ADDR_LEN + 16], res[96];
	char p50[2][32], p99[2][32], mbps[2][32], head[2][3][24], dur[64];
	int wt = (int)strlen("TARGET"), wr = (int)strlen("RESULT"), w;
	bool quiet = opts->verbosity < 0;
	unsigned int i, k;

	if (quiet && !failed)
		return;
	for (i = 0; i < m->n; i++) {
		row_target(&m->rows[i], tgt, sizeof(tgt));
		row_result(&m->rows[i], res, sizeof(res));
		w = (int)strlen(tgt);
		wt = w > wt ? w : wt;
		w = (int)strlen(res);
		wr = w > wr ? w : wr;
	}
	fmt_count(dur, sizeof(dur), opts);
	fprintf(f, "rdma-probe: %u targets, %s, %u bytes%s%s, depth %u, "
		"%u connection%s each%s%s, seed 0x%016" PRIx64 "\n", m->n,
		opts->rping ? "rping protocol" : "rdmad protocol",
		opts->size, dur, opts->rping ? " pings" : " each",
		opts->rping ? 1 : opts->depth, opts->parallel,
		opts->parallel > 1 ? "s" : "", opts->source ? ", from " : "",
		opts->source ? opts->source : "", opts->seed);
	for (k = 0; k < nk; k++) {
		snprintf(head[k][0], sizeof(head[k][0]), "%s p50",
			 kind_labels[kinds[k]]);
		snprintf(head[k][1], sizeof(head[k][1]), "%s p99",
			 kind_labels[kinds[k]]);
		snprintf(head[k][2], sizeof(head[k][2]), "%s MB/s",
			 kind_labels[kinds[k]]);
	}
	fprintf(f, "%-*s  %-*s", wt, "TARGET", wr, "RESULT");
	for (k = 0; k < nk; k++)
		fprintf(f, "  %10s  %10s", head[k][0], head[k][1]);
	for (k = 0; k < nk; k++)
		fprintf(f, "  %10s", head[k][2]);
	fputc('\n', f);
	for (i = 0; i < m->n; i++) {
		if (quiet && probe_mesh_row_fail(&m->rows[i]) ==
			     RDMA_CLIENT_FAIL_NONE)
			continue;
		row_target(&m->rows[i], tgt, sizeof(tgt));
		row_result(&m->rows[i], res, sizeof(res));
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

static void json_mesh_row(FILE *f, const struct probe_mesh_row *row)
{
	enum rdma_client_fail fail = probe_mesh_row_fail(row);
	const struct probe_outcome *o = row_worst(row);
	char res[96];

	fputs("{\"target\": ", f);
	json_str(f, row->target->text);
	fprintf(f, ", \"line\": %u, \"host\": ", row->target->line);
	json_str(f, row->target->host);
	fputs(", \"address\": ", f);
	json_str(f, row->fail == RDMA_CLIENT_FAIL_ADDR ? NULL : row->dest.host);
	fprintf(f, ", \"port\": %u, \"result\": ", row->target->port);
	row_result(row, res, sizeof(res));
	json_str(f, res);
	fputs(", ", f);
	json_fail(f, fail);
	fputs(", \"error\": ", f);
	json_str(f, row->fail != RDMA_CLIENT_FAIL_NONE ? row->error :
		 fail != RDMA_CLIENT_FAIL_NONE && o ? o->error : NULL);
	fprintf(f, ", \"ok\": %s, \"connections\": %u, \"failed\": %u, ",
		fail == RDMA_CLIENT_FAIL_NONE ? "true" : "false", row->run.n,
		run_failed(&row->run));
	json_run_figures(f, &row->run);
	fputc('}', f);
}

void probe_report_mesh_json(FILE *f, const struct probe_mesh *m,
			    int exit_code)
{
	const struct probe_opts *opts = m->opts;
	unsigned int i, failed = mesh_failed(m);

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
