/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * web_config_parse.c - exporter-toolkit's web configuration (see
 * web_config_parse.h), read with libyaml's document API: the whole file
 * becomes a node tree, walked here; each node's start mark gives the
 * line of a message.  A table per section names each key and its
 * parser (the same shape as config.c's).
 */
#include "http/web_config_parse.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include <yaml.h>

/* One file being read. */
struct wc_parse {
	const char *name;		/* the file, for messages */
	size_t dirlen;			/* its folder's length, with the '/' */
	yaml_document_t *doc;
	struct web_config *wc;
	char *err;
	size_t errlen;
	int failed;
};

__attribute__((format(printf, 3, 4)))
static void wc_perr(struct wc_parse *p, const yaml_node_t *n,
		    const char *fmt, ...)
{
	size_t len;
	va_list ap;

	if (p->failed)
		return;
	p->failed = 1;
	snprintf(p->err, p->errlen, "%s:%lu: ", p->name,
		 n ? (unsigned long)n->start_mark.line + 1 : 1ul);
	len = strlen(p->err);
	va_start(ap, fmt);
	vsnprintf(p->err + len, p->errlen - len, fmt, ap);
	va_end(ap);
}

static const char *wc_scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* N as a string (a scalar), or NULL after an error naming KEY. */
static const char *wc_string(struct wc_parse *p, const yaml_node_t *n,
			     const char *key)
{
	if (n->type != YAML_SCALAR_NODE) {
		wc_perr(p, n, "%s: expected a string, got a %s", key,
			n->type == YAML_MAPPING_NODE ? "mapping" : "list");
		return NULL;
	}
	if (strlen(wc_scalar(n)) != n->data.scalar.length) {
		wc_perr(p, n, "%s: a NUL byte in the value", key);
		return NULL;
	}
	return wc_scalar(n);
}

/* A plain scalar YAML reads as null: the key is written empty. */
static int wc_null(const yaml_node_t *n)
{
	const char *s;

	if (n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	s = wc_scalar(n);
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") ||
	       !strcmp(s, "Null") || !strcmp(s, "NULL");
}

/* A path: relative ones are taken from the web config's folder. */
static void wc_key_path(struct wc_parse *p, const yaml_node_t *n,
			const char *key, void *field)
{
	const char *s = wc_string(p, n, key);
	char *out = field;

	if (!s)
		return;
	if (!*s) {
		wc_perr(p, n, "%s: empty path", key);
		return;
	}
	if (*s == '/' || !p->dirlen) {
		if (strlen(s) >= WEB_CONFIG_PATH_MAX)
			wc_perr(p, n, "%s: path too long", key);
		else
			strcpy(out, s);
		return;
	}
	if (p->dirlen + strlen(s) >= WEB_CONFIG_PATH_MAX) {
		wc_perr(p, n, "%s: path too long", key);
		return;
	}
	memcpy(out, p->name, p->dirlen);
	strcpy(out + p->dirlen, s);
}

static const char *const wc_auth_names[] = {
	[WEB_CLIENT_AUTH_NONE] = "NoClientCert",
	[WEB_CLIENT_AUTH_REQUEST] = "RequestClientCert",
	[WEB_CLIENT_AUTH_REQUIRE_ANY] = "RequireAnyClientCert",
	[WEB_CLIENT_AUTH_VERIFY_IF_GIVEN] = "VerifyClientCertIfGiven",
	[WEB_CLIENT_AUTH_REQUIRE_VERIFY] = "RequireAndVerifyClientCert",
};
#define WC_N_AUTH	(sizeof(wc_auth_names) / sizeof(wc_auth_names[0]))

const char *web_config_client_auth_name(enum web_client_auth a)
{
	return (unsigned int)a < WC_N_AUTH ? wc_auth_names[a] : "?";
}

int web_config_client_auth_verifies(enum web_client_auth a)
{
	return a == WEB_CLIENT_AUTH_VERIFY_IF_GIVEN ||
	       a == WEB_CLIENT_AUTH_REQUIRE_VERIFY;
}

static void wc_key_auth(struct wc_parse *p, const yaml_node_t *n,
			const char *key, void *field)
{
	const char *s = wc_string(p, n, key);
	unsigned int i;

	if (!s)
		return;
	/* exporter-toolkit's older name, and its empty default */
	if (!strcmp(s, "RequireClientCert")) {
		*(enum web_client_auth *)field = WEB_CLIENT_AUTH_REQUIRE_ANY;
		return;
	}
	if (!*s) {
		*(enum web_client_auth *)field = WEB_CLIENT_AUTH_NONE;
		return;
	}
	for (i = 0; i < WC_N_AUTH; i++)
		if (!strcmp(s, wc_auth_names[i])) {
			*(enum web_client_auth *)field = i;
			return;
		}
	wc_perr(p, n, "%s: '%s' is not one of NoClientCert, RequestClientCert, "
		"RequireAnyClientCert (RequireClientCert), "
		"VerifyClientCertIfGiven, RequireAndVerifyClientCert", key, s);
}

/* A YAML boolean (the 1.1 spellings Go's yaml.v2 takes). */
static void wc_key_bool(struct wc_parse *p, const yaml_node_t *n,
			const char *key, void *field)
{
	static const char *const yes[] = { "true", "True", "TRUE", "yes",
					   "Yes", "YES", "on", "On", "ON" };
	static const char *const no[] = { "false", "False", "FALSE", "no",
					  "No", "NO", "off", "Off", "OFF" };
	const char *s = wc_string(p, n, key);
	unsigned int i;

	if (!s)
		return;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcmp(s, yes[i])) {
			*(int *)field = 1;
			return;
		}
		if (!strcmp(s, no[i])) {
			*(int *)field = 0;
			return;
		}
	}
	wc_perr(p, n, "%s: '%s' is not true or false", key, s);
}

