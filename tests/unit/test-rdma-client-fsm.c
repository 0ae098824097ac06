/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-rdma-client-fsm.c - the client connection's state machine,
 * table-driven.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "rdma_client_fsm.h"
#include "proto.h"
#include "tap.h"

#define state_str	rdma_client_fsm_state_str
#define code		rdma_client_fsm_fail_code
#define event_str	rdma_client_fsm_event_str

#define ST(x)	RDMA_CLIENT_ST_##x
#define EV(x)	RDMA_CLIENT_EV_##x
#define ACT(x)	RDMA_CLIENT_ACT_##x
#define FAIL(x)	RDMA_CLIENT_FAIL_##x
#define RW	(PROTO_OP_READ | PROTO_OP_WRITE)
#define T	ACT(ARM_TIMER)

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
				 event_str(rows[i].ev),
				 state_str(f->state), st.act, ret,
				 state_str(rows[i].want), rows[i].act,
				 rows[i].ret);
			return false;
		}
	}
	return true;
}

#define RUN(f, rows, name) run(f, rows, sizeof(rows) / sizeof(rows[0]), name)

static const struct row setup[] = {
	{ EV(START), ST(ADDR), ACT(RESOLVE_ADDR) | T, 0 },
	{ EV(ADDR_OK), ST(ROUTE), ACT(RESOLVE_ROUTE) | T, 0 },
	{ EV(ROUTE_OK), ST(CONNECT), ACT(CONNECT) | T, 0 },
};

static void test_native_both(void)
{
	static const struct row rows[] = {
		{ EV(ESTABLISHED), ST(DESC), T, 0 },
		{ EV(DESC_OK), ST(OPS), ACT(POST_READ) | T, 0 },
		{ EV(OP_DONE), ST(VERIFY), ACT(VERIFY_READ), 0 },
		{ EV(CHECK_OK), ST(OPS), ACT(POST_READ) | T, 0 },
		{ EV(OP_DONE), ST(VERIFY), ACT(VERIFY_READ), 0 },
		{ EV(CHECK_OK), ST(OPS), ACT(POST_WRITE) | T, 0 },
		{ EV(OP_DONE), ST(OPS), ACT(POST_WRITE) | T, 0 },
		{ EV(OP_DONE), ST(RESULT), ACT(SEND_DONE) | T, 0 },
		{ EV(RESULT_OK), ST(CLOSING), ACT(DISCONNECT) | T, 0 },
		{ EV(WC_ERR), ST(CLOSING), 0, 0 },	/* flushed */
		{ EV(DISCONNECTED), ST(DONE), ACT(FINISH), 0 },
		{ EV(TIMEOUT), ST(DONE), 0, 0 },	/* ignored */
	};
	struct rdma_client_fsm f;
	bool ok;

	transitions = 0;
	transition_ok = true;
	init(&f, false, RW, 2, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, rows, "native both");
	tap_ok(ok && f.fail == FAIL(NONE) && f.reads_done == 2 &&
	       f.writes_done == 2, "native READ+WRITE: reads first, then "
	       "writes, DONE, RESULT, disconnect");
	tap_ok(transition_ok && transitions == 12,
	       "the setter reports every state change once (%d)", transitions);
}

/* Count the posts of a step: READs and WRITEs, each in iteration order. */
static void count_posts(const struct rdma_client_step *st, uint32_t *reads,
			uint32_t *writes, bool *in_order)
{
	uint32_t *n = NULL;

	if (st->act & ACT(POST_READ))
		n = reads;
	else if (st->act & ACT(POST_WRITE))
		n = writes;
	if (!n)
		return;
	if (st->iter != *n || st->count != 1)
		*in_order = false;
	*n += st->count;
}

static void test_native_iters(void)
{
	struct rdma_client_fsm f;
	struct rdma_client_step st;
	uint32_t i, reads = 0, writes = 0;
	bool in_order = true;

	init(&f, false, PROTO_OP_WRITE, 5, true);
	run(&f, setup, 3, "setup");
	rdma_client_fsm_step(&f, EV(DESC_OK), &st);	/* early DESC */
	tap_ok(f.state == ST(CONNECT) && f.desc_ready && st.act == 0,
	       "DESC before ESTABLISHED is kept, no action yet");
	rdma_client_fsm_step(&f, EV(ESTABLISHED), &st);
	tap_ok(f.state == ST(OPS) && (st.act & ACT(POST_WRITE)) &&
	       st.iter == 0, "ESTABLISHED after DESC starts the WRITEs");
	for (i = 0; i < 10 && f.state == ST(OPS); i++) {
		count_posts(&st, &reads, &writes, &in_order);
		rdma_client_fsm_step(&f, EV(OP_DONE), &st);
	}
	tap_ok(writes == 5 && reads == 0 && in_order &&
	       f.state == ST(RESULT) && st.act == (ACT(SEND_DONE) | T),
	       "write only: 5 WRITEs with iterations 0..4, no READ, then "
	       "DONE (%u READs, %u WRITEs)", reads, writes);

	init(&f, false, PROTO_OP_READ, 3, false);
	run(&f, setup, 3, "setup");
	rdma_client_fsm_step(&f, EV(ESTABLISHED), &st);
	rdma_client_fsm_step(&f, EV(DESC_OK), &st);
	reads = writes = 0;
	in_order = true;
	for (i = 0; i < 10 && f.state == ST(OPS); i++) {
		count_posts(&st, &reads, &writes, &in_order);
		if (st.act & ACT(VERIFY_READ))
			in_order = false;
		rdma_client_fsm_step(&f, EV(OP_DONE), &st);
	}
	tap_ok(reads == 3 && writes == 0 && in_order && f.reads_done == 3 &&
	       f.state == ST(RESULT),
	       "read only without verification: 3 READs, no WRITE, no VERIFY "
	       "step (%u READs, %u WRITEs)", reads, writes);
}

/*
 * The connection comes up: the server's answer asks for ESTABLISH; the
 * welcome (checked by the driver) is ESTABLISHED, or ESTABLISHED_AUTH,
 * which asks for the AUTH send with the next step.  An answer after a
 * connect timeout does nothing at all: no ESTABLISH, no AUTH.
 */
