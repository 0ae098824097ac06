/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_dest.c - where rdma-probe's connections go: HOST and PORT (and -I)
 * resolved to socket addresses, and their numeric text for reports.
 */
#include "probe_dest.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>

/* NAME (and PORT) -> *ss; FAMILY AF_UNSPEC or the one to match. */
static int dest_lookup(const char *what, const char *name, uint16_t port,
		       int family, struct sockaddr_storage *ss,
		       socklen_t *len, char *why, size_t why_len)
{
	struct addrinfo hints, *res;
	char service[8];
	int ret;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(service, sizeof(service), "%u", port);
	ret = getaddrinfo(name, service, &hints, &res);
	if (ret) {
		snprintf(why, why_len, "cannot resolve %s '%s'%s: %s", what,
			 name, family == AF_UNSPEC ? "" :
			 " in HOST's address family", gai_strerror(ret));
		return -EHOSTUNREACH;
	}
	if (res->ai_addrlen > sizeof(*ss)) {
		freeaddrinfo(res);
		snprintf(why, why_len, "cannot resolve %s '%s': address too "
			 "long", what, name);
		return -EHOSTUNREACH;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

static void dest_numeric(const struct sockaddr_storage *ss, socklen_t len,
			 char *buf, size_t buf_len)
{
	if (getnameinfo((const struct sockaddr *)ss, len, buf,
			(socklen_t)buf_len, NULL, 0, NI_NUMERICHOST))
		snprintf(buf, buf_len, "?");
}

int probe_dest_resolve(struct probe_dest *d, const char *what,
		       const char *host, uint16_t port, const char *source,
		       char *why, size_t why_len)
{
	int ret;

	memset(d, 0, sizeof(*d));
	d->port = port;
	ret = dest_lookup(what, host, port, AF_UNSPEC, &d->dst, &d->dst_len,
			  why, why_len);
	if (!ret && source)
		ret = dest_lookup("--source", source, 0, d->dst.ss_family,
				  &d->src, &d->src_len, why, why_len);
	if (ret)
		return ret;
	dest_numeric(&d->dst, d->dst_len, d->host, sizeof(d->host));
	snprintf(d->addr, sizeof(d->addr), d->dst.ss_family == AF_INET6 ?
		 "[%s]:%u" : "%s:%u", d->host, port);
	return 0;
}

void probe_dest_format(const struct probe_dest *d, char *buf, size_t len)
{
	char s[PROBE_ADDR_LEN];

	if (!d->src_len) {
		snprintf(buf, len, "%s", d->addr);
		return;
	}
	dest_numeric(&d->src, d->src_len, s, sizeof(s));
	snprintf(buf, len, "%s from %s", d->addr, s);
}
