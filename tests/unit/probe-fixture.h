/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe-fixture.h - what the probe's report tests share (test-probe-report,
 * test-probe-json): a small JSON checker, text comparisons, hand-built
 * operations, options and phase moments, an error message with odd bytes.
 */
#ifndef RDMAD_PROBE_FIXTURE_H
#define RDMAD_PROBE_FIXTURE_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "probe_exit_rules.h"
#include "probe_opstat.h"
#include "probe_opts.h"
#include "probe_report.h"
#include "probe_report_json.h"
#include "probe_report_matrix.h"
#include "probe_report_text.h"
#include "probe_rounds.h"
#include "probe_run.h"
#include "proto.h"
#include "tap.h"

#define SEED	0xabcdeull

/* ---- a small JSON checker ------------------------------------------- */

static inline const char *jv_value(const char *p, int depth);

static inline const char *jv_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static inline int jv_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static inline const char *jv_string(const char *p)
{
	int i;

	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;	/* NUL included: unterminated */
		if (*p != '\\')
			continue;
		p++;
		if (*p == 'u') {
			for (i = 1; i <= 4; i++)
				if (!jv_hex(p[i]))
					return NULL;
			p += 4;
		} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
			return NULL;
		}
	}
	return p + 1;
}

static inline const char *jv_number(const char *p)
{
	const char *s;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		s = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == s)
			return NULL;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		s = p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == s)
			return NULL;
	}
	return p;
}

static inline const char *jv_members(const char *p, char close, int depth)
{
	p = jv_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			p = jv_string(jv_ws(p));
			if (!p)
				return NULL;
			p = jv_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = jv_value(p, depth + 1);
		if (!p)
			return NULL;
		p = jv_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static inline const char *jv_value(const char *p, int depth)
{
	if (depth > 32)
		return NULL;
	p = jv_ws(p);
	switch (*p) {
	case '{':
	case '[':
		return jv_members(p, *p == '{' ? '}' : ']', depth);
	case '"':
		return jv_string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return jv_number(p);
	}
}

/* One JSON value and nothing but white space after it (bytes from 0x80
 * are taken as they are: test-json checks json_str's UTF-8). */
static inline bool json_valid(const char *s)
{
	const char *p = jv_value(s, 0);

	return p && !*jv_ws(p);
}

/* ---- helpers ------------------------------------------------------------ */

static inline int has(const char *text, const char *want, const char *what)
{
	int ok = strstr(text, want) != NULL;

	tap_ok(ok, "%s", what);
	if (!ok)
		tap_diag("want \"%s\" in:\n%s", want, text);
	return ok;
}

static inline int same(const char *got, const char *want, const char *what)
{
	int ok = !strcmp(got, want);
	size_t i = 0;

	tap_ok(ok, "%s", what);
	if (!ok) {
		while (got[i] && got[i] == want[i])
			i++;
		tap_diag("first difference at byte %zu", i);
		tap_diag("got:\n%s", got);
		tap_diag("want:\n%s", want);
	}
	return ok;
}

/* printf into a fresh buffer (free() it). */
__attribute__((format(printf, 1, 2)))
static inline char *fmt(const char *f, ...)
{
	struct capture c;
	va_list ap;

	va_start(ap, f);
	vfprintf(capture_open(&c), f, ap);
	va_end(ap);
	return capture_close(&c);
}

static inline unsigned int count_lines(const char *s, const char *prefix)
{
	unsigned int n = 0;
	size_t len = strlen(prefix);

	for (; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : s)
		n += !strncmp(s, prefix, len);
	return n;
}

/*
 * n operations of bytes each, every one taking lat ns, posted gap ns
 * apart from t0: the span is (n - 1) * gap + lat.
 */
static inline struct probe_opstat *opstat(unsigned int n, uint64_t t0, uint64_t gap,
				   uint64_t lat, uint32_t bytes)
{
	struct probe_opstat *s = malloc(sizeof(*s));
	unsigned int i;

	if (!s)
		exit(99);
	probe_opstat_init(s);
	for (i = 0; i < n; i++)
		probe_opstat_add(s, t0 + i * gap, t0 + i * gap + lat, bytes);
	return s;
}

static inline void opts_native(struct probe_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->host = "10.0.0.1";
	o->port = 7471;
	o->ops = PROTO_OP_READ | PROTO_OP_WRITE;
	o->size = 65536;
	o->iters = 3;
	o->timeout_ms = 10000;
	o->parallel = 1;
	o->depth = 1;
	o->seed = SEED;
	o->verify = true;
	o->tos = -1;
}

/*
 * Phases of one connection whose durations exercise every unit of the
 * figures: 0.5 us, 1000.0 us (999999 ns), 1.000 ms, 0.3 us, 9999.000 ms,
 * 10.000 s, 3.0 us (2 us between RESULT and the disconnect call are no
 * phase); total 20001005909 ns.
 */
__attribute__((unused))
static const struct rdma_client_times times_all = {
	.start = 1000000000ull,
	.addr = 1000000500ull,
	.route = 1001000499ull,
	.established = 1002000499ull,
	.desc = 1002000799ull,
	.ops_start = 1002000899ull,
	.ops_end = 11001000899ull,
	.done_sent = 11001000909ull,
	.result = 21001000909ull,
	.disconnect = 21001002909ull,
	.closed = 21001005909ull,
};

__attribute__((unused))
static const struct rdma_client_times times_none;

/* Odd bytes in an error message: quote, backslash, newline, tab, 0x01,
 * DEL and a byte that is not UTF-8. */
__attribute__((unused))
static const char odd_error[] = "bad \"x\" \\ nl\n tab\t c\x01 del\x7f hi\xff";
__attribute__((unused))
static const char odd_json[] =
	"\"bad \\\"x\\\" \\\\ nl\\u000a tab\\u0009 c\\u0001 del\\u007f hi\\ufffd\"";

#endif /* RDMAD_PROBE_FIXTURE_H */
