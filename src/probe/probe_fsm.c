/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_fsm.c - rdma-probe's client state machine (see probe_fsm.h).
 *
 * Guard, then transition: each state handles the events it expects; the
 * failure events are handled once for all states in fsm_fail(); anything
 * else is illegal for the connection (PROBE_FAIL_PROTOCOL), never fatal
 * for the process.  probe_fsm_set_state() is the only place that changes
 * fsm->state.
 */
#include "probe_fsm.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "proto.h"

#define PROBE_X_NAME(name, ...)	[PROBE_ST_##name] = #name,
static const char *const state_names[] = { PROBE_STATES(PROBE_X_NAME) };
#undef PROBE_X_NAME
#define PROBE_X_STEP(name, step) [PROBE_ST_##name] = step,
static const char *const state_steps[] = { PROBE_STATES(PROBE_X_STEP) };
#undef PROBE_X_STEP
#define PROBE_X_NAME(name)	[PROBE_EV_##name] = #name,
static const char *const event_names[] = { PROBE_EVENTS(PROBE_X_NAME) };
#undef PROBE_X_NAME
#define PROBE_X_FAIL(name, code, text) [PROBE_FAIL_##name] = text,
static const char *const fail_texts[] = { PROBE_FAILS(PROBE_X_FAIL) };
#undef PROBE_X_FAIL
#define PROBE_X_FAIL(name, code, text) [PROBE_FAIL_##name] = code,
static const int fail_codes[] = { PROBE_FAILS(PROBE_X_FAIL) };
#undef PROBE_X_FAIL

const char *probe_state_str(enum probe_state s)
{
	return (unsigned)s < PROBE_ST__COUNT ? state_names[s] : "?";
}

const char *probe_state_step(enum probe_state s)
{
	return (unsigned)s < PROBE_ST__COUNT ? state_steps[s] : "?";
}

const char *probe_event_str(enum probe_event ev)
{
	return (unsigned)ev < PROBE_EV__COUNT ? event_names[ev] : "?";
}

const char *probe_fail_str(enum probe_fail fail)
{
	return (unsigned)fail < PROBE_FAIL__COUNT ? fail_texts[fail] : "?";
}

int probe_fail_exit(enum probe_fail fail)
{
	return (unsigned)fail < PROBE_FAIL__COUNT ? fail_codes[fail] : 1;
}

bool probe_fail_worse(enum probe_fail a, enum probe_fail b)
{
	if (a == PROBE_FAIL_MISMATCH || b == PROBE_FAIL_MISMATCH)
		return a == PROBE_FAIL_MISMATCH && b != PROBE_FAIL_MISMATCH;
	return probe_fail_exit(a) > probe_fail_exit(b);
}

enum probe_event probe_abort_event(uint8_t reason)
{
	switch (reason) {
	case PROTO_ABORT_SESSION:
	case PROTO_ABORT_DURATION:
	case PROTO_ABORT_IDLE:
	case PROTO_ABORT_STALLED:
		return PROBE_EV_SRV_TIMEOUT;
	case PROTO_ABORT_PROTOCOL:
		return PROBE_EV_PROTO_ERR;
	case PROTO_ABORT_AUTH:
		return PROBE_EV_KEY_ERR;
	default:
		return PROBE_EV_SRV_ABORT;
	}
}

void probe_fsm_init(struct probe_fsm *f, bool rping, uint8_t ops,
		    uint32_t iters, bool verify)
{
	memset(f, 0, sizeof(*f));
	f->state = PROBE_ST_IDLE;
	f->fail = PROBE_FAIL_NONE;
	f->rping = rping;
	f->ops = rping ? (PROTO_OP_READ | PROTO_OP_WRITE) : ops;
	f->iters = iters;
	f->verify = rping ? true : verify;
	f->depth = 1;
}

void probe_fsm_pipeline(struct probe_fsm *f, uint32_t depth, bool duration)
{
	if (f->rping)
		return;
	f->depth = depth ? depth : 1;
	f->duration = duration;
}

bool probe_fsm_terminal(const struct probe_fsm *f)
{
	return f->state == PROBE_ST_DONE || f->state == PROBE_ST_FAILED;
}

bool probe_fsm_connected(enum probe_state s)
{
	switch (s) {
	case PROBE_ST_DESC:
	case PROBE_ST_OPS:
	case PROBE_ST_VERIFY:
	case PROBE_ST_RESULT:
	case PROBE_ST_RPING_SRC:
	case PROBE_ST_RPING_SINK:
		return true;
	default:
		return false;
	}
}

