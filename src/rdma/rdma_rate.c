// SPDX-License-Identifier: BSD-2-Clause
/*
 * rdma_rate.c - nominal link rate of a port (pure: the codes are
 * ibv_port_attr's, see ibv_query_port(3)).
 */
#include "rdma_rate.h"

/* Mb/s of one lane by active_speed code. */
static uint64_t rdma_rate_lane_mbit(uint8_t speed)
{
	switch (speed) {
	case 1: return 2500;		/* SDR */
	case 2: return 5000;		/* DDR */
	case 4: return 10000;		/* QDR */
	case 8: return 10000;		/* FDR10 */
	case 16: return 14000;		/* FDR */
	case 32: return 25000;		/* EDR */
	case 64: return 50000;		/* HDR */
	case 128: return 100000;	/* NDR */
	default: return 0;
	}
}

/* Lanes by active_width code. */
static uint64_t rdma_rate_lanes(uint8_t width)
{
	switch (width) {
	case 1: return 1;
	case 2: return 4;
	case 4: return 8;
	case 8: return 12;
	case 16: return 2;
	default: return 0;
	}
}

uint64_t rdma_rate_bytes(uint8_t active_speed, uint8_t active_width)
{
	return rdma_rate_lane_mbit(active_speed) *
	       rdma_rate_lanes(active_width) * 1000000 / 8;
}
