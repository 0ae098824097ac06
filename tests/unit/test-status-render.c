/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-status-render.c - the status document of status_render.c: the JSON parsed back
 * by a small strict JSON parser, and the text table for people; the mesh's
 * peer table (peers_render.c, GET /peers) the same way, its window named
 * and its loss that of the last rounds.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "mesh/view/mesh_render.h"
#include "serve/status_render.h"
#include "capture.h"
#include "mesh-fixture.h"
#include "tap.h"

#define WC_REM_ACCESS_ERR	10

/* ---- a strict JSON parser (RFC 8259) into a small tree ------------------- */

enum jtype { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

struct jnode {
	enum jtype type;
	char key[64];		/* member name, in an object */
	char str[128];		/* J_STR: the decoded string */
	size_t len;		/* its length (may hold NUL) */
	double num;
	int first;		/* first child, -1: none */
	int next;		/* next sibling, -1: none */
	int n;			/* number of children */
};

#define JMAX	4096

struct jparser {
	const char *p;
	struct jnode node[JMAX];
	int n_node;
	int depth;
	char err[128];
};

static struct jparser jp;

__attribute__((format(printf, 2, 3)))
static int jfail(struct jparser *j, const char *fmt, ...)
{
	char msg[96];
	va_list ap;

	if (j->err[0])
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(j->err, sizeof(j->err), "%s near '%.10s'", msg, j->p);
	return -1;
}

static void jskip(struct jparser *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' ||
	       *j->p == '\r')
		j->p++;
}

static int jnew(struct jparser *j, enum jtype t)
{
	struct jnode *n;

	if (j->n_node == JMAX)
		return jfail(j, "too many nodes");
	n = &j->node[j->n_node];
	memset(n, 0, sizeof(*n));
	n->type = t;
	n->first = n->next = -1;
	return j->n_node++;
}

/* OUT gets the UTF-8 of code point CP; returns its length. */
static size_t utf8(char *out, unsigned long cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int jhex4(struct jparser *j, unsigned long *cp)
{
	unsigned int i;

	*cp = 0;
	for (i = 0; i < 4; i++) {
		int c = (unsigned char)*j->p;

		if (!isxdigit(c))
			return jfail(j, "bad \\u escape");
		*cp = *cp * 16 + (unsigned long)(isdigit(c) ? c - '0' :
						 tolower(c) - 'a' + 10);
		j->p++;
	}
	return 0;
}

/* A string at j->p (at its quote) decoded into OUT (truncated). */
static int jstring(struct jparser *j, char *out, size_t outlen, size_t *len)
{
	char tmp[4];
	size_t n = 0, k, i;
	unsigned long cp, lo;

	if (*j->p != '"')
		return jfail(j, "want a string");
	j->p++;
	for (;;) {
		unsigned char c = (unsigned char)*j->p;

		if (!c)
			return jfail(j, "unterminated string");
		if (c < 0x20)
			return jfail(j, "raw control character 0x%02x", c);
		j->p++;
		if (c == '"')
			break;
		if (c != '\\') {
			tmp[0] = (char)c;
			k = 1;
		} else {
			if (!*j->p)
				return jfail(j, "unterminated string");
			c = (unsigned char)*j->p++;
			k = 1;
			switch (c) {
			case '"': case '\\': case '/':
				tmp[0] = (char)c;
				break;
			case 'b': tmp[0] = '\b'; break;
			case 'f': tmp[0] = '\f'; break;
			case 'n': tmp[0] = '\n'; break;
			case 'r': tmp[0] = '\r'; break;
			case 't': tmp[0] = '\t'; break;
			case 'u':
				if (jhex4(j, &cp))
					return -1;
				if (cp >= 0xdc00 && cp <= 0xdfff)
					return jfail(j, "lone low surrogate");
				if (cp >= 0xd800 && cp <= 0xdbff) {
					if (j->p[0] != '\\' || j->p[1] != 'u')
						return jfail(j, "lone high "
							     "surrogate");
					j->p += 2;
					if (jhex4(j, &lo))
						return -1;
					if (lo < 0xdc00 || lo > 0xdfff)
						return jfail(j, "bad surrogate "
							     "pair");
					cp = 0x10000 + ((cp - 0xd800) << 10) +
					     (lo - 0xdc00);
				}
				k = utf8(tmp, cp);
				break;
			default:
				return jfail(j, "bad escape \\%c", c);
			}
		}
		for (i = 0; i < k; i++)
			if (n + 1 < outlen)
				out[n++] = tmp[i];
	}
	if (outlen)
		out[n] = '\0';
	if (len)
		*len = n;
	return 0;
}

static int jnumber(struct jparser *j, double *v)
{
	const char *s = j->p, *p = s;
	char *end;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (isdigit((unsigned char)*p))
			p++;
	else
		return jfail(j, "bad number");
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return jfail(j, "digits after '.'");
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return jfail(j, "bad exponent");
		while (isdigit((unsigned char)*p))
			p++;
	}
	*v = strtod(s, &end);
	if (end != p)
		return jfail(j, "number");
	j->p = p;
	return 0;
}

static int jvalue(struct jparser *j);

/* Append CHILD to the children of PARENT; object keys are unique. */
static int jappend(struct jparser *j, int parent, int child, int *last)
{
	int k;

	if (j->node[parent].type == J_OBJ)
		for (k = j->node[parent].first; k >= 0; k = j->node[k].next)
			if (!strcmp(j->node[k].key, j->node[child].key))
				return jfail(j, "duplicate key '%s'",
					     j->node[child].key);
	if (*last < 0)
		j->node[parent].first = child;
	else
		j->node[*last].next = child;
	*last = child;
	j->node[parent].n++;
	return 0;
}

