/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn.c - one rdmad client connection (see conn.h).
 *
 * conn.c turns CM events, work completions and deadline expiries into
 * conn_fsm events, moves the state with conn_set_state() (the one place
 * that changes it, and logs "old -> new"), and carries out the actions
 * the state machine asks for.  Failures stay with the connection.
 *
 * The verbs objects, their completions and async errors are the RDMA
 * layer's (rdma_qp.h, rdma_cq.h, rdma_dev.h); work request ids are
 * rdma_wr.h's.
 *
 * Liveness: while conn_fsm_liveness_wanted() says so, a timer of
 * [timeouts] liveness runs; at its end the FSM posts one zero-length RDMA
 * WRITE (RDMA_WR_LIVE: no rkey, no peer CPU, no bytes, not an RDMA operation
 * of the session).  Its success re-arms the timer; a transport retry
 * exceeded on it, or on any of our work requests, is PEER_LOST: result
 * peer-unreachable, reaped at once.
 *
 * Teardown, whatever the path, in the layer's order: rdma_qp_disconnect
 * (QP to error), wait until every posted work request has completed or
 * flushed (bounded by the close deadline), then from a deferred callback
 * rdma_qp_destroy, and the cm_id last.
 */
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl.h"
#include "addr.h"
#include "auth.h"
#include "container_of.h"
#include "conn.h"
#include "conn_fsm.h"
#include "crc32c.h"
#include "log.h"
#include "pattern.h"
#include "proto.h"
#include "rdma_qp.h"

#define CONN_RECV_DEPTH		4
#define CONN_SEND_DEPTH		8
#define CONN_SEND_SLOTS		4
/* control messages: receive slots, then send slots */
#define CONN_CTL_LEN		((size_t)(CONN_RECV_DEPTH + CONN_SEND_SLOTS) * \
				 PROTO_MSG_MAX)

struct conn {
	TAILQ_ENTRY(conn) link;
	struct conn_set *s;
	uint64_t id;
	char peer[INET6_ADDRSTRLEN + 8];
	struct sockaddr_storage peer_addr;	/* for per-host counts */
	struct timespec t_open;
	struct conn_fsm fsm;
	int counted;			/* active in s->stats */
	int linked;			/* in s->list */

	struct rdma_cm_handler cmh;	/* the cm_id's context */
	struct rdma_cm_id *cm_id;
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
	struct proto_abort abort;	/* why we end it; reason 0: unset */
	enum stats_result res;		/* outcome, STATS_RES_N: undecided */
	char why[160];			/* detail for the close line */
};

static void conn_fire(struct conn *c, enum conn_event ev);

/* ---- logging -------------------------------------------------------- */

