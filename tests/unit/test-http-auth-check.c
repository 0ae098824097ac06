/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-http-auth-check.c - http_auth_check.c with real bcrypt hashes
 * (libcrypt, made here): the right password passes and is cached, a
 * wrong one and an unknown user are refused after a bcrypt each (an
 * unknown one's as long as the dearest user's, whatever the users'
 * order), no header is "missing", a check without a job spends nothing,
 * and a flood of wrong passwords runs out of bcrypt's budget (busy)
 * while a cached credential still passes.  Prints the figures: a
 * bcrypt at cost 8, a cached check, unknown vs known user.
 */
#include <crypt.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "clock.h"
#include "http/http_auth_check.h"
#include "auth-fixture.h"
#include "tap.h"

/* A time later than any before: a full budget at each check. */
static uint64_t later(void)
{
	static uint64_t t;

	t = (t ? t : clock_now_ns()) + 3600 * 1000000000ull;
	return t;
}

/* CPU time of this thread, ns: the work a check does, which a loaded
 * machine does not stretch as it does the wall clock */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The least of 5 checks' costs (ns of CPU, measured around the call:
 * the whole check, not what it says of itself) for USER:PW in A, each
 * with a full budget. */
static uint64_t least_cost(struct http_auth *a, struct http_auth_job *job,
			   const char *user, const char *pw)
{
	uint64_t c = UINT64_MAX;
	char hb[512];
	unsigned int i;

	for (i = 0; i < 5; i++) {
		uint64_t t0 = cpu_ns(), t;

		http_auth_check_now(a, basic(hb, sizeof(hb), user, pw),
				    later(), job);
		t = cpu_ns() - t0;
		if (t < c)
			c = t;
	}
	return c;
}

