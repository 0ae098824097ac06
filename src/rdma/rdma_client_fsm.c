/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_fsm.c - the client connection's state machine (see
 * rdma_client_fsm.h).
 *
 * Guard, then transition: each state handles the events it expects; the
 * failure events are handled once for all states in fsm_fail(); anything
 * else is illegal for the connection (RDMA_CLIENT_FAIL_PROTOCOL), never fatal
 * for the process.  rdma_client_fsm_set_state() is the only place that changes
 * fsm->state.
 */
#include "rdma_client_fsm.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "proto.h"

#define RDMA_CLIENT_X_NAME(name, ...)	[RDMA_CLIENT_ST_##name] = #name,
static const char *const state_names[] = {
	RDMA_CLIENT_STATES(RDMA_CLIENT_X_NAME)
};
#undef RDMA_CLIENT_X_NAME
#define RDMA_CLIENT_X_STEP(name, step) [RDMA_CLIENT_ST_##name] = step,
static const char *const state_steps[] = {
	RDMA_CLIENT_STATES(RDMA_CLIENT_X_STEP)
};
#undef RDMA_CLIENT_X_STEP
#define RDMA_CLIENT_X_NAME(name)	[RDMA_CLIENT_EV_##name] = #name,
static const char *const event_names[] = {
	RDMA_CLIENT_EVENTS(RDMA_CLIENT_X_NAME)
};
#undef RDMA_CLIENT_X_NAME
#define RDMA_CLIENT_X_FAIL(name, code, text) [RDMA_CLIENT_FAIL_##name] = text,
static const char *const fail_texts[] = {
	RDMA_CLIENT_FAILS(RDMA_CLIENT_X_FAIL)
};
#undef RDMA_CLIENT_X_FAIL
#define RDMA_CLIENT_X_FAIL(name, code, text) [RDMA_CLIENT_FAIL_##name] = code,
static const int fail_codes[] = { RDMA_CLIENT_FAILS(RDMA_CLIENT_X_FAIL) };
#undef RDMA_CLIENT_X_FAIL

const char *rdma_client_fsm_state_str(enum rdma_client_state s)
{
	return (unsigned)s < RDMA_CLIENT_ST__COUNT ? state_names[s] : "?";
}

const char *rdma_client_fsm_state_step(enum rdma_client_state s)
{
	return (unsigned)s < RDMA_CLIENT_ST__COUNT ? state_steps[s] : "?";
}

const char *rdma_client_fsm_event_str(enum rdma_client_event ev)
{
	return (unsigned)ev < RDMA_CLIENT_EV__COUNT ? event_names[ev] : "?";
}

const char *rdma_client_fsm_fail_str(enum rdma_client_fail fail)
{
	return (unsigned)fail < RDMA_CLIENT_FAIL__COUNT ? fail_texts[fail] :
							 "?";
}

int rdma_client_fsm_fail_code(enum rdma_client_fail fail)
{
	return (unsigned)fail < RDMA_CLIENT_FAIL__COUNT ? fail_codes[fail] : 1;
}

bool rdma_client_fsm_fail_worse(enum rdma_client_fail a,
				enum rdma_client_fail b)
{
	if (a == RDMA_CLIENT_FAIL_MISMATCH || b == RDMA_CLIENT_FAIL_MISMATCH)
		return a == RDMA_CLIENT_FAIL_MISMATCH &&
		       b != RDMA_CLIENT_FAIL_MISMATCH;
	return rdma_client_fsm_fail_code(a) > rdma_client_fsm_fail_code(b);
}

enum rdma_client_event rdma_client_fsm_abort_event(uint8_t reason)
{
	switch (reason) {
	case PROTO_ABORT_SESSION:
	case PROTO_ABORT_DURATION:
	case PROTO_ABORT_IDLE:
	case PROTO_ABORT_STALLED:
		return RDMA_CLIENT_EV_SRV_TIMEOUT;
	case PROTO_ABORT_PROTOCOL:
		return RDMA_CLIENT_EV_PROTO_ERR;
	case PROTO_ABORT_AUTH:
		return RDMA_CLIENT_EV_KEY_ERR;
	default:
		return RDMA_CLIENT_EV_SRV_ABORT;
	}
}

