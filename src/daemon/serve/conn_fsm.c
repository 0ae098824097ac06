/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_fsm.c - pure per-connection state machine (see conn_fsm.h).
 *
 * The rules, in short:
 *   - Life: init -> accepting -> established [-> aborting] -> closing ->
 *     draining -> closed.  A DISCONNECTED or FATAL event skips "closing" (the peer is
 *     gone, only our flushed work requests remain).  Errors, timeouts and
 *     shutdown while accepting/established start an orderly disconnect.
 *   - While closing/draining, completions and messages are ignored; the
 *     connection is on its way out.  DISCONNECTED may arrive any number
 *     of times, also before ESTABLISHED.
 *   - native: on ESTABLISHED post DESC; once DESC is sent and DONE has
 *     arrived, verify and post RESULT; then wait for the client to leave.
 *   - native mesh: on ESTABLISHED (or AUTH) post DESC; then only wait
 *     for the client to leave, checking liveness, without a deadline.
 *   - A native session we end ourselves (timeout, shutdown, bad message)
 *     first tells the client why: ABORT, then the disconnect once it is
 *     sent (or failed, or the close deadline passed).
 *   - Liveness: while established and quiet (waiting for the peer, with
 *     nothing of ours in flight), LIVE_DUE posts one check at a time;
 *     PEER_LOST (retry exceeded, on any of our work requests) reaps.
 *   - rping: source advert -> RDMA READ -> "go ahead"; sink advert ->
 *     RDMA WRITE -> "go ahead"; repeat.  rping's first advert may be
 *     received before our CM channel reports ESTABLISHED: receiving it
 *     establishes the connection.
 */
#include "serve/conn_fsm.h"

#include <errno.h>
#include <stdio.h>

#define X_NAME(n, s)	s,
static const char *const proto_names[] = { CONN_PROTO_LIST(X_NAME) };
static const char *const life_names[] = { CONN_LIFE_LIST(X_NAME) };
static const char *const send_names[] = { CONN_SEND_LIST(X_NAME) };
static const char *const recv_names[] = { CONN_RECV_LIST(X_NAME) };
static const char *const event_names[] = { CONN_EVENT_LIST(X_NAME) };
#undef X_NAME

static const char *const deadline_names[] = {
	[CONN_DL_NONE] = "none",
	[CONN_DL_ACCEPT] = "accept",
	[CONN_DL_SESSION] = "session",
	[CONN_DL_IDLE] = "idle",
	[CONN_DL_IO] = "io",
	[CONN_DL_LINGER] = "linger",
	[CONN_DL_CLOSE] = "close",
};

#define NAME_OF(tab, i) \
	((unsigned int)(i) < sizeof(tab) / sizeof(tab[0]) ? tab[i] : "?")

const char *conn_proto_name(enum conn_proto p)
{
	return NAME_OF(proto_names, p);
}

const char *conn_life_name(enum conn_life l)
{
	return NAME_OF(life_names, l);
}

const char *conn_send_name(enum conn_send_state s)
{
	return NAME_OF(send_names, s);
}

const char *conn_recv_name(enum conn_recv_state s)
{
	return NAME_OF(recv_names, s);
}

const char *conn_event_name(enum conn_event e)
{
	return NAME_OF(event_names, e);
}

const char *conn_deadline_name(enum conn_deadline d)
{
	return NAME_OF(deadline_names, d);
}

char *conn_fsm_str(const struct conn_fsm *f, char *buf, unsigned int len)
{
	snprintf(buf, len, "%s/%s/%s", conn_life_name(f->life),
		 conn_send_name(f->send), conn_recv_name(f->recv));
	return buf;
}

void conn_fsm_init(struct conn_fsm *f, enum conn_proto proto)
{
	f->proto = proto;
	f->life = CONN_LIFE_INIT;
	f->send = CONN_SS_IDLE;
	f->recv = proto == CONN_PROTO_NATIVE ? CONN_RS_WAIT_DONE :
					       CONN_RS_WAIT_SRC;
	f->auth = 0;
	f->mesh = 0;
	f->live = 0;
}

