/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_agent.c - rdmad's mesh agent (see mesh_agent.h): peers, their
 * paths, one rdma_client mesh session per path, driven by mesh_sched.
 *
 * Every schedule event of a path goes through mesh_path_feed(), which
 * runs them one at a time (a client callback that fires while an action
 * is being carried out queues its event instead of re-entering).  A
 * client that is done with, whatever the reason, is detached from its
 * path and freed later from the loop (never inside its own callbacks).
 */
#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>
#include <sys/queue.h>
#include <syslog.h>

#include "addr.h"
#include "clock.h"
#include "log.h"
#include "mesh_agent.h"
#include "mesh_sched.h"
#include "proto.h"
#include "rdma_client.h"
#include "targets.h"

#define MESH_NAME_LEN		(TARGET_HOST_MAX + 10)
#define MESH_QUEUE		8
/*
 * Connects under way at once.  Each costs the loop a few milliseconds of
 * CPU (route, QP, buffers, the handshake); a thousand peers configured at
 * once, or a healed partition, would otherwise all connect within one
 * interval and starve the rounds of the peers that are up.
 */
#define MESH_CONNECTS_MAX	32
#define NS_PER_MS		1000000ull

struct mesh_path;

/* One client connection; outlives its path's interest in it. */
struct mesh_link {
	struct rdma_client *c;
	struct mesh_agent *a;
	struct mesh_path *p;		/* NULL: detached, waiting to be freed */
	bool done;			/* ops->done was called */
	TAILQ_ENTRY(mesh_link) entry;
};
TAILQ_HEAD(mesh_links, mesh_link);

struct mesh_peer;

struct mesh_path {
	struct mesh_peer *peer;
	unsigned int idx;
	struct mesh_sched s;
	struct event *timer;
	struct event *kick;		/* CONNECTED, outside the client */
	struct mesh_link *link;		/* the session, NULL: none */
	struct mesh_link *ready;	/* the one whose READY kicked */
	struct mesh_path_stats st;
	char error[200];		/* the last failure, for the table */
	uint64_t connect_at;		/* when the connect was asked for */
	uint32_t turn;			/* rounds asked for: the size's turn */
	unsigned int slot;		/* size slot of the round in flight */
	bool queued;			/* waiting for a connect slot */
	TAILQ_ENTRY(mesh_path) wait;
	/* events waiting for mesh_path_feed */
	enum mesh_event q[MESH_QUEUE];
	unsigned int q_n;
	bool feeding;
};

struct mesh_peer {
	char name[MESH_NAME_LEN];	/* "HOST:PORT", the metrics label */
	struct sockaddr_storage dst;
	unsigned int n_paths;
	struct mesh_path path[CONFIG_MESH_PATHS_MAX];
	struct mesh_agent *a;
	bool keep;			/* reload: in the new file too */
};

TAILQ_HEAD(mesh_paths, mesh_path);

struct mesh_agent {
	struct event_base *base;
	struct rdma_cm_chan *cm;
	struct rdma_devs *devs;
	const struct auth_key *psk;

	struct config_mesh cfg;		/* in force */
	struct mesh_sched_cfg scfg;
	struct mesh_budget budget;
	uint32_t hello_size;		/* sessions ask for this much */

	struct mesh_peer **peers;	/* in file order */
	unsigned int n_peers;

	/* prepared by mesh_agent_prepare */
	bool prepared;
	struct config_mesh next_cfg;
	struct mesh_peer **next;
	unsigned int n_next;
	char next_self[MESH_SELF_MAX][MESH_NAME_LEN];
	unsigned int n_next_self;

	/* targets entries that are this rdmad (rdmad_mesh_self_info) */
	char self[MESH_SELF_MAX][MESH_NAME_LEN];
	unsigned int n_self;

	struct mesh_links links;	/* every client not yet freed */
	struct event *reap;		/* frees the detached, done ones */
	unsigned int connecting;	/* paths in "connecting" */
	struct mesh_paths waiting;	/* due to connect, no slot yet */
	struct event *admit;		/* a slot freed: start waiting ones */
	bool stopping;
	uint64_t reloads;
	uint64_t bw_samples, bw_ns;

	struct mesh_view_peer *view;	/* mesh_agent_view's */
	unsigned int view_n;
	uint64_t seq;			/* connection names, seeds */
};

static void mesh_path_feed(struct mesh_path *p, enum mesh_event ev);

/* ---- configuration -------------------------------------------------- */

