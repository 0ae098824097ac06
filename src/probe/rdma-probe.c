/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma-probe.c - main: options, destination, event_base, signals, report
 * and exit status.  See docs/rdma-probe.md.
 */
#include "probe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

static uint64_t random_seed(void)
{
	uint64_t seed;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == sizeof(seed))
		return seed;
	return probe_now_ns() ^ ((uint64_t)getpid() << 32);
}

/* NAME (and PORT) -> *ss; FAMILY AF_UNSPEC or the one to match. */
static int resolve(const char *what, const char *name, uint16_t port,
		   int family, struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo hints, *res;
	char service[8];
	int ret;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(service, sizeof(service), "%u", port);
	ret = getaddrinfo(name, service, &hints, &res);
	if (ret) {
		probe_err("cannot resolve %s '%s'%s: %s", what, name,
			  family == AF_UNSPEC ? "" : " in HOST's address family",
			  gai_strerror(ret));
		return -EHOSTUNREACH;
	}
	if (res->ai_addrlen > sizeof(*ss)) {
		freeaddrinfo(res);
		return -EINVAL;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/* "addr:port" or "[addr]:port", plus " from addr" with -I. */
static void format_target(const struct sockaddr_storage *dst, socklen_t dlen,
			  const struct sockaddr_storage *src, socklen_t slen,
			  uint16_t port, char *buf, size_t len)
{
	char d[INET6_ADDRSTRLEN] = "?", s[INET6_ADDRSTRLEN] = "?";
	int n;

	getnameinfo((const struct sockaddr *)dst, dlen, d, sizeof(d), NULL, 0,
		    NI_NUMERICHOST);
	n = snprintf(buf, len, dst->ss_family == AF_INET6 ? "[%s]:%u" :
		     "%s:%u", d, port);
	if (!slen || n < 0 || (size_t)n >= len)
		return;
	getnameinfo((const struct sockaddr *)src, slen, s, sizeof(s), NULL, 0,
		    NI_NUMERICHOST);
	snprintf(buf + n, len - (size_t)n, " from %s", s);
}

static void signal_cb(evutil_socket_t sig, short what, void *arg)
{
	struct probe_conn *c = arg;

	probe_conn_abort(c, sig == SIGINT ? "interrupted" : "terminated");
}

int main(int argc, char **argv)
{
	struct event *sigint = NULL, *sigterm = NULL;
	struct probe_conn *conn = NULL;
	struct probe_outcome outcome;
	struct event_base *base;
	struct sockaddr_storage dst, src;
	struct probe_opts opts;
	struct probe_ctx ctx;
	char target[2 * INET6_ADDRSTRLEN + 16];
	socklen_t dst_len, src_len = 0;
	int ret, code;

	ret = probe_opts_parse(argc, argv, &opts, stdout, stderr);
	if (ret < 0)
		return PROBE_EXIT_USAGE;
	if (ret == PROBE_OPTS_EXIT)
		return 0;
	probe_verbosity = opts.verbosity;
	if (!opts.seed_set)
		opts.seed = random_seed();

	if (resolve("HOST", opts.host, opts.port, AF_UNSPEC, &dst, &dst_len))
		return probe_fail_exit(PROBE_FAIL_ADDR);
	if (opts.source && resolve("--source", opts.source, 0, dst.ss_family,
				   &src, &src_len))
		return probe_fail_exit(PROBE_FAIL_ADDR);
	format_target(&dst, dst_len, &src, src_len, opts.port, target,
		      sizeof(target));

	base = event_base_new();
	if (!base) {
		probe_err("cannot create the event loop");
		return probe_fail_exit(PROBE_FAIL_LOCAL);
	}
	code = probe_fail_exit(PROBE_FAIL_LOCAL);
	if (probe_ctx_init(&ctx, base, &opts, (struct sockaddr *)&dst, dst_len,
			   src_len ? (struct sockaddr *)&src : NULL, src_len))
		goto out_base;
	if (probe_conn_new(&ctx, 0, &conn))
		goto out_ctx;

	sigint = evsignal_new(base, SIGINT, signal_cb, conn);
	sigterm = evsignal_new(base, SIGTERM, signal_cb, conn);
	if (!sigint || !sigterm || evsignal_add(sigint, NULL) ||
	    evsignal_add(sigterm, NULL)) {
		probe_err("cannot watch signals");
		goto out_conn;
	}

	probe_dbg(1, "connecting to %s, %s, seed 0x%016llx", target,
		  opts.rping ? "rping protocol" : "rdmad protocol",
		  (unsigned long long)opts.seed);
	probe_conn_start(conn);
	if (ctx.active > 0 && event_base_dispatch(base) < 0)
		probe_err("event loop failed");

	probe_conn_outcome(conn, &outcome);
	code = probe_fail_exit(outcome.fail);
	if (opts.verbosity >= 0)
		probe_report(stdout, &opts, target, &outcome);
	fflush(stdout);
	if (outcome.fail != PROBE_FAIL_NONE)
		probe_err("%s: %s", target, outcome.error);

out_conn:
	if (sigint)
		event_free(sigint);
	if (sigterm)
		event_free(sigterm);
	probe_conn_free(conn);
out_ctx:
	probe_ctx_fini(&ctx);
out_base:
	event_base_free(base);
	return code;
}
