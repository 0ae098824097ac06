/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scrape-bench.c - what a scrape of rdmad costs with many mesh peers:
 * the renderers of GET /metrics (both formats), GET /peers (JSON, text,
 * matrix) and GET /mesh run over a view of PEERS peers (PATHS paths
 * each, SIZES sizes, every series and size window filled), into memory
 * as the routes do.  Prints time per render (median wall and CPU time,
 * worst wall time of RUNS), bytes, and the sample lines of /metrics;
 * for /metrics also its size gzip-compressed as http_reply.c sends it
 * (GZIP_RENDER_LEVEL) and at zlib's default level 6, with the median CPU
 * time of the compression.
 * A benchmark: it fails only if a rendering fails, never on time (the
 * unit suite runs it once at the largest mesh, 4096 8 1 8):
 *
 *   scrape-bench [PEERS [PATHS [RUNS [SIZES [compact]]]]]   (default 1024 1 50 4)
 *
 * compact: /metrics as [mesh] peer_series = compact renders it, the
 * peers spread over 8 rails (each path's rounds counted in its rail).
 *
 *   scrape-bench --text HOST [ROUNDS]
 *
 * prints the compact /metrics (Prometheus text) of host HOST of the
 * fleet profile (docs/fleet.md, "Prometheus sizing"): ToRs of 32 hosts, 8
 * rails, 36 peers a rail (the 31 others of its ToR and one host of each
 * of the next 5 ToRs), with the inventory's places, after ROUNDS rounds a
 * peer (default 300): what tests/bench/prom-cost serves a Prometheus.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "http/gzip_render.h"
#include "mesh/view/mesh_render.h"
#include "mesh/mesh_stats.h"
#include "metrics_render.h"
#include "core/stats.h"

static const uint32_t sizes_4[] = { 64, 1100, 4096, 65536 };
static const uint32_t sizes_8[CONFIG_MESH_SIZES_MAX] = {
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

enum what { W_PROM, W_OM, W_PEERS_TEXT, W_PEERS_JSON, W_MATRIX, W_PAGE,
	    W_N };

static int render(FILE *f, const struct stats_view *v, enum what w)
{
	static const struct mesh_render_opts o = { "bench", 1764042160, 10, 0 };
	static const enum mesh_format mf[W_N] = {
		[W_PEERS_TEXT] = MESH_FORMAT_TEXT,
		[W_PEERS_JSON] = MESH_FORMAT_JSON,
		[W_MATRIX] = MESH_FORMAT_MATRIX, [W_PAGE] = MESH_FORMAT_PAGE,
	};

	if (w <= W_OM)
		return metrics_render(f, v, w == W_PROM ? METRICS_PROMETHEUS :
				      METRICS_OPENMETRICS);
	return mesh_render(f, v->mesh, mf[w], &o);
}

/*
 * RUNS renders of W: wall-clock median and worst in *MED, *MAX, CPU time
 * median in *CPU (the machine may be busy with other work); the last text.
 */
static char *bench(const struct stats_view *v, enum what w, unsigned int runs,
		   uint64_t *med, uint64_t *max, uint64_t *cpu, size_t *len)
{
	uint64_t *t = calloc(runs, sizeof(*t)), *c = calloc(runs, sizeof(*c));
	char *mem = NULL;
	unsigned int i;

	if (!t || !c)
		exit(1);
	for (i = 0; i < runs; i++) {
		uint64_t t0 = now_ns(CLOCK_MONOTONIC);
		uint64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		int ret;
		FILE *f;

		free(mem);
		mem = NULL;
		f = open_memstream(&mem, len);
		ret = f ? render(f, v, w) : -1;
		if (!f || fclose(f) || ret) {
			fprintf(stderr, "rendering %d failed\n", w);
			exit(1);
		}
		c[i] = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
		t[i] = now_ns(CLOCK_MONOTONIC) - t0;
	}
	qsort(t, runs, sizeof(*t), cmp_u64);
	qsort(c, runs, sizeof(*c), cmp_u64);
	*med = t[runs / 2];
	*max = t[runs - 1];
	*cpu = c[runs / 2];
	free(t);
	free(c);
	return mem;
}

/* RUNS compressions of BUF at LEVEL: the size, the median CPU time. */
static void bench_gzip(const char *buf, size_t len, int level,
		       unsigned int runs)
{
	uint64_t *c = calloc(runs, sizeof(*c));
	size_t zlen = 0;
	unsigned int i;
	void *z;

	if (!c)
		exit(1);
	for (i = 0; i < runs; i++) {
		uint64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);

		if (gzip_render(buf, len, level, &z, &zlen)) {
			fprintf(stderr, "gzip failed\n");
			exit(1);
		}
		c[i] = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
		free(z);
	}
	qsort(c, runs, sizeof(*c), cmp_u64);
	printf("  gzip level %d%-9s        (CPU %6.2f ms),               "
	       "%8zu bytes, %.1f%% of %zu\n", level,
	       level == GZIP_RENDER_LEVEL ? " (served)" : "",
	       c[runs / 2] / 1e6, zlen, 100.0 * (double)zlen / (double)len,
	       len);
	free(c);
}

static unsigned int samples(const char *buf)
{
	unsigned int n = 0;
	const char *p;

	for (p = buf; *p; p = strchr(p, '\n') + 1) {
		if (*p != '#')
			n++;
		if (!strchr(p, '\n'))
			break;
	}
	return n;
}

/* MV: a mesh probing N peers of TARGETS once a second, over 8 rails. */
static void view_set(struct mesh_view *mv, const char *targets,
		     const uint32_t *sizes, unsigned int n_sizes,
		     const struct mesh_view_peer *peers, unsigned int n,
		     bool compact, const struct mesh_rail_stats *rails)
{
	mv->on = true;
	mv->targets = targets;
	mv->interval_ms = 1000;
	mv->sizes = sizes;
	mv->n_sizes = n_sizes;
	mv->peers = peers;
	mv->n_peers = n;
	mv->compact = compact;
	mv->rails = rails;
	mv->n_rails = 8;
}

#define FLEET_HOSTS_A_TOR 32u
#define FLEET_RAILS	8u
#define FLEET_CROSS_TOR	5u

/* One peer of the fleet profile's host HOST: rail R, the Jth of it. */
static void fleet_peer(struct mesh_view_peer *p, unsigned int host,
		       unsigned int r, unsigned int j)
{
	unsigned int tor = host / FLEET_HOSTS_A_TOR, k = host % FLEET_HOSTS_A_TOR;
	unsigned int ptor, pk;
	char *buf = malloc(96);

	if (!buf)
		exit(1);
	if (j < FLEET_HOSTS_A_TOR - 1) {
		ptor = tor;
		pk = j < k ? j : j + 1;
	} else {
		ptor = tor + 1 + (j - (FLEET_HOSTS_A_TOR - 1));
		pk = k;
	}
	/* name, host, tor: 32 bytes each */
	snprintf(buf, 32, "10.%u.%u.%u:7471", r, ptor, pk);
	snprintf(buf + 32, 32, "h%u-%u", ptor, pk);
	snprintf(buf + 64, 32, "t%u", ptor);
	p->name = buf;
	p->host = buf + 32;
	p->tor = buf + 64;
	p->why = ptor == tor ? "same ToR" : "cross-ToR";
	p->cross_tor = ptor != tor;
	p->rail = r;
	p->health = MESH_HEALTH_HEALTHY;
}

/* --text HOST [ROUNDS]: the fleet profile host's compact /metrics. */
static int fleet_text(unsigned int host, unsigned int rounds)
{
	enum { PEERS = FLEET_RAILS * (FLEET_HOSTS_A_TOR - 1 + FLEET_CROSS_TOR) };
	static struct mesh_rail_stats rails[FLEET_RAILS];
	static enum mesh_health_state rail_health[FLEET_RAILS];
	static struct mesh_view_peer peers[PEERS];
	static struct mesh_path_stats st[PEERS];
	char me[32], tor[32], self[32];
	struct mesh_view mv = { 0 };
	struct stats_view v = { 0 };
	struct stats s;
	unsigned int i, k;

	for (i = 0; i < PEERS; i++) {
		struct mesh_path_stats *p = &st[i];

		fleet_peer(&peers[i], host, i / (PEERS / FLEET_RAILS),
			   i % (PEERS / FLEET_RAILS));
		rails[peers[i].rail].seen = true;
		mesh_stats_init(p);
		p->rail = &rails[peers[i].rail];
		for (k = 0; k < rounds; k++)
			mesh_stats_round(p, k % 4, sizes_4[k % 4],
					 (k + i) % 997 ? MESH_RES_OK :
					 MESH_RES_TIMEOUT,
					 (uint64_t)(20 + (k * 7919 + i) % 300) *
					 1000, 0, k);
		mesh_stats_connected(p);
		peers[i].n_paths = 1;
		peers[i].path[0] = (struct mesh_view_path){ .state = MESH_ST_WAIT,
			.reach = MESH_REACH_UP, .st = p, .error = "",
			.bw_stale = false };
	}
	for (i = 0; i < FLEET_RAILS; i++)
		rail_health[i] = MESH_HEALTH_HEALTHY;
	snprintf(me, sizeof(me), "h%u-%u", host / FLEET_HOSTS_A_TOR,
		 host % FLEET_HOSTS_A_TOR);
	snprintf(tor, sizeof(tor), "t%u", host / FLEET_HOSTS_A_TOR);
	snprintf(self, sizeof(self), "10.0.%u.%u:7471", host / FLEET_HOSTS_A_TOR,
		 host % FLEET_HOSTS_A_TOR);
	mv.self[0] = self;
	mv.n_self = 1;
	view_set(&mv, "/etc/rdmad/inventory", sizes_4, 4, peers, PEERS, true,
		 rails);
	mv.topology = true;
	mv.host = me;
	mv.tor = tor;
	mv.pod = "";
	mv.rail_health = rail_health;
	stats_init(&s);
	v.stats = &s;
	v.version = "bench";
	v.mesh = &mv;
	v.start_time = 1764042160.0;
	v.reload_ok = true;
	v.reload_success_time = v.start_time;
	if (metrics_render(stdout, &v, METRICS_PROMETHEUS) || fflush(stdout)) {
		fprintf(stderr, "scrape-bench: rendering /metrics failed\n");
		return 1;
	}
	for (i = 0; i < PEERS; i++)
		free((void *)peers[i].name);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const names[] = {
		"/metrics (Prometheus text)", "/metrics (OpenMetrics)",
		"/peers?format=text", "/peers (JSON)", "/peers?format=matrix",
		"/mesh (one page)",
	};
	unsigned int n_peers = argc > 1 ? (unsigned int)atoi(argv[1]) : 1024;
	unsigned int paths = argc > 2 ? (unsigned int)atoi(argv[2]) : 1;
	unsigned int runs = argc > 3 ? (unsigned int)atoi(argv[3]) : 50;
	unsigned int n_sizes = argc > 4 ? (unsigned int)atoi(argv[4]) : 4;
	const uint32_t *sizes = n_sizes == 4 ? sizes_4 : sizes_8;
	bool compact = argc > 5 && !strcmp(argv[5], "compact");

	if (argc > 1 && !strcmp(argv[1], "--text")) {
		if (argc < 3 || argc > 4) {
			fprintf(stderr, "usage: scrape-bench --text HOST [ROUNDS]\n");
			return 64;
		}
		return fleet_text((unsigned int)atoi(argv[2]), argc > 3 ?
				  (unsigned int)atoi(argv[3]) : 300);
	}
	static struct mesh_rail_stats rails[8];
	struct mesh_view_peer *peers;
	struct mesh_path_stats *st;
	struct mesh_view mv = { 0 };
	struct stats_view v = { 0 };
	struct stats s;
	unsigned int i, j, k, w;

	if (!n_peers || !paths || paths > CONFIG_MESH_PATHS_MAX || !runs ||
	    (n_sizes != 4 && n_sizes != CONFIG_MESH_SIZES_MAX)) {
		fprintf(stderr, "usage: scrape-bench [PEERS [PATHS(1-8) "
			"[RUNS [SIZES(4|8) [compact]]]]]\n");
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
		peers[i].tor = "t1";
		peers[i].rail = i % 8;
		rails[i % 8].seen = true;
		for (j = 0; j < paths; j++) {
			struct mesh_path_stats *p = &st[i * paths + j];

			mesh_stats_init(p);
			p->rail = &rails[i % 8];
			/* 300 rounds at least: every bucket, every size
			 * window full, a few failures */
			for (k = 0; k < 300 || k < n_sizes *
			     MESH_SIZE_WINDOW; k++)
				mesh_stats_round(p, k % n_sizes,
						 sizes[k % n_sizes],
						 k % 97 ? MESH_RES_OK :
						 MESH_RES_TIMEOUT,
						 (uint64_t)(k * 7919 % 3000) *
						 1000, 0, k);
			mesh_stats_connected(p);
			mesh_stats_bw(p, 250000000, 200000000, 300);
			peers[i].path[j] = (struct mesh_view_path){ .state = MESH_ST_WAIT,
				.reach = MESH_REACH_UP, .st = p,
				.error = "", .bw_stale = false };
		}
	}
	view_set(&mv, "/etc/rdmad/peers", sizes, n_sizes, peers, n_peers,
		 compact, rails);
	stats_init(&s);
	v.stats = &s;
	v.version = "bench";
	v.mesh = &mv;

	printf("%u peers, %u path(s), %u sizes, %u renders each%s\n",
	       n_peers, paths, n_sizes, runs, compact ? ", compact" : "");
	for (w = W_PROM; w < W_N; w++) {
		uint64_t med, max, cpu;
		size_t len;
		char *buf = bench(&v, w, runs, &med, &max, &cpu, &len);

		printf("%-26s %6.2f ms (CPU %6.2f ms, worst %6.2f ms), %8zu "
		       "bytes", names[w], med / 1e6, cpu / 1e6, max / 1e6,
		       len);
		if (w <= W_OM)
			printf(", %u samples", samples(buf));
		putchar('\n');
		if (w <= W_OM) {
			bench_gzip(buf, len, GZIP_RENDER_LEVEL, runs);
			bench_gzip(buf, len, 6, runs);
		}
		free(buf);
	}
	for (i = 0; i < n_peers; i++)
		free((void *)peers[i].name);
	free(peers);
	free(st);
	return 0;
}