/* A list of strings (a YAML sequence), each 1..WEB_CONFIG_NAME_MAX-1
 * bytes, at most WEB_CONFIG_LIST_MAX. */
static void wc_key_list(struct wc_parse *p, const yaml_node_t *n,
			const char *key, void *field)
{
	struct web_config_list *l = field;
	const yaml_node_item_t *it;
	const yaml_node_t *e;
	const char *s;

	if (n->type != YAML_SEQUENCE_NODE) {
		wc_perr(p, n, "%s: expected a list ([a, b] or - lines)", key);
		return;
	}
	for (it = n->data.sequence.items.start;
	     it < n->data.sequence.items.top && !p->failed; it++) {
		e = yaml_document_get_node(p->doc, *it);
		if (!e)
			return;
		s = wc_string(p, e, key);
		if (!s)
			return;
		if (!*s || strlen(s) >= WEB_CONFIG_NAME_MAX) {
			wc_perr(p, e, "%s: an entry is 1-%d bytes", key,
				WEB_CONFIG_NAME_MAX - 1);
			return;
		}
		if (l->n == WEB_CONFIG_LIST_MAX) {
			wc_perr(p, e, "%s: more than %d entries", key,
				WEB_CONFIG_LIST_MAX);
			return;
		}
		strcpy(l->s[l->n++], s);
	}
}

/* curve_preferences: Go's names into OpenSSL's groups list. */
static void wc_key_curves(struct wc_parse *p, const yaml_node_t *n,
			  const char *key, void *field)
{
	static const struct { const char *go, *ossl; } cs[] = {
		{ "CurveP256", "P-256" }, { "CurveP384", "P-384" },
		{ "CurveP521", "P-521" }, { "X25519", "X25519" },
	};
	struct web_config_list l;
	char *out = field;
	unsigned int i, j;

	memset(&l, 0, sizeof(l));
	wc_key_list(p, n, key, &l);
	if (p->failed)
		return;
	*out = '\0';
	for (i = 0; i < l.n; i++) {
		for (j = 0; j < sizeof(cs) / sizeof(cs[0]); j++)
			if (!strcmp(l.s[i], cs[j].go))
				break;
		if (j == sizeof(cs) / sizeof(cs[0])) {
			wc_perr(p, n, "%s: '%s' is not one of CurveP256, "
				"CurveP384, CurveP521, X25519", key, l.s[i]);
			return;
		}
		if (strstr(out, cs[j].ossl)) {
			wc_perr(p, n, "%s: %s given twice", key, l.s[i]);
			return;
		}
		if (*out)
			strcat(out, ":");
		strcat(out, cs[j].ossl);
	}
}

