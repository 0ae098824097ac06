/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-index-render.c - index_render.c: the page at / names rdmad and its
 * version, links each path given with its line, in order, and is closed
 * as XML wants (every element ended, the void one self-closed).
 */
#include <stdlib.h>
#include <string.h>

#include "http/index_render.h"
#include "capture.h"
#include "tap.h"

/* Elements opened and closed in order (a small check, no attributes
 * containing '>'). */
static int balanced(const char *p)
{
	const char *stack[32];
	int depth = 0;

	while ((p = strchr(p, '<'))) {
		const char *end = strchr(p, '>'), *name = p + 1;
		size_t len;

		if (!end)
			return 0;
		if (*name == '!') {
			p = end;
			continue;
		}
		len = strcspn(name + (*name == '/'), " />");
		if (*name == '/') {
			if (!depth || strncmp(stack[depth - 1], name + 1, len))
				return 0;
			depth--;
		} else if (end[-1] != '/') {
			if (depth == 32)
				return 0;
			stack[depth++] = name;
		}
		p = end;
	}
	return depth == 0;
}

int main(void)
{
	static const struct index_entry e[] = {
		{ "/metrics", "metrics for Prometheus" },
		{ "/probe", "a probe of ?target=H:P (&amp;module=M)" },
	};
	struct capture c;
	char *page;
	int ret;

	tap_plan(5);
	ret = index_render(capture_open(&c), "9.8.7", e, 2);
	page = capture_close(&c);
	tap_ok(ret == 0, "renders");
	tap_ok(strstr(page, "<title>rdmad 9.8.7</title>") &&
	       strstr(page, "<h1>rdmad 9.8.7</h1>"), "names rdmad and its version");
	tap_ok(strstr(page, "<li><a href=\"/metrics\">/metrics</a>: metrics "
		      "for Prometheus</li>\n<li><a href=\"/probe\">/probe</a>: "
		      "a probe of ?target=H:P (&amp;module=M)</li>\n") != NULL,
	       "each path linked with its line, in order");
	tap_ok(!strncmp(page, "<!DOCTYPE html>\n", 16) &&
	       strstr(page, "</html>\n") == page + strlen(page) - 8,
	       "an HTML document from doctype to </html>");
	tap_ok(balanced(page), "every element closed in order");
	free(page);
	return tap_done();
}
