/* SPDX-License-Identifier: BSD-2-Clause */
/* test-probe-opts.c - rdma-probe's command line parsing and validation. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_opts.h"
#include "units.h"
#include "proto.h"
#include "tap.h"

static char errbuf[4096];

/* Parse a NULL-terminated argument list; stderr text lands in errbuf. */
static int parse(struct probe_opts *o, const char *const *args)
{
	char *argv[32];
	FILE *out, *err;
	int argc = 0, ret;

	argv[argc++] = (char *)"rdma-probe";
	while (*args && argc < 31)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	out = fopen("/dev/null", "w");
	err = fmemopen(errbuf, sizeof(errbuf), "w");
	if (!out || !err)
		exit(99);
	memset(errbuf, 0, sizeof(errbuf));
	ret = probe_opts_parse(argc, argv, o, out, err);
	fclose(out);
	fclose(err);
	return ret;
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_defaults(void)
{
	struct probe_opts o;
	int ret;

	ret = parse(&o, ARGS("10.0.0.1"));
	tap_ok(ret == PROBE_OPTS_RUN && !strcmp(o.host, "10.0.0.1") &&
	       o.port == PROTO_DEFAULT_PORT && o.size == 65536 &&
	       o.iters == PROBE_DEFAULT_ITERS &&
	       o.ops == (PROTO_OP_READ | PROTO_OP_WRITE) &&
	       o.timeout_ms == PROBE_DEFAULT_TIMEOUT_MS && !o.rping &&
	       o.verbosity == 0 && !o.seed_set,
	       "defaults: port 7471, 64k, both, 10 iterations, 10 s");

	ret = parse(&o, ARGS("--rping", "host"));
	tap_ok(ret == 0 && o.rping && o.port == PROBE_RPING_DEFAULT_PORT &&
	       o.size == PROBE_RPING_DEFAULT_SIZE,
	       "--rping: port 7174 and 64 bytes by default");
}

static void test_values(void)
{
	struct probe_opts o;
	int ret;

	ret = parse(&o, ARGS("-p", "9999", "--op", "read", "-s", "1m", "-n",
			     "7", "-t", "0.25", "--seed", "0x10", "-vv", "h"));
	tap_ok(ret == 0 && o.port == 9999 && o.ops == PROTO_OP_READ &&
	       o.size == 1048576 && o.iters == 7 && o.timeout_ms == 250 &&
	       o.seed == 16 && o.seed_set && o.verbosity == 2,
	       "short options and values");

	ret = parse(&o, ARGS("--port=1", "--op=write", "--size=4K",
			     "--iters=1", "--timeout=3600", "--quiet", "h"));
	tap_ok(ret == 0 && o.port == 1 && o.ops == PROTO_OP_WRITE &&
	       o.size == 4096 && o.iters == 1 && o.timeout_ms == 3600000 &&
	       o.verbosity == -1, "long options with '='");

	ret = parse(&o, ARGS("-s", "1", "--rping", "-p", "7174", "h"));
	tap_ok(ret == 0 && o.size == 1 && o.rping && !o.source,
	       "1 byte, rping, port; no source by default");

	ret = parse(&o, ARGS("h"));
	tap_ok(ret == 0 && o.parallel == 1 && o.depth == 1 && o.verify &&
	       !o.busy_poll && !o.json && !o.all_sizes && !o.duration_ms,
	       "defaults: one connection, depth 1, verified, event-driven");

	ret = parse(&o, ARGS("-D", "2.5", "-P", "8", "--depth", "16",
			     "--no-verify", "--busy-poll", "--json", "h"));
	tap_ok(ret == 0 && o.duration_ms == 2500 && o.parallel == 8 &&
	       o.depth == 16 && !o.verify && o.busy_poll && o.json &&
	       o.iters == PROBE_DURATION_ITERS,
	       "-D, -P, --depth, --no-verify, --busy-poll, --json");

	ret = parse(&o, ARGS("-D", "1", "-n", "50", "h"));
	tap_ok(ret == 0 && o.duration_ms == 1000 && o.iters == 50,
	       "-D with -n: -n is the cap");

	ret = parse(&o, ARGS("--all-sizes", "h"));
	tap_ok(ret == 0 && o.all_sizes && o.size == PROBE_SWEEP_DEFAULT_MAX,
	       "--all-sizes sweeps up to 1m by default");
	ret = parse(&o, ARGS("--all-sizes", "-s", "4k", "h"));
	tap_ok(ret == 0 && o.all_sizes && o.size == 4096,
	       "--all-sizes -s 4k sweeps up to 4k");

	ret = parse(&o, ARGS("-I", "10.0.0.2", "h"));
	tap_ok(ret == 0 && o.source && !strcmp(o.source, "10.0.0.2"),
	       "-I sets the source address");

	ret = parse(&o, ARGS("--targets", "mesh.txt", "-P", "2", "-p", "7490"));
	tap_ok(ret == 0 && !o.host && o.targets &&
	       !strcmp(o.targets, "mesh.txt") && o.parallel == 2 &&
	       o.port == 7490, "--targets FILE instead of HOST");
	ret = parse(&o, ARGS("--rping", "--targets=-"));
	tap_ok(ret == 0 && !strcmp(o.targets, "-") &&
	       o.port == PROBE_RPING_DEFAULT_PORT,
	       "--targets - (stdin), rping's default port");
}

struct bad_case {
	const char *const *args;
	const char *needle;	/* must appear in the message */
};

static void test_bad(void)
{
	const struct bad_case cases[] = {
		{ ARGS("-s", "0", "h"), "--size: 0 is out of range 1..1g" },
		{ ARGS("-s", "2g", "h"), "--size: 2g is out of range" },
		{ ARGS("-s", "12q", "h"), "--size: '12q' is not a size" },
		{ ARGS("-s", "-5", "h"), "--size: '-5' is not a size" },
		{ ARGS("-s", "99999999999999999999999", "h"), "--size" },
		{ ARGS("-s", "18014398509481984k", "h"), "--size" },
		{ ARGS("-p", "0", "h"), "--port: 0 is out of range 1..65535" },
		{ ARGS("-p", "65536", "h"), "--port: 65536 is out" },
		{ ARGS("-p", "80x", "h"), "--port: '80x' is not a number" },
		{ ARGS("--op", "readwrite", "h"), "--op: 'readwrite' is not read, write or both" },
		{ ARGS("-n", "0", "h"), "--iters: 0 is out of range 1..1000000" },
		{ ARGS("-n", "1000001", "h"), "--iters: 1000001 is out" },
		{ ARGS("-n", " 5", "h"), "--iters: ' 5' is not a number" },
		{ ARGS("-t", "0", "h"), "--timeout: 0 is out of range 1ms..1h" },
		{ ARGS("-t", "nan", "h"), "--timeout: 'nan' is not a duration" },
		{ ARGS("-t", "inf", "h"), "--timeout: 'inf' is not a duration" },
		{ ARGS("-t", "-1", "h"), "--timeout: '-1' is not a duration" },
		{ ARGS("-t", "3601", "h"), "--timeout: 3601 is out" },
		{ ARGS("--seed", "x", "h"), "--seed: 'x' is not a number" },
		{ ARGS("-x", "h"), "unknown option '-x'" },
		{ ARGS("--source=", "h"), "--source: '' is not an address" },
		{ ARGS("--bogus", "h"), "--bogus" },
		{ ARGS("--rping=1", "h"), "--rping=1" },
		{ ARGS("h", "-s"), "missing value" },
		{ ARGS("-q", "-v", "h"), "--quiet and --verbose" },
		{ ARGS("--rping", "--op", "read", "h"), "--op cannot" },
		{ ARGS("-s", "4k"), "missing HOST" },
		{ ARGS("h1", "h2"), "unexpected argument 'h2'" },
		{ ARGS(""), "empty HOST" },
		{ ARGS("-D", "0", "h"), "--duration: 0 is out of range 1ms..1h" },
		{ ARGS("-D", "x", "h"), "--duration: 'x' is not a duration" },
		{ ARGS("-P", "0", "h"), "--parallel: 0 is out of range 1..1024" },
		{ ARGS("-P", "1025", "h"), "--parallel: 1025 is out" },
		{ ARGS("--depth", "0", "h"), "--depth: 0 is out of range 1..512" },
		{ ARGS("--depth", "513", "h"), "--depth: 513 is out" },
		{ ARGS("--rping", "-D", "1", "h"), "--duration cannot" },
		{ ARGS("--rping", "--depth", "2", "h"), "--depth cannot" },
		{ ARGS("--rping", "--no-verify", "h"), "--no-verify cannot" },
		{ ARGS("--targets", "f", "h"), "--targets cannot be used "
		  "with HOST 'h'" },
		{ ARGS("--targets", "f", "--all-sizes"), "--all-sizes cannot "
		  "be used with --targets" },
		{ ARGS("--targets", ""), "--targets: '' is not a file name" },
		{ ARGS("-P", "2"), "missing HOST (or --targets FILE)" },
		{ ARGS("--rounds", "0", "h"), "--rounds: 0 is out of range 1..1000000" },
		{ ARGS("--rounds", "1000001", "h"), "--rounds: 1000001 is out" },
		{ ARGS("--rounds", "x", "h"), "--rounds: 'x' is not a number" },
		{ ARGS("--rounds", "2", "--interval", "-1", "h"),
		  "--interval: '-1' is not a duration" },
		{ ARGS("--rounds", "2", "--interval", "3601", "h"),
		  "--interval: 3601 is out of range 0..1h" },
		{ ARGS("--rounds", "2", "--interval", "nan", "h"),
		  "--interval: 'nan' is not a duration" },
		{ ARGS("--interval", "1", "h"), "--interval needs --rounds" },
		{ ARGS("--rounds", "2", "--rping", "h"),
		  "--rounds cannot be used with --rping" },
		{ ARGS("--rounds", "2", "--targets", "f"),
		  "--rounds cannot be used with --targets" },
		{ ARGS("--rounds", "2", "--op", "write", "h"),
		  "--rounds cannot be used with --op write (a mesh session "
		  "is one connection, a WRITE and a READ back per round, "
		  "each verified; a WRITE is only verified by reading it "
		  "back)" },
		{ ARGS("--rounds", "2", "-n", "3", "h"),
		  "--rounds cannot be used with --iters" },
		{ ARGS("--rounds", "2", "-D", "1", "h"),
		  "--rounds cannot be used with --duration" },
		{ ARGS("--rounds", "2", "--all-sizes", "h"),
		  "--rounds cannot be used with --all-sizes" },
		{ ARGS("--rounds", "2", "-P", "1", "h"),
		  "--rounds cannot be used with --parallel" },
		{ ARGS("--rounds", "2", "--depth", "1", "h"),
		  "--rounds cannot be used with --depth" },
		{ ARGS("--rounds", "2", "--no-verify", "h"),
		  "--rounds cannot be used with --no-verify" },
		{ ARGS("--tos", "256", "h"), "--tos: 256 is out of range "
		  "0..255" },
		{ ARGS("--tos", "0x100", "h"), "--tos: 0x100 is out" },
		{ ARGS("--tos", "-1", "h"), "--tos: '-1' is not a number" },
		{ ARGS("--tos", "0x", "h"), "--tos: '0x' is not a number" },
		{ ARGS("--tos", "ef", "h"), "--tos: 'ef' is not a number" },
		{ ARGS("--tos", "1e1", "h"), "--tos: '1e1' is not a number" },
		{ ARGS("--tos", "", "h"), "--tos: '' is not a number" },
		{ ARGS("--tos", " 5", "h"), "--tos: ' 5' is not a number" },
		{ ARGS("-t", "soon", "h"), "rdma-probe: --timeout: 'soon' is "
		  "not a duration (seconds, or with unit ms, s, m, h; "
		  "fractions allowed: 1.5s)" },	/* as rdmad.ini's */
		{ ARGS("-t", "5x", "h"), "--timeout: '5x'" },
		{ ARGS("-t", ".5", "h"), "--timeout: '.5' is not a duration" },
		{ ARGS("-D", "1e3", "h"), "--duration: '1e3' is not" },
		{ ARGS("--seed", "18446744073709551616", "h"), "--seed: "
		  "18446744073709551616 is out of range "
		  "0..18446744073709551615" },
		{ ARGS("--tos", "99999999999999999999999", "h"), "--tos" },
	};
	struct probe_opts o;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ret = parse(&o, cases[i].args);
		tap_ok(ret == -EINVAL && strstr(errbuf, cases[i].needle) &&
		       strstr(errbuf, "--help"),
		       "rejected with a message naming '%s'",
		       cases[i].needle);
		if (ret != -EINVAL || !strstr(errbuf, cases[i].needle))
			tap_diag("ret %d, message: %s", ret, errbuf);
	}
}

