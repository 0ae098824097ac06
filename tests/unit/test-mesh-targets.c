/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-mesh-targets.c - mesh_targets_check.c and mesh_targets_sched.c:
 * the targets file as peers
 * (numeric addresses, names), the entries that are this rdmad (its own
 * listener's address and port only), the capacity a mesh needs of this
 * rdmad (connections, registered memory), and the whole check that
 * --check-config, start and reload share.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "mesh/mesh_policy_rules.h"
#include "mesh/mesh_select_sched.h"
#include "mesh/mesh_targets_check.h"
#include "tap.h"

static struct sockaddr_storage v4(const char *a, unsigned int port)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *s = (struct sockaddr_in *)(void *)&ss;

	memset(&ss, 0, sizeof(ss));
	s->sin_family = AF_INET;
	s->sin_port = htons((uint16_t)port);
	inet_pton(AF_INET, a, &s->sin_addr);
	return ss;
}

static void cfg_with(struct rdmad_config *c, const char *listen)
{
	config_defaults(c);
	config_parse_listen(listen, &c->listen[0]);
	c->n_listen = 1;
}

static void test_self(void)
{
	struct sockaddr_storage here[2] = { v4("10.0.0.1", 0),
					    v4("10.0.0.2", 0) };
	struct mesh_locals locals = { here, 2 };
	struct rdmad_config c;
	struct sockaddr_storage a;

	cfg_with(&c, "0.0.0.0:7471");
	a = v4("10.0.0.2", 7471);
	tap_ok(mesh_target_is_self(&c, &locals, &a),
	       "wildcard listener: any of this host's addresses, its port");
	a = v4("10.0.0.2", 7472);
	tap_ok(!mesh_target_is_self(&c, &locals, &a),
	       "another port of this host: a peer");
	a = v4("10.0.0.9", 7471);
	tap_ok(!mesh_target_is_self(&c, &locals, &a),
	       "another host on our port: a peer");
	/* Listening on one address only: another rdmad may listen on the
	 * host's other address, on the same port. */
	cfg_with(&c, "10.0.0.1:7471");
	a = v4("10.0.0.1", 7471);
	tap_ok(mesh_target_is_self(&c, &locals, &a),
	       "our listener's own address and port: self");
	a = v4("10.0.0.2", 7471);
	tap_ok(!mesh_target_is_self(&c, &locals, &a),
	       "a local address our listener does not cover: a peer");
	c.listen[1] = c.listen[0];
	config_parse_listen("10.0.0.2:7472", &c.listen[1]);
	c.n_listen = 2;
	tap_ok(!mesh_target_is_self(&c, &locals, &a) &&
	       (a = v4("10.0.0.2", 7472), mesh_target_is_self(&c, &locals, &a)),
	       "two listeners: each address with its own port only");
}

static void test_capacity(void)
{
	struct rdmad_config c;
	char err[256] = "";

	config_defaults(&c);
	snprintf(c.mesh.targets, sizeof(c.mesh.targets), "/p");
	tap_ok(!mesh_targets_capacity(&c, 64, 64, err, sizeof(err)),
	       "64 peers, 1 path: 64 connections fit the default 64");
	tap_ok(mesh_targets_capacity(&c, 200, 200, err, sizeof(err)) == -EINVAL &&
	       strstr(err, "need 200 connections") &&
	       strstr(err, "max_connections is 64"),
	       "200 peers with the default max_connections refused with "
	       "the numbers (%s)", err);
	c.max_connections = 500;
	c.mesh.paths = 4;
	tap_ok(mesh_targets_capacity(&c, 200, 200, err, sizeof(err)) == -EINVAL &&
	       strstr(err, "need 800 connections"),
	       "each peer's paths count (%s)", err);
	c.max_per_host = 2;
	c.mesh.paths = 3;
	c.max_connections = 1000;
	tap_ok(mesh_targets_capacity(&c, 10, 10, err, sizeof(err)) == -EINVAL &&
	       strstr(err, "max_connections_per_host is 2"),
	       "more paths than one host may open refused (%s)", err);
	c.max_per_host = 0;
	c.mesh.paths = 8;
	c.max_registered_bytes = 64ull << 20;
	tap_ok(mesh_targets_capacity(&c, 100, 100, err, sizeof(err)) == -EINVAL &&
	       strstr(err, "need 104857600 registered bytes") &&
	       strstr(err, "max_registered_bytes is 67108864"),
	       "registered memory: 100 x 8 x 64 KiB, served and probed, "
	       "over 64 MiB refused (%s)", err);
	c.mesh.targets[0] = '\0';
	tap_ok(!mesh_targets_capacity(&c, 100, 100, err, sizeof(err)),
	       "mesh off: nothing needed");
}