void conn_fsm_init_auth(struct conn_fsm *f)
{
	conn_fsm_init(f, CONN_PROTO_NATIVE);
	f->auth = 1;
	f->recv = CONN_RS_WAIT_AUTH;
}

void conn_fsm_init_mesh(struct conn_fsm *f)
{
	f->mesh = 1;
	if (f->recv == CONN_RS_WAIT_DONE)
		f->recv = CONN_RS_MESH;
}

int conn_fsm_life_bounded(const struct conn_fsm *f)
{
	return !f->mesh;
}

/* Events of the established data phase, native protocol. */
static int step_native(struct conn_fsm *n, enum conn_event ev,
		       unsigned int *act)
{
	switch (ev) {
	case CONN_EV_RECV_AUTH:
		/* The key is proven: only now is the buffer revealed. */
		if (!n->auth || n->recv != CONN_RS_WAIT_AUTH ||
		    n->send != CONN_SS_IDLE)
			return -EPROTO;
		n->recv = n->mesh ? CONN_RS_MESH : CONN_RS_WAIT_DONE;
		n->send = CONN_SS_DESC_POSTED;
		*act |= CONN_ACT_SEND_DESC;
		return 0;
	case CONN_EV_SEND_COMPLETE:
		if (n->send == CONN_SS_DESC_POSTED) {
			n->send = CONN_SS_DESC_SENT;
			if (n->recv == CONN_RS_GOT_DONE) {
				n->send = CONN_SS_RESULT_POSTED;
				*act |= CONN_ACT_SEND_RESULT;
			}
			return 0;
		}
		if (n->send == CONN_SS_RESULT_POSTED) {
			n->send = CONN_SS_RESULT_SENT;
			return 0;
		}
		return -EPROTO;
	case CONN_EV_RECV_DONE:
		if (n->recv != CONN_RS_WAIT_DONE)
			return -EPROTO;
		if (n->send != CONN_SS_DESC_POSTED &&
		    n->send != CONN_SS_DESC_SENT)
			return -EPROTO;
		n->recv = CONN_RS_GOT_DONE;
		*act |= CONN_ACT_VERIFY;
		if (n->send == CONN_SS_DESC_SENT) {
			n->send = CONN_SS_RESULT_POSTED;
			*act |= CONN_ACT_SEND_RESULT;
		}
		return 0;
	default:
		return -EPROTO;
	}
}

/* Events of the established data phase, rping protocol. */
static int step_rping(struct conn_fsm *n, enum conn_event ev,
		      unsigned int *act)
{
	switch (ev) {
	case CONN_EV_RECV_ADVERT:
		if (n->send == CONN_SS_IDLE && n->recv == CONN_RS_WAIT_SRC) {
			n->send = CONN_SS_READ_POSTED;
			n->recv = CONN_RS_WAIT_SINK;
			*act |= CONN_ACT_POST_READ;
			return 0;
		}
		if (n->send == CONN_SS_READ_DONE &&
		    n->recv == CONN_RS_WAIT_SINK) {
			n->send = CONN_SS_WRITE_POSTED;
			n->recv = CONN_RS_WAIT_SRC;
			*act |= CONN_ACT_POST_WRITE;
			return 0;
		}
		return -EPROTO;
	case CONN_EV_READ_COMPLETE:
		if (n->send != CONN_SS_READ_POSTED)
			return -EPROTO;
		n->send = CONN_SS_READ_DONE;
		*act |= CONN_ACT_SEND_GO;
		return 0;
	case CONN_EV_WRITE_COMPLETE:
		if (n->send != CONN_SS_WRITE_POSTED)
			return -EPROTO;
		n->send = CONN_SS_IDLE;
		*act |= CONN_ACT_SEND_GO;
		return 0;
	case CONN_EV_SEND_COMPLETE:
		/* A "go ahead" went out; nothing waits for it. */
		return 0;
	default:
		return -EPROTO;
	}
}