static void test_connect(void)
{
	static const struct row keyed[] = {
		{ EV(ACCEPTED), ST(CONNECT), ACT(ESTABLISH), 0 },
		{ EV(ESTABLISHED_AUTH), ST(DESC), ACT(SEND_AUTH) | T, 0 },
		{ EV(DESC_OK), ST(OPS), ACT(POST_READ) | T, 0 },
	};
	static const struct row plain[] = {
		{ EV(ACCEPTED), ST(CONNECT), ACT(ESTABLISH), 0 },
		{ EV(ESTABLISHED), ST(DESC), T, 0 },
	};
	static const struct row late[] = {
		{ EV(TIMEOUT), ST(FAILED), ACT(FINISH), 0 },
		{ EV(ACCEPTED), ST(FAILED), 0, 0 },
		{ EV(ESTABLISHED_AUTH), ST(FAILED), 0, 0 },
		{ EV(ESTABLISHED), ST(FAILED), 0, 0 },
		{ EV(DESC_OK), ST(FAILED), 0, 0 },
	};
	static const struct row rping[] = {
		{ EV(ACCEPTED), ST(CONNECT), ACT(ESTABLISH), 0 },
		{ EV(ESTABLISHED_AUTH), ST(FAILED), ACT(FINISH), -EPROTO },
	};
	struct rdma_client_fsm f;
	bool ok;

	init(&f, false, RW, 1, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, keyed, "keyed");
	tap_ok(ok && f.fail == FAIL(NONE), "keyed server: ESTABLISH, then "
	       "AUTH with the wait for DESC, then the READs");

	init(&f, false, RW, 1, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, plain, "plain");
	tap_ok(ok, "server without a key: ESTABLISH, no AUTH");

	init(&f, false, RW, 1, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, late, "late answer");
	tap_ok(ok && f.fail == FAIL(TIMEOUT) && f.fail_state == ST(CONNECT),
	       "connect timeout, then the server's late answer: no "
	       "ESTABLISH, no AUTH, still the timeout in CONNECT");

	init(&f, true, 0, 1, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, rping, "rping");
	tap_ok(ok && f.fail == FAIL(PROTOCOL),
	       "rping: a welcome that asks for AUTH is a protocol error");
}

static void test_rping(void)
{
	static const struct row rows[] = {
		{ EV(ESTABLISHED), ST(RPING_SRC),
		  ACT(SEND_SOURCE) | T, 0 },
		{ EV(GO_AHEAD), ST(RPING_SINK),
		  ACT(SEND_SINK) | T, 0 },
		{ EV(GO_AHEAD), ST(VERIFY), ACT(VERIFY_SINK), 0 },
		{ EV(CHECK_OK), ST(RPING_SRC),
		  ACT(SEND_SOURCE) | T, 0 },
		{ EV(GO_AHEAD), ST(RPING_SINK),
		  ACT(SEND_SINK) | T, 0 },
		{ EV(GO_AHEAD), ST(VERIFY), ACT(VERIFY_SINK), 0 },
		{ EV(CHECK_OK), ST(CLOSING),
		  ACT(DISCONNECT) | T, 0 },
		{ EV(DISCONNECTED), ST(DONE), ACT(FINISH), 0 },
	};
	static const struct row bad[] = {
		{ EV(ESTABLISHED), ST(RPING_SRC),
		  ACT(SEND_SOURCE) | T, 0 },
		{ EV(GO_AHEAD), ST(RPING_SINK),
		  ACT(SEND_SINK) | T, 0 },
		{ EV(GO_AHEAD), ST(VERIFY), ACT(VERIFY_SINK), 0 },
		{ EV(CHECK_BAD), ST(CLOSING),
		  ACT(DISCONNECT) | T, 0 },
		{ EV(DISCONNECTED), ST(FAILED), ACT(FINISH), 0 },
	};
	struct rdma_client_fsm f;
	bool ok;

	init(&f, true, 0, 2, false);
	ok = RUN(&f, setup, "setup") && RUN(&f, rows, "rping");
	tap_ok(ok && f.fail == FAIL(NONE) && f.pings_done == 2 &&
	       f.verify, "rping: source advert, sink advert, verify, twice");

	init(&f, true, 0, 2, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, bad, "rping mismatch");
	tap_ok(ok && f.fail == FAIL(MISMATCH) &&
	       rdma_client_fsm_fail_code(f.fail) == 9,
	       "rping sink mismatch: disconnect, then FAILED with exit 9");

	init(&f, true, 0, 2, true);
	run(&f, setup, 3, "setup");
	tap_ok(rdma_client_fsm_step(&f, EV(DESC_OK),
				    &(struct rdma_client_step){ 0 })
	       == -EPROTO && f.state == ST(FAILED) &&
	       f.fail == FAIL(PROTOCOL),
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
		EV(START), EV(ADDR_OK), EV(ROUTE_OK),
		EV(ESTABLISHED), EV(DESC_OK), EV(OP_DONE),
		EV(CHECK_OK), EV(OP_DONE), EV(RESULT_OK),
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
		{ "ADDR_ERR", ST(ADDR), EV(ADDR_ERR), ST(FAILED),
		  ACT(FINISH), FAIL(ADDR), 0 },
		{ "timeout in ADDR", ST(ADDR), EV(TIMEOUT),
		  ST(FAILED), ACT(FINISH), FAIL(ADDR), 0 },
		{ "ROUTE_ERR", ST(ROUTE), EV(ROUTE_ERR),
		  ST(FAILED), ACT(FINISH), FAIL(ROUTE), 0 },
		{ "timeout in ROUTE", ST(ROUTE), EV(TIMEOUT),
		  ST(FAILED), ACT(FINISH), FAIL(ROUTE), 0 },
		{ "REJECTED", ST(CONNECT), EV(REJECTED),
		  ST(FAILED), ACT(FINISH), FAIL(REJECTED), 0 },
		{ "CONN_ERR", ST(CONNECT), EV(CONN_ERR),
		  ST(FAILED), ACT(FINISH), FAIL(CONNECT), 0 },
		{ "timeout in CONNECT", ST(CONNECT), EV(TIMEOUT),
		  ST(FAILED), ACT(FINISH), FAIL(TIMEOUT), 0 },
		{ "bad welcome", ST(CONNECT), EV(PROTO_ERR),
		  ST(CLOSING), ACT(DISCONNECT) | T,
		  FAIL(PROTOCOL), 0 },
		{ "local error in CONNECT", ST(CONNECT),
		  EV(LOCAL_ERR), ST(FAILED), ACT(FINISH),
		  FAIL(LOCAL), 0 },
		{ "timeout in DESC", ST(DESC), EV(TIMEOUT),
		  ST(CLOSING), ACT(DISCONNECT) | T,
		  FAIL(TIMEOUT), 0 },
		{ "bad DESC", ST(DESC), EV(PROTO_ERR),
		  ST(CLOSING), ACT(DISCONNECT) | T,
		  FAIL(PROTOCOL), 0 },
		{ "WC_ERR in OPS", ST(OPS), EV(WC_ERR),
		  ST(CLOSING), ACT(DISCONNECT) | T,
		  FAIL(COMPLETION), 0 },
		{ "peer gone in OPS", ST(OPS), EV(DISCONNECTED),
		  ST(FAILED), ACT(FINISH), FAIL(COMPLETION), 0 },
		{ "unreachable in OPS (partition)", ST(OPS),
		  EV(CONN_ERR), ST(CLOSING),
		  ACT(DISCONNECT) | T, FAIL(COMPLETION), 0 },
		{ "READ mismatch", ST(VERIFY), EV(CHECK_BAD),
		  ST(CLOSING), ACT(DISCONNECT) | T,
		  FAIL(MISMATCH), 0 },
		{ "RESULT mismatch", ST(RESULT), EV(RESULT_BAD),
		  ST(CLOSING), ACT(DISCONNECT) | T,
		  FAIL(MISMATCH), 0 },
		{ "peer gone in RESULT", ST(RESULT),
		  EV(DISCONNECTED), ST(FAILED), ACT(FINISH),
		  FAIL(COMPLETION), 0 },
		{ "disconnect timeout", ST(CLOSING), EV(TIMEOUT),
		  ST(FAILED), ACT(FINISH), FAIL(TIMEOUT), 0 },
		{ "second ESTABLISHED", ST(OPS), EV(ESTABLISHED),
		  ST(CLOSING), ACT(DISCONNECT) | T,
		  FAIL(PROTOCOL), -EPROTO },
		{ "RESULT while in OPS", ST(OPS), EV(RESULT_OK),
		  ST(CLOSING), ACT(DISCONNECT) | T,
		  FAIL(PROTOCOL), -EPROTO },
		{ "GO_AHEAD in native", ST(DESC), EV(GO_AHEAD),
		  ST(CLOSING), ACT(DISCONNECT) | T,
		  FAIL(PROTOCOL), -EPROTO },
		{ "server deadline ABORT in OPS", ST(OPS),
		  EV(SRV_TIMEOUT), ST(CLOSING),
		  ACT(DISCONNECT) | T, FAIL(TIMEOUT), 0 },
		{ "server shutdown ABORT in OPS", ST(OPS),
		  EV(SRV_ABORT), ST(CLOSING),
		  ACT(DISCONNECT) | T, FAIL(COMPLETION), 0 },
		{ "server ABORT in RESULT", ST(RESULT),
		  EV(SRV_ABORT), ST(CLOSING),
		  ACT(DISCONNECT) | T, FAIL(COMPLETION), 0 },
		{ "server deadline ABORT in DESC", ST(DESC),
		  EV(SRV_TIMEOUT), ST(CLOSING),
		  ACT(DISCONNECT) | T, FAIL(TIMEOUT), 0 },
		{ "OP_DONE before connect", ST(ROUTE), EV(OP_DONE),
		  ST(FAILED), ACT(FINISH), FAIL(PROTOCOL),
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
			       state_str(fc->at));
			continue;
		}
		ret = rdma_client_fsm_step(&f, fc->ev, &st);
		tap_ok(ret == fc->ret && f.state == fc->want &&
		       st.act == fc->act && f.fail == fc->fail &&
		       f.fail_state == fc->at,
		       "%s in %s -> %s, %s, failed in %s (got %s, act 0x%x, "
		       "fail %s in %s)", event_str(fc->ev), state_str(fc->at),
		       state_str(fc->want), rdma_client_fsm_fail_str(fc->fail),
		       state_str(fc->at), state_str(f.state), st.act,
		       rdma_client_fsm_fail_str(f.fail),
		       state_str(f.fail_state));
	}

	/* The first failure is kept. */
	reach(&f, ST(OPS));
	rdma_client_fsm_step(&f, EV(WC_ERR), &st);
	rdma_client_fsm_step(&f, EV(CHECK_BAD), &st);
	rdma_client_fsm_step(&f, EV(TIMEOUT), &st);
	tap_ok(f.state == ST(FAILED) && f.fail == FAIL(COMPLETION) &&
	       f.fail_state == ST(OPS),
	       "the first failure's class and state are kept through "
	       "closing");

	/* ABORT, then the server's disconnect: the ABORT's class stays. */
	reach(&f, ST(OPS));
	rdma_client_fsm_step(&f, EV(SRV_TIMEOUT), &st);
	rdma_client_fsm_step(&f, EV(WC_ERR), &st);
	rdma_client_fsm_step(&f, EV(DISCONNECTED), &st);
	tap_ok(f.state == ST(FAILED) && f.fail == FAIL(TIMEOUT) &&
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
		{ PROTO_ABORT_SESSION, EV(SRV_TIMEOUT) },
		{ PROTO_ABORT_DURATION, EV(SRV_TIMEOUT) },
		{ PROTO_ABORT_IDLE, EV(SRV_TIMEOUT) },
		{ PROTO_ABORT_STALLED, EV(SRV_TIMEOUT) },
		{ PROTO_ABORT_PROTOCOL, EV(PROTO_ERR) },
		{ PROTO_ABORT_AUTH, EV(KEY_ERR) },
		{ PROTO_ABORT_SHUTDOWN, EV(SRV_ABORT) },
		{ 0, EV(SRV_ABORT) },
		{ 99, EV(SRV_ABORT) },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		tap_ok(rdma_client_fsm_abort_event(t[i].reason) == t[i].ev,
		       "ABORT reason %u -> %s", t[i].reason,
		       event_str(t[i].ev));
}

