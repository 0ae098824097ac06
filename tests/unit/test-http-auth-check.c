/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-http-auth-check.c - http_auth_check.c with real bcrypt hashes
 * (libcrypt, made here): the right password passes and is cached, a
 * wrong one and an unknown user are refused after a bcrypt each, no
 * header is "missing", and a flood of wrong passwords runs out of
 * bcrypt's budget (busy) while a cached credential still passes.  Prints
 * the figures: a bcrypt at cost 10, a cached check.
 */
#include <crypt.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "clock.h"
#include "http/http_auth_check.h"
#include "tap.h"

/* A bcrypt hash of PW at COST into WC's user NAME. */
static int add_user(struct web_config *wc, const char *name, const char *pw,
		    unsigned long cost)
{
	static struct crypt_data cd;
	char salt[CRYPT_GENSALT_OUTPUT_SIZE];
	const char *h;

	if (!crypt_gensalt_rn("$2b$", cost, NULL, 0, salt, sizeof(salt)))
		return -1;
	h = crypt_rn(pw, salt, &cd, sizeof(cd));
	if (!h || strlen(h) != WEB_CONFIG_HASH_LEN)
		return -1;
	snprintf(wc->users[wc->n_users].name, WEB_CONFIG_USER_MAX, "%s", name);
	memcpy(wc->users[wc->n_users].hash, h, WEB_CONFIG_HASH_LEN + 1);
	wc->n_users++;
	return 0;
}

/* "Basic base64(USER:PW)" into BUF. */
static const char *basic(char *buf, size_t len, const char *user,
			 const char *pw)
{
	char raw[256];
	int n = snprintf(raw, sizeof(raw), "%s:%s", user, pw);

	memcpy(buf, "Basic ", 6);
	sodium_bin2base64(buf + 6, len - 6, (unsigned char *)raw, (size_t)n,
			  sodium_base64_VARIANT_ORIGINAL);
	return buf;
}

int main(void)
{
	static struct web_config wc;
	struct http_auth *a;
	char hb[512];
	uint64_t t0, cost_known, cost_unknown, cached;
	unsigned int i, busy = 0;
	enum http_auth_result r;

	tap_plan(13);
	memset(&wc, 0, sizeof(wc));
	a = http_auth_check_new(&wc);
	tap_ok(a && http_auth_check(a, NULL, clock_now_ns()) == HTTP_AUTH_OK,
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
	tap_ok(http_auth_check(a, NULL, clock_now_ns()) == HTTP_AUTH_MISSING,
	       "no header: missing");
	tap_ok(http_auth_check(a, "Bearer x", clock_now_ns()) ==
	       HTTP_AUTH_MISSING, "another scheme: missing");
	tap_ok(http_auth_check(a, "Basic %%%", clock_now_ns()) ==
	       HTTP_AUTH_WRONG, "malformed: wrong");
	r = http_auth_check(a, basic(hb, sizeof(hb), "prom", "s3cret"),
			    clock_now_ns());
	tap_ok(r == HTTP_AUTH_OK, "right password: ok");
	tap_ok(http_auth_check(a, basic(hb, sizeof(hb), "other", "pw2"),
			       clock_now_ns()) == HTTP_AUTH_OK,
	       "the second user: ok");
	tap_ok(http_auth_check(a, basic(hb, sizeof(hb), "prom", "pw2"),
			       clock_now_ns()) == HTTP_AUTH_WRONG,
	       "another user's password: wrong");
	/* the least of 5 of each: the machine's noise is one-sided */
	cost_known = cost_unknown = UINT64_MAX;
	for (i = 0; i < 5; i++) {
		http_auth_check(a, basic(hb, sizeof(hb), "prom", "pw2"),
				clock_now_ns());
		if (http_auth_check_last_cost(a) < cost_known)
			cost_known = http_auth_check_last_cost(a);
		r = http_auth_check(a, basic(hb, sizeof(hb), "eve", "s3cret"),
				    clock_now_ns());
		if (http_auth_check_last_cost(a) < cost_unknown)
			cost_unknown = http_auth_check_last_cost(a);
	}
	tap_ok(r == HTTP_AUTH_WRONG && cost_unknown * 2 > cost_known,
	       "unknown user: wrong, after a bcrypt as long (%llu vs %llu us)",
	       (unsigned long long)cost_unknown / 1000,
	       (unsigned long long)cost_known / 1000);
	t0 = clock_now_ns();
	for (i = 0; i < 1000; i++)
		r = http_auth_check(a, basic(hb, sizeof(hb), "prom", "s3cret"),
				    clock_now_ns());
	cached = (clock_now_ns() - t0) / 1000;
	tap_ok(r == HTTP_AUTH_OK && cached * 20 < cost_known,
	       "cached: 1,000 checks in %llu ns each", (unsigned long long)cached);

	/* cost 10, a fresh table (full budget, 300 ms): one good check,
	 * then a flood of wrong passwords at one instant runs it out */
	http_auth_check_free(a);
	memset(&wc, 0, sizeof(wc));
	if (add_user(&wc, "prom", "s3cret", 10) ||
	    add_user(&wc, "other", "pw2", 10))
		tap_diag("libcrypt made no cost 10 hashes");
	a = http_auth_check_new(&wc);
	t0 = clock_now_ns();
	if (!a || http_auth_check(a, basic(hb, sizeof(hb), "prom", "s3cret"),
				  t0) != HTTP_AUTH_OK)
		tap_diag("a fresh table refused the right password");
	tap_diag("figures: bcrypt cost 10 %llu us, a cached check %llu ns",
		 (unsigned long long)http_auth_check_last_cost(a) / 1000,
		 (unsigned long long)cached);
	for (i = 0; i < 40 && !busy; i++)
		if (http_auth_check(a, basic(hb, sizeof(hb), "prom", "x"), t0) ==
		    HTTP_AUTH_BUSY)
			busy = i + 1;
	tap_ok(busy > 1 && busy < 40, "wrong-password flood: busy after %u "
	       "bcrypts", busy ? busy - 1 : 0);
	tap_ok(http_auth_check(a, basic(hb, sizeof(hb), "prom", "s3cret"), t0) ==
	       HTTP_AUTH_OK, "while busy, a cached credential passes");
	tap_ok(http_auth_check(a, basic(hb, sizeof(hb), "other", "nope"),
			       t0 + 1) == HTTP_AUTH_BUSY,
	       "while busy, a new one is refused without a bcrypt");
	http_auth_check_free(a);
	return tap_done();
}
