/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * addr.c - socket addresses as text (see addr.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>

#include "addr.h"

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
