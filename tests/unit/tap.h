/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tap.h - minimal TAP producer for the unit tests.
 *
 *   int main(void) { tap_plan(2); tap_ok(1 + 1 == 2, "sum"); ...
 *                    return tap_done(); }
 *
 * tap_ok() prints "ok N - name" or "not ok N - name" and returns its
 * condition; tap_diag() prints a "# ..." line.  tap_done() returns the
 * process exit status: 0 only if every case passed and the number of
 * cases run matches the plan.
 */
#ifndef RDMAD_TAP_H
#define RDMAD_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_planned = -1;
static int tap_run;
static int tap_failed;

static inline void tap_plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

__attribute__((format(printf, 2, 3)))
static inline int tap_ok(int cond, const char *fmt, ...)
{
	char name[1024], *p;
	va_list ap;

	tap_run++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_run);
	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	/* a name is one TAP line: a newline in it (a case's input) as \n */
	for (p = name; *p; p++) {
		if (*p == '\n')
			fputs("\\n", stdout);
		else
			putchar(*p);
	}
	putchar('\n');
	fflush(stdout);
	return cond;
}

__attribute__((format(printf, 1, 2)))
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline int tap_done(void)
{
	if (tap_planned < 0) {
		printf("1..%d\n", tap_run);
		tap_planned = tap_run;
	}
	if (tap_run != tap_planned) {
		tap_diag("planned %d cases, ran %d", tap_planned, tap_run);
		return 1;
	}
	return tap_failed ? 1 : 0;
}

#endif /* RDMAD_TAP_H */
