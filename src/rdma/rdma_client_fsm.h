/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_fsm.h - the client connection's state machine (rdma-probe's,
 * and any embedder's of rdma_client.h), one per connection.
 *
 * Pure: no fds, no verbs, no clock.  rdma_client.c turns CM events, work
 * completions, verification results and timer expiries into
 * RDMA_CLIENT_EV_*, calls rdma_client_fsm_step() and carries out the
 * RDMA_CLIENT_ACT_* it gets back.
 *
 * Native flow:  IDLE -> ADDR -> ROUTE -> CONNECT -> DESC -> OPS <-> VERIFY
 *               -> RESULT -> CLOSING -> DONE
 * rping flow:   IDLE -> ADDR -> ROUTE -> CONNECT -> RPING_SRC -> RPING_SINK
 *               -> VERIFY -> (RPING_SRC ...) -> CLOSING -> DONE
 * Mesh flow:    IDLE -> ADDR -> ROUTE -> CONNECT -> DESC -> READY, then as
 *               the embedder asks (ROUND): READY -> ROUND_WRITE ->
 *               ROUND_READ -> ROUND_CHECK -> READY ...; CLOSE: READY ->
 *               CLOSING -> DONE.  A round's mismatch is reported and the
 *               connection stays READY; no deadline while READY.
 *               READ-only rounds skip ROUND_WRITE once the session has
 *               written (READY -> ROUND_READ): the first round, and the
 *               first after a mismatch, still WRITE.  A bandwidth
 *               sample (BW): READY -> BW_WRITE (WRITEs, depth in
 *               flight, until STOP and the last completes) -> READY.
 * In CONNECT, the server's answer (ACCEPTED) asks for ESTABLISH: the
 * driver readies the QP and checks the welcome, which is ESTABLISHED, or
 * ESTABLISHED_AUTH when the server wants proof of the key (SEND_AUTH
 * with the next step).  An answer that comes after the connection failed
 * (a connect timeout) does nothing.
 * Any failure ends in FAILED, through CLOSING (disconnect first) when the
 * connection was established.  The first failure is kept in fsm->fail,
 * the state it happened in in fsm->fail_state.
 */
#ifndef RDMAD_RDMA_CLIENT_FSM_H
#define RDMAD_RDMA_CLIENT_FSM_H

#include <stdbool.h>
#include <stdint.h>

/* X(name, step): step names the work a state waits for, for messages. */
#define RDMA_CLIENT_STATES(X)						\
	X(IDLE,		"start")					\
	X(ADDR,		"address resolution")				\
	X(ROUTE,	"route resolution")				\
	X(CONNECT,	"connect")					\
	X(DESC,		"descriptor")					\
	X(OPS,		"RDMA operation")				\
	X(VERIFY,	"verification")					\
	X(RESULT,	"result")					\
	X(RPING_SRC,	"rping source go-ahead")			\
	X(RPING_SINK,	"rping sink go-ahead")				\
	X(READY,	"the next round")				\
	X(ROUND_WRITE,	"round WRITE")				\
	X(ROUND_READ,	"round READ")				\
	X(ROUND_CHECK,	"round check")				\
	X(BW_WRITE,	"bandwidth WRITE")				\
	X(CLOSING,	"disconnect")					\
	X(DONE,		"done")						\
	X(FAILED,	"failed")

