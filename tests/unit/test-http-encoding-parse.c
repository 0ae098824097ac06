/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-http-encoding-parse.c - http_encoding_parse.c: Accept-Encoding to gzip or
 * identity, q-values at their bounds, malformed headers.
 */
#include <stddef.h>

#include "http/http_encoding_parse.h"
#include "tap.h"

static const struct {
	const char *header;
	enum http_encoding want;
} cases[] = {
	{ NULL, HTTP_ENCODING_IDENTITY },
	{ "", HTTP_ENCODING_IDENTITY },
	{ "gzip", HTTP_ENCODING_GZIP },
	{ "GZip", HTTP_ENCODING_GZIP },
	{ "x-gzip", HTTP_ENCODING_GZIP },
	{ "identity", HTTP_ENCODING_IDENTITY },
	{ "deflate", HTTP_ENCODING_IDENTITY },
	{ "gzipper", HTTP_ENCODING_IDENTITY },
	{ "gzi", HTTP_ENCODING_IDENTITY },
	/* Prometheus, curl --compressed */
	{ "gzip", HTTP_ENCODING_GZIP },
	{ "deflate, gzip, br, zstd", HTTP_ENCODING_GZIP },
	/* weights at their bounds */
	{ "gzip;q=0", HTTP_ENCODING_IDENTITY },
	{ "gzip;q=0.", HTTP_ENCODING_IDENTITY },
	{ "gzip;q=0.000", HTTP_ENCODING_IDENTITY },
	{ "gzip;q=0.001", HTTP_ENCODING_GZIP },
	{ "gzip;q=1", HTTP_ENCODING_GZIP },
	{ "gzip;q=1.000", HTTP_ENCODING_GZIP },
	{ "gzip; q=0.5", HTTP_ENCODING_GZIP },
	{ "gzip ; Q=0.5 ", HTTP_ENCODING_GZIP },
	{ "gzip;q=0, *", HTTP_ENCODING_IDENTITY },
	{ "*;q=0, gzip", HTTP_ENCODING_GZIP },
	/* malformed weights: the element counts as absent */
	{ "gzip;q=1.001", HTTP_ENCODING_IDENTITY },
	{ "gzip;q=2", HTTP_ENCODING_IDENTITY },
	{ "gzip;q=0.0001", HTTP_ENCODING_IDENTITY },
	{ "gzip;q=-1", HTTP_ENCODING_IDENTITY },
	{ "gzip;q=", HTTP_ENCODING_IDENTITY },
	{ "gzip;q=.5", HTTP_ENCODING_IDENTITY },
	{ "gzip;q=0.5x", HTTP_ENCODING_IDENTITY },
	{ "gzip;level=9", HTTP_ENCODING_IDENTITY },
	{ "gzip;", HTTP_ENCODING_IDENTITY },
	{ "gzip;q=0.5;q=1", HTTP_ENCODING_IDENTITY },
	{ "gzip;q=abc, gzip", HTTP_ENCODING_GZIP },
	/* the wildcard */
	{ "*", HTTP_ENCODING_GZIP },
	{ "*;q=0", HTTP_ENCODING_IDENTITY },
	{ "br, *;q=0.1", HTTP_ENCODING_GZIP },
	/* identity preferred when named with a higher weight */
	{ "gzip;q=0.5, identity", HTTP_ENCODING_IDENTITY },
	{ "gzip, identity;q=0.5", HTTP_ENCODING_GZIP },
	{ "gzip;q=0.5, identity;q=0.5", HTTP_ENCODING_GZIP },
	{ "identity;q=0", HTTP_ENCODING_IDENTITY },
	/* list syntax: empty elements, blanks, garbage */
	{ ",, gzip ,", HTTP_ENCODING_GZIP },
	{ " \t gzip", HTTP_ENCODING_GZIP },
	{ ",", HTTP_ENCODING_IDENTITY },
	{ "g zip", HTTP_ENCODING_IDENTITY },
	{ "\"gzip\"", HTTP_ENCODING_IDENTITY },
	{ "gzip\x01", HTTP_ENCODING_IDENTITY },
	{ "\xff\xfe, gzip", HTTP_ENCODING_GZIP },
	{ ";q=1", HTTP_ENCODING_IDENTITY },
};

int main(void)
{
	size_t i, n = sizeof(cases) / sizeof(cases[0]);

	tap_plan((int)n);
	for (i = 0; i < n; i++)
		tap_ok(http_encoding_parse(cases[i].header) == cases[i].want,
		       "\"%s\" -> %s", cases[i].header ? cases[i].header :
		       "(none)", cases[i].want == HTTP_ENCODING_GZIP ? "gzip" :
		       "identity");
	return tap_done();
}
