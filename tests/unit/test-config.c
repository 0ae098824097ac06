/* SPDX-License-Identifier: BSD-2-Clause */
/* test-config.c - INI parsing, value parsers, validation. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "log.h"
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

static void test_parsers(void)
{
	uint32_t sz;
	unsigned int ms, u;

	tap_ok(config_parse_size("64k", &sz) == 0 && sz == 65536 &&
	       config_parse_size("1M", &sz) == 0 && sz == 1048576 &&
	       config_parse_size("17", &sz) == 0 && sz == 17,
	       "sizes with suffixes");
	tap_ok(config_parse_size("4g", &sz) == -ERANGE &&
	       config_parse_size("", &sz) == -EINVAL &&
	       config_parse_size("k", &sz) == -EINVAL &&
	       config_parse_size("1kk", &sz) == -EINVAL,
	       "bad sizes rejected");
	tap_ok(config_parse_duration_ms("250ms", &ms) == 0 && ms == 250 &&
	       config_parse_duration_ms("2m", &ms) == 0 && ms == 120000 &&
	       config_parse_duration_ms("7", &ms) == 0 && ms == 7000,
	       "durations with suffixes");
	tap_ok(config_parse_uint("5", 1, 4, &u) == -ERANGE &&
	       config_parse_uint(" 5", 1, 9, &u) == -EINVAL,
	       "uint range and leading space");
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

int main(void)
{
	test_http();
	test_security_keys();
	test_good();
	test_bad();
	test_validate();
	test_parsers();
	test_file();
	return tap_done();
}
