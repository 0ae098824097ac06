/* SPDX-License-Identifier: BSD-2-Clause */
/* auth.c - pre-shared-key authentication (see auth.h). */
#include "auth.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#define AUTH_LABEL_V1	"rdmad-psk-v1"
#define AUTH_LABEL	"rdmad-psk-v2"	/* bound to the server */

static int auth_init(void)
{
	return sodium_init() < 0 ? -EIO : 0;
}

void auth_key_clear(struct auth_key *k)
{
	sodium_memzero(k, sizeof(*k));
}

int auth_key_load(struct auth_key *k, const char *path, char *err,
		  size_t errlen)
{
	uint8_t buf[AUTH_KEY_MAX + 3];
	struct stat st;
	ssize_t n;
	size_t len = 0;
	int fd, ret;

	auth_key_clear(k);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "key file %s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "key file %s: %s", path, strerror(-ret));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		snprintf(err, errlen, "key file %s: not a regular file", path);
		goto out;
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		ret = -EPERM;
		snprintf(err, errlen, "key file %s: readable by group or "
			 "others (chmod 600)", path);
		goto out;
	}
	for (;;) {
		n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			snprintf(err, errlen, "key file %s: %s", path,
				 strerror(-ret));
			goto out;
		}
		if (n == 0 || len + (size_t)n == sizeof(buf)) {
			len += (size_t)n;
			break;
		}
		len += (size_t)n;
	}
	if (len && buf[len - 1] == '\n') {
		len--;
		if (len && buf[len - 1] == '\r')
			len--;
	}
	if (len < AUTH_KEY_MIN || len > AUTH_KEY_MAX) {
		ret = -EINVAL;
		snprintf(err, errlen, "key file %s: key must be %d to %d "
			 "bytes", path, AUTH_KEY_MIN, AUTH_KEY_MAX);
		goto out;
	}
	memcpy(k->key, buf, len);
	k->len = len;
	ret = 0;
out:
	sodium_memzero(buf, sizeof(buf));
	close(fd);
	return ret;
}

int auth_nonce(uint8_t nonce[PROTO_AUTH_NONCE_LEN])
{
	if (auth_init())
		return -EIO;
	randombytes_buf(nonce, PROTO_AUTH_NONCE_LEN);
	return 0;
}

int auth_bind_of(struct auth_bind *b, const struct sockaddr *sa)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)sa;
	const struct sockaddr_in *s4 = (const struct sockaddr_in *)sa;

	memset(b, 0, sizeof(*b));
	if (sa && sa->sa_family == AF_INET) {
		b->addr[10] = b->addr[11] = 0xff;
		memcpy(b->addr + 12, &s4->sin_addr, 4);
		b->port = ntohs(s4->sin_port);
		return 0;
	}
	if (sa && sa->sa_family == AF_INET6) {
		memcpy(b->addr, &s6->sin6_addr, 16);
		b->port = ntohs(s6->sin6_port);
		return 0;
	}
	return -EAFNOSUPPORT;
}

int auth_mac(const struct auth_key *k, const struct proto_welcome *w,
	     const struct proto_hello *h, uint8_t mac[PROTO_AUTH_MAC_LEN])
{
	return auth_mac_bound(k, w, h, NULL, mac);
}

int auth_mac_bound(const struct auth_key *k, const struct proto_welcome *w,
		   const struct proto_hello *h, const struct auth_bind *b,
		   uint8_t mac[PROTO_AUTH_MAC_LEN])
{
	crypto_auth_hmacsha256_state st;
	uint8_t hello[PROTO_HELLO_LEN], id[8], port[2];
	const char *label = b ? AUTH_LABEL : AUTH_LABEL_V1;
	int ret, i;

	if (!k->len)
		return -ENOKEY;
	if (auth_init())
		return -EIO;
	ret = proto_hello_encode(h, hello, sizeof(hello));
	if (ret < 0)
		return ret;
	for (i = 0; i < 8; i++)
		id[i] = (uint8_t)(w->conn_id >> (56 - 8 * i));
	crypto_auth_hmacsha256_init(&st, k->key, k->len);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)label,
				      strlen(label));
	crypto_auth_hmacsha256_update(&st, w->nonce, PROTO_AUTH_NONCE_LEN);
	crypto_auth_hmacsha256_update(&st, hello, sizeof(hello));
	crypto_auth_hmacsha256_update(&st, id, sizeof(id));
	if (b) {
		port[0] = (uint8_t)(b->port >> 8);
		port[1] = (uint8_t)b->port;
		crypto_auth_hmacsha256_update(&st, b->addr, sizeof(b->addr));
		crypto_auth_hmacsha256_update(&st, port, sizeof(port));
	}
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_memzero(&st, sizeof(st));
	return 0;
}

int auth_verify(const struct auth_key *k, const struct proto_welcome *w,
		const struct proto_hello *h, const struct auth_bind *b,
		const uint8_t mac[PROTO_AUTH_MAC_LEN])
{
	uint8_t want[PROTO_AUTH_MAC_LEN];
	int ret;

	if (!b)
		return -EINVAL;
	ret = auth_mac_bound(k, w, h, b, want);
	if (ret)
		return ret;
	ret = crypto_verify_32(want, mac) ? -EACCES : 0;
	sodium_memzero(want, sizeof(want));
	return ret;
}
