/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-metrics-render.c - the Prometheus / OpenMetrics text of metrics_render.c: exact
 * samples, histogram shape, metadata of each format, label escaping, and
 * a structural validator of the exposition format run over both.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/proc_stat_parse.h"
#include "mesh/mesh_inventory_parse.h"
#include "mesh/mesh_stats.h"
#include "metrics_render.h"
#include "core/stats.h"
#include "capture.h"
#include "mesh-fixture.h"
#include "tap.h"

#define WC_SUCCESS		0
#define WC_WR_FLUSH_ERR		5
#define WC_REM_ACCESS_ERR	10
#define S_NS			1000000000ull

/* ---- rendering ---------------------------------------------------------- */

static char *render(const struct stats_view *v, enum metrics_format fmt,
		    int *ret)
{
	struct capture c;

	*ret = metrics_render(capture_open(&c), v, fmt);
	return capture_close(&c);
}

/* Is LINE (without its newline) one of the lines of BUF? */
static int has_line(const char *buf, const char *line)
{
	size_t n = strlen(line);
	const char *p = buf;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len == n && !memcmp(p, line, n))
			return 1;
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

/* Are all N LINES lines of BUF?  Says which are not. */
static int has_lines(const char *buf, const char *const *lines,
		     unsigned int n, const char *what)
{
	unsigned int i;
	int ok = 1;

	for (i = 0; i < n; i++)
		if (!has_line(buf, lines[i])) {
			tap_diag("%s: no line '%s'", what, lines[i]);
			ok = 0;
		}
	return ok;
}

/* Number of lines of BUF starting with PREFIX. */
static int count_prefix(const char *buf, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = buf;
	int count = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');

		if (!strncmp(p, prefix, n))
			count++;
		if (!nl)
			break;
		p = nl + 1;
	}
	return count;
}

/* The value of the sample line "SERIES VALUE", or NULL. */
static const char *sample_value(const char *buf, const char *series,
				char *out, size_t outlen)
{
	size_t n = strlen(series);
	const char *p = buf;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len > n + 1 && !memcmp(p, series, n) && p[n] == ' ') {
			len -= n + 1;
			if (len >= outlen)
				len = outlen - 1;
			memcpy(out, p + n + 1, len);
			out[len] = '\0';
			return out;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return NULL;
}

/* BUF without its comment lines. */
static char *samples_only(const char *buf)
{
	char *out = malloc(strlen(buf) + 1), *o = out;
	const char *p = buf;

	if (!out)
		exit(99);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);

		if (*p != '#') {
			memcpy(o, p, len);
			o += len;
		}
		p += len;
	}
	*o = '\0';
	return out;
}

/* PROM and OM carry the same samples (their text aside): WHAT's check. */
static void same_samples(const char *prom, const char *om, const char *what)
{
	char *a = samples_only(prom), *b = samples_only(om);

	tap_ok(!strcmp(a, b), "%sboth formats have the same samples", what);
	free(a);
	free(b);
}

/* ---- a validator of the text exposition format ----------------------- */

struct family {
	char name[128];
	char type[16];
};

struct validator {
	enum metrics_format fmt;
	struct family fam[96];
	unsigned int n_fam;
	const struct family *cur;	/* the last TYPE */
	char meta[128][128];		/* names of HELP / UNIT lines */
	unsigned int n_meta;
	unsigned int lineno;
	int eof_seen;
	char why[256];
};

__attribute__((format(printf, 2, 3)))
static int fail(struct validator *v, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(v->why, sizeof(v->why), "line %u: %s", v->lineno, msg);
	return 0;
}

/* [a-zA-Z_:][a-zA-Z0-9_:]* into OUT; advances *PP. */
static int parse_name(const char **pp, char *out, size_t outlen, int colon)
{
	const char *p = *pp;
	size_t n = 0;

	if (!isalpha((unsigned char)*p) && *p != '_' && !(colon && *p == ':'))
		return 0;
	while (isalnum((unsigned char)*p) || *p == '_' ||
	       (colon && *p == ':')) {
		if (n + 1 >= outlen)
			return 0;
		out[n++] = *p++;
	}
	out[n] = '\0';
	*pp = p;
	return 1;
}

/* A number as both formats write it: a float, +Inf, -Inf or NaN. */
static int parse_number(const char *s)
{
	char *end;

	if (!strcmp(s, "+Inf") || !strcmp(s, "-Inf") || !strcmp(s, "NaN"))
		return 1;
	if (!*s || isspace((unsigned char)*s))
		return 0;
	errno = 0;
	strtod(s, &end);
	return errno == 0 && end != s && *end == '\0';
}

/* {name="value",...}: escapes \\ \" \n only; no duplicate label. */
static int parse_labels(struct validator *v, const char **pp)
{
	char names[8][64];
	unsigned int n = 0, i;
	const char *p = *pp;

	if (*p != '{')
		return 1;
	p++;
	while (*p != '}') {
		if (n == 8)
			return fail(v, "too many labels");
		if (!parse_name(&p, names[n], sizeof(names[n]), 0))
			return fail(v, "bad label name");
		for (i = 0; i < n; i++)
			if (!strcmp(names[i], names[n]))
				return fail(v, "label %s twice", names[n]);
		n++;
		if (*p++ != '=' || *p++ != '"')
			return fail(v, "want =\" after a label name");
		while (*p != '"') {
			if (!*p || *p == '\n')
				return fail(v, "unterminated label value");
			if (*p == '\\') {
				p++;
				if (*p != '\\' && *p != '"' && *p != 'n')
					return fail(v, "bad escape \\%c", *p);
			}
			p++;
		}
		p++;
		if (*p == ',')
			p++;
		else if (*p != '}')
			return fail(v, "want , or } after a label");
	}
	if (!n)
		return fail(v, "empty label set");
	*pp = p + 1;
	return 1;
}

static int known_type(const struct validator *v, const char *t)
{
	static const char *const prom[] = { "counter", "gauge", "histogram",
					     "summary", "untyped", NULL };
	static const char *const om[] = { "counter", "gauge", "histogram",
					   "summary", "unknown", "info",
					   "stateset", "gaugehistogram", NULL };
	const char *const *l = v->fmt == METRICS_OPENMETRICS ? om : prom;

	for (; *l; l++)
		if (!strcmp(*l, t))
			return 1;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* Sample NAME may belong to the family of the last TYPE line. */
static int in_family(const struct validator *v, const char *name)
{
	const struct family *f = v->cur;
	size_t n = strlen(f->name);
	const char *rest;

	if (strncmp(name, f->name, n))
		return 0;
	rest = name + n;
	if (!strcmp(f->type, "histogram"))
		return !strcmp(rest, "_bucket") || !strcmp(rest, "_count") ||
		       !strcmp(rest, "_sum") ||
		       (v->fmt == METRICS_OPENMETRICS &&
			!strcmp(rest, "_created"));
	if (v->fmt == METRICS_OPENMETRICS) {
		if (!strcmp(f->type, "counter"))
			return !strcmp(rest, "_total") ||
			       !strcmp(rest, "_created");
		if (!strcmp(f->type, "info"))
			return !strcmp(rest, "_info");
	}
	return !*rest;
}

static int check_comment(struct validator *v, const char *line)
{
	char name[128], word[32];
	const char *p;
	unsigned int i;

	if (!strcmp(line, "# EOF")) {
		if (v->fmt != METRICS_OPENMETRICS)
			return fail(v, "# EOF in Prometheus text");
		v->eof_seen = 1;
		return 1;
	}
	if (!strncmp(line, "# TYPE ", 7)) {
		p = line + 7;
		if (!parse_name(&p, name, sizeof(name), 1) || *p++ != ' ')
			return fail(v, "bad TYPE line");
		if (strlen(p) >= sizeof(word) || !known_type(v, p))
			return fail(v, "unknown type '%s'", p);
		if (v->fmt == METRICS_OPENMETRICS && !strcmp(p, "counter") &&
		    ends_with(name, "_total"))
			return fail(v, "OpenMetrics counter family %s has "
				    "_total", name);
		for (i = 0; i < v->n_fam; i++)
			if (!strcmp(v->fam[i].name, name))
				return fail(v, "family %s typed twice", name);
		if (v->n_fam == 96)
			return fail(v, "too many families");
		strcpy(v->fam[v->n_fam].name, name);
		strcpy(v->fam[v->n_fam].type, p);
		v->cur = &v->fam[v->n_fam++];
		return 1;
	}
	if (!strncmp(line, "# HELP ", 7) || !strncmp(line, "# UNIT ", 7)) {
		if (line[2] == 'U' && v->fmt != METRICS_OPENMETRICS)
			return fail(v, "UNIT line in Prometheus text");
		p = line + 7;
		if (!parse_name(&p, name, sizeof(name), 1) || *p++ != ' ' ||
		    !*p)
			return fail(v, "bad HELP/UNIT line");
		if (line[2] == 'U' && !ends_with(name, p))
			return fail(v, "family %s does not end with its unit",
				    name);
		if (v->n_meta == 128)
			return fail(v, "too many HELP lines");
		strcpy(v->meta[v->n_meta++], name);
		return 1;
	}
	return fail(v, "unexpected comment");
}

static int check_sample(struct validator *v, const char *line)
{
	char name[128];
	const char *p = line;

	if (!parse_name(&p, name, sizeof(name), 1))
		return fail(v, "bad metric name");
	if (!parse_labels(v, &p))
		return 0;
	if (*p++ != ' ')
		return fail(v, "want a space before the value");
	if (!parse_number(p))
		return fail(v, "bad value '%s'", p);
	if (!v->cur)
		return fail(v, "sample %s before any TYPE", name);
	if (!in_family(v, name))
		return fail(v, "sample %s not of family %s (%s)", name,
			    v->cur->name, v->cur->type);
	return 1;
}

/* 1 when BUF is well-formed text of format FMT; else v->why says why. */
static int validate(struct validator *v, const char *buf,
		    enum metrics_format fmt)
{
	char line[1024];
	const char *p = buf;
	unsigned int i, j;

	memset(v, 0, sizeof(*v));
	v->fmt = fmt;
	if (!*buf || buf[strlen(buf) - 1] != '\n')
		return fail(v, "empty, or no newline at the end");
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = (size_t)(nl - p);

		v->lineno++;
		if (len >= sizeof(line))
			return fail(v, "line too long");
		memcpy(line, p, len);
		line[len] = '\0';
		p = nl + 1;
		if (v->eof_seen)
			return fail(v, "text after # EOF");
		if (!len)
			return fail(v, "empty line");
		if (line[0] == '#') {
			if (!check_comment(v, line))
				return 0;
		} else if (!check_sample(v, line)) {
			return 0;
		}
	}
	if (fmt == METRICS_OPENMETRICS && !v->eof_seen)
		return fail(v, "no # EOF");
	for (i = 0; i < v->n_meta; i++) {
		for (j = 0; j < v->n_fam; j++)
			if (!strcmp(v->meta[i], v->fam[j].name))
				break;
		if (j == v->n_fam)
			return fail(v, "HELP/UNIT of %s, which has no TYPE",
				    v->meta[i]);
	}
	return 1;
}

