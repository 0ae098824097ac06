/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_health_fsm.c - a path's health from its rounds and samples: the
 * loss and slow CUSUMs, the flapping count, the state shown.  See
 * mesh_health_fsm.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_health_fsm.h"

#define X_NAME(n, s)	[MESH_HEALTH_##n] = s,
static const char *const health_names[] = { MESH_HEALTH_LIST(X_NAME) };
#undef X_NAME

#define X_NAME(n, s)	[MESH_HWHY_##n] = s,
static const char *const why_names[] = { MESH_HWHY_LIST(X_NAME) };
#undef X_NAME

/* The averages' weights: a new value moves them by 1/16 (rounds) and
 * 1/32 (samples, which come every few seconds: 2.7 min of a sample every
 * 5 s).  At 1/8 a 10 %-spread path's base wandered a quarter of a spread
 * and the slow test's false alarms came one in 10,300 samples, not the
 * 1e5 its threshold aims at (health-oracle, 1,000 path-hours); at 1/32
 * one in 120,000, and a 30 % drop is named as soon (p50 5 s, p99 20 s). */
#define BASE_SHIFT	16.0
#define BW_SHIFT	32.0

/* The slow test's false-alarm run length, in samples, that its threshold
 * keeps on a noisy path: about 5.8 days of a sample every 5 s. */
#define SLOW_ARL0	1e5
/* An excursion of the slow test longer than this joins the base anyway
 * (a drift that neither ends slow nor comes back). */
#define PEND_MAX	64
/* The most samples a noisy path's base learns from, and its longest
 * memory after (256 samples: 21 min of a sample every 5 s). */
#define BW_LEARN_MAX	256.0

const char *mesh_health_name(enum mesh_health_state s)
{
	return (unsigned int)s < MESH_HEALTH__COUNT ? health_names[s] : "?";
}

const char *mesh_health_why_name(enum mesh_health_why w)
{
	return (unsigned int)w < MESH_HWHY__COUNT ? why_names[w] : "?";
}

void mesh_health_cfg_default(struct mesh_health_cfg *cfg)
{
	*cfg = (struct mesh_health_cfg){
		.p0_ppm = 1000,
		.p1_ppm = 10000,
		.h_loss = 8.0,
		.retrans_ns = 250000000ull,
		.slow_pct = 20,
		.sigma_min_pct = 2,
		.h_slow = 5.0,
		.flap_downs = 3,
		.flap_window_ns = 300000000000ull,
		.learn_rounds = 16,
		.learn_samples = 8,
	};
}

const char *mesh_health_cfg_check(const struct mesh_health_cfg *cfg)
{
	if (cfg->p0_ppm == 0 || cfg->p0_ppm >= 1000000)
		return "p0 must be above 0 and under 100 %";
	if (cfg->p1_ppm <= cfg->p0_ppm || cfg->p1_ppm >= 1000000)
		return "p1 must be above p0 and under 100 %";
	if (!(cfg->h_loss > 0) || !(cfg->h_slow > 0))
		return "the CUSUM thresholds must be above 0";
	if (cfg->slow_pct == 0 || cfg->slow_pct >= 100)
		return "slow_pct must be 1 to 99";
	if (cfg->sigma_min_pct == 0 || cfg->sigma_min_pct >= 100)
		return "sigma_min_pct must be 1 to 99";
	if (cfg->flap_downs < 2 || cfg->flap_downs > MESH_HEALTH_FLAPS_MAX)
		return "flap_downs must be 2 to MESH_HEALTH_FLAPS_MAX";
	if (cfg->flap_window_ns == 0)
		return "the flapping window must be above 0";
	return NULL;
}

void mesh_health_init(struct mesh_health *h, uint64_t now)
{
	memset(h, 0, sizeof(*h));
	h->state = MESH_HEALTH_LEARNING;
	h->since = now;
}

void mesh_health_init_pool(struct mesh_health *h, uint64_t now,
			   unsigned int memory)
{
	mesh_health_init(h, now);
	h->usual_memory = memory;
}

/* The log-likelihood ratios of a bad and of a good round (a pool that
 * knows its usual share of bad rounds weighs against that). */
