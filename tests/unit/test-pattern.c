/* SPDX-License-Identifier: BSD-2-Clause */
/* test-pattern.c - pattern_fill() and pattern_check(), and the golden
 * vectors that pin the pattern as part of the wire contract. */
#include <inttypes.h>
#include <stdint.h>
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
	uint8_t head[32];	/* the first 32 bytes */
	uint32_t crc;		/* crc32c of the first 4096 bytes */
} golden[] = {
	{ 0, 0,
	  { 0x6f, 0x61, 0x77, 0xfb, 0x52, 0xb1, 0x81, 0x41,
	    0x62, 0x9d, 0x26, 0x52, 0x6d, 0x64, 0x9c, 0x16,
	    0x80, 0x72, 0x3b, 0xd5, 0xd8, 0xe8, 0x5d, 0x4a,
	    0xf3, 0xca, 0x5e, 0x6c, 0xbd, 0xef, 0xf7, 0x90 },
	  0x8e8f24be },
	{ 42, 3,
	  { 0x1f, 0xec, 0x8c, 0xaf, 0x74, 0x26, 0xce, 0x8b,
	    0x64, 0x64, 0xc7, 0x66, 0xd8, 0x5e, 0xe6, 0x24,
	    0x23, 0xe3, 0xaa, 0xd8, 0x18, 0xba, 0xbf, 0x69,
	    0xf5, 0x49, 0xb4, 0x34, 0xdc, 0x81, 0xeb, 0xdf },
	  0x6247336b },
	/* Iteration 0xffffffff: the server's READ pattern. */
	{ 0x0123456789abcdefull, 0xffffffffu,
	  { 0xd8, 0xb4, 0xb4, 0xfb, 0xcb, 0x7d, 0x9d, 0x2f,
	    0x24, 0x1e, 0xa0, 0xbc, 0x8d, 0x4e, 0xfd, 0x37,
	    0xa1, 0x40, 0xe3, 0x87, 0x6e, 0xb7, 0x72, 0x96,
	    0x7d, 0x26, 0x72, 0x80, 0x35, 0x63, 0x05, 0x3b },
	  0xb55af140 },
};

/* 13 bytes (not a whole number of words) of (0xfeedfacecafebeef, 7). */
static const uint8_t golden_13[13] = {
	0xa2, 0x85, 0x5b, 0x37, 0xea, 0xb1, 0x50, 0xd0,
	0x57, 0x6f, 0xb5, 0x4c, 0xe8,
};

static void test_golden(uint8_t *a)
{
	size_t i;

	for (i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		memset(a, 0, 4096);
		pattern_fill(a, 4096, golden[i].seed, golden[i].iter);
		tap_ok(memcmp(a, golden[i].head, 32) == 0,
		       "golden: first 32 bytes of (0x%" PRIx64 ", 0x%" PRIx32
		       ")", golden[i].seed, golden[i].iter);
		tap_ok(crc32c(0, a, 4096) == golden[i].crc,
		       "golden: crc32c of 4096 bytes of (0x%" PRIx64 ", 0x%"
		       PRIx32 ") is 0x%08" PRIx32 " (got 0x%08" PRIx32 ")",
		       golden[i].seed, golden[i].iter, golden[i].crc,
		       crc32c(0, a, 4096));
	}
	memset(a, 0, 16);
	pattern_fill(a, 13, 0xfeedfacecafebeefull, 7);
	tap_ok(memcmp(a, golden_13, 13) == 0 && a[13] == 0,
	       "golden: 13 bytes of (0xfeedfacecafebeef, 7), nothing past");
	tap_ok(pattern_check(golden_13, 13, 0xfeedfacecafebeefull, 7) == -1,
	       "golden: pattern_check accepts the 13 golden bytes");
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
