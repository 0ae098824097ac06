/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_report.h - what the renderings of a run share (probe_report.c):
 * the kinds of operation, one kind's figures over a run, the phases of a
 * connection, the failure class as a key, durations in words; and the
 * --targets row's result in words (probe_report_matrix.c), which the
 * JSON shows too.  Inside the probe only.
 */
#ifndef RDMAD_PROBE_REPORT_H
#define RDMAD_PROBE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe_run.h"

struct probe_opts;

enum probe_report_kind {
	PROBE_K_READ, PROBE_K_WRITE, PROBE_K_PING, PROBE_K__COUNT
};
/* "read"..., for JSON keys; "READ"..., for the text. */
extern const char *const probe_report_kind_names[PROBE_K__COUNT];
extern const char *const probe_report_kind_labels[PROBE_K__COUNT];

/* One kind's figures (latency from post to completion; bandwidth over
 * the span from the first post to the last completion). */
struct probe_figures {
	uint64_t ops, bytes, span_ns;
	uint64_t min, p50, p90, p99, p999, max, avg;
	uint64_t slow, slow_limit;	/* probe_hist_slow_limit() */
	double mbps, gbps, rate;
};


/* Figures of one kind over a run's connections; false if none ran. */
bool probe_report_run_figures(const struct probe_run *r,
			      enum probe_report_kind k,
			      struct probe_figures *x);

/* Phases: name, and the moments that bound it. */
enum probe_report_phase {
	PROBE_PH_ADDR, PROBE_PH_ROUTE, PROBE_PH_CONNECT, PROBE_PH_DESC,
	PROBE_PH_OPS, PROBE_PH_DONE, PROBE_PH_DISC, PROBE_PH_TOTAL,
	PROBE_PH__COUNT
};
/* "resolve addr"..., for the text; "resolve_addr"..., for JSON keys. */
extern const char *const probe_report_phase_labels[PROBE_PH__COUNT];
extern const char *const probe_report_phase_keys[PROBE_PH__COUNT];
/* Duration of a phase in ns, or -1 when the connection did not go
 * through it. */
int64_t probe_report_phase_ns(const struct rdma_client_times *t,
			      enum probe_report_phase p);
/* p50 and max of a phase over the connections that went through it;
 * their number. */
unsigned int probe_report_phase_stats(const struct probe_run *r,
				      enum probe_report_phase p,
				      int64_t *p50, int64_t *max);

/* The failure class in lower case: "none", "addr", "rejected"... */
void probe_report_fail_key(enum rdma_client_fail fail, char *key,
			   size_t len);
/* NS as "12.3 us", "4.567 ms" or "12.345 s"; BUF. */
const char *probe_report_fmt_ns(char *buf, size_t len, uint64_t ns);
/* " x N", or " for S s (at most N)" with -D. */
void probe_report_fmt_count(char *buf, size_t len,
			    const struct probe_opts *opts);

#endif /* RDMAD_PROBE_REPORT_H */
