/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-rdma-counters.c - rdma_counters.c over a copy of sysfs's shape in a
 * temporary directory: what a port's listing takes (counters/ first, no
 * lifespan, no skipped counter), readings through the loop's ticks (a
 * legacy counter at its ceiling, a reset, a file that is no number), the
 * skip list changed at a reload, a port added twice or missing, the
 * windows moving at the end of each pass, and a device removed (its
 * counters dropped at once, one line) and back (read again).
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/event.h>

#include "rdma_counters.h"
#include "rdma_log.h"
#include "tap.h"

static char root[64];

static void put(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/class/infiniband/rxe0/ports/1/%s/%s",
		 root, dir, name);
	f = fopen(path, "w");
	if (!f) {
		tap_diag("cannot write %s: %s", path, strerror(errno));
		return;
	}
	fputs(text, f);
	fclose(f);
}

static void mkdirs(void)
{
	const char *parts[] = { "/class", "/class/infiniband",
				"/class/infiniband/rxe0",
				"/class/infiniband/rxe0/ports",
				"/class/infiniband/rxe0/ports/1",
				"/class/infiniband/rxe0/ports/1/counters",
				"/class/infiniband/rxe0/ports/1/hw_counters" };
	char path[256];
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, parts[i]);
		mkdir(path, 0755);
	}
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

/* Let the loop run MS milliseconds: the reader's ticks. */
static void run(struct event_base *base, unsigned int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	event_base_loopexit(base, &tv);
	event_base_dispatch(base);
}

