/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-mesh-select.c - the selection's properties (P1-P6 of
 * mesh_select_sched.h), checked on every host of small fleets for every
 * epoch of a whole cycle: uneven ToRs, 1 host a ToR, 1 ToR, 2 ToRs, a ToR
 * of 1 host, T - 1 < M, rails, pods; and the parameters' limits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_inventory_parse.h"
#include "mesh/mesh_select_sched.h"
#include "select-check.h"
#include "tap.h"

#define PORT 7471

static char errbuf[512];

/* A fleet: ToR t has SIZE[t] hosts, each with RAILS addresses (host k
 * of ToR t lacks rail RAILS - 1 when SKIP divides k + 1), ToR t in pod
 * t % PODS (PODS 0: no pods).  Lines in file order, or reversed. */
struct fleet {
	const unsigned int *size;
	unsigned int n_tor, rails, pods, skip;
	bool reversed;
};

static char *fleet_text(const struct fleet *f, size_t *len)
{
	unsigned int t, k, r, n = 0, i, hosts = 0;
	char **line, *buf, *p, pod[32], rail[32];

	for (t = 0; t < f->n_tor; t++)
		hosts += f->size[t];
	line = calloc((size_t)hosts * f->rails + 1, sizeof(*line));
	if (!line)
		exit(99);
	for (t = 0; t < f->n_tor; t++) {
		for (k = 0; k < f->size[t]; k++) {
			for (r = 0; r < f->rails; r++) {
				if (f->skip && r == f->rails - 1 &&
				    (k + 1) % f->skip == 0)
					continue;
				pod[0] = rail[0] = '\0';
				if (f->pods)
					snprintf(pod, sizeof(pod), " pod=p%u",
						 t % f->pods);
				if (f->rails > 1)
					snprintf(rail, sizeof(rail),
						 " rail=%u", r);
				if (asprintf(&line[n++], "10.%u.%u.%u host=t%u-h%u "
					     "tor=t%u%s%s\n", r, t, k, t, k, t,
					     pod, rail) < 0)
					exit(99);
			}
		}
	}
	buf = malloc((size_t)n * 80 + 1);
	if (!buf)
		exit(99);
	for (i = 0, p = buf; i < n; i++) {
		p += sprintf(p, "%s", line[f->reversed ? n - 1 - i : i]);
		free(line[f->reversed ? n - 1 - i : i]);
	}
	free(line);
	*len = (size_t)(p - buf);
	return buf;
}

static int load(const char *text, size_t len, struct mesh_inventory *inv)
{
	FILE *in = fmemopen((void *)text, len, "r");
	int ret;

	if (!in)
		exit(99);
	ret = mesh_inventory_parse(in, "inv", PORT, 0, inv, NULL, NULL,
				   errbuf, sizeof(errbuf));
	fclose(in);
	return ret;
}

static int fleet_load(const struct fleet *f, struct mesh_inventory *inv)
{
	size_t len;
	char *text = fleet_text(f, &len);
	int ret = load(text, len, inv);

	free(text);
	return ret;
}

static void params(struct mesh_select_params *p, unsigned int m)
{
	mesh_select_params_default(p);
	p->cross_tor = m;
	p->epoch_s = 60;
	p->max_peers = MESH_SELECT_PEERS_MAX;
	p->max_inbound = MESH_SELECT_INBOUND_MAX;
}

static unsigned int div_up(unsigned int a, unsigned int b)
{
	return (a + b - 1) / b;
}

/* One stage of checks passed: no failure since the last stage. */
__attribute__((format(printf, 2, 3)))
static void stage(struct select_check *c, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!tap_ok(!c->failures, "%s", what))
		tap_diag("%lu failures, first: %s", c->failures, c->first);
	c->failures = 0;
	c->first[0] = '\0';
}

/*
 * Every property on fleet F with M = cross_tor, over a whole cycle of
 * epochs from a large epoch number.  WANT_M: the M expected (clipped).
 */
