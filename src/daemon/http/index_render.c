/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * index_render.c - the page at / (see index_render.h).
 */
#include <errno.h>

#include "http/index_render.h"

int index_render(FILE *f, const char *version,
		 const struct index_entry *entries, unsigned int n)
{
	unsigned int i;

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n"
		"<head><meta charset=\"utf-8\"/><title>rdmad %s</title></head>\n"
		"<body>\n<h1>rdmad %s</h1>\n"
		"<p>RDMA test responder and mesh prober.</p>\n<ul>\n",
		version, version);
	for (i = 0; i < n; i++)
		fprintf(f, "<li><a href=\"%s\">%s</a>: %s</li>\n",
			entries[i].path, entries[i].path, entries[i].what);
	fputs("</ul>\n</body>\n</html>\n", f);
	return ferror(f) ? -EIO : 0;
}
