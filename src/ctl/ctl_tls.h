/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctl_tls.h - rdmadctl's side of the endpoint's TLS: a client context
 * (the CA that signs rdmad's certificate, the client certificate and
 * key), the server's certificate checked against the address asked for
 * (an IP address or a host name), each connection a bufferevent_openssl.
 */
#ifndef RDMAD_CTL_TLS_H
#define RDMAD_CTL_TLS_H

#include <stddef.h>

#include <event2/event.h>

struct ctl_tls_opts {
	const char *cacert;	/* NULL: the system's CAs */
	const char *cert;	/* client certificate, NULL: none */
	const char *key;
};

struct ctl_tls;
struct bufferevent;

/* 0, or -1 with ERR saying which file failed and why. */
int ctl_tls_new(struct ctl_tls **out, const struct ctl_tls_opts *o,
		char *err, size_t errlen);
void ctl_tls_free(struct ctl_tls *t);
/* A connecting bufferevent to HOST (checked in the server's
 * certificate), or NULL. */
struct bufferevent *ctl_tls_bev(struct ctl_tls *t, struct event_base *base,
				const char *host);
/* Why the last connection's TLS failed (verification first), into ERR;
 * 0 if nothing is known. */
int ctl_tls_why(struct ctl_tls *t, char *err, size_t errlen);

#endif /* RDMAD_CTL_TLS_H */
