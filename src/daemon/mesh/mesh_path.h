/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_path.h - one path of one mesh peer: its rdma_client session, its
 * timer, its schedule (mesh_sched, pure) and its figures (mesh_stats).
 * mesh_path_feed() hands an event to the schedule and carries out what
 * it returns: records through one funnel (mesh_path_record, the only
 * writer of the path's mesh_stats besides the reload's and the view's
 * upkeep below), closes, connects, runs rounds, arms the timer.
 *
 * The paths of one agent share a struct mesh_ctx: the loop, the CM
 * channel, the settings in force, the bandwidth and connect budget, and
 * the queue of paths waiting for a connect slot.
 */
#ifndef RDMAD_MESH_PATH_H
#define RDMAD_MESH_PATH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <event2/event.h>

#include "auth.h"
#include "core/config.h"
#include "core/log_limit.h"
#include "core/cpu_wait.h"
#include "mesh/mesh_load_check.h"
#include "mesh/mesh_path_health.h"
#include "mesh/mesh_policy_rules.h"
#include "mesh/mesh_sched.h"
#include "mesh/mesh_stats.h"
#include "mesh/mesh_targets_sched.h"
#include "rdma_cm.h"
#include "rdma_counters.h"
#include "rdma_dev.h"

/* What only the client knows of a round or sample, for the record. */
struct mesh_figures {
	uint64_t rtt_ns;
	uint32_t size;
	uint32_t bad_offset;
	uint32_t round;			/* the client's count, for the text */
	uint64_t bytes, ns;		/* a sample's */
	char why[160];			/* a failure in the client's words,
					   or the driver's own */
};

struct mesh_link;
TAILQ_HEAD(mesh_links, mesh_link);
struct mesh_path;
TAILQ_HEAD(mesh_paths, mesh_path);

/* What every path of one agent shares. */
struct mesh_ctx {
	struct event_base *base;
	struct rdma_cm_chan *cm;
	struct rdma_devs *devs;
	const struct auth_key *psk;
	const struct rdma_counters *counters;	/* NULL: none */
	struct config_mesh cfg;		/* in force */
	struct mesh_policy pol;		/* what cfg means: mesh_policy_of() */
	struct mesh_budget budget;
	struct mesh_links links;	/* every client not yet freed (each
					   frees itself from its ops->done) */
	struct mesh_paths waiting;	/* due to connect, no slot yet */
	struct event *admit;		/* a slot freed: start waiting ones */
	uint64_t bw_samples, bw_ns;
	uint64_t seq;			/* connection names, seeds */
	/* each rail's rounds, all peers on it, since start (a path's
	 * mesh_stats points at its peer's: mesh_stats_round counts both) */
	struct mesh_rail_stats rails[MESH_INV_RAILS_MAX];
	/* and each rail's health, its peers' rounds together, and by
	 * place (enum mesh_place): kept across cross-ToR epochs, whichever
	 * peers the slots hold */
	struct mesh_health rail_health[MESH_INV_RAILS_MAX];
	struct mesh_health place_health[MESH_INV_RAILS_MAX][MESH_PLACES];
	/* the prober's share (mesh_load_check.h): the loop-lag sampler, the
	 * scheduler's files, what the rounds under pressure added up to */
	struct cpu_wait sched;
	struct event *lag_ev;
	uint64_t lag_due;		/* the sampler's next run */
	struct mesh_lag_ring lag;
	struct mesh_hist lag_hist;	/* the samples' lag, all */
	uint64_t pressured;		/* rounds under local pressure */
	/* what became of the late rounds (each path's own machine): judged
	 * bad, set aside as a stall's, set aside under local pressure */
	uint64_t late_judged, late_stall, late_pressured;
	uint64_t load_delay_ns;		/* rdmad's run-queue wait in rounds */
	uint64_t load_psi_us;		/* the host's PSI "some" in rounds */
	bool psi;			/* the host has PSI */
	struct log_limit load_log;
	struct log_limit slow_log;	/* slow rounds' lines */
};

struct mesh_path {
	struct mesh_ctx *x;
	const char *peer;		/* the peer's name */
	const struct sockaddr_storage *dst;
	/* the probe's source (the inventory's address on the peer's
	 * rail); ss_family 0: [mesh] source */
	const struct sockaddr_storage *src;
	unsigned int idx;
	bool named_idx;			/* the peer has several paths */
	struct mesh_sched s;
	struct event *timer;
	struct mesh_link *link;		/* the session, NULL: none */
	struct mesh_path_stats st;
	struct mesh_path_health health;	/* what its rounds say of it, and
					   its pools (mesh_path_health.h) */
	char error[200];		/* the last failure, for the table */
	uint64_t connect_at;		/* when the connect was asked for */
	bool queued;			/* waiting for a connect slot */
	struct mesh_load_run load;	/* the round under way, measured */
	TAILQ_ENTRY(mesh_path) wait;
};

/* The context's events on BASE.  0 or -ENOMEM. */
int mesh_ctx_init(struct mesh_ctx *x, struct event_base *base,
		  struct rdma_cm_chan *cm, struct rdma_devs *devs,
		  const struct auth_key *psk,
		  const struct rdma_counters *counters);
/* Every client released at once (no path may still use them). */
void mesh_ctx_fini(struct mesh_ctx *x);

/* P as path IDX of the peer PEER at DST (both outlive it), idle. */
int mesh_path_init(struct mesh_path *p, struct mesh_ctx *x, const char *peer,
		   const struct sockaddr_storage *dst,
		   const struct sockaddr_storage *src, unsigned int idx);
/* Its timer and events gone; its session let go. */
void mesh_path_fini(struct mesh_path *p);
/* Start probing (its figures stay: counters never go back). */
void mesh_path_start(struct mesh_path *p);
void mesh_path_feed(struct mesh_path *p, enum mesh_event ev);

/* A reload changes [mesh] sizes from OLD's to NEXT's: its per-size
 * figures follow their sizes. */
void mesh_path_sizes(struct mesh_path *p, const struct config_mesh *old,
		     const struct config_mesh *next);

#endif /* RDMAD_MESH_PATH_H */
