/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-value-parse.c - src/common/value_parse.c and the grammars of
 * units.c under it: each kind at its boundaries (min - 1, min, 1,
 * max - 1, max, max + 1), the words it refuses, and the reasons.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "units.h"
#include "value_parse.h"

struct vcase {
	const char *s;
	int ret;		/* 0, -EINVAL or -ERANGE */
	uint64_t want;		/* when 0 */
};

#define SPEC(k, lo, hi)		{ (k), (lo), (hi), false }
#define OFF_SPEC(k, lo, hi)	{ (k), (lo), (hi), true }

static void run(const char *what, const struct value_spec *spec,
		const struct vcase *c, size_t n)
{
	char why[VALUE_WHY_MAX];
	uint64_t v;
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		v = UINT64_MAX;
		why[0] = '\0';
		ret = value_parse(spec, c[i].s, &v, why, sizeof(why));
		if (!tap_ok(ret == c[i].ret && (ret || v == c[i].want) &&
			    (!ret) == !why[0],
			    "%s '%s': %s", what, c[i].s,
			    !c[i].ret ? "taken" : c[i].ret == -ERANGE ?
			    "out of range" : "refused"))
			tap_diag("ret %d, value %llu, why '%s'", ret,
				 (unsigned long long)v, why);
	}
}

#define RUN(what, spec, ...) do {					\
	static const struct value_spec s_ = spec;			\
	static const struct vcase c_[] = { __VA_ARGS__ };		\
	run(what, &s_, c_, sizeof(c_) / sizeof(c_[0]));			\
} while (0)

static void test_count(void)
{
	RUN("count 1..65535", SPEC(VALUE_COUNT, 1, 65535),
	    { "0", -ERANGE, 0 }, { "1", 0, 1 }, { "2", 0, 2 },
	    { "65534", 0, 65534 }, { "65535", 0, 65535 },
	    { "65536", -ERANGE, 0 }, { "00080", 0, 80 },
	    { "-1", -EINVAL, 0 }, { " 5", -EINVAL, 0 }, { "5 ", -EINVAL, 0 },
	    { "", -EINVAL, 0 }, { "0x10", -EINVAL, 0 }, { "1k", -EINVAL, 0 },
	    { "99999999999999999999999", -ERANGE, 0 });
	RUN("count 0..2^64-1", SPEC(VALUE_COUNT, 0, UINT64_MAX),
	    { "0", 0, 0 }, { "18446744073709551614", 0, UINT64_MAX - 1 },
	    { "18446744073709551615", 0, UINT64_MAX },
	    { "18446744073709551616", -ERANGE, 0 });
}

static void test_code(void)
{
	RUN("code 0..255", SPEC(VALUE_CODE, 0, 255),
	    { "0", 0, 0 }, { "1", 0, 1 }, { "254", 0, 254 },
	    { "255", 0, 255 }, { "256", -ERANGE, 0 }, { "0x0", 0, 0 },
	    { "0x1", 0, 1 }, { "0xfe", 0, 254 }, { "0XfF", 0, 255 },
	    { "0x100", -ERANGE, 0 }, { "010", 0, 10 }, { "0x", -EINVAL, 0 },
	    { "ef", -EINVAL, 0 }, { "-1", -EINVAL, 0 }, { "1e1", -EINVAL, 0 },
	    { "0x-1", -EINVAL, 0 });
}

static void test_size(void)
{
	RUN("size 1..1g", SPEC(VALUE_SIZE, 1, 1u << 30),
	    { "0", -ERANGE, 0 }, { "1", 0, 1 }, { "1k", 0, 1024 },
	    { "4K", 0, 4096 }, { "1073741823", 0, (1u << 30) - 1 },
	    { "1023m", 0, 1023u << 20 }, { "1g", 0, 1u << 30 },
	    { "1G", 0, 1u << 30 }, { "1073741824", 0, 1u << 30 },
	    { "1073741825", -ERANGE, 0 }, { "1025m", -ERANGE, 0 },
	    { "2g", -ERANGE, 0 }, { "k", -EINVAL, 0 }, { "1kk", -EINVAL, 0 },
	    { "4kb", -EINVAL, 0 }, { "1.5k", -EINVAL, 0 }, { "", -EINVAL, 0 },
	    { "18014398509481984k", -ERANGE, 0 });
	RUN("size 64k..1024g", SPEC(VALUE_SIZE, 64u << 10, 1ull << 40),
	    { "65535", -ERANGE, 0 }, { "64k", 0, 65536 },
	    { "1099511627775", 0, (1ull << 40) - 1 },
	    { "1024g", 0, 1ull << 40 }, { "1099511627777", -ERANGE, 0 },
	    { "1025g", -ERANGE, 0 });
}