static void conn_log(struct conn *c, int prio, const char *msgid,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void conn_log(struct conn *c, int prio, const char *msgid,
		     const char *fmt, ...)
{
	char msg[512], state[64];
	struct log_ctx ctx = {
		.conn = c->id,
		.peer = c->peer,
		.proto = conn_proto_name(c->fsm.proto),
		.bytes = -1,
		.msgid = msgid,
	};
	va_list ap;

	if (prio > log_get_level())
		return;
	ctx.state = conn_fsm_str(&c->fsm, state, sizeof(state));
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_conn(prio, &ctx, "%s", msg);
}

/* Record the outcome once; the first cause wins. */
static void conn_result(struct conn *c, enum stats_result res,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void conn_result(struct conn *c, enum stats_result res,
			const char *fmt, ...)
{
	va_list ap;

	if (c->res != STATS_RES_N)
		return;
	c->res = res;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
}

/* What the ABORT will tell the client; the first cause wins, as for the
 * result. */
static void conn_abort_why(struct conn *c, uint8_t reason, uint32_t limit_ms,
			   const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void conn_abort_why(struct conn *c, uint8_t reason, uint32_t limit_ms,
			   const char *fmt, ...)
{
	va_list ap;

	if (c->abort.reason)
		return;
	c->abort.reason = reason;
	c->abort.limit_ms = limit_ms;
	va_start(ap, fmt);
	vsnprintf(c->abort.text, sizeof(c->abort.text), fmt, ap);
	va_end(ap);
}

static uint64_t mono_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static uint64_t elapsed_ns(const struct timespec *t0)
{
	uint64_t t = (uint64_t)t0->tv_sec * 1000000000u +
		     (uint64_t)t0->tv_nsec, now = mono_ns();

	return now > t ? now - t : 0;
}

static enum stats_proto conn_sproto(const struct conn *c)
{
	return c->fsm.proto == CONN_PROTO_RPING ? STATS_PROTO_RPING :
						  STATS_PROTO_NATIVE;
}

/* Seconds since T0, for the logs. */
static double elapsed(const struct timespec *t0)
{
	return (double)elapsed_ns(t0) / 1e9;
}

/* ---- state and deadline ------------------------------------------------ */

static unsigned int deadline_ms(const struct rdmad_config *cfg,
				enum conn_deadline dl)
{
	switch (dl) {
	case CONN_DL_ACCEPT:	return cfg->accept_timeout_ms;
	case CONN_DL_SESSION:	return cfg->session_timeout_ms;
	case CONN_DL_IDLE:	return cfg->idle_timeout_ms;
	case CONN_DL_IO:	return cfg->io_timeout_ms;
	case CONN_DL_LINGER:	return cfg->linger_timeout_ms;
	case CONN_DL_CLOSE:	return cfg->close_timeout_ms;
	case CONN_DL_NONE:
	default:		return 0;
	}
}

/* Start TIMER for MS milliseconds; 0 stops it. */
static int timer_set_ms(struct event *timer, unsigned int ms)
{
	struct timeval tv = {
		.tv_sec = ms / 1000,
		.tv_usec = (ms % 1000) * 1000,
	};

	if (!ms)
		return evtimer_del(timer);
	return evtimer_add(timer, &tv);
}

/* Re-arm the timer only when the kind of deadline changes; -EIO if it
 * cannot be armed (the connection would wait without a bound). */
static int conn_arm_deadline(struct conn *c)
{
	enum conn_deadline dl = conn_fsm_deadline(&c->fsm);

	if (dl == c->deadline)
		return 0;
	c->deadline = dl;
	if (timer_set_ms(c->timer, deadline_ms(c->s->cfg, dl))) {
		c->deadline = CONN_DL_NONE;
		return -EIO;
	}
	return 0;
}

/* Run the liveness timer exactly while the state wants checks.  A
 * failure is logged: the deadline still bounds the wait. */
static void conn_arm_liveness(struct conn *c)
{
	unsigned int ms = c->s->cfg->liveness_ms;
	int want = ms && conn_fsm_liveness_wanted(&c->fsm);

	if (want == c->live_armed)
		return;
	c->live_armed = want;
	if (timer_set_ms(c->live_timer, want ? ms : 0)) {
		c->live_armed = 0;
		conn_log(c, LOG_WARNING, NULL, "cannot arm the liveness timer; "
			 "a vanished peer is found by the deadline only");
	}
}

/* What the transport will do for a silent peer (t-29 reads it). */
static void conn_log_qp(struct conn *c)
{
	char d[192];

	if (LOG_DEBUG > log_get_level())
		return;
	rdma_qp_describe(&c->qp, d, sizeof(d));
	conn_log(c, LOG_DEBUG, NULL, "%s", d);
}

/* The only place the state changes; -EIO if the new state's deadline
 * cannot be armed. */
static int conn_set_state(struct conn *c, const struct conn_fsm *next,
			  enum conn_event ev)
{
	char a[64], b[64];

	if (!memcmp(&c->fsm, next, sizeof(*next)))
		return 0;
	/* Every transition of every connection: format only when logged. */
	if (LOG_DEBUG <= log_get_level())
		conn_log(c, LOG_DEBUG, NULL, "%s -> %s (%s)",
			 conn_fsm_str(&c->fsm, a, sizeof(a)),
			 conn_fsm_str(next, b, sizeof(b)),
			 conn_event_name(ev));
	c->fsm = *next;
	conn_arm_liveness(c);
	return conn_arm_deadline(c);
}

/* ---- posting work requests ------------------------------------------- */

static uint8_t *recv_slot(struct conn *c, unsigned int i)
{
	return c->ctl.p + (size_t)i * PROTO_MSG_MAX;
}

static int post_recv(struct conn *c, unsigned int slot)
{
	return rdma_qp_post_recv(&c->qp, rdma_wr_id(RDMA_WR_RECV, slot),
				 recv_slot(c, slot), PROTO_MSG_MAX,
				 c->ctl.mr->lkey);
}

/* Post a SEND of LEN bytes already written into the slot P. */
static int post_send_kind(struct conn *c, enum rdma_wr_kind kind, uint8_t *p,
			  size_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)p,
		.length = (uint32_t)len,
		.lkey = c->ctl.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = rdma_wr_id(kind, 0),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	};

	return rdma_qp_post_send(&c->qp, &wr);
}

static int post_send_msg(struct conn *c, uint8_t *p, size_t len)
{
	return post_send_kind(c, RDMA_WR_SEND, p, len);
}

/* Liveness check: a zero-length RDMA WRITE (rdma_qp.h). */
static int post_liveness(struct conn *c)
{
	int ret = rdma_qp_post_liveness(&c->qp, rdma_wr_id(RDMA_WR_LIVE, 0));

	if (!ret)
		stats_liveness_check(c->s->stats);
	return ret;
}

static uint8_t *send_slot(struct conn *c)
{
	unsigned int i = CONN_RECV_DEPTH + c->send_next;

	c->send_next = (c->send_next + 1) % CONN_SEND_SLOTS;
	return c->ctl.p + (size_t)i * PROTO_MSG_MAX;
}

static int post_rdma(struct conn *c, enum ibv_wr_opcode op, uint64_t raddr,
		     uint32_t rkey, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)c->buf.p,
		.length = len,
		.lkey = c->buf.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = rdma_wr_id(op == IBV_WR_RDMA_READ ? RDMA_WR_READ :
				    RDMA_WR_WRITE, 0),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	};
	int ret = rdma_qp_post_send(&c->qp, &wr);

	if (ret)
		return ret;
	c->t_post[op == IBV_WR_RDMA_READ ? STATS_OP_READ : STATS_OP_WRITE] =
		mono_ns();
	return 0;
}

/* ---- actions ----------------------------------------------------------- */

/* Least access: only what the client said it will do. */
static int native_buf_alloc(struct conn *c)
{
	int ret, access = 0;

	if (c->hello.ops & PROTO_OP_READ)
		access |= IBV_ACCESS_REMOTE_READ;
	if (c->hello.ops & PROTO_OP_WRITE)
		access |= IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	ret = rdma_qp_buf(&c->qp, &c->buf, c->hello.size, access);
	if (ret)
		return ret;
	if (c->hello.ops & PROTO_OP_READ)
		pattern_fill(c->buf.p, c->buf.len, c->hello.seed,
			     PROTO_ITER_READ);
	return 0;
}

static int act_send_desc(struct conn *c)
{
	struct proto_desc desc;
	uint8_t *p;
	int n;

	/* With a key the buffer exists only once the client proved it. */
	if (!c->buf.mr) {
		n = native_buf_alloc(c);
		if (n)
			return n;
	}
	desc.addr = (uintptr_t)c->buf.p;
	desc.rkey = c->buf.mr->rkey;
	desc.len = (uint32_t)c->buf.len;
	desc.access = c->hello.ops;
	p = send_slot(c);
	n = proto_desc_encode(&desc, p, PROTO_MSG_MAX);
	if (n < 0)
		return n;
	return post_send_msg(c, p, (size_t)n);
}

static void act_verify(struct conn *c)
{
	const struct proto_hello *h = &c->hello;
	const struct proto_done *d = &c->done;
	struct proto_result *r = &c->result;
	ssize_t bad;

	r->status = PROTO_RES_OK;
	r->crc32c_seen = 0;
	r->first_bad_offset = PROTO_NO_BAD_OFFSET;
	c->bytes = ((uint64_t)d->reads_done + d->writes_done) * h->size;
	c->rounds = (uint64_t)d->reads_done + d->writes_done;

	if (d->reads_done > h->iters || d->writes_done > h->iters ||
	    (d->reads_done && !(h->ops & PROTO_OP_READ)) ||
	    (d->writes_done && !(h->ops & PROTO_OP_WRITE)) ||
	    (d->writes_done && d->last_write_iter >= h->iters) ||
	    (!d->writes_done && d->crc32c)) {
		r->status = PROTO_RES_BAD_DONE;
		conn_result(c, STATS_RES_BAD_DONE,
			    "DONE inconsistent with hello: "
			    "reads %u writes %u last_write_iter %u, asked "
			    "ops %#x iters %u", d->reads_done, d->writes_done,
			    d->last_write_iter, h->ops, h->iters);
		return;
	}
	stats_rdma(c->s->stats, STATS_PROTO_NATIVE, STATS_OP_READ,
		   d->reads_done, (uint64_t)d->reads_done * h->size, 0);
	stats_rdma(c->s->stats, STATS_PROTO_NATIVE, STATS_OP_WRITE,
		   d->writes_done, (uint64_t)d->writes_done * h->size, 0);
	if (!d->writes_done)
		return;
	r->crc32c_seen = crc32c(0, c->buf.p, h->size);
	bad = pattern_check(c->buf.p, h->size, h->seed, d->last_write_iter);
	if (bad >= 0 || r->crc32c_seen != d->crc32c) {
		r->status = PROTO_RES_MISMATCH;
		if (bad >= 0)
			r->first_bad_offset = (uint32_t)bad;
		conn_result(c, STATS_RES_MISMATCH,
			    "written data differ: first bad "
			    "offset %zd, crc32c seen %08x, client says %08x",
			    bad, r->crc32c_seen, d->crc32c);
	}
}

