/* SPDX-License-Identifier: BSD-2-Clause */
/* ctl_config.c - [http] listen of rdmad's configuration (see ctl_config.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ini.h>

#include "ctl_config.h"
#include "defaults.h"

struct ctl_config {
	struct addr_endpoint *a;
	int on;
	char bad[128];		/* the first bad value */
};

static int ctl_config_handler(void *user, const char *section,
			      const char *name, const char *value)
{
	struct ctl_config *c = user;

	if (!name || strcmp(section, "http") || strcmp(name, "listen"))
		return 1;
	if (!*value || !strcmp(value, "off")) {
		c->on = 0;
		return 1;
	}
	if (addr_parse(value, RDMAD_HTTP_PORT, c->a)) {
		snprintf(c->bad, sizeof(c->bad), "%s", value);
		return 0;	/* inih returns this line */
	}
	c->on = 1;
	return 1;
}

/* What inih's LINE (0, or the first bad line) means for C. */
static int ctl_config_result(const struct ctl_config *c, int line,
			     const char *name, char *err, size_t errlen)
{
	if (line > 0 && c->bad[0]) {
		snprintf(err, errlen, "%s:%d: listen: '%s' is not "
			 "ADDRESS[:PORT] (one IPv4 address, or IPv6 in "
			 "brackets, port 1-65535) or off", name, line, c->bad);
		return -EINVAL;
	}
	if (line) {
		snprintf(err, errlen, "%s:%d: not a valid line (rdmad would "
			 "refuse this file too)", name, line);
		return -EINVAL;
	}
	if (!c->on) {
		snprintf(err, errlen, "%s: the status endpoint is off ([http] "
			 "listen = off); set it, or give -a ADDRESS:PORT",
			 name);
		return -ENOTCONN;
	}
	return 0;
}

int ctl_config_http(const char *text, const char *name,
		    struct addr_endpoint *a, char *err, size_t errlen)
{
	struct ctl_config c = { .a = a, .on = 1 };
	int line;

	addr_parse(RDMAD_HTTP_LISTEN, RDMAD_HTTP_PORT, a);
	line = ini_parse_string(text, ctl_config_handler, &c);
	return ctl_config_result(&c, line, name, err, errlen);
}

int ctl_config_http_file(const char *path, struct addr_endpoint *a,
			 char *err, size_t errlen)
{
	struct ctl_config c = { .a = a, .on = 1 };
	FILE *f;
	int line, ret;

	addr_parse(RDMAD_HTTP_LISTEN, RDMAD_HTTP_PORT, a);
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", path,
			 strerror(-ret));
		return ret;
	}
	line = ini_parse_file(f, ctl_config_handler, &c);
	ret = ferror(f) ? -EIO : 0;
	fclose(f);
	if (ret) {
		snprintf(err, errlen, "%s: read error", path);
		return ret;
	}
	return ctl_config_result(&c, line, path, err, errlen);
}
