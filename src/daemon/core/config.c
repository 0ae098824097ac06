/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config.c - INI configuration (see config.h, docs/configuration.md).
 *
 * inih hands us one key at a time; we track the line number ourselves
 * (a reader that counts lines) so every message can say FILE:LINE.  The
 * key table (keys[]) has a row per key naming its parser (config_key_
 * parse.c) and its field; config_validate() (config_check.c) checks all.
 */
#include "core/config.h"
#include "core/config_key_parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <netinet/in.h>

#include <ini.h>

#include "addr.h"
#include "core/log.h"
#include "container_of.h"
#include "proto.h"

/* One file (or string) being read. */
struct config_parse {
	struct config_err e;	/* FILE:LINE, the first error */
	struct rdmad_config *cfg;
	int listen_seen;	/* first listen= replaces the defaults */
	int http_allow_seen;	/* so does the first [http] allow= */
	unsigned int mod_line[CONFIG_MODULES_MAX];	/* header; 0: not yet */
	unsigned int next_line;
	/* input: a FILE or a string */
	FILE *fp;
	const char *str;
};

/* The parse a key parser's E belongs to (config.c's own parsers). */
static struct config_parse *config_parse_of(struct config_err *e)
{
	return container_of(e, struct config_parse, e);
}

/* [http] allow default: the loopback, v4 and v6. */
static void config_http_allow_defaults(struct acl *a)
{
	struct acl_entry e;

	memset(a, 0, sizeof(*a));
	if (!acl_match_parse("127.0.0.0/8", &e))
		acl_match_add(a, &e);
	if (!acl_match_parse("::1/128", &e))
		acl_match_add(a, &e);
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
	m->max_inbound = CONFIG_MESH_PEERS_DEFAULT;
	m->cross_tor = CONFIG_MESH_CROSS_TOR_DEFAULT;
	m->epoch_ms = CONFIG_MESH_EPOCH_DEFAULT_MS;
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
	m->down_after = CONFIG_MESH_DOWN_AFTER_DEFAULT;
	m->tos = -1;
	m->bw_every_ms = 0;
	m->bw_duration_ms = 200;
	m->bw_size = 65536;
	m->bw_share_ppm = 10000;
	m->prober_lag_max_ms = 10;
	m->prober_wait_max_pct = 50;
	m->slow_round_ms = 250;
	m->healthy_bad_ppm = 1000;
	m->lossy_bad_ppm = 10000;
	m->slow_drop_pct = 20;
	m->flap_downs = 3;
	m->flap_window_ms = 300000;
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
	cfg->counters.interval_ms = CONFIG_COUNTERS_INTERVAL_DEFAULT_MS;
}

/* ---- addresses --------------------------------------------------------- */

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

/* Keys with a meaning of their own (the generic ones: config_key_parse.c). */

static int listen_word(struct config_err *e, const char *key,
		       const char *word, void *arg)
{
	struct rdmad_config *cfg = arg;

	if (cfg->n_listen >= CONFIG_MAX_LISTEN) {
		config_perr(e, "%s: more than %d addresses", key,
			    CONFIG_MAX_LISTEN);
		return -1;
	}
	if (config_parse_listen(word, &cfg->listen[cfg->n_listen])) {
		config_perr(e, "%s: '%s' is not ADDRESS[:PORT] (IPv4, or IPv6 "
			    "in brackets, port 1-65535)", key, word);
		return -1;
	}
	cfg->n_listen++;
	return 0;
}

/* [server] listen: lines add; the first one replaces the default. */
static void config_key_listen(struct config_err *e, const struct config_key *k,
			      void *field, const char *value)
{
	struct config_parse *p = config_parse_of(e);

	if (!p->listen_seen) {
		p->cfg->n_listen = 0;
		p->listen_seen = 1;
	}
	if (!config_words(e, k->name, value, listen_word, p->cfg))
		config_perr(e, "%s: no address given", k->name);
}

/* [http] listen = ADDRESS:PORT, or off (or empty). */
static void config_key_http_listen(struct config_err *e,
				   const struct config_key *k,
				   void *field, const char *value)
{
	struct config_parse *p = config_parse_of(e);
	struct rdmad_config *cfg = p->cfg;

	if (!*value || !strcmp(value, "off")) {
		cfg->http_on = 0;
		return;
	}
	if (config_parse_addr(value, CONFIG_HTTP_PORT, &cfg->http_listen)) {
		config_perr(e, "%s: '%s' is not ADDRESS[:PORT] (one IPv4 "
			    "address, or IPv6 in brackets, port 1-65535) or "
			    "off", k->name, value);
		return;
	}
	cfg->http_on = 1;
}

