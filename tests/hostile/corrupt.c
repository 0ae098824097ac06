/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmad-hostile: "corrupt", a server that returns wrong bytes. */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "crc32c.h"
#include "pattern.h"

#include "hostile.h"

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

int case_corrupt(void)
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