static void loss_llr(const struct mesh_health *h,
		     const struct mesh_health_cfg *cfg, double *bad,
		     double *good)
{
	double p0 = cfg->p0_ppm / 1e6, p1 = cfg->p1_ppm / 1e6, u;

	if (h->usual_memory && h->usual_bad > p0) {
		u = fmin(h->usual_bad, 0.4);
		p1 = fmax(u + (p1 - p0), 2 * u);
		p0 = u;
	}
	*bad = log(p1 / p0);
	*good = log((1 - p1) / (1 - p0));
}

/* Whether a pool is still learning its usual share of bad rounds. */
static bool usual_learning(const struct mesh_health *h)
{
	return h->usual_memory && h->n_usual < h->usual_memory;
}

/* A judged round into a pool's usual: each of the first usual_memory
 * alone (true: it learnt, the test does not judge it), then every one
 * while the pool is not lossy, with that memory (a fault's rounds join
 * it only until the test calls it lossy, a few hundred of a memory of
 * thousands; a false alarm's rounds are left out, so briefly that the
 * usual barely sinks). */
static bool usual_learn(struct mesh_health *h, bool bad)
{
	double x = bad ? 1.0 : 0.0;

	if (!h->usual_memory)
		return false;
	if (usual_learning(h)) {
		h->n_usual++;
		h->usual_bad += (x - h->usual_bad) / h->n_usual;
		return true;
	}
	if (!h->lossy)
		h->usual_bad += (x - h->usual_bad) / h->usual_memory;
	return false;
}

/* A round judged bad or good, into the loss CUSUM of H. */
static enum mesh_health_why loss_judge(struct mesh_health *h,
				       const struct mesh_health_cfg *cfg,
				       bool bad)
{
	double lb, lg, x;

	h->judged++;
	h->bad += bad;
	if (bad) {
		h->bad_at[h->bad_pos] = h->judged;
		h->bad_pos = (h->bad_pos + 1) % MESH_HEALTH_SPLIT_BADS;
	}
	if (usual_learn(h, bad))
		return MESH_HWHY_NONE;
	loss_llr(h, cfg, &lb, &lg);
	x = bad ? lb : lg;
	if (!h->lossy) {
		if (h->s_loss == 0) {
			h->exc_from = h->judged;
			h->exc_bad = h->bad - bad;
		}
		h->s_loss = fmax(0, h->s_loss + x);
		if (h->s_loss < cfg->h_loss)
			return MESH_HWHY_NONE;
		h->lossy = true;
		h->lossy_from = h->exc_from;
		h->lossy_bad = h->exc_bad;
		h->s_loss = 0;
		return MESH_HWHY_LOSS;
	}
	h->s_loss = fmax(0, h->s_loss - x);
	if (h->s_loss < cfg->h_loss)
		return MESH_HWHY_NONE;
	h->lossy = false;
	h->s_loss = 0;
	/* what it meets counts as a sibling's, for mesh_health_split,
	 * from now: when a loss on every path ends, the paths clear one by
	 * one, and the first to clear must not split the peer from those
	 * still lossy */
	h->fresh_from = h->judged;
	return MESH_HWHY_LOSS_GONE;
}

/* RTT into H's base: an average of its good rounds. */
static void base_learn(struct mesh_health *h, double rtt)
{
	h->base_ns = h->n_base ? h->base_ns + (rtt - h->base_ns) / BASE_SHIFT :
		     rtt;
	if (h->n_base < UINT32_MAX)
		h->n_base++;
}

/*
 * Late rounds and stalls.  A lost packet delays the one round it belongs
 * to; a stall of the peer (a starved guest: rxe answers from its kernel)
 * or of this host's I/O delays every round in flight at once.  So a late
 * round is held, not judged, until a round that started after it ended
 * comes (the next of the path, or of another path of the pool): judged
 * bad then if it stayed alone; if another late round started before the
 * span of late rounds ended, it joined them (the span grows to its end)
 * and none of them is judged: a stall is no evidence.  Independent
 * losses overlap seldom (rounds late by a retransmission, about 0.55 s
 * each, at 1 % of 8 rounds a second: about one in twenty).  In CI, three
 * rounds of one stall each counted made a healthy peer lossy; then six
 * stalls each counted once did (2026-11-30).
 */

