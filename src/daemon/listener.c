/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * listener.c - the listening rdma_cm ids: one handler per listener on the
 * daemon's CM channel (rdma_cm.h), re-listening with backoff when their
 * device is gone.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "container_of.h"
#include "conn.h"
#include "log.h"
#include "rdmad.h"

#define LISTENER_RETRY_MIN_MS	500
#define LISTENER_RETRY_MAX_MS	10000

static int listener_open(struct rdmad_listener *l, const char **step);
static void listener_schedule_retry(struct rdmad_listener *l);

static void listener_event(struct rdma_cm_handler *h,
			   const struct rdma_cm_ev *e)
{
	struct rdmad_listener *l = container_of(h, struct rdmad_listener, cmh);
	struct rdmad *d = l->d;

	switch (e->type) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		conn_connect_request(d, e);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		log_err("listener %s: RDMA device removed; listening again "
			"when it returns", l->addr->text);
		/* Let go of everything on the device, so that the kernel
		 * can finish removing it; our event is acked already. */
		if (l->id->verbs)
			rdma_dev_forget(&d->devs, l->id->verbs);
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

/* ---- start / stop -------------------------------------------------- */

/* Create, bind and listen one id; 0 or -errno (id left NULL) with the
 * step that failed in *step. */
static int listener_open(struct rdmad_listener *l, const char **step)
{
	struct rdmad *d = l->d;
	struct rdma_cm_id *id;
	int ret;

	*step = "create an id for";
	l->cmh.event = listener_event;
	ret = rdma_cm_id_new(&d->cm, &l->cmh, &id);
	if (ret)
		return ret;
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
		rdma_dev_get(&d->devs, id->verbs);
	return 0;
err:
	rdma_destroy_id(id);
	return ret ? ret : -EIO;
}

static void listener_retry_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdmad_listener *l = arg;
	const char *step;
	int ret;

	if (l->id || l->d->stopping)
		return;
	rdma_cm_sync_devices();
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
			listener_stop(d);
			return ret;
		}
		log_notice("listening on %s", l->addr->text);
	}
	return 0;
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
		/* The id's handler is the listener's new place. */
		if (l->id)
			rdma_cm_id_handler(l->id, &l->cmh);
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
