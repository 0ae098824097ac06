/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-targets.c - libFuzzer target: the target list parser of
 * rdma-probe --targets and rdmad's [mesh] (src/common/targets.c) on
 * arbitrary text.  Whatever the input, it ends with 0 and a list within
 * bounds (every host non-empty and NUL-terminated, no repeats), or an
 * error with a message and nothing kept.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

static void warn(void *arg, const char *msg)
{
	CHECK(arg == NULL && msg[0] != '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct target_list tl = { 0 };
	char err[512] = "";
	unsigned int i, j;
	FILE *in;
	int ret;

	if (!size || size > 65536)
		return 0;
	in = fmemopen((void *)data, size, "r");
	if (!in)
		abort();
	ret = targets_read(in, "fuzz", 7471, 1024, &tl, warn, NULL, err,
			   sizeof(err));
	fclose(in);
	CHECK(ret == 0 || ret == -EINVAL || ret == -ENOMEM || ret == -EIO);
	if (ret) {
		CHECK(tl.n == 0 && tl.v == NULL && !strncmp(err, "fuzz", 4));
		return 0;
	}
	CHECK(tl.n <= 1024);
	for (i = 0; i < tl.n; i++) {
		const struct target *t = &tl.v[i];

		CHECK(memchr(t->host, '\0', sizeof(t->host)) != NULL);
		CHECK(memchr(t->text, '\0', sizeof(t->text)) != NULL);
		CHECK(t->host[0] != '\0' && t->port != 0 && t->line >= 1);
		for (j = 0; j < i; j++)
			CHECK(strcasecmp(t->host, tl.v[j].host) ||
			      t->port != tl.v[j].port);
	}
	targets_free(&tl);
	return 0;
}
