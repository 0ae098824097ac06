/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_fsm.h - per-connection state machine of rdmad, as a pure function.
 *
 * A connection has a life state (accepting, established, closing...) and,
 * as in Bedeir's "RDMA Read and Write with IB Verbs", a send state and a
 * receive state.  conn_fsm_step() maps (state, event) to the next state
 * and a set of actions; it touches no fd and no verbs object.  conn.c
 * turns CM events, work completions and timer expiries into events, and
 * carries out the actions.
 */
#ifndef RDMAD_CONN_FSM_H
#define RDMAD_CONN_FSM_H

#include <stdint.h>

#define CONN_PROTO_LIST(X)	\
	X(NATIVE, "native")	\
	X(RPING, "rping")

#define CONN_LIFE_LIST(X)		\
	X(INIT, "init")			\
	X(ACCEPTING, "accepting")	\
	X(ESTABLISHED, "established")	\
	X(ABORTING, "aborting")		\
	X(CLOSING, "closing")		\
	X(DRAINING, "draining")		\
	X(CLOSED, "closed")

/*
 * Send side.  native: DESC, then RESULT.  rping: RDMA READ of the
 * client's source, "go ahead", RDMA WRITE to the client's sink, "go ahead".
 */
#define CONN_SEND_LIST(X)			\
	X(IDLE, "idle")				\
	X(DESC_POSTED, "desc-posted")		\
	X(DESC_SENT, "desc-sent")		\
	X(RESULT_POSTED, "result-posted")	\
	X(RESULT_SENT, "result-sent")		\
	X(READ_POSTED, "read-posted")		\
	X(READ_DONE, "read-done")		\
	X(WRITE_POSTED, "write-posted")

/* Receive side: what the server waits for next, or has received.  A
 * mesh session (native) waits for no message at all: only for the client
 * to leave ("mesh"). */
#define CONN_RECV_LIST(X)		\
	X(WAIT_AUTH, "wait-auth")	\
	X(WAIT_DONE, "wait-done")	\
	X(GOT_DONE, "got-done")		\
	X(WAIT_SRC, "wait-source")	\
	X(WAIT_SINK, "wait-sink")	\
	X(MESH, "mesh")

#define CONN_EVENT_LIST(X)				\
	X(CONNECT_REQUEST, "connect-request")		\
	X(ACCEPT_FAILED, "accept-failed")		\
	X(ESTABLISHED, "established")			\
	X(RECV_AUTH, "recv-auth")			\
	X(RECV_DONE, "recv-done")			\
	X(RECV_ADVERT, "recv-advert")			\
	X(RECV_BAD, "recv-bad")				\
	X(SEND_COMPLETE, "send-complete")		\
	X(READ_COMPLETE, "read-complete")		\
	X(WRITE_COMPLETE, "write-complete")		\
	X(WC_ERROR, "completion-error")			\
	X(DISCONNECTED, "disconnected")			\
	X(TIMEOUT, "timeout")				\
	X(FATAL, "fatal")				\
	X(SHUTDOWN, "shutdown")				\
	X(DRAINED, "drained")				\
	X(LIVE_DUE, "liveness-due")			\
	X(LIVE_OK, "liveness-ok")			\
	X(PEER_LOST, "peer-lost")			\
	X(ABORT_SENT, "abort-sent")

#define X_PROTO(n, s)	CONN_PROTO_##n,
#define X_LIFE(n, s)	CONN_LIFE_##n,
#define X_SEND(n, s)	CONN_SS_##n,
#define X_RECV(n, s)	CONN_RS_##n,
#define X_EVENT(n, s)	CONN_EV_##n,
enum conn_proto { CONN_PROTO_LIST(X_PROTO) CONN_PROTO__COUNT };
enum conn_life { CONN_LIFE_LIST(X_LIFE) CONN_LIFE__COUNT };
enum conn_send_state { CONN_SEND_LIST(X_SEND) CONN_SS__COUNT };
enum conn_recv_state { CONN_RECV_LIST(X_RECV) CONN_RS__COUNT };
enum conn_event { CONN_EVENT_LIST(X_EVENT) CONN_EV__COUNT };
#undef X_PROTO
#undef X_LIFE
#undef X_SEND
#undef X_RECV
#undef X_EVENT

/* Actions for conn.c, in the order it carries them out. */
enum conn_action {
	CONN_ACT_ACCEPT		= 1u << 0,	/* build resources, accept;
						 * failure: ACCEPT_FAILED */
	CONN_ACT_SEND_DESC	= 1u << 1,	/* native: post DESC */
	CONN_ACT_VERIFY		= 1u << 2,	/* native: check DONE + data */
	CONN_ACT_SEND_RESULT	= 1u << 3,	/* native: post RESULT */
	CONN_ACT_POST_READ	= 1u << 4,	/* rping: READ the source */
	CONN_ACT_SEND_GO	= 1u << 5,	/* rping: post "go ahead" */
	CONN_ACT_POST_WRITE	= 1u << 6,	/* rping: WRITE the sink */
	CONN_ACT_DISCONNECT	= 1u << 7,	/* rdma_disconnect, QP error */
	CONN_ACT_DRAIN		= 1u << 8,	/* wait for flushed WRs */
	CONN_ACT_DESTROY	= 1u << 9,	/* free everything */
	CONN_ACT_SEND_ABORT	= 1u << 10,	/* native: post ABORT (why) */
	CONN_ACT_POST_LIVENESS	= 1u << 11,	/* zero-length RDMA WRITE */
	CONN_ACT_REJECT		= 1u << 12,	/* refuse: never announced */
	CONN_ACT_LEFT_CLEAN	= 1u << 13,	/* result: ok, peer left */
	CONN_ACT_LEFT_ABORTED	= 1u << 14,	/* result: aborted, peer
						 * left mid-session */
};

