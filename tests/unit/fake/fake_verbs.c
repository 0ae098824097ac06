/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fake_verbs.c - the fake's verbs: the device and its registry, CQs on an
 * eventfd in the loop, registered buffers, QPs and the work requests that
 * move bytes between them (see fake.h).  Stands in for rdma_cq.c,
 * rdma_qp.c, rdma_buf.c and rdma_dev.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "fake.h"
#include "fake_int.h"
#include "rdma_buf.h"
#include "rdma_cq.h"
#include "rdma_dev.h"
#include "rdma_log.h"
#include "rdma_qp.h"
#include "rdma_wr.h"

static struct ibv_device fake_device = { .name = "fake0" };
struct ibv_context fake_ctx = { .device = &fake_device, .async_fd = -1 };

/* ---- the device ---- */

static void fake_attr(struct ibv_device_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->max_qp_rd_atom = 16;
	a->max_qp_init_rd_atom = 16;
	a->max_mr_size = 1ull << 40;
	a->max_qp_wr = 16384;
	a->max_cqe = 65536;
	a->phys_port_cnt = 1;
}

int ibv_query_device(struct ibv_context *context,
		     struct ibv_device_attr *device_attr)
{
	if (context != &fake_ctx || fake.dev_gone)
		return ENODEV;
	fake_attr(device_attr);
	return 0;
}

const char *ibv_get_device_name(struct ibv_device *device)
{
	return device->name;
}

const char *ibv_wc_status_str(enum ibv_wc_status status)
{
	switch (status) {
	case IBV_WC_SUCCESS: return "success";
	case IBV_WC_LOC_LEN_ERR: return "local length error";
	case IBV_WC_LOC_PROT_ERR: return "local protection error";
	case IBV_WC_WR_FLUSH_ERR: return "Work Request Flushed Error";
	case IBV_WC_REM_ACCESS_ERR: return "remote access error";
	case IBV_WC_REM_INV_REQ_ERR: return "remote invalid request error";
	case IBV_WC_RETRY_EXC_ERR: return "transport retry counter exceeded";
	case IBV_WC_RNR_RETRY_EXC_ERR: return "RNR retry counter exceeded";
	default: return "unknown";
	}
}

/* Every registry, to tell them of the device's loss. */
static struct rdma_devs *fake_regs[16];

void rdma_devs_init(struct rdma_devs *r, struct event_base *base,
		    const struct rdma_dev_ops *ops, void *arg)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->base = base;
	r->ops = ops;
	r->arg = arg;
	for (i = 0; i < 16; i++) {
		if (!fake_regs[i]) {
			fake_regs[i] = r;
			break;
		}
	}
}

void rdma_devs_fini(struct rdma_devs *r)
{
	unsigned int i;

	for (i = 0; i < RDMA_DEV_MAX; i++) {
		free(r->dev[i]);
		r->dev[i] = NULL;
	}
	for (i = 0; i < 16; i++)
		if (fake_regs[i] == r)
			fake_regs[i] = NULL;
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
		if (r->dev[i] && r->dev[i]->ctx == ctx) {
			free(r->dev[i]);
			r->dev[i] = NULL;
		}
	}
}

struct rdma_dev *rdma_dev_get(struct rdma_devs *r, struct ibv_context *ctx)
{
	struct rdma_dev *dev;
	unsigned int i, slot = RDMA_DEV_MAX;

	for (i = 0; i < RDMA_DEV_MAX; i++) {
		if (r->dev[i] && r->dev[i]->ctx == ctx)
			return r->dev[i];
		if (!r->dev[i] && slot == RDMA_DEV_MAX)
			slot = i;
	}
	if (slot == RDMA_DEV_MAX || fake.dev_gone)
		return NULL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	dev->ctx = ctx;
	dev->devs = r;
	fake_attr(&dev->attr);
	r->dev[slot] = dev;
	if (r->ops && r->ops->port_seen)
		r->ops->port_seen(r->arg, ctx, 1, true);
	if (r->ops && r->ops->port_rate)
		r->ops->port_rate(r->arg, ctx, 1, 12500000000ull);
	return dev;
}

