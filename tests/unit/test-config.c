/* SPDX-License-Identifier: BSD-2-Clause */
/* test-config.c - INI parsing, value parsers, validation. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/config.h"
#include "core/log.h"
#include "proto.h"
#include "tap.h"

static char err[512];

static int parse(struct rdmad_config *c, const char *text)
{
	config_defaults(c);
	err[0] = '\0';
	return config_load_string(c, text, "t.ini", err, sizeof(err));
}

/* Parsing TEXT fails with a message starting with PREFIX. */
static void bad(const char *text, const char *prefix, const char *what)
{
	struct rdmad_config c;
	int ret = parse(&c, text);

	if (!tap_ok(ret == -EINVAL && strncmp(err, prefix, strlen(prefix)) == 0,
		    "bad: %s", what))
		tap_diag("ret %d, message '%s', want prefix '%s'", ret, err,
			 prefix);
}

static void test_good(void)
{
	static const char good[] =
		"# comment\n"
		"[server]\n"
		"listen = 192.0.2.1:7000 [2001:db8::1]:7001\n"
		"listen = 10.0.0.1\n"
		"max_connections = 200\n"
		"listen_backlog = 32\n"
		"\n"
		"[limits]\n"
		"max_buffer_size = 4m\n"
		"max_iterations = 500\n"
		"[timeouts]\n"
		"accept = 2s\n"
		"idle = 1500ms\n"
		"session = 2m\n"
		"io = 3\n"
		"linger = 1s\n"
		"close = 1s\n"
		"liveness = 1500ms\n"
		"[log]\n"
		"level = debug\n";
	struct rdmad_config c;
	struct sockaddr_in6 *in6;
	struct sockaddr_in *in4;
	int ret;

	ret = parse(&c, good);
	if (!tap_ok(ret == 0, "good file parses"))
		tap_diag("%s", err);
	tap_ok(c.n_listen == 3, "three listen addresses (two lines)");
	in4 = (struct sockaddr_in *)&c.listen[0].addr;
	tap_ok(in4->sin_family == AF_INET && ntohs(in4->sin_port) == 7000 &&
	       strcmp(c.listen[0].text, "192.0.2.1:7000") == 0,
	       "IPv4 address and port");
	in6 = (struct sockaddr_in6 *)&c.listen[1].addr;
	tap_ok(in6->sin6_family == AF_INET6 && ntohs(in6->sin6_port) == 7001 &&
	       strcmp(c.listen[1].text, "[2001:db8::1]:7001") == 0,
	       "IPv6 address and port");
	in4 = (struct sockaddr_in *)&c.listen[2].addr;
	tap_ok(ntohs(in4->sin_port) == 7471, "default port 7471");
	tap_ok(c.max_connections == 200 && c.listen_backlog == 32,
	       "server limits");
	tap_ok(c.max_buffer_size == 4u << 20 && c.max_iterations == 500,
	       "size suffix and iterations");
	tap_ok(c.accept_timeout_ms == 2000 && c.idle_timeout_ms == 1500 &&
	       c.session_timeout_ms == 120000 && c.io_timeout_ms == 3000,
	       "durations");
	tap_ok(c.liveness_ms == 1500, "liveness interval");
	tap_ok(c.log_level == LOG_DEBUG, "log level");
	tap_ok(config_validate(&c, "t.ini", err, sizeof(err)) == 0,
	       "good file validates");

	ret = parse(&c, "");
	tap_ok(ret == 0 && c.n_listen == 1 && c.max_connections == 64 &&
	       c.max_buffer_size == 1u << 20 &&
	       c.liveness_ms == 5000 &&
	       config_validate(&c, "t.ini", err, sizeof(err)) == 0,
	       "empty file gives valid defaults (liveness 5 s)");
	ret = parse(&c, "[timeouts]\nliveness = 0\n");
	tap_ok(ret == 0 && c.liveness_ms == 0 &&
	       config_validate(&c, "t.ini", err, sizeof(err)) == 0,
	       "liveness = 0 turns the checks off");
}

static void test_bad(void)
{
	bad("[server]\nbogus = 1\n", "t.ini:2: unknown key 'bogus'",
	    "unknown key with file:line");
	bad("\n\n[nosuch]\nx = 1\n", "t.ini:4: unknown section [nosuch]",
	    "unknown section with file:line");
	bad("[server]\nmax_connections = 0\n", "t.ini:2: max_connections",
	    "max_connections 0");
	bad("[server]\nmax_connections = 12x\n", "t.ini:2: max_connections",
	    "max_connections not a number");
	bad("[server]\nmax_connections = -1\n", "t.ini:2:",
	    "negative number");
	bad("[server]\nmax_connections = 99999999999999999999999\n",
	    "t.ini:2:", "huge number");
	bad("[limits]\nmax_buffer_size = 2g\n", "t.ini:2: max_buffer_size",
	    "buffer over 1 GiB");
	bad("[limits]\nmax_buffer_size = 1q\n", "t.ini:2: max_buffer_size",
	    "bad size suffix");
	bad("[limits]\nmax_buffer_size = 5000000000k\n",
	    "t.ini:2: max_buffer_size", "size overflowing 32 bits");
	bad("[limits]\nmax_registered_bytes = 32k\n",
	    "t.ini:2: max_registered_bytes: 32k is out of range",
	    "registered bytes below 64k");
	bad("[limits]\nmax_registered_bytes = 2000g\n",
	    "t.ini:2: max_registered_bytes: 2000g is out of range",
	    "registered bytes above 1024g");
	bad("[limits]\nmax_registered_bytes = lots\n",
	    "t.ini:2: max_registered_bytes: 'lots' is not a size",
	    "registered bytes not a size");
	bad("[timeouts]\nidle = soon\n", "t.ini:2: idle", "bad duration");
	bad("[timeouts]\nidle = 1ms\n", "t.ini:2: idle", "duration too short");
	bad("[timeouts]\nliveness = 2h\n", "t.ini:2: liveness",
	    "liveness over an hour");
	bad("[log]\nlevel = loud\n", "t.ini:2: level", "bad log level");
	bad("[server]\nlisten = 10.0.0.300\n", "t.ini:2: listen",
	    "bad IPv4 address");
	bad("[server]\nlisten = [::1\n", "t.ini:2: listen",
	    "unclosed IPv6 bracket");
	bad("[server]\nlisten = 10.0.0.1:0\n", "t.ini:2: listen", "port 0");
	bad("[server]\nlisten = 10.0.0.1:65536\n", "t.ini:2: listen",
	    "port 65536");
	bad("[server]\nlisten = ::1\n", "t.ini:2: listen",
	    "IPv6 without brackets");
	bad("[server]\n\nthis line has no equals sign\n",
	    "t.ini:3: syntax error", "syntax error with line");
	bad("[server]\nmax_connections = 5\n[limits]\nmax_iterations = 0\n",
	    "t.ini:4: max_iterations", "error on a later line");
}

static void test_validate(void)
{
	struct rdmad_config c;

	parse(&c, "[server]\nlisten = 10.0.0.1:5 10.0.0.1:5\n");
	tap_ok(config_validate(&c, "t.ini", err, sizeof(err)) == -EINVAL &&
	       strstr(err, "given twice"), "validate: duplicate listen (%s)",
	       err);
	parse(&c, "[timeouts]\nsession = 1s\nclose = 5s\n");
	tap_ok(config_validate(&c, "t.ini", err, sizeof(err)) == -EINVAL,
	       "validate: close longer than session");
	parse(&c, "[limits]\nmax_buffer_size = 1m\n"
		  "max_registered_bytes = 512k\n");
	tap_ok(config_validate(&c, "t.ini", err, sizeof(err)) == -EINVAL &&
	       strstr(err, "max_registered_bytes (524288) is below "
		      "max_buffer_size (1048576)"),
	       "validate: registered bytes below one buffer (%s)", err);
	tap_ok(parse(&c, "[limits]\nmax_registered_bytes = 64g\n") == 0 &&
	       c.max_registered_bytes == 64ull << 30 &&
	       config_validate(&c, "t.ini", err, sizeof(err)) == 0,
	       "registered bytes past 32 bits (64g)");
	tap_ok(parse(&c, "") == 0 && c.max_registered_bytes == 1ull << 30,
	       "registered bytes default 1g");
	parse(&c, "[timeouts]\nliveness = 50ms\n");
	tap_ok(config_validate(&c, "t.ini", err, sizeof(err)) == -EINVAL &&
	       strstr(err, "liveness"), "validate: liveness below 100ms (%s)",
	       err);
}

