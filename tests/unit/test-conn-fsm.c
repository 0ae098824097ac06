/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-conn-fsm.c - the connection state machine, driven from a table.
 *
 * The table below states the transitions as rules with wildcards (first
 * match wins); every (protocol, life, send, recv) state times every event
 * is checked against it, and whatever no rule allows must be rejected
 * with -EPROTO, leaving the state unchanged and asking for no action.
 * The states include both values of the liveness flag (a check in
 * flight or not) and, for native, of the key (auth) and mesh flags.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "serve/conn_fsm.h"
#include "tap.h"

#define B(x)		(1u << (x))
#define ALL		0xffffffffu
#define KEEP		(-1)
#define LIVE		(B(CONN_LIFE_ACCEPTING) | B(CONN_LIFE_ESTABLISHED))
#define NAT		B(CONN_PROTO_NATIVE)
#define RP		B(CONN_PROTO_RPING)
#define L(x)		B(CONN_LIFE_##x)
#define S(x)		B(CONN_SS_##x)
#define R(x)		B(CONN_RS_##x)
#define A(x)		CONN_ACT_##x
/*
 * Flags: a rule matches any value of the liveness, key and mesh flags
 * unless it says which (a mask of the 8 combinations, index live |
 * auth << 1 | mesh << 2; combine with &: AU1 & MS0), and keeps the
 * liveness flag unless it says NL0 or NL1.
 */
#define FL(f)		B((!!(f)->live) | (!!(f)->auth) << 1 | (!!(f)->mesh) << 2)
#define LV0		0x55u
#define LV1		0xaau
#define AU0		0x33u
#define AU1		0xccu
#define MS0		0x0fu
#define MS1		0xf0u
#define NL0		1
#define NL1		2
/* Native sends that still allow an ABORT (no RESULT yet). */
#define NOT_RESULT	(ALL & ~(S(RESULT_POSTED) | S(RESULT_SENT)))
/* Native sends after which the client may leave: its RESULT is out. */
#define RESULT		(S(RESULT_POSTED) | S(RESULT_SENT))
/* Mesh: the client may leave once its DESC is out. */
#define DESC		(S(DESC_POSTED) | S(DESC_SENT))
#define GONE		(A(DISCONNECT) | A(DRAIN))

struct rule {
	unsigned int proto, life, send, recv;
	enum conn_event ev;
	int nlife, nsend, nrecv;
	unsigned int act;
	unsigned int flags;	/* 0: any, else a mask (LV0, AU1 & MS1...) */
	int nlive;		/* 0: keep, else NL0/NL1 */
};

/* Ignored in LIFE: the event changes nothing and asks for nothing. */
#define IGNORE(life, ev)	{ ALL, L(life), ALL, ALL, CONN_EV_##ev, \
				  KEEP, KEEP, KEEP, 0, 0, 0 }

