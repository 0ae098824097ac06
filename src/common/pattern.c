/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pattern.c - deterministic data patterns (see pattern.h).
 *
 * Byte i of pattern(seed, iter) is byte (i mod 8) of the little-endian
 * 64-bit word W(i / 8), where
 *
 *   base = mix(seed ^ mix(iter + 1))
 *   W(k) = mix(base + (k + 1) * 0x9e3779b97f4a7c15)
 *
 * and mix() is the SplitMix64 finaliser.  Every word depends only on its
 * index, so any range can be generated or checked on its own, and two
 * different iterations of the same seed differ in (nearly) every word.
 * docs/protocol.md carries the same definition for other implementations.
 */
#include "pattern.h"

#include <string.h>

#define PATTERN_GAMMA	0x9e3779b97f4a7c15ull

static uint64_t pattern_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t pattern_base(uint64_t seed, uint32_t iter)
{
	return pattern_mix(seed ^ pattern_mix((uint64_t)iter + 1));
}

static uint64_t pattern_word(uint64_t base, uint64_t k)
{
	return pattern_mix(base + (k + 1) * PATTERN_GAMMA);
}

static void pattern_word_bytes(uint64_t w, uint8_t out[8])
{
	int i;

	for (i = 0; i < 8; i++)
		out[i] = (uint8_t)(w >> (8 * i));
}

void pattern_fill(void *buf, size_t len, uint64_t seed, uint32_t iter)
{
	uint64_t base = pattern_base(seed, iter);
	uint8_t *p = buf, w[8];
	size_t k, words = len / 8;

	for (k = 0; k < words; k++) {
		pattern_word_bytes(pattern_word(base, k), w);
		memcpy(p + 8 * k, w, 8);
	}
	if (len % 8) {
		pattern_word_bytes(pattern_word(base, words), w);
		memcpy(p + 8 * words, w, len % 8);
	}
}

ssize_t pattern_check(const void *buf, size_t len, uint64_t seed,
		      uint32_t iter)
{
	uint64_t base = pattern_base(seed, iter);
	const uint8_t *p = buf;
	uint8_t w[8];
	size_t k, n, i, words = (len + 7) / 8;

	for (k = 0; k < words; k++) {
		n = len - 8 * k < 8 ? len - 8 * k : 8;
		pattern_word_bytes(pattern_word(base, k), w);
		if (memcmp(p + 8 * k, w, n) == 0)
			continue;
		for (i = 0; i < n; i++)
			if (p[8 * k + i] != w[i])
				return (ssize_t)(8 * k + i);
	}
	return -1;
}
