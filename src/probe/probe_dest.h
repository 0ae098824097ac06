/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_dest.h - where rdma-probe's connections go, and from where
 * (probe_dest.c: names resolved).
 */
#ifndef RDMAD_PROBE_DEST_H
#define RDMAD_PROBE_DEST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define PROBE_ADDR_LEN		64	/* "[v6 address]:port" and NUL */

/* Where connections go, and from where (-I). */
struct probe_dest {
	struct sockaddr_storage dst;
	struct sockaddr_storage src;
	socklen_t dst_len;
	socklen_t src_len;		/* 0: no -I */
	uint16_t port;
	char addr[PROBE_ADDR_LEN];	/* numeric "addr:port", "[v6]:port" */
	char host[PROBE_ADDR_LEN];	/* numeric address alone */
};

/*
 * HOST and PORT, and SOURCE (NULL: none) in HOST's address family, into
 * *d.  0, or -EHOSTUNREACH with the reason in why ("cannot resolve WHAT
 * 'name': ...").
 */
int probe_dest_resolve(struct probe_dest *d, const char *what,
		       const char *host, uint16_t port, const char *source,
		       char *why, size_t why_len);
/* "addr:port", plus " from src" with -I. */
void probe_dest_format(const struct probe_dest *d, char *buf, size_t len);

#endif /* RDMAD_PROBE_DEST_H */
