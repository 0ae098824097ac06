/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-probe-report.c - from hand-built runs: the exit code of a run and
 * of a --targets list (probe_exit_rules.c), the human report line by line
 * (probe_report_text.c), the matrix and its JSON (probe_report_matrix.c),
 * --rounds' lines, summary and JSON.  The JSON document of a run:
 * test-probe-json.c.
 */
#include "probe-fixture.h"
#include "targets.h"

/* ---- exit codes ------------------------------------------------------ */

static void test_exit_codes(void)
{
	struct probe_outcome o[4];
	struct probe_run r = { .outcomes = o };
	struct probe_mesh_row rows[3];
	struct probe_mesh m = { .rows = rows };

	memset(o, 0, sizeof(o));
	r.n = 0;
	tap_ok(probe_exit_rules_worst(&r) == RDMA_CLIENT_FAIL_NONE && !probe_exit_rules_run(&r),
	       "exit: an empty run passes");
	r.n = 3;
	tap_ok(probe_exit_rules_worst(&r) == RDMA_CLIENT_FAIL_NONE && !probe_exit_rules_run(&r),
	       "exit: every connection passed: 0");
	o[1].fail = RDMA_CLIENT_FAIL_CONNECT;
	o[2].fail = RDMA_CLIENT_FAIL_TIMEOUT;
	tap_ok(probe_exit_rules_worst(&r) == RDMA_CLIENT_FAIL_TIMEOUT &&
	       probe_exit_rules_run(&r) == 6,
	       "exit: timeout (6) beats an earlier connect (4)");
	o[0].fail = RDMA_CLIENT_FAIL_MISMATCH;
	o[3].fail = RDMA_CLIENT_FAIL_PROTOCOL;
	r.n = 4;
	tap_ok(probe_exit_rules_worst(&r) == RDMA_CLIENT_FAIL_MISMATCH &&
	       probe_exit_rules_run(&r) == 9, "exit: mismatch (9) is the worst");
	o[0].fail = RDMA_CLIENT_FAIL_LOCAL;
	tap_ok(probe_exit_rules_run(&r) == 8, "exit: protocol (8) beats local (1)");

	memset(rows, 0, sizeof(rows));
	memset(o, 0, sizeof(o));
	rows[0].run = (struct probe_run){ .outcomes = &o[0], .n = 1 };
	rows[1].run = (struct probe_run){ .outcomes = &o[1], .n = 2 };
	rows[2].fail = RDMA_CLIENT_FAIL_ADDR;
	m.n = 3;
	tap_ok(probe_exit_rules_mesh(&m) == 2 &&
	       probe_exit_rules_row(&rows[2]) == RDMA_CLIENT_FAIL_ADDR &&
	       probe_exit_rules_row(&rows[0]) == RDMA_CLIENT_FAIL_NONE,
	       "mesh exit: a name that does not resolve: 2");
	o[2].fail = RDMA_CLIENT_FAIL_REJECTED;
	tap_ok(probe_exit_rules_mesh(&m) == 5 &&
	       probe_exit_rules_row(&rows[1]) == RDMA_CLIENT_FAIL_REJECTED,
	       "mesh exit: the largest code of any row (rejected, 5)");
	rows[2].fail = RDMA_CLIENT_FAIL_LOCAL;
	rows[2].run = (struct probe_run){ .outcomes = &o[3], .n = 1 };
	o[3].fail = RDMA_CLIENT_FAIL_MISMATCH;
	tap_ok(probe_exit_rules_row(&rows[2]) == RDMA_CLIENT_FAIL_LOCAL &&
	       probe_exit_rules_mesh(&m) == 5,
	       "mesh exit: a row's own failure wins over its connections'");
	rows[2].fail = RDMA_CLIENT_FAIL_NONE;
	o[2].fail = RDMA_CLIENT_FAIL_NONE;
	o[3].fail = RDMA_CLIENT_FAIL_NONE;
	tap_ok(probe_exit_rules_mesh(&m) == 0, "mesh exit: every target passed: 0");
}

/* ---- human report ---------------------------------------------------- */

