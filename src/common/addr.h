/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * addr.h - socket addresses as text, for logs, the status and the HTTP
 * endpoint (pure).
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

#endif /* RDMAD_ADDR_H */
