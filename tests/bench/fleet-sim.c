/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fleet-sim.c - the selection (mesh_select_sched) run for a whole fleet:
 * an inventory generated (TORS x HOSTS a ToR, RAILS rails, pods of PODS
 * ToRs), written to a file and parsed back (timed), then every host's
 * peers computed and checked against P1-P6 (tests/unit/select-check.h),
 * and the figures printed beside a full mesh's: peers, inbound, sessions,
 * series and scrape bytes per host and fleet, coverage in an epoch and
 * over epochs, connects per second at epoch changes.  Exits 1 when a
 * stated property fails, 2 on a usage or set-up error.
 *
 *   fleet-sim [--quick] [--tors N] [--hosts N] [--rails N] [--pods N]
 *             [--cross-tor M] [--epoch S] [--paths P] [--sizes Z]
 *
 * Default: 3,125 ToRs x 32 hosts (100,000), 8 rails, pods of 125 ToRs,
 * the selection's defaults (cross_tor 5, epoch 300 s), paths 1, sizes 4.
 * --quick: 64 ToRs x 32 (2,048 hosts), pods of 16, every epoch of a
 * cycle checked on every host (the unit suite runs it).  At full size
 * two epochs are checked host by host and the coverage over epochs is
 * counted on rail 0 (every rail has the same ToRs).
 *
 * Series a host (docs/monitoring.md, "Cardinality is bounded"), in both
 * [mesh] peer_series modes: full, 29 + paths + sizes a peer (34 with the
 * defaults; one more, the peer's place, with topology); compact, 5 a peer
 * and 24 a rail; plus 268 fixed series a host (270 with topology).  The
 * selection's column is an inventory (compact by default), the full
 * mesh's a plain targets file (full by default; compact there has one
 * rail, "0").  A series line ~70 bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mesh/mesh_inventory_parse.h"
#include "mesh/mesh_select_sched.h"
#include "select-check.h"

#define SERIES_FIXED	268u	/* docs/monitoring.md: without peers */
#define SERIES_PEER_BASE 29u	/* + paths + sizes */
#define SERIES_PEER_COMPACT 5u	/* up, rounds x 3, p99 */
#define SERIES_RAIL	24u	/* rounds x 9, histogram 12 + 3 */
#define SERIES_LINE	70u	/* bytes of one series line, about */

struct sim_opts {
	unsigned int tors, hosts, rails, pods, paths, sizes;
	struct mesh_select_params p;
	bool quick;
};

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int sim_usage(void)
{
	fprintf(stderr, "usage: fleet-sim [--quick] [--tors N] [--hosts N] "
		"[--rails N] [--pods N] [--cross-tor M] [--epoch S] "
		"[--paths P] [--sizes Z]\n");
	return 2;
}

static int sim_opts(int argc, char **argv, struct sim_opts *o)
{
	static const char *const names[] = {
		"--tors", "--hosts", "--rails", "--pods", "--cross-tor",
		"--epoch", "--paths", "--sizes",
	};
	unsigned int *field[8] = {
		&o->tors, &o->hosts, &o->rails, &o->pods, &o->p.cross_tor,
		&o->p.epoch_s, &o->paths, &o->sizes,
	};
	unsigned int k;
	char *end;
	int i;

	*o = (struct sim_opts){
		.tors = 3125, .hosts = 32, .rails = 8, .pods = 125,
		.paths = 1, .sizes = 4,
	};
	mesh_select_params_default(&o->p);
	/* --quick sets the size; the other options, wherever they are,
	 * change it. */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			o->quick = true;
			o->tors = 64;
			o->pods = 16;
		}
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			continue;
		for (k = 0; k < 8; k++)
			if (!strcmp(argv[i], names[k]))
				break;
		if (k == 8 || i + 1 == argc)
			return sim_usage();
		*field[k] = (unsigned int)strtoul(argv[++i], &end, 10);
		if (*end || !*argv[i])
			return sim_usage();
	}
	if (!o->tors || !o->hosts || !o->rails || o->rails > 8 ||
	    (uint64_t)o->tors * o->hosts > MESH_INV_HOSTS_MAX || !o->paths)
		return sim_usage();
	return 0;
}