static void mesh_agent_sched_cfg(const struct config_mesh *m,
				 struct mesh_sched_cfg *s)
{
	memset(s, 0, sizeof(*s));
	s->interval_ns = (uint64_t)m->interval_ms * NS_PER_MS;
	s->jitter_pct = m->jitter_pct;
	s->connect_timeout_ns = (uint64_t)m->connect_timeout_ms * NS_PER_MS;
	s->round_timeout_ns = (uint64_t)m->round_timeout_ms * NS_PER_MS;
	s->backoff_min_ns = (uint64_t)m->backoff_min_ms * NS_PER_MS;
	s->backoff_max_ns = (uint64_t)m->backoff_max_ms * NS_PER_MS;
	s->bw_every_ns = (uint64_t)m->bw_every_ms * NS_PER_MS;
	s->bw_duration_ns = (uint64_t)m->bw_duration_ms * NS_PER_MS;
	s->bw_share_ppm = m->bw_share_ppm;
}

static uint32_t mesh_agent_hello_size(const struct config_mesh *m)
{
	uint32_t max = m->bw_every_ms ? m->bw_size : 0;
	unsigned int i;

	for (i = 0; i < m->n_sizes; i++)
		if (m->sizes[i] > max)
			max = m->sizes[i];
	return max ? max : 64;
}

/* What a session is made of changed: live ones must be made anew. */
static bool mesh_agent_session_changed(const struct config_mesh *a,
				       const struct config_mesh *b)
{
	return mesh_agent_hello_size(a) != mesh_agent_hello_size(b) ||
	       a->ops != b->ops || a->tos != b->tos ||
	       memcmp(&a->source, &b->source, sizeof(a->source)) ||
	       a->n_sizes != b->n_sizes ||
	       memcmp(a->sizes, b->sizes, sizeof(a->sizes));
}

/* ---- peers from the targets file ------------------------------------ */

static struct ifaddrs *mesh_agent_ifaddrs(void)
{
	struct ifaddrs *ifa = NULL;

	if (getifaddrs(&ifa))
		return NULL;
	return ifa;
}

static uint16_t mesh_agent_port(const struct sockaddr_storage *ss)
{
	return ntohs(ss->ss_family == AF_INET6 ?
		     ((const struct sockaddr_in6 *)(const void *)ss)->sin6_port :
		     ((const struct sockaddr_in *)(const void *)ss)->sin_port);
}

/*
 * ADDR is this rdmad itself: one of this host's addresses, on a port it
 * listens on (other ports of this host may be other rdmads: peers).
 */
static bool mesh_agent_is_self(const struct ifaddrs *ifa,
			       const struct rdmad_config *cfg,
			       const struct sockaddr_storage *addr)
{
	const struct ifaddrs *i;
	unsigned int k;

	for (k = 0; k < cfg->n_listen; k++)
		if (mesh_agent_port(&cfg->listen[k].addr) ==
		    mesh_agent_port(addr))
			break;
	if (k == cfg->n_listen)
		return false;

	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != addr->ss_family)
			continue;
		if (addr->ss_family == AF_INET &&
		    ((const struct sockaddr_in *)(const void *)i->ifa_addr)
		    ->sin_addr.s_addr ==
		    ((const struct sockaddr_in *)(const void *)addr)
		    ->sin_addr.s_addr)
			return true;
		if (addr->ss_family == AF_INET6 &&
		    !memcmp(&((const struct sockaddr_in6 *)(const void *)
			       i->ifa_addr)->sin6_addr,
			    &((const struct sockaddr_in6 *)(const void *)addr)
			    ->sin6_addr, sizeof(struct in6_addr)))
			return true;
	}
	return false;
}

static void mesh_peer_free(struct mesh_peer *peer)
{
	unsigned int i;

	for (i = 0; i < CONFIG_MESH_PATHS_MAX; i++) {
		if (peer->path[i].queued)
			TAILQ_REMOVE(&peer->a->waiting, &peer->path[i], wait);
		if (peer->path[i].timer)
			event_free(peer->path[i].timer);
		if (peer->path[i].kick)
			event_free(peer->path[i].kick);
	}
	free(peer);
}

static void mesh_peers_free(struct mesh_peer **v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		mesh_peer_free(v[i]);
	free(v);
}

static void mesh_timer_cb(evutil_socket_t fd, short what, void *arg);
static void mesh_kick_cb(evutil_socket_t fd, short what, void *arg);

/* T's name as other hosts' metrics label it: "HOST:PORT", "[V6]:PORT". */
static void mesh_target_name(const struct target *t, char *buf, size_t len)
{
	if (strchr(t->host, ':'))
		snprintf(buf, len, "[%s]:%u", t->host, t->port);
	else
		snprintf(buf, len, "%s:%u", t->host, t->port);
}

static int mesh_peer_new(struct mesh_agent *a, const struct target *t,
			 const struct sockaddr_storage *dst,
			 struct mesh_peer **out)
{
	struct mesh_peer *peer = calloc(1, sizeof(*peer));
	unsigned int i;

