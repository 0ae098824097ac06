/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmadctl.c - query a running rdmad over its status and metrics
 * endpoint ([http] listen of its configuration file):
 *
 *   rdmadctl [-c FILE] [-a ADDRESS:PORT] [-t SECONDS] [--json] status
 *   rdmadctl [-c FILE] [-a ADDRESS:PORT] [-t SECONDS] [--openmetrics] metrics
 *   rdmadctl [-c FILE] [-a ADDRESS:PORT] [-t SECONDS] [--json|--matrix] mesh
 *
 * With TLS (--tls, --cacert, --cert/--key) and basic auth (--user, the
 * password from --password-file or RDMADCTL_PASSWORD, never argv) for
 * an endpoint with [http] web_config.
 *
 * Exit status: 0 ok, 64 usage, 69 rdmad unreachable or an HTTP error,
 * 78 configuration error (or the endpoint is off).  See rdmadctl(8).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <sodium.h>

#include "addr.h"
#include "ctl_config.h"
#include "ctl_tls.h"
#include "defaults.h"
#include "units.h"
#include "value_parse.h"
#include "version.h"

#define CTL_DEFAULT_TIMEOUT_MS	5000u
#define CTL_MIN_TIMEOUT_MS	100u
#define CTL_MAX_TIMEOUT_MS	3600000u

struct ctl {
	const char *what;		/* "ADDRESS:PORT" for messages */
	int code;			/* HTTP status, 0: no answer */
	const char *error;		/* why there was no answer */
	struct evbuffer *body;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: rdmadctl [OPTIONS] status|metrics|mesh\n"
		"Query a running rdmad over its status and metrics endpoint.\n"
		"\n"
		"Commands:\n"
		"  status             connections, counters and uptime\n"
		"  metrics            the Prometheus metrics rdmad exports\n"
		"  mesh               the peers rdmad probes ([mesh]): state, "
		"last result,\n"
		"                     p50/p99 and loss of the last 128 rounds, "
		"bandwidth,\n"
		"                     a row per path\n"
		"\n"
		"Options:\n"
		"  -c, --config FILE  rdmad's configuration, for [http] listen "
		"(default %s)\n"
		"  -a, --address ADDRESS:PORT\n"
		"                     the endpoint, instead of the "
		"configuration's\n"
		"  -t, --timeout DURATION  give up after this long (default 5s;\n"
		"                     100ms..1h, as in rdmad.ini: 2s, 500ms)\n"
		"      --json         status, mesh: the JSON document\n"
		"      --matrix       mesh: peers by sizes, the p99 of each "
		"(the heatmap's\n"
		"                     matrix as text)\n"
		"      --openmetrics  metrics: OpenMetrics text instead of "
		"Prometheus text\n"
		"      --tls          speak TLS (https) to the endpoint\n"
		"      --cacert FILE  the CA that signed rdmad's certificate "
		"(implies --tls;\n"
		"                     default: the system's CAs)\n"
		"      --cert FILE    client certificate (implies --tls), with "
		"--key FILE\n"
		"      --key FILE     its private key\n"
		"      --user NAME    basic auth user; the password from "
		"--password-file\n"
		"                     or the environment's RDMADCTL_PASSWORD\n"
		"      --password-file FILE  the password: the file's first "
		"line\n"
		"  -h, --help         this text\n"
		"  -V, --version      print the version\n"
		"\n"
		"Exit status: 0 ok, 64 usage, 69 rdmad unreachable or HTTP "
		"error, 78 configuration error.\n",
		RDMAD_CONFIG_PATH);
}

static void error_cb(enum evhttp_request_error err, void *arg)
{
	struct ctl *c = arg;

	switch (err) {
	case EVREQ_HTTP_TIMEOUT:
		c->error = "timed out";
		break;
	case EVREQ_HTTP_EOF:
		c->error = "connection closed or refused";
		break;
	case EVREQ_HTTP_INVALID_HEADER:
		c->error = "invalid HTTP answer";
		break;
	case EVREQ_HTTP_DATA_TOO_LONG:
		c->error = "answer too long";
		break;
	default:
		c->error = "request failed";
		break;
	}
}

