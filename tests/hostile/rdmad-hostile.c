/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmad-hostile - a deliberately misbehaving rdmad client, for the rdma
 * test suite (tests/rdma/t-5*.sh).
 *
 *   rdmad-hostile [-p PORT] [-I SRCADDR] [-t SECS] [-k KEYFILE] CASE [ARG] SERVER
 *
 * Each CASE attacks a live rdmad in one way and checks that rdmad
 * answers as it must (reject with the right reason, disconnect, remote
 * access error, intact data...).  It prints one line "ok CASE: detail"
 * or "FAIL CASE: detail" and exits 0 or 1; 2 for usage errors.  Every
 * wait is bounded by -t (default 10 s).  "rdmad-hostile list" prints the
 * cases.  One case, "corrupt", is a server instead: a peer that returns
 * wrong bytes, for rdma-probe and rdmad's prober to catch (see there).
 *
 * Synchronous on top of the RDMA layer (src/rdma): one connection is one
 * CM channel, and one rdma_qp whose completion queue is polled; the
 * program's event loop runs only to take CM events.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "container_of.h"
#include "crc32c.h"
#include "pattern.h"
#include "proto.h"
#include "rdma_cm.h"
#include "rdma_qp.h"

#define SLOT		256		/* bytes per control slot */
#define N_RECV		4
#define N_SLOTS		(N_RECV + 4)
#define N_SEND		32
#define N_CM_EV		16		/* CM events taken, not yet read */
#define N_WC		64		/* completions polled, not yet read */
#define WR_SEND		rdma_wr_id(RDMA_WR_SEND, 0)

static const char *srv_host, *src_host, *key_path;
static unsigned int port = PROTO_DEFAULT_PORT;
static int tmo_ms = 10000;
static int hold_ms;		/* flood: keep the connections this long */
static const char *case_name = "?";
static struct event_base *base;

struct hc {
	struct rdma_cm_chan cm;
	int shared_cm;			/* cm is a listener's (corrupt) */
	struct rdma_cm_handler cmh;
	struct rdma_cm_id *id;
	struct rdma_qp q;
	int have_q;
	struct rdma_buf ctl;
	struct rdma_buf buf;
	struct rdma_cm_ev ev[N_CM_EV];
	unsigned int nev;
	struct ibv_wc wc[N_WC];
	unsigned int wc_head, nwc;
	struct proto_hello hello;
	struct proto_welcome welcome;
	struct proto_desc desc;
	int connected;
	int rej_status;
	uint8_t rej[256];
	unsigned int rej_len;
	unsigned int send_next;
};

/* ---- output ----------------------------------------------------------- */

__attribute__((format(printf, 1, 2)))
static int pass(const char *fmt, ...)
{
	va_list ap;

	printf("ok %s: ", case_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return 0;
}

__attribute__((format(printf, 1, 2)))
static int failed(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL %s: ", case_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return 1;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- connection plumbing ------------------------------------------- */

/* The layer's CM channel hands us our events: keep them in order. */
static void hc_cm_event(struct rdma_cm_handler *hd, const struct rdma_cm_ev *e)
{
	struct hc *h = container_of(hd, struct hc, cmh);

	if (h->nev == N_CM_EV) {
		fprintf(stderr, "# CM event %s dropped: %u unread\n",
			rdma_event_str(e->type), h->nev);
		return;
	}
	h->ev[h->nev++] = *e;
}

/* Each completion of the polled CQ, kept until read. */
static void hc_on_wc(void *arg, const struct ibv_wc *wc)
{
	struct hc *h = arg;

	if (h->nwc == N_WC) {
		fprintf(stderr, "# completion dropped: %u unread\n", h->nwc);
		return;
	}
	h->wc[(h->wc_head + h->nwc++) % N_WC] = *wc;
}

static const struct rdma_qp_ops hc_qp_ops = { .wc = hc_on_wc };

/*
 * Next CM event within MS; -ETIMEDOUT.  The server's answer to our
 * connect (CONNECT_RESPONSE) completes it here: QP to RTR and RTS, then
 * rdma_establish; it reads as ESTABLISHED (or CONNECT_ERROR).
 */
static int hc_cm_wait(struct hc *h, int ms, enum rdma_cm_event_type *type,
		      int *status)
{
	long long end = now_ms() + ms;
	struct pollfd pfd = { .fd = h->cm.ch->fd, .events = POLLIN };
	struct rdma_cm_ev e;
	int n;

	while (!h->nev) {
		n = poll(&pfd, 1, (int)(end - now_ms()) + 1);
		if (n < 0)
			return -errno;
		if (n == 0 || now_ms() > end)
			return -ETIMEDOUT;
		if (event_base_loop(base, EVLOOP_NONBLOCK) < 0)
			return -EIO;
	}
	e = h->ev[0];
	memmove(h->ev, h->ev + 1, --h->nev * sizeof(h->ev[0]));
	*type = e.type;
	*status = e.status;
	if (e.type == RDMA_CM_EVENT_REJECTED) {
		h->rej_status = e.status;
		h->rej_len = e.pdata_len;
		memcpy(h->rej, e.pdata, e.pdata_len);
	}
	if (e.type == RDMA_CM_EVENT_CONNECT_RESPONSE) {
		n = rdma_qp_establish(&h->q);
		*type = n ? RDMA_CM_EVENT_CONNECT_ERROR :
			    RDMA_CM_EVENT_ESTABLISHED;
		*status = n;
		if (!n && e.pdata_len && h->hello.ops) {
			const char *why = NULL;

			if (proto_welcome_decode(e.pdata, e.pdata_len,
						 &h->welcome, &why))
				fprintf(stderr, "# welcome undecodable: %s\n",
					why);
		}
	}
	return 0;
}

static int hc_expect(struct hc *h, enum rdma_cm_event_type want)
{
	enum rdma_cm_event_type t;
	int st, ret;

	ret = hc_cm_wait(h, tmo_ms, &t, &st);
	if (ret)
		return ret;
	if (t != want) {
		fprintf(stderr, "# got %s (status %d), wanted %s\n",
			rdma_event_str(t), st, rdma_event_str(want));
		return t == RDMA_CM_EVENT_REJECTED ? -ECONNREFUSED : -EPROTO;
	}
	return 0;
}

static int hc_post_recv(struct hc *h, unsigned int slot)
{
	return rdma_qp_post_recv(&h->q, rdma_wr_id(RDMA_WR_RECV, slot),
				 h->ctl.p + slot * SLOT, SLOT,
				 h->ctl.mr->lkey) ? -EIO : 0;
}

static void hc_close(struct hc *h)
{
	int flush;

	if (h->have_q && h->connected)
		rdma_qp_disconnect(&h->q, &flush);
	if (h->have_q)
		rdma_qp_destroy(&h->q);
	if (h->id)
		rdma_destroy_id(h->id);
	if (!h->shared_cm)
		rdma_cm_chan_close(&h->cm);
	memset(h, 0, sizeof(*h));
}

static int resolve(const char *host, struct sockaddr_storage *ss)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST }, *ai;
	char portstr[16];

	snprintf(portstr, sizeof(portstr), "%u", port);
	if (getaddrinfo(host, portstr, &hints, &ai))
		return -EINVAL;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	return 0;
}