/* The one setter. */
static void probe_fsm_set_state(struct probe_fsm *f, enum probe_state to,
				enum probe_event ev)
{
	enum probe_state from = f->state;

	if (from == to)
		return;
	f->state = to;
	if (f->on_transition)
		f->on_transition(f->arg, from, to, ev);
}

static void fsm_record(struct probe_fsm *f, enum probe_fail fail)
{
	if (f->fail == PROBE_FAIL_NONE)
		f->fail = fail;
}

/* Fail; close the connection first when it is up. */
static void fsm_fail(struct probe_fsm *f, enum probe_fail fail,
		     enum probe_event ev, bool connected,
		     struct probe_step *out)
{
	fsm_record(f, fail);
	if (connected) {
		probe_fsm_set_state(f, PROBE_ST_CLOSING, ev);
		out->act |= PROBE_ACT_DISCONNECT | PROBE_ACT_ARM_TIMER;
	} else {
		probe_fsm_set_state(f, PROBE_ST_FAILED, ev);
		out->act |= PROBE_ACT_FINISH;
	}
}

/* The failure class an error event stands for in the current state. */
static enum probe_fail fsm_fail_class(const struct probe_fsm *f,
				      enum probe_event ev)
{
	switch (ev) {
	case PROBE_EV_ADDR_ERR:		return PROBE_FAIL_ADDR;
	case PROBE_EV_ROUTE_ERR:	return PROBE_FAIL_ROUTE;
	case PROBE_EV_REJECTED:		return PROBE_FAIL_REJECTED;
	case PROBE_EV_CONN_ERR:
		/* rdma_cm reports UNREACHABLE or CONNECT_ERROR on a connection
		 * that was up when the peer stops answering (a partition):
		 * that is a connection lost, not a failed connect. */
		return f->state == PROBE_ST_CONNECT ? PROBE_FAIL_CONNECT :
						      PROBE_FAIL_COMPLETION;
	case PROBE_EV_PROTO_ERR:	return PROBE_FAIL_PROTOCOL;
	case PROBE_EV_KEY_ERR:		return PROBE_FAIL_KEY;
	case PROBE_EV_WC_ERR:		return PROBE_FAIL_COMPLETION;
	case PROBE_EV_SRV_TIMEOUT:	return PROBE_FAIL_TIMEOUT;
	case PROBE_EV_SRV_ABORT:	return PROBE_FAIL_COMPLETION;
	case PROBE_EV_LOCAL_ERR:	return PROBE_FAIL_LOCAL;
	case PROBE_EV_CHECK_BAD:
	case PROBE_EV_RESULT_BAD:	return PROBE_FAIL_MISMATCH;
	case PROBE_EV_DISCONNECTED:
		return f->state == PROBE_ST_CONNECT ? PROBE_FAIL_CONNECT :
						      PROBE_FAIL_COMPLETION;
	case PROBE_EV_TIMEOUT:
		/* Resolution steps time out in rdma_cm itself; the probe's
		 * own timer there is a backstop of the same class. */
		if (f->state == PROBE_ST_ADDR)
			return PROBE_FAIL_ADDR;
		if (f->state == PROBE_ST_ROUTE)
			return PROBE_FAIL_ROUTE;
		return PROBE_FAIL_TIMEOUT;
	default:
		return PROBE_FAIL_PROTOCOL;
	}
}

static uint32_t fsm_kind_done(const struct probe_fsm *f)
{
	return f->cur_op == PROTO_OP_READ ? f->reads_done : f->writes_done;
}

static void fsm_begin_kind(struct probe_fsm *f, uint8_t op)
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
static void fsm_fill(struct probe_fsm *f, enum probe_event ev,
		     struct probe_step *out)
{
	uint32_t room = f->depth - f->inflight, n = 0;