static const struct rule rules[] = {
	/* init */
	{ ALL, L(INIT), ALL, ALL, CONN_EV_CONNECT_REQUEST,
	  CONN_LIFE_ACCEPTING, KEEP, KEEP, A(ACCEPT) , 0, 0 },
	/* the accept failed: refused, closed at once (nothing to flush) */
	{ ALL, L(ACCEPTING), ALL, ALL, CONN_EV_ACCEPT_FAILED,
	  CONN_LIFE_CLOSED, KEEP, KEEP, A(REJECT), 0, 0 },

	/* the peer left: how the session ended, from the state it left */
	{ NAT, LIVE, RESULT, ALL, CONN_EV_DISCONNECTED,
	  CONN_LIFE_DRAINING, KEEP, KEEP, GONE | A(LEFT_CLEAN), 0, 0 },
	{ NAT, LIVE, DESC, R(MESH), CONN_EV_DISCONNECTED,
	  CONN_LIFE_DRAINING, KEEP, KEEP, GONE | A(LEFT_CLEAN), 0, 0 },
	{ RP, L(ESTABLISHED), S(IDLE), ALL, CONN_EV_DISCONNECTED,
	  CONN_LIFE_DRAINING, KEEP, KEEP, GONE | A(LEFT_CLEAN), 0, 0 },
	{ ALL, LIVE, ALL, ALL, CONN_EV_DISCONNECTED,
	  CONN_LIFE_DRAINING, KEEP, KEEP, GONE | A(LEFT_ABORTED), 0, 0 },
	{ NAT, L(ABORTING), RESULT, ALL, CONN_EV_DISCONNECTED,
	  CONN_LIFE_DRAINING, KEEP, KEEP, GONE | A(LEFT_CLEAN), 0, 0 },
	{ NAT, L(ABORTING), DESC, R(MESH), CONN_EV_DISCONNECTED,
	  CONN_LIFE_DRAINING, KEEP, KEEP, GONE | A(LEFT_CLEAN), 0, 0 },
	{ ALL, L(ABORTING), ALL, ALL, CONN_EV_DISCONNECTED,
	  CONN_LIFE_DRAINING, KEEP, KEEP, GONE | A(LEFT_ABORTED), 0, 0 },
	{ NAT, L(DRAINING) | L(CLOSED), RESULT, ALL, CONN_EV_DISCONNECTED,
	  KEEP, KEEP, KEEP, A(LEFT_CLEAN), 0, 0 },
	{ NAT, L(DRAINING) | L(CLOSED), DESC, R(MESH), CONN_EV_DISCONNECTED,
	  KEEP, KEEP, KEEP, A(LEFT_CLEAN), 0, 0 },
	{ ALL, L(DRAINING) | L(CLOSED), ALL, ALL, CONN_EV_DISCONNECTED,
	  KEEP, KEEP, KEEP, A(LEFT_ABORTED), 0, 0 },

	/* native, established, no RESULT yet: tell the client why first */
	{ NAT, L(ESTABLISHED), NOT_RESULT, ALL, CONN_EV_TIMEOUT,
	  CONN_LIFE_ABORTING, KEEP, KEEP, A(SEND_ABORT), 0, 0 },
	{ NAT, L(ESTABLISHED), NOT_RESULT, ALL, CONN_EV_RECV_BAD,
	  CONN_LIFE_ABORTING, KEEP, KEEP, A(SEND_ABORT), 0, 0 },
	/* a keyed client's bad AUTH before our ESTABLISHED: it is
	 * established (it spoke), so it is told why */
	{ NAT, L(ACCEPTING), NOT_RESULT, ALL, CONN_EV_RECV_BAD,
	  CONN_LIFE_ABORTING, KEEP, KEEP, A(SEND_ABORT), AU1, 0 },
	{ NAT, L(ESTABLISHED), NOT_RESULT, ALL, CONN_EV_SHUTDOWN,
	  CONN_LIFE_ABORTING, KEEP, KEEP, A(SEND_ABORT), 0, 0 },

	/* liveness: one check at a time, only while waiting for the peer */
	{ NAT, L(ESTABLISHED), S(DESC_SENT), R(WAIT_DONE), CONN_EV_LIVE_DUE,
	  KEEP, KEEP, KEEP, A(POST_LIVENESS), LV0, NL1 },
	{ NAT, L(ESTABLISHED), S(DESC_SENT), R(MESH), CONN_EV_LIVE_DUE,
	  KEEP, KEEP, KEEP, A(POST_LIVENESS), LV0, NL1 },
	{ NAT, L(ESTABLISHED), S(IDLE), R(WAIT_AUTH), CONN_EV_LIVE_DUE,
	  KEEP, KEEP, KEEP, A(POST_LIVENESS), LV0, NL1 },
	{ RP, L(ESTABLISHED), S(IDLE), R(WAIT_SRC), CONN_EV_LIVE_DUE,
	  KEEP, KEEP, KEEP, A(POST_LIVENESS), LV0, NL1 },
	{ RP, L(ESTABLISHED), S(READ_DONE), R(WAIT_SINK), CONN_EV_LIVE_DUE,
	  KEEP, KEEP, KEEP, A(POST_LIVENESS), LV0, NL1 },
	{ ALL, LIVE, ALL, ALL, CONN_EV_LIVE_DUE, KEEP, KEEP, KEEP, 0, 0, 0 },
	{ ALL, L(ESTABLISHED), ALL, ALL, CONN_EV_LIVE_OK,
	  KEEP, KEEP, KEEP, 0, LV1, NL0 },
	{ ALL, LIVE, ALL, ALL, CONN_EV_PEER_LOST,
	  CONN_LIFE_DRAINING, KEEP, KEEP, A(DISCONNECT) | A(DRAIN), 0, 0 },

	/* live: the peer going away, errors, deadlines, shutdown */
	{ ALL, LIVE, ALL, ALL, CONN_EV_FATAL,
	  CONN_LIFE_DRAINING, KEEP, KEEP, A(DISCONNECT) | A(DRAIN) , 0, 0 },
	{ ALL, LIVE, ALL, ALL, CONN_EV_TIMEOUT,
	  CONN_LIFE_CLOSING, KEEP, KEEP, A(DISCONNECT) , 0, 0 },
	{ ALL, LIVE, ALL, ALL, CONN_EV_WC_ERROR,
	  CONN_LIFE_CLOSING, KEEP, KEEP, A(DISCONNECT) , 0, 0 },
	{ ALL, LIVE, ALL, ALL, CONN_EV_RECV_BAD,
	  CONN_LIFE_CLOSING, KEEP, KEEP, A(DISCONNECT) , 0, 0 },
	{ ALL, LIVE, ALL, ALL, CONN_EV_SHUTDOWN,
	  CONN_LIFE_CLOSING, KEEP, KEEP, A(DISCONNECT) , 0, 0 },

	/* accepting -> established */
	{ NAT, L(ACCEPTING), ALL, ALL, CONN_EV_ESTABLISHED,
	  CONN_LIFE_ESTABLISHED, CONN_SS_DESC_POSTED, KEEP, A(SEND_DESC),
	  AU0, 0 },
	/* with a key: DESC only after AUTH, which may come first */
	{ NAT, L(ACCEPTING), ALL, ALL, CONN_EV_ESTABLISHED,
	  CONN_LIFE_ESTABLISHED, KEEP, KEEP, 0, AU1, 0 },
	{ NAT, L(ESTABLISHED), ALL, ALL, CONN_EV_ESTABLISHED,
	  KEEP, KEEP, KEEP, 0, AU1, 0 },
	{ NAT, LIVE, S(IDLE), R(WAIT_AUTH), CONN_EV_RECV_AUTH,
	  CONN_LIFE_ESTABLISHED, CONN_SS_DESC_POSTED, CONN_RS_WAIT_DONE,
	  A(SEND_DESC), AU1 & MS0, 0 },
	{ NAT, LIVE, S(IDLE), R(WAIT_AUTH), CONN_EV_RECV_AUTH,
	  CONN_LIFE_ESTABLISHED, CONN_SS_DESC_POSTED, CONN_RS_MESH,
	  A(SEND_DESC), AU1 & MS1, 0 },
	{ RP, L(ACCEPTING), ALL, ALL, CONN_EV_ESTABLISHED,
	  CONN_LIFE_ESTABLISHED, KEEP, KEEP, 0 , 0, 0 },
	{ RP, L(ESTABLISHED), ALL, ALL, CONN_EV_ESTABLISHED,
	  KEEP, KEEP, KEEP, 0 , 0, 0 },

	/* native data phase */
	{ NAT, L(ESTABLISHED), S(DESC_POSTED), R(GOT_DONE),
	  CONN_EV_SEND_COMPLETE,
	  KEEP, CONN_SS_RESULT_POSTED, KEEP, A(SEND_RESULT) , 0, 0 },
	{ NAT, L(ESTABLISHED), S(DESC_POSTED), ALL, CONN_EV_SEND_COMPLETE,
	  KEEP, CONN_SS_DESC_SENT, KEEP, 0 , 0, 0 },
	{ NAT, L(ESTABLISHED), S(RESULT_POSTED), ALL, CONN_EV_SEND_COMPLETE,
	  KEEP, CONN_SS_RESULT_SENT, KEEP, 0 , 0, 0 },
	{ NAT, L(ESTABLISHED), S(DESC_POSTED), R(WAIT_DONE),
	  CONN_EV_RECV_DONE,
	  KEEP, KEEP, CONN_RS_GOT_DONE, A(VERIFY) , 0, 0 },
	{ NAT, L(ESTABLISHED), S(DESC_SENT), R(WAIT_DONE), CONN_EV_RECV_DONE,
	  KEEP, CONN_SS_RESULT_POSTED, CONN_RS_GOT_DONE,
	  A(VERIFY) | A(SEND_RESULT) , 0, 0 },

	/* rping data phase; the first advert may beat ESTABLISHED */
	{ RP, LIVE, S(IDLE), R(WAIT_SRC), CONN_EV_RECV_ADVERT,
	  CONN_LIFE_ESTABLISHED, CONN_SS_READ_POSTED, CONN_RS_WAIT_SINK,
	  A(POST_READ) , 0, 0 },
	{ RP, LIVE, S(READ_DONE), R(WAIT_SINK), CONN_EV_RECV_ADVERT,
	  CONN_LIFE_ESTABLISHED, CONN_SS_WRITE_POSTED, CONN_RS_WAIT_SRC,
	  A(POST_WRITE) , 0, 0 },
	{ RP, L(ESTABLISHED), S(READ_POSTED), ALL, CONN_EV_READ_COMPLETE,
	  KEEP, CONN_SS_READ_DONE, KEEP, A(SEND_GO) , 0, 0 },
	{ RP, L(ESTABLISHED), S(WRITE_POSTED), ALL, CONN_EV_WRITE_COMPLETE,
	  KEEP, CONN_SS_IDLE, KEEP, A(SEND_GO) , 0, 0 },
	{ RP, L(ESTABLISHED), ALL, ALL, CONN_EV_SEND_COMPLETE,
	  KEEP, KEEP, KEEP, 0 , 0, 0 },

	/* aborting: ABORT sent (or not sendable), then disconnect */
	{ ALL, L(ABORTING), ALL, ALL, CONN_EV_ABORT_SENT,
	  CONN_LIFE_CLOSING, KEEP, KEEP, A(DISCONNECT), 0, 0 },
	{ ALL, L(ABORTING), ALL, ALL, CONN_EV_TIMEOUT,
	  CONN_LIFE_CLOSING, KEEP, KEEP, A(DISCONNECT), 0, 0 },
	{ ALL, L(ABORTING), ALL, ALL, CONN_EV_WC_ERROR,
	  CONN_LIFE_CLOSING, KEEP, KEEP, A(DISCONNECT), 0, 0 },
	{ ALL, L(ABORTING), ALL, ALL, CONN_EV_PEER_LOST,
	  CONN_LIFE_DRAINING, KEEP, KEEP, A(DISCONNECT) | A(DRAIN), 0, 0 },
	{ ALL, L(ABORTING), ALL, ALL, CONN_EV_FATAL,
	  CONN_LIFE_DRAINING, KEEP, KEEP, A(DISCONNECT) | A(DRAIN), 0, 0 },
	IGNORE(ABORTING, ESTABLISHED), IGNORE(ABORTING, RECV_AUTH),
	IGNORE(ABORTING, RECV_DONE), IGNORE(ABORTING, RECV_ADVERT),
	IGNORE(ABORTING, RECV_BAD), IGNORE(ABORTING, SEND_COMPLETE),
	IGNORE(ABORTING, READ_COMPLETE), IGNORE(ABORTING, WRITE_COMPLETE),
	IGNORE(ABORTING, SHUTDOWN), IGNORE(ABORTING, LIVE_DUE),
	IGNORE(ABORTING, LIVE_OK),

	/* closing: wait for DISCONNECTED, ignore the rest */
	IGNORE(CLOSING, LIVE_DUE), IGNORE(CLOSING, LIVE_OK),
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_PEER_LOST,
	  CONN_LIFE_DRAINING, KEEP, KEEP, A(DRAIN), 0, 0 },
	IGNORE(CLOSING, ABORT_SENT),
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_DISCONNECTED,
	  CONN_LIFE_DRAINING, KEEP, KEEP, A(DRAIN) , 0, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_FATAL,
	  CONN_LIFE_DRAINING, KEEP, KEEP, A(DRAIN) , 0, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_TIMEOUT,
	  CONN_LIFE_DRAINING, KEEP, KEEP, A(DRAIN) , 0, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_ESTABLISHED, KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_RECV_DONE, KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_RECV_AUTH, KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_RECV_ADVERT, KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_RECV_BAD, KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_SEND_COMPLETE,
	  KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_READ_COMPLETE,
	  KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_WRITE_COMPLETE,
	  KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_WC_ERROR, KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_SHUTDOWN, KEEP, KEEP, KEEP, 0 , 0, 0 },

	/* draining: flushed work requests, then destroy */
	IGNORE(DRAINING, LIVE_DUE), IGNORE(DRAINING, LIVE_OK),
	IGNORE(DRAINING, PEER_LOST), IGNORE(DRAINING, ABORT_SENT),
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_DRAINED,
	  CONN_LIFE_CLOSED, KEEP, KEEP, A(DESTROY) , 0, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_TIMEOUT,
	  CONN_LIFE_CLOSED, KEEP, KEEP, A(DESTROY) , 0, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_ESTABLISHED,
	  KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_RECV_DONE, KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_RECV_AUTH, KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_RECV_ADVERT,
	  KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_RECV_BAD, KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_SEND_COMPLETE,
	  KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_READ_COMPLETE,
	  KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_WRITE_COMPLETE,
	  KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_WC_ERROR, KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_FATAL, KEEP, KEEP, KEEP, 0 , 0, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_SHUTDOWN, KEEP, KEEP, KEEP, 0 , 0, 0 },

	/* closed: late duplicates only */
	{ ALL, L(CLOSED), ALL, ALL, CONN_EV_TIMEOUT, KEEP, KEEP, KEEP, 0 , 0, 0 },
};

