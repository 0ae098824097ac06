/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client.c - the client connection's driver (see rdma_client.h).
 *
 * CM events (from the embedder's channel, through our handler in
 * rdma_client_cm.c), completions (rdma_qp's callback: its channel in the
 * loop, or rdma_client_poll), verification results and timer expiries
 * become RDMA_CLIENT_EV_* for the state machine; rdma_client_act()
 * carries out the actions it returns, the session's through its
 * protocol's table (struct rdma_client_proto: native, mesh or rping,
 * rdma_client_proto.c), naming none of them.
 * Resources live until rdma_client_release, which frees whatever exists
 * in the layer's one teardown order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "rdma_client.h"
#include "rdma_client_cm.h"
#include "rdma_client_conn.h"
#include "rdma_client_proto.h"
#include "rdma_dev.h"
#include "rdma_log.h"

#define RDMA_CLIENT_RESOLVE_GRACE_MS	1000	/* past rdma_cm's timeout */

/* What a transport retry exceeded means, in words (ASCII: --json escapes
 * other bytes one by one). */
#define RDMA_CLIENT_RETRY_EXC_TEXT "transport retry exceeded: the peer " \
	"stopped acknowledging; packet loss, a partition, or an MTU " \
	"mismatch on the path"

/* ---- the state machine's glue ---------------------------------------- */

static void rdma_client_transition(void *arg, enum rdma_client_state from,
				   enum rdma_client_state to,
				   enum rdma_client_event ev)
{
	struct rdma_client *c = arg;

	rdma_client_conn_log(c, LOG_INFO, "%s -> %s (%s)",
			     rdma_client_fsm_state_str(from),
			     rdma_client_fsm_state_str(to),
			     rdma_client_fsm_event_str(ev));
	if (c->ops->state)
		c->ops->state(c->arg, from, to, ev);
}

static void rdma_client_arm_timer(struct rdma_client *c)
{
	uint32_t ms = c->o.timeout_ms;
	struct timeval tv;

	/* Every completion of an operation "restarts" the deadline; it
	 * does so by moving c->progress, not the libevent timer, which is
	 * armed once when OPS begins. */
	if (c->fsm.state == RDMA_CLIENT_ST_OPS ||
	    c->fsm.state == RDMA_CLIENT_ST_BW_WRITE) {
		if (c->ops_deadline)
			return;
		c->ops_deadline = true;
		c->progress = clock_now_ns();
	} else {
		c->ops_deadline = false;
	}
	if (c->fsm.state == RDMA_CLIENT_ST_ADDR ||
	    c->fsm.state == RDMA_CLIENT_ST_ROUTE)
		ms += RDMA_CLIENT_RESOLVE_GRACE_MS;
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	if (evtimer_add(c->timer, &tv))
		rdma_client_conn_log(c, LOG_ERR, "cannot arm the step "
				     "deadline");
}

/* The end, told from the loop (rdma_client_report.c). */
static void rdma_client_finish(struct rdma_client *c)
{
	if (c->finished)
		return;
	c->finished = true;
	evtimer_del(c->timer);
	evtimer_del(c->dur_timer);
	if (c->started) {
		rdma_client_outcome(c, &c->rep_out);
		rdma_client_report_post(c, RDMA_CLIENT_REPORT_DONE);
	}
}

/* ---- resources and connect ------------------------------------------- */

static void rdma_client_wc(void *arg, const struct ibv_wc *wc);
static void rdma_client_qp_fatal(void *arg, const char *what);

static const struct rdma_qp_ops rdma_client_qp_ops = {
	.wc = rdma_client_wc,
	.fatal = rdma_client_qp_fatal,
};

/*
 * PD, CQ, QP (in INIT), buffers, pre-posted receives.  On failure -errno
 * with c->error set; whatever was made goes with rdma_client_release.
 */
