/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_stats.c - what the mesh agent saw of each path (see mesh_stats.h).
 *
 * The window keeps the latency of the last MESH_WINDOW rounds (a failed
 * round is a 0, a good one at least 1 ns), so p50, p99 and loss describe
 * the last two minutes at one round a second, whatever happened before.
 * Each size slot has a smaller window of its own (the heatmap's cells),
 * latency in microseconds: a failed connect has no size and is not in
 * any of them.
 */
#include <stdlib.h>
#include <string.h>

#include "mesh_stats.h"
#include "stats.h"

#define US	1000ull
#define MS	1000000ull
#define S	1000000000ull

/* 25us .. 1s: a verified round on one switch hop up to a retransmit. */
const uint64_t mesh_hist_bounds_ns[MESH_HIST_BUCKETS] = {
	25 * US, 50 * US, 100 * US, 250 * US, 500 * US, 1 * MS,
	2500 * US, 5 * MS, 10 * MS, 25 * MS, 100 * MS, 1 * S,
};

void mesh_stats_init(struct mesh_path_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->last = MESH_RES_OK;
}

void mesh_hist_add(struct mesh_hist *h, uint64_t ns)
{
	h->bucket[stats_bucket(mesh_hist_bounds_ns, MESH_HIST_BUCKETS, ns)]++;
	h->count++;
	h->sum_ns += ns;
}

static void mesh_stats_sw_add(struct mesh_size_window *w, enum mesh_result r,
			      uint64_t rtt_ns)
{
	uint64_t us = rtt_ns / US;

	if (r == MESH_RES_MISMATCH)
		us = MESH_SW_MISMATCH;
	else if (r != MESH_RES_OK)
		us = 0;
	else if (!us)
		us = 1;
	else if (us >= MESH_SW_MISMATCH)
		us = MESH_SW_MISMATCH - 1;
	w->us[w->pos] = (uint32_t)us;
	w->pos = (uint8_t)((w->pos + 1) % MESH_SIZE_WINDOW);
	if (w->n < MESH_SIZE_WINDOW)
		w->n++;
}

void mesh_stats_round(struct mesh_path_stats *s, unsigned int size_slot,
		      uint32_t size, enum mesh_result r, uint64_t rtt_ns,
		      uint32_t bad_offset, uint64_t now)
{
	bool ok = r == MESH_RES_OK;

	if ((unsigned int)r >= MESH_RES_N)
		r = MESH_RES_LOCAL_ERROR;
	s->rounds[r]++;
	if (size_slot < CONFIG_MESH_SIZES_MAX) {
		s->size_rounds[size_slot]++;
		if (!ok)
			s->size_failed[size_slot]++;
		mesh_stats_sw_add(&s->sw[size_slot], r, rtt_ns);
	}
	if (ok)
		mesh_hist_add(&s->rtt, rtt_ns);
	s->window[s->w_pos] = ok ? (rtt_ns ? rtt_ns : 1) : 0;
	s->w_pos = (s->w_pos + 1) % MESH_WINDOW;
	if (s->w_n < MESH_WINDOW)
		s->w_n++;
	s->last = r;
	s->have_last = true;
	s->last_at = now;
	s->last_size = size;
	s->last_bad_offset = r == MESH_RES_MISMATCH ? bad_offset : 0;
}

void mesh_stats_bw(struct mesh_path_stats *s, uint64_t bytes, uint64_t ns,
		   uint64_t now)
{
	if (!ns)
		return;
	/* double: bytes * 1e9 overflows 64 bits past 18 GB */
	s->bw_bytes_per_s = (uint64_t)((double)bytes * 1e9 / (double)ns);
	s->bw_at = now;
	s->bw_samples++;
}

void mesh_stats_sample(struct mesh_path_stats *s, enum mesh_result r,
		       uint64_t bytes, uint64_t ns, uint64_t now)
{
	if ((unsigned int)r >= MESH_RES_N)
		r = MESH_RES_LOCAL_ERROR;
	s->last = r;
	s->have_last = true;
	s->last_at = now;
	s->last_size = 0;
	s->last_bad_offset = 0;
	if (r == MESH_RES_OK)
		mesh_stats_bw(s, bytes, ns, now);
}

void mesh_stats_bw_age(struct mesh_path_stats *s, uint64_t now,
		       uint64_t max_age_ns)
{
	if (!s->bw_at || (max_age_ns && now <= s->bw_at + max_age_ns))
		return;
	s->bw_at = 0;
	s->bw_bytes_per_s = 0;
}

void mesh_stats_connected(struct mesh_path_stats *s)
{
	s->connects++;
}

void mesh_stats_down(struct mesh_path_stats *s)
{
	s->downs++;
}

uint64_t mesh_stats_failed(const struct mesh_path_stats *s)
{
	uint64_t n = 0;
	unsigned int r;

	for (r = 0; r < MESH_RES_N; r++)
		if (r != MESH_RES_OK)
			n += s->rounds[r];
	return n;
}

/* Insertion sort: at most MESH_WINDOW values. */
static int mesh_stats_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Up to a peer's paths x sizes x MESH_SIZE_WINDOW values: qsort. */
static void mesh_stats_sort(uint64_t *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), mesh_stats_cmp);
}