/* validate(), saying why not. */
static int well_formed(const char *buf, enum metrics_format fmt)
{
	struct validator v;

	if (validate(&v, buf, fmt))
		return 1;
	tap_diag("%s", v.why);
	return 0;
}

static void test_validator_itself(void)
{
	static const char *const bad[] = {
		"# TYPE a gauge\na 1",				/* no \n */
		"# TYPE a gauge\na{x=\"1\"} one\n",
		"# TYPE a gauge\na{x=\"1} 1\n",
		"# TYPE a gauge\na{x=\"\\t\"} 1\n",
		"# TYPE a gauge\na{x=\"1\",x=\"2\"} 1\n",
		"# TYPE a gauge\nb 1\n",
		"b 1\n",
		"# TYPE a gauge\na  1\n",
		"# TYPE a gauge\n\na 1\n",
		"# TYPE a frob\na 1\n",
		"# TYPE a gauge\n# TYPE a gauge\n",
		"# TYPE a gauge\n# EOF\n",
		"# UNIT a_seconds seconds\n# TYPE a_seconds gauge\n",
		"# TYPE a histogram\na_bucket{le=\"1\"} 1\na_total 2\n",
		"# HELP b help\n# TYPE a gauge\n",
		"# TYPE 9a gauge\n",
	};
	struct validator v;
	unsigned int i;
	int ok = 1;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (validate(&v, bad[i], METRICS_PROMETHEUS)) {
			tap_diag("validator accepted bad text %u", i);
			ok = 0;
		}
	tap_ok(ok, "validator: rejects %u malformed texts",
	       (unsigned int)(sizeof(bad) / sizeof(bad[0])));
	ok = validate(&v, "# HELP a_total x y\n# TYPE a_total counter\n"
		      "a_total{l=\"q\\\"\\\\\\n\"} 1.5e3\n"
		      "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 1\nh_count 1\n"
		      "h_sum 0.1\n", METRICS_PROMETHEUS);
	if (!ok)
		tap_diag("%s", v.why);
	tap_ok(ok, "validator: accepts good Prometheus text");
	ok = !validate(&v, "# TYPE a counter\na_total 1\n",
		       METRICS_OPENMETRICS) &&
	     !validate(&v, "# TYPE a counter\n# EOF\n# TYPE b gauge\n",
		       METRICS_OPENMETRICS) &&
	     !validate(&v, "# TYPE a_total counter\na_total 1\n# EOF\n",
		       METRICS_OPENMETRICS) &&
	     !validate(&v, "# TYPE a_bytes counter\n# UNIT a_bytes seconds\n"
		       "a_bytes_total 1\n# EOF\n", METRICS_OPENMETRICS) &&
	     !validate(&v, "# TYPE i info\ni{v=\"1\"} 1\n# EOF\n",
		       METRICS_OPENMETRICS);
	tap_ok(ok, "validator: OpenMetrics wants # EOF last, counter family "
	       "without _total, unit suffix, info samples _info");
	ok = validate(&v, "# TYPE a counter\n# UNIT a_bytes bytes\n"
		      "# TYPE a_bytes counter\na_bytes_total 1\n"
		      "# TYPE i info\ni_info{v=\"1\"} 1\n# EOF\n",
		      METRICS_OPENMETRICS);
	if (!ok)
		tap_diag("%s", v.why);
	tap_ok(ok, "validator: accepts good OpenMetrics text");
}

/* ---- the view rendered ------------------------------------------------ */

static struct stats st;
static struct stats_listener listeners[3];
static struct stats_view view;

/* HTTP requests refused: 7 forbidden, 2 not found. */
static const uint64_t http_refused[STATS_HTTP_N] = {
	[STATS_HTTP_FORBIDDEN] = 7, [STATS_HTTP_NOT_FOUND] = 2,
};

/* The process as /proc showed it (proc_self.c). */
static const struct proc_self proc = {
	.cpu_seconds = 1.25, .resident_bytes = 8388608,
	.virtual_bytes = 123456789, .open_fds = 17, .max_fds = 524288,
	.start_time = 1700000000.5,
};

static void make_view(void)
{
	int i;

	stats_init(&st);
	for (i = 0; i < 5; i++)
		stats_accepted(&st, STATS_PROTO_NATIVE);
	stats_accepted(&st, STATS_PROTO_RPING);
	stats_accepted(&st, STATS_PROTO_RPING);
	/* session native: 10us, 1s, 300s ok; 301s timeout */
	stats_closed(&st, STATS_PROTO_NATIVE, STATS_RES_OK, 10000);
	stats_closed(&st, STATS_PROTO_NATIVE, STATS_RES_OK, S_NS);
	stats_closed(&st, STATS_PROTO_NATIVE, STATS_RES_OK, 300 * S_NS);
	stats_closed(&st, STATS_PROTO_NATIVE, STATS_RES_TIMEOUT, 301 * S_NS);
	stats_closed(&st, STATS_PROTO_RPING, STATS_RES_MISMATCH,
		     2500000000ull);
	stats_established(&st, STATS_PROTO_NATIVE, 25000);
	stats_established(&st, STATS_PROTO_NATIVE, 25001);
	stats_rejected(&st, STATS_REJ_BUSY);
	stats_rejected(&st, STATS_REJ_BUSY);
	stats_rejected(&st, STATS_REJ_DENIED);
	stats_rdma(&st, STATS_PROTO_NATIVE, STATS_OP_READ, 10, 40960, 0);
	stats_rdma(&st, STATS_PROTO_RPING, STATS_OP_WRITE, 1, 4096, 30000);
	stats_rdma(&st, STATS_PROTO_RPING, STATS_OP_WRITE, 3, 12288, 10000);
	stats_wc_error(&st, WC_REM_ACCESS_ERR);
	stats_wc_error(&st, WC_REM_ACCESS_ERR);
	stats_wc_error(&st, 4000);

	strcpy(listeners[0].address, "0.0.0.0:7471");
	listeners[0].up = true;
	strcpy(listeners[1].address, "[fe80::1]:7471");
	listeners[1].up = false;
	strcpy(listeners[2].address, "a\"b\\c\nd");
	listeners[2].up = true;

	memset(&view, 0, sizeof(view));
	view.stats = &st;
	view.version = "1.2.3";
	view.pid = 4242;
	view.start_time = 1700000000.5;
	view.now = 1700000100.0;
	view.max_connections = 64;
	view.http_refused = http_refused;
	view.listeners = listeners;
	view.n_listeners = 3;
	view.proc = &proc;
	view.reload_ok = true;
	view.reload_success_time = 1700000050.25;
	view.registered_bytes = 1048576;
	view.registered_max = 1073741824;
}