static void fake_dev_fatal_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdma_devs *r = arg;
	unsigned int i;

	(void)fd;
	(void)what;
	for (i = 0; i < 16; i++)
		if (fake_regs[i] == r)
			break;
	if (i == 16 || !rdma_devs_count(r))
		return;		/* gone since, or never held it */
	rdma_dev_forget(r, &fake_ctx);
	if (r->ops && r->ops->fatal)
		r->ops->fatal(r->arg, &fake_ctx);
}

void fake_dev_fatal_all(void)
{
	const struct timeval now = { 0, 0 };
	unsigned int i;

	for (i = 0; i < 16; i++)
		if (fake_regs[i])
			event_base_once(fake_regs[i]->base, -1, EV_TIMEOUT,
					fake_dev_fatal_cb, fake_regs[i], &now);
}

/* ---- registered memory ---- */

struct fake_mr {
	struct ibv_mr mr;
	int access;
	struct fake_mr *next;
};

static struct fake_mr *fake_mrs;
static uint32_t fake_keys = 0x1000;
static uint64_t fake_registered;

int rdma_buf_alloc(struct rdma_buf *b, struct ibv_pd *pd, size_t len,
		   int access)
{
	struct fake_mr *m;
	void *p;
	int ret;

	ret = posix_memalign(&p, 4096, len ? len : 1);
	if (ret)
		return -ret;
	memset(p, 0, len);
	m = calloc(1, sizeof(*m));
	if (!m) {
		free(p);
		return -ENOMEM;
	}
	m->mr.context = &fake_ctx;
	m->mr.pd = pd;
	m->mr.addr = p;
	m->mr.length = len;
	m->mr.lkey = m->mr.rkey = fake_keys++;
	m->access = access;
	m->next = fake_mrs;
	fake_mrs = m;
	b->p = p;
	b->len = len;
	b->mr = &m->mr;
	fake_registered += len;
	return 0;
}

void rdma_buf_free(struct rdma_buf *b)
{
	struct fake_mr **pp, *m;

	if (b->mr) {
		for (pp = &fake_mrs; (m = *pp); pp = &m->next) {
			if (&m->mr == b->mr) {
				*pp = m->next;
				free(m);
				break;
			}
		}
		fake_registered -= b->len;
	}
	free(b->p);
	b->p = NULL;
	b->mr = NULL;
	b->len = 0;
}

uint64_t rdma_buf_registered(void)
{
	return fake_registered;
}

/* The memory [ADDR, ADDR+LEN) of the region of RKEY, if it allows ACCESS. */
static void *fake_mr_find(uint32_t rkey, uint64_t addr, size_t len,
			  int access)
{
	struct fake_mr *m;
	uint64_t a;

	for (m = fake_mrs; m; m = m->next) {
		if (m->mr.rkey != rkey)
			continue;
		a = (uintptr_t)m->mr.addr;
		if (!(m->access & access) || addr < a ||
		    addr + len > a + m->mr.length)
			return NULL;
		return (void *)(uintptr_t)addr;
	}
	return NULL;
}

/* ---- completion queues ---- */

struct fake_cq {
	struct ibv_cq cq;		/* first: rdma_cq holds &cq */
	struct ibv_comp_channel cc;	/* its fd: an eventfd */
	struct ibv_wc *wc;		/* a ring */
	unsigned int head, n, cap;
};

static struct fake_cq *fake_cq_of(struct rdma_cq *c)
{
	return (struct fake_cq *)(void *)c->cq;
}

