/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blackbox_render.c - a /probe result in Prometheus text (0.0.4), the
 * families of docs/monitoring.md "Blackbox-style probes".  Gauges only,
 * as blackbox_exporter's: each scrape is one new probe.  With debug=true
 * the probe's steps instead, then the metrics and the module, the three
 * parts of blackbox_exporter's debug output.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "blackbox/blackbox_render.h"
#include "proto.h"

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

void blackbox_render_init(struct blackbox_result *r)
{
	memset(r, 0, sizeof(*r));
	r->connect_s = -1;
	r->resolve_s = -1;
}

void blackbox_render_step(struct blackbox_result *r, double at_s,
			  const char *fmt, ...)
{
	size_t room = sizeof(r->log) - r->log_len;
	char *at = r->log + r->log_len;
	va_list ap;
	int n, m;

	if (r->log_cut)
		return;
	n = snprintf(at, room, "%10.6f s  ", at_s);
	if (n >= 0 && (size_t)n < room) {
		va_start(ap, fmt);
		m = vsnprintf(at + n, room - (size_t)n, fmt, ap);
		va_end(ap);
		/* The line and its newline must fit. */
		if (m >= 0 && (size_t)(n + m) + 1 < room) {
			at[n + m] = '\n';
			at[n + m + 1] = '\0';
			r->log_len += (size_t)(n + m) + 1;
			return;
		}
	}
	*at = '\0';
	r->log_cut = true;
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
	family(f, "probe_dns_lookup_time_seconds", "How long the target's "
	       "name took to resolve (absent for a numeric address).");
	if (r->resolve_s >= 0)
		fprintf(f, "probe_dns_lookup_time_seconds %.6f\n",
			r->resolve_s);
	family(f, "probe_ip_protocol", "The IP version of the address "
	       "probed: 4 or 6 (absent if there was none).");
	if (r->ip_protocol)
		fprintf(f, "probe_ip_protocol %d\n", r->ip_protocol);
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

int blackbox_render_debug(FILE *f, const struct blackbox_result *r,
			  const struct blackbox_ask *ask)
{
	const struct config_module *m = &ask->m;

	fprintf(f, "Logs for the probe:\n%s", r->log);
	if (r->log_cut)
		fprintf(f, "(the later steps did not fit in %zu bytes)\n",
			sizeof(r->log));
	fprintf(f, "\n\nMetrics that would have been returned:\n");
	if (blackbox_render(f, r))
		return -EIO;
	fprintf(f, "\n\nModule configuration:\n"
		"[module.%s]\nop = %s%s%s\nsize = %u\niterations = %u\n"
		"timeout = %ums\n", m->name,
		m->ops & PROTO_OP_READ ? "read" : "",
		m->ops == PROTO_OP_MASK ? " " : "",
		m->ops & PROTO_OP_WRITE ? "write" : "",
		m->size, m->iterations, m->timeout_ms);
	if (m->tos >= 0)
		fprintf(f, "tos = %d\n", m->tos);
	fprintf(f, "(this probe's timeout: %ums", ask->timeout_ms);
	if (ask->scrape_ms)
		fprintf(f, "; %s: %u.%03u s", BLACKBOX_SCRAPE_HEADER,
			ask->scrape_ms / 1000, ask->scrape_ms % 1000);
	fprintf(f, ")\n");
	return ferror(f) ? -EIO : 0;
}
