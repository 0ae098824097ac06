/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_encoding_parse.h - the content coding of a reply from the request's
 * Accept-Encoding header (RFC 9110, 12.5.3), pure.  http.c compresses
 * /metrics, /status, /peers and /mesh with gzip when this says so.
 */
#ifndef RDMAD_HTTP_ENCODING_PARSE_H
#define RDMAD_HTTP_ENCODING_PARSE_H

enum http_encoding {
	HTTP_ENCODING_IDENTITY,
	HTTP_ENCODING_GZIP,
};

/*
 * What ACCEPT (the header's value; NULL: absent) asks for: gzip when
 * "gzip" or "x-gzip" has a weight above 0 (or, unnamed, "*" has), and
 * identity was not named with a higher weight.  A weight is q=0..1 with
 * at most three decimals; an element with a malformed weight, a bad
 * token or another parameter counts as absent.  Identity otherwise.
 */
enum http_encoding http_encoding_parse(const char *accept);

#endif /* RDMAD_HTTP_ENCODING_PARSE_H */
