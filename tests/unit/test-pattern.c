/* SPDX-License-Identifier: BSD-2-Clause */
/* test-pattern.c - pattern_fill() and pattern_check(). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "tap.h"

int main(void)
{
	static const size_t sizes[] = { 1, 7, 8, 9, 63, 4096, 65537 };
	uint8_t *a, *b;
	size_t i, n, differ;
	int ok;

	a = malloc(65537 + 16);
	b = malloc(65537 + 16);
	if (!a || !b)
		return 99;

	ok = 1;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		pattern_fill(a, sizes[i], 42, 3);
		if (pattern_check(a, sizes[i], 42, 3) != -1)
			ok = 0;
	}
	tap_ok(ok, "fill then check matches at sizes 1..65537");

	pattern_fill(a, 4096, 42, 3);
	pattern_fill(b, 4096, 42, 3);
	tap_ok(memcmp(a, b, 4096) == 0, "deterministic for the same seed/iter");

	pattern_fill(b, 4096, 42, 4);
	differ = 0;
	for (n = 0; n < 4096; n++)
		differ += a[n] != b[n];
	tap_ok(differ > 4000, "another iteration differs (%zu of 4096 bytes)",
	       differ);
	tap_ok(pattern_check(b, 4096, 42, 3) == 0,
	       "check against wrong iteration reports offset 0");

	pattern_fill(b, 4096, 43, 3);
	tap_ok(memcmp(a, b, 4096) != 0, "another seed differs");

	pattern_fill(b, 4096, 7, 0xffffffffu);
	tap_ok(pattern_check(b, 4096, 7, 0xffffffffu) == -1,
	       "iteration 0xffffffff works");

	/* A prefix of a longer fill equals the shorter fill. */
	pattern_fill(a, 65537, 9, 1);
	pattern_fill(b, 13, 9, 1);
	tap_ok(memcmp(a, b, 13) == 0, "fill is position-based (prefix)");

	ok = 1;
	for (n = 0; n < 70; n++) {
		pattern_fill(a, 4096, 5, 5);
		a[n * 37] ^= 0x10;
		if (pattern_check(a, 4096, 5, 5) != (ssize_t)(n * 37))
			ok = 0;
	}
	tap_ok(ok, "first bad offset found for every position tried");

	pattern_fill(a, 4096, 5, 5);
	a[100] ^= 1;
	a[3000] ^= 1;
	tap_ok(pattern_check(a, 4096, 5, 5) == 100,
	       "two bad bytes: the first is reported");
	pattern_fill(a, 4096, 5, 5);
	a[4095] ^= 0x80;
	tap_ok(pattern_check(a, 4096, 5, 5) == 4095, "last byte bad");
	pattern_fill(a, 11, 5, 5);
	a[10] ^= 0x80;
	tap_ok(pattern_check(a, 11, 5, 5) == 10, "bad byte in a partial word");
	tap_ok(pattern_check(a, 0, 5, 5) == -1, "empty range matches");

	free(a);
	free(b);
	return tap_done();
}