	if (!peer)
		return -ENOMEM;
	peer->a = a;
	peer->dst = *dst;
	mesh_target_name(t, peer->name, sizeof(peer->name));
	for (i = 0; i < CONFIG_MESH_PATHS_MAX; i++) {
		struct mesh_path *p = &peer->path[i];

		p->peer = peer;
		p->idx = i;
		p->timer = evtimer_new(a->base, mesh_timer_cb, p);
		p->kick = event_new(a->base, -1, 0, mesh_kick_cb, p);
		if (!p->timer || !p->kick) {
			mesh_peer_free(peer);
			return -ENOMEM;
		}
		mesh_stats_init(&p->st);
	}
	*out = peer;
	return 0;
}

/* T as an address: numeric only (no name lookups in the loop). */
static int mesh_agent_addr(const struct target *t,
			   struct sockaddr_storage *ss, const char **why)
{
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
		.ai_socktype = SOCK_STREAM,
	}, *ai = NULL;
	char port[8];

	snprintf(port, sizeof(port), "%u", t->port);
	if (getaddrinfo(t->host, port, &hints, &ai) || !ai) {
		*why = "not a numeric address (rdmad resolves no names for "
		       "the mesh: write the peer's address)";
		return -EINVAL;
	}
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	return 0;
}

static void mesh_agent_warn(void *arg, const char *msg)
{
	log_warn("mesh: targets %s", msg);
}

/* Read M's targets into a new peer list. */
static int mesh_agent_read(struct mesh_agent *a,
			   const struct rdmad_config *cfg,
			   struct mesh_peer ***out, unsigned int *n_out,
			   char *err, size_t errlen)
{
	const struct config_mesh *m = &cfg->mesh;
	struct target_list tl = { NULL, 0 };
	struct mesh_peer **v = NULL;
	struct ifaddrs *ifa = NULL;
	unsigned int i, n = 0, self = 0;
	FILE *f;
	int ret;

	*out = NULL;
	*n_out = 0;
	a->n_next_self = 0;
	if (!m->targets[0])
		return 0;
	f = fopen(m->targets, "re");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "[mesh] targets: cannot read %s: %s",
			 m->targets, strerror(-ret));
		return ret;
	}
	ret = targets_read(f, m->targets, m->port, m->max_peers, &tl,
			   mesh_agent_warn, a, err, errlen);
	fclose(f);
	if (ret)
		return ret;
	v = calloc(tl.n ? tl.n : 1, sizeof(*v));
	ifa = mesh_agent_ifaddrs();
	if (!v) {
		ret = -ENOMEM;
		snprintf(err, errlen, "mesh: out of memory");
		goto fail;
	}
	for (i = 0; i < tl.n; i++) {
		struct sockaddr_storage ss;
		const char *why = NULL;

		if (mesh_agent_addr(&tl.v[i], &ss, &why)) {
			snprintf(err, errlen, "%s:%u: '%s' is %s", m->targets,
				 tl.v[i].line, tl.v[i].host, why);
			ret = -EINVAL;
			goto fail;
		}
		/* One file for the whole fabric: a host skips itself. */
		if (ifa && mesh_agent_is_self(ifa, cfg, &ss)) {
			if (a->n_next_self < MESH_SELF_MAX)
				mesh_target_name(&tl.v[i],
						 a->next_self[a->n_next_self++],
						 MESH_NAME_LEN);
			self++;
			continue;
		}
		ret = mesh_peer_new(a, &tl.v[i], &ss, &v[n]);
		if (ret) {
			snprintf(err, errlen, "mesh: out of memory");
			goto fail;
		}
		n++;
	}
	if (self)
		log_info("mesh: %u of %u targets in %s are this rdmad "
			 "itself (its address and port): not probed", self,
			 tl.n, m->targets);
	if (ifa)
		freeifaddrs(ifa);
	targets_free(&tl);
	*out = v;
	*n_out = n;
	return 0;
fail:
	if (ifa)
		freeifaddrs(ifa);
	targets_free(&tl);
	if (v)
		mesh_peers_free(v, n);
	return ret;
}

/* ---- clients -------------------------------------------------------- */

static void mesh_reap_cb(evutil_socket_t fd, short what, void *arg)
{
	struct mesh_agent *a = arg;
	struct mesh_link *l, *tmp;

	for (l = TAILQ_FIRST(&a->links); l; l = tmp) {
		tmp = TAILQ_NEXT(l, entry);
		if (l->p || !l->done)
			continue;
		TAILQ_REMOVE(&a->links, l, entry);
		rdma_client_release(l->c);
		rdma_client_free(l->c);
		free(l);
	}
}

static void mesh_agent_reap_soon(struct mesh_agent *a)
{
	event_active(a->reap, EV_TIMEOUT, 0);
}

