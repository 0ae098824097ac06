/* SPDX-License-Identifier: BSD-2-Clause */
/* test-stats.c - counters, histograms and names of stats.c. */
#include <stdint.h>
#include <string.h>

#include "core/stats.h"
#include "tap.h"

/* Verbs status numbers (enum ibv_wc_status, a stable ABI). */
#define WC_SUCCESS		0
#define WC_LOC_LEN_ERR		1
#define WC_WR_FLUSH_ERR		5
#define WC_REM_ACCESS_ERR	10
#define WC_RETRY_EXC_ERR	12
#define WC_TM_RNDV_INCOMPLETE	23
#define WC_OTHER		(STATS_WC_STATUS_N - 1)

/* Index of the only non-empty bucket of H, -1 if none or several. */
static int only_bucket(const struct stats_hist *h)
{
	int found = -1;
	unsigned int i;

	for (i = 0; i <= STATS_HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		if (found >= 0)
			return -1;
		found = (int)i;
	}
	return found;
}

static int hist_empty(const struct stats_hist *h)
{
	unsigned int i;

	for (i = 0; i <= STATS_HIST_BUCKETS; i++)
		if (h->bucket[i])
			return 0;
	return h->count == 0 && h->sum_ns == 0;
}

static uint64_t bucket_sum(const struct stats_hist *h)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i <= STATS_HIST_BUCKETS; i++)
		n += h->bucket[i];
	return n;
}

/* One value into a fresh histogram lands in bucket WANT. */
static int lands_in(uint64_t ns, int want)
{
	struct stats_hist h;
	int got;

	memset(&h, 0, sizeof(h));
	stats_hist_add(&h, ns);
	got = only_bucket(&h);
	if (got != want || h.count != 1 || h.sum_ns != ns) {
		tap_diag("%llu ns: bucket %d (want %d), count %llu, sum %llu",
			 (unsigned long long)ns, got, want,
			 (unsigned long long)h.count,
			 (unsigned long long)h.sum_ns);
		return 0;
	}
	return 1;
}

static void test_bounds(void)
{
	static const uint64_t want[STATS_HIST_BUCKETS] = {
		10000ull, 25000ull, 50000ull, 100000ull, 250000ull,
		500000ull, 1000000ull, 2500000ull, 5000000ull, 10000000ull,
		25000000ull, 50000000ull, 100000000ull, 250000000ull,
		500000000ull, 1000000000ull, 2500000000ull, 5000000000ull,
		10000000000ull, 30000000000ull, 60000000000ull,
		300000000000ull,
	};
	unsigned int i;
	int ok = 1;

	for (i = 0; i < STATS_HIST_BUCKETS; i++)
		if (stats_hist_bounds_ns[i] != want[i]) {
			tap_diag("bound %u: %llu, want %llu", i,
				 (unsigned long long)stats_hist_bounds_ns[i],
				 (unsigned long long)want[i]);
			ok = 0;
		}
	tap_ok(ok, "bounds: 10us .. 300s, the documented 22");
	ok = 1;
	for (i = 1; i < STATS_HIST_BUCKETS; i++)
		if (stats_hist_bounds_ns[i] <= stats_hist_bounds_ns[i - 1])
			ok = 0;
	tap_ok(ok, "bounds strictly increasing");
}

static void test_hist_placement(void)
{
	unsigned int i;
	int at = 1, above = 1, below = 1;
	struct stats_hist h;
	uint64_t sum = 0;

	for (i = 0; i < STATS_HIST_BUCKETS; i++) {
		uint64_t b = stats_hist_bounds_ns[i];

		if (!lands_in(b, (int)i))
			at = 0;
		if (!lands_in(b + 1, (int)i + 1))
			above = 0;
		if (!lands_in(b - 1, (int)i))
			below = 0;
	}
	tap_ok(at, "hist: a value equal to a bound goes in that bucket");
	tap_ok(above, "hist: bound + 1 goes in the next bucket (+Inf last)");
	tap_ok(below, "hist: bound - 1 stays in the bucket");
	tap_ok(lands_in(0, 0) && lands_in(1, 0),
	       "hist: 0 and 1 ns in the first");
	tap_ok(lands_in(300000000001ull, STATS_HIST_BUCKETS) &&
	       lands_in(3600ull * 1000000000ull, STATS_HIST_BUCKETS) &&
	       lands_in(UINT64_MAX, STATS_HIST_BUCKETS),
	       "hist: past 300s and UINT64_MAX in +Inf");

	memset(&h, 0, sizeof(h));
	for (i = 0; i < STATS_HIST_BUCKETS; i++) {
		stats_hist_add(&h, stats_hist_bounds_ns[i]);
		sum += stats_hist_bounds_ns[i];
	}
	stats_hist_add(&h, 400000000000ull);
	sum += 400000000000ull;
	stats_hist_add(&h, 7);
	sum += 7;
	for (i = 0; i < STATS_HIST_BUCKETS; i++)
		if (h.bucket[i] != (i == 0 ? 2u : 1u))
			break;
	tap_ok(i == STATS_HIST_BUCKETS && h.bucket[STATS_HIST_BUCKETS] == 1,
	       "hist: one per bound, 7ns in the first, one in +Inf");
	tap_ok(h.count == STATS_HIST_BUCKETS + 2 && bucket_sum(&h) == h.count,
	       "hist: count is the number added and the buckets' sum");
	tap_ok(h.sum_ns == sum, "hist: sum_ns is the sum of the values");
}