static void test_duration(void)
{
	RUN("duration 1ms..1h", SPEC(VALUE_DURATION, 1, 3600000),
	    { "0", -ERANGE, 0 }, { "0ms", -ERANGE, 0 }, { "1ms", 0, 1 },
	    { "0.001", 0, 1 }, { "0.0001", 0, 1 }, { "2ms", 0, 2 },
	    { "1.5ms", 0, 2 }, { "0.25", 0, 250 }, { "7", 0, 7000 },
	    { "1.5s", 0, 1500 }, { "1.5m", 0, 90000 }, { "2min", 0, 120000 },
	    { "3599999ms", 0, 3599999 }, { "3599.999", 0, 3599999 },
	    { "3600", 0, 3600000 }, { "60m", 0, 3600000 },
	    { "1h", 0, 3600000 }, { "3600000ms", 0, 3600000 },
	    { "3600001ms", -ERANGE, 0 }, { "3600.0001", -ERANGE, 0 },
	    { "2h", -ERANGE, 0 }, { "99999999999999999999h", -ERANGE, 0 },
	    { "18446744073709551615h", -ERANGE, 0 },
	    { "soon", -EINVAL, 0 }, { ".5", -EINVAL, 0 }, { "1.", -EINVAL, 0 },
	    { "1.s", -EINVAL, 0 }, { "5 s", -EINVAL, 0 }, { "5S", -EINVAL, 0 },
	    { "1e3", -EINVAL, 0 }, { "nan", -EINVAL, 0 }, { "inf", -EINVAL, 0 },
	    { "-1", -EINVAL, 0 }, { "1d", -EINVAL, 0 }, { "", -EINVAL, 0 },
	    { "0.1234567891", -EINVAL, 0 }, { "0.123456789", 0, 124 });
	RUN("duration 0 (off) or 1s..24h",
	    OFF_SPEC(VALUE_DURATION, 1000, 86400000),
	    { "0", 0, 0 }, { "0s", 0, 0 }, { "1ms", -ERANGE, 0 },
	    { "999ms", -ERANGE, 0 }, { "1s", 0, 1000 }, { "1001ms", 0, 1001 },
	    { "86399999ms", 0, 86399999 }, { "24h", 0, 86400000 },
	    { "86400001ms", -ERANGE, 0 }, { "25h", -ERANGE, 0 });
}

static void test_percent(void)
{
	RUN("percent 0..50", SPEC(VALUE_PERCENT, 0, 50),
	    { "0", 0, 0 }, { "1", 0, 1 }, { "1%", 0, 1 }, { "49", 0, 49 },
	    { "50%", 0, 50 }, { "51", -ERANGE, 0 }, { "100%", -ERANGE, 0 },
	    { "101%", -ERANGE, 0 }, { "5.5%", -EINVAL, 0 }, { "%", -EINVAL, 0 },
	    { "1%%", -EINVAL, 0 }, { "-1", -EINVAL, 0 });
	RUN("ppm 0.001%..50%", SPEC(VALUE_PPM, 10, 500000),
	    { "0%", -ERANGE, 0 }, { "0.001%", 0, 10 }, { "0.001", 0, 10 },
	    { "0.002%", 0, 20 }, { "0.5", 0, 5000 }, { "1%", 0, 10000 },
	    { "12.345%", 0, 123450 }, { "49.999%", 0, 499990 },
	    { "50%", 0, 500000 }, { "50.001%", -ERANGE, 0 },
	    { "100%", -ERANGE, 0 }, { "100.001%", -ERANGE, 0 },
	    { "0.0001%", -EINVAL, 0 }, { ".5", -EINVAL, 0 },
	    { "1.%", -EINVAL, 0 }, { "%", -EINVAL, 0 }, { "1%%", -EINVAL, 0 });
	RUN("ppm 0..100%", SPEC(VALUE_PPM, 0, 1000000),
	    { "0", 0, 0 }, { "99.999", 0, 999990 }, { "100%", 0, 1000000 },
	    { "100.001", -ERANGE, 0 }, { "101", -ERANGE, 0 });
}

