/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_path.c - one mesh path's driver (see mesh_path.h).
 *
 * Every schedule event of a path goes through mesh_path_feed(); an action
 * that fails at once leads to the next event, fed in turn.  The client
 * tells us READY, a round's or a sample's end and its own end from the
 * loop, never from inside a call we made into it (rdma_client_report.c),
 * so no event arrives while another is being carried out.  A client that
 * is done with, whatever the reason, is detached from its path, closed
 * (or aborted), and freed from its own ops->done.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "clock.h"
#include "core/log.h"
#include "mesh/mesh_path.h"
#include "mesh/mesh_peers_diff.h"
#include "rdma_client.h"

/* One client connection; outlives its path's interest in it. */
struct mesh_link {
	struct rdma_client *c;
	struct mesh_ctx *x;
	struct mesh_path *p;		/* NULL: detached, closing */
	TAILQ_ENTRY(mesh_link) entry;
};

static const struct mesh_figures mesh_no_figures;

static void mesh_path_feed_end(struct mesh_path *p, enum mesh_event ev,
			       enum rdma_client_fail fail,
			       const struct mesh_figures *fig);

static void mesh_path_name(const struct mesh_path *p, char *buf, size_t len)
{
	if (p->named_idx)
		snprintf(buf, len, "%s path %u", p->peer, p->idx);
	else
		snprintf(buf, len, "%s", p->peer);
}

/* ---- clients -------------------------------------------------------- */

/* L's client and L (never inside a call into the client: at the end,
 * or from its ops->done, where the client defers its free). */
static void mesh_link_free(struct mesh_link *l)
{
	TAILQ_REMOVE(&l->x->links, l, entry);
	rdma_client_free(l->c);
	free(l);
}

/* Let go of P's session: closed cleanly when READY, else aborted (over
 * already: nothing); freed from its ops->done. */
static void mesh_path_detach(struct mesh_path *p, const char *why)
{
	struct mesh_link *l = p->link;

	if (!l)
		return;
	p->link = NULL;
	l->p = NULL;
	if (rdma_client_close(l->c))
		rdma_client_abort(l->c, why);
}

/*
 * " (local counters: rxe0/1: rcvd_seq_err +14, ...)": what this host's
 * port counters moved over their last one to two passes, for a failure's
 * log line; "" when nothing moved or nothing is read.
 */
static void mesh_path_counters(const struct mesh_ctx *x, char *buf,
			       size_t len)
{
	const struct port_counter *c;
	char moved[320];
	unsigned int n = 0;

	buf[0] = '\0';
	if (!x->counters)
		return;
	c = rdma_counters_view(x->counters, &n);
	if (port_counter_changes(moved, sizeof(moved), c, n))
		snprintf(buf, len, " (local counters: %s)", moved);
}

/* The session is READY (told from the loop): CONNECTED. */
static void mesh_client_ready(void *arg)
{
	struct mesh_link *l = arg;

	if (l->p && l->p->s.state == MESH_ST_CONNECTING)
		mesh_path_feed(l->p, MESH_EV_CONNECTED);
}

static void mesh_client_round(void *arg, const struct rdma_client_round *r)
{
	struct mesh_link *l = arg;
	struct mesh_path *p = l->p;
	struct mesh_figures fig = {
		.rtt_ns = r->write_ns + r->read_ns,
		.size = r->size,
		.bad_offset = r->bad_offset,
		.round = r->round,
	};
	char name[MESH_NAME_LEN + 16], moved[360];

	if (!p)
		return;
	if (r->result == RDMA_CLIENT_FAIL_NONE) {
		mesh_path_feed_end(p, MESH_EV_ROUND_DONE, r->result, &fig);
		return;
	}
	mesh_path_name(p, name, sizeof(name));
	mesh_path_counters(p->x, moved, sizeof(moved));
	log_err("mesh: %s: round %u: DATA MISMATCH: %u bytes written and "
		"read back, the first bad byte at offset %u (the peer's memory "
		"or the path corrupts data)%s", name, r->round, r->size,
		r->bad_offset, moved);
	mesh_path_feed_end(p, MESH_EV_ROUND_DONE, r->result, &fig);
}

