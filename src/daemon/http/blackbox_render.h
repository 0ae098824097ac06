/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blackbox_render.h - what one GET /probe found, and its answer in
 * Prometheus text (pure: blackbox_render.c, test-blackbox).  The probe
 * itself is blackbox.h's.
 */
#ifndef RDMAD_BLACKBOX_RENDER_H
#define RDMAD_BLACKBOX_RENDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What one probe found. */
struct blackbox_result {
	bool success;		/* connected, every byte verified */
	double duration_s;	/* start to end */
	double connect_s;	/* start to the connection up; < 0: never */
	/* Failure class (mesh_result_name(): "mismatch", "refused",
	 * "unreachable", "timeout"...), NULL on success. */
	const char *failed;
	const char *error;	/* the first failure's message, or NULL */
	uint64_t bytes_verified;	/* READ and checked; the last WRITE
					 * when the server checked it */
	uint32_t ops[2];		/* completed: [0] READ, [1] WRITE */
	double op_sum_s[2];		/* their latencies summed */
	double op_max_s[2];
};

/* Prometheus text for RESULT; 0 or -EIO (F's error). */
int blackbox_render(FILE *f, const struct blackbox_result *r);

#endif /* RDMAD_BLACKBOX_RENDER_H */