static void fake_cq_push(struct fake_cq *f, const struct ibv_wc *wc)
{
	uint64_t one = 1;

	if (f->n == f->cap) {
		unsigned int cap = f->cap ? f->cap * 2 : 64, i;
		struct ibv_wc *w = calloc(cap, sizeof(*w));

		if (!w)
			return;
		for (i = 0; i < f->n; i++)
			w[i] = f->wc[(f->head + i) % f->cap];
		free(f->wc);
		f->wc = w;
		f->head = 0;
		f->cap = cap;
	}
	f->wc[(f->head + f->n) % f->cap] = *wc;
	f->n++;
	if (f->cc.fd >= 0 && write(f->cc.fd, &one, sizeof(one)) < 0)
		rdma_log(LOG_ERR, "fake CQ: %s", strerror(errno));
}

/* Take at most MAX completions of C now; the count. */
static int fake_cq_take(struct rdma_cq *c, unsigned int max)
{
	struct fake_cq *f = fake_cq_of(c);
	struct ibv_wc wc;
	int n = 0;

	while (c->cq && f->n && (unsigned int)n < max) {
		wc = f->wc[f->head];
		f->head = (f->head + 1) % f->cap;
		f->n--;
		n++;
		c->fn(c->arg, &wc);
		f = c->cq ? fake_cq_of(c) : NULL;
		if (!f)
			break;
	}
	return n;
}

static void fake_cq_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdma_cq *c = arg;
	struct fake_cq *f = fake_cq_of(c);
	uint64_t one = 1, v;

	(void)what;
	if (read(fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return;
	fake_cq_take(c, RDMA_CQ_BATCH * RDMA_CQ_ROUNDS);
	/* More than a wake-up's share: the loop runs its timers first. */
	if (c->cq && (f = fake_cq_of(c))->n &&
	    write(f->cc.fd, &one, sizeof(one)) < 0)
		rdma_log(LOG_ERR, "fake CQ: %s", strerror(errno));
}

int rdma_cq_open(struct rdma_cq *c, struct event_base *base,
		 struct ibv_context *verbs, int depth, bool polled,
		 void *cq_ctx, rdma_cq_fn *fn, rdma_cq_fail_fn *fail,
		 void *arg)
{
	struct fake_cq *f;

	memset(c, 0, sizeof(*c));
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->cq.context = verbs;
	f->cq.cq_context = cq_ctx;
	f->cq.cqe = depth;
	f->cc.context = verbs;
	f->cc.fd = -1;
	c->cq = &f->cq;
	c->fn = fn;
	c->fail = fail;
	c->arg = arg;
	if (polled)
		return 0;
	f->cc.fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (f->cc.fd < 0) {
		free(f);
		c->cq = NULL;
		return -errno;
	}
	c->cc = &f->cc;
	c->ev = event_new(base, f->cc.fd, EV_READ | EV_PERSIST, fake_cq_cb, c);
	if (!c->ev || event_add(c->ev, NULL)) {
		rdma_cq_close(c);
		return -ENOMEM;
	}
	return 0;
}

void rdma_cq_close(struct rdma_cq *c)
{
	struct fake_cq *f = c->cq ? fake_cq_of(c) : NULL;

	if (c->ev)
		event_free(c->ev);
	if (f) {
		if (f->cc.fd >= 0)
			close(f->cc.fd);
		free(f->wc);
		free(f);
	}
	memset(c, 0, sizeof(*c));
}

int rdma_cq_poll(struct rdma_cq *c)
{
	return fake_cq_take(c, RDMA_CQ_BATCH * RDMA_CQ_ROUNDS);
}

/* ---- queue pairs ---- */

static struct fake_qp *fake_qps;
static uint32_t fake_qpn = 100;

static struct fake_qp *fake_qp_of(struct rdma_qp *q)
{
	return q->qp ? (struct fake_qp *)(void *)q->qp : NULL;
}

static struct fake_qp *fake_qp_peer(struct fake_qp *fq)
{
	return fq->fid && fq->fid->peer ? fq->fid->peer->qp : NULL;
}

/* rdma_qp.c's accounting, then the owner. */
static void fake_qp_wc(void *arg, const struct ibv_wc *wc)
{
	struct rdma_qp *q = arg;

	if (rdma_wr_kind(wc->wr_id) == RDMA_WR_RECV) {
		if (q->posted_recv)
			q->posted_recv--;
	} else if (q->posted_send) {
		q->posted_send--;
	}
	q->ops->wc(q->arg, wc);
}

static void fake_qp_cq_fail(void *arg, const char *what)
{
	rdma_qp_fatal(arg, what);
}

void rdma_qp_fatal(struct rdma_qp *q, const char *what)
{
	if (q->ops->fatal)
		q->ops->fatal(q->arg, what);
}

static void fake_wc(struct fake_qp *fq, uint64_t wr_id, enum ibv_wc_status st,
		    enum ibv_wc_opcode op, uint32_t len)
{
	struct ibv_wc wc;

	memset(&wc, 0, sizeof(wc));
	wc.wr_id = wr_id;
	wc.status = st;
	wc.opcode = op;
	wc.byte_len = len;
	wc.qp_num = fq->qp.qp_num;
	if (fq->q->cq.cq)
		fake_cq_push(fake_cq_of(&fq->q->cq), &wc);
}

static enum ibv_wc_opcode fake_wc_op(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_RDMA_READ: return IBV_WC_RDMA_READ;
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM: return IBV_WC_RDMA_WRITE;
	default: return IBV_WC_SEND;
	}
}

