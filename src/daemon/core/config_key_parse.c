/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config_key_parse.c - the parsers the key table of config.c names: each
 * reads one value into its field, or reports through config_perr().
 * Numbers are value_parse()'s (src/common), as on rdma-probe's command
 * line.
 */
#include "core/config_key_parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/acl_match.h"

#include "addr.h"
#include "core/log.h"
#include "proto.h"

void config_perr(struct config_err *e, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (e->failed++)
		return;		/* keep the first error */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(e->err, e->errlen, "%s:%u: %s", e->name, e->line, msg);
}

/* The number VALUE as K says, or -1 after config_perr(). */
int config_key_number(struct config_err *e, const struct config_key *k,
			     const char *value, uint64_t *out)
{
	char why[VALUE_WHY_MAX];

	if (value_parse(&k->v, value, out, why, sizeof(why))) {
		config_perr(e, "%s: %s", k->name, why);
		return -1;
	}
	return 0;
}

/* An unsigned int (or uint32_t) field: a count, size, duration, percent. */
void config_key_uint(struct config_err *e, const struct config_key *k,
		     void *field, const char *value)
{
	uint64_t v;

	if (!config_key_number(e, k, value, &v))
		*(unsigned int *)field = (unsigned int)v;
}

void config_key_u16(struct config_err *e, const struct config_key *k,
		    void *field, const char *value)
{
	uint64_t v;

	if (!config_key_number(e, k, value, &v))
		*(uint16_t *)field = (uint16_t)v;
}

void config_key_u64(struct config_err *e, const struct config_key *k,
		    void *field, const char *value)
{
	uint64_t v;

	if (!config_key_number(e, k, value, &v))
		*(uint64_t *)field = v;
}

/* tos = 0..255, decimal or 0x hex; empty: not set (-1). */
void config_key_tos(struct config_err *e, const struct config_key *k,
		    void *field, const char *value)
{
	uint64_t v;

	if (!*value)
		*(int *)field = -1;
	else if (!config_key_number(e, k, value, &v))
		*(int *)field = (int)v;
}

/* A path, up to k->v.max - 1 characters (the field's size). */
void config_key_path(struct config_err *e, const struct config_key *k,
		     void *field, const char *value)
{
	if (strlen(value) >= k->v.max)
		config_perr(e, "%s: path too long", k->name);
	else
		strcpy(field, value);
}

void config_key_level(struct config_err *e, const struct config_key *k,
		      void *field, const char *value)
{
	int lvl = log_level_parse(value);

	if (lvl < 0)
		config_perr(e, "%s: '%s' is not one of err, warning, notice, "
			    "info, debug", k->name, value);
	else
		*(int *)field = lvl;
}

/*
 * FN for each word of a list VALUE (blanks or commas between words)
 * until it fails (non-zero, after config_perr()).  The number of words, or -1.
 */
int config_words(struct config_err *e, const char *key,
			const char *value,
			int (*fn)(struct config_err *e, const char *key,
				  const char *word, void *arg),
			void *arg)
{
	char buf[1024], *tok, *save = NULL;
	int n = 0;

	if (strlen(value) >= sizeof(buf)) {
		config_perr(e, "%s: value too long", key);
		return -1;
	}
	strcpy(buf, value);
	for (tok = strtok_r(buf, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		if (fn(e, key, tok, arg))
			return -1;
		n++;
	}
	return n;
}

/* allow = / deny = : CIDR prefixes, space or comma separated; lines add. */
static int acl_word(struct config_err *e, const char *key,
		    const char *word, void *arg)
{
	struct acl_entry ent;

	if (acl_match_parse(word, &ent)) {
		config_perr(e, "%s: '%s' is not a network (A.B.C.D/N or "
			    "IPV6/N, no host bits below the prefix)", key,
			    word);
		return -1;
	}
	if (acl_match_add(arg, &ent)) {
		config_perr(e, "%s: more than %d networks", key,
			    ACL_MAX_ENTRIES);
		return -1;
	}
	return 0;
}

void config_key_acl(struct config_err *e, const struct config_key *k,
		    void *field, const char *value)
{
	if (!config_words(e, k->name, value, acl_word, field))
		config_perr(e, "%s: no network given", k->name);
}

static int op_word(struct config_err *e, const char *key, const char *word,
		   void *arg)
{
	unsigned int *ops = arg, op;

	if (!strcmp(word, "read")) {
		op = PROTO_OP_READ;
	} else if (!strcmp(word, "write")) {
		op = PROTO_OP_WRITE;
	} else {
		config_perr(e, "%s: '%s' is not read or write", key, word);
		return -1;
	}
	if (*ops & op) {
		config_perr(e, "%s: '%s' given twice", key, word);
		return -1;
	}
	*ops |= op;
	return 0;
}

/*
 * ops = write read | read (mesh: k->v.min is PROTO_OP_READ, needed), op
 * = read write | read | write (modules).  In any order, each once.
 */
void config_key_ops(struct config_err *e, const struct config_key *k,
		    void *field, const char *value)
{
	unsigned int ops = 0;

	if (config_words(e, k->name, value, op_word, &ops) < 0)
		return;
	if (!ops) {
		config_perr(e, "%s: no operation given (read, write)", k->name);
		return;
	}
	if ((ops & k->v.min) != k->v.min) {
		config_perr(e, "%s: 'write' alone: a WRITE is only verified by "
			    "reading it back (write read, or read)", k->name);
		return;
	}
	*(uint8_t *)field = (uint8_t)ops;
}

/* source = ADDRESS (no port), or empty: rdma_cm picks. */
void config_key_source(struct config_err *e, const struct config_key *k,
		       void *field, const char *value)
{
	struct sockaddr_storage *out = field;
	struct addr_endpoint ep;
	uint16_t port = 0;
	char host[64];

	if (!*value) {
		memset(out, 0, sizeof(*out));
		return;
	}
	if (addr_parse(value, 0, &ep) ||
	    addr_split((struct sockaddr *)&ep.addr, host, sizeof(host),
		       &port) || port) {
		config_perr(e, "%s: '%s' is not an address (IPv4, or IPv6 in "
			    "brackets, without a port)", k->name, value);
		return;
	}
	*out = ep.addr;
}