/* A keyed server and no key (or a refused key): its own class, exit 10;
 * the connection is up, so it closes the clean way. */
static void test_key(void)
{
	struct rdma_client_step st;
	struct rdma_client_fsm f;

	reach(&f, ST(CONNECT));
	rdma_client_fsm_step(&f, EV(KEY_ERR), &st);
	tap_ok(f.fail == FAIL(KEY) && rdma_client_fsm_fail_code(f.fail) == 10 &&
	       f.state == ST(CLOSING) && (st.act & ACT(DISCONNECT)),
	       "no key at the welcome: key class, exit 10, disconnect (%s)",
	       state_str(f.state));
	reach(&f, ST(DESC));
	rdma_client_fsm_step(&f, rdma_client_fsm_abort_event(PROTO_ABORT_AUTH),
			     &st);
	tap_ok(f.fail == FAIL(KEY) && f.state == ST(CLOSING),
	       "ABORT for a wrong key while waiting for DESC: key class");
}

/* The worst of two failures: a mismatch anywhere, then the larger code. */
static void test_worse(void)
{
	tap_ok(rdma_client_fsm_fail_worse(FAIL(MISMATCH), FAIL(KEY)) &&
	       !rdma_client_fsm_fail_worse(FAIL(KEY), FAIL(MISMATCH)),
	       "a mismatch is worse than a key failure (exit 10 > 9)");
	tap_ok(rdma_client_fsm_fail_worse(FAIL(KEY), FAIL(REJECTED)) &&
	       rdma_client_fsm_fail_worse(FAIL(TIMEOUT), FAIL(REJECTED)) &&
	       !rdma_client_fsm_fail_worse(FAIL(REJECTED), FAIL(TIMEOUT)),
	       "otherwise the larger exit code");
	tap_ok(!rdma_client_fsm_fail_worse(FAIL(NONE), FAIL(LOCAL)) &&
	       rdma_client_fsm_fail_worse(FAIL(LOCAL), FAIL(NONE)) &&
	       !rdma_client_fsm_fail_worse(FAIL(MISMATCH), FAIL(MISMATCH)),
	       "any failure is worse than none; nothing worse than itself");
}

/*
 * Every state x every event, each with its exact outcome: the next state,
 * the actions, the return, the failure class and where it was recorded.
 * The states are reached as reach() does (native READ+WRITE, 1 iteration,
 * verified), the rping ones with rping, 1 iteration.
 */

/* DESC in: READY, told to the embedder. */
#define MESH_READY	(ACT(STOP_TIMER) | ACT(READY_REPORT))
#define MESH_END	(ACT(STOP_TIMER) | ACT(ROUND_REPORT))

