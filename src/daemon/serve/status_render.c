/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * status_render.c - rdmad's live status as JSON or text (see status_render.h and
 * docs/monitoring.md for the document).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "json.h"
#include "serve/status_render.h"

/* ---- JSON ------------------------------------------------------------- */

/* "name": value pairs of one counter row; SKIP_ZERO for sparse maps. */
static void json_counts(FILE *f, const char *const *names,
			const uint64_t *vals, unsigned int n, int skip_zero)
{
	const char *sep = "";
	unsigned int i;

	fputc('{', f);
	for (i = 0; i < n; i++) {
		if (skip_zero && !vals[i])
			continue;
		fputs(sep, f);
		json_str(f, names[i]);
		fprintf(f, ":%" PRIu64, vals[i]);
		sep = ",";
	}
	fputc('}', f);
}

/* Name tables in the order of the stats enums. */
static void names_init(const char **proto, const char **op,
		       const char **res, const char **rej, const char **wc)
{
	unsigned int i;

	for (i = 0; i < STATS_PROTO_N; i++)
		proto[i] = stats_proto_name(i);
	for (i = 0; i < STATS_OP_N; i++)
		op[i] = stats_op_name(i);
	for (i = 0; i < STATS_RES_N; i++)
		res[i] = stats_result_name(i);
	for (i = 0; i < STATS_REJ_N; i++)
		rej[i] = stats_reject_name(i);
	for (i = 0; i < STATS_WC_STATUS_N; i++)
		wc[i] = stats_wc_status_name(i);
}

/* {"native":{...},"rping":{...}} of a [proto][N] table. */
static void json_by_proto(FILE *f, const char *const *proto,
			  const char *const *names, const uint64_t *table,
			  unsigned int n)
{
	unsigned int p;

	fputc('{', f);
	for (p = 0; p < STATS_PROTO_N; p++) {
		fprintf(f, "%s", p ? "," : "");
		json_str(f, proto[p]);
		fputc(':', f);
		json_counts(f, names, table + (size_t)p * n, n, 0);
	}
	fputc('}', f);
}

static void json_conn(FILE *f, const struct stats_conn *c)
{
	fprintf(f, "{\"id\":%" PRIu64 ",\"peer\":", c->id);
	json_str(f, c->peer);
	fputs(",\"proto\":", f);
	json_str(f, stats_proto_name(c->proto));
	fputs(",\"state\":", f);
	json_str(f, c->state);
	fprintf(f, ",\"bytes\":%" PRIu64 ",\"operations\":%" PRIu64
		",\"age_seconds\":%.3f}", c->bytes, c->ops,
		(double)c->age_ms / 1000.0);
}

int status_render_json(FILE *f, const struct stats_view *v)
{
	const struct stats *s = v->stats;
	const char *proto[STATS_PROTO_N], *op[STATS_OP_N];
	const char *res[STATS_RES_N], *rej[STATS_REJ_N];
	const char *wc[STATS_WC_STATUS_N];
	unsigned int i;

	names_init(proto, op, res, rej, wc);
	fputs("{\"version\":", f);
	json_str(f, v->version);
	fprintf(f, ",\"pid\":%ld,\"start_time\":%.3f,\"uptime_seconds\":%.3f"
		",\"stopping\":%s,\"listeners\":[", v->pid, v->start_time,
		v->now > v->start_time ? v->now - v->start_time : 0.0,
		v->stopping ? "true" : "false");
	for (i = 0; i < v->n_listeners; i++) {
		fprintf(f, "%s{\"address\":", i ? "," : "");
		json_str(f, v->listeners[i].address);
		fprintf(f, ",\"up\":%s}", v->listeners[i].up ? "true" :
			"false");
	}
	fprintf(f, "],\"connections\":{\"active\":%" PRIu64 ",\"max\":%u"
		",\"accepted\":%" PRIu64 ",\"rejected\":%" PRIu64
		",\"failed\":%" PRIu64 "}", stats_active_total(s),
		v->max_connections, stats_accepted_total(s),
		stats_rejects_total(s), stats_sessions_failed(s));
	fputs(",\"sessions\":", f);
	json_by_proto(f, proto, res, &s->sessions[0][0], STATS_RES_N);
	fputs(",\"rejects\":", f);
	json_counts(f, rej, s->rejects, STATS_REJ_N, 0);
	fputs(",\"bytes\":", f);
	json_by_proto(f, proto, op, &s->bytes[0][0], STATS_OP_N);
	fputs(",\"operations\":", f);
	json_by_proto(f, proto, op, &s->ops[0][0], STATS_OP_N);
	fputs(",\"completion_errors\":", f);
	json_counts(f, wc, s->wc_errors, STATS_WC_STATUS_N, 1);
	fputs(",\"active\":[", f);
	for (i = 0; i < v->n_conns; i++) {
		fputs(i ? "," : "", f);
		json_conn(f, &v->conns[i]);
	}
	fputs("]}\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---- text ------------------------------------------------------------- */

/* S seconds (negative: clock stepped back, shown as 0) for people. */
static void fmt_age(char *buf, size_t len, double s)
{
	uint64_t tenths = s > 0 ? (uint64_t)(s * 10) : 0, t = tenths / 10;

	if (t < 60)
		snprintf(buf, len, "%u.%us", (unsigned int)t,
			 (unsigned int)(tenths % 10));
	else if (t < 3600)
		snprintf(buf, len, "%um%02us", (unsigned int)(t / 60),
			 (unsigned int)(t % 60));
	else if (t < 86400)
		snprintf(buf, len, "%uh%02um%02us", (unsigned int)(t / 3600),
			 (unsigned int)(t / 60 % 60), (unsigned int)(t % 60));
	else
		snprintf(buf, len, "%ud%02uh%02um", (unsigned int)(t / 86400),
			 (unsigned int)(t / 3600 % 24),
			 (unsigned int)(t / 60 % 60));
}

static void fmt_bytes(char *buf, size_t len, uint64_t b)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB",
					    "PiB" };
	double v = (double)b;
	unsigned int i = 0;

	if (b < 1024) {
		snprintf(buf, len, "%" PRIu64 " B", b);
		return;
	}
	v /= 1024;
	while (v >= 1024 && i < 4) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.1f %s", v, unit[i]);
}