/* The inventory, written to FILE: host k of ToR t, one line a rail. */
static int sim_write(const struct sim_opts *o, FILE *f)
{
	unsigned int t, k, r, h = 0;

	fprintf(f, "# fleet-sim: %u ToRs x %u hosts, %u rails\n", o->tors,
		o->hosts, o->rails);
	for (t = 0; t < o->tors; t++)
		for (k = 0; k < o->hosts; k++, h++)
			for (r = 0; r < o->rails; r++)
				fprintf(f, "10.%u.%u.%u host=h%06u tor=tor%04u "
					"pod=pod%03u rail=%u\n",
					64 + r * 2 + (h >> 16),
					(h >> 8) & 255, h & 255, h, t,
					o->pods ? t / o->pods : 0, r);
	return ferror(f) ? -EIO : 0;
}

/*
 * A host's series with PEERS peers on RAILS rails.  With topology rdmad
 * adds rdmad_mesh_place_info + rdmad_mesh_epoch_switches_total (2) and,
 * in full, rdmad_mesh_peer_info (1 a peer; compact carries the place on
 * rdmad_mesh_peer_up).
 */
static unsigned long long series(unsigned long long peers, bool topology,
				 bool compact, unsigned int rails,
				 const struct sim_opts *o)
{
	if (compact)
		return SERIES_FIXED + 2 * topology + peers *
		       SERIES_PEER_COMPACT + (unsigned long long)rails *
		       SERIES_RAIL;
	return SERIES_FIXED + 2 * topology + peers * (SERIES_PEER_BASE +
		topology + o->paths + o->sizes);
}

static void row(const char *what, const char *sel, const char *full)
{
	printf("| %-44s | %24s | %24s |\n", what, sel, full);
}

static void rowu(const char *what, unsigned long long sel,
		 unsigned long long full)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), "%llu", sel);
	snprintf(b, sizeof(b), "%llu", full);
	row(what, a, b);
}

