/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mw_render.c - the metrics writer (see mw.h).
 */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "http/mw_render.h"

static const char *const type_names[] = {
	[FT_GAUGE] = "gauge", [FT_COUNTER] = "counter",
	[FT_HISTOGRAM] = "histogram", [FT_INFO] = "info",
};

/*
 * Metadata of family NAME (for counters without "_total", for info
 * without "_info").  UNIT may be NULL.
 */
void mw_family(struct mw *w, const char *name, enum family_type t,
	       const char *unit, const char *help)
{
	if (w->fmt == METRICS_OPENMETRICS) {
		fprintf(w->f, "# TYPE %s %s\n", name, type_names[t]);
		if (unit)
			fprintf(w->f, "# UNIT %s %s\n", name, unit);
		fprintf(w->f, "# HELP %s %s\n", name, help);
		return;
	}
	fprintf(w->f, "# HELP %s%s %s\n", name, t == FT_COUNTER ? "_total" :
		t == FT_INFO ? "_info" : "", help);
	fprintf(w->f, "# TYPE %s%s %s\n", name, t == FT_COUNTER ? "_total" :
		t == FT_INFO ? "_info" : "",
		t == FT_INFO ? "gauge" : type_names[t]);
}

/*
 * A scrape with 1,024 mesh peers is some 35,000 lines, written from the
 * daemon's one loop: samples are put together with fputs and a digit
 * loop, not fprintf (a third of the time, measured with scrape-bench).
 */

/* A label value, escaped as both formats want (\\, \", \n). */
static void mw_label_value(FILE *f, const char *v)
{
	if (!strpbrk(v, "\\\"\n")) {
		fputs(v, f);
		return;
	}
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

/* name{k1="v1",k2="v2"} for up to two labels (K2 NULL: one, K1: none). */
void mw_series(struct mw *w, const char *name, const char *suffix,
	       const char *k1, const char *v1, const char *k2,
	       const char *v2)
{
	fputs(name, w->f);
	fputs(suffix, w->f);
	if (!k1)
		return;
	fputc('{', w->f);
	fputs(k1, w->f);
	fputs("=\"", w->f);
	mw_label_value(w->f, v1);
	if (k2) {
		fputs("\",", w->f);
		fputs(k2, w->f);
		fputs("=\"", w->f);
		mw_label_value(w->f, v2);
	}
	fputs("\"}", w->f);
}

/* name SUFFIX{K[0]="V[0]",...} for N labels (empty values left out: an
 * empty label is no label to Prometheus), without the value. */
void mw_series_n(struct mw *w, const char *name, const char *suffix,
		 const char *const *k, const char *const *v, unsigned int n)
{
	unsigned int i, out = 0;

	fputs(name, w->f);
	fputs(suffix, w->f);
	fputc('{', w->f);
	for (i = 0; i < n; i++) {
		if (!v[i] || !v[i][0])
			continue;
		if (out++)
			fputc(',', w->f);
		fputs(k[i], w->f);
		fputs("=\"", w->f);
		mw_label_value(w->f, v[i]);
		fputc('"', w->f);
	}
	fputc('}', w->f);
}

/* An info series: name_info{K[0]="V[0]",...} 1. */
void mw_info(struct mw *w, const char *name,
	     const char *const *k, const char *const *v,
	     unsigned int n)
{
	mw_series_n(w, name, "_info", k, v, n);
	fputs(" 1\n", w->f);
}

/* " VAL\n" after a series. */
void mw_value_u64(FILE *f, uint64_t val)
{
	char buf[24], *p = buf + sizeof(buf);

	*--p = '\n';
	do
		*--p = (char)('0' + val % 10);
	while ((val /= 10));
	*--p = ' ';
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

void mw_u64(struct mw *w, const char *name, const char *suffix,
	    const char *k1, const char *v1, const char *k2,
	    const char *v2, uint64_t val)
{
	mw_series(w, name, suffix, k1, v1, k2, v2);
	mw_value_u64(w->f, val);
}

/* NS nanoseconds as seconds, always with a fraction: "0.00001", "1.0". */
void mw_fmt_seconds(char *buf, size_t len, uint64_t ns)
{
	size_t n;

	snprintf(buf, len, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u,
		 ns % 1000000000u);
	n = strlen(buf);
	while (n > 2 && buf[n - 1] == '0' && buf[n - 2] != '.')
		buf[--n] = '\0';
}

/* " SECONDS\n" of NS nanoseconds, after a series. */
void mw_seconds_line(struct mw *w, uint64_t ns)
{
	char buf[32];

	mw_fmt_seconds(buf, sizeof(buf), ns);
	fprintf(w->f, " %s\n", buf);
}

/* Buckets of N bounds (per bucket, +Inf last) with their LE, cumulated. */
void mw_histogram_of(struct mw *w, const char *name, const char *k,
		     const char *v, char (*le)[24], unsigned int n,
		     const uint64_t *bucket, uint64_t count, uint64_t sum_ns)
{
	uint64_t cum = 0;
	unsigned int i;

	for (i = 0; i <= n; i++) {
		const char *b = i < n ? le[i] : "+Inf";

		cum += bucket[i];
		if (k)
			mw_series(w, name, "_bucket", k, v, "le", b);
		else			/* a histogram without labels */
			mw_series(w, name, "_bucket", "le", b, NULL, NULL);
		mw_value_u64(w->f, cum);
	}
	mw_u64(w, name, "_count", k, v, NULL, NULL, count);
	mw_series(w, name, "_sum", k, v, NULL, NULL);
	mw_seconds_line(w, sum_ns);
}

void mw_histogram(struct mw *w, const char *name, const char *k,
		  const char *v, const struct stats_hist *h)
{
	mw_histogram_of(w, name, k, v, w->stats_le, STATS_HIST_BUCKETS,
			h->bucket, h->count, h->sum_ns);
}


/* " VAL\n" of a double, as Prometheus reads it. */
void mw_value_double(FILE *f, double val)
{
	fprintf(f, " %.17g\n", val);
}

/* A sample without labels. */
void mw_plain_u64(struct mw *w, const char *name, const char *suffix,
		  uint64_t val)
{
	mw_u64(w, name, suffix, NULL, NULL, NULL, NULL, val);
}