static int jcontainer(struct jparser *j, int obj)
{
	char key[64];
	int me, child, last = -1;

	me = jnew(j, obj ? J_OBJ : J_ARR);
	if (me < 0)
		return -1;
	if (++j->depth > 32)
		return jfail(j, "too deep");
	j->p++;
	jskip(j);
	if (*j->p == (obj ? '}' : ']')) {
		j->p++;
		j->depth--;
		return me;
	}
	for (;;) {
		jskip(j);
		if (obj) {
			if (jstring(j, key, sizeof(key), NULL))
				return -1;
			jskip(j);
			if (*j->p != ':')
				return jfail(j, "want ':'");
			j->p++;
		}
		child = jvalue(j);
		if (child < 0)
			return -1;
		if (obj)
			strcpy(j->node[child].key, key);
		if (jappend(j, me, child, &last))
			return -1;
		jskip(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p != (obj ? '}' : ']'))
			return jfail(j, "want ',' or '%c'", obj ? '}' : ']');
		j->p++;
		break;
	}
	j->depth--;
	return me;
}

static int jvalue(struct jparser *j)
{
	int me;

	jskip(j);
	switch (*j->p) {
	case '{':
		return jcontainer(j, 1);
	case '[':
		return jcontainer(j, 0);
	case '"':
		me = jnew(j, J_STR);
		if (me < 0 || jstring(j, j->node[me].str,
				      sizeof(j->node[me].str),
				      &j->node[me].len))
			return -1;
		return me;
	case 't':
		if (strncmp(j->p, "true", 4))
			break;
		j->p += 4;
		return jnew(j, J_TRUE);
	case 'f':
		if (strncmp(j->p, "false", 5))
			break;
		j->p += 5;
		return jnew(j, J_FALSE);
	case 'n':
		if (strncmp(j->p, "null", 4))
			break;
		j->p += 4;
		return jnew(j, J_NULL);
	default:
		me = jnew(j, J_NUM);
		if (me < 0 || jnumber(j, &j->node[me].num))
			return -1;
		return me;
	}
	return jfail(j, "bad literal");
}

/* Parse a whole document: the root node, or -1 (jp.err says why). */
static int jparse(const char *text)
{
	int root;

	memset(jp.err, 0, sizeof(jp.err));
	jp.n_node = 0;
	jp.depth = 0;
	jp.p = text;
	root = jvalue(&jp);
	if (root < 0)
		return -1;
	jskip(&jp);
	if (*jp.p)
		return jfail(&jp, "text after the document");
	return root;
}

/* Member KEY of object OBJ, -1 if none (or OBJ not an object). */
static int jget(int obj, const char *key)
{
	int k;

	if (obj < 0 || jp.node[obj].type != J_OBJ)
		return -1;
	for (k = jp.node[obj].first; k >= 0; k = jp.node[k].next)
		if (!strcmp(jp.node[k].key, key))
			return k;
	return -1;
}

/* "a.b.c" from OBJ. */
static int jpath(int obj, const char *path)
{
	char buf[128], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok && obj >= 0;
	     tok = strtok_r(NULL, ".", &save))
		obj = jget(obj, tok);
	return obj;
}

static int jat(int arr, int i)
{
	int k;

	if (arr < 0 || jp.node[arr].type != J_ARR)
		return -1;
	for (k = jp.node[arr].first; k >= 0 && i > 0; k = jp.node[k].next)
		i--;
	return k;
}

static int jnum_is(int node, double want)
{
	double d;

	if (node < 0 || jp.node[node].type != J_NUM)
		return 0;
	d = jp.node[node].num - want;
	return d < 1e-6 && d > -1e-6;
}

static int jstr_is(int node, const char *want)
{
	return node >= 0 && jp.node[node].type == J_STR &&
	       jp.node[node].len == strlen(want) &&
	       !strcmp(jp.node[node].str, want);
}

static int jcount(int node, enum jtype t)
{
	return node >= 0 && jp.node[node].type == t ? jp.node[node].n : -1;
}

static void test_json_parser(void)
{
	static const char *const bad[] = {
		"", "{", "{\"a\":1,}", "{\"a\" 1}", "[1 2]", "[1,]",
		"{\"a\":tru}", "01", "1.", "-", "1e", ".5", "\"\\x\"",
		"\"a\nb\"", "\"\\u12\"", "\"\\udc00\"", "\"\\ud800x\"",
		"{\"a\":1,\"a\":2}", "{\"a\":1} x", "{a:1}", "'a'", "[\"a\"",
		"{\"a\":1}}", "nul", "+1", "\"a\\",
	};
	unsigned int i;
	int ok = 1, root;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (jparse(bad[i]) >= 0) {
			tap_diag("parser accepted '%s'", bad[i]);
			ok = 0;
		}
	tap_ok(ok, "json parser: rejects %u malformed documents",
	       (unsigned int)(sizeof(bad) / sizeof(bad[0])));
	root = jparse(" {\"a\":[1,-2.5e3,true,false,null,{}],"
		      "\"b\":\"q\\\"\\\\\\/\\n\\u0001\\u00e9\\ud83d\\ude00\","
		      "\"c\":{\"d\":0}}\n");
	ok = root >= 0 && jcount(jget(root, "a"), J_ARR) == 6 &&
	     jnum_is(jat(jget(root, "a"), 1), -2500) &&
	     jp.node[jat(jget(root, "a"), 4)].type == J_NULL &&
	     jstr_is(jget(root, "b"), "q\"\\/\n\x01\xc3\xa9\xf0\x9f\x98\x80") &&
	     jnum_is(jpath(root, "c.d"), 0) && jpath(root, "c.e") < 0;
	if (!ok)
		tap_diag("%s", jp.err);
	tap_ok(ok, "json parser: accepts and decodes a good document");
}

/* ---- the view ------------------------------------------------------------ */

static char *render(const struct stats_view *v, int json, int *ret)
{
	struct capture c;
	FILE *f = capture_open(&c);

	*ret = json ? status_render_json(f, v) : status_render_text(f, v);
	return capture_close(&c);
}

