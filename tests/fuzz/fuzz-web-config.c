/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-web-config.c - libFuzzer target: the web configuration parser
 * (src/daemon/http/web_config_parse.c) on arbitrary files.  Whatever the
 * input, it answers 0 with a consistent struct, or -EINVAL with a
 * "NAME:LINE: " message, the same each time.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/web_config_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

static int parse(const uint8_t *data, size_t size, struct web_config *wc,
		 char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)data, size, "r");
	int rc;

	if (!f)
		return -ENOMEM;
	rc = web_config_parse(f, "/etc/w.yml", wc, err, errlen);
	fclose(f);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct web_config wc, wc2;
	char err[512], err2[512];
	unsigned int i;
	int rc;

	if (!size || size > 65536)
		return 0;
	rc = parse(data, size, &wc, err, sizeof(err));
	CHECK(rc == 0 || rc == -EINVAL);
	CHECK(parse(data, size, &wc2, err2, sizeof(err2)) == rc);
	if (rc) {
		CHECK(!strncmp(err, "/etc/w.yml:", 11));
		CHECK(!strcmp(err, err2));
		return 0;
	}
	CHECK(!memcmp(&wc, &wc2, sizeof(wc)));
	CHECK(wc.n_users <= WEB_CONFIG_USERS_MAX);
	for (i = 0; i < wc.n_users; i++)
		CHECK(web_config_bcrypt_shape(wc.users[i].hash));
	if (wc.tls) {
		CHECK(*wc.cert_file && *wc.key_file);
		CHECK(!web_config_client_auth_verifies(wc.client_auth) ||
		      *wc.client_ca_file);
	}
	return 0;
}
