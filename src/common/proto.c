/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto.c - rdmad wire messages: encode, decode, validate.
 *
 * All byte order conversion is done here with explicit shifts, so the
 * code neither depends on host byte order nor on buffer alignment.
 * Decoders check every length and reserved field before they fill the
 * caller's structure; on failure *why (when not NULL) points to a static
 * string fit for a log line.
 */
#include "proto.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define SET_WHY(why, s)	do { if (why) *(why) = (s); } while (0)

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

static uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

static int all_zero(const uint8_t *p, size_t len)
{
	while (len--)
		if (*p++)
			return 0;
	return 1;
}

enum proto_kind proto_classify(const void *pdata, size_t len)
{
	const uint8_t *p = pdata;

	if (len == 0 || !p || all_zero(p, len))
		return PROTO_KIND_RPING;
	if (len >= 4 && get_be32(p) == PROTO_MAGIC)
		return PROTO_KIND_NATIVE;
	return PROTO_KIND_UNKNOWN;
}

/* Checks common to every magic + version prefix. */
static int check_prefix(const uint8_t *p, size_t len, size_t need,
			size_t max, const char **why)
{
	if (!p || len < need) {
		SET_WHY(why, "message too short");
		return -EBADMSG;
	}
	if (len > max) {
		SET_WHY(why, "message too long");
		return -EBADMSG;
	}
	if (get_be32(p) != PROTO_MAGIC) {
		SET_WHY(why, "bad magic");
		return -EBADMSG;
	}
	if (p[4] != PROTO_VERSION) {
		SET_WHY(why, "unsupported protocol version");
		return -EPROTO;
	}
	return 0;
}

/* ---- hello ------------------------------------------------------------ */

int proto_hello_encode(const struct proto_hello *h, void *buf, size_t len)
{
	uint8_t *p = buf;

	if (len < PROTO_HELLO_LEN)
		return -ENOSPC;
	if (!h->ops || (h->ops & ~PROTO_OP_MASK) || !h->size || !h->iters ||
	    (h->flags & ~PROTO_F_MASK))
		return -EINVAL;
	if ((h->flags & PROTO_F_MESH) && (h->ops != PROTO_OP_MASK ||
					  h->iters != 1))
		return -EINVAL;
	memset(p, 0, PROTO_HELLO_LEN);
	put_be32(p, PROTO_MAGIC);
	p[4] = h->version ? h->version : PROTO_VERSION;
	p[5] = h->ops;
	p[6] = h->flags;
	put_be32(p + 8, h->size);
	put_be32(p + 12, h->iters);
	put_be64(p + 16, h->seed);
	return PROTO_HELLO_LEN;
}

int proto_hello_decode(const void *buf, size_t len, struct proto_hello *h,
		       const char **why)
{
	const uint8_t *p = buf;
	struct proto_hello v;
	int ret;

	/* The CM pads private data, so trailing bytes may follow; they
	 * must be zero (a later version may give them a meaning). */
	ret = check_prefix(p, len, PROTO_HELLO_LEN, PROTO_CONNECT_PDATA_MAX,
			   why);
	if (ret)
		return ret;
	if (p[7] || !all_zero(p + PROTO_HELLO_LEN, len - PROTO_HELLO_LEN)) {
		SET_WHY(why, "reserved bytes not zero");
		return -EBADMSG;
	}
	v.version = p[4];
	v.ops = p[5];
	v.flags = p[6];
	v.size = get_be32(p + 8);
	v.iters = get_be32(p + 12);
	v.seed = get_be64(p + 16);
	if (!v.ops || (v.ops & ~PROTO_OP_MASK)) {
		SET_WHY(why, "bad operation mask");
		return -EBADMSG;
	}
	if (v.flags & ~PROTO_F_MASK) {
		SET_WHY(why, "unknown flags");
		return -EBADMSG;
	}
	if ((v.flags & PROTO_F_MESH) && (v.ops != PROTO_OP_MASK ||
					 v.iters != 1)) {
		SET_WHY(why, "a mesh session needs READ and WRITE and 1 "
			"iteration");
		return -EBADMSG;
	}
	if (!v.size) {
		SET_WHY(why, "size is zero");
		return -EBADMSG;
	}
	if (!v.iters) {
		SET_WHY(why, "iteration count is zero");
		return -EBADMSG;
	}
	*h = v;
	return 0;
}

