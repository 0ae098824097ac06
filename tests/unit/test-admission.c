/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-admission.c - conn_admit(): each check of the admission decision,
 * in its order, from a table; the reason code a client reads for each.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "core/acl_match.h"
#include "core/config.h"
#include "serve/conn_admit.h"
#include "tap.h"

enum hello_kind { H_NATIVE, H_RPING, H_GARBAGE, H_VERSION, H_BAD, H_MESH };

struct row {
	const char *name;
	enum hello_kind hello;
	uint32_t size, iters;
	const char *peer;
	bool stopping, psk, deny_peer;
	unsigned int n_conns, n_host, max_per_host;
	uint64_t registered;
	enum stats_reject want;		/* STATS_REJ_N: admitted */
	const char *text;		/* a part of the reason */
};

#define CTL	4096u
#define MAXREG	(1u << 20)

static const struct row rows[] = {
	{ "native admitted", H_NATIVE, 4096, 10, "10.0.0.1",
	  .want = STATS_REJ_N },
	{ "rping admitted", H_RPING, 0, 0, "10.0.0.1", .want = STATS_REJ_N },
	{ "stopping beats everything", H_GARBAGE, 0, 0, "10.0.0.1",
	  .stopping = true, .deny_peer = true, .want = STATS_REJ_SHUTDOWN,
	  .text = "shutting down: rdmad is stopping" },
	{ "denied before the hello is read", H_GARBAGE, 0, 0, "10.0.0.1",
	  .deny_peer = true, .want = STATS_REJ_DENIED, .text = "denied: " },
	{ "another peer is not denied", H_NATIVE, 4096, 10, "10.0.0.2",
	  .deny_peer = true, .want = STATS_REJ_N },
	{ "unknown protocol", H_GARBAGE, 0, 0, "10.0.0.1",
	  .want = STATS_REJ_BAD_HELLO, .text = "unknown protocol" },
	{ "other version", H_VERSION, 4096, 10, "10.0.0.1",
	  .want = STATS_REJ_VERSION,
	  .text = "unsupported protocol version 99" },
	{ "bad hello", H_BAD, 4096, 10, "10.0.0.1",
	  .want = STATS_REJ_BAD_HELLO, .text = "bad hello: " },
	{ "rping with a key", H_RPING, 0, 0, "10.0.0.1", .psk = true,
	  .want = STATS_REJ_DENIED, .text = "requires a pre-shared key" },
	{ "native with a key", H_NATIVE, 4096, 10, "10.0.0.1", .psk = true,
	  .want = STATS_REJ_N },
	{ "max_connections reached", H_NATIVE, 4096, 10, "10.0.0.1",
	  .n_conns = 8, .want = STATS_REJ_BUSY,
	  .text = "busy: 8/8 connections" },
	{ "one below max_connections", H_RPING, 0, 0, "10.0.0.1",
	  .n_conns = 7, .want = STATS_REJ_N },
	{ "max_per_host reached", H_NATIVE, 4096, 10, "10.0.0.1",
	  .n_conns = 3, .n_host = 2, .max_per_host = 2,
	  .want = STATS_REJ_BUSY_HOST,
	  .text = "busy: 2/2 connections from this host" },
	{ "max_per_host 0: no per-host limit", H_NATIVE, 4096, 10,
	  "10.0.0.1", .n_conns = 3, .n_host = 3, .want = STATS_REJ_N },
	{ "size over max_buffer_size", H_NATIVE, 65537, 10, "10.0.0.1",
	  .want = STATS_REJ_LIMIT, .text = "size 65537 exceeds server "
	  "limit 65536" },
	{ "size at max_buffer_size", H_NATIVE, 65536, 10, "10.0.0.1",
	  .want = STATS_REJ_N },
	{ "iterations over max_iterations", H_NATIVE, 4096, 101,
	  "10.0.0.1", .want = STATS_REJ_LIMIT,
	  .text = "iterations 101 exceed server limit 100" },
	{ "registered memory would pass the cap", H_NATIVE, 4096, 10,
	  "10.0.0.1", .registered = MAXREG - CTL - 4095,
	  .want = STATS_REJ_BUSY, .text = "max_registered_bytes" },
	{ "registered memory up to the cap", H_NATIVE, 4096, 10,
	  "10.0.0.1", .registered = MAXREG - CTL - 4096,
	  .want = STATS_REJ_N },
	{ "rping needs the control buffer only", H_RPING, 0, 0,
	  "10.0.0.1", .registered = MAXREG - CTL, .want = STATS_REJ_N },
	{ "rping past the cap", H_RPING, 0, 0, "10.0.0.1",
	  .registered = MAXREG - CTL + 1, .want = STATS_REJ_BUSY,
	  .text = "max_registered_bytes" },
	/* mesh sessions need nothing new: the same checks as native */
	{ "mesh admitted", H_MESH, 65536, 1, "10.0.0.1",
	  .want = STATS_REJ_N },
	{ "mesh with a key", H_MESH, 4096, 1, "10.0.0.1", .psk = true,
	  .want = STATS_REJ_N },
	{ "mesh over max_buffer_size", H_MESH, 65537, 1, "10.0.0.1",
	  .want = STATS_REJ_LIMIT, .text = "size 65537 exceeds server "
	  "limit 65536" },
	{ "mesh at max_connections", H_MESH, 4096, 1, "10.0.0.1",
	  .n_conns = 8, .want = STATS_REJ_BUSY,
	  .text = "busy: 8/8 connections" },
	{ "mesh at max_per_host", H_MESH, 4096, 1, "10.0.0.1",
	  .n_conns = 3, .n_host = 2, .max_per_host = 2,
	  .want = STATS_REJ_BUSY_HOST, .text = "from this host" },
	{ "mesh buffer counts in registered memory", H_MESH, 4096, 1,
	  "10.0.0.1", .registered = MAXREG - CTL - 4095,
	  .want = STATS_REJ_BUSY, .text = "max_registered_bytes" },
	{ "mesh with 2 iterations: bad hello", H_MESH, 4096, 2, "10.0.0.1",
	  .want = STATS_REJ_BAD_HELLO, .text = "bad hello: " },
};

