/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * listener.c - the listening rdma_cm ids (see listener.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "container_of.h"
#include "serve/listener.h"
#include "core/log.h"

#define LISTENER_RETRY_MIN_MS	500
#define LISTENER_RETRY_MAX_MS	10000

static void listener_schedule_retry(struct listener *l);

static void listener_event(struct rdma_cm_handler *h,
			   const struct rdma_cm_ev *e)
{
	struct listener *l = container_of(h, struct listener, cmh);
	struct listeners *ls = l->set;

	switch (e->type) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		ls->request(ls->arg, e);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		log_err("listener %s: RDMA device removed; listening again "
			"when it returns", l->addr.text);
		/* Let go of everything on the device, so that the kernel
		 * can finish removing it; our event is acked already. */
		if (l->id->verbs)
			rdma_dev_forget(ls->devs, l->id->verbs);
		rdma_destroy_id(l->id);
		l->id = NULL;
		l->retry_ms = LISTENER_RETRY_MIN_MS;
		listener_schedule_retry(l);
		break;
	case RDMA_CM_EVENT_ADDR_CHANGE:
		log_warn("listener %s: address moved to another device",
			 l->addr.text);
		break;
	default:
		log_debug("listener %s: %s (status %d) ignored",
			  l->addr.text, rdma_event_str(e->type), e->status);
		break;
	}
}

/* Create, bind and listen one id; 0 or -errno (id left NULL) with the
 * step that failed in *step. */
static int listener_open(struct listener *l, const char **step)
{
	struct listeners *ls = l->set;
	struct rdma_cm_id *id;
	int ret;

	*step = "create an id for";
	l->cmh.event = listener_event;
	ret = rdma_cm_id_new(ls->cm, &l->cmh, &id);
	if (ret)
		return ret;
	*step = "bind";
	if (rdma_bind_addr(id, (struct sockaddr *)&l->addr.addr)) {
		ret = -errno;
		goto err;
	}
	*step = "listen on";
	if (rdma_listen(id, (int)ls->backlog)) {
		ret = -errno;
		goto err;
	}
	l->id = id;
	if (id->verbs)
		rdma_dev_get(ls->devs, id->verbs);
	return 0;
err:
	rdma_destroy_id(id);
	return ret ? ret : -EIO;
}

static void listener_retry_cb(evutil_socket_t fd, short what, void *arg)
{
	struct listener *l = arg;
	const char *step;
	int ret;

	if (l->id || l->set->stopped)
		return;
	rdma_cm_sync_devices();
	ret = listener_open(l, &step);
	if (!ret) {
		log_notice("listening again on %s", l->addr.text);
		return;
	}
	log_debug("listener %s: still cannot %s it (%s); next try in %ums",
		  l->addr.text, step, strerror(-ret), l->retry_ms);
	listener_schedule_retry(l);
}

static void listener_schedule_retry(struct listener *l)
{
	struct timeval tv = {
		.tv_sec = l->retry_ms / 1000,
		.tv_usec = (l->retry_ms % 1000) * 1000,
	};

	if (!l->retry)
		l->retry = evtimer_new(l->set->base, listener_retry_cb, l);
	if (!l->retry || evtimer_add(l->retry, &tv)) {
		log_err("listener %s: cannot arm the re-listen timer; no new "
			"connections on it until rdmad is restarted",
			l->addr.text);
		return;
	}
	l->retry_ms = l->retry_ms * 2 > LISTENER_RETRY_MAX_MS ?
		      LISTENER_RETRY_MAX_MS : l->retry_ms * 2;
}

void listener_init(struct listeners *ls, struct event_base *base,
		   struct rdma_cm_chan *cm, struct rdma_devs *devs,
		   void (*request)(void *arg, const struct rdma_cm_ev *e),
		   void *arg)
{
	memset(ls, 0, sizeof(*ls));
	ls->base = base;
	ls->cm = cm;
	ls->devs = devs;
	ls->request = request;
	ls->arg = arg;
}