static int act_send_result(struct conn *c)
{
	uint8_t *p = send_slot(c);
	int n = proto_result_encode(&c->result, p, PROTO_MSG_MAX);

	if (n < 0)
		return n;
	return post_send_msg(c, p, (size_t)n);
}

/* Tell the client why we end its session; the disconnect waits for it. */
static int act_send_abort(struct conn *c)
{
	uint8_t *p = send_slot(c);
	char text[160];
	int n;

	if (!c->abort.reason)
		conn_abort_why(c, PROTO_ABORT_STALLED, 0, "%s", c->why);
	n = proto_abort_encode(&c->abort, p, PROTO_MSG_MAX);
	if (n < 0)
		return n;
	conn_log(c, LOG_DEBUG, NULL, "ABORT to the client: %s",
		 proto_abort_str(&c->abort, text, sizeof(text)));
	return post_send_kind(c, RDMA_WR_ABORT, p, (size_t)n);
}

static int act_post_read(struct conn *c)
{
	int ret;

	/* The server is the initiator of both READ and WRITE in rping
	 * mode: its buffer needs no remote access at all. */
	if (c->src.size > c->buf.len &&
	    rdma_buf_registered() - c->buf.len + c->src.size >
	    c->s->cfg->max_registered_bytes) {
		conn_log(c, LOG_WARNING, NULL, "rping source of %u bytes "
			 "would take registered memory past [limits] "
			 "max_registered_bytes (%llu bytes, %llu in use)",
			 c->src.size,
			 (unsigned long long)c->s->cfg->max_registered_bytes,
			 (unsigned long long)rdma_buf_registered());
		conn_result(c, STATS_RES_OVER_LIMIT, "max_registered_bytes "
			    "reached");
		return -ENOBUFS;
	}
	if (c->src.size > c->buf.len) {
		ret = rdma_qp_buf(&c->qp, &c->buf, c->src.size,
				  IBV_ACCESS_LOCAL_WRITE);
		if (ret)
			return ret;
	}
	c->read_len = c->src.size;
	return post_rdma(c, IBV_WR_RDMA_READ, c->src.buf, c->src.rkey,
			 c->read_len);
}

static int act_post_write(struct conn *c)
{
	c->write_len = c->read_len < c->sink.size ? c->read_len :
						    c->sink.size;
	return post_rdma(c, IBV_WR_RDMA_WRITE, c->sink.buf, c->sink.rkey,
			 c->write_len);
}

static int act_send_go(struct conn *c)
{
	uint8_t *p = send_slot(c);

	/* rping checks only the length of its "go ahead". */
	memset(p, 0, PROTO_RPING_INFO_LEN);
	return post_send_msg(c, p, PROTO_RPING_INFO_LEN);
}

static void act_disconnect(struct conn *c)
{
	int ret;

	/* Also answers a peer's DREQ.  rdma_disconnect fails harmlessly if
	 * never connected or already disconnected; the QP goes to error
	 * either way so that every posted work request completes (flushed);
	 * if it could not, the close deadline ends the wait. */
	ret = rdma_qp_disconnect(&c->qp);
	if (ret)
		conn_log(c, LOG_DEBUG, NULL, "disconnect: %s; the close "
			 "deadline bounds the wait for flushes",
			 strerror(-ret));
}

static int conn_drained(const struct conn *c)
{
	return c->qp.posted_send == 0 && c->qp.posted_recv == 0;
}

/* Carry out ACTS; returns -errno of the first failing post. */
static int conn_do(struct conn *c, unsigned int acts)
{
	int ret = 0;

	if (acts & CONN_ACT_SEND_DESC)
		ret = act_send_desc(c);
	if (!ret && (acts & CONN_ACT_VERIFY))
		act_verify(c);
	if (!ret && (acts & CONN_ACT_SEND_RESULT))
		ret = act_send_result(c);
	if (!ret && (acts & CONN_ACT_POST_READ))
		ret = act_post_read(c);
	if (!ret && (acts & CONN_ACT_SEND_GO))
		ret = act_send_go(c);
	if (!ret && (acts & CONN_ACT_POST_WRITE))
		ret = act_post_write(c);
	if (!ret && (acts & CONN_ACT_SEND_ABORT))
		ret = act_send_abort(c);
	if (!ret && (acts & CONN_ACT_POST_LIVENESS))
		ret = post_liveness(c);
	if (acts & CONN_ACT_DISCONNECT)
		act_disconnect(c);
	if (acts & CONN_ACT_DESTROY)
		event_active(c->free_ev, 0, 0);
	return ret;
}

