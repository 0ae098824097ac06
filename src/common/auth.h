/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * auth.h - optional pre-shared-key authentication of native clients,
 * shared by rdmad and rdma-probe.  Crypto is libsodium's.
 *
 * The server puts a fresh random nonce in its WELCOME (accept private
 * data); before the server reveals its buffer (DESC: address, rkey) the
 * client must send an AUTH message holding
 *
 *   HMAC-SHA-256(key, "rdmad-psk-v1" || nonce[32] || hello[24] || be64 conn_id)
 *
 * where hello is the 24-byte wire form of the client's HELLO and conn_id
 * the server's connection number from the WELCOME.  A server that sets
 * PROTO_WELCOME_F_BIND (every rdmad since the channel binding) takes only
 *
 *   HMAC-SHA-256(key, "rdmad-psk-v2" || nonce[32] || hello[24] ||
 *                be64 conn_id || addr[16] || be16 port)
 *
 * where addr and port name the server the client meant: the address and
 * port it connected to; the server puts in the address and port the
 * connection arrived on.  A relay that passes HELLO, WELCOME and AUTH
 * between a client and another server (its own address in the client's
 * MAC) is refused.  The server compares in constant time.  See
 * docs/protocol.md and docs/security.md.
 */
#ifndef RDMAD_AUTH_H
#define RDMAD_AUTH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "proto.h"

#define AUTH_KEY_MIN	16	/* bytes of key material */
#define AUTH_KEY_MAX	256

struct auth_key {
	uint8_t key[AUTH_KEY_MAX];
	size_t len;		/* 0: no key */
};

/*
 * Read a key file: its bytes, less one trailing newline ("\n" or
 * "\r\n"), are the key; AUTH_KEY_MIN..AUTH_KEY_MAX bytes.  The file
 * must not be readable by group or others.  0, or -errno with a reason
 * in err.
 */
int auth_key_load(struct auth_key *k, const char *path, char *err,
		  size_t errlen);

/*
 * The server an AUTH is meant for: an IPv6 address (IPv4 as ::ffff:a.b.c.d,
 * so that a server listening on an IPv6 socket and its IPv4 client agree)
 * and a port.
 */
struct auth_bind {
	uint8_t addr[16];
	uint16_t port;
};

/* The binding of SA (AF_INET or AF_INET6).  0 or -EAFNOSUPPORT. */
int auth_bind_of(struct auth_bind *b, const struct sockaddr *sa);

/* Wipe a key. */
void auth_key_clear(struct auth_key *k);

/* Fill NONCE with PROTO_AUTH_NONCE_LEN random bytes.  0 or -EIO. */
int auth_nonce(uint8_t nonce[PROTO_AUTH_NONCE_LEN]);

/*
 * The MAC a client sends: over the server's nonce and conn_id (from the
 * decoded WELCOME) and the client's own HELLO; with B (a WELCOME with
 * PROTO_WELCOME_F_BIND) also over the server it connected to, without
 * (NULL: a server from before the binding) the "rdmad-psk-v1" MAC.
 * 0 or -errno.
 */
int auth_mac_bound(const struct auth_key *k, const struct proto_welcome *w,
		   const struct proto_hello *h, const struct auth_bind *b,
		   uint8_t mac[PROTO_AUTH_MAC_LEN]);
/* The "rdmad-psk-v1" MAC: auth_mac_bound(k, w, h, NULL, mac). */
int auth_mac(const struct auth_key *k, const struct proto_welcome *w,
	     const struct proto_hello *h, uint8_t mac[PROTO_AUTH_MAC_LEN]);

/* Server side, B the address and port the connection arrived on: 0 when
 * MAC is right for it, -EACCES when not, -errno else.  Only bound MACs. */
int auth_verify(const struct auth_key *k, const struct proto_welcome *w,
		const struct proto_hello *h, const struct auth_bind *b,
		const uint8_t mac[PROTO_AUTH_MAC_LEN]);

#endif /* RDMAD_AUTH_H */
