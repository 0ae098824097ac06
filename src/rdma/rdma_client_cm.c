/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_cm.c - the client connection's CM events (see
 * rdma_client_cm.h): each becomes an event of the state machine, with
 * the words an operator reads when it is a failure.
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <string.h>

#include "clock.h"
#include "container_of.h"
#include "rdma_client_cm.h"
#include "rdma_client_conn.h"
#include "rdma_log.h"

static enum rdma_client_event
rdma_client_cm_rejected(struct rdma_client *c, const struct rdma_cm_ev *e)
{
	struct proto_reject rej;
	const char *why = NULL, *reason;
	const struct sockaddr_in *sin = (const void *)&c->o.dst;
	size_t n;

	if (e->status == RDMA_CM_REJ_INVALID_SERVICE_ID) {
		rdma_client_conn_error(c, "connection refused: nothing listens "
				       "on port %u", ntohs(sin->sin_port));
		rdma_client_conn_reason(c, "refused");
		return RDMA_CLIENT_EV_CONN_ERR;
	}
	if (e->status != RDMA_CM_REJ_CONSUMER_DEFINED) {
		rdma_client_conn_reason(c, "rejected by the CM");
		rdma_client_conn_error(c, "connection rejected by the peer's "
				       "CM (reason %d)", e->status);
		return RDMA_CLIENT_EV_CONN_ERR;
	}
	if (proto_classify(e->pdata, e->pdata_len) != PROTO_KIND_NATIVE) {
		rdma_client_conn_error(c, "rejected by server (no reason "
				       "given)");
	} else if (proto_reject_decode(e->pdata, e->pdata_len, &rej, &why)) {
		rdma_client_conn_error(c, "rejected by server (unreadable "
				       "reason: %s)", why);
	} else if (c->o.mesh &&
		   rdma_client_fsm_mesh_refused(rej.reason, rej.text)) {
		rdma_client_conn_reason(c, proto_reject_reason_str(rej.reason));
		rdma_client_conn_error(c, "server does not support mesh "
				       "sessions (rdmad before 0.2)");
	} else if (rej.text[0]) {
		reason = proto_reject_reason_str(rej.reason);
		rdma_client_conn_reason(c, reason);
		/* "busy: 64/64 connections"; a text that already starts
		 * with the reason is not prefixed twice. */
		n = strlen(reason);
		if (!strncmp(rej.text, reason, n) && rej.text[n] == ':')
			rdma_client_conn_error(c, "rejected by server: %s",
					       rej.text);
		else
			rdma_client_conn_error(c, "rejected by server: %s: %s",
					       reason, rej.text);
	} else {
		rdma_client_conn_reason(c, proto_reject_reason_str(rej.reason));
		rdma_client_conn_error(c, "rejected by server: %s",
				       proto_reject_reason_str(rej.reason));
	}
	return RDMA_CLIENT_EV_REJECTED;
}

/* Which device and source address rdma_cm picked. */
static void rdma_client_cm_log_local(struct rdma_client *c)
{
	struct sockaddr *sa = rdma_get_local_addr(c->id);
	char host[INET6_ADDRSTRLEN] = "?";
	const char *dev = "?";

	if (c->o.log_prio < LOG_INFO)
		return;
	if (sa)
		getnameinfo(sa, sa->sa_family == AF_INET6 ?
			    sizeof(struct sockaddr_in6) :
			    sizeof(struct sockaddr_in), host, sizeof(host),
			    NULL, 0, NI_NUMERICHOST);
	if (c->id->verbs)
		dev = ibv_get_device_name(c->id->verbs->device);
	rdma_client_conn_log(c, LOG_INFO, "local address %s on %s port %u",
			     host, dev, c->id->port_num);
}

