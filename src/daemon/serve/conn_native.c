/* SPDX-License-Identifier: BSD-2-Clause */
/* conn_native.c - the native session of a connection (see conn_native.h). */
#include <errno.h>
#include <string.h>
#include <sys/types.h>

#include "auth.h"
#include "serve/conn_admit.h"
#include "serve/conn_end.h"
#include "serve/conn_log.h"
#include "core/log.h"
#include "serve/conn_native.h"
#include "serve/conn_post.h"
#include "serve/conn_set.h"
#include "crc32c.h"
#include "pattern.h"

/* Least access: only what the client said it will do; a mesh client
 * writes each round and reads it back. */
int conn_native_buf(struct conn *c)
{
	int ret, access = 0;

	if ((c->hello.ops & PROTO_OP_READ) || c->fsm.mesh)
		access |= IBV_ACCESS_REMOTE_READ;
	if ((c->hello.ops & PROTO_OP_WRITE) || c->fsm.mesh)
		access |= IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	ret = rdma_qp_buf(&c->qp, &c->buf, c->hello.size, access);
	if (ret)
		return ret;
	if (c->hello.ops & PROTO_OP_READ)
		pattern_fill(c->buf.p, c->buf.len, c->hello.seed,
			     PROTO_ITER_READ);
	return 0;
}

int conn_native_send_desc(struct conn *c)
{
	struct proto_desc desc;
	uint8_t *p;
	int n;

	/* With a key the buffer exists only once the client proved it. */
	if (!c->buf.mr) {
		n = conn_native_buf(c);
		if (n)
			return n;
	}
	desc.addr = (uintptr_t)c->buf.p;
	desc.rkey = c->buf.mr->rkey;
	desc.len = (uint32_t)c->buf.len;
	desc.access = c->hello.ops;
	p = conn_post_slot(c);
	n = proto_desc_encode(&desc, p, PROTO_MSG_MAX);
	if (n < 0)
		return n;
	return conn_post_msg(c, p, (size_t)n);
}

void conn_native_verify(struct conn *c)
{
	const struct proto_hello *h = &c->hello;
	const struct proto_done *d = &c->done;
	struct proto_result *r = &c->result;
	ssize_t bad;

	r->status = PROTO_RES_OK;
	r->crc32c_seen = 0;
	r->first_bad_offset = PROTO_NO_BAD_OFFSET;
	c->bytes = ((uint64_t)d->reads_done + d->writes_done) * h->size;
	c->rounds = (uint64_t)d->reads_done + d->writes_done;

	if (d->reads_done > h->iters || d->writes_done > h->iters ||
	    (d->reads_done && !(h->ops & PROTO_OP_READ)) ||
	    (d->writes_done && !(h->ops & PROTO_OP_WRITE)) ||
	    (d->writes_done && d->last_write_iter >= h->iters) ||
	    (!d->writes_done && d->crc32c)) {
		r->status = PROTO_RES_BAD_DONE;
		conn_end(c, CONN_CAUSE_BAD_DONE, 0, NULL,
			 "DONE inconsistent with hello: "
				"reads %u writes %u last_write_iter %u, asked "
				"ops %#x iters %u", d->reads_done, d->writes_done,
				d->last_write_iter, h->ops, h->iters);
		return;
	}
	stats_rdma(c->s->stats, STATS_PROTO_NATIVE, STATS_OP_READ,
		   d->reads_done, (uint64_t)d->reads_done * h->size, 0);
	stats_rdma(c->s->stats, STATS_PROTO_NATIVE, STATS_OP_WRITE,
		   d->writes_done, (uint64_t)d->writes_done * h->size, 0);
	if (!d->writes_done)
		return;
	r->crc32c_seen = crc32c(0, c->buf.p, h->size);
	bad = pattern_check(c->buf.p, h->size, h->seed, d->last_write_iter);
	if (bad >= 0 || r->crc32c_seen != d->crc32c) {
		r->status = PROTO_RES_MISMATCH;
		if (bad >= 0)
			r->first_bad_offset = (uint32_t)bad;
		conn_end(c, CONN_CAUSE_MISMATCH, 0, NULL,
			 "written data differ: first bad "
				"offset %zd, crc32c seen %08x, client says %08x",
				bad, r->crc32c_seen, d->crc32c);
	}
}

int conn_native_send_result(struct conn *c)
{
	uint8_t *p = conn_post_slot(c);
	int n = proto_result_encode(&c->result, p, PROTO_MSG_MAX);

	if (n < 0)
		return n;
	return conn_post_msg(c, p, (size_t)n);
}

/* Tell the client why we end its session; the disconnect waits for it. */
int conn_native_send_abort(struct conn *c)
{
	uint8_t *p = conn_post_slot(c);
	const struct proto_abort *a = conn_end_abort_msg(c);
	char text[160];
	int n;

	n = proto_abort_encode(a, p, PROTO_MSG_MAX);
	if (n < 0)
		return n;
	conn_log(c, LOG_DEBUG, NULL, "ABORT to the client: %s",
		 proto_abort_str(a, text, sizeof(text)));
	return conn_post_send(c, RDMA_WR_ABORT, p, (size_t)n);
}

