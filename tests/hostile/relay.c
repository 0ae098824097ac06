/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * relay - a man in the middle for the pre-shared key (t-76): it listens
 * where a client believes a keyed rdmad is, and for one client it
 *
 *   1. takes the client's CONNECT (its HELLO) and makes the same CONNECT
 *      to the real rdmad,
 *   2. accepts the client with the real rdmad's WELCOME (its nonce and
 *      connection number),
 *   3. passes the client's AUTH on to the real rdmad,
 *   4. prints what the real rdmad answers and passes that back to the
 *      client: a DESC means the relay holds a session it never had the
 *      key for ("session"), an ABORT or a disconnect that it was refused.
 *
 * usage: relay -l ADDR -p PORT [-t SECS] SERVER-ADDR SERVER-PORT
 * Exit 0 when the real rdmad sent a DESC, 1 when it refused, 2 on an
 * error of the relay.  Plain librdmacm calls, one client, blocking: a test
 * tool, not part of rdmad.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "proto.h"

#define SLOT	PROTO_MSG_MAX

struct side {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint8_t buf[2 * SLOT];		/* receive slot, send slot */
};

static int tmo_ms = 10000;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The next CM event on CH, which must be WANT: its cm_id in *ID and its
 * private data in PD (PDLEN bytes) if asked; acked. */
static int cm_wait(struct rdma_event_channel *ch,
		   enum rdma_cm_event_type want, struct rdma_cm_id **id,
		   uint8_t *pd, uint8_t *pdlen)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	struct rdma_cm_event *e;

	if (poll(&pfd, 1, tmo_ms) <= 0) {
		fprintf(stderr, "relay: no %s within %d ms\n",
			rdma_event_str(want), tmo_ms);
		return -ETIMEDOUT;
	}
	if (rdma_get_cm_event(ch, &e))
		return -errno;
	if (e->event != want) {
		fprintf(stderr, "relay: %s (status %d) instead of %s\n",
			rdma_event_str(e->event), e->status,
			rdma_event_str(want));
		rdma_ack_cm_event(e);
		return -EPROTO;
	}
	if (id)
		*id = e->id;
	if (pd) {
		*pdlen = e->param.conn.private_data_len;
		memcpy(pd, e->param.conn.private_data, *pdlen);
	}
	rdma_ack_cm_event(e);
	return 0;
}