int main(int argc, char **argv)
{
	struct sim_opts o = { 0 };
	struct mesh_inventory inv;
	struct mesh_select s;
	struct mesh_select_bounds b;
	struct select_check c;
	char path[] = "/tmp/fleet-sim-XXXXXX", err[512], a[64], f[64];
	unsigned long long hosts, addrs, full_peers, pairs, fleet[2][2];
	unsigned int took, peak, cycle, r, want;
	double t0, t_parse, t_init, t_check, t_cover, t_moment, first = 1;
	double mean;
	uint64_t e0 = 5900000, e;
	double peers_mean;
	FILE *fp;
	int fd, bad = 0;

	if (sim_opts(argc, argv, &o))
		return 2;
	hosts = (unsigned long long)o.tors * o.hosts;
	addrs = hosts * o.rails;
	fd = mkstemp(path);
	if (fd < 0 || !(fp = fdopen(fd, "w")) || sim_write(&o, fp) ||
	    fclose(fp)) {
		fprintf(stderr, "fleet-sim: cannot write %s\n", path);
		return 2;
	}
	fp = fopen(path, "r");
	if (!fp)
		return 2;
	t0 = mono_s();
	if (mesh_inventory_parse(fp, path, 7471, 0, &inv, NULL, NULL, err,
				 sizeof(err))) {
		fprintf(stderr, "fleet-sim: %s\n", err);
		return 2;
	}
	t_parse = mono_s() - t0;
	fclose(fp);
	unlink(path);
	t0 = mono_s();
	if (mesh_select_init(&s, &inv, &o.p, err, sizeof(err))) {
		fprintf(stderr, "fleet-sim: %s\n", err);
		return 2;
	}
	t_init = mono_s() - t0;
	select_check_init(&c, &s);
	b = c.b;
	/* P1, P2, P4, P6: every host, a whole cycle (quick) or 2 epochs. */
	cycle = o.quick && b.epochs_all_pairs > 2 ? b.epochs_all_pairs : 2;
	t0 = mono_s();
	for (e = e0; e < e0 + cycle; e++)
		select_check_epoch(&c, e);
	t_check = (mono_s() - t0) / cycle;
	/* P3: all ordered ToR pairs, rail by rail (rail 0 at full size). */
	t0 = mono_s();
	took = 0;
	for (r = 0; r < (o.quick ? o.rails : 1); r++) {
		want = select_check_cover(&c, r, e0, b.epochs_all_pairs ?
					  b.epochs_all_pairs : 1, &first);
		if (want > took)
			took = want;
	}
	t_cover = mono_s() - t0;
	if (o.tors > 1 && took != b.epochs_all_pairs)
		select_fail(&c, "all pairs in %u epochs, stated %u", took,
			    b.epochs_all_pairs);
	/* P4 at moments across an epoch, slots at their own epochs. */
	t0 = mono_s();
	for (e = 0; e < (o.quick ? 32u : 4u); e++)
		select_check_moment(&c, (e0 + 1) * o.p.epoch_s * 1000ull +
				    e * o.p.epoch_s * 1000ull /
				    (o.quick ? 32u : 4u) + 7);
	t_moment = mono_s() - t0;
	/* P5: connects per second over an epoch of switches. */
	select_check_switch(&c, e0 + 1, &peak, &mean);
	if (peak > 2 * mean + 16)
		select_fail(&c, "P5: %u connects in one second, mean %.1f",
			    peak, mean);
	if (o.pods && o.tors % o.pods == 0 && o.tors / o.pods >= 2 &&
	    b.m_min >= 2 && c.no_cross_pod)
		select_fail(&c, "P6: %u ToR-epochs without a source in "
			    "another pod", c.no_cross_pod);

	peers_mean = (double)c.peers_sum / ((double)hosts * c.epochs);
	full_peers = (hosts - 1) * o.rails;
	/* fleet[compact][full mesh]: the selection's peers are a mean */
	pairs = (unsigned long long)(peers_mean * (double)hosts + 0.5);
	for (r = 0; r < 2; r++) {
		fleet[r][0] = hosts * series(0, true, r, o.rails, &o) +
			      series(pairs, true, r, 0, &o) - series(0, true,
			      r, 0, &o);
		fleet[r][1] = hosts * series(full_peers, false, r, 1, &o);
	}

	printf("fleet-sim: %llu hosts (%u ToRs x %u), %u rails, pods of %u "
	       "ToRs; cross_tor %u, epoch %u s, paths %u, sizes %u\n",
	       hosts, o.tors, o.hosts, o.rails, o.pods, o.p.cross_tor,
	       o.p.epoch_s, o.paths, o.sizes);
	printf("inventory: %llu lines parsed in %.0f ms (%.2f us a line), "
	       "%zu bytes held (%.0f an address); selection set up in %.0f "
	       "ms; one epoch of every host's peers, checked: %.0f ms; "
	       "coverage over %u epochs: %.1f s; moments: %.1f s\n\n",
	       addrs, t_parse * 1e3,
	       t_parse * 1e6 / (double)addrs, mesh_inventory_bytes(&inv),
	       (double)mesh_inventory_bytes(&inv) / (double)addrs,
	       t_init * 1e3, t_check * 1e3, took, t_cover, t_moment);
	row("per host", "selection", "full mesh");
	row("--------------------------------------------",
	    "------------------------",
	    "------------------------");
	snprintf(a, sizeof(a), "%.1f / %u", peers_mean, c.peers_max);
	snprintf(f, sizeof(f), "%llu / %llu", full_peers, full_peers);
	row("peers (mean / max), all rails", a, f);
	snprintf(a, sizeof(a), "%u / %u (<= %u)", c.in_max, c.moment_in,
		 b.max_inbound);
	snprintf(f, sizeof(f), "%llu / %llu", full_peers, full_peers);
	row("inbound probers (max: epoch / moment)", a, f);
	snprintf(a, sizeof(a), "%u / %u", c.peers_max * o.paths,
		 c.moment_in * o.paths);
	snprintf(f, sizeof(f), "%llu / %llu", full_peers * o.paths,
		 full_peers * o.paths);
	row("sessions x paths (out / in, max)", a, f);
	for (r = 2; r-- > 0;) {
		unsigned long long hs = series(c.peers_max, true, r, o.rails,
					       &o);
		unsigned long long hf = series(full_peers, false, r, 1, &o);

		snprintf(a, sizeof(a), "series (max), %s", r ? "compact" :
			 "full");
		rowu(a, hs, hf);
		snprintf(a, sizeof(a), "%.2f MB", (double)hs * SERIES_LINE /
			 1e6);
		snprintf(f, sizeof(f), "%.2f MB", (double)hf * SERIES_LINE /
			 1e6);
		row(r ? "scrape bytes (max, ~70 B a series), compact" :
		    "scrape bytes (max), full", a, f);
	}
	snprintf(a, sizeof(a), "%.4f", (double)o.rails * b.m_min /
		 o.p.epoch_s);
	row("connects/s at epoch changes (mean)", a, "0 (no epochs)");
	row("--------------------------------------------",
	    "------------------------",
	    "------------------------");
	row("fleet", "", "");
	for (r = 2; r-- > 0;) {
		const char *m = r ? "compact" : "full";
		char what[64];

		snprintf(what, sizeof(what), "series, %s", m);
		snprintf(a, sizeof(a), "%.3g", (double)fleet[r][0]);
		snprintf(f, sizeof(f), "%.3g", (double)fleet[r][1]);
		row(what, a, f);
		snprintf(what, sizeof(what), "scrape bytes, every host once, %s",
			 m);
		snprintf(a, sizeof(a), "%.3g GB", (double)fleet[r][0] *
			 SERIES_LINE / 1e9);
		snprintf(f, sizeof(f), "%.3g GB", (double)fleet[r][1] *
			 SERIES_LINE / 1e9);
		row(what, a, f);
	}
	/* each slot's peers change once an epoch: rails x cross_tor peers a
	 * host, each with its series, new series every epoch */
	for (r = 2; r-- > 0;) {
		snprintf(a, sizeof(a), "%.3g", (double)hosts * o.rails *
			 o.p.cross_tor * (r ? SERIES_PEER_COMPACT :
			 SERIES_PEER_BASE + 1 + o.paths + o.sizes) /
			 o.p.epoch_s);
		row(r ? "new series/s at epoch switches, compact" :
		    "new series/s at epoch switches, full", a,
		    "0 (no epochs)");
	}
	snprintf(a, sizeof(a), "%.3g", peers_mean * (double)hosts);
	snprintf(f, sizeof(f), "%.3g", (double)full_peers * (double)hosts);
	row("directed probe pairs", a, f);
	snprintf(a, sizeof(a), "%.2f %%", first * 100);
	row("ordered ToR pairs probed in one epoch", a, "100 %");
	snprintf(a, sizeof(a), "%u (%.1f h)", took, took * o.p.epoch_s /
		 3600.0);
	row("epochs until every ToR pair probed", a, "1");
	snprintf(a, sizeof(a), "%u / %.0f", peak * o.paths, mean * o.paths);
	snprintf(f, sizeof(f), "%.3g at once (start)", (double)hosts *
		 (double)full_peers * o.paths);
	row("connects/s at epoch changes (peak / mean)", a, f);
	printf("\nproperties (mesh_select_sched.h): M = %u, Q = M probers "
	       "from other ToRs per address per epoch, every ToR probed "
	       "from and probing M ToRs, all pairs within %u epochs, peers "
	       "<= %u and inbound <= %u (%u at a moment) per host\n",
	       b.m_min, b.epochs_all_pairs, b.max_peers,
	       b.max_inbound_epoch, b.max_inbound);
	if (c.failures) {
		printf("FAILED: %lu checks, first: %s\n", c.failures,
		       c.first);
		bad = 1;
	} else {
		printf("all properties hold: P1-P4, P6 on every host over %u "
		       "epochs, P3 over %u, P5 over one epoch\n", c.epochs,
		       took);
	}
	select_check_fini(&c);
	mesh_select_fini(&s);
	mesh_inventory_free(&inv);
	return bad;
}