bool rdma_client_fsm_mesh_refused(uint8_t reason, const char *text)
{
	return reason == PROTO_REJ_BAD_HELLO && text &&
	       strstr(text, "unknown flags") != NULL;
}

void rdma_client_fsm_init(struct rdma_client_fsm *f, bool rping,
			  uint8_t ops, uint32_t iters, bool verify)
{
	memset(f, 0, sizeof(*f));
	f->state = RDMA_CLIENT_ST_IDLE;
	f->fail = RDMA_CLIENT_FAIL_NONE;
	f->rping = rping;
	f->ops = rping ? (PROTO_OP_READ | PROTO_OP_WRITE) : ops;
	f->iters = iters;
	f->verify = rping ? true : verify;
	f->depth = 1;
}

void rdma_client_fsm_pipeline(struct rdma_client_fsm *f, uint32_t depth,
			      bool duration)
{
	if (f->rping)
		return;
	f->depth = depth ? depth : 1;
	f->duration = duration;
}

void rdma_client_fsm_mesh(struct rdma_client_fsm *f, uint8_t ops)
{
	if (f->rping)
		return;
	f->mesh = true;
	f->mesh_read_only = ops == PROTO_OP_READ;
	f->ops = PROTO_OP_READ | PROTO_OP_WRITE;
	f->iters = 1;
	f->verify = true;
	f->duration = false;
}

bool rdma_client_fsm_terminal(const struct rdma_client_fsm *f)
{
	return f->state == RDMA_CLIENT_ST_DONE ||
	       f->state == RDMA_CLIENT_ST_FAILED;
}

bool rdma_client_fsm_connected(enum rdma_client_state s)
{
	switch (s) {
	case RDMA_CLIENT_ST_DESC:
	case RDMA_CLIENT_ST_OPS:
	case RDMA_CLIENT_ST_VERIFY:
	case RDMA_CLIENT_ST_RESULT:
	case RDMA_CLIENT_ST_RPING_SRC:
	case RDMA_CLIENT_ST_RPING_SINK:
	case RDMA_CLIENT_ST_READY:
	case RDMA_CLIENT_ST_ROUND_WRITE:
	case RDMA_CLIENT_ST_ROUND_READ:
	case RDMA_CLIENT_ST_ROUND_CHECK:
	case RDMA_CLIENT_ST_BW_WRITE:
		return true;
	default:
		return false;
	}
}

/* The one setter. */
static void rdma_client_fsm_set_state(struct rdma_client_fsm *f,
				      enum rdma_client_state to,
				      enum rdma_client_event ev)
{
	enum rdma_client_state from = f->state;

	if (from == to)
		return;
	f->state = to;
	if (f->on_transition)
		f->on_transition(f->arg, from, to, ev);
}

/* The first failure: its class and where it happened. */
static void fsm_record(struct rdma_client_fsm *f, enum rdma_client_fail fail)
{
	if (f->fail != RDMA_CLIENT_FAIL_NONE)
		return;
	f->fail = fail;
	f->fail_state = f->state;
}

/* Fail; close the connection first when it is up. */
static void fsm_fail(struct rdma_client_fsm *f, enum rdma_client_fail fail,
		     enum rdma_client_event ev, bool connected,
		     struct rdma_client_step *out)
{
	fsm_record(f, fail);
	if (connected) {
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_CLOSING, ev);
		out->act |= RDMA_CLIENT_ACT_DISCONNECT |
			    RDMA_CLIENT_ACT_ARM_TIMER;
	} else {
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_FAILED, ev);
		out->act |= RDMA_CLIENT_ACT_FINISH;
	}
}

