/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-blackbox-ask-parse - what GET /probe asks for: the target (a
 * numeric address or a name, its port at 1 and 65535 and past them), the
 * module, debug=, the parameters once each, and Prometheus' scrape
 * timeout header bounding the probe's timeout at its boundaries (the
 * margin, the module's timeout, 1 ms).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include "blackbox/blackbox_ask_parse.h"
#include "tap.h"

static struct rdmad_config cfg;
static char err[200];

/* Parse "k=v" pairs (NULL-ended) with header SCRAPE into *A. */
static int ask(struct blackbox_ask *a, const char *scrape, ...)
{
	struct blackbox_param p[8];
	unsigned int n = 0;
	const char *k;
	va_list ap;

	va_start(ap, scrape);
	while (n < 8 && (k = va_arg(ap, const char *))) {
		p[n].key = k;
		p[n].value = va_arg(ap, const char *);
		n++;
	}
	va_end(ap);
	err[0] = '\0';
	return blackbox_ask_parse(a, &cfg, p, n, scrape, err, sizeof(err));
}

static int target_is(const char *s, const char *host, unsigned int port,
		     bool numeric)
{
	struct blackbox_ask a;

	memset(&a, 0, sizeof(a));
	return !blackbox_ask_parse_target(&a, s) && !strcmp(a.host, host) &&
	       a.port == port && a.numeric == numeric;
}

static int target_bad(const char *s)
{
	struct blackbox_ask a;

	return blackbox_ask_parse_target(&a, s) == -EINVAL;
}

static int scrape_is(const char *s, unsigned int want)
{
	unsigned int ms = 12345;

	return !blackbox_ask_parse_scrape(s, &ms) && ms == want;
}

static int scrape_bad(const char *s)
{
	unsigned int ms = 12345;

	return blackbox_ask_parse_scrape(s, &ms) == -EINVAL && ms == 12345;
}

