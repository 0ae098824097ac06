/* SPDX-License-Identifier: BSD-2-Clause */
/* test-targets.c - target lists: rdma-probe --targets, [mesh] targets. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "targets.h"
#include "tap.h"

#define PORT 7471

static char errbuf[512], warnbuf[512], lastwarn[512];
static unsigned int nwarn;

/* Keeps the first warning and the last, counts them all. */
static void warn(void *arg, const char *msg)
{
	if (!nwarn++)
		snprintf(arg, sizeof(warnbuf), "%s", msg);
	snprintf(lastwarn, sizeof(lastwarn), "%s", msg);
}

/* Parse LEN bytes of TEXT as a whole file, at most MAX targets. */
static int read_len(const char *text, size_t len, unsigned int max,
		    struct target_list *tl)
{
	FILE *in;
	int ret;

	in = fmemopen((void *)text, len, "r");
	if (!in)
		exit(99);
	errbuf[0] = warnbuf[0] = lastwarn[0] = '\0';
	nwarn = 0;
	ret = targets_read(in, "list", PORT, max, tl, warn, warnbuf, errbuf,
			   sizeof(errbuf));
	fclose(in);
	return ret;
}

static int read_max(const char *text, unsigned int max,
		    struct target_list *tl)
{
	return read_len(text, strlen(text), max, tl);
}

static int read_text(const char *text, struct target_list *tl)
{
	return read_max(text, 1024, tl);
}

static int line_ok(const char *line, const char *host, uint16_t port,
		   bool port_set)
{
	struct target t;
	const char *why = NULL;

	return targets_parse_line(line, PORT, &t, &why) == 1 &&
	       !strcmp(t.host, host) && t.port == port &&
	       t.port_set == port_set;
}

static int line_bad(const char *line, const char *why_part)
{
	struct target t;
	const char *why = NULL;

	return targets_parse_line(line, PORT, &t, &why) == -EINVAL &&
	       why && strstr(why, why_part);
}