	if (fsm_kind_done(f) >= f->limit && !f->inflight) {
		if (f->cur_op == PROTO_OP_READ && (f->ops & PROTO_OP_WRITE)) {
			fsm_begin_kind(f, PROTO_OP_WRITE);
			out->act |= f->duration ? PROBE_ACT_ARM_DURATION : 0;
			fsm_fill(f, ev, out);
			return;
		}
		probe_fsm_set_state(f, PROBE_ST_RESULT, ev);
		out->act |= PROBE_ACT_SEND_DONE | PROBE_ACT_ARM_TIMER;
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
	probe_fsm_set_state(f, PROBE_ST_OPS, ev);
	out->act |= PROBE_ACT_ARM_TIMER;	/* progress: new deadline */
	if (!n)
		return;
	out->act |= f->cur_op == PROTO_OP_READ ? PROBE_ACT_POST_READ :
						 PROBE_ACT_POST_WRITE;
	out->iter = f->posted;
	out->count = n;
	f->posted += n;
	f->inflight += n;
}

/* Native: READs first, then WRITEs, then DONE. */
static void fsm_next_op(struct probe_fsm *f, enum probe_event ev,
			struct probe_step *out)
{
	if (f->ops & PROTO_OP_READ)
		fsm_begin_kind(f, PROTO_OP_READ);
	else
		fsm_begin_kind(f, PROTO_OP_WRITE);
	out->act |= f->duration ? PROBE_ACT_ARM_DURATION : 0;
	fsm_fill(f, ev, out);
}

/* -D: no new operations of this kind; a WRITE run still ends with one
 * WRITE posted alone. */
static void fsm_stop(struct probe_fsm *f, enum probe_event ev,
		     struct probe_step *out)
{
	if (f->cur_op == PROTO_OP_READ)
		f->limit = f->posted;
	else if (f->posted < f->limit)
		f->limit = f->posted + 1;
	fsm_fill(f, ev, out);
}

static void fsm_next_ping(struct probe_fsm *f, enum probe_event ev,
			  struct probe_step *out)
{
	if (f->pings_done < f->iters) {
		probe_fsm_set_state(f, PROBE_ST_RPING_SRC, ev);
		out->act |= PROBE_ACT_SEND_SOURCE | PROBE_ACT_ARM_TIMER;
		out->iter = f->pings_done;
		return;
	}
	probe_fsm_set_state(f, PROBE_ST_CLOSING, ev);
	out->act |= PROBE_ACT_DISCONNECT | PROBE_ACT_ARM_TIMER;
}

static void fsm_established(struct probe_fsm *f, enum probe_event ev,
			    struct probe_step *out)
{
	if (f->rping) {
		fsm_next_ping(f, ev, out);
	} else if (f->desc_ready) {
		fsm_next_op(f, ev, out);
	} else {
		probe_fsm_set_state(f, PROBE_ST_DESC, ev);
		out->act |= PROBE_ACT_ARM_TIMER;
	}
}

/*
 * The expected events of each state.  Returns 1 when handled, 0 when ev
 * is not one of them.
 */
static int fsm_expected(struct probe_fsm *f, enum probe_event ev,
			struct probe_step *out)
{
	switch (f->state) {
	case PROBE_ST_IDLE:
		if (ev != PROBE_EV_START)
			return 0;
		probe_fsm_set_state(f, PROBE_ST_ADDR, ev);
		out->act |= PROBE_ACT_RESOLVE_ADDR | PROBE_ACT_ARM_TIMER;
		return 1;
	case PROBE_ST_ADDR:
		if (ev != PROBE_EV_ADDR_OK)
			return 0;
		probe_fsm_set_state(f, PROBE_ST_ROUTE, ev);
		out->act |= PROBE_ACT_RESOLVE_ROUTE | PROBE_ACT_ARM_TIMER;
		return 1;
	case PROBE_ST_ROUTE:
		if (ev != PROBE_EV_ROUTE_OK)
			return 0;
		probe_fsm_set_state(f, PROBE_ST_CONNECT, ev);
		out->act |= PROBE_ACT_CONNECT | PROBE_ACT_ARM_TIMER;
		return 1;
	case PROBE_ST_CONNECT:
		if (ev == PROBE_EV_ESTABLISHED) {
			fsm_established(f, ev, out);
			return 1;
		}
		/* The server may send DESC before we see ESTABLISHED. */
		if (ev == PROBE_EV_DESC_OK && !f->rping && !f->desc_ready) {
			f->desc_ready = true;
			return 1;
		}
		return 0;
	case PROBE_ST_DESC:
		if (ev != PROBE_EV_DESC_OK)
			return 0;
		f->desc_ready = true;
		fsm_next_op(f, ev, out);
		return 1;
	case PROBE_ST_OPS:
		if (ev == PROBE_EV_STOP) {
			fsm_stop(f, ev, out);
			return 1;
		}
		if (ev != PROBE_EV_OP_DONE || !f->inflight)
			return 0;
		f->inflight--;
		if (f->cur_op == PROTO_OP_READ && f->verify) {
			probe_fsm_set_state(f, PROBE_ST_VERIFY, ev);
			out->act |= PROBE_ACT_VERIFY_READ;
			out->iter = f->reads_done;
			return 1;
		}
		if (f->cur_op == PROTO_OP_READ)
			f->reads_done++;
		else
			f->writes_done++;
		fsm_fill(f, ev, out);
		return 1;
	case PROBE_ST_VERIFY:
		if (ev != PROBE_EV_CHECK_OK)
			return 0;
		if (f->rping) {
			f->pings_done++;
			fsm_next_ping(f, ev, out);
		} else {
			f->reads_done++;
			fsm_fill(f, ev, out);
		}
		return 1;
	case PROBE_ST_RESULT:
		if (ev != PROBE_EV_RESULT_OK)
			return 0;
		probe_fsm_set_state(f, PROBE_ST_CLOSING, ev);
		out->act |= PROBE_ACT_DISCONNECT | PROBE_ACT_ARM_TIMER;
		return 1;
	case PROBE_ST_RPING_SRC:
		if (ev != PROBE_EV_GO_AHEAD)
			return 0;
		probe_fsm_set_state(f, PROBE_ST_RPING_SINK, ev);
		out->act |= PROBE_ACT_SEND_SINK | PROBE_ACT_ARM_TIMER;
		out->iter = f->pings_done;
		return 1;
	case PROBE_ST_RPING_SINK:
		if (ev != PROBE_EV_GO_AHEAD)
			return 0;
		probe_fsm_set_state(f, PROBE_ST_VERIFY, ev);
		out->act |= PROBE_ACT_VERIFY_SINK;
		out->iter = f->pings_done;
		return 1;
	case PROBE_ST_CLOSING:
		if (ev == PROBE_EV_DISCONNECTED) {
			probe_fsm_set_state(f, f->fail == PROBE_FAIL_NONE ?
					    PROBE_ST_DONE : PROBE_ST_FAILED,
					    ev);
			out->act |= PROBE_ACT_FINISH;
			return 1;
		}
		if (ev == PROBE_EV_TIMEOUT) {
			fsm_record(f, PROBE_FAIL_TIMEOUT);
			probe_fsm_set_state(f, PROBE_ST_FAILED, ev);
			out->act |= PROBE_ACT_FINISH;
			return 1;
		}
		/* Late completions, flushed WRs, a late reply or a second
		 * error while closing: the outcome is already decided. */
		return 1;
	case PROBE_ST_DONE:
	case PROBE_ST_FAILED:
	case PROBE_ST__COUNT:
		return 1;
	}
	return 0;
}

static bool fsm_error_event(enum probe_event ev)
{
	switch (ev) {
	case PROBE_EV_ADDR_ERR:
	case PROBE_EV_ROUTE_ERR:
	case PROBE_EV_REJECTED:
	case PROBE_EV_CONN_ERR:
	case PROBE_EV_CHECK_BAD:
	case PROBE_EV_RESULT_BAD:
	case PROBE_EV_PROTO_ERR:
	case PROBE_EV_KEY_ERR:
	case PROBE_EV_WC_ERR:
	case PROBE_EV_DISCONNECTED:
	case PROBE_EV_TIMEOUT:
	case PROBE_EV_LOCAL_ERR:
	case PROBE_EV_SRV_TIMEOUT:
	case PROBE_EV_SRV_ABORT:
		return true;
	default:
		return false;
	}
}

int probe_fsm_step(struct probe_fsm *f, enum probe_event ev,
		   struct probe_step *out)
{
	bool connected;

