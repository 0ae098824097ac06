/* SPDX-License-Identifier: BSD-2-Clause */
/* test-rdma-client-fsm.c - the client connection's state machine, table-driven. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "rdma_client_fsm.h"
#include "proto.h"
#include "tap.h"

#define RW	(PROTO_OP_READ | PROTO_OP_WRITE)
#define T	RDMA_CLIENT_ACT_ARM_TIMER

struct row {
	enum rdma_client_event ev;
	enum rdma_client_state want;
	uint32_t act;		/* exact action mask expected */
	int ret;		/* expected return of rdma_client_fsm_step */
};

static int transitions;
static bool transition_ok = true;

static void on_transition(void *arg, enum rdma_client_state from,
			  enum rdma_client_state to, enum rdma_client_event ev)
{
	struct rdma_client_fsm *f = arg;

	transitions++;
	if (from == to || f->state != to)
		transition_ok = false;
}

static void init(struct rdma_client_fsm *f, bool rping, uint8_t ops,
		 uint32_t iters, bool verify)
{
	rdma_client_fsm_init(f, rping, ops, iters, verify);
	f->on_transition = on_transition;
	f->arg = f;
}

/* Feed the rows; report the first one that differs. */
static bool run(struct rdma_client_fsm *f, const struct row *rows, size_t n,
		const char *name)
{
	struct rdma_client_step st;
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = rdma_client_fsm_step(f, rows[i].ev, &st);
		if (ret != rows[i].ret || f->state != rows[i].want ||
		    st.act != rows[i].act) {
			tap_diag("%s row %zu: %s -> state %s act 0x%x ret %d, "
				 "want %s act 0x%x ret %d", name, i,
				 rdma_client_fsm_event_str(rows[i].ev),
				 rdma_client_fsm_state_str(f->state), st.act, ret,
				 rdma_client_fsm_state_str(rows[i].want), rows[i].act,
				 rows[i].ret);
			return false;
		}
	}
	return true;
}

#define RUN(f, rows, name) run(f, rows, sizeof(rows) / sizeof(rows[0]), name)

static const struct row setup[] = {
	{ RDMA_CLIENT_EV_START, RDMA_CLIENT_ST_ADDR, RDMA_CLIENT_ACT_RESOLVE_ADDR | T, 0 },
	{ RDMA_CLIENT_EV_ADDR_OK, RDMA_CLIENT_ST_ROUTE, RDMA_CLIENT_ACT_RESOLVE_ROUTE | T, 0 },
	{ RDMA_CLIENT_EV_ROUTE_OK, RDMA_CLIENT_ST_CONNECT, RDMA_CLIENT_ACT_CONNECT | T, 0 },
};

static void test_native_both(void)
{
	static const struct row rows[] = {
		{ RDMA_CLIENT_EV_ESTABLISHED, RDMA_CLIENT_ST_DESC, T, 0 },
		{ RDMA_CLIENT_EV_DESC_OK, RDMA_CLIENT_ST_OPS, RDMA_CLIENT_ACT_POST_READ | T, 0 },
		{ RDMA_CLIENT_EV_OP_DONE, RDMA_CLIENT_ST_VERIFY, RDMA_CLIENT_ACT_VERIFY_READ, 0 },
		{ RDMA_CLIENT_EV_CHECK_OK, RDMA_CLIENT_ST_OPS, RDMA_CLIENT_ACT_POST_READ | T, 0 },
		{ RDMA_CLIENT_EV_OP_DONE, RDMA_CLIENT_ST_VERIFY, RDMA_CLIENT_ACT_VERIFY_READ, 0 },
		{ RDMA_CLIENT_EV_CHECK_OK, RDMA_CLIENT_ST_OPS, RDMA_CLIENT_ACT_POST_WRITE | T, 0 },
		{ RDMA_CLIENT_EV_OP_DONE, RDMA_CLIENT_ST_OPS, RDMA_CLIENT_ACT_POST_WRITE | T, 0 },
		{ RDMA_CLIENT_EV_OP_DONE, RDMA_CLIENT_ST_RESULT, RDMA_CLIENT_ACT_SEND_DONE | T, 0 },
		{ RDMA_CLIENT_EV_RESULT_OK, RDMA_CLIENT_ST_CLOSING, RDMA_CLIENT_ACT_DISCONNECT | T, 0 },
		{ RDMA_CLIENT_EV_WC_ERR, RDMA_CLIENT_ST_CLOSING, 0, 0 },	/* flushed */
		{ RDMA_CLIENT_EV_DISCONNECTED, RDMA_CLIENT_ST_DONE, RDMA_CLIENT_ACT_FINISH, 0 },
		{ RDMA_CLIENT_EV_TIMEOUT, RDMA_CLIENT_ST_DONE, 0, 0 },	/* ignored */
	};
	struct rdma_client_fsm f;
	bool ok;

	transitions = 0;
	transition_ok = true;
	init(&f, false, RW, 2, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, rows, "native both");
	tap_ok(ok && f.fail == RDMA_CLIENT_FAIL_NONE && f.reads_done == 2 &&
	       f.writes_done == 2, "native READ+WRITE: reads first, then "
	       "writes, DONE, RESULT, disconnect");
	tap_ok(transition_ok && transitions == 12,
	       "the setter reports every state change once (%d)", transitions);
}