static const char *const le_want[STATS_HIST_BUCKETS + 1] = {
	"0.00001", "0.000025", "0.00005", "0.0001", "0.00025", "0.0005",
	"0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25",
	"0.5", "1.0", "2.5", "5.0", "10.0", "30.0", "60.0", "300.0", "+Inf",
};

/*
 * The buckets of NAME{K="V"} are the documented le values in order,
 * cumulative (non-decreasing), +Inf equal to _count.  CUM, if not NULL:
 * the expected cumulative counts.
 */
static const char *const mesh_le_want[MESH_HIST_BUCKETS + 1] = {
	"0.000025", "0.00005", "0.0001", "0.00025", "0.0005", "0.001",
	"0.0025", "0.005", "0.01", "0.025", "0.1", "1.0", "+Inf",
};

/* As check_hist(), with the N + 1 le values LE. */
static int check_hist_le(const char *buf, const char *name, const char *k,
			 const char *v, const uint64_t *cum, const char *sum,
			 const char *const *les, unsigned int nb)
{
	char series[256], val[64], prefix[256];
	unsigned long long prev = 0, n, count;
	const char *p = buf;
	unsigned int i = 0;
	size_t plen;

	snprintf(prefix, sizeof(prefix), "%s_bucket{%s=\"%s\",le=\"", name, k,
		 v);
	plen = strlen(prefix);
	while (*p) {
		const char *nl = strchr(p, '\n');

		if (!strncmp(p, prefix, plen)) {
			const char *q = p + plen, *e = strchr(q, '"');
			char *end;

			if (i > nb || !e ||
			    (size_t)(e - q) != strlen(les[i]) ||
			    strncmp(q, les[i], (size_t)(e - q)) ||
			    strncmp(e, "\"} ", 3)) {
				tap_diag("%s bucket %u: %.*s", name, i,
					 (int)(nl - p), p);
				return 0;
			}
			n = strtoull(e + 3, &end, 10);
			if (end != nl || n < prev ||
			    (cum && n != cum[i])) {
				tap_diag("%s le=%s: %.*s", name, les[i],
					 (int)(nl - e - 3), e + 3);
				return 0;
			}
			prev = n;
			i++;
		}
		p = nl + 1;
	}
	if (i != nb + 1) {
		tap_diag("%s{%s=\"%s\"}: %u buckets", name, k, v, i);
		return 0;
	}
	snprintf(series, sizeof(series), "%s_count{%s=\"%s\"}", name, k, v);
	if (!sample_value(buf, series, val, sizeof(val)))
		return 0;
	count = strtoull(val, NULL, 10);
	if (count != prev) {
		tap_diag("%s: +Inf %llu, count %llu", series, prev, count);
		return 0;
	}
	snprintf(series, sizeof(series), "%s_sum{%s=\"%s\"}", name, k, v);
	if (!sample_value(buf, series, val, sizeof(val)))
		return 0;
	if (sum && strcmp(val, sum)) {
		tap_diag("%s: %s, want %s", series, val, sum);
		return 0;
	}
	return 1;
}

static int check_hist(const char *buf, const char *name, const char *k,
		      const char *v, const uint64_t *cum, const char *sum)
{
	return check_hist_le(buf, name, k, v, cum, sum, le_want,
			     STATS_HIST_BUCKETS);
}

static void test_samples(const char *buf, const char *what)
{
	static const char *const lines[] = {
		"rdmad_build_info{version=\"1.2.3\"} 1",
		"rdmad_start_time_seconds 1700000000.500",
		"rdmad_listener_up{address=\"0.0.0.0:7471\"} 1",
		"rdmad_listener_up{address=\"[fe80::1]:7471\"} 0",
		"rdmad_connections_max 64",
		"rdmad_connections_active{proto=\"native\"} 1",
		"rdmad_connections_active{proto=\"rping\"} 1",
		"rdmad_connections_accepted_total{proto=\"native\"} 5",
		"rdmad_connections_accepted_total{proto=\"rping\"} 2",
		"rdmad_rejects_total{reason=\"busy\"} 2",
		"rdmad_rejects_total{reason=\"denied\"} 1",
		"rdmad_rejects_total{reason=\"accept-failed\"} 0",
		"rdmad_http_requests_refused_total{reason=\"forbidden\"} 7",
		"rdmad_http_requests_refused_total{reason=\"not-found\"} 2",
		"rdmad_http_requests_refused_total{reason=\"method\"} 0",
		"rdmad_http_requests_refused_total{reason=\"bad-query\"} 0",
		"rdmad_sessions_total{proto=\"native\",result=\"ok\"} 3",
		"rdmad_sessions_total{proto=\"native\",result=\"timeout\"} 1",
		"rdmad_sessions_total{proto=\"rping\",result=\"mismatch\"} 1",
		"rdmad_sessions_total{proto=\"rping\",result=\"ok\"} 0",
		"rdmad_rdma_bytes_total{proto=\"native\",op=\"read\"} 40960",
		"rdmad_rdma_bytes_total{proto=\"rping\",op=\"write\"} 16384",
		"rdmad_rdma_bytes_total{proto=\"native\",op=\"write\"} 0",
		"rdmad_rdma_operations_total{proto=\"native\",op=\"read\"} 10",
		"rdmad_rdma_operations_total{proto=\"rping\",op=\"write\"} 4",
		"rdmad_completion_errors_total{status=\"REM_ACCESS_ERR\"} 2",
		"rdmad_completion_errors_total{status=\"other\"} 1",
		"rdmad_completion_errors_total{status=\"RETRY_EXC_ERR\"} 0",
		"rdmad_session_seconds_count{proto=\"native\"} 4",
		"rdmad_session_seconds_sum{proto=\"native\"} 602.00001",
		"rdmad_rdma_op_seconds_sum{op=\"write\"} 0.00004",
		"rdmad_rdma_op_seconds_count{op=\"read\"} 0",
		"rdmad_rdma_op_seconds_sum{op=\"read\"} 0.0",
	};
	/* cumulative counts of the histograms of make_view() */
	static const uint64_t sess_native[STATS_HIST_BUCKETS + 1] = {
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2,
		2, 3, 4,
	};
	static const uint64_t sess_rping[STATS_HIST_BUCKETS + 1] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1,
		1, 1, 1,
	};
	static const uint64_t conn_native[STATS_HIST_BUCKETS + 1] = {
		0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
		2, 2, 2,
	};
	static const uint64_t op_write[STATS_HIST_BUCKETS + 1] = {
		1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
		2, 2, 2,
	};
	static const uint64_t zero[STATS_HIST_BUCKETS + 1];

	tap_ok(has_lines(buf, lines, sizeof(lines) / sizeof(lines[0]), what),
	       "%s: exact sample lines", what);
	tap_ok(count_prefix(buf, "rdmad_sessions_total{") ==
	       STATS_PROTO_N * STATS_RES_N &&
	       count_prefix(buf, "rdmad_rejects_total{") == STATS_REJ_N &&
	       count_prefix(buf, "rdmad_http_requests_refused_total{") ==
	       STATS_HTTP_N &&
	       count_prefix(buf, "rdmad_rdma_bytes_total{") == 4 &&
	       count_prefix(buf, "rdmad_rdma_operations_total{") == 4 &&
	       count_prefix(buf, "rdmad_connections_active{") == 2 &&
	       count_prefix(buf, "rdmad_listener_up{") == 3 &&
	       count_prefix(buf, "rdmad_build_info{") == 1,
	       "%s: every series exists, once (zero counters too)", what);
	tap_ok(count_prefix(buf, "rdmad_completion_errors_total{") ==
	       STATS_WC_STATUS_N - 2 &&
	       !strstr(buf, "status=\"SUCCESS\"") &&
	       !strstr(buf, "status=\"WR_FLUSH_ERR\""),
	       "%s: completion errors without SUCCESS and WR_FLUSH_ERR",
	       what);
	tap_ok(has_line(buf, "rdmad_listener_up{address="
			"\"a\\\"b\\\\c\\nd\"} 1"),
	       "%s: listener address escaped (\\\" \\\\ \\n)", what);
	tap_ok(check_hist(buf, "rdmad_session_seconds", "proto", "native",
			  sess_native, "602.00001"),
	       "%s: session histogram: le values, cumulative, +Inf = count",
	       what);
	tap_ok(check_hist(buf, "rdmad_session_seconds", "proto", "rping",
			  sess_rping, "2.5") &&
	       check_hist(buf, "rdmad_connect_seconds", "proto", "native",
			  conn_native, "0.000050001") &&
	       check_hist(buf, "rdmad_connect_seconds", "proto", "rping",
			  zero, "0.0") &&
	       check_hist(buf, "rdmad_rdma_op_seconds", "op", "write",
			  op_write, "0.00004") &&
	       check_hist(buf, "rdmad_rdma_op_seconds", "op", "read",
			  zero, "0.0"),
	       "%s: the other five histograms", what);
}

