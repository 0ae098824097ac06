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
#include "mesh/mesh_stats.h"
#include "http/metrics_render.h"

struct mw {
	FILE *f;
	enum metrics_format fmt;
	/* the le values of both histograms' bounds, made once a render */
	char stats_le[STATS_HIST_BUCKETS][24];
	char mesh_le[MESH_HIST_BUCKETS][24];
};

enum family_type { FT_GAUGE, FT_COUNTER, FT_HISTOGRAM, FT_INFO };

static const char *const type_names[] = {
	[FT_GAUGE] = "gauge", [FT_COUNTER] = "counter",
	[FT_HISTOGRAM] = "histogram", [FT_INFO] = "info",
};

/*
 * Metadata of family NAME (for counters without "_total", for info
 * without "_info").  UNIT may be NULL.
 */
static void family(struct mw *w, const char *name, enum family_type t,
		   const char *unit, const char *help)
{
	if (w->fmt == METRICS_OPENMETRICS) {
		fprintf(w->f, "# TYPE %s %s\n", name, type_names[t]);
		if (unit)
			fprintf(w->f, "# UNIT %s %s\n", name, unit);
		fprintf(w->f, "# HELP %s %s\n", name, help);
		return;
	}
	fprintf(w->f, "# HELP %s%s %s\n", name, t == FT_COUNTER ? "_total" :
		t == FT_INFO ? "_info" : "", help);
	fprintf(w->f, "# TYPE %s%s %s\n", name, t == FT_COUNTER ? "_total" :
		t == FT_INFO ? "_info" : "",
		t == FT_INFO ? "gauge" : type_names[t]);
}

/*
 * A scrape with 1,024 mesh peers is some 35,000 lines, written from the
 * daemon's one loop: samples are put together with fputs and a digit
 * loop, not fprintf (a third of the time, measured with scrape-bench).
 */

