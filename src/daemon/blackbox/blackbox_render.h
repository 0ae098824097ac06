/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blackbox_render.h - what one GET /probe found, and its answer: in
 * Prometheus text, or with debug=true the probe's steps as text (pure:
 * blackbox_render.c, test-blackbox-render).  The probe itself is
 * blackbox.h's.
 */
#ifndef RDMAD_BLACKBOX_RENDER_H
#define RDMAD_BLACKBOX_RENDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "blackbox/blackbox_ask_parse.h"

#define BLACKBOX_LOG_MAX	4096	/* the steps of one probe, as text */

/* What one probe found (or why it could not run). */
struct blackbox_result {
	bool success;		/* connected, every byte verified */
	double duration_s;	/* start to end */
	double connect_s;	/* start to the connection up; < 0: never */
	/* Failure class (mesh_result_name(): "mismatch", "refused",
	 * "unreachable", "timeout"...; "unresolved": the name has no
	 * address; "busy": not run, BLACKBOX_MAX were running), NULL on
	 * success. */
	const char *failed;
	const char *error;	/* the first failure's message, or NULL */
	uint64_t bytes_verified;	/* READ and checked; the last WRITE
					 * when the server checked it */
	uint32_t ops[2];		/* completed: [0] READ, [1] WRITE */
	double op_sum_s[2];		/* their latencies summed */
	double op_max_s[2];
	double resolve_s;	/* the name's lookup; < 0: none (numeric) */
	int ip_protocol;	/* of the address probed: 4, 6; 0: none */
	/* The steps, one line each ("  0.001234 s  what"), for debug=true. */
	char log[BLACKBOX_LOG_MAX];
	size_t log_len;
	bool log_cut;		/* a step did not fit */
};

/* A result before the probe: nothing done, no connection, no lookup. */
void blackbox_render_init(struct blackbox_result *r);
/* Note a step AT_S seconds into the probe in R's log; a step that does
 * not fit whole is left out, and so are all after it. */
void blackbox_render_step(struct blackbox_result *r, double at_s,
			  const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prometheus text for RESULT; 0 or -EIO (F's error). */
int blackbox_render(FILE *f, const struct blackbox_result *r);
/* debug=true: the steps of the probe ASK asked for, the metrics it would
 * have answered and the module it ran with; 0 or -EIO. */
int blackbox_render_debug(FILE *f, const struct blackbox_result *r,
			  const struct blackbox_ask *ask);

#endif /* RDMAD_BLACKBOX_RENDER_H */
