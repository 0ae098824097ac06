/* SPDX-License-Identifier: BSD-2-Clause */
/* test-probe-fsm.c - rdma-probe's client state machine, table-driven. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "probe_fsm.h"
#include "proto.h"
#include "tap.h"

#define RW	(PROTO_OP_READ | PROTO_OP_WRITE)
#define T	PROBE_ACT_ARM_TIMER

struct row {
	enum probe_event ev;
	enum probe_state want;
	uint32_t act;		/* exact action mask expected */
	int ret;		/* expected return of probe_fsm_step */
};

static int transitions;
static bool transition_ok = true;

static void on_transition(void *arg, enum probe_state from,
			  enum probe_state to, enum probe_event ev)
{
	struct probe_fsm *f = arg;

	transitions++;
	if (from == to || f->state != to)
		transition_ok = false;
}

static void init(struct probe_fsm *f, bool rping, uint8_t ops,
		 uint32_t iters, bool verify)
{
	probe_fsm_init(f, rping, ops, iters, verify);
	f->on_transition = on_transition;
	f->arg = f;
}

/* Feed the rows; report the first one that differs. */
static bool run(struct probe_fsm *f, const struct row *rows, size_t n,
		const char *name)
{
	struct probe_step st;
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = probe_fsm_step(f, rows[i].ev, &st);
		if (ret != rows[i].ret || f->state != rows[i].want ||
		    st.act != rows[i].act) {
			tap_diag("%s row %zu: %s -> state %s act 0x%x ret %d, "
				 "want %s act 0x%x ret %d", name, i,
				 probe_event_str(rows[i].ev),
				 probe_state_str(f->state), st.act, ret,
				 probe_state_str(rows[i].want), rows[i].act,
				 rows[i].ret);
			return false;
		}
	}
	return true;
}

#define RUN(f, rows, name) run(f, rows, sizeof(rows) / sizeof(rows[0]), name)

static const struct row setup[] = {
	{ PROBE_EV_START, PROBE_ST_ADDR, PROBE_ACT_RESOLVE_ADDR | T, 0 },
	{ PROBE_EV_ADDR_OK, PROBE_ST_ROUTE, PROBE_ACT_RESOLVE_ROUTE | T, 0 },
	{ PROBE_EV_ROUTE_OK, PROBE_ST_CONNECT, PROBE_ACT_CONNECT | T, 0 },
};

static void test_native_both(void)
{
	static const struct row rows[] = {
		{ PROBE_EV_ESTABLISHED, PROBE_ST_DESC, T, 0 },
		{ PROBE_EV_DESC_OK, PROBE_ST_OPS, PROBE_ACT_POST_READ | T, 0 },
		{ PROBE_EV_OP_DONE, PROBE_ST_VERIFY, PROBE_ACT_VERIFY_READ, 0 },
		{ PROBE_EV_CHECK_OK, PROBE_ST_OPS, PROBE_ACT_POST_READ | T, 0 },
		{ PROBE_EV_OP_DONE, PROBE_ST_VERIFY, PROBE_ACT_VERIFY_READ, 0 },
		{ PROBE_EV_CHECK_OK, PROBE_ST_OPS, PROBE_ACT_POST_WRITE | T, 0 },
		{ PROBE_EV_OP_DONE, PROBE_ST_OPS, PROBE_ACT_POST_WRITE | T, 0 },
		{ PROBE_EV_OP_DONE, PROBE_ST_RESULT, PROBE_ACT_SEND_DONE | T, 0 },
		{ PROBE_EV_RESULT_OK, PROBE_ST_CLOSING, PROBE_ACT_DISCONNECT | T, 0 },
		{ PROBE_EV_WC_ERR, PROBE_ST_CLOSING, 0, 0 },	/* flushed */
		{ PROBE_EV_DISCONNECTED, PROBE_ST_DONE, PROBE_ACT_FINISH, 0 },
		{ PROBE_EV_TIMEOUT, PROBE_ST_DONE, 0, 0 },	/* ignored */
	};
	struct probe_fsm f;
	bool ok;

	transitions = 0;
	transition_ok = true;
	init(&f, false, RW, 2, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, rows, "native both");
	tap_ok(ok && f.fail == PROBE_FAIL_NONE && f.reads_done == 2 &&
	       f.writes_done == 2, "native READ+WRITE: reads first, then "
	       "writes, DONE, RESULT, disconnect");
	tap_ok(transition_ok && transitions == 12,
	       "the setter reports every state change once (%d)", transitions);
}