/* An AUTH message: right key, or the connection ends here. */
static enum conn_event conn_native_auth(struct conn *c, const uint8_t *p,
					uint32_t len)
{
	struct auth_bind b;
	struct proto_auth a;
	const char *why = NULL;
	int ret;

	if (c->fsm.recv != CONN_RS_WAIT_AUTH)
		return CONN_EV_RECV_AUTH;	/* a second one: the FSM refuses */
	if (proto_auth_decode(p, len, &a, &why)) {
		char tell[PROTO_ABORT_TEXT_MAX + 1];

		conn_log(c, LOG_WARNING, NULL, "bad AUTH message: %s", why);
		snprintf(tell, sizeof(tell), "bad AUTH: %s", why);
		conn_end(c, CONN_CAUSE_BAD_MESSAGE, 0, tell, "%s", why);
		return CONN_EV_RECV_BAD;
	}
	/* The proof must name this server: the address and port the
	 * connection arrived on. */
	ret = auth_bind_of(&b, rdma_get_local_addr(c->cm_id));
	if (!ret)
		ret = auth_verify(&c->s->cfg->psk, &c->welcome, &c->hello, &b,
				  a.mac);
	if (ret) {
		conn_log(c, LOG_WARNING, NULL, "authentication failed: %s; "
			 "disconnecting (nothing revealed)",
			 ret == -EACCES ? "wrong key" : strerror(-ret));
		conn_end(c, CONN_CAUSE_AUTH_FAILED, 0, ret == -EACCES ?
			 "wrong pre-shared key" : "server error", "%s",
			 ret == -EACCES ? "wrong pre-shared key" :
			 strerror(-ret));
		return CONN_EV_RECV_BAD;
	}
	conn_log(c, LOG_INFO, NULL, "client authenticated (pre-shared key)");
	return CONN_EV_RECV_AUTH;
}

enum conn_event conn_native_recv(struct conn *c, const uint8_t *p,
				 uint32_t len)
{
	const char *why = NULL;
	int type;

	type = proto_msg_type(p, len, &why);
	if (type == PROTO_MSG_DONE &&
	    !proto_done_decode(p, len, &c->done, &why))
		return CONN_EV_RECV_DONE;
	if (type == PROTO_MSG_AUTH && c->fsm.auth)
		return conn_native_auth(c, p, len);
	if (type > 0)
		why = "unexpected message type from client";
	conn_log(c, LOG_WARNING, NULL, "bad message (%u bytes): %s", len, why);
	conn_end(c, CONN_CAUSE_BAD_MESSAGE, 0, NULL, "%s", why);
	return CONN_EV_RECV_BAD;
}

static void conn_native_init(struct conn *c, const struct conn_admit *a)
{
	if (c->s->cfg->psk.len)
		conn_fsm_init_auth(&c->fsm);
	else
		conn_fsm_init(&c->fsm, CONN_PROTO_NATIVE);
	c->hello = a->hello;
	if (a->hello.flags & PROTO_F_MESH)
		conn_fsm_init_mesh(&c->fsm);
}

/* Without a key the buffer now, so that a client that cannot have it is
 * rejected rather than accepted and dropped. */
static int conn_native_setup(struct conn *c)
{
	return c->fsm.auth ? 0 : conn_native_buf(c);
}

/* The WELCOME (with a key: a fresh nonce, and the key bound to this
 * server). */
static int conn_native_welcome(struct conn *c, uint8_t *pdata, size_t len)
{
	struct proto_welcome *w = &c->welcome;

	memset(w, 0, sizeof(*w));
	w->version = PROTO_VERSION;
	w->max_size = c->s->cfg->max_buffer_size;
	w->max_iters = c->s->cfg->max_iterations;
	w->conn_id = c->id;
	if (c->fsm.auth) {
		w->flags = PROTO_WELCOME_F_AUTH | PROTO_WELCOME_F_BIND;
		if (auth_nonce(w->nonce))
			return -EIO;
	}
	return proto_welcome_encode(w, pdata, len);
}

static int conn_native_verify_act(struct conn *c)
{
	conn_native_verify(c);
	return 0;
}

static const struct conn_proto_act conn_native_acts[] = {
	{ CONN_ACT_SEND_DESC, conn_native_send_desc },
	{ CONN_ACT_VERIFY, conn_native_verify_act },
	{ CONN_ACT_SEND_RESULT, conn_native_send_result },
	{ CONN_ACT_SEND_ABORT, conn_native_send_abort },
	{ 0, NULL },
};

/* The server posts no RDMA operation of a native session. */
static enum conn_event conn_native_rdma_done(struct conn *c,
					     enum rdma_wr_kind kind)
{
	conn_end(c, CONN_CAUSE_INTERNAL, 0, NULL, "%s completion in a "
		 "native session", rdma_wr_str(kind));
	return CONN_EV_WC_ERROR;
}

static void conn_native_opened(struct conn *c)
{
	const struct proto_hello *h = &c->hello;
	const struct conn_set *s = c->s;

	if (c->fsm.mesh)
		conn_log(c, LOG_INFO, LOG_MSGID_CONN_OPEN, "open: native mesh, "
			 "size %u, connection %u/%u%s", h->size,
			 conn_set_count(s), s->cfg->max_connections,
			 c->fsm.auth ? ", key required" : "");
	else
		conn_log(c, LOG_INFO, LOG_MSGID_CONN_OPEN, "open: native, ops "
			 "%s%s%s, size %u, %u iterations, connection %u/%u%s",
			 h->ops & PROTO_OP_READ ? "read" : "",
			 h->ops == PROTO_OP_MASK ? "+" : "",
			 h->ops & PROTO_OP_WRITE ? "write" : "",
			 h->size, h->iters, conn_set_count(s),
			 s->cfg->max_connections,
			 c->fsm.auth ? ", key required" : "");
}

const struct conn_proto_ops conn_native_ops = {
	.rounds_unit = "operations",
	.init = conn_native_init,
	.setup = conn_native_setup,
	.accept_pdata = conn_native_welcome,
	.acts = conn_native_acts,
	.recv = conn_native_recv,
	.rdma_done = conn_native_rdma_done,
	.opened = conn_native_opened,
};
