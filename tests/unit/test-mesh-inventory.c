/* SPDX-License-Identifier: BSD-2-Clause */
/* test-mesh-inventory.c - the fabric's inventory (mesh_inventory_parse). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_inventory_parse.h"
#include "tap.h"

#define PORT 7471

static char errbuf[512];

/* The warnings a parse gave: how many, and the first. */
static struct {
	unsigned int n;
	char first[512], last[512];
} warned;

static void on_warning(void *arg, const char *msg)
{
	(void)arg;
	if (warned.n++ == 0)
		snprintf(warned.first, sizeof(warned.first), "%s", msg);
	snprintf(warned.last, sizeof(warned.last), "%s", msg);
}

static int parse_max(const char *text, size_t len, unsigned int max,
		     struct mesh_inventory *inv)
{
	FILE *in = fmemopen((void *)text, len, "r");
	int ret;

	if (!in)
		exit(99);
	errbuf[0] = '\0';
	memset(&warned, 0, sizeof(warned));
	ret = mesh_inventory_parse(in, "inv", PORT, max, inv, on_warning,
				   NULL, errbuf, sizeof(errbuf));
	fclose(in);
	return ret;
}

static int parse(const char *text, struct mesh_inventory *inv)
{
	return parse_max(text, strlen(text), 0, inv);
}

/* TEXT is refused with exactly WANT. */
static void refused(const char *text, const char *want, const char *what)
{
	struct mesh_inventory inv;
	int ret = parse(text, &inv);

	if (!tap_ok(ret == -EINVAL && !strcmp(errbuf, want), "%s", what))
		tap_diag("got %d '%s', want '%s'", ret, errbuf, want);
	if (!ret)
		mesh_inventory_free(&inv);
}

/* N hosts h0..h(N-1), one a line, under ToRs of 32. */
static char *hosts_text(unsigned int n, size_t *len)
{
	char *buf = malloc((size_t)n * 64 + 1), *p = buf;
	unsigned int i;

	if (!buf)
		exit(99);
	for (i = 0; i < n; i++)
		p += sprintf(p, "10.%u.%u.%u host=h%u tor=t%u\n", i >> 16,
			     (i >> 8) & 255, i & 255, i, i / 32);
	*len = (size_t)(p - buf);
	return buf;
}

static void test_bare(void)
{
	struct mesh_inventory inv;
	int ret;

	ret = parse("# today's targets file\n10.0.0.1\n10.0.0.2:7472\n"
		    "\n[fe80::1]:7471\n10.0.0.1:7471  # again\n", &inv);
	tap_ok(ret == 0 && inv.n_addr == 3 && inv.n_host == 3 &&
	       !inv.topology && !inv.rails && inv.n_rails == 1 &&
	       inv.n_tor == 0, "a targets file is an inventory without "
	       "topology");
	tap_ok(warned.n == 1 && !strcmp(warned.first, "inv:6: '10.0.0.1:7471': "
					"same target as line 2, probed once"),
	       "a repeat there is dropped with a warning: %s", warned.first);
	tap_ok(!ret && !strcmp(mesh_inventory_str(&inv, inv.host[1].name),
			       "10.0.0.2:7472") &&
	       inv.addr[2].port == 7471 &&
	       !strcmp(mesh_inventory_str(&inv, inv.addr[2].label),
		       "[fe80::1]:7471"),
	       "host defaults to the address as HOST:PORT");
	if (!ret)
		mesh_inventory_free(&inv);
	ret = parse("", &inv);
	tap_ok(ret == 0 && inv.n_addr == 0, "an empty file is no error");
	if (!ret)
		mesh_inventory_free(&inv);
}

