/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-rdma-wr.c - work request ids: kind and index survive the round
 * trip at their extremes, and every kind has a name.
 */
#include <string.h>

#include "rdma_wr.h"
#include "tap.h"

int main(void)
{
	static const uint32_t idx[] = { 0, 1, 0x7fffffffu, 0xffffffffu };
	enum rdma_wr_kind k;
	unsigned int i;

	tap_plan(6 * 4 * 2 + 6 + 1);
	for (k = RDMA_WR_RECV; k <= RDMA_WR_ABORT; k++) {
		for (i = 0; i < 4; i++) {
			uint64_t id = rdma_wr_id(k, idx[i]);

			tap_ok(rdma_wr_kind(id) == k, "kind %d with index %#x",
			       k, idx[i]);
			tap_ok(rdma_wr_idx(id) == idx[i], "index %#x of kind "
			       "%d", idx[i], k);
		}
		tap_ok(strcmp(rdma_wr_str(k), "unknown") != 0,
		       "kind %d has a name (%s)", k, rdma_wr_str(k));
	}
	tap_ok(!strcmp(rdma_wr_str((enum rdma_wr_kind)0), "unknown"),
	       "kind 0 (a zeroed id) is unknown");
	return tap_done();
}
