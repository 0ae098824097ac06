/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * value_parse.h - one value as an operator writes it, checked against
 * its limits, with the reason when it is refused (pure).  rdmad's INI
 * keys and rdma-probe's options use the same parser and the same text:
 * the caller puts where (FILE:LINE, or the program) and what (the key,
 * or the option) before it:
 *
 *     rdmad.ini:12: interval: 5ms is out of range 10ms..1h
 *     rdma-probe: --timeout: 'soon' is not a duration (...)
 */
#ifndef RDMAD_VALUE_PARSE_H
#define RDMAD_VALUE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum value_kind {
	VALUE_COUNT,	/* a whole decimal number */
	VALUE_CODE,	/* decimal, or hex after 0x: a TOS byte, a seed */
	VALUE_SIZE,	/* bytes; suffix k, m, g (KiB, MiB, GiB) */
	VALUE_DURATION,	/* ms; written with unit ms, s, m, h (none: s) */
	VALUE_PERCENT,	/* a whole percent, '%' optional */
	VALUE_PPM,	/* a percent with up to 3 decimals, kept in ppm */
};

/* What a value may be: MIN..MAX in the kind's unit, or 0 when OFF. */
struct value_spec {
	enum value_kind kind;
	uint64_t min, max;
	bool off;		/* 0 allowed besides MIN..MAX: "off" */
};

/* Room for any reason value_parse() gives (the value cut at 64). */
#define VALUE_WHY_MAX	192

/*
 * S as SPEC says -> *out.  0; or -EINVAL (not such a value) or -ERANGE
 * (outside the limits), with the reason in WHY:
 * "'soon' is not a duration (...)", "5ms is out of range 10ms..1h".
 */
int value_parse(const struct value_spec *spec, const char *s, uint64_t *out,
		char *why, size_t whylen);

/* V written as an operator would ("64k", "1h", "0.5%"): into BUF. */
void value_format(enum value_kind kind, uint64_t v, char *buf, size_t len);

/* SPEC's limits as written: "10ms..1h", "0 (off) or 1s..24h". */
void value_range(const struct value_spec *spec, char *buf, size_t len);

#endif /* RDMAD_VALUE_PARSE_H */