static int rdma_client_setup(struct rdma_client *c)
{
	const struct rdma_client_opts *o = &c->o;
	struct rdma_qp_attr qa = {
		.send_depth = o->depth + RDMA_CLIENT_SQ_EXTRA,
		.recv_depth = RDMA_CLIENT_RECV_SLOTS,
		.polled = o->busy_poll,
	};
	const char *step = "?";
	uint32_t i;
	int ret;

	ret = rdma_qp_create(&c->q, c->base, c->id, &qa, &rdma_client_qp_ops,
			     c, &step);
	if (ret) {
		rdma_client_conn_error(c, "%s: %s", step, strerror(-ret));
		return ret;
	}
	c->qp = true;
	ret = rdma_qp_buf(&c->q, &c->msg,
			  (RDMA_CLIENT_RECV_SLOTS + 1) * RDMA_CLIENT_SLOT_LEN,
			  IBV_ACCESS_LOCAL_WRITE);
	if (ret) {
		rdma_client_conn_error(c, "cannot allocate or register the "
				       "message buffers: %s", strerror(-ret));
		return ret;
	}
	ret = c->proto->bufs(c);
	if (ret)
		return ret;
	for (i = 0; i < RDMA_CLIENT_RECV_SLOTS; i++) {
		ret = rdma_client_conn_post_recv(c, i);
		if (ret) {
			rdma_client_conn_error(c, "ibv_post_recv: %s",
					       strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* The device's limits on READs in flight: from the embedder's registry,
 * or asked; 1 if neither answers. */
static void rdma_client_dev_attr(struct rdma_client *c,
				 struct ibv_device_attr *da)
{
	struct rdma_dev *dev = NULL;

	if (c->o.devs)
		dev = rdma_dev_get(c->o.devs, c->id->verbs);
	if (dev) {
		*da = dev->attr;
		return;
	}
	if (!c->o.devs && !ibv_query_device(c->id->verbs, da))
		return;
	memset(da, 0, sizeof(*da));
	da->max_qp_init_rd_atom = 1;
	da->max_qp_rd_atom = 1;
}

static enum rdma_client_event rdma_client_connect(struct rdma_client *c)
{
	uint8_t hello[PROTO_HELLO_LEN];
	struct ibv_device_attr da;
	uint8_t len = 0;
	int ret;

	if (rdma_client_setup(c))
		return RDMA_CLIENT_EV_LOCAL_ERR;
	if (c->proto->hello) {
		ret = c->proto->hello(c, hello, sizeof(hello));
		if (ret < 0) {
			rdma_client_conn_error(c, "cannot encode hello: %s",
					       strerror(-ret));
			return RDMA_CLIENT_EV_LOCAL_ERR;
		}
		len = (uint8_t)ret;
	}
	rdma_client_dev_attr(c, &da);
	ret = rdma_qp_connect(&c->q, &da, len ? hello : NULL, len);
	if (ret) {
		rdma_client_conn_error(c, "rdma_connect: %s", strerror(-ret));
		return RDMA_CLIENT_EV_CONN_ERR;
	}
	return RDMA_CLIENT_EV_NONE;
}

/*
 * The server accepted: our QP to RTR and RTS, rdma_establish (the
 * connection is up: no ESTABLISHED event follows), then the welcome.
 */
static enum rdma_client_event rdma_client_establish(struct rdma_client *c)
{
	char qpd[160];
	int ret;

	ret = rdma_qp_establish(&c->q);
	if (ret) {
		rdma_client_conn_reason(c, "connect error");
		rdma_client_conn_error(c, "connect error: cannot establish the "
				       "connection: %s", strerror(-ret));
		return RDMA_CLIENT_EV_CONN_ERR;
	}
	c->t.established = clock_now_ns();
	rdma_qp_describe(&c->q, qpd, sizeof(qpd));
	rdma_client_conn_log(c, LOG_DEBUG, "%s", qpd);
	if (!c->proto->established)
		return RDMA_CLIENT_EV_ESTABLISHED;
	return c->proto->established(c);
}

/* opts.tos, before the route is resolved: the route carries it. */
static enum rdma_client_event rdma_client_tos(struct rdma_client *c)
{
	int ret;

	if (c->o.tos < 0)
		return RDMA_CLIENT_EV_NONE;
	ret = rdma_cm_id_tos(c->id, (uint8_t)c->o.tos);
	if (ret) {
		rdma_client_conn_error(c, "cannot set TOS 0x%02x: %s",
				       (unsigned int)c->o.tos, strerror(-ret));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	rdma_client_conn_log(c, LOG_INFO, "TOS 0x%02x (DSCP %u, ECN %u)",
			     (unsigned int)c->o.tos,
			     (unsigned int)c->o.tos >> 2,
			     (unsigned int)c->o.tos & 3);
	return RDMA_CLIENT_EV_NONE;
}

/* ---- actions --------------------------------------------------------- */

/* The protocol's actions of ST: its connection's steps (STEPS; a failed
 * one ends them) or the others.  The last event, or RDMA_CLIENT_EV_NONE. */
static enum rdma_client_event rdma_client_acts(struct rdma_client *c,
					       const struct rdma_client_step *st,
					       bool steps)
{
	enum rdma_client_event ev = RDMA_CLIENT_EV_NONE, e;
	const struct rdma_client_proto_act *pa;

	for (pa = c->proto->acts; pa->bit; pa++) {
		if (!(st->act & pa->bit) || pa->step != steps)
			continue;
		e = pa->fn(c, st);
		if (e == RDMA_CLIENT_EV_NONE)
			continue;
		ev = e;
		if (steps)
			break;
	}
	return ev;
}

static enum rdma_client_event rdma_client_act(struct rdma_client *c,
					      const struct rdma_client_step *st)
{
	const struct rdma_client_opts *o = &c->o;
	enum rdma_client_event ev = RDMA_CLIENT_EV_NONE;
	uint32_t a = st->act, ms;
	struct timeval tv;
	int ret;

	if (a & RDMA_CLIENT_ACT_ARM_TIMER)
		rdma_client_arm_timer(c);
	if (a & RDMA_CLIENT_ACT_RESOLVE_ADDR) {
		c->t.start = clock_now_ns();
		if (rdma_resolve_addr(c->id, o->src.ss_family ?
				      (struct sockaddr *)&o->src : NULL,
				      (struct sockaddr *)&o->dst,
				      (int)o->timeout_ms)) {
			rdma_client_conn_error(c, "rdma_resolve_addr: %s",
					       strerror(errno));
			ev = RDMA_CLIENT_EV_ADDR_ERR;
		}
	}
	if (a & RDMA_CLIENT_ACT_RESOLVE_ROUTE) {
		ev = rdma_client_tos(c);
		if (ev != RDMA_CLIENT_EV_NONE)
			return ev;
		if (rdma_resolve_route(c->id, (int)o->timeout_ms)) {
			rdma_client_conn_error(c, "rdma_resolve_route: %s",
					       strerror(errno));
			ev = RDMA_CLIENT_EV_ROUTE_ERR;
		}
	}
	if (a & RDMA_CLIENT_ACT_CONNECT)
		ev = rdma_client_connect(c);
	if (a & RDMA_CLIENT_ACT_ESTABLISH)
		ev = rdma_client_establish(c);
	if (ev == RDMA_CLIENT_EV_NONE)
		ev = rdma_client_acts(c, st, true);
	if (ev != RDMA_CLIENT_EV_NONE)
		return ev;
	if (a & RDMA_CLIENT_ACT_ARM_DURATION) {
		/* libevent counts a timeout from the time it cached when this
		 * loop iteration began: after draining a deep pipeline of the
		 * kind before (hundreds of completions, slow under a sanitizer
		 * or a starved CPU) that is long ago, and the kind would end
		 * early.  Count it from now. */
		event_base_update_cache_time(c->base);
		ms = c->fsm.state == RDMA_CLIENT_ST_BW_WRITE ? c->bw_ms :
							     o->duration_ms;
		tv.tv_sec = ms / 1000;
		tv.tv_usec = (ms % 1000) * 1000;
		if (evtimer_add(c->dur_timer, &tv))
			rdma_client_conn_log(c, LOG_ERR, "cannot arm the "
					     "duration");
	}
	/* The protocol's: posts, checks, messages, reports (posted). */
	ev = rdma_client_acts(c, st, false);
	if (a & RDMA_CLIENT_ACT_DISCONNECT) {
		int flush = 0;

		c->t.disconnect = clock_now_ns();
		ret = c->qp ? rdma_qp_disconnect(&c->q, &flush) : -ENOTCONN;
		if (flush)
			rdma_client_conn_log(c, LOG_WARNING, "cannot move the "
					     "QP to the error state: %s; the "
					     "step deadline bounds the wait",
					     strerror(-flush));
		if (ret) {
			/* Not connected (any more): nothing to wait for. */
			rdma_client_conn_log(c, LOG_INFO, "rdma_disconnect: %s",
					     strerror(-ret));
			ev = RDMA_CLIENT_EV_DISCONNECTED;
		}
	}
	if (a & RDMA_CLIENT_ACT_STOP_TIMER) {
		evtimer_del(c->timer);
		c->ops_deadline = false;	/* the next sample arms it */
	}
	if (a & RDMA_CLIENT_ACT_FINISH)
		rdma_client_finish(c);
	/* Told from the loop, after this transition (rdma_client_report.c):
	 * the embedder may ask for the next round from it. */
	if (a & RDMA_CLIENT_ACT_READY_REPORT)
		rdma_client_report_post(c, RDMA_CLIENT_REPORT_READY);
	return ev;
}

void rdma_client_feed(struct rdma_client *c, enum rdma_client_event ev)
{
	struct rdma_client_step st;
	enum rdma_client_state s;

	while (ev != RDMA_CLIENT_EV_NONE) {
		s = c->fsm.state;
		if (rdma_client_fsm_step(&c->fsm, ev, &st) < 0)
			rdma_client_conn_error(c, "protocol error: unexpected "
					       "%s in state %s",
					       rdma_client_fsm_event_str(ev),
					       rdma_client_fsm_state_str(s));
		ev = rdma_client_act(c, &st);
	}
}

/* ---- completions ----------------------------------------------------- */

static void rdma_client_wc_err(struct rdma_client *c,
			       const struct ibv_wc *wc)
{
	const char *kind = rdma_wr_str(rdma_wr_kind(wc->wr_id));

	/* Flushed work requests are normal once closing. */
	if (c->fsm.state == RDMA_CLIENT_ST_CLOSING ||
	    rdma_client_fsm_terminal(&c->fsm))
		return;
	if (wc->status == IBV_WC_RETRY_EXC_ERR) {
		rdma_client_conn_reason(c, "retry exceeded");
		rdma_client_conn_error(c, "%s failed: %s (status %d, vendor "
				       "error 0x%x)", kind,
				       RDMA_CLIENT_RETRY_EXC_TEXT, wc->status,
				       wc->vendor_err);
	}
	rdma_client_conn_error(c, "%s failed: %s (status %d, vendor error "
			       "0x%x)", kind, ibv_wc_status_str(wc->status),
			       wc->status, wc->vendor_err);
	rdma_client_feed(c, RDMA_CLIENT_EV_WC_ERR);
}

static void rdma_client_recv(struct rdma_client *c, const struct ibv_wc *wc)
{
	uint32_t idx = rdma_wr_idx(wc->wr_id), len;
	uint8_t buf[RDMA_CLIENT_SLOT_LEN];
	enum rdma_client_event ev;
	int ret;

	if (idx >= RDMA_CLIENT_RECV_SLOTS)
		return;
	len = wc->byte_len < RDMA_CLIENT_SLOT_LEN ? wc->byte_len :
						    RDMA_CLIENT_SLOT_LEN;
	memcpy(buf, c->msg.p + idx * RDMA_CLIENT_SLOT_LEN, len);
	ret = rdma_client_conn_post_recv(c, idx);
	if (ret) {
		rdma_client_conn_error(c, "ibv_post_recv: %s", strerror(-ret));
		rdma_client_feed(c, RDMA_CLIENT_EV_LOCAL_ERR);
		return;
	}
	ev = c->proto->msg(c, buf, len, wc->byte_len);
	rdma_client_feed(c, ev);
}

/* One of the protocol's RDMA READs or WRITEs completed; the embedder's
 * figure of it is bookkeeping and comes last. */
static void rdma_client_rdma_done(struct rdma_client *c,
				  const struct ibv_wc *wc)
{
	enum rdma_client_event ev;

	if (!c->proto->rdma_done)
		return;
	c->op_done.set = false;
	ev = c->proto->rdma_done(c, wc, clock_now_ns());
	rdma_client_feed(c, ev);
	if (c->op_done.set && c->ops->op)
		c->ops->op(c->arg, c->op_done.kind, c->o.size,
			   c->op_done.posted, c->op_done.done);
}

static void rdma_client_wc(void *arg, const struct ibv_wc *wc)
{
	struct rdma_client *c = arg;

	if (wc->status != IBV_WC_SUCCESS) {
		rdma_client_wc_err(c, wc);
		return;
	}
	switch (rdma_wr_kind(wc->wr_id)) {
	case RDMA_WR_RECV:
		rdma_client_recv(c, wc);
		break;
	case RDMA_WR_READ:
	case RDMA_WR_WRITE:
		rdma_client_rdma_done(c, wc);
		break;
	default:
		break;
	}
}

static void rdma_client_qp_fatal(void *arg, const char *what)
{
	struct rdma_client *c = arg;

	rdma_client_conn_error(c, "asynchronous error: %s", what);
	rdma_client_feed(c, RDMA_CLIENT_EV_WC_ERR);
}

int rdma_client_poll(struct rdma_client *c)
{
	int n;

	if (c->finished || !c->qp)
		return 0;
	n = rdma_qp_poll(&c->q);
	if (n < 0) {
		rdma_client_conn_error(c, "ibv_poll_cq failed");
		rdma_client_feed(c, RDMA_CLIENT_EV_LOCAL_ERR);
		return 0;
	}
	return n;
}

/* ---- timers ---------------------------------------------------------- */

static void rdma_client_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdma_client *c = arg;
	enum rdma_client_state s = c->fsm.state;
	uint32_t ms = c->o.timeout_ms;
	uint64_t now, due;
	struct timeval tv;
	bool read;

	(void)fd;
	(void)what;
	/* OPS, BW_WRITE: the deadline runs from the last completion. */
	if (c->ops_deadline &&
	    (s == RDMA_CLIENT_ST_OPS || s == RDMA_CLIENT_ST_VERIFY ||
	     s == RDMA_CLIENT_ST_BW_WRITE)) {
		now = clock_now_ns();
		due = c->progress + (uint64_t)ms * 1000000u;
		if (now < due) {
			due = (due - now) / 1000u + 1;	/* us */
			tv.tv_sec = (time_t)(due / 1000000u);
			tv.tv_usec = (suseconds_t)(due % 1000000u);
			if (!evtimer_add(c->timer, &tv))
				return;
		}
	}
	if (s == RDMA_CLIENT_ST_ADDR || s == RDMA_CLIENT_ST_ROUTE) {
		ms += RDMA_CLIENT_RESOLVE_GRACE_MS;
		rdma_client_conn_reason(c, "no answer");
	}
	read = c->fsm.cur_op == PROTO_OP_READ;
	if (s == RDMA_CLIENT_ST_OPS)
		rdma_client_conn_error(c, "RDMA %s %u of %u timed out after "
				       "%u.%03u s", read ? "READ" : "WRITE",
				       (read ? c->fsm.reads_done :
					       c->fsm.writes_done) + 1,
				       c->o.iters, ms / 1000, ms % 1000);
	else
		rdma_client_conn_error(c, "%s timed out after %u.%03u s",
				       rdma_client_fsm_state_step(s), ms / 1000,
				       ms % 1000);
	rdma_client_feed(c, RDMA_CLIENT_EV_TIMEOUT);
}

static void rdma_client_dur_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdma_client *c = arg;

	(void)fd;
	(void)what;
	if (c->fsm.state == RDMA_CLIENT_ST_BW_WRITE)
		rdma_client_conn_log(c, LOG_INFO, "bandwidth sample: %u ms "
				     "over, %u WRITEs in flight to complete",
				     c->bw_ms, c->fsm.bw_inflight);
	else
		rdma_client_conn_log(c, LOG_INFO, "duration over for the %ss",
				     c->fsm.cur_op == PROTO_OP_READ ? "READ" :
								      "WRITE");
	rdma_client_feed(c, RDMA_CLIENT_EV_STOP);
}

/* ---- life cycle ------------------------------------------------------ */

int rdma_client_new(struct rdma_client **out, struct event_base *base,
		    struct rdma_cm_chan *chan,
		    const struct rdma_client_opts *o,
		    const struct rdma_client_ops *ops, void *arg)
{
	struct rdma_client *c;
	int ret;

	if (o->tos < -1 || o->tos > 255)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->o = *o;
	c->o.name[sizeof(c->o.name) - 1] = '\0';
	c->proto = rdma_client_proto_of(&c->o);
	c->ops = ops;
	c->arg = arg;
	c->base = base;
	c->chan = chan;
	c->cmh.event = rdma_client_cm_event;
	c->proto->init(c);	/* the options its own, the machine set */
	c->fsm.on_transition = rdma_client_transition;
	c->fsm.arg = c;

	ret = -ENOMEM;
	c->timer = evtimer_new(base, rdma_client_timer_cb, c);
	c->dur_timer = evtimer_new(base, rdma_client_dur_cb, c);
	if (!c->timer || !c->dur_timer || rdma_client_report_init(c))
		goto err;
	ret = rdma_cm_id_new(chan, &c->cmh, &c->id);
	if (ret) {
		rdma_log(LOG_ERR, "rdma_create_id: %s", strerror(-ret));
		goto err;
	}
	*out = c;
	return 0;
err:
	rdma_client_free(c);
	return ret;
}

void rdma_client_start(struct rdma_client *c)
{
	if (c->started)
		return;
	c->started = true;
	rdma_client_feed(c, RDMA_CLIENT_EV_START);
}

void rdma_client_abort(struct rdma_client *c, const char *why)
{
	if (rdma_client_fsm_terminal(&c->fsm))
		return;
	rdma_client_conn_reason(c, why);
	rdma_client_conn_error(c, "%s", why);
	rdma_client_feed(c, RDMA_CLIENT_EV_LOCAL_ERR);
}

bool rdma_client_finished(const struct rdma_client *c)
{
	return c->finished;
}

void rdma_client_outcome(const struct rdma_client *c,
			 struct rdma_client_outcome *o)
{
	const struct rdma_client_fsm *f = &c->fsm;

	memset(o, 0, sizeof(*o));
	o->fail = f->fail;
	if (!rdma_client_fsm_terminal(f) && f->fail == RDMA_CLIENT_FAIL_NONE)
		o->fail = RDMA_CLIENT_FAIL_LOCAL;	/* never finished */
	o->error = c->error[0] ? c->error : rdma_client_fsm_fail_str(o->fail);
	o->reason = c->reason;
	o->fail_state = f->fail != RDMA_CLIENT_FAIL_NONE ? f->fail_state :
							   f->state;
	o->last_state = f->state;
	o->times = &c->t;
	o->seed = c->o.seed;
	o->have_welcome = c->have_welcome;
	o->conn_id = c->welcome.conn_id;
	o->max_size = c->welcome.max_size;
	o->max_iters = c->welcome.max_iters;
	o->write_crc = c->write_crc;
	o->reads_verified = f->reads_done;
	o->writes_done = f->writes_done;
	o->pings_verified = f->pings_done;
	o->rounds = f->rounds;
	o->rounds_bad = f->rounds_bad;
}

/* ---- a mesh session: the embedder's requests ------------------------ */

/* Whether the embedder may ask C for a round or its close now. */
static int rdma_client_mesh_ready(const struct rdma_client *c)
{
	if (!c->o.mesh)
		return -ENOTCONN;
	switch (c->fsm.state) {
	case RDMA_CLIENT_ST_READY:
		return c->finished ? -ENOTCONN : 0;
	case RDMA_CLIENT_ST_ROUND_WRITE:
	case RDMA_CLIENT_ST_ROUND_READ:
	case RDMA_CLIENT_ST_ROUND_CHECK:
	case RDMA_CLIENT_ST_BW_WRITE:
		return -EBUSY;
	default:
		return -ENOTCONN;
	}
}

int rdma_client_round(struct rdma_client *c, uint32_t size)
{
	int ret = rdma_client_mesh_ready(c);

	if (ret)
		return ret;
	if (!size || size > c->o.size || size > c->desc.len)
		return -EINVAL;
	memset(&c->rnd, 0, sizeof(c->rnd));
	c->rnd.size = size;
	rdma_client_feed(c, RDMA_CLIENT_EV_ROUND);
	return 0;
}

int rdma_client_bw(struct rdma_client *c, uint32_t size,
		   uint32_t duration_ms)
{
	int ret = rdma_client_mesh_ready(c);

	if (ret)
		return ret;
	if (!size || size > c->o.size || size > c->desc.len || !duration_ms)
		return -EINVAL;
	memset(&c->bw, 0, sizeof(c->bw));
	c->bw.size = size;
	c->bw_ms = duration_ms;
	c->bw_first = c->bw_last = 0;
	rdma_client_feed(c, RDMA_CLIENT_EV_BW);
	return 0;
}

int rdma_client_close(struct rdma_client *c)
{
	int ret = rdma_client_mesh_ready(c);

	if (ret)
		return ret;
	rdma_client_conn_log(c, LOG_INFO, "closing after %u rounds",
			     c->fsm.rounds);
	rdma_client_feed(c, RDMA_CLIENT_EV_CLOSE);
	return 0;
}