static void test_report_native_ok(void)
{
	struct probe_opstat *rd = opstat(3, 5000000, 495000, 10000, 65536);
	struct probe_opstat *wr = opstat(3, 7000000, 490000, 20000, 65536);
	struct probe_opts opts;
	struct probe_outcome o = {
		.fail = RDMA_CLIENT_FAIL_NONE, .last_state = RDMA_CLIENT_ST_DONE,
		.times = &times_all, .reads = rd, .writes = wr,
		.seed = SEED, .conn_id = 17, .max_size = 1048576,
		.max_iters = 1000, .have_welcome = true,
		.write_crc = 0xdeadbeef, .reads_verified = 3, .writes_done = 3,
	};
	struct probe_run r = { .opts = &opts, .outcomes = &o, .n = 1 };
	struct capture c;
	char *got, *want;

	opts_native(&opts);
	probe_report_text(capture_open(&c), "10.0.0.1:7471", &r);
	got = capture_close(&c);
	want = fmt(
"rdma-probe 10.0.0.1:7471: rdmad protocol v%u, server connection 17 (limits: size 1048576, iterations 1000)\n"
"  operations     READ then WRITE, 65536 bytes x 3 each, depth 1, verified, seed 0x00000000000abcde\n"
"  bytes moved    393216 (read 196608, write 196608)\n"
"  phases         resolve addr 0.5 us, resolve route 1000.0 us, connect 1.000 ms, descriptor 0.3 us, ops 9999.000 ms, done 10.000 s, disconnect 3.0 us, total 20.001 s\n"
"  READ latency   min 10.0 us, p50 10.0 us, p90 10.0 us, p99 10.0 us, p99.9 10.0 us, max 10.0 us (3 ops)\n"
"  READ bandwidth 196.61 MB/s (1.573 Gb/s), 3000 ops/s over 1.000 ms\n"
"  WRITE latency  min 20.0 us, p50 20.0 us, p90 20.0 us, p99 20.0 us, p99.9 20.0 us, max 20.0 us (3 ops)\n"
"  WRITE bandwidth 196.61 MB/s (1.573 Gb/s), 3000 ops/s over 1.000 ms\n"
"  verification   OK: 3 READs matched the server's pattern; server verified the last of 3 WRITEs (crc32c 0xdeadbeef)\n",
		PROTO_VERSION);
	same(got, want, "report: one native connection, every line");
	free(got);
	free(want);
	free(rd);
	free(wr);
}

