/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-probe-json.c - probe_report_json.c from hand-built runs: one valid
 * JSON document, the options, per-kind figures, phases, each connection,
 * odd bytes in error strings escaped; and the test's own JSON checker.
 */
#include "probe-fixture.h"

static void test_json_checker(void)
{
	tap_ok(json_valid("{\"a\": [1, -2.5e3, true, null, \"\\u00ff\"]}\n") &&
	       !json_valid("{\"a\": 1,}") && !json_valid("{\"a\" 1}") &&
	       !json_valid("[\"\x01\"]") && !json_valid("[\"\\x\"]") &&
	       !json_valid("[1] [2]") && !json_valid("[01]") &&
	       json_valid("[\"\xc3\xa9\"]"),
	       "the test's JSON checker rejects what it must");
}

/* ---- JSON ------------------------------------------------------------ */

static void test_json(void)
{
	struct probe_opstat *rd = opstat(3, 5000000, 495000, 10000, 65536);
	struct probe_opstat *wr = opstat(3, 7000000, 490000, 20000, 65536);
	struct probe_opts opts;
	struct probe_outcome o[2];
	struct probe_run runs[2];
	struct capture c;
	char *got, *want;

	opts_native(&opts);
	opts.parallel = 2;
	memset(o, 0, sizeof(o));
	o[0] = (struct probe_outcome){
		.last_state = RDMA_CLIENT_ST_DONE, .times = &times_all, .reads = rd,
		.writes = wr, .seed = SEED, .conn_id = 17,
		.have_welcome = true, .write_crc = 0x1234abcd,
		.reads_verified = 3, .writes_done = 3,
		.error = "stale message of a passed connection",
	};
	o[1] = (struct probe_outcome){
		.fail = RDMA_CLIENT_FAIL_TIMEOUT, .error = odd_error,
		.fail_state = RDMA_CLIENT_ST_DESC, .last_state = RDMA_CLIENT_ST_FAILED,
		.times = &times_none, .idx = 1, .seed = SEED + 1,
	};
	runs[0] = (struct probe_run){ .opts = &opts, .outcomes = o, .n = 2 };
	runs[1] = (struct probe_run){ .opts = &opts, .outcomes = o, .n = 1 };

	probe_report_json(capture_open(&c), &opts, "10.0.0.1:7471", runs, 2,
			  6);
	got = capture_close(&c);
	tap_ok(json_valid(got), "json: one valid document, ASCII only");
	if (!json_valid(got))
		tap_diag("%s", got);
	has(got, "{\"tool\": \"rdma-probe\", \"version\": \"",
	    "json: tool and version first");
	has(got, "\"target\": \"10.0.0.1:7471\", \"host\": \"10.0.0.1\", \"port\": 7471, \"source\": null,",
	    "json: target, host, port, no source");
	has(got, "\"protocol\": \"native\", \"options\": {\"op\": \"both\", \"size\": 65536, \"all_sizes\": false, \"iters\": 3, \"duration_ms\": 0, \"parallel\": 2, \"depth\": 1, \"verify\": true, \"busy_poll\": false, \"timeout_ms\": 10000, \"tos\": null, \"seed\": \"0x00000000000abcde\"}",
	    "json: the options");
	has(got, "\"latency_note\": \"depth 1: latency_ns is the latency of single operations\"",
	    "json: the latency note for depth 1");
	has(got, "{\"size\": 65536, \"connections\": 2, \"failed\": 1, \"exit_code\": 6, \"ok\": false, \"phases_ns\": {",
	    "json: a failed run: counts, its exit code");
	has(got, "{\"size\": 65536, \"connections\": 1, \"failed\": 0, \"exit_code\": 0, \"ok\": true, ",
	    "json: a passed run");
	has(got, "\"read\": {\"ops\": 3, \"bytes\": 196608, \"span_ns\": 1000000, \"mb_per_s\": 196.608, \"gb_per_s\": 1.572864, \"ops_per_s\": 3000.0, \"latency_ns\": {\"min\": 10000, \"p50\": 10000, \"p90\": 10000, \"p99\": 10000, \"p99_9\": 10000, \"max\": 10000, \"avg\": 10000}, \"slow_ops\": 0, \"slow_limit_ns\": 250000000}",
	    "json: READ figures");
	has(got, "\"write\": {\"ops\": 3, \"bytes\": 196608, ",
	    "json: WRITE figures");
	tap_ok(!strstr(got, "\"ping\""), "json: no ping figures natively");
	has(got, "{\"index\": 0, \"seed\": \"0x00000000000abcde\", \"exit_code\": 0, \"class\": \"none\", \"error\": null, \"last_state\": \"",
	    "json: a passed connection: class none, no error (even if set)");
	has(got, "\"server_conn\": 17, \"reads_done\": 3, \"writes_done\": 3, \"write_crc32c\": \"0x1234abcd\", \"phases_ns\": {\"resolve_addr\": 500, \"resolve_route\": 999999, \"connect\": 1000000, \"descriptor\": 300, \"ops\": 9999000000, \"done\": 10000000000, \"disconnect\": 3000, \"total\": 20001005909}}",
	    "json: a connection's counts and phases in ns");
	want = fmt("{\"index\": 1, \"seed\": \"0x00000000000abcdf\", \"exit_code\": 6, \"class\": \"timeout\", \"error\": %s, \"last_state\": \"%s\", \"reads_done\": 0, \"writes_done\": 0, \"write_crc32c\": \"0x00000000\", \"phases_ns\": {}}",
		   odd_json, rdma_client_fsm_state_str(RDMA_CLIENT_ST_FAILED));
	has(got, want, "json: a failed connection: class, escaped error, no phases");
	free(want);
	has(got, "\"phases_ns\": {\"resolve_addr\": {\"p50\": 500, \"max\": 500}, ",
	    "json: a run's phases as p50 and max");
	has(got, "\n ],\n \"exit_code\": 6, \"ok\": false}\n",
	    "json: the exit code given, at the end");
	free(got);

	/* rping, with a source address: pings, no READ/WRITE counts. */
	{
		struct probe_opstat *pg = opstat(5, 1000, 237500, 50000, 64);
		struct probe_outcome p = {
			.times = &times_all, .pings = pg, .pings_verified = 5,
			.seed = SEED,
		};
		struct probe_run rr = { .opts = &opts, .outcomes = &p, .n = 1 };

		opts.rping = true;
		opts.source = "10.99.0.2";
		opts.depth = 4;
		opts.tos = 0xb8;
		probe_report_json(capture_open(&c), &opts, "t", &rr, 1, 0);
		got = capture_close(&c);
		tap_ok(json_valid(got), "json rping: valid");
		has(got, "\"source\": \"10.99.0.2\"", "json rping: source");
		has(got, "\"protocol\": \"rping\", \"options\": {\"op\": \"both\", ",
		    "json rping: protocol");
		has(got, "\"depth\": 1, ", "json rping: depth 1");
		has(got, "\"timeout_ms\": 10000, \"tos\": 184, \"seed\": ",
		    "json --tos: the TOS byte in the options");
		has(got, "\"latency_note\": \"depth 1: ",
		    "json rping: latency note of depth 1");
		has(got, "\"ping\": {\"ops\": 5, \"bytes\": 320, \"span_ns\": 1000000, \"mb_per_s\": 0.320, ",
		    "json rping: ping figures");
		has(got, "\"pings_verified\": 5, \"phases_ns\": {",
		    "json rping: pings verified");
		tap_ok(!strstr(got, "reads_done"), "json rping: no READ counts");
		has(got, "\"exit_code\": 0, \"ok\": true}\n", "json rping: ok");
		free(got);
		free(pg);
	}
	free(rd);
	free(wr);
}

int main(void)
{
	test_json_checker();
	test_json();
	return tap_done();
}
