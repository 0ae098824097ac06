/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metrics_render.c - Prometheus / OpenMetrics text of rdmad's statistics (see
 * metrics_render.h).
 *
 * The two formats differ only in the metadata: OpenMetrics names a
 * counter family without its _total suffix, has UNIT lines and the info
 * type, and ends with "# EOF".  Samples are the same.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/proc_stat_parse.h"
#include "mesh/view/metrics_mesh_render.h"
#include "metrics_render.h"
#include "http/mw_render.h"

static void render_process(struct mw *w, const struct stats_view *v)
{
	unsigned int i;

	mw_family(w, "rdmad_build", FT_INFO, NULL,
		  "rdmad version; the value is always 1.");
	mw_u64(w, "rdmad_build", "_info", ONE("version", v->version), 1);
	mw_family(w, "rdmad_start_time_seconds", FT_GAUGE, "seconds",
		  "When rdmad started, in seconds since the epoch.");
	mw_series(w, "rdmad_start_time_seconds", "", NULL, NULL, NULL, NULL);
	fprintf(w->f, " %.3f\n", v->start_time);
	mw_family(w, "rdmad_listener_up", FT_GAUGE, NULL,
		  "1 while the address is listening, 0 while rdmad waits to "
		  "listen again (device gone).");
	for (i = 0; i < v->n_listeners; i++)
		mw_u64(w, "rdmad_listener_up", "",
		       ONE("address", v->listeners[i].address),
		       v->listeners[i].up);
	mw_family(w, "rdmad_connections_max", FT_GAUGE, NULL,
		  "Connections served at once ([server] max_connections).");
	mw_u64(w, "rdmad_connections_max", "", NULL, NULL, NULL, NULL,
	       v->max_connections);
}

/* The process families of Prometheus client libraries (without P, none). */
static void render_self(struct mw *w, const struct proc_self *p)
{
	if (!p)
		return;
	mw_family(w, "process_cpu_seconds", FT_COUNTER, "seconds",
		  "Total user and system CPU time spent in seconds.");
	fputs("process_cpu_seconds_total", w->f);
	mw_value_double(w->f, p->cpu_seconds);
	mw_family(w, "process_resident_memory_bytes", FT_GAUGE, "bytes",
		  "Resident memory size in bytes.");
	mw_plain_u64(w, "process_resident_memory_bytes", "", p->resident_bytes);
	mw_family(w, "process_virtual_memory_bytes", FT_GAUGE, "bytes",
		  "Virtual memory size in bytes.");
	mw_plain_u64(w, "process_virtual_memory_bytes", "", p->virtual_bytes);
	mw_family(w, "process_open_fds", FT_GAUGE, NULL,
		  "Number of open file descriptors.");
	mw_plain_u64(w, "process_open_fds", "", p->open_fds);
	mw_family(w, "process_max_fds", FT_GAUGE, NULL,
		  "Maximum number of open file descriptors.");
	mw_plain_u64(w, "process_max_fds", "", p->max_fds);
	mw_family(w, "process_start_time_seconds", FT_GAUGE, "seconds",
		  "Start time of the process since unix epoch in seconds.");
	fputs("process_start_time_seconds", w->f);
	mw_value_double(w->f, p->start_time);
}

/* The last reload, and the memory pinned for RDMA against its cap. */
static void render_config(struct mw *w, const struct stats_view *v)
{
	mw_family(w, "rdmad_config_last_reload_successful", FT_GAUGE, NULL,
		  "1 if the last configuration reload succeeded (or none was "
		  "asked since start), 0 if it was refused.");
	mw_plain_u64(w, "rdmad_config_last_reload_successful", "",
		     v->reload_ok);
	mw_family(w, "rdmad_config_last_reload_success_timestamp_seconds",
		  FT_GAUGE, "seconds", "When the configuration was last read "
		  "successfully (start or reload), in seconds since the epoch.");
	fputs("rdmad_config_last_reload_success_timestamp_seconds", w->f);
	fprintf(w->f, " %.3f\n", v->reload_success_time);
	mw_family(w, "rdmad_registered_memory_bytes", FT_GAUGE, "bytes",
		  "Memory registered (pinned) for RDMA now, all connections.");
	mw_plain_u64(w, "rdmad_registered_memory_bytes", "", v->registered_bytes);
	mw_family(w, "rdmad_registered_memory_max_bytes", FT_GAUGE, "bytes",
		  "The cap of registered memory ([limits] "
		  "max_registered_bytes): connections past it are refused.");
	mw_plain_u64(w, "rdmad_registered_memory_max_bytes", "",
		     v->registered_max);
}