/* The expected events of each state, as reached. */
static const struct legal {
	enum rdma_client_state s;
	enum rdma_client_event ev;
	enum rdma_client_state next;
	uint32_t act;
} legal[] = {
	{ ST(IDLE), EV(START), ST(ADDR), ACT(RESOLVE_ADDR) | T },
	{ ST(ADDR), EV(ADDR_OK), ST(ROUTE), ACT(RESOLVE_ROUTE) | T },
	{ ST(ROUTE), EV(ROUTE_OK), ST(CONNECT), ACT(CONNECT) | T },
	{ ST(CONNECT), EV(ACCEPTED), ST(CONNECT), ACT(ESTABLISH) },
	{ ST(CONNECT), EV(ESTABLISHED), ST(DESC), T },
	{ ST(CONNECT), EV(ESTABLISHED_AUTH), ST(DESC), ACT(SEND_AUTH) | T },
	{ ST(CONNECT), EV(DESC_OK), ST(CONNECT), 0 },
	{ ST(DESC), EV(DESC_OK), ST(OPS), ACT(POST_READ) | T },
	{ ST(OPS), EV(OP_DONE), ST(VERIFY), ACT(VERIFY_READ) },
	/* STOP with the only READ in flight: nothing more to post. */
	{ ST(OPS), EV(STOP), ST(OPS), T },
	{ ST(VERIFY), EV(CHECK_OK), ST(OPS), ACT(POST_WRITE) | T },
	{ ST(RESULT), EV(RESULT_OK), ST(CLOSING), ACT(DISCONNECT) | T },
	{ ST(RPING_SRC), EV(GO_AHEAD), ST(RPING_SINK), ACT(SEND_SINK) | T },
	{ ST(RPING_SINK), EV(GO_AHEAD), ST(VERIFY), ACT(VERIFY_SINK) },
	{ ST(CLOSING), EV(DISCONNECTED), ST(DONE), ACT(FINISH) },
	{ ST(CLOSING), EV(TIMEOUT), ST(FAILED), ACT(FINISH) },
	/* Mesh (reached with a mesh fsm). */
	{ ST(READY), EV(ROUND), ST(ROUND_WRITE), ACT(ROUND_WRITE) | T },
	{ ST(READY), EV(CLOSE), ST(CLOSING), ACT(DISCONNECT) | T },
	{ ST(ROUND_WRITE), EV(OP_DONE), ST(ROUND_READ), ACT(ROUND_READ) | T },
	{ ST(ROUND_READ), EV(OP_DONE), ST(ROUND_CHECK), ACT(ROUND_CHECK) },
	{ ST(ROUND_CHECK), EV(CHECK_OK), ST(READY), MESH_END },
	{ ST(ROUND_CHECK), EV(CHECK_BAD), ST(READY), MESH_END },
	{ ST(READY), EV(BW), ST(BW_WRITE),
	  ACT(POST_BW) | ACT(ARM_DURATION) | T },
	{ ST(BW_WRITE), EV(OP_DONE), ST(BW_WRITE), ACT(POST_BW) | T },
	/* STOP with the sample's only WRITE in flight: wait for it. */
	{ ST(BW_WRITE), EV(STOP), ST(BW_WRITE), T },
};

/* The class of each failure event; CONN_ERR, DISCONNECTED and TIMEOUT
 * depend on the state (below). */
static const enum rdma_client_fail err_class[RDMA_CLIENT_EV__COUNT] = {
	[EV(ADDR_ERR)] = FAIL(ADDR),
	[EV(ROUTE_ERR)] = FAIL(ROUTE),
	[EV(REJECTED)] = FAIL(REJECTED),
	[EV(CONN_ERR)] = FAIL(COMPLETION),
	[EV(CHECK_BAD)] = FAIL(MISMATCH),
	[EV(RESULT_BAD)] = FAIL(MISMATCH),
	[EV(PROTO_ERR)] = FAIL(PROTOCOL),
	[EV(KEY_ERR)] = FAIL(KEY),
	[EV(WC_ERR)] = FAIL(COMPLETION),
	[EV(DISCONNECTED)] = FAIL(COMPLETION),
	[EV(TIMEOUT)] = FAIL(TIMEOUT),
	[EV(LOCAL_ERR)] = FAIL(LOCAL),
	[EV(SRV_TIMEOUT)] = FAIL(TIMEOUT),
	[EV(SRV_ABORT)] = FAIL(COMPLETION),
};

struct expect {
	enum rdma_client_state next;
	uint32_t act;
	int ret;
	enum rdma_client_fail fail;	/* NONE: no failure recorded */
};

static struct expect expect_of(enum rdma_client_state s,
			       enum rdma_client_event e)
{
	struct expect x = { s, 0, 0, FAIL(NONE) };
	bool up;
	size_t i;

	for (i = 0; i < sizeof(legal) / sizeof(legal[0]); i++) {
		if (legal[i].s == s && legal[i].ev == e) {
			x.next = legal[i].next;
			x.act = legal[i].act;
			if (s == ST(CLOSING) && e == EV(TIMEOUT))
				x.fail = FAIL(TIMEOUT);
			return x;
		}
	}
	/* Over, closing, or a duration timer outside OPS and BW_WRITE:
	 * nothing. */
	if (s == ST(DONE) || s == ST(FAILED) || s == ST(CLOSING) ||
	    e == EV(STOP))
		return x;
	up = s == ST(DESC) || s == ST(OPS) || s == ST(VERIFY) ||
	     s == ST(RESULT) || s == ST(RPING_SRC) || s == ST(RPING_SINK) ||
	     s == ST(READY) || s == ST(ROUND_WRITE) || s == ST(ROUND_READ) ||
	     s == ST(ROUND_CHECK) || s == ST(BW_WRITE) ||
	     (s == ST(CONNECT) && (e == EV(PROTO_ERR) || e == EV(KEY_ERR)));
	x.fail = err_class[e];
	if (x.fail == FAIL(NONE)) {
		x.fail = FAIL(PROTOCOL);	/* legal, but not here */
		x.ret = -EPROTO;
	}
	if (s == ST(CONNECT) && (e == EV(CONN_ERR) || e == EV(DISCONNECTED)))
		x.fail = FAIL(CONNECT);
	if (e == EV(TIMEOUT) && s == ST(ADDR))
		x.fail = FAIL(ADDR);
	if (e == EV(TIMEOUT) && s == ST(ROUTE))
		x.fail = FAIL(ROUTE);
	/* The peer is gone: nothing to disconnect. */
	if (up && e != EV(DISCONNECTED)) {
		x.next = ST(CLOSING);
		x.act = ACT(DISCONNECT) | T;
	} else {
		x.next = ST(FAILED);
		x.act = ACT(FINISH);
	}
	return x;
}

