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
	unsigned int mod_line[CONFIG_MODULES_MAX];	/* header; 0: not yet */
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

/* GET /probe without a module, when no [module.default] is written. */
static const struct config_module config_module_builtin = {
	.name = CONFIG_MODULE_DEFAULT,
	.ops = PROTO_OP_READ | PROTO_OP_WRITE,
	.size = 4096,
	.iterations = 10,
	.timeout_ms = 5000,
	.tos = -1,
};

static void config_mesh_defaults(struct config_mesh *m)
{
	static const uint32_t sizes[] = { 64, 1100, 4096, 65536 };

	memset(m, 0, sizeof(*m));
	m->port = PROTO_DEFAULT_PORT;
	m->max_peers = CONFIG_MESH_PEERS_DEFAULT;
	m->interval_ms = 1000;
	m->jitter_pct = 10;
	memcpy(m->sizes, sizes, sizeof(sizes));
	m->n_sizes = sizeof(sizes) / sizeof(sizes[0]);
	m->ops = PROTO_OP_WRITE | PROTO_OP_READ;
	m->paths = 1;
	m->connect_timeout_ms = 3000;
	m->round_timeout_ms = 900;
	m->backoff_min_ms = 1000;
	m->backoff_max_ms = 60000;
	m->tos = -1;
	m->bw_every_ms = 0;
	m->bw_duration_ms = 200;
	m->bw_size = 65536;
	m->bw_share_ppm = 10000;
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
	cfg->max_registered_bytes = CONFIG_REGISTERED_DEFAULT;
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
	config_mesh_defaults(&cfg->mesh);
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

/* "1%", "0.5%", "0.125" (percent, up to 3 decimals) -> parts per million. */
int config_parse_ppm(const char *s, uint32_t *out)
{
	unsigned long long whole, frac = 0;
	unsigned int digits = 0;
	char *end;
	int ret;

	ret = parse_u64(s, &whole, &end);
	if (ret)
		return ret;
	if (*end == '.') {
		end++;
		if (!isdigit((unsigned char)*end))
			return -EINVAL;
		while (isdigit((unsigned char)*end)) {
			if (++digits > 3)
				return -EINVAL;
			frac = frac * 10 + (unsigned long long)(*end++ - '0');
		}
		while (digits++ < 3)
			frac *= 10;
	}
	if (*end == '%')
		end++;
	if (*end)
		return -EINVAL;
	if (whole > 100)
		return -ERANGE;
	*out = (uint32_t)(whole * 10000 + frac * 10);
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

/*
 * FN for each word of a list VALUE (blanks or commas between words)
 * until it fails (non-zero, after perr()).  The number of words, or -1.
 */
static int config_words(struct config_parse *p, const char *key,
			const char *value,
			int (*fn)(struct config_parse *p, const char *key,
				  const char *word, void *arg),
			void *arg)
{
	char buf[1024], *tok, *save = NULL;
	int n = 0;

	if (strlen(value) >= sizeof(buf)) {
		perr(p, "%s: value too long", key);
		return -1;
	}
	strcpy(buf, value);
	for (tok = strtok_r(buf, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		if (fn(p, key, tok, arg))
			return -1;
		n++;
	}
	return n;
}

static int listen_word(struct config_parse *p, const char *key,
		       const char *word, void *arg)
{
	struct rdmad_config *cfg = arg;

	if (cfg->n_listen >= CONFIG_MAX_LISTEN) {
		perr(p, "%s: more than %d addresses", key, CONFIG_MAX_LISTEN);
		return -1;
	}
	if (config_parse_listen(word, &cfg->listen[cfg->n_listen])) {
		perr(p, "%s: '%s' is not ADDRESS[:PORT] (IPv4, or IPv6 in "
		     "brackets, port 1-65535)", key, word);
		return -1;
	}
	cfg->n_listen++;
	return 0;
}

static void set_listen(struct config_parse *p, const char *value)
{
	if (!p->listen_seen) {
		p->cfg->n_listen = 0;
		p->listen_seen = 1;
	}
	if (!config_words(p, "listen", value, listen_word, p->cfg))
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
static int acl_word(struct config_parse *p, const char *key,
		    const char *word, void *arg)
{
	struct acl_entry e;

	if (acl_parse(word, &e)) {
		perr(p, "%s: '%s' is not a network (A.B.C.D/N or IPV6/N, no "
		     "host bits below the prefix)", key, word);
		return -1;
	}
	if (acl_add(arg, &e)) {
		perr(p, "%s: more than %d networks", key, ACL_MAX_ENTRIES);
		return -1;
	}
	return 0;
}

static void set_acl(struct config_parse *p, struct acl *a, const char *name,
		    const char *value)
{
	if (!config_words(p, name, value, acl_word, a))
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

enum key_type { K_UINT, K_SIZE, K_BYTES, K_MS, K_LEVEL, K_LISTEN, K_ALLOW, K_DENY,
		K_PSK, K_HTTP_LISTEN, K_HTTP_ALLOW, K_PROBE_KEY, K_PORT, K_PCT, K_PPM, K_MS_OFF,
		K_SIZES, K_OPS, K_TOS, K_PATH, K_SOURCE };

struct key_def {
	const char *section;	/* "module": every [module.NAME] */
	const char *name;
	enum key_type type;
	size_t off;		/* in struct rdmad_config, or config_module */
	unsigned int min, max;	/* K_OPS: min PROTO_OP_READ, READ needed */
};

struct config_sizes {
	const struct key_def *k;
	uint32_t v[CONFIG_MESH_SIZES_MAX];
	unsigned int n;
};

static int size_word(struct config_parse *p, const char *key,
		     const char *word, void *arg)
{
	struct config_sizes *s = arg;
	int ret;

	if (s->n == CONFIG_MESH_SIZES_MAX) {
		perr(p, "%s: more than %d sizes", key, CONFIG_MESH_SIZES_MAX);
		return -1;
	}
	ret = config_parse_size(word, &s->v[s->n]);
	if (!ret && (s->v[s->n] < s->k->min || s->v[s->n] > s->k->max))
		ret = -ERANGE;
	if (ret) {
		perr(p, "%s: '%s' is not a size from %u to %u bytes (bytes, "
		     "or with suffix k, m, g)", key, word, s->k->min,
		     s->k->max);
		return -1;
	}
	s->n++;
	return 0;
}

/* [mesh] sizes = SIZE ...: 1 to CONFIG_MESH_SIZES_MAX, each MIN..MAX. */
static void set_sizes(struct config_parse *p, const struct key_def *k,
		      const char *value)
{
	struct config_mesh *m = &p->cfg->mesh;
	struct config_sizes s = { .k = k };
	int n = config_words(p, k->name, value, size_word, &s);

	if (n < 0)
		return;
	if (!n) {
		perr(p, "%s: no size given", k->name);
		return;
	}
	memcpy(m->sizes, s.v, s.n * sizeof(s.v[0]));
	m->n_sizes = s.n;
}

static int op_word(struct config_parse *p, const char *key, const char *word,
		   void *arg)
{
	unsigned int *ops = arg, op;

	if (!strcmp(word, "read")) {
		op = PROTO_OP_READ;
	} else if (!strcmp(word, "write")) {
		op = PROTO_OP_WRITE;
	} else {
		perr(p, "%s: '%s' is not read or write", key, word);
		return -1;
	}
	if (*ops & op) {
		perr(p, "%s: '%s' given twice", key, word);
		return -1;
	}
	*ops |= op;
	return 0;
}

/*
 * ops = write read | read (mesh: k->min is PROTO_OP_READ), op = read
 * write | read | write (modules).  In any order, each once.
 */
static void set_ops(struct config_parse *p, const struct key_def *k,
		    const char *value, uint8_t *out)
{
	unsigned int ops = 0;

	if (config_words(p, k->name, value, op_word, &ops) < 0)
		return;
	if (!ops) {
		perr(p, "%s: no operation given (read, write)", k->name);
		return;
	}
	if ((ops & k->min) != k->min) {
		perr(p, "%s: 'write' alone: a WRITE is only verified by "
		     "reading it back (write read, or read)", k->name);
		return;
	}
	*out = (uint8_t)ops;
}

/* tos = 0..255, decimal or 0x hex; empty: not set (-1). */
static void set_tos(struct config_parse *p, const struct key_def *k,
		    const char *value, int *out)
{
	unsigned int u;
	int ret;

	if (!*value) {
		*out = -1;
		return;
	}
	ret = units_parse_xuint(value, k->min, k->max, &u);
	if (ret == -ERANGE)
		perr(p, "%s: %s is out of range %u..%u", k->name, value,
		     k->min, k->max);
	else if (ret)
		perr(p, "%s: '%s' is not a number (decimal, or hex after 0x)",
		     k->name, value);
	else
		*out = (int)u;
}

/* A whole percent, "10%" or "10". */
static void set_pct(struct config_parse *p, const struct key_def *k,
		    const char *value, unsigned int *out)
{
	char buf[32];
	size_t len = strlen(value);
	int ret;

	if (len >= sizeof(buf)) {
		perr(p, "%s: value too long", k->name);
		return;
	}
	strcpy(buf, value);
	if (len && buf[len - 1] == '%')
		buf[len - 1] = '\0';
	ret = config_parse_uint(buf, k->min, k->max, out);
	if (ret == -ERANGE)
		perr(p, "%s: %s is out of range %u..%u%%", k->name, value,
		     k->min, k->max);
	else if (ret)
		perr(p, "%s: '%s' is not a whole percent", k->name, value);
}

/* A percent with up to 3 decimals, kept in ppm: MIN..MAX ppm. */
static void set_ppm(struct config_parse *p, const struct key_def *k,
		    const char *value, uint32_t *out)
{
	uint32_t ppm;
	int ret;

	ret = config_parse_ppm(value, &ppm);
	if (!ret && (ppm < k->min || ppm > k->max))
		ret = -ERANGE;
	if (ret == -ERANGE)
		perr(p, "%s: %s is out of range %u.%03u%%..%u%%", k->name,
		     value, k->min / 10000, k->min % 10000 / 10,
		     k->max / 10000);
	else if (ret)
		perr(p, "%s: '%s' is not a percent (up to 3 decimals, as "
		     "0.5%%)", k->name, value);
	else
		*out = ppm;
}

/* source = ADDRESS (no port), or empty: rdma_cm picks. */
static void set_source(struct config_parse *p, const struct key_def *k,
		       const char *value, struct sockaddr_storage *out)
{
	struct addr_endpoint e;
	uint16_t port = 0;
	char host[64];

	if (!*value) {
		memset(out, 0, sizeof(*out));
		return;
	}
	if (addr_parse(value, 0, &e) ||
	    addr_split((struct sockaddr *)&e.addr, host, sizeof(host),
		       &port) || port) {
		perr(p, "%s: '%s' is not an address (IPv4, or IPv6 in "
		     "brackets, without a port)", k->name, value);
		return;
	}
	*out = e.addr;
}

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
	{ "limits", "max_registered_bytes", K_BYTES,
	  OFF(max_registered_bytes), 0, 0 },
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
	{ "http", "probe_key_allow", K_PROBE_KEY, 0, 0, 0 },
	{ "mesh", "targets", K_PATH, OFF(mesh.targets), 0,
	  sizeof(((struct config_mesh *)0)->targets) },
	{ "mesh", "port", K_PORT, OFF(mesh.port), 1, 65535 },
	{ "mesh", "max_peers", K_UINT, OFF(mesh.max_peers),
	  1, CONFIG_MESH_PEERS_MAX },
	{ "mesh", "interval", K_MS, OFF(mesh.interval_ms), 10, 3600000 },
	{ "mesh", "jitter", K_PCT, OFF(mesh.jitter_pct), 0, 50 },
	{ "mesh", "sizes", K_SIZES, 0, 1, 1u << 30 },
	{ "mesh", "ops", K_OPS, OFF(mesh.ops), PROTO_OP_READ, 0 },
	{ "mesh", "paths", K_UINT, OFF(mesh.paths), 1, CONFIG_MESH_PATHS_MAX },
	{ "mesh", "connect_timeout", K_MS, OFF(mesh.connect_timeout_ms),
	  10, 3600000 },
	{ "mesh", "round_timeout", K_MS, OFF(mesh.round_timeout_ms),
	  10, 3600000 },
	{ "mesh", "backoff_min", K_MS, OFF(mesh.backoff_min_ms), 10, 3600000 },
	{ "mesh", "backoff_max", K_MS, OFF(mesh.backoff_max_ms), 10, 3600000 },
	{ "mesh", "tos", K_TOS, OFF(mesh.tos), 0, 255 },
	{ "mesh", "bandwidth_every", K_MS_OFF, OFF(mesh.bw_every_ms),
	  1000, 86400000 },
	{ "mesh", "bandwidth_duration", K_MS, OFF(mesh.bw_duration_ms),
	  10, 10000 },
	{ "mesh", "bandwidth_size", K_SIZE, OFF(mesh.bw_size), 1, 1u << 30 },
	{ "mesh", "bandwidth_share", K_PPM, OFF(mesh.bw_share_ppm),
	  10, 500000 },
	{ "mesh", "source", K_SOURCE, OFF(mesh.source), 0, 0 },
#undef OFF
#define OFF(f)	offsetof(struct config_module, f)
	{ "module", "op", K_OPS, OFF(ops), 0, 0 },
	{ "module", "size", K_SIZE, OFF(size), 1, 1u << 30 },
	{ "module", "iterations", K_UINT, OFF(iterations), 1, UINT32_MAX - 1 },
	{ "module", "timeout", K_MS, OFF(timeout_ms), 100, 60000 },
	{ "module", "tos", K_TOS, OFF(tos), 0, 255 },
};
#undef OFF

static int section_known(const char *section)
{
	size_t i;

	if (!strcmp(section, "module"))	/* only as [module.NAME] */
		return 0;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(keys[i].section, section) == 0)
			return 1;
	return 0;
}

/* NAME of [module.NAME]: 1 to 31 of A-Z a-z 0-9 _ -. */
static int config_module_name_ok(const char *name)
{
	size_t i, len = strlen(name);

	if (!len || len >= CONFIG_MODULE_NAME_MAX)
		return 0;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' &&
		    name[i] != '-')
			return 0;
	return 1;
}

/*
 * The module NAME of this file, new (with the built-in values) the first
 * time; HEADER: called for its [module.NAME] line, a second one of
 * which is an error.  NULL after an error.
 */
static struct config_module *config_module_begin(struct config_parse *p,
						 const char *name, int header)
{
	struct rdmad_config *cfg = p->cfg;
	struct config_module *m;
	unsigned int i;

	if (!config_module_name_ok(name)) {
		perr(p, "[module.%.40s]: a module name is 1 to %d of A-Z a-z "
		     "0-9 _ -", name, CONFIG_MODULE_NAME_MAX - 1);
		return NULL;
	}
	for (i = 0; i < cfg->n_modules; i++)
		if (!strcmp(cfg->modules[i].name, name))
			break;
	if (i < cfg->n_modules && p->mod_line[i]) {
		if (header) {
			perr(p, "module '%s' defined twice (first on line %u)",
			     name, p->mod_line[i]);
			return NULL;
		}
		return &cfg->modules[i];
	}
	if (i == cfg->n_modules) {
		if (i == CONFIG_MODULES_MAX) {
			perr(p, "[module.%s]: more than %d modules", name,
			     CONFIG_MODULES_MAX);
			return NULL;
		}
		cfg->n_modules++;
	}
	m = &cfg->modules[i];	/* new, or left from an earlier file */
	*m = config_module_builtin;
	strcpy(m->name, name);
	p->mod_line[i] = p->line;
	return m;
}

/*
 * A "[section]" line as inih sees it (at the start of the line): a
 * [module.NAME] header defines the module, keys or not, once.
 */
static void config_section_line(struct config_parse *p, const char *line)
{
	char name[64];
	const char *end;
	size_t len;

	if (line[0] != '[' || strncmp(line + 1, "module.", 7))
		return;
	end = strchr(line, ']');
	if (!end)
		return;		/* inih: syntax error */
	len = (size_t)(end - line - 8);
	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, line + 8, len);
	name[len] = '\0';
	config_module_begin(p, name, 1);
}

/* BASE: the config, or the [module.NAME] being read. */
static void set_key(struct config_parse *p, const struct key_def *k,
		    char *base, const char *value)
{
	unsigned int u;
	uint32_t sz;
	uint64_t sz64;
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
	case K_PROBE_KEY:
		set_acl(p, &p->cfg->probe_key_allow, k->name, value);
		return;
	case K_SIZES:
		set_sizes(p, k, value);
		return;
	case K_OPS:
		set_ops(p, k, value, (uint8_t *)(base + k->off));
		return;
	case K_TOS:
		set_tos(p, k, value, (int *)(base + k->off));
		return;
	case K_PCT:
		set_pct(p, k, value, (unsigned int *)(base + k->off));
		return;
	case K_PPM:
		set_ppm(p, k, value, (uint32_t *)(base + k->off));
		return;
	case K_SOURCE:
		set_source(p, k, value,
			   (struct sockaddr_storage *)(base + k->off));
		return;
	case K_PATH:
		if (strlen(value) >= k->max)
			perr(p, "%s: path too long", k->name);
		else
			strcpy(base + k->off, value);
		return;
	case K_PORT:
		ret = config_parse_uint(value, k->min, k->max, &u);
		if (ret)
			perr(p, "%s: '%s' is not a port (1-65535)", k->name,
			     value);
		else
			*(uint16_t *)(base + k->off) = (uint16_t)u;
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
	case K_BYTES:	/* 64-bit: the range is CONFIG_REGISTERED_* */
		ret = units_parse_size(value, CONFIG_REGISTERED_MAX, &sz64);
		if (!ret && sz64 < CONFIG_REGISTERED_MIN)
			ret = -ERANGE;
		if (ret == -ERANGE)
			perr(p, "%s: %s is out of range 64k..1024g", k->name,
			     value);
		else if (ret)
			perr(p, "%s: '%s' is not a size (bytes, or with "
			     "suffix k, m, g)", k->name, value);
		else
			*(uint64_t *)(base + k->off) = sz64;
		return;
	case K_MS:
	case K_MS_OFF:		/* 0 (off), or MIN..MAX */
		ret = config_parse_duration_ms(value, &u);
		if (!ret && (u < k->min || u > k->max) &&
		    !(k->type == K_MS_OFF && !u))
			ret = -ERANGE;
		if (ret == -ERANGE)
			perr(p, "%s: %s is out of range %s%ums..%ums", k->name,
			     value, k->type == K_MS_OFF ? "0 (off) or " : "",
			     k->min, k->max);
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
	const char *sec = section;
	char *base = (char *)p->cfg;
	struct config_module *m;
	size_t i;

	if (!name)	/* section header alone (INI_CALL_HANDLER_ON_NEW_SECTION) */
		return 1;
	if (!strncmp(section, "module.", 7)) {
		m = config_module_begin(p, section + 7, 0);
		if (!m)
			return 0;
		base = (char *)m;
		sec = "module";
	} else if (!section_known(section)) {
		sec = "";	/* [module] alone matches no key */
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(keys[i].section, sec) == 0 &&
		    strcmp(keys[i].name, name) == 0) {
			set_key(p, &keys[i], base, value);
			return !p->failed;
		}
	}
	if (base == (char *)p->cfg && !section_known(section))
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
	config_section_line(p, buf);
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

const struct config_module *config_module_find(const struct rdmad_config *cfg,
					       const char *name)
{
	unsigned int i;

	if (!name || !*name)
		name = CONFIG_MODULE_DEFAULT;
	for (i = 0; i < cfg->n_modules; i++)
		if (!strcmp(cfg->modules[i].name, name))
			return &cfg->modules[i];
	if (!strcmp(name, CONFIG_MODULE_DEFAULT))
		return &config_module_builtin;
	return NULL;
}

/* [mesh]: its timers among themselves; with targets, against [limits]. */
static int config_validate_mesh(const struct rdmad_config *cfg,
				const char *name, char *err, size_t errlen)
{
	const struct config_mesh *m = &cfg->mesh;
	unsigned int i;

	if (m->backoff_min_ms > m->backoff_max_ms) {
		snprintf(err, errlen, "%s: [mesh] backoff_min (%ums) must not "
			 "exceed backoff_max (%ums)", name, m->backoff_min_ms,
			 m->backoff_max_ms);
		return -EINVAL;
	}
	if (m->connect_timeout_ms >= m->backoff_max_ms) {
		snprintf(err, errlen, "%s: [mesh] connect_timeout (%ums) must "
			 "be below backoff_max (%ums)", name,
			 m->connect_timeout_ms, m->backoff_max_ms);
		return -EINVAL;
	}
	if (!m->targets[0])
		return 0;	/* mesh off: sizes need not fit */
	for (i = 0; i < m->n_sizes; i++)
		if (m->sizes[i] > cfg->max_buffer_size) {
			snprintf(err, errlen, "%s: [mesh] sizes: %u exceeds "
				 "[limits] max_buffer_size (%u)", name,
				 m->sizes[i], cfg->max_buffer_size);
			return -EINVAL;
		}
	if (m->bw_every_ms && m->bw_size > cfg->max_buffer_size) {
		snprintf(err, errlen, "%s: [mesh] bandwidth_size (%u) exceeds "
			 "[limits] max_buffer_size (%u)", name, m->bw_size,
			 cfg->max_buffer_size);
		return -EINVAL;
	}
	return 0;
}

/* [module.NAME]: within [limits]. */
static int config_validate_modules(const struct rdmad_config *cfg,
				   const char *name, char *err, size_t errlen)
{
	const struct config_module *m;
	unsigned int i;

	for (i = 0; i < cfg->n_modules; i++) {
		m = &cfg->modules[i];
		if (m->size > cfg->max_buffer_size) {
			snprintf(err, errlen, "%s: [module.%s] size (%u) "
				 "exceeds [limits] max_buffer_size (%u)", name,
				 m->name, m->size, cfg->max_buffer_size);
			return -EINVAL;
		}
		if (m->iterations > cfg->max_iterations) {
			snprintf(err, errlen, "%s: [module.%s] iterations "
				 "(%u) exceeds [limits] max_iterations (%u)",
				 name, m->name, m->iterations,
				 cfg->max_iterations);
			return -EINVAL;
		}
	}
	return 0;
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
	if (cfg->max_registered_bytes < cfg->max_buffer_size) {
		snprintf(err, errlen, "%s: [limits] max_registered_bytes "
			 "(%llu) is below max_buffer_size (%u): no session of "
			 "that size could ever be admitted", name,
			 (unsigned long long)cfg->max_registered_bytes,
			 cfg->max_buffer_size);
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
	if (config_validate_mesh(cfg, name, err, errlen) ||
	    config_validate_modules(cfg, name, err, errlen))
		return -EINVAL;
	return 0;
}