static void test_topology(void)
{
	struct mesh_inventory inv;
	uint32_t h;
	int ret;

	ret = parse("# ADDRESS[:PORT] key=value ...\n"
		    "10.0.1.1   host=h001 tor=t01 pod=p0 rail=0\n"
		    "10.0.2.1   host=h001 tor=t01 pod=p0 rail=1  # nic 2\n"
		    "10.0.1.2:7000 host=h002 tor=t02 pod=p1 rail=0\n"
		    "10.0.2.2\tpod=p1 tor=t02 rail=7 host=h002\n", &inv);
	tap_ok(ret == 0 && inv.topology && inv.rails && inv.pods &&
	       inv.n_addr == 4 && inv.n_host == 2 && inv.n_tor == 2 &&
	       inv.n_pod == 2 && inv.n_rails == 8, "the example: 2 hosts, "
	       "2 ToRs, 2 pods, rails 0..7 (%s)", errbuf);
	if (ret)
		return;
	h = mesh_inventory_find(&inv, "h002");
	tap_ok(h == 1 && inv.host[h].addr[0] == 2 && inv.host[h].addr[7] ==
	       3 && inv.host[h].addr[1] == MESH_INV_NONE &&
	       inv.addr[2].port == 7000 && inv.addr[3].rail == 7,
	       "a host's addresses by rail");
	tap_ok(mesh_inventory_find(&inv, "10.0.2.1:7471") == 0 &&
	       mesh_inventory_find(&inv, "nobody") == MESH_INV_NONE,
	       "found by host name or address");
	tap_ok(!strcmp(mesh_inventory_str(&inv, inv.tor_name[inv.host[h].tor]),
		       "t02") &&
	       !strcmp(mesh_inventory_str(&inv, inv.pod_name[inv.host[h].pod]),
		       "p1"), "ToR and pod names interned");
	mesh_inventory_free(&inv);
	ret = parse("10.0.0.1 tor=a\n10.0.0.2 tor=a\n10.0.0.3 tor=b\n", &inv);
	tap_ok(ret == 0 && inv.n_host == 3 && inv.n_tor == 2 && !inv.rails &&
	       !inv.pods && inv.host[2].pod == MESH_INV_NONE,
	       "tor alone: host is the address, no rails, no pods");
	if (!ret)
		mesh_inventory_free(&inv);
}

static void test_refused(void)
{
	char name[80], text[256], want[256];

	refused("10.0.0.1 tor=a colour=red\n",
		"inv:1: unknown key 'colour' (host, tor, pod, rail)",
		"unknown key");
	refused("10.0.0.1 tor=a tor=b\n", "inv:1: 'tor' given twice",
		"repeated key");
	refused("10.0.0.1 tor=\n", "inv:1: 'tor=': empty value",
		"empty value");
	refused("10.0.0.1 tor=a host=\n", "inv:1: 'host=': empty value",
		"empty host");
	refused("10.0.0.1 tor=a =x\n",
		"inv:1: '=x': expected KEY=VALUE after the address",
		"no key");
	refused("10.0.0.1 tor=a rack7\n",
		"inv:1: 'rack7': expected KEY=VALUE after the address",
		"a word without '='");
	refused("10.0.0.1 tor=a\n10.0.0.2 host=h\n",
		"inv:2: tor= missing: a line with topology names its ToR",
		"tor required");
	refused("10.0.0.1 tor=a\n10.0.0.2\n",
		"inv:2: no topology here, but line 1 has some (topology on "
		"every line or none)", "a bare line after topology");
	refused("10.0.0.1\n10.0.0.2 tor=a\n",
		"inv:2: topology here, but line 1 has none (topology on "
		"every line or none)", "topology after a bare line");
	refused("10.0.0.1 tor=a rail=0\n10.0.0.2 tor=a\n",
		"inv:2: no rail= here, but line 1 has one (rail on every "
		"line or none)", "rail on some lines");
	refused("10.0.0.1 tor=a\n10.0.0.2 tor=a rail=1\n",
		"inv:2: rail= here, but line 1 has none (rail on every line "
		"or none)", "rail after lines without");
	refused("10.0.0.1 tor=a pod=p\n10.0.0.2 tor=b\n",
		"inv:2: no pod= here, but line 1 has one (pod on every line "
		"or none)", "pod on some lines");
	refused("10.0.0.1 tor=a\n10.0.0.2 tor=b pod=p\n",
		"inv:2: pod= here, but line 1 has none (pod on every line "
		"or none)", "pod after lines without");
	refused("10.0.0.1 host=h tor=a rail=0\n10.0.0.2 host=h tor=b rail=1\n",
		"inv:2: host h: tor b here, tor a on line 1 (a host is under "
		"one ToR)", "a host with two ToRs");
	refused("10.0.0.1 host=h tor=a pod=p rail=0\n"
		"10.0.0.2 host=h tor=a pod=q rail=1\n",
		"inv:2: tor a: pod q here, pod p on line 1 (a ToR is in one "
		"pod)", "a ToR in two pods");
	refused("10.0.0.1 host=h tor=a pod=p rail=0\n"
		"10.0.0.3 host=g tor=b pod=q rail=0\n"
		"10.0.0.2 host=h tor=a pod=q rail=1\n",
		"inv:3: tor a: pod q here, pod p on line 1 (a ToR is in one "
		"pod)", "a host with two pods (its ToR's first)");
	refused("10.0.0.1 host=h tor=a rail=1\n10.0.0.2 host=h tor=a rail=1\n",
		"inv:2: host h has an address on rail 1 already: "
		"'10.0.0.1:7471' on line 1", "two addresses of a host on one "
		"rail");
	refused("10.0.0.1 host=h tor=a\n10.0.0.2 host=h tor=a\n",
		"inv:2: host h has an address on rail 0 already: "
		"'10.0.0.1:7471' on line 1", "two addresses of a host, no "
		"rails");
	refused("10.0.0.1 tor=a\n10.0.0.1:7471 tor=a\n",
		"inv:2: '10.0.0.1:7471' is listed on line 1 already (an "
		"address is listed once, however it is spelled)",
		"an address listed twice");
	refused("10.0.0.1 tor=a rail=8\n",
		"inv:1: rail: 8 is out of range 0..7", "rail 8 (max + 1)");
	refused("10.0.0.1 tor=a rail=x\n",
		"inv:1: rail: 'x' is not a number", "rail not a number");
	refused("[::1 tor=a\n", "inv:1: '[::1': missing ']'",
		"a bad address (targets_parse_line's words)");
	refused("10.0.0.1 tor=a\"b\n",
		"inv:1: tor=a\"b: a name is letters, digits and . _ : / -",
		"a name with a quote");
	memset(name, 'n', 64);
	name[64] = '\0';
	snprintf(text, sizeof(text), "10.0.0.1 tor=%s\n", name);
	refused(text, "inv:1: tor name longer than 63 characters",
		"a 64-character name (max + 1)");
	snprintf(text, sizeof(text), "10.0.0.1 pod=a tor=t host=%s\n", name);
	snprintf(want, sizeof(want), "inv:1: host name longer than 63 "
		 "characters");
	refused(text, want, "a 64-character host name");
}

