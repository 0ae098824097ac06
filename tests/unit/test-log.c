/* SPDX-License-Identifier: BSD-2-Clause */
/* test-log.c - stderr log lines, levels, level names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "tap.h"

/* Run FN with stderr captured into buf. */
static void capture(void (*fn)(void), char *buf, size_t len)
{
	FILE *f = tmpfile();
	int saved = dup(2);
	size_t n = 0;

	buf[0] = '\0';
	if (!f || saved < 0)
		return;
	fflush(stderr);
	dup2(fileno(f), 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void emit_conn(void)
{
	struct log_ctx ctx = {
		.conn = 7, .peer = "10.0.0.2:4000", .proto = "native",
		.bytes = 100, .result = "ok",
	};

	log_conn(LOG_INFO, &ctx, "close: %s", "native");
}

static void emit_debug(void)
{
	log_debug("hidden %d", 1);
	log_err("shown %d", 2);
}

int main(void)
{
	char buf[1024];

	unsetenv("JOURNAL_STREAM");
	log_init(LOG_INFO);
	tap_ok(!log_to_journal(), "no JOURNAL_STREAM: stderr");
	capture(emit_conn, buf, sizeof(buf));
	tap_ok(strstr(buf, " info conn=7 peer=10.0.0.2:4000 close: native\n")
	       != NULL, "connection line has level, conn and peer (%.*s)",
	       (int)strcspn(buf, "\n"), buf);
	tap_ok(buf[4] == '-' && buf[10] == 'T', "line starts with a timestamp");
	capture(emit_debug, buf, sizeof(buf));
	tap_ok(!strstr(buf, "hidden") && strstr(buf, " err shown 2"),
	       "debug filtered at level info, err shown");
	log_set_level(LOG_DEBUG);
	capture(emit_debug, buf, sizeof(buf));
	tap_ok(strstr(buf, "debug hidden 1") != NULL, "debug shown at debug");

	setenv("JOURNAL_STREAM", "1:1", 1);
	log_init(LOG_INFO);
	tap_ok(!log_to_journal(), "JOURNAL_STREAM not matching fd 2: stderr");

	tap_ok(log_level_parse("warning") == LOG_WARNING &&
	       log_level_parse("warn") == LOG_WARNING &&
	       log_level_parse("debug") == LOG_DEBUG &&
	       log_level_parse("loud") == -1, "level names parse");
	tap_ok(!strcmp(log_level_name(LOG_NOTICE), "notice") &&
	       !strcmp(log_level_name(99), "?"), "level names print");
	return tap_done();
}
