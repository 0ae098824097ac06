/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-proto.c - libFuzzer target: every wire decoder of src/proto.c on
 * the same bytes.  A decoder must never read past LEN, and what it
 * accepts must survive an encode/decode round trip unchanged.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *p, out[256];
	const char *why;
	struct proto_hello h, h2;
	struct proto_welcome w, w2;
	struct proto_reject r;
	struct proto_desc d, d2;
	struct proto_done dn;
	struct proto_result res;
	struct proto_auth a;
	struct proto_rping_info ri;
	int n;

	/* An exact-size heap copy, so ASan sees any overread. */
	p = malloc(size ? size : 1);
	if (!p)
		return 0;
	memcpy(p, data, size);

	(void)proto_classify(p, size);
	why = NULL;
	if (proto_hello_decode(p, size, &h, &why) == 0) {
		n = proto_hello_encode(&h, out, sizeof(out));
		CHECK(n == PROTO_HELLO_LEN);
		CHECK(proto_hello_decode(out, (size_t)n, &h2, NULL) == 0);
		CHECK(!memcmp(out, p, PROTO_HELLO_LEN));
	} else {
		CHECK(why != NULL);
	}
	if (proto_welcome_decode(p, size, &w, NULL) == 0) {
		n = proto_welcome_encode(&w, out, sizeof(out));
		CHECK(n > 0);
		CHECK(proto_welcome_decode(out, (size_t)n, &w2, NULL) == 0);
		CHECK(w2.conn_id == w.conn_id && w2.flags == w.flags &&
		      !memcmp(w2.nonce, w.nonce, sizeof(w.nonce)));
	}
	if (proto_reject_decode(p, size, &r, NULL) == 0)
		CHECK(strlen(r.text) <= PROTO_REJECT_TEXT_MAX);
	(void)proto_msg_type(p, size, NULL);
	if (proto_desc_decode(p, size, &d, NULL) == 0) {
		CHECK(d.len && d.addr + (d.len - 1) >= d.addr);
		n = proto_desc_encode(&d, out, sizeof(out));
		CHECK(n == PROTO_DESC_LEN);
		CHECK(proto_desc_decode(out, (size_t)n, &d2, NULL) == 0);
		CHECK(!memcmp(out, p, PROTO_DESC_LEN));
		(void)proto_desc_check(&d, d.len, d.access, NULL);
	}
	(void)proto_done_decode(p, size, &dn, NULL);
	(void)proto_result_decode(p, size, &res, NULL);
	if (proto_auth_decode(p, size, &a, NULL) == 0)
		CHECK(size == PROTO_AUTH_LEN);
	if (proto_rping_decode(p, size, &ri, NULL) == 0)
		CHECK(ri.size && ri.buf + (ri.size - 1) >= ri.buf);
	free(p);
	return 0;
}
