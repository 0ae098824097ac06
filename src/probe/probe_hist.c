/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_hist.c - latency histogram (see probe_hist.h).
 *
 * Bucket index of v:
 *   v < SUB:   v itself (exact)
 *   else:      s = msb(v) - SUB_BITS, index = (s + 1) * SUB + (v >> s) - SUB
 * so bucket b >= SUB covers [((b % SUB) + SUB) << s, ... + 2^s) with
 * s = b / SUB - 1.
 */
#include "probe_hist.h"

#include <math.h>
#include <string.h>

void probe_hist_init(struct probe_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

uint32_t probe_hist_bucket(uint64_t v)
{
	unsigned int msb, s;

	if (v < PROBE_HIST_SUB)
		return (uint32_t)v;
	msb = 63u - (unsigned int)__builtin_clzll(v);
	if (msb >= PROBE_HIST_MAX_BITS)
		return PROBE_HIST_BUCKETS - 1;
	s = msb - PROBE_HIST_SUB_BITS;
	return (s + 1) * PROBE_HIST_SUB + (uint32_t)(v >> s) - PROBE_HIST_SUB;
}

uint64_t probe_hist_bucket_low(uint32_t b)
{
	unsigned int s;

	if (b < PROBE_HIST_SUB)
		return b;
	s = b / PROBE_HIST_SUB - 1;
	return ((uint64_t)(b % PROBE_HIST_SUB) + PROBE_HIST_SUB) << s;
}

uint64_t probe_hist_bucket_width(uint32_t b)
{
	if (b < PROBE_HIST_SUB)
		return 1;
	return 1ull << (b / PROBE_HIST_SUB - 1);
}

void probe_hist_add(struct probe_hist *h, uint64_t v)
{
	h->bucket[probe_hist_bucket(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void probe_hist_merge(struct probe_hist *dst, const struct probe_hist *src)
{
	uint32_t i;

	if (!src->count)
		return;
	for (i = 0; i < PROBE_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t probe_hist_percentile(const struct probe_hist *h, double p)
{
	uint64_t rank, seen = 0, v;
	uint32_t i;

	if (!h->count)
		return 0;
	if (!(p > 0))
		return h->min;
	if (p >= 100)
		return h->max;
	/* The epsilon keeps 99.9 % of 1000 at rank 999, not 1000. */
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count - 1e-6);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < PROBE_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == PROBE_HIST_BUCKETS)
		return h->max;
	v = probe_hist_bucket_low(i) + (probe_hist_bucket_width(i) - 1) / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

uint64_t probe_hist_mean(const struct probe_hist *h)
{
	return h->count ? h->sum / h->count : 0;
}

uint64_t probe_hist_count_above(const struct probe_hist *h, uint64_t v)
{
	uint64_t n = 0;
	uint32_t b;

	if (!h->count || h->max <= v)
		return 0;
	for (b = probe_hist_bucket(v) + 1; b < PROBE_HIST_BUCKETS; b++)
		n += h->bucket[b];
	return n;
}

uint64_t probe_hist_slow_limit(const struct probe_hist *h)
{
	uint64_t lim;

	if (!h->count)
		return 0;
	lim = h->min > UINT64_MAX / PROBE_SLOW_FACTOR ? UINT64_MAX :
	      h->min * PROBE_SLOW_FACTOR;
	return lim > PROBE_SLOW_FLOOR_NS ? lim : PROBE_SLOW_FLOOR_NS;
}
