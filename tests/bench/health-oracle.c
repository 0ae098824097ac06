/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * health-oracle.c - what the agent decides of a path (mesh_health_fsm:
 * healthy, slow, lossy, down, flapping) when it is fed synthetic rounds
 * and bandwidth samples, computed by the daemon's own pure machine, for
 * tests/bench/verdict-sim to take each pair's detection delay and false
 * decisions from (docs/fleet.md, "Verdicts": one decision, one place).
 *
 *   health-oracle [--down-after N] [--bw-every S] [--learn S]
 *
 * Reads lines "ID SEED NOISE SPREAD HORIZON [KIND SEVERITY FROM TO]..."
 * on stdin; writes, for each, "ID 0 STATE" (the state at path time 0)
 * and "ID T STATE" at each change after, T in seconds of path time, until
 * HORIZON (STATE as /peers names it).  The path learns from -LEARN
 * (--learn, default 600 s) on, so it is past learning at 0, as a real
 * path is before its fault.  A round a second ([mesh] interval 1 s); every
 * --bw-every seconds (default 5; the daemon's bandwidth_every is off by
 * default) a bandwidth sample instead.  Up to ORACLE_EVENTS_MAX events,
 * each of a KIND from FROM to TO (seconds of path time):
 *   lossy     a share SEVERITY of the rounds bad: verified late (0.6 s,
 *             an RC retransmission after its ACK timeout)
 *   slow      the bandwidth down by a factor SEVERITY (0.3: 30 %)
 *   flapping  the link down every SEVERITY seconds from FROM, for
 *             ORACLE_FLAP_DOWN_S (a link's training takes seconds): the
 *             round then fails, the path goes down, and its reconnects
 *             fail until the link is back (the agent's flap: an outage a
 *             connect met)
 *   busy      the prober under local pressure: each round takes up to
 *             ORACLE_BUSY_NS more, which the host measured (local_ns: the
 *             agent takes it off), and a failed one is no evidence
 *   restart   the prober restarts at FROM: the path learns again
 *   pool      the line is a pool of SEVERITY members (1 to
 *             ORACLE_POOL_MAX), not a path: a prober's rail's peers of
 *             a place together (docs/mesh.md, the place pools), fed
 *             SEVERITY rounds a second, spread evenly, every one of them
 *             (FROM and TO unused); a failed round (NOISE) is a lost one,
 *             the pool's evidence (its member's path is back at its first
 *             reconnect), and no sample nor down ever comes (a pool judges
 *             loss only); the lossy share is the pool's: the members'
 *             shares averaged; the pool learns its usual share of bad
 *             rounds as the daemon's place pools do
 *             (MESH_HEALTH_POOL_MEMORY rounds)
 *   paths     the line is a pair of SEVERITY paths (2 to
 *             CONFIG_MESH_PATHS_MAX), each its own machine, a round a
 *             second each (FROM and TO unused), a failed round a lost
 *             one as in a pool; written instead of states: "ID T split:K"
 *             at each change of how many paths split the pair
 *             (mesh_health_split, docs/mesh.md "Which paths see it"),
 *             "ID 0 split:0" first
 *   ecmp      with paths: one path more (the first, then the second...)
 *             has a share SEVERITY of its rounds late from FROM to TO, the
 *             others not (one of several ECMP links carries it); lossy
 *             events hit every path
 * and always: each round fails with chance NOISE (an isolated timeout;
 * --down-after such failures in a row, default 1 as [mesh] down_after,
 * take the path down, and it is back at its first connect: a lost round,
 * no flap), a down path tries to reconnect every ORACLE_RECONNECT_S
 * (backoff_min 1 s and the connect; its rounds meanwhile do not run), and
 * the samples spread log-normally by SPREAD (0.1: 10 %).  The same SEED
 * gives the same answer.  Exits 1 on a malformed line, 2 on a usage
 * error.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "mesh/mesh_health_fsm.h"

#define ORACLE_NS		1000000000ull
/* a path's usual: 20 us a round, 1 GB/s a sample */
#define ORACLE_RTT_NS		20000ull
/* a busy prober's own delay of a round, at most (above slow_round: were
 * it not taken off, a sixth of its rounds would look late) */