static void test_connections(void)
{
	struct stats s;
	int i, all_ok = 1;

	memset(&s, 0xa5, sizeof(s));
	stats_init(&s);
	tap_ok(stats_accepted_total(&s) == 0 && stats_active_total(&s) == 0 &&
	       stats_rejects_total(&s) == 0 && stats_sessions_failed(&s) == 0 &&
	       hist_empty(&s.session[0]) && hist_empty(&s.rdma_op[1]) &&
	       s.wc_errors[WC_OTHER] == 0,
	       "init zeroes everything");

	stats_accepted(&s, STATS_PROTO_NATIVE);
	stats_accepted(&s, STATS_PROTO_NATIVE);
	stats_accepted(&s, STATS_PROTO_RPING);
	tap_ok(s.accepted[STATS_PROTO_NATIVE] == 2 &&
	       s.accepted[STATS_PROTO_RPING] == 1 &&
	       s.active[STATS_PROTO_NATIVE] == 2 &&
	       s.active[STATS_PROTO_RPING] == 1,
	       "accepted: counted and active, per protocol");
	tap_ok(stats_accepted_total(&s) == 3 && stats_active_total(&s) == 3,
	       "accepted/active totals");

	stats_established(&s, STATS_PROTO_RPING, 30000);
	tap_ok(s.connect[STATS_PROTO_RPING].count == 1 &&
	       only_bucket(&s.connect[STATS_PROTO_RPING]) == 2 &&
	       hist_empty(&s.connect[STATS_PROTO_NATIVE]) &&
	       hist_empty(&s.session[STATS_PROTO_RPING]),
	       "established: the connect histogram of that protocol only");

	stats_closed(&s, STATS_PROTO_NATIVE, STATS_RES_OK, 2000000000ull);
	tap_ok(s.active[STATS_PROTO_NATIVE] == 1 &&
	       s.accepted[STATS_PROTO_NATIVE] == 2 &&
	       s.sessions[STATS_PROTO_NATIVE][STATS_RES_OK] == 1 &&
	       s.session[STATS_PROTO_NATIVE].count == 1 &&
	       s.session[STATS_PROTO_NATIVE].sum_ns == 2000000000ull &&
	       only_bucket(&s.session[STATS_PROTO_NATIVE]) == 16 &&
	       hist_empty(&s.session[STATS_PROTO_RPING]),
	       "closed: active down, session counted, session histogram");

	stats_closed(&s, STATS_PROTO_RPING, STATS_RES_TIMEOUT, 1);
	stats_closed(&s, STATS_PROTO_RPING, STATS_RES_TIMEOUT, 1);
	stats_closed(&s, STATS_PROTO_RPING, STATS_RES_MISMATCH, 1);
	tap_ok(s.active[STATS_PROTO_RPING] == 0 &&
	       s.active[STATS_PROTO_NATIVE] == 1,
	       "closed more than accepted: active stays 0, no underflow");
	tap_ok(s.sessions[STATS_PROTO_RPING][STATS_RES_TIMEOUT] == 2 &&
	       s.sessions[STATS_PROTO_RPING][STATS_RES_MISMATCH] == 1 &&
	       s.sessions[STATS_PROTO_NATIVE][STATS_RES_TIMEOUT] == 0 &&
	       s.session[STATS_PROTO_RPING].count == 3,
	       "sessions by protocol and result, even past active 0");
	tap_ok(stats_active_total(&s) == 1 && stats_accepted_total(&s) == 3,
	       "totals after closes");
	tap_ok(stats_sessions_failed(&s) == 3,
	       "sessions_failed: every result but ok (3)");

	stats_closed(&s, STATS_PROTO_NATIVE, STATS_RES_INTERNAL_ERROR, 5);
	stats_closed(&s, STATS_PROTO_NATIVE, STATS_RES_OK, 5);
	tap_ok(stats_sessions_failed(&s) == 4 &&
	       s.sessions[STATS_PROTO_NATIVE][STATS_RES_INTERNAL_ERROR] == 1 &&
	       s.sessions[STATS_PROTO_NATIVE][STATS_RES_OK] == 2 &&
	       s.active[STATS_PROTO_NATIVE] == 0,
	       "sessions_failed counts the last result, not ok");

	for (i = 0; i < STATS_REJ_N; i++) {
		int k;

		for (k = 0; k <= i; k++)
			stats_rejected(&s, (enum stats_reject)i);
	}
	for (i = 0; i < STATS_REJ_N; i++)
		if (s.rejects[i] != (uint64_t)i + 1)
			all_ok = 0;
	tap_ok(all_ok, "rejects: one counter per reason");
	tap_ok(stats_rejects_total(&s) ==
	       (uint64_t)STATS_REJ_N * (STATS_REJ_N + 1) / 2,
	       "rejects_total sums every reason");
	tap_ok(stats_accepted_total(&s) == 3,
	       "rejects are not accepted connections");
}

