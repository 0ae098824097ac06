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
 * A whole number, MIN to MAX, nothing before or after it: decimal, or
 * with HEX also hexadecimal after "0x" (a leading 0 is not octal).  0,
 * -EINVAL (not a number) or -ERANGE (out of MIN..MAX).
 */
int units_parse_u64(const char *s, int hex, uint64_t min, uint64_t max,
		    uint64_t *out);

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

/*
 * An IP TOS byte (DSCP << 2 | ECN): 0 to 255, decimal or 0x hex ("104",
 * "0x68"); a leading 0 is not octal.  0, -EINVAL or -ERANGE.
 */
int units_parse_tos(const char *s, int *tos);

/*
 * A duration: a decimal number, a fraction allowed ("1.5"), then a unit:
 * ms, s, m (or min), h; no unit: seconds.  In whole milliseconds, a
 * fraction of one rounded up ("0.0001" is 1 ms).  A digit comes first
 * and after a '.'.  0, -EINVAL (not a duration) or -ERANGE (above MAX ms).
 */
int units_parse_duration_ms(const char *s, uint64_t max, uint64_t *ms);

/*
 * A percent with up to DECIMALS decimals, '%' optional ("10%", "0.5"),
 * at most 100%, in units of 1/10^DECIMALS percent: "0.5%" with 3
 * decimals is 500.  0, -EINVAL (more decimals, not a percent) or -ERANGE.
 */
int units_parse_percent(const char *s, unsigned int decimals, uint64_t *out);

#endif /* RDMAD_UNITS_H */