#define ORACLE_BUSY_NS		300000000ull
#define ORACLE_LATE_NS		600000000ull
#define ORACLE_BW		1e9
/* a down path reconnects this long after its failure (backoff_min 1 s
 * and the connect): its rounds in between do not run */
#define ORACLE_RECONNECT_S	2
/* a flapping link stays down this long each time: its path's first
 * reconnect meets the outage */
#define ORACLE_FLAP_DOWN_S	(ORACLE_RECONNECT_S + 1)

/* events on one path, at most */
#define ORACLE_EVENTS_MAX	16
/* members of a pool, at most */
#define ORACLE_POOL_MAX		1000

#define ORACLE_KIND_LIST(X)	\
	X(LOSSY, "lossy")	\
	X(SLOW, "slow")		\
	X(FLAPPING, "flapping")	\
	X(BUSY, "busy")		\
	X(RESTART, "restart")	\
	X(POOL, "pool")		\
	X(PATHS, "paths")	\
	X(ECMP, "ecmp")

#define X_KIND(n, s)	ORACLE_##n,
enum oracle_kind { ORACLE_KIND_LIST(X_KIND) ORACLE__COUNT };
#undef X_KIND

#define X_KIND(n, s)	[ORACLE_##n] = s,
static const char *const oracle_kinds[] = { ORACLE_KIND_LIST(X_KIND) };
#undef X_KIND

struct oracle_opts {
	unsigned int down_after;
	long bw_every;
	long learn;
};

struct oracle_event {
	enum oracle_kind kind;
	double severity;
	long from, to;
};

struct oracle_line {
	char id[64];
	uint64_t seed;
	double noise, spread;
	long horizon;
	struct oracle_event ev[ORACLE_EVENTS_MAX];
	unsigned int n_ev;
};

/* what the events make of second T */
struct oracle_now {
	double late;		/* share of rounds late */
	double drop;		/* the bandwidth's */
	bool link_down, busy, restart;
};

/* splitmix64: the same numbers for the same seed on every machine */
static uint64_t oracle_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double oracle_uniform(uint64_t *s)
{
	return (double)(oracle_next(s) >> 11) / 9007199254740992.0;
}

static double oracle_normal(uint64_t *s)
{
	double u = oracle_uniform(s), v = oracle_uniform(s);

	return sqrt(-2 * log(u + 1e-300)) * cos(2 * M_PI * v);
}

static int oracle_usage(void)
{
	fprintf(stderr, "usage: health-oracle [--down-after N] [--bw-every S] "
		"[--learn S] < lines of 'ID SEED NOISE SPREAD HORIZON "
		"[KIND SEVERITY FROM TO]...'\n");
	return 2;
}

static int oracle_event_parse(const char *s, struct oracle_event *e, int *used)
{
	char kind[32];
	unsigned int i;

	if (sscanf(s, "%31s %lf %ld %ld%n", kind, &e->severity, &e->from,
		   &e->to, used) != 4)
		return -EINVAL;
	for (i = 0; i < ORACLE__COUNT; i++)
		if (!strcmp(kind, oracle_kinds[i]))
			break;
	if (i == ORACLE__COUNT || e->from > e->to)
		return -EINVAL;
	e->kind = i;
	switch (e->kind) {
	case ORACLE_LOSSY:
		return e->severity >= 0 && e->severity <= 1 ? 0 : -EINVAL;
	case ORACLE_SLOW:
		return e->severity >= 0 && e->severity < 1 ? 0 : -EINVAL;
	case ORACLE_FLAPPING:
		/* up again between flaps, for a reconnect to meet it */
		return e->severity >= ORACLE_FLAP_DOWN_S + ORACLE_RECONNECT_S ?
		       0 : -EINVAL;
	case ORACLE_POOL:
		return e->severity >= 1 && e->severity <= ORACLE_POOL_MAX &&
		       e->severity == floor(e->severity) ? 0 : -EINVAL;
	case ORACLE_PATHS:
		return e->severity >= 2 && e->severity <= CONFIG_MESH_PATHS_MAX &&
		       e->severity == floor(e->severity) ? 0 : -EINVAL;
	case ORACLE_ECMP:
		return e->severity >= 0 && e->severity <= 1 ? 0 : -EINVAL;
	default:
		return 0;
	}
}