static void mesh_client_bw(void *arg, const struct rdma_client_bw *b)
{
	struct mesh_link *l = arg;
	struct mesh_path *p = l->p;
	struct mesh_figures fig = { .bytes = b->bytes, .ns = b->ns };
	char name[MESH_NAME_LEN + 16];

	if (!p)
		return;
	mesh_path_name(p, name, sizeof(name));
	log_info("mesh: %s: bandwidth sample: %llu WRITEs of %u bytes in "
		 "%.1f ms, %.1f MB/s", name, (unsigned long long)b->ops,
		 b->size, (double)b->ns / 1e6,
		 b->ns ? (double)b->bytes * 1e3 / (double)b->ns : 0.0);
	mesh_path_feed_end(p, MESH_EV_ROUND_DONE, RDMA_CLIENT_FAIL_NONE, &fig);
}

static void mesh_client_done(void *arg, const struct rdma_client_outcome *o)
{
	struct mesh_link *l = arg;
	struct mesh_path *p = l->p;
	struct mesh_figures fig;

	memset(&fig, 0, sizeof(fig));
	snprintf(fig.why, sizeof(fig.why), "%s", o->error ? o->error : "");
	if (p)
		p->link = NULL;
	mesh_link_free(l);	/* the client frees once we return */
	if (p)
		mesh_path_feed_end(p, p->s.state == MESH_ST_CONNECTING ?
				   MESH_EV_CONNECT_FAILED : MESH_EV_LOST,
				   o->fail, &fig);
}

static const struct rdma_client_ops mesh_client_ops = {
	.ready = mesh_client_ready,
	.round = mesh_client_round,
	.bw = mesh_client_bw,
	.done = mesh_client_done,
};

static int mesh_path_connect(struct mesh_path *p)
{
	struct mesh_ctx *x = p->x;
	struct rdma_client_opts o;
	struct mesh_link *l;
	int ret;

	memset(&o, 0, sizeof(o));
	o.dst = *p->dst;
	o.src = p->src && p->src->ss_family ? *p->src : x->cfg.source;
	o.mesh = true;
	o.ops = x->pol.session.ops;
	o.size = x->pol.session.size;
	o.iters = 1;
	o.timeout_ms = x->pol.session.timeout_ms;
	o.depth = x->pol.session.depth;
	o.seed = clock_now_ns() ^ (++x->seq * 0x9e3779b97f4a7c15ull);
	o.verify = true;
	o.tos = x->pol.session.tos;
	o.psk = x->psk && x->psk->len ? x->psk : NULL;
	o.devs = x->devs;
	o.log_prio = -1;	/* the agent speaks for its sessions */
	snprintf(o.name, sizeof(o.name), "mesh %.70s/%u", p->peer, p->idx);
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	ret = rdma_client_new(&l->c, x->base, x->cm, &o, &mesh_client_ops, l);
	if (ret) {
		free(l);
		return ret;
	}
	l->p = p;
	l->x = x;
	p->link = l;
	p->connect_at = clock_now_ns();
	TAILQ_INSERT_TAIL(&x->links, l, entry);
	rdma_client_start(l->c);
	return 0;
}

/* ---- the prober's share ------------------------------------------------ */

/* The round P starts now: what this host's figures are at its start. */
static void mesh_path_load_start(struct mesh_path *p, uint64_t due,
				 uint64_t now)
{
	struct cpu_wait_now at;

	cpu_wait_read(&p->x->sched, &at);
	mesh_load_check_start(&p->load, due, now, &at);
}

/*
 * Whether a line of L's kind may be logged at NOW; if so, MORE gets
 * " (N more WHAT not logged)" for the lines dropped since the last one,
 * or "".
 */
