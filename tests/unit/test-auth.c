/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-auth.c - pre-shared-key authentication: key files, MAC binding
 * (key, nonce, hello, conn_id, the server's address and port), the AUTH
 * message and the keyed WELCOME.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "auth.h"
#include "proto.h"
#include "tap.h"

static char dir[] = "/tmp/test-auth-XXXXXX";

static const char *keyfile(const char *name, const void *data, size_t len,
			   mode_t mode)
{
	static char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		abort();
	fchmod(fd, mode);
	close(fd);
	return path;
}

static void test_key_files(void)
{
	struct auth_key k;
	char err[256], big[400];
	int ret;

	ret = auth_key_load(&k, keyfile("good", "0123456789abcdef\n", 17,
					0600), err, sizeof(err));
	tap_ok(ret == 0 && k.len == 16 && !memcmp(k.key, "0123456789abcdef",
						    16),
	       "key file: trailing newline dropped");
	ret = auth_key_load(&k, keyfile("crlf", "0123456789abcdefXY\r\n", 20,
					0400), err, sizeof(err));
	tap_ok(ret == 0 && k.len == 18, "key file: CRLF dropped, 0400 ok");
	ret = auth_key_load(&k, keyfile("short", "too short\n", 10, 0600),
			    err, sizeof(err));
	tap_ok(ret == -EINVAL && strstr(err, "16 to 256"),
	       "key file: too short refused (%s)", err);
	memset(big, 'x', sizeof(big));
	ret = auth_key_load(&k, keyfile("long", big, sizeof(big), 0600), err,
			    sizeof(err));
	tap_ok(ret == -EINVAL, "key file: too long refused");
	ret = auth_key_load(&k, keyfile("open", "0123456789abcdef", 16,
					0644), err, sizeof(err));
	tap_ok(ret == -EPERM && strstr(err, "chmod 600"),
	       "key file: world-readable refused (%s)", err);
	ret = auth_key_load(&k, "/nonexistent/key", err, sizeof(err));
	tap_ok(ret == -ENOENT, "key file: missing file -ENOENT");
	ret = auth_key_load(&k, dir, err, sizeof(err));
	tap_ok(ret < 0 && k.len == 0, "key file: a directory refused");
	ret = auth_key_load(&k, keyfile("binary", "\0\1\2\3\4\5\6\7\x08\x09"
					"\x0a\x0b\x0c\x0d\x0e\x0f\x10", 17,
					0600), err, sizeof(err));
	tap_ok(ret == 0 && k.len == 17 && k.key[0] == 0,
	       "key file: binary bytes kept");
}

/* A MAC for server A is refused by server B. */
static void test_bind(void)
{
	struct auth_key k = { .len = 20 };
	struct proto_hello h = {
		.version = PROTO_VERSION, .ops = PROTO_OP_READ, .size = 64,
		.iters = 1, .seed = 7,
	};
	struct proto_welcome w = {
		.version = PROTO_VERSION, .conn_id = 3,
		.flags = PROTO_WELCOME_F_AUTH | PROTO_WELCOME_F_BIND,
	};
	struct sockaddr_in a4 = { .sin_family = AF_INET,
				  .sin_port = htons(7471) };
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6,
				   .sin6_port = htons(7471) };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct auth_bind b, b2, b6;
	uint8_t mac[PROTO_AUTH_MAC_LEN];

	memset(k.key, 'q', k.len);
	auth_nonce(w.nonce);
	inet_pton(AF_INET, "10.99.0.1", &a4.sin_addr);
	inet_pton(AF_INET6, "::ffff:10.99.0.1", &a6.sin6_addr);
	tap_ok(auth_bind_of(&b, (struct sockaddr *)&a4) == 0 &&
	       b.port == 7471 && b.addr[10] == 0xff && b.addr[12] == 10,
	       "bind: IPv4 address as ::ffff:a.b.c.d, port in host order");
	tap_ok(auth_bind_of(&b6, (struct sockaddr *)&a6) == 0 &&
	       !memcmp(&b, &b6, sizeof(b)),
	       "bind: IPv4 and its IPv4-mapped IPv6 form agree");
	tap_ok(auth_bind_of(&b2, (struct sockaddr *)&un) == -EAFNOSUPPORT,
	       "bind: not an IP address: -EAFNOSUPPORT");
	tap_ok(auth_bind_of(&b2, NULL) == -EAFNOSUPPORT,
	       "bind: no address: -EAFNOSUPPORT");

	tap_ok(auth_mac_bound(&k, &w, &h, &b, mac) == 0 &&
	       auth_verify(&k, &w, &h, &b, mac) == 0,
	       "bound MAC: the server it names accepts it");
	b2 = b;
	b2.port = 7472;
	tap_ok(auth_verify(&k, &w, &h, &b2, mac) == -EACCES,
	       "bound MAC: same address, other port (a relay): refused");
	b2 = b;
	b2.addr[15] ^= 3;
	tap_ok(auth_verify(&k, &w, &h, &b2, mac) == -EACCES,
	       "bound MAC: other address (a relay): refused");
	auth_mac(&k, &w, &h, mac);
	tap_ok(auth_verify(&k, &w, &h, &b, mac) == -EACCES,
	       "unbound (v1) MAC: refused by a binding server");
	tap_ok(auth_verify(&k, &w, &h, NULL, mac) == -EINVAL,
	       "server verifies nothing without the address it serves");
}

