/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * targets.c - a list of hosts to probe: rdma-probe --targets FILE and
 * rdmad's [mesh] targets (format in targets.h and docs/rdma-probe.md).
 * Pure; unit-tested.
 */
#include "targets.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <netinet/in.h>

#include "addr.h"

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

/* The host, a numeric address in its canonical spelling (addr.h). */
static int targets_host(struct target *t, const char *s, size_t len,
			const char **why)
{
	char canon[INET6_ADDRSTRLEN];

	if (!len) {
		*why = "empty host";
		return -EINVAL;
	}
	if (len > TARGET_HOST_MAX) {
		*why = "host name too long (at most 255 characters)";
		return -EINVAL;
	}
	memcpy(t->host, s, len);
	t->host[len] = '\0';
	switch (addr_host_canon(t->host, canon, sizeof(canon))) {
	case 1:
		memcpy(t->host, canon, strlen(canon) + 1);
		return 0;
	case 0:
		return 0;
	default:
		*why = "an IPv4 shorthand (10.2, 167772162, 0x0a.0.0.2, "
		       "010.0.0.2: read by some tools as an address, by others "
		       "as a name or another address): write the four decimal "
		       "numbers, a.b.c.d";
		return -EINVAL;
	}
}

/* The part after the host: "" or ":PORT". */
static int targets_tail(struct target *t, const char *s,
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

int targets_parse_line(const char *line, uint16_t port, struct target *t,
		       const char **why)
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

/* An earlier target with the same host (case aside; an address by
 * value: its canonical text) and port, or NULL. */
static const struct target *targets_find(const struct target_list *tl,
					 const struct target *t)
{
	unsigned int i;

	for (i = 0; i < tl->n; i++)
		if (tl->v[i].port == t->port &&
		    !strcasecmp(tl->v[i].host, t->host))
			return &tl->v[i];
	return NULL;
}

/* Room for one more in *tl (*cap entries now); 0 or -ENOMEM. */
static int targets_grow(struct target_list *tl, unsigned int *cap,
			unsigned int max)
{
	unsigned int ncap;
	struct target *v;

	if (tl->n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	if (ncap > max)
		ncap = max;
	v = realloc(tl->v, ncap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	tl->v = v;
	*cap = ncap;
	return 0;
}

int targets_scan(FILE *in, const char *name, uint16_t port,
		 targets_line_fn *fn, void *arg, char *err, size_t errlen)
{
	const char *why = NULL;
	unsigned int lineno = 0;
	struct target t;
	size_t linecap = 0;
	char *line = NULL, *s, *tok, *end;
	ssize_t got;
	int ret = 0;

	while ((got = getline(&line, &linecap, in)) >= 0) {
		lineno++;
		if (memchr(line, '\0', (size_t)got)) {
			snprintf(err, errlen, "%s:%u: NUL byte in the line",
				 name, lineno);
			ret = -EINVAL;
			break;
		}
		s = strchr(line, '#');
		if (s)
			*s = '\0';
		for (s = line; isspace((unsigned char)*s); s++)
			;
		if (!*s)
			continue;
		for (tok = s; *s && !isspace((unsigned char)*s); s++)
			;
		if (*s)
			*s++ = '\0';
		while (isspace((unsigned char)*s))
			s++;
		for (end = s + strlen(s); end > s &&
		     isspace((unsigned char)end[-1]); end--)
			;
		*end = '\0';
		if (targets_parse_line(tok, port, &t, &why) < 0) {
			if (t.text[0])
				snprintf(err, errlen, "%s:%u: '%s': %s", name,
					 lineno, t.text, why);
			else
				snprintf(err, errlen, "%s:%u: %s", name,
					 lineno, why);
			ret = -EINVAL;
			break;
		}
		t.line = lineno;
		ret = fn(arg, &t, s);
		if (ret)
			break;
	}
	free(line);
	if (!ret && ferror(in)) {
		snprintf(err, errlen, "%s: read error", name);
		ret = -EIO;
	}
	return ret;
}

/* targets_read's list in the making. */
struct targets_rd {
	struct target_list *tl;
	const char *name;
	unsigned int max, cap;
	struct targets_warn w;
	char *err;
	size_t errlen;
};

static int targets_read_line(void *arg, struct target *t, char *rest)
{
	struct targets_rd *rd = arg;
	char msg[TARGET_HOST_MAX + 128];
	const struct target *dup;

	if (*rest) {
		snprintf(rd->err, rd->errlen, "%s:%u: '%s %s': one target a "
			 "line (text after it; '#' starts a comment)",
			 rd->name, t->line, t->text, rest);
		return -EINVAL;
	}
	dup = targets_find(rd->tl, t);
	if (dup) {
		snprintf(msg, sizeof(msg), "%s:%u: '%s': same target as line "
			 "%u, probed once", rd->name, t->line, t->text,
			 dup->line);
		targets_warn_say(&rd->w, msg);
		return 0;
	}
	if (rd->tl->n == rd->max) {
		snprintf(rd->err, rd->errlen, "%s:%u: too many targets (at "
			 "most %u)", rd->name, t->line, rd->max);
		return -EINVAL;
	}
	if (targets_grow(rd->tl, &rd->cap, rd->max)) {
		snprintf(rd->err, rd->errlen, "%s: out of memory", rd->name);
		return -ENOMEM;
	}
	rd->tl->v[rd->tl->n++] = *t;
	return 0;
}

int targets_read(FILE *in, const char *name, uint16_t port, unsigned int max,
		 struct target_list *tl,
		 void (*warn)(void *arg, const char *msg), void *arg,
		 char *err, size_t errlen)
{
	struct targets_rd rd = {
		.tl = tl, .name = name, .max = max, .w = { warn, arg, 0 },
		.err = err, .errlen = errlen,
	};
	int ret;

	if (!rd.max || rd.max > TARGETS_MAX)
		rd.max = TARGETS_MAX;
	memset(tl, 0, sizeof(*tl));
	ret = targets_scan(in, name, port, targets_read_line, &rd, err,
			   errlen);
	if (ret)
		targets_free(tl);
	else
		targets_warn_end(&rd.w, name);
	return ret;
}

void targets_warn_say(struct targets_warn *w, const char *msg)
{
	if (w->n++ < TARGETS_WARN_FIRST && w->fn)
		w->fn(w->arg, msg);
}

void targets_warn_end(struct targets_warn *w, const char *name)
{
	char msg[TARGET_HOST_MAX + 128];

	if (w->n <= TARGETS_WARN_FIRST || !w->fn)
		return;
	snprintf(msg, sizeof(msg), "%s: ... and %u more like it (%u repeated "
		 "targets in all, each probed once)", name,
		 w->n - TARGETS_WARN_FIRST, w->n);
	w->fn(w->arg, msg);
}

void targets_free(struct target_list *tl)
{
	free(tl->v);
	tl->v = NULL;
	tl->n = 0;
}
