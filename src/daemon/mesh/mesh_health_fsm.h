/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_health_fsm.h - what a path is, decided in the agent from every
 * round and bandwidth sample as it ends: healthy, lossy, slow, down or
 * flapping (docs/mesh.md, "Decided in the agent").  The same machine
 * serves a pool of paths (a peer's, a rail's): their rounds fed to one
 * state.  Pure: no clock, no I/O; times are arguments.
 *
 * Lossy.  RC hides light loss: a lost packet is sent again, after the
 * ACK timeout when it was a message's last (0.537 s on rxe), and the
 * round verifies, late.  So a round is bad when it failed or took more
 * than retrans_ns above the path's base latency (an average of its good
 * rounds).  Page's CUSUM of the log-likelihood ratio of "bad" between a
 * lossy path (p1 of its rounds bad) and a healthy one (p0):
 *   S = max(0, S + log(p1/p0))              for a bad round
 *   S = max(0, S + log((1-p1)/(1-p0)))      for a good one
 * lossy once S reaches h_loss; in lossy the same test the other way
 * (healthy against lossy) brings it back.  Expected rounds to a false
 * alarm at p0 and to detection at p1: docs/mesh.md, and
 * mesh_health_arl(), which computes both for a configuration.  Late
 * rounds in flight at once are a stall of the peer or of this host, no
 * evidence: a late round is held until a round that started after it
 * ended comes, and judged bad only if no other late round started
 * before the span of late rounds ended (a pool sees every path's).
 *
 * Slow.  A bandwidth sample's y = log(bytes/s) against the path's base
 * (an average of its healthy samples, and their spread sigma, never
 * under sigma_min_pct): a one-sided Gaussian CUSUM for a drop of
 * slow_pct percent, z = (base - y) / sigma, S = max(0, S + z - d/2),
 * d = -log(1 - slow_pct/100) / sigma; slow once S reaches h_slow, or
 * on a noisy path (d small) the higher threshold that keeps false alarms
 * 1e5 samples apart; back the other way.  The base learns from
 * learn_samples samples, or 8/(d/2)^2 on a noisy path (at most 256),
 * then follows with a memory of that or 32 samples, the longer; an
 * excursion's samples join it only once S is back at 0.  While slow
 * the base holds still (else it would learn the fault).
 *
 * Down and up are the schedule's (mesh_sched: down_after failures);
 * flapping is flap_downs flaps within flap_window_ns, until a window
 * passes with fewer.  A flap is a down of a path that was up and could
 * not come back at once: a connect failed before it was up again (the
 * flap is dated at the down).  A path back at its first connect lost one
 * round, not its link: that round is the loss test's evidence (in the
 * pools too: the step says lost_round), and what was learnt stays (at
 * down_after 1, 1 % of rounds timing out at random made three downs in
 * five minutes as likely as not, and most pairs of a healthy fleet
 * flapping).  A round under local pressure (mesh_load_check) is judged
 * on what it took beyond the host's delay measured over it (local_ns):
 * late only if that is still late (in t-100 a quarter of the rounds
 * retransmissions made late were under pressure, three times the share
 * of all rounds, and were all set aside); failed, it is no evidence, and
 * the base never learns from it.  So are rounds while the path is down (its
 * failed connects are the schedule's business), and a failed round that
 * took the path down: the down is its evidence (a flap), not the loss
 * test's, in the path's pools too (they never see the down; a flapping
 * link's timed-out rounds made its peer lossy after the flapping ended).
 *
 * One state is shown, the worst: flapping, down, lossy, slow, healthy;
 * "learning" until the base holds learn_rounds rounds (lossy needs them;
 * a failed round counts before), and a place pool until it has learnt
 * its usual share of bad rounds (mesh_health_init_pool).  The slow test judges once its base
 * holds learn_samples samples, and more on a noisy path
 * (mesh_health_bw_learnt): a path without samples is never slow, and
 * healthy all the same.
 */
#ifndef RDMAD_MESH_HEALTH_FSM_H
#define RDMAD_MESH_HEALTH_FSM_H

#include <stdbool.h>
#include <stdint.h>

#define MESH_HEALTH_LIST(X)		\
	X(LEARNING, "learning")		\
	X(HEALTHY, "healthy")		\
	X(SLOW, "slow")			\
	X(LOSSY, "lossy")		\
	X(DOWN, "down")			\
	X(FLAPPING, "flapping")

#define X_HEALTH(n, s)	MESH_HEALTH_##n,
enum mesh_health_state { MESH_HEALTH_LIST(X_HEALTH) MESH_HEALTH__COUNT };
#undef X_HEALTH

/* A place pool's memory of its usual share of bad rounds, in judged
 * rounds: at 0.5 % bad its estimate's own noise is a tenth of it
 * (sqrt(p / 2m) / p); at 8 rounds a second, 4 minutes to learn. */
#define MESH_HEALTH_POOL_MEMORY	2000

/* Bad rounds a path remembers for mesh_health_split: a lossy path's last
 * ones weighed against its siblings' in the same rounds, and its
 * siblings' there. */
#define MESH_HEALTH_SPLIT_BADS	16

/* mesh_health_split's false-alarm chance per judgement: that the lossy
 * path's share of the bad rounds it and a sibling met over its window is
 * as large as it is, were both as bad (a one-sided sign test).  10 bad
 * rounds against none pass it (2^-10), 9 do not. */
#define MESH_HEALTH_SPLIT_ALPHA	0.001

/* Downs remembered for the flapping test (flap_downs at most). */
#define MESH_HEALTH_FLAPS_MAX	16

struct mesh_health_cfg {
	uint32_t p0_ppm;		/* bad rounds of a healthy path */
	uint32_t p1_ppm;		/* ... of a lossy one (> p0) */
	double h_loss;			/* the loss CUSUM's threshold (nats) */
	uint64_t retrans_ns;		/* above the base: a late round */
	unsigned int slow_pct;		/* a bandwidth drop named slow */
	unsigned int sigma_min_pct;	/* the samples' spread, at least */
	double h_slow;			/* the slow CUSUM's threshold */
	unsigned int flap_downs;	/* downs within the window: flapping */
	uint64_t flap_window_ns;
	unsigned int learn_rounds;	/* good rounds before lossy is judged */
	unsigned int learn_samples;	/* samples before slow is judged */
};

struct mesh_health {
	enum mesh_health_state state;	/* the worst of the flags below */
	bool lossy, slow, down;
	double s_loss;		/* toward lossy, or back when lossy */
	double s_slow;		/* toward slow, or back when slow */
	double base_ns;		/* good rounds' latency, averaged */
	unsigned int n_base;	/* good rounds in it (saturates) */
	unsigned int settle;	/* rounds after an up not yet judged */
	double bw_mean, bw_var;	/* log bytes/s of healthy samples */
	unsigned int n_bw;	/* samples in them (saturates) */
	/* samples since the slow test last stood at 0 (an excursion): they
	 * join the base once it is back there, never if it ends slow */
	double pend_y, pend_y2;	/* their sum, and of their squares */
	unsigned int n_pend;
	uint64_t flap_at[MESH_HEALTH_FLAPS_MAX];	/* downs, a ring */
	unsigned int n_flaps, flap_pos;
	uint64_t last_down;	/* when it last went down; 0: never */
	uint64_t flap_pending;	/* down since, a flap once a connect fails;
				   0: none */
	uint64_t since;		/* when state was entered */
	uint64_t bad, judged;	/* rounds judged, and of them bad */
	/* for mesh_health_split, in judged rounds: where its last bad
	 * rounds were (a ring), and where what it met began to count as
	 * a sibling's (its start, an up after an outage, its leaving
	 * lossy: before, it met the fault too or nothing) */
	uint64_t bad_at[MESH_HEALTH_SPLIT_BADS];
	unsigned int bad_pos;
	uint64_t fresh_from;
	uint64_t exc_from;	/* the loss test's excursion from 0 began */
	uint64_t exc_bad;	/* ... with this many bad rounds before it */
	uint64_t lossy_from;	/* ... the one that made it lossy */
	uint64_t lossy_bad;	/* ... and its exc_bad */
	uint64_t late_to;	/* the last late rounds' span ends; 0: none */
	unsigned int late_n;	/* late rounds in it */
	bool late_held;		/* its first awaits judgement (alone: bad) */
	uint64_t shared;	/* late rounds of stalls: not judged */
	/* late rounds judged bad (each alone), and late rounds under local
	 * pressure that the host's delay explains (not judged): with shared,
	 * what became of the late rounds, for
	 * rdmad_mesh_prober_late_rounds_total */
	uint64_t late_judged, late_pressured;
	/* A pool's usual share of bad rounds (mesh_health_init_pool; 0
	 * memory: none, the loss test against healthy_bad alone).  Learnt
	 * from its first usual_memory judged rounds (learning meanwhile),
	 * then followed with that memory by every judged round while it is
	 * not lossy.  The test then weighs healthy as the higher of
	 * healthy_bad and the usual, lossy as the higher of that plus the
	 * gap between lossy_bad and healthy_bad and twice the usual: noise
	 * that every round of a pool meets alike (isolated failures all over
	 * a fleet) is its usual, and a fault on top of it still stands out. */
	unsigned int usual_memory, n_usual;
	double usual_bad;
};

enum mesh_health_obs_kind {
	MESH_HOBS_ROUND,	/* a round ended: failed, rtt_ns, pressured */
	MESH_HOBS_SAMPLE,	/* a bandwidth sample verified: bytes_per_s */
	MESH_HOBS_DOWN,		/* the schedule took the path down */
	MESH_HOBS_UP,		/* ... and up */
	MESH_HOBS_CONNECT_FAILED, /* a connect of the down path failed */
	MESH_HOBS_TICK,		/* time passed (the flapping window ends) */
};

struct mesh_health_obs {
	enum mesh_health_obs_kind kind;
	bool failed;		/* ROUND: it did not verify */
	bool pressured;		/* ROUND: under local pressure */
	uint64_t local_ns;	/* ROUND, pressured: the host's own delay
				   measured over it (loop lag, run-queue
				   wait, PSI), taken off its latency */
	bool downs;		/* ROUND: failed, it took the path down (the
				   schedule's down_after): a down's evidence,
				   not loss's */
	bool was_up;		/* DOWN: the path was up before (a flap;
				   a path never up is down without one) */
	uint64_t rtt_ns;	/* ROUND, not failed */
	uint64_t bytes_per_s;	/* SAMPLE */
};

/* Why the state changed (for the log line the driver writes). */
#define MESH_HWHY_LIST(X)						\
	X(NONE, "none")							\
	X(LEARNT, "learnt")		/* the bases are complete */	\
	X(LOSS, "loss")			/* the loss CUSUM reached h */	\
	X(LOSS_GONE, "loss-gone")	/* ... and back */		\
	X(SLOW, "slow")			/* the slow CUSUM reached h */	\
	X(SLOW_GONE, "slow-gone")					\
	X(DOWN, "down")							\
	X(UP, "up")							\
	X(FLAPS, "flaps")		/* flap_downs in the window */	\
	X(FLAPS_GONE, "flaps-gone")	/* fewer in it */

#define X_HWHY(n, s)	MESH_HWHY_##n,
enum mesh_health_why { MESH_HWHY_LIST(X_HWHY) MESH_HWHY__COUNT };
#undef X_HWHY

struct mesh_health_step {
	struct mesh_health next;
	bool changed;			/* next.state != cur->state */
	enum mesh_health_why why;	/* with changed */
	bool lost_round;		/* UP: the down was one lost round,
					   the pools' evidence too */
};

/* NULL, or what is wrong with CFG (a static string). */
const char *mesh_health_cfg_check(const struct mesh_health_cfg *cfg);
/* The defaults (docs/mesh.md): p0 0.1 %, p1 1 %, h 8, 250 ms, 20 %... */
void mesh_health_cfg_default(struct mesh_health_cfg *cfg);

void mesh_health_init(struct mesh_health *h, uint64_t now);
/* The same for a pool that learns its usual share of bad rounds over
 * MEMORY judged rounds (MESH_HEALTH_POOL_MEMORY). */
void mesh_health_init_pool(struct mesh_health *h, uint64_t now,
			   unsigned int memory);
/* The machine's step: CUR and OBS at NOW under CFG into OUT. */
void mesh_health_feed(const struct mesh_health *cur,
		      const struct mesh_health_cfg *cfg,
		      const struct mesh_health_obs *obs, uint64_t now,
		      struct mesh_health_step *out);

/*
 * The loss test's expected rounds under CFG, from a fresh start, to its
 * verdict when a share P_PPM of the rounds are bad: at p0 the rounds to
 * a false alarm, at p1 (or the share a fault makes) the detection delay.
 * A Markov chain over the CUSUM's values (Brook and Evans), exact up to
 * its grid (a step of |log((1-p1)/(1-p0))|).  -1 when it cannot tell
 * (beyond 1e12 rounds).
 */
void mesh_health_arl(const struct mesh_health_cfg *cfg, uint32_t p_ppm,
		     double *arl);
/* The same chain by Gauss-Seidel sweeps: slow where the verdict is far
 * (-1 past ~1e8 cell updates), the check of the other. */
void mesh_health_arl_sweeps(const struct mesh_health_cfg *cfg,
			    uint32_t p_ppm, double *arl);

/* Whether H's slow test has learnt its usual bandwidth (and judges). */
bool mesh_health_bw_learnt(const struct mesh_health *h,
			   const struct mesh_health_cfg *cfg);

/*
 * A peer's health from its paths' (PATHS, N of them) and the pool of
 * their rounds (NULL with one path: that path's): flapping when one
 * path is, down when every path is, else the pool's.
 */
enum mesh_health_state mesh_health_peer(const struct mesh_health *pool,
					const enum mesh_health_state *paths,
					unsigned int n);

/*
 * A peer's paths split (docs/mesh.md, "Which paths see it"): of its N
 * paths (PATHS, each its own machine, judged at one pace), how many are
 * lossy, for at least LEAST rounds (log 0.01 / log(1 - p1): a path at
 * lossy_bad meets a bad one in them with 99 %; counted from where its
 * loss test's excursion began), while a healthy sibling, counting for
 * that window and LEAST rounds before it, met so few bad rounds in the
 * lossy one's window (back to its last K bad rounds since that
 * excursion, K at most MESH_HEALTH_SPLIT_BADS; 2 LEAST rounds at least)
 * that a sign test calls the lossy one's K more than chance
 * (MESH_HEALTH_SPLIT_ALPHA); 0 when none is.  A lossy port or uplink
 * meets every path of the peer alike; one of several ECMP links only the
 * paths whose source port hashes onto it, and the others stay clean.
 */
unsigned int mesh_health_split(const struct mesh_health *const *paths,
			       unsigned int n,
			       const struct mesh_health_cfg *cfg);

const char *mesh_health_name(enum mesh_health_state s);
/* H's downs within CFG's flapping window ending at NOW. */
unsigned int mesh_health_flaps(const struct mesh_health *h,
			       const struct mesh_health_cfg *cfg, uint64_t now);
const char *mesh_health_why_name(enum mesh_health_why w);

#endif /* RDMAD_MESH_HEALTH_FSM_H */
