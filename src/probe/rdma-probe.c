/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma-probe.c - main: options, destination (or the --targets list),
 * event_base, signals, report and exit status.  See docs/rdma-probe.md.
 */
#include "probe_ctx.h"
#include "probe_dest.h"
#include "probe_exit_rules.h"
#include "probe_log.h"
#include "probe_mesh.h"
#include "probe_opts.h"
#include "probe_report_json.h"
#include "probe_report_matrix.h"
#include "probe_report_text.h"
#include "probe_rounds.h"
#include "probe_run.h"
#include "auth.h"
#include "targets.h"
#include "clock.h"
#include "fdlimit.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
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
	return clock_now_ns() ^ ((uint64_t)getpid() << 32);
}

/*
 * SIGINT or SIGTERM: the first ends every connection the clean way
 * (disconnect, then the report); a second leaves the loop at once, the
 * report says what was done so far.  Either way the exit status is 128 +
 * the signal.
 */
static void signal_cb(evutil_socket_t sig, short what, void *arg)
{
	struct probe_ctx *ctx = arg;

	ctx->signo = (int)sig;
	if (ctx->interrupted++) {
		ctx->stop = true;
		event_base_loopbreak(ctx->base);
		return;
	}
	probe_ctx_abort(ctx, sig == SIGINT ? "interrupted" : "terminated");
}

/*
 * One run: opts->parallel connections to d at one size, all started at
 * once in the one event loop.  Fills r->outcomes; the connections stay
 * alive (their figures are referenced) until freed after the report.
 * 0, or -errno when the run could not be set up at all.
 */
static int run_once(struct probe_ctx *ctx, const struct probe_opts *opts,
		    const struct probe_dest *d, struct probe_run *r)
{
	unsigned int i, n = opts->parallel;
	int ret;

	memset(r, 0, sizeof(*r));
	r->opts = opts;
	r->outcomes = calloc(n, sizeof(*r->outcomes));
	if (!r->outcomes)
		return -ENOMEM;
	ret = probe_ctx_add(ctx, opts, d, NULL, n);
	if (ret)
		return ret;
	probe_dbg(1, "run: %u connection(s), %u bytes", n, opts->size);
	if (probe_ctx_run(ctx))
		probe_err("event loop failed");
	for (i = 0; i < n; i++)
		probe_ctx_outcome(ctx->conns[i], &r->outcomes[i]);
	r->n = n;
	return 0;
}

