/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * listener.c - listening rdma_cm ids, the CM event channel, and the
 * device async event fds.
 *
 * All listening ids and every accepted child share one asynchronous
 * event channel whose fd is non-blocking in the event loop.  On wake-up
 * we drain rdma_get_cm_event() until EAGAIN.  Each event is copied out
 * and acked at once (exactly once), then dispatched: nothing keeps a
 * pointer into librdmacm's event, and rdma_destroy_id() never waits for
 * an unacked event.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "conn.h"
#include "fd.h"
#include "log.h"
#include "rdmad.h"

#define LISTENER_RETRY_MIN_MS	500
#define LISTENER_RETRY_MAX_MS	10000

static int listener_open(struct rdmad_listener *l, const char **step);
static void listener_schedule_retry(struct rdmad_listener *l);

static struct rdmad_listener *listener_of(struct rdmad *d,
					  struct rdma_cm_id *id)
{
	unsigned int i;

	if (!id)
		return NULL;
	for (i = 0; i < d->n_listeners; i++)
		if (d->listeners[i].id == id)
			return &d->listeners[i];
	return NULL;
}

static void listener_event(struct rdmad *d, struct rdmad_listener *l,
			   const struct conn_cm_event *e)
{
	switch (e->type) {
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		log_err("listener %s: RDMA device removed; listening again "
			"when it returns", l->addr->text);
		/* Let go of everything on the device, so that the kernel
		 * can finish removing it; our event is acked already. */
		if (l->id->verbs)
			listener_device_gone(d, l->id->verbs);
		rdma_destroy_id(l->id);
		l->id = NULL;
		l->retry_ms = LISTENER_RETRY_MIN_MS;
		listener_schedule_retry(l);
		break;
	case RDMA_CM_EVENT_ADDR_CHANGE:
		log_warn("listener %s: address moved to another device",
			 l->addr->text);
		break;
	default:
		log_debug("listener %s: %s (status %d) ignored",
			  l->addr->text, rdma_event_str(e->type), e->status);
		break;
	}
}

static void cm_copy(struct conn_cm_event *out, const struct rdma_cm_event *ev)
{
	const struct rdma_conn_param *p = &ev->param.conn;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	out->type = ev->event;
	out->status = ev->status;
	out->id = ev->id;
	out->listen_id = ev->listen_id;
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST ||
	    ev->event == RDMA_CM_EVENT_ESTABLISHED) {
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

static void cm_channel_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdmad *d = arg;
	struct rdma_cm_event *ev;
	struct conn_cm_event e;
	struct rdmad_listener *l;

	for (;;) {
		if (rdma_get_cm_event(d->cm_chan, &ev)) {
			if (errno != EAGAIN && errno != EWOULDBLOCK &&
			    errno != EINTR)
				log_err("rdma_get_cm_event: %s",
					strerror(errno));
			return;
		}
		cm_copy(&e, ev);
		rdma_ack_cm_event(ev);

		if (e.type == RDMA_CM_EVENT_CONNECT_REQUEST) {
			conn_connect_request(d, &e);
			continue;
		}
		l = listener_of(d, e.id);
		if (l) {
			listener_event(d, l, &e);
			continue;
		}
		if (e.id && e.id->context)
			conn_cm_event(e.id->context, &e);
		else
			log_debug("CM event %s for an unknown id ignored",
				  rdma_event_str(e.type));
	}
}

/* ---- device async events ---------------------------------------------- */

static void async_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdmad_device *dev = arg;
	struct ibv_async_event ev;
	enum ibv_event_type type;
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	const char *name = ibv_get_device_name(dev->ctx->device);

	for (;;) {
		if (ibv_get_async_event(dev->ctx, &ev))
			return;		/* EAGAIN: drained */
		type = ev.event_type;
		qp = NULL;
		cq = NULL;
		if (type == IBV_EVENT_QP_FATAL ||
		    type == IBV_EVENT_QP_REQ_ERR ||
		    type == IBV_EVENT_QP_ACCESS_ERR ||
		    type == IBV_EVENT_PATH_MIG_ERR)
			qp = ev.element.qp;
		else if (type == IBV_EVENT_CQ_ERR)
			cq = ev.element.cq;
		ibv_ack_async_event(&ev);

		if (qp && qp->qp_context) {
			conn_qp_fatal(qp->qp_context,
				      ibv_event_type_str(type));
		} else if (cq && cq->cq_context) {
			conn_qp_fatal(cq->cq_context,
				      ibv_event_type_str(type));
		} else if (type == IBV_EVENT_DEVICE_FATAL) {
			struct rdmad *d = dev->d;
			struct ibv_context *ctx = dev->ctx;

			log_err("device %s: fatal error; dropping its "
				"connections", name);
			/* dev is freed here: nothing after this uses it. */
			listener_device_gone(d, ctx);
			conn_device_fatal(d, ctx, 0, "device fatal");
			return;
		} else if (type == IBV_EVENT_PORT_ERR) {
			log_warn("device %s: port %d down; dropping the "
				 "connections on it", name, ev.element.port_num);
			conn_device_fatal(dev->d, dev->ctx,
					  (uint8_t)ev.element.port_num,
					  "port down");
		} else if (type == IBV_EVENT_PORT_ACTIVE) {
			log_notice("device %s: port up", name);
		} else {
			log_debug("device %s: async event %s", name,
				  ibv_event_type_str(type));
		}
	}
}