/* Let go of P's session: closed cleanly when READY, else aborted. */
static void mesh_path_detach(struct mesh_path *p, const char *why)
{
	struct mesh_link *l = p->link;

	if (!l)
		return;
	p->link = NULL;
	l->p = NULL;
	if (!l->done && rdma_client_close(l->c))
		rdma_client_abort(l->c, why);
	mesh_agent_reap_soon(p->peer->a);
}

static void mesh_path_name(const struct mesh_path *p, char *buf, size_t len)
{
	if (p->peer->n_paths > 1)
		snprintf(buf, len, "%s path %u", p->peer->name, p->idx);
	else
		snprintf(buf, len, "%s", p->peer->name);
}

/*
 * A failure of the session: counted as a round of its class; by size
 * only when a round of that size was in flight (a connect or a bandwidth
 * sample has none of the rotating sizes).
 */
static void mesh_path_failed(struct mesh_path *p, enum mesh_result r,
			     const char *error)
{
	struct mesh_agent *a = p->peer->a;
	bool sized = p->s.state == MESH_ST_ROUND && !p->s.bw &&
		     a->cfg.n_sizes;

	mesh_stats_round(&p->st, sized ? p->slot : CONFIG_MESH_SIZES_MAX,
			 sized ? a->cfg.sizes[p->slot] : 0, r, 0, 0,
			 clock_now_ns());
	snprintf(p->error, sizeof(p->error), "%s", error);
}

static void mesh_client_state(void *arg, enum rdma_client_state from,
			      enum rdma_client_state to,
			      enum rdma_client_event ev)
{
	struct mesh_link *l = arg;

	(void)ev;
	/* The first round may not start inside the client's transition. */
	if (l->p && to == RDMA_CLIENT_ST_READY &&
	    from == RDMA_CLIENT_ST_DESC)
	{
		l->p->ready = l;
		event_active(l->p->kick, EV_TIMEOUT, 0);
	}
}

static void mesh_client_round(void *arg, const struct rdma_client_round *r)
{
	struct mesh_link *l = arg;
	struct mesh_path *p = l->p;
	char name[MESH_NAME_LEN + 16];

	if (!p)
		return;
	if (r->result == RDMA_CLIENT_FAIL_NONE) {
		mesh_stats_round(&p->st, p->slot, r->size, MESH_RES_OK,
				 r->write_ns + r->read_ns, 0, clock_now_ns());
		mesh_path_feed(p, MESH_EV_ROUND_OK);
		return;
	}
	mesh_path_name(p, name, sizeof(name));
	log_err("mesh: %s: round %u: DATA MISMATCH: %u bytes written and "
		"read back, the first bad byte at offset %u (the peer's memory "
		"or the path corrupts data)", name, r->round, r->size,
		r->bad_offset);
	snprintf(p->error, sizeof(p->error), "round %u: data mismatch, %u "
		 "bytes, first bad byte at offset %u", r->round, r->size,
		 r->bad_offset);
	mesh_stats_round(&p->st, p->slot, r->size, MESH_RES_MISMATCH, 0,
			 r->bad_offset, clock_now_ns());
	mesh_path_feed(p, MESH_EV_ROUND_BAD);
}

static void mesh_client_bw(void *arg, const struct rdma_client_bw *b)
{
	struct mesh_link *l = arg;
	struct mesh_path *p = l->p;
	struct mesh_agent *a;
	char name[MESH_NAME_LEN + 16];

	if (!p)
		return;
	a = p->peer->a;
	a->bw_samples++;
	a->bw_ns += b->ns;
	mesh_stats_bw(&p->st, b->bytes, b->ns, clock_now_ns());
	mesh_path_name(p, name, sizeof(name));
	log_info("mesh: %s: bandwidth sample: %llu WRITEs of %u bytes in "
		 "%.1f ms, %.1f MB/s", name, (unsigned long long)b->ops,
		 b->size, (double)b->ns / 1e6,
		 b->ns ? (double)b->bytes * 1e3 / (double)b->ns : 0.0);
	mesh_path_feed(p, MESH_EV_ROUND_OK);
}