/* A connection's failure, or its rounds' first mismatch, on stderr. */
static void report_error(const char *target, const struct probe_outcome *o)
{
	const struct probe_rounds *s = o->rounds;

	if (o->fail != RDMA_CLIENT_FAIL_NONE)
		probe_err("%s: conn %u: %s", target, o->idx, o->error);
	else if (s && s->mismatch)
		probe_err("%s: conn %u: %u of %u rounds read back other data; "
			  "the first, round %u, at offset %u", target, o->idx,
			  s->mismatch, s->done, s->first_bad,
			  s->first_bad_offset);
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

/* A repeated target: dropped, said on stderr. */
static void targets_warn(void *arg, const char *msg)
{
	fprintf(arg, "rdma-probe: %s\n", msg);
}

/*
 * --targets FILE: read the list; "-" is stdin.  0, or -EINVAL after the
 * message (exit 64).
 */
static int load_targets(const struct probe_opts *o, struct target_list *tl)
{
	bool std = !strcmp(o->targets, "-");
	const char *name = std ? "<stdin>" : o->targets;
	FILE *f = std ? stdin : fopen(o->targets, "re");
	unsigned long conns;
	char err[TARGET_HOST_MAX + 128];
	int ret;

	if (!f) {
		fprintf(stderr, "rdma-probe: --targets %s: %s\n", o->targets,
			strerror(errno));
		return -EINVAL;
	}
	ret = targets_read(f, name, o->port, PROBE_TARGETS_MAX, tl,
			   targets_warn, stderr, err, sizeof(err));
	if (!std)
		fclose(f);
	if (ret) {
		fprintf(stderr, "rdma-probe: %s\n", err);
		return -EINVAL;
	}
	if (!tl->n) {
		fprintf(stderr, "rdma-probe: %s: no targets\n", name);
		return -EINVAL;
	}
	conns = (unsigned long)tl->n * o->parallel;
	if (conns > PROBE_MESH_CONNS_MAX) {
		fprintf(stderr, "rdma-probe: --targets %s: %u targets x -P %u "
			"= %lu connections, at most %u\n", name, tl->n,
			o->parallel, conns, PROBE_MESH_CONNS_MAX);
		targets_free(tl);
		return -EINVAL;
	}
	return 0;
}

/* Every connection holds a completion channel fd: allow enough. */
static void raise_nofile(unsigned long conns)
{
	int ret = fdlimit_raise((rlim_t)conns * 2 + 64);

	if (ret)
		probe_dbg(1, "cannot raise the open files limit: %s",
			  strerror(-ret));
}

/* --targets: one run over every target at once, the matrix. */
static int mesh_main(struct probe_ctx *ctx, const struct probe_opts *opts,
		     const struct target_list *tl, struct probe_mesh *m)
{
	int ret, code;

	probe_dbg(1, "probing %u targets, %s, seed 0x%016llx", tl->n,
		  opts->rping ? "rping protocol" : "rdmad protocol",
		  (unsigned long long)opts->seed);
	ret = probe_mesh_run(m, ctx, opts, tl);
	if (ret) {
		probe_err("cannot set up the connections: %s", strerror(-ret));
		return rdma_client_fsm_fail_code(RDMA_CLIENT_FAIL_LOCAL);
	}
	code = probe_exit_rules_mesh(m);
	if (!opts->json) {
		probe_report_matrix(stdout, m);
		fflush(stdout);
	}
	probe_mesh_log_errors(m);
	return code;
}

int main(int argc, char **argv)
{
	struct event *sigint = NULL, *sigterm = NULL;
	struct probe_run runs[34];
	struct probe_conn **kept[34];
	unsigned int nkept[34];
	struct probe_opts opts, run_opts[34];
	struct target_list tl = { 0 };
	struct probe_mesh mesh = { 0 };
	uint32_t sizes[34];
	struct event_base *base;
	struct probe_dest dest;
	struct probe_ctx ctx;
	char target[2 * PROBE_ADDR_LEN + 8], why[400];
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
	memset(&ctx, 0, sizeof(ctx));
	target[0] = '\0';

	if (opts.targets) {
		if (load_targets(&opts, &tl))
			return PROBE_EXIT_USAGE;
		raise_nofile((unsigned long)tl.n * opts.parallel);
		mesh.opts = &opts;	/* for a JSON document if the set-up fails */
	} else if (probe_dest_resolve(&dest, "HOST", opts.host, opts.port,
				      opts.source, why, sizeof(why))) {
		probe_err("%s", why);
		code = rdma_client_fsm_fail_code(RDMA_CLIENT_FAIL_ADDR);
		if (opts.json)
			probe_report_json(stdout, &opts, opts.host, NULL, 0,
					  code);
		return code;
	} else {
		probe_dest_format(&dest, target, sizeof(target));
	}

	code = rdma_client_fsm_fail_code(RDMA_CLIENT_FAIL_LOCAL);
	base = event_base_new();
	if (!base) {
		probe_err("cannot create the event loop");
		goto out_json;
	}
	if (probe_ctx_init(&ctx, base, opts.busy_poll))
		goto out_base;

	sigint = evsignal_new(base, SIGINT, signal_cb, &ctx);
	sigterm = evsignal_new(base, SIGTERM, signal_cb, &ctx);
	if (!sigint || !sigterm || evsignal_add(sigint, NULL) ||
	    evsignal_add(sigterm, NULL)) {
		probe_err("cannot watch signals");
		goto out_sig;
	}

	if (opts.targets) {
		code = mesh_main(&ctx, &opts, &tl, &mesh);
		goto out_sig;
	}
	probe_dbg(1, "connecting to %s, %s, seed 0x%016llx", target,
		  opts.rping ? "rping protocol" : "rdmad protocol",
		  (unsigned long long)opts.seed);
	code = 0;
	for (i = 0; i < nsizes; i++) {
		run_opts[i] = opts;
		run_opts[i].size = sizes[i];
		ret = run_once(&ctx, &run_opts[i], &dest, &runs[i]);
		probe_ctx_release(&ctx, &kept[i], &nkept[i]);
		nruns++;
		if (ret) {
			probe_err("cannot set up the connections: %s",
				  strerror(-ret));
			code = rdma_client_fsm_fail_code(
				RDMA_CLIENT_FAIL_LOCAL);
			break;
		}
		c = probe_exit_rules_run(&runs[i]);
		if (c > code)
			code = c;
		if (!opts.json && opts.verbosity >= 0) {
			probe_report_text(stdout, target, &runs[i]);
			fflush(stdout);
		}
		for (j = 0; j < runs[i].n; j++)
			report_error(target, &runs[i].outcomes[j]);
		/* A sweep stops at the first size that fails. */
		if (c || ctx.interrupted)
			break;
	}
out_sig:
	if (ctx.interrupted)
		code = ctx.signo == SIGTERM ? PROBE_EXIT_SIGTERM :
					      PROBE_EXIT_SIGINT;
	if (sigint)
		event_free(sigint);
	if (sigterm)
		event_free(sigterm);
	probe_ctx_fini(&ctx);
out_base:
	event_base_free(base);
out_json:
	/* Always one document, even when nothing could run. */
	if (opts.json && opts.targets)
		probe_report_json_mesh(stdout, &mesh, code);
	else if (opts.json)
		probe_report_json(stdout, &opts, target, runs, nruns, code);
	fflush(stdout);
	probe_mesh_free(&mesh);
	targets_free(&tl);
	for (i = 0; i < nruns; i++) {
		probe_ctx_free_conns(kept[i], nkept[i]);
		free(runs[i].outcomes);
	}
	return code;
}