static const char *wc_pair(struct wc_parse *p, const yaml_node_t *n,
			   const yaml_node_pair_t *pr, const char *what,
			   const yaml_node_t **kn, const yaml_node_t **vn,
			   unsigned long *dup);

/* http_server_config's headers: exporter-toolkit's five, and the values
 * it allows for two of them. */
static void wc_key_headers(struct wc_parse *p, const yaml_node_t *n,
			   const char *key, void *field)
{
	static const struct { const char *name, *values[3]; } hs[] = {
		{ "Content-Security-Policy", { NULL } },
		{ "X-Frame-Options", { "deny", "sameorigin", NULL } },
		{ "X-Content-Type-Options", { "nosniff", NULL } },
		{ "X-XSS-Protection", { NULL } },
		{ "Strict-Transport-Security", { NULL } },
	};
	struct web_config_http *h = field;
	const yaml_node_t *kn, *vn;
	yaml_node_pair_t *pr;
	unsigned long dup;
	const char *name, *v;
	unsigned int i, j;

	if (n->type != YAML_MAPPING_NODE) {
		wc_perr(p, n, "%s: expected a mapping (HEADER: VALUE lines)",
			key);
		return;
	}
	for (pr = n->data.mapping.pairs.start;
	     pr < n->data.mapping.pairs.top && !p->failed; pr++) {
		name = wc_pair(p, n, pr, "a header", &kn, &vn, &dup);
		if (!name)
			return;
		if (dup) {
			wc_perr(p, kn, "%s: %s given twice (line %lu first)",
				key, name, dup);
			return;
		}
		for (i = 0; i < sizeof(hs) / sizeof(hs[0]); i++)
			if (!strcmp(hs[i].name, name))
				break;
		if (i == sizeof(hs) / sizeof(hs[0])) {
			wc_perr(p, kn, "%s: %s cannot be set (only "
				"Content-Security-Policy, X-Frame-Options, "
				"X-Content-Type-Options, X-XSS-Protection, "
				"Strict-Transport-Security)", key, name);
			return;
		}
		v = wc_null(vn) ? "" : wc_string(p, vn, name);
		if (!v)
			return;
		if (!*v)
			continue;		/* blank: not set */
		if (strlen(v) >= WEB_CONFIG_HEADER_MAX ||
		    strpbrk(v, "\r\n")) {
			wc_perr(p, vn, "%s: %s: a value is one line of at most "
				"%d bytes", key, name, WEB_CONFIG_HEADER_MAX - 1);
			return;
		}
		for (j = 0; hs[i].values[j]; j++)
			if (!strcmp(v, hs[i].values[j]))
				break;
		if (hs[i].values[0] && !hs[i].values[j]) {
			wc_perr(p, vn, "%s: %s: '%s' is not one of %s%s%s", key,
				name, v, hs[i].values[0],
				hs[i].values[1] ? ", " : "",
				hs[i].values[1] ? hs[i].values[1] : "");
			return;
		}
		h->headers[h->n_headers].name = hs[i].name;
		strcpy(h->headers[h->n_headers].value, v);
		h->n_headers++;
	}
}

static void wc_key_version(struct wc_parse *p, const yaml_node_t *n,
			   const char *key, void *field)
{
	static const struct { const char *name; int v; } vs[] = {
		{ "TLS10", WEB_TLS10 }, { "TLS11", WEB_TLS11 },
		{ "TLS12", WEB_TLS12 }, { "TLS13", WEB_TLS13 },
	};
	const char *s = wc_string(p, n, key);
	unsigned int i;

	if (!s)
		return;
	for (i = 0; i < sizeof(vs) / sizeof(vs[0]); i++)
		if (!strcmp(s, vs[i].name)) {
			*(int *)field = vs[i].v;
			return;
		}
	wc_perr(p, n, "%s: '%s' is not one of TLS10, TLS11, TLS12, TLS13",
		key, s);
}