/* The failure class an error event stands for in the current state. */
static enum rdma_client_fail fsm_fail_class(const struct rdma_client_fsm *f,
						  enum rdma_client_event ev)
{
	switch (ev) {
	case RDMA_CLIENT_EV_ADDR_ERR:		return RDMA_CLIENT_FAIL_ADDR;
	case RDMA_CLIENT_EV_ROUTE_ERR:	return RDMA_CLIENT_FAIL_ROUTE;
	case RDMA_CLIENT_EV_REJECTED:	return RDMA_CLIENT_FAIL_REJECTED;
	case RDMA_CLIENT_EV_CONN_ERR:
		/* rdma_cm reports UNREACHABLE or CONNECT_ERROR on a connection
		 * that was up when the peer stops answering (a partition):
		 * that is a connection lost, not a failed connect. */
		return f->state == RDMA_CLIENT_ST_CONNECT ?
		       RDMA_CLIENT_FAIL_CONNECT : RDMA_CLIENT_FAIL_COMPLETION;
	case RDMA_CLIENT_EV_PROTO_ERR:	return RDMA_CLIENT_FAIL_PROTOCOL;
	case RDMA_CLIENT_EV_KEY_ERR:		return RDMA_CLIENT_FAIL_KEY;
	case RDMA_CLIENT_EV_WC_ERR:	return RDMA_CLIENT_FAIL_COMPLETION;
	case RDMA_CLIENT_EV_SRV_TIMEOUT:	return RDMA_CLIENT_FAIL_TIMEOUT;
	case RDMA_CLIENT_EV_SRV_ABORT:	return RDMA_CLIENT_FAIL_COMPLETION;
	case RDMA_CLIENT_EV_LOCAL_ERR:	return RDMA_CLIENT_FAIL_LOCAL;
	case RDMA_CLIENT_EV_CHECK_BAD:
	case RDMA_CLIENT_EV_RESULT_BAD:	return RDMA_CLIENT_FAIL_MISMATCH;
	case RDMA_CLIENT_EV_DISCONNECTED:
		return f->state == RDMA_CLIENT_ST_CONNECT ?
		       RDMA_CLIENT_FAIL_CONNECT : RDMA_CLIENT_FAIL_COMPLETION;
	case RDMA_CLIENT_EV_TIMEOUT:
		/* Resolution steps time out in rdma_cm itself; the probe's
		 * own timer there is a backstop of the same class. */
		if (f->state == RDMA_CLIENT_ST_ADDR)
			return RDMA_CLIENT_FAIL_ADDR;
		if (f->state == RDMA_CLIENT_ST_ROUTE)
			return RDMA_CLIENT_FAIL_ROUTE;
		return RDMA_CLIENT_FAIL_TIMEOUT;
	default:
		return RDMA_CLIENT_FAIL_PROTOCOL;
	}
}

static uint32_t fsm_kind_done(const struct rdma_client_fsm *f)
{
	return f->cur_op == PROTO_OP_READ ? f->reads_done : f->writes_done;
}

static void fsm_begin_kind(struct rdma_client_fsm *f, uint8_t op)
{
	f->cur_op = op;
	f->limit = f->iters;
	f->posted = 0;
	f->inflight = 0;
}

/*
 * Keep the pipe full: post as many operations of cur_op as depth and limit
 * allow.  The last WRITE waits until nothing else is in flight.  When the
 * kind is complete, go on to the next one, or to DONE.
 */
static void fsm_fill(struct rdma_client_fsm *f, enum rdma_client_event ev,
		     struct rdma_client_step *out)
{
	uint32_t room = f->depth - f->inflight, n = 0;

	if (fsm_kind_done(f) >= f->limit && !f->inflight) {
		if (f->cur_op == PROTO_OP_READ && (f->ops & PROTO_OP_WRITE)) {
			fsm_begin_kind(f, PROTO_OP_WRITE);
			if (f->duration)
				out->act |= RDMA_CLIENT_ACT_ARM_DURATION;
			fsm_fill(f, ev, out);
			return;
		}
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_RESULT, ev);
		out->act |= RDMA_CLIENT_ACT_SEND_DONE |
			    RDMA_CLIENT_ACT_ARM_TIMER;
		return;
	}
	if (f->cur_op == PROTO_OP_READ) {
		n = f->limit - f->posted;
	} else if (f->posted + 1 < f->limit) {
		n = f->limit - 1 - f->posted;
	} else if (f->posted + 1 == f->limit && !f->inflight) {
		n = 1;
	}
	if (n > room)
		n = room;
	rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_OPS, ev);
	out->act |= RDMA_CLIENT_ACT_ARM_TIMER;	/* progress: new deadline */
	if (!n)
		return;
	out->act |= f->cur_op == PROTO_OP_READ ? RDMA_CLIENT_ACT_POST_READ :
						 RDMA_CLIENT_ACT_POST_WRITE;
	out->iter = f->posted;
	out->count = n;
	f->posted += n;
	f->inflight += n;
}

