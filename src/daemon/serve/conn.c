/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn.c - the connection driver (see conn.h): admission (conn_admit.c)
 * and accept, CM events, completions, deadlines and teardown.
 *
 * conn.c turns CM events, work completions and deadline expiries into
 * conn_fsm events, moves the state with conn_set_state() (the one place
 * that changes it, and logs "old -> new"), and carries out the actions
 * the state machine asks for: its protocol's (through c->ops, chosen at
 * admission: conn_proto.h; conn.c names no protocol), liveness checks,
 * disconnect and teardown.  Failures stay with the connection; what ends
 * it is reported to conn_end() (conn_end.h), which alone decides and says
 * its outcome.
 *
 * The verbs objects, their completions and async errors are the RDMA
 * layer's (rdma_qp.h, rdma_cq.h, rdma_dev.h); work request ids are
 * rdma_wr.h's.
 *
 * Liveness: while conn_fsm_liveness_wanted() says so, a timer of
 * [timeouts] liveness runs; at its end the FSM posts one zero-length RDMA
 * WRITE (RDMA_WR_LIVE: no rkey, no peer CPU, no bytes, not an RDMA
 * operation of the session).  Its success re-arms the timer; a transport
 * retry exceeded on it, or on any of our work requests, is PEER_LOST:
 * result peer-unreachable, reaped at once.
 *
 * Teardown, whatever the path, in the layer's order: rdma_qp_disconnect
 * (QP to error), wait until every posted work request has completed or
 * flushed (bounded by the close deadline), then from a deferred callback
 * rdma_qp_destroy, and the cm_id last.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/acl_match.h"
#include "addr.h"
#include "clock.h"
#include "serve/conn.h"
#include "serve/conn_admit.h"
#include "serve/conn_end.h"
#include "serve/conn_log.h"
#include "serve/conn_post.h"
#include "serve/conn_proto.h"
#include "serve/conn_timer.h"
#include "container_of.h"
#include "core/log.h"

static void conn_cm_event(struct rdma_cm_handler *h,
			  const struct rdma_cm_ev *e);
static int conn_accept(struct conn *c);
static void conn_reject_accept(struct conn *c);

/* ---- state and deadline ------------------------------------------------ */

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
	conn_timer_liveness(c);
	return conn_timer_deadline(c);
}

/* ---- actions ----------------------------------------------------------- */

static void conn_disconnect(struct conn *c)
{
	int ret, flush;

	/* Also answers a peer's DREQ.  rdma_disconnect fails harmlessly if
	 * never connected or already disconnected; the QP goes to error
	 * either way so that every posted work request completes (flushed);
	 * if it could not, the close deadline ends the wait. */
	ret = rdma_qp_disconnect(&c->qp, &flush);
	if (ret)
		conn_log(c, LOG_DEBUG, NULL, "rdma_disconnect: %s (the peer "
			 "left first, or never connected)", strerror(-ret));
	if (flush)
		conn_log(c, LOG_WARNING, NULL, "cannot move the QP to the "
			 "error state: %s; its posted work requests may never "
			 "flush, the close deadline bounds the wait",
			 strerror(-flush));
}

static int conn_drained(const struct conn *c)
{
	return c->qp.posted_send == 0 && c->qp.posted_recv == 0;
}

/* Carry out ACTS; returns -errno of the first failing post. */
static int conn_do(struct conn *c, unsigned int acts,
		   const struct conn_fsm *prev)
{
	const struct conn_proto_act *pa;
	char s[64];
	int ret = 0;

	if (acts & CONN_ACT_ACCEPT)
		ret = conn_accept(c);
	if (acts & CONN_ACT_REJECT)
		conn_reject_accept(c);
	if (acts & CONN_ACT_LEFT_CLEAN)
		conn_end(c, CONN_CAUSE_CLIENT_LEFT, 0, NULL,
			 "client disconnected");
	if (acts & CONN_ACT_LEFT_ABORTED)
		conn_end(c, CONN_CAUSE_CLIENT_LEFT_EARLY, 0, NULL,
			 "client left in state %s",
			 conn_fsm_str(prev, s, sizeof(s)));
	for (pa = c->ops->acts; !ret && pa->act; pa++)
		if (acts & pa->act)
			ret = pa->fn(c);
	if (!ret && (acts & CONN_ACT_POST_LIVENESS))
		ret = conn_post_liveness(c);
	if (acts & CONN_ACT_DISCONNECT)
		conn_disconnect(c);
	if (acts & CONN_ACT_DESTROY)
		event_active(c->free_ev, 0, 0);
	return ret;
}

