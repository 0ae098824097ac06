/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * value_parse.c - values with limits and reasons (see value_parse.h);
 * the grammars themselves are units.c's.
 */
#include "value_parse.h"

#include <errno.h>
#include <stdio.h>

#include "units.h"

/* What each kind is, as the reason for a value that is none says it. */
static const char *const value_what[] = {
	[VALUE_COUNT] = "a number",
	[VALUE_CODE] = "a number (decimal, or hex after 0x)",
	[VALUE_SIZE] = "a size (bytes, or with suffix k, m, g)",
	[VALUE_DURATION] = ("a duration (seconds, or with unit ms, s, m, h; "
			    "fractions allowed: 1.5s)"),
	[VALUE_PERCENT] = "a whole percent",
	[VALUE_PPM] = "a percent (up to 3 decimals, as 0.5%)",
};

/* Units from the largest down: a value is written in the largest one
 * that divides it. */
static const struct value_unit {
	uint64_t n;
	const char *name;
} value_sizes[] = {
	{ 1ull << 30, "g" }, { 1ull << 20, "m" }, { 1ull << 10, "k" },
	{ 1, "" },
}, value_times[] = {
	{ 3600000, "h" }, { 60000, "m" }, { 1000, "s" }, { 1, "ms" },
};

static void value_in_units(const struct value_unit *u, uint64_t v,
			   char *buf, size_t len)
{
	while (v && v % u->n)
		u++;
	snprintf(buf, len, "%llu%s", (unsigned long long)(v / u->n),
		 v ? u->name : "");
}

void value_format(enum value_kind kind, uint64_t v, char *buf, size_t len)
{
	char frac[8];
	int n;

	switch (kind) {
	case VALUE_SIZE:
		value_in_units(value_sizes, v, buf, len);
		return;
	case VALUE_DURATION:
		value_in_units(value_times, v, buf, len);
		return;
	case VALUE_PERCENT:
		snprintf(buf, len, "%llu%%", (unsigned long long)v);
		return;
	case VALUE_PPM:		/* 5000 -> "0.5%": 3 decimals, no 0 at the end */
		n = snprintf(frac, sizeof(frac), ".%03u",
			     (unsigned int)(v % 10000 / 10));
		while (n > 0 && (frac[n - 1] == '0' || frac[n - 1] == '.'))
			frac[--n] = '\0';
		snprintf(buf, len, "%llu%s%%", (unsigned long long)(v / 10000),
			 frac);
		return;
	case VALUE_COUNT:
	case VALUE_CODE:
		break;
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
}

void value_range(const struct value_spec *spec, char *buf, size_t len)
{
	char lo[32], hi[32];

	value_format(spec->kind, spec->min, lo, sizeof(lo));
	value_format(spec->kind, spec->max, hi, sizeof(hi));
	snprintf(buf, len, "%s%s..%s", spec->off ? "0 (off) or " : "", lo, hi);
}

/* S in the kind's unit, not yet against the limits. */
static int value_read(enum value_kind kind, const char *s, uint64_t *v)
{
	int ret;

	switch (kind) {
	case VALUE_COUNT:
		return units_parse_u64(s, 0, 0, UINT64_MAX, v);
	case VALUE_CODE:
		return units_parse_u64(s, 1, 0, UINT64_MAX, v);
	case VALUE_SIZE:
		return units_parse_size(s, UINT64_MAX, v);
	case VALUE_DURATION:
		return units_parse_duration_ms(s, UINT64_MAX, v);
	case VALUE_PERCENT:
		return units_parse_percent(s, 0, v);
	case VALUE_PPM:
		ret = units_parse_percent(s, 3, v);
		*v *= 10;
		return ret;
	}
	return -EINVAL;
}

int value_parse(const struct value_spec *spec, const char *s, uint64_t *out,
		char *why, size_t whylen)
{
	char range[80];
	uint64_t v = 0;
	int ret;

	ret = value_read(spec->kind, s, &v);
	if (!ret && (v < spec->min || v > spec->max) && !(spec->off && !v))
		ret = -ERANGE;
	if (ret == -ERANGE) {
		value_range(spec, range, sizeof(range));
		snprintf(why, whylen, "%.64s is out of range %s", s, range);
	} else if (ret) {
		snprintf(why, whylen, "'%.64s' is not %s", s ? s : "",
			 value_what[spec->kind]);
	} else {
		*out = v;
	}
	return ret;
}
