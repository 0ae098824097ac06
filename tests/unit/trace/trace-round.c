/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * trace-round.c - mesh rounds of a real rdmad over the fake RDMA layer,
 * its files traced (tests/unit/trace): rdmad B serves, rdmad A has B in
 * its [mesh] targets (one path, one size, no bandwidth samples) and runs
 * its rounds until ROUNDS are recorded.  Run by check-round-path with
 * RDMAD_TRACE set; TAP on stdout.
 */
#include "drv-fixture.h"
#include "mesh/mesh_stats.h"
#include "trace.h"

#define ROUNDS	4u

static bool rounds_done(void *arg)
{
	(void)arg;
	return trace_watched() >= ROUNDS;
}

int main(void)
{
	struct event_base *base = event_base_new();
	char text[PATH_MAX + 256], path[PATH_MAX];
	struct drv a, b;
	int ok;

	tap_plan(2);
	ok = !drv_start(&b, base, "[server]\nlisten = 10.0.0.2:7471\n") &&
	     !drv_start(&a, base, "[server]\nlisten = 10.0.0.1:7471\n") &&
	     !drv_file(&a, "targets", "10.0.0.2:7471\n", path, sizeof(path));
	snprintf(text, sizeof(text), "[server]\nlisten = 10.0.0.1:7471\n"
		 "[mesh]\ntargets = %s\ninterval = 50ms\nsizes = 4k\n"
		 "paths = 1\nprober_lag_max = 0\nprober_wait_max = 0\n", path);
	trace_watch((uintptr_t)&mesh_stats_round);
	trace_mark("reload");
	if (!tap_ok(ok && !drv_reload(&a, text),
		    "rdmad A probes rdmad B over the fake"))
		return 1;
	trace_mark("rounds");
	tap_ok(drv_wait(base, rounds_done, NULL), "%u rounds recorded",
	       ROUNDS);
	trace_mark("stop");
	drv_stop(&a);
	drv_stop(&b);
	event_base_free(base);
	return tap_done();
}
