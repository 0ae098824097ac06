/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-inventory.c - libFuzzer target: the fleet's inventory parser
 * (src/daemon/mesh/mesh_inventory_parse.c) on arbitrary text, and the
 * selection (mesh_select_sched.c) on whatever it accepts.  Whatever the
 * input: 0 and an inventory whose ids and offsets are in bounds, every
 * host's addresses on their own rails, and peers within the selection's
 * own bounds; or an error with "fuzz:" first and nothing kept.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_inventory_parse.h"
#include "mesh/mesh_select_sched.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

static void on_warning(void *arg, const char *msg)
{
	CHECK(arg == NULL && !strncmp(msg, "fuzz:", 5));
}

/* Ids and offsets of INV in bounds, names NUL-terminated in the pool. */
static void fuzz_inventory_ok(const struct mesh_inventory *inv)
{
	uint32_t a, h, r;

	CHECK(inv->n_rails >= 1 && inv->n_rails <= MESH_INV_RAILS_MAX);
	for (a = 0; a < inv->n_addr; a++) {
		const struct mesh_inv_addr *x = &inv->addr[a];

		CHECK(x->label < inv->pool_len && x->host < inv->n_host);
		CHECK(x->rail < inv->n_rails && x->port != 0);
		CHECK(inv->host[x->host].addr[x->rail] == a);
	}
	for (h = 0; h < inv->n_host; h++) {
		const struct mesh_inv_host *y = &inv->host[h];

		CHECK(y->name < inv->pool_len);
		CHECK(!inv->topology || y->tor < inv->n_tor);
		CHECK(y->pod == MESH_INV_NONE || y->pod < inv->n_pod);
		for (r = 0; r < MESH_INV_RAILS_MAX; r++)
			CHECK(y->addr[r] == MESH_INV_NONE ||
			      y->addr[r] < inv->n_addr);
	}
	CHECK(inv->pool_len == 0 || inv->pool[inv->pool_len - 1] == '\0');
}

/* Every host's peers in two epochs, within the stated bound. */
static void fuzz_select_ok(const struct mesh_inventory *inv)
{
	static struct mesh_select_peer out[MESH_SELECT_PEERS_MAX];
	struct mesh_select_params p;
	struct mesh_select_bounds b;
	struct mesh_select s;
	char err[256];
	uint32_t h;
	int n, e;

	mesh_select_params_default(&p);
	p.cross_tor = 1 + (inv->n_addr % MESH_SELECT_CROSS_TOR_MAX);
	p.max_peers = MESH_SELECT_PEERS_MAX;
	p.max_inbound = MESH_SELECT_INBOUND_MAX;
	if (mesh_select_init(&s, inv, &p, err, sizeof(err)))
		return;
	mesh_select_bounds(&s, &b);
	for (e = 0; e < 2; e++)
		for (h = 0; h < inv->n_host; h++) {
			n = mesh_select_host_peers(&s, h, 12345 + e, out,
						   MESH_SELECT_PEERS_MAX);
			CHECK(n >= 0 && (unsigned int)n <= b.max_peers);
		}
	mesh_select_fini(&s);
}

/* DATA as an inventory file of at most 64 hosts into *INV. */
static int fuzz_parse(const uint8_t *data, size_t size,
		      struct mesh_inventory *inv, char *err, size_t errlen)
{
	FILE *in = fmemopen((void *)data, size, "r");
	int ret;

	CHECK(in != NULL);
	ret = mesh_inventory_parse(in, "fuzz", 7471, 64, inv, on_warning,
				   NULL, err, errlen);
	fclose(in);
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mesh_inventory inv;
	char err[512] = "";
	int ret;

	if (size == 0 || size > 65536)
		return 0;
	ret = fuzz_parse(data, size, &inv, err, sizeof(err));
	CHECK(ret == 0 || ret == -EINVAL || ret == -ENOMEM || ret == -EIO);
	if (ret) {
		CHECK(inv.n_addr == 0 && inv.addr == NULL && inv.pool == NULL &&
		      !strncmp(err, "fuzz", 4));
		return 0;
	}
	fuzz_inventory_ok(&inv);
	fuzz_select_ok(&inv);
	mesh_inventory_free(&inv);
	return 0;
}