static void test_native_iters(void)
{
	struct rdma_client_fsm f;
	struct rdma_client_step st;
	uint32_t i, reads = 0, writes = 0;

	init(&f, false, PROTO_OP_WRITE, 5, true);
	run(&f, setup, 3, "setup");
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_DESC_OK, &st);	/* early DESC */
	tap_ok(f.state == RDMA_CLIENT_ST_CONNECT && f.desc_ready && st.act == 0,
	       "DESC before ESTABLISHED is kept, no action yet");
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_ESTABLISHED, &st);
	tap_ok(f.state == RDMA_CLIENT_ST_OPS && (st.act & RDMA_CLIENT_ACT_POST_WRITE) &&
	       st.iter == 0, "ESTABLISHED after DESC starts the WRITEs");
	for (i = 0; i < 10 && f.state == RDMA_CLIENT_ST_OPS; i++) {
		if (st.act & RDMA_CLIENT_ACT_POST_WRITE && st.iter == writes)
			writes++;
		rdma_client_fsm_step(&f, RDMA_CLIENT_EV_OP_DONE, &st);
	}
	tap_ok(writes == 5 && reads == 0 && f.state == RDMA_CLIENT_ST_RESULT &&
	       st.act == (RDMA_CLIENT_ACT_SEND_DONE | T),
	       "write only: 5 WRITEs with iterations 0..4, then DONE");

	init(&f, false, PROTO_OP_READ, 3, false);
	run(&f, setup, 3, "setup");
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_ESTABLISHED, &st);
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_DESC_OK, &st);
	for (i = 0; i < 10 && f.state == RDMA_CLIENT_ST_OPS; i++)
		rdma_client_fsm_step(&f, RDMA_CLIENT_EV_OP_DONE, &st);
	tap_ok(f.reads_done == 3 && f.state == RDMA_CLIENT_ST_RESULT,
	       "read only without verification: no VERIFY step");
}

static void test_rping(void)
{
	static const struct row rows[] = {
		{ RDMA_CLIENT_EV_ESTABLISHED, RDMA_CLIENT_ST_RPING_SRC,
		  RDMA_CLIENT_ACT_SEND_SOURCE | T, 0 },
		{ RDMA_CLIENT_EV_GO_AHEAD, RDMA_CLIENT_ST_RPING_SINK,
		  RDMA_CLIENT_ACT_SEND_SINK | T, 0 },
		{ RDMA_CLIENT_EV_GO_AHEAD, RDMA_CLIENT_ST_VERIFY, RDMA_CLIENT_ACT_VERIFY_SINK, 0 },
		{ RDMA_CLIENT_EV_CHECK_OK, RDMA_CLIENT_ST_RPING_SRC,
		  RDMA_CLIENT_ACT_SEND_SOURCE | T, 0 },
		{ RDMA_CLIENT_EV_GO_AHEAD, RDMA_CLIENT_ST_RPING_SINK,
		  RDMA_CLIENT_ACT_SEND_SINK | T, 0 },
		{ RDMA_CLIENT_EV_GO_AHEAD, RDMA_CLIENT_ST_VERIFY, RDMA_CLIENT_ACT_VERIFY_SINK, 0 },
		{ RDMA_CLIENT_EV_CHECK_OK, RDMA_CLIENT_ST_CLOSING,
		  RDMA_CLIENT_ACT_DISCONNECT | T, 0 },
		{ RDMA_CLIENT_EV_DISCONNECTED, RDMA_CLIENT_ST_DONE, RDMA_CLIENT_ACT_FINISH, 0 },
	};
	static const struct row bad[] = {
		{ RDMA_CLIENT_EV_ESTABLISHED, RDMA_CLIENT_ST_RPING_SRC,
		  RDMA_CLIENT_ACT_SEND_SOURCE | T, 0 },
		{ RDMA_CLIENT_EV_GO_AHEAD, RDMA_CLIENT_ST_RPING_SINK,
		  RDMA_CLIENT_ACT_SEND_SINK | T, 0 },
		{ RDMA_CLIENT_EV_GO_AHEAD, RDMA_CLIENT_ST_VERIFY, RDMA_CLIENT_ACT_VERIFY_SINK, 0 },
		{ RDMA_CLIENT_EV_CHECK_BAD, RDMA_CLIENT_ST_CLOSING,
		  RDMA_CLIENT_ACT_DISCONNECT | T, 0 },
		{ RDMA_CLIENT_EV_DISCONNECTED, RDMA_CLIENT_ST_FAILED, RDMA_CLIENT_ACT_FINISH, 0 },
	};
	struct rdma_client_fsm f;
	bool ok;

	init(&f, true, 0, 2, false);
	ok = RUN(&f, setup, "setup") && RUN(&f, rows, "rping");
	tap_ok(ok && f.fail == RDMA_CLIENT_FAIL_NONE && f.pings_done == 2 &&
	       f.verify, "rping: source advert, sink advert, verify, twice");

	init(&f, true, 0, 2, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, bad, "rping mismatch");
	tap_ok(ok && f.fail == RDMA_CLIENT_FAIL_MISMATCH &&
	       rdma_client_fsm_fail_code(f.fail) == 9,
	       "rping sink mismatch: disconnect, then FAILED with exit 9");

	init(&f, true, 0, 2, true);
	run(&f, setup, 3, "setup");
	tap_ok(rdma_client_fsm_step(&f, RDMA_CLIENT_EV_DESC_OK, &(struct rdma_client_step){ 0 })
	       == -EPROTO && f.state == RDMA_CLIENT_ST_FAILED &&
	       f.fail == RDMA_CLIENT_FAIL_PROTOCOL,
	       "rping: a DESC is illegal");
}

