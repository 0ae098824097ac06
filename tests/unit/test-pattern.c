/* SPDX-License-Identifier: BSD-2-Clause */
/* test-pattern.c - pattern_fill() and pattern_check(), and the golden
 * vectors that pin the pattern as part of the wire contract. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32c.h"
#include "pattern.h"
#include "tap.h"

/*
 * Golden vectors (docs/protocol.md, "Data pattern"): computed once from
 * the definition there, by an implementation independent of pattern.c,
 * and equal to what pattern.c gave when they were taken.  Both ends of a
 * session generate the pattern, so no end-to-end test notices a change
 * to it; these do.  A change here breaks every older client and server:
 * never update them to make a test pass.
 */
static const struct {
	uint64_t seed;
	uint32_t iter;
	size_t len;
	const char *head;	/* the first bytes, in hex (32, or len) */
	uint32_t crc;		/* crc32c of the first 4096 bytes, or 0 */
} golden[] = {
	{ 0, 0, 4096,
	  "6f6177fb52b18141629d26526d649c1680723bd5d8e85d4af3ca5e6cbdeff790",
	  0x8e8f24be },
	{ 42, 3, 4096,
	  "1fec8caf7426ce8b6464c766d85ee62423e3aad818babf69f549b434dc81ebdf",
	  0x6247336b },
	/* Iteration 0xffffffff: the server's READ pattern. */
	{ 0x0123456789abcdefull, 0xffffffffu, 4096,
	  "d8b4b4fbcb7d9d2f241ea0bc8d4efd37a140e3876eb772967d2672803563053b",
	  0xb55af140 },
	/* 13 bytes: not a whole number of words. */
	{ 0xfeedfacecafebeefull, 7, 13, "a2855b37eab150d0576fb54ce8", 0 },
};

static void test_golden(uint8_t *a)
{
	uint8_t want[32];
	size_t i, j, n;
	unsigned int x;
	uint32_t crc;

	for (i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		n = strlen(golden[i].head) / 2;
		for (j = 0; j < n; j++) {
			if (sscanf(golden[i].head + 2 * j, "%2x", &x) != 1)
				exit(99);
			want[j] = (uint8_t)x;
		}
		memset(a, 0, golden[i].len + 8);
		pattern_fill(a, golden[i].len, golden[i].seed, golden[i].iter);
		tap_ok(!memcmp(a, want, n) && !a[golden[i].len],
		       "golden: first %zu bytes of (0x%" PRIx64 ", 0x%" PRIx32
		       "), nothing past %zu", n, golden[i].seed,
		       golden[i].iter, golden[i].len);
		tap_ok(pattern_check(want, n, golden[i].seed,
				     golden[i].iter) == -1,
		       "golden: pattern_check accepts those %zu bytes", n);
		if (!golden[i].crc)
			continue;
		crc = crc32c(0, a, 4096);
		tap_ok(crc == golden[i].crc,
		       "golden: crc32c of 4096 bytes is 0x%08" PRIx32
		       " (got 0x%08" PRIx32 ")", golden[i].crc, crc);
	}
}

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

	test_golden(a);

	free(a);
	free(b);
	return tap_done();
}
