/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-proc-sched-parse.c - proc_sched_parse.c: /proc/pressure/cpu (real
 * samples of kernels with and without the "full" line, garbled, missing
 * fields, huge totals) and /proc/PID/schedstat.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/proc_sched_parse.h"
#include "tap.h"

#define N(a)	(sizeof(a) / sizeof((a)[0]))

int main(void)
{
	static const struct { const char *text; uint64_t total; } psi[] = {
		/* Debian 6.1 (a 2-core host under load) */
		{ "some avg10=0.20 avg60=1.46 avg300=25.09 total=45984306741\n"
		  "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
		  45984306741ull },
		/* before 5.13: no "full" line for cpu */
		{ "some avg10=12.50 avg60=3.00 avg300=0.71 total=1234\n", 1234 },
		/* the "full" line first, no final newline */
		{ "full avg10=0.00 avg60=0.00 avg300=0.00 total=77\n"
		  "some avg10=0.00 avg60=0.00 avg300=0.00 total=0", 0 },
		{ "some avg10=0.00 avg60=0.00 avg300=0.00 "
		  "total=18446744073709551615\n", UINT64_MAX },
	};
	static const char *const psi_bad[] = {
		"",
		"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00\n"
		"full avg10=0.00 avg60=0.00 avg300=0.00 total=5\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=-5\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=12x\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 "
		"total=18446744073709551616\n",
		"somewhere total=5\n",
	};
	static const struct { const char *text; uint64_t delay; } ss[] = {
		{ "2158744121 329355 1412\n", 329355 },
		{ "0 0 0\n", 0 },
		{ "1 18446744073709551615 3", UINT64_MAX },
	};
	static const char *const ss_bad[] = {
		"", "\n", "1 2\n", "1 2 3 4\n", "1  2 3\n", "1 -2 3\n",
		"1 x 3\n", "1 18446744073709551616 3\n", " 1 2 3\n",
	};
	uint64_t v;
	size_t i;

	tap_plan((int)(N(psi) + N(psi_bad) + N(ss) + N(ss_bad)));
	for (i = 0; i < N(psi); i++) {
		v = 42;
		tap_ok(!proc_psi_parse_some(psi[i].text, &v) &&
		       v == psi[i].total, "psi sample %zu: some total %llu",
		       i, (unsigned long long)psi[i].total);
	}
	for (i = 0; i < N(psi_bad); i++)
		tap_ok(proc_psi_parse_some(psi_bad[i], &v) == -EINVAL,
		       "psi bad %zu refused", i);
	for (i = 0; i < N(ss); i++) {
		v = 42;
		tap_ok(!proc_schedstat_parse(ss[i].text, &v) &&
		       v == ss[i].delay, "schedstat %zu: run delay %llu", i,
		       (unsigned long long)ss[i].delay);
	}
	for (i = 0; i < N(ss_bad); i++)
		tap_ok(proc_schedstat_parse(ss_bad[i], &v) == -EINVAL,
		       "schedstat bad \"%s\" refused", ss_bad[i]);
	return tap_done();
}