static int oracle_parse(const char *buf, struct oracle_line *l)
{
	int used;

	l->n_ev = 0;
	if (sscanf(buf, "%63s %" SCNu64 " %lf %lf %ld%n", l->id, &l->seed,
		   &l->noise, &l->spread, &l->horizon, &used) != 5)
		return -EINVAL;
	if (!(l->noise >= 0 && l->noise < 1) || !(l->spread >= 0) ||
	    l->horizon < 0)
		return -EINVAL;
	buf += used;
	while (*buf == ' ' || *buf == '\t')
		buf++;
	while (*buf && *buf != '\n') {
		if (l->n_ev == ORACLE_EVENTS_MAX ||
		    oracle_event_parse(buf, &l->ev[l->n_ev], &used))
			return -EINVAL;
		l->n_ev++;
		buf += used;
		while (*buf == ' ' || *buf == '\t')
			buf++;
	}
	return 0;
}

static void oracle_events(const struct oracle_line *l, long t,
			  struct oracle_now *n)
{
	const struct oracle_event *e;
	unsigned int i;

	memset(n, 0, sizeof(*n));
	for (i = 0; i < l->n_ev; i++) {
		e = &l->ev[i];
		if (t < e->from || t >= e->to)
			continue;
		switch (e->kind) {
		case ORACLE_LOSSY:
			n->late = fmax(n->late, e->severity);
			break;
		case ORACLE_SLOW:
			n->drop = fmax(n->drop, e->severity);
			break;
		case ORACLE_FLAPPING:
			n->link_down |= (t - e->from) % (long)e->severity <
					ORACLE_FLAP_DOWN_S;
			break;
		case ORACLE_BUSY:
			n->busy = true;
			break;
		case ORACLE_RESTART:
			n->restart |= t == e->from;
			break;
		case ORACLE_POOL:
		case ORACLE_PATHS:
		case ORACLE_ECMP:
		case ORACLE__COUNT:
			break;
		}
	}
}

/* One observation into the machine; a change from 0 on is printed. */
static void oracle_feed(const struct oracle_line *l,
			const struct mesh_health_cfg *cfg,
			struct mesh_health *h, const struct mesh_health_obs *o,
			uint64_t now, long t)
{
	struct mesh_health_step st;

	mesh_health_feed(h, cfg, o, now, &st);
	*h = st.next;
	if (st.changed && t >= 0)
		printf("%s %ld %s\n", l->id, t, mesh_health_name(h->state));
}

/* The SEVERITY of the line's first event of KIND, 0: none. */
static unsigned int oracle_count(const struct oracle_line *l,
				 enum oracle_kind kind)
{
	unsigned int i;

	for (i = 0; i < l->n_ev; i++)
		if (l->ev[i].kind == kind)
			return (unsigned int)l->ev[i].severity;
	return 0;
}

/* One round of a pool or of a pair's path at NOW: failed with NOISE,
 * late with LATE, a busy prober's delay. */
static void oracle_round(const struct oracle_line *l,
			 const struct oracle_now *ev, double late,
			 uint64_t *rng, struct mesh_health_obs *o)
{
	*o = (struct mesh_health_obs){
		.kind = MESH_HOBS_ROUND,
		.failed = oracle_uniform(rng) < l->noise,
		.pressured = ev->busy,
		.rtt_ns = ORACLE_RTT_NS + oracle_next(rng) % 2000,
	};
	if (!o->failed && oracle_uniform(rng) < late)
		o->rtt_ns += ORACLE_LATE_NS;
	if (ev->busy) {
		o->local_ns = ORACLE_BUSY_NS;
		o->rtt_ns += (uint64_t)(oracle_uniform(rng) * ORACLE_BUSY_NS);
	}
	if (o->failed)
		o->rtt_ns = 0;
}

/* The share late on path J at T: the pair's lossy events, and the J-th
 * ecmp event's. */
static double oracle_path_late(const struct oracle_line *l,
			       const struct oracle_now *ev, unsigned int j,
			       long t)
{
	double late = ev->late;
	unsigned int i, k = 0;

	for (i = 0; i < l->n_ev; i++) {
		if (l->ev[i].kind != ORACLE_ECMP)
			continue;
		if (k++ == j && t >= l->ev[i].from && t < l->ev[i].to)
			late = fmax(late, l->ev[i].severity);
	}
	return late;
}

