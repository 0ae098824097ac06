/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctl_tls.c - rdmadctl's TLS (see ctl_tls.h), OpenSSL through libevent's
 * bufferevent_openssl.
 */
#include "ctl_tls.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

struct ctl_tls {
	SSL_CTX *ctx;
	SSL *ssl;			/* the last connection's */
	struct bufferevent *bev;
};

/* WHAT and OpenSSL's queued errors into ERR. */
static void ctl_tls_err(const char *what, char *err, size_t errlen)
{
	unsigned long e = ERR_peek_last_error();
	char buf[256] = "";

	if (e)
		ERR_error_string_n(e, buf, sizeof(buf));
	snprintf(err, errlen, "%s%s%s", what, e ? ": " : "", buf);
	ERR_clear_error();
}

int ctl_tls_new(struct ctl_tls **out, const struct ctl_tls_opts *o,
		char *err, size_t errlen)
{
	struct ctl_tls *t = calloc(1, sizeof(*t));
	char what[600];

	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	t->ctx = SSL_CTX_new(TLS_client_method());
	if (!t->ctx) {
		ctl_tls_err("cannot create a TLS context", err, errlen);
		goto fail;
	}
	SSL_CTX_set_min_proto_version(t->ctx, TLS1_2_VERSION);
	SSL_CTX_set_verify(t->ctx, SSL_VERIFY_PEER, NULL);
	if (o->cacert) {
		if (SSL_CTX_load_verify_locations(t->ctx, o->cacert, NULL) != 1) {
			snprintf(what, sizeof(what), "--cacert %s", o->cacert);
			ctl_tls_err(what, err, errlen);
			goto fail;
		}
	} else if (SSL_CTX_set_default_verify_paths(t->ctx) != 1) {
		ctl_tls_err("the system's CA certificates", err, errlen);
		goto fail;
	}
	if (o->cert) {
		if (SSL_CTX_use_certificate_chain_file(t->ctx, o->cert) != 1) {
			snprintf(what, sizeof(what), "--cert %s", o->cert);
			ctl_tls_err(what, err, errlen);
			goto fail;
		}
		if (SSL_CTX_use_PrivateKey_file(t->ctx, o->key,
						SSL_FILETYPE_PEM) != 1) {
			snprintf(what, sizeof(what), "--key %s", o->key);
			ctl_tls_err(what, err, errlen);
			goto fail;
		}
		if (SSL_CTX_check_private_key(t->ctx) != 1) {
			snprintf(what, sizeof(what), "--key %s does not go "
				 "with --cert %s", o->key, o->cert);
			ctl_tls_err(what, err, errlen);
			goto fail;
		}
	}
	*out = t;
	return 0;
fail:
	ctl_tls_free(t);
	return -1;
}

void ctl_tls_free(struct ctl_tls *t)
{
	if (!t)
		return;
	SSL_CTX_free(t->ctx);
	free(t);
}

struct bufferevent *ctl_tls_bev(struct ctl_tls *t, struct event_base *base,
				const char *host)
{
	unsigned char ip[16];
	SSL *ssl = SSL_new(t->ctx);

	if (!ssl)
		return NULL;
	if (inet_pton(AF_INET, host, ip) == 1 ||
	    inet_pton(AF_INET6, host, ip) == 1) {
		if (!X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host))
			goto fail;
	} else if (!SSL_set1_host(ssl, host) ||
		   !SSL_set_tlsext_host_name(ssl, host)) {
		goto fail;
	}
	t->ssl = ssl;
	t->bev = bufferevent_openssl_socket_new(base, -1, ssl,
						BUFFEREVENT_SSL_CONNECTING,
						BEV_OPT_CLOSE_ON_FREE |
						BEV_OPT_DEFER_CALLBACKS);
	if (!t->bev)
		t->ssl = NULL;	/* freed with the bufferevent's failure */
	return t->bev;
fail:
	SSL_free(ssl);
	return NULL;
}

int ctl_tls_why(struct ctl_tls *t, char *err, size_t errlen)
{
	unsigned long e;
	long v;
	char buf[256];

	if (!t->ssl)
		return 0;
	v = SSL_get_verify_result(t->ssl);
	if (v != X509_V_OK) {
		snprintf(err, errlen, "TLS: rdmad's certificate not trusted: "
			 "%s (--cacert: the CA that signed it)",
			 X509_verify_cert_error_string(v));
		return 1;
	}
	e = t->bev ? bufferevent_get_openssl_error(t->bev) : 0;
	if (!e)
		return 0;
	ERR_error_string_n(e, buf, sizeof(buf));
	snprintf(err, errlen, "TLS: %s", buf);
	return 1;
}
