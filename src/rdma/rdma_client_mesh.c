/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_mesh.c - the client's mesh rounds (HELLO flag MESH, see
 * docs/protocol.md): round r is an RDMA WRITE of pattern(seed, r) to the
 * start of the server's buffer, then an RDMA READ of the same bytes back,
 * compared with what was written.  The data buffer has two slots of the
 * largest round: the first holds what is written, the second what is read
 * back.  READ-only rounds (opts.ops READ): a round that WRITEs fills the
 * whole first slot (opts.size bytes, so that a later round of any size
 * has something to compare with) and the rounds after it READ back and
 * compare a prefix of it.
 *
 * Bandwidth samples: RDMA WRITEs of the first slot's first bytes, depth
 * in flight, unchecked.  They write what the slot holds, so the pattern a
 * READ-only session checks stays in the server's buffer.
 *
 * The state machine decides when; these carry it out, called only by the
 * client's actions (rdma_client_act, through the protocol's table, struct
 * rdma_client_proto), never calling back into it; the results reach the
 * embedder from the loop (rdma_client_report.c).  The rest of a mesh
 * session (buffers, HELLO, welcome, AUTH, DESC) is the native one's.  The
 * embedder's side of a mesh session (rdma_client_round, rdma_client_bw,
 * rdma_client_close) is rdma_client.c's: it asks the machine for them.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "clock.h"
#include "pattern.h"
#include "rdma_client_mesh.h"
#include "rdma_client_native.h"
#include "rdma_log.h"

/* 0xffffffff is the READ pattern of a native session's buffer. */
static uint32_t mesh_iter(uint32_t round)
{
	return round % PROTO_ITER_READ;
}

static uint8_t *mesh_slot(struct rdma_client *c, bool read)
{
	return c->data.p + (read ? c->o.size : 0);
}

static enum rdma_client_event mesh_post(struct rdma_client *c, bool read,
					uint32_t round, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)mesh_slot(c, read),
		.length = len,
		.lkey = c->data.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = rdma_wr_id(read ? RDMA_WR_READ : RDMA_WR_WRITE, round),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = read ? IBV_WR_RDMA_READ : IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
	};
	int ret;

	wr.wr.rdma.remote_addr = c->desc.addr;
	wr.wr.rdma.rkey = c->desc.rkey;
	rdma_client_conn_log(c, LOG_DEBUG, "round %u: RDMA %s, %u bytes",
			     round, read ? "READ" : "WRITE", len);
	c->rnd_posted = clock_now_ns();
	if (!c->t.ops_start)
		c->t.ops_start = c->rnd_posted;
	ret = rdma_qp_post_send(&c->q, &wr);
	if (ret) {
		rdma_client_conn_error(c, "ibv_post_send (round %u RDMA %s): "
				       "%s", round, read ? "READ" : "WRITE",
				       strerror(-ret));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	return RDMA_CLIENT_EV_NONE;
}

enum rdma_client_event rdma_client_mesh_write(struct rdma_client *c,
					      const struct rdma_client_step *st)
{
	uint32_t round = st->iter;
	uint32_t len = c->rnd.size;

	if (c->fsm.mesh_read_only)
		len = c->o.size < c->desc.len ? c->o.size : c->desc.len;
	c->rnd.round = round;
	pattern_fill(mesh_slot(c, false), len, c->o.seed, mesh_iter(round));
	return mesh_post(c, false, round, len);
}

enum rdma_client_event rdma_client_mesh_read(struct rdma_client *c,
					     const struct rdma_client_step *st)
{
	uint32_t round = st->iter;

	c->rnd.round = round;
	/* A READ that moves nothing must not pass. */
	memset(mesh_slot(c, true), 0, c->rnd.size);
	return mesh_post(c, true, round, c->rnd.size);
}

enum rdma_client_event rdma_client_mesh_done(struct rdma_client *c,
					     const struct ibv_wc *wc,
					     uint64_t done)
{
	uint64_t ns = done > c->rnd_posted ? done - c->rnd_posted : 0;

	(void)wc;
	c->progress = done;
	if (c->fsm.state == RDMA_CLIENT_ST_BW_WRITE)
		c->bw_last = done;
	else if (c->fsm.state == RDMA_CLIENT_ST_ROUND_WRITE)
		c->rnd.write_ns = ns;
	else if (c->fsm.state == RDMA_CLIENT_ST_ROUND_READ)
		c->rnd.read_ns = ns;
	return RDMA_CLIENT_EV_OP_DONE;
}

enum rdma_client_event rdma_client_mesh_check(struct rdma_client *c,
					      const struct rdma_client_step *st)
{
	uint32_t round = st->iter;
	const uint8_t *got = mesh_slot(c, true), *want = mesh_slot(c, false);
	uint32_t i, size = c->rnd.size;

	c->t.ops_end = clock_now_ns();
	if (!memcmp(got, want, size))
		return RDMA_CLIENT_EV_CHECK_OK;
	for (i = 0; i < size; i++)
		if (got[i] != want[i])
			break;
	c->rnd.result = RDMA_CLIENT_FAIL_MISMATCH;
	c->rnd.bad_offset = i;
	rdma_client_conn_log(c, LOG_ERR, "round %u: data read back differs "
			     "from what was written at offset %u (got 0x%02x, "
			     "expected 0x%02x)", round, i, got[i], want[i]);
	return RDMA_CLIENT_EV_CHECK_BAD;
}