int listener_start(struct listeners *ls, const struct rdmad_config *cfg)
{
	struct listener *l;
	const char *step;
	unsigned int i;
	int ret;

	ls->backlog = cfg->listen_backlog;
	ls->stopped = false;
	for (i = 0; i < cfg->n_listen; i++) {
		l = &ls->l[i];
		memset(l, 0, sizeof(*l));
		l->addr = cfg->listen[i];
		l->set = ls;
		ls->n++;
		ret = listener_open(l, &step);
		if (ret) {
			log_err("cannot %s %s: %s%s", step, l->addr.text,
				strerror(-ret), !strcmp(step, "bind") ?
				" (no RDMA device with that address?)" : "");
			listener_stop(ls);
			return ret;
		}
		log_notice("listening on %s", l->addr.text);
	}
	return 0;
}

/* Close one listener: its re-listen timer and its id. */
static void listener_close(struct listener *l)
{
	if (l->retry)
		event_free(l->retry);
	l->retry = NULL;
	if (l->id)
		rdma_destroy_id(l->id);
	l->id = NULL;
}

int listener_reload(struct listeners *ls, const struct rdmad_config *cfg,
		    char *err, size_t errlen)
{
	struct listener next[CONFIG_MAX_LISTEN];
	int from[CONFIG_MAX_LISTEN];	/* index of the kept listener, or -1 */
	int kept[CONFIG_MAX_LISTEN] = { 0 };
	unsigned int backlog = ls->backlog;
	const char *step;
	unsigned int i, j;
	int ret;

	memset(next, 0, sizeof(next));
	ls->backlog = cfg->listen_backlog;
	for (i = 0; i < cfg->n_listen; i++) {
		from[i] = -1;
		for (j = 0; j < ls->n; j++) {
			if (!kept[j] && config_listen_equal(&ls->l[j].addr,
							    &cfg->listen[i])) {
				from[i] = (int)j;
				kept[j] = 1;
				break;
			}
		}
		if (from[i] >= 0)
			continue;
		next[i].set = ls;
		next[i].addr = cfg->listen[i];
		next[i].retry_ms = LISTENER_RETRY_MIN_MS;
		ret = listener_open(&next[i], &step);
		if (ret) {
			snprintf(err, errlen, "cannot %s %s: %s", step,
				 cfg->listen[i].text, strerror(-ret));
			while (i--)
				if (from[i] < 0)
					listener_close(&next[i]);
			ls->backlog = backlog;
			return ret;
		}
	}

	/* All new addresses listen: commit. */
	for (j = 0; j < ls->n; j++) {
		if (kept[j])
			continue;
		log_notice("reload: no longer listening on %s",
			   ls->l[j].addr.text);
		listener_close(&ls->l[j]);
	}
	for (i = 0; i < cfg->n_listen; i++)
		if (from[i] >= 0)
			next[i] = ls->l[from[i]];
	memcpy(ls->l, next, sizeof(next));
	ls->n = cfg->n_listen;
	for (i = 0; i < ls->n; i++) {
		struct listener *l = &ls->l[i];

		/* The id's handler is the listener's new place. */
		if (l->id)
			rdma_cm_id_handler(l->id, &l->cmh);
		if (from[i] < 0)
			log_notice("reload: listening on %s", l->addr.text);
		/* A waiting re-listen timer points at the old slot. */
		if (l->retry) {
			event_free(l->retry);
			l->retry = NULL;
			listener_schedule_retry(l);
		}
	}
	return 0;
}

void listener_stop(struct listeners *ls)
{
	ls->stopped = true;
	while (ls->n)
		listener_close(&ls->l[--ls->n]);
}

unsigned int listener_view(const struct listeners *ls,
			   struct stats_listener *out)
{
	unsigned int i;

	for (i = 0; i < ls->n; i++) {
		snprintf(out[i].address, sizeof(out[i].address), "%s",
			 ls->l[i].addr.text);
		out[i].up = ls->l[i].id != NULL;
	}
	return ls->n;
}
