/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-http-auth-parse.c - http_auth_parse.c: Authorization headers
 * (good, other schemes, malformed base64, no ':', NUL, too long) and
 * bcrypt's budget at its bounds; http_tls_sniff_parse.c: a TLS port's
 * first bytes.
 */
#include <errno.h>
#include <string.h>

#include "http/http_auth_parse.h"
#include "http/http_tls_sniff_parse.h"
#include <sodium.h>

#include "tap.h"

#define MS	1000000ull

static const struct {
	const char *hdr;
	int rc;
	const char *user, *pass;
} hdrs[] = {
	{ "Basic cHJvbTpzM2NyZXQ=", 0, "prom", "s3cret" },	/* prom:s3cret */
	{ "basic cHJvbTpzM2NyZXQ=", 0, "prom", "s3cret" },
	{ "  Basic   cHJvbTpzM2NyZXQ=  ", 0, "prom", "s3cret" },
	{ "Basic cHJvbTo=", 0, "prom", "" },			/* prom: */
	{ "Basic OnB3", 0, "", "pw" },				/* :pw */
	{ "Basic YTpiOmM=", 0, "a", "b:c" },			/* a:b:c */
	{ NULL, -ENOENT, NULL, NULL },
	{ "", -ENOENT, NULL, NULL },
	{ "Bearer abc", -ENOENT, NULL, NULL },
	{ "Basicx cHJvbTpzM2NyZXQ=", -ENOENT, NULL, NULL },
	{ "Basic", -ENOENT, NULL, NULL },
	{ "Basic ", -EINVAL, NULL, NULL },
	{ "Basic cHJvbTpzM2NyZXQ", -EINVAL, NULL, NULL },	/* no padding */
	{ "Basic cHJvbTpz M2NyZXQ=", -EINVAL, NULL, NULL },
	{ "Basic cHJvbQ==", -EINVAL, NULL, NULL },		/* no ':' */
	{ "Basic cHIAbTpw", -EINVAL, NULL, NULL },		/* pr\0m:p */
	{ "Basic !!!!", -EINVAL, NULL, NULL },
};

static const struct {
	const char *bytes;
	size_t n;
	enum http_tls_sniff want;
} sniffs[] = {
	{ "", 0, HTTP_TLS_SNIFF_MORE },
	{ "\x16", 1, HTTP_TLS_SNIFF_TLS },
	{ "\x16\x03\x01\x02\x00", 5, HTTP_TLS_SNIFF_TLS },
	{ "GET /metrics HTTP/1.1", 21, HTTP_TLS_SNIFF_HTTP },
	{ "GET ", 4, HTTP_TLS_SNIFF_HTTP },
	{ "GE", 2, HTTP_TLS_SNIFF_MORE },
	{ "G", 1, HTTP_TLS_SNIFF_MORE },
	{ "HEAD ", 5, HTTP_TLS_SNIFF_HTTP },
	{ "HEAD", 4, HTTP_TLS_SNIFF_MORE },
	{ "POST /", 6, HTTP_TLS_SNIFF_HTTP },
	{ "OPTIO", 5, HTTP_TLS_SNIFF_HTTP },
	{ "DELETE", 6, HTTP_TLS_SNIFF_HTTP },
	{ "get /", 5, HTTP_TLS_SNIFF_GARBAGE },
	{ "GETX ", 5, HTTP_TLS_SNIFF_GARBAGE },
	{ "\x00\x01", 2, HTTP_TLS_SNIFF_GARBAGE },
	{ "\x15\x03\x01", 3, HTTP_TLS_SNIFF_GARBAGE },
	{ "SSH-2.0", 7, HTTP_TLS_SNIFF_GARBAGE },
};

int main(void)
{
	struct http_auth_budget b;
	char cred[HTTP_AUTH_CRED_MAX], big[600];
	const char *user, *pass;
	unsigned int i;
	int rc, n;

	tap_plan((int)(sizeof(hdrs) / sizeof(hdrs[0])) + 11 +
		 (int)(sizeof(sniffs) / sizeof(sniffs[0])));
	for (i = 0; i < sizeof(hdrs) / sizeof(hdrs[0]); i++) {
		user = pass = NULL;
		rc = http_auth_parse(hdrs[i].hdr, cred, &user, &pass);
		if (!tap_ok(rc == hdrs[i].rc && (rc ||
			    (!strcmp(user, hdrs[i].user) &&
			     !strcmp(pass, hdrs[i].pass))),
			    "header '%s': %d", hdrs[i].hdr ? hdrs[i].hdr : "(none)",
			    hdrs[i].rc))
			tap_diag("got %d", rc);
	}
	/* 255 decoded bytes fit, 256 do not: "a:" + 253 or 254 'b' */
	memcpy(big, "Basic ", 6);
	{
		unsigned char raw[260];
		size_t len;

		raw[0] = 'a';
		raw[1] = ':';
		memset(raw + 2, 'b', sizeof(raw) - 2);
		len = 255;
		n = (int)strlen(sodium_bin2base64(big + 6, sizeof(big) - 6, raw,
				len, sodium_base64_VARIANT_ORIGINAL));
		rc = http_auth_parse(big, cred, &user, &pass);
		tap_ok(!rc && strlen(pass) == 253, "255 bytes decoded: fit (%d "
		       "base64)", n);
		sodium_bin2base64(big + 6, sizeof(big) - 6, raw, 256,
				  sodium_base64_VARIANT_ORIGINAL);
		tap_ok(http_auth_parse(big, cred, &user, &pass) == -EINVAL,
		       "256 bytes decoded: too long");
	}

	/* a tenth of wall time, 300 ms at once */
	http_auth_budget_init(&b, 100000, 300 * MS, 1000 * MS);
	tap_ok(http_auth_budget_allows(&b, 1000 * MS), "full bucket allows");
	http_auth_budget_charge(&b, 1000 * MS, 200 * MS);
	tap_ok(http_auth_budget_allows(&b, 1000 * MS), "100 ms left allows");
	http_auth_budget_charge(&b, 1000 * MS, 100 * MS);
	tap_ok(!http_auth_budget_allows(&b, 1000 * MS),
	       "exactly spent: refuses");
	tap_ok(!http_auth_budget_allows(&b, 1000 * MS + 9),
	       "9 ns later (0.9 ns earned): refuses");
	tap_ok(http_auth_budget_allows(&b, 1000 * MS + 10 * MS + 10),
	       "10 ms later: 1 ms earned, allows");
	http_auth_budget_charge(&b, 1010 * MS + 10, 201 * MS);
	tap_ok(!http_auth_budget_allows(&b, 2000 * MS) &&
	       http_auth_budget_allows(&b, 3011 * MS),
	       "in debt 200 ms: 2 s of wall time to pay it back");
	tap_ok(http_auth_budget_allows(&b, 900000 * MS) &&
	       b.credit_ns == 300 * (int64_t)MS, "the bucket caps at its burst");
	tap_ok(http_auth_budget_allows(&b, 1) &&
	       b.credit_ns == 300 * (int64_t)MS && b.last == 900000 * MS,
	       "time going back: nothing earned or lost");
	http_auth_budget_charge(&b, 900000 * MS, UINT64_MAX);
	tap_ok(!http_auth_budget_allows(&b, 900000 * MS), "a huge cost: no "
	       "overflow, refused");

	for (i = 0; i < sizeof(sniffs) / sizeof(sniffs[0]); i++)
		tap_ok(http_tls_sniff_parse((const unsigned char *)sniffs[i].bytes,
					    sniffs[i].n) == sniffs[i].want,
		       "first bytes %u: %d", i, sniffs[i].want);
	return tap_done();
}
