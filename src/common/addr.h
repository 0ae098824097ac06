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

/*
 * HOST (no brackets, no port) as a numeric address, by value: 1 with
 * its canonical text (inet_ntop's: "10.0.0.2", "fd00::2") in CANON, so
 * that two spellings of one address compare equal as text; 0 for
 * anything else (a name, a scoped IPv6 address), CANON untouched; or
 * -EINVAL for an IPv4 shorthand only inet_aton() reads ("10.2",
 * "167772162", "0x0a.0.0.2", "010.0.0.2"), with what inet_aton makes of
 * it in CANON.  rdmad takes IPv4 addresses as four decimal numbers only
 * (inet_pton()), as its [server] listen and [http] allow do.
 */
int addr_host_canon(const char *host, char *canon, size_t len);

#endif /* RDMAD_ADDR_H */
