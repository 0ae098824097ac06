/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_native.c - the client's native session with rdmad: the
 * HELLO in the connect request, the welcome in the answer, AUTH when the
 * server has a pre-shared key, its DESC, our READs (checked against the
 * server's pattern) and WRITEs (of our own), DONE and the server's RESULT
 * or ABORT.  The state machine decides when; these carry it out.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "crc32c.h"
#include "pattern.h"
#include "rdma_client_native.h"
#include "rdma_log.h"

static int native_bufs_make(struct rdma_client *c)
{
	const struct rdma_client_opts *o = &c->o;
	/* Mesh: what is written, then what is read back. */
	size_t len = (size_t)o->size * (o->mesh ? 2 : o->depth);
	/* A READ's destination needs local write access; the server gets
	 * no key of ours. */
	int access = (o->ops & PROTO_OP_READ) ? IBV_ACCESS_LOCAL_WRITE : 0;
	int ret;

	ret = rdma_qp_buf(&c->q, &c->data, len, access);
	if (ret)
		return ret;
	c->slot_posted = calloc(o->depth, sizeof(*c->slot_posted));
	c->wrs = calloc(o->depth, sizeof(*c->wrs));
	c->sges = calloc(o->depth, sizeof(*c->sges));
	if (!c->slot_posted || !c->wrs || !c->sges)
		return -ENOMEM;
	if (o->verify && (o->ops & PROTO_OP_READ) && !o->mesh) {
		c->ref = malloc(o->size);
		if (!c->ref)
			return -ENOMEM;
		pattern_fill(c->ref, o->size, o->seed, PROTO_ITER_READ);
	}
	return 0;
}

int rdma_client_native_bufs(struct rdma_client *c)
{
	int ret = native_bufs_make(c);

	if (ret)
		rdma_client_conn_error(c, "cannot allocate or register %u x "
				       "%u-byte buffers: %s", c->o.depth,
				       c->o.size, strerror(-ret));
	return ret;
}

int rdma_client_native_hello(struct rdma_client *c, uint8_t *buf,
			     size_t len)
{
	struct proto_hello h;

	memset(&h, 0, sizeof(h));
	h.version = PROTO_VERSION;
	/* A mesh HELLO asks for both, whatever its rounds do. */
	h.ops = c->o.mesh ? PROTO_OP_READ | PROTO_OP_WRITE : c->o.ops;
	h.flags = c->o.verify ? PROTO_F_VERIFY : 0;
	if (c->o.mesh)
		h.flags |= PROTO_F_MESH;
	h.size = c->o.size;
	h.iters = c->o.iters;
	h.seed = c->o.seed;
	c->hello = h;
	return proto_hello_encode(&h, buf, len);
}

enum rdma_client_event rdma_client_native_welcome(struct rdma_client *c)
{
	const struct rdma_client_opts *o = &c->o;
	const char *why = "?";

	if (proto_welcome_decode(c->resp.pdata, c->resp.pdata_len,
				 &c->welcome, &why)) {
		rdma_client_conn_error(c, "server did not answer with an rdmad "
				       "welcome (%s); for an rping server use "
				       "--rping", why);
		return RDMA_CLIENT_EV_PROTO_ERR;
	}
	c->have_welcome = true;
	rdma_client_conn_log(c, LOG_INFO, "welcome: server connection %" PRIu64
			     ", max size %u, max iterations %u",
			     c->welcome.conn_id, c->welcome.max_size,
			     c->welcome.max_iters);
	if (c->welcome.max_size < o->size || c->welcome.max_iters < o->iters) {
		rdma_client_conn_error(c, "server accepted beyond its limits "
				       "(size %u > %u or iterations %u > %u)",
				       o->size, c->welcome.max_size, o->iters,
				       c->welcome.max_iters);
		return RDMA_CLIENT_EV_PROTO_ERR;
	}
	if (!(c->welcome.flags & PROTO_WELCOME_F_AUTH))
		return RDMA_CLIENT_EV_ESTABLISHED;
	if (!o->psk) {
		rdma_client_conn_reason(c, "key required");
		rdma_client_conn_error(c, "server requires a pre-shared key: "
				       "give it with --psk-file FILE");
		return RDMA_CLIENT_EV_KEY_ERR;
	}
	return RDMA_CLIENT_EV_ESTABLISHED_AUTH;
}

/*
 * The server wants proof of the pre-shared key before it shows its buffer:
 * AUTH, a MAC over its nonce, its connection number and our HELLO, and
 * (F_BIND) the address and port we connected to, so that the proof is
 * good for that server only, not for one a relay passes it on to.
 */
enum rdma_client_event rdma_client_native_send_auth(struct rdma_client *c,
						    const struct rdma_client_step *st)
{
	(void)st;
	struct auth_bind b;
	struct proto_auth a;
	int n, ret = 0;

	if (c->welcome.flags & PROTO_WELCOME_F_BIND)
		ret = auth_bind_of(&b, rdma_get_peer_addr(c->id));
	if (!ret)
		ret = auth_mac_bound(c->o.psk, &c->welcome, &c->hello,
				     c->welcome.flags & PROTO_WELCOME_F_BIND ?
				     &b : NULL, a.mac);
	if (ret) {
		rdma_client_conn_error(c, "cannot compute the AUTH MAC: %s",
				       strerror(-ret));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	n = proto_auth_encode(&a, rdma_client_conn_send_slot(c),
			      RDMA_CLIENT_SLOT_LEN);
	if (n < 0) {
		rdma_client_conn_error(c, "cannot encode AUTH: %s",
				       strerror(-n));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	ret = rdma_client_conn_send(c, (uint32_t)n, 0);
	if (ret) {
		rdma_client_conn_error(c, "ibv_post_send (AUTH): %s",
				       strerror(-ret));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	rdma_client_conn_log(c, LOG_INFO, "AUTH sent");
	return RDMA_CLIENT_EV_NONE;
}

static uint8_t *native_slot(struct rdma_client *c, uint32_t iter)
{
	return c->data.p + (size_t)(iter % c->o.depth) * c->o.size;
}

/*
 * Post operations iter .. iter + count - 1 as one chain.  The state
 * machine guarantees that the slots they use are free: operation
 * i - depth has completed and, for a READ, been checked.
 */
static enum rdma_client_event native_post(struct rdma_client *c, bool read,
					 uint32_t iter, uint32_t count)
{
	const struct rdma_client_opts *o = &c->o;
	enum rdma_wr_kind kind = read ? RDMA_WR_READ : RDMA_WR_WRITE;
	uint32_t k, it;
	uint64_t now;
	uint8_t *buf;
	int ret;

	for (k = 0; k < count; k++) {
		it = iter + k;
		buf = native_slot(c, it);
		/* A READ that moves nothing must not pass. */
		if (read && o->verify)
			memset(buf, 0, o->size);
		/* Unverified runs fill only the last WRITE, which the
		 * server checks whatever the hello says. */
		if (!read && (o->verify || it + 1 == c->fsm.limit))
			pattern_fill(buf, o->size, o->seed, it);
		c->sges[k].addr = (uintptr_t)buf;
		c->sges[k].length = o->size;
		c->sges[k].lkey = c->data.mr->lkey;
		memset(&c->wrs[k], 0, sizeof(c->wrs[k]));
		c->wrs[k].wr_id = rdma_wr_id(kind, it);
		c->wrs[k].sg_list = &c->sges[k];
		c->wrs[k].num_sge = 1;
		c->wrs[k].opcode = read ? IBV_WR_RDMA_READ : IBV_WR_RDMA_WRITE;
		c->wrs[k].send_flags = IBV_SEND_SIGNALED;
		c->wrs[k].wr.rdma.remote_addr = c->desc.addr;
		c->wrs[k].wr.rdma.rkey = c->desc.rkey;
		c->wrs[k].next = k + 1 < count ? &c->wrs[k + 1] : NULL;
		rdma_client_conn_log(c, LOG_DEBUG, "RDMA %s %u, %u bytes",
				     read ? "READ" : "WRITE", it + 1, o->size);
	}
	now = clock_now_ns();
	for (k = 0; k < count; k++)
		c->slot_posted[(iter + k) % o->depth] = now;
	if (!c->t.ops_start)
		c->t.ops_start = now;
	ret = rdma_qp_post_send(&c->q, &c->wrs[0]);
	if (ret) {
		rdma_client_conn_error(c, "ibv_post_send (RDMA %s): %s",
				       read ? "READ" : "WRITE", strerror(-ret));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	return RDMA_CLIENT_EV_NONE;
}

static enum rdma_client_event native_post_read(struct rdma_client *c,
					      const struct rdma_client_step *st)
{
	return native_post(c, true, st->iter, st->count);
}

static enum rdma_client_event native_post_write(struct rdma_client *c,
					       const struct rdma_client_step *st)
{
	return native_post(c, false, st->iter, st->count);
}

static enum rdma_client_event native_verify(struct rdma_client *c,
					    const struct rdma_client_step *st)
{
	uint32_t iter = st->iter;
	const uint8_t *buf = native_slot(c, iter);
	uint32_t i, size = c->o.size;

	if (!memcmp(buf, c->ref, size))
		return RDMA_CLIENT_EV_CHECK_OK;
	for (i = 0; i < size; i++)
		if (buf[i] != c->ref[i])
			break;
	rdma_client_conn_error(c, "READ %u: data differs from the server's "
			       "pattern at offset %u (got 0x%02x, expected "
			       "0x%02x)", iter + 1, i, buf[i], c->ref[i]);
	return RDMA_CLIENT_EV_CHECK_BAD;
}

static enum rdma_client_event native_send_done(struct rdma_client *c,
					      const struct rdma_client_step *st)
{
	struct proto_done d;
	int n, ret;

	(void)st;
	memset(&d, 0, sizeof(d));
	d.reads_done = c->fsm.reads_done;
	d.writes_done = c->fsm.writes_done;
	if (d.writes_done) {
		/* The last WRITE went alone, after all the others: its slot
		 * holds what the server's buffer must hold now. */
		d.last_write_iter = d.writes_done - 1;
		c->write_crc = crc32c(0, native_slot(c, d.last_write_iter),
				      c->o.size);
		d.crc32c = c->write_crc;
	}
	evtimer_del(c->dur_timer);
	n = proto_done_encode(&d, rdma_client_conn_send_slot(c),
			      RDMA_CLIENT_SLOT_LEN);
	if (n < 0) {
		rdma_client_conn_error(c, "cannot encode DONE: %s",
				       strerror(-n));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	c->t.ops_end = clock_now_ns();
	c->t.done_sent = c->t.ops_end;
	ret = rdma_client_conn_send(c, (uint32_t)n, 0);
	if (ret) {
		rdma_client_conn_error(c, "ibv_post_send (DONE): %s",
				       strerror(-ret));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	return RDMA_CLIENT_EV_NONE;
}

/*
 * The server ends the session itself and says why (a newer rdmad; an
 * older one just disconnects).  Its disconnect follows; the reason is
 * what the run reports.
 */
static enum rdma_client_event native_abort(struct rdma_client *c,
					   const uint8_t *buf, uint32_t len)
{
	struct proto_abort a;
	const char *why = "?";
	char text[200];

	if (proto_abort_decode(buf, len, &a, &why)) {
		rdma_client_conn_error(c, "bad ABORT from server: %s", why);
		return RDMA_CLIENT_EV_PROTO_ERR;
	}
	rdma_client_conn_reason(c, "ended by server");
	rdma_client_conn_error(c, "server ended the session: %s",
			       proto_abort_str(&a, text, sizeof(text)));
	return rdma_client_fsm_abort_event(a.reason);
}

static enum rdma_client_event native_result(struct rdma_client *c,
					    const uint8_t *buf, uint32_t len)
{
	struct proto_result r;
	const char *why = "?";

	if (proto_result_decode(buf, len, &r, &why)) {
		rdma_client_conn_error(c, "bad RESULT from server: %s", why);
		return RDMA_CLIENT_EV_PROTO_ERR;
	}
	c->t.result = clock_now_ns();
	if (r.status == PROTO_RES_BAD_DONE) {
		rdma_client_conn_error(c, "server found our DONE inconsistent "
				       "with the hello");
		return RDMA_CLIENT_EV_PROTO_ERR;
	}
	if (r.status == PROTO_RES_MISMATCH) {
		if (r.first_bad_offset == PROTO_NO_BAD_OFFSET)
			rdma_client_conn_error(c, "server found the last "
					       "WRITE's data wrong (crc32c: "
					       "server 0x%08x, probe 0x%08x)",
					       r.crc32c_seen, c->write_crc);
		else
			rdma_client_conn_error(c, "server found the last "
					       "WRITE's data wrong at offset "
					       "%u (crc32c: server 0x%08x, "
					       "probe 0x%08x)",
					       r.first_bad_offset,
					       r.crc32c_seen, c->write_crc);
		return RDMA_CLIENT_EV_RESULT_BAD;
	}
	if (c->fsm.writes_done && r.crc32c_seen != c->write_crc) {
		rdma_client_conn_error(c, "server reports OK but saw crc32c "
				       "0x%08x, probe wrote 0x%08x",
				       r.crc32c_seen, c->write_crc);
		return RDMA_CLIENT_EV_RESULT_BAD;
	}
	return RDMA_CLIENT_EV_RESULT_OK;
}

enum rdma_client_event rdma_client_native_msg(struct rdma_client *c,
					      const uint8_t *buf,
					      uint32_t len, uint32_t bytes)
{
	const char *why = "?";
	int type;

	(void)bytes;
	type = proto_msg_type(buf, len, &why);
	if (type < 0) {
		rdma_client_conn_error(c, "malformed message from server (%u "
				       "bytes): %s", len, why);
		return RDMA_CLIENT_EV_PROTO_ERR;
	}
	switch (type) {
	case PROTO_MSG_DESC:
		if (proto_desc_decode(buf, len, &c->desc, &why) ||
		    proto_desc_check(&c->desc, c->o.size, c->o.ops, &why)) {
			rdma_client_conn_error(c, "bad descriptor from server: "
					       "%s", why);
			return RDMA_CLIENT_EV_PROTO_ERR;
		}
		c->t.desc = clock_now_ns();
		rdma_client_conn_log(c, LOG_DEBUG, "DESC addr 0x%" PRIx64
				     " len %u access 0x%x", c->desc.addr,
				     c->desc.len, c->desc.access);
		return RDMA_CLIENT_EV_DESC_OK;
	case PROTO_MSG_RESULT:
		return native_result(c, buf, len);
	case PROTO_MSG_ABORT:
		return native_abort(c, buf, len);
	default:
		rdma_client_conn_error(c, "unexpected message type %d from "
				       "server", type);
		return RDMA_CLIENT_EV_PROTO_ERR;
	}
}

/* An operation completed: the machine's OP_DONE, the embedder's figure. */
static enum rdma_client_event native_rdma_done(struct rdma_client *c,
					       const struct ibv_wc *wc,
					       uint64_t done)
{
	if (!c->slot_posted)
		return RDMA_CLIENT_EV_NONE;
	c->op_done.set = true;
	c->op_done.kind = rdma_wr_kind(wc->wr_id) == RDMA_WR_READ ?
			  RDMA_CLIENT_OP_READ : RDMA_CLIENT_OP_WRITE;
	c->op_done.posted = c->slot_posted[rdma_wr_idx(wc->wr_id) %
					   c->o.depth];
	c->op_done.done = done;
	c->progress = done;
	return RDMA_CLIENT_EV_OP_DONE;
}

static void native_init(struct rdma_client *c)
{
	struct rdma_client_opts *o = &c->o;

	if (!o->depth)
		o->depth = 1;
	rdma_client_fsm_init(&c->fsm, false, o->ops, o->iters, o->verify);
	rdma_client_fsm_pipeline(&c->fsm, o->depth, o->duration_ms != 0);
}

static const struct rdma_client_proto_act native_acts[] = {
	{ RDMA_CLIENT_ACT_SEND_AUTH, rdma_client_native_send_auth, true },
	{ RDMA_CLIENT_ACT_POST_READ, native_post_read, false },
	{ RDMA_CLIENT_ACT_POST_WRITE, native_post_write, false },
	{ RDMA_CLIENT_ACT_VERIFY_READ, native_verify, false },
	{ RDMA_CLIENT_ACT_SEND_DONE, native_send_done, false },
	{ 0, NULL, false },
};

const struct rdma_client_proto rdma_client_native_proto = {
	.name = "native",
	.init = native_init,
	.bufs = rdma_client_native_bufs,
	.hello = rdma_client_native_hello,
	.established = rdma_client_native_welcome,
	.msg = rdma_client_native_msg,
	.rdma_done = native_rdma_done,
	.acts = native_acts,
};