struct fail_case {
	const char *name;
	enum rdma_client_state at;	/* reach this state first */
	enum rdma_client_event ev;
	enum rdma_client_state want;
	uint32_t act;
	enum rdma_client_fail fail;
	int ret;
};

/* Events that take a fresh native READ+WRITE fsm (iters 1) to state s. */
static void reach(struct rdma_client_fsm *f, enum rdma_client_state s)
{
	static const enum rdma_client_event path[] = {
		RDMA_CLIENT_EV_START, RDMA_CLIENT_EV_ADDR_OK, RDMA_CLIENT_EV_ROUTE_OK,
		RDMA_CLIENT_EV_ESTABLISHED, RDMA_CLIENT_EV_DESC_OK, RDMA_CLIENT_EV_OP_DONE,
		RDMA_CLIENT_EV_CHECK_OK, RDMA_CLIENT_EV_OP_DONE, RDMA_CLIENT_EV_RESULT_OK,
	};
	struct rdma_client_step st;
	size_t i;

	init(f, false, RW, 1, true);
	for (i = 0; i < sizeof(path) / sizeof(path[0]) && f->state != s; i++)
		rdma_client_fsm_step(f, path[i], &st);
}

static void test_failures(void)
{
	static const struct fail_case cases[] = {
		{ "ADDR_ERR", RDMA_CLIENT_ST_ADDR, RDMA_CLIENT_EV_ADDR_ERR, RDMA_CLIENT_ST_FAILED,
		  RDMA_CLIENT_ACT_FINISH, RDMA_CLIENT_FAIL_ADDR, 0 },
		{ "timeout in ADDR", RDMA_CLIENT_ST_ADDR, RDMA_CLIENT_EV_TIMEOUT,
		  RDMA_CLIENT_ST_FAILED, RDMA_CLIENT_ACT_FINISH, RDMA_CLIENT_FAIL_ADDR, 0 },
		{ "ROUTE_ERR", RDMA_CLIENT_ST_ROUTE, RDMA_CLIENT_EV_ROUTE_ERR,
		  RDMA_CLIENT_ST_FAILED, RDMA_CLIENT_ACT_FINISH, RDMA_CLIENT_FAIL_ROUTE, 0 },
		{ "timeout in ROUTE", RDMA_CLIENT_ST_ROUTE, RDMA_CLIENT_EV_TIMEOUT,
		  RDMA_CLIENT_ST_FAILED, RDMA_CLIENT_ACT_FINISH, RDMA_CLIENT_FAIL_ROUTE, 0 },
		{ "REJECTED", RDMA_CLIENT_ST_CONNECT, RDMA_CLIENT_EV_REJECTED,
		  RDMA_CLIENT_ST_FAILED, RDMA_CLIENT_ACT_FINISH, RDMA_CLIENT_FAIL_REJECTED, 0 },
		{ "CONN_ERR", RDMA_CLIENT_ST_CONNECT, RDMA_CLIENT_EV_CONN_ERR,
		  RDMA_CLIENT_ST_FAILED, RDMA_CLIENT_ACT_FINISH, RDMA_CLIENT_FAIL_CONNECT, 0 },
		{ "timeout in CONNECT", RDMA_CLIENT_ST_CONNECT, RDMA_CLIENT_EV_TIMEOUT,
		  RDMA_CLIENT_ST_FAILED, RDMA_CLIENT_ACT_FINISH, RDMA_CLIENT_FAIL_TIMEOUT, 0 },
		{ "bad welcome", RDMA_CLIENT_ST_CONNECT, RDMA_CLIENT_EV_PROTO_ERR,
		  RDMA_CLIENT_ST_CLOSING, RDMA_CLIENT_ACT_DISCONNECT | T,
		  RDMA_CLIENT_FAIL_PROTOCOL, 0 },
		{ "local error in CONNECT", RDMA_CLIENT_ST_CONNECT,
		  RDMA_CLIENT_EV_LOCAL_ERR, RDMA_CLIENT_ST_FAILED, RDMA_CLIENT_ACT_FINISH,
		  RDMA_CLIENT_FAIL_LOCAL, 0 },
		{ "timeout in DESC", RDMA_CLIENT_ST_DESC, RDMA_CLIENT_EV_TIMEOUT,
		  RDMA_CLIENT_ST_CLOSING, RDMA_CLIENT_ACT_DISCONNECT | T,
		  RDMA_CLIENT_FAIL_TIMEOUT, 0 },
		{ "bad DESC", RDMA_CLIENT_ST_DESC, RDMA_CLIENT_EV_PROTO_ERR,
		  RDMA_CLIENT_ST_CLOSING, RDMA_CLIENT_ACT_DISCONNECT | T,
		  RDMA_CLIENT_FAIL_PROTOCOL, 0 },
		{ "WC_ERR in OPS", RDMA_CLIENT_ST_OPS, RDMA_CLIENT_EV_WC_ERR,
		  RDMA_CLIENT_ST_CLOSING, RDMA_CLIENT_ACT_DISCONNECT | T,
		  RDMA_CLIENT_FAIL_COMPLETION, 0 },
		{ "peer gone in OPS", RDMA_CLIENT_ST_OPS, RDMA_CLIENT_EV_DISCONNECTED,
		  RDMA_CLIENT_ST_FAILED, RDMA_CLIENT_ACT_FINISH, RDMA_CLIENT_FAIL_COMPLETION, 0 },
		{ "unreachable in OPS (partition)", RDMA_CLIENT_ST_OPS,
		  RDMA_CLIENT_EV_CONN_ERR, RDMA_CLIENT_ST_CLOSING,
		  RDMA_CLIENT_ACT_DISCONNECT | T, RDMA_CLIENT_FAIL_COMPLETION, 0 },
		{ "READ mismatch", RDMA_CLIENT_ST_VERIFY, RDMA_CLIENT_EV_CHECK_BAD,
		  RDMA_CLIENT_ST_CLOSING, RDMA_CLIENT_ACT_DISCONNECT | T,
		  RDMA_CLIENT_FAIL_MISMATCH, 0 },
		{ "RESULT mismatch", RDMA_CLIENT_ST_RESULT, RDMA_CLIENT_EV_RESULT_BAD,
		  RDMA_CLIENT_ST_CLOSING, RDMA_CLIENT_ACT_DISCONNECT | T,
		  RDMA_CLIENT_FAIL_MISMATCH, 0 },
		{ "peer gone in RESULT", RDMA_CLIENT_ST_RESULT,
		  RDMA_CLIENT_EV_DISCONNECTED, RDMA_CLIENT_ST_FAILED, RDMA_CLIENT_ACT_FINISH,
		  RDMA_CLIENT_FAIL_COMPLETION, 0 },
		{ "disconnect timeout", RDMA_CLIENT_ST_CLOSING, RDMA_CLIENT_EV_TIMEOUT,
		  RDMA_CLIENT_ST_FAILED, RDMA_CLIENT_ACT_FINISH, RDMA_CLIENT_FAIL_TIMEOUT, 0 },
		{ "second ESTABLISHED", RDMA_CLIENT_ST_OPS, RDMA_CLIENT_EV_ESTABLISHED,
		  RDMA_CLIENT_ST_CLOSING, RDMA_CLIENT_ACT_DISCONNECT | T,
		  RDMA_CLIENT_FAIL_PROTOCOL, -EPROTO },
		{ "RESULT while in OPS", RDMA_CLIENT_ST_OPS, RDMA_CLIENT_EV_RESULT_OK,
		  RDMA_CLIENT_ST_CLOSING, RDMA_CLIENT_ACT_DISCONNECT | T,
		  RDMA_CLIENT_FAIL_PROTOCOL, -EPROTO },
		{ "GO_AHEAD in native", RDMA_CLIENT_ST_DESC, RDMA_CLIENT_EV_GO_AHEAD,
		  RDMA_CLIENT_ST_CLOSING, RDMA_CLIENT_ACT_DISCONNECT | T,
		  RDMA_CLIENT_FAIL_PROTOCOL, -EPROTO },
		{ "server deadline ABORT in OPS", RDMA_CLIENT_ST_OPS,
		  RDMA_CLIENT_EV_SRV_TIMEOUT, RDMA_CLIENT_ST_CLOSING,
		  RDMA_CLIENT_ACT_DISCONNECT | T, RDMA_CLIENT_FAIL_TIMEOUT, 0 },
		{ "server shutdown ABORT in OPS", RDMA_CLIENT_ST_OPS,
		  RDMA_CLIENT_EV_SRV_ABORT, RDMA_CLIENT_ST_CLOSING,
		  RDMA_CLIENT_ACT_DISCONNECT | T, RDMA_CLIENT_FAIL_COMPLETION, 0 },
		{ "server ABORT in RESULT", RDMA_CLIENT_ST_RESULT,
		  RDMA_CLIENT_EV_SRV_ABORT, RDMA_CLIENT_ST_CLOSING,
		  RDMA_CLIENT_ACT_DISCONNECT | T, RDMA_CLIENT_FAIL_COMPLETION, 0 },
		{ "server deadline ABORT in DESC", RDMA_CLIENT_ST_DESC,
		  RDMA_CLIENT_EV_SRV_TIMEOUT, RDMA_CLIENT_ST_CLOSING,
		  RDMA_CLIENT_ACT_DISCONNECT | T, RDMA_CLIENT_FAIL_TIMEOUT, 0 },
		{ "OP_DONE before connect", RDMA_CLIENT_ST_ROUTE, RDMA_CLIENT_EV_OP_DONE,
		  RDMA_CLIENT_ST_FAILED, RDMA_CLIENT_ACT_FINISH, RDMA_CLIENT_FAIL_PROTOCOL,
		  -EPROTO },
	};
	const struct fail_case *fc;
	struct rdma_client_step st;
	struct rdma_client_fsm f;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fc = &cases[i];
		reach(&f, fc->at);
		if (f.state != fc->at) {
			tap_ok(0, "%s: could not reach %s", fc->name,
			       rdma_client_fsm_state_str(fc->at));
			continue;
		}
		ret = rdma_client_fsm_step(&f, fc->ev, &st);
		tap_ok(ret == fc->ret && f.state == fc->want &&
		       st.act == fc->act && f.fail == fc->fail,
		       "%s in %s -> %s, %s (got %s, act 0x%x, fail %s)",
		       rdma_client_fsm_event_str(fc->ev), rdma_client_fsm_state_str(fc->at),
		       rdma_client_fsm_state_str(fc->want), rdma_client_fsm_fail_str(fc->fail),
		       rdma_client_fsm_state_str(f.state), st.act,
		       rdma_client_fsm_fail_str(f.fail));
	}

	/* The first failure is kept. */
	reach(&f, RDMA_CLIENT_ST_OPS);
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_WC_ERR, &st);
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_CHECK_BAD, &st);
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_TIMEOUT, &st);
	tap_ok(f.state == RDMA_CLIENT_ST_FAILED && f.fail == RDMA_CLIENT_FAIL_COMPLETION,
	       "the first failure's class is kept through closing");

	/* ABORT, then the server's disconnect: the ABORT's class stays. */
	reach(&f, RDMA_CLIENT_ST_OPS);
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_SRV_TIMEOUT, &st);
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_WC_ERR, &st);
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_DISCONNECTED, &st);
	tap_ok(f.state == RDMA_CLIENT_ST_FAILED && f.fail == RDMA_CLIENT_FAIL_TIMEOUT &&
	       rdma_client_fsm_fail_code(f.fail) == 6,
	       "server deadline ABORT, then disconnect: timed out, exit 6");
}

