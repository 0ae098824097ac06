/* SPDX-License-Identifier: BSD-2-Clause */
/* mesh_sched.c - a mesh peer's schedule, pure (see mesh_sched.h). */
#include <errno.h>
#include <string.h>

#include "mesh/mesh_sched.h"

#define PPM		1000000ull

const char *mesh_sched_cfg_check(const struct mesh_sched_cfg *cfg)
{
	if (!cfg->interval_ns)
		return "the interval must be longer than 0";
	if (cfg->jitter_pct > 50)
		return "the jitter must be at most 50 %";
	if (!cfg->connect_timeout_ns || !cfg->round_timeout_ns)
		return "timeouts must be longer than 0";
	if (!cfg->backoff_min_ns || cfg->backoff_max_ns < cfg->backoff_min_ns)
		return "the backoff must be longer than 0, its maximum at "
		       "least its minimum";
	if (cfg->bw_every_ns && (!cfg->bw_duration_ns || !cfg->bw_share_ppm))
		return "bandwidth samples need a duration and a share of "
		       "the time";
	if (cfg->bw_share_ppm > PPM)
		return "the bandwidth share must be at most 100 %";
	return NULL;
}

void mesh_sched_init(struct mesh_sched *s, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->state = MESH_ST_IDLE;
	s->reach = MESH_REACH_UNKNOWN;
	s->rng = seed;
}

