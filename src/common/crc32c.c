/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * crc32c.c - CRC-32C (Castagnoli, reflected polynomial 0x82f63b78).
 *
 * Table-driven, eight bytes per step ("slicing by 8"); the tables are
 * built on first use.  On x86-64 with SSE4.2 the crc32 instruction is
 * used instead.  Both give the same result: crc32c(0, "123456789", 9)
 * is 0xe3069283.
 */
#include "crc32c.h"

#include <pthread.h>
#include <string.h>

#define CRC32C_POLY	0x82f63b78u

static uint32_t crc32c_table[8][256];
static pthread_once_t crc32c_once = PTHREAD_ONCE_INIT;

static void crc32c_init_tables(void)
{
	uint32_t crc;
	unsigned int i, j, k;

	for (i = 0; i < 256; i++) {
		crc = i;
		for (j = 0; j < 8; j++)
			crc = (crc >> 1) ^ (CRC32C_POLY & (0u - (crc & 1u)));
		crc32c_table[0][i] = crc;
	}
	for (i = 0; i < 256; i++) {
		crc = crc32c_table[0][i];
		for (k = 1; k < 8; k++) {
			crc = crc32c_table[0][crc & 0xff] ^ (crc >> 8);
			crc32c_table[k][i] = crc;
		}
	}
}

static uint32_t crc32c_sw(uint32_t crc, const uint8_t *p, size_t len)
{
	uint32_t lo, hi;

	pthread_once(&crc32c_once, crc32c_init_tables);
	while (len >= 8) {
		/* Assemble little-endian words explicitly: no alignment
		 * or host byte order assumptions. */
		lo = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
		     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 |
		     (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
		lo ^= crc;
		crc = crc32c_table[7][lo & 0xff] ^
		      crc32c_table[6][(lo >> 8) & 0xff] ^
		      crc32c_table[5][(lo >> 16) & 0xff] ^
		      crc32c_table[4][lo >> 24] ^
		      crc32c_table[3][hi & 0xff] ^
		      crc32c_table[2][(hi >> 8) & 0xff] ^
		      crc32c_table[1][(hi >> 16) & 0xff] ^
		      crc32c_table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = crc32c_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("sse4.2")))
static uint32_t crc32c_hw(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t c = crc, w;

	while (len >= 8) {
		memcpy(&w, p, sizeof(w));
		c = __builtin_ia32_crc32di(c, w);
		p += 8;
		len -= 8;
	}
	crc = (uint32_t)c;
	while (len--)
		crc = __builtin_ia32_crc32qi(crc, *p++);
	return crc;
}

static int crc32c_have_hw(void)
{
	static int have = -1;

	if (have < 0) {
		__builtin_cpu_init();
		have = __builtin_cpu_supports("sse4.2") ? 1 : 0;
	}
	return have;
}
#endif

uint32_t crc32c_portable(uint32_t crc, const void *buf, size_t len)
{
	return ~crc32c_sw(~crc, buf, len);
}

uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (crc32c_have_hw())
		return ~crc32c_hw(~crc, buf, len);
#endif
	return ~crc32c_sw(~crc, buf, len);
}
