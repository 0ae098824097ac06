/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_sched.h - when rdmad probes one mesh peer: its schedule as a pure
 * state machine, with a fake-able clock (every time is an argument).
 *
 * Each peer has one connection that lives across rounds and one timer.
 * mesh_sched_step() maps (schedule, event, now) to the next schedule and
 * the actions for the driver: connect, run a round (maybe a bandwidth
 * sample), close, arm the timer at next.due, report the peer up or down.
 * In "connecting" and "round" the timer is the deadline of that step;
 * in "pending", "wait" and "backoff" it is when the next one starts.
 *
 * Sizes: rounds take cfg.sizes in turn (a sample takes a turn too); the
 * step that starts a round says its size, the record its slot.
 *
 *   idle -START-> pending -TIMER-> connecting -CONNECTED-> round
 *   round -ROUND_DONE-> wait -TIMER-> round ...
 *   connecting -CONNECT_FAILED/TIMER-> backoff -TIMER-> connecting
 *   round, wait -LOST-> backoff; round -TIMER (deadline)-> backoff
 *   any -STOP-> idle
 *
 * Spreading: a started peer first waits a random part of one interval,
 * so a thousand peers configured at once do not connect at once; every
 * wait between rounds is the interval give or take jitter_pct percent.
 * Down: a path is up after a round that kept its connection, and down
 * after cfg.down_after failures in a row (failed connects, lost
 * connections, rounds past their deadline: what backs off); fewer leave
 * it as it was (up, or unknown before its first round).
 *
 * Backoff: failed connects (or lost connections) since the last good
 * round double the wait from backoff_min up to backoff_max, with the same
 * jitter, so a healed partition brings peers back spread out, not as a
 * storm.  Only a good round resets it: a peer that accepts and then fails
 * every round keeps backing off.
 *
 * Connect slots: at most cfg.connects_max paths of this rdmad connect at
 * once (the budget counts them); a path due to connect when none is free
 * stays where it is and asks to be queued (MESH_ACT_QUEUE); a connect
 * that ends frees its slot (MESH_ACT_SLOT) and the driver feeds the
 * queued paths TIMER again, in order.  Each connect costs the loop a few
 * milliseconds of CPU: a thousand peers, or a healed partition, must not
 * all connect within one interval.
 *
 * What to record: each step says what the driver writes into the path's
 * statistics (struct mesh_record): a round of some class (a connect that
 * failed or timed out counts as one, a bandwidth sample too), a session
 * established, a path gone from up to down (a bandwidth sample ends as a
 * round does, marked a sample: no round).  The driver adds the
 * figures only it has (latency, bytes) and writes nothing else.
 *
 * Bandwidth samples: each peer wants one every bw_every; it is taken in
 * place of a round when the shared budget (struct mesh_budget) allows:
 * one sample at a time on this host, and in total no more than
 * bw_share_ppm of the time (a token bucket in nanoseconds of link time,
 * filled at that rate, holding one sample at most; a sample that runs
 * over its planned time is charged the excess).
 */
#ifndef RDMAD_MESH_SCHED_H
#define RDMAD_MESH_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "mesh/mesh_result_rules.h"

/* Connects under way at once on one rdmad (cfg.connects_max). */
#define MESH_CONNECTS_MAX	32

#define MESH_STATE_LIST(X)		\
	X(IDLE, "idle")			\
	X(PENDING, "pending")		\
	X(CONNECTING, "connecting")	\
	X(WAIT, "wait")			\
	X(ROUND, "round")		\
	X(BACKOFF, "backoff")

#define MESH_EVENT_LIST(X)			\
	X(START, "start")			\
	X(TIMER, "timer")			\
	X(CONNECTED, "connected")		\
	X(CONNECT_FAILED, "connect-failed")	\
	X(ROUND_DONE, "round-done")		\
	X(LOST, "lost")				\
	X(STOP, "stop")

/* What is known of the peer's reachability. */
#define MESH_REACH_LIST(X)		\
	X(UNKNOWN, "unknown")		\
	X(UP, "up")			\
	X(DOWN, "down")

