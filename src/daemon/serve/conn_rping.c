/* SPDX-License-Identifier: BSD-2-Clause */
/* conn_rping.c - the rping session of a connection (see conn_rping.h). */
#include <errno.h>
#include <string.h>

#include "clock.h"
#include "serve/conn_end.h"
#include "serve/conn_log.h"
#include "serve/conn_set.h"
#include "core/log.h"
#include "serve/conn_post.h"
#include "serve/conn_rping.h"

int conn_rping_post_read(struct conn *c)
{
	int ret;

	/* The server is the initiator of both READ and WRITE in rping
	 * mode: its buffer needs no remote access at all. */
	if (c->src.size > c->buf.len &&
	    rdma_buf_registered() - c->buf.len + c->src.size >
	    c->s->cfg->max_registered_bytes) {
		conn_log(c, LOG_WARNING, NULL, "rping source of %u bytes "
			 "would take registered memory past [limits] "
			 "max_registered_bytes (%llu bytes, %llu in use)",
			 c->src.size,
			 (unsigned long long)c->s->cfg->max_registered_bytes,
			 (unsigned long long)rdma_buf_registered());
		conn_end(c, CONN_CAUSE_OVER_LIMIT, 0, NULL, "max_registered_bytes "
			 "reached");
		return -ENOBUFS;
	}
	if (c->src.size > c->buf.len) {
		ret = rdma_qp_buf(&c->qp, &c->buf, c->src.size,
				  IBV_ACCESS_LOCAL_WRITE);
		if (ret)
			return ret;
	}
	c->read_len = c->src.size;
	return conn_post_rdma(c, IBV_WR_RDMA_READ, c->src.buf, c->src.rkey,
			      c->read_len);
}

int conn_rping_post_write(struct conn *c)
{
	c->write_len = c->read_len < c->sink.size ? c->read_len :
						    c->sink.size;
	return conn_post_rdma(c, IBV_WR_RDMA_WRITE, c->sink.buf, c->sink.rkey,
			      c->write_len);
}

int conn_rping_send_go(struct conn *c)
{
	uint8_t *p = conn_post_slot(c);

	/* rping checks only the length of its "go ahead". */
	memset(p, 0, PROTO_RPING_INFO_LEN);
	return conn_post_msg(c, p, PROTO_RPING_INFO_LEN);
}

enum conn_event conn_rping_recv(struct conn *c, const uint8_t *p,
				uint32_t len)
{
	const struct rdmad_config *cfg = c->s->cfg;
	struct proto_rping_info info;
	const char *why = NULL;

	if (proto_rping_decode(p, len, &info, &why)) {
		conn_log(c, LOG_WARNING, NULL, "bad rping advert (%u bytes): "
			 "%s", len, why);
		conn_end(c, CONN_CAUSE_BAD_MESSAGE, 0, NULL, "%s", why);
		return CONN_EV_RECV_BAD;
	}
	if (c->fsm.recv == CONN_RS_WAIT_SRC) {
		if (info.size > cfg->max_buffer_size) {
			conn_log(c, LOG_WARNING, NULL, "rping size %u exceeds "
				 "server limit %u (max_buffer_size); "
				 "disconnecting", info.size,
				 cfg->max_buffer_size);
			conn_end(c, CONN_CAUSE_OVER_LIMIT, 0, NULL, "size %u "
				 "exceeds server limit %u", info.size,
				 cfg->max_buffer_size);
			return CONN_EV_RECV_BAD;
		}
		c->src = info;
	} else {
		c->sink = info;
	}
	return CONN_EV_RECV_ADVERT;
}

static void conn_rping_init(struct conn *c, const struct conn_admit *a)
{
	conn_fsm_init(&c->fsm, CONN_PROTO_RPING);
}

/* rping's accept carries nothing. */
static int conn_rping_accept_pdata(struct conn *c, uint8_t *pdata,
				   size_t len)
{
	return 0;
}

static const struct conn_proto_act conn_rping_acts[] = {
	{ CONN_ACT_POST_READ, conn_rping_post_read },
	{ CONN_ACT_SEND_GO, conn_rping_send_go },
	{ CONN_ACT_POST_WRITE, conn_rping_post_write },
	{ 0, NULL },
};

/* Our READ of the source or WRITE of the sink is done: a ping's half. */
static enum conn_event conn_rping_rdma_done(struct conn *c,
					    enum rdma_wr_kind kind)
{
	enum stats_op op = kind == RDMA_WR_READ ? STATS_OP_READ :
						  STATS_OP_WRITE;
	uint32_t len = op == STATS_OP_READ ? c->read_len : c->write_len;

	c->bytes += len;
	if (op == STATS_OP_WRITE)
		c->rounds++;
	stats_rdma(c->s->stats, STATS_PROTO_RPING, op, 1, len,
		   clock_since_ns(c->t_post[op]));
	return op == STATS_OP_READ ? CONN_EV_READ_COMPLETE :
				     CONN_EV_WRITE_COMPLETE;
}

static void conn_rping_opened(struct conn *c)
{
	conn_log(c, LOG_INFO, LOG_MSGID_CONN_OPEN, "open: rping, connection "
		 "%u/%u", conn_set_count(c->s), c->s->cfg->max_connections);
}

const struct conn_proto_ops conn_rping_ops = {
	.rounds_unit = "pings",
	.init = conn_rping_init,
	.accept_pdata = conn_rping_accept_pdata,
	.acts = conn_rping_acts,
	.recv = conn_rping_recv,
	.rdma_done = conn_rping_rdma_done,
	.opened = conn_rping_opened,
};
