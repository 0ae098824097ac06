/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_reply.c - the replies of rdmad's HTTP endpoint (http.c,
 * http_probe.c): a line of text, or a page rendered into memory, sent
 * gzip-compressed when the request's Accept-Encoding asks for it
 * (http_encoding_parse.h) and as it is if compression fails.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>

#include "clock.h"
#include "core/log.h"
#include "core/log_limit.h"
#include "http/http_encoding_parse.h"
#include "http/gzip_render.h"
#include "http/http_reply.h"

/* A failed compression is logged once every this long at most. */
#define GZIP_FAIL_LOG_PERIOD	(600 * 1000000000ull)

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

/*
 * *MEM (*LEN bytes) gzip-compressed in its place when REQ accepts gzip,
 * with its Content-Encoding; kept as it is when compression fails (the
 * failure logged, once every GZIP_FAIL_LOG_PERIOD at most).
 */
static void http_reply_compress(struct evhttp_request *req, char **mem,
				size_t *len)
{
	static struct log_limit fail_limit;
	static bool fail_limit_set;
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);
	void *z;
	size_t zlen;
	int ret;

	evhttp_add_header(out, "Vary", "Accept-Encoding");
	if (http_encoding_parse(evhttp_find_header(
		    evhttp_request_get_input_headers(req), "Accept-Encoding")) !=
	    HTTP_ENCODING_GZIP)
		return;
	ret = gzip_render(*mem, *len, GZIP_RENDER_LEVEL, &z, &zlen);
	if (ret) {
		if (!fail_limit_set) {
			log_limit_init(&fail_limit, 1, GZIP_FAIL_LOG_PERIOD);
			fail_limit_set = true;
		}
		if (log_limit_take(&fail_limit, clock_now_ns()))
			log_warn("http: cannot gzip a reply of %zu bytes (%s): "
				 "sent uncompressed; logged once every %llu s "
				 "at most", *len, strerror(-ret),
				 GZIP_FAIL_LOG_PERIOD / 1000000000ull);
		return;
	}
	free(*mem);
	*mem = z;
	*len = zlen;
	evhttp_add_header(out, "Content-Encoding", "gzip");
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
	http_reply_compress(req, &mem, &len);
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
