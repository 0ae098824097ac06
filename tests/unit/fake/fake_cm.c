/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fake_cm.c - the fake's CM: event channels on an eventfd in the loop,
 * ids, listening, the connect handshake, rejects, disconnects and the
 * device's removal (see fake.h).  Stands in for rdma_cm.c and for the
 * librdmacm calls the drivers make themselves.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "fake.h"
#include "fake_int.h"
#include "rdma_log.h"

struct fake_state fake;
struct fake_id *fake_ids;

struct fake_ev {
	struct rdma_cm_ev e;
	struct fake_ev *next;
};

struct fake_chan {
	struct rdma_event_channel ch;	/* first: rdma_cm_chan holds &ch */
	struct fake_ev *head, **tail;
};

static struct fake_chan *fake_chan_of(struct rdma_cm_chan *c)
{
	return (struct fake_chan *)(void *)c->ch;
}

void fake_counts(struct fake_counts *out)
{
	*out = fake.n;
}

bool fake_is_muted(uint16_t port)
{
	unsigned int i;

	for (i = 0; port && i < sizeof(fake.muted) / sizeof(fake.muted[0]); i++)
		if (fake.muted[i] == port)
			return true;
	return false;
}

void fake_mute(uint16_t port, bool on)
{
	unsigned int i, n = sizeof(fake.muted) / sizeof(fake.muted[0]);

	for (i = 0; i < n; i++)
		if (fake.muted[i] == port)
			fake.muted[i] = 0;
	for (i = 0; on && i < n; i++) {
		if (!fake.muted[i]) {
			fake.muted[i] = port;
			return;
		}
	}
}

void fake_fail_next(enum ibv_wc_status status)
{
	fake.fail_next = status;
}

static uint16_t fake_port(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)(const void *)sa)->sin_port);
	if (sa->sa_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)(const void *)sa)->sin6_port);
	return 0;
}

static void fake_set_port(struct sockaddr *sa, uint16_t port)
{
	if (sa->sa_family == AF_INET)
		((struct sockaddr_in *)(void *)sa)->sin_port = htons(port);
	else if (sa->sa_family == AF_INET6)
		((struct sockaddr_in6 *)(void *)sa)->sin6_port = htons(port);
}

static size_t fake_sa_len(const struct sockaddr *sa)
{
	return sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
	       sizeof(struct sockaddr_in);
}

/* Is A (a bound address) the wildcard, or B's address? */
static bool fake_addr_takes(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family == AF_INET) {
		const struct sockaddr_in *x = (const void *)a, *y = (const void *)b;

		if (x->sin_addr.s_addr == htonl(INADDR_ANY))
			return true;
		return b->sa_family == AF_INET &&
		       x->sin_addr.s_addr == y->sin_addr.s_addr;
	}
	if (a->sa_family == AF_INET6) {
		const struct sockaddr_in6 *x = (const void *)a, *y = (const void *)b;

		if (IN6_IS_ADDR_UNSPECIFIED(&x->sin6_addr))
			return true;
		return b->sa_family == AF_INET6 &&
		       !memcmp(&x->sin6_addr, &y->sin6_addr, 16);
	}
	return false;
}

/* ---- the channel ---- */