/* A label value, escaped as both formats want (\\, \", \n). */
static void label_value(FILE *f, const char *v)
{
	if (!strpbrk(v, "\\\"\n")) {
		fputs(v, f);
		return;
	}
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

/* name{k1="v1",k2="v2"} for up to two labels (K2 NULL: one, K1: none). */
static void series(struct mw *w, const char *name, const char *suffix,
		   const char *k1, const char *v1, const char *k2,
		   const char *v2)
{
	fputs(name, w->f);
	fputs(suffix, w->f);
	if (!k1)
		return;
	fputc('{', w->f);
	fputs(k1, w->f);
	fputs("=\"", w->f);
	label_value(w->f, v1);
	if (k2) {
		fputs("\",", w->f);
		fputs(k2, w->f);
		fputs("=\"", w->f);
		label_value(w->f, v2);
	}
	fputs("\"}", w->f);
}

/* name SUFFIX{K[0]="V[0]",...} for N labels (empty values left out: an
 * empty label is no label to Prometheus), without the value. */
static void series_n(struct mw *w, const char *name, const char *suffix,
		     const char *const *k, const char *const *v, unsigned int n)
{
	unsigned int i, out = 0;

	fputs(name, w->f);
	fputs(suffix, w->f);
	fputc('{', w->f);
	for (i = 0; i < n; i++) {
		if (!v[i] || !v[i][0])
			continue;
		if (out++)
			fputc(',', w->f);
		fputs(k[i], w->f);
		fputs("=\"", w->f);
		label_value(w->f, v[i]);
		fputc('"', w->f);
	}
	fputc('}', w->f);
}

/* An info series: name_info{K[0]="V[0]",...} 1. */
static void info_sample(struct mw *w, const char *name,
			const char *const *k, const char *const *v,
			unsigned int n)
{
	series_n(w, name, "_info", k, v, n);
	fputs(" 1\n", w->f);
}

/* " VAL\n" after a series. */
static void value_u64(FILE *f, uint64_t val)
{
	char buf[24], *p = buf + sizeof(buf);

	*--p = '\n';
	do
		*--p = (char)('0' + val % 10);
	while ((val /= 10));
	*--p = ' ';
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

static void sample_u64(struct mw *w, const char *name, const char *suffix,
		       const char *k1, const char *v1, const char *k2,
		       const char *v2, uint64_t val)
{
	series(w, name, suffix, k1, v1, k2, v2);
	value_u64(w->f, val);
}

/* NS nanoseconds as seconds, always with a fraction: "0.00001", "1.0". */
static void fmt_seconds(char *buf, size_t len, uint64_t ns)
{
	size_t n;

	snprintf(buf, len, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u,
		 ns % 1000000000u);
	n = strlen(buf);
	while (n > 2 && buf[n - 1] == '0' && buf[n - 2] != '.')
		buf[--n] = '\0';
}

/* " SECONDS\n" of NS nanoseconds, after a series. */
static void fmt_seconds_line(struct mw *w, uint64_t ns)
{
	char buf[32];

	fmt_seconds(buf, sizeof(buf), ns);
	fprintf(w->f, " %s\n", buf);
}

/* Buckets of N bounds (per bucket, +Inf last) with their LE, cumulated. */
static void histogram_of(struct mw *w, const char *name, const char *k,
			 const char *v, char (*le)[24], unsigned int n,
			 const uint64_t *bucket, uint64_t count, uint64_t sum_ns)
{
	uint64_t cum = 0;
	unsigned int i;

	for (i = 0; i <= n; i++) {
		cum += bucket[i];
		series(w, name, "_bucket", k, v, "le", i < n ? le[i] : "+Inf");
		value_u64(w->f, cum);
	}
	sample_u64(w, name, "_count", k, v, NULL, NULL, count);
	series(w, name, "_sum", k, v, NULL, NULL);
	fmt_seconds_line(w, sum_ns);
}

static void histogram(struct mw *w, const char *name, const char *k,
		      const char *v, const struct stats_hist *h)
{
	histogram_of(w, name, k, v, w->stats_le, STATS_HIST_BUCKETS,
		     h->bucket, h->count, h->sum_ns);
}

/* k1 only: "name{k1=\"v\"}" written by series() needs k2 NULL. */
#define ONE(k, v)	k, v, NULL, NULL

static void render_process(struct mw *w, const struct stats_view *v)
{
	unsigned int i;

	family(w, "rdmad_build", FT_INFO, NULL,
	       "rdmad version; the value is always 1.");
	sample_u64(w, "rdmad_build", "_info", ONE("version", v->version), 1);
	family(w, "rdmad_start_time_seconds", FT_GAUGE, "seconds",
	       "When rdmad started, in seconds since the epoch.");
	series(w, "rdmad_start_time_seconds", "", NULL, NULL, NULL, NULL);
	fprintf(w->f, " %.3f\n", v->start_time);
	family(w, "rdmad_listener_up", FT_GAUGE, NULL,
	       "1 while the address is listening, 0 while rdmad waits to "
	       "listen again (device gone).");
	for (i = 0; i < v->n_listeners; i++)
		sample_u64(w, "rdmad_listener_up", "",
			   ONE("address", v->listeners[i].address),
			   v->listeners[i].up);
	family(w, "rdmad_connections_max", FT_GAUGE, NULL,
	       "Connections served at once ([server] max_connections).");
	sample_u64(w, "rdmad_connections_max", "", NULL, NULL, NULL, NULL,
		   v->max_connections);
}

/* " VAL\n" of a double, as Prometheus reads it. */
static void value_double(FILE *f, double val)
{
	fprintf(f, " %.17g\n", val);
}

/* A sample without labels. */
static void plain_u64(struct mw *w, const char *name, const char *suffix,
		      uint64_t val)
{
	sample_u64(w, name, suffix, NULL, NULL, NULL, NULL, val);
}

/* The process families of Prometheus client libraries (without P, none). */
static void render_self(struct mw *w, const struct proc_self *p)
{
	if (!p)
		return;
	family(w, "process_cpu_seconds", FT_COUNTER, "seconds",
	       "Total user and system CPU time spent in seconds.");
	fputs("process_cpu_seconds_total", w->f);
	value_double(w->f, p->cpu_seconds);
	family(w, "process_resident_memory_bytes", FT_GAUGE, "bytes",
	       "Resident memory size in bytes.");
	plain_u64(w, "process_resident_memory_bytes", "", p->resident_bytes);
	family(w, "process_virtual_memory_bytes", FT_GAUGE, "bytes",
	       "Virtual memory size in bytes.");
	plain_u64(w, "process_virtual_memory_bytes", "", p->virtual_bytes);
	family(w, "process_open_fds", FT_GAUGE, NULL,
	       "Number of open file descriptors.");
	plain_u64(w, "process_open_fds", "", p->open_fds);
	family(w, "process_max_fds", FT_GAUGE, NULL,
	       "Maximum number of open file descriptors.");
	plain_u64(w, "process_max_fds", "", p->max_fds);
	family(w, "process_start_time_seconds", FT_GAUGE, "seconds",
	       "Start time of the process since unix epoch in seconds.");
	fputs("process_start_time_seconds", w->f);
	value_double(w->f, p->start_time);
}

/* The last reload, and the memory pinned for RDMA against its cap. */
static void render_config(struct mw *w, const struct stats_view *v)
{
	family(w, "rdmad_config_last_reload_successful", FT_GAUGE, NULL,
	       "1 if the last configuration reload succeeded (or none was "
	       "asked since start), 0 if it was refused.");
	plain_u64(w, "rdmad_config_last_reload_successful", "",
		  v->reload_ok);
	family(w, "rdmad_config_last_reload_success_timestamp_seconds",
	       FT_GAUGE, "seconds", "When the configuration was last read "
	       "successfully (start or reload), in seconds since the epoch.");
	fputs("rdmad_config_last_reload_success_timestamp_seconds", w->f);
	fprintf(w->f, " %.3f\n", v->reload_success_time);
	family(w, "rdmad_registered_memory_bytes", FT_GAUGE, "bytes",
	       "Memory registered (pinned) for RDMA now, all connections.");
	plain_u64(w, "rdmad_registered_memory_bytes", "", v->registered_bytes);
	family(w, "rdmad_registered_memory_max_bytes", FT_GAUGE, "bytes",
	       "The cap of registered memory ([limits] "
	       "max_registered_bytes): connections past it are refused.");
	plain_u64(w, "rdmad_registered_memory_max_bytes", "",
		  v->registered_max);
}

static void render_connections(struct mw *w, const struct stats *s)
{
	unsigned int p, r;

	family(w, "rdmad_connections_active", FT_GAUGE, NULL,
	       "Connections accepted and not yet closed, by protocol.");
	for (p = 0; p < STATS_PROTO_N; p++)
		sample_u64(w, "rdmad_connections_active", "",
			   ONE("proto", stats_proto_name(p)), s->active[p]);
	family(w, "rdmad_connections_accepted", FT_COUNTER, NULL,
	       "Connections accepted, by protocol.");
	for (p = 0; p < STATS_PROTO_N; p++)
		sample_u64(w, "rdmad_connections_accepted", "_total",
			   ONE("proto", stats_proto_name(p)), s->accepted[p]);
	family(w, "rdmad_rejects", FT_COUNTER, NULL,
	       "Connection requests refused, by reason.");
	for (r = 0; r < STATS_REJ_N; r++)
		sample_u64(w, "rdmad_rejects", "_total",
			   ONE("reason", stats_reject_name(r)), s->rejects[r]);
	family(w, "rdmad_sessions", FT_COUNTER, NULL,
	       "Connections closed, by protocol and result (the journal's "
	       "RDMAD_RESULT).");
	for (p = 0; p < STATS_PROTO_N; p++)
		for (r = 0; r < STATS_RES_N; r++)
			sample_u64(w, "rdmad_sessions", "_total",
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

	family(w, "rdmad_http_requests_refused", FT_COUNTER, NULL,
	       "HTTP requests the status endpoint refused, by reason (only "
	       "a few are logged).");
	for (r = 0; r < STATS_HTTP_N; r++)
		sample_u64(w, "rdmad_http_requests_refused", "_total",
			   ONE("reason", stats_http_refusal_name(r)), n[r]);
}

/* Counter NAME_total{proto,op} of a [proto][op] table. */
static void by_proto_op(struct mw *w, const char *name,
			const uint64_t (*t)[STATS_OP_N])
{
	unsigned int p, op;

	for (p = 0; p < STATS_PROTO_N; p++)
		for (op = 0; op < STATS_OP_N; op++)
			sample_u64(w, name, "_total",
				   "proto", stats_proto_name(p),
				   "op", stats_op_name(op), t[p][op]);
}

static void render_rdma(struct mw *w, const struct stats *s)
{
	unsigned int i;

	family(w, "rdmad_rdma_bytes", FT_COUNTER, "bytes",
	       "Bytes moved by RDMA READ and WRITE, by protocol and "
	       "operation.");
	by_proto_op(w, "rdmad_rdma_bytes", s->bytes);
	family(w, "rdmad_rdma_operations", FT_COUNTER, NULL,
	       "RDMA READ and WRITE operations, by protocol and operation.");
	by_proto_op(w, "rdmad_rdma_operations", s->ops);
	family(w, "rdmad_completion_errors", FT_COUNTER, NULL,
	       "Work completions that failed, by verbs status (flushes of "
	       "a closing connection not counted).");
	for (i = 0; i < STATS_WC_STATUS_N; i++)
		if (stats_wc_countable(i))
			sample_u64(w, "rdmad_completion_errors", "_total",
				   ONE("status", stats_wc_status_name(i)),
				   s->wc_errors[i]);
	family(w, "rdmad_liveness_checks", FT_COUNTER, NULL,
	       "Liveness checks of quiet peers ([timeouts] liveness): "
	       "zero-length RDMA WRITEs, not counted as RDMA operations.");
	sample_u64(w, "rdmad_liveness_checks", "_total", NULL, NULL, NULL,
		   NULL, s->liveness_checks);
}

static void render_latency(struct mw *w, const struct stats *s)
{
	unsigned int p, op;

	family(w, "rdmad_connect_seconds", FT_HISTOGRAM, "seconds",
	       "From a connection request to ESTABLISHED, by protocol.");
	for (p = 0; p < STATS_PROTO_N; p++)
		histogram(w, "rdmad_connect_seconds", "proto",
			  stats_proto_name(p), &s->connect[p]);
	family(w, "rdmad_session_seconds", FT_HISTOGRAM, "seconds",
	       "From accept to close, by protocol.");
	for (p = 0; p < STATS_PROTO_N; p++)
		histogram(w, "rdmad_session_seconds", "proto",
			  stats_proto_name(p), &s->session[p]);
	family(w, "rdmad_rdma_op_seconds", FT_HISTOGRAM, "seconds",
	       "Post to completion of the RDMA operations rdmad initiates "
	       "itself (rping protocol), by operation.");
	for (op = 0; op < STATS_OP_N; op++)
		histogram(w, "rdmad_rdma_op_seconds", "op", stats_op_name(op),
			  &s->rdma_op[op]);
}

static void render_ports(struct mw *w, const struct stats *s)
{
	char port[16];
	unsigned int i;

	family(w, "rdmad_port_up", FT_GAUGE, NULL,
	       "1 while this host's RDMA port is active, 0 while it is down "
	       "(from the port's first event on).");
	for (i = 0; i < s->n_ports; i++) {
		snprintf(port, sizeof(port), "%u", s->ports[i].port);
		sample_u64(w, "rdmad_port_up", "", "device",
			   s->ports[i].device, "port", port, s->ports[i].up);
	}
	family(w, "rdmad_port_changes", FT_COUNTER, NULL,
	       "Times this host's RDMA port went down or up (link flaps).");
	for (i = 0; i < s->n_ports; i++) {
		snprintf(port, sizeof(port), "%u", s->ports[i].port);
		sample_u64(w, "rdmad_port_changes", "_total", "device",
			   s->ports[i].device, "port", port,
			   s->ports[i].changes);
	}
	family(w, "rdmad_port_rate_bytes_per_second", FT_GAUGE,
	       "bytes_per_second",
	       "Nominal link rate of this host's RDMA port (active speed x "
	       "width, as rdma link shows it), while known.");
	for (i = 0; i < s->n_ports; i++) {
		if (!s->ports[i].rate)
			continue;
		snprintf(port, sizeof(port), "%u", s->ports[i].port);
		sample_u64(w, "rdmad_port_rate_bytes_per_second", "", "device",
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
	series_n(w, name, suffix, k, lv, 3);
	value_u64(w->f, val);
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
			port_counter_sample(w, "rdmad_port_counter_saturated",
					    "", c, c->saturated);
		else
			port_counter_sample(w, "rdmad_port_counter", "_total",
					    c, c->total);
	}
}

static void render_port_counters(struct mw *w, const struct stats_view *v)
{
	family(w, "rdmad_port_counter", FT_COUNTER, NULL,
	       "This host's RDMA port counter (sysfs counters/ and "
	       "hw_counters/), as rdmad counts it: never down across a reset "
	       "of the counter.");
	port_counter_samples(w, v, false);
	family(w, "rdmad_port_counter_saturated", FT_GAUGE, NULL,
	       "1 while a legacy port counter sits at the ceiling of its "
	       "width (it counts no more: its rate of 0 means nothing), "
	       "else 0.");
	port_counter_samples(w, v, true);
}

/* ---- the mesh agent: per peer, bounded by fixed label sets ---------- */

/* One peer's paths added up. */
struct peer_sum {
	uint64_t rounds[MESH_RES_N];
	uint64_t size_failed[CONFIG_MESH_SIZES_MAX];
	struct mesh_hist rtt;
	uint64_t connects, downs;
	const struct mesh_view_path *bw;	/* the latest sample, or NULL */
};

static void peer_sum(const struct mesh_view_peer *p, struct peer_sum *o)
{
	unsigned int i, j;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < mesh_stats_n_figures(p); i++) {
		const struct mesh_path_stats *st = p->path[i].st;

		for (j = 0; j < MESH_RES_N; j++)
			o->rounds[j] += st->rounds[j];
		for (j = 0; j < CONFIG_MESH_SIZES_MAX; j++)
			o->size_failed[j] += st->size_failed[j];
		for (j = 0; j <= MESH_HIST_BUCKETS; j++)
			o->rtt.bucket[j] += st->rtt.bucket[j];
		o->rtt.count += st->rtt.count;
		o->rtt.sum_ns += st->rtt.sum_ns;
		o->connects += st->connects;
		o->downs += st->downs;
		if (mesh_view_bw(&p->path[i]) &&
		    (!o->bw || st->bw_at > o->bw->st->bw_at))
			o->bw = &p->path[i];
	}
}

/*
 * Families of one peer at a time would interleave families, which the
 * formats forbid: each family walks every peer.  The sums are made once.
 */
static void render_mesh_peers(struct mw *w, const struct mesh_view *m,
			      const struct peer_sum *sum)
{
	unsigned int i, j;
	char label[16];

	family(w, "rdmad_mesh_peer_up", FT_GAUGE, NULL,
	       "1 while at least one path to the peer is up.");
	for (i = 0; i < m->n_peers; i++)
		sample_u64(w, "rdmad_mesh_peer_up", "",
			   ONE("peer", m->peers[i].name),
			   mesh_stats_paths_up(&m->peers[i]) > 0);
	family(w, "rdmad_mesh_peer_paths_up", FT_GAUGE, NULL,
	       "Paths (connections, [mesh] paths) to the peer that are up.");
	for (i = 0; i < m->n_peers; i++)
		sample_u64(w, "rdmad_mesh_peer_paths_up", "",
			   ONE("peer", m->peers[i].name),
			   mesh_stats_paths_up(&m->peers[i]));
	family(w, "rdmad_mesh_rounds", FT_COUNTER, NULL,
	       "Probe rounds to the peer, all paths, by result (a failed "
	       "connect counts as a round).");
	for (i = 0; i < m->n_peers; i++)
		for (j = 0; j < MESH_RES_N; j++)
			sample_u64(w, "rdmad_mesh_rounds", "_total",
				   "peer", m->peers[i].name,
				   "result", mesh_result_name(j),
				   sum[i].rounds[j]);
	family(w, "rdmad_mesh_path_rounds_failed", FT_COUNTER, NULL,
	       "Failed rounds by path (0 .. [mesh] paths - 1): a bad ECMP "
	       "path shows as one path failing.");
	for (i = 0; i < m->n_peers; i++)
		for (j = 0; j < m->peers[i].n_paths; j++) {
			snprintf(label, sizeof(label), "%u", j);
			sample_u64(w, "rdmad_mesh_path_rounds_failed", "_total",
				   "peer", m->peers[i].name, "path", label,
				   mesh_stats_failed(m->peers[i].path[j].st));
		}
	family(w, "rdmad_mesh_size_rounds_failed", FT_COUNTER, NULL,
	       "Failed rounds by size in bytes ([mesh] sizes), all paths: "
	       "loss that hits large packets only shows here.");
	for (i = 0; i < m->n_peers; i++)
		for (j = 0; j < m->n_sizes && j < CONFIG_MESH_SIZES_MAX; j++) {
			snprintf(label, sizeof(label), "%" PRIu32,
				 m->sizes[j]);
			sample_u64(w, "rdmad_mesh_size_rounds_failed", "_total",
				   "peer", m->peers[i].name, "size", label,
				   sum[i].size_failed[j]);
		}
	family(w, "rdmad_mesh_round_duration_seconds", FT_HISTOGRAM,
	       "seconds", "Verified rounds from the first post to the last "
	       "completion, all paths.");
	for (i = 0; i < m->n_peers; i++)
		histogram_of(w, "rdmad_mesh_round_duration_seconds", "peer",
			     m->peers[i].name, w->mesh_le, MESH_HIST_BUCKETS, sum[i].rtt.bucket,
			     sum[i].rtt.count, sum[i].rtt.sum_ns);
	family(w, "rdmad_mesh_bandwidth_bytes_per_second", FT_GAUGE,
	       "bytes_per_second", "The peer's last bandwidth sample "
	       "(absent until one was taken).");
	for (i = 0; i < m->n_peers; i++)
		if (sum[i].bw)
			sample_u64(w, "rdmad_mesh_bandwidth_bytes_per_second",
				   "", ONE("peer", m->peers[i].name),
				   mesh_view_bw(sum[i].bw));
	family(w, "rdmad_mesh_connects", FT_COUNTER, NULL,
	       "Mesh sessions established to the peer, all paths.");
	for (i = 0; i < m->n_peers; i++)
		sample_u64(w, "rdmad_mesh_connects", "_total",
			   ONE("peer", m->peers[i].name), sum[i].connects);
	family(w, "rdmad_mesh_peer_downs", FT_COUNTER, NULL,
	       "Paths to the peer that went from up to down.");
	for (i = 0; i < m->n_peers; i++)
		sample_u64(w, "rdmad_mesh_peer_downs", "_total",
			   ONE("peer", m->peers[i].name), sum[i].downs);
}

/*
 * [mesh] peer_series = compact: 5 series a peer (up with its place,
 * rounds as ok / mismatch / failed, the p99 of its window); the rest by
 * rail (render_mesh_rails).
 */
static void render_mesh_compact(struct mw *w, const struct mesh_view *m,
				const struct peer_sum *sum)
{
	static const char *const uk[] = { "peer", "peer_host", "peer_tor",
					  "rail", "why" };
	unsigned int i, j;

	family(w, "rdmad_mesh_peer_up", FT_GAUGE, NULL,
	       "1 while at least one path to the peer is up; peer_host, "
	       "peer_tor, rail: its place in the inventory, why: why it is "
	       "probed.");
	for (i = 0; i < m->n_peers; i++) {
		const struct mesh_view_peer *p = &m->peers[i];
		char rail[12];

		snprintf(rail, sizeof(rail), "%u", p->rail);
		series_n(w, "rdmad_mesh_peer_up", "", uk,
			 (const char *const[]){ p->name, p->host, p->tor, rail,
						p->why }, 5);
		value_u64(w->f, mesh_stats_paths_up(p) > 0);
	}
	family(w, "rdmad_mesh_rounds", FT_COUNTER, NULL,
	       "Probe rounds to the peer, all paths: ok, mismatch, failed "
	       "(every other class; by class in rdmad_mesh_rail_rounds).");
	for (i = 0; i < m->n_peers; i++) {
		uint64_t n[MESH_CRES_N] = { 0 };

		for (j = 0; j < MESH_RES_N; j++)
			n[mesh_compact_result_of(j)] += sum[i].rounds[j];
		for (j = 0; j < MESH_CRES_N; j++)
			sample_u64(w, "rdmad_mesh_rounds", "_total",
				   "peer", m->peers[i].name,
				   "result", mesh_compact_result_name(j), n[j]);
	}
	family(w, "rdmad_mesh_round_p99_seconds", FT_GAUGE, "seconds",
	       "p99 of the peer's verified rounds among its paths' last 128 "
	       "rounds each (absent while there is none).");
	for (i = 0; i < m->n_peers; i++) {
		struct mesh_window_sum ws;

		mesh_stats_peer_window(&m->peers[i], &ws);
		if (!ws.p99_ns)
			continue;
		series(w, "rdmad_mesh_round_p99_seconds", "",
		       ONE("peer", m->peers[i].name));
		fmt_seconds_line(w, ws.p99_ns);
	}
}

/* Compact: each rail's rounds since start, every peer that was on it. */
static void render_mesh_rails(struct mw *w, const struct mesh_view *m)
{
	char label[12];
	unsigned int r, j;

	family(w, "rdmad_mesh_rail_rounds", FT_COUNTER, NULL,
	       "Probe rounds to the peers on the rail since start, by "
	       "result (a peer that left keeps its rounds here).");
	for (r = 0; r < m->n_rails; r++) {
		if (!m->rails[r].seen)
			continue;
		snprintf(label, sizeof(label), "%u", r);
		for (j = 0; j < MESH_RES_N; j++)
			sample_u64(w, "rdmad_mesh_rail_rounds", "_total",
				   "rail", label, "result", mesh_result_name(j),
				   m->rails[r].rounds[j]);
	}
	family(w, "rdmad_mesh_rail_round_duration_seconds", FT_HISTOGRAM,
	       "seconds", "Verified rounds to the peers on the rail since "
	       "start, all paths.");
	for (r = 0; r < m->n_rails; r++) {
		const struct mesh_hist *h = &m->rails[r].rtt;

		if (!m->rails[r].seen)
			continue;
		snprintf(label, sizeof(label), "%u", r);
		histogram_of(w, "rdmad_mesh_rail_round_duration_seconds",
			     "rail", label, w->mesh_le, MESH_HIST_BUCKETS,
			     h->bucket, h->count, h->sum_ns);
	}
}

/*
 * With an inventory: where this host stands, each peer's place and why
 * it is probed (full: one info series a peer, join on peer; compact: the
 * place is on rdmad_mesh_peer_up), and how often the cross-ToR slots
 * moved on.
 */
static void render_mesh_place(struct mw *w, const struct mesh_view *m)
{
	static const char *const pk[] = { "host", "tor", "pod" };
	static const char *const qk[] = { "peer", "peer_host", "peer_tor",
					  "rail", "why" };
	unsigned int i;

	if (!m->topology)
		return;
	family(w, "rdmad_mesh_place", FT_INFO, NULL,
	       "Where this rdmad stands in the inventory ([mesh] targets).");
	info_sample(w, "rdmad_mesh_place",
		    pk, (const char *const[]){ m->host, m->tor, m->pod }, 3);
	/* compact: the peer's place is on rdmad_mesh_peer_up */
	if (!m->compact)
		family(w, "rdmad_mesh_peer", FT_INFO, NULL,
		       "Each peer's place in the inventory and why it is "
		       "probed (same ToR, cross-ToR this epoch).");
	for (i = 0; i < m->n_peers && !m->compact; i++) {
		const struct mesh_view_peer *p = &m->peers[i];
		char rail[12];

		snprintf(rail, sizeof(rail), "%u", p->rail);
		info_sample(w, "rdmad_mesh_peer", qk,
			    (const char *const[]){ p->name, p->host, p->tor,
						   rail, p->why }, 5);
	}
	family(w, "rdmad_mesh_epoch_switches", FT_COUNTER, NULL,
	       "Times a cross-ToR slot of this host moved on to its next "
	       "epoch's peers.");
	sample_u64(w, "rdmad_mesh_epoch_switches", "_total", NULL, NULL,
		   NULL, NULL, m->switches);
}

/*
 * The mesh families are declared even with no agent (as
 * rdmad_listener_up without listeners); per-peer series come with peers.
 * -ENOMEM when the per-peer sums cannot be allocated.
 */
static int render_mesh(struct mw *w, const struct mesh_view *m)
{
	static const struct mesh_view off;
	struct peer_sum *sum = NULL;
	unsigned int i;

	if (!m || !m->on)
		m = &off;
	if (m->n_peers) {
		sum = calloc(m->n_peers, sizeof(*sum));
		if (!sum)
			return -ENOMEM;
	}
	for (i = 0; i < m->n_peers; i++)
		peer_sum(&m->peers[i], &sum[i]);
	family(w, "rdmad_mesh_peers", FT_GAUGE, NULL,
	       "Peers the mesh agent probes ([mesh] targets).");
	sample_u64(w, "rdmad_mesh_peers", "", NULL, NULL, NULL, NULL,
		   m->n_peers);
	family(w, "rdmad_mesh_self_info", FT_GAUGE, NULL,
	       "1 for each [mesh] targets entry that is this rdmad itself: "
	       "the peer label other hosts give it.");
	for (i = 0; i < m->n_self; i++)
		sample_u64(w, "rdmad_mesh_self_info", "", "peer", m->self[i],
			   NULL, NULL, 1);
	if (m->compact)
		render_mesh_compact(w, m, sum);
	else
		render_mesh_peers(w, m, sum);
	free(sum);
	render_mesh_place(w, m);
	if (m->compact)
		render_mesh_rails(w, m);
	family(w, "rdmad_mesh_bandwidth_samples", FT_COUNTER, NULL,
	       "Bandwidth samples taken, all peers.");
	sample_u64(w, "rdmad_mesh_bandwidth_samples", "_total", NULL, NULL,
		   NULL, NULL, m->bw_samples);
	family(w, "rdmad_mesh_bandwidth_seconds", FT_COUNTER, "seconds",
	       "Link time the bandwidth samples took, all peers (held "
	       "under [mesh] bandwidth_share).");
	series(w, "rdmad_mesh_bandwidth_seconds", "_total", NULL, NULL, NULL,
	       NULL);
	fmt_seconds_line(w, m->bw_ns);
	family(w, "rdmad_mesh_targets_reloads", FT_COUNTER, NULL,
	       "Times the targets file was read again (reload).");
	sample_u64(w, "rdmad_mesh_targets_reloads", "_total", NULL, NULL,
		   NULL, NULL, m->reloads);
	return 0;
}

int metrics_render(FILE *f, const struct stats_view *v,
		   enum metrics_format fmt)
{
	struct mw w = { .f = f, .fmt = fmt };
	unsigned int i;
	int ret;

	for (i = 0; i < STATS_HIST_BUCKETS; i++)
		fmt_seconds(w.stats_le[i], sizeof(w.stats_le[i]),
			    stats_hist_bounds_ns[i]);
	for (i = 0; i < MESH_HIST_BUCKETS; i++)
		fmt_seconds(w.mesh_le[i], sizeof(w.mesh_le[i]),
			    mesh_hist_bounds_ns[i]);

	render_process(&w, v);
	render_self(&w, v->proc);
	render_config(&w, v);
	render_connections(&w, v->stats);
	render_rdma(&w, v->stats);
	render_latency(&w, v->stats);
	render_ports(&w, v->stats);
	render_port_counters(&w, v);
	render_http(&w, v);
	ret = render_mesh(&w, v->mesh);
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