/* The reason, word for word: the INI file and rdma-probe print it. */
static void test_reasons(void)
{
	static const struct {
		struct value_spec spec;
		const char *s, *why;
	} c[] = {
		{ SPEC(VALUE_COUNT, 1, 65535), "0",
		  "0 is out of range 1..65535" },
		{ SPEC(VALUE_COUNT, 1, 65535), "80x", "'80x' is not a number" },
		{ SPEC(VALUE_CODE, 0, 255), "0x", "'0x' is not a number "
		  "(decimal, or hex after 0x)" },
		{ SPEC(VALUE_SIZE, 1, 1u << 30), "2g", "2g is out of range "
		  "1..1g" },
		{ SPEC(VALUE_SIZE, 1, 1u << 30), "4kb", "'4kb' is not a size "
		  "(bytes, or with suffix k, m, g)" },
		{ SPEC(VALUE_DURATION, 1, 3600000), "soon", "'soon' is not a "
		  "duration (seconds, or with unit ms, s, m, h; fractions "
		  "allowed: 1.5s)" },
		{ SPEC(VALUE_DURATION, 10, 86400000), "5ms", "5ms is out of "
		  "range 10ms..24h" },
		{ { VALUE_DURATION, 1000, 86400000, true }, "500ms",
		  "500ms is out of range 0 (off) or 1s..24h" },
		{ SPEC(VALUE_DURATION, 100, 60000), "61s", "61s is out of "
		  "range 100ms..1m" },
		{ SPEC(VALUE_PERCENT, 0, 50), "51%", "51% is out of range "
		  "0%..50%" },
		{ SPEC(VALUE_PERCENT, 0, 50), "5.5", "'5.5' is not a whole "
		  "percent" },
		{ SPEC(VALUE_PPM, 10, 500000), "51%", "51% is out of range "
		  "0.001%..50%" },
		{ SPEC(VALUE_PPM, 10, 500000), "0.0001%", "'0.0001%' is not "
		  "a percent (up to 3 decimals, as 0.5%)" },
		{ SPEC(VALUE_COUNT, 1, 9), "12345678901234567890123456789012"
		  "34567890123456789012345678901234567890x", "'1234567890123"
		  "456789012345678901234567890123456789012345678901234' is "
		  "not a number" },	/* the value cut at 64 */
	};
	char why[VALUE_WHY_MAX];
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		why[0] = '\0';
		value_parse(&c[i].spec, c[i].s, &v, why, sizeof(why));
		if (!tap_ok(!strcmp(why, c[i].why), "reason for '%.20s'",
			    c[i].s))
			tap_diag("got '%s', want '%s'", why, c[i].why);
	}
}

static void test_format(void)
{
	static const struct {
		enum value_kind kind;
		uint64_t v;
		const char *text;
	} c[] = {
		{ VALUE_SIZE, 0, "0" }, { VALUE_SIZE, 1100, "1100" },
		{ VALUE_SIZE, 65536, "64k" }, { VALUE_SIZE, 3u << 20, "3m" },
		{ VALUE_SIZE, 1ull << 40, "1024g" },
		{ VALUE_DURATION, 0, "0" }, { VALUE_DURATION, 1500, "1500ms" },
		{ VALUE_DURATION, 90000, "90s" },
		{ VALUE_DURATION, 120000, "2m" },
		{ VALUE_DURATION, 86400000, "24h" },
		{ VALUE_PERCENT, 50, "50%" }, { VALUE_PPM, 10, "0.001%" },
		{ VALUE_PPM, 5000, "0.5%" }, { VALUE_PPM, 123450, "12.345%" },
		{ VALUE_PPM, 1000000, "100%" }, { VALUE_COUNT, 7, "7" },
		{ VALUE_CODE, 255, "255" },
	};
	char buf[32];
	uint64_t back;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct value_spec s = { c[i].kind, 0, UINT64_MAX, false };
		char why[VALUE_WHY_MAX];

		value_format(c[i].kind, c[i].v, buf, sizeof(buf));
		tap_ok(!strcmp(buf, c[i].text) &&
		       !value_parse(&s, buf, &back, why, sizeof(why)) &&
		       back == c[i].v, "format %llu -> '%s' and back",
		       (unsigned long long)c[i].v, buf);
	}
}

int main(void)
{
	test_count();
	test_code();
	test_size();
	test_duration();
	test_percent();
	test_reasons();
	test_format();
	return tap_done();
}