/* A key of a section: its parser and field; NULL parser: refused. */
struct wc_key {
	const char *name;
	void (*parse)(struct wc_parse *p, const yaml_node_t *n,
		      const char *key, void *field);
	size_t off;
	int is_section;			/* top level: a mapping */
};

#define OFF(f)	offsetof(struct web_config, f)
static const struct wc_key wc_http_keys[] = {
	{ "http2", wc_key_bool, OFF(http.http2), 0 },
	{ "headers", wc_key_headers, OFF(http), 0 },
	{ NULL, NULL, 0, 0 },
};

static const struct wc_key wc_tls_keys[] = {
	{ "cert_file", wc_key_path, OFF(cert_file), 0 },
	{ "key_file", wc_key_path, OFF(key_file), 0 },
	{ "client_auth_type", wc_key_auth, OFF(client_auth), 0 },
	{ "client_ca_file", wc_key_path, OFF(client_ca_file), 0 },
	{ "min_version", wc_key_version, OFF(min_version), 0 },
	{ "max_version", wc_key_version, OFF(max_version), 0 },
	{ "cipher_suites", wc_key_list, OFF(ciphers), 0 },
	{ "prefer_server_cipher_suites", wc_key_bool,
	  OFF(prefer_server_ciphers), 0 },
	{ "curve_preferences", wc_key_curves, OFF(curves), 0 },
	{ "client_allowed_sans", wc_key_list, OFF(sans), 0 },
	/* the format's, not rdmad's */
	{ "cert", NULL, 0, 0 },
	{ "key", NULL, 0, 0 },
	{ "client_ca", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};
#undef OFF

static void wc_mapping(struct wc_parse *p, const yaml_node_t *n,
		       const char *what, const struct wc_key *table);
static void wc_section_tls(struct wc_parse *p, const yaml_node_t *n,
			   const char *key, void *field);
static void wc_section_users(struct wc_parse *p, const yaml_node_t *n,
			     const char *key, void *field);

static void wc_section_http(struct wc_parse *p, const yaml_node_t *n,
			    const char *key, void *field)
{
	wc_mapping(p, n, key, wc_http_keys);
}

static const struct wc_key wc_top_keys[] = {
	{ "tls_server_config", wc_section_tls, 0, 1 },
	{ "basic_auth_users", wc_section_users, 0, 1 },
	{ "http_server_config", wc_section_http, 0, 1 },
	{ "rate_limit", NULL, 0, 1 },
	{ NULL, NULL, 0, 0 },
};

/* Pair PR of mapping N: its key's name (a string, else NULL after an
 * error naming WHAT), *KN and *VN its nodes, *DUP the line of an earlier
 * pair with the same key (0: none). */
static const char *wc_pair(struct wc_parse *p, const yaml_node_t *n,
			   const yaml_node_pair_t *pr, const char *what,
			   const yaml_node_t **kn, const yaml_node_t **vn,
			   unsigned long *dup)
{
	const yaml_node_pair_t *q;
	const yaml_node_t *o;
	const char *name;

	*dup = 0;
	*kn = yaml_document_get_node(p->doc, pr->key);
	*vn = yaml_document_get_node(p->doc, pr->value);
	if (!*kn || !*vn)
		return NULL;
	name = wc_string(p, *kn, what);
	if (!name)
		return NULL;
	for (q = n->data.mapping.pairs.start; q < pr && !*dup; q++) {
		o = yaml_document_get_node(p->doc, q->key);
		if (o && o->type == YAML_SCALAR_NODE &&
		    !strcmp(wc_scalar(o), name))
			*dup = (unsigned long)o->start_mark.line + 1;
	}
	return name;
}

/* Each key of mapping N by TABLE; a key seen twice is refused. */
static void wc_mapping(struct wc_parse *p, const yaml_node_t *n,
		       const char *what, const struct wc_key *table)
{
	const struct wc_key *k;
	const yaml_node_t *kn, *vn;
	yaml_node_pair_t *pr;
	unsigned long dup;
	const char *name;

	if (n->type != YAML_MAPPING_NODE) {
		wc_perr(p, n, "%s: expected a mapping (KEY: VALUE lines)",
			what);
		return;
	}
	for (pr = n->data.mapping.pairs.start;
	     pr < n->data.mapping.pairs.top && !p->failed; pr++) {
		name = wc_pair(p, n, pr, "a key", &kn, &vn, &dup);
		if (!name)
			return;
		if (dup) {
			wc_perr(p, kn, "%s: given twice (line %lu first)",
				name, dup);
			return;
		}
		for (k = table; k->name; k++)
			if (!strcmp(k->name, name))
				break;
		if (!k->name) {
			wc_perr(p, kn, "%s: unknown key in %s", name, what);
			return;
		}
		if (!k->parse) {
			wc_perr(p, kn, "%s: not supported by rdmad (see "
				"docs/security.md)", name);
			return;
		}
		if (k->is_section && wc_null(vn))
			continue;	/* written empty: absent */
		k->parse(p, vn, name, (char *)p->wc + k->off);
	}
}

static void wc_section_tls(struct wc_parse *p, const yaml_node_t *n,
			   const char *key, void *field)
{
	struct web_config *wc = p->wc;

	wc_mapping(p, n, key, wc_tls_keys);
	if (p->failed)
		return;
	wc->tls = 1;
	if (!*wc->cert_file)
		wc_perr(p, n, "%s: cert_file missing (key_file needs it)",
			key);
	else if (!*wc->key_file)
		wc_perr(p, n, "%s: key_file missing (cert_file needs it)",
			key);
	else if (web_config_client_auth_verifies(wc->client_auth) &&
		 !*wc->client_ca_file)
		wc_perr(p, n, "%s: client_auth_type %s needs client_ca_file",
			key, web_config_client_auth_name(wc->client_auth));
	else if (*wc->client_ca_file &&
		 !web_config_client_auth_verifies(wc->client_auth))
		wc_perr(p, n, "%s: client_ca_file given but client_auth_type "
			"%s does not check client certificates (use "
			"VerifyClientCertIfGiven or "
			"RequireAndVerifyClientCert)", key,
			web_config_client_auth_name(wc->client_auth));
	else if (wc->min_version && wc->max_version &&
		 wc->min_version > wc->max_version)
		wc_perr(p, n, "%s: min_version is newer than max_version",
			key);
	else if (wc->sans.n && wc->client_auth != WEB_CLIENT_AUTH_REQUIRE_ANY &&
		 wc->client_auth != WEB_CLIENT_AUTH_REQUIRE_VERIFY)
		wc_perr(p, n, "%s: client_allowed_sans needs client_auth_type "
			"RequireAnyClientCert or RequireAndVerifyClientCert "
			"(with the others a client may send no certificate)",
			key);
}

unsigned int web_config_bcrypt_cost(const char *h)
{
	return (unsigned int)(h[4] - '0') * 10 + (unsigned int)(h[5] - '0');
}

int web_config_bcrypt_shape(const char *h)
{
	static const char b64[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned int cost;

	if (strlen(h) != WEB_CONFIG_HASH_LEN || h[0] != '$' || h[1] != '2' ||
	    !strchr("aby", h[2]) || h[3] != '$' || h[6] != '$' ||
	    h[4] < '0' || h[4] > '9' || h[5] < '0' || h[5] > '9')
		return 0;
	cost = (unsigned int)(h[4] - '0') * 10 + (unsigned int)(h[5] - '0');
	if (cost < 4 || cost > 31)
		return 0;
	return strspn(h + 7, b64) == WEB_CONFIG_HASH_LEN - 7;
}

static void wc_section_users(struct wc_parse *p, const yaml_node_t *n,
			     const char *key, void *field)
{
	struct web_config *wc = p->wc;
	const yaml_node_t *kn, *vn;
	yaml_node_pair_t *pr;
	unsigned long dup;
	const char *user, *hash;

	if (n->type != YAML_MAPPING_NODE) {
		wc_perr(p, n, "%s: expected a mapping (USER: BCRYPT-HASH "
			"lines)", key);
		return;
	}
	for (pr = n->data.mapping.pairs.start;
	     pr < n->data.mapping.pairs.top && !p->failed; pr++) {
		user = wc_pair(p, n, pr, "a user name", &kn, &vn, &dup);
		if (!user)
			return;
		if (!*user || strchr(user, ':') ||
		    strlen(user) >= WEB_CONFIG_USER_MAX) {
			wc_perr(p, kn, "%s: user '%s': a user name is 1-%d "
				"bytes without ':'", key, user,
				WEB_CONFIG_USER_MAX - 1);
			return;
		}
		if (dup) {
			wc_perr(p, kn, "%s: user '%s' given twice (line %lu "
				"first)", key, user, dup);
			return;
		}
		hash = wc_string(p, vn, user);
		if (!hash)
			return;
		if (!web_config_bcrypt_shape(hash)) {
			wc_perr(p, vn, "%s: user '%s': not a bcrypt hash "
				"($2a$, $2b$ or $2y$, cost 04-31, 60 "
				"characters; see docs/security.md)", key,
				user);
			return;
		}
		if (web_config_bcrypt_cost(hash) > WEB_CONFIG_BCRYPT_COST_MAX) {
			wc_perr(p, vn, "%s: user '%s': bcrypt cost %u is over "
				"rdmad's ceiling of %d (each new password "
				"would take minutes of CPU to check; make the "
				"hash again with cost 10-12, see "
				"docs/security.md)", key, user,
				web_config_bcrypt_cost(hash),
				WEB_CONFIG_BCRYPT_COST_MAX);
			return;
		}
		if (wc->n_users == WEB_CONFIG_USERS_MAX) {
			wc_perr(p, kn, "%s: more than %d users", key,
				WEB_CONFIG_USERS_MAX);
			return;
		}
		strcpy(wc->users[wc->n_users].name, user);
		strcpy(wc->users[wc->n_users].hash, hash);
		wc->n_users++;
	}
}

int web_config_parse(FILE *f, const char *name, struct web_config *wc,
		     char *err, size_t errlen)
{
	struct wc_parse p = { .name = name, .wc = wc, .err = err,
			      .errlen = errlen };
	const char *slash = strrchr(name, '/');
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;

	memset(wc, 0, sizeof(*wc));
	wc->prefer_server_ciphers = 1;
	wc->http.http2 = 1;
	if (err && errlen)
		*err = '\0';
	p.dirlen = slash ? (size_t)(slash - name) + 1 : 0;
	if (!yaml_parser_initialize(&parser)) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, errlen, "%s:%lu: %s%s%s", name,
			 (unsigned long)parser.problem_mark.line + 1,
			 parser.problem ? parser.problem : "not YAML",
			 parser.context ? " " : "",
			 parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		return -EINVAL;
	}
	p.doc = &doc;
	root = yaml_document_get_root_node(&doc);
	if (root && !wc_null(root))
		wc_mapping(&p, root, "the web config", wc_top_keys);
	yaml_document_delete(&doc);
	/* One document: a second is refused, not ignored. */
	if (!p.failed && root) {
		if (!yaml_parser_load(&parser, &doc)) {
			snprintf(err, errlen, "%s:%lu: %s", name,
				 (unsigned long)parser.problem_mark.line + 1,
				 parser.problem ? parser.problem : "not YAML");
			p.failed = 1;
		} else {
			if (yaml_document_get_root_node(&doc))
				wc_perr(&p, yaml_document_get_root_node(&doc),
					"a second YAML document (only one is "
					"read)");
			yaml_document_delete(&doc);
		}
	}
	yaml_parser_delete(&parser);
	if (p.failed) {
		memset(wc, 0, sizeof(*wc));
		return -EINVAL;
	}
	return 0;
}