/* The held late round's judgement, once a round starting at START shows
 * its span over: bad if it stayed alone. */
static enum mesh_health_why late_resolve(struct mesh_health *h,
					 const struct mesh_health_cfg *cfg,
					 uint64_t start)
{
	if (!h->late_held || start < h->late_to)
		return MESH_HWHY_NONE;
	h->late_held = false;
	if (h->late_n > 1)
		return MESH_HWHY_NONE;
	h->late_judged++;
	return loss_judge(h, cfg, true);
}

/* The late round from START to NOW: into the span it was in flight in,
 * or held as a new one. */
static void late_hold(struct mesh_health *h, uint64_t start, uint64_t now)
{
	if (h->late_to && start < h->late_to) {
		h->late_n++;
		/* the held one is a stall's too now */
		h->shared += h->late_held && h->late_n == 2 ? 2 : 1;
		if (now > h->late_to)
			h->late_to = now;
		return;
	}
	h->late_to = now;
	h->late_n = 1;
	h->late_held = true;
}

static enum mesh_health_why feed_round(struct mesh_health *h,
				       const struct mesh_health_cfg *cfg,
				       const struct mesh_health_obs *o,
				       uint64_t now)
{
	double rtt = (double)o->rtt_ns;
	uint64_t start = now > o->rtt_ns ? now - o->rtt_ns : 0;
	enum mesh_health_why held = late_resolve(h, cfg, start), why;
	double mark = h->base_ns + (double)cfg->retrans_ns;
	bool late;

	/* under local pressure a failed round is no evidence (the host may
	 * have run out its time), nor is the host's own delay: what the
	 * round took beyond the delay measured over it is the path's */
	if (h->down || (o->failed && (o->downs || o->pressured)))
		return held;
	late = !o->failed && h->n_base && rtt > mark;
	if (late && o->pressured && rtt - (double)o->local_ns <= mark) {
		/* the host's delay explains it: counted, not judged */
		h->late_pressured += !h->settle &&
				     h->n_base >= cfg->learn_rounds;
		return held;
	}
	/* the base learns from good rounds only (a late one is the fault,
	 * not the path), and from none under pressure */
	if (!o->failed && !late && !o->pressured)
		base_learn(h, rtt);
	/* the first rounds after an up are no evidence: a session just
	 * made (and a link just back) runs late a while */
	if (h->settle) {
		h->settle--;
		return held;
	}
	if (o->failed) {
		why = loss_judge(h, cfg, true);
		return why != MESH_HWHY_NONE ? why : held;
	}
	if (h->n_base < cfg->learn_rounds)
		return held;
	if (late) {
		late_hold(h, start, now);
		return held;
	}
	why = loss_judge(h, cfg, false);
	return why != MESH_HWHY_NONE ? why : held;
}

static double bw_sigma(const struct mesh_health *h,
		       const struct mesh_health_cfg *cfg)
{
	double min = -log(1 - cfg->sigma_min_pct / 100.0);

	return fmax(sqrt(h->bw_var), min);
}

/*
 * The slow test's threshold for a drop of d spreads: h_slow, or more on a
 * path whose samples spread so wide that a drop of slow_drop is within
 * their noise (d small), so that its false alarms stay SLOW_ARL0 samples
 * apart.  Siegmund's approximation of a one-sided Gaussian CUSUM's
 * in-control run length with reference k = d/2 and threshold h:
 *   ARL0 = (e^(2kb) - 2kb - 1) / (2k^2),  b = h + 1.166,
 * solved for b by fixed-point iteration (log grows slowly: a few steps).
 * A quiet path (2-10 % spread, d >= 2.2) keeps h_slow; a spread of 30 %
 * (d 0.74) needs about 13, one of 50 % (d 0.45) about 20, which a halved
 * bandwidth (1.4 spreads) passes in about 17 samples, a quartered one in
 * about 8.
 */
static double slow_h(const struct mesh_health_cfg *cfg, double d)
{
	double k = d / 2, b = 1, a = 2 * k * k * SLOW_ARL0;
	unsigned int i;

	for (i = 0; i < 32; i++)
		b = log(a + 2 * k * b + 1) / (2 * k);
	return fmax(cfg->h_slow, b - 1.166);
}

