/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_dev.h - the registry of verbs devices in use: each one's attributes
 * and its async event fd in the loop.
 *
 * A device is registered the first time a listener or connection uses it
 * and stays until it is gone (removed, fatal).  Entries never move: each
 * is allocated on its own and its async event holds its address, so
 * losing one device leaves every other entry where its event expects it.
 *
 * Async events are routed: a QP's or CQ's error to the rdma_qp that owns
 * it (rdma_qp_ops.fatal), a port going down or up and a fatal device to
 * the registry's owner (struct rdma_dev_ops).
 */
#ifndef RDMAD_RDMA_DEV_H
#define RDMAD_RDMA_DEV_H

#include <stdbool.h>
#include <stdint.h>

#include <event2/event.h>
#include <infiniband/verbs.h>

#define RDMA_DEV_MAX	16

struct rdma_dev_ops {
	/* Port PORT of CTX went down (up false) or became active. */
	void (*port)(void *arg, struct ibv_context *ctx, uint8_t port,
		     bool up);
	/* Optional: port PORT of CTX when the device was registered
	 * (active or not), so that the owner knows the state from the
	 * start, not only from the first change. */
	void (*port_seen)(void *arg, struct ibv_context *ctx, uint8_t port,
			  bool up);
	/* Optional: the nominal link rate of port PORT of CTX in bytes/s
	 * (0: unknown), at registration and again after each port event
	 * (a port that comes back may run at another speed). */
	void (*port_rate)(void *arg, struct ibv_context *ctx, uint8_t port,
			  uint64_t bytes_per_s);
	/* CTX had a fatal error: the registry has let go of it already. */
	void (*fatal)(void *arg, struct ibv_context *ctx);
};

struct rdma_devs;

struct rdma_dev {
	struct ibv_context *ctx;
	struct ibv_device_attr attr;
	struct event *async_ev;
	struct rdma_devs *devs;
};

struct rdma_devs {
	struct event_base *base;
	const struct rdma_dev_ops *ops;
	void *arg;
	struct rdma_dev *dev[RDMA_DEV_MAX];	/* NULL: a free slot */
};

void rdma_devs_init(struct rdma_devs *r, struct event_base *base,
		    const struct rdma_dev_ops *ops, void *arg);
/* Let go of every device. */
void rdma_devs_fini(struct rdma_devs *r);

/* CTX's entry, registered (attributes queried, async fd watched) on first
 * use; NULL (logged) if it cannot be. */
struct rdma_dev *rdma_dev_get(struct rdma_devs *r, struct ibv_context *ctx);
/* CTX is going away: stop watching it.  Nothing if it is not there. */
void rdma_dev_forget(struct rdma_devs *r, struct ibv_context *ctx);
/* Devices registered now. */
unsigned int rdma_devs_count(const struct rdma_devs *r);

#endif /* RDMAD_RDMA_DEV_H */
