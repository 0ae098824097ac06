/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_conn.h - what the client driver (rdma_client.c, its CM
 * events in rdma_client_cm.c) and its sessions (rdma_client_native.c,
 * rdma_client_rping.c, rdma_client_mesh.c) share: the connection object,
 * its messages, its sends and its feed.  Not for embedders: they
 * use rdma_client.h.
 */
#ifndef RDMAD_RDMA_CLIENT_CONN_H
#define RDMAD_RDMA_CLIENT_CONN_H

#include <stdbool.h>
#include <stdint.h>

#include <event2/event.h>

#include "proto.h"
#include "rdma_client_types.h"
#include "rdma_client_fsm.h"
#include "rdma_cm.h"
#include "rdma_qp.h"

#define RDMA_CLIENT_RECV_SLOTS	2
#define RDMA_CLIENT_SLOT_LEN	PROTO_MSG_MAX
#define RDMA_CLIENT_SQ_EXTRA	2	/* sends besides the RDMA ops */

/* No follow-up event. */
#define RDMA_CLIENT_EV_NONE	RDMA_CLIENT_EV__COUNT

struct rdma_client;

/* One action of a session's protocol: BIT of the state machine's step
 * (RDMA_CLIENT_ACT_*), carried out by FN (the event it leads to, or
 * RDMA_CLIENT_EV_NONE); STEP: a step of the connection, whose failure
 * ends the step's actions. */
struct rdma_client_proto_act {
	uint32_t bit;
	enum rdma_client_event (*fn)(struct rdma_client *c,
				     const struct rdma_client_step *st);
	bool step;
};

/*
 * A session's protocol (native, mesh, rping; rdma_client_proto.c picks
 * it from the options, as the served side's conn_proto.c does): what the
 * driver (rdma_client.c) calls by pointer, naming none of them.
 */
struct rdma_client_proto {
	const char *name;
	/* C's options made the protocol's; its state machine set up. */
	void (*init)(struct rdma_client *c);
	/* Its buffers: 0, or -errno with c->error set. */
	int (*bufs)(struct rdma_client *c);
	/* The connect's private data into BUF: its length or -errno (NULL:
	 * none). */
	int (*hello)(struct rdma_client *c, uint8_t *buf, size_t len);
	/* The connection is up: ESTABLISHED, ESTABLISHED_AUTH or an error
	 * (NULL: ESTABLISHED). */
	enum rdma_client_event (*established)(struct rdma_client *c);
	/* A message received: LEN bytes of BUF, BYTES sent. */
	enum rdma_client_event (*msg)(struct rdma_client *c,
				      const uint8_t *buf, uint32_t len,
				      uint32_t bytes);
	/* One of its RDMA READs or WRITEs completed at DONE (ns); an
	 * operation the embedder counts goes in c->op_done (NULL: none). */
	enum rdma_client_event (*rdma_done)(struct rdma_client *c,
					    const struct ibv_wc *wc,
					    uint64_t done);
	/* Its actions, in order; the last has bit 0. */
	const struct rdma_client_proto_act *acts;
};

struct rdma_client {
	struct rdma_client_opts o;
	const struct rdma_client_ops *ops;
	void *arg;
	struct event_base *base;
	struct rdma_cm_chan *chan;
	struct rdma_cm_handler cmh;
	struct rdma_cm_id *id;
	struct rdma_qp q;
	bool qp;			/* q is made */
	struct rdma_client_fsm fsm;
	const struct rdma_client_proto *proto;
	/* An operation completed, for ops->op once the machine has it. */
	struct {
		bool set;
		enum rdma_client_op kind;
		uint64_t posted, done;
	} op_done;

	struct event *timer;
	/* In OPS the step deadline is armed once and runs from the last
	 * completion (progress) rather than being re-armed per operation:
	 * the timer moves it on when there was progress since. */
	bool ops_deadline;
	uint64_t progress;		/* CLOCK_MONOTONIC ns */
	struct event *dur_timer;	/* duration: ends each op kind */