static void mesh_client_done(void *arg, const struct rdma_client_outcome *o)
{
	struct mesh_link *l = arg;
	struct mesh_path *p = l->p;
	const char *error = NULL;
	enum mesh_event ev;
	enum mesh_result r;

	l->done = true;
	if (!p) {
		mesh_agent_reap_soon(l->a);
		return;
	}
	r = o->fail == RDMA_CLIENT_FAIL_NONE ? MESH_RES_COMPLETION_ERROR :
	    mesh_result_of(o->fail);
	/* The client's own words name rdma-probe's options. */
	if (o->fail == RDMA_CLIENT_FAIL_KEY && !(p->peer->a->psk &&
						 p->peer->a->psk->len))
		error = "the peer requires a pre-shared key: set [auth] "
			"psk_file (the fabric's key)";
	else if (o->fail == RDMA_CLIENT_FAIL_KEY)
		error = "the peer refused our key ([auth] psk_file): the "
			"fabric's hosts must share one key";
	ev = p->s.state == MESH_ST_CONNECTING ? MESH_EV_CONNECT_FAILED :
	     MESH_EV_LOST;
	if (!error)
		error = o->error ? o->error : "failed";
	/* Between rounds a lost session is no round. */
	if (p->s.state == MESH_ST_WAIT)
		snprintf(p->error, sizeof(p->error), "%s", error);
	else
		mesh_path_failed(p, r, error);
	p->link = NULL;
	l->p = NULL;
	mesh_agent_reap_soon(p->peer->a);
	mesh_path_feed(p, ev);
}

static const struct rdma_client_ops mesh_client_ops = {
	.state = mesh_client_state,
	.round = mesh_client_round,
	.bw = mesh_client_bw,
	.done = mesh_client_done,
};

static int mesh_path_connect(struct mesh_path *p)
{
	struct mesh_agent *a = p->peer->a;
	struct rdma_client_opts o;
	struct mesh_link *l;
	int ret;

	memset(&o, 0, sizeof(o));
	o.dst = p->peer->dst;
	o.src = a->cfg.source;
	o.mesh = true;
	o.ops = a->cfg.ops;
	o.size = a->hello_size;
	o.iters = 1;
	o.timeout_ms = a->cfg.connect_timeout_ms > a->cfg.round_timeout_ms ?
		       a->cfg.connect_timeout_ms : a->cfg.round_timeout_ms;
	o.depth = 4;
	o.seed = clock_now_ns() ^ (++a->seq * 0x9e3779b97f4a7c15ull);
	o.verify = true;
	o.tos = a->cfg.tos;
	o.psk = a->psk && a->psk->len ? a->psk : NULL;
	o.devs = a->devs;
	o.log_prio = -1;	/* the agent speaks for its sessions */
	snprintf(o.name, sizeof(o.name), "mesh %.70s/%u", p->peer->name,
		 p->idx);
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	ret = rdma_client_new(&l->c, a->base, a->cm, &o, &mesh_client_ops, l);
	if (ret) {
		free(l);
		return ret;
	}
	l->p = p;
	l->a = a;
	p->link = l;
	p->connect_at = clock_now_ns();
	TAILQ_INSERT_TAIL(&a->links, l, entry);
	rdma_client_start(l->c);
	return 0;
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
			p->peer->name, p->idx);
		mesh_path_detach(p, "mesh: no timer");
		p->s.state = MESH_ST_IDLE;
		p->s.due = 0;
	}
}

static void mesh_path_round(struct mesh_path *p, bool bw)
{
	struct mesh_agent *a = p->peer->a;
	int ret;

	p->slot = a->cfg.n_sizes ? p->turn % a->cfg.n_sizes : 0;
	p->turn++;
	if (!p->link) {
		ret = -ENOTCONN;
	} else if (bw) {
		ret = rdma_client_bw(p->link->c, a->cfg.bw_size,
				     a->cfg.bw_duration_ms);
	} else {
		ret = rdma_client_round(p->link->c, a->cfg.sizes[p->slot]);
	}
	if (!ret)
		return;
	mesh_path_failed(p, MESH_RES_LOCAL_ERROR, strerror(-ret));
	log_err("mesh: %s/%u: cannot start a round: %s", p->peer->name,
		p->idx, strerror(-ret));
	mesh_path_detach(p, "mesh: cannot start a round");
	mesh_path_feed(p, MESH_EV_LOST);
}

static void mesh_path_up(struct mesh_path *p, uint64_t now)
{
	char name[MESH_NAME_LEN + 16];

	mesh_path_name(p, name, sizeof(name));
	p->error[0] = '\0';
	log_notice("mesh: %s up: connected, first round done in %.1f ms", name,
		   (double)(now - p->connect_at) / 1e6);
}

static void mesh_path_down(struct mesh_path *p, const struct mesh_step *st,
			   bool was_up)
{
	char name[MESH_NAME_LEN + 16];

	mesh_path_name(p, name, sizeof(name));
	if (was_up)
		mesh_stats_down(&p->st);
	log_warn("mesh: %s down: %s; next connect in %.1f s", name,
		 p->error[0] ? p->error : "no answer",
		 (double)st->wait_ns / 1e9);
}

/* The one place a path's schedule changes. */
static void mesh_path_set(struct mesh_path *p, const struct mesh_step *st,
			  enum mesh_event ev)
{
	char name[MESH_NAME_LEN + 16];