/* "label: name N, name N" of the non-zero entries; nothing if none. */
static void text_nonzero(FILE *f, const char *label,
			 const char *const *names, const uint64_t *vals,
			 unsigned int n, unsigned int skip)
{
	const char *sep = "";
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!vals[i] || i == skip)
			continue;
		fprintf(f, "%s%s %" PRIu64, *sep ? sep : label, names[i],
			vals[i]);
		sep = ", ";
	}
	if (*sep)
		fputc('\n', f);
}

int status_render_text(FILE *f, const struct stats_view *v)
{
	const struct stats *s = v->stats;
	const char *proto[STATS_PROTO_N], *op[STATS_OP_N];
	const char *res[STATS_RES_N], *rej[STATS_REJ_N];
	const char *wc[STATS_WC_STATUS_N];
	uint64_t fails[STATS_RES_N] = { 0 }, ok = 0, rd = 0, wr = 0;
	char age[32], b1[32], b2[32];
	unsigned int i, p;
	int w = 24;

	names_init(proto, op, res, rej, wc);
	fmt_age(age, sizeof(age), v->now - v->start_time);
	fprintf(f, "rdmad %s, pid %ld, up %s%s\n", v->version, v->pid, age,
		v->stopping ? ", stopping" : "");
	fputs("listening:", f);
	for (i = 0; i < v->n_listeners; i++)
		fprintf(f, " %s (%s)", v->listeners[i].address,
			v->listeners[i].up ? "up" : "down, retrying");
	fputs(v->n_listeners ? "\n" : " nothing\n", f);
	for (p = 0; p < STATS_PROTO_N; p++) {
		ok += s->sessions[p][STATS_RES_OK];
		for (i = 0; i < STATS_RES_N; i++)
			fails[i] += s->sessions[p][i];
		rd += s->bytes[p][STATS_OP_READ];
		wr += s->bytes[p][STATS_OP_WRITE];
	}
	fprintf(f, "connections: %" PRIu64 " active of %u; %" PRIu64
		" accepted, %" PRIu64 " rejected; sessions %" PRIu64 " ok, %"
		PRIu64 " failed\n", stats_active_total(s), v->max_connections,
		stats_accepted_total(s), stats_rejects_total(s), ok,
		stats_sessions_failed(s));
	fmt_bytes(b1, sizeof(b1), rd);
	fmt_bytes(b2, sizeof(b2), wr);
	fprintf(f, "moved: %s read, %s written\n", b1, b2);
	text_nonzero(f, "failures: ", res, fails, STATS_RES_N, STATS_RES_OK);
	text_nonzero(f, "rejects: ", rej, s->rejects, STATS_REJ_N,
		     STATS_REJ_N);
	text_nonzero(f, "completion errors: ", wc, s->wc_errors,
		     STATS_WC_STATUS_N, STATS_WC_STATUS_N);
	if (!v->n_conns) {
		fputs("no connections\n", f);
		return ferror(f) ? -EIO : 0;
	}
	/* The peer column fits the longest ([IPv6]:port is long). */
	for (i = 0; i < v->n_conns; i++)
		if (strlen(v->conns[i].peer) > (size_t)w)
			w = (int)strlen(v->conns[i].peer);
	fprintf(f, "\n%6s  %-*s  %-6s  %-34s  %12s  %8s  %8s\n", "ID", w,
		"PEER", "PROTO", "STATE", "BYTES", "OPS", "AGE");
	for (i = 0; i < v->n_conns; i++) {
		const struct stats_conn *c = &v->conns[i];

		fmt_age(age, sizeof(age), (double)c->age_ms / 1000.0);
		fprintf(f, "%6" PRIu64 "  %-*s  %-6s  %-34s  %12" PRIu64
			"  %8" PRIu64 "  %8s\n", c->id, w, c->peer,
			stats_proto_name(c->proto), c->state, c->bytes, c->ops,
			age);
	}
	return ferror(f) ? -EIO : 0;
}

int status_render(FILE *f, const struct stats_view *v, enum status_format fmt)
{
	return fmt == STATUS_FORMAT_TEXT ? status_render_text(f, v) :
					   status_render_json(f, v);
}
