/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-targets.c - libFuzzer target: rdma-probe's --targets file parser
 * (src/probe/probe_targets.c) on arbitrary text.  Whatever the input, it
 * ends with 0 and a list within bounds (every host non-empty and
 * NUL-terminated, no repeats), or an error with nothing kept.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "probe_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_targets tl = { 0 };
	unsigned int i, j;
	FILE *in;
	int ret;

	if (!size || size > 65536)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	in = fmemopen((void *)data, size, "r");
	if (!in || !devnull)
		abort();
	ret = probe_targets_read(in, "fuzz", 7471, &tl, devnull);
	fclose(in);
	CHECK(ret == 0 || ret == -EINVAL || ret == -ENOMEM || ret == -EIO);
	if (ret) {
		CHECK(tl.n == 0);
		return 0;
	}
	CHECK(tl.n >= 1 && tl.n <= PROBE_TARGETS_MAX);
	for (i = 0; i < tl.n; i++) {
		const struct probe_target *t = &tl.v[i];

		CHECK(memchr(t->host, '\0', sizeof(t->host)) != NULL);
		CHECK(memchr(t->text, '\0', sizeof(t->text)) != NULL);
		CHECK(t->host[0] != '\0' && t->port != 0 && t->line >= 1);
		for (j = 0; j < i; j++)
			CHECK(strcasecmp(t->host, tl.v[j].host) ||
			      t->port != tl.v[j].port);
	}
	probe_targets_free(&tl);
	return 0;
}