/* Which class a server's ABORT reason stands for. */
static void test_abort_reasons(void)
{
	static const struct {
		uint8_t reason;
		enum rdma_client_event ev;
	} t[] = {
		{ PROTO_ABORT_SESSION, RDMA_CLIENT_EV_SRV_TIMEOUT },
		{ PROTO_ABORT_DURATION, RDMA_CLIENT_EV_SRV_TIMEOUT },
		{ PROTO_ABORT_IDLE, RDMA_CLIENT_EV_SRV_TIMEOUT },
		{ PROTO_ABORT_STALLED, RDMA_CLIENT_EV_SRV_TIMEOUT },
		{ PROTO_ABORT_PROTOCOL, RDMA_CLIENT_EV_PROTO_ERR },
		{ PROTO_ABORT_AUTH, RDMA_CLIENT_EV_KEY_ERR },
		{ PROTO_ABORT_SHUTDOWN, RDMA_CLIENT_EV_SRV_ABORT },
		{ 0, RDMA_CLIENT_EV_SRV_ABORT },
		{ 99, RDMA_CLIENT_EV_SRV_ABORT },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		tap_ok(rdma_client_fsm_abort_event(t[i].reason) == t[i].ev,
		       "ABORT reason %u -> %s", t[i].reason,
		       rdma_client_fsm_event_str(t[i].ev));
}

/* A keyed server and no key (or a refused key): its own class, exit 10;
 * the connection is up, so it closes the clean way. */
static void test_key(void)
{
	struct rdma_client_step st;
	struct rdma_client_fsm f;

	reach(&f, RDMA_CLIENT_ST_CONNECT);
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_KEY_ERR, &st);
	tap_ok(f.fail == RDMA_CLIENT_FAIL_KEY && rdma_client_fsm_fail_code(f.fail) == 10 &&
	       f.state == RDMA_CLIENT_ST_CLOSING && (st.act & RDMA_CLIENT_ACT_DISCONNECT),
	       "no key at the welcome: key class, exit 10, disconnect (%s)",
	       rdma_client_fsm_state_str(f.state));
	reach(&f, RDMA_CLIENT_ST_DESC);
	rdma_client_fsm_step(&f, rdma_client_fsm_abort_event(PROTO_ABORT_AUTH), &st);
	tap_ok(f.fail == RDMA_CLIENT_FAIL_KEY && f.state == RDMA_CLIENT_ST_CLOSING,
	       "ABORT for a wrong key while waiting for DESC: key class");
}