static void fake_chan_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdma_cm_chan *c = arg;
	struct fake_chan *fc = fake_chan_of(c);
	struct rdma_cm_handler *h;
	struct rdma_cm_id *owner;
	struct fake_ev *ev;
	struct rdma_cm_ev e;
	uint64_t v;

	(void)what;
	if (read(fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		rdma_log(LOG_ERR, "fake CM channel: %s", strerror(errno));
	/* Taken one at a time: a handler may destroy ids (and so drop
	 * their queued events) or close the channel. */
	while (c->ch && (ev = fc->head)) {
		fc->head = ev->next;
		if (!fc->head)
			fc->tail = &fc->head;
		e = ev->e;
		free(ev);
		owner = e.type == RDMA_CM_EVENT_CONNECT_REQUEST && e.listen_id ?
			e.listen_id : e.id;
		h = owner ? owner->context : NULL;
		if (h && h->event) {
			h->event(h, &e);
			continue;
		}
		if (e.type == RDMA_CM_EVENT_CONNECT_REQUEST) {
			rdma_reject(e.id, NULL, 0);
			rdma_destroy_id(e.id);
		}
	}
}

int rdma_cm_chan_open(struct rdma_cm_chan *c, struct event_base *base)
{
	struct fake_chan *fc;

	memset(c, 0, sizeof(*c));
	fc = calloc(1, sizeof(*fc));
	if (!fc)
		return -ENOMEM;
	fc->tail = &fc->head;
	fc->ch.fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (fc->ch.fd < 0) {
		free(fc);
		return -errno;
	}
	c->ch = &fc->ch;
	c->ev = event_new(base, fc->ch.fd, EV_READ | EV_PERSIST, fake_chan_cb,
			  c);
	if (!c->ev || event_add(c->ev, NULL)) {
		rdma_cm_chan_close(c);
		return -ENOMEM;
	}
	return 0;
}

void rdma_cm_chan_close(struct rdma_cm_chan *c)
{
	struct fake_chan *fc = c->ch ? fake_chan_of(c) : NULL;
	struct fake_ev *ev;

	if (c->ev)
		event_free(c->ev);
	if (fc) {
		while ((ev = fc->head)) {
			fc->head = ev->next;
			free(ev);
		}
		close(fc->ch.fd);
		free(fc);
	}
	c->ev = NULL;
	c->ch = NULL;
}

void fake_cm_queue(struct fake_id *f, enum rdma_cm_event_type type,
		   int status, struct fake_id *listen, const void *pdata,
		   uint8_t pdata_len)
{
	struct fake_chan *fc;
	struct fake_ev *ev;
	uint64_t one = 1;

	if (!f || !f->chan || !f->chan->ch)
		return;
	fc = fake_chan_of(f->chan);
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return;
	ev->e.type = type;
	ev->e.status = status;
	ev->e.id = &f->id;
	ev->e.listen_id = listen ? &listen->id : NULL;
	ev->e.responder_resources = 16;
	ev->e.initiator_depth = 16;
	if (pdata && pdata_len) {
		memcpy(ev->e.pdata, pdata, pdata_len);
		ev->e.pdata_len = pdata_len;
	}
	if (type == RDMA_CM_EVENT_REJECTED)
		fake.n.rejects++;
	*fc->tail = ev;
	fc->tail = &ev->next;
	if (write(fc->ch.fd, &one, sizeof(one)) < 0)
		rdma_log(LOG_ERR, "fake CM channel: %s", strerror(errno));
}

/* Drop F's queued events (it is being destroyed). */
static void fake_cm_unqueue(struct fake_id *f)
{
	struct fake_chan *fc;
	struct fake_ev **pp, *ev;

	if (!f->chan || !f->chan->ch)
		return;
	fc = fake_chan_of(f->chan);
	for (pp = &fc->head; (ev = *pp);) {
		if (ev->e.id == &f->id || ev->e.listen_id == &f->id) {
			*pp = ev->next;
			if (ev->e.listen_id == &f->id && ev->e.id != &f->id)
				rdma_destroy_id(ev->e.id);
			free(ev);
			continue;
		}
		pp = &ev->next;
	}
	fc->tail = &fc->head;
	for (ev = fc->head; ev; ev = ev->next)
		fc->tail = &ev->next;
}

/* ---- ids ---- */

static struct fake_id *fake_id_new(struct rdma_cm_chan *c, void *ctx)
{
	struct fake_id *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->chan = c;
	f->id.channel = c ? c->ch : NULL;
	f->id.context = ctx;
	f->id.ps = RDMA_PS_TCP;
	f->next = fake_ids;
	fake_ids = f;
	fake.n.ids++;
	return f;
}

int rdma_cm_id_new(struct rdma_cm_chan *c, struct rdma_cm_handler *h,
		   struct rdma_cm_id **id)
{
	struct fake_id *f = fake_id_new(c, h);

	if (!f)
		return -ENOMEM;
	*id = &f->id;
	return 0;
}

int rdma_cm_id_tos(struct rdma_cm_id *id, uint8_t tos)
{
	(void)id;
	(void)tos;
	return 0;
}

void rdma_cm_id_handler(struct rdma_cm_id *id, struct rdma_cm_handler *h)
{
	id->context = h;
}

void rdma_cm_sync_devices(void)
{
}

int rdma_destroy_id(struct rdma_cm_id *id)
{
	struct fake_id *f = fake_id_of(id), **pp;
	struct fake_id *p = f->peer;

	fake_cm_unqueue(f);
	if (p) {
		/* The kernel ends what the id had: a DREQ, or a REJ to a
		 * client still waiting for our answer. */
		if (p->connected)
			fake_cm_queue(p, RDMA_CM_EVENT_DISCONNECTED, 0, NULL,
				      NULL, 0);
		else if (p->waiting)
			fake_cm_queue(p, RDMA_CM_EVENT_REJECTED,
				      RDMA_CM_REJ_CONSUMER_DEFINED, NULL,
				      NULL, 0);
		p->connected = false;
		p->waiting = false;
		p->peer = NULL;
	}
	if (f->qp)
		f->qp->fid = NULL;
	for (pp = &fake_ids; *pp; pp = &(*pp)->next) {
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	}
	fake.n.ids--;
	free(f);
	return 0;
}

/* The wildcard address (INADDR_ANY, in6addr_any)? */
static bool fake_is_wild(const struct sockaddr *a)
{
	struct sockaddr_storage z;

	memset(&z, 0, sizeof(z));
	z.ss_family = a->sa_family;
	return fake_addr_takes(a, (const struct sockaddr *)&z) &&
	       fake_addr_takes((const struct sockaddr *)&z, a);
}

int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct fake_id *f = fake_id_of(id);

	/* A specific address binds to its device, the wildcard to none
	 * (id->verbs stays NULL): only the wildcard binds with no device. */
	if (fake.dev_gone && !fake_is_wild(addr)) {
		errno = EADDRNOTAVAIL;
		return -1;
	}
	memcpy(&id->route.addr.src_storage, addr, fake_sa_len(addr));
	id->verbs = fake_is_wild(addr) ? NULL : &fake_ctx;
	id->port_num = id->verbs ? 1 : 0;
	f->bound = true;
	f->serve_port = fake_port(addr);
	return 0;
}