static void test_rounds(void)
{
	struct probe_opts o;
	int ret;

	ret = parse(&o, ARGS("h"));
	tap_ok(ret == 0 && o.rounds == 0 &&
	       o.interval_ms == PROBE_DEFAULT_INTERVAL_MS,
	       "no --rounds by default; the interval's default is 1 s");
	ret = parse(&o, ARGS("--rounds", "5", "--interval", "0.2", "h"));
	tap_ok(ret == 0 && o.rounds == 5 && o.interval_ms == 200 &&
	       o.iters == 1 && o.size == PROBE_DEFAULT_SIZE && o.verify,
	       "--rounds 5 --interval 0.2: one iteration, -s default kept");
	ret = parse(&o, ARGS("--rounds=1000000", "--interval=0", "-s", "64",
			     "--psk-file", "k", "-q", "--json", "-t", "2",
			     "h"));
	tap_ok(ret == 0 && o.rounds == PROBE_ROUNDS_MAX &&
	       o.interval_ms == 0 && o.size == 64 && o.psk_file &&
	       o.json && o.verbosity == -1 && o.timeout_ms == 2000,
	       "--rounds with --interval 0, -s, --psk-file, -q, --json, -t");
	ret = parse(&o, ARGS("--rounds", "3", "--interval", "3600", "h"));
	tap_ok(ret == 0 && o.interval_ms == 3600000, "--interval 3600");
	ret = parse(&o, ARGS("--rounds", "3", "--op", "read", "h"));
	tap_ok(ret == 0 && o.ops == PROTO_OP_READ, "--rounds --op read: "
	       "READ-only rounds");
	ret = parse(&o, ARGS("--rounds", "3", "--op", "both", "h"));
	tap_ok(ret == 0 && o.ops == (PROTO_OP_READ | PROTO_OP_WRITE),
	       "--rounds --op both: the default");
}

