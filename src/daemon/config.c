/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config.c - INI configuration (see config.h, docs/configuration.md).
 *
 * inih hands us one key at a time; we track the line number ourselves
 * (a reader that counts lines) so every message can say FILE:LINE.
 */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "addr.h"
#include "log.h"
#include "proto.h"
#include "units.h"

struct config_parse {
	struct rdmad_config *cfg;
	const char *name;	/* file name for messages */
	char *err;
	size_t errlen;
	int failed;
	int listen_seen;	/* first listen= replaces the defaults */
	int http_allow_seen;	/* so does the first [http] allow= */
	unsigned int line;	/* line of the text inih is working on */
	unsigned int next_line;
	/* input: a FILE or a string */
	FILE *fp;
	const char *str;
};

/* [http] allow default: the loopback, v4 and v6. */
static void config_http_allow_defaults(struct acl *a)
{
	struct acl_entry e;

	memset(a, 0, sizeof(*a));
	if (!acl_parse("127.0.0.0/8", &e))
		acl_add(a, &e);
	if (!acl_parse("::1/128", &e))
		acl_add(a, &e);
}

void config_defaults(struct rdmad_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	config_parse_listen("0.0.0.0", &cfg->listen[0]);
	cfg->n_listen = 1;
	cfg->listen_backlog = 128;
	cfg->max_connections = 64;
	cfg->max_per_host = 0;
	cfg->drain_timeout_ms = 10000;
	cfg->max_duration_ms = 600000;
	cfg->max_buffer_size = 1u << 20;
	cfg->max_iterations = 100000;
	cfg->log_level = LOG_INFO;
	cfg->accept_timeout_ms = 5000;
	cfg->idle_timeout_ms = 10000;
	cfg->session_timeout_ms = 120000;
	cfg->io_timeout_ms = 10000;
	cfg->linger_timeout_ms = 5000;
	cfg->close_timeout_ms = 5000;
	cfg->liveness_ms = 5000;
	cfg->http_on = 1;
	config_parse_addr(CONFIG_HTTP_DEFAULT, CONFIG_HTTP_PORT,
			  &cfg->http_listen);
	config_http_allow_defaults(&cfg->http_allow);
}