static void test_mac(void)
{
	struct auth_key k = { .len = 20 }, k2;
	struct proto_hello h = {
		.version = PROTO_VERSION, .ops = PROTO_OP_READ, .size = 4096,
		.iters = 10, .seed = 99,
	}, h2;
	struct proto_welcome w = {
		.version = PROTO_VERSION, .max_size = 1u << 20,
		.max_iters = 1000, .conn_id = 12,
		.flags = PROTO_WELCOME_F_AUTH | PROTO_WELCOME_F_BIND,
	}, w2;
	struct auth_bind b = { .addr = { [10] = 0xff, [11] = 0xff, 10, 99, 0,
					 1 }, .port = 7471 };
	uint8_t mac[PROTO_AUTH_MAC_LEN], mac2[PROTO_AUTH_MAC_LEN];
	struct auth_key none = { .len = 0 };

	memset(k.key, 'k', k.len);
	tap_ok(auth_nonce(w.nonce) == 0, "nonce drawn");
	tap_ok(auth_mac_bound(&k, &w, &h, &b, mac) == 0, "client MAC computed");
	tap_ok(auth_verify(&k, &w, &h, &b, mac) == 0, "server accepts it");
	auth_mac_bound(&k, &w, &h, &b, mac2);
	tap_ok(!memcmp(mac, mac2, sizeof(mac)), "MAC is deterministic");

	k2 = k;
	k2.key[19] ^= 1;
	tap_ok(auth_verify(&k2, &w, &h, &b, mac) == -EACCES,
	       "other key: refused");
	k2 = k;
	k2.len = 19;
	tap_ok(auth_verify(&k2, &w, &h, &b, mac) == -EACCES,
	       "truncated key: refused");
	w2 = w;
	w2.nonce[31] ^= 0x80;
	tap_ok(auth_verify(&k, &w2, &h, &b, mac) == -EACCES,
	       "other nonce (replay): refused");
	w2 = w;
	w2.conn_id = 13;
	tap_ok(auth_verify(&k, &w2, &h, &b, mac) == -EACCES,
	       "other connection id: refused");
	h2 = h;
	h2.size = 8192;
	tap_ok(auth_verify(&k, &w, &h2, &b, mac) == -EACCES,
	       "other hello (size): refused");
	h2 = h;
	h2.seed = 100;
	tap_ok(auth_verify(&k, &w, &h2, &b, mac) == -EACCES,
	       "other hello (seed): refused");
	mac2[0] ^= 1;
	tap_ok(auth_verify(&k, &w, &h, &b, mac2) == -EACCES,
	       "flipped MAC bit: refused");
	tap_ok(auth_mac(&none, &w, &h, mac) == -ENOKEY,
	       "no key: -ENOKEY, nothing computed");
	tap_ok(auth_verify(&none, &w, &h, &b, mac) == -ENOKEY,
	       "server without a key verifies nothing");
	w2 = w;
	auth_nonce(w2.nonce);
	tap_ok(memcmp(w.nonce, w2.nonce, PROTO_AUTH_NONCE_LEN) != 0,
	       "two nonces differ");
}