static void render_connections(struct mw *w, const struct stats *s)
{
	unsigned int p, r;

	mw_family(w, "rdmad_connections_active", FT_GAUGE, NULL,
		  "Connections accepted and not yet closed, by protocol.");
	for (p = 0; p < STATS_PROTO_N; p++)
		mw_u64(w, "rdmad_connections_active", "",
		       ONE("proto", stats_proto_name(p)), s->active[p]);
	mw_family(w, "rdmad_connections_accepted", FT_COUNTER, NULL,
		  "Connections accepted, by protocol.");
	for (p = 0; p < STATS_PROTO_N; p++)
		mw_u64(w, "rdmad_connections_accepted", "_total",
		       ONE("proto", stats_proto_name(p)), s->accepted[p]);
	mw_family(w, "rdmad_rejects", FT_COUNTER, NULL,
		  "Connection requests refused, by reason.");
	for (r = 0; r < STATS_REJ_N; r++)
		mw_u64(w, "rdmad_rejects", "_total",
		       ONE("reason", stats_reject_name(r)), s->rejects[r]);
	mw_family(w, "rdmad_sessions", FT_COUNTER, NULL,
		  "Connections closed, by protocol and result (the journal's "
		  "RDMAD_RESULT).");
	for (p = 0; p < STATS_PROTO_N; p++)
		for (r = 0; r < STATS_RES_N; r++)
			mw_u64(w, "rdmad_sessions", "_total",
			       "proto", stats_proto_name(p),
			       "result", stats_result_name(r),
			       s->sessions[p][r]);
}

/* The status endpoint's own refusals (zeros without V->http_refused). */
static void render_http(struct mw *w, const struct stats_view *v)
{
	static const uint64_t none[STATS_HTTP_N];
	const uint64_t *n = v->http_refused ? v->http_refused : none;
	unsigned int r;

	mw_family(w, "rdmad_http_requests_refused", FT_COUNTER, NULL,
		  "HTTP requests the status endpoint refused, by reason (only "
		  "a few are logged).");
	for (r = 0; r < STATS_HTTP_N; r++)
		mw_u64(w, "rdmad_http_requests_refused", "_total",
		       ONE("reason", stats_http_refusal_name(r)), n[r]);
}

/* Counter NAME_total{proto,op} of a [proto][op] table. */
static void by_proto_op(struct mw *w, const char *name,
			const uint64_t (*t)[STATS_OP_N])
{
	unsigned int p, op;

	for (p = 0; p < STATS_PROTO_N; p++)
		for (op = 0; op < STATS_OP_N; op++)
			mw_u64(w, name, "_total",
			       "proto", stats_proto_name(p),
			       "op", stats_op_name(op), t[p][op]);
}

static void render_rdma(struct mw *w, const struct stats *s)
{
	unsigned int i;

	mw_family(w, "rdmad_rdma_bytes", FT_COUNTER, "bytes",
		  "Bytes moved by RDMA READ and WRITE, by protocol and "
		  "operation.");
	by_proto_op(w, "rdmad_rdma_bytes", s->bytes);
	mw_family(w, "rdmad_rdma_operations", FT_COUNTER, NULL,
		  "RDMA READ and WRITE operations, by protocol and operation.");
	by_proto_op(w, "rdmad_rdma_operations", s->ops);
	mw_family(w, "rdmad_completion_errors", FT_COUNTER, NULL,
		  "Work completions that failed, by verbs status (flushes of "
		  "a closing connection not counted).");
	for (i = 0; i < STATS_WC_STATUS_N; i++)
		if (stats_wc_countable(i))
			mw_u64(w, "rdmad_completion_errors", "_total",
			       ONE("status", stats_wc_status_name(i)),
			       s->wc_errors[i]);
	mw_family(w, "rdmad_liveness_checks", FT_COUNTER, NULL,
		  "Liveness checks of quiet peers ([timeouts] liveness): "
		  "zero-length RDMA WRITEs, not counted as RDMA operations.");
	mw_u64(w, "rdmad_liveness_checks", "_total", NULL, NULL, NULL,
	       NULL, s->liveness_checks);
}

static void render_latency(struct mw *w, const struct stats *s)
{
	unsigned int p, op;

	mw_family(w, "rdmad_connect_seconds", FT_HISTOGRAM, "seconds",
		  "From a connection request to ESTABLISHED, by protocol.");
	for (p = 0; p < STATS_PROTO_N; p++)
		mw_histogram(w, "rdmad_connect_seconds", "proto",
			     stats_proto_name(p), &s->connect[p]);
	mw_family(w, "rdmad_session_seconds", FT_HISTOGRAM, "seconds",
		  "From accept to close, by protocol.");
	for (p = 0; p < STATS_PROTO_N; p++)
		mw_histogram(w, "rdmad_session_seconds", "proto",
			     stats_proto_name(p), &s->session[p]);
	mw_family(w, "rdmad_rdma_op_seconds", FT_HISTOGRAM, "seconds",
		  "Post to completion of the RDMA operations rdmad initiates "
		  "itself (rping protocol), by operation.");
	for (op = 0; op < STATS_OP_N; op++)
		mw_histogram(w, "rdmad_rdma_op_seconds", "op", stats_op_name(op),
			     &s->rdma_op[op]);
}