static void test_report_native_many(void)
{
	struct rdma_client_times t[3];
	struct probe_opstat *rd = opstat(3, 5000000, 495000, 10000, 65536);
	struct probe_opstat *wr = opstat(3, 7000000, 490000, 20000, 65536);
	struct probe_outcome o[3];
	struct probe_opts opts;
	struct probe_run r = { .opts = &opts, .outcomes = o, .n = 3 };
	struct capture c;
	unsigned int i;
	char *got;

	opts_native(&opts);
	opts.parallel = 3;
	memset(o, 0, sizeof(o));
	for (i = 0; i < 3; i++) {
		memset(&t[i], 0, sizeof(t[i]));
		/* connect: 3, 1 and 2 ms; nothing else measured */
		t[i].route = 1000000;
		t[i].established = 1000000 + ((i + 2) % 3 + 1) * 1000000ull;
		o[i] = (struct probe_outcome){
			.times = &t[i], .reads = rd, .writes = wr, .idx = i,
			.have_welcome = true, .reads_verified = 3,
			.writes_done = 3,
		};
	}
	probe_report_text(capture_open(&c), "h", &r);
	got = capture_close(&c);
	has(got, "rdma-probe h: rdmad protocol v", "report -P 3: header");
	has(got, ", 3 connections (0 failed)\n",
	    "report -P 3: connections counted, no server connection id");
	has(got, " each, depth 1, verified, seed 0x00000000000abcde (+ connection number)\n",
	    "report -P 3: seeds are the seed plus the connection number");
	has(got, "\n  bytes moved    1179648 (read 589824, write 589824)\n",
	    "report -P 3: bytes of every connection");
	has(got, "\n  phases p50/max connect 2.000 ms/3.000 ms\n",
	    "report -P 3: phases as p50/max, only those measured");
	has(got, "max 10.0 us (9 ops)\n", "report -P 3: operations merged");
	has(got, "\n  verification   OK: 3 connections; 9 READs matched the server's pattern; server verified the last WRITE of each (9 WRITEs)\n",
	    "report -P 3: verification of all");
	free(got);

	/* 11 of 12 fail: the worst class, then at most 10 of them. */
	{
		struct probe_outcome f[12];
		struct probe_run rf = { .opts = &opts, .outcomes = f, .n = 12 };

		memset(f, 0, sizeof(f));
		for (i = 0; i < 12; i++) {
			f[i].times = &times_none;
			f[i].idx = i;
			f[i].fail = i ? RDMA_CLIENT_FAIL_TIMEOUT : RDMA_CLIENT_FAIL_NONE;
			f[i].error = "timed out waiting for the descriptor";
		}
		f[3].fail = RDMA_CLIENT_FAIL_MISMATCH;
		f[3].error = "READ 2: byte 17 differs";
		probe_report_text(capture_open(&c), "h", &rf);
		got = capture_close(&c);
		has(got, ", 12 connections (11 failed)\n",
		    "report failures: failed connections counted");
		has(got, "\n  phases p50/max none completed\n",
		    "report failures: no phase measured");
		has(got, "\n  verification   FAILED (exit 9, data mismatch): 11 of 12 connections failed\n"
			 "  conn 1         exit 6 (timed out (connect or a later step)): timed out waiting for the descriptor\n"
			 "  conn 2         exit 6 (",
		    "report failures: worst class, then one line per failure");
		has(got, "\n  conn 3         exit 9 (data mismatch): READ 2: byte 17 differs\n",
		    "report failures: each with its own class and message");
		tap_ok(count_lines(got, "  conn ") == 10 &&
		       !strstr(got, "  conn 11 "),
		       "report failures: at most 10 listed (%u)",
		       count_lines(got, "  conn "));
		tap_ok(!strstr(got, "latency") && !strstr(got, "bandwidth"),
		       "report failures: no figures when no operation ran");
		free(got);

		rf.n = 2;
		f[1].fail = RDMA_CLIENT_FAIL_CONNECT;
		f[1].error = "connection refused";
		probe_report_text(capture_open(&c), "h", &rf);
		got = capture_close(&c);
		has(got, "\n  verification   FAILED (exit 4, connection refused or failed): 1 of 2 connections failed\n"
			 "  conn 1         exit 4 (connection refused or failed): connection refused\n",
		    "report failures: one of two");
		free(got);

		rf.n = 1;
		f[0].fail = RDMA_CLIENT_FAIL_REJECTED;
		f[0].error = "rejected by 10.0.0.1:7471: busy: 64/64 connections";
		probe_report_text(capture_open(&c), "h", &rf);
		got = capture_close(&c);
		has(got, "\n  verification   FAILED (exit 5, rejected by server): rejected by 10.0.0.1:7471: busy: 64/64 connections\n",
		    "report failures: one connection: its message alone");
		tap_ok(!strstr(got, "conn 0"), "report failures: no conn list for one");
		free(got);
	}
	free(rd);
	free(wr);
}

static void test_report_rping(void)
{
	struct probe_opstat *pg = opstat(5, 1000, 237500, 50000, 64);
	struct probe_opts opts;
	struct probe_outcome o = {
		.last_state = RDMA_CLIENT_ST_DONE, .times = &times_all, .pings = pg,
		.pings_verified = 5,
	};
	struct probe_run r = { .opts = &opts, .outcomes = &o, .n = 1 };
	struct capture c;
	char *got;

	opts_native(&opts);
	opts.rping = true;
	opts.size = 64;
	opts.iters = 5;
	opts.depth = 4;		/* rping runs at depth 1 whatever -d says */
	probe_report_text(capture_open(&c), "10.0.0.1:7174", &r);
	got = capture_close(&c);
	same(got,
"rdma-probe 10.0.0.1:7174: rping protocol\n"
"  operations     rping (server READ, then WRITE), 64 bytes x 5 pings, depth 1, verified, seed 0x00000000000abcde\n"
"  bytes moved    640 (320 read by server, 320 written back)\n"
"  phases         resolve addr 0.5 us, resolve route 1000.0 us, connect 1.000 ms, ops 9999.000 ms, disconnect 3.0 us, total 20.001 s\n"
"  ping latency   min 50.0 us, p50 50.0 us, p90 50.0 us, p99 50.0 us, p99.9 50.0 us, max 50.0 us (5 ops)\n"
"  ping bandwidth 0.3200 MB/s (0.003 Gb/s), 5000 ops/s over 1.000 ms\n"
"  verification   OK: 5 pings, sink matched source\n",
	     "report rping: every line; no descriptor or done phase; < 1 MB/s with 4 decimals");
	free(got);
	free(pg);
}