void listener_device_gone(struct rdmad *d, struct ibv_context *ctx)
{
	unsigned int i;

	for (i = 0; i < d->n_devices; i++) {
		if (!ctx || d->devices[i].ctx != ctx)
			continue;
		log_notice("device %s: gone; its async events no longer "
			   "watched", ibv_get_device_name(ctx->device));
		event_free(d->devices[i].async_ev);
		/* The slot stays free; no entry moves: every other device's
		 * async event holds the address of its own slot. */
		memset(&d->devices[i], 0, sizeof(d->devices[0]));
		return;
	}
}

struct rdmad_device *listener_device(struct rdmad *d, struct ibv_context *ctx)
{
	struct rdmad_device *dev;
	unsigned int i;
	int ret;

	dev = NULL;
	for (i = 0; i < d->n_devices; i++) {
		if (d->devices[i].ctx == ctx)
			return &d->devices[i];
		if (!d->devices[i].ctx && !dev)
			dev = &d->devices[i];	/* a freed slot */
	}
	if (!dev && d->n_devices == RDMAD_MAX_DEVICES)
		return NULL;
	if (!dev)
		dev = &d->devices[d->n_devices];
	memset(dev, 0, sizeof(*dev));
	if (ibv_query_device(ctx, &dev->attr)) {
		log_err("ibv_query_device(%s): %s",
			ibv_get_device_name(ctx->device), strerror(errno));
		return NULL;
	}
	ret = fd_nonblock(ctx->async_fd);
	if (ret) {
		log_err("async fd of %s: %s",
			ibv_get_device_name(ctx->device), strerror(-ret));
		return NULL;
	}
	dev->ctx = ctx;
	dev->d = d;
	dev->async_ev = event_new(d->base, ctx->async_fd,
				  EV_READ | EV_PERSIST, async_cb, dev);
	if (!dev->async_ev || event_add(dev->async_ev, NULL)) {
		if (dev->async_ev)
			event_free(dev->async_ev);
		return NULL;
	}
	if (dev == &d->devices[d->n_devices])
		d->n_devices++;
	log_info("device %s: max_qp_rd_atom %d, max_qp_init_rd_atom %d, "
		 "max_mr_size %llu", ibv_get_device_name(ctx->device),
		 dev->attr.max_qp_rd_atom, dev->attr.max_qp_init_rd_atom,
		 (unsigned long long)dev->attr.max_mr_size);
	return dev;
}

/* ---- start / stop -------------------------------------------------- */

/* Create, bind and listen one id; 0 or -errno (id left NULL) with the
 * step that failed in *step. */
static int listener_open(struct rdmad_listener *l, const char **step)
{
	struct rdmad *d = l->d;
	struct rdma_cm_id *id;
	int ret;

	*step = "create an id for";
	if (rdma_create_id(d->cm_chan, &id, NULL, RDMA_PS_TCP))
		return -errno;
	*step = "bind";
	if (rdma_bind_addr(id, (struct sockaddr *)&l->addr->addr)) {
		ret = -errno;
		goto err;
	}
	*step = "listen on";
	if (rdma_listen(id, (int)d->cfg.listen_backlog)) {
		ret = -errno;
		goto err;
	}
	l->id = id;
	if (id->verbs)
		listener_device(d, id->verbs);
	return 0;
err:
	rdma_destroy_id(id);
	return ret ? ret : -EIO;
}

/*
 * Have librdmacm re-read the device list: it closes its context of a
 * device that went away once no id uses it any more.  Until then the
 * process keeps the device's uverbs file open, and on drivers that
 * cannot disassociate a context (rxe among them) the kernel's removal of
 * the device waits for that.  It also opens any device that appeared.
 */
static void listener_sync_devices(void)
{
	struct ibv_context **list;
	int n;

	list = rdma_get_devices(&n);
	if (list)
		rdma_free_devices(list);
}

static void listener_retry_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdmad_listener *l = arg;
	const char *step;
	int ret;

	if (l->id || l->d->stopping)
		return;
	listener_sync_devices();
	ret = listener_open(l, &step);
	if (!ret) {
		log_notice("listening again on %s", l->addr->text);
		return;
	}
	log_debug("listener %s: still cannot %s it (%s); next try in %ums",
		  l->addr->text, step, strerror(-ret), l->retry_ms);
	listener_schedule_retry(l);
}