static void perr(struct config_parse *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void perr(struct config_parse *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (p->failed++)
		return;		/* keep the first error */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s:%u: %s", p->name, p->line, msg);
}

/* ---- value parsers ---------------------------------------------------- */

static int parse_u64(const char *s, unsigned long long *v, char **end)
{
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	return 0;
}

int config_parse_uint(const char *s, unsigned int min, unsigned int max,
		      unsigned int *out)
{
	return units_parse_uint(s, min, max, out);
}

int config_parse_size(const char *s, uint32_t *out)
{
	uint64_t v;
	int ret = units_parse_size(s, UINT32_MAX, &v);

	if (!ret)
		*out = (uint32_t)v;
	return ret;
}

int config_parse_duration_ms(const char *s, unsigned int *out)
{
	unsigned long long v, mul = 1000;
	char *end;
	int ret;

	ret = parse_u64(s, &v, &end);
	if (ret)
		return ret;
	if (strcmp(end, "ms") == 0)
		mul = 1;
	else if (strcmp(end, "s") == 0 || *end == '\0')
		mul = 1000;
	else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
		mul = 60000;
	else
		return -EINVAL;
	if (v > UINT_MAX / mul)
		return -ERANGE;
	*out = (unsigned int)(v * mul);
	return 0;
}

int config_parse_listen(const char *s, struct config_listen *l)
{
	return config_parse_addr(s, PROTO_DEFAULT_PORT, l);
}

/* "a.b.c.d[:port]" or "[v6addr][:port]" (common/addr.c). */
int config_parse_addr(const char *s, unsigned int defport,
		      struct config_listen *l)
{
	struct addr_endpoint e;
	int ret;

	memset(l, 0, sizeof(*l));
	ret = addr_parse(s, defport, &e);
	if (ret)
		return ret;
	l->addr = e.addr;
	l->addrlen = e.addrlen;
	snprintf(l->text, sizeof(l->text), "%s", e.text);
	return 0;
}

/* ---- keys --------------------------------------------------------------- */

static void set_listen(struct config_parse *p, const char *value)
{
	struct rdmad_config *cfg = p->cfg;
	char buf[512], *tok, *save = NULL;
	int any = 0;

	if (!p->listen_seen) {
		cfg->n_listen = 0;
		p->listen_seen = 1;
	}
	if (strlen(value) >= sizeof(buf)) {
		perr(p, "listen: value too long");
		return;
	}
	strcpy(buf, value);
	for (tok = strtok_r(buf, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		any = 1;
		if (cfg->n_listen >= CONFIG_MAX_LISTEN) {
			perr(p, "listen: more than %d addresses",
			     CONFIG_MAX_LISTEN);
			return;
		}
		if (config_parse_listen(tok, &cfg->listen[cfg->n_listen])) {
			perr(p, "listen: '%s' is not ADDRESS[:PORT] "
			     "(IPv4, or IPv6 in brackets, port 1-65535)", tok);
			return;
		}
		cfg->n_listen++;
	}
	if (!any)
		perr(p, "listen: no address given");
}

/* [http] listen = ADDRESS:PORT, or off (or empty). */
static void set_http_listen(struct config_parse *p, const char *value)
{
	struct rdmad_config *cfg = p->cfg;

	if (!*value || !strcmp(value, "off")) {
		cfg->http_on = 0;
		return;
	}
	if (config_parse_addr(value, CONFIG_HTTP_PORT, &cfg->http_listen)) {
		perr(p, "listen: '%s' is not ADDRESS[:PORT] (one IPv4 "
		     "address, or IPv6 in brackets, port 1-65535) or off",
		     value);
		return;
	}
	cfg->http_on = 1;
}

/* allow = / deny = : CIDR prefixes, space or comma separated; lines add. */
static void set_acl(struct config_parse *p, struct acl *a, const char *name,
		    const char *value)
{
	char buf[1024], *tok, *save = NULL;
	struct acl_entry e;
	int any = 0;

	if (strlen(value) >= sizeof(buf)) {
		perr(p, "%s: value too long", name);
		return;
	}
	strcpy(buf, value);
	for (tok = strtok_r(buf, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		any = 1;
		if (acl_parse(tok, &e)) {
			perr(p, "%s: '%s' is not a network (A.B.C.D/N or "
			     "IPV6/N, no host bits below the prefix)", name,
			     tok);
			return;
		}
		if (acl_add(a, &e)) {
			perr(p, "%s: more than %d networks", name,
			     ACL_MAX_ENTRIES);
			return;
		}
	}
	if (!any)
		perr(p, "%s: no network given", name);
}

static void set_psk_file(struct config_parse *p, const char *value)
{
	struct rdmad_config *cfg = p->cfg;
	char msg[256];

	if (!*value) {		/* psk_file = (empty): no key */
		cfg->psk_file[0] = '\0';
		auth_key_clear(&cfg->psk);
		return;
	}
	if (strlen(value) >= sizeof(cfg->psk_file)) {
		perr(p, "psk_file: path too long");
		return;
	}
	if (auth_key_load(&cfg->psk, value, msg, sizeof(msg))) {
		perr(p, "psk_file: %s", msg);
		return;
	}
	strcpy(cfg->psk_file, value);
}

enum key_type { K_UINT, K_SIZE, K_MS, K_LEVEL, K_LISTEN, K_ALLOW, K_DENY,
		K_PSK, K_HTTP_LISTEN, K_HTTP_ALLOW };

struct key_def {
	const char *section;
	const char *name;
	enum key_type type;
	size_t off;
	unsigned int min, max;
};

#define OFF(f)	offsetof(struct rdmad_config, f)
static const struct key_def keys[] = {
	{ "server", "listen", K_LISTEN, 0, 0, 0 },
	{ "server", "listen_backlog", K_UINT, OFF(listen_backlog), 1, 4096 },
	{ "server", "max_connections", K_UINT, OFF(max_connections),
	  1, 65536 },
	{ "server", "max_connections_per_host", K_UINT, OFF(max_per_host),
	  0, 65536 },
	{ "server", "drain_timeout", K_MS, OFF(drain_timeout_ms),
	  0, 3600000 },
	{ "limits", "max_buffer_size", K_SIZE, OFF(max_buffer_size),
	  1, 1u << 30 },
	{ "limits", "max_iterations", K_UINT, OFF(max_iterations),
	  1, UINT32_MAX - 1 },
	{ "limits", "max_duration", K_MS, OFF(max_duration_ms), 0, 86400000 },
	{ "access", "allow", K_ALLOW, 0, 0, 0 },
	{ "access", "deny", K_DENY, 0, 0, 0 },
	{ "auth", "psk_file", K_PSK, 0, 0, 0 },
	{ "timeouts", "accept", K_MS, OFF(accept_timeout_ms),
	  10, 3600000 },
	{ "timeouts", "idle", K_MS, OFF(idle_timeout_ms), 10, 86400000 },
	{ "timeouts", "session", K_MS, OFF(session_timeout_ms),
	  10, 86400000 },
	{ "timeouts", "io", K_MS, OFF(io_timeout_ms), 10, 3600000 },
	{ "timeouts", "linger", K_MS, OFF(linger_timeout_ms), 10, 3600000 },
	{ "timeouts", "close", K_MS, OFF(close_timeout_ms), 10, 600000 },
	{ "timeouts", "liveness", K_MS, OFF(liveness_ms), 0, 3600000 },
	{ "log", "level", K_LEVEL, OFF(log_level), 0, 0 },
	{ "http", "listen", K_HTTP_LISTEN, 0, 0, 0 },
	{ "http", "allow", K_HTTP_ALLOW, 0, 0, 0 },
};
#undef OFF

static int section_known(const char *section)
{
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(keys[i].section, section) == 0)
			return 1;
	return 0;
}

static void set_key(struct config_parse *p, const struct key_def *k,
		    const char *value)
{
	char *base = (char *)p->cfg;
	unsigned int u;
	uint32_t sz;
	int lvl, ret;

	switch (k->type) {
	case K_LISTEN:
		set_listen(p, value);
		return;
	case K_ALLOW:
		set_acl(p, &p->cfg->allow, k->name, value);
		return;
	case K_DENY:
		set_acl(p, &p->cfg->deny, k->name, value);
		return;
	case K_PSK:
		set_psk_file(p, value);
		return;
	case K_HTTP_LISTEN:
		set_http_listen(p, value);
		return;
	case K_HTTP_ALLOW:
		if (!p->http_allow_seen) {
			memset(&p->cfg->http_allow, 0,
			       sizeof(p->cfg->http_allow));
			p->http_allow_seen = 1;
		}
		set_acl(p, &p->cfg->http_allow, k->name, value);
		return;
	case K_UINT:
		ret = config_parse_uint(value, k->min, k->max, &u);
		if (ret == -ERANGE)
			perr(p, "%s: %s is out of range %u..%u", k->name,
			     value, k->min, k->max);
		else if (ret)
			perr(p, "%s: '%s' is not a number", k->name, value);
		else
			*(unsigned int *)(base + k->off) = u;
		return;
	case K_SIZE:
		ret = config_parse_size(value, &sz);
		if (!ret && (sz < k->min || sz > k->max))
			ret = -ERANGE;
		if (ret == -ERANGE)
			perr(p, "%s: %s is out of range %u..%u bytes",
			     k->name, value, k->min, k->max);
		else if (ret)
			perr(p, "%s: '%s' is not a size (bytes, or with "
			     "suffix k, m, g)", k->name, value);
		else
			*(uint32_t *)(base + k->off) = sz;
		return;
	case K_MS:
		ret = config_parse_duration_ms(value, &u);
		if (!ret && (u < k->min || u > k->max))
			ret = -ERANGE;
		if (ret == -ERANGE)
			perr(p, "%s: %s is out of range %ums..%ums", k->name,
			     value, k->min, k->max);
		else if (ret)
			perr(p, "%s: '%s' is not a duration (seconds, or "
			     "with suffix ms, s, m)", k->name, value);
		else
			*(unsigned int *)(base + k->off) = u;
		return;
	case K_LEVEL:
		lvl = log_level_parse(value);
		if (lvl < 0)
			perr(p, "%s: '%s' is not one of err, warning, notice, "
			     "info, debug", k->name, value);
		else
			*(int *)(base + k->off) = lvl;
		return;
	}
}

static int config_handler(void *user, const char *section, const char *name,
			  const char *value)
{
	struct config_parse *p = user;
	size_t i;

	if (!name)	/* section header alone (INI_CALL_HANDLER_ON_NEW_SECTION) */
		return 1;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(keys[i].section, section) == 0 &&
		    strcmp(keys[i].name, name) == 0) {
			set_key(p, &keys[i], value);
			return !p->failed;
		}
	}
	if (!section_known(section))
		perr(p, "unknown section [%s] (key '%s')", section, name);
	else
		perr(p, "unknown key '%s' in section [%s]", name, section);
	return 0;
}

