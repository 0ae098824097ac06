/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client.h - the client side of one connection to an rdmad (native
 * protocol) or rping server, embeddable in any libevent loop: resolve,
 * connect, then the native session (DESC, READs checked against the
 * server's pattern, WRITEs of our own pattern, DONE and the server's
 * RESULT; AUTH when the server has a pre-shared key) or the rping session,
 * then disconnect.  rdma-probe runs many at once; rdmad embeds the same
 * module to probe its peers.
 *
 * The embedder owns the event_base and the rdma_cm channel (which it may
 * share with its own listeners and connections: every id has its own
 * handler).  It gets results through callbacks: each operation as it
 * completes (so it keeps its own histograms), each state change, and the
 * outcome once the connection is over.  Every decision is the state
 * machine's (rdma_client_fsm.h); this module carries out its actions:
 *
 *   rdma_client_types.h   options, callbacks, moments, outcome
 *   rdma_client.c         life cycle, deadlines, completions, actions;
 *                         the session's through its protocol's table
 *   rdma_client_cm.c      CM events, rejections and disconnects in words
 *   rdma_client_conn.c    the connection object, its messages and sends
 *   rdma_client_proto.c   the protocol of a connection's options (struct
 *                         rdma_client_proto: native, mesh, rping), as the
 *                         served side's conn_proto.c
 *   rdma_client_native.c  the native session: HELLO, welcome, AUTH, DESC,
 *                         READ/WRITE posting and checks, DONE, RESULT
 *   rdma_client_rping.c   the rping session: adverts, sink check
 *   rdma_client_mesh.c    mesh sessions (the native one's HELLO, welcome,
 *                         AUTH, DESC): rounds (WRITE, READ back, check,
 *                         report) and bandwidth samples; the requests
 *                         (rdma_client_round, _bw, _close, below) are
 *                         rdma_client.c's
 *   rdma_client_report.c  what the embedder is told (ops->ready, ->round,
 *                         ->bw, ->done): from the loop, after the
 *                         transition that made it; release and free
 *
 * A mesh session (opts.mesh) stays up after DESC: the connection is READY
 * and runs a round (WRITE of pattern(seed, round), READ back, check) each
 * time the embedder calls rdma_client_round(), its result through
 * ops->round, until rdma_client_close() (a clean end), rdma_client_abort()
 * or a failure.  With opts.ops PROTO_OP_READ alone the rounds READ back
 * alone once the session has written its pattern (see
 * rdma_client_types.h).  rdma_client_bw() runs a bandwidth sample
 * instead of a round, its figures through ops->bw.  No deadline runs
 * while READY; each round's operations, and each of a sample's
 * completions, have the step deadline.  A server that does not know mesh sessions
 * refuses the HELLO: the REJECTED class, "server does not support mesh
 * sessions (rdmad before 0.2)".
 *
 * Life: rdma_client_new(), rdma_client_start(), then callbacks from the
 * loop until ops->done; rdma_client_release() frees the RDMA resources at
 * once and keeps the figures; rdma_client_free().  The reports (ready,
 * round, bw, done) are never made inside the client's own transition or a
 * call into it: the embedder may call the client from them, and release
 * or free it there (carried out once the report returns, nothing told
 * after).  ops->op and ops->state come from inside: they only look.
 */
#ifndef RDMAD_RDMA_CLIENT_H
#define RDMAD_RDMA_CLIENT_H

#include <stdbool.h>

#include <event2/event.h>

#include "rdma_client_types.h"
#include "rdma_cm.h"

struct rdma_client;


/*
 * A connection on CHAN (whose loop is BASE) with options O, reporting to
 * OPS(ARG); it does nothing until rdma_client_start.  0 or -errno.
 */
int rdma_client_new(struct rdma_client **out, struct event_base *base,
		    struct rdma_cm_chan *chan,
		    const struct rdma_client_opts *o,
		    const struct rdma_client_ops *ops, void *arg);
/* Begin: resolve the address. */
void rdma_client_start(struct rdma_client *c);
/* Fail the connection from outside (a signal, a shutdown); WHY is a
 * static string, its short reason and message.  Nothing once over. */
void rdma_client_abort(struct rdma_client *c, const char *why);
/* busy_poll: take the completions there are now; their count. */
int rdma_client_poll(struct rdma_client *c);
/* ops->done was called. */
bool rdma_client_finished(const struct rdma_client *c);
void rdma_client_outcome(const struct rdma_client *c,
			 struct rdma_client_outcome *o);
/* Free the RDMA resources and events now (asked from inside a report:
 * once it returns), keep the outcome; no report is told after. */
void rdma_client_release(struct rdma_client *c);
void rdma_client_free(struct rdma_client *c);

/* ---- a mesh session's requests (opts.mesh) ---- */
/*
 * Mesh: run one round of SIZE bytes (1 .. the DESC buffer's length, and at
 * most opts.size).  0, -ENOTCONN (not a mesh session, or not READY yet or
 * any more), -EBUSY (a round is in flight), -EINVAL (size).
 */
int rdma_client_round(struct rdma_client *c, uint32_t size);
/*
 * Mesh: a bandwidth sample: RDMA WRITEs of SIZE bytes (1 .. the DESC
 * buffer's length, and at most opts.size: they are sent from the round
 * buffer), opts.depth of them in flight, for DURATION_MS (>= 1); then no
 * more are posted and, once those in flight completed, the result
 * through ops->bw.  Each completion has the step deadline (opts.
 * timeout_ms); an error ends the connection (ops->done).  0, -ENOTCONN,
 * -EBUSY (a round or sample in flight), -EINVAL (size, duration).
 */
int rdma_client_bw(struct rdma_client *c, uint32_t size,
		   uint32_t duration_ms);
/* Mesh: end a READY session cleanly (disconnect; done with
 * RDMA_CLIENT_FAIL_NONE).  0, -ENOTCONN or -EBUSY as above. */
int rdma_client_close(struct rdma_client *c);

#endif /* RDMAD_RDMA_CLIENT_H */