static void reach_any(struct rdma_client_fsm *f, enum rdma_client_state s)
{
	static const enum rdma_client_event mesh_path[] = {
		EV(ESTABLISHED), EV(DESC_OK), EV(ROUND), EV(OP_DONE),
		EV(OP_DONE),
	};
	struct rdma_client_step st;
	size_t i;

	if (s == ST(READY) || s == ST(ROUND_WRITE) || s == ST(ROUND_READ) ||
	    s == ST(ROUND_CHECK) || s == ST(BW_WRITE)) {
		init(f, false, RW, 1, true);
		rdma_client_fsm_mesh(f, RW);
		run(f, setup, 3, "setup");
		for (i = 0; i < sizeof(mesh_path) / sizeof(mesh_path[0]) &&
			    f->state != s && f->state != ST(READY); i++)
			rdma_client_fsm_step(f, mesh_path[i], &st);
		for (; i < sizeof(mesh_path) / sizeof(mesh_path[0]) &&
		       f->state != s && s != ST(BW_WRITE); i++)
			rdma_client_fsm_step(f, mesh_path[i], &st);
		if (s == ST(BW_WRITE))
			rdma_client_fsm_step(f, EV(BW), &st);
	} else if (s == ST(RPING_SRC) || s == ST(RPING_SINK)) {
		init(f, true, 0, 1, true);
		run(f, setup, 3, "setup");
		rdma_client_fsm_step(f, EV(ESTABLISHED), &st);
		if (s == ST(RPING_SINK))
			rdma_client_fsm_step(f, EV(GO_AHEAD), &st);
	} else if (s == ST(DONE)) {
		reach(f, ST(CLOSING));
		rdma_client_fsm_step(f, EV(DISCONNECTED), &st);
	} else if (s == ST(FAILED)) {
		reach(f, ST(ADDR));
		rdma_client_fsm_step(f, EV(ADDR_ERR), &st);
	} else {
		reach(f, s);
	}
}