/* [http] allow: the same, but the first line replaces the loopback. */
static void config_key_http_allow(struct config_err *e,
				  const struct config_key *k,
				  void *field, const char *value)
{
	struct config_parse *p = config_parse_of(e);

	if (!p->http_allow_seen) {
		memset(field, 0, sizeof(struct acl));
		p->http_allow_seen = 1;
	}
	config_key_acl(e, k, field, value);
}

static void config_key_psk_file(struct config_err *e,
				const struct config_key *k,
				void *field, const char *value)
{
	struct config_parse *p = config_parse_of(e);
	struct rdmad_config *cfg = p->cfg;
	char msg[256];

	if (!*value) {		/* psk_file = (empty): no key */
		cfg->psk_file[0] = '\0';
		auth_key_clear(&cfg->psk);
		return;
	}
	if (strlen(value) >= sizeof(cfg->psk_file)) {
		config_perr(e, "%s: path too long", k->name);
		return;
	}
	if (auth_key_load(&cfg->psk, value, msg, sizeof(msg))) {
		config_perr(e, "%s: %s", k->name, msg);
		return;
	}
	strcpy(cfg->psk_file, value);
}

static int skip_word(struct config_err *e, const char *key, const char *word,
		     void *arg)
{
	struct port_counter_skip *s = arg;

	if (!port_counter_pattern_ok(word)) {
		config_perr(e, "%s: '%s' is not a counter pattern (NAME or "
			    "DEVICE/NAME, 1 to %d of A-Z a-z 0-9 _ . - and the "
			    "wildcards * ? [ ] !)", key, word,
			    PORT_COUNTER_PATTERN_MAX - 1);
		return -1;
	}
	if (s->n == PORT_COUNTER_SKIP_MAX) {
		config_perr(e, "%s: more than %d patterns", key,
			    PORT_COUNTER_SKIP_MAX);
		return -1;
	}
	strcpy(s->pat[s->n++], word);
	return 0;
}

/* [counters] skip = PATTERN ...: lines add; an empty one clears the list. */
static void config_key_counter_skip(struct config_err *e,
				    const struct config_key *k, void *field,
				    const char *value)
{
	struct port_counter_skip *s = field, next = *s;

	if (!*value) {
		s->n = 0;
		return;
	}
	if (config_words(e, k->name, value, skip_word, &next) > 0)
		*s = next;
}