static void test_check(void)
{
	char path[] = "/tmp/test-mesh-targets-XXXXXX";
	struct sockaddr_storage here[1] = { v4("10.0.0.1", 0) };
	struct mesh_locals locals = { here, 1 };
	struct rdmad_config c;
	struct mesh_targets t;
	char err[256] = "";
	int fd = mkstemp(path), ret;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	unsigned int i;

	if (!f) {
		tap_ok(0, "a temporary targets file");
		return;
	}
	fprintf(f, "10.0.0.1\n10.0.0.2\n[fe80::1]:7472\n");
	for (i = 3; i < 250; i++)
		fprintf(f, "10.0.1.%u\n", i);
	fclose(f);
	cfg_with(&c, "0.0.0.0:7471");
	snprintf(c.mesh.targets, sizeof(c.mesh.targets), "%s", path);
	c.max_connections = 1000;
	f = fopen(path, "r");
	ret = mesh_targets_check(&c, &locals, f, 0, &t, NULL, NULL, err,
				 sizeof(err));
	if (f)
		fclose(f);
	tap_ok(!ret && t.n == 249 && t.n_file == 250 && t.n_self == 1 &&
	       !strcmp(t.self[0], "10.0.0.1:7471") &&
	       !strcmp(t.v[0].name, "10.0.0.2:7471") &&
	       !strcmp(t.v[1].name, "[fe80::1]:7472"),
	       "targets: 249 peers, ourselves skipped and named (%s)", err);
	mesh_targets_free(&t);
	c.max_connections = 64;
	f = fopen(path, "r");
	ret = mesh_targets_check(&c, &locals, f, 0, &t, NULL, NULL, err,
				 sizeof(err));
	if (f)
		fclose(f);
	tap_ok(ret == -EINVAL && strstr(err, "need 249 connections") &&
	       !t.v, "the default max_connections refused (%s)", err);
	unlink(path);
	config_defaults(&c);
	snprintf(c.mesh.targets, sizeof(c.mesh.targets), "%s", path);
	f = fopen(path, "r");
	ret = mesh_targets_check(&c, &locals, f, 0, &t, NULL, NULL, err,
				 sizeof(err));
	if (f)
		fclose(f);
	tap_ok(ret == -EBADF && strstr(err, "not open"),
	       "no file refused (%s)", err);
}

/*
 * The configuration is the one place that refuses [mesh] timers: what it
 * accepts, at every key's bounds, is a schedule mesh_sched_cfg_check()
 * takes, so nothing checks them twice.  One key at its bound a file.
 */
static void test_sched_bounds(void)
{
	static const char *const ini[] = {
		"interval = 10ms", "interval = 1h", "jitter = 0", "jitter = 50",
		"connect_timeout = 10ms\nbackoff_min = 10ms\nbackoff_max = 20ms",
		"round_timeout = 10ms", "round_timeout = 1h",
		"backoff_min = 20ms\nbackoff_max = 20ms\nconnect_timeout = 10ms",
		"backoff_min = 1h\nbackoff_max = 1h\nconnect_timeout = 10ms",
		"bandwidth_every = 1s\nbandwidth_duration = 10ms\n"
		"bandwidth_share = 0.001%",
		"bandwidth_every = 24h\nbandwidth_duration = 10s\n"
		"bandwidth_share = 50%",
		"bandwidth_every = 0",
	};
	struct mesh_policy pol;
	struct rdmad_config c;
	char text[256], label[256], err[256];
	const char *why;
	unsigned int i, j;

	for (i = 0; i < sizeof(ini) / sizeof(ini[0]); i++) {
		config_defaults(&c);
		snprintf(text, sizeof(text), "[mesh]\n%s\n", ini[i]);
		snprintf(label, sizeof(label), "%s", ini[i]);
		for (j = 0; label[j]; j++)
			if (label[j] == '\n')
				label[j] = ',';
		err[0] = '\0';
		if (config_load_string(&c, text, "t.ini", err, sizeof(err)) ||
		    config_validate(&c, "t.ini", err, sizeof(err))) {
			tap_ok(0, "accepted: %s (%s)", label, err);
			continue;
		}
		mesh_policy_of(&c.mesh, &pol);
		why = mesh_sched_cfg_check(&pol.sched);
		tap_ok(!why, "accepted at a bound, a valid schedule: %s (%s)",
		       label, why ? why : "ok");
	}
	config_defaults(&c);
	tap_ok(config_load_string(&c, "[mesh]\ninterval = 9ms\n", "t.ini",
				  err, sizeof(err)) &&
	       !config_load_string(&c, "[mesh]\nbackoff_min = 2s\n"
				   "backoff_max = 1s\nconnect_timeout = 10ms\n", "t.ini", err,
				   sizeof(err)) &&
	       config_validate(&c, "t.ini", err, sizeof(err)),
	       "below the bounds: refused by the configuration (%s)", err);
}