int main(void)
{
	static const char ini[] = "[module.small]\nop = read\nsize = 64\n"
				  "iterations = 3\ntimeout = 5s\n";
	char name[300], label[80];
	struct blackbox_ask a;

	tap_plan(36);
	config_defaults(&cfg);
	if (config_load_string(&cfg, ini, "t.ini", err, sizeof(err)))
		tap_diag("config: %s", err);

	/* Targets. */
	tap_ok(target_is("10.0.0.2:7471", "10.0.0.2", 7471, true) &&
	       target_is("10.0.0.2", "10.0.0.2", 7471, true) &&
	       target_is("[fd00::2]:9", "[fd00::2]", 9, true),
	       "numeric targets, the port 7471 if left out");
	tap_ok(target_is("rdmad-srv.test:7494", "rdmad-srv.test", 7494,
			 false) &&
	       target_is("localhost", "localhost", 7471, false) &&
	       target_is("host_1.rack-2.example.:1", "host_1.rack-2.example.",
			 1, false),
	       "names, with and without a port, a trailing dot");
	tap_ok(target_is("h:65535", "h", 65535, false) &&
	       target_is("10.0.0.2:1", "10.0.0.2", 1, true),
	       "port 1 and 65535");
	tap_ok(target_bad("h:0") && target_bad("h:65536") &&
	       target_bad("10.0.0.2:65536") && target_bad("h:") &&
	       target_bad("h:x"), "port 0, 65536, empty, not a number");
	tap_ok(target_bad("10.2") && target_bad("10.0.0.256:7471") &&
	       target_bad("167772162") && target_bad("0x0a.0.0.2") &&
	       target_is("10.0.0.x", "10.0.0.x", 7471, false),
	       "a malformed numeric address is no name (a last label with "
	       "a letter is one)");
	tap_ok(target_bad("") && target_bad("a..b") && target_bad(".a") &&
	       target_bad("a b") && target_bad("a/b:1") &&
	       target_bad("[fd00::2") && target_bad("fd00::2") &&
	       target_bad("[host]:1"), "malformed names");
	memset(label, 'a', 63);
	label[63] = '\0';
	snprintf(name, sizeof(name), "%.63s.b", label);
	tap_ok(target_is(name, name, 7471, false), "a label of 63 bytes");
	snprintf(name, sizeof(name), "a%.63s.b", label);
	tap_ok(target_bad(name), "a label of 64 bytes");
	/* 253 bytes: 63 + 1 + 63 + 1 + 63 + 1 + 61. */
	snprintf(name, sizeof(name), "%.63s.%.63s.%.63s.%.61s", label, label, label,
		 label);
	tap_ok(strlen(name) == 253 && target_is(name, name, 7471, false),
	       "a name of 253 bytes");
	snprintf(name, sizeof(name), "%.63s.%.63s.%.63s.%.62s", label, label, label,
		 label);
	tap_ok(strlen(name) == 254 && target_bad(name), "a name of 254 bytes");

	/* The query. */
	tap_ok(!ask(&a, NULL, "target", "10.0.0.2:7471", NULL) &&
	       !strcmp(a.m.name, "default") && a.timeout_ms == 5000 &&
	       !a.debug && !a.scrape_ms && a.numeric,
	       "target alone: the default module, its timeout, no debug");
	tap_ok(!ask(&a, NULL, "target", "h.example", "module", "small",
		    "debug", "true", NULL) &&
	       !strcmp(a.m.name, "small") && a.m.size == 64 && a.debug &&
	       !a.numeric && !strcmp(a.target, "h.example"),
	       "a name, module=small (a copy), debug=true");
	tap_ok(!ask(&a, NULL, "debug", "false", "target", "h", NULL) &&
	       !a.debug, "debug=false");
	tap_ok(ask(&a, NULL, "target", "h", "debug", "yes", NULL) == -EINVAL &&
	       strstr(err, "debug: want true or false"), "debug=yes: refused");
	tap_ok(ask(&a, NULL, "module", "small", NULL) == -EINVAL &&
	       strstr(err, "target: want HOST:PORT"), "no target: refused");
	tap_ok(ask(&a, NULL, "target", "10.2:7471", NULL) == -EINVAL &&
	       strstr(err, "target: want HOST:PORT"), "a bad target: refused");
	tap_ok(ask(&a, NULL, "target", "h", "module", "nope", NULL) ==
	       -EINVAL && strstr(err, "unknown module 'nope'"),
	       "an unknown module: refused");
	tap_ok(ask(&a, NULL, "target", "h", "target", "g", NULL) == -EINVAL &&
	       strstr(err, "once each") &&
	       ask(&a, NULL, "target", "h", "hostname", "g", NULL) ==
	       -EINVAL, "a parameter twice, an unknown one: refused");

	/* The header: seconds, whole ms. */
	tap_ok(scrape_is("10", 10000) && scrape_is("9.5", 9500) &&
	       scrape_is("0.25", 250) && scrape_is(" 1.0001\t", 1000) &&
	       scrape_is("0.001", 1), "seconds to ms (OWS, decimals past "
	       "the third)");
	tap_ok(scrape_is("4294967", 4294967000u) &&
	       scrape_is("4294968", UINT_MAX) &&
	       scrape_is("99999999999999999999", UINT_MAX),
	       "large values: capped");
	tap_ok(scrape_bad("0") && scrape_bad("0.0009") && scrape_bad("") &&
	       scrape_bad("-1") && scrape_bad("1e3") && scrape_bad(".5") &&
	       scrape_bad("5.") && scrape_bad("5s") && scrape_bad("inf") &&
	       scrape_bad("nan") && scrape_bad("1 2"),
	       "0, below 1 ms, signs, exponents, units: refused");

	/* The budget: module 5000 ms, margin 500 ms. */
	tap_ok(blackbox_ask_parse_budget(5000, 0) == 5000, "no header: the "
	       "module's timeout");
	tap_ok(blackbox_ask_parse_budget(5000, 5499) == 4999 &&
	       blackbox_ask_parse_budget(5000, 5500) == 5000 &&
	       blackbox_ask_parse_budget(5000, 5501) == 5000 &&
	       blackbox_ask_parse_budget(5000, UINT_MAX) == 5000,
	       "the scrape's less 0.5 s, never above the module's");
	tap_ok(blackbox_ask_parse_budget(5000, 1001) == 501 &&
	       blackbox_ask_parse_budget(5000, 1000) == 500 &&
	       blackbox_ask_parse_budget(5000, 999) == 499 &&
	       blackbox_ask_parse_budget(5000, 2) == 1 &&
	       blackbox_ask_parse_budget(5000, 1) == 1,
	       "1 s or less: half of it, at least 1 ms");
	tap_ok(blackbox_ask_parse_budget(100, 10000) == 100 &&
	       blackbox_ask_parse_budget(1, 1) == 1,
	       "a short module keeps its own");
	tap_ok(!ask(&a, "4.5", "target", "h", "module", "small", NULL) &&
	       a.scrape_ms == 4500 && a.timeout_ms == 4000,
	       "the header bounds the probe: 4.5 s -> 4 s (module 5 s)");
	tap_ok(!ask(&a, "5.5", "target", "h", "module", "small", NULL) &&
	       a.timeout_ms == 5000 &&
	       !ask(&a, "5.499", "target", "h", "module", "small", NULL) &&
	       a.timeout_ms == 4999 &&
	       !ask(&a, "60", "target", "h", "module", "small", NULL) &&
	       a.timeout_ms == 5000, "at the module's timeout, and above");
	tap_ok(ask(&a, "0", "target", "h", NULL) == -EINVAL &&
	       strstr(err, BLACKBOX_SCRAPE_HEADER ": want seconds") &&
	       ask(&a, "ten", "target", "h", NULL) == -EINVAL,
	       "a bad header: refused, named");

	/* The rest of the boundaries of the name's port and the header's
	 * value through the whole parse. */
	tap_ok(!ask(&a, "0.001", "target", "h:65535", NULL) &&
	       a.timeout_ms == 1 && a.port == 65535,
	       "1 ms header, port 65535");
	tap_ok(ask(&a, NULL, "target", "h:65536", NULL) == -EINVAL,
	       "port 65536 refused");
	tap_ok(!ask(&a, NULL, "target", "[fd00::2]:7471", NULL) &&
	       a.numeric && a.addr.addr.ss_family == AF_INET6,
	       "an IPv6 target");
	tap_ok(!ask(&a, NULL, "target", "10.0.0.2:9", NULL) && a.port == 9 &&
	       !strcmp(a.host, "10.0.0.2") && !strcmp(a.target, "10.0.0.2:9"),
	       "a numeric target's host, port and text");
	snprintf(name, sizeof(name), "%.63s.%.63s.%.63s.%.61s:65535", label, label,
		 label, label);
	tap_ok(!ask(&a, NULL, "target", name, NULL) &&
	       !strncmp(a.target, name, sizeof(a.target)) && a.port == 65535,
	       "the longest target fits");
	tap_ok(ask(&a, NULL, NULL) == -EINVAL, "no parameter at all");
	tap_ok(!ask(&a, "1", "target", "h", NULL) && a.timeout_ms == 500,
	       "a 1 s scrape: 0.5 s");
	tap_ok(!ask(&a, "1.001", "target", "h", NULL) && a.timeout_ms == 501,
	       "a 1.001 s scrape: 0.501 s");
	return tap_done();
}