static struct stats st;
static struct stats_listener lis[2];
static struct stats_conn conns[2];
static struct stats_view view;

#define ODD_PEER	"od\"d\x01\\p\x1f"

static void make_view(void)
{
	stats_init(&st);
	stats_accepted(&st, STATS_PROTO_NATIVE);
	stats_accepted(&st, STATS_PROTO_NATIVE);
	stats_accepted(&st, STATS_PROTO_NATIVE);
	stats_accepted(&st, STATS_PROTO_RPING);
	stats_closed(&st, STATS_PROTO_NATIVE, STATS_RES_OK, 1000);
	stats_closed(&st, STATS_PROTO_RPING, STATS_RES_TIMEOUT, 1000);
	stats_rejected(&st, STATS_REJ_BUSY);
	stats_rejected(&st, STATS_REJ_BUSY);
	stats_rdma(&st, STATS_PROTO_NATIVE, STATS_OP_READ, 4, 4096, 0);
	stats_rdma(&st, STATS_PROTO_RPING, STATS_OP_WRITE, 3, 1572864, 2000);
	stats_wc_error(&st, WC_REM_ACCESS_ERR);
	stats_wc_error(&st, WC_REM_ACCESS_ERR);
	stats_wc_error(&st, 4000);

	memset(lis, 0, sizeof(lis));
	strcpy(lis[0].address, "0.0.0.0:7471");
	lis[0].up = true;
	strcpy(lis[1].address, "[::]:7471");
	lis[1].up = false;

	memset(conns, 0, sizeof(conns));
	conns[0].id = 7;
	strcpy(conns[0].peer, "10.0.0.2:51000");
	conns[0].proto = STATS_PROTO_NATIVE;
	strcpy(conns[0].state, "established/desc/wait-done");
	conns[0].bytes = 4096;
	conns[0].ops = 4;
	conns[0].age_ms = 1500;
	conns[1].id = 12;
	strcpy(conns[1].peer, ODD_PEER);
	conns[1].proto = STATS_PROTO_RPING;
	strcpy(conns[1].state, "established/read/idle");
	conns[1].bytes = 1572864;
	conns[1].ops = 3;
	conns[1].age_ms = 59000;

	memset(&view, 0, sizeof(view));
	view.stats = &st;
	view.version = "1.2.3";
	view.pid = 4242;
	view.start_time = 1000.25;
	view.now = 1100.75;
	view.max_connections = 64;
	view.listeners = lis;
	view.n_listeners = 2;
	view.conns = conns;
	view.n_conns = 2;
}

/* Each key of OBJ, in order, is NAME(0..N-1). */
static int keys_are(int obj, const char *(*name)(int), int n)
{
	int k, i = 0;

	if (jcount(obj, J_OBJ) != n)
		return 0;
	for (k = jp.node[obj].first; k >= 0; k = jp.node[k].next, i++)
		if (strcmp(jp.node[k].key, name(i)))
			return 0;
	return 1;
}

static const char *res_name(int i)
{
	return stats_result_name((enum stats_result)i);
}

static const char *rej_name(int i)
{
	return stats_reject_name((enum stats_reject)i);
}