/* Native: READs first, then WRITEs, then DONE. */
static void fsm_next_op(struct rdma_client_fsm *f, enum rdma_client_event ev,
			struct rdma_client_step *out)
{
	if (f->ops & PROTO_OP_READ)
		fsm_begin_kind(f, PROTO_OP_READ);
	else
		fsm_begin_kind(f, PROTO_OP_WRITE);
	out->act |= f->duration ? RDMA_CLIENT_ACT_ARM_DURATION : 0;
	fsm_fill(f, ev, out);
}

/* -D: no new operations of this kind; a WRITE run still ends with one
 * WRITE posted alone. */
static void fsm_stop(struct rdma_client_fsm *f, enum rdma_client_event ev,
		     struct rdma_client_step *out)
{
	if (f->cur_op == PROTO_OP_READ)
		f->limit = f->posted;
	else if (f->posted < f->limit)
		f->limit = f->posted + 1;
	fsm_fill(f, ev, out);
}

static void fsm_next_ping(struct rdma_client_fsm *f, enum rdma_client_event ev,
			  struct rdma_client_step *out)
{
	if (f->pings_done < f->iters) {
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_RPING_SRC, ev);
		out->act |= RDMA_CLIENT_ACT_SEND_SOURCE |
			    RDMA_CLIENT_ACT_ARM_TIMER;
		out->iter = f->pings_done;
		return;
	}
	rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_CLOSING, ev);
	out->act |= RDMA_CLIENT_ACT_DISCONNECT | RDMA_CLIENT_ACT_ARM_TIMER;
}

/* DESC is in: a mesh session waits for the embedder (no deadline), a
 * native one runs its operations. */
static void fsm_desc_done(struct rdma_client_fsm *f, enum rdma_client_event ev,
			  struct rdma_client_step *out)
{
	if (!f->mesh) {
		fsm_next_op(f, ev, out);
		return;
	}
	rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_READY, ev);
	out->act |= RDMA_CLIENT_ACT_STOP_TIMER | RDMA_CLIENT_ACT_READY_REPORT;
}

/* A mesh round: its WRITE, or (READ-only, once written) its READ. */
static void fsm_round_start(struct rdma_client_fsm *f,
			    enum rdma_client_event ev,
			    struct rdma_client_step *out)
{
	out->iter = f->rounds;
	out->act |= RDMA_CLIENT_ACT_ARM_TIMER;
	if (f->mesh_read_only && f->written) {
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_ROUND_READ, ev);
		out->act |= RDMA_CLIENT_ACT_ROUND_READ;
		return;
	}
	f->written = true;
	rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_ROUND_WRITE, ev);
	out->act |= RDMA_CLIENT_ACT_ROUND_WRITE;
}

/* A mesh round: its checked end, good or bad, back to READY.  After a
 * mismatch a READ-only session writes its pattern again: one fault in
 * the peer's buffer is one bad round, not every round from then on. */
static void fsm_round_end(struct rdma_client_fsm *f, enum rdma_client_event ev,
			  struct rdma_client_step *out)
{
	out->iter = f->rounds++;
	if (ev == RDMA_CLIENT_EV_CHECK_BAD) {
		f->rounds_bad++;
		f->written = false;
	}
	rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_READY, ev);
	out->act |= RDMA_CLIENT_ACT_STOP_TIMER | RDMA_CLIENT_ACT_ROUND_REPORT;
}

