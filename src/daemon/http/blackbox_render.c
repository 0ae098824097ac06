/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blackbox_render.c - a /probe result in Prometheus text (0.0.4), the
 * families of docs/monitoring.md "Blackbox-style probes".  Gauges only,
 * as blackbox_exporter's: each scrape is one new probe.
 */
#include <errno.h>

#include "http/blackbox_render.h"

static const char *const op_names[2] = { "read", "write" };

static void family(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* The error as a comment: one line, printable ASCII. */
static void comment(FILE *f, const char *what, const char *s)
{
	fprintf(f, "# %s: ", what);
	for (; *s; s++)
		fputc(*s >= 0x20 && *s < 0x7f ? *s : '?', f);
	fputc('\n', f);
}

int blackbox_render(FILE *f, const struct blackbox_result *r)
{
	unsigned int k;

	if (r->error)
		comment(f, "error", r->error);
	family(f, "probe_success", "Whether the probe succeeded: connected "
	       "and every byte verified.");
	fprintf(f, "probe_success %d\n", r->success ? 1 : 0);
	family(f, "probe_duration_seconds", "How long the probe took.");
	fprintf(f, "probe_duration_seconds %.6f\n", r->duration_s);
	family(f, "probe_rdma_connect_seconds", "From the start to the "
	       "connection up: address, route, connect (absent if never).");
	if (r->connect_s >= 0)
		fprintf(f, "probe_rdma_connect_seconds %.6f\n", r->connect_s);
	family(f, "probe_rdma_failed", "Why the probe failed: its class, "
	       "value 1 (absent on success).");
	if (!r->success)
		fprintf(f, "probe_rdma_failed{class=\"%s\"} 1\n",
			r->failed ? r->failed : "local-error");
	family(f, "probe_rdma_bytes_verified", "Bytes checked: READ and "
	       "compared with the server's pattern, and the last WRITE's, "
	       "checked by the server.");
	fprintf(f, "probe_rdma_bytes_verified %llu\n",
		(unsigned long long)r->bytes_verified);
	family(f, "probe_rdma_operations", "RDMA operations completed, by "
	       "kind.");
	for (k = 0; k < 2; k++)
		fprintf(f, "probe_rdma_operations{op=\"%s\"} %u\n",
			op_names[k], r->ops[k]);
	family(f, "probe_rdma_operation_avg_seconds", "Mean latency of the "
	       "completed operations, post to completion, by kind.");
	for (k = 0; k < 2; k++)
		if (r->ops[k])
			fprintf(f, "probe_rdma_operation_avg_seconds{op=\"%s\"}"
				" %.9f\n", op_names[k],
				r->op_sum_s[k] / r->ops[k]);
	family(f, "probe_rdma_operation_max_seconds", "Largest latency of "
	       "the completed operations, by kind.");
	for (k = 0; k < 2; k++)
		if (r->ops[k])
			fprintf(f, "probe_rdma_operation_max_seconds{op=\"%s\"}"
				" %.9f\n", op_names[k], r->op_max_s[k]);
	return ferror(f) ? -EIO : 0;
}
