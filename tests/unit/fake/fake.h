/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fake.h - a link-time fake of the RDMA layer's lowest files (rdma_cm.c,
 * rdma_qp.c, rdma_cq.c, rdma_buf.c, rdma_dev.c) and of the clock, for the
 * unit tests of the drivers above them (serve/, the mesh agent and its
 * paths, blackbox, http).  The drivers and rdma_client are the real ones.
 *
 * The fake is one fabric inside the process, with one device ("fake0",
 * one active port) through which every address resolves: an id connects
 * to an id listening on the destination's port (its address, or the
 * wildcard); CM events come through the channel's fd (an eventfd) in the
 * real libevent loop, completions through each CQ's completion channel
 * (an eventfd too).  Work requests run when posted: a SEND takes the
 * peer's oldest posted receive (or waits for one, as RNR retry 7 does),
 * a READ or WRITE copies bytes between registered buffers found by rkey,
 * checked against their range and access, so what the drivers verify is
 * what was really moved.
 *
 * Faults on demand: a port that never answers (fake_mute), a device
 * removed (fake_dev_remove), a completion with an error (fake_fail_next).
 * Nothing listening on a port is a reject (IB: invalid service id).
 */
#ifndef RDMAD_FAKE_H
#define RDMAD_FAKE_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/* The fake's device. */
extern struct ibv_context fake_ctx;

/*
 * A peer on PORT that never answers (ON true) or answers again: a
 * connect to it gets no event at all, and work requests towards it stay
 * posted, never completing (the transport's silence: the drivers' own
 * deadlines must end it).  Ports are the tests' own, one per peer.
 */
void fake_mute(uint16_t port, bool on);
/*
 * The device goes away: every id on it gets DEVICE_REMOVAL, every QP on
 * it is flushed, every registry that holds it hears of a fatal error
 * (from the loop), and nothing resolves or binds on it until
 * fake_dev_restore().
 */
void fake_dev_remove(void);
void fake_dev_restore(void);
/* The next work request posted by anyone completes with STATUS (not
 * IBV_WC_SUCCESS) and its QP goes to error, as a CQ error would. */
void fake_fail_next(enum ibv_wc_status status);

/* Counts, for the tests' assertions. */
struct fake_counts {
	unsigned int ids;		/* cm ids alive */
	unsigned int qps;		/* QPs alive */
	unsigned int connects;		/* connect requests made */
	unsigned int rejects;		/* REJECTED events sent */
	uint64_t bytes_read;		/* copied by RDMA READs */
	uint64_t bytes_written;		/* by RDMA WRITEs */
	uint64_t bytes_sent;		/* by SENDs */
};
void fake_counts(struct fake_counts *out);

/* The wall clock (clock_wall_ms) moves by MS from now on (the monotonic
 * one does not: libevent's timers would not follow). */
void fake_clock_wall_shift(int64_t ms);

#endif /* RDMAD_FAKE_H */