static bool mesh_log_take(struct log_limit *l, uint64_t now,
			  const char *what, char *more, size_t len)
{
	uint64_t dropped;

	more[0] = '\0';
	if (!log_limit_take(l, now))
		return false;
	dropped = log_limit_summary(l);
	if (dropped)
		snprintf(more, len, " (%llu more %s not logged)",
			 (unsigned long long)dropped, what);
	return true;
}

/* A round under pressure, for the operator: at most load_log's lines, the
 * next one says how many were not logged. */
static void mesh_path_pressure_log(struct mesh_path *p,
				   const struct mesh_load_round *lr,
				   unsigned int why, enum mesh_result res,
				   uint64_t rtt_ns, uint64_t now)
{
	struct mesh_ctx *x = p->x;
	char name[MESH_NAME_LEN + 16], psi[64] = "", more[64], whys[16];

	if (!mesh_log_take(&x->load_log, now, "such rounds", more,
			   sizeof(more)))
		return;
	if (lr->psi_known)
		snprintf(psi, sizeof(psi), ", the host's CPU pressure %.1f ms",
			 (double)lr->psi_us / 1e3);
	mesh_path_name(p, name, sizeof(name));
	snprintf(whys, sizeof(whys), "%s%s%s%s%s",
		 why & MESH_LOAD_LAG ? "lag" : "",
		 why & MESH_LOAD_LAG && why & (MESH_LOAD_WAIT | MESH_LOAD_PSI) ?
			 " " : "",
		 why & MESH_LOAD_WAIT ? "wait" : "",
		 why & MESH_LOAD_WAIT && why & MESH_LOAD_PSI ? " " : "",
		 why & MESH_LOAD_PSI ? "psi" : "");
	log_warn("mesh: %s: a round taken under local pressure (%s): its "
		 "timer ran %.1f ms late, the loop lag %.1f ms (prober_lag_max "
		 "%u ms), rdmad waited for a CPU %.1f ms of the round's %.1f ms"
		 "%s (prober_wait_max %u%%); %s %.3f ms kept out of the "
		 "pair's latency: this host is busy, see what else runs on it "
		 "(top, /proc/pressure/cpu)%s", name, whys,
		 (double)lr->timer_lag_ns / 1e6, (double)lr->loop_lag_ns / 1e6,
		 x->cfg.prober_lag_max_ms, (double)lr->run_delay_ns / 1e6,
		 (double)lr->took_ns / 1e6, psi, x->cfg.prober_wait_max_pct,
		 res == MESH_RES_OK ? "its latency" : "it failed; latency",
		 (double)rtt_ns / 1e6, more);
}

/*
 * The round P measured ended at NOW: what this host added to it (into
 * *LOCAL_NS, at most), and whether it was taken under local pressure
 * (mesh_load_check_end adds it up, mesh_load_check decides); such a round
 * is counted and logged.
 */
static bool mesh_path_pressured(struct mesh_path *p, enum mesh_result res,
				uint64_t rtt_ns, uint64_t now,
				uint64_t *local_ns)
{
	struct mesh_ctx *x = p->x;
	struct mesh_load_round lr;
	struct cpu_wait_now end;
	unsigned int why;

	cpu_wait_read(&x->sched, &end);
	mesh_load_check_end(&p->load, now, &end, &x->lag, &lr, local_ns);
	why = mesh_load_check(&x->pol.load, &lr);
	x->load_delay_ns += lr.run_delay_ns;
	x->load_psi_us += lr.psi_us;
	x->psi = lr.psi_known;
	if (!why)
		return false;
	x->pressured++;
	mesh_path_pressure_log(p, &lr, why, res, rtt_ns, now);
	return true;
}

/*
 * A round that verified but took longer than [mesh] slow_round, and not
 * under local pressure (that has its own line): logged with the port
 * counters that moved around it, at most slow_log's lines a minute.
 */