static void test_wire(void)
{
	struct proto_welcome w = {
		.version = PROTO_VERSION, .max_size = 4096, .max_iters = 5,
		.conn_id = 3, .flags = PROTO_WELCOME_F_AUTH,
	}, v;
	struct proto_auth a, b;
	uint8_t buf[256];
	const char *why = NULL;
	int n;

	memset(w.nonce, 0xab, sizeof(w.nonce));
	n = proto_welcome_encode(&w, buf, sizeof(buf));
	tap_ok(n == PROTO_WELCOME_AUTH_LEN, "keyed welcome: 56 bytes");
	tap_ok(proto_welcome_decode(buf, (size_t)n, &v, &why) == 0 &&
	       v.flags == PROTO_WELCOME_F_AUTH &&
	       !memcmp(v.nonce, w.nonce, sizeof(v.nonce)) && v.conn_id == 3,
	       "keyed welcome round trip");
	tap_ok(proto_welcome_decode(buf, 40, &v, &why) == -EBADMSG,
	       "keyed welcome cut short: refused");
	memset(buf + n, 0, sizeof(buf) - (size_t)n);
	tap_ok(proto_welcome_decode(buf, PROTO_ACCEPT_PDATA_MAX, &v, &why) ==
	       0, "keyed welcome with CM padding");
	buf[100] = 1;
	tap_ok(proto_welcome_decode(buf, PROTO_ACCEPT_PDATA_MAX, &v, &why) ==
	       -EBADMSG, "junk after the nonce: refused");
	tap_ok(proto_welcome_encode(&w, buf, 30) == -ENOSPC,
	       "keyed welcome needs 56 bytes of room");
	n = proto_welcome_encode(&w, buf, sizeof(buf));
	buf[5] = 0x82;
	tap_ok(proto_welcome_decode(buf, (size_t)n, &v, &why) == -EBADMSG,
	       "unknown welcome flag: refused");
	w.flags = PROTO_WELCOME_F_AUTH | PROTO_WELCOME_F_BIND;
	n = proto_welcome_encode(&w, buf, sizeof(buf));
	tap_ok(n == PROTO_WELCOME_AUTH_LEN &&
	       proto_welcome_decode(buf, (size_t)n, &v, &why) == 0 &&
	       v.flags == (PROTO_WELCOME_F_AUTH | PROTO_WELCOME_F_BIND),
	       "keyed welcome binding the key: round trip");
	buf[5] = PROTO_WELCOME_F_BIND;
	tap_ok(proto_welcome_decode(buf, (size_t)n, &v, &why) == -EBADMSG,
	       "binding flag without the key flag: refused");
	w.flags = PROTO_WELCOME_F_BIND;
	tap_ok(proto_welcome_encode(&w, buf, sizeof(buf)) == -EINVAL,
	       "binding flag without the key flag: not encoded");
	w.flags = 0;
	n = proto_welcome_encode(&w, buf, sizeof(buf));
	tap_ok(n == PROTO_WELCOME_LEN && proto_welcome_decode(buf, (size_t)n,
		&v, &why) == 0 && v.flags == 0,
	       "welcome without a key: 24 bytes as before");

	memset(a.mac, 0x5c, sizeof(a.mac));
	n = proto_auth_encode(&a, buf, sizeof(buf));
	tap_ok(n == PROTO_AUTH_LEN && proto_msg_type(buf, (size_t)n, &why) ==
	       PROTO_MSG_AUTH, "AUTH message: 40 bytes, type 4");
	tap_ok(proto_auth_decode(buf, (size_t)n, &b, &why) == 0 &&
	       !memcmp(a.mac, b.mac, sizeof(a.mac)), "AUTH round trip");
	tap_ok(proto_auth_decode(buf, 39, &b, &why) == -EBADMSG,
	       "AUTH short: refused");
	tap_ok(proto_auth_encode(&a, buf, 20) == -ENOSPC,
	       "AUTH encode needs room");
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(dir))
		return 1;
	test_key_files();
	test_mac();
	test_bind();
	test_wire();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		tap_diag("cannot remove %s", dir);
	return tap_done();
}