static void test_report_options(void)
{
	struct probe_opstat *rd = opstat(10, 1000, 1000000, 10000, 4096);
	struct probe_opts opts;
	struct probe_outcome o = {
		.times = &times_none, .reads = rd, .reads_verified = 11,
	};
	struct probe_run r = { .opts = &opts, .outcomes = &o, .n = 1 };
	struct capture c;
	char *got, *want;

	opts_native(&opts);
	opts.ops = PROTO_OP_READ;
	opts.size = 4096;
	opts.iters = 100000;
	opts.duration_ms = 2500;
	opts.depth = 8;
	opts.verify = false;
	opts.busy_poll = true;
	probe_opstat_add(rd, 20000000, 620000000, 4096);	/* 600 ms */
	probe_report_text(capture_open(&c), "h", &r);
	got = capture_close(&c);
	has(got, "rdma-probe h: rdmad protocol v",
	    "report -D: header without welcome");
	tap_ok(!strstr(got, "server connection"),
	       "report -D: no server connection without a welcome");
	has(got, "\n  operations     READ, 4096 bytes for 2.500 s (at most 100000) each, depth 8, not verified, busy-poll, seed 0x00000000000abcde\n",
	    "report -D: duration, depth, --no-verify, --busy-poll");
	has(got, "\n  phases         none completed\n",
	    "report -D: no phase measured");
	has(got, "\n  READ latency   min 10.0 us, p50 10.0 us, ",
	    "report -D: p50 of mostly fast operations");
	has(got, ", max 600.000 ms (11 ops)\n", "report -D: max in ms");
	has(got, "\n  READ slow      1 of 11 operations took over 250.000 ms: retransmissions (packet loss on the path?); the fastest took 10.0 us\n",
	    "report -D: the slow line names the limit and the fastest");
	has(got, "\n  verification   OK: 11 READs not checked (--no-verify)\n",
	    "report -D: --no-verify said so");
	tap_ok(!strstr(got, "WRITE"), "report -D: no WRITE line for READ only");
	tap_ok(!strstr(got, "TOS"), "report: no TOS without --tos");
	free(got);

	/* --tos 0 is asked for: shown, unlike no --tos. */
	for (opts.tos = 0x68; opts.tos >= 0; opts.tos -= 0x68) {
		probe_report_text(capture_open(&c), "h", &r);
		got = capture_close(&c);
		want = fmt(", not verified, busy-poll, TOS 0x%02x, seed 0x",
			   (unsigned int)opts.tos);
		has(got, want, "report --tos: the TOS byte on the "
		    "operations line");
		free(want);
		free(got);
	}
	free(rd);
}

/* ---- --targets: matrix and JSON ------------------------------------- */

struct mesh_fixture {
	struct probe_opts opts;
	struct target t[4];
	struct probe_mesh_row rows[4];
	struct probe_outcome o[6];
	struct probe_opstat *rd, *wr;
	struct probe_mesh m;
};

static void target(struct target *t, const char *text,
		   const char *host, unsigned int line)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->text, sizeof(t->text), "%s", text);
	snprintf(t->host, sizeof(t->host), "%s", host);
	t->port = 7471;
	t->line = line;
}

/*
 * hostA        ok, 2 connections
 * 10.0.0.2     both refused
 * nosuch       does not resolve
 * [fd00::1]    one passed, one timed out waiting for the descriptor
 */
