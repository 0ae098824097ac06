/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_tls.c - TLS for the endpoint (see http_tls.h).
 *
 * evhttp makes the bufferevent (http_tls_bevcb) before it knows the
 * socket and then sets the fd, which gives the SSL a new socket BIO
 * (libevent's be_openssl_ctrl, BEV_CTRL_SET_FD).  So the BIO callback
 * that sees the first bytes is put on that BIO when OpenSSL starts the
 * handshake (the info callback's SSL_CB_HANDSHAKE_START), before any
 * read.  There, too, the peer's address is taken (getpeername) and
 * judged by the owner's admit callback ([http] allow): a refused peer's
 * first read fails before a byte is read, so OpenSSL neither reads its
 * ClientHello nor sends anything, and evhttp closes the connection.  A
 * connection's state lives in the SSL's ex_data; its free function
 * reports a handshake that never finished.
 */
#include "http/http_tls.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <arpa/inet.h>

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "clock.h"
#include "core/log.h"
#include "http/http_tls_sniff_parse.h"

/* A file's identity, to see it change. */
struct http_tls_stamp {
	struct timespec mtime;
	off_t size;
	ino_t ino;
};

struct http_tls {
	SSL_CTX *ctx;
	struct web_config wc;		/* to build the next context */
	struct http_tls_stamp cert, key;
	uint64_t checked;		/* ns, the last look at the files */
	struct http_tls_owner owner;
};

/* One connection. */
struct http_tls_conn {
	struct http_tls_owner owner;
	struct sockaddr_storage peer;	/* family 0: not known yet */
	int denied;			/* not admitted: no TLS at all */
	unsigned char first[HTTP_TLS_SNIFF_LEN];
	size_t n;
	enum http_tls_sniff kind;	/* MORE: not known yet */
	int bio_set;
	int done;			/* handshake finished */
	int reported;			/* refusal counted */
	int alert;			/* the last alert sent, -1: none */
	int verifies;			/* the CA's verdict counts */
};

static int http_tls_idx = -1;
/* A context's client_allowed_sans (a copy it owns: connections keep
 * their context after a reload freed the struct http_tls) */
static int http_tls_ctx_idx = -1;
static pthread_once_t http_tls_once = PTHREAD_ONCE_INIT;

static void http_tls_report(struct http_tls_conn *c,
			    enum stats_http_refusal why)
{
	if (c->reported)
		return;
	c->reported = 1;
	c->owner.refuse(c->owner.arg, why, c->peer.ss_family ?
			(const struct sockaddr *)&c->peer : NULL);
}

/* SSL_free: a TLS handshake that never finished is a refusal. */
static void http_tls_conn_free(void *parent, void *ptr, CRYPTO_EX_DATA *ad,
			       int idx, long argl, void *argp)
{
	struct http_tls_conn *c = ptr;

	if (!c)
		return;
	if (!c->done && !c->reported && c->kind == HTTP_TLS_SNIFF_TLS)
		http_tls_report(c, c->alert == 116 /* certificate
							     required */ ?
				STATS_HTTP_TLS_CLIENT_CERT :
				STATS_HTTP_TLS_HANDSHAKE);
	free(c);
}

static void http_tls_ctx_free(void *parent, void *ptr, CRYPTO_EX_DATA *ad,
			      int idx, long argl, void *argp)
{
	free(ptr);
}

static void http_tls_init_once(void)
{
	http_tls_idx = SSL_get_ex_new_index(0, NULL, NULL, NULL,
					    http_tls_conn_free);
	http_tls_ctx_idx = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL,
						    http_tls_ctx_free);
}

static const char http_tls_plain_reply[] =
	"HTTP/1.0 400 Bad Request\r\n"
	"Content-Type: text/plain; charset=utf-8\r\n"
	"Connection: close\r\n\r\n"
	"this endpoint speaks TLS: use https://\n";

/* Plain HTTP on FD: one plain answer, best effort, and no more reads. */
static void http_tls_plain_answer(int fd)
{
	char sink[4096];
	int i;

	/* what the client sent, so that the close sends FIN, not RST */
	for (i = 0; i < 4; i++)
		if (recv(fd, sink, sizeof(sink), MSG_DONTWAIT) <= 0)
			break;
	if (send(fd, http_tls_plain_reply, sizeof(http_tls_plain_reply) - 1,
		 MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		return;
	shutdown(fd, SHUT_WR);
}

/* The socket BIO's reads: the first bytes say what the client speaks. */
static long http_tls_bio_cb(BIO *b, int oper, const char *argp, size_t len,
			    int argi, long argl, int ret, size_t *processed)
{
	struct http_tls_conn *c = (struct http_tls_conn *)BIO_get_callback_arg(b);
	size_t k;

	/* the operation first: at BIO_CB_FREE (SSL_free) C is already
	 * gone with the SSL's ex_data */
	if (oper == BIO_CB_READ && c && c->denied) {
		BIO_clear_retry_flags(b);
		return -1;	/* not a byte read: the SSL fails */
	}
	if (oper != (BIO_CB_READ | BIO_CB_RETURN) || !c ||
	    c->kind != HTTP_TLS_SNIFF_MORE || ret <= 0 || !processed)
		return ret;
	k = *processed;
	if (k > sizeof(c->first) - c->n)
		k = sizeof(c->first) - c->n;
	memcpy(c->first + c->n, argp, k);
	c->n += k;
	c->kind = http_tls_sniff_parse(c->first, c->n);
	if (c->kind == HTTP_TLS_SNIFF_HTTP) {
		int fd = (int)BIO_get_fd(b, NULL);

		http_tls_report(c, STATS_HTTP_TLS_PLAINTEXT);
		if (fd >= 0)
			http_tls_plain_answer(fd);
		BIO_clear_retry_flags(b);
		return -1;	/* the SSL fails; evhttp closes */
	}
	if (c->kind == HTTP_TLS_SNIFF_GARBAGE)
		http_tls_report(c, STATS_HTTP_TLS_GARBAGE);
	return ret;
}

/* The peer of FD into C, and whether the owner admits it. */
static void http_tls_admit(struct http_tls_conn *c, int fd)
{
	socklen_t len = sizeof(c->peer);

	if (fd < 0 || getpeername(fd, (struct sockaddr *)&c->peer, &len))
		memset(&c->peer, 0, sizeof(c->peer));
	if (c->peer.ss_family &&
	    c->owner.admit(c->owner.arg, (struct sockaddr *)&c->peer))
		return;
	c->denied = 1;
	http_tls_report(c, STATS_HTTP_FORBIDDEN);
}

static void http_tls_info_cb(const SSL *ssl, int where, int ret)
{
	struct http_tls_conn *c = SSL_get_ex_data(ssl, http_tls_idx);
	BIO *rb;

	if (!c)
		return;
	if ((where & SSL_CB_HANDSHAKE_START) && !c->bio_set) {
		rb = SSL_get_rbio(ssl);
		if (rb) {
			BIO_set_callback_arg(rb, (char *)c);
			BIO_set_callback_ex(rb, http_tls_bio_cb);
			c->bio_set = 1;
			/* before the ClientHello is read */
			http_tls_admit(c, (int)BIO_get_fd(rb, NULL));
		}
	}
	if (where & SSL_CB_HANDSHAKE_DONE)
		c->done = 1;
	if ((where & SSL_CB_ALERT) && (where & SSL_CB_WRITE))
		c->alert = ret & 0xff;
}

/* CERT names one of SANS (client_allowed_sans, exact match): a DNS
 * name, an e-mail address or a URI as written, an IP address by value. */
static int http_tls_san_allowed(X509 *cert, const struct web_config_list *sans)
{
	GENERAL_NAMES *gens = X509_get_ext_d2i(cert, NID_subject_alt_name,
					       NULL, NULL);
	unsigned char ip[16];
	const GENERAL_NAME *g;
	const ASN1_STRING *v;
	int i, ok = 0, iplen;
	unsigned int j;

	for (i = 0; gens && i < sk_GENERAL_NAME_num(gens) && !ok; i++) {
		g = sk_GENERAL_NAME_value(gens, i);
		switch (g->type) {
		case GEN_DNS:
		case GEN_EMAIL:
		case GEN_URI:
			v = g->d.ia5;
			break;
		case GEN_IPADD:
			v = g->d.ip;
			break;
		default:
			continue;
		}
		for (j = 0; j < sans->n && !ok; j++) {
			if (g->type != GEN_IPADD) {
				ok = (size_t)ASN1_STRING_length(v) ==
				     strlen(sans->s[j]) &&
				     !memcmp(ASN1_STRING_get0_data(v),
					     sans->s[j], strlen(sans->s[j]));
				continue;
			}
			iplen = inet_pton(AF_INET, sans->s[j], ip) == 1 ? 4 :
				inet_pton(AF_INET6, sans->s[j], ip) == 1 ? 16 :
				0;
			ok = iplen && ASN1_STRING_length(v) == iplen &&
			     !memcmp(ASN1_STRING_get0_data(v), ip,
				     (size_t)iplen);
		}
	}
	GENERAL_NAMES_free(gens);
	return ok;
}

/* A client certificate the CA refuses (VerifyClientCertIfGiven,
 * RequireAndVerifyClientCert), or whose SANs are not allowed
 * (client_allowed_sans); any certificate passes otherwise. */
static int http_tls_verify_cb(int ok, X509_STORE_CTX *x)
{
	SSL *ssl = X509_STORE_CTX_get_ex_data(x,
				SSL_get_ex_data_X509_STORE_CTX_idx());
	struct http_tls_conn *c = ssl ? SSL_get_ex_data(ssl, http_tls_idx) :
				  NULL;
	const struct web_config_list *sans = ssl ?
		SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), http_tls_ctx_idx) :
		NULL;

	if (!c)
		return 1;
	if (!c->verifies)
		ok = 1;
	if (ok && sans && X509_STORE_CTX_get_error_depth(x) == 0 &&
	    !http_tls_san_allowed(X509_STORE_CTX_get_current_cert(x),
				  sans)) {
		X509_STORE_CTX_set_error(x, X509_V_ERR_APPLICATION_VERIFICATION);
		ok = 0;
	}
	if (!ok)
		http_tls_report(c, STATS_HTTP_TLS_CLIENT_CERT);
	return ok;
}

/* cipher_suites (Go's, IANA names) into CTX: each looked up among
 * OpenSSL's by its standard name; TLS 1.3 suites are left to OpenSSL, as
 * Go leaves them.  0, or -1 with ERR naming the suite. */
static int http_tls_ciphers(SSL_CTX *ctx, const struct web_config_list *l,
			    char *err, size_t errlen)
{
	SSL_CTX *all = SSL_CTX_new(TLS_server_method());
	STACK_OF(SSL_CIPHER) *cs;
	const SSL_CIPHER *c = NULL;
	char list[WEB_CONFIG_LIST_MAX * 64] = "";
	int i, rc = -1;
	unsigned int j;

	if (!all || !SSL_CTX_set_cipher_list(all,
					     "ALL:COMPLEMENTOFALL:@SECLEVEL=0")) {
		snprintf(err, errlen, "cipher_suites: OpenSSL lists none");
		goto out;
	}
	cs = SSL_CTX_get_ciphers(all);
	for (j = 0; j < l->n; j++) {
		for (i = 0; i < sk_SSL_CIPHER_num(cs); i++) {
			c = sk_SSL_CIPHER_value(cs, i);
			if (SSL_CIPHER_standard_name(c) &&
			    !strcmp(SSL_CIPHER_standard_name(c), l->s[j]))
				break;
		}
		if (i == sk_SSL_CIPHER_num(cs)) {
			snprintf(err, errlen, "cipher_suites: '%s' is not a "
				 "cipher suite this OpenSSL knows (IANA names, "
				 "as Go's tls.CipherSuites() spells them)",
				 l->s[j]);
			goto out;
		}
		if (!strcmp(SSL_CIPHER_get_version(c), "TLSv1.3"))
			continue;
		if (*list)
			strcat(list, ":");
		strcat(list, SSL_CIPHER_get_name(c));
	}
	if (!*list) {
		/* TLS 1.3 suites only: no suite for TLS 1.2 and older */
		rc = SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) ? 0 : -1;
		goto out;
	}
	if (!SSL_CTX_set_cipher_list(ctx, list)) {
		snprintf(err, errlen, "cipher_suites: OpenSSL takes none of "
			 "%s", list);
		goto out;
	}
	rc = 0;
out:
	SSL_CTX_free(all);
	return rc;
}