static void test_formats(void)
{
	struct validator v;
	char *prom, *om;
	size_t len;
	int ret, ok;

	make_view();
	prom = render(&view, METRICS_PROMETHEUS, &ret);
	tap_ok(ret == 0, "prometheus: render returns 0");
	om = render(&view, METRICS_OPENMETRICS, &ret);
	tap_ok(ret == 0, "openmetrics: render returns 0");

	test_samples(prom, "prometheus");
	test_samples(om, "openmetrics");

	ok = validate(&v, prom, METRICS_PROMETHEUS);
	if (!ok)
		tap_diag("%s", v.why);
	tap_ok(ok, "prometheus: text is well-formed, every sample typed");
	ok = validate(&v, om, METRICS_OPENMETRICS);
	if (!ok)
		tap_diag("%s", v.why);
	tap_ok(ok, "openmetrics: text is well-formed, every sample typed");

	tap_ok(has_line(prom, "# TYPE rdmad_sessions_total counter") &&
	       has_line(prom, "# TYPE rdmad_connections_accepted_total "
			"counter") &&
	       has_line(prom, "# TYPE rdmad_rdma_bytes_total counter") &&
	       has_line(prom, "# TYPE rdmad_build_info gauge") &&
	       has_line(prom, "# TYPE rdmad_session_seconds histogram") &&
	       has_line(prom, "# TYPE rdmad_listener_up gauge") &&
	       count_prefix(prom, "# HELP rdmad_sessions_total ") == 1,
	       "prometheus: TYPE/HELP name counters with _total, info as "
	       "gauge");
	tap_ok(!strstr(prom, "# EOF") && !strstr(prom, "# UNIT") &&
	       !strstr(prom, " info\n") &&
	       !has_line(prom, "# TYPE rdmad_sessions counter"),
	       "prometheus: no # EOF, no UNIT, no info type");

	tap_ok(has_line(om, "# TYPE rdmad_sessions counter") &&
	       has_line(om, "# TYPE rdmad_rejects counter") &&
	       has_line(om, "# TYPE rdmad_build info") &&
	       has_line(om, "# TYPE rdmad_connect_seconds histogram") &&
	       !strstr(om, "# TYPE rdmad_sessions_total") &&
	       !strstr(om, "# TYPE rdmad_build_info"),
	       "openmetrics: counter and info families without suffix");
	tap_ok(has_line(om, "# UNIT rdmad_rdma_bytes bytes") &&
	       has_line(om, "# UNIT rdmad_session_seconds seconds") &&
	       has_line(om, "# UNIT rdmad_rdma_op_seconds seconds") &&
	       has_line(om, "# UNIT rdmad_start_time_seconds seconds") &&
	       has_line(om, "# UNIT rdmad_mesh_round_duration_seconds "
			"seconds") &&
	       has_line(om, "# UNIT rdmad_mesh_bandwidth_bytes_per_second "
			"bytes_per_second") &&
	       has_line(om, "# UNIT rdmad_mesh_bandwidth_seconds seconds") &&
	       has_line(om, "# UNIT rdmad_port_rate_bytes_per_second "
			"bytes_per_second") &&
	       has_line(om, "# UNIT process_cpu_seconds seconds") &&
	       has_line(om, "# UNIT process_resident_memory_bytes bytes") &&
	       has_line(om, "# UNIT process_virtual_memory_bytes bytes") &&
	       has_line(om, "# UNIT process_start_time_seconds seconds") &&
	       has_line(om, "# UNIT rdmad_config_last_reload_success_"
			"timestamp_seconds seconds") &&
	       has_line(om, "# UNIT rdmad_registered_memory_bytes bytes") &&
	       has_line(om, "# UNIT rdmad_registered_memory_max_bytes "
			"bytes") &&
	       has_line(om, "# UNIT rdmad_mesh_loop_lag_seconds seconds") &&
	       has_line(om, "# UNIT rdmad_mesh_round_run_delay_seconds "
			"seconds") &&
	       count_prefix(om, "# UNIT ") == 18,
	       "openmetrics: UNIT lines of the 18 families with a unit");
	len = strlen(om);
	tap_ok(len > 6 && !strcmp(om + len - 6, "# EOF\n") &&
	       strstr(om, "# EOF") == om + len - 6,
	       "openmetrics: ends with exactly one '# EOF\\n'");

	same_samples(prom, om, "");
	free(prom);
	free(om);
}

/* An empty daemon: nothing counted, no listener, no version quirks. */
static void test_empty(void)
{
	struct stats s;
	struct stats_view v = {
		.stats = &s, .version = "0.0.0", .pid = 1,
		.start_time = 0, .now = 0, .max_connections = 1,
	};
	struct validator val;
	char *prom, *om;
	int ret, ok;

	stats_init(&s);
	prom = render(&v, METRICS_PROMETHEUS, &ret);
	ok = ret == 0 && validate(&val, prom, METRICS_PROMETHEUS);
	if (!ok)
		tap_diag("%d %s", ret, val.why);
	tap_ok(ok, "empty: prometheus text well-formed");
	om = render(&v, METRICS_OPENMETRICS, &ret);
	ok = ret == 0 && validate(&val, om, METRICS_OPENMETRICS);
	if (!ok)
		tap_diag("%d %s", ret, val.why);
	tap_ok(ok, "empty: openmetrics text well-formed");
	tap_ok(count_prefix(prom, "rdmad_listener_up") == 0 &&
	       has_line(prom, "rdmad_start_time_seconds 0.000") &&
	       has_line(prom, "rdmad_sessions_total{proto=\"rping\","
			"result=\"internal-error\"} 0") &&
	       has_line(prom, "rdmad_connect_seconds_bucket{proto=\"native\","
			"le=\"+Inf\"} 0") &&
	       has_line(prom, "rdmad_connect_seconds_sum{proto=\"native\"} "
			"0.0"),
	       "empty: zero series present, no listener sample");
	free(prom);
	free(om);
}

/* ---- the mesh agent's families ------------------------------------- */

/* The prober's share of the view: 3 lag samples, 2 rounds under local
 * pressure to A (its path 0), 1.5 ms of run-queue wait, 2.5 ms of PSI. */
static struct mesh_hist mlag;

static void make_mesh(void)
{
	mesh_fixture_make();
	make_view();
	memset(&mlag, 0, sizeof(mlag));
	mesh_hist_add(&mlag, 50000);
	mesh_hist_add(&mlag, 1000000);
	mesh_hist_add(&mlag, 30000000);
	mst[0].pressured = 2;
	mview.lag = &mlag;
	mview.pressured = 2;
	mview.late_judged = 7;
	mview.late_stall = 4;
	mview.late_pressured = 1;
	mview.load_delay_ns = 1500000;
	mview.load_psi_us = 2500;
	mview.psi = true;
	view.mesh = &mview;
}

