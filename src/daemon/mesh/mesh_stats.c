/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_stats.c - what the mesh agent saw of each path (see mesh_stats.h).
 *
 * The window keeps the last MESH_WINDOW rounds, every one (a failed
 * round is a 0, a good one its latency, at least 1 ns, or
 * MESH_W_PRESSURED under local pressure), so p50, p99 and loss describe
 * the last two minutes at one round a second, whatever happened before:
 * a good round pushes an old failure out even when its latency is not
 * kept (were it left out, a loaded host's failures at start would stay
 * for ever).  Each size slot has a smaller window of its own (the
 * heatmap's cells), latency in microseconds: a failed connect has no
 * size and is not in any of them.
 */
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_stats.h"
#include "core/stats.h"

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
			      uint64_t rtt_ns, bool latency)
{
	uint64_t us = rtt_ns / US;

	if (r == MESH_RES_MISMATCH)
		us = MESH_SW_MISMATCH;
	else if (r != MESH_RES_OK)
		us = 0;
	else if (!latency)
		us = MESH_SW_PRESSURED;
	else if (!us)
		us = 1;
	else if (us >= MESH_SW_PRESSURED)
		us = MESH_SW_PRESSURED - 1;
	w->us[w->pos] = (uint32_t)us;
	w->pos = (uint8_t)((w->pos + 1) % MESH_SIZE_WINDOW);
	if (w->n < MESH_SIZE_WINDOW)
		w->n++;
}

/* A round counted; with LATENCY an ok one's latency kept too. */
static void mesh_stats_count(struct mesh_path_stats *s, unsigned int size_slot,
			     uint32_t size, enum mesh_result r, uint64_t rtt_ns,
			     uint32_t bad_offset, uint64_t now, bool latency)
{
	bool ok = r == MESH_RES_OK;

	if ((unsigned int)r >= MESH_RES_N)
		r = MESH_RES_LOCAL_ERROR;
	s->rounds[r]++;
	if (size_slot < CONFIG_MESH_SIZES_MAX) {
		s->size_rounds[size_slot]++;
		if (!ok)
			s->size_failed[size_slot]++;
		mesh_stats_sw_add(&s->sw[size_slot], r, rtt_ns, latency);
	}
	if (ok && latency)
		mesh_hist_add(&s->rtt, rtt_ns);
	if (s->rail) {
		s->rail->rounds[r]++;
		if (ok && latency)
			mesh_hist_add(&s->rail->rtt, rtt_ns);
	}
	if (!latency)
		s->pressured++;
	if (!ok)
		s->window[s->w_pos] = 0;
	else if (!latency)
		s->window[s->w_pos] = MESH_W_PRESSURED;
	else
		s->window[s->w_pos] = !rtt_ns ? 1 :
			rtt_ns < MESH_W_PRESSURED ? rtt_ns : MESH_W_PRESSURED - 1;
	s->w_pos = (s->w_pos + 1) % MESH_WINDOW;
	if (s->w_n < MESH_WINDOW)
		s->w_n++;
	s->last = r;
	s->have_last = true;
	s->last_at = now;
	s->last_size = size;
	s->last_bad_offset = r == MESH_RES_MISMATCH ? bad_offset : 0;
}

void mesh_stats_round(struct mesh_path_stats *s, unsigned int size_slot,
		      uint32_t size, enum mesh_result r, uint64_t rtt_ns,
		      uint32_t bad_offset, uint64_t now)
{
	mesh_stats_count(s, size_slot, size, r, rtt_ns, bad_offset, now, true);
}