/* The nearest-rank P-th percentile of the N sorted values V (N > 0). */
static uint64_t mesh_stats_rank(const uint64_t *v, unsigned int n,
				unsigned int p)
{
	unsigned int k = (p * n + 99) / 100;	/* ceil(p / 100 * n) */

	return v[k ? k - 1 : 0];
}

void mesh_stats_sizes_reset(struct mesh_path_stats *s)
{
	memset(s->size_rounds, 0, sizeof(s->size_rounds));
	memset(s->size_failed, 0, sizeof(s->size_failed));
	memset(s->sw, 0, sizeof(s->sw));
}

void mesh_stats_sizes_remap(struct mesh_path_stats *s, const uint32_t *old,
			    unsigned int n_old, const uint32_t *next,
			    unsigned int n_new)
{
	struct mesh_path_stats was = *s;
	unsigned int i, j;

	mesh_stats_sizes_reset(s);
	for (j = 0; j < n_new && j < CONFIG_MESH_SIZES_MAX; j++)
		for (i = 0; i < n_old && i < CONFIG_MESH_SIZES_MAX; i++) {
			if (old[i] != next[j])
				continue;
			s->size_rounds[j] = was.size_rounds[i];
			s->size_failed[j] = was.size_failed[i];
			s->sw[j] = was.sw[i];
			break;
		}
}

void mesh_stats_window(const struct mesh_path_stats *s,
		       struct mesh_window_sum *w)
{
	uint64_t good[MESH_WINDOW];
	unsigned int i, n = 0;

	memset(w, 0, sizeof(*w));
	w->n = s->w_n;
	for (i = 0; i < s->w_n; i++) {
		if (s->window[i])
			good[n++] = s->window[i];
		else
			w->failed++;
	}
	if (!n)
		return;
	mesh_stats_sort(good, n);
	w->p50_ns = mesh_stats_rank(good, n, 50);
	w->p99_ns = mesh_stats_rank(good, n, 99);
}

unsigned int mesh_stats_n_figures(const struct mesh_view_peer *p)
{
	unsigned int n = p->n_figures > p->n_paths ? p->n_figures :
			 p->n_paths;

	return n < CONFIG_MESH_PATHS_MAX ? n : CONFIG_MESH_PATHS_MAX;
}

unsigned int mesh_stats_paths_up(const struct mesh_view_peer *p)
{
	unsigned int i, n = 0;

	for (i = 0; i < p->n_paths; i++)
		n += p->path[i].reach == MESH_REACH_UP;
	return n;
}

void mesh_stats_size_sum(const struct mesh_view_peer *p, unsigned int slot,
			 struct mesh_window_sum *w)
{
	uint64_t good[CONFIG_MESH_PATHS_MAX * CONFIG_MESH_SIZES_MAX *
		      MESH_SIZE_WINDOW];
	unsigned int i, k, j, n = 0, lo = slot, hi = slot + 1;

	memset(w, 0, sizeof(*w));
	if (slot >= CONFIG_MESH_SIZES_MAX) {
		lo = 0;
		hi = CONFIG_MESH_SIZES_MAX;
	}
	for (i = 0; i < p->n_paths && i < CONFIG_MESH_PATHS_MAX; i++)
		for (k = lo; k < hi; k++) {
			const struct mesh_size_window *sw = &p->path[i].st->sw[k];

			w->n += sw->n;
			for (j = 0; j < sw->n; j++) {
				if (sw->us[j] == MESH_SW_MISMATCH)
					w->mismatched++;
				if (!sw->us[j] || sw->us[j] == MESH_SW_MISMATCH)
					w->failed++;
				else
					good[n++] = (uint64_t)sw->us[j] * US;
			}
		}
	if (!n)
		return;
	mesh_stats_sort(good, n);
	w->p50_ns = mesh_stats_rank(good, n, 50);
	w->p99_ns = mesh_stats_rank(good, n, 99);
}
