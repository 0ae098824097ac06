/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_opts.c - rdma-probe's command line: getopt_long, value parsing
 * and validation.  No I/O besides the messages; unit-tested.
 */
#include "probe_opts.h"
#include "rdma_client_fsm.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <string.h>

#include "proto.h"
#include "value_parse.h"
#include "version.h"

enum {
	OPT_OP = 0x100,
	OPT_RPING,
	OPT_SEED,
	OPT_DEPTH,
	OPT_ALL_SIZES,
	OPT_NO_VERIFY,
	OPT_BUSY_POLL,
	OPT_JSON,
	OPT_PSK_FILE,
	OPT_TARGETS,
	OPT_ROUNDS,
	OPT_INTERVAL,
	OPT_TOS,
};

static const struct option long_opts[] = {
	{ "port",	required_argument,	NULL, 'p' },
	{ "source",	required_argument,	NULL, 'I' },
	{ "op",		required_argument,	NULL, OPT_OP },
	{ "size",	required_argument,	NULL, 's' },
	{ "iters",	required_argument,	NULL, 'n' },
	{ "timeout",	required_argument,	NULL, 't' },
	{ "duration",	required_argument,	NULL, 'D' },
	{ "parallel",	required_argument,	NULL, 'P' },
	{ "depth",	required_argument,	NULL, OPT_DEPTH },
	{ "all-sizes",	no_argument,		NULL, OPT_ALL_SIZES },
	{ "no-verify",	no_argument,		NULL, OPT_NO_VERIFY },
	{ "busy-poll",	no_argument,		NULL, OPT_BUSY_POLL },
	{ "json",	no_argument,		NULL, OPT_JSON },
	{ "seed",	required_argument,	NULL, OPT_SEED },
	{ "psk-file",	required_argument,	NULL, OPT_PSK_FILE },
	{ "rping",	no_argument,		NULL, OPT_RPING },
	{ "targets",	required_argument,	NULL, OPT_TARGETS },
	{ "rounds",	required_argument,	NULL, OPT_ROUNDS },
	{ "interval",	required_argument,	NULL, OPT_INTERVAL },
	{ "tos",	required_argument,	NULL, OPT_TOS },
	{ "quiet",	no_argument,		NULL, 'q' },
	{ "verbose",	no_argument,		NULL, 'v' },
	{ "help",	no_argument,		NULL, 'h' },
	{ "version",	no_argument,		NULL, 'V' },
	{ NULL,		0,			NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: rdma-probe [OPTION]... HOST\n"
"  or:  rdma-probe [OPTION]... --targets FILE\n"
"Connect to rdmad on HOST over RDMA (rdma_cm), move data with RDMA READ\n"
"and/or WRITE, verify every byte and report how long each step took.\n"
"With --rping, act as rdma-core's `rping -c` against any rping server.\n"
"With --targets, probe every host of FILE at once and print a matrix.\n"
"\n"
"  -p, --port PORT     rdma_cm port (default %u; %u with --rping)\n"
"  -I, --source ADDR   local address to connect from (default: chosen by\n"
"                      the routing table)\n"
"      --op OP         read, write or both (default both: all READs, then\n"
"                      all WRITEs); not with --rping\n"
"  -s, --size SIZE     bytes per operation, suffix k, m or g for KiB, MiB,\n"
"                      GiB (default 64k; %u with --rping; 1 to 1g)\n"
"  -n, --iters N       operations of each kind (default %u, 1 to %u)\n"
"  -D, --duration TIME run each kind for TIME instead of -n operations\n"
"                      (-n is then a cap, default %u); not with --rping\n"
"  -P, --parallel N    N connections at once, one event loop (default 1;\n"
"                      with --targets, N per target)\n"
"      --depth N       RDMA operations in flight per connection (default 1,\n"
"                      the latency setting; raise it for bandwidth)\n"
"      --all-sizes     sweep: sizes 1, 2, 4... up to -s (default 1m)\n"
"      --no-verify     do not check the data (the last WRITE is still\n"
"                      checked by the server)\n"
"      --busy-poll     poll the completion queues instead of sleeping\n"
"      --tos N         IP TOS byte of the connections' packets (DSCP << 2\n"
"                      | ECN), 0 to 255, decimal or 0x hex: 0x68 is DSCP\n"
"                      26 (default: the system's, rdma_cm's default_roce_tos)\n"
"      --json          print one JSON document instead of the report\n"
"  -t, --timeout TIME  deadline of each step: address resolution, route\n"
"                      resolution, connect, descriptor, each operation,\n"
"                      result, disconnect (default %us)\n"
"      --seed N        data pattern seed (default: random)\n"
"      --psk-file FILE pre-shared key for a server that requires one\n"
"                      (the file must not be readable by others)\n"
"      --rping         speak rping's protocol instead of rdmad's\n"
"      --targets FILE  probe the hosts of FILE (- for stdin) at once, -P\n"
"                      connections each, instead of HOST: one a line,\n"
"                      HOST, HOST:PORT or [IPV6]:PORT, '#' comments;\n"
"                      at most %u; not with --all-sizes\n"
"      --rounds N      a mesh session: one connection, N rounds (1 to %u)\n"
"                      of an RDMA WRITE of -s bytes and a READ back, each\n"
"                      verified (--op read: the first round WRITEs, later\n"
"                      ones READ back alone); not with --rping, --targets,\n"
"                      --op write, -n, -D, -P, --depth, --all-sizes,\n"
"                      --no-verify\n"
"      --interval TIME between round starts (default %us, 0 allowed);\n"
"                      needs --rounds\n"
"  -q, --quiet         print errors only\n"
"  -v, --verbose       log state transitions; twice: every operation\n"
"  -h, --help          print this help and exit\n"
"  -V, --version       print the version and exit\n"
"\n"
"TIME is seconds, or a number with unit ms, s, m, h (fractions allowed:\n"
"1.5s, 250ms), at most 1h; SIZE is bytes, or with suffix k, m, g; --tos\n"
"and --seed take decimal or hex after 0x.  As in rdmad.ini(5).\n"
"\n"
"Exit status:\n",
		PROTO_DEFAULT_PORT, PROBE_RPING_DEFAULT_PORT,
		PROBE_RPING_DEFAULT_SIZE, PROBE_DEFAULT_ITERS, PROBE_ITERS_MAX,
		PROBE_DURATION_ITERS, PROBE_DEFAULT_TIMEOUT_MS / 1000,
		PROBE_TARGETS_MAX, PROBE_ROUNDS_MAX,
		PROBE_DEFAULT_INTERVAL_MS / 1000);
#define PROBE_X_HELP(name, code, text) fprintf(f, "  %2d  %s\n", code, text);
	RDMA_CLIENT_FAILS(PROBE_X_HELP)
#undef PROBE_X_HELP
	fprintf(f, "  %2d  usage error\n", PROBE_EXIT_USAGE);
	fprintf(f, "  %d  interrupted by SIGINT (a second one ends the run "
		"at once)\n", PROBE_EXIT_SIGINT);
	fprintf(f, "  %d  terminated by SIGTERM\n", PROBE_EXIT_SIGTERM);
}

