/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_reply.h - the replies of rdmad's HTTP endpoint: http.c's own and
 * every route handler's (the wings').
 */
#ifndef RDMAD_HTTP_REPLY_H
#define RDMAD_HTTP_REPLY_H

#include <stdio.h>

#include <event2/http.h>

/* A one-line text/plain reply. */
void http_reply_text(struct evhttp_request *req, int code,
		     const char *reason, const char *text);
/* Render V with FN (and ARG) into memory, send it as CTYPE, 200, not to
 * be cached, gzip-compressed if REQ's Accept-Encoding asks for it
 * (Vary: Accept-Encoding always); a 500 if FN or memory fails. */
void http_reply_render(struct evhttp_request *req, const char *ctype,
		       int (*fn)(FILE *, const void *, int), const void *v,
		       int arg);

#endif /* RDMAD_HTTP_REPLY_H */
