/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_conn.c - one rdma-probe connection: its rdma_cm id, verbs
 * resources and libevent wiring.
 *
 * The rdma_cm event channel (shared by all connections of a run, whatever
 * their destinations: see probe_ctx_*() at the end) and each connection's
 * completion channel are non-blocking fds in one event_base.
 * CM events, work completions, verification results and timer expiries
 * become RDMA_CLIENT_EV_* for the state machine (rdma_client_fsm.c); conn_act() carries
 * out the actions it returns.  Resources live until probe_conn_free(),
 * which releases whatever exists, in reverse order of setup, so every
 * error path ends in the same teardown.
 */
#include "probe.h"

#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "crc32c.h"
#include "fd.h"
#include "pattern.h"
#include "proto.h"

#define PROBE_RECV_SLOTS	2
#define PROBE_SLOT_LEN		PROTO_MSG_MAX
#define PROBE_SQ_EXTRA		2	/* sends besides the RDMA ops */
#define PROBE_RD_ATOM_MAX	128	/* READs in flight, device permitting */
#define PROBE_CQ_BATCH		32
#define PROBE_CQ_ACK_BATCH	64	/* CQ events acked together */
#define PROBE_RESOLVE_GRACE_MS	1000	/* backstop past rdma_cm's timeout */
/*
 * The transport's budget for a silent peer: local ACK timeout 4.096 us *
 * 2^17 = 0.537 s, 6 retries: a dead path is a retry exceeded after about
 * 3.8 s, well within -t.  rdma_cm's defaults on soft-RoCE (19: 2.1 s, and
 * 7 retries, which soft-RoCE takes as "forever") would leave it to -t.
 * The retry count goes to the server's QP too (the CM REQ carries it).
 */
#define PROBE_ACK_TIMEOUT	17
#define PROBE_RETRY_CNT		6

/* IB CM reject reasons seen in RDMA_CM_EVENT_REJECTED's status. */
#define CM_REJ_INVALID_SERVICE_ID	8	/* no listener on the port */
#define CM_REJ_CONSUMER_DEFINED		28	/* rdma_reject() by the peer */

/* What a transport retry exceeded means, in the probe's words (ASCII:
 * --json escapes other bytes one by one). */
#define PROBE_RETRY_EXC_TEXT	"transport retry exceeded: the peer stopped " \
	"acknowledging; packet loss, a partition, or an MTU mismatch on the " \
	"path"

/* No follow-up event. */
#define RDMA_CLIENT_EV_NONE		RDMA_CLIENT_EV__COUNT

enum wr_kind {
	WR_RECV = 1,
	WR_SEND,
	WR_READ,
	WR_WRITE,
};
#define WRID(kind, idx)		(((uint64_t)(kind) << 32) | (uint32_t)(idx))
#define WRID_KIND(id)		((enum wr_kind)((id) >> 32))
#define WRID_IDX(id)		((uint32_t)(id))

struct probe_conn {
	struct probe_ctx *ctx;
	const struct probe_opts *opts;
	const struct probe_dest *dest;
	unsigned int idx;
	char name[PROBE_ADDR_LEN + 16];	/* "[label ]conn N" in messages */
	struct rdma_client_fsm fsm;
	uint64_t seed;		/* opts->seed + idx: own pattern */

	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *comp_ch;
	struct ibv_cq *cq;
	unsigned int cq_unacked;
	bool qp;
	struct event *cq_ev;
	struct event *timer;
	/* In OPS the step deadline is armed once and runs from the last
	 * completion (progress) rather than being re-armed per operation:
	 * timer_cb moves it on when there was progress since. */
	bool ops_deadline;
	uint64_t progress;		/* CLOCK_MONOTONIC ns */
	struct event *dur_timer;	/* -D: ends each op kind */
	struct event *repoll;		/* CQ not drained: come back soon */

	/* PROBE_RECV_SLOTS receive slots, then one send slot. */
	uint8_t *msg;
	struct ibv_mr *msg_mr;
	/* Native: depth slots of size bytes; operation i uses slot
	 * i % depth, free again once i has completed (and been checked). */
	uint8_t *data;
	struct ibv_mr *data_mr;
	uint64_t *slot_posted;		/* [depth] post time */
	struct ibv_send_wr *wrs;	/* [depth] for chained posts */
	struct ibv_sge *sges;		/* [depth] */
	uint8_t *ref;			/* READ reference: pattern(READ) */
	/* rping: the sink the server writes. */
	uint8_t *rd_buf;
	struct ibv_mr *rd_mr;
	/* rping: the source the server reads. */
	uint8_t *wr_buf;
	struct ibv_mr *wr_mr;

	struct proto_welcome welcome;
	bool have_welcome;
	struct proto_hello hello;	/* as sent, for the AUTH MAC */
	struct proto_desc desc;
	uint32_t write_crc;

	struct probe_times t;
	uint64_t ping_posted;
	struct probe_opstat reads;
	struct probe_opstat writes;
	struct probe_opstat pings;
	char error[320];
	const char *reason;		/* short, static: "busy" */
	enum rdma_client_state fail_state;	/* state the first failure left */
	bool fail_seen;
	bool started;
	bool finished;
};

static void conn_feed(struct probe_conn *c, enum rdma_client_event ev);

/* Keep the first failure's short reason (a static string). */
static void conn_reason(struct probe_conn *c, const char *reason)
{
	if (!c->reason && !rdma_client_fsm_terminal(&c->fsm))
		c->reason = reason;
}

/* Keep the first failure's message. */
__attribute__((format(printf, 2, 3)))
static void conn_error(struct probe_conn *c, const char *fmt, ...)
{
	va_list ap;

	if (c->error[0] || rdma_client_fsm_terminal(&c->fsm))
		return;
	va_start(ap, fmt);
	vsnprintf(c->error, sizeof(c->error), fmt, ap);
	va_end(ap);
	probe_dbg(1, "%s: error: %s", c->name, c->error);
}

static const char *wr_kind_str(enum wr_kind k)
{
	switch (k) {
	case WR_RECV:	return "receive";
	case WR_SEND:	return "send";
	case WR_READ:	return "RDMA READ";
	case WR_WRITE:	return "RDMA WRITE";
	}
	return "unknown";
}

/* ---- state machine glue ---------------------------------------------- */

static void conn_transition(void *arg, enum rdma_client_state from,
			    enum rdma_client_state to, enum rdma_client_event ev)
{
	struct probe_conn *c = arg;

	if (c->fsm.fail != RDMA_CLIENT_FAIL_NONE && !c->fail_seen) {
		c->fail_seen = true;
		c->fail_state = from;
	}
	probe_dbg(1, "%s: %s -> %s (%s)", c->name, rdma_client_fsm_state_str(from),
		  rdma_client_fsm_state_str(to), rdma_client_fsm_event_str(ev));
}

static void conn_arm_timer(struct probe_conn *c)
{
	uint32_t ms = c->opts->timeout_ms;
	struct timeval tv;

	/* Every completion of an operation "restarts" the deadline; it
	 * does so by moving c->progress (conn_wc), not the libevent timer,
	 * which is armed once when OPS begins. */
	if (c->fsm.state == RDMA_CLIENT_ST_OPS) {
		if (c->ops_deadline)
			return;
		c->ops_deadline = true;
		c->progress = probe_now_ns();
	} else {
		c->ops_deadline = false;
	}
	if (c->fsm.state == RDMA_CLIENT_ST_ADDR || c->fsm.state == RDMA_CLIENT_ST_ROUTE)
		ms += PROBE_RESOLVE_GRACE_MS;
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	evtimer_add(c->timer, &tv);
}