/* The worst of two failures: a mismatch anywhere, then the larger code. */
static void test_worse(void)
{
	tap_ok(rdma_client_fsm_fail_worse(RDMA_CLIENT_FAIL_MISMATCH, RDMA_CLIENT_FAIL_KEY) &&
	       !rdma_client_fsm_fail_worse(RDMA_CLIENT_FAIL_KEY, RDMA_CLIENT_FAIL_MISMATCH),
	       "a mismatch is worse than a key failure (exit 10 > 9)");
	tap_ok(rdma_client_fsm_fail_worse(RDMA_CLIENT_FAIL_KEY, RDMA_CLIENT_FAIL_REJECTED) &&
	       rdma_client_fsm_fail_worse(RDMA_CLIENT_FAIL_TIMEOUT, RDMA_CLIENT_FAIL_REJECTED) &&
	       !rdma_client_fsm_fail_worse(RDMA_CLIENT_FAIL_REJECTED, RDMA_CLIENT_FAIL_TIMEOUT),
	       "otherwise the larger exit code");
	tap_ok(!rdma_client_fsm_fail_worse(RDMA_CLIENT_FAIL_NONE, RDMA_CLIENT_FAIL_LOCAL) &&
	       rdma_client_fsm_fail_worse(RDMA_CLIENT_FAIL_LOCAL, RDMA_CLIENT_FAIL_NONE) &&
	       !rdma_client_fsm_fail_worse(RDMA_CLIENT_FAIL_MISMATCH, RDMA_CLIENT_FAIL_MISMATCH),
	       "any failure is worse than none; nothing worse than itself");
}