static const struct rule *find_rule(const struct conn_fsm *f,
				    enum conn_event ev)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rule *r = &rules[i];

		if (r->ev == ev && (r->proto & B(f->proto)) &&
		    (r->life & B(f->life)) && (r->send & B(f->send)) &&
		    (r->recv & B(f->recv)) &&
		    (!r->flags || (r->flags & FL(f))))
			return r;
	}
	return NULL;
}

static int check_state(const struct conn_fsm *f, char *why, size_t len)
{
	const struct rule *r;
	struct conn_step st;
	struct conn_fsm want;
	int ev, ret;

	for (ev = 0; ev < CONN_EV__COUNT; ev++) {
		memset(&st, 0xa5, sizeof(st));
		ret = conn_fsm_step(f, ev, &st);
		r = find_rule(f, ev);
		if (!r) {
			if (ret != -EPROTO || memcmp(&st.next, f, sizeof(*f)) ||
			    st.actions) {
				snprintf(why, len, "%s accepted (ret %d)",
					 conn_event_name(ev), ret);
				return 0;
			}
			continue;
		}
		want = *f;
		if (r->nlife != KEEP)
			want.life = r->nlife;
		if (r->nsend != KEEP)
			want.send = r->nsend;
		if (r->nrecv != KEEP)
			want.recv = r->nrecv;
		if (r->nlive)
			want.live = r->nlive == NL1;
		if (ret || memcmp(&st.next, &want, sizeof(want)) ||
		    st.actions != r->act) {
			char a[64], b[64];

			snprintf(why, len, "%s: ret %d, got %s act %#x, want "
				 "%s act %#x", conn_event_name(ev), ret,
				 conn_fsm_str(&st.next, a, sizeof(a)),
				 st.actions, conn_fsm_str(&want, b, sizeof(b)),
				 r->act);
			return 0;
		}
	}
	return 1;
}