static void test_native_iters(void)
{
	struct probe_fsm f;
	struct probe_step st;
	uint32_t i, reads = 0, writes = 0;

	init(&f, false, PROTO_OP_WRITE, 5, true);
	run(&f, setup, 3, "setup");
	probe_fsm_step(&f, PROBE_EV_DESC_OK, &st);	/* early DESC */
	tap_ok(f.state == PROBE_ST_CONNECT && f.desc_ready && st.act == 0,
	       "DESC before ESTABLISHED is kept, no action yet");
	probe_fsm_step(&f, PROBE_EV_ESTABLISHED, &st);
	tap_ok(f.state == PROBE_ST_OPS && (st.act & PROBE_ACT_POST_WRITE) &&
	       st.iter == 0, "ESTABLISHED after DESC starts the WRITEs");
	for (i = 0; i < 10 && f.state == PROBE_ST_OPS; i++) {
		if (st.act & PROBE_ACT_POST_WRITE && st.iter == writes)
			writes++;
		probe_fsm_step(&f, PROBE_EV_OP_DONE, &st);
	}
	tap_ok(writes == 5 && reads == 0 && f.state == PROBE_ST_RESULT &&
	       st.act == (PROBE_ACT_SEND_DONE | T),
	       "write only: 5 WRITEs with iterations 0..4, then DONE");

	init(&f, false, PROTO_OP_READ, 3, false);
	run(&f, setup, 3, "setup");
	probe_fsm_step(&f, PROBE_EV_ESTABLISHED, &st);
	probe_fsm_step(&f, PROBE_EV_DESC_OK, &st);
	for (i = 0; i < 10 && f.state == PROBE_ST_OPS; i++)
		probe_fsm_step(&f, PROBE_EV_OP_DONE, &st);
	tap_ok(f.reads_done == 3 && f.state == PROBE_ST_RESULT,
	       "read only without verification: no VERIFY step");
}

static void test_rping(void)
{
	static const struct row rows[] = {
		{ PROBE_EV_ESTABLISHED, PROBE_ST_RPING_SRC,
		  PROBE_ACT_SEND_SOURCE | T, 0 },
		{ PROBE_EV_GO_AHEAD, PROBE_ST_RPING_SINK,
		  PROBE_ACT_SEND_SINK | T, 0 },
		{ PROBE_EV_GO_AHEAD, PROBE_ST_VERIFY, PROBE_ACT_VERIFY_SINK, 0 },
		{ PROBE_EV_CHECK_OK, PROBE_ST_RPING_SRC,
		  PROBE_ACT_SEND_SOURCE | T, 0 },
		{ PROBE_EV_GO_AHEAD, PROBE_ST_RPING_SINK,
		  PROBE_ACT_SEND_SINK | T, 0 },
		{ PROBE_EV_GO_AHEAD, PROBE_ST_VERIFY, PROBE_ACT_VERIFY_SINK, 0 },
		{ PROBE_EV_CHECK_OK, PROBE_ST_CLOSING,
		  PROBE_ACT_DISCONNECT | T, 0 },
		{ PROBE_EV_DISCONNECTED, PROBE_ST_DONE, PROBE_ACT_FINISH, 0 },
	};
	static const struct row bad[] = {
		{ PROBE_EV_ESTABLISHED, PROBE_ST_RPING_SRC,
		  PROBE_ACT_SEND_SOURCE | T, 0 },
		{ PROBE_EV_GO_AHEAD, PROBE_ST_RPING_SINK,
		  PROBE_ACT_SEND_SINK | T, 0 },
		{ PROBE_EV_GO_AHEAD, PROBE_ST_VERIFY, PROBE_ACT_VERIFY_SINK, 0 },
		{ PROBE_EV_CHECK_BAD, PROBE_ST_CLOSING,
		  PROBE_ACT_DISCONNECT | T, 0 },
		{ PROBE_EV_DISCONNECTED, PROBE_ST_FAILED, PROBE_ACT_FINISH, 0 },
	};
	struct probe_fsm f;
	bool ok;

	init(&f, true, 0, 2, false);
	ok = RUN(&f, setup, "setup") && RUN(&f, rows, "rping");
	tap_ok(ok && f.fail == PROBE_FAIL_NONE && f.pings_done == 2 &&
	       f.verify, "rping: source advert, sink advert, verify, twice");

	init(&f, true, 0, 2, true);
	ok = RUN(&f, setup, "setup") && RUN(&f, bad, "rping mismatch");
	tap_ok(ok && f.fail == PROBE_FAIL_MISMATCH &&
	       probe_fail_exit(f.fail) == 9,
	       "rping sink mismatch: disconnect, then FAILED with exit 9");

	init(&f, true, 0, 2, true);
	run(&f, setup, 3, "setup");
	tap_ok(probe_fsm_step(&f, PROBE_EV_DESC_OK, &(struct probe_step){ 0 })
	       == -EPROTO && f.state == PROBE_ST_FAILED &&
	       f.fail == PROBE_FAIL_PROTOCOL,
	       "rping: a DESC is illegal");
}