/* Values go through value_parse() (src/common, test-value-parse.c). */
static void test_parsers(void)
{
	struct rdmad_config c;

	tap_ok(parse(&c, "[limits]\nmax_buffer_size = 64k\n"
		     "[timeouts]\nidle = 250ms\nsession = 2m\nio = 7\n"
		     "accept = 1.5\nlinger = 1h\n") == 0 &&
	       c.max_buffer_size == 65536 && c.idle_timeout_ms == 250 &&
	       c.session_timeout_ms == 120000 && c.io_timeout_ms == 7000 &&
	       c.accept_timeout_ms == 1500 && c.linger_timeout_ms == 3600000,
	       "durations and sizes with units, as rdma-probe takes them "
	       "(%s)", err);
	bad("[limits]\nmax_buffer_size = 4g\n", "t.ini:2: max_buffer_size: "
	    "4g is out of range 1..1g", "a size: range in its units");
	bad("[timeouts]\nidle = soon\n", "t.ini:2: idle: 'soon' is not a "
	    "duration (seconds, or with unit ms, s, m, h; fractions allowed: "
	    "1.5s)", "a duration: the same reason as rdma-probe's");
}

static void test_file(void)
{
	char path[] = "/tmp/rdmad-test-config-XXXXXX";
	struct rdmad_config c;
	FILE *f;
	int fd, ret;

	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		tap_ok(0, "file: temporary file");
		tap_ok(0, "file: missing file");
		return;
	}
	fputs("[server]\nmax_connections = 3\n[log]\nlevel = nope\n", f);
	fclose(f);
	config_defaults(&c);
	ret = config_load(&c, path, err, sizeof(err));
	tap_ok(ret == -EINVAL && strstr(err, ":4: level") &&
	       strncmp(err, path, strlen(path)) == 0,
	       "file: error names the file and line (%s)", err);
	unlink(path);
	ret = config_load(&c, path, err, sizeof(err));
	tap_ok(ret == -ENOENT && strstr(err, "cannot open"),
	       "file: missing file is -ENOENT (%s)", err);
}

/* [server] drain_timeout and per-host, [limits] max_duration,
 * [access], [auth]. */
static void test_security_keys(void)
{
	struct rdmad_config c;
	char path[] = "/tmp/test-config-psk-XXXXXX", text[512];
	int ret, fd;

	ret = parse(&c, "");
	tap_ok(ret == 0 && c.drain_timeout_ms == 10000 &&
	       c.max_per_host == 0 && c.max_duration_ms == 600000 &&
	       c.allow.n == 0 && c.deny.n == 0 && c.psk.len == 0,
	       "security defaults: drain 10s, no per-host limit, 10m, open");
	ret = parse(&c, "[server]\ndrain_timeout = 30s\n"
		    "max_connections_per_host = 8\n"
		    "[limits]\nmax_duration = 90s\n"
		    "[access]\nallow = 10.0.0.0/8, 192.0.2.0/24\n"
		    "allow = 2001:db8::/32\ndeny = 10.6.6.6\n");
	if (!tap_ok(ret == 0 && c.drain_timeout_ms == 30000 &&
		    c.max_per_host == 8 && c.max_duration_ms == 90000 &&
		    c.allow.n == 3 && c.deny.n == 1 &&
		    c.allow.e[2].family == AF_INET6,
		    "security keys parse; allow lines add up"))
		tap_diag("%s", err);
	ret = parse(&c, "[server]\ndrain_timeout = 0\n[limits]\n"
		    "max_duration = 0\n");
	tap_ok(ret == 0 && c.drain_timeout_ms == 0 && c.max_duration_ms == 0,
	       "drain_timeout 0 and max_duration 0 allowed");
	bad("[access]\nallow = 10.0.0.1/8\n", "t.ini:2: allow: '10.0.0.1/8'",
	    "CIDR with host bits");
	bad("[access]\ndeny = [2001:db8::]/32\n", "t.ini:2: deny:",
	    "bracketed IPv6 CIDR");
	bad("[access]\nallow =\n", "t.ini:2: allow: no network",
	    "empty allow");
	bad("[server]\ndrain_timeout = 2h\n", "t.ini:2: drain_timeout",
	    "bad drain_timeout");
	bad("[auth]\npsk_file = /nonexistent/psk\n",
	    "t.ini:2: psk_file: key file /nonexistent/psk:", "missing key file");
	ret = parse(&c, "[server]\nmax_connections = 4\n"
		    "max_connections_per_host = 5\n");
	tap_ok(ret == 0 && config_validate(&c, "t.ini", err, sizeof(err)) ==
	       -EINVAL && strstr(err, "max_connections_per_host"),
	       "per-host limit above the global one refused");

	fd = mkstemp(path);
	if (fd < 0 || write(fd, "a secret of 24 bytes....\n", 25) != 25)
		tap_diag("cannot write %s", path);
	close(fd);
	snprintf(text, sizeof(text), "[auth]\npsk_file = %s\n", path);
	ret = parse(&c, text);
	tap_ok(ret == 0 && c.psk.len == 24 && !strcmp(c.psk_file, path),
	       "psk_file loads the key");
	chmod(path, 0644);
	bad(text, "t.ini:2: psk_file:", "group/world-readable key file");
	unlink(path);
}

/* Does ACL A match address TEXT (IPv4 or IPv6)? */
static int allows(const struct acl *a, const char *text)
{
	struct sockaddr_in6 in6;
	struct sockaddr_in in4;

	memset(&in4, 0, sizeof(in4));
	memset(&in6, 0, sizeof(in6));
	if (inet_pton(AF_INET, text, &in4.sin_addr) == 1) {
		in4.sin_family = AF_INET;
		return acl_match(a, (struct sockaddr *)&in4);
	}
	if (inet_pton(AF_INET6, text, &in6.sin6_addr) == 1) {
		in6.sin6_family = AF_INET6;
		return acl_match(a, (struct sockaddr *)&in6);
	}
	tap_diag("bad test address %s", text);
	return -1;
}

/* [http] listen of C is FAMILY ADDR:PORT written as TEXT. */
static int http_at(const struct rdmad_config *c, int family,
		   const char *addr, unsigned int port, const char *text)
{
	const struct sockaddr_in6 *in6;
	const struct sockaddr_in *in4;
	char buf[INET6_ADDRSTRLEN];
	const void *a;
	unsigned int p;

	if (c->http_listen.addr.ss_family != family)
		return 0;
	if (family == AF_INET) {
		in4 = (const struct sockaddr_in *)&c->http_listen.addr;
		a = &in4->sin_addr;
		p = ntohs(in4->sin_port);
		if (c->http_listen.addrlen != sizeof(*in4))
			return 0;
	} else {
		in6 = (const struct sockaddr_in6 *)&c->http_listen.addr;
		a = &in6->sin6_addr;
		p = ntohs(in6->sin6_port);
		if (c->http_listen.addrlen != sizeof(*in6))
			return 0;
	}
	if (!inet_ntop(family, a, buf, sizeof(buf)) || strcmp(buf, addr) ||
	    p != port || strcmp(c->http_listen.text, text)) {
		tap_diag("http listen %s port %u text '%s'", buf, p,
			 c->http_listen.text);
		return 0;
	}
	return 1;
}