static void test_rdma(void)
{
	struct stats s;

	stats_init(&s);
	stats_rdma(&s, STATS_PROTO_NATIVE, STATS_OP_READ, 3, 12288, 0);
	tap_ok(s.ops[STATS_PROTO_NATIVE][STATS_OP_READ] == 3 &&
	       s.bytes[STATS_PROTO_NATIVE][STATS_OP_READ] == 12288,
	       "rdma: operations and bytes counted");
	tap_ok(hist_empty(&s.rdma_op[STATS_OP_READ]) &&
	       hist_empty(&s.rdma_op[STATS_OP_WRITE]),
	       "rdma: latency 0 leaves the histogram alone");
	tap_ok(s.ops[STATS_PROTO_NATIVE][STATS_OP_WRITE] == 0 &&
	       s.ops[STATS_PROTO_RPING][STATS_OP_READ] == 0 &&
	       s.bytes[STATS_PROTO_RPING][STATS_OP_READ] == 0,
	       "rdma: other protocol/operation untouched");

	stats_rdma(&s, STATS_PROTO_RPING, STATS_OP_WRITE, 1, 4096, 30000);
	stats_rdma(&s, STATS_PROTO_RPING, STATS_OP_WRITE, 2, 8192, 10000);
	tap_ok(s.ops[STATS_PROTO_RPING][STATS_OP_WRITE] == 3 &&
	       s.bytes[STATS_PROTO_RPING][STATS_OP_WRITE] == 12288,
	       "rdma: counts accumulate");
	tap_ok(s.rdma_op[STATS_OP_WRITE].count == 2 &&
	       s.rdma_op[STATS_OP_WRITE].sum_ns == 40000 &&
	       s.rdma_op[STATS_OP_WRITE].bucket[0] == 1 &&
	       s.rdma_op[STATS_OP_WRITE].bucket[2] == 1 &&
	       hist_empty(&s.rdma_op[STATS_OP_READ]),
	       "rdma: a latency goes in that operation's histogram, once "
	       "per call");
	stats_rdma(&s, STATS_PROTO_NATIVE, STATS_OP_WRITE, 0, 0, 0);
	tap_ok(s.ops[STATS_PROTO_NATIVE][STATS_OP_WRITE] == 0 &&
	       s.rdma_op[STATS_OP_WRITE].count == 2,
	       "rdma: nothing moved, nothing counted");
	tap_ok(stats_sessions_failed(&s) == 0 && stats_accepted_total(&s) == 0,
	       "rdma: no session counters touched");
}