static void mesh_build(struct mesh_fixture *f)
{
	struct probe_outcome ok = { .times = &times_all };
	unsigned int i;

	memset(f, 0, sizeof(*f));
	f->rd = opstat(3, 5000000, 495000, 10000, 65536);
	f->wr = opstat(3, 7000000, 490000, 20000, 65536);
	ok.reads = f->rd;
	ok.writes = f->wr;
	opts_native(&f->opts);
	f->opts.host = NULL;
	f->opts.targets = "list.txt";
	f->opts.source = "10.99.0.2";
	f->opts.iters = 50;
	f->opts.parallel = 2;
	target(&f->t[0], "hostA", "hostA", 1);
	target(&f->t[1], "10.0.0.2:7471", "10.0.0.2", 2);
	target(&f->t[2], "nosuch", "nosuch", 4);
	target(&f->t[3], "[fd00::1]:7471", "fd00::1", 5);
	for (i = 0; i < 6; i++) {
		f->o[i] = ok;
		f->o[i].idx = i % 2;
	}
	for (i = 2; i < 4; i++) {
		f->o[i].fail = RDMA_CLIENT_FAIL_CONNECT;
		f->o[i].reason = "refused";
		f->o[i].error = "connect to 10.0.0.2:7471: connection refused";
		f->o[i].reads = f->o[i].writes = NULL;
		f->o[i].times = &times_none;
	}
	f->o[5].fail = RDMA_CLIENT_FAIL_TIMEOUT;
	f->o[5].fail_state = RDMA_CLIENT_ST_DESC;
	f->o[5].error = odd_error;
	f->o[5].reads = f->o[5].writes = NULL;
	f->o[5].times = &times_none;
	for (i = 0; i < 4; i++) {
		f->rows[i].target = &f->t[i];
		f->rows[i].run.opts = &f->opts;
	}
	snprintf(f->rows[0].dest.addr, PROBE_ADDR_LEN, "10.0.0.1:7471");
	snprintf(f->rows[0].dest.host, PROBE_ADDR_LEN, "10.0.0.1");
	f->rows[0].run.outcomes = &f->o[0];
	f->rows[0].run.n = 2;
	snprintf(f->rows[1].dest.addr, PROBE_ADDR_LEN, "10.0.0.2:7471");
	snprintf(f->rows[1].dest.host, PROBE_ADDR_LEN, "10.0.0.2");
	f->rows[1].run.outcomes = &f->o[2];
	f->rows[1].run.n = 2;
	f->rows[2].fail = RDMA_CLIENT_FAIL_ADDR;
	f->rows[2].reason = "unknown host";
	snprintf(f->rows[2].error, sizeof(f->rows[2].error),
		 "cannot resolve target 'nosuch': Name or service not known");
	snprintf(f->rows[3].dest.addr, PROBE_ADDR_LEN, "[fd00::1]:7471");
	snprintf(f->rows[3].dest.host, PROBE_ADDR_LEN, "fd00::1");
	f->rows[3].run.outcomes = &f->o[4];
	f->rows[3].run.n = 2;
	f->m.opts = &f->opts;
	f->m.rows = f->rows;
	f->m.n = 4;
}

static void mesh_free(struct mesh_fixture *f)
{
	free(f->rd);
	free(f->wr);
}

#define ROW_FMT	"%-21s  %-37s  %10s  %10s  %10s  %10s  %10s  %10s\n"