static uint32_t fake_wr_len(const struct ibv_send_wr *w)
{
	uint32_t n = 0;
	int i;

	for (i = 0; i < w->num_sge; i++)
		n += w->sg_list[i].length;
	return n;
}

void fake_qp_error(struct fake_qp *fq)
{
	struct fake_wr *h;
	unsigned int i;

	fq->err = true;
	for (i = 0; i < fq->rq_n; i++)
		fake_wc(fq, fq->rq[i].wr_id, IBV_WC_WR_FLUSH_ERR, IBV_WC_RECV, 0);
	fq->rq_n = 0;
	while ((h = fq->held)) {
		fq->held = h->next;
		fake_wc(fq, h->wr.wr_id, IBV_WC_WR_FLUSH_ERR,
			fake_wc_op(h->wr.opcode), 0);
		free(h);
	}
	fq->held_tail = &fq->held;
}

void fake_qp_error_all(void)
{
	struct fake_qp *fq;

	for (fq = fake_qps; fq; fq = fq->next)
		fake_qp_error(fq);
}

/* Hold W until the peer posts a receive, or for ever (muted). */
static void fake_hold(struct fake_qp *fq, const struct ibv_send_wr *w)
{
	struct fake_wr *h = calloc(1, sizeof(*h));
	int i;

	if (!h)
		return;
	h->wr = *w;
	h->wr.next = NULL;
	h->wr.num_sge = w->num_sge > 4 ? 4 : w->num_sge;
	for (i = 0; i < h->wr.num_sge; i++)
		h->sge[i] = w->sg_list[i];
	h->wr.sg_list = h->sge;
	*fq->held_tail = h;
	fq->held_tail = &h->next;
}

