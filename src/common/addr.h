/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * addr.h - socket addresses as text and from text, for logs, the status,
 * the configuration and the HTTP endpoint (pure).
 */
#ifndef RDMAD_ADDR_H
#define RDMAD_ADDR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/*
 * SA's numeric host (IPv6 without brackets) and port.  0, or
 * -EAFNOSUPPORT with host "?" and port 0 for anything but IPv4 and IPv6.
 */
int addr_split(const struct sockaddr *sa, char *host, size_t len,
	       uint16_t *port);
/* "HOST:PORT", "[IPV6]:PORT", or "?". */
void addr_str(const struct sockaddr *sa, char *buf, size_t len);

/* A numeric address and port, and its text. */
struct addr_endpoint {
	struct sockaddr_storage addr;	/* port set */
	socklen_t addrlen;
	char text[64];			/* "HOST:PORT", "[IPV6]:PORT" */
};

/*
 * "a.b.c.d[:port]" or "[v6addr][:port]" (numeric only), DEFPORT when no
 * port is given.  0, or -EINVAL (*out zeroed).
 */
int addr_parse(const char *s, unsigned int defport, struct addr_endpoint *out);

#endif /* RDMAD_ADDR_H */
