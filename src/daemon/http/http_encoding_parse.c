/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_encoding_parse.c - Accept-Encoding to a content coding (see
 * http_encoding_parse.h).
 *
 *   Accept-Encoding = #( codings [ OWS ";" OWS "q=" qvalue ] )
 *   qvalue          = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "http/http_encoding_parse.h"

/* The weight of an element, in thousandths; -1 when none was named. */
enum { Q_NONE = -1, Q_ONE = 1000 };

static bool is_ows(char c)
{
	return c == ' ' || c == '\t';
}

/* A token character of RFC 9110 5.6.2. */
static bool is_tchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* The qvalue in [P, END) in thousandths; -1 if malformed. */
static int qvalue_parse(const char *p, const char *end)
{
	int q, scale = 100;

	if (p == end || (*p != '0' && *p != '1'))
		return -1;
	q = (*p++ - '0') * Q_ONE;
	if (p == end)
		return q;
	if (*p++ != '.')
		return -1;
	for (; p < end; p++, scale /= 10) {
		if (*p < '0' || *p > '9' || !scale)
			return -1;
		q += (*p - '0') * scale;
	}
	return q > Q_ONE ? -1 : q;
}

/*
 * One element [P, END): its coding in [*NAME, *NAME + *NLEN) and its
 * weight in *Q (1000 without q=); false if malformed.
 */
static bool element_parse(const char *p, const char *end, const char **name,
			  size_t *nlen, int *q)
{
	const char *s;

	while (p < end && is_ows(*p))
		p++;
	while (end > p && is_ows(end[-1]))
		end--;
	for (s = p; s < end && is_tchar(*s); s++)
		;
	if (s == p)
		return false;
	*name = p;
	*nlen = (size_t)(s - p);
	*q = Q_ONE;
	while (s < end && is_ows(*s))
		s++;
	if (s == end)
		return true;
	if (*s++ != ';')
		return false;
	while (s < end && is_ows(*s))
		s++;
	if (end - s < 2 || (s[0] != 'q' && s[0] != 'Q') || s[1] != '=')
		return false;
	*q = qvalue_parse(s + 2, end);
	return *q >= 0;
}

static bool named(const char *name, size_t nlen, const char *what)
{
	return nlen == strlen(what) && !strncasecmp(name, what, nlen);
}

enum http_encoding http_encoding_parse(const char *accept)
{
	int gzip = Q_NONE, star = Q_NONE, identity = Q_NONE, q;
	const char *p, *end, *name;
	size_t nlen;

	if (!accept)
		return HTTP_ENCODING_IDENTITY;
	for (p = accept; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (!element_parse(p, end, &name, &nlen, &q))
			continue;
		if (named(name, nlen, "gzip") || named(name, nlen, "x-gzip"))
			gzip = q > gzip ? q : gzip;
		else if (named(name, nlen, "*"))
			star = q;
		else if (named(name, nlen, "identity"))
			identity = q;
	}
	if (gzip == Q_NONE)
		gzip = star;
	if (gzip <= 0 || (identity != Q_NONE && identity > gzip))
		return HTTP_ENCODING_IDENTITY;
	return HTTP_ENCODING_GZIP;
}