static void mesh_path_slow_log(struct mesh_path *p, uint32_t size,
			       uint64_t rtt_ns, uint64_t now)
{
	struct mesh_ctx *x = p->x;
	char name[MESH_NAME_LEN + 16], moved[360], more[64];

	if (!mesh_log_take(&x->slow_log, now, "slow rounds", more,
			   sizeof(more)))
		return;
	mesh_path_name(p, name, sizeof(name));
	mesh_path_counters(x, moved, sizeof(moved));
	log_warn("mesh: %s: a slow round: %u bytes written and read back in "
		 "%.1f ms (slow_round %u ms), every byte right: a "
		 "retransmission on the path or a slow peer%s%s", name, size,
		 (double)rtt_ns / 1e6, x->cfg.slow_round_ms,
		 moved[0] ? moved : " (no local port counter moved: look at "
		 "the peer's)", more);
}

/* The loop-lag sampler: how late its own timer runs is the loop's lag. */
static void mesh_lag_arm(struct mesh_ctx *x, uint64_t now)
{
	struct timeval tv = { 0, MESH_LAG_PERIOD_MS * 1000 };

	x->lag_due = now + MESH_LAG_PERIOD_MS * 1000000ull;
	evtimer_add(x->lag_ev, &tv);
}

static void mesh_lag_cb(evutil_socket_t fd, short what, void *arg)
{
	struct mesh_ctx *x = arg;
	uint64_t now = clock_now_ns();
	uint64_t lag = now > x->lag_due ? now - x->lag_due : 0;

	(void)fd;
	(void)what;
	mesh_lag_add(&x->lag, now, lag);
	mesh_hist_add(&x->lag_hist, lag);
	if (x->cfg.targets[0])		/* off, the mesh's sampler rests */
		mesh_lag_arm(x, now);
}

/* mesh_path_name for mesh_path_health_who: called only on a change. */
static void mesh_path_health_name_of(const void *arg, char *buf, size_t len)
{
	mesh_path_name(arg, buf, len);
}

/* O at NOW to the path's health and its pools. */
static void mesh_path_health(struct mesh_path *p,
			     const struct mesh_health_obs *o, uint64_t now)
{
	const struct mesh_path_health_who who = {
		.name = mesh_path_health_name_of, .arg = p, .peer = p->peer,
	};
	const struct mesh_health *own = &p->health.own;
	uint64_t judged = own->late_judged, stall = own->shared,
		 pressured = own->late_pressured;

	mesh_path_health_feed(&p->health, &who, &p->x->pol.health, o, now);
	p->x->late_judged += own->late_judged - judged;
	p->x->late_stall += own->shared - stall;
	p->x->late_pressured += own->late_pressured - pressured;
}

/* ---- the one writer of the path's figures ----------------------------- */

static void mesh_path_record(struct mesh_path *p, const struct mesh_record *r,
			     const struct mesh_figures *fig, bool downs,
			     uint64_t now)
{
	bool round = (r->what & MESH_REC_ROUND) && !(r->what & MESH_REC_SAMPLE);
	uint64_t rtt = r->result == MESH_RES_OK ? fig->rtt_ns : 0;
	struct mesh_health_obs hobs;

	if (r->what & MESH_REC_CONNECTED)
		mesh_stats_connected(&p->st);
	if ((r->what & MESH_REC_ROUND) && (r->what & MESH_REC_SAMPLE)) {
		mesh_stats_sample(&p->st, r->result, fig->bytes, fig->ns, now);
		if (r->result == MESH_RES_OK) {
			p->x->bw_samples++;
			p->x->bw_ns += fig->ns;
		}
		if (r->result == MESH_RES_OK && fig->ns) {
			/* the rate mesh_stats_sample just recorded */
			hobs = (struct mesh_health_obs){
				.kind = MESH_HOBS_SAMPLE,
				.bytes_per_s = p->st.bw_bytes_per_s };
			mesh_path_health(p, &hobs, now);
		}
	} else if (round) {
		uint64_t local = 0;
		bool pressured = p->load.on &&
				 mesh_path_pressured(p, r->result, rtt, now,
						    &local);

		(pressured ? mesh_stats_round_pressured : mesh_stats_round)
			(&p->st, r->sized ? r->slot : CONFIG_MESH_SIZES_MAX,
			 r->size, r->result, rtt,
			 fig->bad_offset, now);
		hobs = (struct mesh_health_obs){
			.kind = MESH_HOBS_ROUND,
			.failed = r->result != MESH_RES_OK,
			.pressured = pressured, .local_ns = local,
			.downs = downs, .rtt_ns = rtt };
		/* a failed connect is no round of the path's health: a peer
		 * nobody answers is down, not lossy */
		if (p->s.state == MESH_ST_WAIT || p->s.state == MESH_ST_ROUND)
			mesh_path_health(p, &hobs, now);
		if (!pressured && p->x->pol.slow_round_ns &&
		    rtt > p->x->pol.slow_round_ns)
			mesh_path_slow_log(p, fig->size, rtt, now);
	}
	if (r->what & MESH_REC_DOWN)
		mesh_stats_down(&p->st);
}