/* An inventory of 3 ToRs x 2 hosts x 2 rails, read with LISTEN/LOCALS. */
static int fleet_check(struct rdmad_config *c, const char *text,
		       const struct mesh_locals *locals, uint64_t now,
		       struct mesh_targets *t, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	snprintf(c->mesh.targets, sizeof(c->mesh.targets), "inv");
	ret = mesh_targets_check(c, locals, f, now, t, NULL, NULL, err, errlen);
	if (f)
		fclose(f);
	return ret;
}

static const char fleet[] =
	"10.0.1.1 host=h1 tor=t1 rail=0\n10.0.2.1 host=h1 tor=t1 rail=1\n"
	"10.0.1.2 host=h2 tor=t1 rail=0\n10.0.2.2 host=h2 tor=t1 rail=1\n"
	"10.0.1.3 host=h3 tor=t2 rail=0\n10.0.2.3 host=h3 tor=t2 rail=1\n"
	"10.0.1.4 host=h4 tor=t2 rail=0\n10.0.2.4 host=h4 tor=t2 rail=1\n"
	"10.0.1.5 host=h5 tor=t3 rail=0\n10.0.2.5 host=h5 tor=t3 rail=1\n"
	"10.0.1.6 host=h6 tor=t3 rail=0\n10.0.2.6 host=h6 tor=t3 rail=1\n";

/*
 * An inventory with topology: this rdmad found by its addresses, its
 * peers the selection's (same ToR and cross-ToR, rail to rail, each from
 * its own address on that rail), the next switch ahead; refused when
 * this rdmad is not in it, when two hosts are, and when the bounds or
 * the capacity do not fit.
 */