struct fail_case {
	const char *name;
	enum probe_state at;	/* reach this state first */
	enum probe_event ev;
	enum probe_state want;
	uint32_t act;
	enum probe_fail fail;
	int ret;
};

/* Events that take a fresh native READ+WRITE fsm (iters 1) to state s. */
static void reach(struct probe_fsm *f, enum probe_state s)
{
	static const enum probe_event path[] = {
		PROBE_EV_START, PROBE_EV_ADDR_OK, PROBE_EV_ROUTE_OK,
		PROBE_EV_ESTABLISHED, PROBE_EV_DESC_OK, PROBE_EV_OP_DONE,
		PROBE_EV_CHECK_OK, PROBE_EV_OP_DONE, PROBE_EV_RESULT_OK,
	};
	struct probe_step st;
	size_t i;

	init(f, false, RW, 1, true);
	for (i = 0; i < sizeof(path) / sizeof(path[0]) && f->state != s; i++)
		probe_fsm_step(f, path[i], &st);
}

static void test_failures(void)
{
	static const struct fail_case cases[] = {
		{ "ADDR_ERR", PROBE_ST_ADDR, PROBE_EV_ADDR_ERR, PROBE_ST_FAILED,
		  PROBE_ACT_FINISH, PROBE_FAIL_ADDR, 0 },
		{ "timeout in ADDR", PROBE_ST_ADDR, PROBE_EV_TIMEOUT,
		  PROBE_ST_FAILED, PROBE_ACT_FINISH, PROBE_FAIL_ADDR, 0 },
		{ "ROUTE_ERR", PROBE_ST_ROUTE, PROBE_EV_ROUTE_ERR,
		  PROBE_ST_FAILED, PROBE_ACT_FINISH, PROBE_FAIL_ROUTE, 0 },
		{ "timeout in ROUTE", PROBE_ST_ROUTE, PROBE_EV_TIMEOUT,
		  PROBE_ST_FAILED, PROBE_ACT_FINISH, PROBE_FAIL_ROUTE, 0 },
		{ "REJECTED", PROBE_ST_CONNECT, PROBE_EV_REJECTED,
		  PROBE_ST_FAILED, PROBE_ACT_FINISH, PROBE_FAIL_REJECTED, 0 },
		{ "CONN_ERR", PROBE_ST_CONNECT, PROBE_EV_CONN_ERR,
		  PROBE_ST_FAILED, PROBE_ACT_FINISH, PROBE_FAIL_CONNECT, 0 },
		{ "timeout in CONNECT", PROBE_ST_CONNECT, PROBE_EV_TIMEOUT,
		  PROBE_ST_FAILED, PROBE_ACT_FINISH, PROBE_FAIL_TIMEOUT, 0 },
		{ "bad welcome", PROBE_ST_CONNECT, PROBE_EV_PROTO_ERR,
		  PROBE_ST_CLOSING, PROBE_ACT_DISCONNECT | T,
		  PROBE_FAIL_PROTOCOL, 0 },
		{ "local error in CONNECT", PROBE_ST_CONNECT,
		  PROBE_EV_LOCAL_ERR, PROBE_ST_FAILED, PROBE_ACT_FINISH,
		  PROBE_FAIL_LOCAL, 0 },
		{ "timeout in DESC", PROBE_ST_DESC, PROBE_EV_TIMEOUT,
		  PROBE_ST_CLOSING, PROBE_ACT_DISCONNECT | T,
		  PROBE_FAIL_TIMEOUT, 0 },
		{ "bad DESC", PROBE_ST_DESC, PROBE_EV_PROTO_ERR,
		  PROBE_ST_CLOSING, PROBE_ACT_DISCONNECT | T,
		  PROBE_FAIL_PROTOCOL, 0 },
		{ "WC_ERR in OPS", PROBE_ST_OPS, PROBE_EV_WC_ERR,
		  PROBE_ST_CLOSING, PROBE_ACT_DISCONNECT | T,
		  PROBE_FAIL_COMPLETION, 0 },
		{ "peer gone in OPS", PROBE_ST_OPS, PROBE_EV_DISCONNECTED,
		  PROBE_ST_FAILED, PROBE_ACT_FINISH, PROBE_FAIL_COMPLETION, 0 },
		{ "unreachable in OPS (partition)", PROBE_ST_OPS,
		  PROBE_EV_CONN_ERR, PROBE_ST_CLOSING,
		  PROBE_ACT_DISCONNECT | T, PROBE_FAIL_COMPLETION, 0 },
		{ "READ mismatch", PROBE_ST_VERIFY, PROBE_EV_CHECK_BAD,
		  PROBE_ST_CLOSING, PROBE_ACT_DISCONNECT | T,
		  PROBE_FAIL_MISMATCH, 0 },
		{ "RESULT mismatch", PROBE_ST_RESULT, PROBE_EV_RESULT_BAD,
		  PROBE_ST_CLOSING, PROBE_ACT_DISCONNECT | T,
		  PROBE_FAIL_MISMATCH, 0 },
		{ "peer gone in RESULT", PROBE_ST_RESULT,
		  PROBE_EV_DISCONNECTED, PROBE_ST_FAILED, PROBE_ACT_FINISH,
		  PROBE_FAIL_COMPLETION, 0 },
		{ "disconnect timeout", PROBE_ST_CLOSING, PROBE_EV_TIMEOUT,
		  PROBE_ST_FAILED, PROBE_ACT_FINISH, PROBE_FAIL_TIMEOUT, 0 },
		{ "second ESTABLISHED", PROBE_ST_OPS, PROBE_EV_ESTABLISHED,
		  PROBE_ST_CLOSING, PROBE_ACT_DISCONNECT | T,
		  PROBE_FAIL_PROTOCOL, -EPROTO },
		{ "RESULT while in OPS", PROBE_ST_OPS, PROBE_EV_RESULT_OK,
		  PROBE_ST_CLOSING, PROBE_ACT_DISCONNECT | T,
		  PROBE_FAIL_PROTOCOL, -EPROTO },
		{ "GO_AHEAD in native", PROBE_ST_DESC, PROBE_EV_GO_AHEAD,
		  PROBE_ST_CLOSING, PROBE_ACT_DISCONNECT | T,
		  PROBE_FAIL_PROTOCOL, -EPROTO },
		{ "server deadline ABORT in OPS", PROBE_ST_OPS,
		  PROBE_EV_SRV_TIMEOUT, PROBE_ST_CLOSING,
		  PROBE_ACT_DISCONNECT | T, PROBE_FAIL_TIMEOUT, 0 },
		{ "server shutdown ABORT in OPS", PROBE_ST_OPS,
		  PROBE_EV_SRV_ABORT, PROBE_ST_CLOSING,
		  PROBE_ACT_DISCONNECT | T, PROBE_FAIL_COMPLETION, 0 },
		{ "server ABORT in RESULT", PROBE_ST_RESULT,
		  PROBE_EV_SRV_ABORT, PROBE_ST_CLOSING,
		  PROBE_ACT_DISCONNECT | T, PROBE_FAIL_COMPLETION, 0 },
		{ "server deadline ABORT in DESC", PROBE_ST_DESC,
		  PROBE_EV_SRV_TIMEOUT, PROBE_ST_CLOSING,
		  PROBE_ACT_DISCONNECT | T, PROBE_FAIL_TIMEOUT, 0 },
		{ "OP_DONE before connect", PROBE_ST_ROUTE, PROBE_EV_OP_DONE,
		  PROBE_ST_FAILED, PROBE_ACT_FINISH, PROBE_FAIL_PROTOCOL,
		  -EPROTO },
	};
	const struct fail_case *fc;
	struct probe_step st;
	struct probe_fsm f;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fc = &cases[i];
		reach(&f, fc->at);
		if (f.state != fc->at) {
			tap_ok(0, "%s: could not reach %s", fc->name,
			       probe_state_str(fc->at));
			continue;
		}
		ret = probe_fsm_step(&f, fc->ev, &st);
		tap_ok(ret == fc->ret && f.state == fc->want &&
		       st.act == fc->act && f.fail == fc->fail,
		       "%s in %s -> %s, %s (got %s, act 0x%x, fail %s)",
		       probe_event_str(fc->ev), probe_state_str(fc->at),
		       probe_state_str(fc->want), probe_fail_str(fc->fail),
		       probe_state_str(f.state), st.act,
		       probe_fail_str(f.fail));
	}

	/* The first failure is kept. */
	reach(&f, PROBE_ST_OPS);
	probe_fsm_step(&f, PROBE_EV_WC_ERR, &st);
	probe_fsm_step(&f, PROBE_EV_CHECK_BAD, &st);
	probe_fsm_step(&f, PROBE_EV_TIMEOUT, &st);
	tap_ok(f.state == PROBE_ST_FAILED && f.fail == PROBE_FAIL_COMPLETION,
	       "the first failure's class is kept through closing");

	/* ABORT, then the server's disconnect: the ABORT's class stays. */
	reach(&f, PROBE_ST_OPS);
	probe_fsm_step(&f, PROBE_EV_SRV_TIMEOUT, &st);
	probe_fsm_step(&f, PROBE_EV_WC_ERR, &st);
	probe_fsm_step(&f, PROBE_EV_DISCONNECTED, &st);
	tap_ok(f.state == PROBE_ST_FAILED && f.fail == PROBE_FAIL_TIMEOUT &&
	       probe_fail_exit(f.fail) == 6,
	       "server deadline ABORT, then disconnect: timed out, exit 6");
}