/* inih reader: one line per call; counts lines for messages. */
static char *config_reader(char *buf, int size, void *stream)
{
	struct config_parse *p = stream;
	size_t n = 0;
	int c = 0;

	if (size < 2)
		return NULL;
	if (p->fp) {
		if (!fgets(buf, size, p->fp))
			return NULL;
		n = strlen(buf);
	} else {
		if (!*p->str)
			return NULL;
		while (n < (size_t)size - 1 && p->str[n]) {
			c = p->str[n];
			buf[n++] = (char)c;
			if (c == '\n')
				break;
		}
		buf[n] = '\0';
		p->str += n;
	}
	p->line = p->next_line;
	if (n && buf[n - 1] == '\n') {
		p->next_line++;
	} else if (n == (size_t)size - 1) {
		perr(p, "line longer than %d characters", size - 2);
		/* skip the rest of that line */
		if (p->fp) {
			while ((c = fgetc(p->fp)) != EOF && c != '\n')
				;
		} else {
			while (*p->str && *p->str != '\n')
				p->str++;
			if (*p->str)
				p->str++;
		}
		p->next_line++;
		buf[0] = '\0';
	}
	return buf;
}

static int config_parse_run(struct config_parse *p)
{
	int ret;

	p->next_line = 1;
	ret = ini_parse_stream(config_reader, p, config_handler, p);
	if (ret > 0 && !p->failed) {
		p->line = (unsigned int)ret;
		perr(p, "syntax error (want '[section]' or 'key = value')");
	}
	if (ret < 0 && !p->failed) {
		p->line = 0;
		perr(p, "cannot parse (out of memory)");
	}
	return p->failed ? -EINVAL : 0;
}