/* [http] listen and allow. */
static void test_http(void)
{
	struct rdmad_config c;
	int ret;

	ret = parse(&c, "");
	tap_ok(ret == 0 && c.http_on == 1 &&
	       http_at(&c, AF_INET, "127.0.0.1", 9470, "127.0.0.1:9470") &&
	       !strcmp(CONFIG_HTTP_DEFAULT, "127.0.0.1:9470") &&
	       CONFIG_HTTP_PORT == 9470,
	       "http: on by default at 127.0.0.1:9470");
	tap_ok(c.http_allow.n == 2 && allows(&c.http_allow, "127.0.0.1") == 1 &&
	       allows(&c.http_allow, "127.255.255.254") == 1 &&
	       allows(&c.http_allow, "::1") == 1 &&
	       allows(&c.http_allow, "::ffff:127.0.0.1") == 1,
	       "http: default allow is the loopback, v4 and v6");
	tap_ok(allows(&c.http_allow, "10.0.0.1") == 0 &&
	       allows(&c.http_allow, "128.0.0.1") == 0 &&
	       allows(&c.http_allow, "::2") == 0 &&
	       allows(&c.http_allow, "2001:db8::1") == 0,
	       "http: default allow refuses everything else");
	tap_ok(c.allow.n == 0,
	       "http: its allow default is not [access] allow");

	ret = parse(&c, "[http]\nlisten = 192.0.2.5:8080\n");
	tap_ok(ret == 0 && c.http_on &&
	       http_at(&c, AF_INET, "192.0.2.5", 8080, "192.0.2.5:8080"),
	       "http: listen ADDRESS:PORT");
	ret = parse(&c, "[http]\nlisten = 0.0.0.0\n");
	tap_ok(ret == 0 && c.http_on &&
	       http_at(&c, AF_INET, "0.0.0.0", 9470, "0.0.0.0:9470"),
	       "http: listen without port gets 9470 (not rdmad's 7471)");
	ret = parse(&c, "[http]\nlisten = [::1]:9999\n");
	tap_ok(ret == 0 && c.http_on &&
	       http_at(&c, AF_INET6, "::1", 9999, "[::1]:9999"),
	       "http: listen [::1]:9999");
	ret = parse(&c, "[http]\nlisten = [2001:db8::7]\n");
	tap_ok(ret == 0 && c.http_on &&
	       http_at(&c, AF_INET6, "2001:db8::7", 9470, "[2001:db8::7]:9470"),
	       "http: IPv6 without port gets 9470");
	ret = parse(&c, "[http]\nlisten = off\n");
	tap_ok(ret == 0 && c.http_on == 0, "http: listen = off disables");
	ret = parse(&c, "[http]\nlisten =\n");
	tap_ok(ret == 0 && c.http_on == 0, "http: empty listen disables");
	ret = parse(&c, "[http]\nlisten = off\nlisten = 127.0.0.1:9471\n");
	tap_ok(ret == 0 && c.http_on == 1 &&
	       http_at(&c, AF_INET, "127.0.0.1", 9471, "127.0.0.1:9471"),
	       "http: a later listen line wins over off");
	ret = parse(&c, "[http]\nlisten = 127.0.0.1:9000\n"
		    "[server]\nlisten = 10.0.0.1:9000\n");
	tap_ok(ret == 0 && c.n_listen == 1 &&
	       !strcmp(c.listen[0].text, "10.0.0.1:9000") &&
	       http_at(&c, AF_INET, "127.0.0.1", 9000, "127.0.0.1:9000"),
	       "http: [http] listen and [server] listen are apart");

	bad("[http]\nlisten = 127.0.0.1:0\n", "t.ini:2: listen: '127.0.0.1:0'",
	    "http listen port 0");
	bad("[http]\nlisten = 127.0.0.1:65536\n", "t.ini:2: listen:",
	    "http listen port 65536");
	bad("[http]\nlisten = 127.0.0.1:\n", "t.ini:2: listen:",
	    "http listen empty port");
	bad("[http]\nlisten = localhost:9470\n",
	    "t.ini:2: listen: 'localhost:9470'", "http listen host name");
	bad("[http]\nlisten = ::1\n", "t.ini:2: listen:",
	    "http listen IPv6 without brackets");
	bad("[http]\nlisten = [::1]x\n", "t.ini:2: listen:",
	    "http listen junk after the bracket");
	bad("[http]\nlisten = 127.0.0.1:1 127.0.0.2:2\n", "t.ini:2: listen:",
	    "http listen: one address only");
	bad("[http]\nlisten = Off\n", "t.ini:2: listen: 'Off'",
	    "http listen: 'Off' is not 'off'");
	bad("[server]\nmax_connections = 5\n\n[http]\nlisten = nope\n",
	    "t.ini:5: listen: 'nope'", "http listen error on a later line");
	bad("[http]\nport = 80\n", "t.ini:2: unknown key 'port' in section "
	    "[http]", "unknown key in [http]");

	ret = parse(&c, "[http]\nallow = 10.0.0.0/8\n");
	tap_ok(ret == 0 && c.http_allow.n == 1 &&
	       allows(&c.http_allow, "10.1.2.3") == 1,
	       "http: allow parses");
	tap_ok(allows(&c.http_allow, "127.0.0.1") == 0 &&
	       allows(&c.http_allow, "::1") == 0,
	       "http: the first allow replaces the loopback default");
	tap_ok(c.allow.n == 0 && c.http_on == 1,
	       "http: [http] allow leaves [access] allow alone");
	ret = parse(&c, "[http]\nallow = 10.0.0.0/8\n"
		    "allow = 192.0.2.0/24, 2001:db8::/32\n");
	tap_ok(ret == 0 && c.http_allow.n == 3 &&
	       allows(&c.http_allow, "10.9.9.9") == 1 &&
	       allows(&c.http_allow, "192.0.2.200") == 1 &&
	       allows(&c.http_allow, "2001:db8::5") == 1 &&
	       allows(&c.http_allow, "192.0.3.1") == 0 &&
	       allows(&c.http_allow, "127.0.0.1") == 0,
	       "http: later allow lines add");
	ret = parse(&c, "[http]\nallow = 127.0.0.0/8 ::1/128 192.0.2.0/24\n");
	tap_ok(ret == 0 && c.http_allow.n == 3 &&
	       allows(&c.http_allow, "127.0.0.1") == 1 &&
	       allows(&c.http_allow, "::1") == 1,
	       "http: the loopback kept by naming it");
	ret = parse(&c, "[access]\nallow = 10.0.0.0/8\n");
	tap_ok(ret == 0 && c.allow.n == 1 && c.http_allow.n == 2 &&
	       allows(&c.http_allow, "127.0.0.1") == 1 &&
	       allows(&c.http_allow, "10.0.0.1") == 0,
	       "http: [access] allow leaves the http default alone");
	ret = parse(&c, "[http]\nallow = 10.0.0.0/8\n[http]\nallow = ::1\n");
	tap_ok(ret == 0 && c.http_allow.n == 2 &&
	       allows(&c.http_allow, "10.0.0.1") == 1 &&
	       allows(&c.http_allow, "::1") == 1,
	       "http: a second [http] section adds, does not replace again");
	bad("[http]\nallow = 10.0.0.1/8\n", "t.ini:2: allow: '10.0.0.1/8'",
	    "http allow with host bits");
	bad("[http]\nallow = 10.0.0.0/33\n", "t.ini:2: allow: '10.0.0.0/33'",
	    "http allow prefix too long");
	bad("[http]\nallow = 300.0.0.0/8\n", "t.ini:2: allow: '300.0.0.0/8'",
	    "http allow bad address");
	bad("[http]\nallow = 127.0.0.0/8, nope\n", "t.ini:2: allow: 'nope'",
	    "http allow: a bad network after a good one");
	bad("[http]\nallow =\n", "t.ini:2: allow: no network",
	    "http allow empty");
	bad("[http]\nallow = 10.0.0.0/8\nallow = [::1]/128\n",
	    "t.ini:3: allow:", "http allow error on the second line");
	ret = parse(&c, "[http]\nlisten = off\nallow = 10.0.0.0/8\n");
	tap_ok(ret == 0 && c.http_on == 0 && c.http_allow.n == 1 &&
	       config_validate(&c, "t.ini", err, sizeof(err)) == 0,
	       "http: off with an allow list validates");
}

/* Parses and validates, or fails validation with a message holding PART. */
static void invalid(const char *text, const char *part, const char *what)
{
	struct rdmad_config c;
	int ret = parse(&c, text);

	if (!ret)
		ret = config_validate(&c, "t.ini", err, sizeof(err));
	if (!tap_ok(ret == -EINVAL && strstr(err, part), "invalid: %s", what))
		tap_diag("ret %d, message '%s', want '%s'", ret, err, part);
}

static int valid(struct rdmad_config *c, const char *text)
{
	err[0] = '\0';
	if (parse(c, text))
		return 0;
	return config_validate(c, "t.ini", err, sizeof(err)) == 0;
}

