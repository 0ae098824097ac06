/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * units.h - sizes as operators write them, shared by rdmad's configuration
 * and rdma-probe's command line (pure).
 */
#ifndef RDMAD_UNITS_H
#define RDMAD_UNITS_H

#include <stdint.h>

/*
 * "4096", "64k", "1M", "1g" (powers of 1024, suffix in either case) ->
 * *val.  0, -EINVAL (not a size) or -ERANGE (above max).
 */
int units_parse_size(const char *s, uint64_t max, uint64_t *val);

#endif /* RDMAD_UNITS_H */
