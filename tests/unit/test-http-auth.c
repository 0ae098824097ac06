/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-http-auth.c - http_auth.c, the gate that runs bcrypt off the
 * event loop, in a real libevent loop with real bcrypt hashes: while a
 * wrong password at cost 12 is checked, a 5 ms timer on the loop keeps
 * ticking (the longest gap between ticks is the loop's stall, printed
 * beside the bcrypt's time; under half of it in one of 3 tries); a
 * right password is answered later, then from the cache at once; a line of HTTP_AUTH_WAIT_MAX waits, one more
 * is busy; a cancelled request gets no answer; a new table takes over
 * the waiting requests.
 */
#include <crypt.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <event2/event.h>
#include <sodium.h>

#include "clock.h"
#include "http/http_auth.h"
#include "auth-fixture.h"
#include "tap.h"

static struct event_base *base;

/* The answers: the request is an index into these. */
#define N_REQ	(HTTP_AUTH_WAIT_MAX + 4)
static int answered[N_REQ];		/* 0: none yet; else result + 1 */
static unsigned int n_answered;

static void done(void *arg, void *req, enum http_auth_result r)
{
	unsigned int i = (unsigned int)((char *)req - (char *)answered) /
			 sizeof(answered[0]);

	answered[i] = (int)r + 1;
	n_answered++;
}

#define REQ(i)	((void *)&answered[i])

/* The loop's ticks: the longest gap between two. */
static uint64_t last_tick, max_gap;

static void tick(evutil_socket_t fd, short what, void *arg)
{
	uint64_t now = clock_now_ns();

	if (last_tick && now - last_tick > max_gap)
		max_gap = now - last_tick;
	last_tick = now;
}

/* Run the loop until N answers have come (at most 60 s). */
static void run_until(unsigned int n)
{
	uint64_t end = clock_now_ns() + 60000000000ull;

	while (n_answered < n && clock_now_ns() < end)
		event_base_loop(base, EVLOOP_ONCE);
}

int main(void)
{
	static struct web_config wc, wc2, wcs;
	struct timeval tv = { 0, 5000 };
	struct http_auth_gate *g;
	struct http_auth_wait *w, *ws[N_REQ];
	struct http_auth *a, *a2, *as;
	struct event *t;
	char hb[512];
	enum http_auth_result r;
	uint64_t stall = 0, bcrypt = 0;
	unsigned int i;

	tap_plan(12);
	base = event_base_new();
	if (add_user(&wc, "prom", "s3cret", 4) ||
	    add_user(&wcs, "slow", "pw", 12) || add_user(&wc2, "new", "pw", 4)) {
		tap_ok(0, "libcrypt makes bcrypt hashes");
		return tap_done();
	}
	a = http_auth_check_new(&wc);
	a2 = http_auth_check_new(&wc2);
	as = http_auth_check_new(&wcs);
	tap_ok(base && a && a2 && as && !http_auth_gate_new(&g, base, done, NULL),
	       "a gate and its worker");
	tap_ok(http_auth_gate_check(g, NULL, REQ(0), &w) == HTTP_AUTH_OK,
	       "no table: every request passes");
	http_auth_gate_set(g, as);
	tap_ok(http_auth_gate_check(g, NULL, REQ(0), &w) == HTTP_AUTH_MISSING,
	       "no header: missing, at once");

	/*
	 * A wrong password at cost 12: the loop keeps ticking. Were the
	 * bcrypt run on the loop, one gap between ticks would hold all of
	 * it (stall >= bcrypt, always); off the loop, the gaps are the
	 * timer's 5 ms and what the machine's load adds. A loaded machine
	 * can starve the loop's thread for a while (133 ms of a 380 ms
	 * bcrypt in one CI run), so up to 3 tries, each on a fresh table
	 * (a table's budget would refuse a second cost 12 check at once):
	 * one whose longest gap is under half the bcrypt passes.
	 */
	for (i = 0; i < 3; i++) {
		struct http_auth *ai = i ? http_auth_check_new(&wcs) : as;

		if (!ai)
			break;
		http_auth_gate_set(g, ai);
		answered[1] = 0;
		n_answered = 0;
		max_gap = 0;
		t = event_new(base, -1, EV_PERSIST, tick, NULL);
		event_add(t, &tv);
		last_tick = clock_now_ns();	/* the check's own time counts */
		r = http_auth_gate_check(g, basic(hb, sizeof(hb), "slow",
						 "wrong"), REQ(1), &w);
		run_until(1);
		stall = max_gap;
		bcrypt = http_auth_check_last_cost(ai);
		event_free(t);
		http_auth_gate_set(g, as);
		if (ai != as)
			http_auth_check_free(ai);
		tap_diag("figures: a wrong password at cost 12 (try %u): bcrypt "
			 "%llu ms off the loop, the loop's longest stall "
			 "meanwhile %llu ms", i + 1,
			 (unsigned long long)bcrypt / 1000000,
			 (unsigned long long)stall / 1000000);
		if (r != HTTP_AUTH_VERIFY || !w ||
		    answered[1] != HTTP_AUTH_WRONG + 1 ||
		    (bcrypt > 0 && stall * 2 < bcrypt))
			break;
	}
	tap_ok(r == HTTP_AUTH_VERIFY && w && answered[1] == HTTP_AUTH_WRONG + 1,
	       "a wrong password: answered later, wrong");
	tap_ok(bcrypt > 0 && stall * 2 < bcrypt,
	       "the loop ticked through the bcrypt (longest stall %llu ms, "
	       "bcrypt %llu ms, try %u of 3)", (unsigned long long)stall / 1000000,
	       (unsigned long long)bcrypt / 1000000, i < 3 ? i + 1 : 3);

	/* the right password: later, then cached at once (a table of
	 * cost 4, whose budget the cost 12 bcrypt did not spend) */
	http_auth_gate_set(g, a);
	r = http_auth_gate_check(g, basic(hb, sizeof(hb), "prom", "s3cret"),
				 REQ(2), &w);
	run_until(2);
	tap_ok(r == HTTP_AUTH_VERIFY && answered[2] == HTTP_AUTH_OK + 1,
	       "the right password: answered later, ok");
	tap_ok(http_auth_gate_check(g, basic(hb, sizeof(hb), "prom", "s3cret"),
				    REQ(3), &w) == HTTP_AUTH_OK && !w,
	       "then remembered: ok at once");

	/* one running, a full line, one more is busy */
	memset(answered, 0, sizeof(answered));
	n_answered = 0;
	for (i = 0; i <= HTTP_AUTH_WAIT_MAX; i++)
		r = http_auth_gate_check(g, basic(hb, sizeof(hb), "prom", "x"),
					 REQ(i), &ws[i]);
	tap_ok(r == HTTP_AUTH_VERIFY &&
	       http_auth_gate_check(g, basic(hb, sizeof(hb), "prom", "y"),
				    REQ(HTTP_AUTH_WAIT_MAX + 1), &w) ==
	       HTTP_AUTH_BUSY && !w,
	       "1 running and %d in line: the next is busy",
	       HTTP_AUTH_WAIT_MAX);
	/* the second in line goes away; the first's check meets a new
	 * table: checked again against it */
	http_auth_gate_cancel(ws[2]);
	http_auth_gate_cancel(ws[0]);
	http_auth_gate_set(g, a2);
	run_until(HTTP_AUTH_WAIT_MAX - 1);
	for (i = 0; i <= HTTP_AUTH_WAIT_MAX; i++)
		if (i != 0 && i != 2 && !answered[i])
			break;
	tap_ok(i > HTTP_AUTH_WAIT_MAX, "every request in line answered");
	tap_ok(!answered[0] && !answered[2], "the cancelled ones were not");
	tap_ok(answered[1] == HTTP_AUTH_WRONG + 1 &&
	       http_auth_check_last_cost(a2) > 0,
	       "the new table checked them (prom is not in it: wrong)");
	r = http_auth_gate_check(g, basic(hb, sizeof(hb), "new", "pw"),
				 REQ(HTTP_AUTH_WAIT_MAX + 2), &w);
	run_until(HTTP_AUTH_WAIT_MAX);
	tap_ok(r == HTTP_AUTH_BUSY ||
	       answered[HTTP_AUTH_WAIT_MAX + 2] == HTTP_AUTH_OK + 1,
	       "the new table's user passes (or its budget is spent)");
	http_auth_gate_free(g);
	http_auth_check_free(a);
	http_auth_check_free(a2);
	http_auth_check_free(as);
	event_base_free(base);
	return tap_done();
}
