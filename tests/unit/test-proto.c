/* SPDX-License-Identifier: BSD-2-Clause */
/* test-proto.c - wire encode/decode/validate. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "proto.h"
#include "tap.h"

static const struct proto_hello good_hello = {
	.version = PROTO_VERSION,
	.ops = PROTO_OP_READ | PROTO_OP_WRITE,
	.flags = PROTO_F_VERIFY,
	.size = 65536,
	.iters = 10,
	.seed = 0x0123456789abcdefull,
};

static void test_classify(void)
{
	uint8_t z[56], buf[56];

	memset(z, 0, sizeof(z));
	tap_ok(proto_classify(NULL, 0) == PROTO_KIND_RPING,
	       "classify: no private data is rping");
	tap_ok(proto_classify(z, sizeof(z)) == PROTO_KIND_RPING,
	       "classify: 56 zero bytes is rping");
	memset(buf, 0, sizeof(buf));
	proto_hello_encode(&good_hello, buf, sizeof(buf));
	tap_ok(proto_classify(buf, sizeof(buf)) == PROTO_KIND_NATIVE,
	       "classify: hello is native");
	buf[0] ^= 0xff;
	tap_ok(proto_classify(buf, sizeof(buf)) == PROTO_KIND_UNKNOWN,
	       "classify: other bytes are unknown");
	tap_ok(proto_classify(buf, 3) == PROTO_KIND_UNKNOWN,
	       "classify: 3 non-zero bytes are unknown");
}

static void test_hello(void)
{
	uint8_t buf[64], pad[56];
	struct proto_hello h;
	const char *why = NULL;
	int n;

	n = proto_hello_encode(&good_hello, buf, sizeof(buf));
	tap_ok(n == PROTO_HELLO_LEN, "hello: encode returns 24");
	tap_ok(buf[0] == 'R' && buf[1] == 'D' && buf[2] == 'M' &&
	       buf[3] == 'D' && buf[4] == 1 && buf[5] == 3 && buf[6] == 1 &&
	       buf[7] == 0, "hello: magic, version, ops, flags on the wire");
	tap_ok(buf[8] == 0 && buf[9] == 1 && buf[10] == 0 && buf[11] == 0 &&
	       buf[16] == 0x01 && buf[23] == 0xef,
	       "hello: size and seed big-endian");
	memset(&h, 0, sizeof(h));
	tap_ok(proto_hello_decode(buf, PROTO_HELLO_LEN, &h, &why) == 0 &&
	       h.version == 1 && h.ops == 3 && h.flags == 1 &&
	       h.size == 65536 && h.iters == 10 &&
	       h.seed == good_hello.seed, "hello: round trip");

	memset(pad, 0, sizeof(pad));
	memcpy(pad, buf, PROTO_HELLO_LEN);
	tap_ok(proto_hello_decode(pad, sizeof(pad), &h, &why) == 0,
	       "hello: zero padding to 56 bytes accepted");
	pad[40] = 1;
	tap_ok(proto_hello_decode(pad, sizeof(pad), &h, &why) == -EBADMSG,
	       "hello: non-zero padding rejected (%s)", why);

	tap_ok(proto_hello_decode(buf, PROTO_HELLO_LEN - 1, &h, &why) ==
	       -EBADMSG, "hello: short rejected (%s)", why);
	tap_ok(proto_hello_decode(buf, 0, &h, &why) == -EBADMSG,
	       "hello: empty rejected");
	memset(buf + PROTO_HELLO_LEN, 0, sizeof(buf) - PROTO_HELLO_LEN);
	tap_ok(proto_hello_decode(buf, 57, &h, &why) == -EBADMSG,
	       "hello: oversized (57 bytes) rejected (%s)", why);

	proto_hello_encode(&good_hello, buf, sizeof(buf));
	buf[3] ^= 1;
	tap_ok(proto_hello_decode(buf, PROTO_HELLO_LEN, &h, &why) == -EBADMSG &&
	       strstr(why, "magic"), "hello: wrong magic rejected");

	proto_hello_encode(&good_hello, buf, sizeof(buf));
	buf[4] = 2;
	tap_ok(proto_hello_decode(buf, PROTO_HELLO_LEN, &h, &why) == -EPROTO,
	       "hello: wrong version is -EPROTO (%s)", why);

	proto_hello_encode(&good_hello, buf, sizeof(buf));
	buf[5] = 0;
	tap_ok(proto_hello_decode(buf, PROTO_HELLO_LEN, &h, &why) == -EBADMSG,
	       "hello: no operation rejected");
	buf[5] = 4;
	tap_ok(proto_hello_decode(buf, PROTO_HELLO_LEN, &h, &why) == -EBADMSG,
	       "hello: unknown operation bit rejected");

	proto_hello_encode(&good_hello, buf, sizeof(buf));
	buf[6] = 4;
	tap_ok(proto_hello_decode(buf, PROTO_HELLO_LEN, &h, &why) == -EBADMSG &&
	       !strcmp(why, "unknown flags"), "hello: unknown flag rejected");

	proto_hello_encode(&good_hello, buf, sizeof(buf));
	buf[7] = 1;
	tap_ok(proto_hello_decode(buf, PROTO_HELLO_LEN, &h, &why) == -EBADMSG,
	       "hello: reserved byte rejected");

	proto_hello_encode(&good_hello, buf, sizeof(buf));
	memset(buf + 8, 0, 4);
	tap_ok(proto_hello_decode(buf, PROTO_HELLO_LEN, &h, &why) == -EBADMSG,
	       "hello: size 0 rejected");
	proto_hello_encode(&good_hello, buf, sizeof(buf));
	memset(buf + 12, 0, 4);
	tap_ok(proto_hello_decode(buf, PROTO_HELLO_LEN, &h, &why) == -EBADMSG,
	       "hello: iters 0 rejected");

	/* Mesh sessions: READ and WRITE, one iteration. */
	h = good_hello;
	h.flags = PROTO_F_MESH | PROTO_F_VERIFY;
	h.iters = 1;
	tap_ok(proto_hello_encode(&h, buf, sizeof(buf)) == PROTO_HELLO_LEN &&
	       buf[6] == 3 && proto_hello_decode(buf, PROTO_HELLO_LEN, &h,
						  &why) == 0 &&
	       (h.flags & PROTO_F_MESH) && h.iters == 1,
	       "hello: a mesh session round trip (flags 0x03 on the wire)");
	buf[15] = 2;
	n = proto_hello_decode(buf, PROTO_HELLO_LEN, &h, &why);
	tap_ok(n == -EBADMSG && strstr(why, "mesh"), "hello: a mesh session "
	       "of 2 iterations rejected (%s)", why);
	buf[15] = 1;
	buf[5] = PROTO_OP_READ;
	tap_ok(proto_hello_decode(buf, PROTO_HELLO_LEN, &h, &why) == -EBADMSG &&
	       strstr(why, "mesh"), "hello: a READ-only mesh session rejected");
	h = good_hello;
	h.flags = PROTO_F_MESH;
	tap_ok(proto_hello_encode(&h, buf, sizeof(buf)) == -EINVAL,
	       "hello: encode refuses a mesh session of 10 iterations");

	tap_ok(proto_hello_encode(&good_hello, buf, 23) == -ENOSPC,
	       "hello: encode into short buffer fails");
	h = good_hello;
	h.ops = 0;
	tap_ok(proto_hello_encode(&h, buf, sizeof(buf)) == -EINVAL,
	       "hello: encode refuses an invalid hello");
}