static struct sockaddr_in sin4(const char *a)
{
	struct sockaddr_in s;

	memset(&s, 0, sizeof(s));
	s.sin_family = AF_INET;
	s.sin_port = htons(5000);
	inet_pton(AF_INET, a, &s.sin_addr);
	return s;
}

static uint8_t pdata_of(const struct row *r, uint8_t *p, size_t len)
{
	struct proto_hello h = {
		.version = PROTO_VERSION,
		.ops = PROTO_OP_READ | PROTO_OP_WRITE,
		.size = r->size,
		.iters = r->iters,
		.seed = 1,
		.flags = r->hello == H_MESH ? PROTO_F_MESH : 0,
	};
	int n;

	memset(p, 0, len);
	switch (r->hello) {
	case H_RPING:
		return 0;
	case H_GARBAGE:
		memcpy(p, "nope", 4);
		return 16;
	case H_MESH:
		/* encode refuses a bad mesh hello: write the flag by hand */
		h.flags = 0;
		n = proto_hello_encode(&h, p, len);
		p[6] = PROTO_F_MESH;
		return n < 0 ? 0 : (uint8_t)n;
	case H_NATIVE:
	case H_VERSION:
	case H_BAD:
		break;
	}
	n = proto_hello_encode(&h, p, len);
	if (n < 0)
		return 0;
	if (r->hello == H_VERSION)
		p[4] = 99;
	if (r->hello == H_BAD)
		return 6;	/* cut short */
	return (uint8_t)n;
}

static void test_rows(void)
{
	struct acl_entry deny;
	size_t i;

	acl_match_parse("10.0.0.1/32", &deny);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct rdmad_config cfg;
		struct sockaddr_in peer = sin4(r->peer);
		uint8_t pdata[64];
		struct conn_admit_req q;
		struct conn_admit out;
		bool ok;

		config_defaults(&cfg);
		cfg.max_connections = 8;
		cfg.max_per_host = r->max_per_host;
		cfg.max_buffer_size = 65536;
		cfg.max_iterations = 100;
		cfg.max_registered_bytes = MAXREG;
		if (r->psk)
			cfg.psk.len = 32;
		if (r->deny_peer)
			acl_match_add(&cfg.deny, &deny);
		memset(&q, 0, sizeof(q));
		q.cfg = &cfg;
		q.peer = (const struct sockaddr *)&peer;
		q.pdata = pdata;
		q.pdata_len = pdata_of(r, pdata, sizeof(pdata));
		q.stopping = r->stopping;
		q.n_conns = r->n_conns;
		q.n_host = r->n_host;
		q.registered = r->registered;
		q.ctl_len = CTL;

		ok = conn_admit(&q, &out);
		tap_ok(ok == (r->want == STATS_REJ_N) && out.why == r->want &&
		       (!r->text || strstr(out.text, r->text)),
		       "%s: %s%s%s", r->name, ok ? "admitted" : "rejected",
		       ok ? "" : ": ", ok ? "" : out.text);
		if (ok && (r->hello == H_NATIVE || r->hello == H_MESH))
			tap_ok(out.kind == PROTO_KIND_NATIVE &&
			       out.hello.size == r->size &&
			       out.hello.iters == r->iters &&
			       !!(out.hello.flags & PROTO_F_MESH) ==
			       (r->hello == H_MESH),
			       "%s: the hello as decoded", r->name);
	}
}

static void test_wire(void)
{
	static const struct {
		enum stats_reject why;
		uint8_t wire;
	} w[] = {
		{ STATS_REJ_DENIED, PROTO_REJ_DENIED },
		{ STATS_REJ_SHUTDOWN, PROTO_REJ_SHUTDOWN },
		{ STATS_REJ_BAD_HELLO, PROTO_REJ_BAD_HELLO },
		{ STATS_REJ_VERSION, PROTO_REJ_VERSION },
		{ STATS_REJ_BUSY, PROTO_REJ_BUSY },
		{ STATS_REJ_BUSY_HOST, PROTO_REJ_BUSY },
		{ STATS_REJ_LIMIT, PROTO_REJ_LIMIT },
		{ STATS_REJ_RESOURCES, PROTO_REJ_RESOURCES },
		{ STATS_REJ_ACCEPT_FAILED, PROTO_REJ_RESOURCES },
	};
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		tap_ok(conn_admit_wire_reason(w[i].why) == w[i].wire,
		       "reject reason %d reads %u on the wire", (int)w[i].why,
		       w[i].wire);
}

int main(void)
{
	size_t i, n = 9;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		n += 1 + ((rows[i].hello == H_NATIVE ||
			   rows[i].hello == H_MESH) &&
			  rows[i].want == STATS_REJ_N);
	tap_plan((int)n);
	test_rows();
	test_wire();
	return tap_done();
}