/* The one writer of the path's error text: of the kind the schedule
 * said, in words only the driver has.  The client's own words would
 * name rdma-probe's options: a key's failure names rdmad's. */
static void mesh_path_error(struct mesh_path *p, enum mesh_error kind,
			    const struct mesh_figures *fig)
{
	const struct auth_key *psk = p->x->psk;

	switch (kind) {
	case MESH_ERROR_KEEP:
		return;
	case MESH_ERROR_CLEAR:
		p->error[0] = '\0';
		return;
	case MESH_ERROR_CONNECT_TIMEOUT:
	case MESH_ERROR_ROUND_TIMEOUT:
		snprintf(p->error, sizeof(p->error), "%s timed out",
			 kind == MESH_ERROR_CONNECT_TIMEOUT ? "connect" :
			 "round");
		return;
	case MESH_ERROR_MISMATCH:
		snprintf(p->error, sizeof(p->error), "round %u: data mismatch, "
			 "%u bytes, first bad byte at offset %u", fig->round,
			 fig->size, fig->bad_offset);
		return;
	case MESH_ERROR_KEY:
		snprintf(p->error, sizeof(p->error), "%s", psk && psk->len ?
			 "the peer refused our key ([auth] psk_file): the "
			 "fabric's hosts must share one key" :
			 "the peer requires a pre-shared key: set [auth] "
			 "psk_file (the fabric's key)");
		return;
	case MESH_ERROR_FAILED:
		snprintf(p->error, sizeof(p->error), "%s",
			 fig->why[0] ? fig->why : "failed");
		return;
	}
}

void mesh_path_sizes(struct mesh_path *p, const struct config_mesh *old,
		     const struct config_mesh *next)
{
	mesh_stats_sizes_remap(&p->st, old->sizes, old->n_sizes, next->sizes,
			       next->n_sizes);
}

/* ---- the schedule ---------------------------------------------------- */

static void mesh_path_arm(struct mesh_path *p, uint64_t now)
{
	struct timeval tv;
	uint64_t wait;

	if (!p->s.due) {
		evtimer_del(p->timer);
		return;
	}
	wait = p->s.due > now ? p->s.due - now : 0;
	tv.tv_sec = (time_t)(wait / 1000000000ull);
	tv.tv_usec = (suseconds_t)(wait % 1000000000ull / 1000);
	if (evtimer_add(p->timer, &tv)) {
		/* A path without its timer would never run again. */
		log_err("mesh: %s/%u: cannot arm a timer; the path stops",
			p->peer, p->idx);
		mesh_path_detach(p, "mesh: no timer");
		p->s.state = MESH_ST_IDLE;
		p->s.due = 0;
	}
}

