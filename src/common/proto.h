/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto.h - rdmad native wire protocol (version 1) and rping-compatible
 * advert, shared by rdmad and rdma-probe.  See docs/protocol.md.
 *
 * Every multi-byte field on the wire is big-endian.  Structures here are
 * host-order views; proto_*_encode() writes the wire bytes into a caller
 * buffer and proto_*_decode() validates and fills the host-order view.
 * Decoders never trust a length: they return -EINVAL/-EPROTO/-EBADMSG
 * with a static human-readable reason in *why.
 */
#ifndef RDMAD_PROTO_H
#define RDMAD_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define PROTO_MAGIC		0x52444d44u	/* "RDMD" */
#define PROTO_VERSION		1u
#define PROTO_DEFAULT_PORT	7471

/* Operations a client asks for (bit mask). */
#define PROTO_OP_READ		0x01u
#define PROTO_OP_WRITE		0x02u
#define PROTO_OP_MASK		(PROTO_OP_READ | PROTO_OP_WRITE)

/* Hello flags. */
#define PROTO_F_VERIFY		0x01u
/*
 * A mesh session (docs/protocol.md, "Mesh sessions"): one connection for
 * many rounds, each an RDMA WRITE of pattern(seed, round) to the DESC
 * buffer and an RDMA READ of it back, checked by the client; no DONE, no
 * RESULT, no session deadline: the server bounds it by liveness.  Needs
 * ops READ|WRITE and iters 1.  Servers before it refuse the flag (bad
 * hello: "unknown flags"), so a mesh client knows at once.
 */
#define PROTO_F_MESH		0x02u
#define PROTO_F_MASK		(PROTO_F_VERIFY | PROTO_F_MESH)

/* Private data limits of rdma_cm on IB/RoCE (RDMA_PS_TCP). */
#define PROTO_CONNECT_PDATA_MAX	56
#define PROTO_ACCEPT_PDATA_MAX	196
#define PROTO_REJECT_PDATA_MAX	148

/*
 * CONNECT private data, client -> server.  24 bytes on the wire:
 *   be32 magic, u8 version, u8 ops, u8 flags, u8 reserved(0),
 *   be32 size, be32 iters, be64 seed
 */
#define PROTO_HELLO_LEN		24
struct proto_hello {
	uint8_t version;
	uint8_t ops;		/* PROTO_OP_* */
	uint8_t flags;		/* PROTO_F_* */
	uint32_t size;		/* bytes per operation, >= 1 */
	uint32_t iters;		/* operations of each kind, >= 1 */
	uint64_t seed;		/* data pattern seed */
};

/*
 * ACCEPT private data, server -> client.  24 bytes on the wire:
 *   be32 magic, u8 version, u8 flags, be16 reserved(0),
 *   be32 max_size, be32 max_iters, be64 conn_id
 * With PROTO_WELCOME_F_AUTH in flags (server has a pre-shared key), 56:
 *   the same 24, then nonce[32]; the client must answer with an AUTH
 *   message (see auth.h) before the server sends its DESC.
 * A server without a key sends flags 0 and 24 bytes, as version 1 always
 * did.  PROTO_WELCOME_F_BIND, only with F_AUTH: the AUTH must be bound to
 * the server the client connected to (auth.h); clients from before it
 * refuse the flag (unknown welcome flags), so they fail at once.
 */
#define PROTO_WELCOME_LEN	24
#define PROTO_WELCOME_AUTH_LEN	56
#define PROTO_WELCOME_F_AUTH	0x01u
#define PROTO_WELCOME_F_BIND	0x02u
#define PROTO_WELCOME_F_MASK	(PROTO_WELCOME_F_AUTH | PROTO_WELCOME_F_BIND)
#define PROTO_AUTH_NONCE_LEN	32
#define PROTO_AUTH_MAC_LEN	32
struct proto_welcome {
	uint8_t version;
	uint32_t max_size;
	uint32_t max_iters;
	uint64_t conn_id;	/* server's connection number, for logs */
	uint8_t flags;		/* PROTO_WELCOME_F_* */
	uint8_t nonce[PROTO_AUTH_NONCE_LEN];	/* with F_AUTH */
};

/*
 * REJECT private data, server -> client.  Up to 148 bytes:
 *   be32 magic, u8 version, u8 reason, be16 text_len, text[text_len]
 * text is UTF-8 without NUL, at most PROTO_REJECT_TEXT_MAX bytes.
 */
