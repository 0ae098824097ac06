/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_web.c - [http] web_config, the file read, parsed and built into
 * what the endpoint serves with (basic auth, TLS, headers): no loop, no
 * socket, so that rdmad_stage_read() runs it on a worker thread too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/http_auth_check.h"
#include "http/http_web.h"

int http_web_build(const char *path, const struct web_config *wc,
		   const struct http_tls_owner *owner, struct http_auth **auth,
		   struct http_tls **tls, struct web_config_http *hdrs,
		   char *err, size_t errlen)
{
	char why[512];
	int rc;

	*auth = NULL;
	*tls = NULL;
	memset(hdrs, 0, sizeof(*hdrs));
	if (!wc)
		return 0;
	*hdrs = wc->http;
	if (wc->n_users) {
		*auth = http_auth_check_new(wc);
		if (!*auth) {
			snprintf(err, errlen, "[http] web_config: out of memory");
			return -ENOMEM;
		}
	}
	if (wc->tls) {
		rc = http_tls_new(tls, wc, owner, why, sizeof(why));
		if (rc) {
			snprintf(err, errlen, "[http] web_config %s: %s",
				 path, why);
			http_auth_check_free(*auth);
			*auth = NULL;
			return rc;
		}
	}
	return 0;
}

int http_web_read(const char *path, struct web_config **out, char *err,
		  size_t errlen)
{
	const struct http_tls_owner none = { NULL, NULL, NULL };
	struct web_config_http hdrs;
	struct http_auth *auth;
	struct http_tls *tls;
	struct web_config *wc;
	char why[512];
	FILE *f;
	int rc;

	*out = NULL;
	if (!*path)
		return 0;
	wc = calloc(1, sizeof(*wc));
	if (!wc) {
		snprintf(err, errlen, "[http] web_config: out of memory");
		return -ENOMEM;
	}
	f = fopen(path, "re");
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "[http] web_config %s: %s", path,
			 strerror(-rc));
		goto fail;
	}
	rc = web_config_parse(f, path, wc, why, sizeof(why));
	fclose(f);
	if (rc) {
		snprintf(err, errlen, "[http] web_config: %s", why);
		goto fail;
	}
	/* Built once here, so that whatever the start or a reload would
	 * refuse (a key that does not match, a CA that cannot be read) is
	 * refused by the check too; the endpoint builds its own. */
	rc = http_web_build(path, wc, &none, &auth, &tls, &hdrs, err, errlen);
	if (rc)
		goto fail;
	http_auth_check_free(auth);
	http_tls_free(tls);
	*out = wc;
	return 0;
fail:
	free(wc);
	return rc;
}

void http_web_free(struct web_config *wc)
{
	free(wc);
}

