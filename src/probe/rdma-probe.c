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
	struct probe_ctx *ctx = arg;
	unsigned int i;

	ctx->interrupted = true;
	for (i = 0; i < ctx->nconns; i++)
		probe_conn_abort(ctx->conns[i], sig == SIGINT ? "interrupted" :
				 "terminated");
}

/*
 * --busy-poll: spin on every completion queue without going back to the
 * event loop between operations.  The clock is read once per
 * PROBE_SPIN_ROUNDS rounds; once PROBE_SPIN_SLICE_NS has passed, the event
 * loop runs once without blocking, for CM events, step deadlines, -D
 * timers and signals (so they are serviced within about a slice).
 */
#define PROBE_SPIN_ROUNDS	64
#define PROBE_SPIN_SLICE_NS	1000000u	/* 1 ms */

static int busy_loop(struct probe_ctx *ctx)
{
	uint64_t now, next = 0;
	unsigned int i, r;

	while (ctx->active > 0) {
		for (r = 0; r < PROBE_SPIN_ROUNDS && ctx->active > 0; r++)
			for (i = 0; i < ctx->nconns; i++)
				probe_conn_poll(ctx->conns[i]);
		now = probe_now_ns();
		if (now < next)
			continue;
		if (event_base_loop(ctx->base, EVLOOP_NONBLOCK) < 0)
			return -EIO;
		next = now + PROBE_SPIN_SLICE_NS;
	}
	return 0;
}

/*
 * One run: opts->parallel connections at one size, all started at once
 * in the one event loop.  Fills r->outcomes; the connections stay alive
 * (their figures are referenced) until run_free().  0, or -errno when
 * the run could not be set up at all.
 */
static int run_once(struct probe_ctx *ctx, const struct probe_opts *opts,
		    struct probe_run *r)
{
	unsigned int i, n = opts->parallel;
	int ret;

	memset(r, 0, sizeof(*r));
	r->opts = opts;
	ctx->opts = opts;
	ctx->conns = calloc(n, sizeof(*ctx->conns));
	r->outcomes = calloc(n, sizeof(*r->outcomes));
	if (!ctx->conns || !r->outcomes)
		return -ENOMEM;
	ctx->nconns = 0;
	for (i = 0; i < n; i++) {
		ret = probe_conn_new(ctx, i, &ctx->conns[i]);
		if (ret)
			return ret;
		ctx->nconns++;
	}
	probe_dbg(1, "run: %u connection(s), %u bytes", n, opts->size);
	for (i = 0; i < n; i++)
		probe_conn_start(ctx->conns[i]);
	if (opts->busy_poll)
		ret = busy_loop(ctx);
	else
		ret = ctx->active > 0 && event_base_dispatch(ctx->base) < 0 ?
		      -EIO : 0;
	if (ret)
		probe_err("event loop failed");
	for (i = 0; i < n; i++)
		probe_conn_outcome(ctx->conns[i], &r->outcomes[i]);
	r->n = n;
	return 0;
}

/*
 * After a run: release the connections' RDMA resources (fds, MRs, QPs,
 * cm_ids) at once, keep their figures for the report; *kept takes them.
 */
static void run_done(struct probe_ctx *ctx, struct probe_conn ***kept,
		     unsigned int *nkept)
{
	unsigned int i;

	for (i = 0; i < ctx->nconns; i++)
		probe_conn_release(ctx->conns[i]);
	*kept = ctx->conns;
	*nkept = ctx->nconns;
	ctx->conns = NULL;
	ctx->nconns = 0;
}

/* --all-sizes: 1, 2, 4 ... up to max, and max itself if it is not a
 * power of two.  Returns the count written to sizes[]. */
static unsigned int sweep_sizes(uint32_t max, uint32_t *sizes)
{
	unsigned int n = 0;
	uint64_t s;

	for (s = 1; s <= max; s <<= 1)
		sizes[n++] = (uint32_t)s;
	if (sizes[n - 1] != max)
		sizes[n++] = max;
	return n;
}