/* The slow test's reference: half of slow_drop, in the path's spreads. */
static double slow_k(const struct mesh_health *h,
		     const struct mesh_health_cfg *cfg)
{
	return -log(1 - cfg->slow_pct / 100.0) / bw_sigma(h, cfg) / 2;
}

/*
 * The memory of a path's base, in samples: BW_SHIFT, or 8/k^2 on a noisy
 * path (k small), at most BW_LEARN_MAX: a base whose own noise (its
 * spread over sqrt(2 x memory)) stays a quarter of k, else the base's
 * wander alone would reach the threshold (at a 50 % spread and 1/8, it
 * did: the base rose 0.8 spreads, the path went slow and stayed there).
 */
static double bw_memory(double k)
{
	return fmax(BW_SHIFT, fmin(8 / (k * k), BW_LEARN_MAX));
}

static bool bw_learnt(const struct mesh_health *h,
		      const struct mesh_health_cfg *cfg, double k)
{
	return h->n_bw >= cfg->learn_samples && h->n_bw >= bw_memory(k);
}

bool mesh_health_bw_learnt(const struct mesh_health *h,
			   const struct mesh_health_cfg *cfg)
{
	return bw_learnt(h, cfg, slow_k(h, cfg));
}

/* The excursion's samples join the base as n steps of its average would
 * (weight 1/memory each), and the excursion starts anew. */
static void pend_commit(struct mesh_health *h, double memory)
{
	double w, ybar, v;

	if (h->n_pend) {
		w = 1 - pow(1 - 1 / memory, h->n_pend);
		ybar = h->pend_y / h->n_pend;
		v = h->pend_y2 / h->n_pend - 2 * ybar * h->bw_mean +
		    h->bw_mean * h->bw_mean;
		h->bw_mean += w * (ybar - h->bw_mean);
		h->bw_var += w * (fmax(v, 0) - h->bw_var);
	}
	h->pend_y = h->pend_y2 = 0;
	h->n_pend = 0;
}

static enum mesh_health_why feed_sample(struct mesh_health *h,
					const struct mesh_health_cfg *cfg,
					const struct mesh_health_obs *o)
{
	double y, sigma, k, d, z, dev, hs;

	if (h->down || o->bytes_per_s == 0)
		return MESH_HWHY_NONE;
	y = log((double)o->bytes_per_s);
	k = slow_k(h, cfg);
	/* learning: the mean and spread of the first learn_samples, and on
	 * a noisy path as many as its base's memory */
	if (!bw_learnt(h, cfg, k)) {
		if (!h->n_bw) {
			h->bw_mean = y;
		} else {
			dev = y - h->bw_mean;
			h->bw_mean += dev / (h->n_bw + 1);
			h->bw_var += (dev * (y - h->bw_mean) - h->bw_var) /
				     (h->n_bw + 1);
		}
		h->n_bw++;
		return MESH_HWHY_NONE;
	}
	sigma = bw_sigma(h, cfg);
	d = 2 * k;
	z = (h->bw_mean - y) / sigma;
	hs = slow_h(cfg, d);
	if (!h->slow) {
		h->s_slow = fmax(0, h->s_slow + z - d / 2);
		if (h->s_slow >= hs) {
			/* the excursion was the drop: none of it in the base */
			h->slow = true;
			h->s_slow = 0;
			h->pend_y = h->pend_y2 = 0;
			h->n_pend = 0;
			return MESH_HWHY_SLOW;
		}
		/* a healthy sample moves the base, once the test is back at 0
		 * (on a noisy path it takes several samples: a base that
		 * followed them at once would hide the drop) */
		h->pend_y += y;
		h->pend_y2 += y * y;
		h->n_pend++;
		if (h->s_slow == 0 || h->n_pend >= PEND_MAX)
			pend_commit(h, bw_memory(k));
		return MESH_HWHY_NONE;
	}
	h->s_slow = fmax(0, h->s_slow - z + d / 2);
	if (h->s_slow < hs)
		return MESH_HWHY_NONE;
	h->slow = false;
	h->s_slow = 0;
	return MESH_HWHY_SLOW_GONE;
}

