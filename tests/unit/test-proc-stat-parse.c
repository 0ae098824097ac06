/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-proc-stat-parse.c - proc_stat_parse.c: /proc/PID/stat lines (a comm with
 * spaces and ')', negative fields, truncated or garbled lines).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/proc_stat_parse.h"
#include "tap.h"

/* A line of the kernel's shape: comm COMM, then fields 3 .. 52. */
static void line(char *buf, size_t len, const char *comm)
{
	snprintf(buf, len, "4242 (%s) S 1 4242 4242 0 -1 4194560 1500 0 0 0 "
		 "123 45 0 0 20 0 1 0 98765 123456789 2048 "
		 "18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 "
		 "0 0 0 0 0 0 0 0 0 0 0\n", comm);
}

static int fields_ok(const struct proc_stat *s)
{
	return s->utime == 123 && s->stime == 45 && s->starttime == 98765 &&
	       s->vsize == 123456789 && s->rss == 2048;
}

int main(void)
{
	static const char *const comms[] = {
		"rdmad", "rd mad", "a) (b", "x)", ") ", "((", "",
	};
	static const char *const bad[] = {
		"", "4242", "4242 (rdmad", "4242 rdmad) S 1",
		"4242 (rdmad) S 1 2 3",
		"4242 (rdmad) S 1 4242 4242 0 -1 4194560 1500 0 0 0 x 45 0 0 "
		"20 0 1 0 98765 123456789 2048\n",
		"4242 (rdmad)  S 1 4242 4242 0 -1 4194560 1500 0 0 0 123 45 0 "
		"0 20 0 1 0 98765 123456789 2048\n",
		"4242 (rdmad) S 1 4242 4242 0 -1 4194560 1500 0 0 0 -123 45 "
		"0 0 20 0 1 0 98765 123456789 2048\n",
		"4242 (rdmad) S 1 4242 4242 0 -1 4194560 1500 0 0 0 123 45 0 "
		"0 20 0 1 0 98765 123456789 99999999999999999999999\n",
	};
	char buf[512];
	struct proc_stat s;
	size_t i;

	tap_plan((int)(sizeof(comms) / sizeof(comms[0]) +
		       sizeof(bad) / sizeof(bad[0])) + 1);
	for (i = 0; i < sizeof(comms) / sizeof(comms[0]); i++) {
		line(buf, sizeof(buf), comms[i]);
		tap_ok(!proc_stat_parse(buf, &s) && fields_ok(&s),
		       "comm \"%s\": utime, stime, starttime, vsize, rss",
		       comms[i]);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_ok(proc_stat_parse(bad[i], &s) == -EINVAL,
		       "malformed line %zu refused", i);
	tap_ok(!proc_stat_parse("1 (init) S 0 1 1 0 -1 4194560 1 0 0 0 7 8 "
				"0 0 20 0 1 0 9 10 11", &s) &&
	       s.utime == 7 && s.stime == 8 && s.starttime == 9 &&
	       s.vsize == 10 && s.rss == 11,
	       "a line ending at field 24, no newline");
	return tap_done();
}