int main(int argc, char **argv)
{
	struct event *sigint = NULL, *sigterm = NULL;
	struct probe_run runs[34];
	struct probe_conn **kept[34];
	unsigned int nkept[34];
	struct probe_opts opts, run_opts[34];
	uint32_t sizes[34];
	struct event_base *base;
	struct sockaddr_storage dst, src;
	struct probe_ctx ctx;
	char target[2 * INET6_ADDRSTRLEN + 16];
	socklen_t dst_len, src_len = 0;
	unsigned int nsizes = 1, nruns = 0, i, j;
	int ret, code, c;

	ret = probe_opts_parse(argc, argv, &opts, stdout, stderr);
	if (ret < 0)
		return PROBE_EXIT_USAGE;
	if (ret == PROBE_OPTS_EXIT)
		return 0;
	probe_verbosity = opts.verbosity;
	if (opts.psk_file) {
		static struct auth_key psk;
		char why[256];

		if (auth_key_load(&psk, opts.psk_file, why, sizeof(why))) {
			fprintf(stderr, "rdma-probe: --psk-file %s: %s\n",
				opts.psk_file, why);
			return PROBE_EXIT_USAGE;
		}
		opts.psk = &psk;
	}
	if (!opts.seed_set)
		opts.seed = random_seed();
	if (opts.all_sizes)
		nsizes = sweep_sizes(opts.size, sizes);
	else
		sizes[0] = opts.size;
	memset(runs, 0, sizeof(runs));
	memset(kept, 0, sizeof(kept));
	memset(nkept, 0, sizeof(nkept));

	if (resolve("HOST", opts.host, opts.port, AF_UNSPEC, &dst, &dst_len) ||
	    (opts.source && resolve("--source", opts.source, 0,
				    dst.ss_family, &src, &src_len))) {
		code = probe_fail_exit(PROBE_FAIL_ADDR);
		if (opts.json)
			probe_report_json(stdout, &opts, opts.host, NULL, 0,
					  code);
		return code;
	}
	format_target(&dst, dst_len, &src, src_len, opts.port, target,
		      sizeof(target));

	code = probe_fail_exit(PROBE_FAIL_LOCAL);
	base = event_base_new();
	if (!base) {
		probe_err("cannot create the event loop");
		goto out_json;
	}
	if (probe_ctx_init(&ctx, base, &opts, (struct sockaddr *)&dst, dst_len,
			   src_len ? (struct sockaddr *)&src : NULL, src_len))
		goto out_base;

	sigint = evsignal_new(base, SIGINT, signal_cb, &ctx);
	sigterm = evsignal_new(base, SIGTERM, signal_cb, &ctx);
	if (!sigint || !sigterm || evsignal_add(sigint, NULL) ||
	    evsignal_add(sigterm, NULL)) {
		probe_err("cannot watch signals");
		goto out_sig;
	}

	probe_dbg(1, "connecting to %s, %s, seed 0x%016llx", target,
		  opts.rping ? "rping protocol" : "rdmad protocol",
		  (unsigned long long)opts.seed);
	code = 0;
	for (i = 0; i < nsizes; i++) {
		run_opts[i] = opts;
		run_opts[i].size = sizes[i];
		ret = run_once(&ctx, &run_opts[i], &runs[i]);
		run_done(&ctx, &kept[i], &nkept[i]);
		nruns++;
		if (ret) {
			probe_err("cannot set up the connections: %s",
				  strerror(-ret));
			code = probe_fail_exit(PROBE_FAIL_LOCAL);
			break;
		}
		c = probe_run_exit(&runs[i]);
		if (c > code)
			code = c;
		if (!opts.json && opts.verbosity >= 0) {
			probe_report(stdout, target, &runs[i]);
			fflush(stdout);
		}
		for (j = 0; j < runs[i].n; j++)
			if (runs[i].outcomes[j].fail != PROBE_FAIL_NONE)
				probe_err("%s: conn %u: %s", target, j,
					  runs[i].outcomes[j].error);
		/* A sweep stops at the first size that fails. */
		if (c || ctx.interrupted)
			break;
	}
out_sig:
	if (sigint)
		event_free(sigint);
	if (sigterm)
		event_free(sigterm);
	probe_ctx_fini(&ctx);
out_base:
	event_base_free(base);
out_json:
	/* Always one document, even when nothing could run. */
	if (opts.json)
		probe_report_json(stdout, &opts, target, runs, nruns, code);
	fflush(stdout);
	for (i = 0; i < nruns; i++) {
		for (j = 0; j < nkept[i]; j++)
			probe_conn_free(kept[i][j]);
		free(kept[i]);
		free(runs[i].outcomes);
	}
	return code;
}