/* ---- welcome ---------------------------------------------------------- */

int proto_welcome_encode(const struct proto_welcome *w, void *buf, size_t len)
{
	uint8_t *p = buf;

	if (len < PROTO_WELCOME_LEN)
		return -ENOSPC;
	if ((w->flags & ~PROTO_WELCOME_F_MASK) ||
	    ((w->flags & PROTO_WELCOME_F_BIND) &&
	     !(w->flags & PROTO_WELCOME_F_AUTH)))
		return -EINVAL;
	if ((w->flags & PROTO_WELCOME_F_AUTH) && len < PROTO_WELCOME_AUTH_LEN)
		return -ENOSPC;
	memset(p, 0, PROTO_WELCOME_LEN);
	put_be32(p, PROTO_MAGIC);
	p[4] = w->version ? w->version : PROTO_VERSION;
	p[5] = w->flags;
	put_be32(p + 8, w->max_size);
	put_be32(p + 12, w->max_iters);
	put_be64(p + 16, w->conn_id);
	if (!(w->flags & PROTO_WELCOME_F_AUTH))
		return PROTO_WELCOME_LEN;
	memcpy(p + PROTO_WELCOME_LEN, w->nonce, PROTO_AUTH_NONCE_LEN);
	return PROTO_WELCOME_AUTH_LEN;
}

int proto_welcome_decode(const void *buf, size_t len, struct proto_welcome *w,
			 const char **why)
{
	const uint8_t *p = buf;
	size_t end;
	int ret;

	ret = check_prefix(p, len, PROTO_WELCOME_LEN, PROTO_ACCEPT_PDATA_MAX,
			   why);
	if (ret)
		return ret;
	if (p[5] & ~PROTO_WELCOME_F_MASK) {
		SET_WHY(why, "unknown welcome flags");
		return -EBADMSG;
	}
	if ((p[5] & PROTO_WELCOME_F_BIND) && !(p[5] & PROTO_WELCOME_F_AUTH)) {
		SET_WHY(why, "welcome binds a key it does not ask for");
		return -EBADMSG;
	}
	end = PROTO_WELCOME_LEN;
	if (p[5] & PROTO_WELCOME_F_AUTH) {
		if (len < PROTO_WELCOME_AUTH_LEN) {
			SET_WHY(why, "welcome too short for its nonce");
			return -EBADMSG;
		}
		end = PROTO_WELCOME_AUTH_LEN;
	}
	if (get_be16(p + 6) || !all_zero(p + end, len - end)) {
		SET_WHY(why, "reserved bytes not zero");
		return -EBADMSG;
	}
	memset(w, 0, sizeof(*w));
	w->version = p[4];
	w->flags = p[5];
	w->max_size = get_be32(p + 8);
	w->max_iters = get_be32(p + 12);
	w->conn_id = get_be64(p + 16);
	if (w->flags & PROTO_WELCOME_F_AUTH)
		memcpy(w->nonce, p + PROTO_WELCOME_LEN, PROTO_AUTH_NONCE_LEN);
	return 0;
}

/* ---- reject ----------------------------------------------------------- */

int proto_reject_encode(uint8_t reason, const char *text, void *buf,
			size_t len)
{
	uint8_t *p = buf;
	size_t n = text ? strlen(text) : 0;

	if (len < PROTO_REJECT_HDR_LEN)
		return -ENOSPC;
	if (n > PROTO_REJECT_TEXT_MAX)
		n = PROTO_REJECT_TEXT_MAX;
	if (n > len - PROTO_REJECT_HDR_LEN)
		n = len - PROTO_REJECT_HDR_LEN;
	put_be32(p, PROTO_MAGIC);
	p[4] = PROTO_VERSION;
	p[5] = reason;
	put_be16(p + 6, (uint16_t)n);
	if (n)
		memcpy(p + PROTO_REJECT_HDR_LEN, text, n);
	return (int)(PROTO_REJECT_HDR_LEN + n);
}

