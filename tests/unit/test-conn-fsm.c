/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-conn-fsm.c - the connection state machine, driven from a table.
 *
 * The table below states the transitions as rules with wildcards (first
 * match wins); every (protocol, life, send, recv) state times every event
 * is checked against it, and whatever no rule allows must be rejected
 * with -EPROTO, leaving the state unchanged and asking for no action.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "conn_fsm.h"
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

struct rule {
	unsigned int proto, life, send, recv;
	enum conn_event ev;
	int nlife, nsend, nrecv;
	unsigned int act;
};

static const struct rule rules[] = {
	/* init */
	{ ALL, L(INIT), ALL, ALL, CONN_EV_CONNECT_REQUEST,
	  CONN_LIFE_ACCEPTING, KEEP, KEEP, A(ACCEPT) },

	/* live: the peer going away, errors, deadlines, shutdown */
	{ ALL, LIVE, ALL, ALL, CONN_EV_DISCONNECTED,
	  CONN_LIFE_DRAINING, KEEP, KEEP, A(DISCONNECT) | A(DRAIN) },
	{ ALL, LIVE, ALL, ALL, CONN_EV_FATAL,
	  CONN_LIFE_DRAINING, KEEP, KEEP, A(DISCONNECT) | A(DRAIN) },
	{ ALL, LIVE, ALL, ALL, CONN_EV_TIMEOUT,
	  CONN_LIFE_CLOSING, KEEP, KEEP, A(DISCONNECT) },
	{ ALL, LIVE, ALL, ALL, CONN_EV_WC_ERROR,
	  CONN_LIFE_CLOSING, KEEP, KEEP, A(DISCONNECT) },
	{ ALL, LIVE, ALL, ALL, CONN_EV_RECV_BAD,
	  CONN_LIFE_CLOSING, KEEP, KEEP, A(DISCONNECT) },
	{ ALL, LIVE, ALL, ALL, CONN_EV_SHUTDOWN,
	  CONN_LIFE_CLOSING, KEEP, KEEP, A(DISCONNECT) },

	/* accepting -> established */
	{ NAT, L(ACCEPTING), ALL, ALL, CONN_EV_ESTABLISHED,
	  CONN_LIFE_ESTABLISHED, CONN_SS_DESC_POSTED, KEEP, A(SEND_DESC) },
	{ RP, L(ACCEPTING), ALL, ALL, CONN_EV_ESTABLISHED,
	  CONN_LIFE_ESTABLISHED, KEEP, KEEP, 0 },
	{ RP, L(ESTABLISHED), ALL, ALL, CONN_EV_ESTABLISHED,
	  KEEP, KEEP, KEEP, 0 },

	/* native data phase */
	{ NAT, L(ESTABLISHED), S(DESC_POSTED), R(GOT_DONE),
	  CONN_EV_SEND_COMPLETE,
	  KEEP, CONN_SS_RESULT_POSTED, KEEP, A(SEND_RESULT) },
	{ NAT, L(ESTABLISHED), S(DESC_POSTED), ALL, CONN_EV_SEND_COMPLETE,
	  KEEP, CONN_SS_DESC_SENT, KEEP, 0 },
	{ NAT, L(ESTABLISHED), S(RESULT_POSTED), ALL, CONN_EV_SEND_COMPLETE,
	  KEEP, CONN_SS_RESULT_SENT, KEEP, 0 },
	{ NAT, L(ESTABLISHED), S(DESC_POSTED), R(WAIT_DONE),
	  CONN_EV_RECV_DONE,
	  KEEP, KEEP, CONN_RS_GOT_DONE, A(VERIFY) },
	{ NAT, L(ESTABLISHED), S(DESC_SENT), R(WAIT_DONE), CONN_EV_RECV_DONE,
	  KEEP, CONN_SS_RESULT_POSTED, CONN_RS_GOT_DONE,
	  A(VERIFY) | A(SEND_RESULT) },

	/* rping data phase; the first advert may beat ESTABLISHED */
	{ RP, LIVE, S(IDLE), R(WAIT_SRC), CONN_EV_RECV_ADVERT,
	  CONN_LIFE_ESTABLISHED, CONN_SS_READ_POSTED, CONN_RS_WAIT_SINK,
	  A(POST_READ) },
	{ RP, LIVE, S(READ_DONE), R(WAIT_SINK), CONN_EV_RECV_ADVERT,
	  CONN_LIFE_ESTABLISHED, CONN_SS_WRITE_POSTED, CONN_RS_WAIT_SRC,
	  A(POST_WRITE) },
	{ RP, L(ESTABLISHED), S(READ_POSTED), ALL, CONN_EV_READ_COMPLETE,
	  KEEP, CONN_SS_READ_DONE, KEEP, A(SEND_GO) },
	{ RP, L(ESTABLISHED), S(WRITE_POSTED), ALL, CONN_EV_WRITE_COMPLETE,
	  KEEP, CONN_SS_IDLE, KEEP, A(SEND_GO) },
	{ RP, L(ESTABLISHED), ALL, ALL, CONN_EV_SEND_COMPLETE,
	  KEEP, KEEP, KEEP, 0 },

	/* closing: wait for DISCONNECTED, ignore the rest */
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_DISCONNECTED,
	  CONN_LIFE_DRAINING, KEEP, KEEP, A(DRAIN) },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_FATAL,
	  CONN_LIFE_DRAINING, KEEP, KEEP, A(DRAIN) },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_TIMEOUT,
	  CONN_LIFE_DRAINING, KEEP, KEEP, A(DRAIN) },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_ESTABLISHED, KEEP, KEEP, KEEP, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_RECV_DONE, KEEP, KEEP, KEEP, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_RECV_AUTH, KEEP, KEEP, KEEP, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_RECV_ADVERT, KEEP, KEEP, KEEP, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_RECV_BAD, KEEP, KEEP, KEEP, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_SEND_COMPLETE,
	  KEEP, KEEP, KEEP, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_READ_COMPLETE,
	  KEEP, KEEP, KEEP, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_WRITE_COMPLETE,
	  KEEP, KEEP, KEEP, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_WC_ERROR, KEEP, KEEP, KEEP, 0 },
	{ ALL, L(CLOSING), ALL, ALL, CONN_EV_SHUTDOWN, KEEP, KEEP, KEEP, 0 },

	/* draining: flushed work requests, then destroy */
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_DRAINED,
	  CONN_LIFE_CLOSED, KEEP, KEEP, A(DESTROY) },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_TIMEOUT,
	  CONN_LIFE_CLOSED, KEEP, KEEP, A(DESTROY) },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_ESTABLISHED,
	  KEEP, KEEP, KEEP, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_RECV_DONE, KEEP, KEEP, KEEP, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_RECV_AUTH, KEEP, KEEP, KEEP, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_RECV_ADVERT,
	  KEEP, KEEP, KEEP, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_RECV_BAD, KEEP, KEEP, KEEP, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_SEND_COMPLETE,
	  KEEP, KEEP, KEEP, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_READ_COMPLETE,
	  KEEP, KEEP, KEEP, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_WRITE_COMPLETE,
	  KEEP, KEEP, KEEP, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_WC_ERROR, KEEP, KEEP, KEEP, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_DISCONNECTED,
	  KEEP, KEEP, KEEP, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_FATAL, KEEP, KEEP, KEEP, 0 },
	{ ALL, L(DRAINING), ALL, ALL, CONN_EV_SHUTDOWN, KEEP, KEEP, KEEP, 0 },

	/* closed: late duplicates only */
	{ ALL, L(CLOSED), ALL, ALL, CONN_EV_DISCONNECTED,
	  KEEP, KEEP, KEEP, 0 },
	{ ALL, L(CLOSED), ALL, ALL, CONN_EV_TIMEOUT, KEEP, KEEP, KEEP, 0 },
};

