/* SPDX-License-Identifier: BSD-2-Clause */
/* test-config.c - INI parsing, value parsers, validation. */
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
	tap_ok(c.log_level == LOG_DEBUG, "log level");
	tap_ok(config_validate(&c, "t.ini", err, sizeof(err)) == 0,
	       "good file validates");

	ret = parse(&c, "");
	tap_ok(ret == 0 && c.n_listen == 1 && c.max_connections == 64 &&
	       c.max_buffer_size == 1u << 20 &&
	       config_validate(&c, "t.ini", err, sizeof(err)) == 0,
	       "empty file gives valid defaults");
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
	bad("[timeouts]\nidle = soon\n", "t.ini:2: idle", "bad duration");
	bad("[timeouts]\nidle = 1ms\n", "t.ini:2: idle", "duration too short");
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

int main(void)
{
	test_security_keys();
	test_good();
	test_bad();
	test_validate();
	test_parsers();
	test_file();
	return tap_done();
}
