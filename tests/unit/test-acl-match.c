/* SPDX-License-Identifier: BSD-2-Clause */
/* test-acl-match.c - CIDR parsing and matching, allow/deny verdicts, hosts. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include "core/acl_match.h"
#include "tap.h"

static struct sockaddr_storage sa(const char *addr)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

	memset(&ss, 0, sizeof(ss));
	if (inet_pton(AF_INET, addr, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons(4000);
	} else if (inet_pton(AF_INET6, addr, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(4000);
	}
	return ss;
}

static int match(const char *cidr, const char *addr)
{
	struct acl_entry e;
	struct sockaddr_storage s = sa(addr);

	if (acl_match_parse(cidr, &e))
		return -1;
	return acl_match_entry(&e, (struct sockaddr *)&s);
}

static void test_parse(void)
{
	static const char *const good[] = {
		"10.0.0.0/8", "0.0.0.0/0", "192.0.2.1", "192.0.2.1/32",
		"10.1.2.0/23", "::/0", "2001:db8::/32", "fe80::1/128",
		"2001:db8:0:0:0:0:0:0/48", "::ffff:10.0.0.0/104",
	};
	static const char *const bad[] = {
		"", "/8", "10.0.0.0/", "10.0.0.0/33", "10.0.0.1/8",
		"10.0.0.0/-1", "10.0.0.0/8x", "10.0.0/8", "2001:db8::/129",
		"2001:db8::1/64", "[2001:db8::]/32", "hostname", "10.0.0.0/08 ",
		"10.0.0.0/ 8", "::ffff:10.0.0.0/95",
		"1111:2222:3333:4444:5555:6666:7777:8888:9999/128",
	};
	struct acl_entry e;
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		tap_ok(acl_match_parse(good[i], &e) == 0, "parse '%s'", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_ok(acl_match_parse(bad[i], &e) == -EINVAL, "refuse '%s'",
		       bad[i]);
	acl_match_parse("192.0.2.1", &e);
	tap_ok(e.family == AF_INET && e.prefix == 32 &&
	       !strcmp(acl_match_entry_str(&e, buf, sizeof(buf)), "192.0.2.1/32"),
	       "bare IPv4 address is a /32 (%s)", buf);
	acl_match_parse("fe80::1", &e);
	tap_ok(e.family == AF_INET6 && e.prefix == 128, "bare IPv6 is /128");
	acl_match_parse("::ffff:10.0.0.0/104", &e);
	tap_ok(e.family == AF_INET && e.prefix == 8,
	       "v4-mapped prefix becomes IPv4 /8");
}

static void test_match(void)
{
	tap_ok(match("10.0.0.0/8", "10.255.1.2") == 1, "10/8 has 10.255.1.2");
	tap_ok(match("10.0.0.0/8", "11.0.0.1") == 0, "10/8 lacks 11.0.0.1");
	tap_ok(match("10.1.2.0/23", "10.1.3.255") == 1, "/23 upper half");
	tap_ok(match("10.1.2.0/23", "10.1.4.0") == 0, "/23 boundary");
	tap_ok(match("0.0.0.0/0", "203.0.113.9") == 1, "/0 has everything");
	tap_ok(match("0.0.0.0/0", "2001:db8::1") == 0,
	       "IPv4 /0 lacks IPv6 addresses");
	tap_ok(match("::/0", "192.0.2.1") == 0,
	       "IPv6 /0 lacks IPv4 addresses");
	tap_ok(match("192.0.2.7", "192.0.2.7") == 1, "/32 exact");
	tap_ok(match("192.0.2.7", "192.0.2.6") == 0, "/32 other");
	tap_ok(match("2001:db8::/32", "2001:db8:ffff::1") == 1, "v6 /32 in");
	tap_ok(match("2001:db8::/32", "2001:db9::1") == 0, "v6 /32 out");
	tap_ok(match("2001:db8:0:80::/57", "2001:db8:0:ff::1") == 1,
	       "v6 /57 odd bit in");
	tap_ok(match("2001:db8:0:80::/57", "2001:db8:0:7f::1") == 0,
	       "v6 /57 odd bit out");
	tap_ok(match("10.0.0.0/8", "::ffff:10.9.9.9") == 1,
	       "v4-mapped client matches an IPv4 rule");
	tap_ok(match("::ffff:10.0.0.0/104", "10.9.9.9") == 1,
	       "v4-mapped rule matches an IPv4 client");
}

static void test_check(void)
{
	struct acl allow = { .n = 0 }, deny = { .n = 0 };
	struct acl_entry e;
	struct sockaddr_storage a = sa("10.99.0.2"), b = sa("10.99.0.1"),
				c = sa("2001:db8::5");
	struct sockaddr_storage unk = { .ss_family = AF_UNIX };
	const char *why = NULL;
	int i, full = 0;

	tap_ok(acl_match_check(&allow, &deny, (struct sockaddr *)&a, &why) == 0,
	       "empty lists admit everybody");
	tap_ok(acl_match_check(&allow, &deny, (struct sockaddr *)&unk, &why) ==
	       -EACCES, "unknown address family refused");
	acl_match_parse("10.99.0.0/24", &e);
	acl_match_add(&allow, &e);
	acl_match_parse("2001:db8::/64", &e);
	acl_match_add(&allow, &e);
	acl_match_parse("10.99.0.2", &e);
	acl_match_add(&deny, &e);
	why = NULL;
	tap_ok(acl_match_check(&allow, &deny, (struct sockaddr *)&a, &why) ==
	       -EACCES && why && strstr(why, "deny"),
	       "deny wins over allow (%s)", why ? why : "-");
	tap_ok(acl_match_check(&allow, &deny, (struct sockaddr *)&b, &why) == 0,
	       "allowed, not denied");
	tap_ok(acl_match_check(&allow, &deny, (struct sockaddr *)&c, &why) == 0,
	       "IPv6 allowed");
	c = sa("2001:db8:1::5");
	tap_ok(acl_match_check(&allow, &deny, (struct sockaddr *)&c, &why) ==
	       -EACCES && strstr(why, "allow"),
	       "not on a non-empty allow list: refused");
	tap_ok(acl_match_check(&allow, &deny, NULL, &why) == -EACCES,
	       "no address: refused");
	for (i = 0; i < ACL_MAX_ENTRIES + 1; i++)
		if (acl_match_add(&deny, &e) == -ENOSPC)
			full = 1;
	tap_ok(full && deny.n == ACL_MAX_ENTRIES, "list full: -ENOSPC");
}

static void test_host(void)
{
	struct sockaddr_storage a = sa("10.0.0.1"), b = sa("10.0.0.1"),
				c = sa("10.0.0.2"), m = sa("::ffff:10.0.0.1"),
				v = sa("2001:db8::1"), w = sa("2001:db8::1");

	((struct sockaddr_in *)&b)->sin_port = htons(5555);
	tap_ok(acl_match_same_host((struct sockaddr *)&a, (struct sockaddr *)&b),
	       "same host, other port");
	tap_ok(!acl_match_same_host((struct sockaddr *)&a, (struct sockaddr *)&c),
	       "other host");
	tap_ok(acl_match_same_host((struct sockaddr *)&a, (struct sockaddr *)&m),
	       "v4-mapped is the same host");
	tap_ok(acl_match_same_host((struct sockaddr *)&v, (struct sockaddr *)&w),
	       "IPv6 same host");
	tap_ok(!acl_match_same_host((struct sockaddr *)&a, (struct sockaddr *)&v),
	       "IPv4 vs IPv6");
}

int main(void)
{
	test_parse();
	test_match();
	test_check();
	test_host();
	return tap_done();
}