void mesh_stats_round_pressured(struct mesh_path_stats *s,
				unsigned int size_slot, uint32_t size,
				enum mesh_result r, uint64_t rtt_ns,
				uint32_t bad_offset, uint64_t now)
{
	mesh_stats_count(s, size_slot, size, r, rtt_ns, bad_offset, now,
			 false);
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

bool mesh_stats_bw_stale(const struct mesh_path_stats *s, uint64_t now,
			 uint64_t max_age_ns)
{
	return !s->bw_at || !max_age_ns || now > s->bw_at + max_age_ns;
}

uint64_t mesh_view_bw(const struct mesh_view_path *p)
{
	return p->st->bw_at && !p->bw_stale ? p->st->bw_bytes_per_s : 0;
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

enum mesh_compact_result mesh_compact_result_of(enum mesh_result r)
{
	return r == MESH_RES_OK ? MESH_CRES_OK :
	       r == MESH_RES_MISMATCH ? MESH_CRES_MISMATCH : MESH_CRES_FAILED;
}

const char *mesh_compact_result_name(enum mesh_compact_result r)
{
	static const char *const names[MESH_CRES_N] = {
		[MESH_CRES_OK] = "ok", [MESH_CRES_MISMATCH] = "mismatch",
		[MESH_CRES_FAILED] = "failed",
	};

	return (unsigned int)r < MESH_CRES_N ? names[r] : "failed";
}

/*
 * Put the K-th smallest of V[LO..HI] at V[K], the smaller ones before
 * it, the others after (Hoare's selection; a path's window is 128 values
 * at most, so the middle element as pivot is enough).  Two ranks of one
 * window cost about two passes, where sorting it cost seven.
 */
static void mesh_stats_select(uint64_t *v, unsigned int lo, unsigned int hi,
			      unsigned int k)
{
	while (lo < hi) {
		uint64_t pivot = v[lo + (hi - lo) / 2], t;
		unsigned int i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i > j)
				break;
			t = v[i];
			v[i] = v[j];
			v[j] = t;
			i++;
			if (!j--)
				break;
		}
		if (k <= j && j != (unsigned int)-1)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/* Where the nearest-rank P-th percentile is among N sorted values. */
static unsigned int mesh_stats_rank(unsigned int n, unsigned int p)
{
	unsigned int k = (p * n + 99) / 100;	/* ceil(p / 100 * n) */

	return k ? k - 1 : 0;
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

/* W's p50 and p99 of the N good values GOOD (reordered in place). */
static void mesh_stats_good_ranks(struct mesh_window_sum *w, uint64_t *good,
				  unsigned int n)
{
	if (!n)
		return;
	/* p99 first: p50 is then among the values before it */
	mesh_stats_select(good, 0, n - 1, mesh_stats_rank(n, 99));
	w->p99_ns = good[mesh_stats_rank(n, 99)];
	mesh_stats_select(good, 0, mesh_stats_rank(n, 99),
			  mesh_stats_rank(n, 50));
	w->p50_ns = good[mesh_stats_rank(n, 50)];
}

/* S's window added to W, its good rounds appended to GOOD[*N]. */
static void mesh_stats_window_add(const struct mesh_path_stats *s,
				  struct mesh_window_sum *w, uint64_t *good,
				  unsigned int *n)
{
	unsigned int i;

	w->n += s->w_n;
	for (i = 0; i < s->w_n; i++) {
		if (!s->window[i])
			w->failed++;
		else if (s->window[i] == MESH_W_PRESSURED)
			w->pressured++;
		else
			good[(*n)++] = s->window[i];
	}
}

void mesh_stats_window(const struct mesh_path_stats *s,
		       struct mesh_window_sum *w)
{
	uint64_t good[MESH_WINDOW];
	unsigned int n = 0;

	memset(w, 0, sizeof(*w));
	mesh_stats_window_add(s, w, good, &n);
	mesh_stats_good_ranks(w, good, n);
}

void mesh_stats_peer_window(const struct mesh_view_peer *p,
			    struct mesh_window_sum *w)
{
	uint64_t good[CONFIG_MESH_PATHS_MAX * MESH_WINDOW];
	unsigned int i, n = 0;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < p->n_paths && i < CONFIG_MESH_PATHS_MAX; i++)
		mesh_stats_window_add(p->path[i].st, w, good, &n);
	mesh_stats_good_ranks(w, good, n);
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

/* Insertion sort of the N values of V: one path's size window (32). */
static void mesh_stats_sort_small(uint32_t *v, unsigned int n)
{
	unsigned int i, j;

	for (i = 1; i < n; i++) {
		uint32_t x = v[i];

		for (j = i; j && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * Merge the sorted runs of V (run i is V[RUN[i]] .. V[RUN[i + 1] - 1],
 * N runs) into one, pairwise; TMP as big as V.  The sorted values are
 * in the buffer returned (V or TMP); RUN is overwritten.
 */
static uint32_t *mesh_stats_merge(uint32_t *v, uint32_t *tmp,
				  unsigned int *run, unsigned int n)
{
	while (n > 1) {
		unsigned int i, o = 0;
		uint32_t *t;

		for (i = 0; i < n; i += 2) {
			unsigned int a = run[i], m = run[i + 1];
			unsigned int b = i + 1 < n ? run[i + 2] : m, x = a;
			unsigned int y = m, k = a;

			while (x < m && y < b)
				tmp[k++] = v[x] <= v[y] ? v[x++] : v[y++];
			while (x < m)
				tmp[k++] = v[x++];
			while (y < b)
				tmp[k++] = v[y++];
			run[o++] = a;
		}
		run[o] = run[n];
		n = o;
		t = v;
		v = tmp;
		tmp = t;
	}
	return v;
}

/* W's p50 and p99 (1 us resolution) of the N sorted good values V. */
static void mesh_stats_ranks(struct mesh_window_sum *w, const uint32_t *v,
			     unsigned int n)
{
	if (!n)
		return;
	w->p50_ns = (uint64_t)v[mesh_stats_rank(n, 50)] * US;
	w->p99_ns = (uint64_t)v[mesh_stats_rank(n, 99)] * US;
}

/*
 * One pass over P's size windows: each path's window sorted on its own
 * (32 values), a size's paths merged, then the sizes merged for "all",
 * so nothing is sorted twice and no sum is computed per cell.
 */
void mesh_stats_peer_sums(const struct mesh_view_peer *p,
			  struct mesh_peer_sums *out)
{
	enum { PER_SIZE = CONFIG_MESH_PATHS_MAX * MESH_SIZE_WINDOW };
	uint32_t v[CONFIG_MESH_SIZES_MAX * PER_SIZE];
	uint32_t tmp[CONFIG_MESH_SIZES_MAX * PER_SIZE];
	unsigned int run[CONFIG_MESH_PATHS_MAX * CONFIG_MESH_SIZES_MAX + 1];
	unsigned int size_run[CONFIG_MESH_SIZES_MAX + 1];
	unsigned int i, j, k, n = 0, n_paths = p->n_paths;
	const uint32_t *sorted;

	memset(out, 0, sizeof(*out));
	if (n_paths > CONFIG_MESH_PATHS_MAX)
		n_paths = CONFIG_MESH_PATHS_MAX;
	for (k = 0; k < CONFIG_MESH_SIZES_MAX; k++) {
		struct mesh_window_sum *w = &out->size[k];
		unsigned int start = n;

		size_run[k] = start;
		for (i = 0; i < n_paths; i++) {
			const struct mesh_size_window *sw = &p->path[i].st->sw[k];
			unsigned int first = n;

			run[i] = n;
			w->n += sw->n;
			for (j = 0; j < sw->n; j++) {
				uint32_t us = sw->us[j];

				if (us == MESH_SW_MISMATCH)
					w->mismatched++;
				if (us == MESH_SW_PRESSURED)
					w->pressured++;
				else if (!us || us == MESH_SW_MISMATCH)
					w->failed++;
				else
					v[n++] = us;
			}
			mesh_stats_sort_small(v + first, n - first);
		}
		run[n_paths] = n;
		/* the size's runs in place: merged into V[start .. n) */
		sorted = mesh_stats_merge(v, tmp, run, n_paths);
		if (sorted != v)
			memcpy(v + start, tmp + start,
			       (n - start) * sizeof(*v));
		mesh_stats_ranks(w, v + start, n - start);
		out->all.n += w->n;
		out->all.failed += w->failed;
		out->all.mismatched += w->mismatched;
		out->all.pressured += w->pressured;
	}
	size_run[CONFIG_MESH_SIZES_MAX] = n;
	sorted = mesh_stats_merge(v, tmp, size_run, CONFIG_MESH_SIZES_MAX);
	mesh_stats_ranks(&out->all, sorted, n);
}

void mesh_stats_size_sum(const struct mesh_view_peer *p, unsigned int slot,
			 struct mesh_window_sum *w)
{
	struct mesh_peer_sums s;

	mesh_stats_peer_sums(p, &s);
	*w = slot < CONFIG_MESH_SIZES_MAX ? s.size[slot] : s.all;
}

static int mesh_view_cmp(const void *a, const void *b)
{
	const struct mesh_view_peer *x = a, *y = b;
	int r = strcmp(x->tor ? x->tor : "", y->tor ? y->tor : "");

	if (r)
		return r;
	if (x->rail != y->rail)
		return x->rail < y->rail ? -1 : 1;
	return strcmp(x->name, y->name);
}

void mesh_view_order(struct mesh_view_peer *v, unsigned int n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), mesh_view_cmp);
}
