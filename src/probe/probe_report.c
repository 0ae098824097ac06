/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_report.c - per-operation records, latency figures, the human
 * report, and the probe's stderr logging.
 */
#include "probe.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

uint64_t probe_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- per-operation records ------------------------------------------- */

int probe_oprec_init(struct probe_oprec *r, uint32_t cap)
{
	memset(r, 0, sizeof(*r));
	if (!cap)
		return 0;
	r->posted = calloc(cap, sizeof(*r->posted));
	r->done = calloc(cap, sizeof(*r->done));
	if (!r->posted || !r->done) {
		probe_oprec_free(r);
		return -ENOMEM;
	}
	r->cap = cap;
	return 0;
}

void probe_oprec_free(struct probe_oprec *r)
{
	free(r->posted);
	free(r->done);
	memset(r, 0, sizeof(*r));
}

void probe_oprec_post(struct probe_oprec *r, uint64_t now)
{
	if (r->n < r->cap)
		r->posted[r->n] = now;
}

void probe_oprec_done(struct probe_oprec *r, uint64_t now, uint32_t bytes)
{
	if (r->n >= r->cap)
		return;
	r->done[r->n] = now;
	r->n++;
	r->bytes += bytes;
}

void probe_latency(const struct probe_oprec *r, struct probe_latency *l)
{
	uint64_t sum = 0, d;
	uint32_t i;

	memset(l, 0, sizeof(*l));
	if (!r || !r->n)
		return;
	l->n = r->n;
	l->min_ns = UINT64_MAX;
	for (i = 0; i < r->n; i++) {
		d = r->done[i] - r->posted[i];
		sum += d;
		if (d < l->min_ns)
			l->min_ns = d;
		if (d > l->max_ns)
			l->max_ns = d;
	}
	l->avg_ns = sum / r->n;
	l->span_ns = r->done[r->n - 1] - r->posted[0];
	if (l->span_ns)
		l->mbps = (double)r->bytes * 1e3 / (double)l->span_ns;
}

/* ---- report ---------------------------------------------------------- */

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

/* Print "name D" for the phase [a, b] when both ends were reached. */
static void phase(FILE *f, bool *first, const char *name, uint64_t a,
		  uint64_t b)
{
	char t[32];

	if (!a || !b || b < a)
		return;
	fprintf(f, "%s%s %s", *first ? "" : ", ", name,
		fmt_ns(t, sizeof(t), b - a));
	*first = false;
}

static void latency_line(FILE *f, const char *label,
			 const struct probe_oprec *r)
{
	struct probe_latency l;
	char a[32], b[32], c[32];

	probe_latency(r, &l);
	if (!l.n)
		return;
	fprintf(f, "  %-14s min %s, avg %s, max %s (%u ops); "
		"%.*f MB/s (%.3f Gb/s)\n", label,
		fmt_ns(a, sizeof(a), l.min_ns), fmt_ns(b, sizeof(b), l.avg_ns),
		fmt_ns(c, sizeof(c), l.max_ns), l.n, l.mbps < 1 ? 4 : 2,
		l.mbps, l.mbps * 8 / 1e3);
}

void probe_report(FILE *f, const struct probe_opts *opts, const char *target,
		  const struct probe_outcome *o)
{
	const struct probe_times *t = o->times;
	const char *opname;
	uint64_t rb, wb;
	bool first;

	if (opts->rping)
		fprintf(f, "rdma-probe %s: rping protocol\n", target);
	else if (o->have_welcome)
		fprintf(f, "rdma-probe %s: rdmad protocol v%u, server "
			"connection %" PRIu64 " (limits: size %u, "
			"iterations %u)\n",
			target, PROTO_VERSION, o->conn_id, o->max_size,
			o->max_iters);
	else
		fprintf(f, "rdma-probe %s: rdmad protocol v%u\n", target,
			PROTO_VERSION);

	if (opts->rping)
		opname = "rping (server READ, then WRITE)";
	else if (opts->ops == (PROTO_OP_READ | PROTO_OP_WRITE))
		opname = "READ then WRITE";
	else
		opname = opts->ops == PROTO_OP_READ ? "READ" : "WRITE";
	fprintf(f, "  %-14s %s, %u bytes x %u%s, seed 0x%016" PRIx64 "\n",
		"operations", opname, opts->size, opts->iters,
		opts->rping ? " pings" : " each", opts->seed);

	if (opts->rping) {
		rb = o->pings ? o->pings->bytes : 0;
		fprintf(f, "  %-14s %" PRIu64 " (%" PRIu64 " read by server, "
			"%" PRIu64 " written back)\n", "bytes moved", 2 * rb,
			rb, rb);
	} else {
		rb = o->reads ? o->reads->bytes : 0;
		wb = o->writes ? o->writes->bytes : 0;
		fprintf(f, "  %-14s %" PRIu64 " (read %" PRIu64 ", write %"
			PRIu64 ")\n", "bytes moved", rb + wb, rb, wb);
	}

	fprintf(f, "  %-14s ", "phases");
	first = true;
	phase(f, &first, "resolve addr", t->start, t->addr);
	phase(f, &first, "resolve route", t->addr, t->route);
	phase(f, &first, "connect", t->route, t->established);
	if (!opts->rping && t->desc)
		phase(f, &first, "descriptor", t->established,
		      t->desc > t->established ? t->desc : t->established);
	phase(f, &first, "ops", t->ops_start, t->ops_end);
	phase(f, &first, "done", t->done_sent, t->result);
	phase(f, &first, "disconnect", t->disconnect, t->closed);
	phase(f, &first, "total", t->start, t->closed);
	fprintf(f, "%s\n", first ? "none completed" : "");

	if (opts->rping) {
		latency_line(f, "ping latency", o->pings);
	} else {
		latency_line(f, "READ latency", o->reads);
		latency_line(f, "WRITE latency", o->writes);
	}

	fprintf(f, "  %-14s ", "verification");
	if (o->fail == PROBE_FAIL_NONE) {
		if (opts->rping) {
			fprintf(f, "OK: %u pings, sink matched source\n",
				o->pings_verified);
		} else {
			first = true;
			fputs("OK: ", f);
			if (opts->ops & PROTO_OP_READ) {
				fprintf(f, "%u READs matched the server's "
					"pattern", o->reads_verified);
				first = false;
			}
			if (opts->ops & PROTO_OP_WRITE)
				fprintf(f, "%sserver verified the last of %u "
					"WRITEs (crc32c 0x%08x)",
					first ? "" : "; ", o->writes_done,
					o->write_crc);
			fputc('\n', f);
		}
	} else {
		fprintf(f, "FAILED (exit %d, %s): %s\n",
			probe_fail_exit(o->fail), probe_fail_str(o->fail),
			o->error);
	}
}