/* Feed one event to the state machine and carry out what it says. */
static void conn_fire(struct conn *c, enum conn_event ev)
{
	struct conn_step st;
	char s[64];
	int ret, armed;

	for (;;) {
		if (conn_fsm_step(&c->fsm, ev, &st)) {
			if (c->fsm.life == CONN_LIFE_CLOSED)
				return;
			conn_log(c, LOG_WARNING, NULL, "protocol violation: "
				 "event %s not allowed in state %s; "
				 "disconnecting", conn_event_name(ev),
				 conn_fsm_str(&c->fsm, s, sizeof(s)));
			conn_result(c, STATS_RES_PROTOCOL_ERROR,
				    "event %s in state %s",
				    conn_event_name(ev), s);
			conn_abort_why(c, PROTO_ABORT_PROTOCOL, 0,
				       "unexpected %s", conn_event_name(ev));
			ev = CONN_EV_RECV_BAD;
			continue;
		}
		armed = conn_set_state(c, &st.next, ev);
		ret = conn_do(c, st.actions);
		if (ret) {
			conn_log(c, LOG_WARNING, NULL, "cannot post work "
				 "request: %s; disconnecting",
				 strerror(-ret));
			conn_result(c, STATS_RES_POST_FAILED,
				    "posting a work request "
				    "failed: %s", strerror(-ret));
			ev = CONN_EV_WC_ERROR;
			continue;
		}
		if (armed && c->fsm.life != CONN_LIFE_CLOSED) {
			/* No bound on what it waits for: end it (while
			 * draining, stop waiting for the flushes). */
			conn_log(c, LOG_WARNING, NULL, "cannot arm the %s "
				 "deadline; ending the connection",
				 conn_deadline_name(conn_fsm_deadline(&c->fsm)));
			conn_result(c, STATS_RES_INTERNAL_ERROR,
				    "deadline timer could not be armed");
			ev = c->fsm.life == CONN_LIFE_DRAINING ?
			     CONN_EV_TIMEOUT : CONN_EV_FATAL;
			continue;
		}
		if ((st.actions & CONN_ACT_DRAIN) && conn_drained(c)) {
			ev = CONN_EV_DRAINED;
			continue;
		}
		return;
	}
}

/* ---- completions ------------------------------------------------------- */

/* An AUTH message: right key, or the connection ends here. */
static enum conn_event conn_recv_auth(struct conn *c, const uint8_t *p,
				      uint32_t len)
{
	struct proto_auth a;
	const char *why = NULL;
	int ret;

	if (c->fsm.recv != CONN_RS_WAIT_AUTH)
		return CONN_EV_RECV_AUTH;	/* a second one: the FSM refuses */
	if (proto_auth_decode(p, len, &a, &why)) {
		conn_log(c, LOG_WARNING, NULL, "bad AUTH message: %s", why);
		conn_result(c, STATS_RES_BAD_MESSAGE, "%s", why);
		conn_abort_why(c, PROTO_ABORT_PROTOCOL, 0, "bad AUTH: %s", why);
		return CONN_EV_RECV_BAD;
	}
	ret = auth_verify(&c->s->cfg->psk, &c->welcome, &c->hello, a.mac);
	if (ret) {
		conn_log(c, LOG_WARNING, NULL, "authentication failed: %s; "
			 "disconnecting (nothing revealed)",
			 ret == -EACCES ? "wrong key" : strerror(-ret));
		conn_result(c, STATS_RES_AUTH_FAILED, "%s", ret == -EACCES ?
			    "wrong pre-shared key" : strerror(-ret));
		conn_abort_why(c, PROTO_ABORT_AUTH, 0, "%s", ret == -EACCES ?
			       "wrong pre-shared key" : "server error");
		return CONN_EV_RECV_BAD;
	}
	conn_log(c, LOG_INFO, NULL, "client authenticated (pre-shared key)");
	return CONN_EV_RECV_AUTH;
}

/* Turn a received message into an event; the slot is reposted after. */
static enum conn_event conn_recv_event(struct conn *c, const uint8_t *p,
				       uint32_t len)
{
	const struct rdmad_config *cfg = c->s->cfg;
	struct proto_rping_info info;
	const char *why = NULL;
	int type;

	if (c->fsm.proto == CONN_PROTO_NATIVE) {
		type = proto_msg_type(p, len, &why);
		if (type == PROTO_MSG_DONE &&
		    !proto_done_decode(p, len, &c->done, &why))
			return CONN_EV_RECV_DONE;
		if (type == PROTO_MSG_AUTH && c->fsm.auth)
			return conn_recv_auth(c, p, len);
		if (type > 0)
			why = "unexpected message type from client";
		conn_log(c, LOG_WARNING, NULL, "bad message (%u bytes): %s",
			 len, why);
		conn_result(c, STATS_RES_BAD_MESSAGE, "%s", why);
		conn_abort_why(c, PROTO_ABORT_PROTOCOL, 0, "%s", why);
		return CONN_EV_RECV_BAD;
	}

	if (proto_rping_decode(p, len, &info, &why)) {
		conn_log(c, LOG_WARNING, NULL, "bad rping advert (%u bytes): "
			 "%s", len, why);
		conn_result(c, STATS_RES_BAD_MESSAGE, "%s", why);
		return CONN_EV_RECV_BAD;
	}
	if (c->fsm.recv == CONN_RS_WAIT_SRC) {
		if (info.size > cfg->max_buffer_size) {
			conn_log(c, LOG_WARNING, NULL, "rping size %u exceeds "
				 "server limit %u (max_buffer_size); "
				 "disconnecting", info.size,
				 cfg->max_buffer_size);
			conn_result(c, STATS_RES_OVER_LIMIT,
				    "size %u exceeds server "
				    "limit %u", info.size,
				    cfg->max_buffer_size);
			return CONN_EV_RECV_BAD;
		}
		c->src = info;
	} else {
		c->sink = info;
	}
	return CONN_EV_RECV_ADVERT;
}

/*
 * The transport gave up on one of our work requests: the peer stopped
 * acknowledging (crash, partition, cable).  Nothing more reaches it, so
 * no ABORT: reap the connection now.
 */
static void conn_peer_lost(struct conn *c, enum rdma_wr_kind kind)
{
	double quiet = (double)(mono_ns() - c->t_heard) / 1e9;

	conn_log(c, LOG_WARNING, NULL, "peer %s stopped acknowledging: "
		 "transport retry exceeded on the %s; connection reaped "
		 "after %.1f s without a sign of life (connected %.1f s)",
		 c->peer, rdma_wr_str(kind), quiet, elapsed(&c->t_open));
	conn_result(c, STATS_RES_PEER_UNREACHABLE, "transport retry exceeded "
		    "on the %s, %.1f s after the peer's last sign of life",
		    rdma_wr_str(kind), quiet);
	conn_fire(c, CONN_EV_PEER_LOST);
}

