/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_cm.h - an rdma_cm event channel in a libevent loop.
 *
 * The channel's fd is non-blocking in the loop; on wake-up every event is
 * taken until EAGAIN, copied out, acked at once (exactly once), and handed
 * to the handler of its id.  Nothing keeps a pointer into librdmacm's
 * event, so rdma_destroy_id() never waits for an unacked one.
 *
 * Every id on a channel has a struct rdma_cm_handler as its context: a
 * listener's, a served connection's, a client connection's, each embedded
 * in its owner (container_of).  A CONNECT_REQUEST goes to the listening
 * id's handler; its new id inherits that context until the owner gives it
 * its own (rdma_cm_id_handler).  Several owners (rdmad's listeners and
 * connections, and its mesh prober) can share one channel.
 */
#ifndef RDMAD_RDMA_CM_H
#define RDMAD_RDMA_CM_H

#include <stdint.h>

#include <event2/event.h>
#include <rdma/rdma_cma.h>

/* IB CM reject reasons in RDMA_CM_EVENT_REJECTED's status. */
#define RDMA_CM_REJ_INVALID_SERVICE_ID	8	/* nothing listens there */
#define RDMA_CM_REJ_CONSUMER_DEFINED	28	/* rdma_reject() by the peer */

/* A CM event, copied out of librdmacm's buffer. */
struct rdma_cm_ev {
	enum rdma_cm_event_type type;
	int status;
	struct rdma_cm_id *id;
	struct rdma_cm_id *listen_id;
	uint8_t responder_resources;
	uint8_t initiator_depth;
	uint8_t pdata_len;
	uint8_t pdata[256];
};

struct rdma_cm_handler {
	void (*event)(struct rdma_cm_handler *h, const struct rdma_cm_ev *e);
};

struct rdma_cm_chan {
	struct rdma_event_channel *ch;
	struct event *ev;
};

/* Open the channel and watch it in BASE; 0 or -errno. */
int rdma_cm_chan_open(struct rdma_cm_chan *c, struct event_base *base);
/* Every id on it must be destroyed first. */
void rdma_cm_chan_close(struct rdma_cm_chan *c);

/* A new (RDMA_PS_TCP) id on C whose events go to H; 0 or -errno. */
int rdma_cm_id_new(struct rdma_cm_chan *c, struct rdma_cm_handler *h,
		   struct rdma_cm_id **id);
/*
 * The IP TOS (DSCP << 2 | ECN) of ID's packets: rdma_cm puts it in the
 * route it resolves (RoCE: the traffic class of the QP's address), so it
 * must come before rdma_resolve_route.  0 or -errno.
 */
int rdma_cm_id_tos(struct rdma_cm_id *id, uint8_t tos);
/* From now on ID's events go to H (NULL: dropped). */
void rdma_cm_id_handler(struct rdma_cm_id *id, struct rdma_cm_handler *h);

/*
 * Have librdmacm re-read the device list: it closes its context of a
 * device that went away once no id uses it (on drivers that cannot
 * disassociate a context, rxe among them, the kernel's removal of the
 * device waits for that), and opens any device that appeared.
 */
void rdma_cm_sync_devices(void);

#endif /* RDMAD_RDMA_CM_H */