static void test_fleet(void)
{
	struct sockaddr_storage here[2] = { v4("10.0.1.1", 0),
					    v4("10.0.2.1", 0) };
	struct mesh_locals locals = { here, 2 };
	const uint64_t now = 1800000000000ull;	/* 2027, Unix ms */
	unsigned int i, same = 0, cross = 0, src_ok = 0;
	struct rdmad_config c;
	struct mesh_targets t;
	char err[256] = "", before[8][MESH_NAME_LEN];
	uint64_t next;
	int ret;

	cfg_with(&c, "0.0.0.0:7471");
	c.mesh.cross_tor = 1;
	ret = fleet_check(&c, fleet, &locals, now, &t, err, sizeof(err));
	for (i = 0; !ret && i < t.n; i++) {
		const struct sockaddr_in *d = (const void *)&t.v[i].dst;
		const struct sockaddr_in *s = (const void *)&t.v[i].src;

		same += t.v[i].why == MESH_SELECT_SAME_TOR;
		cross += t.v[i].why == MESH_SELECT_CROSS_TOR;
		/* 10.0.R.x from 10.0.R.1, port 0 */
		src_ok += s->sin_family == AF_INET && !s->sin_port &&
			  ((ntohl(d->sin_addr.s_addr) >> 8) & 255) ==
			  ((ntohl(s->sin_addr.s_addr) >> 8) & 255) &&
			  (ntohl(s->sin_addr.s_addr) & 255) == 1 &&
			  ((ntohl(d->sin_addr.s_addr) >> 8) & 255) ==
			  t.v[i].rail + 1u;
	}
	tap_ok(!ret && t.n == 4 && same == 2 && cross == 2 && src_ok == 4 &&
	       t.n_self == 2 && t.n_file == 12 && !strcmp(t.v[0].tor, "t1") &&
	       !strcmp(t.v[0].host, "h2"),
	       "inventory, M = 1: 2 same-ToR + 2 cross-ToR peers, each rail "
	       "from its own address (%u peers, %u same, %u cross, %u "
	       "sources right; %s)", t.n, same, cross, src_ok, err);
	tap_ok(!ret && t.next_ms > now && t.next_ms <= now + c.mesh.epoch_ms,
	       "the next slot switch within an epoch (%llu ms ahead)",
	       (unsigned long long)(t.next_ms - now));
	/* a whole epoch on: every cross-ToR slot moved to the other ToR */
	for (i = 0; !ret && i < t.n && i < 8; i++)
		snprintf(before[i], MESH_NAME_LEN, "%s", t.v[i].name);
	next = t.next_ms;
	if (!ret)
		ret = mesh_targets_at(&t, now + c.mesh.epoch_ms);
	for (i = 0, cross = 0; !ret && i < t.n && i < 8; i++)
		cross += t.v[i].why == MESH_SELECT_CROSS_TOR &&
			 strcmp(t.v[i].name, before[i]);
	tap_ok(!ret && t.n == 4 && cross == 2 && t.next_ms > next,
	       "an epoch later: the 2 cross-ToR peers are others (%u)", cross);
	mesh_targets_free(&t);

	locals.n = 0;
	cfg_with(&c, "10.0.9.9:7471");
	ret = fleet_check(&c, fleet, &locals, now, &t, err, sizeof(err));
	tap_ok(ret == -EINVAL && strstr(err, "none of its 12 addresses is "
					"this rdmad") && !t.v && !t.inv,
	       "this rdmad not in the inventory: refused (%s)", err);
	cfg_with(&c, "0.0.0.0:7471");
	c.mesh.cross_tor = 1;
	here[1] = v4("10.0.2.3", 0);
	locals.n = 2;
	ret = fleet_check(&c, fleet, &locals, now, &t, err, sizeof(err));
	tap_ok(ret == -EINVAL && strstr(err, "inv:6: '10.0.2.3:7471' is this "
					"rdmad, and so is '10.0.1.1:7471'"),
	       "two hosts of the inventory both this rdmad: refused (%s)", err);
	here[1] = v4("10.0.2.1", 0);
	c.mesh.max_peers = 3;
	ret = fleet_check(&c, fleet, &locals, now, &t, err, sizeof(err));
	tap_ok(ret == -EINVAL && strstr(err, "could have 4 peers, more than "
					"max_peers 3"),
	       "a host could have more peers than max_peers: refused (%s)",
	       err);
	c.mesh.max_peers = 4;
	c.max_connections = 5;
	ret = fleet_check(&c, fleet, &locals, now, &t, err, sizeof(err));
	tap_ok(ret == -EINVAL && strstr(err, "6 probers x 1 paths need 6 "
					"connections") &&
	       strstr(err, "max_connections is 5"),
	       "inbound probers x paths over max_connections: refused (%s)",
	       err);
	c.max_connections = 6;
	ret = fleet_check(&c, fleet, &locals, now, &t, err, sizeof(err));
	tap_ok(!ret && t.n == 4, "max_peers 4, max_connections 6: taken (%s)",
	       err);
	mesh_targets_free(&t);
}

/*
 * A reload with a new inventory (a ToR added: every cross-ToR assignment
 * changes) hands over slot by slot: until its own switch a slot keeps the
 * previous inventory's peers, then takes the new one's; same-ToR peers
 * come at once; the previous inventory goes once every slot is over.
 */