	if (st->next.state != p->s.state && log_get_level() >= LOG_DEBUG) {
		mesh_path_name(p, name, sizeof(name));
		log_debug("mesh: %s: %s -> %s (%s)", name,
			  mesh_state_name(p->s.state),
			  mesh_state_name(st->next.state),
			  mesh_event_name(ev));
	}
	/* A reconnect that failed again, with its backoff, for people. */
	if (st->next.state == MESH_ST_BACKOFF && !(st->act & MESH_ACT_DOWN) &&
	    p->s.state == MESH_ST_CONNECTING) {
		mesh_path_name(p, name, sizeof(name));
		log_info("mesh: %s: connect failed again (%s); backing off "
			 "%.1f s (attempt %u)", name,
			 p->error[0] ? p->error : "no answer",
			 (double)st->wait_ns / 1e9, st->next.fails);
	}
	if (p->s.state != MESH_ST_CONNECTING &&
	    st->next.state == MESH_ST_CONNECTING)
		p->peer->a->connecting++;
	if (p->s.state == MESH_ST_CONNECTING &&
	    st->next.state != MESH_ST_CONNECTING) {
		p->peer->a->connecting--;
		if (!TAILQ_EMPTY(&p->peer->a->waiting))
			event_active(p->peer->a->admit, EV_TIMEOUT, 0);
	}
	p->s = st->next;
}

static void mesh_path_step(struct mesh_path *p, enum mesh_event ev)
{
	struct mesh_agent *a = p->peer->a;
	uint64_t now = clock_now_ns();
	struct mesh_step st;
	bool was_up;
	int ret;

	if (ev == MESH_EV_STOP && p->queued) {
		TAILQ_REMOVE(&a->waiting, p, wait);
		p->queued = false;
	}
	if (ev == MESH_EV_TIMER && p->s.state == MESH_ST_CONNECTING)
		mesh_path_failed(p, MESH_RES_TIMEOUT, "connect timed out");
	else if (ev == MESH_EV_TIMER && p->s.state == MESH_ST_ROUND)
		mesh_path_failed(p, MESH_RES_TIMEOUT, "round timed out");
	ret = mesh_sched_step(&p->s, &a->scfg, &a->budget, ev, now, &st);
	if (ret) {
		log_debug("mesh: %s/%u: %s ignored in %s", p->peer->name,
			  p->idx, mesh_event_name(ev),
			  mesh_state_name(p->s.state));
		return;
	}
	was_up = p->s.reach == MESH_REACH_UP;
	mesh_path_set(p, &st, ev);
	if (st.act & MESH_ACT_CLOSE)
		mesh_path_detach(p, "mesh: closed by the schedule");
	if (st.act & MESH_ACT_UP)
		mesh_path_up(p, now);
	if (st.act & MESH_ACT_DOWN)
		mesh_path_down(p, &st, was_up);
	if (st.act & MESH_ACT_TIMER)
		mesh_path_arm(p, now);
	if (st.act & MESH_ACT_CONNECT) {
		ret = mesh_path_connect(p);
		if (ret) {
			mesh_path_failed(p, MESH_RES_LOCAL_ERROR,
					 strerror(-ret));
			mesh_path_feed(p, MESH_EV_CONNECT_FAILED);
		}
	}
	if (st.act & MESH_ACT_ROUND)
		mesh_path_round(p, st.act & MESH_ACT_BW);
}

/* Run EV, and whatever it queues, one at a time. */
static void mesh_path_feed(struct mesh_path *p, enum mesh_event ev)
{
	if (p->q_n == MESH_QUEUE) {
		log_err("mesh: %s/%u: event queue full; %s dropped",
			p->peer->name, p->idx, mesh_event_name(ev));
		return;
	}
	p->q[p->q_n++] = ev;
	if (p->feeding)
		return;
	p->feeding = true;
	while (p->q_n) {
		ev = p->q[0];
		memmove(p->q, p->q + 1, --p->q_n * sizeof(p->q[0]));
		mesh_path_step(p, ev);
	}
	p->feeding = false;
}

static void mesh_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct mesh_path *p = arg;
	struct mesh_agent *a = p->peer->a;

	(void)fd;
	(void)what;
	/* Time to connect, but enough connects are under way: wait for a
	 * slot (the connect's deadline starts when it really starts). */
	if ((p->s.state == MESH_ST_PENDING || p->s.state == MESH_ST_BACKOFF) &&
	    a->connecting >= MESH_CONNECTS_MAX) {
		if (!p->queued) {
			TAILQ_INSERT_TAIL(&a->waiting, p, wait);
			p->queued = true;
		}
		return;
	}
	mesh_path_feed(p, MESH_EV_TIMER);
}

