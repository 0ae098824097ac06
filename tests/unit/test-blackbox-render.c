/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-blackbox-render - blackbox_render(): what GET /probe answers for a
 * verified probe, a mismatch, a probe that never connected, a name that
 * did not resolve, a probe not run (busy), and an error message that must
 * stay one comment line; the steps' log at its size (a line that just
 * fits, one byte more); debug=true's three parts.
 */
#include <string.h>

#include "blackbox/blackbox_render.h"
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
		"probe_dns_lookup_time_seconds", "probe_ip_protocol",
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

/* A message of N 'x's. */
static const char *xs(size_t n)
{
	static char buf[BLACKBOX_LOG_MAX + 2];

	memset(buf, 'x', n);
	buf[n] = '\0';
	return buf;
}

static void steps(void)
{
	struct blackbox_result r;
	size_t room;

	/* Each line: "%10.6f s  " (14 bytes), the message, a newline; the
	 * log keeps its NUL. */
	blackbox_render_init(&r);
	blackbox_render_step(&r, 0.0012345, "resolving %s", "h.example");
	tap_ok(!strcmp(r.log, "  0.001234 s  resolving h.example\n") &&
	       r.log_len == strlen(r.log) && !r.log_cut, "a step's line");
	blackbox_render_step(&r, 1, "%s", xs(100));
	room = sizeof(r.log) - r.log_len;
	blackbox_render_step(&r, 2, "%s", xs(room - 16));
	tap_ok(r.log_len == sizeof(r.log) - 1 && !r.log_cut &&
	       r.log[r.log_len - 1] == '\n' && strlen(r.log) == r.log_len,
	       "a line that just fits: the log full, not cut");
	blackbox_render_step(&r, 3, "%s", "");
	tap_ok(r.log_cut && r.log_len == sizeof(r.log) - 1,
	       "then nothing more fits: cut");

	blackbox_render_init(&r);
	blackbox_render_step(&r, 1, "%s", xs(100));
	room = sizeof(r.log) - r.log_len;
	blackbox_render_step(&r, 2, "%s", xs(room - 15));
	blackbox_render_step(&r, 3, "short");
	tap_ok(r.log_cut && r.log_len == 115 && strlen(r.log) == 115 &&
	       !strstr(r.log, "short"),
	       "a line one byte too long: left out, and all after it");
}

static void debug(void)
{
	static const char log1[] = "Logs for the probe:\n"
				   "  0.000000 s  probe of h.example:7471\n"
				   "  0.000500 s  h.example: no address\n";
	struct blackbox_result r;
	struct blackbox_ask a;
	struct capture c;
	char *out;
	int ret;

	memset(&a, 0, sizeof(a));
	snprintf(a.target, sizeof(a.target), "h.example:7471");
	snprintf(a.m.name, sizeof(a.m.name), "small");
	a.m.ops = 1;
	a.m.size = 64;
	a.m.iterations = 3;
	a.m.timeout_ms = 5000;
	a.m.tos = -1;
	a.timeout_ms = 4000;
	a.scrape_ms = 4500;
	blackbox_render_init(&r);
	r.failed = "unresolved";
	r.error = "not in /etc/hosts";
	r.resolve_s = 0.0005;
	blackbox_render_step(&r, 0, "probe of h.example:7471");
	blackbox_render_step(&r, 0.0005, "h.example: no address");
	ret = blackbox_render_debug(capture_open(&c), &r, &a);
	out = capture_close(&c);
	tap_ok(ret == 0 && !strncmp(out, log1, strlen(log1)),
	       "debug: the steps first");
	tap_ok(strstr(out, "\n\n\nMetrics that would have been returned:\n"
		      "# error: not in /etc/hosts\n") &&
	       strstr(out, "\nprobe_success 0\n") &&
	       strstr(out, "\nprobe_rdma_failed{class=\"unresolved\"} 1\n"),
	       "then the metrics");
	tap_ok(strstr(out, "\n\n\nModule configuration:\n[module.small]\n"
		      "op = read\nsize = 64\niterations = 3\n"
		      "timeout = 5000ms\n(this probe's timeout: 4000ms; "
		      "X-Prometheus-Scrape-Timeout-Seconds: 4.500 s)\n") &&
	       !strstr(out, "tos ="), "then the module, the timeouts");
	free(out);
	r.log_cut = true;
	ret = blackbox_render_debug(capture_open(&c), &r, &a);
	out = capture_close(&c);
	tap_ok(ret == 0 &&
	       strstr(out, "(the later steps did not fit in 4096 bytes)\n"),
	       "a cut log says so");
	free(out);
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

	struct blackbox_result busy, unres;

	tap_plan(26);

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

	/* A name that does not resolve, and a probe not run: the scrape
	 * still has probe_success (0) and the reason. */
	blackbox_render_init(&unres);
	unres.failed = "unresolved";
	unres.error = "Name or service not known";
	unres.resolve_s = 0.25;
	unres.duration_s = 0.26;
	out = render(&unres, &ret);
	tap_ok(ret == 0 && well_formed(out) &&
	       strstr(out, "\nprobe_success 0\n") &&
	       strstr(out, "\nprobe_rdma_failed{class=\"unresolved\"} 1\n") &&
	       strstr(out, "\nprobe_dns_lookup_time_seconds 0.250000\n") &&
	       !strstr(out, "\nprobe_ip_protocol ") &&
	       !strncmp(out, "# error: Name or service not known\n", 35),
	       "unresolved: success 0, the class, the lookup time, no "
	       "address");
	free(out);
	blackbox_render_init(&busy);
	busy.failed = "busy";
	busy.error = "not run: 16 probes are running";
	out = render(&busy, &ret);
	tap_ok(ret == 0 && well_formed(out) &&
	       strstr(out, "\nprobe_success 0\n") &&
	       strstr(out, "\nprobe_rdma_failed{class=\"busy\"} 1\n") &&
	       strstr(out, "\nprobe_duration_seconds 0.000000\n") &&
	       !strstr(out, "\nprobe_dns_lookup_time_seconds ") &&
	       !strstr(out, "\nprobe_rdma_connect_seconds "),
	       "busy: success 0, the class, nothing measured");
	free(out);
	ok.ip_protocol = 4;
	out = render(&ok, &ret);
	tap_ok(strstr(out, "\nprobe_ip_protocol 4\n") &&
	       strstr(out, "\nprobe_dns_lookup_time_seconds 0.000000\n"),
	       "the address's IP version; a lookup of 0 s is shown");
	free(out);

	steps();
	debug();
	return tap_done();
}