/* A bandwidth sample: depth WRITEs at once, and its clock. */
static void fsm_bw_start(struct rdma_client_fsm *f, enum rdma_client_event ev,
			 struct rdma_client_step *out)
{
	f->bw_stop = false;
	f->bw_done = 0;
	f->bw_posted = f->depth;
	f->bw_inflight = f->depth;
	rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_BW_WRITE, ev);
	out->act |= RDMA_CLIENT_ACT_ARM_TIMER | RDMA_CLIENT_ACT_ARM_DURATION |
		    RDMA_CLIENT_ACT_POST_BW;
	out->iter = 0;
	out->count = f->depth;
}

/* A sample's WRITE completed, or its time is up: post the next one, or,
 * once stopped and drained, report it and wait for the embedder. */
static void fsm_bw_next(struct rdma_client_fsm *f, enum rdma_client_event ev,
			struct rdma_client_step *out)
{
	if (ev == RDMA_CLIENT_EV_STOP) {
		f->bw_stop = true;
	} else {
		f->bw_inflight--;
		f->bw_done++;
	}
	if (!f->bw_stop) {
		out->act |= RDMA_CLIENT_ACT_POST_BW | RDMA_CLIENT_ACT_ARM_TIMER;
		out->iter = f->bw_posted++;
		out->count = 1;
		f->bw_inflight++;
		return;
	}
	if (f->bw_inflight) {
		out->act |= RDMA_CLIENT_ACT_ARM_TIMER;
		return;
	}
	rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_READY, ev);
	out->act |= RDMA_CLIENT_ACT_STOP_TIMER | RDMA_CLIENT_ACT_BW_REPORT;
}

static void fsm_established(struct rdma_client_fsm *f,
			    enum rdma_client_event ev,
			    struct rdma_client_step *out)
{
	if (f->rping) {
		fsm_next_ping(f, ev, out);
	} else if (f->desc_ready) {
		fsm_desc_done(f, ev, out);
	} else {
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_DESC, ev);
		out->act |= RDMA_CLIENT_ACT_ARM_TIMER;
	}
}

/*
 * The expected events of each state.  Returns 1 when handled, 0 when ev
 * is not one of them.
 */