static int is_data_event(enum conn_event ev)
{
	switch (ev) {
	case CONN_EV_ESTABLISHED:
	case CONN_EV_RECV_AUTH:
	case CONN_EV_RECV_DONE:
	case CONN_EV_RECV_ADVERT:
	case CONN_EV_SEND_COMPLETE:
	case CONN_EV_READ_COMPLETE:
	case CONN_EV_WRITE_COMPLETE:
	case CONN_EV_LIVE_DUE:
	case CONN_EV_LIVE_OK:
	case CONN_EV_ABORT_SENT:
		return 1;
	default:
		return 0;
	}
}

/* Waiting for the peer, nothing of ours in flight but maybe a check. */
static int conn_fsm_quiet(const struct conn_fsm *f)
{
	if (f->life != CONN_LIFE_ESTABLISHED)
		return 0;
	if (f->proto == CONN_PROTO_NATIVE)
		return (f->send == CONN_SS_DESC_SENT &&
			(f->recv == CONN_RS_WAIT_DONE ||
			 f->recv == CONN_RS_MESH)) ||
		       (f->send == CONN_SS_IDLE &&
			f->recv == CONN_RS_WAIT_AUTH);
	return (f->send == CONN_SS_IDLE && f->recv == CONN_RS_WAIT_SRC) ||
	       (f->send == CONN_SS_READ_DONE && f->recv == CONN_RS_WAIT_SINK);
}

int conn_fsm_liveness_wanted(const struct conn_fsm *f)
{
	return conn_fsm_quiet(f) && !f->live;
}

/* Can the client still be told why we end its session? */
static int conn_fsm_abortable(const struct conn_fsm *f)
{
	return f->proto == CONN_PROTO_NATIVE &&
	       f->life == CONN_LIFE_ESTABLISHED &&
	       f->send != CONN_SS_RESULT_POSTED &&
	       f->send != CONN_SS_RESULT_SENT;
}

/* Liveness events of an established connection. */
static int step_liveness(struct conn_fsm *n, enum conn_event ev,
			 unsigned int *act)
{
	if (ev == CONN_EV_LIVE_DUE) {
		/* A check due while busy or already checking: the work in
		 * flight is a check of its own. */
		if (conn_fsm_liveness_wanted(n)) {
			n->live = 1;
			*act |= CONN_ACT_POST_LIVENESS;
		}
		return 0;
	}
	/* LIVE_OK */
	if (!n->live)
		return -EPROTO;
	n->live = 0;
	return 0;
}