/* Every state x every event: no crash, sane result, terminal is sticky. */
static void test_matrix(void)
{
	struct rdma_client_step st;
	struct rdma_client_fsm f;
	int s, e, ret, bad = 0, ignored_terminal = 1;

	for (s = 0; s < RDMA_CLIENT_ST__COUNT; s++) {
		for (e = 0; e < RDMA_CLIENT_EV__COUNT; e++) {
			reach(&f, (enum rdma_client_state)s);
			if (s == RDMA_CLIENT_ST_DONE) {
				rdma_client_fsm_step(&f, RDMA_CLIENT_EV_DISCONNECTED, &st);
			} else if (s == RDMA_CLIENT_ST_FAILED) {
				init(&f, false, RW, 1, true);
				rdma_client_fsm_step(&f, RDMA_CLIENT_EV_START, &st);
				rdma_client_fsm_step(&f, RDMA_CLIENT_EV_ADDR_ERR, &st);
			} else if (s == RDMA_CLIENT_ST_RPING_SRC ||
				   s == RDMA_CLIENT_ST_RPING_SINK) {
				init(&f, true, 0, 1, true);
				rdma_client_fsm_step(&f, RDMA_CLIENT_EV_START, &st);
				rdma_client_fsm_step(&f, RDMA_CLIENT_EV_ADDR_OK, &st);
				rdma_client_fsm_step(&f, RDMA_CLIENT_EV_ROUTE_OK, &st);
				rdma_client_fsm_step(&f, RDMA_CLIENT_EV_ESTABLISHED, &st);
				if (s == RDMA_CLIENT_ST_RPING_SINK)
					rdma_client_fsm_step(&f, RDMA_CLIENT_EV_GO_AHEAD,
						       &st);
			}
			if ((int)f.state != s) {
				tap_diag("cannot reach %s",
					 rdma_client_fsm_state_str((enum rdma_client_state)s));
				bad++;
				continue;
			}
			ret = rdma_client_fsm_step(&f, (enum rdma_client_event)e, &st);
			if (ret != 0 && ret != -EPROTO)
				bad++;
			if (ret == -EPROTO && (f.fail != RDMA_CLIENT_FAIL_PROTOCOL ||
			    (f.state != RDMA_CLIENT_ST_FAILED &&
			     f.state != RDMA_CLIENT_ST_CLOSING)))
				bad++;
			if ((s == RDMA_CLIENT_ST_DONE || s == RDMA_CLIENT_ST_FAILED) &&
			    (ret || (int)f.state != s || st.act))
				ignored_terminal = 0;
			if ((st.act & RDMA_CLIENT_ACT_FINISH) &&
			    !rdma_client_fsm_terminal(&f))
				bad++;
		}
	}
	tap_ok(bad == 0, "every state x event: legal or rejected as a "
	       "protocol error (%d bad)", bad);
	tap_ok(ignored_terminal, "DONE and FAILED ignore every event");
}