static int fsm_expected(struct rdma_client_fsm *f, enum rdma_client_event ev,
			struct rdma_client_step *out)
{
	switch (f->state) {
	case RDMA_CLIENT_ST_IDLE:
		if (ev != RDMA_CLIENT_EV_START)
			return 0;
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_ADDR, ev);
		out->act |= RDMA_CLIENT_ACT_RESOLVE_ADDR |
			    RDMA_CLIENT_ACT_ARM_TIMER;
		return 1;
	case RDMA_CLIENT_ST_ADDR:
		if (ev != RDMA_CLIENT_EV_ADDR_OK)
			return 0;
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_ROUTE, ev);
		out->act |= RDMA_CLIENT_ACT_RESOLVE_ROUTE |
			    RDMA_CLIENT_ACT_ARM_TIMER;
		return 1;
	case RDMA_CLIENT_ST_ROUTE:
		if (ev != RDMA_CLIENT_EV_ROUTE_OK)
			return 0;
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_CONNECT, ev);
		out->act |= RDMA_CLIENT_ACT_CONNECT | RDMA_CLIENT_ACT_ARM_TIMER;
		return 1;
	case RDMA_CLIENT_ST_CONNECT:
		if (ev == RDMA_CLIENT_EV_ACCEPTED) {
			out->act |= RDMA_CLIENT_ACT_ESTABLISH;
			return 1;
		}
		if (ev == RDMA_CLIENT_EV_ESTABLISHED) {
			fsm_established(f, ev, out);
			return 1;
		}
		/* The server wants proof of the key before it goes on. */
		if (ev == RDMA_CLIENT_EV_ESTABLISHED_AUTH && !f->rping) {
			out->act |= RDMA_CLIENT_ACT_SEND_AUTH;
			fsm_established(f, ev, out);
			return 1;
		}
		/* The server may send DESC before we see ESTABLISHED. */
		if (ev == RDMA_CLIENT_EV_DESC_OK && !f->rping &&
		    !f->desc_ready) {
			f->desc_ready = true;
			return 1;
		}
		return 0;
	case RDMA_CLIENT_ST_DESC:
		if (ev != RDMA_CLIENT_EV_DESC_OK)
			return 0;
		f->desc_ready = true;
		fsm_desc_done(f, ev, out);
		return 1;
	case RDMA_CLIENT_ST_OPS:
		if (ev == RDMA_CLIENT_EV_STOP) {
			fsm_stop(f, ev, out);
			return 1;
		}
		if (ev != RDMA_CLIENT_EV_OP_DONE || !f->inflight)
			return 0;
		f->inflight--;
		if (f->cur_op == PROTO_OP_READ && f->verify) {
			rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_VERIFY, ev);
			out->act |= RDMA_CLIENT_ACT_VERIFY_READ;
			out->iter = f->reads_done;
			return 1;
		}
		if (f->cur_op == PROTO_OP_READ)
			f->reads_done++;
		else
			f->writes_done++;
		fsm_fill(f, ev, out);
		return 1;
	case RDMA_CLIENT_ST_VERIFY:
		if (ev != RDMA_CLIENT_EV_CHECK_OK)
			return 0;
		if (f->rping) {
			f->pings_done++;
			fsm_next_ping(f, ev, out);
		} else {
			f->reads_done++;
			fsm_fill(f, ev, out);
		}
		return 1;
	case RDMA_CLIENT_ST_RESULT:
		if (ev != RDMA_CLIENT_EV_RESULT_OK)
			return 0;
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_CLOSING, ev);
		out->act |= RDMA_CLIENT_ACT_DISCONNECT |
			    RDMA_CLIENT_ACT_ARM_TIMER;
		return 1;
	case RDMA_CLIENT_ST_RPING_SRC:
		if (ev != RDMA_CLIENT_EV_GO_AHEAD)
			return 0;
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_RPING_SINK, ev);
		out->act |= RDMA_CLIENT_ACT_SEND_SINK |
			    RDMA_CLIENT_ACT_ARM_TIMER;
		out->iter = f->pings_done;
		return 1;
	case RDMA_CLIENT_ST_RPING_SINK:
		if (ev != RDMA_CLIENT_EV_GO_AHEAD)
			return 0;
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_VERIFY, ev);
		out->act |= RDMA_CLIENT_ACT_VERIFY_SINK;
		out->iter = f->pings_done;
		return 1;
	case RDMA_CLIENT_ST_READY:
		if (ev == RDMA_CLIENT_EV_ROUND) {
			fsm_round_start(f, ev, out);
			return 1;
		}
		if (ev == RDMA_CLIENT_EV_BW) {
			fsm_bw_start(f, ev, out);
			return 1;
		}
		if (ev != RDMA_CLIENT_EV_CLOSE)
			return 0;
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_CLOSING, ev);
		out->act |= RDMA_CLIENT_ACT_DISCONNECT |
			    RDMA_CLIENT_ACT_ARM_TIMER;
		return 1;
	case RDMA_CLIENT_ST_ROUND_WRITE:
		if (ev != RDMA_CLIENT_EV_OP_DONE)
			return 0;
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_ROUND_READ, ev);
		out->act |= RDMA_CLIENT_ACT_ROUND_READ |
			    RDMA_CLIENT_ACT_ARM_TIMER;
		out->iter = f->rounds;
		return 1;
	case RDMA_CLIENT_ST_ROUND_READ:
		if (ev != RDMA_CLIENT_EV_OP_DONE)
			return 0;
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_ROUND_CHECK, ev);
		out->act |= RDMA_CLIENT_ACT_ROUND_CHECK;
		out->iter = f->rounds;
		return 1;
	case RDMA_CLIENT_ST_ROUND_CHECK:
		if (ev != RDMA_CLIENT_EV_CHECK_OK &&
		    ev != RDMA_CLIENT_EV_CHECK_BAD)
			return 0;
		fsm_round_end(f, ev, out);
		return 1;
	case RDMA_CLIENT_ST_BW_WRITE:
		if (ev == RDMA_CLIENT_EV_STOP ||
		    (ev == RDMA_CLIENT_EV_OP_DONE && f->bw_inflight)) {
			fsm_bw_next(f, ev, out);
			return 1;
		}
		return 0;
	case RDMA_CLIENT_ST_CLOSING:
		if (ev == RDMA_CLIENT_EV_DISCONNECTED) {
			rdma_client_fsm_set_state(f, f->fail ==
						  RDMA_CLIENT_FAIL_NONE ?
						  RDMA_CLIENT_ST_DONE :
						  RDMA_CLIENT_ST_FAILED,
					    ev);
			out->act |= RDMA_CLIENT_ACT_FINISH;
			return 1;
		}
		if (ev == RDMA_CLIENT_EV_TIMEOUT) {
			fsm_record(f, RDMA_CLIENT_FAIL_TIMEOUT);
			rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_FAILED, ev);
			out->act |= RDMA_CLIENT_ACT_FINISH;
			return 1;
		}
		/* Late completions, flushed WRs, a late reply or a second
		 * error while closing: the outcome is already decided. */
		return 1;
	case RDMA_CLIENT_ST_DONE:
	case RDMA_CLIENT_ST_FAILED:
	case RDMA_CLIENT_ST__COUNT:
		return 1;
	}
	return 0;
}

