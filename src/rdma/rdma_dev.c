/* SPDX-License-Identifier: BSD-2-Clause */
/* rdma_dev.c - the registry of verbs devices in use (see rdma_dev.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fd.h"
#include "rdma_dev.h"
#include "rdma_log.h"
#include "rdma_qp.h"
#include "rdma_rate.h"

void rdma_devs_init(struct rdma_devs *r, struct event_base *base,
		    const struct rdma_dev_ops *ops, void *arg)
{
	memset(r, 0, sizeof(*r));
	r->base = base;
	r->ops = ops;
	r->arg = arg;
}

static void rdma_dev_free(struct rdma_devs *r, unsigned int i)
{
	struct rdma_dev *dev = r->dev[i];

	r->dev[i] = NULL;
	if (dev->async_ev)
		event_free(dev->async_ev);
	free(dev);
}

void rdma_devs_fini(struct rdma_devs *r)
{
	unsigned int i;

	for (i = 0; i < RDMA_DEV_MAX; i++)
		if (r->dev[i])
			rdma_dev_free(r, i);
}

unsigned int rdma_devs_count(const struct rdma_devs *r)
{
	unsigned int i, n = 0;

	for (i = 0; i < RDMA_DEV_MAX; i++)
		n += r->dev[i] != NULL;
	return n;
}

void rdma_dev_forget(struct rdma_devs *r, struct ibv_context *ctx)
{
	unsigned int i;

	for (i = 0; i < RDMA_DEV_MAX; i++) {
		if (!r->dev[i] || r->dev[i]->ctx != ctx)
			continue;
		rdma_log(LOG_NOTICE, "device %s: gone; its async events no "
			 "longer watched", ibv_get_device_name(ctx->device));
		rdma_dev_free(r, i);
		return;
	}
}

/* Tell the owner the rate of PORT of CTX after an event on it. */
static void rdma_dev_port_rate(struct rdma_devs *r, struct ibv_context *ctx,
			       uint8_t port)
{
	struct ibv_port_attr pa;

	if (!r->ops || !r->ops->port_rate || ibv_query_port(ctx, port, &pa))
		return;
	r->ops->port_rate(r->arg, ctx, port,
			  rdma_rate_bytes(pa.active_speed, pa.active_width));
}

/* The QP or CQ an async event is about, or NULL. */
static struct rdma_qp *rdma_dev_event_qp(const struct ibv_async_event *ev)
{
	switch (ev->event_type) {
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_PATH_MIG_ERR:
		return ev->element.qp ? ev->element.qp->qp_context : NULL;
	case IBV_EVENT_CQ_ERR:
		return ev->element.cq ? ev->element.cq->cq_context : NULL;
	default:
		return NULL;
	}
}

static void rdma_dev_async_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdma_dev *dev = arg;
	struct rdma_devs *r = dev->devs;
	struct ibv_context *ctx = dev->ctx;
	const char *name = ibv_get_device_name(ctx->device);
	struct ibv_async_event ev;
	enum ibv_event_type type;
	struct rdma_qp *q;
	uint8_t port;

	for (;;) {
		if (ibv_get_async_event(ctx, &ev))
			return;		/* EAGAIN: drained */
		type = ev.event_type;
		q = rdma_dev_event_qp(&ev);
		port = (uint8_t)ev.element.port_num;
		ibv_ack_async_event(&ev);

		switch (type) {
		case IBV_EVENT_QP_FATAL:
		case IBV_EVENT_QP_REQ_ERR:
		case IBV_EVENT_QP_ACCESS_ERR:
		case IBV_EVENT_PATH_MIG_ERR:
		case IBV_EVENT_CQ_ERR:
			if (q)
				rdma_qp_fatal(q, ibv_event_type_str(type));
			break;
		case IBV_EVENT_DEVICE_FATAL:
			/* An owner that hears of it says what it does. */
			rdma_log(r->ops && r->ops->fatal ? LOG_DEBUG : LOG_ERR,
				 "device %s: fatal error", name);
			/* dev is freed here: nothing after this uses it. */
			rdma_dev_forget(r, ctx);
			if (r->ops && r->ops->fatal)
				r->ops->fatal(r->arg, ctx);
			return;
		case IBV_EVENT_PORT_ERR:
			rdma_log(r->ops && r->ops->port ? LOG_DEBUG :
				 LOG_WARNING, "device %s: port %u down", name,
				 port);
			if (r->ops && r->ops->port)
				r->ops->port(r->arg, ctx, port, false);
			break;
		case IBV_EVENT_PORT_ACTIVE:
			rdma_log(r->ops && r->ops->port ? LOG_DEBUG :
				 LOG_NOTICE, "device %s: port %u up", name, port);
			if (r->ops && r->ops->port)
				r->ops->port(r->arg, ctx, port, true);
			rdma_dev_port_rate(r, ctx, port);
			break;
		default:
			rdma_log(LOG_DEBUG, "device %s: async event %s", name,
				 ibv_event_type_str(type));
			break;
		}
	}
}