/*
 * H's QP, control slots with their receives posted, and BUFLEN > 0: a
 * buffer with local and remote write and remote read access (the sink
 * of our reads and the source of our writes; a server's to offer); the
 * device's attributes into DA.  0 or -errno.
 */
static int hc_qp_setup(struct hc *h, size_t buflen,
		       struct ibv_device_attr *da)
{
	struct rdma_qp_attr qa = {
		.send_depth = N_SEND, .recv_depth = N_RECV, .polled = true,
	};
	const char *step;
	unsigned int i;
	int ret;

	ret = rdma_qp_create(&h->q, base, h->id, &qa, &hc_qp_ops, h, &step);
	if (ret) {
		fprintf(stderr, "# %s: %s\n", step, strerror(-ret));
		return ret;
	}
	h->have_q = 1;
	ret = rdma_qp_buf(&h->q, &h->ctl, N_SLOTS * SLOT,
			  IBV_ACCESS_LOCAL_WRITE);
	if (!ret && buflen)
		ret = rdma_qp_buf(&h->q, &h->buf, buflen,
				  IBV_ACCESS_LOCAL_WRITE |
				  IBV_ACCESS_REMOTE_WRITE |
				  IBV_ACCESS_REMOTE_READ);
	if (ret)
		return ret;
	for (i = 0; i < N_RECV; i++)
		if (hc_post_recv(h, i))
			return -EIO;
	return ibv_query_device(h->id->verbs, da) ? -errno : 0;
}

/*
 * Set up everything and send a connect request with PDATA.  BUFLEN > 0:
 * also a local buffer with local and remote write access (the sink of
 * our reads, and the source of our writes).  Does not wait for the
 * answer unless WAIT: then 0 established, -ECONNREFUSED rejected.
 */