/* Carry out W of FQ towards PEER now; false: it must wait (no receive). */
static bool fake_run(struct fake_qp *fq, struct fake_qp *peer,
		     const struct ibv_send_wr *w)
{
	uint32_t len = fake_wr_len(w), off = 0;
	enum ibv_wc_status st = IBV_WC_SUCCESS;
	bool consume = w->opcode == IBV_WR_SEND ||
		       w->opcode == IBV_WR_SEND_WITH_IMM ||
		       w->opcode == IBV_WR_RDMA_WRITE_WITH_IMM;
	struct fake_recv r = { 0 };
	uint8_t *mem;
	int i;

	if (consume && !peer->rq_n)
		return false;
	if (consume) {
		r = peer->rq[0];
		memmove(peer->rq, peer->rq + 1,
			(peer->rq_n - 1) * sizeof(*peer->rq));
		peer->rq_n--;
	}
	switch (w->opcode) {
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
		if (len > r.len) {
			fake_wc(peer, r.wr_id, IBV_WC_LOC_LEN_ERR, IBV_WC_RECV, 0);
			st = IBV_WC_REM_INV_REQ_ERR;
			break;
		}
		for (i = 0; i < w->num_sge; i++) {
			memcpy((uint8_t *)r.addr + off,
			       (void *)(uintptr_t)w->sg_list[i].addr,
			       w->sg_list[i].length);
			off += w->sg_list[i].length;
		}
		fake.n.bytes_sent += len;
		break;
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		mem = fake_mr_find(w->wr.rdma.rkey, w->wr.rdma.remote_addr, len,
				   IBV_ACCESS_REMOTE_WRITE);
		if (!mem && len) {
			st = IBV_WC_REM_ACCESS_ERR;
			break;
		}
		for (i = 0; i < w->num_sge; i++) {
			memcpy(mem + off, (void *)(uintptr_t)w->sg_list[i].addr,
			       w->sg_list[i].length);
			off += w->sg_list[i].length;
		}
		fake.n.bytes_written += len;
		break;
	case IBV_WR_RDMA_READ:
		mem = fake_mr_find(w->wr.rdma.rkey, w->wr.rdma.remote_addr, len,
				   IBV_ACCESS_REMOTE_READ);
		if (!mem && len) {
			st = IBV_WC_REM_ACCESS_ERR;
			break;
		}
		for (i = 0; i < w->num_sge; i++) {
			memcpy((void *)(uintptr_t)w->sg_list[i].addr, mem + off,
			       w->sg_list[i].length);
			off += w->sg_list[i].length;
		}
		fake.n.bytes_read += len;
		break;
	default:
		st = IBV_WC_REM_INV_REQ_ERR;
		break;
	}
	if (consume && st == IBV_WC_SUCCESS) {
		struct ibv_wc wc;

		memset(&wc, 0, sizeof(wc));
		wc.wr_id = r.wr_id;
		wc.opcode = w->opcode == IBV_WR_RDMA_WRITE_WITH_IMM ?
			    IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_RECV;
		wc.byte_len = len;
		wc.qp_num = peer->qp.qp_num;
		if (w->opcode != IBV_WR_SEND) {
			wc.wc_flags = IBV_WC_WITH_IMM;
			wc.imm_data = w->imm_data;
		}
		if (peer->q->cq.cq)
			fake_cq_push(fake_cq_of(&peer->q->cq), &wc);
	}
	if (st != IBV_WC_SUCCESS || (w->send_flags & IBV_SEND_SIGNALED))
		fake_wc(fq, w->wr_id, st, fake_wc_op(w->opcode),
			w->opcode == IBV_WR_RDMA_READ ? len : 0);
	if (st != IBV_WC_SUCCESS)
		fake_qp_error(fq);
	return true;
}

static void fake_send_one(struct fake_qp *fq, const struct ibv_send_wr *w)
{
	struct fake_qp *peer = fake_qp_peer(fq);

	if (fq->err) {
		fake_wc(fq, w->wr_id, IBV_WC_WR_FLUSH_ERR, fake_wc_op(w->opcode),
			0);
		return;
	}
	if (fake.fail_next != IBV_WC_SUCCESS) {
		fake_wc(fq, w->wr_id, fake.fail_next, fake_wc_op(w->opcode), 0);
		fake.fail_next = IBV_WC_SUCCESS;
		fake_qp_error(fq);
		return;
	}
	if (fq->fid && fake_is_muted(fq->fid->serve_port)) {
		fake_hold(fq, w);
		return;
	}
	if (!peer || peer->err) {
		/* nobody acknowledges: the transport gives up */
		fake_wc(fq, w->wr_id, IBV_WC_RETRY_EXC_ERR,
			fake_wc_op(w->opcode), 0);
		fake_qp_error(fq);
		return;
	}
	/* in order: behind any held one */
	if (fq->held || !fake_run(fq, peer, w))
		fake_hold(fq, w);
}

