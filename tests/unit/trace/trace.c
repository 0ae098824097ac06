/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * trace.c - the calls of a program whose files are compiled with gcc's
 * -finstrument-functions, recorded in order: every entry and exit of an
 * instrumented function, on the main thread.  Linked into a traced test
 * binary (tests/unit/trace/meson.build); tests/unit/check-round-path
 * reads what it writes and names the functions and their files from the
 * binary's debug information.
 *
 * With RDMAD_TRACE=FILE in the environment, FILE gets at exit one line
 * "base ADDR" (where the binary is loaded: the addresses below are
 * relative to it), then a line a call: "> ADDR" (entered) and "< ADDR"
 * (left), ADDR the function's.  Without it nothing is recorded.
 * trace_mark(NAME) writes "= NAME" in between, for the test to say
 * where it is; trace_watch() counts a function's entries, so that a
 * test can wait for them without calling anything traced.  This file itself is
 * not instrumented.
 */
#include "trace.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_MAX	(4u << 20)	/* events kept; past it, counted */

struct trace_ev {
	uintptr_t fn;		/* 0: a mark, name in marks[] */
	uint32_t kind;		/* '>', '<', '=' */
	uint32_t mark;
};

static struct trace_ev *evs;
static unsigned int nevs, lost;
static const char *marks[64];
static unsigned int nmarks;
static pthread_t main_thread;
static const char *out;
static uintptr_t watch_fn;
static unsigned long watch_n;

#define NOTRACE __attribute__((no_instrument_function))

NOTRACE static void trace_add(uint32_t kind, uintptr_t fn, uint32_t mark)
{
	if (!pthread_equal(pthread_self(), main_thread))
		return;
	if (kind == '>' && fn == watch_fn)
		watch_n++;
	if (!evs)
		return;
	if (nevs == TRACE_MAX) {
		lost++;
		return;
	}
	evs[nevs].kind = kind;
	evs[nevs].fn = fn;
	evs[nevs].mark = mark;
	nevs++;
}

NOTRACE void __cyg_profile_func_enter(void *fn, void *site);
NOTRACE void __cyg_profile_func_exit(void *fn, void *site);

void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)site;
	trace_add('>', (uintptr_t)fn, 0);
}

void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)site;
	trace_add('<', (uintptr_t)fn, 0);
}

NOTRACE void trace_mark(const char *name)
{
	if (nmarks < sizeof(marks) / sizeof(marks[0])) {
		marks[nmarks] = name;
		trace_add('=', 0, nmarks++);
	}
}

NOTRACE void trace_watch(uintptr_t fn)
{
	watch_fn = fn;
	watch_n = 0;
}

NOTRACE unsigned long trace_watched(void)
{
	return watch_n;
}

NOTRACE static void trace_write(void)
{
	Dl_info info;
	FILE *f;
	unsigned int i;

	if (!evs)
		return;
	f = fopen(out, "w");
	if (!f) {
		perror(out);
		return;
	}
	memset(&info, 0, sizeof(info));
	if (!dladdr(&nevs, &info))
		info.dli_fbase = NULL;
	fprintf(f, "base %#lx\n", (unsigned long)(uintptr_t)info.dli_fbase);
	for (i = 0; i < nevs; i++) {
		if (evs[i].kind == '=')
			fprintf(f, "= %s\n", marks[evs[i].mark]);
		else
			fprintf(f, "%c %#lx\n", (int)evs[i].kind,
				(unsigned long)(evs[i].fn -
						(uintptr_t)info.dli_fbase));
	}
	if (lost)
		fprintf(f, "lost %u\n", lost);
	if (fclose(f))
		perror(out);
	free(evs);
	evs = NULL;
}

NOTRACE __attribute__((constructor)) static void trace_init(void)
{
	main_thread = pthread_self();
	out = getenv("RDMAD_TRACE");
	if (!out || !*out)
		return;
	evs = calloc(TRACE_MAX, sizeof(*evs));
	if (evs)
		atexit(trace_write);
}