int main(void)
{
	static struct http_auth_job job;
	static struct web_config wc;
	struct http_auth *a;
	char hb[512];
	uint64_t t0, cost_known, cost_unknown, cached;
	unsigned int i, j, busy = 0;
	enum http_auth_result r;

	tap_plan(17);
	memset(&wc, 0, sizeof(wc));
	a = http_auth_check_new(&wc);
	tap_ok(a && http_auth_check_now(a, NULL, clock_now_ns(), &job) == HTTP_AUTH_OK,
	       "no users: every request passes");
	http_auth_check_free(a);

	/* cost 4 (about 1 ms) here, so that the budget stays out of it */
	if (add_user(&wc, "prom", "s3cret", 4) ||
	    add_user(&wc, "other", "pw2", 4)) {
		tap_ok(0, "libcrypt makes bcrypt hashes");
		return tap_done();
	}
	a = http_auth_check_new(&wc);
	tap_ok(a != NULL, "two users at cost 4");
	tap_ok(http_auth_check_now(a, NULL, clock_now_ns(), &job) == HTTP_AUTH_MISSING,
	       "no header: missing");
	tap_ok(http_auth_check_now(a, "Bearer x", clock_now_ns(), &job) ==
	       HTTP_AUTH_MISSING, "another scheme: missing");
	tap_ok(http_auth_check_now(a, "Basic %%%", clock_now_ns(), &job) ==
	       HTTP_AUTH_WRONG, "malformed: wrong");
	r = http_auth_check_now(a, basic(hb, sizeof(hb), "prom", "s3cret"),
			    clock_now_ns(), &job);
	tap_ok(r == HTTP_AUTH_OK, "right password: ok");
	tap_ok(http_auth_check_now(a, basic(hb, sizeof(hb), "other", "pw2"),
			       clock_now_ns(), &job) == HTTP_AUTH_OK,
	       "the second user: ok");
	tap_ok(http_auth_check_now(a, basic(hb, sizeof(hb), "prom", "pw2"),
			       clock_now_ns(), &job) == HTTP_AUTH_WRONG,
	       "another user's password: wrong");
	/* the least of 5 of each (the machine's noise is one-sided), each
	 * with a full budget: on a loaded machine ten bcrypts at one
	 * instant can run the budget out, and the last would be BUSY */
	cost_known = least_cost(a, &job, "prom", "pw2");
	cost_unknown = least_cost(a, &job, "eve", "s3cret");
	r = http_auth_check_now(a, basic(hb, sizeof(hb), "eve", "s3cret"),
				later(), &job);
	/* without the dummy hash an unknown user costs a table miss, a
	 * thousandth of a bcrypt: a 20th leaves room for a loaded machine */
	tap_ok(r == HTTP_AUTH_WRONG && cost_unknown * 20 > cost_known,
	       "unknown user: wrong, after a bcrypt as long (%llu vs %llu us)",
	       (unsigned long long)cost_unknown / 1000,
	       (unsigned long long)cost_known / 1000);
	/* the least of 10 batches of 100: a loaded machine's preemption
	 * lands in some batch, not in all */
	cached = UINT64_MAX;
	for (j = 0; j < 10; j++) {
		t0 = cpu_ns();
		for (i = 0; i < 100; i++)
			r = http_auth_check_now(a, basic(hb, sizeof(hb), "prom", "s3cret"),
					    clock_now_ns(), &job);
		if ((cpu_ns() - t0) / 100 < cached)
			cached = (cpu_ns() - t0) / 100;
	}
	tap_ok(r == HTTP_AUTH_OK && cached * 20 < cost_known,
	       "cached: the best of 10 batches of 100 checks in %llu ns each",
	       (unsigned long long)cached);

	/* a check without a job: a bcrypt would be needed, none runs */
	tap_ok(http_auth_check(a, basic(hb, sizeof(hb), "prom", "new pw"),
			       clock_now_ns(), NULL) == HTTP_AUTH_VERIFY &&
	       http_auth_check(a, basic(hb, sizeof(hb), "prom", "s3cret"),
			       clock_now_ns(), NULL) == HTTP_AUTH_OK,
	       "no job: VERIFY for a new credential, OK for a cached one");

	/* users of different costs, the cheap one first: an unknown user
	 * costs what the dear one does (the first user's hash would make
	 * it 16 times cheaper, and names could be told by timing) */
	http_auth_check_free(a);
	memset(&wc, 0, sizeof(wc));
	if (add_user(&wc, "cheap", "pw1", 4) || add_user(&wc, "dear", "pw2", 8))
		tap_diag("libcrypt made no cost 4/8 hashes");
	a = http_auth_check_new(&wc);
	cost_known = least_cost(a, &job, "dear", "wrong");
	cost_unknown = least_cost(a, &job, "nobody", "wrong");
	tap_diag("figures: unknown user %llu us, known user at cost 8 %llu us, "
		 "at cost 4 %llu us",
		 (unsigned long long)cost_unknown / 1000,
		 (unsigned long long)cost_known / 1000,
		 (unsigned long long)least_cost(a, &job, "cheap", "x") / 1000);
	/* a 16th would be the cheap user's; a 4th leaves room for noise */
	tap_ok(cost_unknown * 4 > cost_known,
	       "mixed costs: an unknown user costs the dearest user's bcrypt "
	       "(%llu vs %llu us)", (unsigned long long)cost_unknown / 1000,
	       (unsigned long long)cost_known / 1000);
	/* the same the other way round */
	http_auth_check_free(a);
	memset(&wc, 0, sizeof(wc));
	if (add_user(&wc, "dear", "pw2", 8) || add_user(&wc, "cheap", "pw1", 4))
		tap_diag("libcrypt made no cost 4/8 hashes");
	a = http_auth_check_new(&wc);
	cost_known = least_cost(a, &job, "dear", "wrong");
	cost_unknown = least_cost(a, &job, "nobody", "wrong");
	tap_ok(cost_unknown * 4 > cost_known,
	       "dear user first: the same (%llu vs %llu us)",
	       (unsigned long long)cost_unknown / 1000,
	       (unsigned long long)cost_known / 1000);
	tap_ok(http_auth_check_now(a, basic(hb, sizeof(hb), "nobody", "pw2"),
				   later(), &job) == HTTP_AUTH_WRONG &&
	       http_auth_check_now(a, basic(hb, sizeof(hb), "cheap", "pw1"),
				   later(), &job) == HTTP_AUTH_OK,
	       "the dummy hash lets nobody in; a real user still passes");

	/* cost 8, a fresh table (full budget, 300 ms): one good check,
	 * then a flood of wrong passwords at one instant runs it out */
	http_auth_check_free(a);
	memset(&wc, 0, sizeof(wc));
	if (add_user(&wc, "prom", "s3cret", 8) ||
	    add_user(&wc, "other", "pw2", 8))
		tap_diag("libcrypt made no cost 8 hashes");
	a = http_auth_check_new(&wc);
	t0 = clock_now_ns();
	if (!a || http_auth_check_now(a, basic(hb, sizeof(hb), "prom", "s3cret"),
				  t0, &job) != HTTP_AUTH_OK)
		tap_diag("a fresh table refused the right password");
	tap_diag("figures: bcrypt cost 8 %llu us, a cached check %llu ns",
		 (unsigned long long)http_auth_check_last_cost(a) / 1000,
		 (unsigned long long)cached);
	for (i = 0; i < 40 && !busy; i++)
		if (http_auth_check_now(a, basic(hb, sizeof(hb), "prom", "x"), t0, &job) ==
		    HTTP_AUTH_BUSY)
			busy = i + 1;
	/* busy == 1 (no bcrypt of the flood) is right too: on a loaded
	 * machine the good check's own bcrypt may take the whole 300 ms */
	tap_ok(busy >= 1 && busy < 40, "wrong-password flood: busy after %u "
	       "bcrypts", busy ? busy - 1 : 0);
	tap_ok(http_auth_check_now(a, basic(hb, sizeof(hb), "prom", "s3cret"), t0, &job) ==
	       HTTP_AUTH_OK, "while busy, a cached credential passes");
	tap_ok(http_auth_check_now(a, basic(hb, sizeof(hb), "other", "nope"),
			       t0 + 1, &job) == HTTP_AUTH_BUSY,
	       "while busy, a new one is refused without a bcrypt");
	http_auth_check_free(a);
	return tap_done();
}