/* A pair of N paths, a round a second each: how many split it. */
static void oracle_run_paths(const struct oracle_opts *op,
			     const struct mesh_health_cfg *cfg,
			     const struct oracle_line *l, unsigned int n)
{
	uint64_t rng = l->seed * 0x2545f4914f6cdd1dull + 1, now;
	struct mesh_health h[CONFIG_MESH_PATHS_MAX];
	const struct mesh_health *hp[CONFIG_MESH_PATHS_MAX];
	struct mesh_health_step st;
	struct mesh_health_obs o;
	struct oracle_now ev;
	unsigned int j, split = 0, was = 0;
	long t;

	for (j = 0; j < n; j++) {
		mesh_health_init(&h[j], 0);
		hp[j] = &h[j];
	}
	for (t = -op->learn; t < l->horizon; t++) {
		oracle_events(l, t, &ev);
		for (j = 0; j < n; j++) {
			now = (uint64_t)(t + op->learn + 1) * ORACLE_NS +
			      j * ORACLE_NS / n;
			if (ev.restart)
				mesh_health_init(&h[j], now);
			oracle_round(l, &ev, oracle_path_late(l, &ev, j, t),
				     &rng, &o);
			mesh_health_feed(&h[j], cfg, &o, now, &st);
			h[j] = st.next;
		}
		split = mesh_health_split(hp, n, cfg);
		if (t == 0)
			printf("%s 0 split:%u\n", l->id, split);
		else if (t > 0 && split != was)
			printf("%s %ld split:%u\n", l->id, t, split);
		was = split;
	}
}

/* A pool of K members: K rounds a second, each a member's. */
static void oracle_run_pool(const struct oracle_opts *op,
			    const struct mesh_health_cfg *cfg,
			    const struct oracle_line *l, unsigned int k)
{
	uint64_t rng = l->seed * 0x2545f4914f6cdd1dull + 1, now;
	struct mesh_health h;
	struct mesh_health_obs o;
	struct oracle_now ev;
	unsigned int j;
	long t;

	mesh_health_init_pool(&h, 0, MESH_HEALTH_POOL_MEMORY);
	for (t = -op->learn; t < l->horizon; t++) {
		if (t == 0)
			printf("%s 0 %s\n", l->id, mesh_health_name(h.state));
		oracle_events(l, t, &ev);
		if (ev.restart) {
			mesh_health_init_pool(&h, (uint64_t)(t + op->learn + 1) *
					      ORACLE_NS, MESH_HEALTH_POOL_MEMORY);
			if (t >= 0)
				printf("%s %ld %s\n", l->id, t,
				       mesh_health_name(h.state));
		}
		for (j = 0; j < k; j++) {
			now = (uint64_t)(t + op->learn + 1) * ORACLE_NS +
			      j * ORACLE_NS / k;
			oracle_round(l, &ev, ev.late, &rng, &o);
			oracle_feed(l, cfg, &h, &o, now, t);
		}
	}
}