static void test_table(void)
{
	struct conn_fsm f;
	char why[256], name[64];
	int p, l, s, r, lv, fl;

	for (fl = 0; fl < 4; fl++)
	for (lv = 0; lv < 2; lv++)
	for (p = 0; p < CONN_PROTO__COUNT; p++) {
		/* key and mesh: native only */
		if (fl && p != CONN_PROTO_NATIVE)
			continue;
		for (l = 0; l < CONN_LIFE__COUNT; l++)
			for (s = 0; s < CONN_SS__COUNT; s++)
				for (r = 0; r < CONN_RS__COUNT; r++) {
					memset(&f, 0, sizeof(f));
					f.proto = p;
					f.life = l;
					f.send = s;
					f.recv = r;
					f.live = lv;
					f.auth = fl & 1;
					f.mesh = !!(fl & 2);
					why[0] = '\0';
					if (!tap_ok(check_state(&f, why,
								sizeof(why)),
						    "table %s%s%s %s%s x all "
						    "events",
						    conn_proto_name(p),
						    f.auth ? " key" : "",
						    f.mesh ? " mesh" : "",
						    conn_fsm_str(&f, name,
								 sizeof(name)),
						    lv ? " (check in flight)" :
							 ""))
						tap_diag("%s", why);
				}
	}
}

/* Run the events of AP (ended by -1) from F; returns 0, or the 1-based
 * position of the first event rejected.  *acts gets the union of all
 * actions asked for, *end the state reached. */
static int vwalk(struct conn_fsm f, struct conn_fsm *end, unsigned int *acts,
		 va_list ap)
{
	struct conn_step st;
	int ev, i = 0;

	*acts = 0;
	while ((ev = va_arg(ap, int)) >= 0) {
		i++;
		if (conn_fsm_step(&f, ev, &st)) {
			*end = f;
			return i;
		}
		f = st.next;
		*acts |= st.actions;
	}
	*end = f;
	return 0;
}

/* From the initial state of PROTO. */
static int walk(enum conn_proto proto, struct conn_fsm *end,
		unsigned int *acts, ...)
{
	struct conn_fsm f;
	va_list ap;
	int ret;

	conn_fsm_init(&f, proto);
	va_start(ap, acts);
	ret = vwalk(f, end, acts, ap);
	va_end(ap);
	return ret;
}

#define WALK(p, ...)	walk(p, &end, &acts, __VA_ARGS__, -1)

/* Same from the keyed native initial state (conn_fsm_init_auth). */
static int walk_auth(struct conn_fsm *end, unsigned int *acts, ...)
{
	struct conn_fsm f;
	va_list ap;
	int ret;

	conn_fsm_init_auth(&f);
	va_start(ap, acts);
	ret = vwalk(f, end, acts, ap);
	va_end(ap);
	return ret;
}

#define WALK_AUTH(...)	walk_auth(&end, &acts, __VA_ARGS__, -1)

/* Pre-shared key: no DESC (no rkey) before a valid AUTH. */
static void test_auth(void)
{
	struct conn_fsm end;
	unsigned int acts;
	int ret;

	ret = WALK_AUTH(CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED);
	tap_ok(ret == 0 && end.life == CONN_LIFE_ESTABLISHED &&
	       end.recv == CONN_RS_WAIT_AUTH && end.send == CONN_SS_IDLE &&
	       !(acts & A(SEND_DESC)) &&
	       conn_fsm_deadline(&end) == CONN_DL_IDLE,
	       "auth: established, waiting for AUTH, no DESC, idle deadline");
	ret = WALK_AUTH(CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_RECV_AUTH, CONN_EV_SEND_COMPLETE,
			CONN_EV_RECV_DONE, CONN_EV_SEND_COMPLETE,
			CONN_EV_DISCONNECTED, CONN_EV_DRAINED);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSED &&
	       (acts & A(SEND_DESC)) && (acts & A(SEND_RESULT)),
	       "auth: whole keyed session");
	ret = WALK_AUTH(CONN_EV_CONNECT_REQUEST, CONN_EV_RECV_AUTH,
			CONN_EV_ESTABLISHED, CONN_EV_SEND_COMPLETE);
	tap_ok(ret == 0 && end.send == CONN_SS_DESC_SENT,
	       "auth: AUTH before our ESTABLISHED; late ESTABLISHED ignored");
	ret = WALK_AUTH(CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_RECV_DONE);
	tap_ok(ret == 3, "auth: DONE before AUTH is illegal");
	ret = WALK_AUTH(CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_RECV_AUTH, CONN_EV_RECV_AUTH);
	tap_ok(ret == 4, "auth: a second AUTH is illegal");
	ret = WALK_AUTH(CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_RECV_BAD, CONN_EV_ABORT_SENT);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSING &&
	       !(acts & A(SEND_DESC)) && (acts & A(SEND_ABORT)) &&
	       (acts & A(DISCONNECT)),
	       "auth: wrong key: ABORT, then closes, without a DESC");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_RECV_AUTH);
	tap_ok(ret == 3, "no key: an AUTH is illegal");
	ret = WALK(CONN_PROTO_RPING, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_RECV_AUTH);
	tap_ok(ret == 3, "rping: an AUTH is illegal");
}