static void prove(const char *what, const struct fleet *f, unsigned int m,
		  unsigned int want_m)
{
	struct mesh_select_params p;
	struct mesh_inventory inv;
	struct select_check c;
	struct mesh_select s;
	uint64_t e0 = 1000003, e, t;
	unsigned int r, took, peak, cycle, want_epochs;
	double first, mean;

	params(&p, m);
	if (fleet_load(f, &inv) ||
	    mesh_select_init(&s, &inv, &p, errbuf, sizeof(errbuf))) {
		tap_ok(0, "%s: set up (%s)", what, errbuf);
		return;
	}
	select_check_init(&c, &s);
	want_epochs = f->n_tor > 1 ? div_up(f->n_tor - 1, want_m) : 0;
	tap_ok(c.b.m_min == (f->n_tor > 1 ? want_m : 0) &&
	       c.b.m_max == c.b.m_min &&
	       c.b.epochs_all_pairs == want_epochs,
	       "%s: M = %u (cross_tor %u), all pairs in %u epochs", what,
	       c.b.m_min, m, c.b.epochs_all_pairs);
	cycle = want_epochs > 2 ? want_epochs : 2;
	for (e = e0; e < e0 + cycle; e++)
		select_check_epoch(&c, e);
	stage(&c, "%s: P1 P2 P4 on every host, %u epochs (peers <= "
	      "%u, inbound <= %u)", what, cycle, c.b.max_peers,
	      c.b.max_inbound_epoch);
	for (r = 0; r < MESH_INV_RAILS_MAX; r++) {
		if (!s.rail[r].n_tor)
			continue;
		took = select_check_cover(&c, r, e0, want_epochs ?
					  want_epochs : 1, &first);
		if (s.rail[r].n_tor > 1 && took != want_epochs)
			select_fail(&c, "rail %u: all pairs in %u epochs, "
				    "not %u", r, took, want_epochs);
	}
	stage(&c, "%s: P3 every ordered ToR pair within %u epochs",
	      what, want_epochs);
	for (t = 0; t < 64; t++)
		select_check_moment(&c, (e0 + 1) * p.epoch_s * 1000 +
				    t * p.epoch_s * 1000 / 32 + 7);
	stage(&c, "%s: P4 at 64 moments over 2 epochs: peers <= %u, "
	      "inbound <= %u (most seen %u, %u)", what, c.b.max_peers,
	      c.b.max_inbound, c.moment_peers, c.moment_in);
	select_check_switch(&c, e0 + 1, &peak, &mean);
	stage(&c, "%s: P5 each (rail, slot) switches once, at its "
	      "own moment (peak %u connects/s, mean %.2f)", what, peak, mean);
	select_check_fini(&c);
	mesh_select_fini(&s);
	mesh_inventory_free(&inv);
}

static const unsigned int uneven[] = { 5, 1, 7, 3, 32, 2, 9, 4, 6 };
static const unsigned int eights[16] = {
	8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
};
static const unsigned int ones[12] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };

