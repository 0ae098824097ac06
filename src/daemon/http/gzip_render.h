/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gzip_render.h - a rendered reply compressed in memory with zlib, as gzip
 * (RFC 1952), for a request whose Accept-Encoding asks for it
 * (http_encoding_parse.h).
 */
#ifndef RDMAD_GZIP_RENDER_H
#define RDMAD_GZIP_RENDER_H

#include <stddef.h>

/* zlib's level for replies: the fastest (measured in scrape-bench: a
 * 2.5 MB /metrics of 1,024 peers to 124 kB in some 6 ms of CPU; level 6
 * takes 22 ms for 114 kB). */
#define GZIP_RENDER_LEVEL	1

/*
 * IN[0..LEN) compressed at LEVEL (1..9) into *OUT (malloc'd, the caller
 * frees it), *OUTLEN bytes.  0, or -ENOMEM, or -EIO with *OUT NULL when
 * zlib fails.
 */
int gzip_render(const void *in, size_t len, int level, void **out,
	      size_t *outlen);

#endif /* RDMAD_GZIP_RENDER_H */