static const struct rule *find_rule(const struct conn_fsm *f,
				    enum conn_event ev)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rule *r = &rules[i];

		if (r->ev == ev && (r->proto & B(f->proto)) &&
		    (r->life & B(f->life)) && (r->send & B(f->send)) &&
		    (r->recv & B(f->recv)))
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
	int p, l, s, r;

	for (p = 0; p < CONN_PROTO__COUNT; p++)
		for (l = 0; l < CONN_LIFE__COUNT; l++)
			for (s = 0; s < CONN_SS__COUNT; s++)
				for (r = 0; r < CONN_RS__COUNT; r++) {
					memset(&f, 0, sizeof(f));
					f.proto = p;
					f.life = l;
					f.send = s;
					f.recv = r;
					why[0] = '\0';
					if (!tap_ok(check_state(&f, why,
								sizeof(why)),
						    "table %s %s x all events",
						    conn_proto_name(p),
						    conn_fsm_str(&f, name,
								 sizeof(name))))
						tap_diag("%s", why);
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
			CONN_EV_RECV_BAD);
	tap_ok(ret == 0 && end.life == CONN_LIFE_CLOSING &&
	       !(acts & A(SEND_DESC)) && (acts & A(DISCONNECT)),
	       "auth: wrong key closes without a DESC");
	ret = WALK(CONN_PROTO_NATIVE, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_RECV_AUTH);
	tap_ok(ret == 3, "no key: an AUTH is illegal");
	ret = WALK(CONN_PROTO_RPING, CONN_EV_CONNECT_REQUEST,
		   CONN_EV_ESTABLISHED, CONN_EV_RECV_AUTH);
	tap_ok(ret == 3, "rping: an AUTH is illegal");
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
			A(DESTROY)), "native session, all actions in turn");

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
	       !strcmp(conn_proto_name(CONN_PROTO_RPING), "rping"),
	       "life, recv, proto names");
}

int main(void)
{
	test_table();
	test_scenarios();
	test_auth();
	test_deadlines();
	test_names();
	return tap_done();
}
