/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * units.c - numbers and sizes as operators write them (see units.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

int units_parse_u64(const char *s, int hex, uint64_t min, uint64_t max,
		    uint64_t *out)
{
	unsigned long long v;
	int base = 10;
	char *end;

	if (s && hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
		if (!isxdigit((unsigned char)*s))
			return -EINVAL;
	} else if (!s || !isdigit((unsigned char)*s)) {
		return -EINVAL;
	}
	errno = 0;
	v = strtoull(s, &end, base);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* units_parse_u64() into an unsigned int. */
static int units_parse_u32(const char *s, int hex, unsigned int min,
			   unsigned int max, unsigned int *out)
{
	uint64_t v;
	int ret = units_parse_u64(s, hex, min, max, &v);

	if (!ret)
		*out = (unsigned int)v;
	return ret;
}

int units_parse_uint(const char *s, unsigned int min, unsigned int max,
		     unsigned int *out)
{
	return units_parse_u32(s, 0, min, max, out);
}

int units_parse_xuint(const char *s, unsigned int min, unsigned int max,
		      unsigned int *out)
{
	return units_parse_u32(s, 1, min, max, out);
}

int units_parse_tos(const char *s, int *tos)
{
	unsigned int v;
	int ret = units_parse_xuint(s, 0, 255, &v);

	if (ret)
		return ret;
	*tos = (int)v;
	return 0;
}

/*
 * "12", "12.5": WHOLE, up to MAXDIG digits after the point in FRAC (their
 * count in *DIGITS); *END after the number.  0, -EINVAL or -ERANGE.
 */
static int units_decimal(const char *s, unsigned int maxdig,
			 unsigned long long *whole, uint64_t *frac,
			 unsigned int *digits, const char **end)
{
	char *e;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*whole = strtoull(s, &e, 10);
	if (errno == ERANGE)
		return -ERANGE;
	*frac = 0;
	*digits = 0;
	if (*e == '.') {
		e++;
		if (!isdigit((unsigned char)*e))
			return -EINVAL;
		for (; isdigit((unsigned char)*e); e++) {
			if (++*digits > maxdig)
				return -EINVAL;
			*frac = *frac * 10 + (uint64_t)(*e - '0');
		}
	}
	*end = e;
	return 0;
}

static const struct {
	const char *name;
	uint64_t ms;
} units_time[] = {
	{ "", 1000 }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 },
	{ "min", 60000 }, { "h", 3600000 },
};

int units_parse_duration_ms(const char *s, uint64_t max, uint64_t *ms)
{
	unsigned long long whole;
	uint64_t frac, unit = 0, pow = 1, v;
	unsigned int digits, i;
	const char *end;
	int ret;

	ret = units_decimal(s, 9, &whole, &frac, &digits, &end);
	if (ret)
		return ret;
	for (i = 0; i < sizeof(units_time) / sizeof(units_time[0]); i++)
		if (!strcmp(end, units_time[i].name))
			unit = units_time[i].ms;
	if (!unit)
		return -EINVAL;
	for (i = 0; i < digits; i++)
		pow *= 10;
	if (whole > max / unit)
		return -ERANGE;
	v = whole * unit + (frac * unit + pow - 1) / pow;
	if (v > max)
		return -ERANGE;
	*ms = v;
	return 0;
}

int units_parse_percent(const char *s, unsigned int decimals, uint64_t *out)
{
	unsigned long long whole;
	uint64_t frac, pow = 1;
	unsigned int digits, i;
	const char *end;
	int ret;

	ret = units_decimal(s, decimals, &whole, &frac, &digits, &end);
	if (ret)
		return ret;
	if (*end == '%')
		end++;
	if (*end)
		return -EINVAL;
	for (i = digits; i < decimals; i++)
		frac *= 10;
	for (i = 0; i < decimals; i++)
		pow *= 10;
	if (whole > 100 || (whole == 100 && frac))
		return -ERANGE;
	*out = whole * pow + frac;
	return 0;
}