void fake_qp_kick_peer(struct fake_qp *fq)
{
	struct fake_qp *peer = fake_qp_peer(fq);
	struct fake_wr *h;

	if (!peer || peer->err || !peer->fid ||
	    fake_is_muted(peer->fid->serve_port))
		return;
	while ((h = peer->held) && fake_run(peer, fq, &h->wr)) {
		peer->held = h->next;
		if (!peer->held)
			peer->held_tail = &peer->held;
		free(h);
		if (peer->err)
			break;
	}
}

int rdma_qp_create(struct rdma_qp *q, struct event_base *base,
		   struct rdma_cm_id *id, const struct rdma_qp_attr *a,
		   const struct rdma_qp_ops *ops, void *arg,
		   const char **step)
{
	struct fake_qp *fq;
	int ret;

	memset(q, 0, sizeof(*q));
	q->id = id;
	q->ops = ops;
	q->arg = arg;
	*step = "ibv_alloc_pd";
	if (!id->verbs || fake.dev_gone)
		return -ENODEV;
	q->pd = calloc(1, sizeof(*q->pd));
	if (!q->pd)
		return -ENOMEM;
	q->pd->context = id->verbs;
	*step = "completion queue";
	ret = rdma_cq_open(&q->cq, base, id->verbs,
			   (int)(a->send_depth + a->recv_depth), a->polled, q,
			   fake_qp_wc, fake_qp_cq_fail, q);
	if (ret)
		goto err;
	*step = "ibv_create_qp";
	fq = calloc(1, sizeof(*fq));
	if (!fq) {
		ret = -ENOMEM;
		goto err;
	}
	fq->qp.context = id->verbs;
	fq->qp.qp_context = q;
	fq->qp.pd = q->pd;
	fq->qp.qp_num = fake_qpn++;
	fq->qp.qp_type = IBV_QPT_RC;
	fq->qp.state = IBV_QPS_INIT;
	fq->q = q;
	fq->fid = fake_id_of(id);
	fq->held_tail = &fq->held;
	fq->next = fake_qps;
	fake_qps = fq;
	fake_id_of(id)->qp = fq;
	q->qp = &fq->qp;
	fake.n.qps++;
	return 0;
err:
	rdma_qp_destroy(q);
	return ret;
}

void rdma_qp_destroy(struct rdma_qp *q)
{
	struct fake_qp *fq = fake_qp_of(q), **pp;
	struct fake_wr *h;

	if (fq) {
		for (pp = &fake_qps; *pp; pp = &(*pp)->next) {
			if (*pp == fq) {
				*pp = fq->next;
				break;
			}
		}
		if (fq->fid && fq->fid->qp == fq)
			fq->fid->qp = NULL;
		while ((h = fq->held)) {
			fq->held = h->next;
			free(h);
		}
		free(fq->rq);
		free(fq);
		fake.n.qps--;
	}
	q->qp = NULL;
	while (q->bufs)
		rdma_qp_buf_free(q, q->bufs);
	rdma_cq_close(&q->cq);
	free(q->pd);
	q->pd = NULL;
}

int rdma_qp_buf(struct rdma_qp *q, struct rdma_buf *b, size_t len,
		int access)
{
	int ret;

	rdma_qp_buf_free(q, b);
	ret = rdma_buf_alloc(b, q->pd, len, access);
	if (ret)
		return ret;
	b->next = q->bufs;
	q->bufs = b;
	return 0;
}

void rdma_qp_buf_free(struct rdma_qp *q, struct rdma_buf *b)
{
	struct rdma_buf **pp;

	for (pp = &q->bufs; *pp; pp = &(*pp)->next) {
		if (*pp == b) {
			*pp = b->next;
			break;
		}
	}
	b->next = NULL;
	rdma_buf_free(b);
}

