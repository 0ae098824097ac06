/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config_key_parse.h - inside the configuration parser (config.c and
 * config_key_parse.c only): a key's table row, and the parsers for the
 * keys that are just a value of a kind (a number, a path, a list of
 * networks...).  Keys with a meaning of their own ([server] listen,
 * psk_file, [mesh] sizes...) have theirs in config.c.
 */
#ifndef RDMAD_CONFIG_KEY_PARSE_H
#define RDMAD_CONFIG_KEY_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "value_parse.h"

/* Where a parser's message goes: the first one, as "NAME:LINE: ...". */
struct config_err {
	const char *name;	/* the file's */
	char *err;
	size_t errlen;
	int failed;		/* errors so far */
	unsigned int line;	/* of the text being read */
};

void config_perr(struct config_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * One key: where its value goes and how it is read.  The table in
 * config.c has a row per key (systemd-networkd's shape): its section
 * ("module": every [module.NAME]), its name, its parser, its field (an
 * offset in struct rdmad_config, or in struct config_module) and, for a
 * number, what it is and its limits (value_parse.h).  A parser reports
 * through config_perr() and leaves the field alone then.
 */
struct config_key;
typedef void config_key_fn(struct config_err *e, const struct config_key *k,
			   void *field, const char *value);

struct config_key {
	const char *section;
	const char *name;
	config_key_fn *parse;
	size_t off;
	struct value_spec v;
};

/* Numbers, by the field's type; k->v says what the value is. */
config_key_fn config_key_uint;		/* unsigned int or uint32_t */
config_key_fn config_key_u16;
config_key_fn config_key_u64;
config_key_fn config_key_tos;		/* int; empty: -1 (not set) */
/* Words and lists. */
config_key_fn config_key_path;		/* char[k->v.max] */
config_key_fn config_key_level;		/* int: LOG_ERR .. LOG_DEBUG */
config_key_fn config_key_acl;		/* struct acl: lines add */
config_key_fn config_key_ops;		/* uint8_t; k->v.min: needed */
config_key_fn config_key_source;	/* sockaddr_storage, no port */

/* [mesh] keys with a meaning of their own (config_mesh_parse.c). */
config_key_fn config_key_sizes;		/* struct config_mesh: sizes */
config_key_fn config_key_rails;		/* struct config_mesh: rails */
config_key_fn config_key_peer_series;	/* enum config_peer_series */

/* The number VALUE as K says into *out, or -1 after config_perr(). */
int config_key_number(struct config_err *e, const struct config_key *k,
		      const char *value, uint64_t *out);

/*
 * FN for each word of a list VALUE (blanks or commas between words)
 * until it fails (non-zero, after config_perr()).  The number of words,
 * or -1.
 */
int config_words(struct config_err *e, const char *key, const char *value,
		 int (*fn)(struct config_err *e, const char *key,
			   const char *word, void *arg),
		 void *arg);

#endif /* RDMAD_CONFIG_KEY_PARSE_H */