static void render_ports(struct mw *w, const struct stats *s)
{
	char port[16];
	unsigned int i;

	mw_family(w, "rdmad_port_up", FT_GAUGE, NULL,
		  "1 while this host's RDMA port is active, 0 while it is down "
		  "(from the port's first event on).");
	for (i = 0; i < s->n_ports; i++) {
		snprintf(port, sizeof(port), "%u", s->ports[i].port);
		mw_u64(w, "rdmad_port_up", "", "device",
		       s->ports[i].device, "port", port, s->ports[i].up);
	}
	mw_family(w, "rdmad_port_changes", FT_COUNTER, NULL,
		  "Times this host's RDMA port went down or up (link flaps).");
	for (i = 0; i < s->n_ports; i++) {
		snprintf(port, sizeof(port), "%u", s->ports[i].port);
		mw_u64(w, "rdmad_port_changes", "_total", "device",
		       s->ports[i].device, "port", port,
		       s->ports[i].changes);
	}
	mw_family(w, "rdmad_port_rate_bytes_per_second", FT_GAUGE,
		  "bytes_per_second",
		  "Nominal link rate of this host's RDMA port (active speed x "
		  "width, as rdma link shows it), while known.");
	for (i = 0; i < s->n_ports; i++) {
		if (!s->ports[i].rate)
			continue;
		snprintf(port, sizeof(port), "%u", s->ports[i].port);
		mw_u64(w, "rdmad_port_rate_bytes_per_second", "", "device",
		       s->ports[i].device, "port", port, s->ports[i].rate);
	}
}

/*
 * The ports' counters (rdma_counters.c): a series for each counter read at
 * least once; labels device, port, counter, bounded by what the drivers
 * have (rxe: 15 a port).  Only the legacy counters that can stop at a
 * ceiling have a saturated series.
 */
/* NAME SUFFIX{device="..",port="..",counter=".."} VAL of counter C. */
static void port_counter_sample(struct mw *w, const char *name,
				const char *suffix,
				const struct port_counter *c, uint64_t val)
{
	static const char *const k[] = { "device", "port", "counter" };
	const char *lv[3];
	char port[16];

	snprintf(port, sizeof(port), "%u", c->port);
	lv[0] = c->device;
	lv[1] = port;
	lv[2] = c->name;
	mw_series_n(w, name, suffix, k, lv, 3);
	mw_value_u64(w->f, val);
}

/* The samples of one of the two families: the totals, or (SATURATED)
 * the marker of the counters that have a ceiling. */
static void port_counter_samples(struct mw *w, const struct stats_view *v,
				 bool saturated)
{
	const struct port_counter *c;
	unsigned int i;

	for (i = 0; i < v->n_counters; i++) {
		c = &v->counters[i];
		if (!c->seen || (saturated && !c->ceiling))
			continue;
		if (saturated)
			port_counter_sample(w, "rdmad_port_events_saturated",
					    "", c, c->saturated);
		else
			port_counter_sample(w, "rdmad_port_events", "_total",
					    c, c->total);
	}
}

static void render_port_counters(struct mw *w, const struct stats_view *v)
{
	mw_family(w, "rdmad_port_events", FT_COUNTER, NULL,
		  "This host's RDMA port counter (sysfs counters/ and "
		  "hw_counters/), as rdmad counts it: never down across a reset "
		  "of the counter.");
	port_counter_samples(w, v, false);
	mw_family(w, "rdmad_port_events_saturated", FT_GAUGE, NULL,
		  "1 while a legacy port counter sits at the ceiling of its "
		  "width (it counts no more: its rate of 0 means nothing), "
		  "else 0.");
	port_counter_samples(w, v, true);
}

int metrics_render(FILE *f, const struct stats_view *v,
		   enum metrics_format fmt)
{
	struct mw w = { .f = f, .fmt = fmt };
	unsigned int i;
	int ret;

	for (i = 0; i < STATS_HIST_BUCKETS; i++)
		mw_fmt_seconds(w.stats_le[i], sizeof(w.stats_le[i]),
			       stats_hist_bounds_ns[i]);

	render_process(&w, v);
	render_self(&w, v->proc);
	render_config(&w, v);
	render_connections(&w, v->stats);
	render_rdma(&w, v->stats);
	render_latency(&w, v->stats);
	render_ports(&w, v->stats);
	render_port_counters(&w, v);
	render_http(&w, v);
	ret = metrics_mesh_render(&w, v->mesh);
	if (fmt == METRICS_OPENMETRICS)
		fputs("# EOF\n", f);
	if (ret)
		return ret;
	return ferror(f) ? -EIO : 0;
}

enum metrics_format metrics_negotiate(const char *accept)
{
	return accept && strstr(accept, "application/openmetrics-text") ?
	       METRICS_OPENMETRICS : METRICS_PROMETHEUS;
}

const char *metrics_content_type(enum metrics_format fmt)
{
	return fmt == METRICS_OPENMETRICS ? METRICS_CTYPE_OPENMETRICS :
					    METRICS_CTYPE_PROMETHEUS;
}
