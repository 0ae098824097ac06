/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-blackbox - blackbox_render(): what GET /probe answers for a
 * verified probe, a mismatch, a probe that never connected, and an error
 * message that must stay one comment line.
 */
#include <string.h>

#include "http/blackbox_render.h"
#include "capture.h"
#include "tap.h"

static char *render(const struct blackbox_result *r, int *ret)
{
	struct capture c;

	*ret = blackbox_render(capture_open(&c), r);
	return capture_close(&c);
}

/* Every sample line of OUT (not "#") is NAME{...} VALUE with a known
 * family, and each family has HELP and TYPE gauge. */
static int well_formed(const char *out)
{
	static const char *const fams[] = {
		"probe_success", "probe_duration_seconds",
		"probe_rdma_connect_seconds", "probe_rdma_failed",
		"probe_rdma_bytes_verified", "probe_rdma_operations",
		"probe_rdma_operation_avg_seconds",
		"probe_rdma_operation_max_seconds",
	};
	char want[128];
	const char *l, *e;
	unsigned int i;

	for (i = 0; i < sizeof(fams) / sizeof(fams[0]); i++) {
		snprintf(want, sizeof(want), "# TYPE %s gauge\n", fams[i]);
		if (!strstr(out, want))
			return 0;
	}
	for (l = out; *l; l = e + 1) {
		e = strchr(l, '\n');
		if (!e)
			return 0;
		if (*l == '#')
			continue;
		if (strncmp(l, "probe_", 6) || !memchr(l, ' ', (size_t)(e - l)))
			return 0;
	}
	return 1;
}

int main(void)
{
	struct blackbox_result ok = {
		.success = true, .duration_s = 0.0125, .connect_s = 0.004,
		.bytes_verified = 4096 * 11,
		.ops = { 10, 10 }, .op_sum_s = { 0.001, 0.002 },
		.op_max_s = { 0.0002, 0.0004 },
	};
	struct blackbox_result bad = {
		.success = false, .duration_s = 0.02, .connect_s = 0.005,
		.failed = "mismatch", .bytes_verified = 4096,
		.error = "READ 2: data differs at offset 40\nsecond line",
		.ops = { 2, 0 }, .op_sum_s = { 0.0004, 0 },
		.op_max_s = { 0.0003, 0 },
	};
	struct blackbox_result dead = {
		.success = false, .duration_s = 0.003, .connect_s = -1,
		.failed = "refused", .error = "rejected by server",
	};
	static const char err1[] = "# error: READ 2: data differs at "
				   "offset 40?second line\n";
	char *out;
	int ret;

	tap_plan(15);

	out = render(&ok, &ret);
	tap_ok(ret == 0 && well_formed(out), "a verified probe: well formed");
	tap_ok(strstr(out, "\nprobe_success 1\n") &&
	       strstr(out, "\nprobe_duration_seconds 0.012500\n") &&
	       strstr(out, "\nprobe_rdma_connect_seconds 0.004000\n"),
	       "success, duration, connect time");
	tap_ok(!strstr(out, "probe_rdma_failed{"), "no failure class");
	tap_ok(strstr(out, "\nprobe_rdma_bytes_verified 45056\n") != NULL,
	       "bytes verified");
	tap_ok(strstr(out, "\nprobe_rdma_operations{op=\"read\"} 10\n") &&
	       strstr(out, "\nprobe_rdma_operations{op=\"write\"} 10\n"),
	       "operations by kind");
	tap_ok(strstr(out, "probe_rdma_operation_avg_seconds{op=\"read\"} "
		      "0.000100000\n") &&
	       strstr(out, "probe_rdma_operation_avg_seconds{op=\"write\"} "
		      "0.000200000\n") &&
	       strstr(out, "probe_rdma_operation_max_seconds{op=\"write\"} "
		      "0.000400000\n"),
	       "mean and largest latency by kind");
	tap_ok(!strstr(out, "# error"), "no error comment");
	free(out);

	out = render(&bad, &ret);
	tap_ok(ret == 0 && well_formed(out), "a mismatch: well formed");
	tap_ok(strstr(out, "\nprobe_success 0\n") &&
	       strstr(out, "\nprobe_rdma_failed{class=\"mismatch\"} 1\n"),
	       "success 0, class mismatch");
	tap_ok(!strncmp(out, err1, strlen(err1)), "the error, one comment line");
	tap_ok(!strstr(out, "{op=\"write\"} 0.") &&
	       strstr(out, "\nprobe_rdma_operations{op=\"write\"} 0\n"),
	       "no latency for a kind that did not run, its count 0");
	free(out);

	out = render(&dead, &ret);
	tap_ok(ret == 0 && well_formed(out), "never connected: well formed");
	tap_ok(strstr(out, "\nprobe_rdma_failed{class=\"refused\"} 1\n") &&
	       !strstr(out, "\nprobe_rdma_connect_seconds "),
	       "class refused, no connect time");
	tap_ok(strstr(out, "\nprobe_rdma_bytes_verified 0\n") != NULL,
	       "nothing verified");
	free(out);

	dead.failed = NULL;
	out = render(&dead, &ret);
	tap_ok(strstr(out, "probe_rdma_failed{class=\"local-error\"} 1\n") !=
	       NULL, "a failure without a class: local-error");
	free(out);
	return tap_done();
}
