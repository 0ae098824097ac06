/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_report.c - what every rendering of a run reads (see
 * probe_report.h): one kind's figures merged over a run's connections,
 * the phases of a connection and their p50/max, the failure class as a
 * key, durations in words.  The renderings: probe_report_text.c (the
 * human report), probe_report_json.c (--json), probe_report_matrix.c
 * (--targets); the exit class: probe_exit_rules.c.  Pure: part of
 * probe_lib, unit-tested by tests/unit/test-probe-report.c.
 */
#include <stdlib.h>
#include <string.h>

#include "probe_report.h"
#include "probe_opstat.h"
#include "probe_opts.h"

const char *const probe_report_kind_names[PROBE_K__COUNT] = {
	"read", "write", "ping"
};
const char *const probe_report_kind_labels[PROBE_K__COUNT] = {
	"READ", "WRITE", "ping"
};
const char *const probe_report_phase_labels[PROBE_PH__COUNT] = {
	"resolve addr", "resolve route", "connect", "descriptor", "ops",
	"done", "disconnect", "total",
};
const char *const probe_report_phase_keys[PROBE_PH__COUNT] = {
	"resolve_addr", "resolve_route", "connect", "descriptor", "ops",
	"done", "disconnect", "total",
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

static const struct probe_opstat *outcome_kind(const struct probe_outcome *o,
					       enum probe_report_kind k)
{
	if (k == PROBE_K_READ)
		return o->reads;
	return k == PROBE_K_WRITE ? o->writes : o->pings;
}

/* Heap-allocated merge of one kind over every connection of a run. */
static struct probe_opstat *run_merge(const struct probe_run *r,
				      enum probe_report_kind k)
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

bool probe_report_run_figures(const struct probe_run *r,
			      enum probe_report_kind k,
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

int64_t probe_report_phase_ns(const struct rdma_client_times *t,
			      enum probe_report_phase p)
{
	uint64_t a = 0, b = 0;

	switch (p) {
	case PROBE_PH_ADDR:	 a = t->start;	      b = t->addr;	  break;
	case PROBE_PH_ROUTE:	 a = t->addr;	      b = t->route;	  break;
	case PROBE_PH_CONNECT: a = t->route;	      b = t->established; break;
	case PROBE_PH_DESC:
		/* DESC may come before ESTABLISHED: then it took no time
		 * after the connection was up. */
		a = t->established;
		b = t->desc && t->desc < a ? a : t->desc;
		break;
	case PROBE_PH_OPS:	 a = t->ops_start;    b = t->ops_end;	  break;
	case PROBE_PH_DONE:	 a = t->done_sent;    b = t->result;	  break;
	case PROBE_PH_DISC:	 a = t->disconnect;   b = t->closed;	  break;
	case PROBE_PH_TOTAL:	 a = t->start;	      b = t->closed;	  break;
	case PROBE_PH__COUNT:	 break;
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

unsigned int probe_report_phase_stats(const struct probe_run *r,
				      enum probe_report_phase p,
				      int64_t *p50, int64_t *max)
{
	int64_t *v = malloc(r->n * sizeof(*v)), d;
	unsigned int i, n = 0;

	*p50 = *max = -1;
	if (!v)
		return 0;
	for (i = 0; i < r->n; i++) {
		d = probe_report_phase_ns(r->outcomes[i].times, p);
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

void probe_report_fail_key(enum rdma_client_fail fail, char *key,
			   size_t len)
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

const char *probe_report_fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000000ull)
		snprintf(buf, len, "%.1f us", (double)ns / 1e3);
	else if (ns < 10000000000ull)
		snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3f s", (double)ns / 1e9);
	return buf;
}

void probe_report_fmt_count(char *buf, size_t len,
			    const struct probe_opts *opts)
{
	if (opts->duration_ms)
		snprintf(buf, len, " for %u.%03u s (at most %u)",
			 opts->duration_ms / 1000, opts->duration_ms % 1000,
			 opts->iters);
	else
		snprintf(buf, len, " x %u", opts->iters);
}