/* [mesh] rails: 1 to 8 networks, rail r the r-th, none overlapping;
 * not with [mesh] source; empty: none. */
static void test_mesh_rails(void)
{
	const struct config_mesh *m;
	struct rdmad_config c;
	char net[64];

	m = &c.mesh;
	tap_ok(valid(&c, "[mesh]\nrails = 10.0.1.0/24\n") && m->n_rails == 1 &&
	       !strcmp(acl_match_entry_str(&m->rails[0], net, sizeof(net)),
		       "10.0.1.0/24"), "mesh: one rail (%s)", err);
	tap_ok(valid(&c, "[mesh]\nrails = 10.0.1.0/24, fd00:2::/64\n") &&
	       m->n_rails == 2 && m->rails[1].family == AF_INET6,
	       "mesh: two rails, IPv4 and IPv6 (%s)", err);
	tap_ok(valid(&c, "[mesh]\nrails = 10.1.0.0/16 10.2.0.0/16 10.3.0.0/16 "
		      "10.4.0.0/16 10.5.0.0/16 10.6.0.0/16 10.7.0.0/16\n") &&
	       m->n_rails == 7, "mesh: 7 rails (%s)", err);
	tap_ok(valid(&c, "[mesh]\nrails = 10.1.0.0/16 10.2.0.0/16 10.3.0.0/16 "
		      "10.4.0.0/16 10.5.0.0/16 10.6.0.0/16 10.7.0.0/16 "
		      "10.8.0.0/16\n") &&
	       m->n_rails == 8 && m->rails[7].addr[1] == 8,
	       "mesh: 8 rails, the most (%s)", err);
	bad("[mesh]\nrails = 10.1.0.0/16 10.2.0.0/16 10.3.0.0/16 10.4.0.0/16 "
	    "10.5.0.0/16 10.6.0.0/16 10.7.0.0/16 10.8.0.0/16 10.9.0.0/16\n",
	    "t.ini:2: rails: more than 8 rails", "mesh: 9 rails");
	tap_ok(valid(&c, "[mesh]\nrails = 10.0.1.0/24\nrails =\n") &&
	       m->n_rails == 0, "mesh: rails emptied by a later empty line");
	bad("[mesh]\nrails = 10.0.0.0/16 10.0.1.0/24\n", "t.ini:2: rails: "
	    "'10.0.1.0/24' overlaps rail 0's 10.0.0.0/16",
	    "mesh: rails overlapping (inside)");
	bad("[mesh]\nrails = 10.0.1.0/24 10.0.0.0/16\n", "t.ini:2: rails: "
	    "'10.0.0.0/16' overlaps rail 0's 10.0.1.0/24",
	    "mesh: rails overlapping (around)");
	bad("[mesh]\nrails = 10.0.1.0/24 10.0.1.0/24\n", "t.ini:2: rails: "
	    "'10.0.1.0/24' overlaps", "mesh: a rail twice");
	bad("[mesh]\nrails = 10.0.1.1/24\n", "t.ini:2: rails: '10.0.1.1/24' is "
	    "not a network", "mesh: a rail with host bits");
	bad("[mesh]\nrails = rail0\n", "t.ini:2: rails: 'rail0' is not a "
	    "network", "mesh: a rail not a network");
	invalid("[mesh]\nrails = 10.0.1.0/24\nsource = 10.0.1.5\n",
		"[mesh] source and rails: one or the other",
		"mesh: source with rails");
}

