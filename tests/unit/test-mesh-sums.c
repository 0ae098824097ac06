/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-mesh-sums.c - mesh_stats_peer_sums, the read side of mesh_stats.c
 * the renderers use once per peer: against a plain sort of the same
 * values, for random windows on 1..8 paths x 8 sizes (partly filled,
 * failures, mismatches and rounds under local pressure among them), each
 * size and "all".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_stats.h"
#include "tap.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The sum of the size slots LO..HI-1 of P, the slow way. */
static void slow_sum(const struct mesh_view_peer *p, unsigned int lo,
		     unsigned int hi, struct mesh_window_sum *w)
{
	static uint32_t v[CONFIG_MESH_PATHS_MAX * CONFIG_MESH_SIZES_MAX *
			  MESH_SIZE_WINDOW];
	unsigned int i, k, j, n = 0;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < p->n_paths; i++)
		for (k = lo; k < hi; k++) {
			const struct mesh_size_window *sw = &p->path[i].st->sw[k];

			w->n += sw->n;
			for (j = 0; j < sw->n; j++) {
				uint32_t us = sw->us[j];

				w->mismatched += us == MESH_SW_MISMATCH;
				if (us == MESH_SW_PRESSURED)
					w->pressured++;
				else if (!us || us == MESH_SW_MISMATCH)
					w->failed++;
				else
					v[n++] = us;
			}
		}
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_u32);
	w->p50_ns = (uint64_t)v[(50 * n + 99) / 100 - 1] * 1000;
	w->p99_ns = (uint64_t)v[(99 * n + 99) / 100 - 1] * 1000;
}

static int same(const struct mesh_window_sum *a,
		const struct mesh_window_sum *b)
{
	return a->n == b->n && a->failed == b->failed &&
	       a->mismatched == b->mismatched &&
	       a->pressured == b->pressured && a->p50_ns == b->p50_ns &&
	       a->p99_ns == b->p99_ns;
}

int main(void)
{
	static struct mesh_path_stats st[CONFIG_MESH_PATHS_MAX];
	struct mesh_view_peer p;
	struct mesh_peer_sums s;
	struct mesh_window_sum w;
	unsigned int t, i, k, r, bad = 0, cells = 0;

	srand(20);
	for (t = 0; t < 200; t++) {
		memset(&p, 0, sizeof(p));
		p.name = "x:1";
		p.n_paths = 1 + t % CONFIG_MESH_PATHS_MAX;
		for (i = 0; i < p.n_paths; i++) {
			mesh_stats_init(&st[i]);
			/* 0..2 windows' worth of rounds over the sizes */
			for (r = (unsigned int)rand() % (2 * MESH_SIZE_WINDOW *
			     CONFIG_MESH_SIZES_MAX); r; r--) {
				int x = rand() % 20;

				k = (unsigned int)rand() % CONFIG_MESH_SIZES_MAX;
				(x == 2 ? mesh_stats_round_pressured :
				 mesh_stats_round)(&st[i], k, 64, x == 0 ?
						 MESH_RES_TIMEOUT : x == 1 ?
						 MESH_RES_MISMATCH : MESH_RES_OK,
						 (uint64_t)(rand() % 5000000),
						 0, r);
			}
			p.path[i] = (struct mesh_view_path){ .state = MESH_ST_WAIT,
				.reach = MESH_REACH_UP, .st = &st[i],
				.error = "", .bw_stale = false };
		}
		mesh_stats_peer_sums(&p, &s);
		for (k = 0; k <= CONFIG_MESH_SIZES_MAX; k++, cells++) {
			if (k < CONFIG_MESH_SIZES_MAX)
				slow_sum(&p, k, k + 1, &w);
			else
				slow_sum(&p, 0, CONFIG_MESH_SIZES_MAX, &w);
			if (!same(k < CONFIG_MESH_SIZES_MAX ? &s.size[k] :
				  &s.all, &w) && !bad++)
				tap_diag("peer %u (%u paths), slot %u differs", t,
					 p.n_paths, k);
		}
	}
	tap_ok(!bad, "200 random peers, 1..8 paths x 8 sizes: %u of %u sums "
	       "as a plain sort gives them", cells - bad, cells);
	mesh_stats_size_sum(&p, 3, &w);
	tap_ok(same(&w, &s.size[3]), "mesh_stats_size_sum: one slot of them");
	mesh_stats_size_sum(&p, CONFIG_MESH_SIZES_MAX, &w);
	tap_ok(same(&w, &s.all), "mesh_stats_size_sum: all of them");
	return tap_done();
}
