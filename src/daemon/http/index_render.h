/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * index_render.h - the page at / of rdmad's HTTP endpoint: rdmad, its
 * version, and a link to each path it serves with a line saying what it
 * is (pure; the paths come from http.c's route table).
 */
#ifndef RDMAD_INDEX_RENDER_H
#define RDMAD_INDEX_RENDER_H

#include <stdio.h>

/* A path and its line (HTML: '&' as "&amp;"). */
struct index_entry {
	const char *path;
	const char *what;
};

/* The page (HTML that is also well-formed XML) of VERSION and the N
 * ENTRIES to F; 0, or -EIO when F reports an error. */
int index_render(FILE *f, const char *version,
		 const struct index_entry *entries, unsigned int n);

#endif /* RDMAD_INDEX_RENDER_H */