static void test_json(void)
{
	int ret, root, c, a;
	char *buf;

	make_view();
	buf = render(&view, 1, &ret);
	tap_ok(ret == 0, "json: render returns 0");
	root = jparse(buf);
	if (!tap_ok(root >= 0 && jp.node[root].type == J_OBJ,
		    "json: the document parses (strict) and is an object"))
		tap_diag("%s", jp.err);
	tap_ok(strlen(buf) > 2 && !strcmp(buf + strlen(buf) - 2, "}\n"),
	       "json: one document, ends with a newline");
	tap_ok(jstr_is(jget(root, "version"), "1.2.3") &&
	       jnum_is(jget(root, "pid"), 4242) &&
	       jnum_is(jget(root, "start_time"), 1000.25) &&
	       jp.node[jget(root, "stopping")].type == J_FALSE,
	       "json: version, pid, start_time, stopping false");
	tap_ok(jnum_is(jget(root, "uptime_seconds"), 100.5),
	       "json: uptime_seconds is now - start_time");
	c = jget(root, "listeners");
	tap_ok(jcount(c, J_ARR) == 2 &&
	       jstr_is(jget(jat(c, 0), "address"), "0.0.0.0:7471") &&
	       jp.node[jget(jat(c, 0), "up")].type == J_TRUE &&
	       jstr_is(jget(jat(c, 1), "address"), "[::]:7471") &&
	       jp.node[jget(jat(c, 1), "up")].type == J_FALSE,
	       "json: listeners with address and up");
	tap_ok(jnum_is(jpath(root, "connections.active"), 2) &&
	       jnum_is(jpath(root, "connections.max"), 64) &&
	       jnum_is(jpath(root, "connections.accepted"), 4) &&
	       jnum_is(jpath(root, "connections.rejected"), 2) &&
	       jnum_is(jpath(root, "connections.failed"), 1),
	       "json: connections active/max/accepted/rejected/failed");
	tap_ok(keys_are(jpath(root, "sessions.native"), res_name,
			STATS_RES_N) &&
	       keys_are(jpath(root, "sessions.rping"), res_name,
			STATS_RES_N) &&
	       jcount(jget(root, "sessions"), J_OBJ) == STATS_PROTO_N &&
	       jnum_is(jpath(root, "sessions.native.ok"), 1) &&
	       jnum_is(jpath(root, "sessions.rping.timeout"), 1) &&
	       jnum_is(jpath(root, "sessions.rping.ok"), 0),
	       "json: sessions by protocol, every result");
	tap_ok(keys_are(jget(root, "rejects"), rej_name, STATS_REJ_N) &&
	       jnum_is(jpath(root, "rejects.busy"), 2) &&
	       jnum_is(jpath(root, "rejects.denied"), 0),
	       "json: rejects, every reason");
	tap_ok(jnum_is(jpath(root, "bytes.native.read"), 4096) &&
	       jnum_is(jpath(root, "bytes.native.write"), 0) &&
	       jnum_is(jpath(root, "bytes.rping.write"), 1572864) &&
	       jnum_is(jpath(root, "operations.native.read"), 4) &&
	       jnum_is(jpath(root, "operations.rping.write"), 3) &&
	       jnum_is(jpath(root, "operations.rping.read"), 0),
	       "json: bytes and operations by protocol and operation");
	c = jget(root, "completion_errors");
	tap_ok(jcount(c, J_OBJ) == 2 &&
	       jnum_is(jget(c, "REM_ACCESS_ERR"), 2) &&
	       jnum_is(jget(c, "other"), 1),
	       "json: completion_errors lists the non-zero statuses only");
	a = jget(root, "active");
	c = jat(a, 0);
	tap_ok(jcount(a, J_ARR) == 2 && jnum_is(jget(c, "id"), 7) &&
	       jstr_is(jget(c, "peer"), "10.0.0.2:51000") &&
	       jstr_is(jget(c, "proto"), "native") &&
	       jstr_is(jget(c, "state"), "established/desc/wait-done") &&
	       jnum_is(jget(c, "bytes"), 4096) &&
	       jnum_is(jget(c, "operations"), 4) &&
	       jnum_is(jget(c, "age_seconds"), 1.5),
	       "json: first connection as in the view");
	c = jat(a, 1);
	tap_ok(jnum_is(jget(c, "id"), 12) &&
	       jstr_is(jget(c, "proto"), "rping") &&
	       jstr_is(jget(c, "state"), "established/read/idle") &&
	       jnum_is(jget(c, "age_seconds"), 59),
	       "json: second connection as in the view");
	tap_ok(jstr_is(jget(c, "peer"), ODD_PEER) &&
	       strstr(buf, "\"od\\\"d\\u0001\\\\p\\u001f\""),
	       "json: a peer with '\"', '\\\\' and control characters "
	       "escaped, decodes back");
	free(buf);

	view.stopping = true;
	view.n_conns = 0;
	view.n_listeners = 0;
	stats_init(&st);
	buf = render(&view, 1, &ret);
	root = jparse(buf);
	if (!tap_ok(ret == 0 && root >= 0 &&
		    jp.node[jget(root, "stopping")].type == J_TRUE &&
		    jcount(jget(root, "listeners"), J_ARR) == 0 &&
		    jcount(jget(root, "active"), J_ARR) == 0 &&
		    jcount(jget(root, "completion_errors"), J_OBJ) == 0 &&
		    jnum_is(jpath(root, "connections.failed"), 0),
		    "json: stopping, nothing listening, no connection, no "
		    "error: still well-formed"))
		tap_diag("%s", jp.err);
	free(buf);
}

/* ---- text ------------------------------------------------------------ */

