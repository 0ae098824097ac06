// SPDX-License-Identifier: BSD-2-Clause
/* test-rdma-rate - a port's nominal link rate from ibv_port_attr codes. */
#include <stdint.h>

#include "rdma_rate.h"
#include "tap.h"

int main(void)
{
	static const struct {
		uint8_t speed, width;
		uint64_t want;
		const char *what;
	} c[] = {
		{ 1, 1, 312500000ull, "1X SDR (rxe on an unknown-speed NIC)" },
		{ 2, 2, 2500000000ull, "4X DDR" },
		{ 4, 2, 5000000000ull, "4X QDR" },
		{ 8, 2, 5000000000ull, "4X FDR10" },
		{ 16, 2, 7000000000ull, "4X FDR" },
		{ 32, 2, 12500000000ull, "4X EDR (100 Gb/s)" },
		{ 32, 1, 3125000000ull, "1X EDR (25 GbE RoCE)" },
		{ 64, 2, 25000000000ull, "4X HDR" },
		{ 64, 16, 12500000000ull, "2X HDR (100 GbE RoCE)" },
		{ 128, 2, 50000000000ull, "4X NDR" },
		{ 32, 4, 25000000000ull, "8X EDR" },
		{ 4, 8, 15000000000ull, "12X QDR" },
		{ 0, 2, 0, "speed 0: unknown" },
		{ 3, 2, 0, "speed 3: not a code" },
		{ 32, 0, 0, "width 0: unknown" },
		{ 32, 3, 0, "width 3: not a code" },
	};
	unsigned int i;

	tap_plan(sizeof(c) / sizeof(c[0]));
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint64_t got = rdma_rate_bytes(c[i].speed, c[i].width);

		tap_ok(got == c[i].want, "%s: %llu bytes/s (got %llu)",
		       c[i].what, (unsigned long long)c[i].want,
		       (unsigned long long)got);
	}
	return tap_done();
}