/* Same from a mesh session's initial state, keyed if AUTH. */
static int walk_mesh(int auth, struct conn_fsm *end, unsigned int *acts, ...)
{
	struct conn_fsm f;
	va_list ap;
	int ret;

	if (auth)
		conn_fsm_init_auth(&f);
	else
		conn_fsm_init(&f, CONN_PROTO_NATIVE);
	conn_fsm_init_mesh(&f);
	va_start(ap, acts);
	ret = vwalk(f, end, acts, ap);
	va_end(ap);
	return ret;
}

#define WALK_MESH(auth, ...)	walk_mesh(auth, &end, &acts, __VA_ARGS__, -1)

/* Mesh sessions: DESC, then no deadline, liveness, a clean end. */
static void test_mesh(void)
{
	struct conn_fsm end, f;
	unsigned int acts;
	int ret;

	conn_fsm_init(&f, CONN_PROTO_NATIVE);
	tap_ok(conn_fsm_life_bounded(&f), "mesh: a native session has a "
	       "max_duration");
	conn_fsm_init(&f, CONN_PROTO_RPING);
	tap_ok(conn_fsm_life_bounded(&f), "mesh: an rping one too");
	conn_fsm_init(&f, CONN_PROTO_NATIVE);
	conn_fsm_init_mesh(&f);
	tap_ok(!conn_fsm_life_bounded(&f) && f.mesh &&
	       f.recv == CONN_RS_MESH, "mesh: no max_duration, receive "
	       "side mesh");
	conn_fsm_init_auth(&f);
	conn_fsm_init_mesh(&f);
	tap_ok(!conn_fsm_life_bounded(&f) && f.auth &&
	       f.recv == CONN_RS_WAIT_AUTH, "mesh with a key: AUTH first");

	ret = WALK_MESH(0, CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED);
	tap_ok(ret == 0 && end.send == CONN_SS_DESC_POSTED &&
	       acts == (A(ACCEPT) | A(SEND_DESC)) &&
	       conn_fsm_deadline(&end) == CONN_DL_IO &&
	       !conn_fsm_liveness_wanted(&end),
	       "mesh: DESC posted, io deadline, no check while it flies");
	ret = WALK_MESH(0, CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_SEND_COMPLETE);
	tap_ok(ret == 0 && end.life == CONN_LIFE_ESTABLISHED &&
	       end.send == CONN_SS_DESC_SENT && end.recv == CONN_RS_MESH &&
	       conn_fsm_deadline(&end) == CONN_DL_NONE &&
	       conn_fsm_liveness_wanted(&end),
	       "mesh: DESC sent: no deadline at all, liveness checks");
	ret = WALK_MESH(0, CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_SEND_COMPLETE, CONN_EV_LIVE_DUE,
			CONN_EV_LIVE_OK, CONN_EV_LIVE_DUE, CONN_EV_LIVE_OK,
			CONN_EV_LIVE_DUE);
	tap_ok(ret == 0 && end.live && (acts & A(POST_LIVENESS)) &&
	       end.send == CONN_SS_DESC_SENT &&
	       conn_fsm_deadline(&end) == CONN_DL_NONE,
	       "mesh: checks go on, one at a time, still no deadline");
	ret = WALK_MESH(0, CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_SEND_COMPLETE, CONN_EV_LIVE_DUE,
			CONN_EV_DISCONNECTED, CONN_EV_DRAINED);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSED &&
	       (acts & A(LEFT_CLEAN)) && !(acts & A(LEFT_ABORTED)) &&
	       !(acts & A(VERIFY)) && !(acts & A(SEND_RESULT)),
	       "mesh: the client leaving is a clean end, no RESULT");
	ret = WALK_MESH(0, CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_DISCONNECTED);
	tap_ok(ret == 0 && (acts & A(LEFT_CLEAN)),
	       "mesh: leaving before our DESC completion is clean too");
	ret = WALK_MESH(0, CONN_EV_CONNECT_REQUEST, CONN_EV_DISCONNECTED);
	tap_ok(ret == 0 && (acts & A(LEFT_ABORTED)),
	       "mesh: leaving while accepting is not");
	ret = WALK_MESH(0, CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_SEND_COMPLETE, CONN_EV_RECV_DONE);
	tap_ok(ret == 4, "mesh: a DONE is a protocol error");
	ret = WALK_MESH(0, CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_RECV_DONE);
	tap_ok(ret == 3, "mesh: a DONE before our DESC completion too");
	ret = WALK_MESH(0, CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_SEND_COMPLETE, CONN_EV_RECV_BAD);
	tap_ok(ret == 0 && end.life == CONN_LIFE_ABORTING &&
	       acts & A(SEND_ABORT), "mesh: a bad message: ABORT first");
	ret = WALK_MESH(0, CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_SEND_COMPLETE, CONN_EV_SHUTDOWN,
			CONN_EV_ABORT_SENT, CONN_EV_DISCONNECTED,
			CONN_EV_DRAINED);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSED &&
	       (acts & A(SEND_ABORT)) && !(acts & A(LEFT_CLEAN)) &&
	       !(acts & A(LEFT_ABORTED)),
	       "mesh: shutdown: ABORT, disconnect, no verdict of its own");
	ret = WALK_MESH(0, CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_SEND_COMPLETE, CONN_EV_LIVE_DUE,
			CONN_EV_PEER_LOST, CONN_EV_DRAINED);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSED &&
	       !(acts & (A(SEND_ABORT) | A(LEFT_CLEAN) | A(LEFT_ABORTED))),
	       "mesh: a vanished client is reaped by its check, no ABORT");
	ret = WALK_MESH(1, CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED);
	tap_ok(ret == 0 && end.recv == CONN_RS_WAIT_AUTH &&
	       conn_fsm_deadline(&end) == CONN_DL_IDLE &&
	       !(acts & A(SEND_DESC)),
	       "mesh with a key: the idle deadline bounds the wait for AUTH");
	ret = WALK_MESH(1, CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_RECV_AUTH, CONN_EV_SEND_COMPLETE);
	tap_ok(ret == 0 && end.recv == CONN_RS_MESH &&
	       end.send == CONN_SS_DESC_SENT && (acts & A(SEND_DESC)) &&
	       conn_fsm_deadline(&end) == CONN_DL_NONE,
	       "mesh with a key: AUTH, DESC, then no deadline");
	ret = WALK_MESH(1, CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_RECV_DONE);
	tap_ok(ret == 3, "mesh with a key: DONE instead of AUTH is illegal");
}