/* Tell the owner each port's state as the device is registered. */
static void rdma_dev_ports_seen(struct rdma_devs *r, struct rdma_dev *dev)
{
	struct ibv_port_attr pa;
	uint8_t port;

	if (!r->ops || (!r->ops->port_seen && !r->ops->port_rate))
		return;
	for (port = 1; port <= dev->attr.phys_port_cnt; port++) {
		if (ibv_query_port(dev->ctx, port, &pa))
			continue;
		if (r->ops->port_seen)
			r->ops->port_seen(r->arg, dev->ctx, port,
					  pa.state == IBV_PORT_ACTIVE);
		if (r->ops->port_rate)
			r->ops->port_rate(r->arg, dev->ctx, port,
					  rdma_rate_bytes(pa.active_speed,
							  pa.active_width));
	}
}


struct rdma_dev *rdma_dev_get(struct rdma_devs *r, struct ibv_context *ctx)
{
	const char *name = ibv_get_device_name(ctx->device);
	struct rdma_dev *dev;
	unsigned int i, slot = RDMA_DEV_MAX;
	int ret;

	for (i = 0; i < RDMA_DEV_MAX; i++) {
		if (r->dev[i] && r->dev[i]->ctx == ctx)
			return r->dev[i];
		if (!r->dev[i] && slot == RDMA_DEV_MAX)
			slot = i;
	}
	if (slot == RDMA_DEV_MAX) {
		rdma_log(LOG_ERR, "device %s: more than %u devices in use; "
			 "not watched", name, RDMA_DEV_MAX);
		return NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	if (ibv_query_device(ctx, &dev->attr)) {
		rdma_log(LOG_ERR, "ibv_query_device(%s): %s", name,
			 strerror(errno));
		goto err;
	}
	ret = fd_nonblock(ctx->async_fd);
	if (ret) {
		rdma_log(LOG_ERR, "device %s: async event fd: %s", name,
			 strerror(-ret));
		goto err;
	}
	dev->ctx = ctx;
	dev->devs = r;
	dev->async_ev = event_new(r->base, ctx->async_fd,
				  EV_READ | EV_PERSIST, rdma_dev_async_cb,
				  dev);
	if (!dev->async_ev || event_add(dev->async_ev, NULL)) {
		rdma_log(LOG_ERR, "device %s: cannot watch its async events",
			 name);
		goto err;
	}
	r->dev[slot] = dev;
	rdma_log(LOG_INFO, "device %s: max_qp_rd_atom %d, max_qp_init_rd_atom "
		 "%d, max_mr_size %llu", name, dev->attr.max_qp_rd_atom,
		 dev->attr.max_qp_init_rd_atom,
		 (unsigned long long)dev->attr.max_mr_size);
	rdma_dev_ports_seen(r, dev);
	return dev;
err:
	if (dev->async_ev)
		event_free(dev->async_ev);
	free(dev);
	return NULL;
}
