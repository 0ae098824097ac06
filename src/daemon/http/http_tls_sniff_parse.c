/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_tls_sniff_parse.c - a TLS port's first bytes (see http_tls_sniff_parse.h).
 * A TLS record starts with its content type, 0x16 for the handshake;
 * HTTP/1 starts with a method and a space (the methods libevent knows).
 */
#include "http/http_tls_sniff_parse.h"

#include <string.h>

static const char *const sniff_methods[] = {
	"GET ", "HEAD ", "POST ", "PUT ", "DELETE ", "OPTIONS ", "TRACE ",
	"CONNECT ", "PATCH ",
};
#define SNIFF_N	(sizeof(sniff_methods) / sizeof(sniff_methods[0]))

enum http_tls_sniff http_tls_sniff_parse(const unsigned char *b, size_t n)
{
	unsigned int i;
	size_t len, m;
	int prefix = 0;

	if (!n)
		return HTTP_TLS_SNIFF_MORE;
	if (b[0] == 0x16)
		return HTTP_TLS_SNIFF_TLS;
	for (i = 0; i < SNIFF_N; i++) {
		len = strlen(sniff_methods[i]);
		m = n < len ? n : len;
		if (memcmp(b, sniff_methods[i], m))
			continue;
		/* the whole method, or as much as HTTP_TLS_SNIFF_LEN shows */
		if (m == len || m >= HTTP_TLS_SNIFF_LEN)
			return HTTP_TLS_SNIFF_HTTP;
		prefix = 1;
	}
	return prefix ? HTTP_TLS_SNIFF_MORE : HTTP_TLS_SNIFF_GARBAGE;
}
