/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_targets.c - rdma-probe --targets FILE: parse the list of hosts
 * (format in probe_targets.h and docs/rdma-probe.md).  Pure; unit-tested.
 */
#include "probe_targets.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

/* "1".."65535", digits only. */
static int targets_port(const char *s, size_t len, uint16_t *port)
{
	unsigned long v = 0;
	size_t i;

	if (!len || len > 5)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -EINVAL;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v < 1 || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

static int targets_host(struct probe_target *t, const char *s, size_t len,
			const char **why)
{
	if (!len) {
		*why = "empty host";
		return -EINVAL;
	}
	if (len > PROBE_TARGET_HOST_MAX) {
		*why = "host name too long (at most 255 characters)";
		return -EINVAL;
	}
	memcpy(t->host, s, len);
	t->host[len] = '\0';
	return 0;
}

/* The part after the host: "" or ":PORT". */
static int targets_tail(struct probe_target *t, const char *s,
			const char **why)
{
	if (!*s)
		return 0;
	if (*s != ':') {
		*why = "unexpected text after ']'";
		return -EINVAL;
	}
	if (targets_port(s + 1, strlen(s + 1), &t->port)) {
		*why = "bad port: must be a number from 1 to 65535";
		return -EINVAL;
	}
	t->port_set = true;
	return 0;
}

int probe_targets_parse_line(const char *line, uint16_t port,
			     struct probe_target *t, const char **why)
{
	const char *s = line, *end, *close, *colon;
	size_t len, i;

	memset(t, 0, sizeof(*t));
	t->port = port;
	end = strchr(s, '#');
	if (!end)
		end = s + strlen(s);
	while (s < end && isspace((unsigned char)*s))
		s++;
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	len = (size_t)(end - s);
	if (!len)
		return 0;
	if (len >= sizeof(t->text)) {
		*why = "target too long";
		return -EINVAL;
	}
	memcpy(t->text, s, len);
	t->text[len] = '\0';
	for (i = 0; i < len; i++) {
		if (isspace((unsigned char)t->text[i])) {
			*why = "one target a line (text after it; '#' "
			       "starts a comment)";
			return -EINVAL;
		}
	}

	s = t->text;
	if (*s == '[') {
		close = strchr(s, ']');
		if (!close) {
			*why = "missing ']'";
			return -EINVAL;
		}
		if (targets_host(t, s + 1, (size_t)(close - s - 1), why))
			return -EINVAL;
		if (!strchr(t->host, ':')) {
			*why = "brackets are for IPv6 addresses";
			return -EINVAL;
		}
		return targets_tail(t, close + 1, why) ? -EINVAL : 1;
	}
	if (strchr(s, ']')) {
		*why = "']' without '['";
		return -EINVAL;
	}
	colon = strchr(s, ':');
	/* Two colons or more: a bare IPv6 address, no port. */
	if (!colon || strchr(colon + 1, ':'))
		return targets_host(t, s, len, why) ? -EINVAL : 1;
	if (targets_host(t, s, (size_t)(colon - s), why))
		return -EINVAL;
	return targets_tail(t, colon, why) ? -EINVAL : 1;
}

/* An earlier target with the same host (case aside) and port, or NULL. */
static const struct probe_target *targets_find(const struct probe_targets *tl,
					       const struct probe_target *t)
{
	unsigned int i;

	for (i = 0; i < tl->n; i++)
		if (tl->v[i].port == t->port &&
		    !strcasecmp(tl->v[i].host, t->host))
			return &tl->v[i];
	return NULL;
}

int probe_targets_read(FILE *in, const char *name, uint16_t port,
		       struct probe_targets *tl, FILE *err)
{
	const struct probe_target *dup;
	struct probe_target t;
	const char *why = NULL;
	unsigned int lineno = 0;
	size_t cap = 0;
	ssize_t got;
	char *line = NULL;
	int ret = 0, r;

	memset(tl, 0, sizeof(*tl));
	while ((got = getline(&line, &cap, in)) >= 0) {
		lineno++;
		if (memchr(line, '\0', (size_t)got)) {
			fprintf(err, "rdma-probe: %s:%u: NUL byte in the line\n",
				name, lineno);
			ret = -EINVAL;
			break;
		}
		r = probe_targets_parse_line(line, port, &t, &why);
		if (r < 0) {
			if (t.text[0])
				fprintf(err, "rdma-probe: %s:%u: '%s': %s\n",
					name, lineno, t.text, why);
			else
				fprintf(err, "rdma-probe: %s:%u: %s\n", name,
					lineno, why);
			ret = -EINVAL;
			break;
		}
		if (!r)
			continue;
		t.line = lineno;
		dup = targets_find(tl, &t);
		if (dup) {
			fprintf(err, "rdma-probe: %s:%u: '%s': same target as "
				"line %u, probed once\n", name, lineno, t.text,
				dup->line);
			continue;
		}
		if (tl->n == PROBE_TARGETS_MAX) {
			fprintf(err, "rdma-probe: %s:%u: too many targets (at "
				"most %u)\n", name, lineno, PROBE_TARGETS_MAX);
			ret = -EINVAL;
			break;
		}
		if (!tl->v) {
			tl->v = calloc(PROBE_TARGETS_MAX, sizeof(*tl->v));
			if (!tl->v) {
				fprintf(err, "rdma-probe: %s: out of memory\n",
					name);
				ret = -ENOMEM;
				break;
			}
		}
		tl->v[tl->n++] = t;
	}
	free(line);
	if (!ret && ferror(in)) {
		fprintf(err, "rdma-probe: %s: read error\n", name);
		ret = -EIO;
	}
	if (!ret && !tl->n) {
		fprintf(err, "rdma-probe: %s: no targets\n", name);
		ret = -EINVAL;
	}
	if (ret)
		probe_targets_free(tl);
	return ret;
}

void probe_targets_free(struct probe_targets *tl)
{
	free(tl->v);
	tl->v = NULL;
	tl->n = 0;
}