static void test_matrix(void)
{
	struct rdma_client_step st;
	struct rdma_client_fsm f;
	enum rdma_client_fail before;
	enum rdma_client_state before_at, at;
	struct expect x;
	int s, e, ret, bad = 0, cells = 0;
	bool ok;

	for (s = 0; s < ST(_COUNT); s++) {
		for (e = 0; e < EV(_COUNT); e++) {
			reach_any(&f, (enum rdma_client_state)s);
			if ((int)f.state != s) {
				tap_diag("cannot reach %s",
					 state_str((enum rdma_client_state)s));
				bad++;
				continue;
			}
			before = f.fail;
			before_at = f.fail_state;
			x = expect_of((enum rdma_client_state)s,
				      (enum rdma_client_event)e);
			/* A failure already recorded (FAILED) stays. */
			if (before != FAIL(NONE))
				x.fail = before;
			ret = rdma_client_fsm_step(&f,
						   (enum rdma_client_event)e,
						   &st);
			cells++;
			ok = ret == x.ret && f.state == x.next &&
			     st.act == x.act && f.fail == x.fail;
			at = before != FAIL(NONE) ? before_at :
			     (enum rdma_client_state)s;
			if (ok && x.fail != FAIL(NONE))
				ok = f.fail_state == at;
			if (!ok) {
				bad++;
				tap_diag("%s + %s: got %s act 0x%x ret %d fail "
					 "%s in %s; want %s act 0x%x ret %d "
					 "fail %s",
					 state_str((enum rdma_client_state)s),
					 event_str((enum rdma_client_event)e),
					 state_str(f.state), st.act, ret,
					 rdma_client_fsm_fail_str(f.fail),
					 state_str(f.fail_state),
					 state_str(x.next), x.act, x.ret,
					 rdma_client_fsm_fail_str(x.fail));
			}
		}
	}
	tap_ok(bad == 0 && cells == ST(_COUNT) * EV(_COUNT),
	       "every state x event (%d): the exact next state, actions, "
	       "return, failure class and where it failed (%d differ)",
	       cells, bad);
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

static void pipe_apply(struct rdma_client_fsm *f,
		       const struct rdma_client_step *st,
		       struct pipe_log *lg, uint32_t *inflight)
{
	uint32_t *posted;

	if (!(st->act & (ACT(POST_READ) | ACT(POST_WRITE))))
		return;
	posted = st->act & ACT(POST_READ) ? &lg->reads_posted :
						 &lg->writes_posted;
	if (st->iter != *posted)
		lg->in_order = false;
	if (!st->count)
		lg->count_ok = false;
	if ((st->act & ACT(POST_WRITE)) &&
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
	rdma_client_fsm_step(f, EV(ESTABLISHED), &st);
	rdma_client_fsm_step(f, EV(DESC_OK), &st);
	pipe_apply(f, &st, lg, &inflight);
	while (f->state == ST(OPS) && lg->steps < 10000) {
		lg->steps++;
		if (lg->steps == stop_after) {
			rdma_client_fsm_step(f, EV(STOP), &st);
			pipe_apply(f, &st, lg, &inflight);
			continue;
		}
		rdma_client_fsm_step(f, EV(OP_DONE), &st);
		inflight--;
		if (st.act & ACT(VERIFY_READ))
			rdma_client_fsm_step(f, EV(CHECK_OK), &st);
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
	tap_ok(f.state == ST(RESULT) && f.reads_done == 10 &&
	       f.writes_done == 10 && lg.reads_posted == 10 &&
	       lg.writes_posted == 10 && lg.in_order && lg.count_ok,
	       "depth 4: 10 READs and 10 WRITEs posted in order, then DONE");
	tap_ok(lg.max_inflight == 4, "depth 4: at most 4 in flight (%u)",
	       lg.max_inflight);
	tap_ok(lg.last_alone, "depth 4: the last WRITE is posted alone");

	init(&f, false, PROTO_OP_READ, 3, false);
	rdma_client_fsm_pipeline(&f, 8, false);
	run(&f, setup, 3, "setup");
	rdma_client_fsm_step(&f, EV(ESTABLISHED), &st);
	rdma_client_fsm_step(&f, EV(DESC_OK), &st);
	tap_ok(st.act == (ACT(POST_READ) | T) && st.iter == 0 &&
	       st.count == 3, "depth above iterations: all 3 READs at once");
	rdma_client_fsm_step(&f, EV(OP_DONE), &st);
	rdma_client_fsm_step(&f, EV(OP_DONE), &st);
	rdma_client_fsm_step(&f, EV(OP_DONE), &st);
	tap_ok(f.state == ST(RESULT) &&
	       rdma_client_fsm_step(&f, EV(OP_DONE), &st) == -EPROTO,
	       "a completion nobody posted is a protocol error");

	init(&f, false, PROTO_OP_WRITE, 2, true);
	rdma_client_fsm_pipeline(&f, 4, false);
	run(&f, setup, 3, "setup");
	rdma_client_fsm_step(&f, EV(ESTABLISHED), &st);
	rdma_client_fsm_step(&f, EV(DESC_OK), &st);
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
	rdma_client_fsm_step(&f, EV(ESTABLISHED), &st);
	rdma_client_fsm_step(&f, EV(DESC_OK), &st);
	tap_ok((st.act & ACT(ARM_DURATION)) &&
	       (st.act & ACT(POST_READ)) && st.count == 4,
	       "duration: the READ clock starts with the first READs");

	/* STOP after 20 steps of READs: drain, then WRITEs with a clock. */
	init(&f, false, PROTO_OP_READ, 1000, true);
	rdma_client_fsm_pipeline(&f, 4, true);
	pipe_run(&f, &lg, 20);
	tap_ok(f.state == ST(RESULT) && f.reads_done == lg.reads_posted &&
	       f.reads_done < 1000 && f.reads_done >= 20,
	       "duration READ: STOP drains what is in flight, then DONE "
	       "(%u READs)", f.reads_done);

	init(&f, false, PROTO_OP_WRITE, 1000, true);
	rdma_client_fsm_pipeline(&f, 4, true);
	pipe_run(&f, &lg, 20);
	tap_ok(f.state == ST(RESULT) && f.writes_done == lg.writes_posted &&
	       f.writes_done < 1000 && lg.last_alone && lg.max_inflight == 4,
	       "duration WRITE: STOP drains, then one last WRITE alone (%u)",
	       f.writes_done);

	init(&f, false, PROTO_OP_WRITE, 5, true);
	rdma_client_fsm_pipeline(&f, 2, true);
	pipe_run(&f, &lg, 0);
	tap_ok(f.state == ST(RESULT) && f.writes_done == 5 &&
	       lg.last_alone, "duration: the iteration cap still ends a run");
	tap_ok(rdma_client_fsm_step(&f, EV(STOP), &st) == 0 &&
	       f.state == ST(RESULT) && st.act == 0,
	       "a late STOP is ignored");
}

#define MESH_ROUND							\
	{ EV(ROUND), ST(ROUND_WRITE), ACT(ROUND_WRITE) | T, 0 },	\
	{ EV(OP_DONE), ST(ROUND_READ), ACT(ROUND_READ) | T, 0 },	\
	{ EV(OP_DONE), ST(ROUND_CHECK), ACT(ROUND_CHECK), 0 }

/* A mesh fsm (rounds: WRITE and READ back); init's OPS is ignored. */
static void mesh_init(struct rdma_client_fsm *f, bool rping, uint8_t ops,
		      uint32_t iters, bool verify)
{
	init(f, rping, ops, iters, verify);
	rdma_client_fsm_mesh(f, RW);
}

static void test_mesh(void)
{
	static const struct row rows[] = {
		{ EV(ESTABLISHED), ST(DESC), T, 0 },
		/* READY: no deadline while the embedder waits. */
		{ EV(DESC_OK), ST(READY), MESH_READY, 0 },
		MESH_ROUND,
		{ EV(CHECK_OK), ST(READY), MESH_END, 0 },
		MESH_ROUND,
		/* A mismatch ends the round, not the connection. */
		{ EV(CHECK_BAD), ST(READY), MESH_END, 0 },
		MESH_ROUND,
		{ EV(CHECK_OK), ST(READY), MESH_END, 0 },
		{ EV(CLOSE), ST(CLOSING), ACT(DISCONNECT) | T, 0 },
		{ EV(DISCONNECTED), ST(DONE), ACT(FINISH), 0 },
	};
	static const struct row early_desc[] = {
		{ EV(ACCEPTED), ST(CONNECT), ACT(ESTABLISH), 0 },
		{ EV(DESC_OK), ST(CONNECT), 0, 0 },
		{ EV(ESTABLISHED_AUTH), ST(READY),
		  ACT(SEND_AUTH) | MESH_READY, 0 },
	};
	static const struct row lost[] = {
		{ EV(ESTABLISHED), ST(DESC), T, 0 },
		{ EV(DESC_OK), ST(READY), MESH_READY, 0 },
		MESH_ROUND,
		{ EV(CHECK_OK), ST(READY), MESH_END, 0 },
		{ EV(ROUND), ST(ROUND_WRITE), ACT(ROUND_WRITE) | T, 0 },
		{ EV(WC_ERR), ST(CLOSING), ACT(DISCONNECT) | T, 0 },
		{ EV(DISCONNECTED), ST(FAILED), ACT(FINISH), 0 },
	};
	static const struct row slow[] = {
		{ EV(ESTABLISHED), ST(DESC), T, 0 },
		{ EV(DESC_OK), ST(READY), MESH_READY, 0 },
		{ EV(ROUND), ST(ROUND_WRITE), ACT(ROUND_WRITE) | T, 0 },
		{ EV(OP_DONE), ST(ROUND_READ), ACT(ROUND_READ) | T, 0 },
		{ EV(TIMEOUT), ST(CLOSING), ACT(DISCONNECT) | T, 0 },
	};
	static const struct row aborted[] = {
		{ EV(ESTABLISHED), ST(DESC), T, 0 },
		{ EV(DESC_OK), ST(READY), MESH_READY, 0 },
		{ EV(LOCAL_ERR), ST(CLOSING), ACT(DISCONNECT) | T, 0 },
		{ EV(DISCONNECTED), ST(FAILED), ACT(FINISH), 0 },
	};
	static const struct row drained[] = {
		{ EV(ESTABLISHED), ST(DESC), T, 0 },
		{ EV(DESC_OK), ST(READY), MESH_READY, 0 },
		{ EV(SRV_ABORT), ST(CLOSING), ACT(DISCONNECT) | T, 0 },
	};
	static const struct row stray[] = {
		{ EV(ESTABLISHED), ST(DESC), T, 0 },
		{ EV(DESC_OK), ST(READY), MESH_READY, 0 },
		{ EV(RESULT_OK), ST(CLOSING), ACT(DISCONNECT) | T, -EPROTO },
	};
	struct rdma_client_step st;
	struct rdma_client_fsm f;
	bool ok;

	mesh_init(&f, false, PROTO_OP_READ, 7, false);
	tap_ok(f.mesh && f.ops == RW && f.iters == 1 && f.verify &&
	       f.depth == 1 && !f.mesh_read_only, "mesh: READ|WRITE, 1 "
	       "iteration, verified, whatever was asked; depth 1");
	ok = RUN(&f, setup, "setup") && RUN(&f, rows, "mesh");
	tap_ok(ok && f.fail == FAIL(NONE) && f.rounds == 3 &&
	       f.rounds_bad == 1, "mesh: DESC -> READY, rounds of WRITE, "
	       "READ, check; a mismatch stays READY; CLOSE is a clean end "
	       "(%u rounds, %u bad)", f.rounds, f.rounds_bad);
	mesh_init(&f, false, RW, 1, true);
	run(&f, setup, 3, "setup");
	for (ok = true; ok && f.rounds < 2;) {
		ok = rdma_client_fsm_step(&f, f.state == ST(DESC) ||
					  f.state == ST(CONNECT) ?
					  (f.state == ST(CONNECT) ?
					   EV(ESTABLISHED) : EV(DESC_OK)) :
					  f.state == ST(READY) ? EV(ROUND) :
					  f.state == ST(ROUND_CHECK) ?
					  EV(CHECK_OK) : EV(OP_DONE), &st) == 0;
		if (f.state == ST(READY) && (st.act & ACT(ROUND_REPORT)) &&
		    st.iter != f.rounds - 1)
			ok = false;
		if ((st.act & (ACT(ROUND_WRITE) | ACT(ROUND_READ) |
			       ACT(ROUND_CHECK))) && st.iter != f.rounds)
			ok = false;
	}
	tap_ok(ok, "mesh: every round action and report carries the round "
	       "number, 0, 1, ...");
	mesh_init(&f, false, RW, 1, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, early_desc, "early desc");
	tap_ok(ok, "mesh: DESC before the keyed ESTABLISHED: AUTH and READY");
	mesh_init(&f, false, RW, 1, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, lost, "lost");
	tap_ok(ok && f.fail == FAIL(COMPLETION) &&
	       f.fail_state == ST(ROUND_WRITE) && f.rounds == 1,
	       "mesh: a completion error in a round ends the connection "
	       "(completion class)");
	mesh_init(&f, false, RW, 1, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, slow, "slow");
	tap_ok(ok && f.fail == FAIL(TIMEOUT) && f.fail_state == ST(ROUND_READ),
	       "mesh: a round past the step deadline times out");
	mesh_init(&f, false, RW, 1, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, aborted, "aborted");
	tap_ok(ok && f.fail == FAIL(LOCAL) && f.fail_state == ST(READY),
	       "mesh: an abort while READY disconnects, local class");
	mesh_init(&f, false, RW, 1, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, drained, "drained");
	tap_ok(ok && f.fail == FAIL(COMPLETION),
	       "mesh: the server's ABORT (shutdown) while READY: connection "
	       "lost class");
	mesh_init(&f, false, RW, 1, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, stray, "stray");
	tap_ok(ok && f.fail == FAIL(PROTOCOL),
	       "mesh: a RESULT while READY is a protocol error");
	init(&f, false, RW, 2, true);
	ok = RUN(&f, setup, "setup") &&
	     rdma_client_fsm_step(&f, EV(ESTABLISHED), &st) == 0 &&
	     rdma_client_fsm_step(&f, EV(DESC_OK), &st) == 0 &&
	     f.state == ST(OPS) &&
	     rdma_client_fsm_step(&f, EV(ROUND), &st) == -EPROTO;
	tap_ok(ok && f.fail == FAIL(PROTOCOL), "native: no READY, a ROUND "
	       "is illegal");
	mesh_init(&f, true, 0, 1, true);
	tap_ok(!f.mesh, "rping: no mesh sessions");

	tap_ok(rdma_client_fsm_mesh_refused(PROTO_REJ_BAD_HELLO,
					    "bad hello: unknown flags") &&
	       !rdma_client_fsm_mesh_refused(PROTO_REJ_BAD_HELLO,
					     "bad hello: bad ops") &&
	       !rdma_client_fsm_mesh_refused(PROTO_REJ_LIMIT,
					     "unknown flags") &&
	       !rdma_client_fsm_mesh_refused(PROTO_REJ_BAD_HELLO, NULL),
	       "a bad hello for unknown flags means an rdmad without mesh "
	       "sessions; nothing else does");
}

#define RO_READ								\
	{ EV(ROUND), ST(ROUND_READ), ACT(ROUND_READ) | T, 0 },		\
	{ EV(OP_DONE), ST(ROUND_CHECK), ACT(ROUND_CHECK), 0 }
#define BW_START	(ACT(POST_BW) | ACT(ARM_DURATION) | T)
#define BW_END		(ACT(STOP_TIMER) | ACT(BW_REPORT))

static void test_mesh_read_only(void)
{
	static const struct row rows[] = {
		{ EV(ESTABLISHED), ST(DESC), T, 0 },
		{ EV(DESC_OK), ST(READY), MESH_READY, 0 },
		/* The first round writes the pattern, and reads it back. */
		MESH_ROUND,
		{ EV(CHECK_OK), ST(READY), MESH_END, 0 },
		/* Later ones READ it back alone. */
		RO_READ,
		{ EV(CHECK_OK), ST(READY), MESH_END, 0 },
		RO_READ,
		/* A mismatch: the next round writes again... */
		{ EV(CHECK_BAD), ST(READY), MESH_END, 0 },
		MESH_ROUND,
		{ EV(CHECK_OK), ST(READY), MESH_END, 0 },
		/* ...and the one after READs alone; a bandwidth sample
		 * (which writes what the pattern slot holds) changes
		 * nothing. */
		{ EV(BW), ST(BW_WRITE), BW_START, 0 },
		{ EV(STOP), ST(BW_WRITE), T, 0 },
		{ EV(OP_DONE), ST(READY), BW_END, 0 },
		RO_READ,
		{ EV(CHECK_OK), ST(READY), MESH_END, 0 },
		{ EV(CLOSE), ST(CLOSING), ACT(DISCONNECT) | T, 0 },
		{ EV(DISCONNECTED), ST(DONE), ACT(FINISH), 0 },
	};
	static const struct row lost[] = {
		{ EV(ESTABLISHED), ST(DESC), T, 0 },
		{ EV(DESC_OK), ST(READY), MESH_READY, 0 },
		MESH_ROUND,
		{ EV(CHECK_OK), ST(READY), MESH_END, 0 },
		RO_READ,
		{ EV(CHECK_OK), ST(READY), MESH_END, 0 },
		{ EV(ROUND), ST(ROUND_READ), ACT(ROUND_READ) | T, 0 },
		{ EV(TIMEOUT), ST(CLOSING), ACT(DISCONNECT) | T, 0 },
	};
	struct rdma_client_step st;
	struct rdma_client_fsm f;
	uint32_t writes = 0;
	bool ok;

	init(&f, false, PROTO_OP_READ, 1, true);
	rdma_client_fsm_mesh(&f, PROTO_OP_READ);
	tap_ok(f.mesh_read_only && f.ops == RW,
	       "mesh READ alone: READ-only rounds; the HELLO still asks for "
	       "READ|WRITE");
	ok = RUN(&f, setup, "setup") && RUN(&f, rows, "read-only");
	tap_ok(ok && f.rounds == 5 && f.rounds_bad == 1 &&
	       f.fail == FAIL(NONE),
	       "mesh READ alone: the first round WRITEs, later ones READ "
	       "back alone; after a mismatch one WRITEs again; a bandwidth "
	       "sample does not (%u rounds, %u bad)", f.rounds, f.rounds_bad);
	init(&f, false, PROTO_OP_READ, 1, true);
	rdma_client_fsm_mesh(&f, PROTO_OP_READ);
	ok = RUN(&f, setup, "setup") && RUN(&f, lost, "read-only lost");
	tap_ok(ok && f.fail == FAIL(TIMEOUT) && f.fail_state == ST(ROUND_READ),
	       "mesh READ alone: a READ past the deadline times out");
	/* Every round's READ and its report carry the round number. */
	init(&f, false, PROTO_OP_READ, 1, true);
	rdma_client_fsm_mesh(&f, PROTO_OP_READ);
	run(&f, setup, 3, "setup");
	rdma_client_fsm_step(&f, EV(ESTABLISHED), &st);
	rdma_client_fsm_step(&f, EV(DESC_OK), &st);
	for (ok = true; ok && f.rounds < 4;) {
		ok = rdma_client_fsm_step(&f, f.state == ST(READY) ? EV(ROUND) :
					  f.state == ST(ROUND_CHECK) ?
					  EV(CHECK_OK) : EV(OP_DONE), &st) == 0;
		writes += !!(st.act & ACT(ROUND_WRITE));
		if ((st.act & (ACT(ROUND_WRITE) | ACT(ROUND_READ) |
			       ACT(ROUND_CHECK))) && st.iter != f.rounds)
			ok = false;
		if ((st.act & ACT(ROUND_REPORT)) && st.iter != f.rounds - 1)
			ok = false;
	}
	tap_ok(ok && writes == 1, "mesh READ alone: 4 rounds, one WRITE, "
	       "round numbers 0..3 on every action and report");
	/* A READ|WRITE session never skips its WRITE. */
	mesh_init(&f, false, PROTO_OP_READ, 1, true);
	run(&f, setup, 3, "setup");
	rdma_client_fsm_step(&f, EV(ESTABLISHED), &st);
	rdma_client_fsm_step(&f, EV(DESC_OK), &st);
	for (writes = 0, ok = true; ok && f.rounds < 3;) {
		ok = rdma_client_fsm_step(&f, f.state == ST(READY) ? EV(ROUND) :
					  f.state == ST(ROUND_CHECK) ?
					  EV(CHECK_OK) : EV(OP_DONE), &st) == 0;
		writes += !!(st.act & ACT(ROUND_WRITE));
	}
	tap_ok(ok && writes == 3, "mesh READ|WRITE: every round WRITEs");
}

/*
 * A bandwidth sample at depth DEPTH: COMPLETE completions before the
 * duration's STOP, then the drain.  Checks the pipe: exactly depth in
 * flight until STOP, WRITEs numbered 0, 1, ... in order, no post after
 * STOP, the report once the last one completed.
 */
static bool bw_sample(struct rdma_client_fsm *f, uint32_t depth,
		      uint32_t complete)
{
	struct rdma_client_step st;
	uint32_t next = 0, inflight = 0, k;
	bool ok;

	ok = rdma_client_fsm_step(f, EV(BW), &st) == 0 &&
	     f->state == ST(BW_WRITE) && st.act == BW_START &&
	     st.iter == 0 && st.count == depth;
	next = inflight = st.count;
	for (k = 0; ok && k < complete; k++) {
		ok = rdma_client_fsm_step(f, EV(OP_DONE), &st) == 0 &&
		     st.act == (ACT(POST_BW) | T) && st.iter == next &&
		     st.count == 1 && f->bw_inflight == depth;
		next++;
	}
	ok = ok && rdma_client_fsm_step(f, EV(STOP), &st) == 0 &&
	     st.act == T && f->state == ST(BW_WRITE);
	for (k = 0; ok && k < inflight; k++) {
		ok = rdma_client_fsm_step(f, EV(OP_DONE), &st) == 0 &&
		     !(st.act & ACT(POST_BW));
		if (k + 1 < inflight)
			ok = ok && st.act == T && f->state == ST(BW_WRITE);
		else
			ok = ok && st.act == BW_END && f->state == ST(READY);
	}
	if (!ok)
		tap_diag("bw depth %u: state %s act 0x%x iter %u count %u",
			 depth, state_str(f->state), st.act, st.iter,
			 st.count);
	return ok && f->bw_done == complete + depth && f->bw_posted == next;
}

static void mesh_bw_ready(struct rdma_client_fsm *f, uint32_t depth)
{
	struct rdma_client_step st;

	init(f, false, RW, 1, true);
	rdma_client_fsm_pipeline(f, depth, false);
	rdma_client_fsm_mesh(f, RW);
	run(f, setup, 3, "setup");
	rdma_client_fsm_step(f, EV(ESTABLISHED), &st);
	rdma_client_fsm_step(f, EV(DESC_OK), &st);
}

static void test_mesh_bw(void)
{
	static const struct row lost[] = {
		{ EV(BW), ST(BW_WRITE), BW_START, 0 },
		{ EV(OP_DONE), ST(BW_WRITE), ACT(POST_BW) | T, 0 },
		{ EV(WC_ERR), ST(CLOSING), ACT(DISCONNECT) | T, 0 },
		/* Flushed WRITEs while closing change nothing. */
		{ EV(OP_DONE), ST(CLOSING), 0, 0 },
		{ EV(DISCONNECTED), ST(FAILED), ACT(FINISH), 0 },
	};
	static const struct row stuck[] = {
		{ EV(BW), ST(BW_WRITE), BW_START, 0 },
		{ EV(STOP), ST(BW_WRITE), T, 0 },
		{ EV(TIMEOUT), ST(CLOSING), ACT(DISCONNECT) | T, 0 },
	};
	static const struct row busy[] = {
		{ EV(BW), ST(BW_WRITE), BW_START, 0 },
		{ EV(CLOSE), ST(CLOSING), ACT(DISCONNECT) | T, -EPROTO },
	};
	static const struct row late[] = {
		{ EV(BW), ST(BW_WRITE), BW_START, 0 },
		{ EV(STOP), ST(BW_WRITE), T, 0 },
		{ EV(OP_DONE), ST(READY), BW_END, 0 },
		/* A second STOP (a late timer) while READY: nothing. */
		{ EV(STOP), ST(READY), 0, 0 },
		MESH_ROUND,
		{ EV(CHECK_OK), ST(READY), MESH_END, 0 },
	};
	struct rdma_client_fsm f;
	bool ok;

	mesh_bw_ready(&f, 8);
	tap_ok(f.depth == 8 && f.state == ST(READY), "mesh: the depth is "
	       "that of bandwidth samples");
	ok = bw_sample(&f, 8, 100) && bw_sample(&f, 8, 0);
	tap_ok(ok && f.rounds == 0 && f.fail == FAIL(NONE),
	       "bandwidth sample at depth 8: 8 in flight until STOP, WRITEs "
	       "in order, the report after the last; a second one starts "
	       "from 0");
	mesh_bw_ready(&f, 1);
	tap_ok(bw_sample(&f, 1, 5), "bandwidth sample at depth 1");
	mesh_bw_ready(&f, 1);
	tap_ok(RUN(&f, late, "late") && f.rounds == 1,
	       "bandwidth sample, then a late STOP ignored, then a round");
	mesh_bw_ready(&f, 2);
	tap_ok(RUN(&f, lost, "bw lost") && f.fail == FAIL(COMPLETION) &&
	       f.fail_state == ST(BW_WRITE),
	       "bandwidth sample: a completion error ends the connection "
	       "(completion class)");
	mesh_bw_ready(&f, 1);
	tap_ok(RUN(&f, stuck, "bw stuck") && f.fail == FAIL(TIMEOUT) &&
	       f.fail_state == ST(BW_WRITE),
	       "bandwidth sample: a WRITE past the step deadline times out");
	mesh_bw_ready(&f, 1);
	tap_ok(RUN(&f, busy, "bw busy") && f.fail == FAIL(PROTOCOL),
	       "bandwidth sample: CLOSE during it is illegal (the driver "
	       "says -EBUSY first)");
}

static void test_names(void)
{
	int i, j, ok = 1;

	for (i = 0; i < ST(_COUNT); i++)
		if (!strcmp(state_str((enum rdma_client_state)i), "?") ||
		    !strcmp(rdma_client_fsm_state_step(
				    (enum rdma_client_state)i), "?"))
			ok = 0;
	for (i = 0; i < EV(_COUNT); i++)
		if (!strcmp(event_str((enum rdma_client_event)i), "?"))
			ok = 0;
	tap_ok(ok, "every state and event has a name");

	ok = rdma_client_fsm_fail_code(FAIL(NONE)) == 0;
	for (i = 0; i < FAIL(_COUNT); i++)
		for (j = i + 1; j < FAIL(_COUNT); j++)
			if (code((enum rdma_client_fail)i) ==
			    code((enum rdma_client_fail)j) ||
			    code((enum rdma_client_fail)j) == 64)
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
	test_connect();
	test_rping();
	test_failures();
	test_matrix();
	test_depth();
	test_duration();
	test_mesh();
	test_mesh_read_only();
	test_mesh_bw();
	test_names();
	return tap_done();
}