static void test_mesh(void)
{
	struct mesh_fixture f;
	struct capture c;
	char *got, *want;

	mesh_build(&f);
	tap_ok(probe_exit_rules_mesh(&f.m) == 6,
	       "mesh: exit 6 (timeout) over connect (4) and addr (2)");
	probe_report_matrix(capture_open(&c), &f.m);
	got = capture_close(&c);
	want = fmt("rdma-probe: 4 targets, rdmad protocol, 65536 bytes x 50 each, depth 1, 2 connections each, from 10.99.0.2, seed 0x00000000000abcde\n"
		   ROW_FMT ROW_FMT ROW_FMT ROW_FMT ROW_FMT
		   "4 targets: 1 ok, 3 failed\n",
		   "TARGET", "RESULT", "READ p50", "READ p99", "WRITE p50",
		   "WRITE p99", "READ MB/s", "WRITE MB/s",
		   "hostA (10.0.0.1:7471)", "ok", "10.0 us", "10.0 us",
		   "20.0 us", "20.0 us", "393.22", "393.22",
		   "10.0.0.2:7471", "connect: refused (2 of 2 failed)",
		   "-", "-", "-", "-", "-", "-",
		   "nosuch", "addr: unknown host",
		   "-", "-", "-", "-", "-", "-",
		   "[fd00::1]:7471", "timeout in descriptor (1 of 2 failed)",
		   "10.0 us", "10.0 us", "20.0 us", "20.0 us", "196.61",
		   "196.61");
	same(got, want, "matrix: header, columns, one row per target, summary");
	free(got);
	free(want);

	f.opts.verbosity = -1;
	probe_report_matrix(capture_open(&c), &f.m);
	got = capture_close(&c);
	tap_ok(!strstr(got, "hostA") && strstr(got, "\nnosuch ") &&
	       strstr(got, "4 targets: 1 ok, 3 failed\n"),
	       "matrix -q: only the failed rows, and the summary");
	free(got);
	f.m.n = 1;
	probe_report_matrix(capture_open(&c), &f.m);
	got = capture_close(&c);
	same(got, "", "matrix -q: nothing when every target passed");
	free(got);
	f.m.n = 4;
	f.opts.verbosity = 0;

	probe_report_json_mesh(capture_open(&c), &f.m, 6);
	got = capture_close(&c);
	tap_ok(json_valid(got), "mesh json: one valid document, ASCII only");
	if (!json_valid(got))
		tap_diag("%s", got);
	has(got, "\"targets_file\": \"list.txt\", \"source\": \"10.99.0.2\",",
	    "mesh json: file and source");
	has(got, "{\"target\": \"hostA\", \"line\": 1, \"host\": \"hostA\", \"address\": \"10.0.0.1\", \"port\": 7471, \"result\": \"ok\", \"exit_code\": 0, \"class\": \"none\", \"error\": null, \"ok\": true, \"connections\": 2, \"failed\": 0, ",
	    "mesh json: a passed row");
	has(got, "{\"target\": \"10.0.0.2:7471\", \"line\": 2, \"host\": \"10.0.0.2\", \"address\": \"10.0.0.2\", \"port\": 7471, \"result\": \"connect: refused (2 of 2 failed)\", \"exit_code\": 4, \"class\": \"connect\", \"error\": \"connect to 10.0.0.2:7471: connection refused\", \"ok\": false, \"connections\": 2, \"failed\": 2, ",
	    "mesh json: a refused row: its first connection's error");
	has(got, "{\"target\": \"nosuch\", \"line\": 4, \"host\": \"nosuch\", \"address\": null, \"port\": 7471, \"result\": \"addr: unknown host\", \"exit_code\": 2, \"class\": \"addr\", \"error\": \"cannot resolve target 'nosuch': Name or service not known\", \"ok\": false, \"connections\": 0, \"failed\": 0, \"phases_ns\": {}, \"ops\": {}, \"conns\": []}",
	    "mesh json: a row that did not resolve: no address, its own error");
	want = fmt("\"result\": \"timeout in descriptor (1 of 2 failed)\", \"exit_code\": 6, \"class\": \"timeout\", \"error\": %s, \"ok\": false, \"connections\": 2, \"failed\": 1, ",
		   odd_json);
	has(got, want, "mesh json: the worst connection's error, escaped");
	free(want);
	has(got, "\n ],\n \"summary\": {\"targets\": 4, \"ok\": 1, \"failed\": 3},\n \"exit_code\": 6, \"ok\": false}\n",
	    "mesh json: summary and exit code at the end");
	free(got);
	mesh_free(&f);
}