static void test_nul(void)
{
	static const char text[] = "10.0.0.1 tor=a\n10.0.0.2 tor=a\0 x\n";
	struct mesh_inventory inv;
	int ret = parse_max(text, sizeof(text) - 1, 0, &inv);

	tap_ok(ret == -EINVAL && !strcmp(errbuf, "inv:2: NUL byte in the "
					 "line"), "a NUL byte: %s", errbuf);
	if (!ret)
		mesh_inventory_free(&inv);
}

static void test_limits(void)
{
	struct mesh_inventory inv;
	char name[64], text[512], *big;
	size_t len;
	int ret;

	memset(name, 'n', 63);
	name[63] = '\0';
	snprintf(text, sizeof(text), "10.0.0.1 tor=%s host=%s rail=7\n", name,
		 name);
	ret = parse(text, &inv);
	tap_ok(ret == 0 && inv.n_rails == 8, "63-character names (max), "
	       "rail 7 (max)");
	if (!ret)
		mesh_inventory_free(&inv);
	name[62] = '\0';
	snprintf(text, sizeof(text), "10.0.0.1 tor=%s host=%s rail=6\n"
		 "10.0.0.2 tor=%s host=%s rail=0\n", name, name, name, name);
	ret = parse(text, &inv);
	tap_ok(ret == 0 && inv.n_rails == 7 && inv.n_host == 1,
	       "62-character names (max - 1), rails 6 (max - 1) and 0 (min)");
	if (!ret)
		mesh_inventory_free(&inv);
	big = hosts_text(4, &len);
	ret = parse_max(big, len, 3, &inv);
	tap_ok(ret == -EINVAL && !strcmp(errbuf, "inv:4: more hosts than "
					 "the most allowed (3)"),
	       "max + 1 hosts refused: %s", errbuf);
	ret = parse_max(big, len, 4, &inv);
	tap_ok(ret == 0 && inv.n_host == 4, "max hosts taken");
	if (!ret)
		mesh_inventory_free(&inv);
	ret = parse_max(big, len, 5, &inv);
	tap_ok(ret == 0 && inv.n_host == 4, "max - 1 hosts taken");
	if (!ret)
		mesh_inventory_free(&inv);
	free(big);
	big = hosts_text(MESH_INV_HOSTS_MAX + 1, &len);
	ret = parse_max(big, len, 0, &inv);
	tap_ok(ret == -EINVAL && !strcmp(errbuf, "inv:100001: more hosts "
					 "than the most allowed (100000)"),
	       "100,001 hosts: over the default limit (%s)", errbuf);
	ret = parse_max(big, len, MESH_INV_HOSTS_MAX + 5, &inv);
	tap_ok(ret == -EINVAL, "a limit above 100,000 means 100,000");
	len -= strlen("10.1.134.160 host=h100000 tor=t3125\n");
	ret = parse_max(big, len, 0, &inv);
	tap_ok(ret == 0 && inv.n_host == MESH_INV_HOSTS_MAX &&
	       inv.n_tor == 3125, "100,000 hosts (the limit) taken");
	if (!ret) {
		tap_diag("%zu bytes held, %.1f a host",
			 mesh_inventory_bytes(&inv),
			 (double)mesh_inventory_bytes(&inv) / inv.n_host);
		mesh_inventory_free(&inv);
	}
	free(big);
}

