/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh-render-bench.c - what the renderings of the mesh view cost at the
 * largest mesh rdmad takes: PEERS peers (4,096) x 8 paths x 8 sizes,
 * every size window full.  Each rendering (GET /mesh, /peers?format=
 * matrix, /peers?format=text, /peers) runs RUNS times into memory as
 * http.c does; printed as TAP comments: median wall and CPU time, the
 * worst wall time, bytes.  Not a timed assertion: a rendering fails the
 * test only by failing (the machine may be busy).  In the unit suite
 * with RUNS 1; by hand:
 *
 *   mesh-render-bench [PEERS [RUNS]]      (default 4096 1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mesh_page.h"
#include "mesh_stats.h"

static const uint32_t sizes[CONFIG_MESH_SIZES_MAX] = {
	64, 512, 1100, 4096, 16384, 65536, 262144, 1048576,
};

static uint64_t now_ns(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

enum what { W_PAGE, W_MATRIX, W_TEXT, W_JSON, W_N };

static int render(FILE *f, const struct mesh_view *m, enum what w)
{
	static const struct mesh_page_opts o = { "bench", 1764042160, 10, 0 };

	static const enum mesh_format fmt[W_N] = {
		MESH_FORMAT_PAGE, MESH_FORMAT_MATRIX, MESH_FORMAT_TEXT,
		MESH_FORMAT_JSON,
	};

	return mesh_page_render(f, m, fmt[w], &o);
}

/* RUNS renderings of W: wall median and worst, CPU median, bytes. */
static int bench(const struct mesh_view *m, enum what w, unsigned int runs,
		 uint64_t *med, uint64_t *max, uint64_t *cpu, size_t *len)
{
	uint64_t *t = calloc(runs, sizeof(*t)), *c = calloc(runs, sizeof(*c));
	unsigned int i;
	int ret = 0;

	if (!t || !c)
		exit(1);
	for (i = 0; i < runs && !ret; i++) {
		uint64_t t0 = now_ns(CLOCK_MONOTONIC);
		uint64_t c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
		char *mem = NULL;
		FILE *f = open_memstream(&mem, len);

		if (!f || render(f, m, w) || fclose(f))
			ret = -1;
		c[i] = now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
		t[i] = now_ns(CLOCK_MONOTONIC) - t0;
		free(mem);
	}
	qsort(t, runs, sizeof(*t), cmp_u64);
	qsort(c, runs, sizeof(*c), cmp_u64);
	*med = t[runs / 2];
	*max = t[runs - 1];
	*cpu = c[runs / 2];
	free(t);
	free(c);
	return ret;
}

int main(int argc, char **argv)
{
	static const char *const names[W_N] = {
		"GET /mesh", "/peers?format=matrix", "/peers?format=text",
		"/peers (JSON)",
	};
	unsigned int n_peers = argc > 1 ? (unsigned int)atoi(argv[1]) : 4096;
	unsigned int runs = argc > 2 ? (unsigned int)atoi(argv[2]) : 1;
	unsigned int paths = CONFIG_MESH_PATHS_MAX;
	struct mesh_view_peer *peers;
	struct mesh_path_stats *st;
	struct mesh_view mv = { 0 };
	unsigned int i, j, k, w;

	if (!n_peers || !runs) {
		fprintf(stderr, "usage: mesh-render-bench [PEERS [RUNS]]\n");
		return 64;
	}
	peers = calloc(n_peers, sizeof(*peers));
	st = calloc((size_t)n_peers * paths, sizeof(*st));
	if (!peers || !st)
		return 1;
	for (i = 0; i < n_peers; i++) {
		char *name = malloc(32);

		if (!name)
			return 1;
		snprintf(name, 32, "10.%u.%u.%u:7471", i >> 16 & 255,
			 i >> 8 & 255, i & 255);
		peers[i].name = name;
		peers[i].n_paths = paths;
		for (j = 0; j < paths; j++) {
			struct mesh_path_stats *p = &st[i * paths + j];

			mesh_stats_init(p);
			/* every size window full, a few failures */
			for (k = 0; k < CONFIG_MESH_SIZES_MAX *
			     MESH_SIZE_WINDOW; k++)
				mesh_stats_round(p, k % CONFIG_MESH_SIZES_MAX,
						 sizes[k % CONFIG_MESH_SIZES_MAX],
						 k % 97 ? MESH_RES_OK :
						 MESH_RES_TIMEOUT,
						 (uint64_t)((k + i) * 7919 % 3000) *
						 1000 + 1000, 0, k);
			mesh_stats_connected(p);
			mesh_stats_bw(p, 250000000, 200000000, 300);
			peers[i].path[j] = (struct mesh_view_path){
				MESH_ST_WAIT, MESH_REACH_UP, p, "" };
		}
	}
	mv.on = true;
	mv.targets = "/etc/rdmad/peers";
	mv.interval_ms = 1000;
	mv.sizes = sizes;
	mv.n_sizes = CONFIG_MESH_SIZES_MAX;
	mv.peers = peers;
	mv.n_peers = n_peers;

	printf("1..%u\n# %u peers x %u paths x %u sizes, %u rendering(s) "
	       "each\n", W_N, n_peers, paths, CONFIG_MESH_SIZES_MAX, runs);
	for (w = 0; w < W_N; w++) {
		uint64_t med, max, cpu;
		size_t len = 0;
		int ret = bench(&mv, w, runs, &med, &max, &cpu, &len);

		printf("# %-22s %8.1f ms (CPU %8.1f ms, worst %8.1f ms), "
		       "%9zu bytes\n", names[w], med / 1e6, cpu / 1e6,
		       max / 1e6, len);
		printf("%sok %u - %s renders\n", ret ? "not " : "", w + 1,
		       names[w]);
	}
	for (i = 0; i < n_peers; i++)
		free((void *)peers[i].name);
	free(peers);
	free(st);
	return 0;
}
