/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-encoding.c - libFuzzer target: the Accept-Encoding parser of
 * rdmad's HTTP endpoint (src/daemon/http/http_encoding_parse.c) on
 * arbitrary header values.  Whatever the input, it answers identity or
 * gzip, the same each time, and identity when the value names neither
 * gzip nor "*".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http/http_encoding_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum http_encoding e;
	char *s;

	if (size > 65536)
		return 0;
	s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	e = http_encoding_parse(s);
	CHECK(e == HTTP_ENCODING_IDENTITY || e == HTTP_ENCODING_GZIP);
	CHECK(http_encoding_parse(s) == e);
	if (!strcasestr(s, "gzip") && !strchr(s, '*'))
		CHECK(e == HTTP_ENCODING_IDENTITY);
	free(s);
	return 0;
}