/* 0, or -errno: the round did not start, the session is let go. */
static int mesh_path_round(struct mesh_path *p, bool bw, uint32_t size,
			   uint64_t due, uint64_t now)
{
	int ret;

	p->load.on = false;
	if (!bw)
		mesh_path_load_start(p, due, now);
	if (!p->link)
		ret = -ENOTCONN;
	else if (bw)
		ret = rdma_client_bw(p->link->c, p->x->pol.session.bw_size,
				     p->x->pol.session.bw_duration_ms);
	else
		ret = rdma_client_round(p->link->c, size);
	if (!ret)
		return 0;
	log_err("mesh: %s/%u: cannot start a round: %s", p->peer, p->idx,
		strerror(-ret));
	mesh_path_detach(p, "mesh: cannot start a round");
	return ret;
}

/* The schedule's transition, for people. */
static void mesh_path_log(struct mesh_path *p, const struct mesh_step *st,
			  enum mesh_event ev, uint64_t now)
{
	char name[MESH_NAME_LEN + 16], moved[360];

	mesh_path_name(p, name, sizeof(name));
	if (st->act & MESH_ACT_DOWN ||
	    (st->next.state == MESH_ST_BACKOFF &&
	     p->s.state == MESH_ST_CONNECTING))
		mesh_path_counters(p->x, moved, sizeof(moved));
	if (st->next.state != p->s.state)
		log_debug("mesh: %s: %s -> %s (%s)", name,
			  mesh_state_name(p->s.state),
			  mesh_state_name(st->next.state), mesh_event_name(ev));
	/* A reconnect that failed again, with its backoff. */
	if (st->next.state == MESH_ST_BACKOFF && !(st->act & MESH_ACT_DOWN) &&
	    p->s.state == MESH_ST_CONNECTING)
		log_info("mesh: %s: connect failed again (%s); backing off "
			 "%.1f s (attempt %u)%s", name,
			 p->error[0] ? p->error : "no answer",
			 (double)st->wait_ns / 1e9, st->next.fails, moved);
	/* A session made again lost before its first round: the path
	 * was down already. */
	if (st->next.state == MESH_ST_BACKOFF && !(st->act & MESH_ACT_DOWN) &&
	    p->s.state != MESH_ST_CONNECTING &&
	    p->s.reach != MESH_REACH_UP)
		log_info("mesh: %s: connected again, lost before its first "
			 "round (%s); reconnecting in %.1f s", name,
			 p->error[0] ? p->error : "no answer",
			 (double)st->wait_ns / 1e9);
	/* A session of a path still up failed: not yet down_after. */
	if (st->next.state == MESH_ST_BACKOFF && !(st->act & MESH_ACT_DOWN) &&
	    p->s.state != MESH_ST_CONNECTING &&
	    p->s.reach == MESH_REACH_UP)
		log_info("mesh: %s: failed (%s), %u of [mesh] down_after %u "
			 "before down; reconnecting in %.1f s", name,
			 p->error[0] ? p->error : "no answer", st->next.fails,
			 p->x->pol.sched.down_after,
			 (double)st->wait_ns / 1e9);
	if (st->act & MESH_ACT_UP)
		log_notice("mesh: %s up: connected, first round done in "
			   "%.1f ms", name,
			   (double)(now - p->connect_at) / 1e6);
	if (st->act & MESH_ACT_DOWN)
		log_warn("mesh: %s down: %s; next connect in %.1f s%s", name,
			 p->error[0] ? p->error : "no answer",
			 (double)st->wait_ns / 1e9, moved);
}

/*
 * EV to P's schedule and its actions carried out: 0, or -errno when an
 * action failed at once (a connect, a round's start), *EV then the event
 * that failure is (CONNECT_FAILED, LOST), to feed next.
 */
