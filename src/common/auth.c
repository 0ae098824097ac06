/* SPDX-License-Identifier: BSD-2-Clause */
/* auth.c - pre-shared-key authentication (see auth.h). */
#include "auth.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#define AUTH_LABEL	"rdmad-psk-v1"

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

int auth_mac(const struct auth_key *k, const struct proto_welcome *w,
	     const struct proto_hello *h, uint8_t mac[PROTO_AUTH_MAC_LEN])
{
	crypto_auth_hmacsha256_state st;
	uint8_t hello[PROTO_HELLO_LEN], id[8];
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
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)AUTH_LABEL,
				      sizeof(AUTH_LABEL) - 1);
	crypto_auth_hmacsha256_update(&st, w->nonce, PROTO_AUTH_NONCE_LEN);
	crypto_auth_hmacsha256_update(&st, hello, sizeof(hello));
	crypto_auth_hmacsha256_update(&st, id, sizeof(id));
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_memzero(&st, sizeof(st));
	return 0;
}

int auth_verify(const struct auth_key *k, const struct proto_welcome *w,
		const struct proto_hello *h,
		const uint8_t mac[PROTO_AUTH_MAC_LEN])
{
	uint8_t want[PROTO_AUTH_MAC_LEN];
	int ret;

	ret = auth_mac(k, w, h, want);
	if (ret)
		return ret;
	ret = crypto_verify_32(want, mac) ? -EACCES : 0;
	sodium_memzero(want, sizeof(want));
	return ret;
}