enum rdma_client_event rdma_client_mesh_report(struct rdma_client *c,
					       const struct rdma_client_step *st)
{
	c->rnd.round = st->iter;
	c->rep_rnd = c->rnd;
	rdma_client_report_post(c, RDMA_CLIENT_REPORT_ROUND);
	return RDMA_CLIENT_EV_NONE;
}

enum rdma_client_event rdma_client_mesh_bw_post(struct rdma_client *c,
						const struct rdma_client_step *st)
{
	uint32_t iter = st->iter, count = st->count, k;
	uint64_t now;
	int ret;

	for (k = 0; k < count; k++) {
		c->sges[k].addr = (uintptr_t)mesh_slot(c, false);
		c->sges[k].length = c->bw.size;
		c->sges[k].lkey = c->data.mr->lkey;
		memset(&c->wrs[k], 0, sizeof(c->wrs[k]));
		c->wrs[k].wr_id = rdma_wr_id(RDMA_WR_WRITE, iter + k);
		c->wrs[k].sg_list = &c->sges[k];
		c->wrs[k].num_sge = 1;
		c->wrs[k].opcode = IBV_WR_RDMA_WRITE;
		c->wrs[k].send_flags = IBV_SEND_SIGNALED;
		c->wrs[k].wr.rdma.remote_addr = c->desc.addr;
		c->wrs[k].wr.rdma.rkey = c->desc.rkey;
		c->wrs[k].next = k + 1 < count ? &c->wrs[k + 1] : NULL;
	}
	now = clock_now_ns();
	if (!c->bw_first)
		c->bw_first = now;
	if (!c->t.ops_start)
		c->t.ops_start = now;
	ret = rdma_qp_post_send(&c->q, &c->wrs[0]);
	if (ret) {
		rdma_client_conn_error(c, "ibv_post_send (bandwidth sample, "
				       "RDMA WRITE %u): %s", iter,
				       strerror(-ret));
		return RDMA_CLIENT_EV_LOCAL_ERR;
	}
	return RDMA_CLIENT_EV_NONE;
}

enum rdma_client_event rdma_client_mesh_bw_report(struct rdma_client *c,
						  const struct rdma_client_step *st)
{
	(void)st;
	evtimer_del(c->dur_timer);
	c->bw.ops = c->fsm.bw_done;
	c->bw.bytes = c->bw.ops * c->bw.size;
	c->bw.ns = c->bw_last > c->bw_first ? c->bw_last - c->bw_first : 0;
	rdma_client_conn_log(c, LOG_INFO, "bandwidth sample: %" PRIu64
			     " WRITEs of %u bytes in %" PRIu64 " ns",
			     c->bw.ops, c->bw.size, c->bw.ns);
	c->rep_bw = c->bw;
	rdma_client_report_post(c, RDMA_CLIENT_REPORT_BW);
	return RDMA_CLIENT_EV_NONE;
}

/* A native session's options, then rounds: WRITE and READ back, or READ
 * alone (its depth is that of bandwidth samples). */
static void mesh_init(struct rdma_client *c)
{
	struct rdma_client_opts *o = &c->o;

	rdma_client_fsm_init(&c->fsm, false, o->ops, o->iters, o->verify);
	if (o->ops != PROTO_OP_READ)
		o->ops = PROTO_OP_READ | PROTO_OP_WRITE;
	o->iters = 1;
	o->duration_ms = 0;
	if (!o->depth)
		o->depth = 1;
	rdma_client_fsm_pipeline(&c->fsm, o->depth, false);
	rdma_client_fsm_mesh(&c->fsm, o->ops);
}

static const struct rdma_client_proto_act mesh_acts[] = {
	{ RDMA_CLIENT_ACT_SEND_AUTH, rdma_client_native_send_auth, true },
	{ RDMA_CLIENT_ACT_ROUND_WRITE, rdma_client_mesh_write, false },
	{ RDMA_CLIENT_ACT_ROUND_READ, rdma_client_mesh_read, false },
	{ RDMA_CLIENT_ACT_ROUND_CHECK, rdma_client_mesh_check, false },
	{ RDMA_CLIENT_ACT_POST_BW, rdma_client_mesh_bw_post, false },
	/* posted: told from the loop (rdma_client_report.c) */
	{ RDMA_CLIENT_ACT_ROUND_REPORT, rdma_client_mesh_report, false },
	{ RDMA_CLIENT_ACT_BW_REPORT, rdma_client_mesh_bw_report, false },
	{ 0, NULL, false },
};

/* A native session (rdmad's HELLO, welcome, AUTH, DESC) that stays up. */
const struct rdma_client_proto rdma_client_mesh_proto = {
	.name = "mesh",
	.init = mesh_init,
	.bufs = rdma_client_native_bufs,
	.hello = rdma_client_native_hello,
	.established = rdma_client_native_welcome,
	.msg = rdma_client_native_msg,
	.rdma_done = rdma_client_mesh_done,
	.acts = mesh_acts,
};