static void test_scenarios(void)
{
	struct conn_fsm end;
	unsigned int acts;
	int ret;

	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_SEND_COMPLETE,
		   CONN_EV_RECV_DONE, CONN_EV_SEND_COMPLETE,
		   CONN_EV_DISCONNECTED, CONN_EV_DRAINED);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSED &&
	       acts == (A(ACCEPT) | A(SEND_DESC) | A(VERIFY) |
			A(SEND_RESULT) | A(DISCONNECT) | A(DRAIN) |
			A(LEFT_CLEAN) | A(DESTROY)),
	       "native session, all actions in turn");

	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_RECV_DONE,
		   CONN_EV_SEND_COMPLETE, CONN_EV_SEND_COMPLETE);
	tap_ok(ret == 0 && end.send == CONN_SS_RESULT_SENT,
	       "native: DONE before the DESC completion still ends in RESULT");

	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_SEND_COMPLETE,
		   CONN_EV_RECV_DONE, CONN_EV_RECV_DONE);
	tap_ok(ret == 5, "native: a second DONE is illegal");

	ret = WALK(CONN_PROTO_RPING, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED,
		   CONN_EV_RECV_ADVERT, CONN_EV_READ_COMPLETE,
		   CONN_EV_SEND_COMPLETE, CONN_EV_RECV_ADVERT,
		   CONN_EV_WRITE_COMPLETE, CONN_EV_SEND_COMPLETE,
		   CONN_EV_RECV_ADVERT, CONN_EV_READ_COMPLETE,
		   CONN_EV_RECV_ADVERT, CONN_EV_WRITE_COMPLETE,
		   CONN_EV_SEND_COMPLETE, CONN_EV_SEND_COMPLETE);
	tap_ok(ret == 0 && end.send == CONN_SS_IDLE &&
	       end.recv == CONN_RS_WAIT_SRC, "rping: two pings");

	ret = WALK(CONN_PROTO_RPING, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_RECV_ADVERT, CONN_EV_ESTABLISHED,
		   CONN_EV_READ_COMPLETE);
	tap_ok(ret == 0 && end.send == CONN_SS_READ_DONE,
	       "rping: first advert before ESTABLISHED");

	ret = WALK(CONN_PROTO_RPING, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_RECV_ADVERT,
		   CONN_EV_RECV_ADVERT);
	tap_ok(ret == 4, "rping: sink advert before go-ahead is illegal");

	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_DISCONNECTED, CONN_EV_DISCONNECTED,
		   CONN_EV_ESTABLISHED, CONN_EV_DRAINED,
		   CONN_EV_DISCONNECTED);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSED,
	       "DISCONNECTED before ESTABLISHED, and three times");

	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_TIMEOUT, CONN_EV_TIMEOUT, CONN_EV_TIMEOUT);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSED &&
	       (acts & A(DESTROY)),
	       "silent peer: timeouts alone reach closed");

	ret = WALK(CONN_PROTO_RPING, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_RECV_ADVERT,
		   CONN_EV_WC_ERROR, CONN_EV_READ_COMPLETE,
		   CONN_EV_DISCONNECTED, CONN_EV_DRAINED);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSED,
	       "completion error, then late completions ignored");

	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_CONNECT_REQUEST);
	tap_ok(ret == 3, "CONNECT_REQUEST on a live connection is illegal");
}

