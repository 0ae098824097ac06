/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-config.c - libFuzzer target: the INI configuration parser and
 * validator (src/daemon/config.c, config_key_parse.c, config_check.c,
 * acl_match.c; src/common/value_parse.c) on arbitrary text.  Whatever the
 * input, parsing ends with 0 or -EINVAL and a NUL-terminated message.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/acl_match.h"
#include "core/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdmad_config *cfg;
	struct acl_entry e;
	char *text, err[512];
	int ret;

	if (size > 16384)
		return 0;
	text = malloc(size + 1);
	cfg = malloc(sizeof(*cfg));
	if (!text || !cfg)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';

	config_defaults(cfg);
	err[0] = '\0';
	ret = config_load_string(cfg, text, "fuzz.ini", err, sizeof(err));
	CHECK(ret == 0 || ret == -EINVAL);
	CHECK(memchr(err, '\0', sizeof(err)) != NULL);
	if (!ret)
		(void)config_validate(cfg, "fuzz.ini", err, sizeof(err));
	CHECK(cfg->n_listen <= CONFIG_MAX_LISTEN);
	CHECK(cfg->allow.n <= ACL_MAX_ENTRIES && cfg->deny.n <= ACL_MAX_ENTRIES);

	/* The CIDR parser alone, on the whole text. */
	if (acl_match_parse(text, &e) == 0)
		CHECK(e.prefix <= (e.family == AF_INET ? 32u : 128u));
out:
	free(cfg);
	free(text);
	return 0;
}