#define X_STATE(n, s)	MESH_ST_##n,
#define X_EVENT(n, s)	MESH_EV_##n,
#define X_REACH(n, s)	MESH_REACH_##n,
enum mesh_state { MESH_STATE_LIST(X_STATE) MESH_ST__COUNT };
enum mesh_event { MESH_EVENT_LIST(X_EVENT) MESH_EV__COUNT };
enum mesh_reach { MESH_REACH_LIST(X_REACH) MESH_REACH__COUNT };
#undef X_STATE
#undef X_EVENT
#undef X_REACH

/* Actions for the driver, in the order it carries them out. */
enum mesh_action {
	MESH_ACT_CLOSE	= 1u << 0,	/* close the peer's connection */
	MESH_ACT_CONNECT = 1u << 1,	/* open a new one */
	MESH_ACT_ROUND	= 1u << 2,	/* run one round on it */
	MESH_ACT_BW	= 1u << 3,	/* with ROUND: a bandwidth sample */
	MESH_ACT_TIMER	= 1u << 4,	/* the timer at next.due (0: off) */
	MESH_ACT_UP	= 1u << 5,	/* reachability became up */
	MESH_ACT_DOWN	= 1u << 6,	/* reachability became down */
	MESH_ACT_QUEUE	= 1u << 7,	/* due to connect, no slot: queue it */
	MESH_ACT_DEQUEUE = 1u << 8,	/* leave the queue (stopped) */
	MESH_ACT_SLOT	= 1u << 9,	/* a connect slot was freed */
};

/* What the driver records in the path's statistics. */
enum mesh_rec {
	MESH_REC_ROUND	= 1u << 0,	/* a round of class result */
	MESH_REC_SAMPLE	= 1u << 1,	/* with ROUND: it was a bandwidth
					   sample, no round: its figures
					   if OK, else only its result */
	MESH_REC_CONNECTED = 1u << 2,	/* a session was established */
	MESH_REC_DOWN	= 1u << 3,	/* the path went from up to down */
};

/* The kind of the path's error text (the last failure, for the table);
 * the driver's one writer words it with what only it knows. */
enum mesh_error {
	MESH_ERROR_KEEP,		/* as it is */
	MESH_ERROR_CLEAR,		/* started, or up: none */
	MESH_ERROR_CONNECT_TIMEOUT,	/* the connect's deadline passed */
	MESH_ERROR_ROUND_TIMEOUT,	/* the round's (or sample's) */
	MESH_ERROR_MISMATCH,		/* a round's bytes came back wrong */
	MESH_ERROR_KEY,			/* the pre-shared key: ours or none */
	MESH_ERROR_FAILED,		/* the client's words, or the
					   driver's own failure */
};

struct mesh_record {
	unsigned int what;		/* enum mesh_rec bits */
	enum mesh_error error;		/* the error text's kind */
	enum mesh_result result;	/* with ROUND */
	bool sized;			/* with ROUND: a round of size slot
					   SLOT of the sizes in force */
	unsigned int slot;
	uint32_t size;			/* with sized: that slot's size */
};

struct mesh_sched_cfg {
	uint64_t interval_ns;		/* between the starts of rounds */
	unsigned int jitter_pct;	/* 0..50: waits vary by that much */
	uint64_t connect_timeout_ns;
	uint64_t round_timeout_ns;
	uint64_t backoff_min_ns;
	uint64_t backoff_max_ns;
	uint64_t bw_every_ns;		/* per peer; 0: no samples */
	uint64_t bw_duration_ns;	/* a sample's planned link time */
	uint32_t bw_share_ppm;		/* of all time, for all samples */
	unsigned int connects_max;	/* at once, all peers; 0: no limit */
	unsigned int down_after;	/* failures in a row take the path
					   down (0 and 1: the first) */
	uint32_t sizes[CONFIG_MESH_SIZES_MAX];	/* rounds' sizes, in turn */
	unsigned int n_sizes;
};

/* Shared by every peer of one rdmad. */
struct mesh_budget {
	int64_t tokens;		/* ns of link time that may be spent now */
	uint64_t last;		/* when tokens were last brought up to date */
	bool busy;		/* a sample is running */
	uint64_t busy_since;
	uint64_t took_ns;	/* how long the last sample ran; 0: none yet */
	unsigned int connecting;	/* paths in "connecting" */
};