/* Liveness checks: when they are due, and what their end means. */
static void test_liveness(void)
{
	struct conn_fsm end, f;
	unsigned int acts;
	int ret;

	conn_fsm_init(&f, CONN_PROTO_NATIVE);
	tap_ok(!conn_fsm_liveness_wanted(&f), "liveness: not before accept");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED);
	tap_ok(ret == 0 && !conn_fsm_liveness_wanted(&end),
	       "liveness: not while our DESC is in flight");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_SEND_COMPLETE);
	tap_ok(ret == 0 && conn_fsm_liveness_wanted(&end),
	       "liveness: due while the client works (desc-sent/wait-done)");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_SEND_COMPLETE,
		   CONN_EV_LIVE_DUE);
	tap_ok(ret == 0 && acts == (A(ACCEPT) | A(SEND_DESC) |
				    A(POST_LIVENESS)) && end.live &&
	       !conn_fsm_liveness_wanted(&end),
	       "liveness: one check posted, no second one while in flight");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_SEND_COMPLETE,
		   CONN_EV_LIVE_DUE, CONN_EV_LIVE_DUE, CONN_EV_LIVE_OK,
		   CONN_EV_LIVE_DUE, CONN_EV_LIVE_OK);
	tap_ok(ret == 0 && !end.live && conn_fsm_liveness_wanted(&end) &&
	       end.send == CONN_SS_DESC_SENT,
	       "liveness: healthy peer, checks go on, session untouched");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_SEND_COMPLETE,
		   CONN_EV_LIVE_OK);
	tap_ok(ret == 4, "liveness: an answer without a check is illegal");
	/* DONE arrives while a check is in flight: the session goes on. */
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_SEND_COMPLETE,
		   CONN_EV_LIVE_DUE, CONN_EV_RECV_DONE, CONN_EV_LIVE_OK,
		   CONN_EV_SEND_COMPLETE);
	tap_ok(ret == 0 && end.send == CONN_SS_RESULT_SENT && !end.live &&
	       !conn_fsm_liveness_wanted(&end),
	       "liveness: DONE during a check: RESULT as usual, no new check");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_SEND_COMPLETE,
		   CONN_EV_LIVE_DUE, CONN_EV_PEER_LOST, CONN_EV_DRAINED,
		   CONN_EV_DISCONNECTED);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSED &&
	       !(acts & A(SEND_ABORT)) && (acts & A(DISCONNECT)),
	       "liveness: peer lost: reaped at once (no DREP awaited), no "
	       "ABORT");
	ret = WALK_AUTH(CONN_EV_CONNECT_REQUEST, CONN_EV_ESTABLISHED,
			CONN_EV_LIVE_DUE);
	tap_ok(ret == 0 && (acts & A(POST_LIVENESS)),
	       "liveness: checked while waiting for AUTH");
	ret = WALK(CONN_PROTO_RPING, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_LIVE_DUE, CONN_EV_RECV_ADVERT,
		   CONN_EV_LIVE_DUE, CONN_EV_LIVE_OK, CONN_EV_READ_COMPLETE);
	tap_ok(ret == 0 && end.send == CONN_SS_READ_DONE && !end.live &&
	       conn_fsm_liveness_wanted(&end),
	       "liveness: rping, advert during a check, READ not disturbed");
	ret = WALK(CONN_PROTO_RPING, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_RECV_ADVERT);
	tap_ok(ret == 0 && !conn_fsm_liveness_wanted(&end),
	       "liveness: not while our READ is in flight");
}

/* Ending a native session ourselves: ABORT first. */
static void test_abort(void)
{
	struct conn_fsm end;
	unsigned int acts;
	int ret;

	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_SEND_COMPLETE,
		   CONN_EV_TIMEOUT);
	tap_ok(ret == 0 && end.life == CONN_LIFE_ABORTING &&
	       (acts & A(SEND_ABORT)) && !(acts & A(DISCONNECT)) &&
	       conn_fsm_deadline(&end) == CONN_DL_CLOSE,
	       "abort: session deadline posts ABORT, disconnect waits");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_SEND_COMPLETE,
		   CONN_EV_SHUTDOWN, CONN_EV_RECV_DONE, CONN_EV_SEND_COMPLETE,
		   CONN_EV_ABORT_SENT, CONN_EV_DISCONNECTED,
		   CONN_EV_DRAINED);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSED &&
	       !(acts & A(VERIFY)) && !(acts & A(SEND_RESULT)),
	       "abort: shutdown, a late DONE ignored, then closed");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_SEND_COMPLETE,
		   CONN_EV_TIMEOUT, CONN_EV_TIMEOUT, CONN_EV_TIMEOUT,
		   CONN_EV_TIMEOUT);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSED,
	       "abort: an ABORT that never completes is bounded");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_SEND_COMPLETE,
		   CONN_EV_RECV_DONE, CONN_EV_SEND_COMPLETE, CONN_EV_TIMEOUT);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSING &&
	       !(acts & A(SEND_ABORT)),
	       "abort: none once RESULT is sent (linger)");
	ret = WALK(CONN_PROTO_RPING, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_TIMEOUT);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSING &&
	       !(acts & A(SEND_ABORT)), "abort: never for rping");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_TIMEOUT);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSING &&
	       !(acts & A(SEND_ABORT)), "abort: not before ESTABLISHED");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_WC_ERROR);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSING &&
	       !(acts & A(SEND_ABORT)),
	       "abort: not after a completion error (QP in error)");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_TIMEOUT, CONN_EV_PEER_LOST);
	tap_ok(ret == 0 && end.life == CONN_LIFE_DRAINING &&
	       (acts & A(DISCONNECT)),
	       "abort: the ABORT's own retry exceeded: reaped");
}

static void test_deadlines(void)
{
	struct conn_fsm f;

	conn_fsm_init(&f, CONN_PROTO_NATIVE);
	tap_ok(conn_fsm_deadline(&f) == CONN_DL_NONE, "deadline: init none");
	f.life = CONN_LIFE_ACCEPTING;
	tap_ok(conn_fsm_deadline(&f) == CONN_DL_ACCEPT, "deadline: accept");
	f.life = CONN_LIFE_ESTABLISHED;
	f.send = CONN_SS_DESC_SENT;
	tap_ok(conn_fsm_deadline(&f) == CONN_DL_SESSION,
	       "deadline: native session");
	f.send = CONN_SS_RESULT_SENT;
	f.recv = CONN_RS_GOT_DONE;
	tap_ok(conn_fsm_deadline(&f) == CONN_DL_LINGER, "deadline: linger");
	f.send = CONN_SS_RESULT_POSTED;
	tap_ok(conn_fsm_deadline(&f) == CONN_DL_IO, "deadline: result io");
	conn_fsm_init(&f, CONN_PROTO_RPING);
	f.life = CONN_LIFE_ESTABLISHED;
	tap_ok(conn_fsm_deadline(&f) == CONN_DL_IDLE, "deadline: rping idle");
	f.send = CONN_SS_WRITE_POSTED;
	tap_ok(conn_fsm_deadline(&f) == CONN_DL_IO, "deadline: rping io");
	f.life = CONN_LIFE_DRAINING;
	tap_ok(conn_fsm_deadline(&f) == CONN_DL_CLOSE, "deadline: draining");
	f.life = CONN_LIFE_CLOSED;
	tap_ok(conn_fsm_deadline(&f) == CONN_DL_NONE, "deadline: closed");
}

