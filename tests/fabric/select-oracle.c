/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * select-oracle.c - the peers the selection (mesh_select_sched) promises
 * one host of an inventory in one epoch, computed by the daemon's own
 * pure code, for the fabric's rack tests (t-97, t-98) to hold each
 * rdmad's /peers against.
 *
 *   select-oracle [--cross-tor M] INVENTORY HOST EPOCH
 *   select-oracle [--cross-tor M] --quiet FROM_MS FOR_S INVENTORY
 *
 * One line a peer, sorted as the caller sorts: "PEER|WHY|SLOT|EPOCH"
 * (PEER as the metrics label it, HOST:PORT; WHY as /peers says it; SLOT
 * and EPOCH "-" for a peer that is not cross-ToR).  Every cross-ToR slot
 * at EPOCH.  --cross-tor as [mesh] cross_tor (default: its default); the
 * other parameters change no peer.  Exits 1 when the inventory or the
 * selection is refused, 2 on a usage error.
 *
 * --quiet: an `epoch` (seconds, a whole number of hours from 24 h down)
 * in which no slot of any address switches between FROM_MS (ms since the
 * Unix epoch) and FOR_S seconds later, for a test that wants its peers
 * to stay put: a slot's switches fall at the same moments of every day
 * with `epoch = 24h` (its host's phase), so a test at that time of day
 * would meet one.  Exits 1 when no such epoch exists.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_inventory_parse.h"
#include "mesh/mesh_select_sched.h"

#define ORACLE_PEERS_MAX	4096u

static int oracle_usage(void)
{
	fprintf(stderr, "usage: select-oracle [--cross-tor M] INVENTORY HOST "
		"EPOCH\n       select-oracle [--cross-tor M] --quiet FROM_MS "
		"FOR_S INVENTORY\n");
	return 2;
}

/* Whether some cross-ToR slot of some address of S (the M of its rail)
 * switches within [FROM, TO). */
static bool oracle_switches(const struct mesh_select *s, uint64_t from,
			    uint64_t to)
{
	uint32_t a;
	unsigned int j;

	for (a = 0; a < s->inv->n_addr; a++)
		for (j = 0; j < s->rail[s->inv->addr[a].rail].m; j++)
			if (mesh_select_epoch_at(s, a, j, from) !=
			    mesh_select_epoch_at(s, a, j, to))
				return true;
	return false;
}

/* --quiet: print the first epoch from 24 h down with no switch in the
 * span; 0 printed, 1 none, 2 refused. */
static int oracle_quiet(struct mesh_select_params *p,
			const struct mesh_inventory *inv, uint64_t from,
			uint64_t for_s)
{
	struct mesh_select s;
	char err[256];
	unsigned int h;
	bool busy;

	for (h = 24; h >= 1; h--) {
		p->epoch_s = h * 3600;
		if (for_s >= p->epoch_s)
			break;
		if (mesh_select_init(&s, inv, p, err, sizeof(err))) {
			fprintf(stderr, "select-oracle: %s\n", err);
			return 2;
		}
		busy = oracle_switches(&s, from, from + for_s * 1000);
		mesh_select_fini(&s);
		if (!busy) {
			printf("%u\n", p->epoch_s);
			return 0;
		}
	}
	fprintf(stderr, "select-oracle: every epoch of 1-24 h has a switch "
		"within %" PRIu64 " s\n", for_s);
	return 1;
}

static void oracle_print(const struct mesh_inventory *inv,
			 const struct mesh_select_peer *p)
{
	printf("%s|%s|", mesh_inventory_str(inv, inv->addr[p->addr].label),
	       mesh_select_why_name(p->why));
	if (p->why == MESH_SELECT_CROSS_TOR)
		printf("%u|%" PRIu64 "\n", p->slot, p->epoch);
	else
		printf("-|-\n");
}

int main(int argc, char **argv)
{
	static struct mesh_select_peer peers[ORACLE_PEERS_MAX];
	struct mesh_inventory inv = { 0 };
	struct mesh_select_params p;
	struct mesh_select s;
	unsigned long long epoch;
	uint64_t from = 0, for_s = 0;
	bool quiet = false;
	char err[256], *end;
	uint32_t host;
	int i = 1, n, k, rc = 1;
	FILE *f;

	mesh_select_params_default(&p);
	if (argc > 3 && !strcmp(argv[1], "--cross-tor")) {
		p.cross_tor = (unsigned int)strtoul(argv[2], &end, 10);
		if (*end || !*argv[2])
			return oracle_usage();
		i = 3;
	}
	if (argc - i == 4 && !strcmp(argv[i], "--quiet")) {
		from = strtoull(argv[i + 1], &end, 10);
		if (*end || !*argv[i + 1])
			return oracle_usage();
		for_s = strtoull(argv[i + 2], &end, 10);
		if (*end || !*argv[i + 2] || !for_s)
			return oracle_usage();
		i += 3;
		quiet = true;
	} else if (argc - i != 3) {
		return oracle_usage();
	}
	epoch = quiet ? 0 : strtoull(argv[i + 2], &end, 10);
	if (!quiet && (*end || !*argv[i + 2]))
		return oracle_usage();
	if (mesh_select_params_check(&p, err, sizeof(err))) {
		fprintf(stderr, "select-oracle: %s\n", err);
		return 2;
	}
	f = fopen(argv[i], "r");
	if (!f) {
		fprintf(stderr, "select-oracle: %s: %s\n", argv[i],
			strerror(errno));
		return 1;
	}
	if (mesh_inventory_parse(f, argv[i], 7471, 0, &inv, NULL, NULL, err,
				 sizeof(err))) {
		fprintf(stderr, "select-oracle: %s\n", err);
		fclose(f);
		return 1;
	}
	fclose(f);
	if (quiet) {
		rc = oracle_quiet(&p, &inv, from, for_s);
		goto out_inv;
	}
	host = mesh_inventory_find(&inv, argv[i + 1]);
	if (host == MESH_INV_NONE) {
		fprintf(stderr, "select-oracle: no host '%s' in %s\n",
			argv[i + 1], argv[i]);
		goto out_inv;
	}
	if (mesh_select_init(&s, &inv, &p, err, sizeof(err))) {
		fprintf(stderr, "select-oracle: %s\n", err);
		goto out_inv;
	}
	n = mesh_select_host_peers(&s, host, epoch, peers, ORACLE_PEERS_MAX);
	if (n < 0) {
		fprintf(stderr, "select-oracle: more than %u peers\n",
			ORACLE_PEERS_MAX);
		goto out_select;
	}
	for (k = 0; k < n; k++)
		oracle_print(&inv, &peers[k]);
	rc = 0;
out_select:
	mesh_select_fini(&s);
out_inv:
	mesh_inventory_free(&inv);
	return rc;
}