/* Connect slots freed: the paths waiting for one, in order. */
static void mesh_admit_cb(evutil_socket_t fd, short what, void *arg)
{
	struct mesh_agent *a = arg;
	struct mesh_path *p;

	(void)fd;
	(void)what;
	while (a->connecting < MESH_CONNECTS_MAX &&
	       (p = TAILQ_FIRST(&a->waiting))) {
		TAILQ_REMOVE(&a->waiting, p, wait);
		p->queued = false;
		mesh_path_feed(p, MESH_EV_TIMER);
	}
}

/* The session of this path reached READY (a stale kick does nothing). */
static void mesh_kick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct mesh_path *p = arg;

	(void)fd;
	(void)what;
	if (p->link && p->link == p->ready &&
	    p->s.state == MESH_ST_CONNECTING) {
		mesh_stats_connected(&p->st);
		mesh_path_feed(p, MESH_EV_CONNECTED);
	}
}

static void mesh_peer_start(struct mesh_peer *peer, unsigned int n_paths)
{
	unsigned int i;

	for (i = peer->n_paths; i < n_paths; i++) {
		struct mesh_path *p = &peer->path[i];

		/* Its figures stay: counters never go back. */
		mesh_sched_init(&p->s, clock_now_ns() ^
				((uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull));
		p->error[0] = '\0';
		p->turn = 0;
		peer->n_paths = i + 1;
		mesh_path_feed(p, MESH_EV_START);
	}
}

/* Stop paths FROM.. of PEER (all: 0). */
static void mesh_peer_stop(struct mesh_peer *peer, unsigned int from)
{
	unsigned int i;

	for (i = from; i < peer->n_paths; i++)
		mesh_path_feed(&peer->path[i], MESH_EV_STOP);
	if (from < peer->n_paths)
		peer->n_paths = from;
}

/* ---- the agent -------------------------------------------------------- */

int mesh_agent_new(struct mesh_agent **out, struct event_base *base,
		   struct rdma_cm_chan *cm, struct rdma_devs *devs,
		   const struct auth_key *psk)
{
	struct mesh_agent *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	a->base = base;
	a->cm = cm;
	a->devs = devs;
	a->psk = psk;
	a->cfg.tos = -1;
	TAILQ_INIT(&a->links);
	TAILQ_INIT(&a->waiting);
	a->reap = event_new(base, -1, 0, mesh_reap_cb, a);
	a->admit = event_new(base, -1, 0, mesh_admit_cb, a);
	if (!a->reap || !a->admit) {
		if (a->reap)
			event_free(a->reap);
		free(a);
		return -ENOMEM;
	}
	*out = a;
	return 0;
}

int mesh_agent_prepare(struct mesh_agent *a, const struct rdmad_config *cfg,
		       char *err, size_t errlen)
{
	struct mesh_sched_cfg s;
	const char *why;
	int ret;

	mesh_agent_rollback(a);
	if (cfg->mesh.targets[0]) {
		mesh_agent_sched_cfg(&cfg->mesh, &s);
		why = mesh_sched_cfg_check(&s);
		if (why) {
			snprintf(err, errlen, "[mesh]: %s", why);
			return -EINVAL;
		}
	}
	ret = mesh_agent_read(a, cfg, &a->next, &a->n_next, err,
			      errlen);
	if (ret)
		return ret;
	a->next_cfg = cfg->mesh;
	a->prepared = true;
	return 0;
}

void mesh_agent_rollback(struct mesh_agent *a)
{
	if (!a->prepared)
		return;
	mesh_peers_free(a->next, a->n_next);
	a->next = NULL;
	a->n_next = 0;
	a->prepared = false;
}

static struct mesh_peer *mesh_agent_find(struct mesh_peer **v, unsigned int n,
					 const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(v[i]->name, name))
			return v[i];
	return NULL;
}

static void mesh_agent_sizes(const struct config_mesh *m, char *buf,
			     size_t len)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < m->n_sizes && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%u",
					i ? " " : "", m->sizes[i]);
}