/* The OpenSSL errors queued, in ERR; the queue is emptied. */
static void http_tls_errors(char *err, size_t errlen)
{
	unsigned long e;
	size_t len;

	while ((e = ERR_get_error())) {
		len = strlen(err);
		if (len + 3 >= errlen)
			continue;
		snprintf(err + len, errlen - len, ": ");
		ERR_error_string_n(e, err + len + 2, errlen - len - 2);
	}
}

static int http_tls_stamp(const char *path, struct http_tls_stamp *s)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	s->mtime = st.st_mtim;
	s->size = st.st_size;
	s->ino = st.st_ino;
	return 0;
}

static int http_tls_stamp_equal(const struct http_tls_stamp *a,
				const struct http_tls_stamp *b)
{
	return a->mtime.tv_sec == b->mtime.tv_sec &&
	       a->mtime.tv_nsec == b->mtime.tv_nsec && a->size == b->size &&
	       a->ino == b->ino;
}

/* A context from WC, or NULL with the reason in ERR. */
static SSL_CTX *http_tls_ctx(const struct web_config *wc, char *err,
			     size_t errlen)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
	int mode = SSL_VERIFY_NONE;
	const char *what;

	*err = '\0';
	ERR_clear_error();
	if (!ctx) {
		snprintf(err, errlen, "cannot create a TLS context");
		goto fail;
	}
	what = "min_version";
	if (!SSL_CTX_set_min_proto_version(ctx, wc->min_version ?
					   wc->min_version : TLS1_2_VERSION))
		goto bad;
	what = "max_version";
	if (wc->max_version &&
	    !SSL_CTX_set_max_proto_version(ctx, wc->max_version))
		goto bad;
	if (wc->ciphers.n && http_tls_ciphers(ctx, &wc->ciphers, err, errlen))
		goto fail;
	what = "curve_preferences";
	if (*wc->curves && !SSL_CTX_set1_groups_list(ctx, wc->curves))
		goto bad;
	what = wc->cert_file;
	if (SSL_CTX_use_certificate_chain_file(ctx, wc->cert_file) != 1)
		goto bad;
	what = wc->key_file;
	if (SSL_CTX_use_PrivateKey_file(ctx, wc->key_file,
					SSL_FILETYPE_PEM) != 1)
		goto bad;
	what = "cert_file and key_file";
	if (SSL_CTX_check_private_key(ctx) != 1)
		goto bad;
	if (*wc->client_ca_file) {
		what = wc->client_ca_file;
		if (SSL_CTX_load_verify_locations(ctx, wc->client_ca_file,
						  NULL) != 1)
			goto bad;
		SSL_CTX_set_client_CA_list(ctx,
			SSL_load_client_CA_file(wc->client_ca_file));
	}
	switch (wc->client_auth) {
	case WEB_CLIENT_AUTH_NONE:
		break;
	case WEB_CLIENT_AUTH_REQUEST:
	case WEB_CLIENT_AUTH_VERIFY_IF_GIVEN:
		mode = SSL_VERIFY_PEER;
		break;
	case WEB_CLIENT_AUTH_REQUIRE_ANY:
	case WEB_CLIENT_AUTH_REQUIRE_VERIFY:
		mode = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
		break;
	}
	SSL_CTX_set_verify(ctx, mode, mode == SSL_VERIFY_NONE ? NULL :
			   http_tls_verify_cb);
	if (wc->prefer_server_ciphers)
		SSL_CTX_set_options(ctx, SSL_OP_CIPHER_SERVER_PREFERENCE);
	if (wc->sans.n) {
		struct web_config_list *sans = malloc(sizeof(*sans));

		if (!sans || !SSL_CTX_set_ex_data(ctx, http_tls_ctx_idx,
						  sans)) {
			free(sans);
			snprintf(err, errlen, "TLS: out of memory");
			goto fail;
		}
		*sans = wc->sans;
	}
	SSL_CTX_set_info_callback(ctx, http_tls_info_cb);
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
	SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION |
			    SSL_OP_NO_TICKET);
	return ctx;