struct mesh_sched {
	enum mesh_state state;
	enum mesh_reach reach;
	uint64_t due;		/* the timer, absolute ns; 0: off */
	uint64_t round_at;	/* when the round in flight started */
	uint64_t bw_due;	/* a sample is wanted from then on; 0: never */
	unsigned int fails;	/* connects failed/lost since a good round:
				   the failures in a row */
	bool bw;		/* the round in flight is a sample */
	uint64_t rng;		/* the jitter's random state */
	uint32_t turn;		/* rounds started (samples too): whose
				   size is next */
	unsigned int slot;	/* the size slot of the round in flight */
};

struct mesh_step {
	struct mesh_sched next;
	unsigned int act;	/* enum mesh_action bits */
	uint64_t wait_ns;	/* with TIMER: next.due - now, for the log */
	uint32_t size;		/* with ROUND and no BW: its size (the
				   sizes in turn, a sample taking one) */
	struct mesh_record rec;	/* what to record */
};

/*
 * What the schedule assumes of CFG: NULL, or what is wrong (a static
 * string).  The settings come from [mesh] through mesh_policy_of()
 * (mesh_policy_rules.h); the configuration's key limits and checks are
 * the one place that refuses an operator's values, and whatever they
 * accept passes (test-mesh-targets proves it at the keys' bounds), so the
 * agent converts once, at commit, and checks nothing.
 */
const char *mesh_sched_cfg_check(const struct mesh_sched_cfg *cfg);

/* A peer's schedule, idle; SEED (any value) drives its jitter. */
void mesh_sched_init(struct mesh_sched *s, uint64_t seed);
/* The budget at NOW: full (one sample may start at once). */
void mesh_budget_init(struct mesh_budget *b, const struct mesh_sched_cfg *cfg,
		      uint64_t now);

/*
 * The transition for EV at NOW, with FAIL, what the client reported with
 * a ROUND_DONE (NONE: verified; MISMATCH: bad bytes), a CONNECT_FAILED
 * or a LOST (the driver's own failures: RDMA_CLIENT_FAIL_LOCAL).  The
 * schedule alone decides the class recorded (mesh_result_class(): TIMER
 * in "connecting" or "round" is a timeout, a session that ended without
 * a failure a completion error, a round that did not verify keeps the
 * connection).  0 with *out filled, or -EPROTO when EV does not belong
 * in that state (a stale completion, say): *out then holds CUR
 * unchanged and no action.  B is updated when a bandwidth sample starts
 * or ends.
 */
int mesh_sched_feed(const struct mesh_sched *cur,
		    const struct mesh_sched_cfg *cfg, struct mesh_budget *b,
		    enum mesh_event ev, enum rdma_client_fail fail,
		    uint64_t now, struct mesh_step *out);
/* The same with no failure reported (RDMA_CLIENT_FAIL_NONE). */
int mesh_sched_step(const struct mesh_sched *cur,
		    const struct mesh_sched_cfg *cfg, struct mesh_budget *b,
		    enum mesh_event ev, uint64_t now, struct mesh_step *out);

/* The wait around BASE_NS with CFG's jitter (advances *RNG). */
uint64_t mesh_sched_jitter(const struct mesh_sched_cfg *cfg, uint64_t *rng,
			   uint64_t base_ns);
/* The backoff after FAILS failures, before jitter. */
uint64_t mesh_sched_backoff(const struct mesh_sched_cfg *cfg,
			    unsigned int fails);

/*
 * How old a path's last bandwidth sample may be and still describe it,
 * with N_PATHS sampling paths sharing the budget: three of the periods
 * each path gets a sample in (bw_every, or longer when the share cannot
 * give every path one that often).  A sample costs the budget what it
 * ran: TOOK_NS, the last one's time (0: none yet), when it ran over
 * bw_duration (a starved host's samples do, and come that much less
 * often: their figures must not vanish as stale meanwhile).  0 when
 * samples are off: none is current.
 */
uint64_t mesh_sched_bw_max_age(const struct mesh_sched_cfg *cfg,
			       unsigned int n_paths, uint64_t took_ns);

const char *mesh_state_name(enum mesh_state s);
const char *mesh_event_name(enum mesh_event e);
const char *mesh_reach_name(enum mesh_reach r);

#endif /* RDMAD_MESH_SCHED_H */
