/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * units.c - sizes as operators write them (see units.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "units.h"

int units_parse_size(const char *s, uint64_t max, uint64_t *val)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	switch (tolower((unsigned char)*end)) {
	case '\0':
		break;
	case 'k':
		mult = 1ull << 10;
		end++;
		break;
	case 'm':
		mult = 1ull << 20;
		end++;
		break;
	case 'g':
		mult = 1ull << 30;
		end++;
		break;
	default:
		return -EINVAL;
	}
	if (*end)
		return -EINVAL;
	if (v > UINT64_MAX / mult || v * mult > max)
		return -ERANGE;
	*val = v * mult;
	return 0;
}

int units_parse_uint(const char *s, unsigned int min, unsigned int max,
		     unsigned int *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = (unsigned int)v;
	return 0;
}

int units_parse_xuint(const char *s, unsigned int min, unsigned int max,
		      unsigned int *out)
{
	unsigned long long v;
	char *end;

	if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return units_parse_uint(s, min, max, out);
	if (!isxdigit((unsigned char)s[2]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s + 2, &end, 16);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = (unsigned int)v;
	return 0;
}