int rdma_qp_accept(struct rdma_qp *q, const struct rdma_cm_ev *req,
		   const struct ibv_device_attr *da, const void *pdata,
		   uint8_t pdata_len)
{
	struct fake_id *s = fake_id_of(q->id), *c = s->peer;

	(void)req;
	(void)da;
	if (fake.dev_gone)
		return -ENODEV;
	fake_qp_of(q)->qp.state = IBV_QPS_RTS;
	if (c)
		fake_cm_queue(c, RDMA_CM_EVENT_CONNECT_RESPONSE, 0, NULL, pdata,
			      pdata_len);
	return 0;
}

int rdma_qp_connect(struct rdma_qp *q, const struct ibv_device_attr *da,
		    const void *pdata, uint8_t pdata_len)
{
	(void)da;
	if (fake.dev_gone)
		return -ENODEV;
	fake_cm_connect(fake_id_of(q->id), pdata, pdata_len, 16, 16);
	return 0;
}

int rdma_qp_establish(struct rdma_qp *q)
{
	struct fake_id *c = fake_id_of(q->id), *s = c->peer;

	c->waiting = false;
	if (!s)
		return -ECONNRESET;
	fake_qp_of(q)->qp.state = IBV_QPS_RTS;
	c->connected = true;
	s->connected = true;
	fake_cm_queue(s, RDMA_CM_EVENT_ESTABLISHED, 0, NULL, NULL, 0);
	return 0;
}

int rdma_qp_disconnect(struct rdma_qp *q, int *flush_err)
{
	struct fake_id *f = fake_id_of(q->id), *p = f->peer;
	struct fake_qp *fq = fake_qp_of(q);
	int ret = 0;

	*flush_err = 0;
	if (!f->connected) {
		ret = -EINVAL;
	} else {
		f->connected = false;
		fake_cm_queue(f, RDMA_CM_EVENT_DISCONNECTED, 0, NULL, NULL, 0);
		if (p && p->connected) {
			p->connected = false;
			fake_cm_queue(p, RDMA_CM_EVENT_DISCONNECTED, 0, NULL,
				      NULL, 0);
		}
	}
	if (fq)
		fake_qp_error(fq);
	return ret;
}

int rdma_qp_post_recv(struct rdma_qp *q, uint64_t wr_id, void *addr,
		      uint32_t len, uint32_t lkey)
{
	struct fake_qp *fq = fake_qp_of(q);

	(void)lkey;
	if (!fq)
		return -EINVAL;
	q->posted_recv++;
	if (fq->err) {
		fake_wc(fq, wr_id, IBV_WC_WR_FLUSH_ERR, IBV_WC_RECV, 0);
		return 0;
	}
	if (fq->rq_n == fq->rq_cap) {
		unsigned int cap = fq->rq_cap ? fq->rq_cap * 2 : 16;
		struct fake_recv *rq = realloc(fq->rq, cap * sizeof(*rq));

		if (!rq) {
			q->posted_recv--;
			return -ENOMEM;
		}
		fq->rq = rq;
		fq->rq_cap = cap;
	}
	fq->rq[fq->rq_n++] = (struct fake_recv){ wr_id, addr, len };
	fake_qp_kick_peer(fq);
	return 0;
}

int rdma_qp_post_send(struct rdma_qp *q, struct ibv_send_wr *wr)
{
	struct fake_qp *fq = fake_qp_of(q);
	struct ibv_send_wr *w;

	if (!fq)
		return -EINVAL;
	for (w = wr; w; w = w->next) {
		q->posted_send++;
		fake_send_one(fq, w);
	}
	return 0;
}

int rdma_qp_post_liveness(struct rdma_qp *q, uint64_t wr_id)
{
	struct ibv_send_wr wr = {
		.wr_id = wr_id,
		.num_sge = 0,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
	};

	return rdma_qp_post_send(q, &wr);
}

int rdma_qp_poll(struct rdma_qp *q)
{
	return rdma_cq_poll(&q->cq);
}

void rdma_qp_describe(struct rdma_qp *q, char *buf, size_t len)
{
	(void)q;
	snprintf(buf, len, "QP: the fake's (a silent peer is never given up "
		 "on: the owner's deadline ends it)");
}
