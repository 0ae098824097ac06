/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * units.h - numbers and sizes as operators write them, shared by rdmad's
 * configuration, rdma-probe's and rdmadctl's command lines (pure).
 */
#ifndef RDMAD_UNITS_H
#define RDMAD_UNITS_H

#include <stdint.h>

/*
 * "4096", "64k", "1M", "1g" (powers of 1024, suffix in either case) ->
 * *val.  0, -EINVAL (not a size) or -ERANGE (above max).
 */
int units_parse_size(const char *s, uint64_t max, uint64_t *val);

/*
 * A whole decimal number, MIN to MAX, nothing before or after it.  0,
 * -EINVAL (not a number) or -ERANGE (out of MIN..MAX).
 */
int units_parse_uint(const char *s, unsigned int min, unsigned int max,
		     unsigned int *out);

/*
 * The same, in decimal or in hexadecimal after "0x" ("0x68", "104"): a
 * code such as an IP TOS byte.
 */
int units_parse_xuint(const char *s, unsigned int min, unsigned int max,
		      unsigned int *out);

#endif /* RDMAD_UNITS_H */
