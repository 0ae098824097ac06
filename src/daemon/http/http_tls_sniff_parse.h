/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_tls_sniff_parse.h - what a client sent first to the TLS port: a TLS
 * handshake record (0x16), plain HTTP (an ASCII method), or neither
 * (pure).
 */
#ifndef RDMAD_HTTP_TLS_SNIFF_PARSE_H
#define RDMAD_HTTP_TLS_SNIFF_PARSE_H

#include <stddef.h>

enum http_tls_sniff {
	HTTP_TLS_SNIFF_MORE,		/* too few bytes to tell yet */
	HTTP_TLS_SNIFF_TLS,
	HTTP_TLS_SNIFF_HTTP,
	HTTP_TLS_SNIFF_GARBAGE,
};

#define HTTP_TLS_SNIFF_LEN	5	/* bytes enough to tell */

/* The first N bytes B of a connection. */
enum http_tls_sniff http_tls_sniff_parse(const unsigned char *b, size_t n);

#endif /* RDMAD_HTTP_TLS_SNIFF_PARSE_H */
