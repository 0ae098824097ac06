/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmad-hostile: the cases that break the wire rules: hello, messages, rping adverts, silence, mesh sessions. */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pattern.h"

#include "hostile.h"

/* ---- cases: connect private data ---------------------------------- */

int expect_reject(struct hc *h, const void *pd, uint8_t plen,
		  int reason)
{
	struct proto_reject r;
	const char *why = NULL;
	int ret;

	ret = hc_connect(h, pd, plen, 0, 1);
	if (ret != -ECONNREFUSED)
		return failed("connect returned %d (%s), want a reject", ret,
			      ret ? strerror(-ret) : "established");
	if (proto_reject_decode(h->rej, h->rej_len, &r, &why))
		return failed("reject without a readable reason (%u bytes, "
			      "status %d): %s", h->rej_len, h->rej_status,
			      why);
	if (reason && r.reason != reason)
		return failed("reject reason %u (%s), want %d: %s", r.reason,
			      proto_reject_reason_str(r.reason), reason,
			      r.text);
	return pass("rejected, reason %u (%s): %s", r.reason,
		    proto_reject_reason_str(r.reason), r.text);
}

int case_hello(const char *name, struct hc *h)
{
	uint8_t pd[PROTO_CONNECT_PDATA_MAX];
	struct proto_hello hl;
	uint8_t len = PROTO_HELLO_LEN;
	int reason = PROTO_REJ_BAD_HELLO;

	hello_default(&hl, PROTO_OP_READ, 4096, 1);
	memset(pd, 0, sizeof(pd));
	proto_hello_encode(&hl, pd, sizeof(pd));
	if (!strcmp(name, "hello-bad-magic")) {
		pd[0] = 'R';
		pd[1] = 'D';
		pd[2] = 'M';
		pd[3] = 'X';
	} else if (!strcmp(name, "hello-bad-version")) {
		pd[4] = 9;
		reason = PROTO_REJ_VERSION;
	} else if (!strcmp(name, "hello-short")) {
		len = 10;
	} else if (!strcmp(name, "hello-reserved")) {
		pd[7] = 0x5a;
	} else if (!strcmp(name, "hello-trailing")) {
		len = PROTO_CONNECT_PDATA_MAX;
		pd[40] = 1;
	} else if (!strcmp(name, "hello-no-ops")) {
		pd[5] = 0;
	} else if (!strcmp(name, "hello-bad-ops")) {
		pd[5] = 0x84;
	} else if (!strcmp(name, "hello-zero-size")) {
		memset(pd + 8, 0, 4);
	} else if (!strcmp(name, "hello-huge-size")) {
		memset(pd + 8, 0xff, 4);
		reason = PROTO_REJ_LIMIT;
	} else if (!strcmp(name, "hello-huge-iters")) {
		memset(pd + 12, 0xff, 4);
		reason = PROTO_REJ_LIMIT;
	} else {
		return -1;
	}
	return expect_reject(h, pd, len, reason);
}

/* ---- cases: messages after ESTABLISHED ----------------------------- */

/* Send MSG once we hold a DESC; the server must disconnect us. */
static int expect_cut(struct hc *h, const uint8_t *msg, size_t len,
		      int want_result)
{
	struct proto_hello hl;
	uint8_t in[SLOT];
	long long ms;
	int ret, n, got_result = 0;

	hello_default(&hl, PROTO_OP_READ | PROTO_OP_WRITE, 4096, 7);
	ret = native_open(h, &hl, NULL);
	if (ret)
		return failed("native session did not start: %s",
			      strerror(-ret));
	if (hc_send(h, msg, len))
		return failed("cannot post our message");
	if (want_result) {
		n = hc_recv(h, in, tmo_ms);
		got_result = n == PROTO_RESULT_LEN &&
			     proto_msg_type(in, (size_t)n, NULL) ==
			     PROTO_MSG_RESULT;
		if (!got_result)
			return failed("no RESULT (%d)", n);
		if (want_result == 2 && hc_send(h, msg, len))
			return failed("cannot post our second message");
	}
	ms = hc_wait_disconnect(h, tmo_ms);
	if (ms < 0)
		return failed("server did not disconnect us within %dms",
			      tmo_ms);
	return pass("server disconnected us after %lldms%s", ms,
		    got_result ? " (after its RESULT)" : "");
}