static void test_tos(void)
{
	struct probe_opts o;
	int ret;

	ret = parse(&o, ARGS("h"));
	tap_ok(ret == 0 && o.tos == -1, "no --tos: -1, the system's TOS");
	ret = parse(&o, ARGS("--tos", "0x68", "h"));
	tap_ok(ret == 0 && o.tos == 0x68, "--tos 0x68: hex");
	ret = parse(&o, ARGS("--tos=104", "--rounds", "2", "h"));
	tap_ok(ret == 0 && o.tos == 104 && o.rounds == 2,
	       "--tos=104: decimal, with --rounds");
	ret = parse(&o, ARGS("--tos", "0", "--rping", "h"));
	tap_ok(ret == 0 && o.tos == 0, "--tos 0 (asked for), with --rping");
	ret = parse(&o, ARGS("--tos", "255", "--targets", "f"));
	tap_ok(ret == 0 && o.tos == 255, "--tos 255, with --targets");
	ret = parse(&o, ARGS("--tos", "0XfF", "h"));
	tap_ok(ret == 0 && o.tos == 255, "--tos 0XfF: either case");
	ret = parse(&o, ARGS("--tos", "010", "h"));
	tap_ok(ret == 0 && o.tos == 10, "--tos 010: decimal, not octal");
}