static void test_welcome(void)
{
	struct proto_welcome w = {
		.version = PROTO_VERSION, .max_size = 1u << 20,
		.max_iters = 1000, .conn_id = 77,
	}, v;
	uint8_t buf[200];
	const char *why = NULL;

	tap_ok(proto_welcome_encode(&w, buf, sizeof(buf)) == PROTO_WELCOME_LEN,
	       "welcome: encode returns 24");
	tap_ok(proto_welcome_decode(buf, PROTO_WELCOME_LEN, &v, &why) == 0 &&
	       v.version == 1 && v.max_size == 1u << 20 &&
	       v.max_iters == 1000 && v.conn_id == 77, "welcome: round trip");
	tap_ok(proto_welcome_decode(buf, 20, &v, &why) == -EBADMSG,
	       "welcome: short rejected");
	memset(buf + PROTO_WELCOME_LEN, 0, sizeof(buf) - PROTO_WELCOME_LEN);
	tap_ok(proto_welcome_decode(buf, 197, &v, &why) == -EBADMSG,
	       "welcome: oversized rejected");
	buf[0] = 0;
	tap_ok(proto_welcome_decode(buf, PROTO_WELCOME_LEN, &v, &why) ==
	       -EBADMSG, "welcome: wrong magic rejected");
	proto_welcome_encode(&w, buf, sizeof(buf));
	buf[4] = 9;
	tap_ok(proto_welcome_decode(buf, PROTO_WELCOME_LEN, &v, &why) ==
	       -EPROTO, "welcome: wrong version rejected");
}