unsigned int mesh_health_flaps(const struct mesh_health *h,
			       const struct mesh_health_cfg *cfg, uint64_t now)
{
	unsigned int i, n = 0;

	for (i = 0; i < h->n_flaps; i++)
		if (now - h->flap_at[i] < cfg->flap_window_ns)
			n++;
	return n;
}

static enum mesh_health_state worst(const struct mesh_health *h,
				    const struct mesh_health_cfg *cfg,
				    uint64_t now)
{
	if (h->n_flaps && mesh_health_flaps(h, cfg, now) >= cfg->flap_downs)
		return MESH_HEALTH_FLAPPING;
	if (h->down)
		return MESH_HEALTH_DOWN;
	if (h->lossy)
		return MESH_HEALTH_LOSSY;
	if (h->slow)
		return MESH_HEALTH_SLOW;
	if (h->n_base < cfg->learn_rounds || usual_learning(h))
		return MESH_HEALTH_LEARNING;
	return MESH_HEALTH_HEALTHY;
}

void mesh_health_feed(const struct mesh_health *cur,
		      const struct mesh_health_cfg *cfg,
		      const struct mesh_health_obs *obs, uint64_t now,
		      struct mesh_health_step *out)
{
	struct mesh_health *h = &out->next;
	enum mesh_health_why why = MESH_HWHY_NONE;

	*h = *cur;
	out->lost_round = false;
	switch (obs->kind) {
	case MESH_HOBS_ROUND:
		why = feed_round(h, cfg, obs, now);
		break;
	case MESH_HOBS_SAMPLE:
		why = feed_sample(h, cfg, obs);
		break;
	case MESH_HOBS_DOWN:
		if (h->down)
			break;
		h->down = true;
		h->last_down = now;
		why = MESH_HWHY_DOWN;
		/* a flap once a connect fails: an outage, not a lost round */
		if (obs->was_up)
			h->flap_pending = now;
		break;
	case MESH_HOBS_CONNECT_FAILED:
		if (!h->down || !h->flap_pending)
			break;
		h->flap_at[h->flap_pos] = h->flap_pending;
		h->flap_pos = (h->flap_pos + 1) % MESH_HEALTH_FLAPS_MAX;
		if (h->n_flaps < MESH_HEALTH_FLAPS_MAX)
			h->n_flaps++;
		h->flap_pending = 0;
		break;
	case MESH_HOBS_UP:
		if (!h->down)
			break;
		h->down = false;
		why = MESH_HWHY_UP;
		/* a session made anew runs late a while */
		h->settle = cfg->learn_rounds;
		if (h->flap_pending) {
			/* back at the first connect: the down was the round
			 * it failed, loss's evidence (the pools' too) */
			h->flap_pending = 0;
			out->lost_round = true;
			if (loss_judge(h, cfg, true) == MESH_HWHY_LOSS)
				why = MESH_HWHY_LOSS;
			break;
		}
		/* what was learnt before the outage may not hold after it */
		h->s_loss = 0;
		h->fresh_from = h->judged;
		h->s_slow = 0;
		h->late_held = false;
		break;
	case MESH_HOBS_TICK:
		break;
	}
	h->state = worst(h, cfg, now);
	out->changed = h->state != cur->state;
	if (!out->changed) {
		out->why = MESH_HWHY_NONE;
		return;
	}
	h->since = now;
	if (h->state == MESH_HEALTH_FLAPPING)
		why = MESH_HWHY_FLAPS;
	else if (cur->state == MESH_HEALTH_FLAPPING)
		why = MESH_HWHY_FLAPS_GONE;
	else if (why == MESH_HWHY_NONE)
		why = MESH_HWHY_LEARNT;
	out->why = why;
}

/* Where H's K-th last bad round was (K >= 1, K <= its bad rounds and
 * MESH_HEALTH_SPLIT_BADS), in its judged rounds. */
static uint64_t bad_back(const struct mesh_health *h, unsigned int k)
{
	return h->bad_at[(h->bad_pos + MESH_HEALTH_SPLIT_BADS - k) %
			 MESH_HEALTH_SPLIT_BADS];
}