static void test_helpers(void)
{
	uint64_t v = 0;

	tap_ok(units_parse_size("64k", 1u << 30, &v) == 0 && v == 65536 &&
	       units_parse_size("3M", 1u << 30, &v) == 0 && v == 3145728 &&
	       units_parse_size("1g", 1u << 30, &v) == 0 && v == 1u << 30,
	       "size suffixes k, M, g");
	tap_ok(units_parse_size("1025m", 1u << 30, &v) == -ERANGE &&
	       units_parse_size("k", 1u << 30, &v) == -EINVAL &&
	       units_parse_size("1kk", 1u << 30, &v) == -EINVAL,
	       "size errors: range and syntax told apart");
	struct probe_opts o;

	tap_ok(parse(&o, ARGS("-t", "0.0001", "-D", "1.5m", "h")) == 0 &&
	       o.timeout_ms == 1 && o.duration_ms == 90000,
	       "times: rounded up to whole ms; units as in rdmad.ini");
	tap_ok(parse(&o, ARGS("-t", "250ms", "--rounds", "2", "--interval",
			      "1.5s", "h")) == 0 && o.timeout_ms == 250 &&
	       o.interval_ms == 1500, "-t 250ms, --interval 1.5s");
	tap_ok(parse(&o, ARGS("--seed", "010", "h")) == 0 && o.seed == 10,
	       "--seed 010: decimal, not octal (as --tos)");
}