/* A native session of OPS (seed SEED) ended by the DONE D: the server's
 * RESULT must have status WANT (named WNAME); OK: what passing says. */
static int done_result(struct hc *h, uint8_t ops, uint64_t seed,
		       const struct proto_done *d, int want,
		       const char *wname, const char *ok)
{
	struct proto_hello hl;
	int ret, st;

	hello_default(&hl, ops, 4096, seed);
	ret = native_open(h, &hl, NULL);
	if (ret)
		return failed("session did not start: %s", strerror(-ret));
	st = native_finish(h, d);
	if (st != want)
		return failed("RESULT status %d, want %d (%s)", st, want,
			      wname);
	return pass("%s", ok);
}

int case_msg(const char *name, struct hc *h)
{
	uint8_t msg[SLOT];
	struct proto_done d = { 0 };
	struct proto_desc ds = { .addr = 4096, .rkey = 1, .len = 1,
				 .access = PROTO_OP_READ };
	size_t len;

	memset(msg, 0, sizeof(msg));
	len = (size_t)proto_done_encode(&d, msg, sizeof(msg));
	if (!strcmp(name, "msg-short")) {
		len = 4;
	} else if (!strcmp(name, "msg-empty")) {
		len = 0;
	} else if (!strcmp(name, "msg-oversized")) {
		len = SLOT;	/* the server posts 64-byte receives */
		memset(msg + PROTO_DONE_LEN, 0xee, SLOT - PROTO_DONE_LEN);
	} else if (!strcmp(name, "msg-bad-magic")) {
		msg[0] ^= 0xff;
	} else if (!strcmp(name, "msg-bad-version")) {
		msg[4] = 2;
	} else if (!strcmp(name, "msg-bad-type")) {
		msg[5] = 0x77;
	} else if (!strcmp(name, "msg-len-mismatch")) {
		msg[7] = 60;
		len = 60;
	} else if (!strcmp(name, "msg-desc-to-server")) {
		len = (size_t)proto_desc_encode(&ds, msg, sizeof(msg));
	} else if (!strcmp(name, "msg-auth-unasked")) {
		struct proto_auth a;

		memset(&a, 0x11, sizeof(a));
		len = (size_t)proto_auth_encode(&a, msg, sizeof(msg));
	} else if (!strcmp(name, "done-twice")) {
		return expect_cut(h, msg, len, 2);
	} else if (!strcmp(name, "done-overflow")) {
		/* Counts past the hello's, iteration past the end. */
		d.reads_done = 0xffffffffu;
		d.writes_done = 0xffffffffu;
		d.last_write_iter = 0xffffffffu;
		d.crc32c = 0xdeadbeef;
		return done_result(h, PROTO_OP_READ | PROTO_OP_WRITE, 8, &d,
				   PROTO_RES_BAD_DONE, "bad-done",
				   "RESULT bad-done for an overflowing DONE");
	} else if (!strcmp(name, "done-wrong-data")) {
		/* Claims a WRITE it never did: must be a mismatch. */
		d.writes_done = 1;
		d.last_write_iter = 0;
		d.crc32c = 0x12345678;
		return done_result(h, PROTO_OP_WRITE, 9, &d, PROTO_RES_MISMATCH,
				   "mismatch",
				   "RESULT mismatch for a DONE without the data");
	} else {
		return -1;
	}
	return expect_cut(h, msg, len, 0);
}

/* ---- cases: rping adverts -------------------------------------------- */