/* Rows: { section, key, parser, field, value spec }. */
#define COUNT(lo, hi)	{ VALUE_COUNT, (lo), (hi), false }
#define CODE(lo, hi)	{ VALUE_CODE, (lo), (hi), false }
#define SIZE(lo, hi)	{ VALUE_SIZE, (lo), (hi), false }
#define MS(lo, hi)	{ VALUE_DURATION, (lo), (hi), false }
#define MS_OFF(lo, hi)	{ VALUE_DURATION, (lo), (hi), true }	/* or 0 */
#define PCT(lo, hi)	{ VALUE_PERCENT, (lo), (hi), false }
#define PPM(lo, hi)	{ VALUE_PPM, (lo), (hi), false }
#define NONE		{ VALUE_COUNT, 0, 0, false }
#define OFF(f)		offsetof(struct rdmad_config, f)
static const struct config_key keys[] = {
	{ "server", "listen", config_key_listen, 0, NONE },
	{ "server", "listen_backlog", config_key_uint,
	  OFF(listen_backlog), COUNT(1, 4096) },
	{ "server", "max_connections", config_key_uint,
	  OFF(max_connections), COUNT(1, 65536) },
	{ "server", "max_connections_per_host", config_key_uint,
	  OFF(max_per_host), COUNT(0, 65536) },
	{ "server", "drain_timeout", config_key_uint,
	  OFF(drain_timeout_ms), MS(0, 3600000) },
	{ "limits", "max_buffer_size", config_key_uint,
	  OFF(max_buffer_size), SIZE(1, 1u << 30) },
	{ "limits", "max_registered_bytes", config_key_u64,
	  OFF(max_registered_bytes),
	  SIZE(CONFIG_REGISTERED_MIN, CONFIG_REGISTERED_MAX) },
	{ "limits", "max_iterations", config_key_uint,
	  OFF(max_iterations), COUNT(1, UINT32_MAX - 1) },
	{ "limits", "max_duration", config_key_uint,
	  OFF(max_duration_ms), MS(0, 86400000) },
	{ "access", "allow", config_key_acl, OFF(allow), NONE },
	{ "access", "deny", config_key_acl, OFF(deny), NONE },
	{ "auth", "psk_file", config_key_psk_file, 0, NONE },
	{ "timeouts", "accept", config_key_uint,
	  OFF(accept_timeout_ms), MS(10, 3600000) },
	{ "timeouts", "idle", config_key_uint,
	  OFF(idle_timeout_ms), MS(10, 86400000) },
	{ "timeouts", "session", config_key_uint,
	  OFF(session_timeout_ms), MS(10, 86400000) },
	{ "timeouts", "io", config_key_uint,
	  OFF(io_timeout_ms), MS(10, 3600000) },
	{ "timeouts", "linger", config_key_uint,
	  OFF(linger_timeout_ms), MS(10, 3600000) },
	{ "timeouts", "close", config_key_uint,
	  OFF(close_timeout_ms), MS(10, 600000) },
	{ "timeouts", "liveness", config_key_uint,
	  OFF(liveness_ms), MS(0, 3600000) },
	{ "log", "level", config_key_level, OFF(log_level), NONE },
	{ "http", "listen", config_key_http_listen, 0, NONE },
	{ "http", "allow", config_key_http_allow, OFF(http_allow), NONE },
	{ "http", "probe_key_allow", config_key_acl, OFF(probe_key_allow), NONE },
	{ "http", "web_config", config_key_path, OFF(http_web_config),
	  COUNT(0, sizeof(((struct rdmad_config *)0)->http_web_config)) },
	{ "mesh", "targets", config_key_path,
	  OFF(mesh.targets),
	  COUNT(0, sizeof(((struct config_mesh *)0)->targets)) },
	{ "mesh", "port", config_key_u16, OFF(mesh.port), COUNT(1, 65535) },
	{ "mesh", "max_peers", config_key_uint,
	  OFF(mesh.max_peers), COUNT(1, CONFIG_MESH_PEERS_MAX) },
	{ "mesh", "max_inbound", config_key_uint,
	  OFF(mesh.max_inbound), COUNT(1, CONFIG_MESH_PEERS_MAX) },
	{ "mesh", "cross_tor", config_key_uint,
	  OFF(mesh.cross_tor), COUNT(1, CONFIG_MESH_CROSS_TOR_MAX) },
	{ "mesh", "epoch", config_key_uint, OFF(mesh.epoch_ms),
	  MS(CONFIG_MESH_EPOCH_MIN_MS, CONFIG_MESH_EPOCH_MAX_MS) },
	{ "mesh", "interval", config_key_uint,
	  OFF(mesh.interval_ms), MS(10, 3600000) },
	{ "mesh", "jitter", config_key_uint, OFF(mesh.jitter_pct), PCT(0, 50) },
	{ "mesh", "sizes", config_key_sizes, OFF(mesh), SIZE(1, 1u << 30) },
	{ "mesh", "ops", config_key_ops,
	  OFF(mesh.ops), COUNT(PROTO_OP_READ, 0) },
	{ "mesh", "paths", config_key_uint,
	  OFF(mesh.paths), COUNT(1, CONFIG_MESH_PATHS_MAX) },
	{ "mesh", "connect_timeout", config_key_uint,
	  OFF(mesh.connect_timeout_ms), MS(10, 3600000) },
	{ "mesh", "round_timeout", config_key_uint,
	  OFF(mesh.round_timeout_ms), MS(10, 3600000) },
	{ "mesh", "backoff_min", config_key_uint,
	  OFF(mesh.backoff_min_ms), MS(10, 3600000) },
	{ "mesh", "backoff_max", config_key_uint,
	  OFF(mesh.backoff_max_ms), MS(10, 3600000) },
	{ "mesh", "down_after", config_key_uint,
	  OFF(mesh.down_after), COUNT(1, CONFIG_MESH_DOWN_AFTER_MAX) },
	{ "mesh", "tos", config_key_tos, OFF(mesh.tos), CODE(0, 255) },
	{ "mesh", "bandwidth_every", config_key_uint,
	  OFF(mesh.bw_every_ms), MS_OFF(1000, 86400000) },
	{ "mesh", "bandwidth_duration", config_key_uint,
	  OFF(mesh.bw_duration_ms), MS(10, 10000) },
	{ "mesh", "bandwidth_size", config_key_uint,
	  OFF(mesh.bw_size), SIZE(1, 1u << 30) },
	{ "mesh", "bandwidth_share", config_key_uint,
	  OFF(mesh.bw_share_ppm), PPM(10, 500000) },
	{ "mesh", "source", config_key_source, OFF(mesh.source), NONE },
	{ "mesh", "rails", config_key_rails, OFF(mesh), NONE },
	{ "mesh", "peer_series", config_key_peer_series,
	  OFF(mesh.peer_series), NONE },
	{ "mesh", "prober_lag_max", config_key_uint,
	  OFF(mesh.prober_lag_max_ms), MS_OFF(1, 60000) },
	{ "mesh", "prober_wait_max", config_key_uint,
	  OFF(mesh.prober_wait_max_pct), PCT(0, 100) },
	{ "mesh", "slow_round", config_key_uint,
	  OFF(mesh.slow_round_ms), MS_OFF(1, 3600000) },
	{ "mesh", "healthy_bad", config_key_uint,
	  OFF(mesh.healthy_bad_ppm), PPM(10, 100000) },
	{ "mesh", "lossy_bad", config_key_uint,
	  OFF(mesh.lossy_bad_ppm), PPM(20, 500000) },
	{ "mesh", "slow_drop", config_key_uint,
	  OFF(mesh.slow_drop_pct), PCT(5, 90) },
	{ "mesh", "flap_downs", config_key_uint,
	  OFF(mesh.flap_downs), COUNT(2, CONFIG_MESH_FLAP_DOWNS_MAX) },
	{ "mesh", "flap_window", config_key_uint,
	  OFF(mesh.flap_window_ms), MS(1000, 86400000) },
	{ "counters", "interval", config_key_uint,
	  OFF(counters.interval_ms), MS_OFF(1000, 3600000) },
	{ "counters", "skip", config_key_counter_skip, OFF(counters.skip),
	  NONE },
#undef OFF
#define OFF(f)	offsetof(struct config_module, f)
	{ "module", "op", config_key_ops, OFF(ops), COUNT(0, 0) },
	{ "module", "size", config_key_uint, OFF(size), SIZE(1, 1u << 30) },
	{ "module", "iterations", config_key_uint,
	  OFF(iterations), COUNT(1, UINT32_MAX - 1) },
	{ "module", "timeout", config_key_uint,
	  OFF(timeout_ms), MS(100, 60000) },
	{ "module", "tos", config_key_tos, OFF(tos), CODE(0, 255) },
#undef OFF
};
#undef COUNT
#undef CODE
#undef SIZE
#undef MS
#undef MS_OFF
#undef PCT
#undef PPM
#undef NONE

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
		config_perr(&p->e, "[module.%.40s]: a module name is 1 to %d "
			    "of A-Z a-z 0-9 _ -", name,
			    CONFIG_MODULE_NAME_MAX - 1);
		return NULL;
	}
	for (i = 0; i < cfg->n_modules; i++)
		if (!strcmp(cfg->modules[i].name, name))
			break;
	if (i < cfg->n_modules && p->mod_line[i]) {
		if (header) {
			config_perr(&p->e, "module '%s' defined twice (first "
				    "on line %u)", name, p->mod_line[i]);
			return NULL;
		}
		return &cfg->modules[i];
	}
	if (i == cfg->n_modules) {
		if (i == CONFIG_MODULES_MAX) {
			config_perr(&p->e, "[module.%s]: more than %d modules",
				    name, CONFIG_MODULES_MAX);
			return NULL;
		}
		cfg->n_modules++;
	}
	m = &cfg->modules[i];	/* new, or left from an earlier file */
	*m = config_module_builtin;
	strcpy(m->name, name);
	p->mod_line[i] = p->e.line;
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
			keys[i].parse(&p->e, &keys[i], base + keys[i].off,
				      value);
			return !p->e.failed;
		}
	}
	if (base == (char *)p->cfg && !section_known(section))
		config_perr(&p->e, "unknown section [%s] (key '%s')", section,
			    name);
	else
		config_perr(&p->e, "unknown key '%s' in section [%s]", name,
			    section);
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
	p->e.line = p->next_line;
	config_section_line(p, buf);
	if (n && buf[n - 1] == '\n') {
		p->next_line++;
	} else if (n == (size_t)size - 1) {
		config_perr(&p->e, "line longer than %d characters", size - 2);
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
	if (ret > 0 && !p->e.failed) {
		p->e.line = (unsigned int)ret;
		config_perr(&p->e, "syntax error (want '[section]' or 'key = "
			    "value')");
	}
	if (ret < 0 && !p->e.failed) {
		p->e.line = 0;
		config_perr(&p->e, "cannot parse (out of memory)");
	}
	return p->e.failed ? -EINVAL : 0;
}

int config_load(struct rdmad_config *cfg, const char *path, char *err,
		size_t errlen)
{
	struct config_parse p = {
		.e = { .name = path, .err = err, .errlen = errlen },
		.cfg = cfg,
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
		.e = { .name = name, .err = err, .errlen = errlen },
		.cfg = cfg, .str = text,
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