static void test_fleets(void)
{
	static const struct {
		const char *what;
		struct fleet f;
		unsigned int m, want_m;
	} cases[] = {
		{ "uneven ToRs (1..32 hosts), M = 5",
		  { uneven, 9, 1, 0, 0, false }, 5, 5 },
		{ "uneven ToRs, M = 1", { uneven, 9, 1, 0, 0, false }, 1, 1 },
		{ "uneven ToRs, M = T - 1 = 8",
		  { uneven, 9, 1, 0, 0, false }, 8, 8 },
		{ "uneven ToRs, M = T = 9 (clipped)",
		  { uneven, 9, 1, 0, 0, false }, 9, 8 },
		{ "uneven ToRs, M = T + 1 = 10 (clipped)",
		  { uneven, 9, 1, 0, 0, false }, 10, 8 },
		{ "uneven ToRs, M = 16 (max)",
		  { uneven, 9, 1, 0, 0, false }, 16, 8 },
		{ "1 host a ToR, 12 ToRs, M = 5",
		  { ones, 12, 1, 0, 0, false }, 5, 5 },
		{ "1 host a ToR, M = 11", { ones, 12, 1, 0, 0, false }, 11, 11 },
		{ "1 ToR of 32", { uneven + 4, 1, 1, 0, 0, false }, 5, 0 },
		{ "2 ToRs (5 and 1 hosts), M = 5 (clipped to 1)",
		  { uneven, 2, 1, 0, 0, false }, 5, 1 },
		{ "4 ToRs, T - 1 = 3 < M = 5",
		  { uneven, 4, 1, 0, 0, false }, 5, 3 },
		{ "3 rails, every third host lacks rail 2, M = 3",
		  { uneven, 9, 3, 0, 3, false }, 3, 3 },
		{ "16 ToRs of 8, 2 rails, M = 15 (max - 1 of the fleet)",
		  { eights, 16, 2, 0, 0, false }, 15, 15 },
		{ "16 ToRs of 8, 2 rails, M = 4",
		  { eights, 16, 2, 0, 0, false }, 4, 4 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		prove(cases[i].what, &cases[i].f, cases[i].m,
		      cases[i].want_m);
}

/* P6: 4 pods of 4 ToRs, M = 2: a source from another pod each epoch. */
/*
 * Fleet F with M = cross_tor, EPOCHS epochs: the longest run of epochs a
 * ToR (rail 0) went without a source ToR in another pod; -1 on a failure
 * of P1-P4.
 */
static int pods_gap(const struct fleet *f, unsigned int m,
		    unsigned int epochs)
{
	const struct mesh_select_rail *R;
	struct mesh_select_params p;
	struct mesh_inventory inv;
	struct select_check c;
	struct mesh_select s;
	unsigned int run[64] = { 0 }, worst = 0, e, pos;
	uint32_t k;

	params(&p, m);
	if (fleet_load(f, &inv) ||
	    mesh_select_init(&s, &inv, &p, errbuf, sizeof(errbuf)))
		exit(99);
	select_check_init(&c, &s);
	R = &s.rail[0];
	for (e = 0; e < epochs; e++) {
		select_check_epoch(&c, 7 + e);
		for (pos = 0; pos < R->n_tor && pos < 64; pos++) {
			k = R->member[R->first[pos]];
			if (select_cross_pod(&s, 0, pos, c.src +
					     (size_t)k * SELECT_CHECK_SRC,
					     R->m))
				run[pos] = 0;
			else if (++run[pos] > worst)
				worst = run[pos];
		}
	}
	if (c.failures)
		tap_diag("%s", c.first);
	select_check_fini(&c);
	mesh_select_fini(&s);
	mesh_inventory_free(&inv);
	return c.failures ? -1 : (int)worst;
}

static void test_pods(void)
{
	const struct fleet f = { eights, 16, 1, 4, 0, false };
	const struct fleet f2 = { eights, 16, 1, 2, 0, false };
	const struct fleet f_uneven = { uneven, 9, 1, 2, 0, false };
	int gap;

	prove("4 pods of 4 ToRs, M = 2", &f, 2, 2);
	prove("2 uneven pods, M = 3", &f_uneven, 3, 3);
	gap = pods_gap(&f, 2, 30);
	tap_ok(gap == 0, "P6: 4 equal pods, M = 2: every ToR has a source in "
	       "another pod in each of 30 epochs (longest gap %d)", gap);
	gap = pods_gap(&f2, 2, 30);
	tap_ok(gap == 0, "P6: 2 equal pods, M = 2: the same (longest gap %d)",
	       gap);
	gap = pods_gap(&f, 1, 30);
	tap_ok(gap == 1, "P6: 4 equal pods, M = 1: never two epochs in a row "
	       "without (longest gap %d epoch)", gap);
}

/* Peers of HOST in EPOCH as sorted labels, into BUF. */
static void peer_labels(const struct mesh_select *s, const char *host,
			uint64_t epoch, char *buf, size_t len)
{
	const struct mesh_inventory *inv = s->inv;
	struct mesh_select_peer p[256];
	char *lab[256], *o = buf;
	int n, i, j;

	n = mesh_select_host_peers(s, mesh_inventory_find(inv, host), epoch,
				   p, 256);
	for (i = 0; i < n; i++)
		lab[i] = inv->pool + inv->addr[p[i].addr].label;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(lab[j - 1], lab[j]) > 0; j--) {
			char *t = lab[j];

			lab[j] = lab[j - 1];
			lab[j - 1] = t;
		}
	*o = '\0';
	for (i = 0; i < n && (size_t)(o - buf) + 40 < len; i++)
		o += sprintf(o, "%s%s", i ? " " : "", lab[i]);
}

/* Every host computes the same; the file's line order does not matter;
 * an epoch later the cross-ToR peers are others. */
static void test_agree(void)
{
	const struct fleet fwd = { uneven, 9, 2, 0, 0, false };
	const struct fleet rev = { uneven, 9, 2, 0, 0, true };
	struct mesh_inventory a, b;
	struct mesh_select sa, sb;
	struct mesh_select_params p;
	static char x[8192], y[8192], z[8192];
	static struct mesh_select_peer peer[256];
	int n, i, cross = 0, why = 1;

	params(&p, 3);
	if (fleet_load(&fwd, &a) || fleet_load(&rev, &b) ||
	    mesh_select_init(&sa, &a, &p, errbuf, sizeof(errbuf)) ||
	    mesh_select_init(&sb, &b, &p, errbuf, sizeof(errbuf)))
		exit(99);
	peer_labels(&sa, "t4-h17", 42, x, sizeof(x));
	peer_labels(&sb, "t4-h17", 42, y, sizeof(y));
	tap_ok(x[0] && !strcmp(x, y), "the same peers whatever the line "
	       "order");
	peer_labels(&sa, "t1-h0", 42, x, sizeof(x));
	peer_labels(&sa, "t1-h0", 43, z, sizeof(z));
	tap_ok(x[0] && strcmp(x, z) != 0, "another epoch, other cross-ToR "
	       "peers");
	n = mesh_select_host_peers(&sa, mesh_inventory_find(&a, "t1-h0"), 42,
				   peer, 256);
	for (i = 0; i < n; i++) {
		if (peer[i].why == MESH_SELECT_CROSS_TOR)
			cross++;
		else if (peer[i].why != MESH_SELECT_SAME_TOR)
			why = 0;
	}
	tap_ok(n > 0 && cross == n && why &&
	       !strcmp(mesh_select_why_name(MESH_SELECT_CROSS_TOR),
		       "cross-ToR"), "a ToR of 1 host: only cross-ToR peers "
	       "(%d), each with why", n);
	tap_ok(mesh_select_host_peers(&sa, 0, 42, peer, 1) == -ENOSPC,
	       "a short buffer: -ENOSPC");
	mesh_select_fini(&sa);
	mesh_select_fini(&sb);
	mesh_inventory_free(&a);
	mesh_inventory_free(&b);
}

/* No topology: today's full mesh. */
static void test_full_mesh(void)
{
	static const char text[] = "10.0.0.1\n10.0.0.2\n10.0.0.3:7000\n"
				   "10.0.0.4\n";
	struct mesh_select_peer peer[8];
	struct mesh_select_params p;
	struct mesh_inventory inv;
	struct select_check c;
	struct mesh_select s;
	int n;

	params(&p, 5);
	if (load(text, sizeof(text) - 1, &inv) ||
	    mesh_select_init(&s, &inv, &p, errbuf, sizeof(errbuf)))
		exit(99);
	n = mesh_select_host_peers(&s, 2, 9, peer, 8);
	tap_ok(n == 3 && peer[0].why == MESH_SELECT_FULL &&
	       peer[2].why == MESH_SELECT_FULL, "a targets file: every other "
	       "host, why 'full mesh'");
	select_check_init(&c, &s);
	select_check_epoch(&c, 9);
	tap_ok(!c.failures && c.peers_max == 3 && c.in_max == 3,
	       "full mesh: P4 holds (3 peers, 3 inbound)");
	select_check_fini(&c);
	mesh_select_fini(&s);
	mesh_inventory_free(&inv);
}

/* Each parameter at 1 below its least, its least, its most, 1 above. */
static void test_params(void)
{
	static const struct {
		size_t off;
		unsigned int min, max;
		const char *key;
	} k[] = {
		{ offsetof(struct mesh_select_params, cross_tor), 1, 16,
		  "cross_tor" },
		{ offsetof(struct mesh_select_params, epoch_s), 60, 86400,
		  "epoch" },
		{ offsetof(struct mesh_select_params, max_peers), 1, 4096,
		  "max_peers" },
		{ offsetof(struct mesh_select_params, max_inbound), 1, 4096,
		  "max_inbound" },
	};
	struct mesh_select_params p;
	unsigned int i, v[5], want[5] = { 1, 0, 0, 0, 1 };
	char want_err[128];
	int j, ok;

	mesh_select_params_default(&p);
	tap_ok(p.cross_tor == 5 && p.epoch_s == 300 && p.max_peers == 1024 &&
	       p.max_inbound == 1024 && !mesh_select_params_check(&p, errbuf,
								   64),
	       "defaults: cross_tor 5, epoch 300 s, max_peers and "
	       "max_inbound 1024");
	for (i = 0; i < 4; i++) {
		v[0] = k[i].min - 1;
		v[1] = k[i].min;
		v[2] = k[i].max - 1;
		v[3] = k[i].max;
		v[4] = k[i].max + 1;
		ok = 1;
		for (j = 0; j < 5; j++) {
			mesh_select_params_default(&p);
			memcpy((char *)&p + k[i].off, &v[j], sizeof(v[j]));
			snprintf(want_err, sizeof(want_err), "%s: %u is out "
				 "of range %u..%u", k[i].key, v[j], k[i].min,
				 k[i].max);
			errbuf[0] = '\0';
			if (mesh_select_params_check(&p, errbuf,
						     sizeof(errbuf)) !=
			    (want[j] ? -ERANGE : 0) ||
			    (want[j] && strcmp(errbuf, want_err)))
				ok = 0;
		}
		tap_ok(ok, "%s: %u and %u refused, %u, %u and %u taken",
		       k[i].key, v[0], v[4], v[1], v[2], v[3]);
	}
}

/* The bounds refuse an inventory a host cannot serve, with numbers. */
static void test_refuse(void)
{
	const struct fleet f = { uneven, 9, 1, 0, 0, false };
	struct mesh_select_params p;
	struct mesh_select_bounds b;
	struct mesh_inventory inv;
	struct mesh_select s;
	unsigned int peers, in;
	char want[128];

	params(&p, 5);
	if (fleet_load(&f, &inv) ||
	    mesh_select_init(&s, &inv, &p, errbuf, sizeof(errbuf)))
		exit(99);
	mesh_select_bounds(&s, &b);
	peers = b.max_peers;
	in = b.max_inbound;
	mesh_select_fini(&s);
	tap_diag("uneven fleet: at most %u peers, %u inbound in an epoch, "
		 "%u at a moment", peers, b.max_inbound_epoch, in);
	p.max_peers = peers;
	p.max_inbound = in;
	tap_ok(!mesh_select_init(&s, &inv, &p, errbuf, sizeof(errbuf)),
	       "max_peers and max_inbound at the bound: taken");
	mesh_select_fini(&s);
	p.max_peers = peers - 1;
	snprintf(want, sizeof(want), "a host could have %u peers, more than "
		 "max_peers %u", peers, peers - 1);
	tap_ok(mesh_select_init(&s, &inv, &p, errbuf, sizeof(errbuf)) ==
	       -E2BIG && !strcmp(errbuf, want), "max_peers one below: "
	       "refused: %s", errbuf);
	p.max_peers = peers;
	p.max_inbound = in - 1;
	snprintf(want, sizeof(want), "a host could have %u inbound probers, "
		 "more than max_inbound %u", in, in - 1);
	tap_ok(mesh_select_init(&s, &inv, &p, errbuf, sizeof(errbuf)) ==
	       -E2BIG && !strcmp(errbuf, want), "max_inbound one below: "
	       "refused: %s", errbuf);
	p.cross_tor = 17;
	tap_ok(mesh_select_init(&s, &inv, &p, errbuf, sizeof(errbuf)) ==
	       -ERANGE, "cross_tor 17: refused at set-up");
	mesh_inventory_free(&inv);
}

int main(void)
{
	test_params();
	test_fleets();
	test_pods();
	test_agree();
	test_full_mesh();
	test_refuse();
	return tap_done();
}