static int mesh_path_step(struct mesh_path *p, enum mesh_event *evp,
			  enum rdma_client_fail fail,
			  const struct mesh_figures *fig)
{
	struct mesh_ctx *x = p->x;
	enum mesh_event ev = *evp;
	uint64_t now = clock_now_ns();
	/* a round that starts on its timer was due at the timer's time */
	uint64_t due = ev == MESH_EV_TIMER ? p->s.due : now;
	struct mesh_step st;
	int ret;

	ret = mesh_sched_feed(&p->s, &x->pol.sched, &x->budget, ev, fail, now,
			      &st);
	if (ret) {
		log_debug("mesh: %s/%u: %s ignored in %s", p->peer, p->idx,
			  mesh_event_name(ev), mesh_state_name(p->s.state));
		return 0;
	}
	mesh_path_record(p, &st.rec, fig, st.act & MESH_ACT_DOWN, now);
	/* the schedule's down, of a path that was never up too: its
	 * health is down, not learning */
	if (st.act & MESH_ACT_DOWN) {
		struct mesh_health_obs down = {
			.kind = MESH_HOBS_DOWN,
			.was_up = p->s.reach == MESH_REACH_UP };

		mesh_path_health(p, &down, now);
	}
	/* a connect of a path that went down failed: its down was an
	 * outage (a flap), not one lost round */
	if (p->s.state == MESH_ST_CONNECTING &&
	    st.next.state == MESH_ST_BACKOFF) {
		struct mesh_health_obs refused = {
			.kind = MESH_HOBS_CONNECT_FAILED };

		mesh_path_health(p, &refused, now);
	}
	/* before the log: a path's down line says why */
	if (!(st.act & MESH_ACT_UP))
		mesh_path_error(p, st.rec.error, fig);
	mesh_path_log(p, &st, ev, now);
	p->s = st.next;
	/* after it: the up line follows the failures it ends */
	if (st.act & MESH_ACT_UP) {
		struct mesh_health_obs up = { .kind = MESH_HOBS_UP };

		mesh_path_error(p, st.rec.error, fig);
		mesh_path_health(p, &up, now);
	}
	if ((st.act & MESH_ACT_QUEUE) && !p->queued) {
		TAILQ_INSERT_TAIL(&x->waiting, p, wait);
		p->queued = true;
	}
	if ((st.act & MESH_ACT_DEQUEUE) && p->queued) {
		TAILQ_REMOVE(&x->waiting, p, wait);
		p->queued = false;
	}
	if ((st.act & MESH_ACT_SLOT) && !TAILQ_EMPTY(&x->waiting))
		event_active(x->admit, EV_TIMEOUT, 0);
	if (st.act & MESH_ACT_CLOSE)
		mesh_path_detach(p, "mesh: closed by the schedule");
	if (st.act & MESH_ACT_TIMER)
		mesh_path_arm(p, now);
	if (st.act & MESH_ACT_CONNECT) {
		ret = mesh_path_connect(p);
		if (ret) {
			*evp = MESH_EV_CONNECT_FAILED;
			return ret;
		}
	}
	if (st.act & MESH_ACT_ROUND) {
		ret = mesh_path_round(p, st.act & MESH_ACT_BW, st.size, due,
				      now);
		if (ret) {
			*evp = MESH_EV_LOST;
			return ret;
		}
	}
	return 0;
}

/* EV (with the client's FAIL and FIG) to P, then the failures of its
 * actions, each the driver's own (RDMA_CLIENT_FAIL_LOCAL). */
static void mesh_path_feed_end(struct mesh_path *p, enum mesh_event ev,
			       enum rdma_client_fail fail,
			       const struct mesh_figures *fig)
{
	struct mesh_figures local;
	int err;

	while ((err = mesh_path_step(p, &ev, fail, fig))) {
		memset(&local, 0, sizeof(local));
		snprintf(local.why, sizeof(local.why), "%s", strerror(-err));
		fail = RDMA_CLIENT_FAIL_LOCAL;
		fig = &local;
	}
}

void mesh_path_feed(struct mesh_path *p, enum mesh_event ev)
{
	mesh_path_feed_end(p, ev, RDMA_CLIENT_FAIL_NONE, &mesh_no_figures);
}

static void mesh_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	mesh_path_feed(arg, MESH_EV_TIMER);
}