/* What each option's value may be (value_parse.h): the words and the
 * reasons are those of rdmad.ini's keys. */
static const struct value_spec probe_port = { VALUE_COUNT, 1, 65535, false };
static const struct value_spec probe_size = {
	VALUE_SIZE, 1, PROBE_SIZE_MAX, false };
static const struct value_spec probe_iters = {
	VALUE_COUNT, 1, PROBE_ITERS_MAX, false };
static const struct value_spec probe_time = {	/* -t, -D */
	VALUE_DURATION, 1, PROBE_TIMEOUT_MAX_MS, false };
static const struct value_spec probe_interval = {
	VALUE_DURATION, 0, PROBE_TIMEOUT_MAX_MS, false };
static const struct value_spec probe_parallel = {
	VALUE_COUNT, 1, PROBE_PARALLEL_MAX, false };
static const struct value_spec probe_depth = {
	VALUE_COUNT, 1, PROBE_DEPTH_MAX, false };
static const struct value_spec probe_rounds = {
	VALUE_COUNT, 1, PROBE_ROUNDS_MAX, false };
static const struct value_spec probe_seed = {
	VALUE_CODE, 0, UINT64_MAX, false };
static const struct value_spec probe_tos = { VALUE_CODE, 0, 255, false };

/* "rdma-probe: OPT: REASON" and the hint; -EINVAL (exit 64). */
static int bad(FILE *err, const char *opt, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(FILE *err, const char *opt, const char *fmt, ...)
{
	va_list ap;

	fprintf(err, "rdma-probe: %s: ", opt);
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fprintf(err, "\nTry 'rdma-probe --help' for more information.\n");
	return -EINVAL;
}

/* OPT's value VAL as SPEC says into *out, or -EINVAL after bad(). */
static int opt_value(FILE *err, const char *opt, const struct value_spec *spec,
		     const char *val, uint64_t *out)
{
	char why[VALUE_WHY_MAX];

	if (value_parse(spec, val, out, why, sizeof(why)))
		return bad(err, opt, "%s", why);
	return 0;
}

static int usage_err(FILE *err, const char *msg, const char *arg)
{
	fprintf(err, "rdma-probe: %s%s%s%s\n", msg, arg ? " '" : "",
		arg ? arg : "", arg ? "'" : "");
	fprintf(err, "Try 'rdma-probe --help' for more information.\n");
	return -EINVAL;
}

int probe_opts_parse(int argc, char **argv, struct probe_opts *o,
		     FILE *out, FILE *err)
{
	bool port_set = false, size_set = false, op_set = false;
	bool quiet = false, iters_set = false, interval_set = false;
	bool parallel_set = false, depth_set = false;
	char range[96];
	uint64_t v;
	int c;

	memset(o, 0, sizeof(*o));
	o->ops = PROTO_OP_READ | PROTO_OP_WRITE;
	o->iters = PROBE_DEFAULT_ITERS;
	o->timeout_ms = PROBE_DEFAULT_TIMEOUT_MS;
	o->parallel = 1;
	o->depth = 1;
	o->verify = true;
	o->interval_ms = PROBE_DEFAULT_INTERVAL_MS;
	o->tos = -1;

	optind = 0;	/* GNU: full re-initialisation, for repeated calls */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:I:s:n:t:D:P:qvhV", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'p':
			if (opt_value(err, "--port", &probe_port, optarg, &v))
				return -EINVAL;
			o->port = (uint16_t)v;
			port_set = true;
			break;
		case 'I':
			if (!*optarg)
				return bad(err, "--source", "'' is not an "
					   "address");
			o->source = optarg;
			break;
		case OPT_OP:
			if (!strcmp(optarg, "read"))
				o->ops = PROTO_OP_READ;
			else if (!strcmp(optarg, "write"))
				o->ops = PROTO_OP_WRITE;
			else if (!strcmp(optarg, "both"))
				o->ops = PROTO_OP_READ | PROTO_OP_WRITE;
			else
				return bad(err, "--op", "'%s' is not read, "
					   "write or both", optarg);
			op_set = true;
			break;
		case 's':
			if (opt_value(err, "--size", &probe_size, optarg, &v))
				return -EINVAL;
			o->size = (uint32_t)v;
			size_set = true;
			break;
		case 'n':
			if (opt_value(err, "--iters", &probe_iters, optarg,
				      &v))
				return -EINVAL;
			o->iters = (uint32_t)v;
			iters_set = true;
			break;
		case 'D':
			if (opt_value(err, "--duration", &probe_time, optarg,
				      &v))
				return -EINVAL;
			o->duration_ms = (uint32_t)v;
			break;
		case 'P':
			if (opt_value(err, "--parallel", &probe_parallel,
				      optarg, &v))
				return -EINVAL;
			o->parallel = (uint32_t)v;
			parallel_set = true;
			break;
		case OPT_DEPTH:
			if (opt_value(err, "--depth", &probe_depth, optarg,
				      &v))
				return -EINVAL;
			o->depth = (uint32_t)v;
			depth_set = true;
			break;
		case OPT_ALL_SIZES:
			o->all_sizes = true;
			break;
		case OPT_NO_VERIFY:
			o->verify = false;
			break;
		case OPT_BUSY_POLL:
			o->busy_poll = true;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case 't':
			if (opt_value(err, "--timeout", &probe_time, optarg,
				      &v))
				return -EINVAL;
			o->timeout_ms = (uint32_t)v;
			break;
		case OPT_SEED:
			if (opt_value(err, "--seed", &probe_seed, optarg, &v))
				return -EINVAL;
			o->seed = v;
			o->seed_set = true;
			break;
		case OPT_PSK_FILE:
			if (!*optarg)
				return bad(err, "--psk-file", "'' is not a "
					   "file name");
			o->psk_file = optarg;
			break;
		case OPT_RPING:
			o->rping = true;
			break;
		case OPT_TARGETS:
			if (!*optarg)
				return bad(err, "--targets", "'' is not a file "
					   "name (- for stdin)");
			o->targets = optarg;
			break;
		case OPT_ROUNDS:
			if (opt_value(err, "--rounds", &probe_rounds, optarg,
				      &v))
				return -EINVAL;
			o->rounds = (uint32_t)v;
			break;
		case OPT_INTERVAL:
			if (opt_value(err, "--interval", &probe_interval,
				      optarg, &v))
				return -EINVAL;
			o->interval_ms = (uint32_t)v;
			interval_set = true;
			break;
		case OPT_TOS:
			if (opt_value(err, "--tos", &probe_tos, optarg, &v))
				return -EINVAL;
			o->tos = (int)v;
			break;
		case 'q':
			quiet = true;
			break;
		case 'v':
			o->verbosity++;
			break;
		case 'h':
			usage(out);
			return PROBE_OPTS_EXIT;
		case 'V':
			fprintf(out, "rdma-probe %s (protocol version %u)\n",
				RDMAD_VERSION, PROTO_VERSION);
			return PROBE_OPTS_EXIT;
		case ':':
			return usage_err(err, "missing value for option",
					 argv[optind - 1]);
		case '?':
		default:
			if (optopt > 0 && optopt < 0x80 && isprint(optopt)) {
				snprintf(range, sizeof(range), "-%c", optopt);
				return usage_err(err, "unknown option", range);
			}
			return usage_err(err, "unknown option or unexpected "
					 "value", argv[optind - 1]);
		}
	}

	if (quiet && o->verbosity)
		return usage_err(err, "--quiet and --verbose exclude each "
				 "other", NULL);
	if (quiet)
		o->verbosity = -1;
	if (o->rping && op_set)
		return usage_err(err, "--op cannot be used with --rping "
				 "(rping always does both)", NULL);
	if (o->rping && o->duration_ms)
		return usage_err(err, "--duration cannot be used with --rping",
				 NULL);
	if (o->rping && o->depth > 1)
		return usage_err(err, "--depth cannot be used with --rping "
				 "(one ping at a time)", NULL);
	if (o->rping && !o->verify)
		return usage_err(err, "--no-verify cannot be used with --rping",
				 NULL);
	if (interval_set && !o->rounds)
		return usage_err(err, "--interval needs --rounds", NULL);
	if (o->rounds) {
		const char *with = o->rping ? "--rping" :
				   o->targets ? "--targets" :
				   o->ops == PROTO_OP_WRITE ? "--op write" :
				   iters_set ? "--iters" :
				   o->duration_ms ? "--duration" :
				   o->all_sizes ? "--all-sizes" :
				   parallel_set ? "--parallel" :
				   depth_set ? "--depth" :
				   !o->verify ? "--no-verify" : NULL;

		if (with) {
			fprintf(err, "rdma-probe: --rounds cannot be used with "
				"%s (a mesh session is one connection, a WRITE "
				"and a READ back per round, each verified; a "
				"WRITE is only verified by reading it back)\n",
				with);
			fprintf(err, "Try 'rdma-probe --help' for more "
				"information.\n");
			return -EINVAL;
		}
		o->iters = 1;
	}
	if (o->duration_ms && !iters_set)
		o->iters = PROBE_DURATION_ITERS;
	if (o->targets && o->all_sizes)
		return usage_err(err, "--all-sizes cannot be used with "
				 "--targets", NULL);
	if (o->targets && optind < argc)
		return usage_err(err, "--targets cannot be used with HOST",
				 argv[optind]);
	if (!o->targets) {
		if (optind >= argc)
			return usage_err(err, "missing HOST (or --targets "
					 "FILE)", NULL);
		if (optind + 1 < argc)
			return usage_err(err, "unexpected argument",
					 argv[optind + 1]);
		o->host = argv[optind];
		if (!*o->host)
			return usage_err(err, "empty HOST", NULL);
	}

	if (!port_set)
		o->port = o->rping ? PROBE_RPING_DEFAULT_PORT :
				     PROTO_DEFAULT_PORT;
	if (!size_set && o->all_sizes)
		o->size = o->rping ? 65535u : PROBE_SWEEP_DEFAULT_MAX;
	else if (!size_set)
		o->size = o->rping ? PROBE_RPING_DEFAULT_SIZE :
				     PROBE_DEFAULT_SIZE;
	return PROBE_OPTS_RUN;
}