/* The line of BUF starting with PREFIX, copied into OUT; NULL if none. */
static const char *line_with(const char *buf, const char *prefix, char *out,
			     size_t outlen)
{
	size_t n = strlen(prefix);
	const char *p = buf;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (!strncmp(p, prefix, n)) {
			if (len >= outlen)
				len = outlen - 1;
			memcpy(out, p, len);
			out[len] = '\0';
			return out;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return NULL;
}

static int has_line(const char *buf, const char *line)
{
	char got[512];

	return line_with(buf, line, got, sizeof(got)) && !strcmp(got, line);
}

/* The table row of connection ID: its whitespace-separated fields. */
static int row_fields(const char *buf, uint64_t id, char f[8][64],
		      char *row, size_t rowlen)
{
	char line[512], *tok, *save = NULL;
	const char *p = buf;
	int n;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		snprintf(row, rowlen, "%s", line);
		n = 0;
		for (tok = strtok_r(line, " ", &save); tok && n < 8;
		     tok = strtok_r(NULL, " ", &save))
			snprintf(f[n++], 64, "%s", tok);
		if (n == 7 && strtoull(f[0], NULL, 10) == id &&
		    isdigit((unsigned char)f[0][0]))
			return n;
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

/* Line N (from 0) of BUF into OUT; NULL past the end. */
static const char *nth_line(const char *buf, int n, char *out, size_t outlen)
{
	const char *p = buf, *nl;
	size_t len;

	for (; n > 0; n--) {
		nl = strchr(p, '\n');
		if (!nl)
			return NULL;
		p = nl + 1;
	}
	if (!*p)
		return NULL;
	nl = strchr(p, '\n');
	len = nl ? (size_t)(nl - p) : strlen(p);
	if (len >= outlen)
		len = outlen - 1;
	memcpy(out, p, len);
	out[len] = '\0';
	return out;
}

/* Column of WORD in the table header (the line whose first word is ID). */
static long header_col(const char *buf, const char *word)
{
	char hdr[512];
	const char *w, *h;
	int i;

	for (i = 0; nth_line(buf, i, hdr, sizeof(hdr)); i++) {
		for (h = hdr; *h == ' '; h++)
			;
		if (strncmp(h, "ID ", 3) || !strstr(h, " PEER "))
			continue;
		w = strstr(hdr, word);
		return w ? (long)(w - hdr) : -1;
	}
	return -1;
}

static void test_text(void)
{
	char f[8][64], row[512], line[512];
	long cpeer, cproto, cstate;
	int ret;
	char *buf;

	make_view();
	buf = render(&view, 0, &ret);
	tap_ok(ret == 0, "text: render returns 0");
	if (!tap_ok(!strncmp(buf, "rdmad 1.2.3, pid 4242, up 1m40s\n", 32),
		    "text: header 'rdmad VERSION, pid N, up AGE'"))
		tap_diag("%s", nth_line(buf, 0, line, sizeof(line)) ?
			 line : "(empty)");
	tap_ok(has_line(buf, "listening: 0.0.0.0:7471 (up) [::]:7471 "
			"(down, retrying)"),
	       "text: listeners, the one down 'down, retrying'");
	tap_ok(has_line(buf, "connections: 2 active of 64; 4 accepted, "
			"2 rejected; sessions 1 ok, 1 failed"),
	       "text: connections line");
	tap_ok(has_line(buf, "moved: 4.0 KiB read, 1.5 MiB written"),
	       "text: bytes moved in binary units");
	tap_ok(has_line(buf, "failures: timeout 1") &&
	       has_line(buf, "rejects: busy 2") &&
	       has_line(buf, "completion errors: REM_ACCESS_ERR 2, other 1"),
	       "text: failures, rejects, completion errors (non-zero only)");
	tap_ok(!strstr(buf, "no connections") && header_col(buf, "ID") >= 0,
	       "text: a table, not 'no connections'");
	tap_ok(row_fields(buf, 7, f, row, sizeof(row)) == 7 &&
	       !strcmp(f[1], "10.0.0.2:51000") && !strcmp(f[2], "native") &&
	       !strcmp(f[3], "established/desc/wait-done") &&
	       !strcmp(f[4], "4096") && !strcmp(f[5], "4") &&
	       !strcmp(f[6], "1.5s"),
	       "text: row of connection 7: id peer proto state bytes ops age");
	cpeer = header_col(buf, "PEER");
	cproto = header_col(buf, "PROTO");
	cstate = header_col(buf, "STATE");
	tap_ok(cpeer > 0 && cproto > cpeer && cstate > cproto &&
	       (long)strlen(row) > cstate &&
	       !strncmp(row + cpeer, "10.0.0.2:51000 ", 15) &&
	       !strncmp(row + cproto, "native ", 7) &&
	       !strncmp(row + cstate, "established/", 12),
	       "text: row columns under the header's PEER, PROTO, STATE");
	tap_ok(row_fields(buf, 12, f, row, sizeof(row)) == 7 &&
	       !strcmp(f[2], "rping") &&
	       !strcmp(f[3], "established/read/idle") &&
	       !strcmp(f[4], "1572864") && !strcmp(f[6], "59.0s"),
	       "text: row of connection 12");
	free(buf);

	view.stopping = true;
	view.n_conns = 0;
	view.n_listeners = 0;
	buf = render(&view, 0, &ret);
	if (!tap_ok(!strncmp(buf, "rdmad 1.2.3, pid 4242, up 1m40s, "
			     "stopping\n", 42),
		    "text: 'stopping' in the header"))
		tap_diag("%s", nth_line(buf, 0, line, sizeof(line)) ?
			 line : "(empty)");
	tap_ok(has_line(buf, "no connections") &&
	       header_col(buf, "ID") < 0 && !strstr(buf, "PEER"),
	       "text: 'no connections' and no table without connections");
	tap_ok(has_line(buf, "listening: nothing"),
	       "text: 'listening: nothing' without listeners");
	free(buf);

	stats_init(&st);
	stats_closed(&st, STATS_PROTO_NATIVE, STATS_RES_OK, 1);
	stats_rdma(&st, STATS_PROTO_NATIVE, STATS_OP_READ, 1, 1023, 0);
	stats_rdma(&st, STATS_PROTO_NATIVE, STATS_OP_WRITE, 1, 1024, 0);
	view.stopping = false;
	buf = render(&view, 0, &ret);
	tap_ok(!strstr(buf, "failures") && !strstr(buf, "rejects:") &&
	       !strstr(buf, "completion errors"),
	       "text: no failures/rejects/errors lines when all zero");
	tap_ok(has_line(buf, "connections: 0 active of 64; 0 accepted, "
			"0 rejected; sessions 1 ok, 0 failed") &&
	       has_line(buf, "moved: 1023 B read, 1.0 KiB written"),
	       "text: ok sessions are no failure; bytes below 1 KiB");
	tap_ok(nth_line(buf, 1, line, sizeof(line)) &&
	       !strncmp(line, "listening:", 10) &&
	       nth_line(buf, 2, line, sizeof(line)) &&
	       !strncmp(line, "connections:", 12) &&
	       nth_line(buf, 3, line, sizeof(line)) &&
	       !strncmp(line, "moved:", 6) &&
	       nth_line(buf, 4, line, sizeof(line)) &&
	       !strcmp(line, "no connections") &&
	       !nth_line(buf, 5, line, sizeof(line)),
	       "text: header, listening, connections, moved, no connections: "
	       "nothing else");
	free(buf);
}

/* The AGE column of a connection AGE_MS old. */
static int age_is(uint64_t age_ms, const char *want, int exact)
{
	char f[8][64], row[512];
	struct stats_conn c = {
		.id = 99, .peer = "192.0.2.1:1", .proto = STATS_PROTO_NATIVE,
		.state = "established/idle/idle", .age_ms = age_ms,
	};
	int ret, ok;
	char *buf;

	view.conns = &c;
	view.n_conns = 1;
	buf = render(&view, 0, &ret);
	ok = row_fields(buf, 99, f, row, sizeof(row)) == 7 &&
	     (exact ? !strcmp(f[6], want) : strcmp(f[6], want) != 0);
	if (!ok)
		tap_diag("age %llu ms: '%s', %s '%s'",
			 (unsigned long long)age_ms, f[6],
			 exact ? "want" : "must not be", want);
	free(buf);
	view.n_conns = 0;
	return ok;
}

/* The header of a daemon up SECONDS. */
static int uptime_is(double seconds, const char *want)
{
	char line[256], expect[256];
	int ret;
	char *buf;

	view.start_time = 1700000000.0;
	view.now = view.start_time + seconds;
	buf = render(&view, 0, &ret);
	snprintf(expect, sizeof(expect), "rdmad 1.2.3, pid 4242, up %s",
		 want);
	line_with(buf, "rdmad ", line, sizeof(line));
	free(buf);
	if (strcmp(line, expect)) {
		tap_diag("up %.3f: '%s', want '%s'", seconds, line, expect);
		return 0;
	}
	return 1;
}

static void test_ages(void)
{
	make_view();
	view.n_conns = 0;
	tap_ok(age_is(0, "0.0s", 1) && age_is(1500, "1.5s", 1) &&
	       age_is(59000, "59.0s", 1),
	       "age: under a minute in seconds with a decimal");
	tap_ok(age_is(60000, "1m00s", 1) && age_is(61999, "1m01s", 1) &&
	       age_is(3599000, "59m59s", 1),
	       "age: minutes and seconds");
	tap_ok(age_is(3600000, "1h00m00s", 1) &&
	       age_is(86399000, "23h59m59s", 1),
	       "age: hours, minutes, seconds");
	tap_ok(age_is(86400000, "1d00h00m", 1) &&
	       age_is(90061000, "1d01h01m", 1) &&
	       age_is(400ull * 86400000, "400d00h00m", 1),
	       "age: days, hours, minutes");
	tap_ok(age_is(59960, "60.0s", 0),
	       "age: 59.96s is not shown as '60.0s' (the minute format "
	       "never shows 60 seconds)");
	tap_ok(uptime_is(0, "0.0s") && uptime_is(42, "42.0s") &&
	       uptime_is(100.5, "1m40s") &&
	       uptime_is(2 * 86400 + 3 * 3600 + 4 * 60 + 5, "2d03h04m"),
	       "uptime in the header formatted as ages");
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
	tap_ok(status_render_json(f, &view) == -EIO,
	       "write error: json returns -EIO");
	clearerr(f);
	tap_ok(status_render_text(f, &view) == -EIO,
	       "write error: text returns -EIO");
	fclose(f);
}

/* ---- the mesh peers (GET /peers) ------------------------------------ */

static char *render_mesh(const struct mesh_view *m, int json, int *ret)
{
	struct capture c;
	FILE *f = capture_open(&c);

	*ret = mesh_render(f, m, json ? MESH_FORMAT_JSON :
				MESH_FORMAT_TEXT, NULL);
	return capture_close(&c);
}

/* The fixture, peer C's last round a mismatch at 40, an error to clean. */
static void make_mesh(void)
{
	mesh_fixture_make();
	mesh_stats_round(&mst[4], 1, 1100, MESH_RES_MISMATCH, 0, 40, 2);
	mpeers[1].path[1].error = "bad\nline";
}

static void test_mesh_json(void)
{
	int root, a, p, ret;
	char *buf;

	make_mesh();
	buf = render_mesh(&mview, 1, &ret);
	root = jparse(buf);
	if (!tap_ok(ret == 0 && root >= 0 && jp.node[root].type == J_OBJ,
		    "mesh json: parses (%s)", jp.err))
		tap_diag("%s", buf);
	tap_ok(jp.node[jget(root, "mesh")].type == J_TRUE &&
	       jstr_is(jget(root, "targets"), "/etc/rdmad/peers") &&
	       jnum_is(jget(root, "interval_seconds"), 1) &&
	       jnum_is(jget(root, "window_rounds"), 128) &&
	       jcount(jget(root, "sizes"), J_ARR) == 3 &&
	       jnum_is(jat(jget(root, "sizes"), 2), 65536) &&
	       jnum_is(jget(root, "bandwidth_samples"), 2) &&
	       jnum_is(jget(root, "bandwidth_seconds"), 2) &&
	       jnum_is(jget(root, "reloads"), 4),
	       "mesh json: the agent: targets, interval, the window's rounds, "
	       "sizes, totals");
	a = jget(root, "peers");
	tap_ok(jcount(a, J_ARR) == 3 &&
	       jstr_is(jget(jat(a, 0), "peer"), "10.0.0.2:7471") &&
	       jp.node[jget(jat(a, 0), "up")].type == J_TRUE &&
	       jp.node[jget(jat(a, 1), "up")].type == J_FALSE &&
	       jstr_is(jget(jat(a, 2), "peer"), "q\"\\:1") &&
	       jcount(jget(jat(a, 0), "paths"), J_ARR) == 2 &&
	       jcount(jget(jat(a, 2), "paths"), J_ARR) == 1,
	       "mesh json: peers, up when a path is, their paths");
	p = jat(jget(jat(a, 0), "paths"), 0);
	tap_ok(jnum_is(jget(p, "path"), 0) && jstr_is(jget(p, "state"), "wait") &&
	       jstr_is(jget(p, "reach"), "up") && jstr_is(jget(p, "last"), "ok") &&
	       jnum_is(jget(p, "last_size"), 64) &&
	       jp.node[jget(p, "bad_offset")].type == J_NULL &&
	       jnum_is(jget(p, "p50_seconds"), 0.00003) &&
	       jnum_is(jget(p, "p99_seconds"), 0.002) &&
	       jnum_is(jget(p, "window"), 4) &&
	       jnum_is(jget(p, "window_failed"), 1) &&
	       jnum_is(jget(p, "window_pressured"), 0) &&
	       jnum_is(jget(p, "loss"), 0.25) &&
	       jnum_is(jget(p, "bandwidth_bytes_per_second"), 1e9) &&
	       jnum_is(jget(p, "rounds_ok"), 3) &&
	       jnum_is(jget(p, "rounds_failed"), 1) &&
	       jnum_is(jget(p, "connects"), 1) &&
	       jnum_is(jget(p, "downs"), 0) && jstr_is(jget(p, "error"), ""),
	       "mesh json: a path: state, reach, last, window p50/p99/loss, "
	       "bandwidth, rounds");
	p = jat(jget(jat(a, 1), "paths"), 0);
	tap_ok(jstr_is(jget(p, "last"), "unreachable") &&
	       jp.node[jget(p, "p50_seconds")].type == J_NULL &&
	       jp.node[jget(p, "p99_seconds")].type == J_NULL &&
	       jp.node[jget(p, "bandwidth_bytes_per_second")].type == J_NULL &&
	       jnum_is(jget(p, "loss"), 1) &&
	       jstr_is(jget(p, "error"), "unreachable") &&
	       jstr_is(jget(jat(jget(jat(a, 1), "paths"), 1), "error"),
		       "bad\nline"),
	       "mesh json: nothing measured is null; errors as they are");
	p = jat(jget(jat(a, 2), "paths"), 0);
	tap_ok(jstr_is(jget(p, "last"), "mismatch") &&
	       jnum_is(jget(p, "bad_offset"), 40) &&
	       jnum_is(jget(p, "last_size"), 1100),
	       "mesh json: a mismatch with its offset and size");
	free(buf);
	buf = render_mesh(NULL, 1, &ret);
	root = jparse(buf);
	tap_ok(ret == 0 && root >= 0 &&
	       jp.node[jget(root, "mesh")].type == J_FALSE &&
	       jcount(jget(root, "peers"), J_ARR) == 0,
	       "mesh json: off without an agent");
	free(buf);
	mview.on = false;
	buf = render_mesh(&mview, 1, &ret);
	tap_ok(!strcmp(buf, "{\"mesh\":false,\"peers\":[]}\n"),
	       "mesh json: off with no targets");
	free(buf);
}

/* LINE of BUF, its runs of spaces as one, none at the end, is WANT. */
static int row_is(const char *buf, const char *want)
{
	const char *p = buf;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p), i, o = 0;
		char line[512];

		for (i = 0; i < len && o + 1 < sizeof(line); i++)
			if (p[i] != ' ' || (o && line[o - 1] != ' '))
				line[o++] = p[i];
		while (o && line[o - 1] == ' ')
			o--;
		line[o] = '\0';
		if (!strcmp(line, want))
			return 1;
		if (!nl)
			break;
		p = nl + 1;
	}
	tap_diag("no row '%s'", want);
	return 0;
}