static void done_cb(struct evhttp_request *req, void *arg)
{
	struct ctl *c = arg;

	if (!req || !evhttp_request_get_response_code(req)) {
		if (!c->error)
			c->error = "connection refused";
		return;
	}
	c->code = evhttp_request_get_response_code(req);
	evbuffer_add_buffer(c->body, evhttp_request_get_input_buffer(req));
}

/* How to reach the endpoint beyond its address. */
struct ctl_conn {
	struct ctl_tls *tls;		/* NULL: plain HTTP */
	const char *auth;		/* "Basic ...", NULL: none */
};

/* GET URI from A; prints the body.  Exit status. */
static int fetch(const struct addr_endpoint *a, const struct ctl_conn *cc,
		 const char *uri, const char *accept, uint64_t timeout_ms)
{
	struct event_base *base = event_base_new();
	struct evhttp_connection *conn = NULL;
	struct bufferevent *bev = NULL;
	struct evhttp_request *req;
	struct ctl c = { .what = a->text };
	const char *scheme = cc->tls ? "https" : "http";
	struct timeval tv;
	char host[INET6_ADDRSTRLEN] = "", why[512];
	uint16_t port;
	size_t len;
	int ret = EX_UNAVAILABLE;

	addr_split((const struct sockaddr *)&a->addr, host, sizeof(host),
		   &port);
	c.body = evbuffer_new();
	if (base && cc->tls)
		bev = ctl_tls_bev(cc->tls, base, host);
	if (base && (!cc->tls || bev))
		conn = evhttp_connection_base_bufferevent_new(base, NULL, bev,
							      host, port);
	if (!base || !c.body || !conn) {
		fprintf(stderr, "rdmadctl: out of memory\n");
		ret = EX_OSERR;
		goto out;
	}
	tv.tv_sec = (time_t)(timeout_ms / 1000);
	tv.tv_usec = (suseconds_t)(timeout_ms % 1000 * 1000);
	evhttp_connection_set_timeout_tv(conn, &tv);
	evhttp_connection_set_retries(conn, 0);
	req = evhttp_request_new(done_cb, &c);
	if (!req) {
		fprintf(stderr, "rdmadctl: out of memory\n");
		ret = EX_OSERR;
		goto out;
	}
	evhttp_request_set_error_cb(req, error_cb);
	evhttp_add_header(evhttp_request_get_output_headers(req), "Host",
			  a->text);
	evhttp_add_header(evhttp_request_get_output_headers(req), "Accept",
			  accept);
	evhttp_add_header(evhttp_request_get_output_headers(req),
			  "Connection", "close");
	if (cc->auth)
		evhttp_add_header(evhttp_request_get_output_headers(req),
				  "Authorization", cc->auth);
	if (evhttp_make_request(conn, req, EVHTTP_REQ_GET, uri)) {
		fprintf(stderr, "rdmadctl: cannot send the request to %s\n",
			a->text);
		goto out;
	}
	event_base_dispatch(base);

	len = evbuffer_get_length(c.body);
	if (!c.code) {
		if (cc->tls && ctl_tls_why(cc->tls, why, sizeof(why)))
			fprintf(stderr, "rdmadctl: cannot reach rdmad at "
				"https://%s/: %s\n", a->text, why);
		else
			fprintf(stderr, "rdmadctl: cannot reach rdmad at "
				"%s://%s/: %s (is rdmad running, with [http] "
				"listen = %s%s?)\n", scheme, a->text,
				c.error ? c.error : "no answer", a->text,
				cc->tls ? " and TLS" : "");
		goto out;
	}
	if (c.code != 200) {
		fprintf(stderr, "rdmadctl: rdmad at %s://%s%s answered "
			"%d: %.*s%s", scheme, a->text, uri, c.code, (int)len,
			(const char *)evbuffer_pullup(c.body, -1),
			c.code == 401 ? (cc->auth ? "(wrong --user or "
				"password)\n" : "(give --user and "
				"--password-file or RDMADCTL_PASSWORD)\n") :
			c.code == 400 && !cc->tls ? "(try --tls)\n" : "");
		goto out;
	}
	if (fwrite(evbuffer_pullup(c.body, -1), 1, len, stdout) != len ||
	    fflush(stdout)) {
		fprintf(stderr, "rdmadctl: cannot write the answer: %s\n",
			strerror(errno));
		ret = EX_IOERR;
		goto out;
	}
	ret = EX_OK;
out:
	if (conn)
		evhttp_connection_free(conn);
	if (c.body)
		evbuffer_free(c.body);
	if (base)
		event_base_free(base);
	return ret;
}

