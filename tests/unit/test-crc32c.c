/* SPDX-License-Identifier: BSD-2-Clause */
/* test-crc32c.c - CRC-32C known answers and chaining. */
#include <stdint.h>
#include <string.h>

#include "crc32c.h"
#include "tap.h"

int main(void)
{
	static uint8_t buf[4099];
	uint8_t zeros[32], ones[32], inc[32];
	size_t i, split;
	uint32_t whole, part;
	int same;

	/* Vectors: "check" value of the CRC catalogue and RFC 3720 B.4. */
	memset(zeros, 0, sizeof(zeros));
	memset(ones, 0xff, sizeof(ones));
	for (i = 0; i < sizeof(inc); i++)
		inc[i] = (uint8_t)i;

	tap_ok(crc32c(0, "123456789", 9) == 0xe3069283u, "check value");
	tap_ok(crc32c_portable(0, "123456789", 9) == 0xe3069283u,
	       "check value, portable path");
	tap_ok(crc32c(0, "", 0) == 0, "empty buffer is 0");
	tap_ok(crc32c(0, zeros, 32) == 0x8a9136aau, "32 zero bytes");
	tap_ok(crc32c(0, ones, 32) == 0x62a8ab43u, "32 0xff bytes");
	tap_ok(crc32c(0, inc, 32) == 0x46dd794eu, "32 incrementing bytes");

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131 + 7);
	whole = crc32c(0, buf, sizeof(buf));
	same = 1;
	for (split = 0; split <= 17; split++) {
		part = crc32c(crc32c(0, buf, split), buf + split,
			      sizeof(buf) - split);
		if (part != whole)
			same = 0;
	}
	tap_ok(same, "chaining at any split gives the whole-buffer value");

	same = 1;
	for (i = 0; i < 64; i++)
		if (crc32c(0, buf + i, sizeof(buf) - 2 * i) !=
		    crc32c_portable(0, buf + i, sizeof(buf) - 2 * i))
			same = 0;
	tap_ok(same, "hardware and portable paths agree, any alignment");

	buf[1000] ^= 1;
	tap_ok(crc32c(0, buf, sizeof(buf)) != whole, "one flipped bit changes it");
	return tap_done();
}
