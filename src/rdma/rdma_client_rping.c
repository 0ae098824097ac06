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

int rdma_client_rping_bufs(struct rdma_client *c)
{
	int ret;

	/* Least access: the server writes the sink, reads the source. */
	ret = rdma_qp_buf(&c->q, &c->sink, c->o.size,
			  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (ret)
		return ret;
	return rdma_qp_buf(&c->q, &c->source, c->o.size,
			   IBV_ACCESS_REMOTE_READ);
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

enum rdma_client_event rdma_client_rping_advert(struct rdma_client *c,
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

enum rdma_client_event rdma_client_rping_verify(struct rdma_client *c,
						uint32_t iter)
{
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

enum rdma_client_event rdma_client_rping_msg(struct rdma_client *c,
					     uint32_t len)
{
	if (len == PROTO_RPING_INFO_LEN)
		return RDMA_CLIENT_EV_GO_AHEAD;
	rdma_client_conn_error(c, "rping go-ahead of %u bytes, expected %d",
			       len, PROTO_RPING_INFO_LEN);
	return RDMA_CLIENT_EV_PROTO_ERR;
}
