/* SPDX-License-Identifier: BSD-2-Clause */
/* port_counter.c - one RDMA port counter's readings (see port_counter.h). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "port_counter.h"

/*
 * The PMA's PortCounters fields and their widths in bits (InfiniBand
 * architecture, vol. 1, PortCounters; the kernel's sysfs.c shows the same
 * widths).  The data and packet counts are 32 bits here but 64 on a port
 * with extended counters: a reading above 2^32-1 tells which.
 */
static const struct {
	const char *name;
	unsigned int bits;
} port_counter_widths[] = {
	{ "symbol_error", 16 },
	{ "link_error_recovery", 8 },
	{ "link_downed", 8 },
	{ "port_rcv_errors", 16 },
	{ "port_rcv_remote_physical_errors", 16 },
	{ "port_rcv_switch_relay_errors", 16 },
	{ "port_xmit_discards", 16 },
	{ "port_xmit_constraint_errors", 8 },
	{ "port_rcv_constraint_errors", 8 },
	{ "local_link_integrity_errors", 4 },
	{ "excessive_buffer_overrun_errors", 4 },
	{ "VL15_dropped", 16 },
	{ "port_xmit_data", 32 },
	{ "port_rcv_data", 32 },
	{ "port_xmit_packets", 32 },
	{ "port_rcv_packets", 32 },
	{ "port_xmit_wait", 32 },
};

int port_counter_parse(const char *text, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = text;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*out = v;
	return 0;
}

uint64_t port_counter_ceiling(enum port_counter_dir dir, const char *name)
{
	size_t i;

	if (dir != PORT_COUNTER_PMA)
		return 0;
	for (i = 0; i < sizeof(port_counter_widths) /
		    sizeof(port_counter_widths[0]); i++)
		if (!strcmp(port_counter_widths[i].name, name))
			return (1ull << port_counter_widths[i].bits) - 1;
	return 0;
}

struct port_counter_step port_counter_step(uint64_t prev, uint64_t cur,
					   uint64_t ceiling)
{
	struct port_counter_step s = {
		.saturated = ceiling && cur == ceiling,
	};

	if (cur < prev) {
		s.reset = true;
		s.delta = cur;
	} else {
		s.delta = cur - prev;
	}
	return s;
}

void port_counter_init(struct port_counter *c, const char *device,
		       unsigned int port, enum port_counter_dir dir,
		       const char *name)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->device, sizeof(c->device), "%s", device);
	c->port = port;
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->dir = dir;
	c->ceiling = port_counter_ceiling(dir, name);
}

void port_counter_update(struct port_counter *c, uint64_t raw)
{
	struct port_counter_step s = port_counter_step(c->seen ? c->raw : 0,
						       raw, c->ceiling);
	bool first = !c->seen;

	c->seen = true;
	c->raw = raw;
	c->saturated = s.saturated;
	c->resets += s.reset;
	c->total = s.delta > UINT64_MAX - c->total ? UINT64_MAX :
		   c->total + s.delta;
	if (first)	/* what it counted before rdmad looked did not move */
		c->base = c->mark = c->total;
}

void port_counter_pass(struct port_counter *c)
{
	c->base = c->mark;
	c->mark = c->total;
}

/* Append TEXT to BUF (LEN bytes) at *AT; false when it does not fit:
 * then BUF holds what fits, its last three characters "...". */
static bool port_counter_put(char *buf, size_t len, size_t *at,
			     const char *text)
{
	size_t n = strlen(text);

	if (*at + n < len) {
		memcpy(buf + *at, text, n + 1);
		*at += n;
		return true;
	}
	memcpy(buf + *at, text, len - 1 - *at);
	buf[len - 1] = '\0';
	if (len >= 4)
		memcpy(buf + len - 4, "...", 3);
	*at = len - 1;
	return false;
}

unsigned int port_counter_changes(char *buf, size_t len,
				  const struct port_counter *c, unsigned int n)
{
	const struct port_counter *last = NULL;
	char head[PORT_COUNTER_DEVICE_MAX + 16];
	char item[sizeof(head) + PORT_COUNTER_NAME_MAX + 24];
	unsigned int i, moved = 0;
	size_t at = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < n; i++) {
		const struct port_counter *k = &c[i];
		bool same;

		if (!k->seen || k->total == k->base)
			continue;
		same = last && last->port == k->port &&
		       !strcmp(last->device, k->device);
		if (same)
			snprintf(head, sizeof(head), ", ");
		else
			snprintf(head, sizeof(head), "%s%s/%u: ",
				 last ? "; " : "", k->device, k->port);
		snprintf(item, sizeof(item), "%s%s +%llu", head, k->name,
			 (unsigned long long)(k->total - k->base));
		moved++;
		last = k;
		if (len && !port_counter_put(buf, len, &at, item))
			break;
	}
	for (i++; i < n; i++)	/* past a full buffer: still counted */
		moved += c[i].seen && c[i].total != c[i].base;
	return moved;
}

bool port_counter_pattern_ok(const char *pat)
{
	const char *slash = strchr(pat, '/');
	size_t len = strlen(pat);

	if (!len || len >= PORT_COUNTER_PATTERN_MAX)
		return false;
	if (slash && (slash == pat || !slash[1] || strchr(slash + 1, '/')))
		return false;
	return strspn(pat, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			   "0123456789_.-*?[]!/") == len;
}

bool port_counter_skipped(const struct port_counter_skip *s,
			  const char *device, const char *name)
{
	char full[PORT_COUNTER_DEVICE_MAX + PORT_COUNTER_NAME_MAX + 1];
	unsigned int i;

	snprintf(full, sizeof(full), "%s/%s", device, name);
	for (i = 0; i < s->n; i++)
		if (!fnmatch(s->pat[i], strchr(s->pat[i], '/') ? full : name,
			     FNM_PATHNAME))
			return true;
	return false;
}