#define PROTO_REJECT_HDR_LEN	8
#define PROTO_REJECT_TEXT_MAX	(PROTO_REJECT_PDATA_MAX - PROTO_REJECT_HDR_LEN)
enum proto_reject_reason {
	PROTO_REJ_BUSY = 1,		/* connection limit reached */
	PROTO_REJ_LIMIT = 2,		/* size/iters over server limit */
	PROTO_REJ_BAD_HELLO = 3,	/* malformed or invalid hello */
	PROTO_REJ_VERSION = 4,		/* unsupported protocol version */
	PROTO_REJ_RESOURCES = 5,	/* server could not allocate */
	PROTO_REJ_DENIED = 6,		/* access control */
	PROTO_REJ_SHUTDOWN = 7,		/* server draining / stopping */
};
struct proto_reject {
	uint8_t reason;			/* enum proto_reject_reason */
	char text[PROTO_REJECT_TEXT_MAX + 1];	/* NUL-terminated on decode */
};

/*
 * Messages sent with IBV_WR_SEND after ESTABLISHED.  Common header:
 *   be32 magic, u8 version, u8 type, be16 length (whole message)
 */
#define PROTO_MSG_HDR_LEN	8
#define PROTO_MSG_MAX		64	/* receive buffers are this large */
enum proto_msg_type {
	PROTO_MSG_DESC = 1,	/* server -> client: its buffer */
	PROTO_MSG_DONE = 2,	/* client -> server: ops finished */
	PROTO_MSG_RESULT = 3,	/* server -> client: verification result */
	PROTO_MSG_AUTH = 4,	/* client -> server: proof of the key */
	PROTO_MSG_ABORT = 5,	/* server -> client: why it ends the session */
};

/*
 * AUTH, 40 bytes: hdr, mac[32] (HMAC-SHA-256, see auth.h).  Sent by the
 * client right after ESTABLISHED when the WELCOME has F_AUTH.
 */
#define PROTO_AUTH_LEN		40
struct proto_auth {
	uint8_t mac[PROTO_AUTH_MAC_LEN];
};

/*
 * DESC, 32 bytes: hdr, be64 addr, be32 rkey, be32 len, u8 access,
 *   u8 reserved[7].  access: PROTO_OP_* the buffer allows the peer.
 * The server's buffer is filled with pattern(seed, PROTO_ITER_READ) when
 * the hello asks for READ, so the client can verify what it reads.
 */
#define PROTO_DESC_LEN		32
struct proto_desc {
	uint64_t addr;
	uint32_t rkey;
	uint32_t len;
	uint8_t access;
};

/*
 * DONE, 24 bytes: hdr, be32 reads_done, be32 writes_done,
 *   be32 last_write_iter, be32 crc32c.
 * crc32c is the CRC32C of the bytes of the last WRITE (0 if none);
 * the server checks its buffer holds pattern(seed, last_write_iter).
 */
#define PROTO_DONE_LEN		24
struct proto_done {
	uint32_t reads_done;
	uint32_t writes_done;
	uint32_t last_write_iter;
	uint32_t crc32c;
};

/*
 * RESULT, 24 bytes: hdr, be32 status, be32 crc32c_seen,
 *   be32 first_bad_offset (0xffffffff when none), be32 reserved.
 */
#define PROTO_RESULT_LEN	24
#define PROTO_NO_BAD_OFFSET	0xffffffffu
enum proto_result_status {
	PROTO_RES_OK = 0,
	PROTO_RES_MISMATCH = 1,	/* written bytes differ from pattern */
	PROTO_RES_BAD_DONE = 2,	/* DONE inconsistent with hello */
};
struct proto_result {
	uint32_t status;
	uint32_t crc32c_seen;
	uint32_t first_bad_offset;
};

/*
 * ABORT, 64 bytes: hdr, u8 reason, u8 text_len, be16 reserved(0),
 *   be32 limit_ms, text[48] (text_len bytes of UTF-8 without NUL, then
 *   zeros).  The server sends it when it ends a native session itself,
 *   then disconnects.  limit_ms: the limit that ran out (a deadline,
 *   max_duration), 0 when none applies.  Receivers accept reasons they do
 *   not know (newer servers may add some).
 */