static void conn_finish(struct probe_conn *c)
{
	if (c->finished)
		return;
	c->finished = true;
	evtimer_del(c->timer);
	evtimer_del(c->dur_timer);
	evtimer_del(c->repoll);
	if (c->started && --c->ctx->active == 0)
		event_base_loopbreak(c->ctx->base);
}

/* ---- resources ------------------------------------------------------- */

static int conn_alloc_buf(struct probe_conn *c, uint8_t **buf,
			  struct ibv_mr **mr, size_t len, int access)
{
	void *p;
	int ret;

	ret = posix_memalign(&p, 4096, len);
	if (ret)
		return -ret;
	memset(p, 0, len);
	*mr = ibv_reg_mr(c->pd, p, len, access);
	if (!*mr) {
		ret = errno ? -errno : -ENOMEM;
		free(p);
		return ret;
	}
	*buf = p;
	return 0;
}

static void conn_free_buf(uint8_t **buf, struct ibv_mr **mr)
{
	if (*mr)
		ibv_dereg_mr(*mr);
	free(*buf);
	*mr = NULL;
	*buf = NULL;
}

static int conn_post_recv(struct probe_conn *c, uint32_t slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(c->msg + slot * PROBE_SLOT_LEN),
		.length = PROBE_SLOT_LEN,
		.lkey = c->msg_mr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = WRID(WR_RECV, slot),
		.sg_list = &sge,
		.num_sge = 1,
	}, *bad;

	return -ibv_post_recv(c->id->qp, &wr, &bad);
}

static void cq_cb(evutil_socket_t fd, short what, void *arg);

/*
 * PD, completion channel (non-blocking, in the loop), CQ, buffers, QP,
 * pre-posted receives.  On failure returns -errno with c->error set;
 * whatever was made is released by probe_conn_free().
 */
static int conn_setup(struct probe_conn *c)
{
	struct ibv_context *verbs = c->id->verbs;
	const struct probe_opts *o = c->opts;
	uint32_t sq_depth = (o->rping ? 1 : o->depth) + PROBE_SQ_EXTRA;
	struct ibv_qp_init_attr qpa;
	size_t data_len;
	int access, ret;
	uint32_t i;

	c->pd = ibv_alloc_pd(verbs);
	if (!c->pd) {
		ret = errno ? -errno : -ENOMEM;
		conn_error(c, "ibv_alloc_pd: %s", strerror(-ret));
		return ret;
	}
	/* --busy-poll: no completion channel, the main loop polls. */
	if (!o->busy_poll) {
		c->comp_ch = ibv_create_comp_channel(verbs);
		if (!c->comp_ch) {
			ret = errno ? -errno : -ENOMEM;
			conn_error(c, "ibv_create_comp_channel: %s",
				   strerror(-ret));
			return ret;
		}
		ret = fd_nonblock(c->comp_ch->fd);
		if (ret) {
			conn_error(c, "completion channel: %s",
				   strerror(-ret));
			return ret;
		}
	}
	c->cq = ibv_create_cq(verbs, (int)(sq_depth + PROBE_RECV_SLOTS), c,
			      c->comp_ch, 0);
	if (!c->cq) {
		ret = errno ? -errno : -ENOMEM;
		conn_error(c, "ibv_create_cq: %s", strerror(-ret));
		return ret;
	}
	if (c->comp_ch) {
		c->cq_ev = event_new(c->ctx->base, c->comp_ch->fd,
				     EV_READ | EV_PERSIST, cq_cb, c);
		if (!c->cq_ev || event_add(c->cq_ev, NULL)) {
			conn_error(c, "cannot watch the completion channel");
			return -ENOMEM;
		}
		ret = ibv_req_notify_cq(c->cq, 0);
		if (ret) {
			conn_error(c, "ibv_req_notify_cq: %s", strerror(ret));
			return -ret;
		}
	}

	ret = conn_alloc_buf(c, &c->msg, &c->msg_mr,
			     (PROBE_RECV_SLOTS + 1) * PROBE_SLOT_LEN,
			     IBV_ACCESS_LOCAL_WRITE);
	if (ret)
		goto err_mr;
	/* Least access: the server gets rkeys only in rping mode. */
	if (o->rping) {
		access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
		ret = conn_alloc_buf(c, &c->rd_buf, &c->rd_mr, o->size, access);
		if (ret)
			goto err_mr;
		access = IBV_ACCESS_REMOTE_READ;
		ret = conn_alloc_buf(c, &c->wr_buf, &c->wr_mr, o->size, access);
		if (ret)
			goto err_mr;
	} else {
		/* A READ's destination needs local write access. */
		access = (o->ops & PROTO_OP_READ) ? IBV_ACCESS_LOCAL_WRITE : 0;
		data_len = (size_t)o->size * o->depth;
		ret = conn_alloc_buf(c, &c->data, &c->data_mr, data_len,
				     access);
		if (ret)
			goto err_mr;
		c->slot_posted = calloc(o->depth, sizeof(*c->slot_posted));
		c->wrs = calloc(o->depth, sizeof(*c->wrs));
		c->sges = calloc(o->depth, sizeof(*c->sges));
		if (!c->slot_posted || !c->wrs || !c->sges) {
			ret = -ENOMEM;
			goto err_mr;
		}
		if (o->verify && (o->ops & PROTO_OP_READ)) {
			c->ref = malloc(o->size);
			if (!c->ref) {
				ret = -ENOMEM;
				goto err_mr;
			}
			pattern_fill(c->ref, o->size, c->seed,
				     PROTO_ITER_READ);
		}
	}

	memset(&qpa, 0, sizeof(qpa));
	qpa.send_cq = c->cq;
	qpa.recv_cq = c->cq;
	qpa.qp_type = IBV_QPT_RC;
	qpa.cap.max_send_wr = sq_depth;
	qpa.cap.max_recv_wr = PROBE_RECV_SLOTS;
	qpa.cap.max_send_sge = 1;
	qpa.cap.max_recv_sge = 1;
	if (rdma_create_qp(c->id, c->pd, &qpa)) {
		ret = -errno;
		conn_error(c, "rdma_create_qp: %s", strerror(errno));
		return ret;
	}
	c->qp = true;

	for (i = 0; i < PROBE_RECV_SLOTS; i++) {
		ret = conn_post_recv(c, i);
		if (ret) {
			conn_error(c, "ibv_post_recv: %s", strerror(-ret));
			return ret;
		}
	}
	return 0;

err_mr:
	conn_error(c, "cannot allocate or register %u x %u-byte buffers: %s",
		   o->rping ? 2 : o->depth, o->size, strerror(-ret));
	return ret;
}

static enum rdma_client_event conn_connect(struct probe_conn *c)
{
	uint8_t hello_buf[PROTO_HELLO_LEN];
	struct rdma_conn_param cp;
	struct ibv_device_attr da;
	struct proto_hello h;
	uint8_t ack;
	int ret;

	if (conn_setup(c))
		return RDMA_CLIENT_EV_LOCAL_ERR;