#define RDMA_CLIENT_EVENTS(X)						\
	X(START)		/* begin: resolve the address */	\
	X(ADDR_OK)		/* RDMA_CM_EVENT_ADDR_RESOLVED */	\
	X(ADDR_ERR)		/* ADDR_ERROR, or resolve_addr failed */ \
	X(ROUTE_OK)		/* RDMA_CM_EVENT_ROUTE_RESOLVED */	\
	X(ROUTE_ERR)		/* ROUTE_ERROR, or resolve_route failed */ \
	X(ACCEPTED)		/* CONNECT_RESPONSE: the server accepts */ \
	X(ESTABLISHED)		/* connection up (welcome checked) */	\
	X(ESTABLISHED_AUTH)	/* the same; the server wants AUTH */	\
	X(REJECTED)		/* rejected by the server */		\
	X(CONN_ERR)		/* refused, unreachable, connect error */ \
	X(DESC_OK)		/* valid DESC received */		\
	X(OP_DONE)		/* RDMA READ/WRITE completed */		\
	X(CHECK_OK)		/* verification passed */		\
	X(CHECK_BAD)		/* verification found a difference */	\
	X(RESULT_OK)		/* RESULT: server verified our writes */ \
	X(RESULT_BAD)		/* RESULT: server found a mismatch */	\
	X(GO_AHEAD)		/* rping: server's go-ahead */		\
	X(PROTO_ERR)		/* malformed or unexpected message */	\
	X(KEY_ERR)		/* no key for a keyed server, or refused */ \
	X(WC_ERR)		/* a work completion failed */		\
	X(DISCONNECTED)		/* RDMA_CM_EVENT_DISCONNECTED */	\
	X(TIMEOUT)		/* the step's deadline passed */	\
	X(STOP)			/* -D, bandwidth: the time is up */	\
	X(LOCAL_ERR)		/* local resource or verbs failure */	\
	X(SRV_TIMEOUT)		/* ABORT: a server deadline passed */	\
	X(SRV_ABORT)		/* ABORT: server ended it (shutdown...) */ \
	X(ROUND)		/* mesh: the embedder asks for a round */ \
	X(CLOSE)		/* mesh: the embedder ends it cleanly */ \
	X(BW)			/* mesh: the embedder asks for a sample */

/*
 * X(name, code, description).  The code is rdma-probe's exit status for
 * the class (docs/rdma-probe.md), so it never changes; 64 (usage) is not
 * a run failure and no class has it.
 */
#define RDMA_CLIENT_FAILS(X)						\
	X(NONE,		0, "all data verified")				\
	X(LOCAL,	1, "local error")				\
	X(ADDR,		2, "address resolution failed or timed out")	\
	X(ROUTE,	3, "route resolution failed or timed out")	\
	X(CONNECT,	4, "connection refused or failed")		\
	X(REJECTED,	5, "rejected by server")			\
	X(TIMEOUT,	6, "timed out (connect or a later step)")	\
	X(COMPLETION,	7, "completion error or connection lost")	\
	X(PROTOCOL,	8, "protocol error")				\
	X(MISMATCH,	9, "data mismatch")				\
	X(KEY,		10, "pre-shared key missing or refused")

#define RDMA_CLIENT_X_ENUM(name, ...)	RDMA_CLIENT_ST_##name,
enum rdma_client_state {
	RDMA_CLIENT_STATES(RDMA_CLIENT_X_ENUM)
	RDMA_CLIENT_ST__COUNT
};
#undef RDMA_CLIENT_X_ENUM
#define RDMA_CLIENT_X_ENUM(name)	RDMA_CLIENT_EV_##name,
enum rdma_client_event {
	RDMA_CLIENT_EVENTS(RDMA_CLIENT_X_ENUM)
	RDMA_CLIENT_EV__COUNT
};
#undef RDMA_CLIENT_X_ENUM
#define RDMA_CLIENT_X_ENUM(name, ...)	RDMA_CLIENT_FAIL_##name,
enum rdma_client_fail {
	RDMA_CLIENT_FAILS(RDMA_CLIENT_X_ENUM)
	RDMA_CLIENT_FAIL__COUNT
};
#undef RDMA_CLIENT_X_ENUM

/*
 * Actions, carried out in this bit order; when one of the connection's
 * steps (CONNECT, ESTABLISH, SEND_AUTH) fails, the rest are not.
 */