/*
 * The demo's first view: peer C's path failed 10 rounds while its rdmad
 * was starting, then 127 or 128 good ones, every third under local
 * pressure (a loaded host): the loss is that of its last 128 rounds,
 * 1 of them, then none; the rounds since start stay in rounds_failed.
 */
static void test_mesh_recent(void)
{
	unsigned int i, k;
	int root, p, ret;
	char *buf;

	for (k = MESH_WINDOW - 1; k <= MESH_WINDOW; k++) {
		make_mesh();
		mesh_stats_init(&mst[4]);
		for (i = 0; i < 10; i++)
			mesh_stats_round(&mst[4], CONFIG_MESH_SIZES_MAX, 0,
					 MESH_RES_REFUSED, 0, 0, i);
		for (i = 0; i < k; i++)
			(i % 3 ? mesh_stats_round : mesh_stats_round_pressured)
				(&mst[4], 0, 64, MESH_RES_OK, 40000, 0,
				 100 + i);
		buf = render_mesh(&mview, 1, &ret);
		root = jparse(buf);
		p = jat(jget(jat(jget(root, "peers"), 2), "paths"), 0);
		tap_ok(ret == 0 && root >= 0 &&
		       jnum_is(jget(p, "window"), 128) &&
		       jnum_is(jget(p, "window_failed"), k < 128 ? 1 : 0) &&
		       jnum_is(jget(p, "window_pressured"), 43) &&
		       jnum_is(jget(p, "loss"), k < 128 ? 0.0078 : 0) &&
		       jnum_is(jget(p, "p99_seconds"), 0.00004) &&
		       jnum_is(jget(p, "rounds_failed"), 10) &&
		       jnum_is(jget(p, "rounds_ok"), k),
		       "mesh json, recent: 10 failed at start, %u good after "
		       "(a third pressured): loss %s of the last 128 rounds, "
		       "rounds_failed since start", k, k < 128 ? "1" : "none");
		free(buf);
		buf = render_mesh(&mview, 0, &ret);
		tap_ok(ret == 0 &&
		       row_is(buf, k < 128 ?
			      "q\"\\:1 0 round up ok 64 0.040 0.040 0.8% - 127 10" :
			      "q\"\\:1 0 round up ok 64 0.040 0.040 0.0% - 128 10"),
		       "mesh text, recent: LOSS %s", k < 128 ? "0.8%" : "0.0%");
		free(buf);
	}
}