/* "Basic base64(USER:PASSWORD)" into OUT, the password from PWFILE's
 * first line or RDMADCTL_PASSWORD.  Exit status. */
static int basic_auth(const char *user, const char *pwfile, char *out,
		      size_t outlen)
{
	char pw[256] = "", raw[512];
	const char *env = getenv("RDMADCTL_PASSWORD");
	FILE *f;
	int n;

	if (pwfile) {
		f = fopen(pwfile, "re");
		if (!f) {
			fprintf(stderr, "rdmadctl: --password-file %s: %s\n",
				pwfile, strerror(errno));
			return EX_CONFIG;
		}
		if (!fgets(pw, sizeof(pw), f))
			pw[0] = '\0';
		fclose(f);
		pw[strcspn(pw, "\r\n")] = '\0';
	} else {
		snprintf(pw, sizeof(pw), "%s", env);
	}
	if (strchr(user, ':')) {
		fprintf(stderr, "rdmadctl: --user: a user name has no ':'\n");
		return EX_USAGE;
	}
	n = snprintf(raw, sizeof(raw), "%s:%s", user, pw);
	sodium_memzero(pw, sizeof(pw));
	if (n < 0 || (size_t)n >= sizeof(raw) ||
	    sodium_base64_ENCODED_LEN((size_t)n,
				      sodium_base64_VARIANT_ORIGINAL) + 6 >
	    outlen) {
		fprintf(stderr, "rdmadctl: --user and password too long\n");
		return EX_USAGE;
	}
	memcpy(out, "Basic ", 6);
	sodium_bin2base64(out + 6, outlen - 6, (unsigned char *)raw,
			  (size_t)n, sodium_base64_VARIANT_ORIGINAL);
	sodium_memzero(raw, sizeof(raw));
	return 0;
}

/* The endpoint of the configuration at PATH (EXPLICIT: -c given). */
static int endpoint_from_config(const char *path, int explicit,
				struct addr_endpoint *a)
{
	char err[512];
	int ret;

	ret = ctl_config_http_file(path, a, err, sizeof(err));
	if (ret == -ENOENT && !explicit)
		return 0;	/* no file: rdmad runs on its defaults too */
	if (ret) {
		fprintf(stderr, "rdmadctl: %s\n", err);
		return EX_CONFIG;
	}
	return 0;
}