int proto_reject_decode(const void *buf, size_t len, struct proto_reject *r,
			const char **why)
{
	const uint8_t *p = buf;
	size_t n;
	int ret;

	ret = check_prefix(p, len, PROTO_REJECT_HDR_LEN,
			   PROTO_REJECT_PDATA_MAX, why);
	if (ret)
		return ret;
	n = get_be16(p + 6);
	if (n > PROTO_REJECT_TEXT_MAX || n > len - PROTO_REJECT_HDR_LEN) {
		SET_WHY(why, "reject text length out of range");
		return -EBADMSG;
	}
	if (memchr(p + PROTO_REJECT_HDR_LEN, 0, n)) {
		SET_WHY(why, "NUL byte in reject text");
		return -EBADMSG;
	}
	r->reason = p[5];
	memcpy(r->text, p + PROTO_REJECT_HDR_LEN, n);
	r->text[n] = '\0';
	return 0;
}

const char *proto_reject_reason_str(uint8_t reason)
{
	switch (reason) {
	case PROTO_REJ_BUSY:		return "busy";
	case PROTO_REJ_LIMIT:		return "over limit";
	case PROTO_REJ_BAD_HELLO:	return "bad hello";
	case PROTO_REJ_VERSION:		return "unsupported version";
	case PROTO_REJ_RESOURCES:	return "out of resources";
	case PROTO_REJ_DENIED:		return "access denied";
	case PROTO_REJ_SHUTDOWN:	return "shutting down";
	}
	return "unknown reason";
}

/* ---- messages --------------------------------------------------------- */

static size_t msg_len(int type)
{
	switch (type) {
	case PROTO_MSG_DESC:	return PROTO_DESC_LEN;
	case PROTO_MSG_DONE:	return PROTO_DONE_LEN;
	case PROTO_MSG_RESULT:	return PROTO_RESULT_LEN;
	case PROTO_MSG_AUTH:	return PROTO_AUTH_LEN;
	case PROTO_MSG_ABORT:	return PROTO_ABORT_LEN;
	}
	return 0;
}

static int msg_start(uint8_t *p, size_t len, int type)
{
	size_t n = msg_len(type);

	if (len < n)
		return -ENOSPC;
	memset(p, 0, n);
	put_be32(p, PROTO_MAGIC);
	p[4] = PROTO_VERSION;
	p[5] = (uint8_t)type;
	put_be16(p + 6, (uint16_t)n);
	return (int)n;
}

int proto_msg_type(const void *buf, size_t len, const char **why)
{
	const uint8_t *p = buf;
	size_t n;
	int ret;

	ret = check_prefix(p, len, PROTO_MSG_HDR_LEN, PROTO_MSG_MAX, why);
	if (ret)
		return ret;
	n = msg_len(p[5]);
	if (!n) {
		SET_WHY(why, "unknown message type");
		return -EBADMSG;
	}
	if (get_be16(p + 6) != n || len != n) {
		SET_WHY(why, "message length does not match its type");
		return -EBADMSG;
	}
	return p[5];
}

/* Check the header says TYPE; the body is then exactly msg_len(TYPE). */
static int msg_expect(const uint8_t *p, size_t len, int type,
		      const char **why)
{
	int ret = proto_msg_type(p, len, why);

	if (ret < 0)
		return ret;
	if (ret != type) {
		SET_WHY(why, "unexpected message type");
		return -EBADMSG;
	}
	return 0;
}

static int overflows(uint64_t addr, uint64_t len)
{
	return len && addr > UINT64_MAX - (len - 1);
}

int proto_desc_encode(const struct proto_desc *d, void *buf, size_t len)
{
	uint8_t *p = buf;
	int n;

	if (d->access & ~PROTO_OP_MASK)
		return -EINVAL;
	n = msg_start(p, len, PROTO_MSG_DESC);
	if (n < 0)
		return n;
	put_be64(p + 8, d->addr);
	put_be32(p + 16, d->rkey);
	put_be32(p + 20, d->len);
	p[24] = d->access;
	return n;
}

int proto_desc_decode(const void *buf, size_t len, struct proto_desc *d,
		      const char **why)
{
	const uint8_t *p = buf;
	struct proto_desc v;
	int ret;

	ret = msg_expect(p, len, PROTO_MSG_DESC, why);
	if (ret)
		return ret;
	if (!all_zero(p + 25, 7)) {
		SET_WHY(why, "reserved bytes not zero");
		return -EBADMSG;
	}
	v.addr = get_be64(p + 8);
	v.rkey = get_be32(p + 16);
	v.len = get_be32(p + 20);
	v.access = p[24];
	if (!v.len) {
		SET_WHY(why, "descriptor length is zero");
		return -EBADMSG;
	}
	if (overflows(v.addr, v.len)) {
		SET_WHY(why, "descriptor address range overflows");
		return -EBADMSG;
	}
	if (!v.access || (v.access & ~PROTO_OP_MASK)) {
		SET_WHY(why, "bad descriptor access mask");
		return -EBADMSG;
	}
	*d = v;
	return 0;
}