static void test_forms(void)
{
	struct target t;
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
	tap_ok(targets_parse_line("   # only a comment\n", PORT, &t,
					&why) == 0 &&
	       targets_parse_line("\n", PORT, &t, &why) == 0 &&
	       targets_parse_line("", PORT, &t, &why) == 0,
	       "comment and blank lines hold no target");
	targets_parse_line(" a:9 #x", PORT, &t, &why);
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
	struct target_list tl;
	char *big, *p;
	size_t i, len;
	int ret;

	ret = read_text("# mesh\n10.0.0.1\n\n10.0.0.2:7490 # two\n"
			"[fd00::3]:7491\n", &tl);
	tap_ok(ret == 0 && tl.n == 3 && tl.v[0].line == 2 &&
	       tl.v[1].line == 4 && tl.v[1].port == 7490 &&
	       !strcmp(tl.v[2].host, "fd00::3") && tl.v[2].line == 5,
	       "three targets in file order, with their lines");
	targets_free(&tl);

	ret = read_text("a\nb\nc:99999\nd\n", &tl);
	tap_ok(ret == -EINVAL && tl.n == 0 && !tl.v &&
	       strstr(errbuf, "list:3: 'c:99999': bad port"),
	       "bad port names FILE:LINE: %s", errbuf);

	ret = read_text("a\n:1\n", &tl);
	tap_ok(ret == -EINVAL && strstr(errbuf, "list:2: ':1': empty host"),
	       "empty host names FILE:LINE: %s", errbuf);

	ret = read_text("# nothing\n\n", &tl);
	tap_ok(ret == 0 && tl.n == 0 && !tl.v && !errbuf[0],
	       "a file without targets: an empty list (the caller decides)");

	ret = read_text("", &tl);
	tap_ok(ret == 0 && tl.n == 0, "an empty file: an empty list");

	ret = read_text("h\nH:7471\nh:7490\nh\n", &tl);
	tap_ok(ret == 0 && tl.n == 2 && tl.v[1].port == 7490 && nwarn == 2 &&
	       !strcmp(warnbuf, "list:2: 'H:7471': same target as line 1, "
		       "probed once"),
	       "repeated targets are dropped with a warning each: %s",
	       warnbuf);
	targets_free(&tl);

	ret = read_text("x\nlast-line-without-newline:9", &tl);
	tap_ok(ret == 0 && tl.n == 2 && tl.v[1].port == 9,
	       "last line without a newline");
	targets_free(&tl);

	ret = read_len("a\nb\0c\n", 6, 1024, &tl);
	tap_ok(ret == -EINVAL && tl.n == 0 &&
	       !strcmp(errbuf, "list:2: NUL byte in the line"),
	       "a NUL byte is refused: %s", errbuf);

	/* The caller's maximum (1024), then TARGETS_MAX, pass; one more
	 * does not.  The list grows past its first allocations. */
	len = (TARGETS_MAX + 1) * 16 + 1;
	big = malloc(len);
	if (!big)
		exit(99);
	big[0] = '\0';
	for (i = 0, p = big; i < 1024; i++)
		p += sprintf(p, "h%zu\n", i);
	ret = read_text(big, &tl);
	tap_ok(ret == 0 && tl.n == 1024 && !strcmp(tl.v[1023].host, "h1023") &&
	       tl.v[1023].line == 1024, "1024 targets");
	targets_free(&tl);
	p += sprintf(p, "one-more\n");
	ret = read_text(big, &tl);
	tap_ok(ret == -EINVAL && tl.n == 0 && !tl.v &&
	       !strcmp(errbuf, "list:1025: too many targets (at most 1024)"),
	       "target 1025 is refused: %s", errbuf);
	for (i = 1025; i < TARGETS_MAX; i++)
		p += sprintf(p, "h%zu\n", i);
	ret = read_max(big, 0, &tl);
	tap_ok(ret == 0 && tl.n == TARGETS_MAX &&
	       !strcmp(tl.v[TARGETS_MAX - 1].host, "h4095"),
	       "max 0: TARGETS_MAX (%u) targets", TARGETS_MAX);
	targets_free(&tl);
	p += sprintf(p, "last\n");
	ret = read_max(big, 100000, &tl);
	tap_ok(ret == -EINVAL &&
	       strstr(errbuf, ":4097: too many targets (at most 4096)"),
	       "a max above TARGETS_MAX is TARGETS_MAX: %s", errbuf);
	free(big);
}

/* One address in several spellings is one target: compared by value. */
static void test_spellings(void)
{
	static const char *const shorthand[] = {
		"10.2", "167772162", "0x0a.0.0.2", "010.0.0.2", "10.0.2:7471",
	};
	struct target_list tl;
	size_t i;
	int ret;

	tap_ok(line_ok("[FD00:0::2]:7471", "fd00::2", 7471, true) &&
	       line_ok("fd00:0:0:0:0:0:0:2", "fd00::2", PORT, false) &&
	       line_ok("10.0.0.2:9", "10.0.0.2", 9, true),
	       "a numeric address is kept in its canonical spelling");
	for (i = 0; i < sizeof(shorthand) / sizeof(shorthand[0]); i++)
		tap_ok(line_bad(shorthand[i], "an IPv4 shorthand"),
		       "'%s' (inet_aton's shorthand) is refused", shorthand[i]);
	tap_ok(line_ok("10.0.0.2.example", "10.0.0.2.example", PORT, false) &&
	       line_ok("0x0a", "0x0a", PORT, false) == 0,
	       "a name is a name; a bare hex number is a shorthand");
	/* The file: 7 lines, 2 addresses. */
	ret = read_text("10.0.0.2\n10.0.0.2:7471\nfd00::2\nfd00:0::2\n"
			"FD00::2\n[fd00:0:0:0:0:0:0:2]:7471\nfd00::0:2\n", &tl);
	tap_ok(ret == 0 && tl.n == 2 && nwarn == 5 &&
	       !strcmp(warnbuf, "list:2: '10.0.0.2:7471': same target as "
		       "line 1, probed once") &&
	       !strcmp(lastwarn, "list:7: 'fd00::0:2': same target as line 3, "
		       "probed once"),
	       "7 lines of 2 addresses in several spellings: 2 targets, 5 "
	       "warnings: %s", lastwarn);
	if (!ret)
		targets_free(&tl);
	ret = read_text("10.0.0.1\n10.1\n", &tl);
	tap_ok(ret == -EINVAL && strstr(errbuf, "list:2: '10.1': an IPv4 "
					"shorthand"),
	       "a shorthand in a file names FILE:LINE: %s", errbuf);
}