/*
 * Drive a native run at depth > 1, completing one operation per step, and
 * check the pipe: never more than depth in flight, iterations posted in
 * order, the last WRITE posted alone with nothing else in flight.
 */
struct pipe_log {
	uint32_t reads_posted, writes_posted, max_inflight;
	bool in_order, last_alone, count_ok;
	uint32_t steps;
};

static void pipe_apply(struct rdma_client_fsm *f, const struct rdma_client_step *st,
		       struct pipe_log *lg, uint32_t *inflight)
{
	uint32_t *posted;

	if (!(st->act & (RDMA_CLIENT_ACT_POST_READ | RDMA_CLIENT_ACT_POST_WRITE)))
		return;
	posted = st->act & RDMA_CLIENT_ACT_POST_READ ? &lg->reads_posted :
						 &lg->writes_posted;
	if (st->iter != *posted)
		lg->in_order = false;
	if (!st->count)
		lg->count_ok = false;
	if ((st->act & RDMA_CLIENT_ACT_POST_WRITE) &&
	    st->iter + st->count == f->limit &&
	    (st->count != 1 || *inflight != 0))
		lg->last_alone = false;
	*posted += st->count;
	*inflight += st->count;
	if (*inflight > lg->max_inflight)
		lg->max_inflight = *inflight;
}

static void pipe_run(struct rdma_client_fsm *f, struct pipe_log *lg,
		     uint32_t stop_after)
{
	struct rdma_client_step st;
	uint32_t inflight = 0;

	memset(lg, 0, sizeof(*lg));
	lg->in_order = lg->last_alone = lg->count_ok = true;
	run(f, setup, 3, "setup");
	rdma_client_fsm_step(f, RDMA_CLIENT_EV_ESTABLISHED, &st);
	rdma_client_fsm_step(f, RDMA_CLIENT_EV_DESC_OK, &st);
	pipe_apply(f, &st, lg, &inflight);
	while (f->state == RDMA_CLIENT_ST_OPS && lg->steps < 10000) {
		lg->steps++;
		if (lg->steps == stop_after) {
			rdma_client_fsm_step(f, RDMA_CLIENT_EV_STOP, &st);
			pipe_apply(f, &st, lg, &inflight);
			continue;
		}
		rdma_client_fsm_step(f, RDMA_CLIENT_EV_OP_DONE, &st);
		inflight--;
		if (st.act & RDMA_CLIENT_ACT_VERIFY_READ)
			rdma_client_fsm_step(f, RDMA_CLIENT_EV_CHECK_OK, &st);
		pipe_apply(f, &st, lg, &inflight);
	}
}

static void test_depth(void)
{
	struct rdma_client_step st;
	struct rdma_client_fsm f;
	struct pipe_log lg;

	init(&f, false, RW, 10, true);
	rdma_client_fsm_pipeline(&f, 4, false);
	pipe_run(&f, &lg, 0);
	tap_ok(f.state == RDMA_CLIENT_ST_RESULT && f.reads_done == 10 &&
	       f.writes_done == 10 && lg.reads_posted == 10 &&
	       lg.writes_posted == 10 && lg.in_order && lg.count_ok,
	       "depth 4: 10 READs and 10 WRITEs posted in order, then DONE");
	tap_ok(lg.max_inflight == 4, "depth 4: at most 4 in flight (%u)",
	       lg.max_inflight);
	tap_ok(lg.last_alone, "depth 4: the last WRITE is posted alone");

	init(&f, false, PROTO_OP_READ, 3, false);
	rdma_client_fsm_pipeline(&f, 8, false);
	run(&f, setup, 3, "setup");
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_ESTABLISHED, &st);
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_DESC_OK, &st);
	tap_ok(st.act == (RDMA_CLIENT_ACT_POST_READ | T) && st.iter == 0 &&
	       st.count == 3, "depth above iterations: all 3 READs at once");
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_OP_DONE, &st);
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_OP_DONE, &st);
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_OP_DONE, &st);
	tap_ok(f.state == RDMA_CLIENT_ST_RESULT &&
	       rdma_client_fsm_step(&f, RDMA_CLIENT_EV_OP_DONE, &st) == -EPROTO,
	       "a completion nobody posted is a protocol error");

	init(&f, false, PROTO_OP_WRITE, 2, true);
	rdma_client_fsm_pipeline(&f, 4, false);
	run(&f, setup, 3, "setup");
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_ESTABLISHED, &st);
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_DESC_OK, &st);
	tap_ok(st.count == 1 && st.iter == 0, "2 WRITEs at depth 4: the "
	       "first goes alone, since the second is the last");
}

