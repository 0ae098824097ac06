/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * acl_match.h - client network access lists: CIDR prefixes, IPv4 and IPv6.
 *
 * Pure code (no fd, no allocation): rdmad checks a connect request's
 * source address against the deny list, then the allow list, before it
 * allocates anything for it.  An IPv4-mapped IPv6 address
 * (::ffff:a.b.c.d) is matched as the IPv4 address it carries.
 */
#ifndef RDMAD_ACL_MATCH_H
#define RDMAD_ACL_MATCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define ACL_MAX_ENTRIES	64

struct acl_entry {
	int family;		/* AF_INET or AF_INET6 */
	uint8_t addr[16];	/* network address, host bits cleared */
	unsigned int prefix;	/* 0..32 or 0..128 */
};

struct acl {
	struct acl_entry e[ACL_MAX_ENTRIES];
	unsigned int n;
};

/*
 * Parse "A.B.C.D[/N]" or "IPV6[/N]" (no brackets); without /N the
 * prefix is the full address.  Host bits set below the prefix are an
 * error (10.0.0.1/8 is rejected: write 10.0.0.0/8).  0 or -EINVAL.
 */
int acl_match_parse(const char *s, struct acl_entry *e);

/* Append; -ENOSPC when full. */
int acl_match_add(struct acl *a, const struct acl_entry *e);

/* 1 when SA (AF_INET or AF_INET6) lies in E / in any entry of A. */
int acl_match_entry(const struct acl_entry *e, const struct sockaddr *sa);
int acl_match(const struct acl *a, const struct sockaddr *sa);

/*
 * The verdict for a client: deny wins; then, if the allow list is not
 * empty, the client must be on it.  0 allowed, -EACCES refused (*why
 * then says which rule).
 */
int acl_match_check(const struct acl *allow, const struct acl *deny,
	      const struct sockaddr *sa, const char **why);

/* Same host (address only, port ignored; v4-mapped = v4). */
int acl_match_same_host(const struct sockaddr *a, const struct sockaddr *b);

/* "10.0.0.0/8" into buf. */
char *acl_match_entry_str(const struct acl_entry *e, char *buf, size_t len);

#endif /* RDMAD_ACL_MATCH_H */