int config_load(struct rdmad_config *cfg, const char *path, char *err,
		size_t errlen)
{
	struct config_parse p = {
		.cfg = cfg, .name = path, .err = err, .errlen = errlen,
	};
	int ret;

	p.fp = fopen(path, "re");
	if (!p.fp) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", path,
			 strerror(-ret));
		return ret;
	}
	ret = config_parse_run(&p);
	if (!ret && ferror(p.fp)) {
		snprintf(err, errlen, "%s: read error", path);
		ret = -EIO;
	}
	fclose(p.fp);
	return ret;
}

int config_load_string(struct rdmad_config *cfg, const char *text,
		       const char *name, char *err, size_t errlen)
{
	struct config_parse p = {
		.cfg = cfg, .name = name, .err = err, .errlen = errlen,
		.str = text,
	};

	return config_parse_run(&p);
}

int config_listen_equal(const struct config_listen *a,
			const struct config_listen *b)
{
	return a->addrlen == b->addrlen &&
	       memcmp(&a->addr, &b->addr, a->addrlen) == 0;
}

int config_validate(const struct rdmad_config *cfg, const char *name,
		    char *err, size_t errlen)
{
	unsigned int i, j;

	if (!cfg->n_listen) {
		snprintf(err, errlen, "%s: no listen address", name);
		return -EINVAL;
	}
	for (i = 0; i < cfg->n_listen; i++)
		for (j = i + 1; j < cfg->n_listen; j++)
			if (config_listen_equal(&cfg->listen[i],
						&cfg->listen[j])) {
				snprintf(err, errlen,
					 "%s: listen address %s given twice",
					 name, cfg->listen[i].text);
				return -EINVAL;
			}
	if (cfg->max_buffer_size < 1 || cfg->max_connections < 1 ||
	    cfg->max_iterations < 1) {
		snprintf(err, errlen, "%s: limits must be at least 1", name);
		return -EINVAL;
	}
	if (cfg->max_per_host > cfg->max_connections) {
		snprintf(err, errlen, "%s: [server] max_connections_per_host "
			 "(%u) exceeds max_connections (%u)", name,
			 cfg->max_per_host, cfg->max_connections);
		return -EINVAL;
	}
	if (cfg->close_timeout_ms > cfg->session_timeout_ms) {
		snprintf(err, errlen, "%s: [timeouts] close (%ums) must not "
			 "exceed session (%ums)", name, cfg->close_timeout_ms,
			 cfg->session_timeout_ms);
		return -EINVAL;
	}
	if (cfg->liveness_ms && cfg->liveness_ms < CONFIG_LIVENESS_MIN_MS) {
		snprintf(err, errlen, "%s: [timeouts] liveness (%ums) must be "
			 "0 (off) or at least %ums", name, cfg->liveness_ms,
			 CONFIG_LIVENESS_MIN_MS);
		return -EINVAL;
	}
	return 0;
}