	out->act = 0;
	out->iter = 0;
	out->count = 0;
	if ((unsigned)ev >= PROBE_EV__COUNT)
		ev = PROBE_EV_PROTO_ERR;
	/* A late duration timer: the kind it ended is already over. */
	if (ev == PROBE_EV_STOP && f->state != PROBE_ST_OPS)
		return 0;
	if (fsm_expected(f, ev, out))
		return 0;

	connected = probe_fsm_connected(f->state);
	/* Connected but the welcome was bad: close what is open. */
	if (f->state == PROBE_ST_CONNECT &&
	    (ev == PROBE_EV_PROTO_ERR || ev == PROBE_EV_KEY_ERR))
		connected = true;
	/* The peer is gone: nothing left to disconnect. */
	if (ev == PROBE_EV_DISCONNECTED) {
		fsm_record(f, fsm_fail_class(f, ev));
		probe_fsm_set_state(f, PROBE_ST_FAILED, ev);
		out->act |= PROBE_ACT_FINISH;
		return 0;
	}
	if (fsm_error_event(ev)) {
		fsm_fail(f, fsm_fail_class(f, ev), ev, connected, out);
		return 0;
	}
	/* A legal event in the wrong state: this connection is broken. */
	fsm_fail(f, PROBE_FAIL_PROTOCOL, ev, connected, out);
	return -EPROTO;
}
