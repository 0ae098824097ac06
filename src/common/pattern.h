/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pattern.h - deterministic data patterns for verified transfers.
 *
 * pattern_fill() writes len bytes derived from (seed, iter) so that both
 * ends can generate the same bytes independently; pattern_check() returns
 * the offset of the first byte that differs, or -1 when all match.
 */
#ifndef RDMAD_PATTERN_H
#define RDMAD_PATTERN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

void pattern_fill(void *buf, size_t len, uint64_t seed, uint32_t iter);
ssize_t pattern_check(const void *buf, size_t len, uint64_t seed,
		      uint32_t iter);

#endif /* RDMAD_PATTERN_H */
