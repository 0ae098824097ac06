/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_reply.c - the replies of rdmad's HTTP endpoint (http.c,
 * http_probe.c): a line of text, or a page rendered into memory.
 */
#include <stdio.h>
#include <stdlib.h>

#include <event2/buffer.h>
#include <event2/http.h>

#include "http/http_reply.h"

void http_reply_text(struct evhttp_request *req, int code,
		     const char *reason, const char *text)
{
	struct evbuffer *b = evbuffer_new();

	evhttp_add_header(evhttp_request_get_output_headers(req),
			  "Content-Type", "text/plain; charset=utf-8");
	if (b)
		evbuffer_add_printf(b, "%s\n", text);
	evhttp_send_reply(req, code, reason, b);
	if (b)
		evbuffer_free(b);
}

static void free_ref(const void *data, size_t len, void *arg)
{
	free((void *)data);
}

void http_reply_render(struct evhttp_request *req, const char *ctype,
		       int (*fn)(FILE *, const void *, int), const void *v,
		       int arg)
{
	struct evbuffer *b;
	char *mem = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	f = open_memstream(&mem, &len);
	if (!f) {
		http_reply_text(req, 500, "Internal Server Error", "out of memory");
		return;
	}
	ret = fn(f, v, arg);
	if (fclose(f) || ret) {
		free(mem);
		http_reply_text(req, 500, "Internal Server Error", "out of memory");
		return;
	}
	/* The reply goes out later: the buffer owns MEM from here. */
	b = evbuffer_new();
	if (!b || evbuffer_add_reference(b, mem, len, free_ref, NULL)) {
		if (b)
			evbuffer_free(b);
		free(mem);
		http_reply_text(req, 500, "Internal Server Error", "out of memory");
		return;
	}
	evhttp_add_header(evhttp_request_get_output_headers(req),
			  "Content-Type", ctype);
	evhttp_add_header(evhttp_request_get_output_headers(req),
			  "Cache-Control", "no-store");
	evhttp_send_reply(req, 200, "OK", b);
	evbuffer_free(b);
}
