/* SPDX-License-Identifier: BSD-2-Clause */
/* rdma_cm.c - an rdma_cm event channel in a libevent loop (see rdma_cm.h). */
#include <errno.h>
#include <string.h>

#include "fd.h"
#include "rdma_cm.h"
#include "rdma_log.h"

static void rdma_cm_copy(struct rdma_cm_ev *out,
			 const struct rdma_cm_event *ev)
{
	const struct rdma_conn_param *p = &ev->param.conn;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	out->type = ev->event;
	out->status = ev->status;
	out->id = ev->id;
	out->listen_id = ev->listen_id;
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST ||
	    ev->event == RDMA_CM_EVENT_CONNECT_RESPONSE ||
	    ev->event == RDMA_CM_EVENT_ESTABLISHED ||
	    ev->event == RDMA_CM_EVENT_REJECTED) {
		out->responder_resources = p->responder_resources;
		out->initiator_depth = p->initiator_depth;
		n = p->private_data ? p->private_data_len : 0;
		if (n > sizeof(out->pdata))
			n = sizeof(out->pdata);
		if (n)
			memcpy(out->pdata, p->private_data, n);
	}
	out->pdata_len = (uint8_t)n;
}

static void rdma_cm_dispatch(const struct rdma_cm_ev *e)
{
	struct rdma_cm_id *owner = e->id;
	struct rdma_cm_handler *h;

	if (e->type == RDMA_CM_EVENT_CONNECT_REQUEST && e->listen_id)
		owner = e->listen_id;
	h = owner ? owner->context : NULL;
	if (h && h->event) {
		h->event(h, e);
		return;
	}
	rdma_log(LOG_DEBUG, "CM event %s (status %d) for an id nobody "
		 "owns: ignored", rdma_event_str(e->type), e->status);
	/* A request nobody takes must not keep its id. */
	if (e->type == RDMA_CM_EVENT_CONNECT_REQUEST) {
		rdma_reject(e->id, NULL, 0);
		rdma_destroy_id(e->id);
	}
}

static void rdma_cm_chan_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdma_cm_chan *c = arg;
	struct rdma_cm_event *ev;
	struct rdma_cm_ev e;

	for (;;) {
		if (rdma_get_cm_event(c->ch, &ev)) {
			if (errno != EAGAIN && errno != EWOULDBLOCK &&
			    errno != EINTR)
				rdma_log(LOG_ERR, "rdma_get_cm_event: %s",
					 strerror(errno));
			return;
		}
		rdma_cm_copy(&e, ev);
		rdma_ack_cm_event(ev);
		rdma_cm_dispatch(&e);
	}
}

int rdma_cm_chan_open(struct rdma_cm_chan *c, struct event_base *base)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->ch = rdma_create_event_channel();
	if (!c->ch)
		return errno ? -errno : -ENODEV;
	ret = fd_nonblock(c->ch->fd);
	if (ret)
		goto err;
	ret = -ENOMEM;
	c->ev = event_new(base, c->ch->fd, EV_READ | EV_PERSIST,
			  rdma_cm_chan_cb, c);
	if (!c->ev || event_add(c->ev, NULL))
		goto err;
	return 0;
err:
	rdma_cm_chan_close(c);
	return ret;
}

void rdma_cm_chan_close(struct rdma_cm_chan *c)
{
	if (c->ev)
		event_free(c->ev);
	if (c->ch)
		rdma_destroy_event_channel(c->ch);
	c->ev = NULL;
	c->ch = NULL;
}

int rdma_cm_id_new(struct rdma_cm_chan *c, struct rdma_cm_handler *h,
		   struct rdma_cm_id **id)
{
	if (rdma_create_id(c->ch, id, h, RDMA_PS_TCP))
		return errno ? -errno : -ENOMEM;
	return 0;
}

int rdma_cm_id_tos(struct rdma_cm_id *id, uint8_t tos)
{
	/* rdma_set_option(3): the value is one byte. */
	if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos,
			    sizeof(tos)))
		return errno ? -errno : -EINVAL;
	return 0;
}

void rdma_cm_id_handler(struct rdma_cm_id *id, struct rdma_cm_handler *h)
{
	id->context = h;
}

void rdma_cm_sync_devices(void)
{
	struct ibv_context **list;
	int n;

	list = rdma_get_devices(&n);
	if (list)
		rdma_free_devices(list);
}