#define PROTO_ABORT_LEN		64
#define PROTO_ABORT_TEXT_MAX	48
enum proto_abort_reason {
	PROTO_ABORT_SESSION = 1,	/* session deadline: no DONE in time */
	PROTO_ABORT_DURATION = 2,	/* max_duration of a connection */
	PROTO_ABORT_SHUTDOWN = 3,	/* the server is stopping */
	PROTO_ABORT_PROTOCOL = 4,	/* the client broke the protocol */
	PROTO_ABORT_AUTH = 5,		/* wrong pre-shared key */
	PROTO_ABORT_IDLE = 6,		/* no AUTH within the idle deadline */
	PROTO_ABORT_STALLED = 7,	/* the server's own step timed out */
};
struct proto_abort {
	uint8_t reason;			/* enum proto_abort_reason */
	uint32_t limit_ms;
	char text[PROTO_ABORT_TEXT_MAX + 1];	/* NUL-terminated */
};

/* Iteration number used for the server's initial READ pattern. */
#define PROTO_ITER_READ		0xffffffffu

/*
 * rping-compatible advert (rdma-core librdmacm/examples/rping.c):
 * 16 bytes: be64 buf, be32 rkey, be32 size.  No magic.
 */
#define PROTO_RPING_INFO_LEN	16
struct proto_rping_info {
	uint64_t buf;
	uint32_t rkey;
	uint32_t size;
};

/* What a connect request's private data says about the protocol. */
enum proto_kind {
	PROTO_KIND_RPING = 0,	/* empty or all-zero private data */
	PROTO_KIND_NATIVE = 1,	/* starts with PROTO_MAGIC */
	PROTO_KIND_UNKNOWN = 2,	/* anything else: reject */
};

enum proto_kind proto_classify(const void *pdata, size_t len);

int proto_hello_encode(const struct proto_hello *h, void *buf, size_t len);
int proto_hello_decode(const void *buf, size_t len, struct proto_hello *h,
		       const char **why);

int proto_welcome_encode(const struct proto_welcome *w, void *buf, size_t len);
int proto_welcome_decode(const void *buf, size_t len, struct proto_welcome *w,
			 const char **why);

/* Returns the number of bytes written (header + text, truncated to fit). */
int proto_reject_encode(uint8_t reason, const char *text, void *buf,
			size_t len);
int proto_reject_decode(const void *buf, size_t len, struct proto_reject *r,
			const char **why);
const char *proto_reject_reason_str(uint8_t reason);

/* Messages: encoders return bytes written or -errno. */
int proto_desc_encode(const struct proto_desc *d, void *buf, size_t len);
int proto_done_encode(const struct proto_done *d, void *buf, size_t len);
int proto_result_encode(const struct proto_result *r, void *buf, size_t len);

/* Header check: returns the message type (>0) or -errno with *why. */
int proto_msg_type(const void *buf, size_t len, const char **why);
int proto_desc_decode(const void *buf, size_t len, struct proto_desc *d,
		      const char **why);
int proto_done_decode(const void *buf, size_t len, struct proto_done *d,
		      const char **why);
int proto_result_decode(const void *buf, size_t len, struct proto_result *r,
			const char **why);
int proto_auth_encode(const struct proto_auth *a, void *buf, size_t len);
/* The text is cut to PROTO_ABORT_TEXT_MAX bytes (at a UTF-8 boundary). */
int proto_abort_encode(const struct proto_abort *a, void *buf, size_t len);
int proto_abort_decode(const void *buf, size_t len, struct proto_abort *a,
		       const char **why);
/* "session deadline 120 s passed while operations were still running",
 * then ": TEXT" when the ABORT has a text; into buf, returns buf. */
char *proto_abort_str(const struct proto_abort *a, char *buf, size_t len);
int proto_auth_decode(const void *buf, size_t len, struct proto_auth *a,
		      const char **why);

int proto_rping_encode(const struct proto_rping_info *i, void *buf,
		       size_t len);
int proto_rping_decode(const void *buf, size_t len,
		       struct proto_rping_info *i, const char **why);

/*
 * Validate a peer's descriptor against what we need: len >= need,
 * addr + len does not overflow, access includes ops.  0 or -EINVAL.
 */
int proto_desc_check(const struct proto_desc *d, uint32_t need,
		     uint8_t ops, const char **why);

#endif /* RDMAD_PROTO_H */