/* --rounds: the per-round line, the summary, the exit, the JSON. */
static void test_rounds(void)
{
	static const struct rdma_client_round r0 = {
		.round = 0, .size = 64, .write_ns = 120000, .read_ns = 110000,
	};
	static const struct rdma_client_round r1 = {
		.round = 1, .size = 64, .result = RDMA_CLIENT_FAIL_MISMATCH,
		.bad_offset = 17, .write_ns = 130000, .read_ns = 100000,
	};
	static const struct rdma_client_round r2 = {
		.round = 2, .size = 64, .read_ns = 90000,
	};
	static const struct rdma_client_times t = {
		.start = 1000, .addr = 2000, .route = 3000,
		.established = 4000, .desc = 5000, .ops_start = 6000,
		.ops_end = 1006000, .disconnect = 1007000, .closed = 1008000,
	};
	struct probe_rounds *s = malloc(sizeof(*s));
	struct probe_opts opts;
	struct probe_outcome o = {
		.last_state = RDMA_CLIENT_ST_DONE, .times = &t,
		.have_welcome = true, .conn_id = 5, .max_size = 1048576,
		.max_iters = 100000,
	};
	struct probe_run r = { .opts = &opts, .outcomes = &o, .n = 1 };
	struct capture c;
	char *got;

	if (!s)
		exit(99);
	probe_report_text_round(capture_open(&c), &r0);
	got = capture_close(&c);
	same(got, "round 0: 64 bytes written and read back, verified, "
	     "write 120.0 us read 110.0 us\n", "round line: verified");
	free(got);
	probe_report_text_round(capture_open(&c), &r1);
	got = capture_close(&c);
	same(got, "round 1: 64 bytes written and read back, MISMATCH at "
	     "offset 17, write 130.0 us read 100.0 us\n",
	     "round line: a mismatch and its offset");
	free(got);
	probe_report_text_round(capture_open(&c), &r2);
	got = capture_close(&c);
	same(got, "round 2: 64 bytes read back, verified, read 90.0 us\n",
	     "round line: a READ-only round that did not WRITE");
	free(got);

	opts_native(&opts);
	opts.size = 64;
	opts.iters = 1;
	opts.rounds = 3;
	opts.interval_ms = 200;
	probe_rounds_init(s, 3);
	probe_rounds_add(s, &r0);
	probe_rounds_add(s, &r0);
	o.rounds = s;
	tap_ok(probe_exit_rules_run(&r) == 0 && s->done == 2 && !s->mismatch,
	       "rounds: all verified, exit 0");
	probe_report_text(capture_open(&c), "10.0.0.1:7471", &r);
	got = capture_close(&c);
	same(got,
"rdma-probe 10.0.0.1:7471: rdmad protocol v1, server connection 5 (limits: size 1048576, iterations 100000)\n"
"  operations     mesh session, 3 rounds of 64 bytes (WRITE, then READ back), interval 0.200 s, seed 0x00000000000abcde\n"
"  phases         resolve addr 1.0 us, resolve route 1.0 us, connect 1.0 us, descriptor 1.0 us, ops 1.000 ms, disconnect 1.0 us, total 1.007 ms\n"
"  rounds         2 of 3: 2 verified, 0 mismatched\n"
"  round time     min 230.0 us, p50 230.0 us, p99 230.0 us, max 230.0 us (WRITE + READ)\n"
"  verification   OK: 2 rounds, every byte read back as written\n",
	     "report rounds: every line");
	free(got);
	opts.ops = PROTO_OP_READ;
	probe_report_text(capture_open(&c), "10.0.0.1:7471", &r);
	got = capture_close(&c);
	tap_ok(strstr(got, "3 rounds of 64 bytes (READ back of a pattern "
		      "written once), interval") &&
	       strstr(got, "max 230.0 us (READ, + WRITE in a round that "
		      "wrote)\n"), "report rounds --op read: the operations "
	       "and round time lines say so");
	free(got);
	opts.ops = PROTO_OP_READ | PROTO_OP_WRITE;

	probe_rounds_add(s, &r1);
	probe_rounds_add(s, &r0);
	tap_ok(probe_exit_rules_run(&r) == 9 && probe_exit_rules_worst(&r) ==
	       RDMA_CLIENT_FAIL_MISMATCH && s->mismatch == 1 &&
	       s->first_bad == 1 && s->first_bad_offset == 17,
	       "rounds: a mismatch in a clean session is exit 9, its round "
	       "and offset kept");
	o.fail = RDMA_CLIENT_FAIL_COMPLETION;
	tap_ok(probe_exit_rules_run(&r) == 9, "rounds: a mismatch outranks a "
	       "lost connection");
	o.fail = RDMA_CLIENT_FAIL_NONE;
	probe_report_text(capture_open(&c), "10.0.0.1:7471", &r);
	got = capture_close(&c);
	tap_ok(strstr(got, "  verification   FAILED (exit 9, data mismatch): "
		      "1 of 4 rounds read back other data; the first, round "
		      "1, at offset 17\n") != NULL, "report rounds: the "
	       "mismatch's verdict");
	free(got);
	probe_report_json(capture_open(&c), &opts, "10.0.0.1:7471", &r, 1, 9);
	got = capture_close(&c);
	tap_ok(json_valid(got) && strstr(got, "\"rounds\": 3, "
		      "\"interval_ms\": 200, ") &&
	       strstr(got, "\"exit_code\": 9, \"class\": \"mismatch\"") &&
	       strstr(got, "\"rounds\": {\"requested\": 3, \"done\": 4, "
		      "\"verified\": 3, \"mismatch\": 1, "
		      "\"first_bad_round\": 1, \"first_bad_offset\": 17, "
		      "\"round_ns\": {\"min\": 230000, "),
	       "json rounds: options, class and the rounds object");
	if (!json_valid(got) || !strstr(got, "\"round_ns\""))
		tap_diag("%s", got);
	free(got);
	free(s);
}

int main(void)
{
	test_exit_codes();
	test_report_native_ok();
	test_report_native_many();
	test_report_rping();
	test_report_options();
	test_mesh();
	test_rounds();
	return tap_done();
}