static int side_qp(struct side *s)
{
	struct ibv_qp_init_attr qa = {
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	struct ibv_sge sge;
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;

	s->pd = ibv_alloc_pd(s->id->verbs);
	s->cq = s->pd ? ibv_create_cq(s->id->verbs, 8, NULL, NULL, 0) : NULL;
	if (!s->cq)
		return -ENOMEM;
	qa.send_cq = qa.recv_cq = s->cq;
	if (rdma_create_qp(s->id, s->pd, &qa))
		return -errno;
	s->mr = ibv_reg_mr(s->pd, s->buf, sizeof(s->buf),
			   IBV_ACCESS_LOCAL_WRITE);
	if (!s->mr)
		return -errno;
	sge = (struct ibv_sge){ .addr = (uintptr_t)s->buf, .length = SLOT,
				.lkey = s->mr->lkey };
	return ibv_post_recv(s->id->qp, &wr, &bad) ? -EIO : 0;
}

/* The next message received on S: its length, or -errno. */
static int side_recv(struct side *s, uint8_t *msg)
{
	long long end = now_ms() + tmo_ms;
	struct ibv_wc wc;
	int n;

	while (now_ms() < end) {
		n = ibv_poll_cq(s->cq, 1, &wc);
		if (n < 0)
			return -EIO;
		if (n == 0) {
			usleep(1000);
			continue;
		}
		if (wc.status != IBV_WC_SUCCESS)
			return -ECONNRESET;
		if (wc.opcode == IBV_WC_RECV) {
			memcpy(msg, s->buf, wc.byte_len);
			return (int)wc.byte_len;
		}
	}
	return -ETIMEDOUT;
}

static int side_send(struct side *s, const uint8_t *msg, size_t len)
{
	struct ibv_sge sge = { .addr = (uintptr_t)(s->buf + SLOT),
			       .length = (uint32_t)len, .lkey = s->mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;

	memcpy(s->buf + SLOT, msg, len);
	return ibv_post_send(s->id->qp, &wr, &bad) ? -EIO : 0;
}

static int addr_of(const char *host, const char *port,
		   struct sockaddr_storage *ss)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST }, *ai;

	if (getaddrinfo(host, port, &hints, &ai))
		return -EINVAL;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: relay -l ADDR -p PORT [-t SECS] "
		"SERVER-ADDR SERVER-PORT\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *laddr = NULL, *lport = NULL;
	struct sockaddr_storage la, sa;
	struct side cli = { 0 }, srv = { 0 };
	struct rdma_event_channel *lch;
	struct rdma_cm_id *lid;
	struct rdma_conn_param cp = { .responder_resources = 1,
				      .initiator_depth = 1,
				      .retry_count = 7, .rnr_retry_count = 7 };
	uint8_t hello[PROTO_CONNECT_PDATA_MAX], welcome[PROTO_ACCEPT_PDATA_MAX];
	uint8_t msg[SLOT];
	uint8_t hello_len, welcome_len;
	const char *why = "";
	int opt, n, type;

	/* One line at a time: what it saw reaches its log even when a
	 * sanitizer ends the process at exit before stdio is flushed. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "l:p:t:")) != -1) {
		if (opt == 'l')
			laddr = optarg;
		else if (opt == 'p')
			lport = optarg;
		else if (opt == 't')
			tmo_ms = atoi(optarg) * 1000;
		else
			return usage();
	}
	if (!laddr || !lport || argc - optind != 2 ||
	    addr_of(laddr, lport, &la) ||
	    addr_of(argv[optind], argv[optind + 1], &sa))
		return usage();

	/* Listen where the client thinks the server is. */
	lch = rdma_create_event_channel();
	if (!lch || rdma_create_id(lch, &lid, NULL, RDMA_PS_TCP) ||
	    rdma_bind_addr(lid, (struct sockaddr *)&la) ||
	    rdma_listen(lid, 1)) {
		perror("relay: listen");
		return 2;
	}
	printf("listening\n");
	fflush(stdout);
	tmo_ms *= 6;	/* the client may take a while to come */
	if (cm_wait(lch, RDMA_CM_EVENT_CONNECT_REQUEST, &cli.id, hello,
		    &hello_len))
		return 2;
	tmo_ms /= 6;

	/* The same HELLO to the real server. */
	srv.ch = rdma_create_event_channel();
	if (!srv.ch || rdma_create_id(srv.ch, &srv.id, NULL, RDMA_PS_TCP) ||
	    rdma_resolve_addr(srv.id, NULL, (struct sockaddr *)&sa, tmo_ms)) {
		perror("relay: server address");
		return 2;
	}
	if (cm_wait(srv.ch, RDMA_CM_EVENT_ADDR_RESOLVED, NULL, NULL, NULL))
		return 2;
	if (rdma_resolve_route(srv.id, tmo_ms) ||
	    cm_wait(srv.ch, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL, NULL, NULL) ||
	    side_qp(&srv)) {
		fprintf(stderr, "relay: route or QP to the server failed\n");
		return 2;
	}
	cp.private_data = hello;
	cp.private_data_len = hello_len;
	if (rdma_connect(srv.id, &cp) ||
	    cm_wait(srv.ch, RDMA_CM_EVENT_ESTABLISHED, NULL, welcome,
		    &welcome_len)) {
		fprintf(stderr, "relay: the server did not take the HELLO\n");
		return 2;
	}
	printf("server welcome: %u bytes\n", welcome_len);

	/* Accept the client with the server's WELCOME. */
	if (side_qp(&cli)) {
		fprintf(stderr, "relay: client QP failed\n");
		return 2;
	}
	cp.private_data = welcome;
	cp.private_data_len = welcome_len;
	if (rdma_accept(cli.id, &cp) ||
	    cm_wait(lch, RDMA_CM_EVENT_ESTABLISHED, NULL, NULL, NULL)) {
		fprintf(stderr, "relay: the client did not connect\n");
		return 2;
	}

	/* The client's AUTH to the server, the server's answer back. */
	n = side_recv(&cli, msg);
	if (n < 0 || proto_msg_type(msg, (size_t)n, &why) != PROTO_MSG_AUTH) {
		fprintf(stderr, "relay: no AUTH from the client (%s)\n", why);
		return 2;
	}
	printf("client AUTH: %d bytes, passed on\n", n);
	if (side_send(&srv, msg, (size_t)n))
		return 2;
	n = side_recv(&srv, msg);
	if (n < 0) {
		printf("refused: the server said nothing (%s)\n",
		       strerror(-n));
		rdma_disconnect(cli.id);
		return 1;
	}
	type = proto_msg_type(msg, (size_t)n, &why);
	side_send(&cli, msg, (size_t)n);
	usleep(200000);
	rdma_disconnect(srv.id);
	rdma_disconnect(cli.id);
	if (type == PROTO_MSG_DESC) {
		printf("session: the server sent its DESC\n");
		return 0;
	}
	printf("refused: message type %d from the server\n", type);
	return 1;
}
