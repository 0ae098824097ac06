/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-port-counter.c - port_counter.c: a counter file's value, each
 * legacy width's ceiling, and readings at the boundaries (0, max-1, max,
 * above max, a reset, the total at 2^64-1): the total never goes down and
 * a counter at its ceiling is saturated, not a rate of zero.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "port_counter.h"
#include "tap.h"

static void test_parse(void)
{
	uint64_t v = 7;

	tap_ok(!port_counter_parse("0\n", &v) && v == 0, "parse 0");
	tap_ok(!port_counter_parse("255", &v) && v == 255,
	       "parse without a newline");
	tap_ok(!port_counter_parse("18446744073709551615\n", &v) &&
	       v == UINT64_MAX, "parse 2^64-1");
	v = 7;
	tap_ok(port_counter_parse("18446744073709551616\n", &v) == -ERANGE &&
	       v == 7, "2^64 is out of range, the value untouched");
	tap_ok(port_counter_parse("", &v) == -EINVAL, "empty refused");
	tap_ok(port_counter_parse("\n", &v) == -EINVAL, "newline alone refused");
	tap_ok(port_counter_parse("-1\n", &v) == -EINVAL, "negative refused");
	tap_ok(port_counter_parse("12x\n", &v) == -EINVAL,
	       "trailing junk refused");
	tap_ok(port_counter_parse("12\n\n", &v) == -EINVAL,
	       "two newlines refused");
	tap_ok(port_counter_parse(" 5", &v) == -EINVAL,
	       "leading blank refused");
}

static void test_ceiling(void)
{
	tap_ok(port_counter_ceiling(PORT_COUNTER_PMA, "link_downed") == 255,
	       "counters/link_downed: 8 bits");
	tap_ok(port_counter_ceiling(PORT_COUNTER_PMA, "port_xmit_wait") ==
	       UINT32_MAX, "counters/port_xmit_wait: 32 bits");
	tap_ok(port_counter_ceiling(PORT_COUNTER_PMA,
				    "local_link_integrity_errors") == 15,
	       "counters/local_link_integrity_errors: 4 bits");
	tap_ok(port_counter_ceiling(PORT_COUNTER_PMA, "symbol_error") == 65535,
	       "counters/symbol_error: 16 bits");
	tap_ok(port_counter_ceiling(PORT_COUNTER_HW, "link_downed") == 0,
	       "hw_counters/link_downed: 64 bits, no ceiling");
	tap_ok(port_counter_ceiling(PORT_COUNTER_PMA,
				    "unicast_xmit_packets") == 0,
	       "an extended PMA counter has no ceiling");
}

static void test_step(void)
{
	struct port_counter_step s;

	s = port_counter_step(0, 0, 255);
	tap_ok(s.delta == 0 && !s.reset && !s.saturated, "0 -> 0: nothing");
	s = port_counter_step(0, 254, 255);
	tap_ok(s.delta == 254 && !s.saturated, "0 -> max-1: +254, not "
	       "saturated");
	s = port_counter_step(254, 255, 255);
	tap_ok(s.delta == 1 && s.saturated, "max-1 -> max: +1, saturated");
	s = port_counter_step(255, 255, 255);
	tap_ok(s.delta == 0 && s.saturated && !s.reset,
	       "max -> max: saturated, no rate of zero taken for calm");
	s = port_counter_step(255, 256, 255);
	tap_ok(s.delta == 1 && !s.saturated,
	       "above the legacy ceiling: a wider counter, not saturated");
	s = port_counter_step(1000, 3, 0);
	tap_ok(s.delta == 3 && s.reset, "down: a reset, +3 since it");
	s = port_counter_step(UINT64_MAX, 0, 0);
	tap_ok(s.delta == 0 && s.reset,
	       "2^64-1 -> 0: a reset (never a wrap), never negative");
	s = port_counter_step(UINT64_MAX - 1, UINT64_MAX, 0);
	tap_ok(s.delta == 1 && !s.saturated,
	       "2^64-2 -> 2^64-1 with no ceiling: +1, not saturated");
}

static void test_update(void)
{
	struct port_counter c;

	port_counter_init(&c, "mlx5_0", 1, PORT_COUNTER_PMA, "link_downed");
	tap_ok(c.ceiling == 255 && !c.seen && c.total == 0,
	       "init: ceiling from the name, nothing read");
	port_counter_update(&c, 250);
	tap_ok(c.total == 250 && c.raw == 250 && !c.saturated,
	       "first reading: the total is the counter");
	port_counter_update(&c, 255);
	tap_ok(c.total == 255 && c.saturated, "at the ceiling: saturated");
	port_counter_update(&c, 255);
	tap_ok(c.total == 255 && c.saturated, "stays saturated");
	port_counter_update(&c, 0);
	tap_ok(c.total == 255 && !c.saturated && c.resets == 1,
	       "cleared: the total does not go down, one reset");
	port_counter_update(&c, 5);
	tap_ok(c.total == 260 && c.raw == 5, "then counts on: +5");

	port_counter_init(&c, "rxe0", 1, PORT_COUNTER_HW, "sent_pkts");
	port_counter_update(&c, UINT64_MAX - 1);
	port_counter_update(&c, 5);
	tap_ok(c.total == UINT64_MAX && c.resets == 1 && !c.saturated,
	       "the total stops at 2^64-1, never wraps");
}

