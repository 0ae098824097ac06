/* SPDX-License-Identifier: BSD-2-Clause */
/* acl_match.c - CIDR access lists (see acl_match.h). */
#include "core/acl_match.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

static const uint8_t v4mapped_prefix[12] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
};

/* The address of SA as (family, bytes); v4-mapped IPv6 becomes IPv4. */
static int acl_addr_of(const struct sockaddr *sa, uint8_t out[16])
{
	const struct sockaddr_in *in4;
	const struct sockaddr_in6 *in6;

	if (!sa)
		return -1;
	if (sa->sa_family == AF_INET) {
		in4 = (const struct sockaddr_in *)sa;
		memcpy(out, &in4->sin_addr, 4);
		return AF_INET;
	}
	if (sa->sa_family == AF_INET6) {
		in6 = (const struct sockaddr_in6 *)sa;
		if (!memcmp(in6->sin6_addr.s6_addr, v4mapped_prefix, 12)) {
			memcpy(out, in6->sin6_addr.s6_addr + 12, 4);
			return AF_INET;
		}
		memcpy(out, in6->sin6_addr.s6_addr, 16);
		return AF_INET6;
	}
	return -1;
}

/* Do the first PREFIX bits of A and B agree? */
static int prefix_equal(const uint8_t *a, const uint8_t *b,
			unsigned int prefix)
{
	unsigned int full = prefix / 8, rest = prefix % 8;
	uint8_t mask;

	if (memcmp(a, b, full))
		return 0;
	if (!rest)
		return 1;
	mask = (uint8_t)(0xff << (8 - rest));
	return (a[full] & mask) == (b[full] & mask);
}

int acl_match_parse(const char *s, struct acl_entry *e)
{
	char host[INET6_ADDRSTRLEN + 1];
	const char *slash;
	unsigned int max, prefix, i;
	size_t n;

	if (!s || !*s)
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	slash = strchr(s, '/');
	n = slash ? (size_t)(slash - s) : strlen(s);
	if (!n || n >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, n);
	host[n] = '\0';
	if (inet_pton(AF_INET, host, e->addr) == 1) {
		e->family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, host, e->addr) == 1) {
		e->family = AF_INET6;
		max = 128;
		/* ::ffff:a.b.c.d/N: an IPv4 network in disguise. */
		if (!memcmp(e->addr, v4mapped_prefix, 12)) {
			memmove(e->addr, e->addr + 12, 4);
			memset(e->addr + 4, 0, 12);
			e->family = AF_INET;
			max = 32;
			if (slash) {
				if (units_parse_uint(slash + 1, 96, 128,
						      &prefix))
					return -EINVAL;
				e->prefix = prefix - 96;
				goto check;
			}
		}
	} else {
		return -EINVAL;
	}
	prefix = max;
	if (slash && units_parse_uint(slash + 1, 0, max, &prefix))
		return -EINVAL;
	e->prefix = prefix;
check:
	/* No host bits below the prefix. */
	for (i = e->prefix; i < max; i++)
		if (e->addr[i / 8] & (0x80u >> (i % 8)))
			return -EINVAL;
	return 0;
}

int acl_match_add(struct acl *a, const struct acl_entry *e)
{
	if (a->n >= ACL_MAX_ENTRIES)
		return -ENOSPC;
	a->e[a->n++] = *e;
	return 0;
}

int acl_match_entry(const struct acl_entry *e, const struct sockaddr *sa)
{
	uint8_t addr[16];
	int fam = acl_addr_of(sa, addr);

	if (fam != e->family)
		return 0;
	return prefix_equal(addr, e->addr, e->prefix);
}

int acl_match(const struct acl *a, const struct sockaddr *sa)
{
	unsigned int i;

	for (i = 0; i < a->n; i++)
		if (acl_match_entry(&a->e[i], sa))
			return 1;
	return 0;
}

int acl_match_check(const struct acl *allow, const struct acl *deny,
	      const struct sockaddr *sa, const char **why)
{
	if (acl_addr_of(sa, (uint8_t[16]){ 0 }) < 0) {
		if (why)
			*why = "unknown address family";
		return -EACCES;
	}
	if (acl_match(deny, sa)) {
		if (why)
			*why = "address on the deny list";
		return -EACCES;
	}
	if (allow->n && !acl_match(allow, sa)) {
		if (why)
			*why = "address not on the allow list";
		return -EACCES;
	}
	return 0;
}

int acl_match_same_host(const struct sockaddr *a, const struct sockaddr *b)
{
	uint8_t x[16], y[16];
	int fa = acl_addr_of(a, x), fb = acl_addr_of(b, y);

	if (fa < 0 || fa != fb)
		return 0;
	return !memcmp(x, y, fa == AF_INET ? 4 : 16);
}

char *acl_match_entry_str(const struct acl_entry *e, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";

	inet_ntop(e->family, e->addr, host, sizeof(host));
	snprintf(buf, len, "%s/%u", host, e->prefix);
	return buf;
}