#define RDMA_CLIENT_ACT_ARM_TIMER	(1u << 0)	/* (re)start deadline */
#define RDMA_CLIENT_ACT_RESOLVE_ADDR	(1u << 1)
#define RDMA_CLIENT_ACT_RESOLVE_ROUTE	(1u << 2)
#define RDMA_CLIENT_ACT_CONNECT		(1u << 3)	/* QP, HELLO, connect */
#define RDMA_CLIENT_ACT_ESTABLISH	(1u << 4)	/* QP ready, welcome */
#define RDMA_CLIENT_ACT_SEND_AUTH	(1u << 5)	/* native AUTH */
#define RDMA_CLIENT_ACT_ARM_DURATION	(1u << 6)	/* this kind's clock */
#define RDMA_CLIENT_ACT_POST_READ	(1u << 7)	/* .iter .. + .count */
#define RDMA_CLIENT_ACT_POST_WRITE	(1u << 8)	/* .iter .. + .count */
#define RDMA_CLIENT_ACT_VERIFY_READ	(1u << 9)	/* READ .iter's data */
#define RDMA_CLIENT_ACT_SEND_DONE	(1u << 10)	/* native DONE */
#define RDMA_CLIENT_ACT_SEND_SOURCE	(1u << 11)	/* rping: source */
#define RDMA_CLIENT_ACT_SEND_SINK	(1u << 12)	/* rping: sink */
#define RDMA_CLIENT_ACT_VERIFY_SINK	(1u << 13)	/* sink == source? */
#define RDMA_CLIENT_ACT_DISCONNECT	(1u << 14)
#define RDMA_CLIENT_ACT_FINISH		(1u << 15)	/* terminal: stop */
/* Mesh rounds (.iter: the round number). */
#define RDMA_CLIENT_ACT_STOP_TIMER	(1u << 16)	/* no deadline */
#define RDMA_CLIENT_ACT_ROUND_WRITE	(1u << 17)	/* its pattern */
#define RDMA_CLIENT_ACT_ROUND_READ	(1u << 18)	/* read it back */
#define RDMA_CLIENT_ACT_ROUND_CHECK	(1u << 19)	/* compare */
#define RDMA_CLIENT_ACT_ROUND_REPORT	(1u << 20)	/* to embedder */
/* Mesh bandwidth samples (ARM_DURATION starts the sample's clock). */
#define RDMA_CLIENT_ACT_POST_BW		(1u << 21)	/* .iter .. + .count */
#define RDMA_CLIENT_ACT_BW_REPORT	(1u << 22)	/* to embedder */
/* Mesh: READY after DESC, to the embedder (once: rounds may start). */
#define RDMA_CLIENT_ACT_READY_REPORT	(1u << 23)

struct rdma_client_step {
	uint32_t act;		/* RDMA_CLIENT_ACT_* */
	uint32_t iter;		/* of POST_*, VERIFY_*, SEND_SOURCE/SINK */
	uint32_t count;		/* POST_*: operations iter..iter+count-1 */
};

struct rdma_client_fsm {
	enum rdma_client_state state;
	enum rdma_client_fail fail;	/* first failure, or FAIL_NONE */
	enum rdma_client_state fail_state;	/* where it happened */
	/* What was asked for (set by rdma_client_fsm_init). */
	bool rping;
	bool verify;
	uint8_t ops;		/* PROTO_OP_* (native) */
	uint32_t iters;		/* per kind; with duration, the cap */
	uint32_t depth;		/* native operations in flight, >= 1 */
	bool duration;		/* run each kind until RDMA_CLIENT_EV_STOP */
	bool mesh;		/* a mesh session: rounds on demand */
	bool mesh_read_only;	/* its rounds READ back what was written */
	/* Progress. */
	uint8_t cur_op;		/* PROTO_OP_READ/_WRITE in OPS and VERIFY */
	uint32_t limit;		/* operations of cur_op to complete */
	uint32_t posted;	/* of cur_op */
	uint32_t inflight;	/* of cur_op, posted and not completed */
	bool desc_ready;	/* DESC arrived before ESTABLISHED was seen */
	uint32_t reads_done;
	uint32_t writes_done;
	uint32_t pings_done;	/* rping iterations verified */
	uint32_t rounds;	/* mesh rounds completed (checked) */
	uint32_t rounds_bad;	/* of them, mismatches */
	bool written;		/* READ-only rounds: the pattern is there */
	/* The mesh bandwidth sample in flight (or the last one). */
	bool bw_stop;		/* its time is up: post no more */
	uint32_t bw_posted;
	uint32_t bw_inflight;
	uint32_t bw_done;	/* WRITEs completed */
	/* Transition log: called by the setter on every state change. */
	void (*on_transition)(void *arg, enum rdma_client_state from,
			      enum rdma_client_state to,
			      enum rdma_client_event ev);
	void *arg;
};