void mesh_agent_commit(struct mesh_agent *a)
{
	struct mesh_peer **old = a->peers;
	unsigned int n_old = a->n_peers, i, j, added = 0, removed = 0, kept = 0;
	bool first = !a->cfg.targets[0] && !a->reloads && !old;
	bool remake, sizes_changed;
	char sizes[96];

	if (!a->prepared)
		return;
	remake = mesh_agent_session_changed(&a->cfg, &a->next_cfg);
	sizes_changed = a->cfg.n_sizes != a->next_cfg.n_sizes ||
			memcmp(a->cfg.sizes, a->next_cfg.sizes,
			       sizeof(a->cfg.sizes));
	a->cfg = a->next_cfg;
	mesh_agent_sched_cfg(&a->cfg, &a->scfg);
	if (first || !old)
		mesh_budget_init(&a->budget, &a->scfg, clock_now_ns());
	a->hello_size = mesh_agent_hello_size(&a->cfg);
	/* Peers in both files keep their connections and figures. */
	for (i = 0; i < a->n_next; i++) {
		struct mesh_peer *o = mesh_agent_find(old, n_old,
						      a->next[i]->name);

		if (!o)
			continue;
		o->keep = true;
		mesh_peer_free(a->next[i]);
		a->next[i] = o;
	}
	for (i = 0; i < n_old; i++) {
		if (old[i]->keep)
			continue;
		mesh_peer_stop(old[i], 0);
		mesh_peer_free(old[i]);
		removed++;
	}
	free(old);
	a->peers = a->next;
	a->n_peers = a->n_next;
	memcpy(a->self, a->next_self, sizeof(a->self));
	a->n_self = a->n_next_self;
	a->next = NULL;
	a->n_next = 0;
	a->prepared = false;
	for (i = 0; i < a->n_peers; i++) {
		struct mesh_peer *peer = a->peers[i];

		if (!peer->keep) {
			added++;
		} else {
			kept++;
			peer->keep = false;
			for (j = 0; sizes_changed && j < CONFIG_MESH_PATHS_MAX;
			     j++)
				mesh_stats_sizes_reset(&peer->path[j].st);
			if (remake)
				mesh_peer_stop(peer, 0);
			else
				mesh_peer_stop(peer, a->cfg.paths);
		}
		if (!a->stopping)
			mesh_peer_start(peer, a->cfg.paths);
	}
	mesh_agent_sizes(&a->cfg, sizes, sizeof(sizes));
	if (!a->cfg.targets[0]) {
		if (removed)
			log_notice("mesh: off; %u peers no longer probed",
				   removed);
	} else if (first) {
		log_notice("mesh: probing %u peers from %s, %u path%s each, "
			   "every %u ms, sizes %s bytes", a->n_peers,
			   a->cfg.targets, a->cfg.paths,
			   a->cfg.paths > 1 ? "s" : "", a->cfg.interval_ms,
			   sizes);
	} else {
		log_notice("mesh: reload: %u peers added, %u removed, %u kept%s",
			   added, removed, kept, remake ? " (their sessions "
			   "are made anew: sizes, ops, tos or source changed)" :
			   "");
	}
	if (!first)
		a->reloads++;
}

void mesh_agent_stop(struct mesh_agent *a)
{
	unsigned int i;

	a->stopping = true;
	for (i = 0; i < a->n_peers; i++)
		mesh_peer_stop(a->peers[i], 0);
}

void mesh_agent_view(struct mesh_agent *a, struct mesh_view *v)
{
	unsigned int i, j;

	memset(v, 0, sizeof(*v));
	v->on = a->cfg.targets[0] != '\0';
	v->targets = a->cfg.targets;
	v->interval_ms = a->cfg.interval_ms;
	v->sizes = a->cfg.sizes;
	v->n_sizes = a->cfg.n_sizes;
	v->bw_samples = a->bw_samples;
	v->bw_ns = a->bw_ns;
	v->reloads = a->reloads;
	for (i = 0; i < a->n_self; i++)
		v->self[i] = a->self[i];
	v->n_self = a->n_self;
	if (a->view_n < a->n_peers) {
		struct mesh_view_peer *nv = realloc(a->view, a->n_peers *
						    sizeof(*nv));

		if (!nv)
			return;
		a->view = nv;
		a->view_n = a->n_peers;
	}
	for (i = 0; i < a->n_peers; i++) {
		const struct mesh_peer *peer = a->peers[i];
		struct mesh_view_peer *vp = &a->view[i];

		vp->name = peer->name;
		vp->n_paths = peer->n_paths;
		for (j = 0; j < peer->n_paths; j++) {
			vp->path[j].state = peer->path[j].s.state;
			vp->path[j].reach = peer->path[j].s.reach;
			vp->path[j].st = &peer->path[j].st;
			vp->path[j].error = peer->path[j].error;
		}
	}
	v->peers = a->view;
	v->n_peers = a->n_peers;
}

void mesh_agent_free(struct mesh_agent *a)
{
	struct mesh_link *l;
	unsigned int i;

	if (!a)
		return;
	mesh_agent_rollback(a);
	for (i = 0; i < a->n_peers; i++) {
		unsigned int j;

		for (j = 0; j < CONFIG_MESH_PATHS_MAX; j++)
			if (a->peers[i]->path[j].link)
				a->peers[i]->path[j].link->p = NULL;
		mesh_peer_free(a->peers[i]);
	}
	free(a->peers);
	while ((l = TAILQ_FIRST(&a->links))) {
		TAILQ_REMOVE(&a->links, l, entry);
		rdma_client_release(l->c);
		rdma_client_free(l->c);
		free(l);
	}
	event_free(a->reap);
	event_free(a->admit);
	free(a->view);
	free(a);
}