/* Feed one event to the state machine and carry out what it says. */
static void conn_fire(struct conn *c, enum conn_event ev)
{
	struct conn_fsm prev;
	struct conn_step st;
	char s[64], tell[PROTO_ABORT_TEXT_MAX + 1];
	int ret, armed;

	for (;;) {
		if (conn_fsm_step(&c->fsm, ev, &st)) {
			if (c->fsm.life == CONN_LIFE_CLOSED)
				return;
			conn_log(c, LOG_WARNING, NULL, "protocol violation: "
				 "event %s not allowed in state %s; "
				 "disconnecting", conn_event_name(ev),
				 conn_fsm_str(&c->fsm, s, sizeof(s)));
			snprintf(tell, sizeof(tell), "unexpected %s",
				 conn_event_name(ev));
			conn_end(c, CONN_CAUSE_PROTOCOL, 0, tell,
				 "event %s in state %s", conn_event_name(ev), s);
			ev = CONN_EV_RECV_BAD;
			continue;
		}
		prev = c->fsm;
		armed = conn_set_state(c, &st.next, ev);
		ret = conn_do(c, st.actions, &prev);
		if (ret && (st.actions & CONN_ACT_ACCEPT)) {
			ev = CONN_EV_ACCEPT_FAILED;	/* logged */
			continue;
		}
		if (ret) {
			conn_log(c, LOG_WARNING, NULL, "cannot post work "
				 "request: %s; disconnecting",
				 strerror(-ret));
			conn_end(c, CONN_CAUSE_POST_FAILED, 0, NULL, "posting a "
				 "work request failed: %s", strerror(-ret));
			ev = CONN_EV_WC_ERROR;
			continue;
		}
		if (armed && c->fsm.life != CONN_LIFE_CLOSED) {
			/* No bound on what it waits for: end it (while
			 * draining, stop waiting for the flushes). */
			conn_log(c, LOG_WARNING, NULL, "cannot arm the %s "
				 "deadline; ending the connection",
				 conn_deadline_name(conn_fsm_deadline(&c->fsm)));
			conn_end(c, CONN_CAUSE_INTERNAL, 0, NULL, "deadline "
				 "timer could not be armed");
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

/*
 * The transport gave up on one of our work requests: the peer stopped
 * acknowledging (crash, partition, cable).  Nothing more reaches it, so
 * no ABORT: reap the connection now.
 */
static void conn_peer_lost(struct conn *c, enum rdma_wr_kind kind)
{
	double quiet = (double)(clock_now_ns() - c->t_heard) / 1e9;

	conn_log(c, LOG_WARNING, NULL, "peer %s stopped acknowledging: "
		 "transport retry exceeded on the %s; connection reaped "
		 "after %.1f s without a sign of life (connected %.1f s)",
		 c->peer, rdma_wr_str(kind), quiet, conn_log_age(c));
	conn_end(c, CONN_CAUSE_PEER_LOST, 0, NULL, "transport retry exceeded "
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
		conn_end(c, CONN_CAUSE_COMPLETION, 0, NULL, "%s",
			 ibv_wc_status_str(wc->status));
		conn_fire(c, CONN_EV_WC_ERROR);
		return;
	}
	/* Every success needed the peer: a sign of life. */
	c->t_heard = clock_now_ns();

	switch (kind) {
	case RDMA_WR_RECV:
		ev = c->ops->recv(c, conn_post_recv_slot(c,
					  rdma_wr_idx(wc->wr_id)), wc->byte_len);
		if (conn_fsm_recv_repost(&c->fsm)) {
			int ret = conn_post_recv(c, rdma_wr_idx(wc->wr_id));

			if (ret) {
				conn_end(c, CONN_CAUSE_POST_FAILED, 0, NULL,
					 "repost receive: %s", strerror(-ret));
				ev = CONN_EV_WC_ERROR;
			}
		}
		conn_fire(c, ev);
		break;
	case RDMA_WR_SEND:
		conn_fire(c, CONN_EV_SEND_COMPLETE);
		break;
	case RDMA_WR_READ:
	case RDMA_WR_WRITE:
		conn_fire(c, c->ops->rdma_done(c, kind));
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
		conn_end(c, CONN_CAUSE_INTERNAL, 0, NULL, "unknown wr_id");
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

/* ---- CM and device events ---------------------------------------------- */

static void conn_cm_event(struct rdma_cm_handler *h,
			  const struct rdma_cm_ev *e)
{
	struct conn *c = container_of(h, struct conn, cmh);

	switch (e->type) {
	case RDMA_CM_EVENT_ESTABLISHED:
		/* Once per connection (a client's first message may
		 * complete before this event: the state says nothing). */
		stats_established(c->s->stats, conn_stats_proto(c),
				  clock_since_ns(c->t_open));
		c->t_heard = clock_now_ns();
		conn_log_qp(c);
		conn_fire(c, CONN_EV_ESTABLISHED);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		/* Clean or aborted: the state machine says (LEFT_*). */
		conn_fire(c, CONN_EV_DISCONNECTED);
		break;
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		conn_log(c, LOG_WARNING, NULL, "RDMA device removed");
		rdma_dev_forget(c->s->devs, c->cm_id->verbs);
		conn_end(c, CONN_CAUSE_DEVICE_REMOVED, 0, NULL,
			 "device removed");
		conn_fire(c, CONN_EV_FATAL);
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		conn_log(c, LOG_WARNING, NULL, "%s (status %d)",
			 rdma_event_str(e->type), e->status);
		conn_end(c, CONN_CAUSE_CONNECT_ERROR, 0, NULL, "%s",
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
	conn_end(c, CONN_CAUSE_DEVICE_ERROR, 0, NULL, "%s", what);
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
		conn_end(c, CONN_CAUSE_SHUTDOWN, s->cfg->drain_timeout_ms, NULL,
			 "rdmad stopping");
		conn_fire(c, CONN_EV_SHUTDOWN);
	}
}

unsigned int conn_shutdown_mesh(struct conn_set *s)
{
	struct conn *c, *tmp;
	unsigned int n = 0;

	TAILQ_FOREACH_SAFE(c, &s->list, link, tmp) {
		if (!c->fsm.mesh)
			continue;
		conn_end(c, CONN_CAUSE_SHUTDOWN, 0, NULL, "rdmad stopping");
		conn_fire(c, CONN_EV_SHUTDOWN);
		n++;
	}
	return n;
}

/* ---- setup and teardown -------------------------------------------- */

/* Free everything, in the layer's order; the cm_id goes last. */
static void conn_release(struct conn *c)
{
	conn_timer_free(c);
	if (c->free_ev)
		event_free(c->free_ev);
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

	if (!conn_drained(c))
		conn_log(c, LOG_DEBUG, NULL, "%u send and %u receive work "
			 "requests not flushed; destroying anyway",
			 c->qp.posted_send, c->qp.posted_recv);
	conn_end_close(c);
	conn_release(c);
	if (s->gone)
		s->gone(s->arg);
}

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

	if (c->ops->setup) {
		ret = c->ops->setup(c);
		if (ret)
			return ret;
	}

	for (i = 0; i < CONN_RECV_DEPTH; i++) {
		ret = conn_post_recv(c, i);
		if (ret)
			return ret;
	}

	return 0;
}

/* Accept E: the protocol's private data (the native WELCOME). */
static int conn_accept_req(struct conn *c, const struct rdma_cm_ev *e)
{
	uint8_t pdata[PROTO_ACCEPT_PDATA_MAX];
	int n;

	n = c->ops->accept_pdata(c, pdata, sizeof(pdata));
	if (n < 0)
		return n;
	/* Incoming READs (the client's) and outgoing ones (ours) within
	 * what the peer and the device allow; our QP, our retry budget. */
	return rdma_qp_accept(&c->qp, e, &c->dev->attr, n ? pdata : NULL,
			      (uint8_t)n);
}

/* CONN_ACT_ACCEPT: the connection's verbs objects, buffers and receives,
 * then the accept of its request.  0 or -errno (logged). */
static int conn_accept(struct conn *c)
{
	int ret;

	ret = conn_setup(c);
	if (ret) {
		conn_log(c, LOG_WARNING, NULL, "cannot set up connection: %s; "
			 "rejected it (unless the client went away while "
			 "connecting, check memlock limits and device "
			 "resources)", strerror(-ret));
		return ret;
	}
	c->accepting = 1;
	ret = conn_accept_req(c, c->req);
	if (ret)
		conn_log(c, LOG_WARNING, NULL, "cannot accept: %s; released "
			 "it (a client that went away while connecting looks "
			 "like this)", strerror(-ret));
	return ret;
}

/* CONN_ACT_REJECT: the accept failed; nothing was announced.  The owner
 * of the request frees the connection (conn_connect_request). */
static void conn_reject_accept(struct conn *c)
{
	uint8_t pdata[PROTO_REJECT_PDATA_MAX];
	int n;

	n = proto_reject_encode(PROTO_REJ_RESOURCES, "server could not "
				"allocate resources, retry later", pdata,
				sizeof(pdata));
	rdma_reject(c->cm_id, pdata, (uint8_t)(n > 0 ? n : 0));
	stats_rejected(c->s->stats, c->accepting ? STATS_REJ_ACCEPT_FAILED :
			STATS_REJ_RESOURCES);
	c->rejected = 1;
}

/* Refuse the request on ID: tell the client WHY in its private data. */
static void conn_reject(struct conn_set *s, struct rdma_cm_id *id,
			const char *peer, enum stats_reject why,
			const char *text)
{
	uint8_t reason = conn_admit_wire_reason(why);
	uint8_t pdata[PROTO_REJECT_PDATA_MAX];
	struct log_ctx ctx = {
		.peer = peer, .bytes = -1, .result = "rejected",
		.msgid = LOG_MSGID_CONN_REJECT,
	};
	int n;

	n = proto_reject_encode(reason, text, pdata, sizeof(pdata));
	if (rdma_reject(id, pdata, (uint8_t)(n > 0 ? n : 0)))
		log_debug("rdma_reject: %s", strerror(errno));
	rdma_destroy_id(id);
	stats_rejected(s->stats, why);
	log_conn(LOG_NOTICE, &ctx, "rejected (%s): %s",
		 proto_reject_reason_str(reason), text);
}

/* Live connections from the host of SA. */
static unsigned int conn_count_host(struct conn_set *s,
				    const struct sockaddr *sa)
{
	unsigned int n = 0;
	struct conn *c;

	TAILQ_FOREACH(c, &s->list, link)
		if (c->counted &&
		    acl_match_same_host((struct sockaddr *)&c->peer_addr, sa))
			n++;
	return n;
}

void conn_connect_request(struct conn_set *s, const struct rdma_cm_ev *e)
{
	const struct rdmad_config *cfg = s->cfg;
	struct sockaddr *sa = rdma_get_peer_addr(e->id);
	struct conn_admit_req q = {
		.cfg = cfg,
		.peer = sa,
		.pdata = e->pdata,
		.pdata_len = e->pdata_len,
		.stopping = s->stopping,
		.n_conns = conn_set_count(s),
		.registered = rdma_buf_registered(),
		.ctl_len = CONN_CTL_LEN,
	};
	struct conn_admit a;
	char peer[INET6_ADDRSTRLEN + 8];
	struct conn *c;
	int ret;

	addr_str(sa, peer, sizeof(peer));
	if (cfg->max_per_host)
		q.n_host = conn_count_host(s, sa);
	if (!conn_admit(&q, &a)) {
		conn_reject(s, e->id, peer, a.why, a.text);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		conn_reject(s, e->id, peer, STATS_REJ_RESOURCES,
			    "server out of memory");
		return;
	}
	c->s = s;
	c->ops = conn_proto_of(a.kind);
	conn_end_init(&c->end);
	c->id = ++s->next_id;
	c->cm_id = e->id;
	c->cmh.event = conn_cm_event;
	rdma_cm_id_handler(e->id, &c->cmh);
	memcpy(c->peer, peer, sizeof(c->peer));
	if (sa && (sa->sa_family == AF_INET || sa->sa_family == AF_INET6))
		memcpy(&c->peer_addr, sa, sa->sa_family == AF_INET ?
		       sizeof(struct sockaddr_in) :
		       sizeof(struct sockaddr_in6));
	c->t_open = clock_now_ns();
	c->t_heard = c->t_open;
	c->ops->init(c, &a);

	/* The timers first: the state machine arms them from its first
	 * step on. */
	c->free_ev = event_new(s->base, -1, 0, conn_free_cb, c);
	ret = c->free_ev ? conn_timer_init(c, conn_fire) : -ENOMEM;
	if (ret) {
		conn_log(c, LOG_WARNING, NULL, "cannot set up connection: %s; "
			 "rejected it", strerror(-ret));
		conn_reject_accept(c);
		conn_release(c);
		return;
	}
	c->req = e;
	conn_fire(c, CONN_EV_CONNECT_REQUEST);
	c->req = NULL;
	if (c->rejected) {
		conn_release(c);
		return;
	}

	TAILQ_INSERT_TAIL(&s->list, c, link);
	c->linked = 1;
	c->counted = 1;
	stats_accepted(s->stats, conn_stats_proto(c));
	c->ops->opened(c);
}
