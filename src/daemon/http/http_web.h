/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_web.h - [http] web_config read and built (http_web.c).
 */
#ifndef RDMAD_HTTP_WEB_H
#define RDMAD_HTTP_WEB_H

#include <stddef.h>

#include "http/http_auth_check.h"
#include "http/http_tls.h"
#include "http/web_config_parse.h"

/*
 * [http] web_config: the file at PATH ("": none, *OUT NULL) read,
 * parsed and built once (its key, certificate and CA loaded), so that it
 * is refused here whenever the endpoint would refuse it; no loop, no
 * socket: a worker thread may call it.  0 and *OUT (http_web_free), or
 * -errno with the reason in ERR.
 */
int http_web_read(const char *path, struct web_config **out, char *err,
		  size_t errlen);
/* Harmless on NULL. */
void http_web_free(struct web_config *wc);
/*
 * WC (read from PATH; NULL: none) built into *AUTH, *TLS (each NULL:
 * none) and *HDRS, its TLS connections told to OWNER (its callbacks NULL:
 * a trial build, no connection).  0, or -errno with the reason in ERR.
 */
int http_web_build(const char *path, const struct web_config *wc,
		   const struct http_tls_owner *owner, struct http_auth **auth,
		   struct http_tls **tls, struct web_config_http *hdrs,
		   char *err, size_t errlen);

#endif /* RDMAD_HTTP_WEB_H */