/* With an inventory: the host's place, each peer's and why, in both. */
static void test_mesh_place(void)
{
	int root, a, ret;
	char *buf;

	make_mesh();
	mesh_fixture_place();
	buf = render_mesh(&mview, 1, &ret);
	root = jparse(buf);
	a = jget(root, "peers");
	tap_ok(ret == 0 && root >= 0 &&
	       jstr_is(jget(jget(root, "place"), "host"), "h1") &&
	       jstr_is(jget(jget(root, "place"), "tor"), "t1") &&
	       jp.node[jget(jget(root, "place"), "pod")].type == J_NULL &&
	       jnum_is(jget(root, "epoch_switches"), 7) &&
	       jnum_is(jget(root, "next_switch_seconds"), 42) &&
	       jstr_is(jget(jat(a, 0), "why"), "same ToR") &&
	       jget(jat(a, 0), "slot") < 0 &&
	       jstr_is(jget(jat(a, 1), "tor"), "t3") &&
	       jnum_is(jget(jat(a, 1), "rail"), 1) &&
	       jstr_is(jget(jat(a, 0), "source"), "10.0.0.1") &&
	       jstr_is(jget(jat(a, 1), "source"), "10.0.1.1") &&
	       jp.node[jget(jat(a, 2), "source")].type == J_NULL &&
	       jnum_is(jget(jat(a, 1), "slot"), 2) &&
	       jnum_is(jget(jat(a, 1), "epoch"), 5999999),
	       "mesh json, inventory: the place, each peer's and why, a "
	       "cross-ToR peer's slot and epoch, its rail and source");
	free(buf);
	buf = render_mesh(&mview, 0, &ret);
	tap_ok(ret == 0 && has_line(buf, "place: host h1, ToR t1; cross-ToR "
				    "slots moved on 7 times, the next in 42 s") &&
	       row_is(buf, "PEER HOST TOR RAIL SOURCE WHY") &&
	       row_is(buf, "10.0.0.2:7471 h2 t1 0 10.0.0.1 same ToR") &&
	       row_is(buf, "[fe80::2]:7471 h9 t3 1 10.0.1.1 cross-ToR, slot 2, "
		      "epoch 5999999") &&
	       row_is(buf, "q\"\\:1 h3 t2 0 - same ToR") && !strstr(buf, " \n"),
	       "mesh text, inventory: the place line, a row a peer with its "
	       "rail, source (- when rdma_cm picks) and why");
	free(buf);
	mview.topology = false;
	buf = render_mesh(&mview, 1, &ret);
	root = jparse(buf);
	tap_ok(ret == 0 && root >= 0 &&
	       jp.node[jget(root, "place")].type == J_NULL &&
	       jget(jat(jget(root, "peers"), 0), "why") < 0 &&
	       jget(jat(jget(root, "peers"), 1), "rail") < 0,
	       "mesh json, no topology: place null, no why, no rail");
	free(buf);
	mview.rail_keys = true;
	buf = render_mesh(&mview, 1, &ret);
	root = jparse(buf);
	a = jget(root, "peers");
	tap_ok(ret == 0 && root >= 0 &&
	       jp.node[jget(root, "place")].type == J_NULL &&
	       jnum_is(jget(jat(a, 0), "rail"), 0) &&
	       jnum_is(jget(jat(a, 1), "rail"), 1) &&
	       jstr_is(jget(jat(a, 1), "source"), "10.0.1.1") &&
	       jget(jat(a, 1), "why") < 0,
	       "mesh json, [mesh] rails without an inventory: each peer's "
	       "rail and source");
	free(buf);
	mview.rail_keys = false;
}