static void test_mesh(void)
{
	static const char full[] =
		"[limits]\nmax_buffer_size = 128k\n"
		"[mesh]\n"
		"targets = /etc/rdmad/peers\n"
		"port = 7490\n"
		"max_peers = 4096\n"
		"interval = 500ms\n"
		"jitter = 20%\n"
		"sizes = 64, 1100 4k 9000 128k\n"
		"ops = read\n"
		"paths = 8\n"
		"connect_timeout = 2s\n"
		"round_timeout = 400ms\n"
		"backoff_min = 100ms\n"
		"backoff_max = 2m\n"
		"tos = 0x68\n"
		"bandwidth_every = 10m\n"
		"bandwidth_duration = 100ms\n"
		"bandwidth_size = 128k\n"
		"bandwidth_share = 0.5%\n"
		"source = [fd00::2]\n";
	const struct config_mesh *m;
	struct rdmad_config c;

	tap_ok(valid(&c, "") && !c.mesh.targets[0] && c.mesh.port == 7471 &&
	       c.mesh.max_peers == 1024 && c.mesh.interval_ms == 1000 &&
	       c.mesh.jitter_pct == 10 && c.mesh.n_sizes == 4 &&
	       c.mesh.sizes[0] == 64 && c.mesh.sizes[1] == 1100 &&
	       c.mesh.sizes[2] == 4096 && c.mesh.sizes[3] == 65536 &&
	       c.mesh.ops == (PROTO_OP_WRITE | PROTO_OP_READ) &&
	       c.mesh.paths == 1 && c.mesh.connect_timeout_ms == 3000 &&
	       c.mesh.round_timeout_ms == 900 &&
	       c.mesh.backoff_min_ms == 1000 &&
	       c.mesh.backoff_max_ms == 60000 && c.mesh.tos == -1 &&
	       c.mesh.bw_every_ms == 0 && c.mesh.bw_duration_ms == 200 &&
	       c.mesh.bw_size == 65536 && c.mesh.bw_share_ppm == 10000 &&
	       c.mesh.source.ss_family == 0, "mesh: defaults (off)");
	tap_ok(valid(&c, "[mesh]\ntargets = /p\n"),
	       "mesh: the defaults validate with targets (%s)", err);
	m = &c.mesh;
	if (!tap_ok(valid(&c, full), "mesh: every key"))
		tap_diag("%s", err);
	tap_ok(!strcmp(m->targets, "/etc/rdmad/peers") && m->port == 7490 &&
	       m->max_peers == 4096 && m->interval_ms == 500 &&
	       m->jitter_pct == 20 && m->n_sizes == 5 &&
	       m->sizes[3] == 9000 && m->sizes[4] == 131072 &&
	       m->ops == PROTO_OP_READ && m->paths == 8 &&
	       m->connect_timeout_ms == 2000 && m->round_timeout_ms == 400 &&
	       m->backoff_min_ms == 100 && m->backoff_max_ms == 120000 &&
	       m->tos == 0x68 && m->bw_every_ms == 600000 &&
	       m->bw_duration_ms == 100 && m->bw_size == 131072 &&
	       m->bw_share_ppm == 5000 && m->source.ss_family == AF_INET6,
	       "mesh: every value read");
	tap_ok(valid(&c, "[mesh]\nops = read write\njitter = 0\ntos = 255\n"
		      "source = 10.0.0.2\nbandwidth_every = 0\n") &&
	       m->ops == (PROTO_OP_WRITE | PROTO_OP_READ) && m->tos == 255 &&
	       m->jitter_pct == 0 && m->source.ss_family == AF_INET &&
	       m->bw_every_ms == 0, "mesh: read write, jitter 0, tos 255, "
	       "an IPv4 source, bandwidth off");
	tap_ok(valid(&c, "[mesh]\ntos = 7\ntos =\nsizes = 1\n") &&
	       m->tos == -1 && m->n_sizes == 1 && m->sizes[0] == 1,
	       "mesh: an empty tos unsets it; one size");
	tap_ok(valid(&c, "[mesh]\nsizes = 1 2 3 4 5 6 7 8\n") &&
	       m->n_sizes == 8 && m->sizes[7] == 8, "mesh: 8 sizes");
	tap_ok(valid(&c, "[mesh]\nbandwidth_share = 50%\n") &&
	       m->bw_share_ppm == 500000 &&
	       valid(&c, "[mesh]\nbandwidth_share = 0.001\n") &&
	       m->bw_share_ppm == 10, "mesh: bandwidth_share 50%% and 0.001");

	/* the prober's share (mesh_load_check.h): defaults, bounds, off */
	tap_ok(valid(&c, "[mesh]\n") && m->prober_lag_max_ms == 10 &&
	       m->prober_wait_max_pct == 50,
	       "mesh: prober_lag_max 10ms, prober_wait_max 50%% by default");
	tap_ok(valid(&c, "[mesh]\nprober_lag_max = 0\nprober_wait_max = 0\n")
	       && m->prober_lag_max_ms == 0 && m->prober_wait_max_pct == 0 &&
	       valid(&c, "[mesh]\nprober_lag_max = 1m\n"
		     "prober_wait_max = 100%\n") &&
	       m->prober_lag_max_ms == 60000 && m->prober_wait_max_pct == 100,
	       "mesh: prober_lag_max 0 (off) and 1m, prober_wait_max 0 and "
	       "100%%");
	bad("[mesh]\nprober_lag_max = 61s\n", "t.ini:2: prober_lag_max: 61s "
	    "is out of range", "mesh: prober_lag_max 61s");
	bad("[mesh]\nprober_lag_max = soon\n", "t.ini:2: prober_lag_max:",
	    "mesh: prober_lag_max not a duration");
	bad("[mesh]\nprober_wait_max = 101%\n", "t.ini:2: prober_wait_max: "
	    "101% is out of range 0%..100%", "mesh: prober_wait_max 101%");
	bad("[mesh]\nprober_wait_max = -1\n", "t.ini:2: prober_wait_max:",
	    "mesh: prober_wait_max -1");

	/* failures in a row that take a path down: 1 by default, 1..10 */
	tap_ok(valid(&c, "[mesh]\n") && m->down_after == 1 &&
	       valid(&c, "[mesh]\ndown_after = 1\n") && m->down_after == 1 &&
	       valid(&c, "[mesh]\ndown_after = 9\n") && m->down_after == 9 &&
	       valid(&c, "[mesh]\ndown_after = 10\n") && m->down_after == 10,
	       "mesh: down_after 1 by default, 1, 9 and 10");
	bad("[mesh]\ndown_after = 11\n", "t.ini:2: down_after: 11 is out of "
	    "range 1..10", "mesh: down_after 11");
	bad("[mesh]\ndown_after = 0\n", "t.ini:2: down_after: 0 is out of "
	    "range 1..10", "mesh: down_after 0");

	/* a slow round's log line: 250ms by default, 0 (off), 1ms..1h */
	tap_ok(valid(&c, "[mesh]\n") && m->slow_round_ms == 250,
	       "mesh: slow_round 250ms by default");
	tap_ok(valid(&c, "[mesh]\nslow_round = 0\n") && m->slow_round_ms == 0
	       && valid(&c, "[mesh]\nslow_round = 1ms\n") &&
	       m->slow_round_ms == 1 &&
	       valid(&c, "[mesh]\nslow_round = 3599999ms\n") &&
	       m->slow_round_ms == 3599999 &&
	       valid(&c, "[mesh]\nslow_round = 1h\n") &&
	       m->slow_round_ms == 3600000,
	       "mesh: slow_round 0 (off), 1ms, 1h - 1ms and 1h");
	bad("[mesh]\nslow_round = 3600001ms\n", "t.ini:2: slow_round: "
	    "3600001ms is out of range", "mesh: slow_round 1h + 1ms");
	tap_ok(valid(&c, "[mesh]\nslow_round = 0.5ms\n") &&
	       m->slow_round_ms == 1,
	       "mesh: slow_round 0.5ms rounds up to 1ms, never to 0 (off)");
	bad("[mesh]\nslow_round = late\n", "t.ini:2: slow_round:",
	    "mesh: slow_round not a duration");

	/* a path's health (docs/mesh.md, "Decided in the agent") */
	tap_ok(valid(&c, "[mesh]\n") && m->healthy_bad_ppm == 1000 &&
	       m->lossy_bad_ppm == 10000 && m->slow_drop_pct == 20 &&
	       m->flap_downs == 3 && m->flap_window_ms == 300000,
	       "mesh: healthy_bad 0.1%%, lossy_bad 1%%, slow_drop 20%%, "
	       "flap_downs 3, flap_window 5m by default");
	tap_ok(valid(&c, "[mesh]\nhealthy_bad = 0.001%\nlossy_bad = 0.002%\n")
	       && m->healthy_bad_ppm == 10 && m->lossy_bad_ppm == 20 &&
	       valid(&c, "[mesh]\nhealthy_bad = 9.999%\nlossy_bad = 49.999%\n")
	       && m->healthy_bad_ppm == 99990 && m->lossy_bad_ppm == 499990 &&
	       valid(&c, "[mesh]\nhealthy_bad = 10%\nlossy_bad = 50%\n") &&
	       m->healthy_bad_ppm == 100000 && m->lossy_bad_ppm == 500000,
	       "mesh: healthy_bad 0.001%%, 9.999%%, 10%%; lossy_bad "
	       "0.002%%, 49.999%%, 50%%");
	bad("[mesh]\nhealthy_bad = 10.001%\n", "t.ini:2: healthy_bad: "
	    "10.001% is out of range 0.001%..10%", "mesh: healthy_bad 10.001%");
	bad("[mesh]\nhealthy_bad = 0%\n", "t.ini:2: healthy_bad: 0% is out",
	    "mesh: healthy_bad 0");
	bad("[mesh]\nlossy_bad = 50.001%\n", "t.ini:2: lossy_bad: "
	    "50.001% is out of range 0.002%..50%", "mesh: lossy_bad 50.001%");
	bad("[mesh]\nlossy_bad = 0.001%\n", "t.ini:2: lossy_bad: 0.001% is "
	    "out", "mesh: lossy_bad 0.001%");
	invalid("[mesh]\nhealthy_bad = 1%\nlossy_bad = 1%\n", "[mesh] "
		"lossy_bad (1%) must be above healthy_bad (1%)",
		"mesh: lossy_bad not above healthy_bad");
	tap_ok(valid(&c, "[mesh]\nhealthy_bad = 1%\nlossy_bad = 1.001%\n"),
	       "mesh: lossy_bad just above healthy_bad");
	tap_ok(valid(&c, "[mesh]\nslow_drop = 5%\n") && m->slow_drop_pct == 5 &&
	       valid(&c, "[mesh]\nslow_drop = 89%\n") && m->slow_drop_pct == 89 &&
	       valid(&c, "[mesh]\nslow_drop = 90%\n") && m->slow_drop_pct == 90,
	       "mesh: slow_drop 5%%, 89%%, 90%%");
	bad("[mesh]\nslow_drop = 91%\n", "t.ini:2: slow_drop: 91% is out of "
	    "range 5%..90%", "mesh: slow_drop 91%");
	bad("[mesh]\nslow_drop = 4%\n", "t.ini:2: slow_drop: 4% is out",
	    "mesh: slow_drop 4%");
	tap_ok(valid(&c, "[mesh]\nflap_downs = 2\n") && m->flap_downs == 2 &&
	       valid(&c, "[mesh]\nflap_downs = 15\n") && m->flap_downs == 15 &&
	       valid(&c, "[mesh]\nflap_downs = 16\n") && m->flap_downs == 16,
	       "mesh: flap_downs 2, 15, 16");
	bad("[mesh]\nflap_downs = 17\n", "t.ini:2: flap_downs: 17 is out of "
	    "range 2..16", "mesh: flap_downs 17");
	bad("[mesh]\nflap_downs = 1\n", "t.ini:2: flap_downs: 1 is out of "
	    "range 2..16", "mesh: flap_downs 1");
	tap_ok(valid(&c, "[mesh]\nflap_window = 1s\n") &&
	       m->flap_window_ms == 1000 &&
	       valid(&c, "[mesh]\nflap_window = 86399999ms\n") &&
	       m->flap_window_ms == 86399999 &&
	       valid(&c, "[mesh]\nflap_window = 24h\n") &&
	       m->flap_window_ms == 86400000,
	       "mesh: flap_window 1s, 24h - 1ms, 24h");
	bad("[mesh]\nflap_window = 86400001ms\n", "t.ini:2: flap_window: "
	    "86400001ms is out of range", "mesh: flap_window 24h + 1ms");
	bad("[mesh]\nflap_window = 999ms\n", "t.ini:2: flap_window: 999ms "
	    "is out of range", "mesh: flap_window 999ms");

	bad("[mesh]\nops = write\n", "t.ini:2: ops: 'write' alone: a WRITE "
	    "is only verified by reading it back", "mesh: write alone");
	bad("[mesh]\nops = read read\n", "t.ini:2: ops: 'read' given twice",
	    "mesh: read twice");
	bad("[mesh]\nops = send\n", "t.ini:2: ops: 'send' is not read or "
	    "write", "mesh: a bad op");
	bad("[mesh]\nops =\n", "t.ini:2: ops: no operation",
	    "mesh: no op");
	bad("[mesh]\nport = 0\n", "t.ini:2: port:", "mesh: port 0");
	bad("[mesh]\nport = 65536\n", "t.ini:2: port:", "mesh: port 65536");
	bad("[mesh]\nmax_peers = 4097\n", "t.ini:2: max_peers: 4097 is out",
	    "mesh: 4097 peers");
	bad("[mesh]\nmax_peers = 0\n", "t.ini:2: max_peers", "mesh: 0 peers");
	bad("[mesh]\ninterval = 5ms\n", "t.ini:2: interval: 5ms is out",
	    "mesh: interval 5ms");
	bad("[mesh]\ninterval = 2h\n", "t.ini:2: interval", "mesh: 2h");
	bad("[mesh]\njitter = 51%\n", "t.ini:2: jitter: 51% is out of range "
	    "0%..50%", "mesh: jitter 51%");
	bad("[mesh]\njitter = 5.5%\n", "t.ini:2: jitter: '5.5%' is not a "
	    "whole percent", "mesh: jitter 5.5%");
	bad("[mesh]\nsizes = 1 2 3 4 5 6 7 8 9\n", "t.ini:2: sizes: more "
	    "than 8 sizes", "mesh: 9 sizes");
	bad("[mesh]\nsizes = 64 0\n", "t.ini:2: sizes: 0 is out of range "
	    "1..1g",
	    "mesh: size 0");
	bad("[mesh]\nsizes = 64 2g\n", "t.ini:2: sizes: 2g is out",
	    "mesh: size 2g");
	bad("[mesh]\nsizes = 64 lots\n", "t.ini:2: sizes: 'lots'",
	    "mesh: size not a size");
	/* issue 20, defect 5: a size twice was two series on /metrics. */
	bad("[mesh]\nsizes = 64 64 4096\n", "t.ini:2: sizes: '64' given twice",
	    "mesh: a size twice (64 64 4096)");
	bad("[mesh]\ninterval = 1s\nsizes = 4096 64k 65536\n", "t.ini:3: "
	    "sizes: '65536' given twice (65536 bytes, as '64k' before)",
	    "mesh: one size written two ways");
	tap_ok(valid(&c, "[mesh]\nsizes = 64 65\n") && c.mesh.n_sizes == 2,
	       "mesh: sizes one byte apart are two sizes");
	bad("[mesh]\nsizes = ,\n", "t.ini:2: sizes: no size given",
	    "mesh: no sizes");
	bad("[mesh]\npaths = 9\n", "t.ini:2: paths: 9 is out of range 1..8",
	    "mesh: 9 paths");
	bad("[mesh]\npaths = 0\n", "t.ini:2: paths", "mesh: 0 paths");
	bad("[mesh]\nround_timeout = 9ms\n", "t.ini:2: round_timeout",
	    "mesh: round_timeout 9ms");
	bad("[mesh]\nconnect_timeout = 2h\n", "t.ini:2: connect_timeout",
	    "mesh: connect_timeout 2h");
	bad("[mesh]\nbackoff_min = 0\n", "t.ini:2: backoff_min",
	    "mesh: backoff_min 0");
	bad("[mesh]\nbackoff_max = 61m\n", "t.ini:2: backoff_max",
	    "mesh: backoff_max 61m");
	bad("[mesh]\ntos = 256\n", "t.ini:2: tos: 256 is out of range 0..255",
	    "mesh: tos 256");
	bad("[mesh]\ntos = 0x100\n", "t.ini:2: tos: 0x100 is out",
	    "mesh: tos 0x100");
	bad("[mesh]\ntos = 0x\n", "t.ini:2: tos: '0x' is not a number",
	    "mesh: tos 0x");
	bad("[mesh]\ntos = -1\n", "t.ini:2: tos: '-1' is not a number",
	    "mesh: tos -1");
	bad("[mesh]\nbandwidth_every = 500ms\n", "t.ini:2: bandwidth_every: "
	    "500ms is out of range 0 (off) or 1s..24h",
	    "mesh: bandwidth_every 500ms");
	bad("[mesh]\nbandwidth_every = 25h\n", "t.ini:2: bandwidth_every",
	    "mesh: bandwidth_every 25h");
	bad("[mesh]\nbandwidth_duration = 11s\n",
	    "t.ini:2: bandwidth_duration", "mesh: bandwidth_duration 11s");
	bad("[mesh]\nbandwidth_size = 0\n", "t.ini:2: bandwidth_size",
	    "mesh: bandwidth_size 0");
	bad("[mesh]\nbandwidth_share = 51%\n", "t.ini:2: bandwidth_share: "
	    "51% is out of range 0.001%..50%", "mesh: bandwidth_share 51%");
	bad("[mesh]\nbandwidth_share = 0.0001%\n",
	    "t.ini:2: bandwidth_share: '0.0001%' is not a percent",
	    "mesh: bandwidth_share with 4 decimals");
	bad("[mesh]\nbandwidth_share = 0%\n", "t.ini:2: bandwidth_share: 0% "
	    "is out", "mesh: bandwidth_share 0");
	bad("[mesh]\nbandwidth_share = 1.%\n", "t.ini:2: bandwidth_share",
	    "mesh: bandwidth_share '1.%'");
	bad("[mesh]\nsource = 10.0.0.2:7471\n", "t.ini:2: source: "
	    "'10.0.0.2:7471' is not an address", "mesh: source with a port");
	bad("[mesh]\nsource = host.example\n", "t.ini:2: source:",
	    "mesh: source a name");
	bad("[mesh]\nbogus = 1\n", "t.ini:2: unknown key 'bogus' in section "
	    "[mesh]", "mesh: unknown key");

	/* A round may outlast the interval (under loss RC retransmits for
	 * seconds and still verifies): the next one starts when it ends. */
	{
		struct rdmad_config mc;
		char e[256] = "";

		config_defaults(&mc);
		tap_ok(config_load_string(&mc, "[mesh]\ninterval = 200ms\n"
				      "round_timeout = 10s\n", "t.ini", e,
				      sizeof(e)) == 0 &&
		       config_validate(&mc, "t.ini", e, sizeof(e)) == 0,
		       "mesh: round_timeout may exceed interval");
	}
	invalid("[mesh]\nbackoff_min = 2m\n", "[mesh] backoff_min (120000ms) "
		"must not exceed backoff_max (60000ms)",
		"mesh: backoff_min above backoff_max");
	invalid("[mesh]\nbackoff_max = 3s\n", "[mesh] connect_timeout "
		"(3000ms) must be below backoff_max (3000ms)",
		"mesh: connect_timeout not below backoff_max");
	invalid("[limits]\nmax_buffer_size = 32k\n[mesh]\ntargets = /p\n",
		"[mesh] sizes: 65536 exceeds [limits] max_buffer_size (32768)",
		"mesh: a size above max_buffer_size");
	tap_ok(valid(&c, "[limits]\nmax_buffer_size = 32k\n"),
	       "mesh off: its sizes are not checked against max_buffer_size");
	tap_ok(valid(&c, "[limits]\nmax_buffer_size = 32k\n[mesh]\n"
		      "targets = /p\nsizes = 64 32k\n"),
	       "mesh: sizes at max_buffer_size, bandwidth off: valid (%s)",
	       err);
	invalid("[limits]\nmax_buffer_size = 32k\n[mesh]\ntargets = /p\n"
		"sizes = 64\nbandwidth_every = 1m\n",
		"[mesh] bandwidth_size (65536) exceeds [limits] "
		"max_buffer_size (32768)", "mesh: bandwidth_size above "
		"max_buffer_size");
	test_mesh_rails();
}

