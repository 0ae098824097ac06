/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config_check.c - the whole configuration's rules, across keys, after
 * config.c has read each key alone (config_validate(), config.h).  Pure:
 * no file, no socket.  One function per rule family in config_checks[];
 * the first that fails gives the message, "NAME: ...".
 */
#include "core/config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

struct config_check {
	const struct rdmad_config *cfg;
	const char *name;	/* the file's, for messages */
	char *err;
	size_t errlen;
};

/* "NAME: " and the message into c->err; -EINVAL. */
static int config_check_fail(struct config_check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int config_check_fail(struct config_check *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s: %s", c->name, msg);
	return -EINVAL;
}

/* [server] listen: at least one address, each once. */
static int config_check_listen(struct config_check *c)
{
	const struct rdmad_config *cfg = c->cfg;
	unsigned int i, j;

	if (!cfg->n_listen)
		return config_check_fail(c, "no listen address");
	for (i = 0; i < cfg->n_listen; i++)
		for (j = i + 1; j < cfg->n_listen; j++)
			if (config_listen_equal(&cfg->listen[i],
						&cfg->listen[j]))
				return config_check_fail(c, "listen address "
					"%s given twice", cfg->listen[i].text);
	return 0;
}

/* [limits] and [server] limits among themselves. */
static int config_check_limits(struct config_check *c)
{
	const struct rdmad_config *cfg = c->cfg;

	if (cfg->max_buffer_size < 1 || cfg->max_connections < 1 ||
	    cfg->max_iterations < 1)
		return config_check_fail(c, "limits must be at least 1");
	if (cfg->max_registered_bytes < cfg->max_buffer_size)
		return config_check_fail(c, "[limits] max_registered_bytes "
			"(%llu) is below max_buffer_size (%u): no session of "
			"that size could ever be admitted",
			(unsigned long long)cfg->max_registered_bytes,
			cfg->max_buffer_size);
	if (cfg->max_per_host > cfg->max_connections)
		return config_check_fail(c, "[server] max_connections_per_host "
			"(%u) exceeds max_connections (%u)", cfg->max_per_host,
			cfg->max_connections);
	return 0;
}

static int config_check_timeouts(struct config_check *c)
{
	const struct rdmad_config *cfg = c->cfg;

	if (cfg->close_timeout_ms > cfg->session_timeout_ms)
		return config_check_fail(c, "[timeouts] close (%ums) must not "
			"exceed session (%ums)", cfg->close_timeout_ms,
			cfg->session_timeout_ms);
	if (cfg->liveness_ms && cfg->liveness_ms < CONFIG_LIVENESS_MIN_MS)
		return config_check_fail(c, "[timeouts] liveness (%ums) must "
			"be 0 (off) or at least %ums", cfg->liveness_ms,
			CONFIG_LIVENESS_MIN_MS);
	return 0;
}

/* [mesh]: its timers among themselves; with targets, against [limits]. */
static int config_check_mesh(struct config_check *c)
{
	const struct rdmad_config *cfg = c->cfg;
	const struct config_mesh *m = &cfg->mesh;
	unsigned int i;

	if (m->backoff_min_ms > m->backoff_max_ms)
		return config_check_fail(c, "[mesh] backoff_min (%ums) must "
			"not exceed backoff_max (%ums)", m->backoff_min_ms,
			m->backoff_max_ms);
	if (m->connect_timeout_ms >= m->backoff_max_ms)
		return config_check_fail(c, "[mesh] connect_timeout (%ums) "
			"must be below backoff_max (%ums)",
			m->connect_timeout_ms, m->backoff_max_ms);
	if (m->lossy_bad_ppm <= m->healthy_bad_ppm)
		return config_check_fail(c, "[mesh] lossy_bad (%.4g%%) must be "
			"above healthy_bad (%.4g%%): the loss test tells a lossy "
			"path from a healthy one", m->lossy_bad_ppm / 1e4,
			m->healthy_bad_ppm / 1e4);
	if (m->n_rails && m->source.ss_family)
		return config_check_fail(c, "[mesh] source and rails: one or "
			"the other (with rails, each rail's rounds leave from "
			"this host's address on it)");
	if (!m->targets[0])
		return 0;	/* mesh off: sizes need not fit */
	for (i = 0; i < m->n_sizes; i++)
		if (m->sizes[i] > cfg->max_buffer_size)
			return config_check_fail(c, "[mesh] sizes: %u exceeds "
				"[limits] max_buffer_size (%u)", m->sizes[i],
				cfg->max_buffer_size);
	if (m->bw_every_ms && m->bw_size > cfg->max_buffer_size)
		return config_check_fail(c, "[mesh] bandwidth_size (%u) "
			"exceeds [limits] max_buffer_size (%u)", m->bw_size,
			cfg->max_buffer_size);
	return 0;
}

/* [module.NAME]: within [limits]. */
static int config_check_modules(struct config_check *c)
{
	const struct rdmad_config *cfg = c->cfg;
	const struct config_module *m;
	unsigned int i;

	for (i = 0; i < cfg->n_modules; i++) {
		m = &cfg->modules[i];
		if (m->size > cfg->max_buffer_size)
			return config_check_fail(c, "[module.%s] size (%u) "
				"exceeds [limits] max_buffer_size (%u)",
				m->name, m->size, cfg->max_buffer_size);
		if (m->iterations > cfg->max_iterations)
			return config_check_fail(c, "[module.%s] iterations "
				"(%u) exceeds [limits] max_iterations (%u)",
				m->name, m->iterations, cfg->max_iterations);
	}
	return 0;
}

/* In this order; a new rule family is a function and a row. */
static int (*const config_checks[])(struct config_check *c) = {
	config_check_listen,
	config_check_limits,
	config_check_timeouts,
	config_check_mesh,
	config_check_modules,
};

int config_validate(const struct rdmad_config *cfg, const char *name,
		    char *err, size_t errlen)
{
	struct config_check c = {
		.cfg = cfg, .name = name, .err = err, .errlen = errlen,
	};
	size_t i;
	int ret;

	for (i = 0; i < sizeof(config_checks) / sizeof(config_checks[0]); i++) {
		ret = config_checks[i](&c);
		if (ret)
			return ret;
	}
	return 0;
}
