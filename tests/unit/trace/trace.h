/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * trace.h - the call recorder of a traced test binary (trace.c): its
 * files built with -finstrument-functions, RDMAD_TRACE=FILE names where
 * the calls go at exit.
 */
#ifndef RDMAD_TRACE_H
#define RDMAD_TRACE_H

#include <stdint.h>

/* "= NAME" in the record: where the test is (NAME: a static string). */
__attribute__((no_instrument_function))
void trace_mark(const char *name);

/* Count the entries of the function at FN ((uintptr_t)&name) from now
 * on, recorded or not; how many so far. */
__attribute__((no_instrument_function))
void trace_watch(uintptr_t fn);
__attribute__((no_instrument_function))
unsigned long trace_watched(void);

#endif /* RDMAD_TRACE_H */
