/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_counters.h - the counters of the RDMA ports in use, read from sysfs
 * in the loop without stalling it.
 *
 * Each port the owner adds (the device registry's port_seen) has its
 * counters/ and hw_counters/ listed once (a directory listing asks the
 * driver nothing); then one file is read a tick, the ticks spread evenly
 * over the interval, so every counter is read once an interval and a
 * tick costs the loop one read.  A read of hw_counters may take
 * milliseconds on a real NIC (the driver asks the firmware): one such read
 * at a time keeps the loop's stall at that, where a thread would need the
 * table locked against the renderers for no gain at these rates.
 *
 * Each reading goes through port_counter_update() (common/port_counter.h):
 * the totals never go down, a counter at its legacy ceiling is marked
 * saturated.  Counters the skip list names are never opened.  The files
 * are under ROOT/class/infiniband/DEVICE/ports/PORT/ (ROOT: /sys, or a
 * copy of its shape that the tests make).
 */
#ifndef RDMAD_RDMA_COUNTERS_H
#define RDMAD_RDMA_COUNTERS_H

#include <event2/event.h>

#include "port_counter.h"

/* Past this many counters (all ports), more are not read (logged). */
#define RDMA_COUNTERS_MAX	4096

struct rdma_counters;

/* A reader in BASE over the sysfs at ROOT (NULL: "/sys"); 0 or -ENOMEM. */
int rdma_counters_new(struct rdma_counters **out, struct event_base *base,
		      const char *root);
void rdma_counters_free(struct rdma_counters *rc);

/*
 * Read every counter once each INTERVAL_MS (0: stop reading), never the
 * ones SKIP names (copied).  Again at each reload: counters skipped now
 * are dropped, counters no longer skipped are listed again.
 */
void rdma_counters_configure(struct rdma_counters *rc,
			     unsigned int interval_ms,
			     const struct port_counter_skip *skip);

/* Read PORT of DEVICE from now on (nothing if it is read already). */
void rdma_counters_add_port(struct rdma_counters *rc, const char *device,
			    unsigned int port);

/*
 * DEVICE went away (removed, fatal: WHY says which, as "is gone"): its
 * ports and counters are dropped at once, with one line, so that its
 * series leave the metrics; a device that comes back is listed anew by
 * rdma_counters_add_port().  The reader drops a device itself when its
 * sysfs directory is gone.  Nothing if DEVICE is not read.
 */
void rdma_counters_drop_device(struct rdma_counters *rc, const char *device,
			       const char *why);

/* The counters, in order of port then name; *N of them.  Valid until the
 * next call into the reader. */
const struct port_counter *rdma_counters_view(const struct rdma_counters *rc,
					      unsigned int *n);

#endif /* RDMAD_RDMA_COUNTERS_H */