static bool fsm_error_event(enum rdma_client_event ev)
{
	switch (ev) {
	case RDMA_CLIENT_EV_ADDR_ERR:
	case RDMA_CLIENT_EV_ROUTE_ERR:
	case RDMA_CLIENT_EV_REJECTED:
	case RDMA_CLIENT_EV_CONN_ERR:
	case RDMA_CLIENT_EV_CHECK_BAD:
	case RDMA_CLIENT_EV_RESULT_BAD:
	case RDMA_CLIENT_EV_PROTO_ERR:
	case RDMA_CLIENT_EV_KEY_ERR:
	case RDMA_CLIENT_EV_WC_ERR:
	case RDMA_CLIENT_EV_DISCONNECTED:
	case RDMA_CLIENT_EV_TIMEOUT:
	case RDMA_CLIENT_EV_LOCAL_ERR:
	case RDMA_CLIENT_EV_SRV_TIMEOUT:
	case RDMA_CLIENT_EV_SRV_ABORT:
		return true;
	default:
		return false;
	}
}

int rdma_client_fsm_step(struct rdma_client_fsm *f, enum rdma_client_event ev,
			 struct rdma_client_step *out)
{
	bool connected;

	out->act = 0;
	out->iter = 0;
	out->count = 0;
	if ((unsigned)ev >= RDMA_CLIENT_EV__COUNT)
		ev = RDMA_CLIENT_EV_PROTO_ERR;
	/* A late duration timer: the kind or sample it ended is over. */
	if (ev == RDMA_CLIENT_EV_STOP && f->state != RDMA_CLIENT_ST_OPS &&
	    f->state != RDMA_CLIENT_ST_BW_WRITE)
		return 0;
	if (fsm_expected(f, ev, out))
		return 0;

	connected = rdma_client_fsm_connected(f->state);
	/* Connected but the welcome was bad: close what is open. */
	if (f->state == RDMA_CLIENT_ST_CONNECT &&
	    (ev == RDMA_CLIENT_EV_PROTO_ERR || ev == RDMA_CLIENT_EV_KEY_ERR))
		connected = true;
	/* The peer is gone: nothing left to disconnect. */
	if (ev == RDMA_CLIENT_EV_DISCONNECTED) {
		fsm_record(f, fsm_fail_class(f, ev));
		rdma_client_fsm_set_state(f, RDMA_CLIENT_ST_FAILED, ev);
		out->act |= RDMA_CLIENT_ACT_FINISH;
		return 0;
	}
	if (fsm_error_event(ev)) {
		fsm_fail(f, fsm_fail_class(f, ev), ev, connected, out);
		return 0;
	}
	/* A legal event in the wrong state: this connection is broken. */
	fsm_fail(f, RDMA_CLIENT_FAIL_PROTOCOL, ev, connected, out);
	return -EPROTO;
}