bad:
	snprintf(err, errlen, "%s", what);
	http_tls_errors(err, errlen);
fail:
	SSL_CTX_free(ctx);
	return NULL;
}

int http_tls_new(struct http_tls **out, const struct web_config *wc,
		 const struct http_tls_owner *owner, char *err,
		 size_t errlen)
{
	struct http_tls *t;
	char why[512];

	pthread_once(&http_tls_once, http_tls_init_once);
	if (http_tls_idx < 0) {
		snprintf(err, errlen, "TLS: out of memory");
		return -ENOMEM;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "TLS: out of memory");
		return -ENOMEM;
	}
	t->wc = *wc;
	t->owner = *owner;
	/* the stamps first: a file replaced meanwhile is read again */
	http_tls_stamp(wc->cert_file, &t->cert);
	http_tls_stamp(wc->key_file, &t->key);
	t->ctx = http_tls_ctx(wc, why, sizeof(why));
	if (!t->ctx) {
		snprintf(err, errlen, "TLS: %s", why);
		free(t);
		return -EINVAL;
	}
	t->checked = clock_now_ns();
	*out = t;
	return 0;
}

void http_tls_free(struct http_tls *t)
{
	if (!t)
		return;
	SSL_CTX_free(t->ctx);	/* live connections hold a reference */
	free(t);
}