static void oracle_run(const struct oracle_opts *op,
		       const struct mesh_health_cfg *cfg,
		       const struct oracle_line *l)
{
	uint64_t rng = l->seed * 0x2545f4914f6cdd1dull + 1, now;
	struct mesh_health h;
	struct mesh_health_obs o;
	struct oracle_now ev;
	unsigned int fails = 0;
	long t, back = 0;
	bool down = false, failed;
	double y;

	if (oracle_count(l, ORACLE_POOL)) {
		oracle_run_pool(op, cfg, l, oracle_count(l, ORACLE_POOL));
		return;
	}
	if (oracle_count(l, ORACLE_PATHS)) {
		oracle_run_paths(op, cfg, l, oracle_count(l, ORACLE_PATHS));
		return;
	}
	mesh_health_init(&h, 0);
	for (t = -op->learn; t < l->horizon; t++) {
		now = (uint64_t)(t + op->learn + 1) * ORACLE_NS;
		if (t == 0)
			printf("%s 0 %s\n", l->id, mesh_health_name(h.state));
		oracle_events(l, t, &ev);
		if (ev.restart) {
			mesh_health_init(&h, now);
			down = false;
			fails = 0;
			if (t >= 0)
				printf("%s %ld %s\n", l->id, t,
				       mesh_health_name(h.state));
		}
		if (down) {
			if (t < back)
				continue;
			if (ev.link_down) {
				o = (struct mesh_health_obs){
					.kind = MESH_HOBS_CONNECT_FAILED };
				oracle_feed(l, cfg, &h, &o, now, t);
				back = t + ORACLE_RECONNECT_S;
				continue;
			}
			down = false;
			o = (struct mesh_health_obs){ .kind = MESH_HOBS_UP };
			oracle_feed(l, cfg, &h, &o, now, t);
		}
		failed = ev.link_down || oracle_uniform(&rng) < l->noise;
		fails = failed ? fails + 1 : 0;
		if (!failed && op->bw_every && t % op->bw_every == 0) {
			y = log(ORACLE_BW) + log(1 - ev.drop) +
			    l->spread * oracle_normal(&rng);
			o = (struct mesh_health_obs){
				.kind = MESH_HOBS_SAMPLE,
				.bytes_per_s = (uint64_t)exp(y) };
			oracle_feed(l, cfg, &h, &o, now, t);
			continue;
		}
		o = (struct mesh_health_obs){
			.kind = MESH_HOBS_ROUND,
			.failed = failed,
			.pressured = ev.busy,
			/* as the driver marks it: the round that took the path
			 * down (down_after failures in a row, or the link) */
			.downs = failed && (fails >= op->down_after ||
					    ev.link_down),
			.rtt_ns = ORACLE_RTT_NS + oracle_next(&rng) % 2000,
		};
		if (!failed && oracle_uniform(&rng) < ev.late)
			o.rtt_ns += ORACLE_LATE_NS;
		if (ev.busy) {
			o.local_ns = ORACLE_BUSY_NS;
			o.rtt_ns += (uint64_t)(oracle_uniform(&rng) *
					       ORACLE_BUSY_NS);
		}
		if (failed)
			o.rtt_ns = 0;
		oracle_feed(l, cfg, &h, &o, now, t);
		if (fails < op->down_after && !ev.link_down)
			continue;
		/* the schedule's down after the round it ends, as the driver
		 * feeds them (mesh_path_step) */
		o = (struct mesh_health_obs){ .kind = MESH_HOBS_DOWN,
					      .was_up = true };
		oracle_feed(l, cfg, &h, &o, now, t);
		down = true;
		fails = 0;
		back = t + ORACLE_RECONNECT_S;
	}
}

static int oracle_number(const char *s, long min, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno || *end || !*s || *out < min || *out > max ? -EINVAL : 0;
}

int main(int argc, char **argv)
{
	struct oracle_opts op = { .down_after = 1, .bw_every = 5,
				  .learn = 600 };
	struct mesh_health_cfg cfg;
	struct oracle_line l;
	char buf[512];
	long v, lineno = 0;
	int i;

	for (i = 1; i < argc; i += 2) {
		if (i + 1 >= argc)
			return oracle_usage();
		if (!strcmp(argv[i], "--down-after")) {
			if (oracle_number(argv[i + 1], 1, 255, &v))
				return oracle_usage();
			op.down_after = (unsigned int)v;
		} else if (!strcmp(argv[i], "--bw-every")) {
			if (oracle_number(argv[i + 1], 0, 3600, &op.bw_every))
				return oracle_usage();
		} else if (!strcmp(argv[i], "--learn")) {
			if (oracle_number(argv[i + 1], 0, 86400, &op.learn))
				return oracle_usage();
		} else {
			return oracle_usage();
		}
	}
	mesh_health_cfg_default(&cfg);
	while (fgets(buf, sizeof(buf), stdin)) {
		lineno++;
		if (buf[0] == '\n' || buf[0] == '#')
			continue;
		if (oracle_parse(buf, &l)) {
			fprintf(stderr, "health-oracle: line %ld: want 'ID "
				"SEED NOISE SPREAD HORIZON [KIND SEVERITY FROM "
				"TO]...' (KIND lossy, slow, flapping, busy, "
				"restart, pool, paths or ecmp; at most %u): %s", lineno,
				ORACLE_EVENTS_MAX, buf);
			return 1;
		}
		oracle_run(&op, &cfg, &l);
	}
	return 0;
}