int proto_desc_check(const struct proto_desc *d, uint32_t need,
		     uint8_t ops, const char **why)
{
	if (d->len < need) {
		SET_WHY(why, "peer buffer smaller than requested size");
		return -EINVAL;
	}
	if (overflows(d->addr, d->len)) {
		SET_WHY(why, "peer buffer address range overflows");
		return -EINVAL;
	}
	if ((d->access & ops) != ops) {
		SET_WHY(why, "peer buffer does not allow the operation");
		return -EINVAL;
	}
	return 0;
}

int proto_done_encode(const struct proto_done *d, void *buf, size_t len)
{
	uint8_t *p = buf;
	int n = msg_start(p, len, PROTO_MSG_DONE);

	if (n < 0)
		return n;
	put_be32(p + 8, d->reads_done);
	put_be32(p + 12, d->writes_done);
	put_be32(p + 16, d->last_write_iter);
	put_be32(p + 20, d->crc32c);
	return n;
}

int proto_done_decode(const void *buf, size_t len, struct proto_done *d,
		      const char **why)
{
	const uint8_t *p = buf;
	int ret;

	ret = msg_expect(p, len, PROTO_MSG_DONE, why);
	if (ret)
		return ret;
	d->reads_done = get_be32(p + 8);
	d->writes_done = get_be32(p + 12);
	d->last_write_iter = get_be32(p + 16);
	d->crc32c = get_be32(p + 20);
	return 0;
}

int proto_result_encode(const struct proto_result *r, void *buf, size_t len)
{
	uint8_t *p = buf;
	int n;

	if (r->status > PROTO_RES_BAD_DONE)
		return -EINVAL;
	n = msg_start(p, len, PROTO_MSG_RESULT);
	if (n < 0)
		return n;
	put_be32(p + 8, r->status);
	put_be32(p + 12, r->crc32c_seen);
	put_be32(p + 16, r->first_bad_offset);
	return n;
}

int proto_result_decode(const void *buf, size_t len, struct proto_result *r,
			const char **why)
{
	const uint8_t *p = buf;
	uint32_t status;
	int ret;

	ret = msg_expect(p, len, PROTO_MSG_RESULT, why);
	if (ret)
		return ret;
	if (get_be32(p + 20)) {
		SET_WHY(why, "reserved bytes not zero");
		return -EBADMSG;
	}
	status = get_be32(p + 8);
	if (status > PROTO_RES_BAD_DONE) {
		SET_WHY(why, "unknown result status");
		return -EBADMSG;
	}
	r->status = status;
	r->crc32c_seen = get_be32(p + 12);
	r->first_bad_offset = get_be32(p + 16);
	return 0;
}

int proto_auth_encode(const struct proto_auth *a, void *buf, size_t len)
{
	uint8_t *p = buf;
	int n = msg_start(p, len, PROTO_MSG_AUTH);

	if (n < 0)
		return n;
	memcpy(p + PROTO_MSG_HDR_LEN, a->mac, PROTO_AUTH_MAC_LEN);
	return n;
}

int proto_auth_decode(const void *buf, size_t len, struct proto_auth *a,
		      const char **why)
{
	const uint8_t *p = buf;
	int ret;

	ret = msg_expect(p, len, PROTO_MSG_AUTH, why);
	if (ret)
		return ret;
	memcpy(a->mac, p + PROTO_MSG_HDR_LEN, PROTO_AUTH_MAC_LEN);
	return 0;
}

int proto_abort_encode(const struct proto_abort *a, void *buf, size_t len)
{
	uint8_t *p = buf;
	size_t n = strnlen(a->text, sizeof(a->text));
	int ret;

	if (n > PROTO_ABORT_TEXT_MAX)
		n = PROTO_ABORT_TEXT_MAX;
	/* Never cut a UTF-8 sequence: back off continuation bytes. */
	while (n && n < strnlen(a->text, sizeof(a->text)) &&
	       ((uint8_t)a->text[n] & 0xc0) == 0x80)
		n--;
	ret = msg_start(p, len, PROTO_MSG_ABORT);
	if (ret < 0)
		return ret;
	p[8] = a->reason;
	p[9] = (uint8_t)n;
	put_be32(p + 12, a->limit_ms);
	memcpy(p + 16, a->text, n);
	return ret;
}