static void conn_wc(struct conn *c, const struct ibv_wc *wc)
{
	enum rdma_wr_kind kind = rdma_wr_kind(wc->wr_id);
	enum conn_event ev;

	if (wc->status != IBV_WC_SUCCESS) {
		if (wc->status == IBV_WC_WR_FLUSH_ERR)
			return;		/* QP in error: we are closing */
		stats_wc_error(c->s->stats, wc->status);
		if (wc->status == IBV_WC_RETRY_EXC_ERR) {
			conn_peer_lost(c, kind);
			return;
		}
		conn_log(c, LOG_WARNING, NULL, "%s completion failed: %s "
			 "(vendor error %#x)", rdma_wr_str(kind),
			 ibv_wc_status_str(wc->status), wc->vendor_err);
		conn_result(c, STATS_RES_COMPLETION_ERROR, "%s",
			    ibv_wc_status_str(wc->status));
		conn_fire(c, CONN_EV_WC_ERROR);
		return;
	}
	/* Every success needed the peer: a sign of life. */
	c->t_heard = mono_ns();

	switch (kind) {
	case RDMA_WR_RECV:
		ev = conn_recv_event(c, recv_slot(c, rdma_wr_idx(wc->wr_id)),
				     wc->byte_len);
		if (c->fsm.life == CONN_LIFE_ACCEPTING ||
		    c->fsm.life == CONN_LIFE_ESTABLISHED) {
			int ret = post_recv(c, rdma_wr_idx(wc->wr_id));

			if (ret) {
				conn_result(c, STATS_RES_POST_FAILED, "repost "
					    "receive: %s", strerror(-ret));
				ev = CONN_EV_WC_ERROR;
			}
		}
		conn_fire(c, ev);
		break;
	case RDMA_WR_SEND:
		conn_fire(c, CONN_EV_SEND_COMPLETE);
		break;
	case RDMA_WR_READ:
		c->bytes += c->read_len;
		stats_rdma(c->s->stats, STATS_PROTO_RPING, STATS_OP_READ, 1,
			   c->read_len, mono_ns() - c->t_post[STATS_OP_READ]);
		conn_fire(c, CONN_EV_READ_COMPLETE);
		break;
	case RDMA_WR_WRITE:
		c->bytes += c->write_len;
		c->rounds++;
		stats_rdma(c->s->stats, STATS_PROTO_RPING, STATS_OP_WRITE, 1,
			   c->write_len, mono_ns() - c->t_post[STATS_OP_WRITE]);
		conn_fire(c, CONN_EV_WRITE_COMPLETE);
		break;
	case RDMA_WR_LIVE:
		conn_fire(c, CONN_EV_LIVE_OK);
		break;
	case RDMA_WR_ABORT:
		conn_fire(c, CONN_EV_ABORT_SENT);
		break;
	default:
		conn_log(c, LOG_ERR, NULL, "completion with unknown wr_id "
			 "%#" PRIx64, wc->wr_id);
		conn_result(c, STATS_RES_INTERNAL_ERROR, "unknown wr_id");
		conn_fire(c, CONN_EV_WC_ERROR);
		break;
	}
}

/* The layer's completion callback: one completion, counts updated. */
static void conn_wc_cb(void *arg, const struct ibv_wc *wc)
{
	struct conn *c = arg;

	if (c->fsm.life == CONN_LIFE_CLOSED)
		return;		/* its teardown is queued */
	conn_wc(c, wc);
	/* Flushed work requests are not events; their end is. */
	if (c->fsm.life == CONN_LIFE_DRAINING && conn_drained(c))
		conn_fire(c, CONN_EV_DRAINED);
}

static void conn_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	enum conn_deadline dl = c->deadline;
	char s[64];

	c->deadline = CONN_DL_NONE;	/* so the next state re-arms */
	conn_fsm_str(&c->fsm, s, sizeof(s));
	if (dl == CONN_DL_LINGER) {
		conn_log(c, LOG_INFO, NULL, "client did not disconnect within "
			 "%ums of its RESULT; disconnecting it",
			 c->s->cfg->linger_timeout_ms);
		/* The session itself is over; keep its outcome. */
		conn_result(c, STATS_RES_OK, "client lingered after RESULT");
	} else if (dl == CONN_DL_CLOSE) {
		conn_log(c, LOG_INFO, NULL, "closing took longer than %ums in "
			 "state %s; forcing it", c->s->cfg->close_timeout_ms, s);
	} else {
		unsigned int ms = deadline_ms(c->s->cfg, dl);

		conn_log(c, LOG_WARNING, NULL, "no progress for %ums in "
			 "state %s (%s deadline); disconnecting", ms, s,
			 conn_deadline_name(dl));
		conn_result(c, STATS_RES_TIMEOUT, "stalled in %s", s);
		if (dl == CONN_DL_SESSION)
			conn_abort_why(c, PROTO_ABORT_SESSION, ms, "%s", "");
		else if (dl == CONN_DL_IDLE)
			conn_abort_why(c, PROTO_ABORT_IDLE, ms, "%s", "");
		else
			conn_abort_why(c, PROTO_ABORT_STALLED, ms, "in %s", s);
	}
	conn_fire(c, CONN_EV_TIMEOUT);
}

/* ---- CM events ----------------------------------------------------------- */

static void conn_cm_event(struct rdma_cm_handler *h,
			  const struct rdma_cm_ev *e)
{
	struct conn *c = container_of(h, struct conn, cmh);
	char s[64];

	switch (e->type) {
	case RDMA_CM_EVENT_ESTABLISHED:
		/* Once per connection (a client's first message may
		 * complete before this event: the state says nothing). */
		stats_established(c->s->stats, conn_sproto(c),
				  elapsed_ns(&c->t_open));
		c->t_heard = mono_ns();
		conn_log_qp(c);
		conn_fire(c, CONN_EV_ESTABLISHED);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		if (c->res == STATS_RES_N &&
		    c->fsm.life != CONN_LIFE_CLOSING) {
			int clean;

			conn_fsm_str(&c->fsm, s, sizeof(s));
			/* The client may leave as soon as RESULT arrives,
			 * before we poll our send completion of it. */
			clean = c->fsm.proto == CONN_PROTO_NATIVE ?
				c->fsm.send == CONN_SS_RESULT_POSTED ||
				c->fsm.send == CONN_SS_RESULT_SENT :
				c->fsm.life == CONN_LIFE_ESTABLISHED &&
				c->fsm.send == CONN_SS_IDLE;
			if (clean)
				conn_result(c, STATS_RES_OK,
					    "client disconnected");
			else
				conn_result(c, STATS_RES_ABORTED,
					    "client left in "
					    "state %s", s);
		}
		conn_fire(c, CONN_EV_DISCONNECTED);
		break;
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		conn_log(c, LOG_WARNING, NULL, "RDMA device removed");
		rdma_dev_forget(c->s->devs, c->cm_id->verbs);
		conn_result(c, STATS_RES_DEVICE_REMOVED, "device removed");
		conn_fire(c, CONN_EV_FATAL);
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		conn_log(c, LOG_WARNING, NULL, "%s (status %d)",
			 rdma_event_str(e->type), e->status);
		conn_result(c, STATS_RES_CONNECT_ERROR, "%s",
			    rdma_event_str(e->type));
		conn_fire(c, CONN_EV_FATAL);
		break;
	default:
		conn_log(c, LOG_DEBUG, NULL, "CM event %s ignored",
			 rdma_event_str(e->type));
		break;
	}
}

