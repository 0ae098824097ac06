/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmad-hostile: output, one connection's plumbing over src/rdma, native helpers (hostile.h). */

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "container_of.h"
#include "crc32c.h"
#include "pattern.h"

#include "hostile.h"

/* ---- output ----------------------------------------------------------- */

int verdict(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %s: ", ok ? "ok" : "FAIL", case_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return !ok;
}

long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- connection plumbing ------------------------------------------- */

/* The layer's CM channel hands us our events: keep them in order. */
void hc_cm_event(struct rdma_cm_handler *hd, const struct rdma_cm_ev *e)
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
int hc_cm_wait(struct hc *h, int ms, enum rdma_cm_event_type *type,
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

int hc_expect(struct hc *h, enum rdma_cm_event_type want)
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

void hc_close(struct hc *h)
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

int resolve(const char *host, struct sockaddr_storage *ss)
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
int hc_qp_setup(struct hc *h, size_t buflen,
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
int hc_connect(struct hc *h, const void *pdata, uint8_t plen,
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

int hc_send(struct hc *h, const void *msg, size_t len)
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
uint64_t wr_rdma(enum ibv_wr_opcode op)
{
	return rdma_wr_id(op == IBV_WR_RDMA_READ ? RDMA_WR_READ :
			  RDMA_WR_WRITE, 0);
}

int hc_rdma_post(struct hc *h, enum ibv_wr_opcode op, uint64_t raddr,
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
int hc_wait_op(struct hc *h, uint64_t wr_id, int *recvs)
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

int hc_rdma(struct hc *h, enum ibv_wr_opcode op, uint64_t raddr,
	    uint32_t rkey, uint32_t len)
{
	if (hc_rdma_post(h, op, raddr, rkey, len))
		return -EIO;
	return hc_wait_op(h, wr_rdma(op), NULL);
}

/* Next received message into MSG (SLOT bytes); returns its length. */
int hc_recv(struct hc *h, uint8_t *msg, int ms)
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
long long hc_wait_disconnect(struct hc *h, int ms)
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

void hello_default(struct proto_hello *hl, uint8_t ops, uint32_t size,
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

/* The AUTH MAC for welcome W and hello HL with key K, bound (a WELCOME
 * with F_BIND) to the address and port this connection went to, as an
 * honest client computes it. */
int hc_mac(struct hc *h, const struct auth_key *k,
	   const struct proto_welcome *w, const struct proto_hello *hl,
	   uint8_t mac[PROTO_AUTH_MAC_LEN])
{
	struct auth_bind b;

	if (!(w->flags & PROTO_WELCOME_F_BIND))
		return auth_mac(k, w, hl, mac);
	if (auth_bind_of(&b, rdma_get_peer_addr(h->id)))
		return -EINVAL;
	return auth_mac_bound(k, w, hl, &b, mac);
}

/* Connect natively with hello HL, authenticate if asked, take DESC. */
int native_open(struct hc *h, const struct proto_hello *hl,
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
		if (hc_mac(h, key, &h->welcome, hl, a.mac))
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
int native_finish(struct hc *h, const struct proto_done *d)
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
int native_honest(struct hc *h, const char **what)
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

int load_key(struct auth_key *k)
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