	memset(&cp, 0, sizeof(cp));
	if (ibv_query_device(c->id->verbs, &da) == 0) {
		cp.initiator_depth = (uint8_t)(da.max_qp_init_rd_atom <
			PROBE_RD_ATOM_MAX ? da.max_qp_init_rd_atom :
			PROBE_RD_ATOM_MAX);
		cp.responder_resources = (uint8_t)(da.max_qp_rd_atom <
			PROBE_RD_ATOM_MAX ? da.max_qp_rd_atom :
			PROBE_RD_ATOM_MAX);
	} else {
		cp.initiator_depth = 1;
		cp.responder_resources = 1;
	}
	cp.retry_count = PROBE_RETRY_CNT;
	cp.rnr_retry_count = 7;
	ack = PROBE_ACK_TIMEOUT;
	if (rdma_set_option(c->id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT,
			    &ack, sizeof(ack)))
		probe_dbg(1, "%s: cannot set the ACK timeout: %s", c->name,
			  strerror(errno));
	if (!c->opts->rping) {
		memset(&h, 0, sizeof(h));
		h.version = PROTO_VERSION;
		h.ops = c->opts->ops;
		h.flags = c->opts->verify ? PROTO_F_VERIFY : 0;
		h.size = c->opts->size;
		h.iters = c->opts->iters;
		h.seed = c->seed;
		c->hello = h;
		ret = proto_hello_encode(&h, hello_buf, sizeof(hello_buf));
		if (ret < 0) {
			conn_error(c, "cannot encode hello: %s",
				   strerror(-ret));
			return RDMA_CLIENT_EV_LOCAL_ERR;
		}
		cp.private_data = hello_buf;
		cp.private_data_len = (uint8_t)ret;
	}
	if (rdma_connect(c->id, &cp)) {
		conn_error(c, "rdma_connect: %s", strerror(errno));
		return RDMA_CLIENT_EV_CONN_ERR;
	}
	return RDMA_CLIENT_EV_NONE;
}

/* ---- data path ------------------------------------------------------- */

static int conn_post_send(struct probe_conn *c, enum wr_kind kind,
			  enum ibv_wr_opcode opcode, void *buf,
			  struct ibv_mr *mr, uint32_t len, uint32_t iter)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)buf,
		.length = len,
		.lkey = mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = WRID(kind, iter),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = opcode,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	if (opcode == IBV_WR_RDMA_READ || opcode == IBV_WR_RDMA_WRITE) {
		wr.wr.rdma.remote_addr = c->desc.addr;
		wr.wr.rdma.rkey = c->desc.rkey;
	}
	return -ibv_post_send(c->id->qp, &wr, &bad);
}

static uint8_t *conn_send_slot(struct probe_conn *c)
{
	return c->msg + PROBE_RECV_SLOTS * PROBE_SLOT_LEN;
}

static uint8_t *conn_slot(struct probe_conn *c, uint32_t iter)
{
	return c->data + (size_t)(iter % c->opts->depth) * c->opts->size;
}

/*
 * Post operations iter .. iter + count - 1 as one chain.  The caller (the
 * state machine) guarantees that the slots they use are free: operation
 * i - depth has completed and, for a READ, been checked.
 */
