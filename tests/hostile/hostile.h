/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hostile.h - what the parts of rdmad-hostile share: a connection (struct
 * hc) and its plumbing (conn.c), the cases (cases-proto.c: hello, messages,
 * rping adverts, silence, mesh sessions; cases-abuse.c: kills, floods,
 * rkeys, keys, honest clients) and the corrupting server (corrupt.c);
 * rdmad-hostile.c parses the command line and runs one case.
 */
#ifndef RDMAD_HOSTILE_H
#define RDMAD_HOSTILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "auth.h"
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

/* The command line (rdmad-hostile.c). */
extern const char *srv_host, *src_host, *key_path;
extern unsigned int port;
extern int tmo_ms;
extern int hold_ms;		/* flood: keep the connections this long */
extern const char *case_name;
extern struct event_base *base;

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

/* conn.c: output, connection plumbing, native helpers */
/* The one line of a case: pass(...) prints "ok CASE: ..." and returns 0,
 * failed(...) "FAIL CASE: ..." and returns 1. */
__attribute__((format(printf, 2, 3)))
int verdict(int ok, const char *fmt, ...);
#define pass(...)	verdict(1, __VA_ARGS__)
#define failed(...)	verdict(0, __VA_ARGS__)
long long now_ms(void);
void hc_cm_event(struct rdma_cm_handler *hd, const struct rdma_cm_ev *e);
int hc_cm_wait(struct hc *h, int ms, enum rdma_cm_event_type *type,
	       int *status);
int hc_expect(struct hc *h, enum rdma_cm_event_type want);
void hc_close(struct hc *h);
int resolve(const char *host, struct sockaddr_storage *ss);
int hc_qp_setup(struct hc *h, size_t buflen,
		struct ibv_device_attr *da);
int hc_connect(struct hc *h, const void *pdata, uint8_t plen,
	       size_t buflen, int wait);
int hc_send(struct hc *h, const void *msg, size_t len);
int hc_mac(struct hc *h, const struct auth_key *k,
	   const struct proto_welcome *w, const struct proto_hello *hl,
	   uint8_t mac[PROTO_AUTH_MAC_LEN]);
uint64_t wr_rdma(enum ibv_wr_opcode op);
int hc_rdma_post(struct hc *h, enum ibv_wr_opcode op, uint64_t raddr,
		 uint32_t rkey, uint32_t len);
int hc_wait_op(struct hc *h, uint64_t wr_id, int *recvs);
int hc_rdma(struct hc *h, enum ibv_wr_opcode op, uint64_t raddr,
	    uint32_t rkey, uint32_t len);
int hc_recv(struct hc *h, uint8_t *msg, int ms);
long long hc_wait_disconnect(struct hc *h, int ms);
void hello_default(struct proto_hello *hl, uint8_t ops, uint32_t size,
		   uint64_t seed);
int native_open(struct hc *h, const struct proto_hello *hl,
		const struct auth_key *key);
int native_finish(struct hc *h, const struct proto_done *d);
int native_honest(struct hc *h, const char **what);
int load_key(struct auth_key *k);

/* cases-proto.c */
int expect_reject(struct hc *h, const void *pd, uint8_t plen,
		  int reason);
int case_hello(const char *name, struct hc *h);
int case_msg(const char *name, struct hc *h);
int case_rping(const char *name, struct hc *h);
int case_silent(const char *name, struct hc *h);
int case_vanish(struct hc *h);
int case_mesh(const char *name, struct hc *h);

/* cases-abuse.c */
int case_kill(const char *state);
int case_flood(unsigned int n, int rping);
int case_steal(struct hc *v, struct hc *a);
int case_stale(struct hc *v, struct hc *a);
int case_least(struct hc *h, uint8_t ops);
int case_psk(const char *name, struct hc *h);
int case_expect_reject(struct hc *h, int reason, int rping);
int case_honest(struct hc *h, int with_key);

/* corrupt.c */
int case_corrupt(void);

#endif
