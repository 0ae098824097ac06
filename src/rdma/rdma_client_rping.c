/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_rping.c - the client's rping session, as the stock rping
 * client runs it: advertise a source, the server READs it and says go
 * ahead; advertise a sink, the server WRITEs what it read and says go
 * ahead; the sink must equal the source.  The state machine decides when.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "rdma_client_rping.h"
#include "rdma_log.h"

static int rping_bufs(struct rdma_client *c)
{
	int ret;

	/* Least access: the server writes the sink, reads the source. */
	ret = rdma_qp_buf(&c->q, &c->sink, c->o.size,
			  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!ret)
		ret = rdma_qp_buf(&c->q, &c->source, c->o.size,
				  IBV_ACCESS_REMOTE_READ);
	if (ret)
		rdma_client_conn_error(c, "cannot allocate or register 2 x "
				       "%u-byte buffers: %s", c->o.size,
				       strerror(-ret));
	return ret;
}

/*
 * rping source text: "rdma-probe ping N: " then letters and digits that
 * shift with the seed and the iteration, NUL-terminated (the server
 * writes back strlen() + 1 bytes, so there must be no NUL before the
 * last byte).
 */
static void rping_text(uint8_t *buf, uint32_t size, uint64_t seed,
		       uint32_t iter)
{
	static const char abc[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz";
	char head[40];
	uint32_t i, n;
	int len;

	len = snprintf(head, sizeof(head), "rdma-probe ping %u: ", iter);
	n = (uint32_t)len < size - 1 ? (uint32_t)len : size - 1;
	memcpy(buf, head, n);
	for (i = n; i + 1 < size; i++)
		buf[i] = (uint8_t)abc[(seed + iter + i) % (sizeof(abc) - 1)];
	buf[size - 1] = '\0';
}

static enum rdma_client_event rping_advert(struct rdma_client *c,
					   bool source, uint32_t iter)
{
	struct proto_rping_info info;
	int n, ret;

	if (source) {
		rping_text(c->source.p, c->o.size, c->o.seed, iter);
		memset(c->sink.p, 0, c->o.size);
		info.buf = (uintptr_t)c->source.p;
		info.rkey = c->source.mr->rkey;
		rdma_client_conn_log(c, LOG_DEBUG, "ping %u/%u: source advert, "
				     "%u bytes", iter + 1, c->o.iters,
				     c->o.size);
		c->ping_posted = clock_now_ns();
		if (!c->t.ops_start)
			c->t.ops_start = c->ping_posted;
	} else {
		info.buf = (uintptr_t)c->sink.p;
		info.rkey = c->sink.mr->rkey;
		rdma_client_conn_log(c, LOG_DEBUG, "ping %u/%u: sink advert",
				     iter + 1, c->o.iters);
	}
	info.size = c->o.size;
	n = proto_rping_encode(&info, rdma_client_conn_send_slot(c),
			       RDMA_CLIENT_SLOT_LEN);
	if (n < 0) {
		rdma_client_conn_error(c, "cannot encode rping advert: %s",
				       strerror(-n));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	ret = rdma_client_conn_send(c, (uint32_t)n, iter);
	if (ret) {
		rdma_client_conn_error(c, "ibv_post_send (rping advert): %s",
				       strerror(-ret));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	return RDMA_CLIENT_EV_NONE;
}

static enum rdma_client_event rping_source(struct rdma_client *c,
					   const struct rdma_client_step *st)
{
	return rping_advert(c, true, st->iter);
}

static enum rdma_client_event rping_sink(struct rdma_client *c,
					 const struct rdma_client_step *st)
{
	return rping_advert(c, false, st->iter);
}

static enum rdma_client_event rping_verify(struct rdma_client *c,
					   const struct rdma_client_step *st)
{
	uint32_t iter = st->iter;
	uint32_t i, size = c->o.size;
	uint64_t done = clock_now_ns();

	if (c->ops->op)
		c->ops->op(c->arg, RDMA_CLIENT_OP_PING, size, c->ping_posted,
			   done);
	if (++c->pings_timed == c->o.iters)
		c->t.ops_end = done;
	for (i = 0; i < size; i++)
		if (c->sink.p[i] != c->source.p[i])
			break;
	if (i == size)
		return RDMA_CLIENT_EV_CHECK_OK;
	rdma_client_conn_error(c, "ping %u of %u: sink differs from source at "
			       "offset %u (got 0x%02x, expected 0x%02x)",
			       iter + 1, c->o.iters, i, c->sink.p[i],
			       c->source.p[i]);
	return RDMA_CLIENT_EV_CHECK_BAD;
}

/* The server's go-ahead: its length is all it says. */
static enum rdma_client_event rping_msg(struct rdma_client *c,
					const uint8_t *buf, uint32_t len,
					uint32_t bytes)
{
	(void)buf;
	(void)len;
	if (bytes == PROTO_RPING_INFO_LEN)
		return RDMA_CLIENT_EV_GO_AHEAD;
	rdma_client_conn_error(c, "rping go-ahead of %u bytes, expected %d",
			       bytes, PROTO_RPING_INFO_LEN);
	return RDMA_CLIENT_EV_PROTO_ERR;
}

/* One operation in flight; no mesh, no HELLO. */
static void rping_init(struct rdma_client *c)
{
	struct rdma_client_opts *o = &c->o;

	o->mesh = false;
	o->depth = 1;
	rdma_client_fsm_init(&c->fsm, true, o->ops, o->iters, o->verify);
	rdma_client_fsm_pipeline(&c->fsm, o->depth, o->duration_ms != 0);
}

static const struct rdma_client_proto_act rping_acts[] = {
	{ RDMA_CLIENT_ACT_SEND_SOURCE, rping_source, false },
	{ RDMA_CLIENT_ACT_SEND_SINK, rping_sink, false },
	{ RDMA_CLIENT_ACT_VERIFY_SINK, rping_verify, false },
	{ 0, NULL, false },
};

/* The server's READs and WRITEs are its own: no RDMA of ours completes. */
const struct rdma_client_proto rdma_client_rping_proto = {
	.name = "rping",
	.init = rping_init,
	.bufs = rping_bufs,
	.msg = rping_msg,
	.acts = rping_acts,
};