void rdma_client_fsm_init(struct rdma_client_fsm *f, bool rping,
			  uint8_t ops, uint32_t iters, bool verify);
/*
 * Native pipelining (default depth 1, no duration): keep up to depth
 * operations in flight.  With duration, RDMA_CLIENT_ACT_ARM_DURATION
 * starts each kind and RDMA_CLIENT_EV_STOP ends it (iters is then a cap).
 * The last WRITE of a run is always posted alone, once every earlier WRITE
 * has completed, so the server's buffer holds exactly that WRITE's bytes
 * at DONE.
 */
void rdma_client_fsm_pipeline(struct rdma_client_fsm *f, uint32_t depth,
			      bool duration);

/*
 * A mesh session (HELLO flag MESH): READ|WRITE, one iteration, verified;
 * after DESC the connection is READY and runs a round per
 * RDMA_CLIENT_EV_ROUND (WRITE, READ back, check) until RDMA_CLIENT_EV_CLOSE.
 * A mismatch (CHECK_BAD) ends the round, not the connection.  OPS
 * PROTO_OP_READ alone: READ-only rounds, which WRITE only when the
 * session has not written yet or the last round mismatched.  The depth
 * (rdma_client_fsm_pipeline, called first) is that of bandwidth samples
 * (RDMA_CLIENT_EV_BW: WRITEs, depth in flight, until RDMA_CLIENT_EV_STOP);
 * rounds have one operation in flight.
 */
void rdma_client_fsm_mesh(struct rdma_client_fsm *f, uint8_t ops);

/*
 * Feed one event.  Fills *out with the actions to carry out.  Returns 0,
 * or -EPROTO when the event is illegal in the current state: the machine
 * then records RDMA_CLIENT_FAIL_PROTOCOL and heads for FAILED (out says how).
 * Events in DONE/FAILED are ignored.
 */
int rdma_client_fsm_step(struct rdma_client_fsm *f, enum rdma_client_event ev,
			 struct rdma_client_step *out);

bool rdma_client_fsm_terminal(const struct rdma_client_fsm *f);
/* The connection is up (a disconnect is needed to close it). */
bool rdma_client_fsm_connected(enum rdma_client_state s);

const char *rdma_client_fsm_state_str(enum rdma_client_state s);
const char *rdma_client_fsm_state_step(enum rdma_client_state s);
const char *rdma_client_fsm_event_str(enum rdma_client_event ev);
const char *rdma_client_fsm_fail_str(enum rdma_client_fail fail);
int rdma_client_fsm_fail_code(enum rdma_client_fail fail);
/*
 * Which of two failures a run reports: a data mismatch anywhere wins,
 * then the larger exit code.  True if A is worse than B.
 */
bool rdma_client_fsm_fail_worse(enum rdma_client_fail a,
				enum rdma_client_fail b);
/*
 * The event a server's ABORT (enum proto_abort_reason) stands for: a
 * deadline or limit of the server's (timeout class), our protocol error
 * (protocol class), a wrong key (key class), anything else, unknown
 * reasons included (connection lost class).
 */
enum rdma_client_event rdma_client_fsm_abort_event(uint8_t reason);
/*
 * A server's REJECT (enum proto_reject_reason, its text) of a mesh HELLO
 * that means "this server does not know mesh sessions": an rdmad before
 * 0.2 refuses the flag as a bad hello, "unknown flags".
 */
bool rdma_client_fsm_mesh_refused(uint8_t reason, const char *text);

#endif /* RDMAD_RDMA_CLIENT_FSM_H */