static void test_mesh_text(void)
{
	static const char *const rows[] = {
		"10.0.0.2:7471 0 wait up ok 64 0.030 2.000 25.0% "
		"8.00 Gbit/s 3 1",
		"10.0.0.2:7471 1 backoff down timeout 65536 1000.000 1000.000 "
		"66.7% 24.00 Gbit/s 1 2 timed out",
		"[fe80::2]:7471 0 backoff down unreachable 64 - - 100.0% - 0 1 "
		"unreachable",
		"[fe80::2]:7471 1 connecting unknown refused 64 - - 100.0% - 0 "
		"1 bad?line",
		"q\"\\:1 0 round up mismatch@40 1100 0.100 0.100 50.0% - 1 1",
	};
	char line[512];
	long col;
	unsigned int i;
	int ret, ok = 1;
	char *buf;

	make_mesh();
	buf = render_mesh(&mview, 0, &ret);
	tap_ok(ret == 0 && !strncmp(buf, "mesh: 3 peers, 2 up; every 1.0s; "
				    "sizes 64 1100 65536; targets "
				    "/etc/rdmad/peers\n", 75),
	       "mesh text: the agent on the first line");
	tap_ok(has_line(buf, "bandwidth samples 2 (2.0s of link time); "
			"targets reloaded 4 times"),
	       "mesh text: samples and reloads");
	tap_ok(has_line(buf, "P50MS, P99MS and LOSS over each path's last 128 "
			"rounds (a round under local pressure counts for LOSS "
			"only); OK and FAILED since start"),
	       "mesh text: the window of p50, p99 and loss named");
	tap_ok(row_is(buf, "PEER PATH STATE REACH LAST SIZE P50MS P99MS LOSS "
		      "BANDWIDTH OK FAILED ERROR"), "mesh text: the header");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		ok &= row_is(buf, rows[i]);
	tap_ok(ok, "mesh text: a row per path: state, reach, last (mismatch "
	       "offset), size, p50/p99 ms, loss, bandwidth, rounds, error "
	       "on one line");
	/* every row's STATE starts under the header's (line 4) */
	col = nth_line(buf, 4, line, sizeof(line)) && strstr(line, "STATE") ?
	      (long)(strstr(line, "STATE") - line) : -1;
	for (i = 0; i < 5; i++)
		if (!nth_line(buf, 5 + (int)i, line, sizeof(line)) ||
		    col < 1 || (long)strlen(line) <= col ||
		    line[col - 1] != ' ' || line[col] == ' ') {
			tap_diag("row %u: %s", i, line);
			ok = 0;
		}
	tap_ok(ok && col > 20, "mesh text: columns line up under the header");
	tap_ok(!strstr(buf, " \n"), "mesh text: no line ends in spaces");
	free(buf);
	buf = render_mesh(NULL, 0, &ret);
	tap_ok(!strcmp(buf, "mesh off: no [mesh] targets in rdmad's "
		       "configuration\n"), "mesh text: off");
	free(buf);
	mview.n_peers = 0;
	mview.bw_samples = mview.reloads = 0;
	buf = render_mesh(&mview, 0, &ret);
	tap_ok(has_line(buf, "no peers") && !strstr(buf, "PEER") &&
	       !strstr(buf, "bandwidth samples"),
	       "mesh text: no peers, no table");
	free(buf);
}

int main(void)
{
	test_json_parser();
	test_json();
	test_text();
	test_ages();
	test_mesh_json();
	test_mesh_text();
	test_mesh_recent();
	test_mesh_place();
	test_write_error();
	return tap_done();
}