/* The accept is carried out, and its failure is the machine's to judge. */
static void test_accept(void)
{
	struct conn_fsm end;
	unsigned int acts;
	int ret;

	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ACCEPT_FAILED);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSED &&
	       acts == (A(ACCEPT) | A(REJECT)),
	       "accept fails: closed at once, the request refused");
	tap_ok(conn_fsm_deadline(&end) == CONN_DL_NONE &&
	       !conn_fsm_liveness_wanted(&end),
	       "a refused connection waits for nothing");
	ret = WALK(CONN_PROTO_RPING, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_ACCEPT_FAILED);
	tap_ok(ret == 3, "accept-failed once established is illegal");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_ACCEPT_FAILED);
	tap_ok(ret == 1, "accept-failed before the request is illegal");
}

/* The peer leaving: clean or aborted, from the state it left in. */
static void test_left(void)
{
	static const struct {
		enum conn_proto proto;
		enum conn_life life;
		enum conn_send_state send;
		unsigned int want;	/* 0: no verdict */
		const char *name;
	} t[] = {
		{ CONN_PROTO_NATIVE, CONN_LIFE_ESTABLISHED,
		  CONN_SS_RESULT_SENT, A(LEFT_CLEAN), "native, RESULT sent" },
		{ CONN_PROTO_NATIVE, CONN_LIFE_ESTABLISHED,
		  CONN_SS_RESULT_POSTED, A(LEFT_CLEAN),
		  "native, RESULT posted (not yet completed)" },
		{ CONN_PROTO_NATIVE, CONN_LIFE_ESTABLISHED,
		  CONN_SS_DESC_SENT, A(LEFT_ABORTED), "native, mid-session" },
		{ CONN_PROTO_NATIVE, CONN_LIFE_ACCEPTING, CONN_SS_IDLE,
		  A(LEFT_ABORTED), "native, while accepting" },
		{ CONN_PROTO_NATIVE, CONN_LIFE_ABORTING, CONN_SS_DESC_SENT,
		  A(LEFT_ABORTED), "native, while we abort it" },
		{ CONN_PROTO_NATIVE, CONN_LIFE_CLOSING, CONN_SS_RESULT_SENT,
		  0, "native, while we close it: no verdict" },
		{ CONN_PROTO_NATIVE, CONN_LIFE_DRAINING, CONN_SS_RESULT_SENT,
		  A(LEFT_CLEAN), "native, draining after RESULT" },
		{ CONN_PROTO_RPING, CONN_LIFE_ESTABLISHED, CONN_SS_IDLE,
		  A(LEFT_CLEAN), "rping, between rounds" },
		{ CONN_PROTO_RPING, CONN_LIFE_ESTABLISHED,
		  CONN_SS_READ_POSTED, A(LEFT_ABORTED), "rping, mid-round" },
		{ CONN_PROTO_RPING, CONN_LIFE_ACCEPTING, CONN_SS_IDLE,
		  A(LEFT_ABORTED), "rping, while accepting" },
		{ CONN_PROTO_RPING, CONN_LIFE_CLOSING, CONN_SS_IDLE, 0,
		  "rping, while we close it: no verdict" },
		{ CONN_PROTO_RPING, CONN_LIFE_CLOSED, CONN_SS_IDLE,
		  A(LEFT_ABORTED), "rping, late after closed" },
	};
	struct conn_step st;
	struct conn_fsm f;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		conn_fsm_init(&f, t[i].proto);
		f.life = t[i].life;
		f.send = t[i].send;
		ret = conn_fsm_step(&f, CONN_EV_DISCONNECTED, &st);
		tap_ok(ret == 0 && (st.actions & (A(LEFT_CLEAN) |
						  A(LEFT_ABORTED))) ==
		       t[i].want, "peer left: %s", t[i].name);
	}
}

/* A completed receive is reposted only while the connection lives. */
static void test_repost(void)
{
	static const int want[CONN_LIFE__COUNT] = {
		[CONN_LIFE_ACCEPTING] = 1,
		[CONN_LIFE_ESTABLISHED] = 1,
	};
	struct conn_fsm f;
	int l;

	for (l = 0; l < CONN_LIFE__COUNT; l++) {
		conn_fsm_init(&f, CONN_PROTO_RPING);
		f.life = l;
		tap_ok(!!conn_fsm_recv_repost(&f) == want[l],
		       "receive in %s: %s", conn_life_name(l),
		       want[l] ? "reposted" : "left to flush");
	}
}

static void test_names(void)
{
	int i, j, ok = 1;

	for (i = 0; i < CONN_EV__COUNT; i++)
		for (j = i + 1; j < CONN_EV__COUNT; j++)
			if (!strcmp(conn_event_name(i), conn_event_name(j)))
				ok = 0;
	tap_ok(ok && !strcmp(conn_event_name(CONN_EV_DRAINED), "drained") &&
	       !strcmp(conn_event_name(CONN_EV__COUNT), "?"),
	       "event names distinct, out of range is '?'");
	ok = 1;
	for (i = 0; i < CONN_SS__COUNT; i++)
		for (j = i + 1; j < CONN_SS__COUNT; j++)
			if (!strcmp(conn_send_name(i), conn_send_name(j)))
				ok = 0;
	tap_ok(ok && !strcmp(conn_send_name(CONN_SS_WRITE_POSTED),
			     "write-posted"), "send state names distinct");
	tap_ok(!strcmp(conn_life_name(CONN_LIFE_CLOSED), "closed") &&
	       !strcmp(conn_recv_name(CONN_RS_WAIT_SINK), "wait-sink") &&
	       !strcmp(conn_recv_name(CONN_RS_MESH), "mesh") &&
	       !strcmp(conn_proto_name(CONN_PROTO_RPING), "rping"),
	       "life, recv, proto names");
}

int main(void)
{
	test_table();
	test_scenarios();
	test_auth();
	test_mesh();
	test_liveness();
	test_abort();
	test_deadlines();
	test_accept();
	test_left();
	test_repost();
	test_names();
	return tap_done();
}