static void test_skip(void)
{
	struct port_counter_skip s = {
		.pat = { "link_downed", "mlx5_3/*", "rxe0/*_err" },
		.n = 3,
	};

	tap_ok(port_counter_pattern_ok("link_downed") &&
	       port_counter_pattern_ok("mlx5_*/port_xmit_wait") &&
	       port_counter_pattern_ok("*_err"), "patterns accepted");
	tap_ok(!port_counter_pattern_ok("") && !port_counter_pattern_ok("/x") &&
	       !port_counter_pattern_ok("x/") &&
	       !port_counter_pattern_ok("a/b/c") &&
	       !port_counter_pattern_ok("a b"), "bad patterns refused");
	tap_ok(port_counter_skipped(&s, "rxe0", "link_downed") &&
	       port_counter_skipped(&s, "mlx5_0", "link_downed"),
	       "NAME: on every device");
	tap_ok(port_counter_skipped(&s, "mlx5_3", "port_rcv_data") &&
	       !port_counter_skipped(&s, "mlx5_30", "port_rcv_data"),
	       "DEVICE/*: that device only");
	tap_ok(port_counter_skipped(&s, "rxe0", "rcvd_seq_err") &&
	       !port_counter_skipped(&s, "rxe1", "rcvd_seq_err") &&
	       !port_counter_skipped(&s, "rxe0", "sent_pkts"),
	       "DEVICE/glob");
	s.n = 0;
	tap_ok(!port_counter_skipped(&s, "rxe0", "link_downed"),
	       "an empty list skips nothing");
}

/* The changes a log line carries: only what moved, by port, the window
 * of one to two passes. */
static void test_changes(void)
{
	struct port_counter c[4];
	char buf[128], small[24];
	unsigned int i, n;

	port_counter_init(&c[0], "mlx5_0", 1, PORT_COUNTER_PMA, "link_downed");
	port_counter_init(&c[1], "rxe0", 1, PORT_COUNTER_HW, "rcvd_seq_err");
	port_counter_init(&c[2], "rxe0", 1, PORT_COUNTER_HW,
			  "retry_exceeded_err");
	port_counter_init(&c[3], "rxe0", 1, PORT_COUNTER_HW, "sent_pkts");
	port_counter_update(&c[0], 3);
	port_counter_update(&c[1], 100);
	port_counter_update(&c[2], 0);
	n = port_counter_changes(buf, sizeof(buf), c, 4);
	tap_ok(n == 0 && !buf[0],
	       "changes: the first reading is no change; one never read none");
	port_counter_update(&c[0], 4);
	port_counter_update(&c[1], 114);
	port_counter_update(&c[2], 2);
	port_counter_update(&c[3], 50);
	n = port_counter_changes(buf, sizeof(buf), c, 4);
	if (!tap_ok(n == 3 && !strcmp(buf, "mlx5_0/1: link_downed +1; rxe0/1: "
				      "rcvd_seq_err +14, retry_exceeded_err "
				      "+2"), "changes: by port, only what moved"))
		tap_diag("%u: '%s'", n, buf);
	n = port_counter_changes(small, sizeof(small), c, 4);
	if (!tap_ok(n == 3 && !strcmp(small, "mlx5_0/1: link_downe..."),
		    "changes: cut with ... when too long, all counted"))
		tap_diag("%u: '%s'", n, small);
	for (i = 0; i < 4; i++)
		port_counter_pass(&c[i]);
	n = port_counter_changes(buf, sizeof(buf), c, 4);
	tap_ok(n == 3, "changes: one pass later, still in the window");
	for (i = 0; i < 4; i++)
		port_counter_pass(&c[i]);
	n = port_counter_changes(buf, sizeof(buf), c, 4);
	tap_ok(n == 0 && !buf[0], "changes: two passes later, gone");
	port_counter_update(&c[1], 1);		/* a reset: +1 */
	n = port_counter_changes(buf, sizeof(buf), c, 4);
	tap_ok(n == 1 && !strcmp(buf, "rxe0/1: rcvd_seq_err +1"),
	       "changes: a reset counts what it shows since, never negative");
}

int main(void)
{
	tap_plan(10 + 6 + 8 + 7 + 6 + 6);
	test_changes();
	test_skip();
	test_parse();
	test_ceiling();
	test_step();
	test_update();
	return tap_done();
}