static int hc_connect(struct hc *h, const void *pdata, uint8_t plen,
		      size_t buflen, int wait)
{
	struct ibv_device_attr da;
	struct sockaddr_storage dst, src;
	int ret;

	h->cmh.event = hc_cm_event;
	ret = rdma_cm_chan_open(&h->cm, base);
	if (ret)
		return ret;
	ret = rdma_cm_id_new(&h->cm, &h->cmh, &h->id);
	if (ret)
		return ret;
	if (resolve(srv_host, &dst))
		return -EINVAL;
	if (src_host) {
		if (resolve(src_host, &src))
			return -EINVAL;
		((struct sockaddr_in *)&src)->sin_port = 0;
	}
	if (rdma_resolve_addr(h->id, src_host ? (struct sockaddr *)&src : NULL,
			      (struct sockaddr *)&dst, 2000))
		return -errno;
	ret = hc_expect(h, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (ret)
		return ret;
	if (rdma_resolve_route(h->id, 2000))
		return -errno;
	ret = hc_expect(h, RDMA_CM_EVENT_ROUTE_RESOLVED);
	if (ret)
		return ret;

	ret = hc_qp_setup(h, buflen, &da);
	if (ret)
		return ret;
	ret = rdma_qp_connect(&h->q, &da, pdata, plen);
	if (ret)
		return ret;
	if (!wait)
		return 0;
	ret = hc_expect(h, RDMA_CM_EVENT_ESTABLISHED);
	if (!ret)
		h->connected = 1;
	return ret;
}

/* One completion within MS; -ETIMEDOUT. */
static int hc_wc(struct hc *h, int ms, struct ibv_wc *wc)
{
	long long end = now_ms() + ms;

	while (!h->nwc) {
		if (rdma_qp_poll(&h->q) < 0)
			return -EIO;
		if (h->nwc)
			break;
		if (now_ms() > end)
			return -ETIMEDOUT;
		usleep(1000);
	}
	*wc = h->wc[h->wc_head];
	h->wc_head = (h->wc_head + 1) % N_WC;
	h->nwc--;
	return 0;
}

static int hc_send(struct hc *h, const void *msg, size_t len)
{
	uint8_t *p = h->ctl.p + (N_RECV + h->send_next) * SLOT;
	struct ibv_sge sge = { .addr = (uintptr_t)p, .length = (uint32_t)len,
			       .lkey = h->ctl.mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = WR_SEND, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	};

	if (len > SLOT)
		return -EMSGSIZE;
	h->send_next = (h->send_next + 1) % (N_SLOTS - N_RECV);
	memcpy(p, msg, len);
	return rdma_qp_post_send(&h->q, &wr) ? -EIO : 0;
}

/* The wr_id of our RDMA operation OP. */
static uint64_t wr_rdma(enum ibv_wr_opcode op)
{
	return rdma_wr_id(op == IBV_WR_RDMA_READ ? RDMA_WR_READ :
			  RDMA_WR_WRITE, 0);
}

static int hc_rdma_post(struct hc *h, enum ibv_wr_opcode op, uint64_t raddr,
			uint32_t rkey, uint32_t len)
{
	struct ibv_sge sge = { .addr = (uintptr_t)h->buf.p, .length = len,
			       .lkey = h->buf.mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = wr_rdma(op), .sg_list = &sge, .num_sge = 1,
		.opcode = op, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	};

	return rdma_qp_post_send(&h->q, &wr) ? -EIO : 0;
}

/*
 * Wait for the completion of a wr_id; receive completions seen meanwhile
 * are kept count of in *recvs.  Returns the completion status, or
 * -ETIMEDOUT.
 */
static int hc_wait_op(struct hc *h, uint64_t wr_id, int *recvs)
{
	long long end = now_ms() + tmo_ms;
	struct ibv_wc wc;
	int ret;

	while (now_ms() <= end) {
		ret = hc_wc(h, (int)(end - now_ms()) + 1, &wc);
		if (ret)
			return ret;
		if (wc.wr_id == wr_id)
			return wc.status;
		if (rdma_wr_kind(wc.wr_id) == RDMA_WR_RECV && recvs &&
		    wc.status == IBV_WC_SUCCESS)
			(*recvs)++;
	}
	return -ETIMEDOUT;
}

static int hc_rdma(struct hc *h, enum ibv_wr_opcode op, uint64_t raddr,
		   uint32_t rkey, uint32_t len)
{
	if (hc_rdma_post(h, op, raddr, rkey, len))
		return -EIO;
	return hc_wait_op(h, wr_rdma(op), NULL);
}

/* Next received message into MSG (SLOT bytes); returns its length. */
static int hc_recv(struct hc *h, uint8_t *msg, int ms)
{
	long long end = now_ms() + ms;
	struct ibv_wc wc;
	uint32_t slot;
	int ret;

	while (now_ms() <= end) {
		ret = hc_wc(h, (int)(end - now_ms()) + 1, &wc);
		if (ret)
			return ret;
		if (rdma_wr_kind(wc.wr_id) != RDMA_WR_RECV)
			continue;	/* our own sends */
		if (wc.status != IBV_WC_SUCCESS)
			return -EIO;
		slot = rdma_wr_idx(wc.wr_id);
		memcpy(msg, h->ctl.p + slot * SLOT, wc.byte_len);
		hc_post_recv(h, slot);
		return (int)wc.byte_len;
	}
	return -ETIMEDOUT;
}

/* Wait for the server to disconnect us; ms it took, or -ETIMEDOUT. */
static long long hc_wait_disconnect(struct hc *h, int ms)
{
	long long t0 = now_ms(), end = t0 + ms;
	enum rdma_cm_event_type t;
	int st, ret;

	while (now_ms() <= end) {
		ret = hc_cm_wait(h, (int)(end - now_ms()) + 1, &t, &st);
		if (ret == -ETIMEDOUT)
			break;
		if (ret)
			return ret;
		if (t == RDMA_CM_EVENT_DISCONNECTED) {
			h->connected = 0;
			return now_ms() - t0;
		}
	}
	return -ETIMEDOUT;
}

/* ---- native helpers ------------------------------------------------- */

static void hello_default(struct proto_hello *hl, uint8_t ops, uint32_t size,
			  uint64_t seed)
{
	memset(hl, 0, sizeof(*hl));
	hl->version = PROTO_VERSION;
	hl->ops = ops;
	hl->flags = PROTO_F_VERIFY;
	hl->size = size;
	hl->iters = 1;
	hl->seed = seed;
}

/* Connect natively with hello HL, authenticate if asked, take DESC. */
static int native_open(struct hc *h, const struct proto_hello *hl,
		       const struct auth_key *key)
{
	uint8_t pd[PROTO_HELLO_LEN], msg[SLOT];
	struct proto_auth a;
	const char *why = NULL;
	int ret, n;

	h->hello = *hl;
	proto_hello_encode(hl, pd, sizeof(pd));
	ret = hc_connect(h, pd, sizeof(pd), hl->size, 1);
	if (ret)
		return ret;
	if (h->welcome.flags & PROTO_WELCOME_F_AUTH) {
		if (!key)
			return -ENOKEY;
		if (auth_mac(key, &h->welcome, hl, a.mac))
			return -EINVAL;
		n = proto_auth_encode(&a, msg, sizeof(msg));
		if (hc_send(h, msg, (size_t)n))
			return -EIO;
	}
	n = hc_recv(h, msg, tmo_ms);
	if (n < 0)
		return n;
	if (proto_desc_decode(msg, (size_t)n, &h->desc, &why) ||
	    proto_desc_check(&h->desc, hl->size, hl->ops, &why)) {
		fprintf(stderr, "# bad DESC: %s\n", why);
		return -EBADMSG;
	}
	return 0;
}

/* Send DONE, get RESULT.  Returns the status (>= 0) or -errno. */
static int native_finish(struct hc *h, const struct proto_done *d)
{
	uint8_t msg[SLOT];
	struct proto_result r;
	const char *why = NULL;
	int n;

	n = proto_done_encode(d, msg, sizeof(msg));
	if (n < 0 || hc_send(h, msg, (size_t)n))
		return -EIO;
	n = hc_recv(h, msg, tmo_ms);
	if (n < 0)
		return n;
	if (proto_result_decode(msg, (size_t)n, &r, &why))
		return -EBADMSG;
	return (int)r.status;
}

/* A whole honest session: READ and verify, WRITE, DONE, RESULT ok. */
static int native_honest(struct hc *h, const char **what)
{
	struct proto_done d = { 0 };
	uint32_t sz = h->hello.size;
	int st;

	if (h->hello.ops & PROTO_OP_READ) {
		st = hc_rdma(h, IBV_WR_RDMA_READ, h->desc.addr, h->desc.rkey,
			     sz);
		if (st) {
			*what = "READ of its own buffer failed";
			return -EIO;
		}
		if (pattern_check(h->buf.p, sz, h->hello.seed,
				  PROTO_ITER_READ) >= 0) {
			*what = "server buffer does not hold its pattern";
			return -EBADMSG;
		}
		d.reads_done = 1;
	}
	if (h->hello.ops & PROTO_OP_WRITE) {
		pattern_fill(h->buf.p, sz, h->hello.seed, 0);
		st = hc_rdma(h, IBV_WR_RDMA_WRITE, h->desc.addr, h->desc.rkey,
			     sz);
		if (st) {
			*what = "WRITE to its own buffer failed";
			return -EIO;
		}
		d.writes_done = 1;
		d.crc32c = crc32c(0, h->buf.p, sz);
	}
	st = native_finish(h, &d);
	if (st != PROTO_RES_OK) {
		*what = "no RESULT ok";
		return -EPROTO;
	}
	return 0;
}

static int load_key(struct auth_key *k)
{
	char err[256];

	if (!key_path) {
		fprintf(stderr, "rdmad-hostile: this case needs -k KEYFILE\n");
		return -EINVAL;
	}
	if (auth_key_load(k, key_path, err, sizeof(err))) {
		fprintf(stderr, "rdmad-hostile: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

/* ---- cases: connect private data ---------------------------------- */

static int expect_reject(struct hc *h, const void *pd, uint8_t plen,
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

static int case_hello(const char *name, struct hc *h)
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

static int case_msg(const char *name, struct hc *h)
{
	uint8_t msg[SLOT];
	struct proto_done d = { 0 };
	struct proto_desc ds = { .addr = 4096, .rkey = 1, .len = 1,
				 .access = PROTO_OP_READ };
	struct proto_result r;
	struct proto_hello hl;
	size_t len;
	int st, ret;

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
		hello_default(&hl, PROTO_OP_READ | PROTO_OP_WRITE, 4096, 8);
		ret = native_open(h, &hl, NULL);
		if (ret)
			return failed("session did not start: %s",
				      strerror(-ret));
		st = native_finish(h, &d);
		if (st != PROTO_RES_BAD_DONE)
			return failed("RESULT status %d, want %d (bad-done)",
				      st, PROTO_RES_BAD_DONE);
		(void)r;
		return pass("RESULT bad-done for an overflowing DONE");
	} else if (!strcmp(name, "done-wrong-data")) {
		/* Claims a WRITE it never did: must be a mismatch. */
		d.writes_done = 1;
		d.last_write_iter = 0;
		d.crc32c = 0x12345678;
		hello_default(&hl, PROTO_OP_WRITE, 4096, 9);
		ret = native_open(h, &hl, NULL);
		if (ret)
			return failed("session did not start: %s",
				      strerror(-ret));
		st = native_finish(h, &d);
		if (st != PROTO_RES_MISMATCH)
			return failed("RESULT status %d, want %d (mismatch)",
				      st, PROTO_RES_MISMATCH);
		return pass("RESULT mismatch for a DONE without the data");
	} else {
		return -1;
	}
	return expect_cut(h, msg, len, 0);
}

/* ---- cases: rping adverts -------------------------------------------- */

static int case_rping(const char *name, struct hc *h)
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

static int case_silent(const char *name, struct hc *h)
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
static int case_vanish(struct hc *h)
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
static int mesh_hold(struct hc *h)
{
	long long t0 = now_ms(), end = t0 + hold_ms;
	uint32_t r, sz = h->hello.size;
	ssize_t bad;
	int st, recvs = 0;

	for (r = 0; now_ms() < end; r++) {
		pattern_fill(h->buf.p, sz, h->hello.seed, r);
		if (hc_rdma_post(h, IBV_WR_RDMA_WRITE, h->desc.addr,
				 h->desc.rkey, sz))
			return failed("round %u: cannot post the WRITE", r);
		st = hc_wait_op(h, wr_rdma(IBV_WR_RDMA_WRITE), &recvs);
		if (st)
			return failed("round %u: WRITE status %d", r, st);
		memset(h->buf.p, 0, sz);
		if (hc_rdma_post(h, IBV_WR_RDMA_READ, h->desc.addr,
				 h->desc.rkey, sz))
			return failed("round %u: cannot post the READ", r);
		st = hc_wait_op(h, wr_rdma(IBV_WR_RDMA_READ), &recvs);
		if (st)
			return failed("round %u: READ status %d", r, st);
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
static int case_mesh(const char *name, struct hc *h)
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

/* ---- cases: SIGKILL at each state ------------------------------------ */

static const char *const kill_states[] = {
	"connecting", "established", "desc", "rdma", "done", "result", NULL,
};

static void kill_child(const char *state)
{
	struct hc h = { 0 };
	struct proto_hello hl;
	struct proto_done d = { 0 };
	uint8_t pd[PROTO_HELLO_LEN], msg[SLOT];
	int i, n;

	hello_default(&hl, PROTO_OP_READ | PROTO_OP_WRITE, 65536, 5);
	hl.iters = 1000;
	h.hello = hl;
	proto_hello_encode(&hl, pd, sizeof(pd));
	if (!strcmp(state, "connecting")) {
		if (hc_connect(&h, pd, sizeof(pd), 65536, 0))
			_exit(3);
		raise(SIGKILL);
	}
	if (!strcmp(state, "established")) {
		if (hc_connect(&h, pd, sizeof(pd), 65536, 1))
			_exit(3);
		raise(SIGKILL);
	}
	if (native_open(&h, &hl, NULL))
		_exit(3);
	if (!strcmp(state, "desc"))
		raise(SIGKILL);
	if (!strcmp(state, "rdma")) {
		for (i = 0; i < 16; i++)
			hc_rdma_post(&h, i % 2 ? IBV_WR_RDMA_WRITE :
				     IBV_WR_RDMA_READ, h.desc.addr,
				     h.desc.rkey, 65536);
		usleep(2000);
		raise(SIGKILL);
	}
	if (hc_rdma(&h, IBV_WR_RDMA_READ, h.desc.addr, h.desc.rkey, 65536))
		_exit(3);
	d.reads_done = 1;
	n = proto_done_encode(&d, msg, sizeof(msg));
	if (hc_send(&h, msg, (size_t)n))
		_exit(3);
	if (!strcmp(state, "done"))
		raise(SIGKILL);
	n = hc_recv(&h, msg, tmo_ms);
	if (n != PROTO_RESULT_LEN)
		_exit(3);
	raise(SIGKILL);		/* "result": before we disconnect */
	_exit(4);
}

static int case_kill(const char *state)
{
	pid_t pid;
	int st, i;

	for (i = 0; kill_states[i]; i++)
		if (!strcmp(state, kill_states[i]))
			break;
	if (!kill_states[i])
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return failed("fork: %s", strerror(errno));
	if (pid == 0)
		kill_child(state);
	if (waitpid(pid, &st, 0) < 0)
		return failed("waitpid: %s", strerror(errno));
	if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
		return failed("child did not reach state %s (status %#x)",
			      state, st);
	return pass("client killed with SIGKILL in state %s", state);
}

/* ---- cases: flood ----------------------------------------------------- */

static int case_flood(unsigned int n, int rping)
{
	struct hc *hs = calloc(n, sizeof(*hs));
	struct proto_hello hl;
	struct proto_reject r;
	uint8_t pd[PROTO_HELLO_LEN];
	unsigned int i, ok = 0, busy = 0, other = 0;
	char last[PROTO_REJECT_TEXT_MAX + 1] = "";
	int ret;

	if (!hs)
		return failed("out of memory");
	hello_default(&hl, PROTO_OP_READ, 4096, 11);
	proto_hello_encode(&hl, pd, sizeof(pd));
	for (i = 0; i < n; i++) {
		hs[i].hello = hl;
		ret = rping ? hc_connect(&hs[i], NULL, 0, 0, 1) :
			      hc_connect(&hs[i], pd, sizeof(pd), 0, 1);
		if (!ret) {
			ok++;
		} else if (ret == -ECONNREFUSED &&
			   !proto_reject_decode(hs[i].rej, hs[i].rej_len, &r,
						NULL) &&
			   r.reason == PROTO_REJ_BUSY) {
			busy++;
			snprintf(last, sizeof(last), "%s", r.text);
		} else {
			other++;
		}
	}
	fflush(stdout);
	if (hold_ms)
		usleep((useconds_t)hold_ms * 1000);
	for (i = 0; i < n; i++)
		hc_close(&hs[i]);
	free(hs);
	printf("flood: accepted %u busy %u other %u\n", ok, busy, other);
	if (other)
		return failed("%u connections neither accepted nor rejected "
			      "as busy", other);
	return pass("%u accepted, %u rejected busy (last: %s)", ok, busy,
		    last);
}

/* ---- cases: stolen and stale rkeys, least access ----------------- */

/*
 * A 4 KiB OP at ADDR with RKEY from H must fail with a remote access
 * error: 0, or failed() saying WHAT and the status seen.
 */
static int want_access_err(struct hc *h, enum ibv_wr_opcode op,
			   uint64_t addr, uint32_t rkey, const char *what)
{
	int st = hc_rdma(h, op, addr, rkey, 4096);

	if (st == IBV_WC_REM_ACCESS_ERR)
		return 0;
	return failed("%s: status %d (%s), want remote access error", what,
		      st, st >= 0 ? ibv_wc_status_str(st) : "timeout");
}

static int case_steal(struct hc *v, struct hc *a)
{
	struct proto_hello hv, ha;
	const char *what = NULL;
	int ret;

	hello_default(&hv, PROTO_OP_READ | PROTO_OP_WRITE, 4096, 0xbeef);
	hello_default(&ha, PROTO_OP_READ | PROTO_OP_WRITE, 4096, 0xbad);
	ret = native_open(v, &hv, NULL);
	if (ret)
		return failed("victim session: %s", strerror(-ret));
	ret = native_open(a, &ha, NULL);
	if (ret)
		return failed("attacker session: %s", strerror(-ret));
	if (a->desc.rkey == v->desc.rkey)
		fprintf(stderr, "# note: equal rkeys %#x\n", v->desc.rkey);

	/* 1. WRITE into the victim's buffer with its rkey, our QP. */
	memset(a->buf.p, 0xa5, 4096);
	if (want_access_err(a, IBV_WR_RDMA_WRITE, v->desc.addr, v->desc.rkey,
			    "stolen-rkey WRITE"))
		return 1;
	hc_close(a);

	/* 2. READ it, from a fresh connection (the first is in error). */
	ret = native_open(a, &ha, NULL);
	if (ret)
		return failed("second attacker session: %s", strerror(-ret));
	if (want_access_err(a, IBV_WR_RDMA_READ, v->desc.addr, v->desc.rkey,
			    "stolen-rkey READ"))
		return 1;
	hc_close(a);

	/* 3. Our own rkey, the victim's address. */
	ret = native_open(a, &ha, NULL);
	if (ret)
		return failed("third attacker session: %s", strerror(-ret));
	if (want_access_err(a, IBV_WR_RDMA_WRITE, v->desc.addr, a->desc.rkey,
			    "own rkey at the victim's address"))
		return 1;

	/* The victim's data is intact and its session ends ok. */
	ret = native_honest(v, &what);
	if (ret)
		return failed("victim after the attacks: %s", what);
	return pass("3 attacks got remote access errors; victim's buffer "
		    "intact, its RESULT ok");
}

static int case_stale(struct hc *v, struct hc *a)
{
	struct proto_hello hv, ha;
	const char *what = NULL;
	int ret;

	hello_default(&hv, PROTO_OP_READ | PROTO_OP_WRITE, 4096, 0xcafe);
	hello_default(&ha, PROTO_OP_READ, 4096, 0xf00);
	ret = native_open(a, &ha, NULL);
	if (!ret)
		ret = native_open(v, &hv, NULL);
	if (ret)
		return failed("sessions: %s", strerror(-ret));
	ret = native_honest(v, &what);
	if (ret)
		return failed("victim session: %s", what);
	hc_close(v);
	usleep(500 * 1000);	/* the server releases the victim */
	if (want_access_err(a, IBV_WR_RDMA_READ, v->desc.addr, v->desc.rkey,
			    "stale rkey READ"))
		return 1;
	return pass("rkey of a finished session refused (remote access "
		    "error)");
}

static int case_least(struct hc *h, uint8_t ops)
{
	struct proto_hello hl;
	int ret;

	hello_default(&hl, ops, 4096, 0x1ea5);
	ret = native_open(h, &hl, NULL);
	if (ret)
		return failed("session: %s", strerror(-ret));
	if (want_access_err(h, ops == PROTO_OP_READ ? IBV_WR_RDMA_WRITE :
			    IBV_WR_RDMA_READ, h->desc.addr, h->desc.rkey,
			    ops == PROTO_OP_READ ? "WRITE on a read-only buffer" :
			    "READ on a write-only buffer"))
		return 1;
	return pass("%s-only buffer refused the other operation",
		    ops == PROTO_OP_READ ? "read" : "write");
}

/* ---- cases: pre-shared key ------------------------------------------ */

static int case_psk(const char *name, struct hc *h)
{
	struct auth_key key;
	struct proto_hello hl;
	struct proto_auth a;
	uint8_t pd[PROTO_HELLO_LEN], msg[SLOT];
	const char *what = NULL;
	long long ms;
	int ret, n, got_desc = 0;

	if (!strcmp(name, "psk-rping"))
		return expect_reject(h, NULL, 0, PROTO_REJ_DENIED);
	if (load_key(&key))
		return 2;
	hello_default(&hl, PROTO_OP_READ | PROTO_OP_WRITE, 4096, 0x5eed);
	if (!strcmp(name, "psk-good")) {
		ret = native_open(h, &hl, &key);
		if (ret)
			return failed("session with the right key: %s",
				      strerror(-ret));
		if (!(h->welcome.flags & PROTO_WELCOME_F_AUTH))
			return failed("server did not ask for the key");
		if (native_honest(h, &what))
			return failed("%s", what);
		return pass("right key: DESC, verified READ and WRITE, "
			    "RESULT ok");
	}
	h->hello = hl;
	proto_hello_encode(&hl, pd, sizeof(pd));
	ret = hc_connect(h, pd, sizeof(pd), 4096, 1);
	if (ret)
		return failed("connect: %s", strerror(-ret));
	if (!(h->welcome.flags & PROTO_WELCOME_F_AUTH))
		return failed("server did not ask for the key");
	if (!strcmp(name, "psk-wrong")) {
		key.key[0] ^= 1;
		auth_mac(&key, &h->welcome, &hl, a.mac);
	} else if (!strcmp(name, "psk-other-hello")) {
		/* Right key, but a MAC for other parameters. */
		struct proto_hello other = hl;

		other.size = 8;
		auth_mac(&key, &h->welcome, &other, a.mac);
	} else if (!strcmp(name, "psk-replay")) {
		/* Right key, a MAC for another nonce (a past session). */
		struct proto_welcome old = h->welcome;

		old.nonce[5] ^= 0x40;
		auth_mac(&key, &old, &hl, a.mac);
	} else if (!strcmp(name, "psk-skip")) {
		/* No AUTH: straight to DONE. */
		struct proto_done d = { 0 };

		n = proto_done_encode(&d, msg, sizeof(msg));
		goto send;
	} else {
		return -1;
	}
	n = proto_auth_encode(&a, msg, sizeof(msg));
send:
	if (hc_send(h, msg, (size_t)n))
		return failed("cannot post");
	ms = hc_wait_disconnect(h, tmo_ms);
	while ((n = hc_recv(h, msg, 10)) > 0)
		if (proto_msg_type(msg, (size_t)n, NULL) == PROTO_MSG_DESC)
			got_desc = 1;
	if (got_desc)
		return failed("server revealed its DESC without a valid AUTH");
	if (ms < 0)
		return failed("server did not disconnect us within %dms",
			      tmo_ms);
	auth_key_clear(&key);
	return pass("refused and disconnected after %lldms, no DESC seen",
		    ms);
}

/* A valid hello that must be rejected with REASON (ACL, limits...). */
static int case_expect_reject(struct hc *h, int reason, int rping)
{
	struct proto_hello hl;
	uint8_t pd[PROTO_HELLO_LEN];

	if (rping)
		return expect_reject(h, NULL, 0, reason);
	hello_default(&hl, PROTO_OP_READ, 4096, 1);
	proto_hello_encode(&hl, pd, sizeof(pd));
	return expect_reject(h, pd, sizeof(pd), reason);
}

/* A whole honest native session (the baseline). */
static int case_honest(struct hc *h, int with_key)
{
	struct auth_key key;
	struct proto_hello hl;
	const char *what = NULL;
	int ret;

	if (with_key && load_key(&key))
		return 2;
	hello_default(&hl, PROTO_OP_READ | PROTO_OP_WRITE, 65536, 42);
	ret = native_open(h, &hl, with_key ? &key : NULL);
	if (ret)
		return failed("session: %s", strerror(-ret));
	if (native_honest(h, &what))
		return failed("%s", what);
	return pass("honest session ok");
}

/* ---- serving: corrupt ------------------------------------------------ */

/*
 * "corrupt" turns rdmad-hostile into a server (SERVER is the address to
 * listen on, -p its port) that speaks the native protocol, without a key,
 * for -H seconds (0: until killed), and returns
 * wrong bytes where rdmad would not, the same way every time:
 *
 * - native session: the buffer it offers for READ holds pattern(seed,
 *   0xffffffff) with the byte at offset 40 (the last byte of a shorter
 *   buffer) inverted, so a READ that verifies sees a mismatch there.  A
 *   WRITE's bytes get the same byte inverted before the server checks
 *   them for its RESULT: status 1 (mismatch) at that offset.
 * - mesh session: its buffer is memory in which bytes 40 .. 4135 and
 *   4136 .. 8231 are the same bytes (the page that holds offset 40 is
 *   mapped twice in a row, see corrupt_alias), so a round of more than
 *   4136 bytes has its bytes from 4136 on land over those from 40 on:
 *   the READ back differs at offset 40, in every such round; rounds of up
 *   to 4136 bytes read back what they wrote.  Like the silent corruption
 *   Aegis (NSDI '25) found, which only packets over 1 KB met, it takes
 *   large rounds to see it.  (A thread that keeps rewriting bytes races
 *   the client's READ, which follows its WRITE within microseconds
 *   without our CPU: in the test bed it lost most rounds.)
 *
 * Native sessions are served one at a time, start to end (connect
 * requests queue meanwhile); mesh sessions, up to 64, are held once
 * their DESC is out, so many peers and paths can probe it at once.  Each
 * session prints "# corrupt: native|mesh session N, size S, seed X" and
 * what it did.  SIGTERM or SIGINT ends it: "ok corrupt: N sessions
 * served".
 */
#define CORRUPT_OFF	40u
#define CORRUPT_MAX	(64u << 20)	/* largest buffer offered */

static volatile sig_atomic_t corrupt_stop;

static void corrupt_signal(int sig)
{
	(void)sig;
	corrupt_stop = 1;
}

/* A session; a mesh one's buffer is its own mapping and region. */
struct corrupt_sess {
	struct hc h;
	uint8_t *map;
	size_t len;
	struct ibv_mr *mr;
	unsigned int n;			/* its number, from 1 */
};

#define CORRUPT_MESH_MAX	64	/* mesh sessions held at once */

static struct corrupt_sess *corrupt_mesh_held[CORRUPT_MESH_MAX];

static void corrupt_free(struct corrupt_sess *cs)
{
	struct hc *h = &cs->h;
	int flush;

	if (h->have_q && h->connected)
		rdma_qp_disconnect(&h->q, &flush);
	h->connected = 0;
	if (cs->mr)
		ibv_dereg_mr(cs->mr);
	if (cs->map)
		munmap(cs->map, cs->len);
	hc_close(h);
	free(cs);
}

/* Held mesh sessions whose client left (STOP: all) are let go. */
static void corrupt_mesh_reap(int stop)
{
	struct corrupt_sess *cs;
	unsigned int i, k;

	for (i = 0; i < CORRUPT_MESH_MAX; i++) {
		cs = corrupt_mesh_held[i];
		if (!cs)
			continue;
		for (k = 0; k < cs->h.nev; k++)
			if (cs->h.ev[k].type == RDMA_CM_EVENT_DISCONNECTED)
				cs->h.connected = 0;
		cs->h.nev = 0;
		if (cs->h.connected && !stop)
			continue;
		printf("# corrupt: mesh session %u ended\n", cs->n);
		corrupt_free(cs);
		corrupt_mesh_held[i] = NULL;
	}
	fflush(stdout);
}

/*
 * SIZE bytes at CS->h.buf.p, registered on its PD, whose offsets 40 and
 * 40 + PAGE are the same byte: a memfd of N pages mapped as pages
 * 0, 1, 1, 2, ..., N - 1 of the file, the buffer starting PAGE - 40
 * bytes into the first page.  0 or -errno.
 */
static int corrupt_alias(struct corrupt_sess *cs, uint32_t size)
{
	struct hc *h = &cs->h;
	long pg = sysconf(_SC_PAGESIZE);
	size_t page = pg > 0 ? (size_t)pg : 4096, np, fl;
	int fd, ret = 0;
	void *p;

	np = (page - CORRUPT_OFF + size + page - 1) / page + 1;
	fl = (np - 1) * page;
	fd = memfd_create("rdmad-hostile", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	cs->len = np * page;
	p = mmap(NULL, cs->len, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ftruncate(fd, (off_t)fl) || p == MAP_FAILED) {
		ret = -errno;
		goto out;
	}
	cs->map = p;
	if (mmap(p, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 fd, 0) == MAP_FAILED ||
	    mmap((uint8_t *)p + 2 * page, fl - page, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, fd, (off_t)page) == MAP_FAILED) {
		ret = -errno;
		goto out;
	}
	cs->mr = ibv_reg_mr(h->q.pd, p, cs->len,
				    IBV_ACCESS_LOCAL_WRITE |
				    IBV_ACCESS_REMOTE_WRITE |
				    IBV_ACCESS_REMOTE_READ);
	if (!cs->mr) {
		ret = -errno;
		goto out;
	}
	h->buf.p = (uint8_t *)p + page - CORRUPT_OFF;
	h->buf.len = size;
	h->buf.mr = cs->mr;
out:
	close(fd);
	return ret;
}

/* The listener's events: connect requests queue here until served. */
static struct hc corrupt_lis;

static int corrupt_listen(void)
{
	struct sockaddr_storage ss;
	int ret;

	corrupt_lis.cmh.event = hc_cm_event;
	ret = rdma_cm_chan_open(&corrupt_lis.cm, base);
	if (!ret)
		ret = rdma_cm_id_new(&corrupt_lis.cm, &corrupt_lis.cmh,
				     &corrupt_lis.id);
	if (ret)
		return ret;
	if (resolve(srv_host, &ss))
		return -EINVAL;
	if (rdma_bind_addr(corrupt_lis.id, (struct sockaddr *)&ss) ||
	    rdma_listen(corrupt_lis.id, 16))
		return -errno;
	return 0;
}

/* The next connect request within MS: 0, -ETIMEDOUT, -EINTR. */
static int corrupt_next(struct rdma_cm_ev *req, int ms)
{
	struct pollfd pfd = { .fd = corrupt_lis.cm.ch->fd, .events = POLLIN };
	long long end = now_ms() + ms;
	unsigned int i;

	for (;;) {
		for (i = 0; i < corrupt_lis.nev; i++) {
			if (corrupt_lis.ev[i].type !=
			    RDMA_CM_EVENT_CONNECT_REQUEST)
				continue;
			*req = corrupt_lis.ev[i];
			memmove(corrupt_lis.ev + i, corrupt_lis.ev + i + 1,
				(--corrupt_lis.nev - i) *
				sizeof(corrupt_lis.ev[0]));
			return 0;
		}
		corrupt_lis.nev = 0;	/* nothing else matters here */
		if (corrupt_stop)
			return -EINTR;
		if (now_ms() > end)
			return -ETIMEDOUT;
		if (poll(&pfd, 1, (int)(end - now_ms()) + 1) < 0)
			return -errno;
		if (event_base_loop(base, EVLOOP_NONBLOCK) < 0)
			return -EIO;
		corrupt_mesh_reap(0);
	}
}

/* Accept REQ on H with the buffer its DESC will offer; 0 or -errno. */
static int corrupt_accept(struct corrupt_sess *cs,
			  const struct rdma_cm_ev *req)
{
	struct hc *h = &cs->h;
	uint8_t pd[PROTO_WELCOME_LEN], msg[SLOT];
	struct proto_welcome w = { .version = PROTO_VERSION };
	struct ibv_device_attr da;
	const char *why = NULL;
	int ret, n, mesh;

	h->cm = corrupt_lis.cm;		/* the listener's channel */
	h->shared_cm = 1;
	h->id = req->id;
	h->cmh.event = hc_cm_event;
	rdma_cm_id_handler(h->id, &h->cmh);
	if (proto_hello_decode(req->pdata, req->pdata_len, &h->hello, &why) ||
	    h->hello.size > CORRUPT_MAX) {
		n = proto_reject_encode(PROTO_REJ_BAD_HELLO,
					why ? why : "too large", msg,
					sizeof(msg));
		rdma_reject(h->id, msg, (uint8_t)n);
		return -EPROTO;
	}
	mesh = h->hello.flags & PROTO_F_MESH;
	ret = hc_qp_setup(h, mesh ? 0 : h->hello.size, &da);
	if (!ret && mesh)
		ret = corrupt_alias(cs, h->hello.size);
	if (ret)
		return ret;
	pattern_fill(h->buf.p, h->hello.size, h->hello.seed, PROTO_ITER_READ);
	w.max_size = CORRUPT_MAX;
	w.max_iters = 1000000;
	n = proto_welcome_encode(&w, pd, sizeof(pd));
	ret = rdma_qp_accept(&h->q, req, &da, pd, (uint8_t)n);
	if (!ret)
		ret = hc_expect(h, RDMA_CM_EVENT_ESTABLISHED);
	if (ret)
		return ret;
	h->connected = 1;
	return 0;
}

static int corrupt_desc(struct hc *h)
{
	struct proto_desc d = {
		.addr = (uintptr_t)h->buf.p, .rkey = h->buf.mr->rkey,
		.len = h->hello.size, .access = h->hello.ops,
	};
	uint8_t msg[SLOT];
	int n;

	n = proto_desc_encode(&d, msg, sizeof(msg));
	return n < 0 ? n : hc_send(h, msg, (size_t)n);
}

/*
 * The next message within -t, 0 (*LEN = 0) when the client disconnected
 * first (as rdma-probe does when a READ did not verify), or -errno.
 */
static int corrupt_recv(struct hc *h, uint8_t *msg, int *len)
{
	long long end = now_ms() + tmo_ms;
	enum rdma_cm_event_type t;
	int n, st;

	*len = 0;
	while (now_ms() <= end) {
		n = hc_recv(h, msg, 50);
		if (n >= 0) {
			*len = n;
			return 0;
		}
		if (n != -ETIMEDOUT)
			return n;
		n = hc_cm_wait(h, 1, &t, &st);
		if (!n && t == RDMA_CM_EVENT_DISCONNECTED) {
			h->connected = 0;
			return 0;
		}
		if (n && n != -ETIMEDOUT)
			return n;
	}
	return -ETIMEDOUT;
}

/* Native: one wrong byte in what is read, and in what was written. */
static int corrupt_native(struct hc *h, uint32_t off)
{
	struct proto_result r = { .first_bad_offset = PROTO_NO_BAD_OFFSET };
	struct proto_done d;
	const char *why = NULL;
	uint8_t msg[SLOT];
	ssize_t bad;
	int n, ret;

	h->buf.p[off] ^= 0xff;
	ret = corrupt_desc(h);
	if (!ret)
		ret = corrupt_recv(h, msg, &n);
	if (ret)
		return ret;
	if (!n) {
		printf("# corrupt: native session, READ byte %u inverted; "
		       "the client left without a DONE\n", off);
		return 0;
	}
	if (proto_done_decode(msg, (size_t)n, &d, &why)) {
		fprintf(stderr, "# corrupt: no DONE: %s\n", why);
		return -EPROTO;
	}
	if (d.writes_done) {
		h->buf.p[off] ^= 0xff;
		bad = pattern_check(h->buf.p, h->hello.size, h->hello.seed,
				    d.last_write_iter);
		r.crc32c_seen = crc32c(0, h->buf.p, h->hello.size);
		if (bad >= 0) {
			r.status = PROTO_RES_MISMATCH;
			r.first_bad_offset = (uint32_t)bad;
		}
	}
	n = proto_result_encode(&r, msg, sizeof(msg));
	if (n < 0 || hc_send(h, msg, (size_t)n))
		return -EIO;
	printf("# corrupt: native session, READ byte %u inverted, RESULT "
	       "%u (offset %d)\n", off, r.status,
	       (int)(int32_t)r.first_bad_offset);
	return 0;
}

/* Mesh: the DESC, then held until the client leaves (or we stop). */
static int corrupt_mesh(struct corrupt_sess *cs)
{
	unsigned int i;
	int ret;

	for (i = 0; i < CORRUPT_MESH_MAX && corrupt_mesh_held[i]; i++)
		;
	if (i == CORRUPT_MESH_MAX)
		return -EBUSY;
	ret = corrupt_desc(&cs->h);
	if (ret)
		return ret;
	corrupt_mesh_held[i] = cs;
	printf("# corrupt: mesh session %u held, offsets %u and %u are one "
	       "byte (rounds over %u bytes read back other data)\n", cs->n,
	       CORRUPT_OFF, CORRUPT_OFF + (unsigned int)sysconf(_SC_PAGESIZE),
	       CORRUPT_OFF + (unsigned int)sysconf(_SC_PAGESIZE));
	return 0;
}

static int case_corrupt(void)
{
	struct sigaction sa = { .sa_handler = corrupt_signal };
	long long end = now_ms() + hold_ms;
	unsigned int served = 0;
	struct corrupt_sess *cs;
	struct rdma_cm_ev req;
	int ret, mesh;

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	ret = corrupt_listen();
	if (ret) {
		hc_close(&corrupt_lis);
		return failed("cannot listen on %s port %u: %s", srv_host,
			      port, strerror(-ret));
	}
	printf("# corrupt: listening on %s port %u\n", srv_host, port);
	fflush(stdout);
	while (!corrupt_stop && (!hold_ms || now_ms() < end)) {
		ret = corrupt_next(&req, hold_ms ? (int)(end - now_ms()) :
				   1000);
		if (ret == -ETIMEDOUT)
			continue;
		if (ret)
			break;
		cs = calloc(1, sizeof(*cs));
		if (!cs) {
			rdma_reject(req.id, NULL, 0);
			rdma_destroy_id(req.id);
			continue;
		}
		cs->n = served + 1;
		ret = corrupt_accept(cs, &req);
		mesh = !ret && (cs->h.hello.flags & PROTO_F_MESH);
		if (!ret) {
			printf("# corrupt: %s session %u, size %u, seed "
			       "%" PRIu64 "\n", mesh ? "mesh" : "native",
			       cs->n, cs->h.hello.size, cs->h.hello.seed);
			ret = mesh ? corrupt_mesh(cs) :
			      corrupt_native(&cs->h, cs->h.hello.size >
					     CORRUPT_OFF ? CORRUPT_OFF :
					     cs->h.hello.size - 1);
		}
		if (ret)
			printf("# corrupt: session %u: %s\n", cs->n,
			       strerror(-ret));
		else
			served++;
		fflush(stdout);
		if (mesh && !ret)
			continue;	/* held until its client leaves */
		if (cs->h.connected)
			hc_wait_disconnect(&cs->h, 1000);
		corrupt_free(cs);
	}
	corrupt_mesh_reap(1);
	rdma_destroy_id(corrupt_lis.id);
	corrupt_lis.id = NULL;
	hc_close(&corrupt_lis);
	return pass("%u sessions served", served);
}

/* ---- main ------------------------------------------------------------ */

static const char *const cases[] = {
	"honest", "honest-key",
	"hello-bad-magic", "hello-bad-version", "hello-short",
	"hello-reserved", "hello-trailing", "hello-no-ops", "hello-bad-ops",
	"hello-zero-size", "hello-huge-size", "hello-huge-iters",
	"msg-short", "msg-empty", "msg-oversized", "msg-bad-magic",
	"msg-bad-version", "msg-bad-type", "msg-len-mismatch",
	"msg-desc-to-server", "msg-auth-unasked", "done-twice",
	"done-overflow", "done-wrong-data",
	"rping-overflow", "rping-huge", "rping-zero", "rping-short",
	"rping-long", "rping-bad-rkey", "rping-beyond-mr",
	"silent-native", "silent-rping", "silent-auth", "vanish",
	"mesh-hold", "mesh-vanish", "mesh-done",
	"corrupt (a server: SERVER is the address it listens on)",
	"kill STATE (connecting established desc rdma done result)",
	"flood N", "flood-rping N", "steal", "stale-rkey",
	"least-read", "least-write",
	"psk-good", "psk-wrong", "psk-other-hello", "psk-replay", "psk-skip",
	"psk-rping", "expect-reject REASON", "expect-reject-rping REASON",
	NULL,
};

static void usage(FILE *f)
{
	fprintf(f, "usage: rdmad-hostile [-p PORT] [-I SRCADDR] [-t SECS] "
		"[-k KEYFILE] [-H HOLDSECS] CASE [ARG] SERVER\n"
		"       rdmad-hostile list\n");
}

int main(int argc, char **argv)
{
	struct hc h = { 0 }, h2 = { 0 };
	const char *arg = NULL;
	int opt, ret = -1;

	while ((opt = getopt(argc, argv, "p:I:t:k:H:h")) != -1) {
		switch (opt) {
		case 'H':
			hold_ms = atoi(optarg) * 1000;
			break;
		case 'p':
			port = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'I':
			src_host = optarg;
			break;
		case 't':
			tmo_ms = atoi(optarg) * 1000;
			break;
		case 'k':
			key_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc && !strcmp(argv[optind], "list")) {
		for (opt = 0; cases[opt]; opt++)
			puts(cases[opt]);
		return 0;
	}
	if (argc - optind < 2) {
		usage(stderr);
		return 2;
	}
	case_name = argv[optind++];
	if (!strcmp(case_name, "kill") || !strncmp(case_name, "flood", 5) ||
	    !strncmp(case_name, "expect-reject", 13)) {
		if (argc - optind < 2) {
			usage(stderr);
			return 2;
		}
		arg = argv[optind++];
	}
	srv_host = argv[optind];
	signal(SIGPIPE, SIG_IGN);
	base = event_base_new();
	if (!base) {
		fprintf(stderr, "rdmad-hostile: cannot create an event loop\n");
		return 2;
	}

	if (!strcmp(case_name, "honest"))
		ret = case_honest(&h, 0);
	else if (!strcmp(case_name, "honest-key"))
		ret = case_honest(&h, 1);
	else if (!strncmp(case_name, "hello-", 6))
		ret = case_hello(case_name, &h);
	else if (!strncmp(case_name, "msg-", 4) ||
		 !strncmp(case_name, "done-", 5))
		ret = case_msg(case_name, &h);
	else if (!strncmp(case_name, "rping-", 6))
		ret = case_rping(case_name, &h);
	else if (!strncmp(case_name, "silent-", 7))
		ret = case_silent(case_name, &h);
	else if (!strcmp(case_name, "vanish"))
		ret = case_vanish(&h);
	else if (!strncmp(case_name, "mesh-", 5))
		ret = case_mesh(case_name, &h);
	else if (!strcmp(case_name, "kill"))
		ret = case_kill(arg);
	else if (!strcmp(case_name, "flood"))
		ret = case_flood((unsigned int)atoi(arg), 0);
	else if (!strcmp(case_name, "flood-rping"))
		ret = case_flood((unsigned int)atoi(arg), 1);
	else if (!strcmp(case_name, "steal"))
		ret = case_steal(&h, &h2);
	else if (!strcmp(case_name, "stale-rkey"))
		ret = case_stale(&h, &h2);
	else if (!strcmp(case_name, "least-read"))
		ret = case_least(&h, PROTO_OP_READ);
	else if (!strcmp(case_name, "least-write"))
		ret = case_least(&h, PROTO_OP_WRITE);
	else if (!strncmp(case_name, "psk-", 4))
		ret = case_psk(case_name, &h);
	else if (!strcmp(case_name, "expect-reject"))
		ret = case_expect_reject(&h, atoi(arg), 0);
	else if (!strcmp(case_name, "expect-reject-rping"))
		ret = case_expect_reject(&h, atoi(arg), 1);
	else if (!strcmp(case_name, "corrupt"))
		ret = case_corrupt();
	if (ret < 0) {
		fprintf(stderr, "rdmad-hostile: unknown case '%s'\n",
			case_name);
		usage(stderr);
		ret = 2;
	}
	hc_close(&h2);
	hc_close(&h);
	return ret;
}
