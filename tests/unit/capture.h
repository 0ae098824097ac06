/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * capture.h - what a renderer writes to a FILE *, as one string, for the
 * unit tests:
 *
 *   struct capture c;
 *   ret = status_render_json(capture_open(&c), &view);
 *   buf = capture_close(&c);	(free() it)
 *
 * A test that cannot even open the stream exits 99 (a hard error).
 */
#ifndef RDMAD_CAPTURE_H
#define RDMAD_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>

struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

static inline FILE *capture_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	if (!c->f) {
		perror("open_memstream");
		exit(99);
	}
	return c->f;
}

static inline char *capture_close(struct capture *c)
{
	if (fclose(c->f) || !c->buf) {
		perror("fclose");
		exit(99);
	}
	return c->buf;
}

#endif /* RDMAD_CAPTURE_H */
