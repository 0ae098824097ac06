/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-ctl-config.c - rdmadctl finds rdmad's endpoint in [http] listen and
 * reads nothing else: a configuration whose other sections the daemon
 * would refuse, or whose key file rdmadctl may not read, still works.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_config.h"
#include "tap.h"

static int run(const char *text, struct addr_endpoint *a, char *err,
	       size_t len)
{
	err[0] = '\0';
	return ctl_config_http(text, "t.ini", a, err, len);
}

static void check(const char *what, const char *text, int want_ret,
		  const char *want_text, const char *want_err)
{
	struct addr_endpoint a;
	char err[512];
	int ret = run(text, &a, err, sizeof(err));

	tap_ok(ret == want_ret, "%s: returns %d (got %d: %s)", what,
	       want_ret, ret, err);
	if (want_text)
		tap_ok(!strcmp(a.text, want_text), "%s: endpoint %s (got %s)",
		       what, want_text, a.text);
	if (want_err)
		tap_ok(strstr(err, want_err) != NULL,
		       "%s: message has '%s' (got '%s')", what, want_err,
		       err);
}

int main(void)
{
	char path[] = "/tmp/test-ctl-config.XXXXXX";
	struct addr_endpoint a;
	char err[512];
	FILE *f;
	int fd;

	tap_plan(23);
	check("empty file", "", 0, "127.0.0.1:9470", NULL);
	check("no [http]", "[limits]\nmax_connections = 4\n", 0,
	      "127.0.0.1:9470", NULL);
	check("listen with port", "[http]\nlisten = 10.1.2.3:9000\n", 0,
	      "10.1.2.3:9000", NULL);
	check("listen without port", "[http]\nlisten = 10.1.2.3\n", 0,
	      "10.1.2.3:9470", NULL);
	check("IPv6", "[http]\nlisten = [::1]:9471\n", 0, "[::1]:9471",
	      NULL);
	check("off", "[http]\nlisten = off\n", -ENOTCONN, NULL,
	      "listen = off");
	check("bad value, line named", "# c\n[http]\nallow = 10.0.0.0/8\n"
	      "listen = nowhere:1\n", -EINVAL, NULL, "t.ini:4: listen: 'nowhere:1'");
	/* The daemon's secrets and everything it validates are not ours. */
	check("key file never opened",
	      "[auth]\npsk_file = /nonexistent/rdmad.key\n[http]\n"
	      "listen = 127.0.0.1:9999\n", 0, "127.0.0.1:9999", NULL);
	check("other sections not validated",
	      "[limits]\nmax_connections = lots\n[nosuch]\nkey = 1\n", 0,
	      "127.0.0.1:9470", NULL);
	check("listen in another section ignored",
	      "[rdmad]\nlisten = 10.9.9.9:1\n", 0, "127.0.0.1:9470", NULL);

	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	tap_ok(f != NULL, "temporary file");
	if (f) {
		fputs("[auth]\npsk_file = /nonexistent\n[http]\nlisten = "
		      "192.0.2.1:1234\n", f);
		fclose(f);
	}
	tap_ok(!ctl_config_http_file(path, &a, err, sizeof(err)) &&
	       !strcmp(a.text, "192.0.2.1:1234"), "file: endpoint read (%s)",
	       err);
	unlink(path);
	tap_ok(ctl_config_http_file(path, &a, err, sizeof(err)) == -ENOENT,
	       "missing file: -ENOENT");
	return tap_done();
}