static void conn_qp_fatal(struct conn *c, const char *what)
{
	conn_log(c, LOG_WARNING, NULL, "async error: %s", what);
	conn_result(c, STATS_RES_DEVICE_ERROR, "%s", what);
	conn_fire(c, CONN_EV_FATAL);
}

void conn_device_fatal(struct conn_set *s, struct ibv_context *ctx,
		       uint8_t port, const char *what)
{
	struct conn *c, *tmp;

	TAILQ_FOREACH_SAFE(c, &s->list, link, tmp)
		if (c->cm_id->verbs == ctx &&
		    (!port || c->cm_id->port_num == port))
			conn_qp_fatal(c, what);
}

void conn_shutdown_all(struct conn_set *s)
{
	struct conn *c, *tmp;

	TAILQ_FOREACH_SAFE(c, &s->list, link, tmp) {
		conn_result(c, STATS_RES_SHUTDOWN, "rdmad stopping");
		conn_abort_why(c, PROTO_ABORT_SHUTDOWN, s->cfg->drain_timeout_ms,
			       "%s", "");
		conn_fire(c, CONN_EV_SHUTDOWN);
	}
}

/* ---- setup and teardown -------------------------------------------- */

/* Free everything, in the layer's order; the cm_id goes last. */
static void conn_release(struct conn *c)
{
	if (c->timer)
		event_free(c->timer);
	if (c->free_ev)
		event_free(c->free_ev);
	if (c->life_timer)
		event_free(c->life_timer);
	if (c->live_timer)
		event_free(c->live_timer);
	rdma_qp_destroy(&c->qp);
	if (c->cm_id)
		rdma_destroy_id(c->cm_id);
	if (c->linked)
		TAILQ_REMOVE(&c->s->list, c, link);
	free(c);
}

static void conn_free_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	struct conn_set *s = c->s;
	struct log_ctx ctx = {
		.conn = c->id,
		.peer = c->peer,
		.proto = conn_proto_name(c->fsm.proto),
		.state = "closed",
		.msgid = LOG_MSGID_CONN_CLOSE,
	};
	int ok;

	if (c->res == STATS_RES_N)
		conn_result(c, STATS_RES_ABORTED, "closed without a result");
	ok = c->res == STATS_RES_OK;
	ctx.bytes = (int64_t)c->bytes;
	ctx.result = stats_result_name(c->res);
	if (!conn_drained(c))
		conn_log(c, LOG_DEBUG, NULL, "%u send and %u receive work "
			 "requests not flushed; destroying anyway",
			 c->qp.posted_send, c->qp.posted_recv);
	log_conn(ok ? LOG_INFO : LOG_NOTICE, &ctx,
		 "close: %s, result %s (%s), %" PRIu64 " bytes, %" PRIu64
		 " %s, %.3fs", conn_proto_name(c->fsm.proto), ctx.result,
		 c->why,
		 c->bytes, c->rounds,
		 c->fsm.proto == CONN_PROTO_RPING ? "pings" : "operations",
		 elapsed(&c->t_open));
	if (c->counted) {
		c->counted = 0;
		stats_closed(s->stats, conn_sproto(c), c->res,
			     elapsed_ns(&c->t_open));
	}
	conn_release(c);
	if (s->gone)
		s->gone(s->arg);
}

/* [timeouts] liveness: the connection has been quiet that long. */
static void conn_live_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;

	c->live_armed = 0;
	conn_fire(c, CONN_EV_LIVE_DUE);
	if (c->fsm.life != CONN_LIFE_CLOSED)
		conn_arm_liveness(c);
}

/* [limits] max_duration: the whole life of a connection. */
static void conn_life_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	char s[64];

	if (c->fsm.life != CONN_LIFE_ACCEPTING &&
	    c->fsm.life != CONN_LIFE_ESTABLISHED)
		return;		/* already on its way out */
	conn_fsm_str(&c->fsm, s, sizeof(s));
	conn_log(c, LOG_WARNING, NULL, "connection older than max_duration "
		 "(%ums) in state %s; disconnecting",
		 c->s->cfg->max_duration_ms, s);
	conn_result(c, STATS_RES_TIMEOUT, "max_duration %ums reached in %s",
		    c->s->cfg->max_duration_ms, s);
	conn_abort_why(c, PROTO_ABORT_DURATION, c->s->cfg->max_duration_ms,
		       "%s", "");
	conn_fire(c, CONN_EV_TIMEOUT);
}

static void conn_wc_cb(void *arg, const struct ibv_wc *wc);

static void conn_fatal_cb(void *arg, const char *what)
{
	conn_qp_fatal(arg, what);
}

static const struct rdma_qp_ops conn_qp_ops = {
	.wc = conn_wc_cb,
	.fatal = conn_fatal_cb,
};

static int conn_setup(struct conn *c)
{
	static const struct rdma_qp_attr qa = {
		.send_depth = CONN_SEND_DEPTH,
		.recv_depth = CONN_RECV_DEPTH,
	};
	struct rdma_cm_id *id = c->cm_id;
	const char *step;
	unsigned int i;
	int ret;

	c->dev = rdma_dev_get(c->s->devs, id->verbs);
	if (!c->dev)
		return -ENODEV;
	ret = rdma_qp_create(&c->qp, c->s->base, id, &qa, &conn_qp_ops, c,
			     &step);
	if (ret) {
		conn_log(c, LOG_DEBUG, NULL, "%s: %s", step, strerror(-ret));
		return ret;
	}
	ret = rdma_qp_buf(&c->qp, &c->ctl, CONN_CTL_LEN,
			  IBV_ACCESS_LOCAL_WRITE);
	if (ret)
		return ret;

	/* Native without a key: the buffer now, so that a client that
	 * cannot have it is rejected rather than accepted and dropped. */
	if (c->fsm.proto == CONN_PROTO_NATIVE && !c->fsm.auth) {
		ret = native_buf_alloc(c);
		if (ret)
			return ret;
	}

	for (i = 0; i < CONN_RECV_DEPTH; i++) {
		ret = post_recv(c, i);
		if (ret)
			return ret;
	}

	c->timer = evtimer_new(c->s->base, conn_timer_cb, c);
	c->free_ev = event_new(c->s->base, -1, 0, conn_free_cb, c);
	c->life_timer = evtimer_new(c->s->base, conn_life_cb, c);
	c->live_timer = evtimer_new(c->s->base, conn_live_cb, c);
	if (!c->timer || !c->free_ev || !c->life_timer || !c->live_timer)
		return -ENOMEM;
	if (c->s->cfg->max_duration_ms &&
	    timer_set_ms(c->life_timer, c->s->cfg->max_duration_ms))
		return -EIO;
	return 0;
}

