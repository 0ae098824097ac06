/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gzip_render.c - gzip in memory with zlib (see gzip_render.h): one deflate
 * call into a buffer of deflateBound()'s size, which is always enough.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include <zlib.h>

#include "http/gzip_render.h"

/* windowBits 15 + 16: a gzip header and trailer instead of zlib's. */
#define GZIP_WINDOW_BITS	(15 + 16)
#define GZIP_MEM_LEVEL		8

int gzip_render(const void *in, size_t len, int level, void **out,
	      size_t *outlen)
{
	z_stream z = { 0 };
	unsigned char *buf;
	uLong bound;
	int ret;

	*out = NULL;
	*outlen = 0;
	if (len > UINT_MAX)
		return -EIO;
	if (deflateInit2(&z, level, Z_DEFLATED, GZIP_WINDOW_BITS,
			 GZIP_MEM_LEVEL, Z_DEFAULT_STRATEGY) != Z_OK)
		return -EIO;
	/* deflateBound leaves out the gzip header and trailer (18 bytes) */
	bound = deflateBound(&z, (uLong)len) + 32;
	buf = bound <= UINT_MAX ? malloc(bound) : NULL;
	if (!buf) {
		deflateEnd(&z);
		return -ENOMEM;
	}
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)len;
	z.next_out = buf;
	z.avail_out = (uInt)bound;
	ret = deflate(&z, Z_FINISH);
	deflateEnd(&z);
	if (ret != Z_STREAM_END) {
		free(buf);
		return -EIO;
	}
	*out = buf;
	*outlen = (size_t)z.total_out;
	return 0;
}
