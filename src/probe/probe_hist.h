/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_hist.h - latency histogram with bounded relative error.
 *
 * Pure: no clock, no I/O.  Values (nanoseconds) below 2^PROBE_HIST_SUB_BITS
 * get a bucket each; above, every power-of-two range is split into
 * 2^PROBE_HIST_SUB_BITS equal buckets, so a bucket is never wider than
 * 1/128 of the values it holds.  A percentile is reported as the middle of
 * its bucket (error at most half a bucket, < 0.4 %), clamped to the exact
 * minimum and maximum, which are kept apart, as are the count and the sum.
 * Values from 2^PROBE_HIST_MAX_BITS ns (about 18 minutes) up share the
 * last bucket.
 */
#ifndef RDMAD_PROBE_HIST_H
#define RDMAD_PROBE_HIST_H

#include <stdint.h>

#define PROBE_HIST_SUB_BITS	7
#define PROBE_HIST_SUB		(1u << PROBE_HIST_SUB_BITS)
#define PROBE_HIST_MAX_BITS	41
#define PROBE_HIST_BUCKETS	\
	((PROBE_HIST_MAX_BITS - PROBE_HIST_SUB_BITS + 1) * PROBE_HIST_SUB)

struct probe_hist {
	uint64_t count;
	uint64_t sum;
	uint64_t min;		/* UINT64_MAX when empty */
	uint64_t max;
	uint64_t bucket[PROBE_HIST_BUCKETS];
};

void probe_hist_init(struct probe_hist *h);
void probe_hist_add(struct probe_hist *h, uint64_t v);
/* dst += src. */
void probe_hist_merge(struct probe_hist *dst, const struct probe_hist *src);

/*
 * Nearest-rank percentile, p in [0, 100]: the smallest recorded value v
 * such that at least p % of the values are <= v, to within its bucket.
 * 0 when empty; p >= 100 gives the exact maximum, p <= 0 the minimum.
 */
uint64_t probe_hist_percentile(const struct probe_hist *h, double p);
uint64_t probe_hist_mean(const struct probe_hist *h);

/*
 * Values in buckets wholly above V's bucket: those above V, but for the
 * ones sharing its bucket (within 1/128 of V).
 */
uint64_t probe_hist_count_above(const struct probe_hist *h, uint64_t v);

/*
 * Slow operations: far slower than the path's own best.  An operation the
 * transport had to retransmit after a timeout waits at least the local
 * ACK timeout (0.537 s for rdma-probe's QP, see src/rdma/rdma_qp.h), while
 * jitter on a healthy path, even a loaded one, stays within a few times
 * the fastest and well below that.  The limit is PROBE_SLOW_FACTOR x the
 * fastest, and at least PROBE_SLOW_FLOOR_NS (about half the ACK timeout);
 * 0 when empty.
 */
#define PROBE_SLOW_FACTOR	10u
#define PROBE_SLOW_FLOOR_NS	250000000ull	/* 250 ms */
uint64_t probe_hist_slow_limit(const struct probe_hist *h);

/* Bucket of a value, and the range [low, low + width) a bucket covers. */
uint32_t probe_hist_bucket(uint64_t v);
uint64_t probe_hist_bucket_low(uint32_t b);
uint64_t probe_hist_bucket_width(uint32_t b);

#endif /* RDMAD_PROBE_HIST_H */
