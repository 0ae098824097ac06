/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blackbox_ask_parse.c - the query and the scrape timeout header of GET
 * /probe (blackbox_ask_parse.h).  A name is only checked for its shape
 * here; blackbox.c resolves it.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "blackbox/blackbox_ask_parse.h"
#include "proto.h"
#include "units.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_name_char(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '-' || c == '_';
}

/* A host name: labels of 1..63 name characters joined by dots (one
 * trailing dot allowed), 253 bytes at most, the last label not all
 * digits (that is a malformed numeric address: "10.2", "10.0.0.256"). */
static int name_ok(const char *s, size_t n)
{
	size_t i, label = 0;
	int digits = 1;

	if (n && s[n - 1] == '.')
		n--;
	if (!n || n > BLACKBOX_HOST_MAX - 1)
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] == '.') {
			if (!label)
				return 0;
			label = 0;
			digits = 1;
			continue;
		}
		if (!is_name_char(s[i]) || ++label > 63)
			return 0;
		if (!is_digit(s[i]))
			digits = 0;
	}
	return label && !digits;
}

int blackbox_ask_parse_target(struct blackbox_ask *a, const char *target)
{
	const char *colon;
	size_t n;

	a->numeric = false;
	a->host[0] = '\0';
	a->port = 0;
	if (strlen(target) >= sizeof(a->target))
		return -EINVAL;
	snprintf(a->target, sizeof(a->target), "%s", target);
	if (!addr_parse(target, PROTO_DEFAULT_PORT, &a->addr)) {
		a->numeric = true;
		/* The address as written: "[V6]:PORT" or "V4:PORT". */
		snprintf(a->host, sizeof(a->host), "%s", a->addr.text);
		*strrchr(a->host, ':') = '\0';
		a->port = PROTO_DEFAULT_PORT;
		colon = strrchr(a->addr.text, ':');
		units_parse_uint(colon + 1, 1, 65535, &a->port);
		return 0;
	}
	colon = strchr(target, ':');
	n = colon ? (size_t)(colon - target) : strlen(target);
	if (*target == '[' || !name_ok(target, n))
		return -EINVAL;
	a->port = PROTO_DEFAULT_PORT;
	if (colon && units_parse_uint(colon + 1, 1, 65535, &a->port))
		return -EINVAL;
	memcpy(a->host, target, n);
	a->host[n] = '\0';
	return 0;
}

static const char *skip_ows(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

int blackbox_ask_parse_scrape(const char *s, unsigned int *ms)
{
	uint64_t v = 0;
	unsigned int frac = 0, k;

	s = skip_ows(s);
	if (!is_digit(*s))
		return -EINVAL;
	for (; is_digit(*s); s++)
		if (v <= UINT_MAX)
			v = v * 10 + (uint64_t)(*s - '0');
	if (*s == '.') {
		s++;
		if (!is_digit(*s))
			return -EINVAL;
		/* Milliseconds: the first three decimals; the rest must be
		 * digits too and count for nothing. */
		for (k = 0; is_digit(*s); s++, k++)
			if (k < 3)
				frac += (unsigned int)(*s - '0') *
					(k == 0 ? 100 : k == 1 ? 10 : 1);
	}
	if (*skip_ows(s))
		return -EINVAL;
	v = v > UINT_MAX ? UINT_MAX : v * 1000 + frac;
	if (!v)
		return -EINVAL;
	*ms = v > UINT_MAX ? UINT_MAX : (unsigned int)v;
	return 0;
}

unsigned int blackbox_ask_parse_budget(unsigned int module_ms,
				       unsigned int scrape_ms)
{
	unsigned int b;

	if (!scrape_ms)
		return module_ms;
	b = scrape_ms > 2 * BLACKBOX_MARGIN_MS ?
	    scrape_ms - BLACKBOX_MARGIN_MS : scrape_ms / 2;
	if (!b)
		b = 1;
	return b < module_ms ? b : module_ms;
}

int blackbox_ask_parse(struct blackbox_ask *a, const struct rdmad_config *cfg,
		       const struct blackbox_param *p, unsigned int n,
		       const char *scrape, char *err, size_t errlen)
{
	const char *target = NULL, *module = NULL, *debug = NULL;
	const struct config_module *m;
	unsigned int i;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < n; i++) {
		const char **slot = !strcmp(p[i].key, "target") ? &target :
				    !strcmp(p[i].key, "module") ? &module :
				    !strcmp(p[i].key, "debug") ? &debug : NULL;

		if (!slot || *slot) {
			snprintf(err, errlen, "bad query: the parameters are "
				 "target=HOST:PORT, module=NAME and "
				 "debug=true, once each");
			return -EINVAL;
		}
		*slot = p[i].value;
	}
	if (!target || blackbox_ask_parse_target(a, target)) {
		snprintf(err, errlen, "target: want HOST:PORT, a numeric "
			 "address or a host name, port %u if left out",
			 PROTO_DEFAULT_PORT);
		return -EINVAL;
	}
	m = config_module_find(cfg, module);
	if (!m) {
		snprintf(err, errlen, "unknown module '%.31s'", module);
		return -EINVAL;
	}
	a->m = *m;
	if (debug && strcmp(debug, "true") && strcmp(debug, "false")) {
		snprintf(err, errlen, "debug: want true or false");
		return -EINVAL;
	}
	a->debug = debug && !strcmp(debug, "true");
	if (scrape && blackbox_ask_parse_scrape(scrape, &a->scrape_ms)) {
		snprintf(err, errlen, "%s: want seconds, at least 0.001 (as "
			 "\"10\" or \"9.5\")", BLACKBOX_SCRAPE_HEADER);
		return -EINVAL;
	}
	a->timeout_ms = blackbox_ask_parse_budget(m->timeout_ms, a->scrape_ms);
	return 0;
}