int rdma_listen(struct rdma_cm_id *id, int backlog)
{
	struct fake_id *f = fake_id_of(id), *o;

	(void)backlog;
	for (o = fake_ids; o; o = o->next) {
		if (o != f && o->listening && o->serve_port == f->serve_port &&
		    (fake_addr_takes(&o->id.route.addr.src_addr,
				     &id->route.addr.src_addr) ||
		     fake_addr_takes(&id->route.addr.src_addr,
				     &o->id.route.addr.src_addr))) {
			errno = EADDRINUSE;
			return -1;
		}
	}
	f->listening = true;
	return 0;
}

int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src,
		      struct sockaddr *dst, int timeout_ms)
{
	struct fake_id *f = fake_id_of(id);
	static uint16_t eph = 40000;

	(void)timeout_ms;
	memcpy(&id->route.addr.dst_storage, dst, fake_sa_len(dst));
	if (src && src->sa_family)
		memcpy(&id->route.addr.src_storage, src, fake_sa_len(src));
	else
		memcpy(&id->route.addr.src_storage, dst, fake_sa_len(dst));
	fake_set_port(&id->route.addr.src_addr, eph++);
	if (eph < 40000)
		eph = 40000;
	f->serve_port = fake_port(dst);
	if (fake.dev_gone) {
		fake_cm_queue(f, RDMA_CM_EVENT_ADDR_ERROR, -ENODEV, NULL, NULL,
			      0);
		return 0;
	}
	id->verbs = &fake_ctx;
	id->port_num = 1;
	fake_cm_queue(f, RDMA_CM_EVENT_ADDR_RESOLVED, 0, NULL, NULL, 0);
	return 0;
}

int rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms)
{
	(void)timeout_ms;
	fake_cm_queue(fake_id_of(id), fake.dev_gone ?
		      RDMA_CM_EVENT_ROUTE_ERROR : RDMA_CM_EVENT_ROUTE_RESOLVED,
		      fake.dev_gone ? -ENODEV : 0, NULL, NULL, 0);
	return 0;
}