/* Repeats past TARGETS_WARN_FIRST: one line says how many more. */
static void test_warn_summary(void)
{
	static const unsigned int repeats[] = {
		1, TARGETS_WARN_FIRST - 1, TARGETS_WARN_FIRST,
		TARGETS_WARN_FIRST + 1, 99999,
	};
	struct target_list tl;
	char want[128], *text, *p;
	unsigned int k, i, n;
	int ret;

	text = malloc(100000 * 16);
	if (!text)
		exit(99);
	for (k = 0; k < sizeof(repeats) / sizeof(repeats[0]); k++) {
		n = repeats[k];
		p = text;
		for (i = 0; i <= n; i++)
			p += sprintf(p, "10.0.0.1\n");
		ret = read_text(text, &tl);
		if (n <= TARGETS_WARN_FIRST)
			snprintf(want, sizeof(want), "list:%u: '10.0.0.1': same "
				 "target as line 1, probed once", n + 1);
		else
			snprintf(want, sizeof(want), "list: ... and %u more like "
				 "it (%u repeated targets in all, each probed "
				 "once)", n - TARGETS_WARN_FIRST, n);
		if (!tap_ok(ret == 0 && tl.n == 1 &&
			    nwarn == (n <= TARGETS_WARN_FIRST ? n :
				      TARGETS_WARN_FIRST + 1) &&
			    !strcmp(lastwarn, want),
			    "%u repeats: %u warnings, the last '%s'", n, nwarn,
			    lastwarn))
			tap_diag("want '%s'", want);
		if (!ret)
			targets_free(&tl);
	}
	free(text);
}

/* What targets_scan handed over: each line's target and its rest. */
struct scan_seen {
	char got[512];
	unsigned int stop_at;	/* FN fails on this line (0: never) */
};

static int scan_line(void *arg, struct target *t, char *rest)
{
	struct scan_seen *s = arg;
	size_t n = strlen(s->got);

	snprintf(s->got + n, sizeof(s->got) - n, "%u:%s:%u:[%s] ", t->line,
		 t->host, t->port, rest);
	if (t->line == s->stop_at) {
		snprintf(errbuf, sizeof(errbuf), "stop");
		return -E2BIG;
	}
	return 0;
}

/* The one reader both the probe's list and the mesh's inventory read
 * through: the address, the words after it, blanks and comments gone. */
static void test_scan(void)
{
	static const char text[] = "# head\n  10.0.0.1:7 host=a  tor=b \t# c\n"
				   "\n[fd00::2]\n\tb.example\tx\n";
	struct scan_seen s = { "", 0 };
	FILE *in;
	int ret;

	in = fmemopen((void *)text, strlen(text), "r");
	ret = targets_scan(in, "inv", PORT, scan_line, &s, errbuf,
			   sizeof(errbuf));
	fclose(in);
	tap_ok(ret == 0 && !strcmp(s.got, "2:10.0.0.1:7:[host=a  tor=b] "
				   "4:fd00::2:7471:[] 5:b.example:7471:[x] "),
	       "targets_scan: each address and the words after it (%s)",
	       s.got);
	s.got[0] = '\0';
	s.stop_at = 4;
	in = fmemopen((void *)text, strlen(text), "r");
	ret = targets_scan(in, "inv", PORT, scan_line, &s, errbuf,
			   sizeof(errbuf));
	fclose(in);
	tap_ok(ret == -E2BIG && !strcmp(errbuf, "stop") &&
	       !strcmp(s.got, "2:10.0.0.1:7:[host=a  tor=b] 4:fd00::2:7471:[] "),
	       "targets_scan: the line's refusal ends the read (%d, %s)", ret,
	       s.got);
}

int main(void)
{
	tap_plan(36 + 9 + 5 + 2);
	test_scan();
	test_forms();
	test_bad_lines();
	test_files();
	test_spellings();
	test_warn_summary();
	return tap_done();
}