/* Connect slots freed: the paths waiting for one, in order. */
static void mesh_admit_cb(evutil_socket_t fd, short what, void *arg)
{
	struct mesh_ctx *x = arg;
	struct mesh_path *p;

	(void)fd;
	(void)what;
	while ((!x->pol.sched.connects_max ||
		x->budget.connecting < x->pol.sched.connects_max) &&
	       (p = TAILQ_FIRST(&x->waiting))) {
		TAILQ_REMOVE(&x->waiting, p, wait);
		p->queued = false;
		mesh_path_feed(p, MESH_EV_TIMER);
	}
}

/* ---- lifetimes -------------------------------------------------------- */

int mesh_ctx_init(struct mesh_ctx *x, struct event_base *base,
		  struct rdma_cm_chan *cm, struct rdma_devs *devs,
		  const struct auth_key *psk,
		  const struct rdma_counters *counters)
{
	unsigned int i;

	memset(x, 0, sizeof(*x));
	x->base = base;
	x->cm = cm;
	x->devs = devs;
	x->psk = psk;
	x->counters = counters;
	x->cfg.tos = -1;
	TAILQ_INIT(&x->links);
	TAILQ_INIT(&x->waiting);
	for (i = 0; i < MESH_INV_RAILS_MAX; i++) {
		mesh_health_init(&x->rail_health[i], clock_now_ns());
		mesh_health_init_pool(&x->place_health[i][MESH_PLACE_SAME_TOR],
				      clock_now_ns(), MESH_HEALTH_POOL_MEMORY);
		mesh_health_init_pool(&x->place_health[i][MESH_PLACE_CROSS_TOR],
				      clock_now_ns(), MESH_HEALTH_POOL_MEMORY);
	}
	x->admit = event_new(base, -1, 0, mesh_admit_cb, x);
	x->lag_ev = evtimer_new(base, mesh_lag_cb, x);
	if (!x->admit || !x->lag_ev) {
		if (x->admit)
			event_free(x->admit);
		if (x->lag_ev)
			event_free(x->lag_ev);
		return -ENOMEM;
	}
	/* a line a minute, at most 3, of rounds under pressure */
	log_limit_init(&x->load_log, 3, 60000000000ull);
	/* and of slow rounds, at most 10 */
	log_limit_init(&x->slow_log, 10, 60000000000ull);
	cpu_wait_open(&x->sched);
	return 0;
}

void mesh_ctx_fini(struct mesh_ctx *x)
{
	struct mesh_link *l;

	while ((l = TAILQ_FIRST(&x->links)))
		mesh_link_free(l);
	event_free(x->admit);
	event_free(x->lag_ev);
	cpu_wait_close(&x->sched);
}

int mesh_path_init(struct mesh_path *p, struct mesh_ctx *x, const char *peer,
		   const struct sockaddr_storage *dst,
		   const struct sockaddr_storage *src, unsigned int idx)
{
	memset(p, 0, sizeof(*p));
	p->x = x;
	p->peer = peer;
	p->dst = dst;
	p->src = src;
	p->idx = idx;
	mesh_sched_init(&p->s, 0);
	mesh_stats_init(&p->st);
	mesh_health_init(&p->health.own, clock_now_ns());
	p->timer = evtimer_new(x->base, mesh_timer_cb, p);
	if (!p->timer) {
		mesh_path_fini(p);
		return -ENOMEM;
	}
	return 0;
}

void mesh_path_fini(struct mesh_path *p)
{
	if (p->queued)
		TAILQ_REMOVE(&p->x->waiting, p, wait);
	p->queued = false;
	if (p->link)
		p->link->p = NULL;
	p->link = NULL;
	if (p->timer)
		event_free(p->timer);
	p->timer = NULL;
}

void mesh_path_start(struct mesh_path *p)
{
	mesh_sched_init(&p->s, clock_now_ns() ^
			((uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull));
	p->load.on = false;
	if (!evtimer_pending(p->x->lag_ev, NULL))
		mesh_lag_arm(p->x, clock_now_ns());
	mesh_path_feed(p, MESH_EV_START);
}