/* Which class a server's ABORT reason stands for. */
static void test_abort_reasons(void)
{
	static const struct {
		uint8_t reason;
		enum probe_event ev;
	} t[] = {
		{ PROTO_ABORT_SESSION, PROBE_EV_SRV_TIMEOUT },
		{ PROTO_ABORT_DURATION, PROBE_EV_SRV_TIMEOUT },
		{ PROTO_ABORT_IDLE, PROBE_EV_SRV_TIMEOUT },
		{ PROTO_ABORT_STALLED, PROBE_EV_SRV_TIMEOUT },
		{ PROTO_ABORT_PROTOCOL, PROBE_EV_PROTO_ERR },
		{ PROTO_ABORT_AUTH, PROBE_EV_KEY_ERR },
		{ PROTO_ABORT_SHUTDOWN, PROBE_EV_SRV_ABORT },
		{ 0, PROBE_EV_SRV_ABORT },
		{ 99, PROBE_EV_SRV_ABORT },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		tap_ok(probe_abort_event(t[i].reason) == t[i].ev,
		       "ABORT reason %u -> %s", t[i].reason,
		       probe_event_str(t[i].ev));
}

/* A keyed server and no key (or a refused key): its own class, exit 10;
 * the connection is up, so it closes the clean way. */
static void test_key(void)
{
	struct probe_step st;
	struct probe_fsm f;

	reach(&f, PROBE_ST_CONNECT);
	probe_fsm_step(&f, PROBE_EV_KEY_ERR, &st);
	tap_ok(f.fail == PROBE_FAIL_KEY && probe_fail_exit(f.fail) == 10 &&
	       f.state == PROBE_ST_CLOSING && (st.act & PROBE_ACT_DISCONNECT),
	       "no key at the welcome: key class, exit 10, disconnect (%s)",
	       probe_state_str(f.state));
	reach(&f, PROBE_ST_DESC);
	probe_fsm_step(&f, probe_abort_event(PROTO_ABORT_AUTH), &st);
	tap_ok(f.fail == PROBE_FAIL_KEY && f.state == PROBE_ST_CLOSING,
	       "ABORT for a wrong key while waiting for DESC: key class");
}

/* The worst of two failures: a mismatch anywhere, then the larger code. */
static void test_worse(void)
{
	tap_ok(probe_fail_worse(PROBE_FAIL_MISMATCH, PROBE_FAIL_KEY) &&
	       !probe_fail_worse(PROBE_FAIL_KEY, PROBE_FAIL_MISMATCH),
	       "a mismatch is worse than a key failure (exit 10 > 9)");
	tap_ok(probe_fail_worse(PROBE_FAIL_KEY, PROBE_FAIL_REJECTED) &&
	       probe_fail_worse(PROBE_FAIL_TIMEOUT, PROBE_FAIL_REJECTED) &&
	       !probe_fail_worse(PROBE_FAIL_REJECTED, PROBE_FAIL_TIMEOUT),
	       "otherwise the larger exit code");
	tap_ok(!probe_fail_worse(PROBE_FAIL_NONE, PROBE_FAIL_LOCAL) &&
	       probe_fail_worse(PROBE_FAIL_LOCAL, PROBE_FAIL_NONE) &&
	       !probe_fail_worse(PROBE_FAIL_MISMATCH, PROBE_FAIL_MISMATCH),
	       "any failure is worse than none; nothing worse than itself");
}

/* Every state x every event: no crash, sane result, terminal is sticky. */
static void test_matrix(void)
{
	struct probe_step st;
	struct probe_fsm f;
	int s, e, ret, bad = 0, ignored_terminal = 1;

	for (s = 0; s < PROBE_ST__COUNT; s++) {
		for (e = 0; e < PROBE_EV__COUNT; e++) {
			reach(&f, (enum probe_state)s);
			if (s == PROBE_ST_DONE) {
				probe_fsm_step(&f, PROBE_EV_DISCONNECTED, &st);
			} else if (s == PROBE_ST_FAILED) {
				init(&f, false, RW, 1, true);
				probe_fsm_step(&f, PROBE_EV_START, &st);
				probe_fsm_step(&f, PROBE_EV_ADDR_ERR, &st);
			} else if (s == PROBE_ST_RPING_SRC ||
				   s == PROBE_ST_RPING_SINK) {
				init(&f, true, 0, 1, true);
				probe_fsm_step(&f, PROBE_EV_START, &st);
				probe_fsm_step(&f, PROBE_EV_ADDR_OK, &st);
				probe_fsm_step(&f, PROBE_EV_ROUTE_OK, &st);
				probe_fsm_step(&f, PROBE_EV_ESTABLISHED, &st);
				if (s == PROBE_ST_RPING_SINK)
					probe_fsm_step(&f, PROBE_EV_GO_AHEAD,
						       &st);
			}
			if ((int)f.state != s) {
				tap_diag("cannot reach %s",
					 probe_state_str((enum probe_state)s));
				bad++;
				continue;
			}
			ret = probe_fsm_step(&f, (enum probe_event)e, &st);
			if (ret != 0 && ret != -EPROTO)
				bad++;
			if (ret == -EPROTO && (f.fail != PROBE_FAIL_PROTOCOL ||
			    (f.state != PROBE_ST_FAILED &&
			     f.state != PROBE_ST_CLOSING)))
				bad++;
			if ((s == PROBE_ST_DONE || s == PROBE_ST_FAILED) &&
			    (ret || (int)f.state != s || st.act))
				ignored_terminal = 0;
			if ((st.act & PROBE_ACT_FINISH) &&
			    !probe_fsm_terminal(&f))
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

static void pipe_apply(struct probe_fsm *f, const struct probe_step *st,
		       struct pipe_log *lg, uint32_t *inflight)
{
	uint32_t *posted;

	if (!(st->act & (PROBE_ACT_POST_READ | PROBE_ACT_POST_WRITE)))
		return;
	posted = st->act & PROBE_ACT_POST_READ ? &lg->reads_posted :
						 &lg->writes_posted;
	if (st->iter != *posted)
		lg->in_order = false;
	if (!st->count)
		lg->count_ok = false;
	if ((st->act & PROBE_ACT_POST_WRITE) &&
	    st->iter + st->count == f->limit &&
	    (st->count != 1 || *inflight != 0))
		lg->last_alone = false;
	*posted += st->count;
	*inflight += st->count;
	if (*inflight > lg->max_inflight)
		lg->max_inflight = *inflight;
}

static void pipe_run(struct probe_fsm *f, struct pipe_log *lg,
		     uint32_t stop_after)
{
	struct probe_step st;
	uint32_t inflight = 0;

	memset(lg, 0, sizeof(*lg));
	lg->in_order = lg->last_alone = lg->count_ok = true;
	run(f, setup, 3, "setup");
	probe_fsm_step(f, PROBE_EV_ESTABLISHED, &st);
	probe_fsm_step(f, PROBE_EV_DESC_OK, &st);
	pipe_apply(f, &st, lg, &inflight);
	while (f->state == PROBE_ST_OPS && lg->steps < 10000) {
		lg->steps++;
		if (lg->steps == stop_after) {
			probe_fsm_step(f, PROBE_EV_STOP, &st);
			pipe_apply(f, &st, lg, &inflight);
			continue;
		}
		probe_fsm_step(f, PROBE_EV_OP_DONE, &st);
		inflight--;
		if (st.act & PROBE_ACT_VERIFY_READ)
			probe_fsm_step(f, PROBE_EV_CHECK_OK, &st);
		pipe_apply(f, &st, lg, &inflight);
	}
}

static void test_depth(void)
{
	struct probe_step st;
	struct probe_fsm f;
	struct pipe_log lg;

	init(&f, false, RW, 10, true);
	probe_fsm_pipeline(&f, 4, false);
	pipe_run(&f, &lg, 0);
	tap_ok(f.state == PROBE_ST_RESULT && f.reads_done == 10 &&
	       f.writes_done == 10 && lg.reads_posted == 10 &&
	       lg.writes_posted == 10 && lg.in_order && lg.count_ok,
	       "depth 4: 10 READs and 10 WRITEs posted in order, then DONE");
	tap_ok(lg.max_inflight == 4, "depth 4: at most 4 in flight (%u)",
	       lg.max_inflight);
	tap_ok(lg.last_alone, "depth 4: the last WRITE is posted alone");

	init(&f, false, PROTO_OP_READ, 3, false);
	probe_fsm_pipeline(&f, 8, false);
	run(&f, setup, 3, "setup");
	probe_fsm_step(&f, PROBE_EV_ESTABLISHED, &st);
	probe_fsm_step(&f, PROBE_EV_DESC_OK, &st);
	tap_ok(st.act == (PROBE_ACT_POST_READ | T) && st.iter == 0 &&
	       st.count == 3, "depth above iterations: all 3 READs at once");
	probe_fsm_step(&f, PROBE_EV_OP_DONE, &st);
	probe_fsm_step(&f, PROBE_EV_OP_DONE, &st);
	probe_fsm_step(&f, PROBE_EV_OP_DONE, &st);
	tap_ok(f.state == PROBE_ST_RESULT &&
	       probe_fsm_step(&f, PROBE_EV_OP_DONE, &st) == -EPROTO,
	       "a completion nobody posted is a protocol error");

	init(&f, false, PROTO_OP_WRITE, 2, true);
	probe_fsm_pipeline(&f, 4, false);
	run(&f, setup, 3, "setup");
	probe_fsm_step(&f, PROBE_EV_ESTABLISHED, &st);
	probe_fsm_step(&f, PROBE_EV_DESC_OK, &st);
	tap_ok(st.count == 1 && st.iter == 0, "2 WRITEs at depth 4: the "
	       "first goes alone, since the second is the last");
}

static void test_duration(void)
{
	struct probe_step st;
	struct probe_fsm f;
	struct pipe_log lg;

	init(&f, false, RW, 1000, true);
	probe_fsm_pipeline(&f, 4, true);
	run(&f, setup, 3, "setup");
	probe_fsm_step(&f, PROBE_EV_ESTABLISHED, &st);
	probe_fsm_step(&f, PROBE_EV_DESC_OK, &st);
	tap_ok((st.act & PROBE_ACT_ARM_DURATION) &&
	       (st.act & PROBE_ACT_POST_READ) && st.count == 4,
	       "duration: the READ clock starts with the first READs");

	/* STOP after 20 steps of READs: drain, then WRITEs with a clock. */
	init(&f, false, PROTO_OP_READ, 1000, true);
	probe_fsm_pipeline(&f, 4, true);
	pipe_run(&f, &lg, 20);
	tap_ok(f.state == PROBE_ST_RESULT && f.reads_done == lg.reads_posted &&
	       f.reads_done < 1000 && f.reads_done >= 20,
	       "duration READ: STOP drains what is in flight, then DONE "
	       "(%u READs)", f.reads_done);

	init(&f, false, PROTO_OP_WRITE, 1000, true);
	probe_fsm_pipeline(&f, 4, true);
	pipe_run(&f, &lg, 20);
	tap_ok(f.state == PROBE_ST_RESULT && f.writes_done == lg.writes_posted &&
	       f.writes_done < 1000 && lg.last_alone && lg.max_inflight == 4,
	       "duration WRITE: STOP drains, then one last WRITE alone (%u)",
	       f.writes_done);

	init(&f, false, PROTO_OP_WRITE, 5, true);
	probe_fsm_pipeline(&f, 2, true);
	pipe_run(&f, &lg, 0);
	tap_ok(f.state == PROBE_ST_RESULT && f.writes_done == 5 &&
	       lg.last_alone, "duration: the iteration cap still ends a run");
	tap_ok(probe_fsm_step(&f, PROBE_EV_STOP, &st) == 0 &&
	       f.state == PROBE_ST_RESULT && st.act == 0,
	       "a late STOP is ignored");
}

static void test_names(void)
{
	int i, j, ok = 1;

	for (i = 0; i < PROBE_ST__COUNT; i++)
		if (!strcmp(probe_state_str((enum probe_state)i), "?") ||
		    !strcmp(probe_state_step((enum probe_state)i), "?"))
			ok = 0;
	for (i = 0; i < PROBE_EV__COUNT; i++)
		if (!strcmp(probe_event_str((enum probe_event)i), "?"))
			ok = 0;
	tap_ok(ok, "every state and event has a name");

	ok = probe_fail_exit(PROBE_FAIL_NONE) == 0;
	for (i = 0; i < PROBE_FAIL__COUNT; i++)
		for (j = i + 1; j < PROBE_FAIL__COUNT; j++)
			if (probe_fail_exit((enum probe_fail)i) ==
			    probe_fail_exit((enum probe_fail)j) ||
			    probe_fail_exit((enum probe_fail)j) ==
			    PROBE_EXIT_USAGE)
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