struct conn_fsm {
	enum conn_proto proto;
	enum conn_life life;
	enum conn_send_state send;
	enum conn_recv_state recv;
	int auth;	/* native: AUTH must come before we send DESC */
	int mesh;	/* native: a mesh session (HELLO flag MESH) */
	int live;	/* a liveness check is in flight */
};

struct conn_step {
	struct conn_fsm next;
	unsigned int actions;	/* enum conn_action bits */
};

/*
 * Accepting: CONNECT_REQUEST asks for ACCEPT (resources, then the accept
 * itself); if that fails, ACCEPT_FAILED closes the connection at once
 * with REJECT (the client is told; nothing was announced, nothing
 * flushes).
 *
 * The peer leaving (DISCONNECTED) also says how the session ended, unless
 * we were closing it ourselves: LEFT_CLEAN when a native client had its
 * RESULT posted or sent (it may leave before our send completion) or an
 * rping client was between rounds, LEFT_ABORTED otherwise.  The first
 * recorded result wins, so this only fills in a missing one.
 *
 * Ending a native session ourselves (a deadline, shutdown, a bad message)
 * goes through "aborting": ABORT is posted and the disconnect waits for
 * its completion (ABORT_SENT; bounded by the close deadline), so the
 * client learns why.  rping, and a session that has its RESULT, skip it.
 */

/* What the connection waits for, to pick its deadline. */
enum conn_deadline {
	CONN_DL_NONE = 0,
	CONN_DL_ACCEPT,		/* ESTABLISHED after our accept */
	CONN_DL_SESSION,	/* native: client's RDMA work, then DONE */
	CONN_DL_IDLE,		/* waiting for the peer's next message */
	CONN_DL_IO,		/* our own send/RDMA completion */
	CONN_DL_LINGER,		/* native: RESULT sent, client to leave */
	CONN_DL_CLOSE,		/* DISCONNECTED, or flushed WRs */
};

/*
 * A mesh session (native, HELLO flag MESH; docs/protocol.md "Mesh
 * sessions"): after DESC the client runs its rounds of RDMA WRITE and
 * READ as it pleases and sends nothing; the receive side is "mesh".
 * Once DESC is sent there is no deadline (it is meant to live for days)
 * but liveness checks run, so a vanished client is reaped by them; the
 * client leaving is a clean end; a DONE (any message but AUTH where
 * expected) is a protocol error, as an unexpected message always is.
 * [limits] max_duration does not apply (conn_fsm_life_bounded()).
 */

/* Initial state of a connection of protocol PROTO (life INIT). */
void conn_fsm_init(struct conn_fsm *f, enum conn_proto proto);
/* Same, native with a pre-shared key: wait-auth before DESC. */
void conn_fsm_init_auth(struct conn_fsm *f);
/* Make F, a native connection just initialised, a mesh session. */
void conn_fsm_init_mesh(struct conn_fsm *f);

/* Is the connection's whole life bounded by [limits] max_duration?
 * Not a mesh session's. */
int conn_fsm_life_bounded(const struct conn_fsm *f);

/*
 * Compute the transition for EV.  Returns 0 and fills *out, or -EPROTO
 * when EV is illegal in that state (*out then holds cur unchanged and no
 * action; the caller fails that connection).
 */
int conn_fsm_step(const struct conn_fsm *cur, enum conn_event ev,
		  struct conn_step *out);

enum conn_deadline conn_fsm_deadline(const struct conn_fsm *f);

/*
 * A receive completed in state F: repost its slot?  Only while the
 * connection is live (accepting or established); on the way out the
 * slots are left to flush.
 */
int conn_fsm_recv_repost(const struct conn_fsm *f);

/*
 * Liveness.  RC has no keepalive: a peer that crashed or was cut off
 * while rdmad waits for it (native: its RDMA work and DONE, or its AUTH;
 * a mesh session: its leaving; rping: its next advert) would keep its slot until a deadline.  While
 * the connection is quiet like that and no check is in flight, a check
 * is due every [timeouts] liveness: conn_fsm_liveness_wanted() says when
 * conn.c should run that timer, LIVE_DUE posts the check (a zero-length
 * RDMA WRITE: no rkey, no peer CPU), LIVE_OK ends it, and PEER_LOST (the
 * transport gave up: retry exceeded) reaps the connection without an
 * ABORT, as nothing would reach the peer.
 */
int conn_fsm_liveness_wanted(const struct conn_fsm *f);

const char *conn_proto_name(enum conn_proto p);
const char *conn_life_name(enum conn_life l);
const char *conn_send_name(enum conn_send_state s);
const char *conn_recv_name(enum conn_recv_state s);
const char *conn_event_name(enum conn_event e);
const char *conn_deadline_name(enum conn_deadline d);

/* "established/desc-sent/wait-done" into buf; returns buf. */
char *conn_fsm_str(const struct conn_fsm *f, char *buf, unsigned int len);

#endif /* RDMAD_CONN_FSM_H */