/* [mesh] peer_series: full, compact, or (unset, empty) by the inventory. */
static void test_peer_series(void)
{
	struct rdmad_config c;

	tap_ok(valid(&c, "") &&
	       c.mesh.peer_series == CONFIG_PEER_SERIES_DEFAULT &&
	       config_mesh_compact(&c.mesh, true) &&
	       !config_mesh_compact(&c.mesh, false),
	       "peer_series: unset: compact with topology, full without");
	tap_ok(valid(&c, "[mesh]\npeer_series = full\n") &&
	       c.mesh.peer_series == CONFIG_PEER_SERIES_FULL &&
	       !config_mesh_compact(&c.mesh, true) &&
	       !config_mesh_compact(&c.mesh, false),
	       "peer_series = full: full with or without topology");
	tap_ok(valid(&c, "[mesh]\npeer_series = compact\n") &&
	       c.mesh.peer_series == CONFIG_PEER_SERIES_COMPACT &&
	       config_mesh_compact(&c.mesh, true) &&
	       config_mesh_compact(&c.mesh, false),
	       "peer_series = compact: compact with or without topology");
	tap_ok(valid(&c, "[mesh]\npeer_series = compact\npeer_series =\n") &&
	       c.mesh.peer_series == CONFIG_PEER_SERIES_DEFAULT,
	       "peer_series empty: back to the inventory's default");
	bad("[mesh]\npeer_series = Compact\n", "t.ini:2: peer_series: "
	    "'Compact' is not one of full, compact", "peer_series Compact");
	bad("[mesh]\n\npeer_series = auto\n", "t.ini:3: peer_series: "
	    "'auto' is not one of full, compact", "peer_series auto");
	bad("[mesh]\npeer_series = full compact\n", "t.ini:2: peer_series",
	    "peer_series: two values");
}