static enum rdma_client_event conn_post_ops(struct probe_conn *c, bool read,
				      uint32_t iter, uint32_t count)
{
	const struct probe_opts *o = c->opts;
	struct ibv_send_wr *bad;
	uint32_t k, it;
	uint64_t now;
	uint8_t *buf;
	int ret;

	for (k = 0; k < count; k++) {
		it = iter + k;
		buf = conn_slot(c, it);
		/* A READ that moves nothing must not pass. */
		if (read && o->verify)
			memset(buf, 0, o->size);
		/* Unverified runs fill only the last WRITE, which the
		 * server checks whatever the hello says. */
		if (!read && (o->verify || it + 1 == c->fsm.limit))
			pattern_fill(buf, o->size, c->seed, it);
		c->sges[k].addr = (uintptr_t)buf;
		c->sges[k].length = o->size;
		c->sges[k].lkey = c->data_mr->lkey;
		memset(&c->wrs[k], 0, sizeof(c->wrs[k]));
		c->wrs[k].wr_id = WRID(read ? WR_READ : WR_WRITE, it);
		c->wrs[k].sg_list = &c->sges[k];
		c->wrs[k].num_sge = 1;
		c->wrs[k].opcode = read ? IBV_WR_RDMA_READ : IBV_WR_RDMA_WRITE;
		c->wrs[k].send_flags = IBV_SEND_SIGNALED;
		c->wrs[k].wr.rdma.remote_addr = c->desc.addr;
		c->wrs[k].wr.rdma.rkey = c->desc.rkey;
		c->wrs[k].next = k + 1 < count ? &c->wrs[k + 1] : NULL;
		if (probe_verbosity >= 2)
			probe_dbg(2, "%s: RDMA %s %u, %u bytes", c->name,
				  read ? "READ" : "WRITE", it + 1, o->size);
	}
	now = probe_now_ns();
	for (k = 0; k < count; k++)
		c->slot_posted[(iter + k) % o->depth] = now;
	if (!c->t.ops_start)
		c->t.ops_start = now;
	ret = ibv_post_send(c->id->qp, &c->wrs[0], &bad);
	if (ret) {
		conn_error(c, "ibv_post_send (RDMA %s): %s",
			   read ? "READ" : "WRITE", strerror(ret));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	return RDMA_CLIENT_EV_NONE;
}

/* Offset of the first difference, -1 if none. */
static ssize_t conn_check_read(struct probe_conn *c, const uint8_t *buf)
{
	uint32_t i, size = c->opts->size;

	if (!memcmp(buf, c->ref, size))
		return -1;
	for (i = 0; i < size; i++)
		if (buf[i] != c->ref[i])
			break;
	return i;
}

static enum rdma_client_event conn_verify_read(struct probe_conn *c, uint32_t iter)
{
	const uint8_t *buf = conn_slot(c, iter);
	ssize_t off;

	off = conn_check_read(c, buf);
	if (off < 0)
		return RDMA_CLIENT_EV_CHECK_OK;
	conn_error(c, "READ %u: data differs from the server's pattern "
		   "at offset %zd (got 0x%02x, expected 0x%02x)", iter + 1,
		   off, buf[off], c->ref[off]);
	return RDMA_CLIENT_EV_CHECK_BAD;
}

static enum rdma_client_event conn_send_done(struct probe_conn *c)
{
	struct proto_done d;
	int n, ret;

	memset(&d, 0, sizeof(d));
	d.reads_done = c->fsm.reads_done;
	d.writes_done = c->fsm.writes_done;
	if (d.writes_done) {
		/* The last WRITE went alone, after all the others: its slot
		 * holds what the server's buffer must hold now. */
		d.last_write_iter = d.writes_done - 1;
		c->write_crc = crc32c(0, conn_slot(c, d.last_write_iter),
				      c->opts->size);
		d.crc32c = c->write_crc;
	}
	evtimer_del(c->dur_timer);
	n = proto_done_encode(&d, conn_send_slot(c), PROBE_SLOT_LEN);
	if (n < 0) {
		conn_error(c, "cannot encode DONE: %s", strerror(-n));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	c->t.ops_end = probe_now_ns();
	c->t.done_sent = c->t.ops_end;
	ret = conn_post_send(c, WR_SEND, IBV_WR_SEND, conn_send_slot(c),
			     c->msg_mr, (uint32_t)n, 0);
	if (ret) {
		conn_error(c, "ibv_post_send (DONE): %s", strerror(-ret));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	return RDMA_CLIENT_EV_NONE;
}

/*
 * rping source text: "rdma-probe ping N: " then letters and digits that
 * shift with the seed and the iteration, NUL-terminated (the server
 * writes back strlen() + 1 bytes, so there must be no NUL before the
 * last byte).
 */
static void rping_text(uint8_t *buf, uint32_t size, uint64_t seed,
		       uint32_t iter)
{
	static const char abc[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz";
	char head[40];
	uint32_t i, n;
	int len;

	len = snprintf(head, sizeof(head), "rdma-probe ping %u: ", iter);
	n = (uint32_t)len < size - 1 ? (uint32_t)len : size - 1;
	memcpy(buf, head, n);
	for (i = n; i + 1 < size; i++)
		buf[i] = (uint8_t)abc[(seed + iter + i) % (sizeof(abc) - 1)];
	buf[size - 1] = '\0';
}

static enum rdma_client_event conn_rping_advert(struct probe_conn *c, bool source,
					  uint32_t iter)
{
	struct proto_rping_info info;
	int n, ret;

	if (source) {
		rping_text(c->wr_buf, c->opts->size, c->seed, iter);
		memset(c->rd_buf, 0, c->opts->size);
		info.buf = (uintptr_t)c->wr_buf;
		info.rkey = c->wr_mr->rkey;
		probe_dbg(2, "%s: ping %u/%u: source advert, %u bytes",
			  c->name, iter + 1, c->opts->iters, c->opts->size);
		c->ping_posted = probe_now_ns();
		if (!c->t.ops_start)
			c->t.ops_start = c->ping_posted;
	} else {
		info.buf = (uintptr_t)c->rd_buf;
		info.rkey = c->rd_mr->rkey;
		probe_dbg(2, "%s: ping %u/%u: sink advert", c->name,
			  iter + 1, c->opts->iters);
	}
	info.size = c->opts->size;
	n = proto_rping_encode(&info, conn_send_slot(c), PROBE_SLOT_LEN);
	if (n < 0) {
		conn_error(c, "cannot encode rping advert: %s", strerror(-n));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	ret = conn_post_send(c, WR_SEND, IBV_WR_SEND, conn_send_slot(c),
			     c->msg_mr, (uint32_t)n, iter);
	if (ret) {
		conn_error(c, "ibv_post_send (rping advert): %s",
			   strerror(-ret));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	return RDMA_CLIENT_EV_NONE;
}

static enum rdma_client_event conn_verify_sink(struct probe_conn *c, uint32_t iter)
{
	uint32_t i, size = c->opts->size;

	probe_opstat_add(&c->pings, c->ping_posted, probe_now_ns(), size);
	if (c->pings.ops == c->opts->iters)
		c->t.ops_end = c->pings.last_done;
	for (i = 0; i < size; i++)
		if (c->rd_buf[i] != c->wr_buf[i])
			break;
	if (i == size)
		return RDMA_CLIENT_EV_CHECK_OK;
	conn_error(c, "ping %u of %u: sink differs from source at offset %u "
		   "(got 0x%02x, expected 0x%02x)", iter + 1, c->opts->iters,
		   i, c->rd_buf[i], c->wr_buf[i]);
	return RDMA_CLIENT_EV_CHECK_BAD;
}

/* ---- actions --------------------------------------------------------- */

static enum rdma_client_event conn_act(struct probe_conn *c,
				 const struct rdma_client_step *st)
{
	const struct probe_opts *o = c->opts;
	enum rdma_client_event ev = RDMA_CLIENT_EV_NONE;
	uint32_t a = st->act;
	struct timeval tv;

	if (a & RDMA_CLIENT_ACT_ARM_TIMER)
		conn_arm_timer(c);
	if (a & RDMA_CLIENT_ACT_RESOLVE_ADDR) {
		c->t.start = probe_now_ns();
		if (rdma_resolve_addr(c->id, c->dest->src_len ?
				      (struct sockaddr *)&c->dest->src : NULL,
				      (struct sockaddr *)&c->dest->dst,
				      (int)o->timeout_ms)) {
			conn_error(c, "rdma_resolve_addr: %s", strerror(errno));
			ev = RDMA_CLIENT_EV_ADDR_ERR;
		}
	}
	if (a & RDMA_CLIENT_ACT_RESOLVE_ROUTE) {
		if (rdma_resolve_route(c->id, (int)o->timeout_ms)) {
			conn_error(c, "rdma_resolve_route: %s",
				   strerror(errno));
			ev = RDMA_CLIENT_EV_ROUTE_ERR;
		}
	}
	if (a & RDMA_CLIENT_ACT_CONNECT)
		ev = conn_connect(c);
	if (a & RDMA_CLIENT_ACT_ARM_DURATION) {
		tv.tv_sec = o->duration_ms / 1000;
		tv.tv_usec = (o->duration_ms % 1000) * 1000;
		evtimer_add(c->dur_timer, &tv);
	}
	if (a & RDMA_CLIENT_ACT_POST_READ)
		ev = conn_post_ops(c, true, st->iter, st->count);
	if (a & RDMA_CLIENT_ACT_POST_WRITE)
		ev = conn_post_ops(c, false, st->iter, st->count);
	if (a & RDMA_CLIENT_ACT_VERIFY_READ)
		ev = conn_verify_read(c, st->iter);
	if (a & RDMA_CLIENT_ACT_SEND_DONE)
		ev = conn_send_done(c);
	if (a & RDMA_CLIENT_ACT_SEND_SOURCE)
		ev = conn_rping_advert(c, true, st->iter);
	if (a & RDMA_CLIENT_ACT_SEND_SINK)
		ev = conn_rping_advert(c, false, st->iter);
	if (a & RDMA_CLIENT_ACT_VERIFY_SINK)
		ev = conn_verify_sink(c, st->iter);
	if (a & RDMA_CLIENT_ACT_DISCONNECT) {
		c->t.disconnect = probe_now_ns();
		if (rdma_disconnect(c->id)) {
			/* Not connected (any more): nothing to wait for. */
			probe_dbg(1, "%s: rdma_disconnect: %s", c->name,
				  strerror(errno));
			ev = RDMA_CLIENT_EV_DISCONNECTED;
		}
	}
	if (a & RDMA_CLIENT_ACT_FINISH)
		conn_finish(c);
	return ev;
}

static void conn_feed(struct probe_conn *c, enum rdma_client_event ev)
{
	struct rdma_client_step st;
	enum rdma_client_state s;

	while (ev != RDMA_CLIENT_EV_NONE) {
		s = c->fsm.state;
		if (rdma_client_fsm_step(&c->fsm, ev, &st) < 0)
			conn_error(c, "protocol error: unexpected %s in "
				   "state %s", rdma_client_fsm_event_str(ev),
				   rdma_client_fsm_state_str(s));
		ev = conn_act(c, &st);
	}
}

/* ---- completions ----------------------------------------------------- */

/*
 * The server ends the session itself and says why (a newer rdmad; an
 * older one just disconnects).  Its disconnect follows; the reason is
 * what the run reports.
 */
static enum rdma_client_event conn_server_abort(struct probe_conn *c,
					  const uint8_t *buf, uint32_t len)
{
	struct proto_abort a;
	const char *why = "?";
	char text[200];

	if (proto_abort_decode(buf, len, &a, &why)) {
		conn_error(c, "bad ABORT from server: %s", why);
		return RDMA_CLIENT_EV_PROTO_ERR;
	}
	conn_reason(c, "ended by server");
	conn_error(c, "server ended the session: %s",
		   proto_abort_str(&a, text, sizeof(text)));
	return rdma_client_fsm_abort_event(a.reason);
}

static enum rdma_client_event conn_native_msg(struct probe_conn *c,
					const uint8_t *buf, uint32_t len)
{
	struct proto_result r;
	const char *why = "?";
	int type;

	type = proto_msg_type(buf, len, &why);
	if (type < 0) {
		conn_error(c, "malformed message from server (%u bytes): %s",
			   len, why);
		return RDMA_CLIENT_EV_PROTO_ERR;
	}
	switch (type) {
	case PROTO_MSG_DESC:
		if (proto_desc_decode(buf, len, &c->desc, &why) ||
		    proto_desc_check(&c->desc, c->opts->size, c->opts->ops,
				     &why)) {
			conn_error(c, "bad descriptor from server: %s", why);
			return RDMA_CLIENT_EV_PROTO_ERR;
		}
		c->t.desc = probe_now_ns();
		probe_dbg(2, "%s: DESC addr 0x%" PRIx64 " len %u access "
			  "0x%x", c->name, c->desc.addr, c->desc.len,
			  c->desc.access);
		return RDMA_CLIENT_EV_DESC_OK;
	case PROTO_MSG_RESULT:
		if (proto_result_decode(buf, len, &r, &why)) {
			conn_error(c, "bad RESULT from server: %s", why);
			return RDMA_CLIENT_EV_PROTO_ERR;
		}
		c->t.result = probe_now_ns();
		if (r.status == PROTO_RES_BAD_DONE) {
			conn_error(c, "server found our DONE inconsistent with "
				   "the hello");
			return RDMA_CLIENT_EV_PROTO_ERR;
		}
		if (r.status == PROTO_RES_MISMATCH) {
			if (r.first_bad_offset == PROTO_NO_BAD_OFFSET)
				conn_error(c, "server found the last WRITE's "
					   "data wrong (crc32c: server 0x%08x, "
					   "probe 0x%08x)", r.crc32c_seen,
					   c->write_crc);
			else
				conn_error(c, "server found the last WRITE's "
					   "data wrong at offset %u (crc32c: "
					   "server 0x%08x, probe 0x%08x)",
					   r.first_bad_offset, r.crc32c_seen,
					   c->write_crc);
			return RDMA_CLIENT_EV_RESULT_BAD;
		}
		if (c->fsm.writes_done && r.crc32c_seen != c->write_crc) {
			conn_error(c, "server reports OK but saw crc32c "
				   "0x%08x, probe wrote 0x%08x", r.crc32c_seen,
				   c->write_crc);
			return RDMA_CLIENT_EV_RESULT_BAD;
		}
		return RDMA_CLIENT_EV_RESULT_OK;
	case PROTO_MSG_ABORT:
		return conn_server_abort(c, buf, len);
	default:
		conn_error(c, "unexpected message type %d from server", type);
		return RDMA_CLIENT_EV_PROTO_ERR;
	}
}

static void conn_wc(struct probe_conn *c, const struct ibv_wc *wc)
{
	enum wr_kind kind = WRID_KIND(wc->wr_id);
	uint64_t posted, done;
	uint32_t idx = WRID_IDX(wc->wr_id);
	uint8_t buf[PROBE_SLOT_LEN];
	enum rdma_client_event ev;
	uint32_t len;
	int ret;

	if (wc->status != IBV_WC_SUCCESS) {
		/* Flushed work requests are normal once closing. */
		if (c->fsm.state == RDMA_CLIENT_ST_CLOSING ||
		    rdma_client_fsm_terminal(&c->fsm))
			return;
		if (wc->status == IBV_WC_RETRY_EXC_ERR) {
			conn_reason(c, "retry exceeded");
			conn_error(c, "%s failed: %s (status %d, vendor error "
				   "0x%x)", wr_kind_str(kind),
				   PROBE_RETRY_EXC_TEXT, wc->status,
				   wc->vendor_err);
		}
		conn_error(c, "%s failed: %s (status %d, vendor error 0x%x)",
			   wr_kind_str(kind), ibv_wc_status_str(wc->status),
			   wc->status, wc->vendor_err);
		conn_feed(c, RDMA_CLIENT_EV_WC_ERR);
		return;
	}

	switch (kind) {
	case WR_RECV:
		if (idx >= PROBE_RECV_SLOTS)
			break;
		len = wc->byte_len < PROBE_SLOT_LEN ? wc->byte_len :
						      PROBE_SLOT_LEN;
		memcpy(buf, c->msg + idx * PROBE_SLOT_LEN, len);
		ret = conn_post_recv(c, idx);
		if (ret) {
			conn_error(c, "ibv_post_recv: %s", strerror(-ret));
			conn_feed(c, RDMA_CLIENT_EV_LOCAL_ERR);
			return;
		}
		if (!c->opts->rping) {
			ev = conn_native_msg(c, buf, len);
		} else if (wc->byte_len == PROTO_RPING_INFO_LEN) {
			ev = RDMA_CLIENT_EV_GO_AHEAD;
		} else {
			conn_error(c, "rping go-ahead of %u bytes, expected %d",
				   wc->byte_len, PROTO_RPING_INFO_LEN);
			ev = RDMA_CLIENT_EV_PROTO_ERR;
		}
		conn_feed(c, ev);
		break;
	case WR_SEND:
		break;
	case WR_READ:
	case WR_WRITE:
		if (c->opts->rping || !c->slot_posted)
			break;
		/* Timestamp first; then check and post the next operation
		 * (which reuses this slot's post time at depth 1); the
		 * histogram is bookkeeping and comes last. */
		done = probe_now_ns();
		posted = c->slot_posted[idx % c->opts->depth];
		c->progress = done;
		conn_feed(c, RDMA_CLIENT_EV_OP_DONE);
		probe_opstat_add(kind == WR_READ ? &c->reads : &c->writes,
				 posted, done, c->opts->size);
		break;
	}
}

/*
 * One batch per call.  Handling a completion posts the next operation,
 * whose completion soft-RoCE may deliver before ibv_post_send returns:
 * polling until the CQ is empty could then go on for the whole run and
 * starve timers, CM events and the other connections.  A full batch means
 * there may be more: a zero timer brings us back after the loop has
 * looked at everything else.  A partial batch means the CQ was empty
 * after the notification was re-armed, so a new completion will wake us.
 */
static int conn_poll_cq(struct probe_conn *c)
{
	static const struct timeval now = { 0, 0 };
	struct ibv_wc wc[PROBE_CQ_BATCH];
	int i, n;

	if (!c->cq)
		return 0;
	n = ibv_poll_cq(c->cq, PROBE_CQ_BATCH, wc);
	if (n < 0) {
		conn_error(c, "ibv_poll_cq failed");
		conn_feed(c, RDMA_CLIENT_EV_LOCAL_ERR);
		return 0;
	}
	for (i = 0; i < n && c->cq; i++)
		conn_wc(c, &wc[i]);
	if (n == PROBE_CQ_BATCH && c->comp_ch && !c->finished)
		evtimer_add(c->repoll, &now);
	return n;
}

static void repoll_cb(evutil_socket_t fd, short what, void *arg)
{
	conn_poll_cq(arg);
}

/* --busy-poll: reap completions; returns how many were found. */
static int conn_poll(struct probe_conn *c)
{
	if (c->finished)
		return 0;
	return conn_poll_cq(c);
}

/*
 * The completion channel is readable.  The completion that woke us is
 * already in the CQ: reap it first, so that it is timestamped and the next
 * operation posted before the two system calls of consuming and re-arming
 * the notification.  Then take the one event (one per arming; epoll is
 * level-triggered should there be more), re-arm, and poll again for what
 * completed before the re-arm.  Events are acked in batches (and the rest
 * before the CQ is destroyed).
 */
static void cq_cb(evutil_socket_t fd, short what, void *arg)
{
	struct probe_conn *c = arg;
	struct ibv_cq *cq;
	void *cq_ctx;
	int n;

	n = conn_poll_cq(c);
	if (!c->cq)
		return;
	if (ibv_get_cq_event(c->comp_ch, &cq, &cq_ctx) == 0 &&
	    ++c->cq_unacked >= PROBE_CQ_ACK_BATCH) {
		ibv_ack_cq_events(c->cq, c->cq_unacked);
		c->cq_unacked = 0;
	}
	if (c->finished)
		return;
	if (ibv_req_notify_cq(c->cq, 0)) {
		conn_error(c, "ibv_req_notify_cq failed");
		conn_feed(c, RDMA_CLIENT_EV_LOCAL_ERR);
		return;
	}
	/* A full batch has a repoll timer coming already. */
	if (n < PROBE_CQ_BATCH)
		conn_poll_cq(c);
}

static void timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct probe_conn *c = arg;
	const struct probe_opts *o = c->opts;
	enum rdma_client_state s = c->fsm.state;
	uint32_t ms = o->timeout_ms;
	uint64_t now, due;
	struct timeval tv;

	/* OPS: the deadline runs from the last completion. */
	if (c->ops_deadline &&
	    (s == RDMA_CLIENT_ST_OPS || s == RDMA_CLIENT_ST_VERIFY)) {
		now = probe_now_ns();
		due = c->progress + (uint64_t)ms * 1000000u;
		if (now < due) {
			due = (due - now) / 1000u + 1;	/* us */
			tv.tv_sec = (time_t)(due / 1000000u);
			tv.tv_usec = (suseconds_t)(due % 1000000u);
			evtimer_add(c->timer, &tv);
			return;
		}
	}
	if (s == RDMA_CLIENT_ST_ADDR || s == RDMA_CLIENT_ST_ROUTE) {
		ms += PROBE_RESOLVE_GRACE_MS;
		conn_reason(c, "no answer");
	}
	if (s == RDMA_CLIENT_ST_OPS)
		conn_error(c, "RDMA %s %u of %u timed out after %u.%03u s",
			   c->fsm.cur_op == PROTO_OP_READ ? "READ" : "WRITE",
			   (c->fsm.cur_op == PROTO_OP_READ ? c->fsm.reads_done :
			    c->fsm.writes_done) + 1, o->iters, ms / 1000,
			   ms % 1000);
	else
		conn_error(c, "%s timed out after %u.%03u s",
			   rdma_client_fsm_state_step(s), ms / 1000, ms % 1000);
	conn_feed(c, RDMA_CLIENT_EV_TIMEOUT);
}

static void dur_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct probe_conn *c = arg;

	probe_dbg(1, "%s: duration over for the %ss", c->name,
		  c->fsm.cur_op == PROTO_OP_READ ? "READ" : "WRITE");
	conn_feed(c, RDMA_CLIENT_EV_STOP);
}

/* ---- CM events ------------------------------------------------------- */

struct cm_info {
	enum rdma_cm_event_type type;
	int status;
	uint8_t pdata[256];
	uint32_t pdata_len;
};

static enum rdma_client_event conn_rejected(struct probe_conn *c,
				      const struct cm_info *e)
{
	struct proto_reject rej;
	const char *why = NULL, *reason;
	size_t n;

	if (e->status == CM_REJ_INVALID_SERVICE_ID) {
		conn_error(c, "connection refused: nothing listens on port %u",
			   c->dest->port);
		conn_reason(c, "refused");
		return RDMA_CLIENT_EV_CONN_ERR;
	}
	if (e->status != CM_REJ_CONSUMER_DEFINED) {
		conn_reason(c, "rejected by the CM");
		conn_error(c, "connection rejected by the peer's CM "
			   "(reason %d)", e->status);
		return RDMA_CLIENT_EV_CONN_ERR;
	}
	if (proto_classify(e->pdata, e->pdata_len) != PROTO_KIND_NATIVE) {
		conn_error(c, "rejected by server (no reason given)");
	} else if (proto_reject_decode(e->pdata, e->pdata_len, &rej, &why)) {
		conn_error(c, "rejected by server (unreadable reason: %s)",
			   why);
	} else if (rej.text[0]) {
		conn_reason(c, proto_reject_reason_str(rej.reason));
		/* "busy: 64/64 connections"; a text that already starts
		 * with the reason is not prefixed twice. */
		reason = proto_reject_reason_str(rej.reason);
		n = strlen(reason);
		if (!strncmp(rej.text, reason, n) && rej.text[n] == ':')
			conn_error(c, "rejected by server: %s", rej.text);
		else
			conn_error(c, "rejected by server: %s: %s", reason,
				   rej.text);
	} else {
		conn_reason(c, proto_reject_reason_str(rej.reason));
		conn_error(c, "rejected by server: %s",
			   proto_reject_reason_str(rej.reason));
	}
	return RDMA_CLIENT_EV_REJECTED;
}

/*
 * The server wants proof of the pre-shared key before it shows its buffer:
 * AUTH, a MAC over its nonce, its connection number and our HELLO.
 */
static int conn_send_auth(struct probe_conn *c)
{
	struct proto_auth a;
	int n, ret;

	ret = auth_mac(c->opts->psk, &c->welcome, &c->hello, a.mac);
	if (ret) {
		conn_error(c, "cannot compute the AUTH MAC: %s",
			   strerror(-ret));
		return ret;
	}
	n = proto_auth_encode(&a, conn_send_slot(c), PROBE_SLOT_LEN);
	if (n < 0) {
		conn_error(c, "cannot encode AUTH: %s", strerror(-n));
		return n;
	}
	ret = conn_post_send(c, WR_SEND, IBV_WR_SEND, conn_send_slot(c),
			     c->msg_mr, (uint32_t)n, 0);
	if (ret)
		conn_error(c, "ibv_post_send (AUTH): %s", strerror(-ret));
	else
		probe_dbg(1, "%s: AUTH sent", c->name);
	return ret;
}

static void conn_established(struct probe_conn *c, const struct cm_info *e)
{
	const struct probe_opts *o = c->opts;
	const char *why = "?";

	c->t.established = probe_now_ns();
	if (o->rping) {
		conn_feed(c, RDMA_CLIENT_EV_ESTABLISHED);
		return;
	}
	if (proto_welcome_decode(e->pdata, e->pdata_len, &c->welcome, &why)) {
		conn_error(c, "server did not answer with an rdmad welcome "
			   "(%s); for an rping server use --rping", why);
		conn_feed(c, RDMA_CLIENT_EV_PROTO_ERR);
		return;
	}
	c->have_welcome = true;
	probe_dbg(1, "%s: welcome: server connection %" PRIu64 ", max "
		  "size %u, max iterations %u", c->name, c->welcome.conn_id,
		  c->welcome.max_size, c->welcome.max_iters);
	if (c->welcome.max_size < o->size || c->welcome.max_iters < o->iters) {
		conn_error(c, "server accepted beyond its limits (size %u > %u "
			   "or iterations %u > %u)", o->size,
			   c->welcome.max_size, o->iters, c->welcome.max_iters);
		conn_feed(c, RDMA_CLIENT_EV_PROTO_ERR);
		return;
	}
	if ((c->welcome.flags & PROTO_WELCOME_F_AUTH) && !o->psk) {
		conn_reason(c, "key required");
		conn_error(c, "server requires a pre-shared key: give it with "
			   "--psk-file FILE");
		conn_feed(c, RDMA_CLIENT_EV_KEY_ERR);
		return;
	}
	if ((c->welcome.flags & PROTO_WELCOME_F_AUTH) && conn_send_auth(c)) {
		conn_feed(c, RDMA_CLIENT_EV_PROTO_ERR);
		return;
	}
	conn_feed(c, RDMA_CLIENT_EV_ESTABLISHED);
}

/* -v: which device and source address rdma_cm picked. */
static void conn_log_local(struct probe_conn *c)
{
	struct sockaddr *sa = rdma_get_local_addr(c->id);
	char host[INET6_ADDRSTRLEN] = "?";

	if (probe_verbosity < 1)
		return;
	if (sa)
		getnameinfo(sa, sa->sa_family == AF_INET6 ?
			    sizeof(struct sockaddr_in6) :
			    sizeof(struct sockaddr_in), host, sizeof(host),
			    NULL, 0, NI_NUMERICHOST);
	probe_dbg(1, "%s: local address %s on %s port %u", c->name, host,
		  c->id->verbs ? ibv_get_device_name(c->id->verbs->device) :
				 "?", c->id->port_num);
}

static void conn_cm_event(struct probe_conn *c, const struct cm_info *e)
{
	const char *why;
	int i;

	probe_dbg(1, "%s: CM event %s, status %d", c->name,
		  rdma_event_str(e->type), e->status);
	switch (e->type) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		c->t.addr = probe_now_ns();
		conn_log_local(c);
		conn_feed(c, RDMA_CLIENT_EV_ADDR_OK);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
		conn_reason(c, "unreachable");
		conn_error(c, "address resolution failed: %s",
			   strerror(e->status < 0 ? -e->status : EHOSTUNREACH));
		conn_feed(c, RDMA_CLIENT_EV_ADDR_ERR);
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		c->t.route = probe_now_ns();
		conn_feed(c, RDMA_CLIENT_EV_ROUTE_OK);
		break;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		conn_reason(c, "unreachable");
		conn_error(c, "route resolution failed: %s",
			   strerror(e->status < 0 ? -e->status : EHOSTUNREACH));
		conn_feed(c, RDMA_CLIENT_EV_ROUTE_ERR);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		conn_established(c, e);
		break;
	case RDMA_CM_EVENT_REJECTED:
		conn_feed(c, conn_rejected(c, e));
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
		conn_reason(c, "unreachable");
		why = strerror(e->status < 0 ? -e->status : ETIMEDOUT);
		if (c->fsm.state == RDMA_CLIENT_ST_CONNECT)
			conn_error(c, "server unreachable: %s", why);
		else
			conn_error(c, "connection lost: rdma_cm reports the "
				   "server unreachable (%s); a partition, a "
				   "crashed host or heavy loss on the path",
				   why);
		conn_feed(c, RDMA_CLIENT_EV_CONN_ERR);
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
		conn_reason(c, "connect error");
		conn_error(c, "connect error: %s",
			   strerror(e->status < 0 ? -e->status : ECONNABORTED));
		conn_feed(c, RDMA_CLIENT_EV_CONN_ERR);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		/* Completions that arrived before the disconnect count. */
		for (i = 0; i < 64 && conn_poll_cq(c) == PROBE_CQ_BATCH; i++)
			;
		c->t.closed = probe_now_ns();
		if (!rdma_client_fsm_terminal(&c->fsm) &&
		    c->fsm.state != RDMA_CLIENT_ST_CLOSING) {
			if (c->opts->rping &&
			    c->fsm.state == RDMA_CLIENT_ST_RPING_SRC)
				conn_error(c, "server disconnected during "
					   "ping %u (is its buffer smaller "
					   "than %u bytes? start rping -s "
					   "with -S)", c->fsm.pings_done + 1,
					   c->opts->size);
			else
				conn_error(c, "server disconnected during %s",
					   rdma_client_fsm_state_step(c->fsm.state));
		}
		conn_feed(c, RDMA_CLIENT_EV_DISCONNECTED);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		conn_error(c, "RDMA device removed");
		conn_feed(c, RDMA_CLIENT_EV_LOCAL_ERR);
		break;
	default:
		/* TIMEWAIT_EXIT, ADDR_CHANGE, CONNECT_RESPONSE...: nothing
		 * to do for a client that lets rdma_cm drive its QP. */
		break;
	}
}

static void cm_cb(evutil_socket_t fd, short what, void *arg)
{
	struct probe_ctx *ctx = arg;
	struct rdma_cm_event *ev;
	struct probe_conn *c;
	struct cm_info info;

	for (;;) {
		if (rdma_get_cm_event(ctx->cm_ch, &ev)) {
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				probe_err("rdma_get_cm_event: %s",
					  strerror(errno));
			return;
		}
		c = ev->id ? ev->id->context : NULL;
		memset(&info, 0, sizeof(info));
		info.type = ev->event;
		info.status = ev->status;
		if (ev->param.conn.private_data &&
		    ev->param.conn.private_data_len) {
			info.pdata_len = ev->param.conn.private_data_len;
			if (info.pdata_len > sizeof(info.pdata))
				info.pdata_len = sizeof(info.pdata);
			memcpy(info.pdata, ev->param.conn.private_data,
			       info.pdata_len);
		}
		/* Copied what matters: ack now, exactly once. */
		rdma_ack_cm_event(ev);
		if (c)
			conn_cm_event(c, &info);
	}
}

/* ---- context and life cycle ------------------------------------------ */

int probe_ctx_init(struct probe_ctx *ctx, struct event_base *base,
		   bool busy_poll)
{
	int ret;

	memset(ctx, 0, sizeof(*ctx));
	ctx->base = base;
	ctx->busy_poll = busy_poll;

	ctx->cm_ch = rdma_create_event_channel();
	if (!ctx->cm_ch) {
		ret = errno ? -errno : -ENODEV;
		probe_err("cannot open the rdma_cm event channel: %s (is the "
			  "rdma_ucm module loaded?)", strerror(-ret));
		return ret;
	}
	ret = fd_nonblock(ctx->cm_ch->fd);
	if (ret) {
		probe_err("rdma_cm event channel: %s", strerror(-ret));
		goto err_ch;
	}
	ctx->cm_ev = event_new(base, ctx->cm_ch->fd, EV_READ | EV_PERSIST,
			       cm_cb, ctx);
	if (!ctx->cm_ev || event_add(ctx->cm_ev, NULL)) {
		probe_err("cannot watch the rdma_cm event channel");
		ret = -ENOMEM;
		goto err_ev;
	}
	return 0;

err_ev:
	if (ctx->cm_ev)
		event_free(ctx->cm_ev);
	ctx->cm_ev = NULL;
err_ch:
	rdma_destroy_event_channel(ctx->cm_ch);
	ctx->cm_ch = NULL;
	return ret;
}

void probe_ctx_fini(struct probe_ctx *ctx)
{
	if (ctx->cm_ev)
		event_free(ctx->cm_ev);
	if (ctx->cm_ch)
		rdma_destroy_event_channel(ctx->cm_ch);
	ctx->cm_ev = NULL;
	ctx->cm_ch = NULL;
}

static int conn_new(struct probe_ctx *ctx, const struct probe_opts *o,
		    const struct probe_dest *d, const char *label,
		    unsigned int idx, struct probe_conn **out)
{
	struct probe_conn *c;
	int ret;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->ctx = ctx;
	c->opts = o;
	c->dest = d;
	c->idx = idx;
	snprintf(c->name, sizeof(c->name), "%s%sconn %u", label ? label : "",
		 label ? " " : "", idx);
	c->seed = o->seed + idx;
	rdma_client_fsm_init(&c->fsm, o->rping, o->ops, o->iters, o->verify);
	rdma_client_fsm_pipeline(&c->fsm, o->depth, o->duration_ms != 0);
	c->fsm.on_transition = conn_transition;
	c->fsm.arg = c;
	probe_opstat_init(&c->reads);
	probe_opstat_init(&c->writes);
	probe_opstat_init(&c->pings);

	ret = -ENOMEM;
	c->timer = evtimer_new(ctx->base, timer_cb, c);
	c->dur_timer = evtimer_new(ctx->base, dur_timer_cb, c);
	c->repoll = evtimer_new(ctx->base, repoll_cb, c);
	if (!c->timer || !c->dur_timer || !c->repoll)
		goto err;
	if (rdma_create_id(ctx->cm_ch, &c->id, c, RDMA_PS_TCP)) {
		ret = -errno;
		probe_err("rdma_create_id: %s", strerror(errno));
		goto err;
	}
	*out = c;
	return 0;

err:
	probe_conn_free(c);
	return ret;
}

static void conn_start(struct probe_conn *c)
{
	c->started = true;
	c->ctx->active++;
	conn_feed(c, RDMA_CLIENT_EV_START);
}

int probe_ctx_add(struct probe_ctx *ctx, const struct probe_opts *opts,
		  const struct probe_dest *d, const char *label,
		  unsigned int n)
{
	struct probe_conn **v;
	unsigned int first = ctx->nconns, i;
	int ret;

	v = reallocarray(ctx->conns, first + n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	ctx->conns = v;
	for (i = 0; i < n; i++) {
		ret = conn_new(ctx, opts, d, label, i, &v[first + i]);
		if (ret)
			goto err;
	}
	ctx->nconns = first + n;
	return 0;

err:
	while (i-- > 0)
		probe_conn_free(v[first + i]);
	return ret;
}

/*
 * --busy-poll: spin on every completion queue without going back to the
 * event loop between operations.  The clock is read once per
 * PROBE_SPIN_ROUNDS rounds; once PROBE_SPIN_SLICE_NS has passed, the event
 * loop runs once without blocking, for CM events, step deadlines, -D
 * timers and signals (so they are serviced within about a slice).
 */
#define PROBE_SPIN_ROUNDS	64
#define PROBE_SPIN_SLICE_NS	1000000u	/* 1 ms */

static int ctx_spin(struct probe_ctx *ctx)
{
	uint64_t now, next = 0;
	unsigned int i, r;

	while (ctx->active > 0 && !ctx->stop) {
		for (r = 0; r < PROBE_SPIN_ROUNDS && ctx->active > 0 &&
			    !ctx->stop; r++)
			for (i = 0; i < ctx->nconns; i++)
				conn_poll(ctx->conns[i]);
		now = probe_now_ns();
		if (now < next)
			continue;
		if (event_base_loop(ctx->base, EVLOOP_NONBLOCK) < 0)
			return -EIO;
		next = now + PROBE_SPIN_SLICE_NS;
	}
	return 0;
}

int probe_ctx_run(struct probe_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < ctx->nconns; i++)
		conn_start(ctx->conns[i]);
	if (ctx->busy_poll)
		return ctx_spin(ctx);
	return ctx->active > 0 && event_base_dispatch(ctx->base) < 0 ?
	       -EIO : 0;
}

void probe_ctx_release(struct probe_ctx *ctx, struct probe_conn ***kept,
		       unsigned int *nkept)
{
	unsigned int i;

	for (i = 0; i < ctx->nconns; i++)
		probe_conn_release(ctx->conns[i]);
	*kept = ctx->conns;
	*nkept = ctx->nconns;
	ctx->conns = NULL;
	ctx->nconns = 0;
}

void probe_conn_abort(struct probe_conn *c, const char *why)
{
	if (rdma_client_fsm_terminal(&c->fsm))
		return;
	conn_reason(c, why);
	conn_error(c, "%s", why);
	conn_feed(c, RDMA_CLIENT_EV_LOCAL_ERR);
}

void probe_conn_outcome(const struct probe_conn *c, struct probe_outcome *o)
{
	memset(o, 0, sizeof(*o));
	o->fail = rdma_client_fsm_terminal(&c->fsm) ? c->fsm.fail :
		  (c->fsm.fail != RDMA_CLIENT_FAIL_NONE ? c->fsm.fail :
		   RDMA_CLIENT_FAIL_LOCAL);
	o->error = c->error[0] ? c->error : rdma_client_fsm_fail_str(o->fail);
	o->reason = c->reason;
	o->fail_state = c->fail_seen ? c->fail_state : c->fsm.state;
	o->last_state = c->fsm.state;
	o->times = &c->t;
	o->reads = &c->reads;
	o->writes = &c->writes;
	o->pings = &c->pings;
	o->idx = c->idx;
	o->seed = c->seed;
	o->have_welcome = c->have_welcome;
	o->conn_id = c->welcome.conn_id;
	o->max_size = c->welcome.max_size;
	o->max_iters = c->welcome.max_iters;
	o->write_crc = c->write_crc;
	o->reads_verified = c->fsm.reads_done;
	o->writes_done = c->fsm.writes_done;
	o->pings_verified = c->fsm.pings_done;
}

/* Reverse order of setup; every step skips what was never made, and
 * a second call finds nothing left to release. */
void probe_conn_release(struct probe_conn *c)
{
	if (c->timer)
		event_free(c->timer);
	if (c->dur_timer)
		event_free(c->dur_timer);
	if (c->repoll)
		event_free(c->repoll);
	if (c->cq_ev)
		event_free(c->cq_ev);
	c->timer = c->dur_timer = c->repoll = c->cq_ev = NULL;
	if (c->qp)
		rdma_destroy_qp(c->id);
	c->qp = false;
	conn_free_buf(&c->wr_buf, &c->wr_mr);
	conn_free_buf(&c->rd_buf, &c->rd_mr);
	conn_free_buf(&c->data, &c->data_mr);
	conn_free_buf(&c->msg, &c->msg_mr);
	free(c->ref);
	free(c->sges);
	free(c->wrs);
	free(c->slot_posted);
	c->ref = NULL;
	c->sges = NULL;
	c->wrs = NULL;
	c->slot_posted = NULL;
	if (c->cq) {
		if (c->cq_unacked)
			ibv_ack_cq_events(c->cq, c->cq_unacked);
		ibv_destroy_cq(c->cq);
	}
	c->cq = NULL;
	c->cq_unacked = 0;
	if (c->comp_ch)
		ibv_destroy_comp_channel(c->comp_ch);
	c->comp_ch = NULL;
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	c->pd = NULL;
	if (c->id)
		rdma_destroy_id(c->id);
	c->id = NULL;
	c->finished = true;
}

void probe_conn_free(struct probe_conn *c)
{
	if (!c)
		return;
	probe_conn_release(c);
	free(c);
}