static void test_wc(void)
{
	struct stats s;
	unsigned int i;
	int ok = 1;

	tap_ok(!stats_wc_countable(WC_SUCCESS) &&
	       !stats_wc_countable(WC_WR_FLUSH_ERR),
	       "wc: SUCCESS and WR_FLUSH_ERR not countable");
	for (i = 0; i < STATS_WC_STATUS_N; i++)
		if (i != WC_SUCCESS && i != WC_WR_FLUSH_ERR &&
		    !stats_wc_countable(i))
			ok = 0;
	tap_ok(ok, "wc: every other slot countable, 'other' included");
	tap_ok(!stats_wc_countable(STATS_WC_STATUS_N) &&
	       !stats_wc_countable(1000) && !stats_wc_countable(UINT32_MAX),
	       "wc: no slot past the table");

	stats_init(&s);
	stats_wc_error(&s, WC_REM_ACCESS_ERR);
	stats_wc_error(&s, WC_REM_ACCESS_ERR);
	stats_wc_error(&s, WC_LOC_LEN_ERR);
	stats_wc_error(&s, WC_TM_RNDV_INCOMPLETE);
	tap_ok(s.wc_errors[WC_REM_ACCESS_ERR] == 2 &&
	       s.wc_errors[WC_LOC_LEN_ERR] == 1 &&
	       s.wc_errors[WC_TM_RNDV_INCOMPLETE] == 1 &&
	       s.wc_errors[WC_OTHER] == 0,
	       "wc: known statuses in their own slot (the last one too)");
	stats_wc_error(&s, WC_OTHER);
	stats_wc_error(&s, STATS_WC_STATUS_N);
	stats_wc_error(&s, 1000);
	stats_wc_error(&s, UINT32_MAX);
	tap_ok(s.wc_errors[WC_OTHER] == 4 &&
	       s.wc_errors[WC_TM_RNDV_INCOMPLETE] == 1,
	       "wc: statuses past the table go to 'other'");
	tap_ok(s.wc_errors[WC_SUCCESS] == 0 &&
	       s.wc_errors[WC_WR_FLUSH_ERR] == 0 &&
	       s.wc_errors[WC_RETRY_EXC_ERR] == 0,
	       "wc: no other slot touched");
	tap_ok(stats_sessions_failed(&s) == 0 && stats_rejects_total(&s) == 0,
	       "wc: errors are not sessions or rejects");
}

/* NAME(0..N-1) are distinct and non-empty, NAME(N) and NAME(-1) "?". */
#define CHECK_NAMES(fn, type, n, what)					\
	do {								\
		int i_, j_, ok_ = 1;					\
									\
		for (i_ = 0; i_ < (n); i_++) {				\
			const char *a_ = fn((type)i_);			\
									\
			if (!a_ || !*a_ || !strcmp(a_, "?")) {		\
				ok_ = 0;				\
				continue;				\
			}						\
			for (j_ = 0; j_ < i_; j_++)			\
				if (fn((type)j_) &&			\
				    !strcmp(a_, fn((type)j_)))		\
					ok_ = 0;			\
		}							\
		tap_ok(ok_, "names: %s distinct and non-empty", what);	\
		tap_ok(!strcmp(fn((type)(n)), "?") &&			\
		       !strcmp(fn((type)((n) + 7)), "?") &&		\
		       !strcmp(fn((type)-1), "?"),			\
		       "names: %s out of range is '?'", what);		\
	} while (0)