/* An address is compared by value, never by spelling. */
static void test_spellings(void)
{
	struct mesh_inventory inv;
	int ret;

	/* The file: 7 lines, 2 addresses. */
	ret = parse("10.0.0.2\n10.0.0.2:7471\nfd00::2\nfd00:0::2\nFD00::2\n"
		    "[fd00:0:0:0:0:0:0:2]:7471\nfd00::0:2\n", &inv);
	tap_ok(ret == 0 && inv.n_addr == 2 && inv.n_host == 2 &&
	       warned.n == 5 &&
	       !strcmp(mesh_inventory_str(&inv, inv.addr[1].label),
		       "[fd00::2]:7471") &&
	       !strcmp(warned.last, "inv:7: 'fd00::0:2': same target as line "
		       "3 ([fd00::2]:7471), probed once"),
	       "a targets file: 7 lines of 2 addresses are 2 peers, 5 "
	       "warnings: %s", warned.last);
	if (!ret)
		mesh_inventory_free(&inv);
	refused("fd00::1 host=a tor=t\nfd00::2 host=b tor=t\n"
		"fd00:0::2 host=c tor=t\n",
		"inv:3: 'fd00:0::2' is [fd00::2]:7471, listed on line 2 "
		"already (an address is listed once, however it is spelled)",
		"an inventory: one address in two spellings is refused, "
		"naming both lines");
	refused("10.0.0.2 host=a tor=t\n[FD00::2]:7471 host=b tor=t\n"
		"10.0.0.2:7471 host=c tor=t\n",
		"inv:3: '10.0.0.2:7471' is listed on line 1 already (an "
		"address is listed once, however it is spelled)",
		"the default port written out is the same address");
	refused("10.0.0.1 host=a tor=t\n10.2 host=b tor=t\n",
		"inv:2: '10.2': an IPv4 shorthand (10.2, 167772162, "
		"0x0a.0.0.2, 010.0.0.2: read by some tools as an address, by "
		"others as a name or another address): write the four decimal "
		"numbers, a.b.c.d", "an IPv4 shorthand is refused");
	ret = parse("10.0.0.1 host=h1 tor=t\n[FD00::2] host=h2 tor=t\n", &inv);
	tap_ok(ret == 0 && mesh_inventory_find(&inv, "[fd00::2]:7471") == 1 &&
	       mesh_inventory_find(&inv, "h2") == 1, "the label is the "
	       "canonical spelling");
	if (!ret)
		mesh_inventory_free(&inv);
}

/* 100,000 repeated lines: the first few warnings, then how many more. */
static void test_warn_summary(void)
{
	struct mesh_inventory inv;
	char *text = malloc(100000 * 10 + 1), *p = text;
	unsigned int i;
	int ret;

	if (!text)
		exit(99);
	for (i = 0; i < 100000; i++)
		p += sprintf(p, "10.0.0.1\n");
	ret = parse(text, &inv);
	tap_ok(ret == 0 && inv.n_addr == 1 &&
	       warned.n == TARGETS_WARN_FIRST + 1 &&
	       !strcmp(warned.first, "inv:2: '10.0.0.1': same target as line "
		       "1 (10.0.0.1:7471), probed once") &&
	       !strcmp(warned.last, "inv: ... and 99994 more like it (99999 "
		       "repeated targets in all, each probed once)"),
	       "100,000 repeated lines: %u warnings, the last '%s'", warned.n,
	       warned.last);
	if (!ret)
		mesh_inventory_free(&inv);
	free(text);
}

int main(void)
{
	test_spellings();
	test_warn_summary();
	test_bare();
	test_topology();
	test_refused();
	test_nul();
	test_limits();
	return tap_done();
}