/* At most every HTTP_TLS_CHECK_S: a new certificate or key on disk
 * makes a new context; a pair that does not load keeps the old one. */
static void http_tls_check_files(struct http_tls *t)
{
	struct http_tls_stamp cert = { { 0, 0 }, 0, 0 }, key = cert;
	uint64_t now = clock_now_ns();
	char why[512];
	SSL_CTX *ctx;

	if (now - t->checked < HTTP_TLS_CHECK_S * 1000000000ull)
		return;
	t->checked = now;
	http_tls_stamp(t->wc.cert_file, &cert);
	http_tls_stamp(t->wc.key_file, &key);
	if (http_tls_stamp_equal(&cert, &t->cert) &&
	    http_tls_stamp_equal(&key, &t->key))
		return;
	t->cert = cert;
	t->key = key;
	ctx = http_tls_ctx(&t->wc, why, sizeof(why));
	if (!ctx) {
		log_warn("http: TLS certificate or key changed but does "
			    "not load, still serving the previous one: %s",
			    why);
		return;
	}
	SSL_CTX_free(t->ctx);
	t->ctx = ctx;
	log_notice("http: TLS certificate %s and key %s read again (they "
		   "changed)", t->wc.cert_file, t->wc.key_file);
}

struct bufferevent *http_tls_bevcb(struct event_base *base, void *arg)
{
	struct http_tls *t = arg;
	struct http_tls_conn *c;
	struct bufferevent *bev;
	SSL *ssl;

