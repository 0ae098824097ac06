/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-json.c - json_str(): ASCII escapes, UTF-8 kept whole, invalid
 * bytes as U+FFFD so the output is always valid JSON.
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tap.h"

/* json_str(IN) as a string (caller frees). */
static char *render(const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	json_str(f, in);
	fclose(f);
	return buf;
}

static void check(const char *in, const char *want, const char *name)
{
	char *got = render(in);

	if (!tap_ok(got && strcmp(got, want) == 0, "%s", name))
		tap_diag("got %s, want %s", got ? got : "(null)", want);
	free(got);
}

int main(void)
{
	tap_plan(16);
	check(NULL, "null", "NULL is null");
	check("", "\"\"", "empty string");
	check("plain ascii", "\"plain ascii\"", "ASCII passes through");
	check("a\"b\\c", "\"a\\\"b\\\\c\"", "quote and backslash escaped");
	check("\t\n\x01", "\"\\u0009\\u000a\\u0001\"", "control characters escaped");
	check("\x7f", "\"\\u007f\"", "DEL escaped");
	/* Valid UTF-8: passes through unchanged. */
	check("caf\xc3\xa9", "\"caf\xc3\xa9\"", "2-byte sequence (U+00E9) kept");
	check("\xe2\x82\xac", "\"\xe2\x82\xac\"", "3-byte sequence (U+20AC) kept");
	check("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"", "4-byte sequence (U+1F600) kept");
	check("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"", "U+10FFFF kept");
	/* Invalid: each bad byte becomes U+FFFD, the rest survives. */
	check("a\xffz", "\"a\\ufffdz\"", "0xff is U+FFFD");
	check("\x80x", "\"\\ufffdx\"", "lone continuation byte is U+FFFD");
	check("\xc3x", "\"\\ufffdx\"", "truncated sequence is U+FFFD");
	check("\xc0\xaf", "\"\\ufffd\\ufffd\"", "overlong encoding refused");
	check("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"", "UTF-16 surrogate refused");
	check("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
	      "above U+10FFFF refused");
	return tap_done();
}