/* Each numeric option at its boundaries: below, 1, max - 1, max, above. */
enum field { F_PORT, F_SIZE, F_ITERS, F_DURATION, F_TIMEOUT, F_PARALLEL,
	     F_DEPTH, F_ROUNDS, F_INTERVAL, F_TOS, F_SEED };

static uint64_t field(const struct probe_opts *o, enum field f)
{
	switch (f) {
	case F_PORT: return o->port;
	case F_SIZE: return o->size;
	case F_ITERS: return o->iters;
	case F_DURATION: return o->duration_ms;
	case F_TIMEOUT: return o->timeout_ms;
	case F_PARALLEL: return o->parallel;
	case F_DEPTH: return o->depth;
	case F_ROUNDS: return o->rounds;
	case F_INTERVAL: return o->interval_ms;
	case F_TOS: return (uint64_t)o->tos;
	case F_SEED: return o->seed;
	}
	return 0;
}

static void test_bounds(void)
{
	static const struct {
		const char *opt, *val;
		enum field f;
		uint64_t want;		/* NO: refused */
	} c[] = {
#define NO	0x7eadbeefcafe1234ull	/* no case wants it: refused */
		{ "-p", "0", F_PORT, NO }, { "-p", "1", F_PORT, 1 },
		{ "-p", "65534", F_PORT, 65534 },
		{ "-p", "65535", F_PORT, 65535 }, { "-p", "65536", F_PORT, NO },
		{ "-s", "0", F_SIZE, NO }, { "-s", "1", F_SIZE, 1 },
		{ "-s", "1073741823", F_SIZE, (1u << 30) - 1 },
		{ "-s", "1g", F_SIZE, 1u << 30 },
		{ "-s", "1073741825", F_SIZE, NO },
		{ "-n", "0", F_ITERS, NO }, { "-n", "1", F_ITERS, 1 },
		{ "-n", "999999", F_ITERS, 999999 },
		{ "-n", "1000000", F_ITERS, 1000000 },
		{ "-n", "1000001", F_ITERS, NO },
		{ "-D", "0", F_DURATION, NO }, { "-D", "1ms", F_DURATION, 1 },
		{ "-D", "3599.999", F_DURATION, 3599999 },
		{ "-D", "1h", F_DURATION, 3600000 },
		{ "-D", "3600001ms", F_DURATION, NO },
		{ "-t", "0", F_TIMEOUT, NO }, { "-t", "0.001", F_TIMEOUT, 1 },
		{ "-t", "3599999ms", F_TIMEOUT, 3599999 },
		{ "-t", "3600", F_TIMEOUT, 3600000 },
		{ "-t", "3600.001", F_TIMEOUT, NO },
		{ "-P", "0", F_PARALLEL, NO }, { "-P", "1", F_PARALLEL, 1 },
		{ "-P", "1023", F_PARALLEL, 1023 },
		{ "-P", "1024", F_PARALLEL, 1024 },
		{ "-P", "1025", F_PARALLEL, NO },
		{ "--depth", "0", F_DEPTH, NO }, { "--depth", "1", F_DEPTH, 1 },
		{ "--depth", "511", F_DEPTH, 511 },
		{ "--depth", "512", F_DEPTH, 512 },
		{ "--depth", "513", F_DEPTH, NO },
		{ "--rounds", "0", F_ROUNDS, NO },
		{ "--rounds", "1", F_ROUNDS, 1 },
		{ "--rounds", "999999", F_ROUNDS, 999999 },
		{ "--rounds", "1000000", F_ROUNDS, 1000000 },
		{ "--rounds", "1000001", F_ROUNDS, NO },
		{ "--tos", "0", F_TOS, 0 }, { "--tos", "1", F_TOS, 1 },
		{ "--tos", "254", F_TOS, 254 }, { "--tos", "0xff", F_TOS, 255 },
		{ "--tos", "256", F_TOS, NO },
		{ "--seed", "0", F_SEED, 0 }, { "--seed", "1", F_SEED, 1 },
		{ "--seed", "18446744073709551614", F_SEED, UINT64_MAX - 1 },
		{ "--seed", "0xffffffffffffffff", F_SEED, UINT64_MAX },
		{ "--seed", "0x10000000000000000", F_SEED, NO },
		/* --interval needs --rounds (added below); 0 is allowed */
		{ "--interval", "0", F_INTERVAL, 0 },
		{ "--interval", "1ms", F_INTERVAL, 1 },
		{ "--interval", "3599999ms", F_INTERVAL, 3599999 },
		{ "--interval", "1h", F_INTERVAL, 3600000 },
		{ "--interval", "3600001ms", F_INTERVAL, NO },
	};
	const char *args[6];
	struct probe_opts o;
	size_t i, n;
	int ret;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		n = 0;
		if (c[i].f == F_INTERVAL) {
			args[n++] = "--rounds";
			args[n++] = "2";
		}
		args[n++] = c[i].opt;
		args[n++] = c[i].val;
		args[n++] = "h";
		args[n] = NULL;
		ret = parse(&o, args);
		if (!tap_ok(c[i].want == NO ?
			    ret == -EINVAL && strstr(errbuf, "out of range") :
			    ret == 0 && field(&o, c[i].f) == c[i].want,
			    "%s %s: %s", c[i].opt, c[i].val,
			    c[i].want == NO ? "out of range" : "taken"))
			tap_diag("ret %d, value %llu: %s", ret,
				 (unsigned long long)field(&o, c[i].f), errbuf);
	}
#undef NO
}

static void test_help(void)
{
	struct probe_opts o;
	char *argv[] = { (char *)"rdma-probe", (char *)"--help", NULL };
	char out[8192];
	FILE *f = fmemopen(out, sizeof(out), "w");
	int ret;

	memset(out, 0, sizeof(out));
	ret = probe_opts_parse(2, argv, &o, f, stderr);
	fclose(f);
	tap_ok(ret == PROBE_OPTS_EXIT && strstr(out, "Exit status") &&
	       strstr(out, "  9  data mismatch") &&
	       strstr(out, " 64  usage error") && strstr(out, "--rping") &&
	       strstr(out, "--targets FILE") && strstr(out, "--tos N"),
	       "--help lists options and every exit code");
}

int main(void)
{
	test_defaults();
	test_values();
	test_bad();
	test_rounds();
	test_tos();
	test_helpers();
	test_bounds();
	test_help();
	return tap_done();
}