static void rdma_client_cm_disconnected(struct rdma_client *c)
{
	/* Completions that arrived before the disconnect count: all of
	 * them (one poll takes at most RDMA_CQ_ROUNDS full batches). */
	while (c->qp && rdma_qp_poll(&c->q) > 0)
		;
	c->t.closed = clock_now_ns();
	if (!rdma_client_fsm_terminal(&c->fsm) &&
	    c->fsm.state != RDMA_CLIENT_ST_CLOSING) {
		if (c->o.rping && c->fsm.state == RDMA_CLIENT_ST_RPING_SRC)
			rdma_client_conn_error(c, "server disconnected during "
					       "ping %u (is its buffer smaller "
					       "than %u bytes? start rping -s "
					       "with -S)",
					       c->fsm.pings_done + 1,
					       c->o.size);
		else
			rdma_client_conn_error(c, "server disconnected during "
					       "%s", rdma_client_fsm_state_step(
						       c->fsm.state));
	}
	rdma_client_feed(c, RDMA_CLIENT_EV_DISCONNECTED);
}

/* An event's errno: -STATUS when it holds one, else DFLT. */
static int rdma_client_cm_status(int status, int dflt)
{
	return status < 0 ? -status : dflt;
}

void rdma_client_cm_event(struct rdma_cm_handler *h,
			  const struct rdma_cm_ev *e)
{
	struct rdma_client *c = container_of(h, struct rdma_client, cmh);
	const char *why;

	rdma_client_conn_log(c, LOG_INFO, "CM event %s, status %d",
			     rdma_event_str(e->type), e->status);
	switch (e->type) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		c->t.addr = clock_now_ns();
		rdma_client_cm_log_local(c);
		rdma_client_feed(c, RDMA_CLIENT_EV_ADDR_OK);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
		rdma_client_conn_reason(c, "unreachable");
		rdma_client_conn_error(c, "address resolution failed: %s",
				       strerror(rdma_client_cm_status(e->status,
				       EHOSTUNREACH)));
		rdma_client_feed(c, RDMA_CLIENT_EV_ADDR_ERR);
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		c->t.route = clock_now_ns();
		rdma_client_feed(c, RDMA_CLIENT_EV_ROUTE_OK);
		break;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		rdma_client_conn_reason(c, "unreachable");
		rdma_client_conn_error(c, "route resolution failed: %s",
				       strerror(rdma_client_cm_status(e->status,
				       EHOSTUNREACH)));
		rdma_client_feed(c, RDMA_CLIENT_EV_ROUTE_ERR);
		break;
	case RDMA_CM_EVENT_CONNECT_RESPONSE:
		/* The welcome is read once the machine says establish. */
		c->resp = *e;
		rdma_client_feed(c, RDMA_CLIENT_EV_ACCEPTED);
		break;
	case RDMA_CM_EVENT_REJECTED:
		rdma_client_feed(c, rdma_client_cm_rejected(c, e));
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
		rdma_client_conn_reason(c, "unreachable");
		why = strerror(rdma_client_cm_status(e->status, ETIMEDOUT));
		if (c->fsm.state == RDMA_CLIENT_ST_CONNECT)
			rdma_client_conn_error(c, "server unreachable: %s",
					       why);
		else
			rdma_client_conn_error(c, "connection lost: rdma_cm "
					       "reports the server unreachable "
					       "(%s); a partition, a crashed "
					       "host or heavy loss on the path",
					       why);
		rdma_client_feed(c, RDMA_CLIENT_EV_CONN_ERR);
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
		rdma_client_conn_reason(c, "connect error");
		rdma_client_conn_error(c, "connect error: %s",
				       strerror(rdma_client_cm_status(e->status,
				       ECONNABORTED)));
		rdma_client_feed(c, RDMA_CLIENT_EV_CONN_ERR);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		rdma_client_cm_disconnected(c);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		rdma_client_conn_error(c, "RDMA device removed");
		rdma_client_feed(c, RDMA_CLIENT_EV_LOCAL_ERR);
		break;
	default:
		/* TIMEWAIT_EXIT, ADDR_CHANGE...: nothing to do. */
		break;
	}
}