static void test_names(void)
{
	unsigned int i, j;
	int ok = 1;

	CHECK_NAMES(stats_proto_name, enum stats_proto, STATS_PROTO_N,
		    "protocols");
	CHECK_NAMES(stats_op_name, enum stats_op, STATS_OP_N, "operations");
	CHECK_NAMES(stats_result_name, enum stats_result, STATS_RES_N,
		    "results");
	CHECK_NAMES(stats_reject_name, enum stats_reject, STATS_REJ_N,
		    "rejects");

	tap_ok(!strcmp(stats_proto_name(STATS_PROTO_NATIVE), "native") &&
	       !strcmp(stats_proto_name(STATS_PROTO_RPING), "rping") &&
	       !strcmp(stats_op_name(STATS_OP_READ), "read") &&
	       !strcmp(stats_op_name(STATS_OP_WRITE), "write"),
	       "names: protocols and operations as documented");
	tap_ok(!strcmp(stats_result_name(STATS_RES_OK), "ok") &&
	       !strcmp(stats_result_name(STATS_RES_BAD_DONE), "bad-done") &&
	       !strcmp(stats_result_name(STATS_RES_COMPLETION_ERROR),
		       "completion-error") &&
	       !strcmp(stats_result_name(STATS_RES_INTERNAL_ERROR),
		       "internal-error") &&
	       !strcmp(stats_result_name(STATS_RES_PEER_UNREACHABLE),
		       "peer-unreachable") && STATS_RES_N == 17,
	       "names: results as RDMAD_RESULT (17)");
	tap_ok(!strcmp(stats_reject_name(STATS_REJ_DENIED), "denied") &&
	       !strcmp(stats_reject_name(STATS_REJ_BUSY_HOST), "busy-host") &&
	       !strcmp(stats_reject_name(STATS_REJ_ACCEPT_FAILED),
		       "accept-failed") && STATS_REJ_N == 9,
	       "names: reject reasons as documented (9)");

	for (i = 0; i < STATS_WC_STATUS_N; i++) {
		const char *a = stats_wc_status_name(i);

		if (!a || !*a) {
			ok = 0;
			continue;
		}
		for (j = 0; j < i; j++)
			if (stats_wc_status_name(j) &&
			    !strcmp(a, stats_wc_status_name(j)))
				ok = 0;
	}
	tap_ok(ok, "names: wc statuses distinct and non-empty");
	tap_ok(!strcmp(stats_wc_status_name(WC_SUCCESS), "SUCCESS") &&
	       !strcmp(stats_wc_status_name(WC_LOC_LEN_ERR), "LOC_LEN_ERR") &&
	       !strcmp(stats_wc_status_name(WC_WR_FLUSH_ERR), "WR_FLUSH_ERR") &&
	       !strcmp(stats_wc_status_name(WC_REM_ACCESS_ERR),
		       "REM_ACCESS_ERR") &&
	       !strcmp(stats_wc_status_name(WC_RETRY_EXC_ERR),
		       "RETRY_EXC_ERR") &&
	       !strcmp(stats_wc_status_name(WC_TM_RNDV_INCOMPLETE),
		       "TM_RNDV_INCOMPLETE"),
	       "names: wc statuses are the verbs names without IBV_WC_");
	tap_ok(!strcmp(stats_wc_status_name(WC_OTHER), "other") &&
	       !strcmp(stats_wc_status_name(STATS_WC_STATUS_N), "other") &&
	       !strcmp(stats_wc_status_name(UINT32_MAX), "other"),
	       "names: wc 'other' for the last slot and past the table");
}

static void test_ports(void)
{
	struct stats s;
	char dev[32];
	unsigned int i;

	stats_init(&s);
	stats_port(&s, "rxe0", 1, false);
	tap_ok(s.n_ports == 1 && !strcmp(s.ports[0].device, "rxe0") &&
	       s.ports[0].port == 1 && !s.ports[0].up &&
	       s.ports[0].changes == 1,
	       "ports: the first event makes a row, and is a change");
	stats_port(&s, "rxe0", 1, false);
	stats_port(&s, "rxe0", 1, true);
	stats_port(&s, "rxe0", 1, true);
	tap_ok(s.n_ports == 1 && s.ports[0].up && s.ports[0].changes == 2,
	       "ports: a repeated state is no change, down -> up is");
	stats_port(&s, "rxe0", 2, true);
	stats_port(&s, "mlx5_0", 1, true);
	tap_ok(s.n_ports == 3 && s.ports[1].port == 2 &&
	       !strcmp(s.ports[2].device, "mlx5_0") && s.ports[0].changes == 2,
	       "ports: by device and port number");
	for (i = 0; i < 2 * STATS_PORTS_MAX; i++) {
		snprintf(dev, sizeof(dev), "dev%u", i);
		stats_port(&s, dev, 1, true);
	}
	tap_ok(s.n_ports == STATS_PORTS_MAX &&
	       !strcmp(s.ports[STATS_PORTS_MAX - 1].device, "dev12"),
	       "ports: at most %u, the first seen", STATS_PORTS_MAX);
	stats_port(&s, "a-device-name-longer-than-31-chars", 1, false);
	tap_ok(s.n_ports == STATS_PORTS_MAX, "ports: a full table stays full");

	/* Seen at registration: a row from the start, no change. */
	stats_init(&s);
	stats_port_seen(&s, "rxe0", 1, true);
	tap_ok(s.n_ports == 1 && s.ports[0].up && s.ports[0].changes == 0,
	       "ports: the state at registration is no change");
	stats_port_seen(&s, "rxe0", 1, true);
	stats_port(&s, "rxe0", 1, false);
	tap_ok(!s.ports[0].up && s.ports[0].changes == 1,
	       "ports: then a change is one");
	stats_port_seen(&s, "rxe0", 1, true);
	tap_ok(s.ports[0].up && s.ports[0].changes == 2,
	       "ports: seen again (re-registered) in another state: a change");
}

int main(void)
{
	test_bounds();
	test_hist_placement();
	test_connections();
	test_rdma();
	test_wc();
	test_names();
	test_ports();
	return tap_done();
}
