/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mw_render.h - the metrics writer: families, series and samples of the
 * Prometheus and OpenMetrics text formats (the endpoint's encoding of
 * metrics), for whoever writes families: metrics_render.c (the daemon's
 * document) and the wings' sections (mesh/view/metrics_mesh_render.c).
 */
#ifndef RDMAD_HTTP_MW_RENDER_H
#define RDMAD_HTTP_MW_RENDER_H

#include <stdint.h>
#include <stdio.h>

#include "core/stats.h"

enum metrics_format {
	METRICS_PROMETHEUS,	/* text/plain; version=0.0.4 */
	METRICS_OPENMETRICS,	/* application/openmetrics-text; 1.0.0 */
};

struct mw {
	FILE *f;
	enum metrics_format fmt;
	/* the le values of the counters' histograms (stats.h), made once
	 * a render; a section with other bounds makes its own */
	char stats_le[STATS_HIST_BUCKETS][24];
};

enum family_type { FT_GAUGE, FT_COUNTER, FT_HISTOGRAM, FT_INFO };

/* k1 only: "name{k1=\"v\"}" written by mw_series() needs k2 NULL. */
#define ONE(k, v)	k, v, NULL, NULL

void mw_family(struct mw *w, const char *name, enum family_type t,
	       const char *unit, const char *help);
void mw_series(struct mw *w, const char *name, const char *suffix,
	       const char *k1, const char *v1, const char *k2,
	       const char *v2);
void mw_series_n(struct mw *w, const char *name, const char *suffix,
		 const char *const *k, const char *const *v, unsigned int n);
void mw_info(struct mw *w, const char *name,
	     const char *const *k, const char *const *v,
	     unsigned int n);
void mw_value_u64(FILE *f, uint64_t val);
void mw_u64(struct mw *w, const char *name, const char *suffix,
	    const char *k1, const char *v1, const char *k2,
	    const char *v2, uint64_t val);
void mw_fmt_seconds(char *buf, size_t len, uint64_t ns);
void mw_seconds_line(struct mw *w, uint64_t ns);
void mw_histogram_of(struct mw *w, const char *name, const char *k,
		     const char *v, char (*le)[24], unsigned int n,
		     const uint64_t *bucket, uint64_t count, uint64_t sum_ns);
void mw_histogram(struct mw *w, const char *name, const char *k,
		  const char *v, const struct stats_hist *h);
void mw_value_double(FILE *f, double val);
void mw_plain_u64(struct mw *w, const char *name, const char *suffix,
		  uint64_t val);

#endif