/* [counters]: the interval (bounds: test_bounds) and the skip list. */
static void test_counters(void)
{
	struct rdmad_config c;

	tap_ok(valid(&c, "") && c.counters.interval_ms == 10000 &&
	       c.counters.skip.n == 0,
	       "counters: every 10 s, nothing skipped by default");
	tap_ok(valid(&c, "[counters]\ninterval = 0\n") &&
	       c.counters.interval_ms == 0, "counters: interval 0 is off");
	tap_ok(valid(&c, "[counters]\nskip = link_downed, mlx5_3/*\n"
		     "skip = *_err\n") && c.counters.skip.n == 3 &&
	       !strcmp(c.counters.skip.pat[0], "link_downed") &&
	       !strcmp(c.counters.skip.pat[1], "mlx5_3/*") &&
	       !strcmp(c.counters.skip.pat[2], "*_err"),
	       "counters: skip lines add");
	tap_ok(valid(&c, "[counters]\nskip = a b\nskip =\nskip = c\n") &&
	       c.counters.skip.n == 1 && !strcmp(c.counters.skip.pat[0], "c"),
	       "counters: an empty skip clears the list");
	bad("[counters]\n\nskip = link downed/x/y\n", "t.ini:3: skip: "
	    "'downed/x/y' is not a counter pattern", "counters: two slashes");
	bad("[counters]\nskip = port_xmit_wait;\n", "t.ini:2: skip: "
	    "'port_xmit_wait;' is not a counter pattern",
	    "counters: a character outside the set");
	bad("[counters]\nskip = a b c d e f g h i j k l m n o p q r s t u v "
	    "w x y z aa ab ac ad ae af ag\n", "t.ini:2: skip: more than 32 "
	    "patterns", "counters: 33 patterns");
	bad("[counters]\nread = all\n", "t.ini:2: unknown key 'read' in "
	    "section [counters]", "counters: unknown key");
}

static void test_modules(void)
{
	const struct config_module *m;
	struct rdmad_config c;
	char text[2048];
	size_t len = 0;
	int i;

	tap_ok(valid(&c, "") && c.n_modules == 0, "modules: none by default");
	m = config_module_find(&c, NULL);
	tap_ok(m && !strcmp(m->name, "default") &&
	       m->ops == (PROTO_OP_READ | PROTO_OP_WRITE) && m->size == 4096 &&
	       m->iterations == 10 && m->timeout_ms == 5000 && m->tos == -1,
	       "modules: the built-in default");
	tap_ok(config_module_find(&c, "") == m &&
	       config_module_find(&c, "default") == m &&
	       config_module_find(&c, "small") == NULL,
	       "modules: NULL, \"\" and \"default\" are the default; "
	       "unknown: NULL");
	if (!tap_ok(valid(&c, "[limits]\nmax_iterations = 100\n"
			   "[module.small]\nop = read\nsize = 64\n"
			   "iterations = 100\ntimeout = 100ms\ntos = 0x60\n"
			   "[module.Big_one-2]\nop = write, read\nsize = 1m\n"
			   "[module.empty]\n"
			   "[module.w]\nop = write\n"),
		    "modules: four"))
		tap_diag("%s", err);
	m = config_module_find(&c, "small");
	tap_ok(c.n_modules == 4 && m && m->ops == PROTO_OP_READ &&
	       m->size == 64 && m->iterations == 100 && m->timeout_ms == 100 &&
	       m->tos == 0x60, "modules: small read");
	m = config_module_find(&c, "Big_one-2");
	tap_ok(m && m->ops == (PROTO_OP_READ | PROTO_OP_WRITE) &&
	       m->size == 1u << 20 && m->iterations == 10 &&
	       m->timeout_ms == 5000 && m->tos == -1,
	       "modules: the others keep the built-in values");
	m = config_module_find(&c, "empty");
	tap_ok(m && m->size == 4096 && !strcmp(m->name, "empty"),
	       "modules: a section without keys defines one");
	m = config_module_find(&c, "w");
	tap_ok(m && m->ops == PROTO_OP_WRITE, "modules: write alone");
	tap_ok(config_module_find(&c, NULL)->size == 4096 &&
	       config_module_find(&c, "big_one-2") == NULL,
	       "modules: names are case-sensitive");
	tap_ok(valid(&c, "[module.default]\nsize = 64k\n") &&
	       config_module_find(&c, NULL)->size == 65536 &&
	       config_module_find(&c, NULL) == &c.modules[0],
	       "modules: [module.default] replaces the built-in one");

	bad("[module.a]\nsize = 1k\n\n[module.a]\n", "t.ini:4: module 'a' "
	    "defined twice (first on line 1)", "modules: defined twice");
	bad("[module.a]\n[mesh]\n[module.a]\nsize = 1\n", "t.ini:3: module "
	    "'a' defined twice", "modules: defined twice, no keys between");
	bad("[module.a b]\nsize = 1\n", "t.ini:1: [module.a b]: a module "
	    "name is 1 to 31", "modules: a space in the name");
	bad("[module.]\nsize = 1\n", "t.ini:1: [module.]:",
	    "modules: empty name");
	bad("[module.abcdefghijabcdefghijabcdefghij12]\n", "t.ini:1: "
	    "[module.abcdefghijabcdefghijabcdefghij12]: a module name",
	    "modules: a 32-character name");
	tap_ok(valid(&c, "[module.abcdefghijabcdefghijabcdefghij1]\n") &&
	       config_module_find(&c, "abcdefghijabcdefghijabcdefghij1"),
	       "modules: a 31-character name");
	bad("[module]\nsize = 1\n", "t.ini:2: unknown section [module] "
	    "(key 'size')", "modules: [module] without a name");
	bad("[modules.a]\nsize = 1\n", "t.ini:2: unknown section [modules.a]",
	    "modules: [modules.a]");
	bad("[module.a]\nops = read\n", "t.ini:2: unknown key 'ops' in "
	    "section [module.a]", "modules: unknown key");
	bad("[module.a]\nop = read read\n", "t.ini:2: op: 'read' given twice",
	    "modules: op read twice");
	bad("[module.a]\nop = peek\n", "t.ini:2: op: 'peek' is not read or "
	    "write", "modules: a bad op");
	bad("[module.a]\nsize = 0\n", "t.ini:2: size", "modules: size 0");
	bad("[module.a]\niterations = 0\n", "t.ini:2: iterations",
	    "modules: 0 iterations");
	bad("[module.a]\ntimeout = 99ms\n", "t.ini:2: timeout: 99ms is out "
	    "of range 100ms..1m", "modules: timeout 99ms");
	bad("[module.a]\ntimeout = 61s\n", "t.ini:2: timeout",
	    "modules: timeout 61s");
	bad("[module.a]\ntos = 300\n", "t.ini:2: tos", "modules: tos 300");

	for (i = 0; i < 17; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"[module.m%d]\n", i);
	bad(text, "t.ini:17: [module.m16]: more than 16 modules",
	    "modules: a 17th");
	text[strlen(text) - strlen("[module.m16]\n")] = '\0';
	tap_ok(valid(&c, text) && c.n_modules == 16 &&
	       config_module_find(&c, "m15"), "modules: 16");

	invalid("[limits]\nmax_buffer_size = 64k\n[module.x]\nsize = 128k\n",
		"[module.x] size (131072) exceeds [limits] max_buffer_size "
		"(65536)", "modules: size above max_buffer_size");
	invalid("[limits]\nmax_iterations = 5\n[module.x]\nop = read\n",
		"[module.x] iterations (10) exceeds [limits] max_iterations "
		"(5)", "modules: iterations above max_iterations");
}

