/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_tls.h - TLS for the endpoint: an OpenSSL context from the web
 * config's tls_server_config, each accepted connection an
 * bufferevent_openssl (evhttp_set_bevcb), the certificate and key
 * re-read when their files change (checked at most every
 * HTTP_TLS_CHECK_S on accept; a bad new pair keeps the old one).
 *
 * What a client sends first is classified (http_tls_sniff_parse.h) from a
 * callback on the connection's socket BIO: plain HTTP gets one plain
 * "400 this endpoint speaks TLS" and the connection closes; garbage,
 * failed handshakes and refused client certificates are reported to
 * the owner by reason.
 */
#ifndef RDMAD_HTTP_TLS_H
#define RDMAD_HTTP_TLS_H

#include <stddef.h>

#include <event2/event.h>

#include "core/stats.h"
#include "http/web_config_parse.h"

#define HTTP_TLS_CHECK_S	5

struct http_tls;
struct bufferevent;

/* A connection (socket FD, the peer still connected) refused for WHY. */
typedef void http_tls_refuse_fn(void *arg, enum stats_http_refusal why,
				int fd);

/*
 * A context from WC (wc->tls set); REFUSE(ARG, ...) for each refused
 * connection, also those accepted before a reload replaced this one
 * (ARG must outlive every connection).  0 or -errno, ERR filled.
 */
int http_tls_new(struct http_tls **out, const struct web_config *wc,
		 http_tls_refuse_fn *refuse, void *arg, char *err,
		 size_t errlen);
/* Harmless on NULL; live connections keep the context they use. */
void http_tls_free(struct http_tls *t);
/* evhttp_set_bevcb's callback, ARG the struct http_tls. */
struct bufferevent *http_tls_bevcb(struct event_base *base, void *arg);

#endif /* RDMAD_HTTP_TLS_H */
