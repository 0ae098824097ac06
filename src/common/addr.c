/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * addr.c - socket addresses as text (see addr.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "addr.h"
#include "units.h"

int addr_split(const struct sockaddr *sa, char *host, size_t len,
	       uint16_t *port)
{
	if (sa && sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;

		inet_ntop(AF_INET, &in->sin_addr, host, (socklen_t)len);
		*port = ntohs(in->sin_port);
		return 0;
	}
	if (sa && sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;

		inet_ntop(AF_INET6, &in6->sin6_addr, host, (socklen_t)len);
		*port = ntohs(in6->sin6_port);
		return 0;
	}
	snprintf(host, len, "?");
	*port = 0;
	return -EAFNOSUPPORT;
}

void addr_str(const struct sockaddr *sa, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN];
	uint16_t port;

	if (addr_split(sa, host, sizeof(host), &port))
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, sa->sa_family == AF_INET6 ? "[%s]:%u" :
			 "%s:%u", host, port);
}

int addr_parse(const char *s, unsigned int defport, struct addr_endpoint *out)
{
	char host[INET6_ADDRSTRLEN + 1];
	const char *port = NULL, *close;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&out->addr;
	struct sockaddr_in *in4 = (struct sockaddr_in *)&out->addr;
	unsigned int p = defport;
	int v6 = *s == '[';
	size_t n;

	memset(out, 0, sizeof(*out));
	if (v6) {
		close = strchr(s, ']');
		if (!close || (close[1] && close[1] != ':'))
			return -EINVAL;
		n = (size_t)(close - s - 1);
		s++;
		if (close[1] == ':')
			port = close + 2;
	} else {
		close = strchr(s, ':');
		n = close ? (size_t)(close - s) : strlen(s);
		if (close)
			port = close + 1;
	}
	if (n >= sizeof(host))
		goto bad;
	memcpy(host, s, n);
	host[n] = '\0';
	if (port && units_parse_uint(port, 1, 65535, &p))
		goto bad;
	if (v6 && inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)p);
		out->addrlen = sizeof(*in6);
	} else if (!v6 && inet_pton(AF_INET, host, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons((uint16_t)p);
		out->addrlen = sizeof(*in4);
	} else {
		goto bad;
	}
	snprintf(out->text, sizeof(out->text), v6 ? "[%s]:%u" : "%s:%u",
		 host, p);
	return 0;
bad:
	memset(out, 0, sizeof(*out));
	return -EINVAL;
}

int addr_host_canon(const char *host, char *canon, size_t len)
{
	unsigned char buf[sizeof(struct in6_addr)];
	struct in_addr in4;
	int af = strchr(host, ':') ? AF_INET6 : AF_INET;

	if (inet_pton(af, host, buf) == 1) {
		inet_ntop(af, buf, canon, (socklen_t)len);
		return 1;
	}
	if (af == AF_INET && inet_aton(host, &in4)) {
		inet_ntop(AF_INET, &in4, canon, (socklen_t)len);
		return -EINVAL;
	}
	return 0;
}