static void test_duration(void)
{
	struct rdma_client_step st;
	struct rdma_client_fsm f;
	struct pipe_log lg;

	init(&f, false, RW, 1000, true);
	rdma_client_fsm_pipeline(&f, 4, true);
	run(&f, setup, 3, "setup");
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_ESTABLISHED, &st);
	rdma_client_fsm_step(&f, RDMA_CLIENT_EV_DESC_OK, &st);
	tap_ok((st.act & RDMA_CLIENT_ACT_ARM_DURATION) &&
	       (st.act & RDMA_CLIENT_ACT_POST_READ) && st.count == 4,
	       "duration: the READ clock starts with the first READs");

	/* STOP after 20 steps of READs: drain, then WRITEs with a clock. */
	init(&f, false, PROTO_OP_READ, 1000, true);
	rdma_client_fsm_pipeline(&f, 4, true);
	pipe_run(&f, &lg, 20);
	tap_ok(f.state == RDMA_CLIENT_ST_RESULT && f.reads_done == lg.reads_posted &&
	       f.reads_done < 1000 && f.reads_done >= 20,
	       "duration READ: STOP drains what is in flight, then DONE "
	       "(%u READs)", f.reads_done);

	init(&f, false, PROTO_OP_WRITE, 1000, true);
	rdma_client_fsm_pipeline(&f, 4, true);
	pipe_run(&f, &lg, 20);
	tap_ok(f.state == RDMA_CLIENT_ST_RESULT && f.writes_done == lg.writes_posted &&
	       f.writes_done < 1000 && lg.last_alone && lg.max_inflight == 4,
	       "duration WRITE: STOP drains, then one last WRITE alone (%u)",
	       f.writes_done);

	init(&f, false, PROTO_OP_WRITE, 5, true);
	rdma_client_fsm_pipeline(&f, 2, true);
	pipe_run(&f, &lg, 0);
	tap_ok(f.state == RDMA_CLIENT_ST_RESULT && f.writes_done == 5 &&
	       lg.last_alone, "duration: the iteration cap still ends a run");
	tap_ok(rdma_client_fsm_step(&f, RDMA_CLIENT_EV_STOP, &st) == 0 &&
	       f.state == RDMA_CLIENT_ST_RESULT && st.act == 0,
	       "a late STOP is ignored");
}

static void test_names(void)
{
	int i, j, ok = 1;

	for (i = 0; i < RDMA_CLIENT_ST__COUNT; i++)
		if (!strcmp(rdma_client_fsm_state_str((enum rdma_client_state)i), "?") ||
		    !strcmp(rdma_client_fsm_state_step((enum rdma_client_state)i), "?"))
			ok = 0;
	for (i = 0; i < RDMA_CLIENT_EV__COUNT; i++)
		if (!strcmp(rdma_client_fsm_event_str((enum rdma_client_event)i), "?"))
			ok = 0;
	tap_ok(ok, "every state and event has a name");

	ok = rdma_client_fsm_fail_code(RDMA_CLIENT_FAIL_NONE) == 0;
	for (i = 0; i < RDMA_CLIENT_FAIL__COUNT; i++)
		for (j = i + 1; j < RDMA_CLIENT_FAIL__COUNT; j++)
			if (rdma_client_fsm_fail_code((enum rdma_client_fail)i) ==
			    rdma_client_fsm_fail_code((enum rdma_client_fail)j) ||
			    rdma_client_fsm_fail_code((enum rdma_client_fail)j) ==
			    64)
				ok = 0;
	tap_ok(ok, "exit codes: 0 for success, distinct per failure class, "
	       "none is 64");
}

int main(void)
{
	test_abort_reasons();
	test_key();
	test_worse();
	test_native_both();
	test_native_iters();
	test_rping();
	test_failures();
	test_matrix();
	test_depth();
	test_duration();
	test_names();
	return tap_done();
}