static void test_handover(void)
{
	static const char bigger[] =
		"10.0.1.1 host=h1 tor=t1\n10.0.1.2 host=h2 tor=t1\n"
		"10.0.1.3 host=h3 tor=t2\n10.0.1.4 host=h4 tor=t2\n"
		"10.0.1.5 host=h5 tor=t3\n10.0.1.6 host=h6 tor=t3\n"
		"10.0.1.7 host=h7 tor=t4\n10.0.1.8 host=h8 tor=t4\n";
	struct sockaddr_storage here[1] = { v4("10.0.1.1", 0) };
	struct mesh_locals locals = { here, 1 };
	char err[256] = "", before[MESH_NAME_LEN], after[MESH_NAME_LEN];
	struct mesh_targets cur, next;
	unsigned int i, k, same = 0, kept = 0;
	struct rdmad_config c;
	uint64_t now = 0, until;
	int ret = 0;

	cfg_with(&c, "0.0.0.0:7471");
	c.mesh.cross_tor = 1;
	/* a moment where the two inventories pick different cross-ToR
	 * peers on rail 0 (the old one has two rails, the new one) */
	for (k = 0; k < 64; k++) {
		now = 1800000000000ull + k * 7919ull;
		ret = fleet_check(&c, fleet, &locals, now, &cur, err,
				  sizeof(err));
		ret = ret ? ret : fleet_check(&c, bigger, &locals, now, &next,
					      err, sizeof(err));
		before[0] = after[0] = '\0';
		for (i = 0; !ret && i < cur.n; i++)
			if (cur.v[i].why == MESH_SELECT_CROSS_TOR &&
			    !cur.v[i].rail)
				snprintf(before, sizeof(before), "%s",
					 cur.v[i].name);
		for (i = 0; !ret && i < next.n; i++)
			if (next.v[i].why == MESH_SELECT_CROSS_TOR)
				snprintf(after, sizeof(after), "%s",
					 next.v[i].name);
		if (ret || (before[0] && after[0] && strcmp(before, after)))
			break;
		mesh_targets_free(&cur);
		mesh_targets_free(&next);
	}
	if (!tap_ok(!ret && k < 64, "two inventories that pick %s and %s "
		    "(%s)", before, after, err))
		return;
	mesh_targets_handover(&next, &cur, now);
	until = next.prev_until[0][0];
	ret = mesh_targets_at(&next, now);
	for (i = 0; !ret && i < next.n; i++) {
		same += next.v[i].why == MESH_SELECT_SAME_TOR;
		kept += next.v[i].why == MESH_SELECT_CROSS_TOR &&
			!strcmp(next.v[i].name, before);
	}
	tap_ok(!ret && !cur.inv && !cur.sel && next.prev_sel && until > now &&
	       next.next_ms <= until && same == 1 && kept == 1 && next.n == 2,
	       "handover: the same-ToR peer at once, slot 0 keeps %s (not "
	       "%s) until its switch, %llu ms ahead", before, after,
	       (unsigned long long)(until - now));
	ret = mesh_targets_at(&next, until);
	for (i = 0, kept = 0; !ret && i < next.n; i++)
		kept += !strcmp(next.v[i].name, before) &&
			next.v[i].why == MESH_SELECT_CROSS_TOR;
	tap_ok(!ret && !next.prev_sel && !next.prev_inv && next.n == 2 &&
	       !kept && next.next_ms > until,
	       "handover: at the switch, the new inventory's cross-ToR peer; "
	       "the previous inventory let go");
	mesh_targets_free(&cur);
	mesh_targets_free(&next);
}

static void test_names(void)
{
	struct target t;
	struct sockaddr_storage ss;
	const char *why = NULL;
	char name[MESH_NAME_LEN];

	memset(&t, 0, sizeof(t));
	snprintf(t.host, sizeof(t.host), "peer.example");
	t.port = 7471;
	tap_ok(mesh_target_addr(&t, &ss, &why) == -EINVAL && why,
	       "a name is refused: no lookups");
	snprintf(t.host, sizeof(t.host), "::1");
	mesh_inventory_label(&t, name, sizeof(name));
	tap_ok(!mesh_target_addr(&t, &ss, &why) &&
	       ss.ss_family == AF_INET6 && !strcmp(name, "[::1]:7471"),
	       "IPv6: bracketed name, numeric address");
}

/* SS's address as text, port aside ("" for none). */
static const char *addr_text(const struct sockaddr_storage *ss, char *buf,
			     size_t len)
{
	const void *a = ss->ss_family == AF_INET6 ?
		(const void *)&((const struct sockaddr_in6 *)(const void *)ss)->sin6_addr :
		(const void *)&((const struct sockaddr_in *)(const void *)ss)->sin_addr;

	if (!ss->ss_family || !inet_ntop(ss->ss_family, a, buf, (socklen_t)len))
		snprintf(buf, len, "%s", "");
	return buf;
}

/*
 * [mesh] rails with a plain targets file: each peer on the rail whose
 * network holds it, probed from this host's address there (a listener's,
 * else an interface's), with a port 0; a peer on no rail, a rail where
 * this host has no address, and an inventory with keys: refused, naming
 * the line.
 */
