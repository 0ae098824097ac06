/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-gzip-render.c - gzip_render.c: a gzip stream (magic, trailer) that
 * zlib inflates back to the input, for empty, small and large inputs.
 */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "http/gzip_render.h"
#include "tap.h"

/* Inflate Z (gzip) and compare with IN. */
static int round_trip(const char *in, size_t len, const char *what)
{
	unsigned char *out = malloc(len + 1);
	z_stream z = { 0 };
	void *gz;
	size_t glen;
	int ret, ok;

	if (!out || gzip_render(in, len, GZIP_RENDER_LEVEL, &gz, &glen)) {
		free(out);
		return tap_ok(0, "%s: compressed", what);
	}
	ok = glen >= 18 && ((unsigned char *)gz)[0] == 0x1f &&
	     ((unsigned char *)gz)[1] == 0x8b;
	inflateInit2(&z, 15 + 16);
	z.next_in = gz;
	z.avail_in = (uInt)glen;
	z.next_out = out;
	z.avail_out = (uInt)len + 1;
	ret = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	ok = ok && ret == Z_STREAM_END && z.total_out == len &&
	     !memcmp(out, in, len);
	tap_ok(ok, "%s: %zu bytes -> %zu, gzip magic, inflates back", what,
	       len, glen);
	free(gz);
	free(out);
	return ok;
}

int main(void)
{
	size_t big = 3u << 20, i;
	char *text = malloc(big);

	tap_plan(4);
	round_trip("", 0, "empty");
	round_trip("rdmad_build_info{version=\"0.1.0\"} 1\n", 36, "a line");
	if (!text)
		return 1;
	for (i = 0; i < big; i++)
		text[i] = "rdmad_mesh_rounds_total{peer=\"10.0.0.1\"} 42\n"[i % 44];
	tap_ok(round_trip(text, big, "3 MB of metrics-like text"),
	       "large input");
	free(text);
	return tap_done();
}