/* splitmix64: one 64-bit draw. */
static uint64_t mesh_sched_rand(uint64_t *rng)
{
	uint64_t z = (*rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n); 0 when n is 0. */
static uint64_t mesh_sched_below(uint64_t *rng, uint64_t n)
{
	return n ? mesh_sched_rand(rng) % n : 0;
}

uint64_t mesh_sched_jitter(const struct mesh_sched_cfg *cfg, uint64_t *rng,
			   uint64_t base_ns)
{
	uint64_t span = base_ns / 100 * cfg->jitter_pct +
			base_ns % 100 * cfg->jitter_pct / 100;

	if (!span)
		return base_ns;
	return base_ns - span + mesh_sched_below(rng, 2 * span + 1);
}

uint64_t mesh_sched_backoff(const struct mesh_sched_cfg *cfg,
			    unsigned int fails)
{
	uint64_t d = cfg->backoff_min_ns;

	while (fails-- > 1 && d < cfg->backoff_max_ns)
		d = d > cfg->backoff_max_ns / 2 ? cfg->backoff_max_ns : d * 2;
	return d < cfg->backoff_max_ns ? d : cfg->backoff_max_ns;
}

/* ---- the bandwidth budget -------------------------------------------- */

void mesh_budget_init(struct mesh_budget *b, const struct mesh_sched_cfg *cfg,
		      uint64_t now)
{
	memset(b, 0, sizeof(*b));
	b->tokens = (int64_t)cfg->bw_duration_ns;
	b->last = now;
}

/* Tokens earned since b->last at bw_share_ppm, holding one sample. */
static void mesh_budget_fill(struct mesh_budget *b,
			     const struct mesh_sched_cfg *cfg, uint64_t now)
{
	uint64_t dt, earned, cap = cfg->bw_duration_ns;

	if (now <= b->last)
		return;
	dt = now - b->last;
	b->last = now;
	earned = dt / PPM * cfg->bw_share_ppm +
		 dt % PPM * cfg->bw_share_ppm / PPM;
	if (earned >= cap || b->tokens + (int64_t)earned >= (int64_t)cap)
		b->tokens = (int64_t)cap;
	else
		b->tokens += (int64_t)earned;
}

/* A sample may start now: take its planned time. */
static bool mesh_budget_take(struct mesh_budget *b,
			     const struct mesh_sched_cfg *cfg, uint64_t now)
{
	mesh_budget_fill(b, cfg, now);
	if (b->busy || b->tokens < (int64_t)cfg->bw_duration_ns)
		return false;
	b->tokens -= (int64_t)cfg->bw_duration_ns;
	b->busy = true;
	b->busy_since = now;
	return true;
}

/* The sample ended: charge what it ran over its planned time. */
static void mesh_budget_end(struct mesh_budget *b,
			    const struct mesh_sched_cfg *cfg, uint64_t now)
{
	uint64_t used;

	mesh_budget_fill(b, cfg, now);
	if (!b->busy)
		return;
	used = now > b->busy_since ? now - b->busy_since : 0;
	b->took_ns = used;
	if (used > cfg->bw_duration_ns)
		b->tokens -= (int64_t)(used - cfg->bw_duration_ns);
	b->busy = false;
}

/* ---- transitions ------------------------------------------------------ */

static void mesh_sched_timer(struct mesh_step *out, uint64_t now,
			     uint64_t wait)
{
	out->next.due = now + wait;
	out->wait_ns = wait;
	out->act |= MESH_ACT_TIMER;
}

static void mesh_sched_reach(struct mesh_step *out, enum mesh_reach r)
{
	if (out->next.reach == r)
		return;
	out->next.reach = r;
	out->act |= r == MESH_REACH_UP ? MESH_ACT_UP : MESH_ACT_DOWN;
}

static void mesh_sched_round(struct mesh_step *out,
			     const struct mesh_sched_cfg *cfg,
			     struct mesh_budget *b, uint64_t now)
{
	struct mesh_sched *n = &out->next;
	uint64_t deadline = cfg->round_timeout_ns;

	n->state = MESH_ST_ROUND;
	n->round_at = now;
	n->slot = cfg->n_sizes ? n->turn % cfg->n_sizes : 0;
	n->turn++;
	/* Samples turned on by a reload: this path's first one within
	 * one period, spread as at START. */
	if (cfg->bw_every_ns && !n->bw_due)
		n->bw_due = now + 1 + mesh_sched_below(&n->rng,
						       cfg->bw_every_ns);
	n->bw = cfg->bw_every_ns && n->bw_due && now >= n->bw_due &&
		mesh_budget_take(b, cfg, now);
	out->act |= MESH_ACT_ROUND;
	if (!n->bw && n->slot < cfg->n_sizes)
		out->size = cfg->sizes[n->slot];
	if (n->bw) {
		out->act |= MESH_ACT_BW;
		deadline += cfg->bw_duration_ns;
		n->bw_due = now + mesh_sched_jitter(cfg, &n->rng,
						    cfg->bw_every_ns);
	}
	mesh_sched_timer(out, now, deadline);
}

static void mesh_sched_round_end(struct mesh_step *out,
				 const struct mesh_sched_cfg *cfg,
				 struct mesh_budget *b, uint64_t now)
{
	if (out->next.bw)
		mesh_budget_end(b, cfg, now);
	out->next.bw = false;
}

/* Record a round of class R (sized: of the size in turn). */
static void mesh_sched_rec_round(struct mesh_step *out,
				 const struct mesh_sched_cfg *cfg,
				 const struct mesh_sched *cur,
				 enum mesh_result r)
{
	out->rec.what |= MESH_REC_ROUND;
	out->rec.result = r;
	/* a reload may have taken the round's size away meanwhile */
	out->rec.sized = cur->state == MESH_ST_ROUND && !cur->bw &&
			 cur->slot < cfg->n_sizes;
	out->rec.slot = out->rec.sized ? cur->slot : CONFIG_MESH_SIZES_MAX;
	out->rec.size = out->rec.sized ? cfg->sizes[cur->slot] : 0;
	if (cur->state == MESH_ST_ROUND && cur->bw)
		out->rec.what |= MESH_REC_SAMPLE;
}

/* Leaving "connecting": its slot is free again. */
static void mesh_sched_slot_free(struct mesh_step *out,
				 const struct mesh_sched *cur,
				 struct mesh_budget *b)
{
	if (cur->state != MESH_ST_CONNECTING)
		return;
	if (b->connecting)
		b->connecting--;
	out->act |= MESH_ACT_SLOT;
}

/* The connection failed or was lost: close it, back off. */
static void mesh_sched_fail(struct mesh_step *out,
			    const struct mesh_sched_cfg *cfg, uint64_t now)
{
	struct mesh_sched *n = &out->next;

	out->act |= MESH_ACT_CLOSE;
	n->fails++;
	if (n->fails >= cfg->down_after) {
		if (n->reach == MESH_REACH_UP)
			out->rec.what |= MESH_REC_DOWN;
		mesh_sched_reach(out, MESH_REACH_DOWN);
	}
	n->state = MESH_ST_BACKOFF;
	mesh_sched_timer(out, now, mesh_sched_jitter(cfg, &n->rng,
				mesh_sched_backoff(cfg, n->fails)));
}

/* A round ended with the connection intact (good bytes or not). */
static void mesh_sched_next_round(struct mesh_step *out,
				  const struct mesh_sched_cfg *cfg,
				  uint64_t now)
{
	struct mesh_sched *n = &out->next;
	uint64_t at = n->round_at + mesh_sched_jitter(cfg, &n->rng,
						      cfg->interval_ns);

	n->state = MESH_ST_WAIT;
	n->fails = 0;
	mesh_sched_reach(out, MESH_REACH_UP);
	mesh_sched_timer(out, now, at > now ? at - now : 0);
}

static int mesh_sched_stop(const struct mesh_sched *cur,
			   const struct mesh_sched_cfg *cfg,
			   struct mesh_budget *b, uint64_t now,
			   struct mesh_step *out)
{
	if (cur->state == MESH_ST_IDLE)
		return 0;
	if (cur->state == MESH_ST_CONNECTING || cur->state == MESH_ST_WAIT ||
	    cur->state == MESH_ST_ROUND)
		out->act |= MESH_ACT_CLOSE;
	if (cur->state == MESH_ST_PENDING || cur->state == MESH_ST_BACKOFF)
		out->act |= MESH_ACT_DEQUEUE;
	mesh_sched_slot_free(out, cur, b);
	/* Its reachability is no longer known: a stopped path is not up. */
	out->next.reach = MESH_REACH_UNKNOWN;
	mesh_sched_round_end(out, cfg, b, now);
	out->next.state = MESH_ST_IDLE;
	out->next.due = 0;
	out->act |= MESH_ACT_TIMER;
	return 0;
}

/* The class of EV's end: the schedule's deadline is a timeout, a round's
 * end the client's verdict, anything else the end of its session. */
static enum mesh_result mesh_sched_class(enum mesh_event ev,
					 enum rdma_client_fail fail)
{
	if (ev == MESH_EV_TIMER)
		return mesh_result_class(RDMA_CLIENT_FAIL_TIMEOUT, true,
					 false);
	return mesh_result_class(fail, false, ev != MESH_EV_ROUND_DONE);
}

/* The kind of error text the step leaves on the path. */
static enum mesh_error mesh_sched_error(const struct mesh_sched *cur,
					enum mesh_event ev,
					enum rdma_client_fail fail,
					enum mesh_result cls,
					const struct mesh_step *out)
{
	if (ev == MESH_EV_START || (out->act & MESH_ACT_UP))
		return MESH_ERROR_CLEAR;
	if (ev == MESH_EV_TIMER && (out->rec.what & MESH_REC_ROUND))
		return cur->state == MESH_ST_CONNECTING ?
		       MESH_ERROR_CONNECT_TIMEOUT : MESH_ERROR_ROUND_TIMEOUT;
	if (ev == MESH_EV_ROUND_DONE)
		return cls == MESH_RES_OK ? MESH_ERROR_KEEP :
		       MESH_ERROR_MISMATCH;
	if (ev == MESH_EV_CONNECT_FAILED || ev == MESH_EV_LOST)
		return fail == RDMA_CLIENT_FAIL_KEY ? MESH_ERROR_KEY :
		       MESH_ERROR_FAILED;
	return MESH_ERROR_KEEP;
}

static int mesh_sched_switch(const struct mesh_sched *cur,
			     const struct mesh_sched_cfg *cfg,
			     struct mesh_budget *b, enum mesh_event ev,
			     enum mesh_result cls, uint64_t now,
			     struct mesh_step *out)
{
	struct mesh_sched *n = &out->next;

	memset(out, 0, sizeof(*out));
	*n = *cur;
	if (ev == MESH_EV_STOP)
		return mesh_sched_stop(cur, cfg, b, now, out);

	switch (cur->state) {
	case MESH_ST_IDLE:
		if (ev != MESH_EV_START)
			break;
		n->state = MESH_ST_PENDING;
		n->bw_due = cfg->bw_every_ns ? now + 1 +
			mesh_sched_below(&n->rng, cfg->bw_every_ns) : 0;
		mesh_sched_timer(out, now,
				 mesh_sched_below(&n->rng, cfg->interval_ns));
		return 0;
	case MESH_ST_PENDING:
	case MESH_ST_BACKOFF:
		if (ev != MESH_EV_TIMER)
			break;
		/* Every slot taken: wait in line; the deadline of the
		 * connect starts when it really starts. */
		if (cfg->connects_max && b->connecting >= cfg->connects_max) {
			out->act |= MESH_ACT_QUEUE;
			return 0;
		}
		b->connecting++;
		n->state = MESH_ST_CONNECTING;
		out->act |= MESH_ACT_CONNECT;
		mesh_sched_timer(out, now, cfg->connect_timeout_ns);
		return 0;
	case MESH_ST_CONNECTING:
		if (ev == MESH_EV_CONNECTED) {
			mesh_sched_slot_free(out, cur, b);
			out->rec.what |= MESH_REC_CONNECTED;
			mesh_sched_round(out, cfg, b, now);
			return 0;
		}
		if (ev != MESH_EV_CONNECT_FAILED && ev != MESH_EV_TIMER &&
		    ev != MESH_EV_LOST)
			break;
		mesh_sched_slot_free(out, cur, b);
		mesh_sched_rec_round(out, cfg, cur, cls);
		mesh_sched_fail(out, cfg, now);
		return 0;
	case MESH_ST_WAIT:
		if (ev == MESH_EV_TIMER) {
			mesh_sched_round(out, cfg, b, now);
			return 0;
		}
		if (ev != MESH_EV_LOST)
			break;
		/* Between rounds a lost session is no round. */
		mesh_sched_fail(out, cfg, now);
		return 0;
	case MESH_ST_ROUND:
		if (ev == MESH_EV_ROUND_DONE) {
			/* verified or not, the connection held */
			mesh_sched_rec_round(out, cfg, cur, cls);
			mesh_sched_round_end(out, cfg, b, now);
			mesh_sched_next_round(out, cfg, now);
			return 0;
		}
		if (ev != MESH_EV_TIMER && ev != MESH_EV_LOST)
			break;
		mesh_sched_rec_round(out, cfg, cur, cls);
		mesh_sched_round_end(out, cfg, b, now);
		mesh_sched_fail(out, cfg, now);
		return 0;
	default:
		break;
	}
	memset(out, 0, sizeof(*out));
	*n = *cur;
	return -EPROTO;
}

int mesh_sched_feed(const struct mesh_sched *cur,
		    const struct mesh_sched_cfg *cfg, struct mesh_budget *b,
		    enum mesh_event ev, enum rdma_client_fail fail,
		    uint64_t now, struct mesh_step *out)
{
	enum mesh_result cls = mesh_sched_class(ev, fail);
	int ret = mesh_sched_switch(cur, cfg, b, ev, cls, now, out);

	if (!ret)
		out->rec.error = mesh_sched_error(cur, ev, fail, cls, out);
	return ret;
}

int mesh_sched_step(const struct mesh_sched *cur,
		    const struct mesh_sched_cfg *cfg, struct mesh_budget *b,
		    enum mesh_event ev, uint64_t now, struct mesh_step *out)
{
	return mesh_sched_feed(cur, cfg, b, ev, RDMA_CLIENT_FAIL_NONE, now,
			       out);
}

uint64_t mesh_sched_bw_max_age(const struct mesh_sched_cfg *cfg,
			       unsigned int n_paths, uint64_t took_ns)
{
	uint64_t period = cfg->bw_every_ns, shared, cost;

	if (!cfg->bw_every_ns || !cfg->bw_share_ppm)
		return 0;
	/* what a sample costs the budget: its planned time, or what it ran */
	cost = took_ns > cfg->bw_duration_ns ? took_ns : cfg->bw_duration_ns;
	/* every path's sample in turn, at bw_share_ppm of the time */
	shared = cost / cfg->bw_share_ppm * PPM * n_paths +
		 cost % cfg->bw_share_ppm * PPM / cfg->bw_share_ppm * n_paths;
	if (shared > period)
		period = shared;
	return 3 * period + cost;
}

/* ---- names ------------------------------------------------------------ */

#define X_NAME(n, s)	s,
static const char *const mesh_state_names[] = { MESH_STATE_LIST(X_NAME) };
static const char *const mesh_event_names[] = { MESH_EVENT_LIST(X_NAME) };
static const char *const mesh_reach_names[] = { MESH_REACH_LIST(X_NAME) };
#undef X_NAME

const char *mesh_state_name(enum mesh_state s)
{
	return (unsigned int)s < MESH_ST__COUNT ? mesh_state_names[s] : "?";
}

const char *mesh_event_name(enum mesh_event e)
{
	return (unsigned int)e < MESH_EV__COUNT ? mesh_event_names[e] : "?";
}

const char *mesh_reach_name(enum mesh_reach r)
{
	return (unsigned int)r < MESH_REACH__COUNT ? mesh_reach_names[r] : "?";
}