static void test_rails(void)
{
	static const char plain[] =
		"10.0.1.1\n10.0.2.1\n10.0.1.2\n10.0.2.2\n10.0.1.3\n10.0.2.3\n";
	struct sockaddr_storage here[2] = { v4("10.0.1.1", 0),
					    v4("10.0.2.1", 0) };
	struct mesh_locals locals = { here, 2 };
	struct rdmad_config c;
	struct mesh_targets t;
	char err[256] = "", src[3][64];
	unsigned int i, ok = 1;
	int ret;

	/* Listening on both rails' addresses. */
	cfg_with(&c, "10.0.1.1:7471");
	config_parse_listen("10.0.2.1:7471", &c.listen[1]);
	c.n_listen = 2;
	acl_match_parse("10.0.1.0/24", &c.mesh.rails[0]);
	acl_match_parse("10.0.2.0/24", &c.mesh.rails[1]);
	c.mesh.n_rails = 2;
	ret = fleet_check(&c, plain, &locals, 0, &t, err, sizeof(err));
	for (i = 0; !ret && i < t.n; i++) {
		unsigned int want = strstr(t.v[i].name, "10.0.2.") ? 1 : 0;

		addr_text(&t.v[i].src, src[0], sizeof(src[0]));
		ok &= t.v[i].rail == want &&
		      !strcmp(src[0], want ? "10.0.2.1" : "10.0.1.1") &&
		      ((struct sockaddr_in *)(void *)&t.v[i].src)->sin_port == 0;
	}
	tap_ok(!ret && t.n == 4 && t.n_self == 2 && ok &&
	       !strcmp(t.v[0].name, "10.0.1.2:7471") && t.v[1].rail == 1,
	       "rails: 4 peers, each on its network's rail, from this "
	       "host's address there (%s)", err);
	mesh_targets_free(&t);

	/* A wildcard listener: the sources are the interfaces' addresses. */
	cfg_with(&c, "0.0.0.0:7471");
	acl_match_parse("10.0.1.0/24", &c.mesh.rails[0]);
	acl_match_parse("10.0.2.0/24", &c.mesh.rails[1]);
	c.mesh.n_rails = 2;
	ret = fleet_check(&c, plain, &locals, 0, &t, err, sizeof(err));
	tap_ok(!ret && t.n == 4 && t.v[1].rail == 1 &&
	       !strcmp(addr_text(&t.v[1].src, src[1], sizeof(src[1])),
		       "10.0.2.1") &&
	       !strcmp(addr_text(&t.v[0].src, src[2], sizeof(src[2])),
		       "10.0.1.1"),
	       "rails behind a wildcard listener: from the interfaces' "
	       "addresses (%s)", err);
	mesh_targets_free(&t);

	/* Without rails: no source, every peer on rail 0. */
	c.mesh.n_rails = 0;
	ret = fleet_check(&c, plain, &locals, 0, &t, err, sizeof(err));
	tap_ok(!ret && t.n == 4 && t.v[1].rail == 0 && !t.v[1].src.ss_family,
	       "no rails: one mesh, rdma_cm picks the source (%s)", err);
	mesh_targets_free(&t);

	/* A peer on no rail's network: refused with its line. */
	acl_match_parse("10.0.1.0/24", &c.mesh.rails[0]);
	c.mesh.n_rails = 1;
	ret = fleet_check(&c, plain, &locals, 0, &t, err, sizeof(err));
	tap_ok(ret == -EINVAL && strstr(err, "inv:4: '10.0.2.2:7471' is on "
					"none of the rails") && !t.v,
	       "an address on no rail refused (%s)", err);

	/* A rail where this host has no address (10.0.2.1 is not this
	 * host's then: a peer). */
	acl_match_parse("10.0.2.0/24", &c.mesh.rails[1]);
	c.mesh.n_rails = 2;
	locals.n = 1;
	ret = fleet_check(&c, plain, &locals, 0, &t, err, sizeof(err));
	tap_ok(ret == -EINVAL && strstr(err, "inv:2: '10.0.2.1:7471' is on "
					"rail 1 (10.0.2.0/24), where this host "
					"has no address") && !t.v,
	       "a rail without an address of this host refused (%s)", err);
	locals.n = 2;

	/* An inventory places its addresses itself. */
	ret = fleet_check(&c, "10.0.1.1 host=h1 tor=t1\n10.0.1.2 host=h2 tor=t1\n",
			  &locals, 0, &t, err, sizeof(err));
	tap_ok(ret == -EINVAL && strstr(err, "[mesh] rails is for a plain "
					"targets file") && !t.v,
	       "rails with an inventory refused (%s)", err);
}

int main(void)
{
	test_self();
	test_capacity();
	test_check();
	test_sched_bounds();
	test_fleet();
	test_handover();
	test_names();
	test_rails();
	return tap_done();
}