int case_rping(const char *name, struct hc *h)
{
	uint8_t msg[SLOT];
	struct proto_rping_info in = { .buf = 0, .rkey = 0, .size = 64 };
	size_t len = PROTO_RPING_INFO_LEN;
	long long ms;
	int ret;

	memset(msg, 0, sizeof(msg));
	ret = hc_connect(h, NULL, 0, 4096, 1);
	if (ret)
		return failed("rping connect: %s", strerror(-ret));
	in.buf = (uintptr_t)h->buf.p;
	in.rkey = h->buf.mr->rkey;
	if (!strcmp(name, "rping-overflow")) {
		in.buf = UINT64_MAX - 100;
		in.size = 4096;
	} else if (!strcmp(name, "rping-huge")) {
		in.size = 0xfffffff0u;
	} else if (!strcmp(name, "rping-zero")) {
		in.size = 0;
	} else if (!strcmp(name, "rping-short")) {
		len = 8;
	} else if (!strcmp(name, "rping-long")) {
		len = 40;
	} else if (!strcmp(name, "rping-bad-rkey")) {
		in.rkey ^= 0x5a5a00;
	} else if (!strcmp(name, "rping-beyond-mr")) {
		in.buf += 4096 - 16;	/* runs past our MR */
		in.size = 4096;
	} else {
		return -1;
	}
	/* Write the fields raw: the encoder would refuse none of these,
	 * but keep the bytes exactly as chosen. */
	proto_rping_encode(&in, msg, sizeof(msg));
	if (hc_send(h, msg, len))
		return failed("cannot post our advert");
	ms = hc_wait_disconnect(h, tmo_ms);
	if (ms < 0)
		return failed("server did not disconnect us within %dms",
			      tmo_ms);
	return pass("server disconnected us after %lldms", ms);
}

/* ---- cases: silence --------------------------------------------------- */

/* The message before the disconnect must be an ABORT with REASON. */
static int told_why(const uint8_t *msg, int n, uint8_t reason, long long ms)
{
	struct proto_abort a;
	const char *why = NULL;
	char text[160];

	if (proto_abort_decode(msg, (size_t)n, &a, &why))
		return failed("cut off after %lldms; not an ABORT before it "
			      "(%s)", ms, why);
	if (a.reason != reason)
		return failed("cut off after %lldms with ABORT reason %u, "
			      "want %u (%s)", ms, a.reason, reason,
			      proto_abort_str(&a, text, sizeof(text)));
	return pass("cut off after %lldms of silence, told: %s", ms,
		    proto_abort_str(&a, text, sizeof(text)));
}

int case_silent(const char *name, struct hc *h)
{
	struct proto_hello hl;
	uint8_t pd[PROTO_HELLO_LEN];
	long long ms;
	int ret;

	if (!strcmp(name, "silent-native")) {
		hello_default(&hl, PROTO_OP_READ, 4096, 3);
		ret = native_open(h, &hl, NULL);
	} else if (!strcmp(name, "silent-rping")) {
		ret = hc_connect(h, NULL, 0, 0, 1);
	} else if (!strcmp(name, "silent-auth")) {
		/* Keyed server: never send AUTH; must never see a DESC. */
		hello_default(&hl, PROTO_OP_READ, 4096, 3);
		h->hello = hl;
		proto_hello_encode(&hl, pd, sizeof(pd));
		ret = hc_connect(h, pd, sizeof(pd), 4096, 1);
		if (!ret && !(h->welcome.flags & PROTO_WELCOME_F_AUTH))
			return failed("server did not ask for a key");
	} else {
		return -1;
	}
	if (ret)
		return failed("connect: %s", strerror(-ret));
	ms = hc_wait_disconnect(h, tmo_ms);
	if (ms < 0)
		return failed("silent client not cut off within %dms", tmo_ms);
	if (!strcmp(name, "silent-auth")) {
		uint8_t msg[SLOT];
		int n = hc_recv(h, msg, 10);

		if (n > 0 && proto_msg_type(msg, (size_t)n, NULL) ==
		    PROTO_MSG_DESC)
			return failed("server sent a DESC without AUTH");
		if (n > 0)
			return told_why(msg, n, PROTO_ABORT_IDLE, ms);
	}
	if (!strcmp(name, "silent-native")) {
		uint8_t msg[SLOT];
		int n = hc_recv(h, msg, 10);

		if (n < 0)
			return failed("cut off after %lldms without an ABORT",
				      ms);
		return told_why(msg, n, PROTO_ABORT_SESSION, ms);
	}
	return pass("cut off after %lldms of silence", ms);
}

/*
 * A client whose QP vanishes after the DESC without a disconnect, as
 * when its host crashes or is cut off: nothing answers rdmad any more,
 * and no DREQ comes.  The connection (cm_id) is held -H seconds.
 */