int main(int argc, char **argv)
{
	enum { OPT_JSON = 256, OPT_OPENMETRICS, OPT_MATRIX, OPT_TLS,
	       OPT_CACERT, OPT_CERT, OPT_KEY, OPT_USER, OPT_PWFILE };
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "address", required_argument, NULL, 'a' },
		{ "timeout", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "openmetrics", no_argument, NULL, OPT_OPENMETRICS },
		{ "matrix", no_argument, NULL, OPT_MATRIX },
		{ "tls", no_argument, NULL, OPT_TLS },
		{ "cacert", required_argument, NULL, OPT_CACERT },
		{ "cert", required_argument, NULL, OPT_CERT },
		{ "key", required_argument, NULL, OPT_KEY },
		{ "user", required_argument, NULL, OPT_USER },
		{ "password-file", required_argument, NULL, OPT_PWFILE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = RDMAD_CONFIG_PATH, *address = NULL, *cmd;
	static const struct value_spec timeout_spec = {
		VALUE_DURATION, CTL_MIN_TIMEOUT_MS, CTL_MAX_TIMEOUT_MS, false
	};
	uint64_t timeout_ms = CTL_DEFAULT_TIMEOUT_MS;
	char why[VALUE_WHY_MAX];
	int json = 0, om = 0, matrix = 0, explicit = 0, tls = 0, opt, ret;
	struct ctl_tls_opts to = { NULL, NULL, NULL };
	const char *user = NULL, *pwfile = NULL;
	struct ctl_conn cc = { NULL, NULL };
	char auth[700], terr[700];
	struct addr_endpoint a;

	while ((opt = getopt_long(argc, argv, "c:a:t:hV", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			path = optarg;
			explicit = 1;
			break;
		case 'a':
			address = optarg;
			break;
		case 't':
			if (value_parse(&timeout_spec, optarg, &timeout_ms,
					why, sizeof(why))) {
				fprintf(stderr, "rdmadctl: --timeout: %s\n", why);
				return EX_USAGE;
			}
			break;
		case OPT_JSON:
			json = 1;
			break;
		case OPT_OPENMETRICS:
			om = 1;
			break;
		case OPT_MATRIX:
			matrix = 1;
			break;
		case OPT_TLS:
			tls = 1;
			break;
		case OPT_CACERT:
			to.cacert = optarg;
			tls = 1;
			break;
		case OPT_CERT:
			to.cert = optarg;
			tls = 1;
			break;
		case OPT_KEY:
			to.key = optarg;
			break;
		case OPT_USER:
			user = optarg;
			break;
		case OPT_PWFILE:
			pwfile = optarg;
			break;
		case 'h':
			usage(stdout);
			return EX_OK;
		case 'V':
			printf("rdmadctl %s\n", RDMAD_VERSION);
			return EX_OK;
		default:
			usage(stderr);
			return EX_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "rdmadctl: %s\n", optind == argc ?
			"missing command: status, metrics or mesh" :
			"one command only: status, metrics or mesh");
		usage(stderr);
		return EX_USAGE;
	}
	cmd = argv[optind];
	if (strcmp(cmd, "status") && strcmp(cmd, "metrics") &&
	    strcmp(cmd, "mesh")) {
		fprintf(stderr, "rdmadctl: unknown command '%s': want status, "
			"metrics or mesh\n", cmd);
		return EX_USAGE;
	}
	if ((json && !strcmp(cmd, "metrics")) ||
	    (om && strcmp(cmd, "metrics"))) {
		fprintf(stderr, "rdmadctl: %s goes with the %s command%s\n",
			json ? "--json" : "--openmetrics",
			json ? "status or mesh" : "metrics", json ? "s" : "");
		return EX_USAGE;
	}
	if (matrix && (json || strcmp(cmd, "mesh"))) {
		fprintf(stderr, "rdmadctl: --matrix goes with the mesh command, "
			"without --json\n");
		return EX_USAGE;
	}
	if (!to.cert != !to.key) {
		fprintf(stderr, "rdmadctl: --cert and --key go together\n");
		return EX_USAGE;
	}
	if (!user != !pwfile && !(user && getenv("RDMADCTL_PASSWORD"))) {
		fprintf(stderr, "rdmadctl: %s\n", user ? "--user needs "
			"--password-file FILE or RDMADCTL_PASSWORD" :
			"--password-file needs --user");
		return EX_USAGE;
	}
	if (user) {
		ret = basic_auth(user, pwfile, auth, sizeof(auth));
		if (ret)
			return ret;
		cc.auth = auth;
	}
	if (tls && ctl_tls_new(&cc.tls, &to, terr, sizeof(terr))) {
		fprintf(stderr, "rdmadctl: TLS: %s\n", terr);
		return EX_CONFIG;
	}
	if (address) {
		if (addr_parse(address, RDMAD_HTTP_PORT, &a)) {
			fprintf(stderr, "rdmadctl: -a '%s' is not "
				"ADDRESS[:PORT] (IPv4, or IPv6 in brackets)\n",
				address);
			return EX_USAGE;
		}
	} else {
		ret = endpoint_from_config(path, explicit, &a);
		if (ret)
			return ret;
	}
	if (!strcmp(cmd, "metrics"))
		ret = fetch(&a, &cc, "/metrics", om ? RDMAD_CTYPE_OPENMETRICS :
			    RDMAD_CTYPE_PROMETHEUS, timeout_ms);
	else if (!strcmp(cmd, "mesh") && matrix)
		ret = fetch(&a, &cc, "/peers?format=matrix", "text/plain",
			    timeout_ms);
	else if (!strcmp(cmd, "mesh"))
		ret = fetch(&a, &cc, json ? "/peers" : "/peers?format=text",
			    json ? "application/json" : "text/plain",
			    timeout_ms);
	else
		ret = fetch(&a, &cc, json ? "/status" : "/status?format=text",
			    json ? "application/json" : "text/plain",
			    timeout_ms);
	ctl_tls_free(cc.tls);
	sodium_memzero(auth, sizeof(auth));
	return ret;
}