static void listener_schedule_retry(struct rdmad_listener *l)
{
	struct timeval tv = {
		.tv_sec = l->retry_ms / 1000,
		.tv_usec = (l->retry_ms % 1000) * 1000,
	};

	if (!l->retry)
		l->retry = evtimer_new(l->d->base, listener_retry_cb, l);
	if (!l->retry || evtimer_add(l->retry, &tv)) {
		log_err("listener %s: cannot arm the re-listen timer; no new "
			"connections on it until rdmad is restarted",
			l->addr->text);
		return;
	}
	l->retry_ms = l->retry_ms * 2 > LISTENER_RETRY_MAX_MS ?
		      LISTENER_RETRY_MAX_MS : l->retry_ms * 2;
}

int listener_start(struct rdmad *d)
{
	const struct rdmad_config *cfg = &d->cfg;
	struct rdmad_listener *l;
	const char *step;
	unsigned int i;
	int ret;

	d->cm_chan = rdma_create_event_channel();
	if (!d->cm_chan) {
		ret = -errno;
		log_err("rdma_create_event_channel: %s (is rdma_ucm loaded "
			"and /dev/infiniband/rdma_cm accessible?)",
			strerror(-ret));
		return ret;
	}
	ret = fd_nonblock(d->cm_chan->fd);
	if (ret)
		goto err_chan;
	d->cm_ev = event_new(d->base, d->cm_chan->fd, EV_READ | EV_PERSIST,
			     cm_channel_cb, d);
	if (!d->cm_ev) {
		ret = -ENOMEM;
		goto err_chan;
	}
	if (event_add(d->cm_ev, NULL)) {
		ret = -EIO;
		goto err_ev;
	}

	for (i = 0; i < cfg->n_listen; i++) {
		l = &d->listeners[i];
		memset(l, 0, sizeof(*l));
		l->addr = &cfg->listen[i];
		l->d = d;
		d->n_listeners++;
		ret = listener_open(l, &step);
		if (ret) {
			log_err("cannot %s %s: %s%s", step, l->addr->text,
				strerror(-ret), !strcmp(step, "bind") ?
				" (no RDMA device with that address?)" : "");
			goto err_ids;
		}
		log_notice("listening on %s", l->addr->text);
	}
	return 0;

err_ids:
	listener_stop(d);
err_ev:
	event_free(d->cm_ev);
	d->cm_ev = NULL;
err_chan:
	if (ret == 0)
		ret = -EIO;
	rdma_destroy_event_channel(d->cm_chan);
	d->cm_chan = NULL;
	return ret;
}

/* Close one listener: its re-listen timer and its id. */
static void listener_close(struct rdmad_listener *l)
{
	if (l->retry)
		event_free(l->retry);
	l->retry = NULL;
	if (l->id)
		rdma_destroy_id(l->id);
	l->id = NULL;
}

int listener_reload(struct rdmad *d, const struct rdmad_config *cfg,
		    char *err, size_t errlen)
{
	struct rdmad_listener next[CONFIG_MAX_LISTEN];
	int from[CONFIG_MAX_LISTEN];	/* index of the kept listener, or -1 */
	int kept[CONFIG_MAX_LISTEN] = { 0 };
	const char *step;
	unsigned int i, j;
	int ret;

	memset(next, 0, sizeof(next));
	for (i = 0; i < cfg->n_listen; i++) {
		from[i] = -1;
		for (j = 0; j < d->n_listeners; j++) {
			if (!kept[j] &&
			    config_listen_equal(d->listeners[j].addr,
						&cfg->listen[i])) {
				from[i] = (int)j;
				kept[j] = 1;
				break;
			}
		}
		if (from[i] >= 0)
			continue;
		next[i].d = d;
		next[i].addr = &cfg->listen[i];
		next[i].retry_ms = LISTENER_RETRY_MIN_MS;
		ret = listener_open(&next[i], &step);
		if (ret) {
			snprintf(err, errlen, "cannot %s %s: %s", step,
				 cfg->listen[i].text, strerror(-ret));
			while (i--)
				if (from[i] < 0)
					listener_close(&next[i]);
			return ret;
		}
	}

	/* All new addresses listen: commit. */
	for (j = 0; j < d->n_listeners; j++) {
		if (kept[j])
			continue;
		log_notice("reload: no longer listening on %s",
			   d->listeners[j].addr->text);
		listener_close(&d->listeners[j]);
	}
	for (i = 0; i < cfg->n_listen; i++)
		if (from[i] >= 0)
			next[i] = d->listeners[from[i]];
	d->cfg = *cfg;
	memcpy(d->listeners, next, sizeof(next));
	d->n_listeners = cfg->n_listen;
	for (i = 0; i < d->n_listeners; i++) {
		struct rdmad_listener *l = &d->listeners[i];

		l->addr = &d->cfg.listen[i];
		if (from[i] < 0)
			log_notice("reload: listening on %s", l->addr->text);
		/* A waiting re-listen timer points at the old slot. */
		if (l->retry) {
			event_free(l->retry);
			l->retry = NULL;
			listener_schedule_retry(l);
		}
	}
	return 0;
}

/* Stop accepting: destroy the listening ids (connections stay). */
void listener_stop(struct rdmad *d)
{
	while (d->n_listeners) {
		listener_close(&d->listeners[--d->n_listeners]);
	}
}