/* H's bad rounds among its last W judged ones; MESH_HEALTH_SPLIT_BADS:
 * as many or more. */
static unsigned int bads_within(const struct mesh_health *h, uint64_t w)
{
	unsigned int k, n = h->bad < MESH_HEALTH_SPLIT_BADS ?
			    (unsigned int)h->bad : MESH_HEALTH_SPLIT_BADS;

	for (k = 1; k <= n; k++)
		if (bad_back(h, k) + w <= h->judged)
			return k - 1;
	return n;
}

/* P(X >= K), X binomial over N rounds at one half. */
static double sign_tail(unsigned int k, unsigned int n)
{
	double c = 1, sum = 0;
	unsigned int i;

	for (i = 0; i <= n; i++) {
		if (i >= k)
			sum += c;
		c = c * (n - i) / (i + 1);
	}
	return sum / pow(2, n);
}

/* Whether a lossy path, its last K bad rounds over its last W judged
 * ones, splits from sibling S: S counting for W and LEAST before it (a
 * path just started or back compares its first rounds with nothing),
 * and few bad rounds in W. */
static bool split_from(const struct mesh_health *s, unsigned int k,
		       uint64_t w, uint64_t least)
{
	unsigned int b;

	if (s->state != MESH_HEALTH_HEALTHY ||
	    s->judged - s->fresh_from < w + least)
		return false;
	b = bads_within(s, w);
	return b < MESH_HEALTH_SPLIT_BADS &&
	       sign_tail(k, k + b) <= MESH_HEALTH_SPLIT_ALPHA;
}

unsigned int mesh_health_split(const struct mesh_health *const *paths,
			       unsigned int n,
			       const struct mesh_health_cfg *cfg)
{
	uint64_t least = (uint64_t)ceil(log(0.01) /
					log(1 - cfg->p1_ppm / 1e6));
	unsigned int i, j, k, split = 0;

	for (i = 0; i < n; i++) {
		const struct mesh_health *l = paths[i];
		uint64_t w;

		if (l->state != MESH_HEALTH_LOSSY ||
		    l->judged - l->lossy_from + 1 < least ||
		    l->bad == l->lossy_bad)
			continue;
		k = l->bad - l->lossy_bad < MESH_HEALTH_SPLIT_BADS ?
		    (unsigned int)(l->bad - l->lossy_bad) :
		    MESH_HEALTH_SPLIT_BADS;
		w = l->judged - bad_back(l, k) + 1;
		if (w < 2 * least)
			w = 2 * least;
		for (j = 0; j < n; j++)
			if (j != i && split_from(paths[j], k, w, least))
				break;
		split += j < n;
	}
	return split;
}

enum mesh_health_state mesh_health_peer(const struct mesh_health *pool,
					const enum mesh_health_state *paths,
					unsigned int n)
{
	unsigned int i, down = 0;

	for (i = 0; i < n; i++) {
		if (paths[i] == MESH_HEALTH_FLAPPING)
			return MESH_HEALTH_FLAPPING;
		down += paths[i] == MESH_HEALTH_DOWN;
	}
	if (n && down == n)
		return MESH_HEALTH_DOWN;
	if (pool)
		return pool->state;
	return n ? paths[0] : MESH_HEALTH_LEARNING;
}

/*
 * The same chain's L by Gauss-Seidel sweeps (L, N_H + N_A cells, the
 * last N_A zero): where the downward solution lost its digits, which is
 * where the verdict comes soon, so the sweeps are few.  At most ~1e8
 * cell updates; -1 past them.
 */
static double arl_iterate(double p, long n_a, long n_h, double *l)
{
	long i, sweep, sweeps = 100000000 / n_h;
	double v, change;

	memset(l, 0, (size_t)(n_h + n_a) * sizeof(*l));
	for (sweep = 0; sweep < sweeps; sweep++) {
		change = 0;
		for (i = 0; i < n_h; i++) {
			v = 1 + (1 - p) * l[i ? i - 1 : 0] + p * l[i + n_a];
			if (i == 0)	/* L_0 on both sides: p L_0 = 1 + p L_A */
				v = (1 + p * l[n_a]) / p;
			change = fmax(change, fabs(v - l[i]) / v);
			l[i] = v;
		}
		if (change < 1e-12)
			return l[0] < 1e12 ? l[0] : -1;
	}
	return -1;
}

