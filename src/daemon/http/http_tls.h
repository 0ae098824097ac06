/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_tls.h - TLS for the endpoint: an OpenSSL context from the web
 * config's tls_server_config, each accepted connection an
 * bufferevent_openssl (evhttp_set_bevcb), the certificate and key
 * re-read when their files change (checked at most every
 * HTTP_TLS_CHECK_S on accept; a bad new pair keeps the old one).
 *
 * Before any TLS byte is read or written (when the handshake starts),
 * the owner's ADMIT callback judges the peer's address ([http] allow): a
 * peer it refuses is closed without a handshake, so it never sees the
 * certificate.  What a client sends first is then classified
 * (http_tls_sniff_parse.h) from a callback on the connection's socket
 * BIO: plain HTTP gets one plain "400 this endpoint speaks TLS" and the
 * connection closes; garbage, failed handshakes and refused client
 * certificates are reported to the owner by reason, with the peer's
 * address.
 */
#ifndef RDMAD_HTTP_TLS_H
#define RDMAD_HTTP_TLS_H

#include <stddef.h>
#include <sys/socket.h>

#include <event2/event.h>

#include "core/stats.h"
#include "http/web_config_parse.h"

#define HTTP_TLS_CHECK_S	5

struct http_tls;
struct bufferevent;

/* A connection from PEER (NULL: not known) refused for WHY. */
typedef void http_tls_refuse_fn(void *arg, enum stats_http_refusal why,
				const struct sockaddr *peer);
/* May PEER have a handshake?  1: yes; 0: it is closed at once (and
 * reported as STATS_HTTP_FORBIDDEN). */
typedef int http_tls_admit_fn(void *arg, const struct sockaddr *peer);

/* The owner's callbacks; ARG must outlive every connection (also those
 * accepted before a reload replaced the context). */
struct http_tls_owner {
	http_tls_admit_fn *admit;
	http_tls_refuse_fn *refuse;
	void *arg;
};

/*
 * A context from WC (wc->tls set), OWNER told of each connection.  0 or
 * -errno, ERR filled.
 */
int http_tls_new(struct http_tls **out, const struct web_config *wc,
		 const struct http_tls_owner *owner, char *err,
		 size_t errlen);
/* Harmless on NULL; live connections keep the context they use. */
void http_tls_free(struct http_tls *t);
/* evhttp_set_bevcb's callback, ARG the struct http_tls. */
struct bufferevent *http_tls_bevcb(struct event_base *base, void *arg);
/*
 * While a request waits for its answer (evhttp reads nothing then), the
 * socket under BEV became readable: has the client gone?  1: it closed
 * (TLS close_notify, end of file, a broken connection); 0: it sent data
 * (or BEV is not TLS: the caller peeks at the socket itself); -EAGAIN: a
 * TLS record is not whole yet, look again at the next byte.
 */
int http_tls_peer_left(struct bufferevent *bev);

#endif /* RDMAD_HTTP_TLS_H */