/* Events of a live connection (accepting or established). */
static int step_live(struct conn_fsm *n, enum conn_event ev,
		     unsigned int *act)
{
	switch (ev) {
	case CONN_EV_DISCONNECTED:
	case CONN_EV_FATAL:
	case CONN_EV_PEER_LOST:
		/* The peer is gone: no DREP will come, no ABORT would
		 * reach it; only our flushed work requests remain. */
		n->life = CONN_LIFE_DRAINING;
		*act |= CONN_ACT_DISCONNECT | CONN_ACT_DRAIN;
		return 0;
	case CONN_EV_TIMEOUT:
	case CONN_EV_RECV_BAD:
	case CONN_EV_SHUTDOWN:
		/* A keyed client sends AUTH as soon as it sees ESTABLISHED,
		 * maybe before ours reaches us: a bad one (a wrong key) finds
		 * it established, and it is told why before we disconnect. */
		if (ev == CONN_EV_RECV_BAD && n->life == CONN_LIFE_ACCEPTING &&
		    n->proto == CONN_PROTO_NATIVE && n->auth)
			n->life = CONN_LIFE_ESTABLISHED;
		if (conn_fsm_abortable(n)) {
			n->life = CONN_LIFE_ABORTING;
			*act |= CONN_ACT_SEND_ABORT;
			return 0;
		}
		n->life = CONN_LIFE_CLOSING;
		*act |= CONN_ACT_DISCONNECT;
		return 0;
	case CONN_EV_WC_ERROR:
		/* Our QP is in error: nothing more reaches the peer. */
		n->life = CONN_LIFE_CLOSING;
		*act |= CONN_ACT_DISCONNECT;
		return 0;
	case CONN_EV_ACCEPT_FAILED:
		/* Nothing was announced: refuse the request, free now. */
		if (n->life != CONN_LIFE_ACCEPTING)
			return -EPROTO;
		n->life = CONN_LIFE_CLOSED;
		*act |= CONN_ACT_REJECT;
		return 0;
	case CONN_EV_CONNECT_REQUEST:
	case CONN_EV_DRAINED:
	case CONN_EV_ABORT_SENT:
		return -EPROTO;
	case CONN_EV_LIVE_DUE:
	case CONN_EV_LIVE_OK:
		if (n->life != CONN_LIFE_ESTABLISHED)
			return ev == CONN_EV_LIVE_DUE ? 0 : -EPROTO;
		return step_liveness(n, ev, act);
	default:
		break;
	}

	if (n->life == CONN_LIFE_ACCEPTING) {
		if (ev == CONN_EV_ESTABLISHED) {
			n->life = CONN_LIFE_ESTABLISHED;
			if (n->proto == CONN_PROTO_NATIVE && !n->auth) {
				n->send = CONN_SS_DESC_POSTED;
				*act |= CONN_ACT_SEND_DESC;
			}
			return 0;
		}
		/* rping may speak before ESTABLISHED reaches us. */
		if (n->proto == CONN_PROTO_RPING &&
		    ev == CONN_EV_RECV_ADVERT) {
			n->life = CONN_LIFE_ESTABLISHED;
			return step_rping(n, ev, act);
		}
		/* A client may send AUTH as soon as it sees ESTABLISHED,
		 * before ours reaches us: it establishes too. */
		if (n->proto == CONN_PROTO_NATIVE && n->auth &&
		    ev == CONN_EV_RECV_AUTH) {
			n->life = CONN_LIFE_ESTABLISHED;
			return step_native(n, ev, act);
		}
		return -EPROTO;
	}

	/* Late ESTABLISHED, after the peer's first message did it. */
	if (ev == CONN_EV_ESTABLISHED)
		return n->proto == CONN_PROTO_RPING || n->auth ? 0 : -EPROTO;
	if (n->proto == CONN_PROTO_NATIVE)
		return step_native(n, ev, act);
	return step_rping(n, ev, act);
}

/* The peer leaving in state F ends its session well: a native client
 * has its RESULT (posted: it may leave before we poll our completion of
 * it), a mesh client its DESC (likewise), an rping client is between
 * rounds. */
static int conn_fsm_left_clean(const struct conn_fsm *f)
{
	if (f->proto == CONN_PROTO_NATIVE)
		return f->send == CONN_SS_RESULT_POSTED ||
		       f->send == CONN_SS_RESULT_SENT ||
		       (f->recv == CONN_RS_MESH &&
			(f->send == CONN_SS_DESC_POSTED ||
			 f->send == CONN_SS_DESC_SENT));
	return f->life == CONN_LIFE_ESTABLISHED && f->send == CONN_SS_IDLE;
}

int conn_fsm_step(const struct conn_fsm *cur, enum conn_event ev,
		  struct conn_step *out)
{
	struct conn_fsm n = *cur;
	unsigned int act = 0;
	int ret = -EPROTO;

	if ((unsigned int)ev >= CONN_EV__COUNT ||
	    (unsigned int)cur->proto >= CONN_PROTO__COUNT)
		goto illegal;