	/* RDMA_CLIENT_RECV_SLOTS receive slots, then one send slot. */
	struct rdma_buf msg;
	/* Native: depth slots of size bytes; operation i uses slot
	 * i % depth, free again once i has completed (and been checked). */
	struct rdma_buf data;
	uint64_t *slot_posted;		/* [depth] post time */
	struct ibv_send_wr *wrs;	/* [depth] for chained posts */
	struct ibv_sge *sges;		/* [depth] */
	uint8_t *ref;			/* READ reference: pattern(READ) */
	/* rping: the sink the server writes, the source it reads. */
	struct rdma_buf sink;
	struct rdma_buf source;

	struct rdma_cm_ev resp;		/* CONNECT_RESPONSE, for the welcome */
	struct proto_welcome welcome;
	bool have_welcome;
	struct proto_hello hello;	/* as sent, for the AUTH MAC */
	struct proto_desc desc;
	uint32_t write_crc;

	/* Mesh: the round in flight (or the last one). */
	struct rdma_client_round rnd;
	uint64_t rnd_posted;		/* of its current operation */
	/* Mesh: the bandwidth sample in flight (or the last one). */
	struct rdma_client_bw bw;
	uint32_t bw_ms;			/* its duration */
	uint64_t bw_first;		/* first post, ns */
	uint64_t bw_last;		/* last completion, ns */

	/* What the embedder is told from the loop (rdma_client_report.c):
	 * RDMA_CLIENT_REPORT_* due, each one's figures as they were. */
	struct event *report_ev;
	unsigned int report;
	struct rdma_client_round rep_rnd;
	struct rdma_client_bw rep_bw;
	struct rdma_client_outcome rep_out;
	bool reporting;			/* inside one of them */
	unsigned int end_asked;		/* release or free, asked inside */

	struct rdma_client_times t;
	uint64_t ping_posted;
	uint32_t pings_timed;
	char error[320];
	const char *reason;		/* short, static: "busy" */
	bool started;
	bool finished;
};

/* Keep the first failure's short reason (a static string); its message
 * (logged); nothing once the connection is over. */
void rdma_client_conn_reason(struct rdma_client *c, const char *reason);
__attribute__((format(printf, 2, 3)))
void rdma_client_conn_error(struct rdma_client *c, const char *fmt, ...);
/* A line about C, "NAME: ...", through the layer's logger. */
__attribute__((format(printf, 3, 4)))
void rdma_client_conn_log(struct rdma_client *c, int prio,
			  const char *fmt, ...);
/* The send slot; a SEND of its first LEN bytes (wr index IDX). */
uint8_t *rdma_client_conn_send_slot(struct rdma_client *c);
int rdma_client_conn_send(struct rdma_client *c, uint32_t len, uint32_t idx);
/* Receive slot SLOT (again). */
int rdma_client_conn_post_recv(struct rdma_client *c, uint32_t slot);

/* rdma_client_report.c: the embedder's reports, lowest bit first. */
#define RDMA_CLIENT_REPORT_READY	(1u << 0)	/* ops->ready */
#define RDMA_CLIENT_REPORT_ROUND	(1u << 1)	/* ops->round: rep_rnd */
#define RDMA_CLIENT_REPORT_BW		(1u << 2)	/* ops->bw: rep_bw */
#define RDMA_CLIENT_REPORT_DONE		(1u << 3)	/* ops->done: rep_out */
/* C's report event.  0 or -ENOMEM. */
int rdma_client_report_init(struct rdma_client *c);
/* WHAT (RDMA_CLIENT_REPORT_*, its figures in place) told from the loop,
 * once the transition under way is over. */
void rdma_client_report_post(struct rdma_client *c, unsigned int what);

/* rdma_client.c: EV to the state machine, then its actions and the
 * events they lead to, until none is left. */
void rdma_client_feed(struct rdma_client *c, enum rdma_client_event ev);

#endif /* RDMAD_RDMA_CLIENT_CONN_H */
