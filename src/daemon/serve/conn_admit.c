/* SPDX-License-Identifier: BSD-2-Clause */
/* conn_admit.c - whether rdmad takes a connection request (conn_admit.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/acl_match.h"
#include "serve/conn_admit.h"

static bool conn_admit_no(struct conn_admit *out, enum stats_reject why,
			  const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool conn_admit_no(struct conn_admit *out, enum stats_reject why,
			  const char *fmt, ...)
{
	va_list ap;

	out->why = why;
	va_start(ap, fmt);
	vsnprintf(out->text, sizeof(out->text), fmt, ap);
	va_end(ap);
	return false;
}

bool conn_admit(const struct conn_admit_req *r, struct conn_admit *out)
{
	const struct rdmad_config *cfg = r->cfg;
	struct proto_hello *h = &out->hello;
	const char *why = NULL;
	uint64_t need;
	int ret;

	memset(out, 0, sizeof(*out));
	out->why = STATS_REJ_N;
	out->kind = proto_classify(r->pdata, r->pdata_len);

	if (r->stopping)
		return conn_admit_no(out, STATS_REJ_SHUTDOWN, "shutting down: "
				     "rdmad is stopping");
	/* Access lists first: nothing is looked at for a refused peer. */
	if (acl_match_check(&cfg->allow, &cfg->deny, r->peer, &why))
		return conn_admit_no(out, STATS_REJ_DENIED, "denied: %s", why);
	if (out->kind == PROTO_KIND_UNKNOWN)
		return conn_admit_no(out, STATS_REJ_BAD_HELLO, "unknown "
				     "protocol: neither rdmad hello nor rping");
	if (out->kind == PROTO_KIND_NATIVE) {
		ret = proto_hello_decode(r->pdata, r->pdata_len, h, &why);
		if (ret == -EPROTO)
			return conn_admit_no(out, STATS_REJ_VERSION,
					     "unsupported protocol version "
					     "%u, server speaks %u",
					     r->pdata[4], PROTO_VERSION);
		if (ret)
			return conn_admit_no(out, STATS_REJ_BAD_HELLO,
					     "bad hello: %s", why);
	}
	if (out->kind == PROTO_KIND_RPING && cfg->psk.len)
		return conn_admit_no(out, STATS_REJ_DENIED, "denied: this "
				     "server requires a pre-shared key; the "
				     "rping protocol cannot authenticate");
	if (r->n_conns >= cfg->max_connections)
		return conn_admit_no(out, STATS_REJ_BUSY, "busy: %u/%u "
				     "connections, retry later", r->n_conns,
				     cfg->max_connections);
	if (cfg->max_per_host && r->n_host >= cfg->max_per_host)
		return conn_admit_no(out, STATS_REJ_BUSY_HOST, "busy: %u/%u "
				     "connections from this host, retry later",
				     r->n_host, cfg->max_per_host);
	if (out->kind == PROTO_KIND_NATIVE) {
		if (h->size > cfg->max_buffer_size)
			return conn_admit_no(out, STATS_REJ_LIMIT, "size %u "
					     "exceeds server limit %u",
					     h->size, cfg->max_buffer_size);
		if (h->iters > cfg->max_iterations)
			return conn_admit_no(out, STATS_REJ_LIMIT, "iterations "
					     "%u exceed server limit %u",
					     h->iters, cfg->max_iterations);
	}
	/* Pinned memory: this connection's buffer and control slots on
	 * top of what every live connection holds. */
	need = r->ctl_len + (out->kind == PROTO_KIND_NATIVE ? h->size : 0);
	if (r->registered + need > cfg->max_registered_bytes)
		return conn_admit_no(out, STATS_REJ_BUSY, "busy: registered "
				     "memory %llu + %llu bytes would exceed "
				     "max_registered_bytes %llu, retry later",
				     (unsigned long long)r->registered,
				     (unsigned long long)need,
				     (unsigned long long)
				     cfg->max_registered_bytes);
	return true;
}

uint8_t conn_admit_wire_reason(enum stats_reject why)
{
	switch (why) {
	case STATS_REJ_DENIED:		return PROTO_REJ_DENIED;
	case STATS_REJ_SHUTDOWN:	return PROTO_REJ_SHUTDOWN;
	case STATS_REJ_BAD_HELLO:	return PROTO_REJ_BAD_HELLO;
	case STATS_REJ_VERSION:		return PROTO_REJ_VERSION;
	case STATS_REJ_BUSY:
	case STATS_REJ_BUSY_HOST:	return PROTO_REJ_BUSY;
	case STATS_REJ_LIMIT:		return PROTO_REJ_LIMIT;
	case STATS_REJ_RESOURCES:
	case STATS_REJ_ACCEPT_FAILED:
	case STATS_REJ_N:
	default:			return PROTO_REJ_RESOURCES;
	}
}