int case_vanish(struct hc *h)
{
	struct proto_hello hl;
	int ret;

	hello_default(&hl, PROTO_OP_READ | PROTO_OP_WRITE, 4096, 11);
	ret = native_open(h, &hl, NULL);
	if (ret)
		return failed("native session did not start: %s",
			      strerror(-ret));
	rdma_qp_destroy(&h->q);
	h->have_q = 0;
	pass("QP destroyed after the DESC, no disconnect; holding the "
	     "connection %ds", hold_ms / 1000);
	fflush(stdout);
	if (hold_ms)
		usleep((useconds_t)hold_ms * 1000);
	return 0;
}

/* Mesh: a round every 500 ms for -H seconds (WRITE of pattern(seed, r),
 * READ back, compare); no message and no disconnect may come from the
 * server meanwhile.  Then the disconnect (hc_close). */
static int mesh_round_op(struct hc *h, enum ibv_wr_opcode op, uint32_t r,
			 uint32_t sz, int *recvs)
{
	const char *name = op == IBV_WR_RDMA_WRITE ? "WRITE" : "READ";
	int st;

	if (hc_rdma_post(h, op, h->desc.addr, h->desc.rkey, sz))
		return failed("round %u: cannot post the %s", r, name);
	st = hc_wait_op(h, wr_rdma(op), recvs);
	if (st)
		return failed("round %u: %s status %d", r, name, st);
	return 0;
}

static int mesh_hold(struct hc *h)
{
	long long t0 = now_ms(), end = t0 + hold_ms;
	uint32_t r, sz = h->hello.size;
	ssize_t bad;
	int recvs = 0;

	for (r = 0; now_ms() < end; r++) {
		pattern_fill(h->buf.p, sz, h->hello.seed, r);
		if (mesh_round_op(h, IBV_WR_RDMA_WRITE, r, sz, &recvs))
			return 1;
		memset(h->buf.p, 0, sz);
		if (mesh_round_op(h, IBV_WR_RDMA_READ, r, sz, &recvs))
			return 1;
		bad = pattern_check(h->buf.p, sz, h->hello.seed, r);
		if (bad >= 0)
			return failed("round %u: mismatch at offset %zd", r,
				      bad);
		if (recvs)
			return failed("round %u: the server sent a message "
				      "(an ABORT?) after %llds", r,
				      (now_ms() - t0) / 1000);
		if (hc_wait_disconnect(h, 500) >= 0)
			return failed("round %u: the server disconnected us "
				      "after %llds", r, (now_ms() - t0) / 1000);
	}
	return pass("%u rounds over %llds verified, nothing from the "
		    "server", r, (now_ms() - t0) / 1000);
}

/*
 * Mesh sessions (HELLO flag MESH): "mesh-hold" holds one for -H seconds
 * with rounds (no deadline, no max_duration may end it); "mesh-vanish"
 * is vanish for a mesh session, which has no deadline at all once its
 * DESC is out: only the liveness check can reap it.  "mesh-done" sends
 * a DONE, which a mesh session never has: ABORT reason 4 (protocol),
 * then the disconnect.
 */
int case_mesh(const char *name, struct hc *h)
{
	struct proto_hello hl;
	struct proto_done d = { 0 };
	uint8_t msg[SLOT];
	long long t0;
	int ret, n;

	hello_default(&hl, PROTO_OP_READ | PROTO_OP_WRITE, 4096, 13);
	hl.flags |= PROTO_F_MESH;
	ret = native_open(h, &hl, NULL);
	if (ret)
		return failed("mesh session did not start: %s",
			      strerror(-ret));
	if (!strcmp(name, "mesh-hold"))
		return mesh_hold(h);
	if (!strcmp(name, "mesh-vanish")) {
		rdma_qp_destroy(&h->q);
		h->have_q = 0;
		pass("mesh session: QP destroyed after the DESC, no "
		     "disconnect; holding the connection %ds",
		     hold_ms / 1000);
		fflush(stdout);
		if (hold_ms)
			usleep((useconds_t)hold_ms * 1000);
		return 0;
	}
	if (strcmp(name, "mesh-done"))
		return -1;
	n = proto_done_encode(&d, msg, sizeof(msg));
	t0 = now_ms();
	if (n < 0 || hc_send(h, msg, (size_t)n))
		return failed("cannot post our DONE");
	n = hc_recv(h, msg, tmo_ms);
	if (n < 0)
		return failed("no ABORT for a DONE in a mesh session (%d)", n);
	return told_why(msg, n, PROTO_ABORT_PROTOCOL, now_ms() - t0);
}
