/* SPDX-License-Identifier: BSD-2-Clause */
/* test-probe-targets.c - rdma-probe --targets FILE parsing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_targets.h"
#include "tap.h"

#define PORT 7471

static char errbuf[4096];

/* Parse text as a whole file; stderr text lands in errbuf. */
static int read_text(const char *text, struct probe_targets *tl)
{
	FILE *in, *err;
	int ret;

	in = fmemopen((void *)text, strlen(text), "r");
	err = fmemopen(errbuf, sizeof(errbuf), "w");
	if (!in || !err)
		exit(99);
	memset(errbuf, 0, sizeof(errbuf));
	ret = probe_targets_read(in, "list", PORT, tl, err);
	fclose(in);
	fclose(err);
	errbuf[strcspn(errbuf, "\n")] = '\0';	/* the first message */
	return ret;
}

static int line_ok(const char *line, const char *host, uint16_t port,
		   bool port_set)
{
	struct probe_target t;
	const char *why = NULL;

	return probe_targets_parse_line(line, PORT, &t, &why) == 1 &&
	       !strcmp(t.host, host) && t.port == port &&
	       t.port_set == port_set;
}

static int line_bad(const char *line, const char *why_part)
{
	struct probe_target t;
	const char *why = NULL;

	return probe_targets_parse_line(line, PORT, &t, &why) == -EINVAL &&
	       why && strstr(why, why_part);
}

static void test_forms(void)
{
	struct probe_target t;
	const char *why = NULL;

	tap_ok(line_ok("10.0.0.1\n", "10.0.0.1", PORT, false),
	       "HOST: default port");
	tap_ok(line_ok("node-7.example:7490", "node-7.example", 7490, true),
	       "HOST:PORT");
	tap_ok(line_ok("[fe80::1%eth0]:7491", "fe80::1%eth0", 7491, true),
	       "[IPV6]:PORT");
	tap_ok(line_ok("[::1]", "::1", PORT, false), "[IPV6] without port");
	tap_ok(line_ok("fd00::7:1", "fd00::7:1", PORT, false),
	       "bare IPv6: no port");
	tap_ok(line_ok("  \thost:1  # rack 3\r\n", "host", 1, true),
	       "blanks and a comment around");
	tap_ok(line_ok("h:65535", "h", 65535, true), "port 65535");
	tap_ok(probe_targets_parse_line("   # only a comment\n", PORT, &t,
					&why) == 0 &&
	       probe_targets_parse_line("\n", PORT, &t, &why) == 0 &&
	       probe_targets_parse_line("", PORT, &t, &why) == 0,
	       "comment and blank lines hold no target");
	probe_targets_parse_line(" a:9 #x", PORT, &t, &why);
	tap_ok(!strcmp(t.text, "a:9"), "text as written: '%s'", t.text);
}

static void test_bad_lines(void)
{
	static const struct {
		const char *line, *why, *name;
	} cases[] = {
		{ "h:0", "bad port", "port 0" },
		{ "h:65536", "bad port", "port 65536" },
		{ "h:", "bad port", "empty port" },
		{ "h:7x", "bad port", "port with a letter" },
		{ "h:+7", "bad port", "signed port" },
		{ "[::1]:99999", "bad port", "[IPV6] bad port" },
		{ ":7471", "empty host", "empty host" },
		{ "[]:7471", "empty host", "empty brackets" },
		{ "[::1:7471", "missing ']'", "no closing bracket" },
		{ "[::1]x", "after ']'", "text after ']'" },
		{ "[host]:1", "IPv6", "brackets around a name" },
		{ "host]:1", "without '['", "stray ']'" },
		{ "a b", "one target a line", "two words" },
	};
	char long_host[300];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tap_ok(line_bad(cases[i].line, cases[i].why), "%s: '%s'",
		       cases[i].name, cases[i].line);
	memset(long_host, 'x', 256);
	long_host[256] = '\0';
	tap_ok(line_bad(long_host, "too long"), "256-character host");
	long_host[255] = '\0';
	tap_ok(line_ok(long_host, long_host, PORT, false),
	       "255-character host");
}

static void test_files(void)
{
	struct probe_targets tl;
	char *big;
	size_t i, len;
	int ret;

	ret = read_text("# mesh\n10.0.0.1\n\n10.0.0.2:7490 # two\n"
			"[fd00::3]:7491\n", &tl);
	tap_ok(ret == 0 && tl.n == 3 && tl.v[0].line == 2 &&
	       tl.v[1].line == 4 && tl.v[1].port == 7490 &&
	       !strcmp(tl.v[2].host, "fd00::3") && tl.v[2].line == 5,
	       "three targets in file order, with their lines");
	probe_targets_free(&tl);

	ret = read_text("a\nb\nc:99999\nd\n", &tl);
	tap_ok(ret == -EINVAL && tl.n == 0 && !tl.v &&
	       strstr(errbuf, "list:3: 'c:99999': bad port"),
	       "bad port names FILE:LINE: %s", errbuf);

	ret = read_text("a\n:1\n", &tl);
	tap_ok(ret == -EINVAL && strstr(errbuf, "list:2: ':1': empty host"),
	       "empty host names FILE:LINE: %s", errbuf);

	ret = read_text("# nothing\n\n", &tl);
	tap_ok(ret == -EINVAL && strstr(errbuf, "list: no targets"),
	       "a file without targets is an error");

	ret = read_text("", &tl);
	tap_ok(ret == -EINVAL && strstr(errbuf, "no targets"),
	       "an empty file is an error");

	ret = read_text("h\nH:7471\nh:7490\n", &tl);
	tap_ok(ret == 0 && tl.n == 2 && tl.v[1].port == 7490 &&
	       strstr(errbuf, "list:2: 'H:7471': same target as line 1"),
	       "a repeated target is dropped with a warning: %s", errbuf);
	probe_targets_free(&tl);

	ret = read_text("x\nlast-line-without-newline:9", &tl);
	tap_ok(ret == 0 && tl.n == 2 && tl.v[1].port == 9,
	       "last line without a newline");
	probe_targets_free(&tl);

	/* PROBE_TARGETS_MAX targets pass, one more does not. */
	len = (PROBE_TARGETS_MAX + 1) * 16 + 1;
	big = malloc(len);
	if (!big)
		exit(99);
	big[0] = '\0';
	for (i = 0; i < PROBE_TARGETS_MAX; i++)
		snprintf(big + strlen(big), len - strlen(big), "h%zu\n", i);
	ret = read_text(big, &tl);
	tap_ok(ret == 0 && tl.n == PROBE_TARGETS_MAX, "%u targets",
	       PROBE_TARGETS_MAX);
	probe_targets_free(&tl);
	snprintf(big + strlen(big), len - strlen(big), "one-more\n");
	ret = read_text(big, &tl);
	tap_ok(ret == -EINVAL && tl.n == 0 &&
	       strstr(errbuf, "list:1025: too many targets (at most 1024)"),
	       "target 1025 is refused: %s", errbuf);
	free(big);
}

int main(void)
{
	tap_plan(33);
	test_forms();
	test_bad_lines();
	test_files();
	return tap_done();
}