static void test_reject(void)
{
	char longtext[300];
	uint8_t buf[PROTO_REJECT_PDATA_MAX + 8];
	struct proto_reject r;
	const char *why = NULL;
	int n;

	n = proto_reject_encode(PROTO_REJ_BUSY,
				"busy: 64/64 connections, retry later",
				buf, PROTO_REJECT_PDATA_MAX);
	tap_ok(n == PROTO_REJECT_HDR_LEN + 36, "reject: encode length %d", n);
	tap_ok(proto_reject_decode(buf, n, &r, &why) == 0 &&
	       r.reason == PROTO_REJ_BUSY &&
	       strcmp(r.text, "busy: 64/64 connections, retry later") == 0,
	       "reject: round trip");

	memset(longtext, 'x', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = '\0';
	n = proto_reject_encode(PROTO_REJ_LIMIT, longtext, buf, sizeof(buf));
	tap_ok(n == PROTO_REJECT_PDATA_MAX, "reject: long text truncated to fit");
	tap_ok(proto_reject_decode(buf, n, &r, &why) == 0 &&
	       strlen(r.text) == PROTO_REJECT_TEXT_MAX,
	       "reject: truncated text decodes to 140 bytes");
	n = proto_reject_encode(PROTO_REJ_LIMIT, longtext, buf, 20);
	tap_ok(n == 20, "reject: truncated to a small buffer");
	tap_ok(proto_reject_encode(PROTO_REJ_LIMIT, "x", buf, 7) == -ENOSPC,
	       "reject: buffer below header size fails");

	n = proto_reject_encode(PROTO_REJ_BUSY, "abc", buf, sizeof(buf));
	tap_ok(proto_reject_decode(buf, n - 1, &r, &why) == -EBADMSG,
	       "reject: text length beyond data rejected (%s)", why);
	tap_ok(proto_reject_decode(buf, 7, &r, &why) == -EBADMSG,
	       "reject: short rejected");
	buf[9] = 0;
	tap_ok(proto_reject_decode(buf, n, &r, &why) == -EBADMSG,
	       "reject: embedded NUL rejected");
	memset(buf, 0, sizeof(buf));
	tap_ok(proto_reject_decode(buf, 148, &r, &why) == -EBADMSG,
	       "reject: zero bytes (no magic) rejected");
	tap_ok(strcmp(proto_reject_reason_str(PROTO_REJ_BUSY), "busy") == 0 &&
	       strcmp(proto_reject_reason_str(200), "unknown reason") == 0,
	       "reject: reason names");
}

static void test_msgs(void)
{
	struct proto_desc d = { 0x7f0000001000ull, 0x1234, 4096,
				PROTO_OP_READ }, dv;
	struct proto_done done = { 3, 4, 3, 0xdeadbeef }, donev;
	struct proto_result res = { PROTO_RES_MISMATCH, 0xabcd, 17 }, resv;
	uint8_t buf[PROTO_MSG_MAX + 8];
	const char *why = NULL;
	int n;

	n = proto_desc_encode(&d, buf, sizeof(buf));
	tap_ok(n == PROTO_DESC_LEN && proto_msg_type(buf, n, &why) ==
	       PROTO_MSG_DESC, "desc: encode and header type");
	tap_ok(proto_desc_decode(buf, n, &dv, &why) == 0 &&
	       dv.addr == d.addr && dv.rkey == d.rkey && dv.len == d.len &&
	       dv.access == d.access, "desc: round trip");
	tap_ok(buf[8] == 0 && buf[10] == 0x7f && buf[15] == 0 &&
	       buf[14] == 0x10 && buf[19] == 0x34, "desc: big-endian on wire");
	tap_ok(proto_desc_decode(buf, n - 1, &dv, &why) == -EBADMSG,
	       "desc: short rejected (%s)", why);
	tap_ok(proto_desc_decode(buf, n + 1, &dv, &why) == -EBADMSG,
	       "desc: oversized rejected (%s)", why);
	tap_ok(proto_msg_type(buf, PROTO_MSG_MAX + 1, &why) == -EBADMSG,
	       "msg: longer than a receive buffer rejected");
	buf[0] = 'X';
	tap_ok(proto_desc_decode(buf, n, &dv, &why) == -EBADMSG,
	       "desc: wrong magic rejected");
	proto_desc_encode(&d, buf, sizeof(buf));
	buf[4] = 0;
	tap_ok(proto_desc_decode(buf, n, &dv, &why) == -EPROTO,
	       "desc: wrong version rejected");
	proto_desc_encode(&d, buf, sizeof(buf));
	buf[7] = 31;
	tap_ok(proto_desc_decode(buf, n, &dv, &why) == -EBADMSG,
	       "desc: header length mismatch rejected");
	proto_desc_encode(&d, buf, sizeof(buf));
	buf[5] = 9;
	tap_ok(proto_msg_type(buf, n, &why) == -EBADMSG,
	       "msg: unknown type rejected");
	proto_desc_encode(&d, buf, sizeof(buf));
	buf[30] = 1;
	tap_ok(proto_desc_decode(buf, n, &dv, &why) == -EBADMSG,
	       "desc: reserved bytes rejected");

	dv = d;
	dv.addr = UINT64_MAX - 100;
	proto_desc_encode(&dv, buf, sizeof(buf));
	tap_ok(proto_desc_decode(buf, n, &dv, &why) == -EBADMSG &&
	       strstr(why, "overflow"), "desc: overflowing addr+len rejected");
	dv = d;
	dv.addr = UINT64_MAX - 4095;
	proto_desc_encode(&dv, buf, sizeof(buf));
	tap_ok(proto_desc_decode(buf, n, &dv, &why) == 0,
	       "desc: range ending at the last address accepted");
	dv = d;
	dv.len = 0;
	proto_desc_encode(&dv, buf, sizeof(buf));
	tap_ok(proto_desc_decode(buf, n, &dv, &why) == -EBADMSG,
	       "desc: zero length rejected");
	dv = d;
	dv.access = 0;
	proto_desc_encode(&dv, buf, sizeof(buf));
	tap_ok(proto_desc_decode(buf, n, &dv, &why) == -EBADMSG,
	       "desc: no access rejected");

	tap_ok(proto_desc_check(&d, 4096, PROTO_OP_READ, &why) == 0,
	       "desc_check: fits");
	tap_ok(proto_desc_check(&d, 4097, PROTO_OP_READ, &why) == -EINVAL,
	       "desc_check: too small (%s)", why);
	tap_ok(proto_desc_check(&d, 1, PROTO_OP_WRITE, &why) == -EINVAL,
	       "desc_check: access missing (%s)", why);
	dv = d;
	dv.addr = UINT64_MAX;
	tap_ok(proto_desc_check(&dv, 1, PROTO_OP_READ, &why) == -EINVAL,
	       "desc_check: overflow (%s)", why);

	n = proto_done_encode(&done, buf, sizeof(buf));
	tap_ok(n == PROTO_DONE_LEN && proto_done_decode(buf, n, &donev, &why)
	       == 0 && donev.reads_done == 3 && donev.writes_done == 4 &&
	       donev.last_write_iter == 3 && donev.crc32c == 0xdeadbeef,
	       "done: round trip");
	tap_ok(proto_desc_decode(buf, n, &dv, &why) == -EBADMSG,
	       "done: not accepted as a desc (%s)", why);
	tap_ok(proto_done_decode(buf, n - 4, &donev, &why) == -EBADMSG,
	       "done: short rejected");

	n = proto_result_encode(&res, buf, sizeof(buf));
	tap_ok(n == PROTO_RESULT_LEN && proto_result_decode(buf, n, &resv,
	       &why) == 0 && resv.status == 1 && resv.crc32c_seen == 0xabcd &&
	       resv.first_bad_offset == 17, "result: round trip");
	buf[11] = 7;
	tap_ok(proto_result_decode(buf, n, &resv, &why) == -EBADMSG,
	       "result: unknown status rejected");
	tap_ok(proto_result_encode(&res, buf, 10) == -ENOSPC,
	       "result: encode into short buffer fails");
}

static void test_rping(void)
{
	struct proto_rping_info i = { 0x5555aaaa0000ull, 0xfeed, 65535 }, v;
	uint8_t buf[32];
	const char *why = NULL;

	tap_ok(proto_rping_encode(&i, buf, sizeof(buf)) == 16,
	       "rping: encode returns 16");
	tap_ok(buf[2] == 0x55 && buf[6] == 0 && buf[10] == 0xfe &&
	       buf[14] == 0xff && buf[15] == 0xff, "rping: big-endian layout");
	tap_ok(proto_rping_decode(buf, 16, &v, &why) == 0 && v.buf == i.buf &&
	       v.rkey == i.rkey && v.size == i.size, "rping: round trip");
	tap_ok(proto_rping_decode(buf, 15, &v, &why) == -EBADMSG,
	       "rping: short rejected");
	tap_ok(proto_rping_decode(buf, 17, &v, &why) == -EBADMSG,
	       "rping: oversized rejected");
	i.buf = UINT64_MAX - 10;
	proto_rping_encode(&i, buf, sizeof(buf));
	tap_ok(proto_rping_decode(buf, 16, &v, &why) == -EBADMSG,
	       "rping: overflowing range rejected");
	i.buf = 4096;
	i.size = 0;
	proto_rping_encode(&i, buf, sizeof(buf));
	tap_ok(proto_rping_decode(buf, 16, &v, &why) == -EBADMSG,
	       "rping: zero size rejected");
}

/* ABORT: fixed 64 bytes, reason, limit, short text; fits a receive. */
static void test_abort(void)
{
	struct proto_abort a = { PROTO_ABORT_SESSION, 120000, "" }, v;
	uint8_t buf[PROTO_MSG_MAX];
	const char *why = NULL;
	char text[160];
	int n;

	n = proto_abort_encode(&a, buf, sizeof(buf));
	tap_ok(n == PROTO_ABORT_LEN && n <= PROTO_MSG_MAX &&
	       proto_msg_type(buf, (size_t)n, &why) == PROTO_MSG_ABORT,
	       "abort: 64 bytes, type 5, fits a receive buffer");
	tap_ok(buf[5] == 5 && buf[7] == 64 && buf[8] == 1 && buf[9] == 0 &&
	       buf[12] == 0x00 && buf[13] == 0x01 && buf[14] == 0xd4 &&
	       buf[15] == 0xc0, "abort: wire layout (reason, be32 limit)");
	tap_ok(proto_abort_decode(buf, (size_t)n, &v, &why) == 0 &&
	       v.reason == PROTO_ABORT_SESSION && v.limit_ms == 120000 &&
	       v.text[0] == '\0', "abort: round trip");
	tap_ok(!strcmp(proto_abort_str(&v, text, sizeof(text)),
		       "session deadline 120 s passed while operations were "
		       "still running"), "abort: described (%s)", text);

	a.reason = PROTO_ABORT_PROTOCOL;
	a.limit_ms = 0;
	snprintf(a.text, sizeof(a.text), "unexpected message type");
	n = proto_abort_encode(&a, buf, sizeof(buf));
	tap_ok(proto_abort_decode(buf, (size_t)n, &v, &why) == 0 &&
	       !strcmp(proto_abort_str(&v, text, sizeof(text)),
		       "protocol error: unexpected message type"),
	       "abort: with a text (%s)", text);
	memset(a.text, 'x', sizeof(a.text) - 1);
	a.text[sizeof(a.text) - 1] = '\0';
	/* A two-byte UTF-8 character across the cut: dropped whole. */
	a.text[PROTO_ABORT_TEXT_MAX - 1] = (char)0xc3;
	a.text[PROTO_ABORT_TEXT_MAX] = (char)0xa9;
	n = proto_abort_encode(&a, buf, sizeof(buf));
	tap_ok(n == PROTO_ABORT_LEN && buf[9] == PROTO_ABORT_TEXT_MAX - 1 &&
	       proto_abort_decode(buf, (size_t)n, &v, &why) == 0 &&
	       strlen(v.text) == PROTO_ABORT_TEXT_MAX - 1,
	       "abort: long text cut at a character boundary");
	a.reason = 200;
	a.text[0] = '\0';
	n = proto_abort_encode(&a, buf, sizeof(buf));
	tap_ok(proto_abort_decode(buf, (size_t)n, &v, &why) == 0 &&
	       !strcmp(proto_abort_str(&v, text, sizeof(text)), "reason 200"),
	       "abort: unknown reason accepted (%s)", text);
	buf[9] = PROTO_ABORT_TEXT_MAX + 1;
	tap_ok(proto_abort_decode(buf, (size_t)n, &v, &why) == -EBADMSG,
	       "abort: text length out of range rejected (%s)", why);
	buf[9] = 2;
	buf[16] = 'o';
	buf[17] = 0;
	tap_ok(proto_abort_decode(buf, (size_t)n, &v, &why) == -EBADMSG,
	       "abort: NUL inside the text rejected (%s)", why);
	buf[9] = 0;
	buf[16] = 0;
	buf[40] = 'z';
	tap_ok(proto_abort_decode(buf, (size_t)n, &v, &why) == -EBADMSG,
	       "abort: bytes after the text not zero rejected (%s)", why);
	buf[40] = 0;
	buf[10] = 1;
	tap_ok(proto_abort_decode(buf, (size_t)n, &v, &why) == -EBADMSG,
	       "abort: reserved not zero rejected (%s)", why);
	tap_ok(proto_abort_decode(buf, (size_t)n - 1, &v, &why) == -EBADMSG,
	       "abort: short rejected");
	tap_ok(proto_abort_encode(&a, buf, 63) == -ENOSPC,
	       "abort: encode into short buffer fails");
}

int main(void)
{
	test_classify();
	test_hello();
	test_welcome();
	test_reject();
	test_msgs();
	test_rping();
	test_abort();
	return tap_done();
}