/*
 * Every key with numeric limits at its boundaries: min - 1, min, 1,
 * max - 1, max, max + 1 (and 0 where 0 is "off"), written in the key's
 * unit; the value read, or refused with "is out of range".  The limits
 * are written here again on purpose: a row of config.c's table that
 * drifts from docs/configuration.md fails here.
 */
enum bkind { B_COUNT, B_SIZE, B_MS, B_MS_OFF, B_PCT, B_PPM, B_CODE };

static const struct bound {
	const char *section, *key;
	enum bkind kind;
	uint64_t min, max;
	size_t off, width;	/* the field in struct rdmad_config */
} bounds[] = {
#define F(f)	offsetof(struct rdmad_config, f), \
		sizeof(((struct rdmad_config *)0)->f)
	{ "server", "listen_backlog", B_COUNT, 1, 4096, F(listen_backlog) },
	{ "server", "max_connections", B_COUNT, 1, 65536, F(max_connections) },
	{ "server", "max_connections_per_host", B_COUNT, 0, 65536,
	  F(max_per_host) },
	{ "server", "drain_timeout", B_MS, 0, 3600000, F(drain_timeout_ms) },
	{ "limits", "max_buffer_size", B_SIZE, 1, 1u << 30,
	  F(max_buffer_size) },
	{ "limits", "max_registered_bytes", B_SIZE, 64u << 10, 1ull << 40,
	  F(max_registered_bytes) },
	{ "limits", "max_iterations", B_COUNT, 1, UINT32_MAX - 1,
	  F(max_iterations) },
	{ "limits", "max_duration", B_MS, 0, 86400000, F(max_duration_ms) },
	{ "timeouts", "accept", B_MS, 10, 3600000, F(accept_timeout_ms) },
	{ "timeouts", "idle", B_MS, 10, 86400000, F(idle_timeout_ms) },
	{ "timeouts", "session", B_MS, 10, 86400000, F(session_timeout_ms) },
	{ "timeouts", "io", B_MS, 10, 3600000, F(io_timeout_ms) },
	{ "timeouts", "linger", B_MS, 10, 3600000, F(linger_timeout_ms) },
	{ "timeouts", "close", B_MS, 10, 600000, F(close_timeout_ms) },
	{ "timeouts", "liveness", B_MS, 0, 3600000, F(liveness_ms) },
	{ "mesh", "port", B_COUNT, 1, 65535, F(mesh.port) },
	{ "mesh", "max_peers", B_COUNT, 1, 4096, F(mesh.max_peers) },
	{ "mesh", "interval", B_MS, 10, 3600000, F(mesh.interval_ms) },
	{ "mesh", "jitter", B_PCT, 0, 50, F(mesh.jitter_pct) },
	{ "mesh", "sizes", B_SIZE, 1, 1u << 30, F(mesh.sizes[0]) },
	{ "mesh", "paths", B_COUNT, 1, 8, F(mesh.paths) },
	{ "mesh", "connect_timeout", B_MS, 10, 3600000,
	  F(mesh.connect_timeout_ms) },
	{ "mesh", "round_timeout", B_MS, 10, 3600000,
	  F(mesh.round_timeout_ms) },
	{ "mesh", "backoff_min", B_MS, 10, 3600000, F(mesh.backoff_min_ms) },
	{ "mesh", "backoff_max", B_MS, 10, 3600000, F(mesh.backoff_max_ms) },
	{ "mesh", "tos", B_CODE, 0, 255, F(mesh.tos) },
	{ "mesh", "bandwidth_every", B_MS_OFF, 1000, 86400000,
	  F(mesh.bw_every_ms) },
	{ "mesh", "bandwidth_duration", B_MS, 10, 10000,
	  F(mesh.bw_duration_ms) },
	{ "mesh", "bandwidth_size", B_SIZE, 1, 1u << 30, F(mesh.bw_size) },
	{ "mesh", "bandwidth_share", B_PPM, 10, 500000,
	  F(mesh.bw_share_ppm) },
	{ "counters", "interval", B_MS_OFF, 1000, 3600000,
	  F(counters.interval_ms) },
	{ "module.m", "size", B_SIZE, 1, 1u << 30, F(modules[0].size) },
	{ "module.m", "iterations", B_COUNT, 1, UINT32_MAX - 1,
	  F(modules[0].iterations) },
	{ "module.m", "timeout", B_MS, 100, 60000, F(modules[0].timeout_ms) },
	{ "module.m", "tos", B_CODE, 0, 255, F(modules[0].tos) },
#undef F
};

static uint64_t bound_field(const struct rdmad_config *c,
			    const struct bound *b)
{
	const char *f = (const char *)c + b->off;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (b->width) {
	case 2:
		memcpy(&v16, f, 2);
		return v16;
	case 4:
		memcpy(&v32, f, 4);
		return v32;
	default:
		memcpy(&v64, f, 8);
		return v64;
	}
}

/* V written in B's unit: "1000ms", "65536", "12%", "0.010%", "0x7f". */
static void bound_text(const struct bound *b, uint64_t v, char *buf,
		       size_t len)
{
	switch (b->kind) {
	case B_MS:
	case B_MS_OFF:
		snprintf(buf, len, "%llums", (unsigned long long)v);
		break;
	case B_PCT:
		snprintf(buf, len, "%llu%%", (unsigned long long)v);
		break;
	case B_PPM:
		snprintf(buf, len, "%llu.%03llu%%",
			 (unsigned long long)(v / 10000),
			 (unsigned long long)(v % 10000 / 10));
		break;
	case B_CODE:
		snprintf(buf, len, "0x%llx", (unsigned long long)v);
		break;
	default:
		snprintf(buf, len, "%llu", (unsigned long long)v);
	}
}

static void test_bounds(void)
{
	struct rdmad_config *c = malloc(sizeof(*c));
	char text[256], val[32];
	size_t i, j;

	for (i = 0; c && i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		const struct bound *b = &bounds[i];
		uint64_t step = b->kind == B_PPM ? 10 : 1;	/* 0.001% */
		uint64_t v[] = { b->min - step, b->min, step, b->max - step,
				 b->max, b->max + step, 0 };
		size_t n = b->kind == B_MS_OFF ? 7 : 6;

		for (j = b->min ? 0 : 1; j < n; j++) {
			int in = (v[j] >= b->min && v[j] <= b->max) ||
				 (b->kind == B_MS_OFF && !v[j]);
			int ret;

			bound_text(b, v[j], val, sizeof(val));
			snprintf(text, sizeof(text), "[%s]\n%s = %s\n",
				 b->section, b->key, val);
			ret = parse(c, text);
			if (!tap_ok(in ? ret == 0 && bound_field(c, b) == v[j] :
				    ret == -EINVAL &&
				    strstr(err, "is out of range"),
				    "bounds: [%s] %s = %s %s", b->section,
				    b->key, val, in ? "taken" : "refused"))
				tap_diag("ret %d, field %llu, '%s'", ret,
					 (unsigned long long)bound_field(c, b),
					 err);
		}
	}
	free(c);
}

int main(void)
{
	test_http();
	test_security_keys();
	test_good();
	test_bad();
	test_validate();
	test_parsers();
	test_file();
	test_mesh();
	test_peer_series();
	test_counters();
	test_modules();
	test_bounds();
	return tap_done();
}