	switch (cur->life) {
	case CONN_LIFE_INIT:
		if (ev != CONN_EV_CONNECT_REQUEST)
			goto illegal;
		n.life = CONN_LIFE_ACCEPTING;
		act = CONN_ACT_ACCEPT;
		ret = 0;
		break;
	case CONN_LIFE_ACCEPTING:
	case CONN_LIFE_ESTABLISHED:
		ret = step_live(&n, ev, &act);
		break;
	case CONN_LIFE_ABORTING:
		if (ev == CONN_EV_DISCONNECTED || ev == CONN_EV_FATAL ||
		    ev == CONN_EV_PEER_LOST) {
			n.life = CONN_LIFE_DRAINING;
			act = CONN_ACT_DISCONNECT | CONN_ACT_DRAIN;
			ret = 0;
		} else if (ev == CONN_EV_ABORT_SENT || ev == CONN_EV_TIMEOUT ||
			   ev == CONN_EV_WC_ERROR) {
			/* Told, or it cannot be told: disconnect now. */
			n.life = CONN_LIFE_CLOSING;
			act = CONN_ACT_DISCONNECT;
			ret = 0;
		} else if (is_data_event(ev) || ev == CONN_EV_RECV_BAD ||
			   ev == CONN_EV_SHUTDOWN) {
			ret = 0;
		}
		break;
	case CONN_LIFE_CLOSING:
		if (ev == CONN_EV_DISCONNECTED || ev == CONN_EV_FATAL ||
		    ev == CONN_EV_TIMEOUT || ev == CONN_EV_PEER_LOST) {
			n.life = CONN_LIFE_DRAINING;
			act = CONN_ACT_DRAIN;
			ret = 0;
		} else if (is_data_event(ev) || ev == CONN_EV_WC_ERROR ||
			   ev == CONN_EV_RECV_BAD || ev == CONN_EV_SHUTDOWN) {
			ret = 0;
		}
		break;
	case CONN_LIFE_DRAINING:
		if (ev == CONN_EV_DRAINED || ev == CONN_EV_TIMEOUT) {
			n.life = CONN_LIFE_CLOSED;
			act = CONN_ACT_DESTROY;
			ret = 0;
		} else if (ev != CONN_EV_CONNECT_REQUEST &&
			   ev != CONN_EV_ACCEPT_FAILED) {
			ret = 0;
		}
		break;
	case CONN_LIFE_CLOSED:
		if (ev == CONN_EV_DISCONNECTED || ev == CONN_EV_TIMEOUT)
			ret = 0;
		break;
	default:
		break;
	}
	if (ret)
		goto illegal;
	/* The peer left: how did its session end?  Judged on the state it
	 * left in; not when we were ending it ourselves. */
	if (ev == CONN_EV_DISCONNECTED && cur->life != CONN_LIFE_CLOSING)
		act |= conn_fsm_left_clean(cur) ? CONN_ACT_LEFT_CLEAN :
						  CONN_ACT_LEFT_ABORTED;
	out->next = n;
	out->actions = act;
	return 0;

illegal:
	out->next = *cur;
	out->actions = 0;
	return -EPROTO;
}

int conn_fsm_recv_repost(const struct conn_fsm *f)
{
	return f->life == CONN_LIFE_ACCEPTING ||
	       f->life == CONN_LIFE_ESTABLISHED;
}

enum conn_deadline conn_fsm_deadline(const struct conn_fsm *f)
{
	switch (f->life) {
	case CONN_LIFE_ACCEPTING:
		return CONN_DL_ACCEPT;
	case CONN_LIFE_ABORTING:
	case CONN_LIFE_CLOSING:
	case CONN_LIFE_DRAINING:
		return CONN_DL_CLOSE;
	case CONN_LIFE_ESTABLISHED:
		break;
	default:
		return CONN_DL_NONE;
	}

	switch (f->send) {
	case CONN_SS_DESC_POSTED:
	case CONN_SS_DESC_SENT:
		if (f->recv == CONN_RS_WAIT_DONE)
			return CONN_DL_SESSION;
		/* mesh: once DESC is out, bounded by liveness only */
		if (f->recv == CONN_RS_MESH && f->send == CONN_SS_DESC_SENT)
			return CONN_DL_NONE;
		return CONN_DL_IO;
	case CONN_SS_RESULT_POSTED:
	case CONN_SS_READ_POSTED:
	case CONN_SS_WRITE_POSTED:
		return CONN_DL_IO;
	case CONN_SS_RESULT_SENT:
		return CONN_DL_LINGER;
	case CONN_SS_IDLE:
	case CONN_SS_READ_DONE:
	default:
		/* rping: the next advert; native with a key: AUTH. */
		return CONN_DL_IDLE;
	}
}