int proto_abort_decode(const void *buf, size_t len, struct proto_abort *a,
		       const char **why)
{
	const uint8_t *p = buf;
	size_t n;
	int ret;

	ret = msg_expect(p, len, PROTO_MSG_ABORT, why);
	if (ret)
		return ret;
	n = p[9];
	if (get_be16(p + 10)) {
		SET_WHY(why, "reserved bytes not zero");
		return -EBADMSG;
	}
	if (n > PROTO_ABORT_TEXT_MAX) {
		SET_WHY(why, "abort text length out of range");
		return -EBADMSG;
	}
	if (memchr(p + 16, 0, n) ||
	    !all_zero(p + 16 + n, PROTO_ABORT_TEXT_MAX - n)) {
		SET_WHY(why, "abort text not as its length says");
		return -EBADMSG;
	}
	a->reason = p[8];
	a->limit_ms = get_be32(p + 12);
	memcpy(a->text, p + 16, n);
	a->text[n] = '\0';
	return 0;
}

/* ---- rping advert ----------------------------------------------------- */

/* "120 s", "1.500 s" */
static void fmt_secs(char *buf, size_t len, uint32_t ms)
{
	if (ms % 1000)
		snprintf(buf, len, "%u.%03u s", ms / 1000, ms % 1000);
	else
		snprintf(buf, len, "%u s", ms / 1000);
}

char *proto_abort_str(const struct proto_abort *a, char *buf, size_t len)
{
	char t[24];
	int n;

	fmt_secs(t, sizeof(t), a->limit_ms);
	switch (a->reason) {
	case PROTO_ABORT_SESSION:
		n = snprintf(buf, len, "session deadline %s passed while "
			     "operations were still running", t);
		break;
	case PROTO_ABORT_DURATION:
		n = snprintf(buf, len, "the connection reached the server's "
			     "max_duration of %s", t);
		break;
	case PROTO_ABORT_SHUTDOWN:
		n = a->limit_ms ?
		    snprintf(buf, len, "the server is shutting down (its "
			     "drain_timeout of %s passed)", t) :
		    snprintf(buf, len, "the server is shutting down");
		break;
	case PROTO_ABORT_PROTOCOL:
		n = snprintf(buf, len, "protocol error");
		break;
	case PROTO_ABORT_AUTH:
		n = snprintf(buf, len, "authentication failed");
		break;
	case PROTO_ABORT_IDLE:
		n = snprintf(buf, len, "no AUTH within the idle deadline of "
			     "%s", t);
		break;
	case PROTO_ABORT_STALLED:
		n = snprintf(buf, len, "the server's own operation did not "
			     "complete within %s", t);
		break;
	default:
		n = snprintf(buf, len, "reason %u", a->reason);
		break;
	}
	if (a->text[0] && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ": %s", a->text);
	return buf;
}

int proto_rping_encode(const struct proto_rping_info *i, void *buf,
		       size_t len)
{
	uint8_t *p = buf;

	if (len < PROTO_RPING_INFO_LEN)
		return -ENOSPC;
	put_be64(p, i->buf);
	put_be32(p + 8, i->rkey);
	put_be32(p + 12, i->size);
	return PROTO_RPING_INFO_LEN;
}

int proto_rping_decode(const void *buf, size_t len,
		       struct proto_rping_info *i, const char **why)
{
	const uint8_t *p = buf;
	struct proto_rping_info v;

	if (!p || len < PROTO_RPING_INFO_LEN) {
		SET_WHY(why, "advert too short");
		return -EBADMSG;
	}
	if (len > PROTO_RPING_INFO_LEN) {
		SET_WHY(why, "advert too long");
		return -EBADMSG;
	}
	v.buf = get_be64(p);
	v.rkey = get_be32(p + 8);
	v.size = get_be32(p + 12);
	if (!v.size) {
		SET_WHY(why, "advert size is zero");
		return -EBADMSG;
	}
	if (overflows(v.buf, v.size)) {
		SET_WHY(why, "advert address range overflows");
		return -EBADMSG;
	}
	*i = v;
	return 0;
}