static int conn_accept(struct conn *c, const struct rdma_cm_ev *e)
{
	uint8_t pdata[PROTO_WELCOME_AUTH_LEN];
	struct proto_welcome *w = &c->welcome;
	int n = 0;

	memset(w, 0, sizeof(*w));
	w->version = PROTO_VERSION;
	w->max_size = c->s->cfg->max_buffer_size;
	w->max_iters = c->s->cfg->max_iterations;
	w->conn_id = c->id;
	if (c->fsm.auth) {
		w->flags = PROTO_WELCOME_F_AUTH;
		if (auth_nonce(w->nonce))
			return -EIO;
	}
	if (c->fsm.proto == CONN_PROTO_NATIVE) {
		n = proto_welcome_encode(w, pdata, sizeof(pdata));
		if (n < 0)
			return n;
	}
	/* Incoming READs (native client) and outgoing ones (rping) within
	 * what the peer and the device allow; our QP, our retry budget. */
	return rdma_qp_accept(&c->qp, e, &c->dev->attr, n ? pdata : NULL,
			      (uint8_t)n);
}

/* The reason code the client reads in the reject private data. */
static uint8_t wire_reason(enum stats_reject why)
{
	switch (why) {
	case STATS_REJ_DENIED:		return PROTO_REJ_DENIED;
	case STATS_REJ_SHUTDOWN:	return PROTO_REJ_SHUTDOWN;
	case STATS_REJ_BAD_HELLO:	return PROTO_REJ_BAD_HELLO;
	case STATS_REJ_VERSION:		return PROTO_REJ_VERSION;
	case STATS_REJ_BUSY:
	case STATS_REJ_BUSY_HOST:	return PROTO_REJ_BUSY;
	case STATS_REJ_LIMIT:		return PROTO_REJ_LIMIT;
	case STATS_REJ_RESOURCES:
	case STATS_REJ_ACCEPT_FAILED:
	case STATS_REJ_N:
	default:			return PROTO_REJ_RESOURCES;
	}
}