/* Lines of BUF that contain NEEDLE (sample lines only). */
static int count_with(const char *buf, const char *needle)
{
	const char *p = buf;
	int n = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[1024];

		if (*p != '#' && len < sizeof(line)) {
			memcpy(line, p, len);
			line[len] = '\0';
			if (strstr(line, needle))
				n++;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return n;
}

static void test_mesh_samples(const char *buf, const char *what)
{
	static const char *const lines[] = {
		"rdmad_mesh_peers 3",
		"rdmad_mesh_peer_up{peer=\"10.0.0.2:7471\"} 1",
		"rdmad_mesh_peer_up{peer=\"[fe80::2]:7471\"} 0",
		"rdmad_mesh_peer_up{peer=\"q\\\"\\\\:1\"} 1",
		"rdmad_mesh_peer_paths_up{peer=\"10.0.0.2:7471\"} 1",
		"rdmad_mesh_peer_paths_up{peer=\"[fe80::2]:7471\"} 0",
		"rdmad_mesh_rounds_total{peer=\"10.0.0.2:7471\",result=\"ok\"} 4",
		"rdmad_mesh_rounds_total{peer=\"10.0.0.2:7471\","
		"result=\"mismatch\"} 1",
		"rdmad_mesh_rounds_total{peer=\"10.0.0.2:7471\","
		"result=\"timeout\"} 2",
		"rdmad_mesh_rounds_total{peer=\"[fe80::2]:7471\","
		"result=\"unreachable\"} 1",
		"rdmad_mesh_rounds_total{peer=\"[fe80::2]:7471\","
		"result=\"refused\"} 1",
		"rdmad_mesh_rounds_total{peer=\"[fe80::2]:7471\","
		"result=\"local-error\"} 0",
		"rdmad_mesh_path_rounds_failed_total{peer=\"10.0.0.2:7471\","
		"path=\"0\"} 1",
		"rdmad_mesh_path_rounds_failed_total{peer=\"10.0.0.2:7471\","
		"path=\"1\"} 2",
		"rdmad_mesh_path_rounds_failed_total{peer=\"[fe80::2]:7471\","
		"path=\"1\"} 1",
		"rdmad_mesh_size_rounds_failed_total{peer=\"10.0.0.2:7471\","
		"size=\"64\"} 0",
		"rdmad_mesh_size_rounds_failed_total{peer=\"10.0.0.2:7471\","
		"size=\"1100\"} 1",
		"rdmad_mesh_size_rounds_failed_total{peer=\"10.0.0.2:7471\","
		"size=\"65536\"} 2",
		"rdmad_mesh_size_rounds_failed_total{peer=\"[fe80::2]:7471\","
		"size=\"64\"} 2",
		"rdmad_mesh_round_duration_seconds_count{peer=\"10.0.0.2:7471\"}"
		" 4",
		"rdmad_mesh_round_duration_seconds_sum{peer=\"10.0.0.2:7471\"}"
		" 1.00206",
		"rdmad_mesh_bandwidth_bytes_per_second{peer=\"10.0.0.2:7471\"}"
		" 3000000000",
		"rdmad_mesh_connects_total{peer=\"10.0.0.2:7471\"} 3",
		"rdmad_mesh_peer_downs_total{peer=\"10.0.0.2:7471\"} 1",
		"rdmad_mesh_peer_downs_total{peer=\"[fe80::2]:7471\"} 0",
		"rdmad_mesh_peer_health{peer=\"10.0.0.2:7471\"} 3",
		"rdmad_mesh_peer_health{peer=\"[fe80::2]:7471\"} 4",
		"rdmad_mesh_peer_flaps{peer=\"10.0.0.2:7471\"} 2",
		"rdmad_mesh_peer_paths_split{peer=\"10.0.0.2:7471\"} 1",
		"rdmad_mesh_bandwidth_samples_total 2",
		"rdmad_mesh_bandwidth_seconds_total 2.0",
		"rdmad_mesh_targets_reloads_total 4",
		"rdmad_mesh_self_info{peer=\"10.0.0.1:7471\"} 1",
		"rdmad_mesh_self_info{peer=\"[fe80::1]:7471\"} 1",
		"rdmad_mesh_rounds_pressured_total{peer=\"10.0.0.2:7471\"} 2",
		"rdmad_mesh_rounds_pressured_total{peer=\"[fe80::2]:7471\"} 0",
		"rdmad_mesh_loop_lag_seconds_bucket{le=\"0.000025\"} 0",
		"rdmad_mesh_loop_lag_seconds_bucket{le=\"0.00005\"} 1",
		"rdmad_mesh_loop_lag_seconds_bucket{le=\"0.001\"} 2",
		"rdmad_mesh_loop_lag_seconds_bucket{le=\"0.025\"} 2",
		"rdmad_mesh_loop_lag_seconds_bucket{le=\"0.1\"} 3",
		"rdmad_mesh_loop_lag_seconds_bucket{le=\"+Inf\"} 3",
		"rdmad_mesh_loop_lag_seconds_count 3",
		"rdmad_mesh_loop_lag_seconds_sum 0.03105",
		"rdmad_mesh_round_run_delay_seconds_total 0.0015",
		"rdmad_mesh_prober_rounds_pressured_total 2",
		"rdmad_mesh_prober_late_rounds_total{fate=\"judged\"} 7",
		"rdmad_mesh_prober_late_rounds_total{fate=\"stall\"} 4",
		"rdmad_mesh_prober_late_rounds_total{fate=\"pressured\"} 1",
		"rdmad_mesh_round_cpu_pressure_seconds_total 0.0025",
	};
	/* A: 30us, 30us, 2ms, 1s */
	static const uint64_t cum_a[MESH_HIST_BUCKETS + 1] = {
		0, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4,
	};
	static const uint64_t zero[MESH_HIST_BUCKETS + 1];

	tap_ok(has_lines(buf, lines, sizeof(lines) / sizeof(lines[0]), what),
	       "%s: mesh: exact sample lines of a 3-peer view", what);
	tap_ok(count_prefix(buf, "rdmad_mesh_rounds_total{") ==
	       3 * MESH_RES_N &&
	       count_prefix(buf, "rdmad_mesh_path_rounds_failed_total{") ==
	       5 &&
	       count_prefix(buf, "rdmad_mesh_size_rounds_failed_total{") ==
	       3 * 3 &&
	       count_prefix(buf, "rdmad_mesh_round_duration_seconds_count{") ==
	       3 &&
	       count_prefix(buf, "rdmad_mesh_bandwidth_bytes_per_second{") ==
	       1,
	       "%s: mesh: every result class per peer, a series per path "
	       "and per size, bandwidth only once sampled", what);
	/* the documented rule: 29 + paths + sizes, +1 with a sample, +1
	 * slow or worse, +1 with flaps, +1 split */
	tap_ok(count_with(buf, "peer=\"10.0.0.2:7471\"") == 33 + 2 + 3 &&
	       count_with(buf, "peer=\"[fe80::2]:7471\"") == 30 + 2 + 3 &&
	       count_with(buf, "peer=\"q\\\"\\\\:1\"") == 29 + 1 + 3 &&
	       !strstr(buf, "rdmad_mesh_peer_health{peer=\"q") &&
	       !strstr(buf, "rdmad_mesh_peer_flaps{peer=\"[fe80") &&
	       !strstr(buf, "rdmad_mesh_peer_paths_split{peer=\"[fe80"),
	       "%s: mesh: series per peer = 29 + paths + sizes (+1 "
	       "bandwidth, +1 health slow or worse, +1 flaps, +1 split) "
	       "(%d, %d)", what,
	       count_with(buf, "peer=\"10.0.0.2:7471\""),
	       count_with(buf, "peer=\"[fe80::2]:7471\""));
	tap_ok(check_hist_le(buf, "rdmad_mesh_round_duration_seconds",
			     "peer", "10.0.0.2:7471", cum_a, "1.00206",
			     mesh_le_want, MESH_HIST_BUCKETS) &&
	       check_hist_le(buf, "rdmad_mesh_round_duration_seconds",
			     "peer", "[fe80::2]:7471", zero, "0.0",
			     mesh_le_want, MESH_HIST_BUCKETS),
	       "%s: mesh: round histogram over both paths, 25us .. 1s",
	       what);
}

/*
 * VIEW in both formats (*PROM, *OM, the caller frees them): each
 * well-formed with SAMPLES' checks, and the same samples in both.
 */
static void both_formats(char **prom, char **om,
			 void (*samples)(const char *buf, const char *what),
			 const char *what)
{
	char prefix[64];
	int ret;

	*prom = render(&view, METRICS_PROMETHEUS, &ret);
	*om = render(&view, METRICS_OPENMETRICS, &ret);
	tap_ok(well_formed(*prom, METRICS_PROMETHEUS),
	       "%s: prometheus text well-formed", what);
	tap_ok(well_formed(*om, METRICS_OPENMETRICS),
	       "%s: openmetrics text well-formed", what);
	samples(*prom, "prometheus");
	samples(*om, "openmetrics");
	snprintf(prefix, sizeof(prefix), "%s: ", what);
	same_samples(*prom, *om, prefix);
}

/* The process families (client libraries' names), the reload gauges,
 * the memory registered and its cap; no process families without /proc. */
static void test_self(void)
{
	static const char *const lines[] = {
		"process_cpu_seconds_total 1.25",
		"process_resident_memory_bytes 8388608",
		"process_virtual_memory_bytes 123456789",
		"process_open_fds 17",
		"process_max_fds 524288",
		"process_start_time_seconds 1700000000.5",
		"rdmad_config_last_reload_successful 1",
		"rdmad_config_last_reload_success_timestamp_seconds "
		"1700000050.250",
		"rdmad_registered_memory_bytes 1048576",
		"rdmad_registered_memory_max_bytes 1073741824",
		"rdmad_build_info{version=\"1.2.3\"} 1",
	};
	char *prom, *om;
	int ret;

	make_view();
	prom = render(&view, METRICS_PROMETHEUS, &ret);
	om = render(&view, METRICS_OPENMETRICS, &ret);
	tap_ok(has_lines(prom, lines, sizeof(lines) / sizeof(lines[0]),
			 "prometheus") &&
	       has_lines(om, lines, sizeof(lines) / sizeof(lines[0]),
			 "openmetrics"),
	       "self: exact process, reload and registered memory samples");
	tap_ok(has_line(prom, "# TYPE process_cpu_seconds_total counter") &&
	       has_line(om, "# TYPE process_cpu_seconds counter") &&
	       has_line(prom, "# HELP rdmad_config_last_reload_successful "
			"1 if the last configuration reload succeeded (or none "
			"was asked since start), 0 if it was refused."),
	       "self: typed and helped as each format wants");
	free(prom);
	free(om);
	view.reload_ok = false;
	view.proc = NULL;
	prom = render(&view, METRICS_PROMETHEUS, &ret);
	tap_ok(has_line(prom, "rdmad_config_last_reload_successful 0") &&
	       !strstr(prom, "process_") && well_formed(prom,
							METRICS_PROMETHEUS),
	       "self: a refused reload shows 0; no /proc, no process "
	       "families");
	free(prom);
}

static void test_mesh(void)
{
	char *prom, *om;
	int ret, ok;

	make_mesh();
	both_formats(&prom, &om, test_mesh_samples, "mesh");
	tap_ok(has_line(om, "# TYPE rdmad_mesh_rounds counter") &&
	       has_line(prom, "# TYPE rdmad_mesh_rounds_total counter") &&
	       has_line(prom, "# TYPE rdmad_mesh_round_duration_seconds "
			"histogram"),
	       "mesh: counters typed as each format wants");
	free(prom);
	free(om);

	/* no agent, or one with no targets: families, no peer series */
	mview.on = false;
	prom = render(&view, METRICS_PROMETHEUS, &ret);
	view.mesh = NULL;
	om = render(&view, METRICS_OPENMETRICS, &ret);
	ok = well_formed(om, METRICS_OPENMETRICS);
	tap_ok(ok && has_line(prom, "rdmad_mesh_peers 0") &&
	       has_line(om, "rdmad_mesh_peers 0") &&
	       has_line(prom, "rdmad_mesh_targets_reloads_total 0") &&
	       has_line(prom, "# TYPE rdmad_mesh_peer_up gauge") &&
	       !strstr(prom, "peer=\"") && !strstr(om, "peer=\""),
	       "mesh off: families declared, no peer series, zero totals");
	free(prom);
	free(om);
}

/* With an inventory: this host's place, each peer's, the switches. */
static void test_mesh_place(void)
{
	char *prom, *om;
	int ret;

	make_mesh();
	mesh_fixture_place();
	mpeers[2].host = "h\"q";
	mpeers[2].why = "cross-ToR";
	mpeers[1].slot = 0;
	prom = render(&view, METRICS_PROMETHEUS, &ret);
	om = render(&view, METRICS_OPENMETRICS, &ret);
	tap_ok(well_formed(prom, METRICS_PROMETHEUS) &&
	       well_formed(om, METRICS_OPENMETRICS),
	       "place: both formats well-formed");
	tap_ok(has_line(prom, "rdmad_mesh_place_info{host=\"h1\",tor=\"t1\"} 1") &&
	       has_line(prom, "rdmad_mesh_peer_info{peer=\"10.0.0.2:7471\","
			"peer_host=\"h2\",peer_tor=\"t1\",rail=\"0\","
			"why=\"same ToR\"} 1") &&
	       has_line(prom, "rdmad_mesh_peer_info{peer=\"[fe80::2]:7471\","
			"peer_host=\"h9\",peer_tor=\"t3\",rail=\"1\","
			"why=\"cross-ToR\"} 1") &&
	       has_line(prom, "rdmad_mesh_peer_info{peer=\"q\\\"\\\\:1\","
			"peer_host=\"h\\\"q\",peer_tor=\"t2\",rail=\"0\","
			"why=\"cross-ToR\"} 1") &&
	       has_line(prom, "rdmad_mesh_epoch_switches_total 7") &&
	       has_line(om, "# TYPE rdmad_mesh_place info"),
	       "place: this host's (no pod: no pod label), one info series a "
	       "peer, the switches");
	same_samples(prom, om, "place: ");
	free(prom);
	mview.topology = false;
	prom = render(&view, METRICS_PROMETHEUS, &ret);
	tap_ok(!strstr(prom, "rdmad_mesh_place") &&
	       !strstr(prom, "rdmad_mesh_peer_info") &&
	       !strstr(prom, "rdmad_mesh_epoch_switches"),
	       "no topology: no place series");
	free(prom);
	free(om);
	memset(mpeers, 0, sizeof(mpeers));
}

/* ---- [mesh] peer_series = compact ------------------------------------ */

static struct mesh_rail_stats rails[MESH_INV_RAILS_MAX];
static enum mesh_health_state rail_health[MESH_INV_RAILS_MAX];
static enum mesh_health_state place_health[MESH_INV_RAILS_MAX][MESH_PLACES];

/* The 3-peer view, compact, with its place; rail 0 and 1 seen, rail 0
 * with peers under this ToR and others, rail 1 under others only. */
static void make_compact(void)
{
	make_mesh();
	mesh_fixture_place();
	memset(rails, 0, sizeof(rails));
	rails[0].seen = true;
	rails[0].rounds[MESH_RES_OK] = 7;
	rails[0].rounds[MESH_RES_AUTH_FAILED] = 2;
	mesh_hist_add(&rails[0].rtt, 30000);
	rails[1].seen = true;
	rails[1].rounds[MESH_RES_REFUSED] = 1;
	memset(rail_health, 0, sizeof(rail_health));
	rail_health[0] = MESH_HEALTH_HEALTHY;
	rail_health[1] = MESH_HEALTH_SLOW;
	rail_health[2] = MESH_HEALTH_LOSSY;	/* not seen: not shown */
	rails[0].place_seen[MESH_PLACE_SAME_TOR] = true;
	rails[0].place_seen[MESH_PLACE_CROSS_TOR] = true;
	rails[1].place_seen[MESH_PLACE_CROSS_TOR] = true;
	memset(place_health, 0, sizeof(place_health));
	place_health[0][MESH_PLACE_SAME_TOR] = MESH_HEALTH_HEALTHY;
	place_health[0][MESH_PLACE_CROSS_TOR] = MESH_HEALTH_LOSSY;
	place_health[1][MESH_PLACE_SAME_TOR] = MESH_HEALTH_SLOW; /* unseen */
	place_health[1][MESH_PLACE_CROSS_TOR] = MESH_HEALTH_FLAPPING;
	place_health[2][MESH_PLACE_CROSS_TOR] = MESH_HEALTH_LOSSY;
	mview.compact = true;
	mview.rails = rails;
	mview.rail_health = rail_health;
	mview.place_health = (const enum mesh_health_state (*)[MESH_PLACES])
			     place_health;
	mview.n_rails = MESH_INV_RAILS_MAX;
}

static void test_compact_samples(const char *buf, const char *what)
{
	static const char *const lines[] = {
		"rdmad_mesh_peers 3",
		"rdmad_mesh_peer_up{peer=\"10.0.0.2:7471\",peer_host=\"h2\","
		"peer_tor=\"t1\",rail=\"0\",why=\"same ToR\"} 1",
		"rdmad_mesh_peer_up{peer=\"[fe80::2]:7471\",peer_host=\"h9\","
		"peer_tor=\"t3\",rail=\"1\",why=\"cross-ToR\"} 0",
		"rdmad_mesh_peer_up{peer=\"q\\\"\\\\:1\",peer_host=\"h3\","
		"peer_tor=\"t2\",rail=\"0\",why=\"same ToR\"} 1",
		"rdmad_mesh_rounds_total{peer=\"10.0.0.2:7471\",result=\"ok\"} 4",
		"rdmad_mesh_rounds_total{peer=\"10.0.0.2:7471\","
		"result=\"mismatch\"} 1",
		"rdmad_mesh_rounds_total{peer=\"10.0.0.2:7471\","
		"result=\"failed\"} 2",
		"rdmad_mesh_rounds_total{peer=\"[fe80::2]:7471\",result=\"ok\"} 0",
		"rdmad_mesh_rounds_total{peer=\"[fe80::2]:7471\","
		"result=\"failed\"} 2",
		"rdmad_mesh_round_p99_seconds{peer=\"10.0.0.2:7471\"} 1.0",
		"rdmad_mesh_round_p99_seconds{peer=\"q\\\"\\\\:1\"} 0.0001",
		"rdmad_mesh_rail_rounds_total{rail=\"0\",result=\"ok\"} 7",
		"rdmad_mesh_rail_rounds_total{rail=\"0\","
		"result=\"auth-failed\"} 2",
		"rdmad_mesh_rail_rounds_total{rail=\"1\",result=\"refused\"} 1",
		"rdmad_mesh_rail_rounds_total{rail=\"1\",result=\"ok\"} 0",
		"rdmad_mesh_rail_round_duration_seconds_bucket{rail=\"0\","
		"le=\"0.00005\"} 1",
		"rdmad_mesh_rail_round_duration_seconds_count{rail=\"0\"} 1",
		"rdmad_mesh_rail_round_duration_seconds_sum{rail=\"0\"} 0.00003",
		"rdmad_mesh_rail_round_duration_seconds_count{rail=\"1\"} 0",
		"rdmad_mesh_rail_health{rail=\"0\"} 1",
		"rdmad_mesh_rail_health{rail=\"1\"} 2",
		"rdmad_mesh_rail_place_health{rail=\"0\",why=\"same ToR\"} 1",
		"rdmad_mesh_rail_place_health{rail=\"0\",why=\"cross-ToR\"} 3",
		"rdmad_mesh_rail_place_health{rail=\"1\",why=\"cross-ToR\"} 5",
		"# TYPE rdmad_mesh_rail_place_health gauge",
		"rdmad_mesh_peer_health{peer=\"10.0.0.2:7471\"} 3",
		"rdmad_mesh_peer_flaps{peer=\"10.0.0.2:7471\"} 2",
		"rdmad_mesh_place_info{host=\"h1\",tor=\"t1\"} 1",
		"rdmad_mesh_epoch_switches_total 7",
		"rdmad_mesh_targets_reloads_total 4",
		"rdmad_mesh_self_info{peer=\"10.0.0.1:7471\"} 1",
		"# TYPE rdmad_mesh_round_p99_seconds gauge",
		"# TYPE rdmad_mesh_rail_round_duration_seconds histogram",
	};
	static const char *const gone[] = {
		"rdmad_mesh_peer_paths_up", "rdmad_mesh_path_rounds_failed",
		"rdmad_mesh_size_rounds_failed",
		"rdmad_mesh_round_duration_seconds",
		"rdmad_mesh_bandwidth_bytes_per_second",
		"rdmad_mesh_connects", "rdmad_mesh_peer_downs",
		"rdmad_mesh_peer_info",
		"rdmad_mesh_rounds_total{peer=\"10.0.0.2:7471\","
		"result=\"timeout\"}",
		"rdmad_mesh_rail_place_health{rail=\"1\",why=\"same ToR\"}",
	};
	unsigned int i, n_gone = 0;

	tap_ok(has_lines(buf, lines, sizeof(lines) / sizeof(lines[0]), what),
	       "%s: compact: exact sample lines of a 3-peer view, 2 rails",
	       what);
	for (i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		if (strstr(buf, gone[i])) {
			tap_diag("%s: %s is there", what, gone[i]);
			n_gone++;
		}
	tap_ok(!n_gone, "%s: compact: no per-peer path, size, histogram, "
	       "connect, down, bandwidth or info series", what);
	/* 5 a peer (the p99 absent while no verified round), +1 slow or
	 * worse, +1 with flaps, +1 split */
	tap_ok(count_with(buf, "peer=\"10.0.0.2:7471\"") == 5 + 3 &&
	       count_with(buf, "peer=\"[fe80::2]:7471\"") == 4 + 1 &&
	       count_with(buf, "peer=\"q\\\"\\\\:1\"") == 5 &&
	       count_prefix(buf, "rdmad_mesh_rounds_total{") == 3 * 3,
	       "%s: compact: 5 series a peer, 4 before a good round, +1 "
	       "slow or worse, +1 flapping, +1 split (%d, %d)", what,
	       count_with(buf, "peer=\"10.0.0.2:7471\""),
	       count_with(buf, "peer=\"[fe80::2]:7471\""));
	/* 25 a rail: 9 classes, 12 bounds + Inf, count, sum, health; and
	 * its places' health */
	tap_ok(count_with(buf, "rail=\"0\"") - 2 == 25 + 2 &&
	       count_with(buf, "rail=\"1\"") - 1 == 25 + 1 &&
	       count_prefix(buf, "rdmad_mesh_rail_rounds_total{") ==
	       2 * MESH_RES_N && !strstr(buf, "rail=\"2\""),
	       "%s: compact: 25 series a rail seen and 1 a place seen on it, "
	       "none for the others",
	       what);
}

/* BUF without its rdmad_mesh_rail_health and _place_health samples, in
 * place. */
static char *strip_rail_health(char *buf)
{
	char *r = buf, *w = buf, *nl;

	while (*r) {
		nl = strchr(r, '\n');
		nl = nl ? nl + 1 : r + strlen(r);
		if (strncmp(r, "rdmad_mesh_rail_health{", 23) &&
		    strncmp(r, "rdmad_mesh_rail_place_health{", 29)) {
			memmove(w, r, nl - r);
			w += nl - r;
		}
		r = nl;
	}
	*w = '\0';
	return buf;
}

static void test_compact(void)
{
	char *prom, *om;
	int ret;

	make_compact();
	both_formats(&prom, &om, test_compact_samples, "compact");
	free(prom);
	free(om);

	/* the same view in full: not one line changes */
	{
		char *full, *was;

		mview.compact = false;
		full = render(&view, METRICS_PROMETHEUS, &ret);
		mview.rails = NULL;
		mview.rail_health = NULL;
		mview.place_health = NULL;
		mview.n_rails = 0;
		was = render(&view, METRICS_PROMETHEUS, &ret);
		/* full shows a rail's health and its places', no other
		 * rail family */
		tap_ok(has_line(full, "rdmad_mesh_rail_health{rail=\"1\"} 2") &&
		       has_line(full, "rdmad_mesh_rail_place_health{rail="
				"\"1\",why=\"cross-ToR\"} 5") &&
		       !strcmp(strip_rail_health(full), was) &&
		       !strstr(full, "rdmad_mesh_rail_rounds") &&
		       !strstr(full, "rdmad_mesh_rail_round_duration") &&
		       !strstr(full, "rdmad_mesh_round_p99_seconds") &&
		       strstr(full, "rdmad_mesh_peer_info{") &&
		       has_line(full, "rdmad_mesh_peer_up{peer=\"10.0.0.2:"
				"7471\"} 1"),
		       "full: rails counted or not, the series of before "
		       "but the rails' and places' health");
		free(full);
		free(was);
	}
	memset(mpeers, 0, sizeof(mpeers));
}

/*
 * An epoch switch: a cross-ToR peer leaves, its paths' figures go (the
 * agent frees them), and its rail keeps every round it counted.
 */
static void test_compact_epoch(void)
{
	static struct mesh_path_stats a, b, c;
	static struct mesh_view_peer p[2];
	char *prom;
	int ret;

	make_mesh();
	memset(rails, 0, sizeof(rails));
	memset(p, 0, sizeof(p));
	mesh_stats_init(&a);
	mesh_stats_init(&b);
	a.rail = b.rail = &rails[1];
	rails[1].seen = true;
	mesh_stats_round(&a, 0, 64, MESH_RES_OK, 30000, 0, 1);
	mesh_stats_round(&a, 0, 64, MESH_RES_TIMEOUT, 0, 0, 2);
	mesh_stats_round(&b, 0, 64, MESH_RES_OK, 2000000, 0, 1);
	mesh_stats_round(&b, 0, 64, MESH_RES_MISMATCH, 0, 8, 2);
	p[0] = (struct mesh_view_peer){ .name = "a:1", .n_paths = 1,
		.tor = "t1", .rail = 1 };
	p[0].path[0] = (struct mesh_view_path){ .state = MESH_ST_WAIT,
		.reach = MESH_REACH_UP, .st = &a,
		.error = "", .bw_stale = false };
	p[1] = (struct mesh_view_peer){ .name = "b:1", .n_paths = 1,
		.tor = "t9", .rail = 1, .cross_tor = true };
	p[1].path[0] = (struct mesh_view_path){ .state = MESH_ST_WAIT,
		.reach = MESH_REACH_UP, .st = &b,
		.error = "", .bw_stale = false };
	mesh_fixture_view(msizes, 3, p, 2);
	mview.topology = true;
	mview.host = "h1";
	mview.tor = "t1";
	mview.pod = "";
	mview.compact = true;
	mview.rails = rails;
	mview.n_rails = MESH_INV_RAILS_MAX;
	prom = render(&view, METRICS_PROMETHEUS, &ret);
	tap_ok(has_line(prom, "rdmad_mesh_rail_rounds_total{rail=\"1\","
			"result=\"ok\"} 2") &&
	       has_line(prom, "rdmad_mesh_rail_rounds_total{rail=\"1\","
			"result=\"mismatch\"} 1") &&
	       has_line(prom, "rdmad_mesh_rail_rounds_total{rail=\"1\","
			"result=\"timeout\"} 1") &&
	       has_line(prom, "rdmad_mesh_rail_round_duration_seconds_count{"
			"rail=\"1\"} 2"),
	       "epoch: before the switch, the rail has both peers' rounds");
	free(prom);

	/* b leaves: its figures are freed with it; c comes on the rail */
	memset(&b, 0xa5, sizeof(b));
	mesh_stats_init(&c);
	c.rail = &rails[1];
	mesh_stats_round(&c, 0, 64, MESH_RES_OK, 100000, 0, 3);
	p[1] = (struct mesh_view_peer){ .name = "c:1", .n_paths = 1,
		.tor = "t7", .rail = 1, .cross_tor = true };
	p[1].path[0] = (struct mesh_view_path){ .state = MESH_ST_WAIT,
		.reach = MESH_REACH_UP, .st = &c,
		.error = "", .bw_stale = false };
	prom = render(&view, METRICS_PROMETHEUS, &ret);
	tap_ok(has_line(prom, "rdmad_mesh_rail_rounds_total{rail=\"1\","
			"result=\"ok\"} 3") &&
	       has_line(prom, "rdmad_mesh_rail_rounds_total{rail=\"1\","
			"result=\"mismatch\"} 1") &&
	       has_line(prom, "rdmad_mesh_rail_rounds_total{rail=\"1\","
			"result=\"timeout\"} 1") &&
	       has_line(prom, "rdmad_mesh_rail_round_duration_seconds_count{"
			"rail=\"1\"} 3") &&
	       has_line(prom, "rdmad_mesh_rail_round_duration_seconds_sum{"
			"rail=\"1\"} 0.00213") &&
	       !strstr(prom, "peer=\"b:1\"") &&
	       has_line(prom, "rdmad_mesh_rounds_total{peer=\"c:1\","
			"result=\"ok\"} 1"),
	       "epoch: after the switch, the rail keeps the leaver's rounds "
	       "(its counters never go back), the leaver's series are gone");
	free(prom);
}

static void test_ports(void)
{
	char *prom;
	int ret, ok;

	make_view();
	prom = render(&view, METRICS_PROMETHEUS, &ret);
	tap_ok(has_line(prom, "# TYPE rdmad_port_up gauge") &&
	       !strstr(prom, "rdmad_port_up{"),
	       "ports: none seen, family without samples");
	free(prom);
	stats_port(&st, "rxe0", 1, false);
	stats_port(&st, "rxe0", 1, true);
	stats_port(&st, "mlx5_1", 2, false);
	stats_port_rate(&st, "rxe0", 1, 312500000);
	stats_port_rate(&st, "mlx5_1", 2, 0);
	prom = render(&view, METRICS_PROMETHEUS, &ret);
	ok = well_formed(prom, METRICS_PROMETHEUS);
	tap_ok(ok && has_line(prom, "rdmad_port_rate_bytes_per_second{"
			      "device=\"rxe0\",port=\"1\"} 312500000") &&
	       !strstr(prom, "rdmad_port_rate_bytes_per_second{"
		       "device=\"mlx5_1\""),
	       "ports: the rate of a port that has one, none for unknown");
	tap_ok(ok && has_line(prom, "rdmad_port_up{device=\"rxe0\","
			      "port=\"1\"} 1") &&
	       has_line(prom, "rdmad_port_up{device=\"mlx5_1\",port=\"2\"} 0") &&
	       has_line(prom, "rdmad_port_changes_total{device=\"rxe0\","
			"port=\"1\"} 2") &&
	       has_line(prom, "rdmad_port_changes_total{device=\"mlx5_1\","
			"port=\"2\"} 1"),
	       "ports: state and changes by device and port");
	free(prom);
}

/* The ports' counters: a series each once read, the saturated marker only
 * for the legacy counters that have a ceiling, a total that does not go
 * down across a reset. */
static void test_port_counters(void)
{
	struct port_counter c[4];
	char *prom, *om;
	int ret, ok;

	make_view();
	port_counter_init(&c[0], "mlx5_0", 1, PORT_COUNTER_PMA, "link_downed");
	port_counter_update(&c[0], 255);
	port_counter_init(&c[1], "mlx5_0", 1, PORT_COUNTER_PMA,
			  "port_xmit_wait");
	port_counter_update(&c[1], 4000);
	port_counter_init(&c[2], "rxe0", 1, PORT_COUNTER_HW, "rcvd_seq_err");
	port_counter_update(&c[2], 20);
	port_counter_update(&c[2], 3);		/* reset: 20 + 3 */
	port_counter_init(&c[3], "rxe0", 1, PORT_COUNTER_HW, "sent_pkts");
	view.counters = c;
	view.n_counters = 4;
	prom = render(&view, METRICS_PROMETHEUS, &ret);
	om = render(&view, METRICS_OPENMETRICS, &ret);
	ok = well_formed(prom, METRICS_PROMETHEUS) &&
	     well_formed(om, METRICS_OPENMETRICS);
	tap_ok(ok && has_line(prom, "# TYPE rdmad_port_events_total counter") &&
	       has_line(om, "# TYPE rdmad_port_events counter") &&
	       has_line(prom, "# TYPE rdmad_port_events_saturated gauge"),
	       "port counters: families, both formats well formed");
	tap_ok(has_line(prom, "rdmad_port_events_total{device=\"mlx5_0\","
			"port=\"1\",counter=\"link_downed\"} 255") &&
	       has_line(prom, "rdmad_port_events_total{device=\"mlx5_0\","
			"port=\"1\",counter=\"port_xmit_wait\"} 4000") &&
	       has_line(om, "rdmad_port_events_total{device=\"rxe0\","
			"port=\"1\",counter=\"rcvd_seq_err\"} 23"),
	       "port counters: totals by device, port, counter; a reset adds");
	tap_ok(has_line(prom, "rdmad_port_events_saturated{device=\"mlx5_0\","
			"port=\"1\",counter=\"link_downed\"} 1") &&
	       has_line(prom, "rdmad_port_events_saturated{device=\"mlx5_0\","
			"port=\"1\",counter=\"port_xmit_wait\"} 0"),
	       "port counters: link_downed at 255 saturated, port_xmit_wait "
	       "below its ceiling not");
	tap_ok(!strstr(prom, "rdmad_port_events_saturated{device=\"rxe0\"") &&
	       !strstr(prom, "counter=\"sent_pkts\""),
	       "port counters: no saturated series for a 64-bit counter, no "
	       "series for one never read");
	free(prom);
	free(om);
	view.counters = NULL;
	view.n_counters = 0;
}

static void test_write_error(void)
{
	FILE *f = fopen("/dev/null", "r");

	make_view();
	if (!f) {
		tap_ok(0, "write error: cannot open /dev/null");
		tap_ok(0, "write error: cannot open /dev/null");
		return;
	}
	tap_ok(metrics_render(f, &view, METRICS_PROMETHEUS) == -EIO,
	       "write error: render returns -EIO (prometheus)");
	clearerr(f);
	tap_ok(metrics_render(f, &view, METRICS_OPENMETRICS) == -EIO,
	       "write error: render returns -EIO (openmetrics)");
	fclose(f);
}

static void test_negotiate(void)
{
	tap_ok(metrics_negotiate(NULL) == METRICS_PROMETHEUS,
	       "negotiate: no Accept header is Prometheus");
	tap_ok(metrics_negotiate("text/plain") == METRICS_PROMETHEUS &&
	       metrics_negotiate("*/*") == METRICS_PROMETHEUS &&
	       metrics_negotiate("") == METRICS_PROMETHEUS,
	       "negotiate: text/plain, */* and empty are Prometheus");
	tap_ok(metrics_negotiate("application/openmetrics-text; "
				 "version=1.0.0,text/plain;q=0.5") ==
	       METRICS_OPENMETRICS &&
	       metrics_negotiate("application/openmetrics-text") ==
	       METRICS_OPENMETRICS,
	       "negotiate: Prometheus' scrape Accept header is OpenMetrics");
	tap_ok(!strcmp(metrics_content_type(METRICS_PROMETHEUS),
		       "text/plain; version=0.0.4; charset=utf-8") &&
	       !strcmp(metrics_content_type(METRICS_OPENMETRICS),
		       "application/openmetrics-text; version=1.0.0; "
		       "charset=utf-8"),
	       "content types of both formats");
}

/* --dump FILE: every family with samples (the mesh with its places, the
 * ports, their counters) in the Prometheus format, into FILE, for
 * tests/unit/check-metrics-names to run `promtool check metrics` on. */
static int dump(const char *file)
{
	struct port_counter c[2];
	char *prom;
	FILE *f;
	int ret;

	make_mesh();
	mesh_fixture_place();
	stats_port(&st, "rxe0", 1, true);
	stats_port_rate(&st, "rxe0", 1, 312500000);
	port_counter_init(&c[0], "mlx5_0", 1, PORT_COUNTER_PMA, "link_downed");
	port_counter_update(&c[0], 255);
	port_counter_init(&c[1], "rxe0", 1, PORT_COUNTER_HW, "rcvd_seq_err");
	port_counter_update(&c[1], 20);
	view.counters = c;
	view.n_counters = 2;
	prom = render(&view, METRICS_PROMETHEUS, &ret);
	f = fopen(file, "w");
	if (!prom || ret || !f || fputs(prom, f) == EOF || fclose(f)) {
		fprintf(stderr, "test-metrics-render: cannot render into %s\n",
			file);
		free(prom);
		return 1;
	}
	free(prom);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--dump"))
		return dump(argv[2]);
	test_validator_itself();
	test_formats();
	test_empty();
	test_self();
	test_mesh();
	test_mesh_place();
	test_compact();
	test_compact_epoch();
	test_ports();
	test_port_counters();
	test_write_error();
	test_negotiate();
	return tap_done();
}