	http_tls_check_files(t);
	c = calloc(1, sizeof(*c));
	ssl = c ? SSL_new(t->ctx) : NULL;
	if (!ssl || !SSL_set_ex_data(ssl, http_tls_idx, c)) {
		if (ssl)
			SSL_free(ssl);
		free(c);
		return NULL;	/* evhttp makes a plain one and the
				   client's handshake fails */
	}
	c->owner = t->owner;
	c->alert = -1;
	c->verifies = web_config_client_auth_verifies(t->wc.client_auth);
	bev = bufferevent_openssl_socket_new(base, -1, ssl,
					     BUFFEREVENT_SSL_ACCEPTING,
					     BEV_OPT_CLOSE_ON_FREE);
	return bev;	/* NULL: bufferevent_openssl freed the SSL */
}

int http_tls_peer_left(struct bufferevent *bev)
{
	SSL *ssl = bev ? bufferevent_openssl_get_ssl(bev) : NULL;
	char c;
	int n;

	if (!ssl)
		return 0;
	/* OpenSSL reads (and decrypts) what the socket holds: an alert
	 * close_notify, the end of file, or data kept for evhttp */
	ERR_clear_error();
	n = SSL_peek(ssl, &c, 1);
	if (n > 0)
		return 0;
	switch (SSL_get_error(ssl, n)) {
	case SSL_ERROR_WANT_READ:
	case SSL_ERROR_WANT_WRITE:
		return -EAGAIN;
	default:		/* ZERO_RETURN: close_notify; SYSCALL, SSL */
		ERR_clear_error();
		return 1;
	}
}
