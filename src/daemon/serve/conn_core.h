/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_core.h - what every part of a connection shares: struct conn_set
 * (given by the connections' owner), struct conn and struct
 * conn_proto_ops, a protocol's part.  The driver (conn.c), the protocols
 * (conn_native.c, conn_rping.c, chosen in conn_proto.c), posting
 * (conn_post.c), the outcome (conn_end.c) and the connection's log lines
 * (conn_log.c) use it; nothing above conn.h looks inside a struct conn.
 */
#ifndef RDMAD_CONN_CORE_H
#define RDMAD_CONN_CORE_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include <event2/event.h>

#include "core/config.h"
#include "serve/conn_end_rules.h"
#include "serve/conn_fsm.h"
#include "proto.h"
#include "rdma_cm.h"
#include "rdma_dev.h"
#include "rdma_qp.h"
#include "core/stats.h"

#ifndef TAILQ_FOREACH_SAFE	/* not in glibc's sys/queue.h */
#define TAILQ_FOREACH_SAFE(var, head, field, tvar)			\
	for ((var) = TAILQ_FIRST(head);					\
	     (var) && ((tvar) = TAILQ_NEXT(var, field), 1);		\
	     (var) = (tvar))
#endif

#define CONN_RECV_DEPTH		4
#define CONN_SEND_DEPTH		8
#define CONN_SEND_SLOTS		4
/* control messages: receive slots, then send slots */
#define CONN_CTL_LEN		((size_t)(CONN_RECV_DEPTH + CONN_SEND_SLOTS) * \
				 PROTO_MSG_MAX)

struct conn;
TAILQ_HEAD(conn_list, conn);

struct conn_set {
	struct event_base *base;
	const struct rdmad_config *cfg;	/* the owner's, read when used */
	struct stats *stats;
	struct rdma_devs *devs;
	void (*gone)(void *arg);	/* a connection was freed */
	void *arg;

	struct conn_list list;		/* in accept order */
	uint64_t next_id;
	bool stopping;			/* refuse new connections */
};

struct conn;
/* The driver's (conn.c): feed one event to the connection's state
 * machine and carry out what it says.  The timers (conn_timer.c) are given
 * it at conn_timer_init: they report upward through it, never by name. */
typedef void conn_fire_fn(struct conn *c, enum conn_event ev);

struct conn_admit;

/*
 * A protocol of the served connections, chosen at admission
 * (conn_proto_of) and called by the driver through c->ops.  Results of
 * posts: 0 or -errno; a failure's cause goes to conn_end().
 */
struct conn_proto_ops {
	const char *rounds_unit;	/* the close line's "N operations" */
	/* The state machine's first state and what the admission kept. */
	void (*init)(struct conn *c, const struct conn_admit *a);
	/* Before the accept: what the client needs at once (may be NULL). */
	int (*setup)(struct conn *c);
	/* The accept's private data into PDATA: its length (0: none). */
	int (*accept_pdata)(struct conn *c, uint8_t *pdata, size_t len);
	/* The protocol's actions (CONN_ACT_*), in the order they are
	 * carried out, each 0 or -errno of a failed post; the driver stops
	 * at the first failure.  Ends with act 0. */
	const struct conn_proto_act {
		unsigned int act;
		int (*fn)(struct conn *c);
	} *acts;
	/* A received message as an event (the slot is reposted after). */
	enum conn_event (*recv)(struct conn *c, const uint8_t *p,
				uint32_t len);
	/* One of our RDMA READs or WRITEs (KIND) completed: the event. */
	enum conn_event (*rdma_done)(struct conn *c, enum rdma_wr_kind kind);
	/* The open line, once accepted. */
	void (*opened)(struct conn *c);
};

struct conn {
	TAILQ_ENTRY(conn) link;
	const struct conn_proto_ops *ops;	/* its protocol */
	struct conn_set *s;
	uint64_t id;
	char peer[INET6_ADDRSTRLEN + 8];
	struct sockaddr_storage peer_addr;	/* for per-host counts */
	uint64_t t_open;		/* clock_now_ns() at the request */
	struct conn_fsm fsm;
	int counted;			/* active in s->stats */
	int linked;			/* in s->list */

	struct rdma_cm_handler cmh;	/* the cm_id's context */
	struct rdma_cm_id *cm_id;
	const struct rdma_cm_ev *req;	/* CONNECT_REQUEST, while accepting */
	int accepting;			/* rdma_qp_accept was tried */
	int rejected;			/* refused: never announced */
	struct rdma_dev *dev;
	struct rdma_qp qp;
	struct event *timer;
	struct event *free_ev;
	struct event *life_timer;	/* [limits] max_duration */
	struct event *live_timer;	/* [timeouts] liveness */
	int live_armed;
	enum conn_deadline deadline;

	/* control messages: CONN_RECV_DEPTH receive slots, then sends */
	struct rdma_buf ctl;
	unsigned int send_next;

	/* data buffer */
	struct rdma_buf buf;

	/* native */
	struct proto_hello hello;
	struct proto_welcome welcome;	/* as sent (nonce with a key) */
	struct proto_done done;
	struct proto_result result;

	/* rping */
	struct proto_rping_info src, sink;
	uint32_t read_len, write_len;

	uint64_t bytes;
	uint64_t rounds;
	uint64_t t_post[STATS_OP_N];	/* rping: our RDMA op posted, ns */
	uint64_t t_heard;		/* the peer's last sign of life, ns */
	struct conn_end end;		/* its outcome: conn_end.c's */
	conn_fire_fn *fire;		/* the driver's, for the timers */
};

static inline enum stats_proto conn_stats_proto(const struct conn *c)
{
	return c->fsm.proto == CONN_PROTO_RPING ? STATS_PROTO_RPING :
						  STATS_PROTO_NATIVE;
}

#endif /* RDMAD_CONN_CORE_H */