static void reject(struct conn_set *s, struct rdma_cm_id *id, const char *peer,
		   enum stats_reject why, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void reject(struct conn_set *s, struct rdma_cm_id *id, const char *peer,
		   enum stats_reject why, const char *fmt, ...)
{
	uint8_t reason = wire_reason(why);
	uint8_t pdata[PROTO_REJECT_PDATA_MAX];
	char text[PROTO_REJECT_TEXT_MAX + 1];
	struct log_ctx ctx = {
		.peer = peer, .bytes = -1, .result = "rejected",
		.msgid = LOG_MSGID_CONN_REJECT,
	};
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	n = proto_reject_encode(reason, text, pdata, sizeof(pdata));
	if (rdma_reject(id, pdata, (uint8_t)(n > 0 ? n : 0)))
		log_debug("rdma_reject: %s", strerror(errno));
	rdma_destroy_id(id);
	stats_rejected(s->stats, why);
	log_conn(LOG_NOTICE, &ctx, "rejected (%s): %s",
		 proto_reject_reason_str(reason), text);
}

#define REJECT(...)	do { reject(__VA_ARGS__); return; } while (0)

/* Live connections from the host of SA. */
static unsigned int conn_count_host(struct conn_set *s, const struct sockaddr *sa)
{
	unsigned int n = 0;
	struct conn *c;

	TAILQ_FOREACH(c, &s->list, link)
		if (c->counted &&
		    acl_same_host((struct sockaddr *)&c->peer_addr, sa))
			n++;
	return n;
}

void conn_connect_request(struct conn_set *s, const struct rdma_cm_ev *e)
{
	const struct rdmad_config *cfg = s->cfg;
	struct proto_hello hello;
	enum proto_kind kind;
	const char *why = NULL;
	char peer[INET6_ADDRSTRLEN + 8];
	uint8_t pdata[PROTO_REJECT_PDATA_MAX];
	struct sockaddr *sa;
	struct conn *c;
	uint64_t need;
	int ret, n, accepting = 0;

	sa = rdma_get_peer_addr(e->id);
	addr_str(sa, peer, sizeof(peer));
	kind = proto_classify(e->pdata, e->pdata_len);

	if (s->stopping)
		REJECT(s, e->id, peer, STATS_REJ_SHUTDOWN,
			      "shutting down: rdmad is stopping");
	/* Access lists first: nothing is allocated for a refused peer. */
	if (acl_check(&cfg->allow, &cfg->deny, sa, &why))
		REJECT(s, e->id, peer, STATS_REJ_DENIED, "denied: %s", why);
	if (kind == PROTO_KIND_UNKNOWN)
		REJECT(s, e->id, peer, STATS_REJ_BAD_HELLO,
			      "unknown protocol: neither rdmad hello nor "
			      "rping");
	if (kind == PROTO_KIND_NATIVE) {
		ret = proto_hello_decode(e->pdata, e->pdata_len, &hello, &why);
		if (ret == -EPROTO)
			REJECT(s, e->id, peer, STATS_REJ_VERSION,
				      "unsupported protocol version %u, "
				      "server speaks %u", e->pdata[4],
				      PROTO_VERSION);
		if (ret)
			REJECT(s, e->id, peer, STATS_REJ_BAD_HELLO,
				      "bad hello: %s", why);
	}
	if (kind == PROTO_KIND_RPING && cfg->psk.len)
		REJECT(s, e->id, peer, STATS_REJ_DENIED, "denied: this server "
		       "requires a pre-shared key; the rping protocol cannot "
		       "authenticate");
	if (conn_set_count(s) >= cfg->max_connections)
		REJECT(s, e->id, peer, STATS_REJ_BUSY,
			      "busy: %u/%u connections, retry later",
			      conn_set_count(s), cfg->max_connections);
	if (cfg->max_per_host) {
		unsigned int same = conn_count_host(s, sa);

		if (same >= cfg->max_per_host)
			REJECT(s, e->id, peer, STATS_REJ_BUSY_HOST,
			       "busy: %u/%u connections from this host, "
			       "retry later", same, cfg->max_per_host);
	}
	if (kind == PROTO_KIND_NATIVE) {
		if (hello.size > cfg->max_buffer_size)
			REJECT(s, e->id, peer, STATS_REJ_LIMIT,
				      "size %u exceeds server limit %u",
				      hello.size, cfg->max_buffer_size);
		if (hello.iters > cfg->max_iterations)
			REJECT(s, e->id, peer, STATS_REJ_LIMIT,
				      "iterations %u exceed server limit %u",
				      hello.iters, cfg->max_iterations);
	}
	/* Pinned memory: this connection's buffer and control slots on
	 * top of what every live connection holds. */
	need = CONN_CTL_LEN + (kind == PROTO_KIND_NATIVE ? hello.size : 0);
	if (rdma_buf_registered() + need > cfg->max_registered_bytes)
		REJECT(s, e->id, peer, STATS_REJ_BUSY,
		       "busy: registered memory %llu + %llu bytes would "
		       "exceed max_registered_bytes %llu, retry later", (unsigned long long)rdma_buf_registered(),
		       (unsigned long long)need,
		       (unsigned long long)cfg->max_registered_bytes);

	c = calloc(1, sizeof(*c));
	if (!c)
		REJECT(s, e->id, peer, STATS_REJ_RESOURCES,
		       "server out of memory");
	c->s = s;
	c->res = STATS_RES_N;
	c->id = ++s->next_id;
	c->cm_id = e->id;
	c->cmh.event = conn_cm_event;
	rdma_cm_id_handler(e->id, &c->cmh);
	memcpy(c->peer, peer, sizeof(c->peer));
	if (sa && (sa->sa_family == AF_INET || sa->sa_family == AF_INET6))
		memcpy(&c->peer_addr, sa, sa->sa_family == AF_INET ?
		       sizeof(struct sockaddr_in) :
		       sizeof(struct sockaddr_in6));
	clock_gettime(CLOCK_MONOTONIC, &c->t_open);
	c->t_heard = mono_ns();
	if (kind == PROTO_KIND_NATIVE && cfg->psk.len)
		conn_fsm_init_auth(&c->fsm);
	else
		conn_fsm_init(&c->fsm, kind == PROTO_KIND_NATIVE ?
				       CONN_PROTO_NATIVE : CONN_PROTO_RPING);
	if (kind == PROTO_KIND_NATIVE)
		c->hello = hello;

	ret = conn_setup(c);
	if (!ret) {
		struct conn_step st;

		conn_fsm_step(&c->fsm, CONN_EV_CONNECT_REQUEST, &st);
		ret = conn_set_state(c, &st.next, CONN_EV_CONNECT_REQUEST);
		if (!ret) {
			ret = conn_accept(c, e);
			accepting = 1;
		}
	}
	if (ret) {
		/* Nothing was announced: reject and free directly. */
		if (accepting)
			conn_log(c, LOG_WARNING, NULL, "cannot accept: %s; "
				 "released it (a client that went away "
				 "while connecting looks like this)",
				 strerror(-ret));
		else
			conn_log(c, LOG_WARNING, NULL, "cannot set up "
				 "connection: %s; rejected it (unless the "
				 "client went away while connecting, check "
				 "memlock limits and device resources)",
				 strerror(-ret));
		n = proto_reject_encode(PROTO_REJ_RESOURCES,
					"server could not allocate resources, "
					"retry later", pdata, sizeof(pdata));

		rdma_reject(c->cm_id, pdata, (uint8_t)(n > 0 ? n : 0));
		stats_rejected(s->stats, accepting ? STATS_REJ_ACCEPT_FAILED :
			       STATS_REJ_RESOURCES);
		conn_release(c);
		return;
	}

	TAILQ_INSERT_TAIL(&s->list, c, link);
	c->linked = 1;
	c->counted = 1;
	stats_accepted(s->stats, conn_sproto(c));
	if (c->fsm.proto == CONN_PROTO_NATIVE)
		conn_log(c, LOG_INFO, LOG_MSGID_CONN_OPEN, "open: native, ops "
			 "%s%s%s, size %u, %u iterations, connection %u/%u%s",
			 hello.ops & PROTO_OP_READ ? "read" : "",
			 hello.ops == PROTO_OP_MASK ? "+" : "",
			 hello.ops & PROTO_OP_WRITE ? "write" : "",
			 hello.size, hello.iters, conn_set_count(s),
			 cfg->max_connections,
			 c->fsm.auth ? ", key required" : "");
	else
		conn_log(c, LOG_INFO, LOG_MSGID_CONN_OPEN, "open: rping, "
			 "connection %u/%u", conn_set_count(s),
			 cfg->max_connections);
}

/* ---- the set ----------------------------------------------------------- */

void conn_set_init(struct conn_set *s, struct event_base *base,
		   const struct rdmad_config *cfg, struct stats *stats,
		   struct rdma_devs *devs, void (*gone)(void *arg),
		   void *arg)
{
	memset(s, 0, sizeof(*s));
	s->base = base;
	s->cfg = cfg;
	s->stats = stats;
	s->devs = devs;
	s->gone = gone;
	s->arg = arg;
	TAILQ_INIT(&s->list);
}

unsigned int conn_set_count(const struct conn_set *s)
{
	return (unsigned int)stats_active_total(s->stats);
}

bool conn_set_empty(const struct conn_set *s)
{
	return TAILQ_EMPTY(&s->list);
}

unsigned int conn_snapshot(const struct conn_set *s, struct stats_conn *out,
			   unsigned int max)
{
	unsigned int n = 0;
	struct conn *c;

	TAILQ_FOREACH(c, &s->list, link) {
		struct stats_conn *o;

		if (n >= max)
			break;
		o = &out[n];
		memset(o, 0, sizeof(*o));
		o->id = c->id;
		snprintf(o->peer, sizeof(o->peer), "%s", c->peer);
		o->proto = conn_sproto(c);
		conn_fsm_str(&c->fsm, o->state, sizeof(o->state));
		o->bytes = c->bytes;
		o->ops = c->rounds;
		o->age_ms = elapsed_ns(&c->t_open) / 1000000u;
		n++;
	}
	return n;
}
