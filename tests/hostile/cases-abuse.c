/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmad-hostile: the cases that abuse resources: kills, floods, stolen and stale rkeys, least access, keys, honest clients. */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostile.h"

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

int case_kill(const char *state)
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

int case_flood(unsigned int n, int rping)
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

/* A fresh attacker session (the NTH) on A, then OP at the victim V's
 * address with V's rkey, or with its own if OWN_RKEY: a remote access
 * error, else the case fails naming WHAT. */
static int steal_again(struct hc *a, const struct proto_hello *ha,
		       const char *nth, enum ibv_wr_opcode op,
		       const struct hc *v, int own_rkey, const char *what)
{
	int ret = native_open(a, ha, NULL);

	if (ret)
		return failed("%s attacker session: %s", nth, strerror(-ret));
	return want_access_err(a, op, v->desc.addr,
			       own_rkey ? a->desc.rkey : v->desc.rkey, what);
}

int case_steal(struct hc *v, struct hc *a)
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
	if (steal_again(a, &ha, "second", IBV_WR_RDMA_READ, v, 0,
			"stolen-rkey READ"))
		return 1;
	hc_close(a);

	/* 3. Our own rkey, the victim's address. */
	if (steal_again(a, &ha, "third", IBV_WR_RDMA_WRITE, v, 1,
			"own rkey at the victim's address"))
		return 1;

	/* The victim's data is intact and its session ends ok. */
	ret = native_honest(v, &what);
	if (ret)
		return failed("victim after the attacks: %s", what);
	return pass("3 attacks got remote access errors; victim's buffer "
		    "intact, its RESULT ok");
}

int case_stale(struct hc *v, struct hc *a)
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

int case_least(struct hc *h, uint8_t ops)
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

int case_psk(const char *name, struct hc *h)
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
		hc_mac(h, &key, &h->welcome, &hl, a.mac);
	} else if (!strcmp(name, "psk-other-hello")) {
		/* Right key, but a MAC for other parameters. */
		struct proto_hello other = hl;

		other.size = 8;
		hc_mac(h, &key, &h->welcome, &other, a.mac);
	} else if (!strcmp(name, "psk-replay")) {
		/* Right key, a MAC for another nonce (a past session). */
		struct proto_welcome old = h->welcome;

		old.nonce[5] ^= 0x40;
		hc_mac(h, &key, &old, &hl, a.mac);
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
int case_expect_reject(struct hc *h, int reason, int rping)
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
int case_honest(struct hc *h, int with_key)
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