/*
 * The loss CUSUM as a Markov chain on a grid of u = |llr(good)|: a good
 * round steps down one cell (not under 0), a bad one up A cells, the
 * chain ends at H.  The expected rounds L_i from cell i satisfy, for
 * i >= 1, L_i = 1 + (1-p) L_{i-1} + p L_{i+A} (L_j = 0 for j >= H), and
 * at 0, p L_0 = 1 + p L_A.  Written downward from L_{H-1} = x, every
 * L_i is a + b x; the equation at 0 gives x.  O(H).  Downward the
 * coefficients grow as (1-p)^-H: where that costs the answer its
 * digits (a large p), the equations' residual says so, and sweeps
 * (arl_iterate) answer instead.
 */
/* The chain's grid for CFG: the cells a bad round climbs, and the
 * threshold's cell; false when there is none. */
static bool arl_grid(const struct mesh_health_cfg *cfg, long *n_a, long *n_h)
{
	static const struct mesh_health fixed;	/* no usual: healthy_bad */
	double lb, lg;

	loss_llr(&fixed, cfg, &lb, &lg);
	if (lg >= 0 || lb <= 0)
		return false;
	*n_a = lround(lb / -lg);
	if (*n_a < 1)
		*n_a = 1;
	*n_h = (long)ceil(cfg->h_loss / -lg);
	if (*n_h < 1)
		*n_h = 1;
	return *n_h <= 10000000;
}

void mesh_health_arl_sweeps(const struct mesh_health_cfg *cfg,
			    uint32_t p_ppm, double *arl)
{
	double p = p_ppm / 1e6, *l;
	long n_a, n_h;

	*arl = -1;
	if (p <= 0 || p >= 1 || !arl_grid(cfg, &n_a, &n_h))
		return;
	l = calloc((size_t)(n_h + n_a), sizeof(*l));
	if (!l)
		return;
	*arl = arl_iterate(p, n_a, n_h, l);
	free(l);
}

void mesh_health_arl(const struct mesh_health_cfg *cfg, uint32_t p_ppm,
		     double *arl)
{
	double p = p_ppm / 1e6, *a, *b, x, l0, l1, la, res;
	long n_a, n_h, i;

	*arl = -1;
	if (p <= 0 || !arl_grid(cfg, &n_a, &n_h))
		return;
	if (p >= 1) {
		*arl = (double)((n_h + n_a - 1) / n_a);
		return;
	}
	/* cells n_h .. n_h + n_a - 1 stay 0: past the threshold */
	a = calloc((size_t)(n_h + n_a), sizeof(*a));
	b = calloc((size_t)(n_h + n_a), sizeof(*b));
	if (!a || !b)
		goto out;
	b[n_h - 1] = 1;
	for (i = n_h - 1; i >= 1; i--) {
		a[i - 1] = (a[i] - 1 - p * a[i + n_a]) / (1 - p);
		b[i - 1] = (b[i] - p * b[i + n_a]) / (1 - p);
	}
	/* p (a0 + b0 x) - p (aA + bA x) = 1 */
	if (b[0] == b[n_a])
		goto out;
	x = (1 / p - a[0] + a[n_a]) / (b[0] - b[n_a]);
	l0 = a[0] + b[0] * x;
	la = a[n_a] + b[n_a] * x;
	/* the equation of cell 1 (or 0's own), checked */
	if (n_h > 1) {
		l1 = a[1] + b[1] * x;
		res = l1 - 1 - (1 - p) * l0 - p * (a[1 + n_a] + b[1 + n_a] * x);
	} else {
		res = p * l0 - 1 - p * la;
	}
	if (isfinite(l0) && l0 >= 1 && l0 < 1e12 && fabs(res) < 1e-6 * l0)
		*arl = l0;
	else
		*arl = arl_iterate(p, n_a, n_h, a);
out:
	free(a);
	free(b);
}