static const struct port_counter *find(const struct rdma_counters *rc,
				       const char *name)
{
	const struct port_counter *c;
	unsigned int i, n;

	c = rdma_counters_view(rc, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return &c[i];
	return NULL;
}

/* What the reader logged at LOG_WARNING or above, and at all. */
static unsigned int n_warn, n_lines;
static char last_line[512];

static void capture(int prio, const char *msg)
{
	n_lines++;
	if (prio <= LOG_WARNING)
		n_warn++;
	snprintf(last_line, sizeof(last_line), "%s", msg);
}

static unsigned int count(const struct rdma_counters *rc)
{
	unsigned int n;

	rdma_counters_view(rc, &n);
	return n;
}

int main(void)
{
	struct port_counter_skip skip = { .pat = { "rcvd_*" }, .n = 1 };
	struct port_counter_skip none = { .n = 0 };
	struct event_base *base = event_base_new();
	struct rdma_counters *rc = NULL;
	const struct port_counter *c, *v;
	unsigned int n;

	tap_plan(19);
	snprintf(root, sizeof(root), "/tmp/test-rdma-counters.XXXXXX");
	if (!base || !mkdtemp(root) || rdma_counters_new(&rc, base, root)) {
		tap_ok(0, "setup: loop, temporary directory, reader");
		return tap_done();
	}
	mkdirs();
	put("counters", "link_downed", "255\n");
	put("counters", "symbol_error", "3\n");
	put("hw_counters", "link_downed", "9\n");
	put("hw_counters", "sent_pkts", "100\n");
	put("hw_counters", "rcvd_pkts", "100\n");
	put("hw_counters", "lifespan", "10\n");
	put("hw_counters", "send_err", "x\n");

	rdma_counters_configure(rc, 40, &skip);
	rdma_counters_add_port(rc, "rxe0", 1);
	v = rdma_counters_view(rc, &n);
	tap_ok(n == 4 && !strcmp(v[0].name, "link_downed") &&
	       !strcmp(v[1].name, "send_err") &&
	       !strcmp(v[2].name, "sent_pkts") &&
	       !strcmp(v[3].name, "symbol_error"),
	       "listing: by name; no lifespan, no skipped rcvd_pkts");
	c = find(rc, "link_downed");
	tap_ok(c && c->dir == PORT_COUNTER_PMA && c->ceiling == 255,
	       "a name in both directories is read from counters/");
	tap_ok(c && !c->seen, "nothing read before the loop runs");
	rdma_counters_add_port(rc, "rxe0", 1);
	rdma_counters_add_port(rc, "rxe1", 1);	/* no such directory */
	tap_ok(count(rc) == 4, "a port added again, a missing one: nothing");

	run(base, 300);
	c = find(rc, "link_downed");
	tap_ok(c && c->seen && c->total == 255 && c->saturated,
	       "link_downed at 255 read: saturated");
	c = find(rc, "sent_pkts");
	tap_ok(c && c->seen && c->total == 100 && c->read_err == 0,
	       "sent_pkts read: 100");
	c = find(rc, "send_err");
	tap_ok(c && !c->seen && c->read_err == -EINVAL,
	       "send_err holds no number: not read, -EINVAL kept");
	c = find(rc, "symbol_error");
	tap_ok(c && c->base == 3 && c->mark == 3,
	       "the window starts at the first reading");

	put("hw_counters", "sent_pkts", "5\n");
	put("hw_counters", "send_err", "7\n");
	put("counters", "symbol_error", "10\n");
	run(base, 300);
	c = find(rc, "sent_pkts");
	tap_ok(c && c->total == 105 && c->resets == 1,
	       "sent_pkts cleared to 5: total 105, one reset");
	c = find(rc, "send_err");
	tap_ok(c && c->seen && c->total == 7 && c->read_err == 0,
	       "send_err read once it holds a number");
	c = find(rc, "symbol_error");
	tap_ok(c && c->total == 10 && c->base == 10,
	       "passes went by: the window moved past the change");

	rdma_counters_configure(rc, 40, &(struct port_counter_skip){
		.pat = { "rxe0/sent_pkts" }, .n = 1 });
	tap_ok(count(rc) == 4 && !find(rc, "sent_pkts") &&
	       find(rc, "rcvd_pkts"),
	       "reload: sent_pkts skipped now is gone, rcvd_pkts back");
	c = find(rc, "link_downed");
	tap_ok(c && c->total == 255, "reload: the others keep their totals");
	rdma_counters_configure(rc, 40, &none);
	tap_ok(count(rc) == 5, "reload: nothing skipped, five counters");
	rdma_counters_configure(rc, 0, &none);
	put("counters", "symbol_error", "11\n");
	run(base, 150);
	c = find(rc, "symbol_error");
	tap_ok(c && c->total == 10, "interval 0: no more reads");

	/* The device goes: its sysfs directory with it (rdma link delete). */
	rdma_counters_configure(rc, 40, &none);
	run(base, 150);
	rdma_log_set(capture);
	n_warn = n_lines = 0;
	{
		char dev[256];

		snprintf(dev, sizeof(dev), "%s/class/infiniband/rxe0", root);
		nftw(dev, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	}
	run(base, 200);
	tap_ok(count(rc) == 0 && n_warn == 0 && n_lines == 1 &&
	       strstr(last_line, "device rxe0 is gone from sysfs: its 5 "
		      "counters dropped"),
	       "a removed device: its 5 counters dropped at once, one line, no "
	       "warning (%u lines, %u warnings): %s", n_lines, n_warn,
	       last_line);
	/* It comes back (the registry sees it anew: port_seen), counters
	 * at their new start. */
	mkdirs();
	put("counters", "symbol_error", "2\n");
	put("hw_counters", "sent_pkts", "40\n");
	rdma_counters_add_port(rc, "rxe0", 1);
	run(base, 200);
	c = find(rc, "sent_pkts");
	v = find(rc, "symbol_error");
	tap_ok(count(rc) == 2 && c && c->seen && c->total == 40 && v &&
	       v->seen && v->total == 2, "the device back: listed and read "
	       "again (%u counters)", count(rc));
	/* The registry says the device went (fatal, removal): dropped at
	 * once, one line; said again, nothing. */
	n_lines = 0;
	rdma_counters_drop_device(rc, "rxe0", "had a fatal error or was "
				  "removed");
	rdma_counters_drop_device(rc, "rxe0", "had a fatal error or was "
				  "removed");
	tap_ok(count(rc) == 0 && n_lines == 1, "dropped by the registry's "
	       "word: once, one line: %s", last_line);
	rdma_counters_add_port(rc, "rxe0", 1);
	tap_ok(count(rc) == 2, "and listed again when it is seen again");
	rdma_log_set(NULL);

	rdma_counters_free(rc);
	event_base_free(base);
	nftw(root, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