void fake_cm_connect(struct fake_id *f, const void *pdata,
		     uint8_t pdata_len, uint8_t init, uint8_t resp)
{
	struct sockaddr *dst = &f->id.route.addr.dst_addr;
	struct fake_id *l, *s;

	fake.n.connects++;
	f->waiting = true;
	if (fake_is_muted(f->serve_port))
		return;		/* no answer, ever */
	for (l = fake_ids; l; l = l->next)
		if (l->listening && l->serve_port == f->serve_port &&
		    fake_addr_takes(&l->id.route.addr.src_addr, dst))
			break;
	if (!l) {
		f->waiting = false;
		fake_cm_queue(f, RDMA_CM_EVENT_REJECTED,
			      RDMA_CM_REJ_INVALID_SERVICE_ID, NULL, NULL, 0);
		return;
	}
	s = fake_id_new(l->chan, l->id.context);
	if (!s)
		return;
	s->id.verbs = &fake_ctx;
	s->id.port_num = 1;
	memcpy(&s->id.route.addr.src_storage, &f->id.route.addr.dst_storage,
	       sizeof(s->id.route.addr.src_storage));
	memcpy(&s->id.route.addr.dst_storage, &f->id.route.addr.src_storage,
	       sizeof(s->id.route.addr.dst_storage));
	s->serve_port = f->serve_port;
	s->peer = f;
	f->peer = s;
	fake_cm_queue(s, RDMA_CM_EVENT_CONNECT_REQUEST, 0, l, pdata, pdata_len);
	(void)init;
	(void)resp;
}

int rdma_reject(struct rdma_cm_id *id, const void *private_data,
		uint8_t private_data_len)
{
	struct fake_id *f = fake_id_of(id), *c = f->peer;

	if (!c)
		return 0;
	c->waiting = false;
	c->peer = NULL;
	f->peer = NULL;
	fake_cm_queue(c, RDMA_CM_EVENT_REJECTED, RDMA_CM_REJ_CONSUMER_DEFINED,
		      NULL, private_data, private_data_len);
	return 0;
}

/* ---- the device's removal ---- */

void fake_dev_remove(void)
{
	struct fake_id *f;

	fake.dev_gone = true;
	for (f = fake_ids; f; f = f->next) {
		if (f->id.verbs != &fake_ctx)
			continue;
		f->connected = false;
		fake_cm_queue(f, RDMA_CM_EVENT_DEVICE_REMOVAL, 0, NULL, NULL, 0);
	}
	fake_qp_error_all();
	fake_dev_fatal_all();
}

void fake_dev_restore(void)
{
	fake.dev_gone = false;
}

/* ---- names ---- */

const char *rdma_event_str(enum rdma_cm_event_type event)
{
	static const char *const names[] = {
		[RDMA_CM_EVENT_ADDR_RESOLVED] = "RDMA_CM_EVENT_ADDR_RESOLVED",
		[RDMA_CM_EVENT_ADDR_ERROR] = "RDMA_CM_EVENT_ADDR_ERROR",
		[RDMA_CM_EVENT_ROUTE_RESOLVED] = "RDMA_CM_EVENT_ROUTE_RESOLVED",
		[RDMA_CM_EVENT_ROUTE_ERROR] = "RDMA_CM_EVENT_ROUTE_ERROR",
		[RDMA_CM_EVENT_CONNECT_REQUEST] = "RDMA_CM_EVENT_CONNECT_REQUEST",
		[RDMA_CM_EVENT_CONNECT_RESPONSE] = "RDMA_CM_EVENT_CONNECT_RESPONSE",
		[RDMA_CM_EVENT_CONNECT_ERROR] = "RDMA_CM_EVENT_CONNECT_ERROR",
		[RDMA_CM_EVENT_UNREACHABLE] = "RDMA_CM_EVENT_UNREACHABLE",
		[RDMA_CM_EVENT_REJECTED] = "RDMA_CM_EVENT_REJECTED",
		[RDMA_CM_EVENT_ESTABLISHED] = "RDMA_CM_EVENT_ESTABLISHED",
		[RDMA_CM_EVENT_DISCONNECTED] = "RDMA_CM_EVENT_DISCONNECTED",
		[RDMA_CM_EVENT_DEVICE_REMOVAL] = "RDMA_CM_EVENT_DEVICE_REMOVAL",
		[RDMA_CM_EVENT_TIMEWAIT_EXIT] = "RDMA_CM_EVENT_TIMEWAIT_EXIT",
	};

	if ((unsigned int)event < sizeof(names) / sizeof(names[0]) &&
	    names[event])
		return names[event];
	return "RDMA_CM_EVENT_OTHER";
}
