/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blackbox.c - the probes of GET /probe (blackbox.h): a target's name
 * resolved with evdns, then one rdma_client each, a native session with
 * the module's settings, on rdmad's loop and CM channel, with the [auth]
 * key only for the targets of [http] probe_key_allow.  The probe's
 * timeout (the module's, bounded by the scrape's) bounds the whole probe,
 * the lookup included (and each of its steps); a probe whose asker went
 * away is aborted and freed when its client, or its lookup, is over.  A
 * client is never freed from its own callbacks, nor a lookup's probe from
 * evdns': that waits for the loop (an event of its own).  Each step goes
 * into the result's log, for debug=true.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/dns.h>
#include <event2/util.h>

#include "core/acl_match.h"
#include "blackbox/blackbox.h"
#include "clock.h"
#include "proto.h"
#include "rdma_client.h"
#include "mesh/mesh_result_rules.h"

struct blackbox_probe {
	struct blackbox *bb;
	struct blackbox_probe *next;
	struct rdma_client *c;
	blackbox_done_fn done;		/* NULL: canceled, or answered */
	void *arg;
	struct event *timer;		/* the probe's timeout */
	struct event *reap;		/* free from the loop */
	struct event *step;		/* the lookup is over: go on */
	/* A lookup whose callback is still to come (evdns calls it even
	 * when canceled: the probe waits for it). */
	struct evdns_getaddrinfo_request *dns_req;
	bool resolving;
	int dns_err;			/* the lookup's EVUTIL_EAI_*, or 0 */
	const char *dns_why;		/* why it failed, in words */
	struct sockaddr_storage dst;	/* the address probed, port set */
	bool timed_out;
	uint64_t start;
	uint64_t dns_start;
	struct blackbox_ask ask;
	struct blackbox_result r;
};

/* A step of P's, for debug=true. */
#define STEP(p, ...) \
	blackbox_render_step(&(p)->r, (double)(clock_now_ns() - \
					       (p)->start) / 1e9, __VA_ARGS__)

void blackbox_init(struct blackbox *bb, struct event_base *base,
		   struct rdma_cm_chan *cm, struct rdma_devs *devs,
		   const struct rdmad_config *cfg)
{
	memset(bb, 0, sizeof(*bb));
	bb->base = base;
	bb->cm = cm;
	bb->devs = devs;
	bb->cfg = cfg;
}

static void blackbox_free(struct blackbox_probe *p)
{
	struct blackbox_probe **pp;

	for (pp = &p->bb->probes; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	p->bb->n--;
	if (p->c)
		rdma_client_free(p->c);
	if (p->timer)
		event_free(p->timer);
	if (p->reap)
		event_free(p->reap);
	if (p->step)
		event_free(p->step);
	free(p);
}

/* Tell the asker, once. */
static void blackbox_answer(struct blackbox_probe *p)
{
	blackbox_done_fn done = p->done;

	p->done = NULL;
	if (done)
		done(p->arg, &p->r);
}

/* Over: tell the asker (from the loop, never from inside
 * blackbox_start), then free. */
static void blackbox_reap_cb(evutil_socket_t fd, short what, void *arg)
{
	struct blackbox_probe *p = arg;

	blackbox_answer(p);
	blackbox_free(p);
}

/* A failure before any connection: CLASS and the message ERROR
 * (static). */
static void blackbox_fail(struct blackbox_probe *p, const char *class,
			  const char *error)
{
	p->r.success = false;
	p->r.failed = class;
	p->r.error = error;
	p->r.duration_s = (double)(clock_now_ns() - p->start) / 1e9;
	STEP(p, "probe failed (%s): %s", class, error);
}

static void blackbox_fill(struct blackbox_probe *p,
			  const struct rdma_client_outcome *o);

/*
 * The probe's timeout bounds the answer: the lookup is canceled or the
 * client aborted, and if either is still to finish (the client waiting
 * for the peer to acknowledge the disconnect, which a stalled peer never
 * does, bounded only by another step deadline; evdns calling back) the
 * asker is answered now and the probe freed when it is over.
 */
static void blackbox_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct blackbox_probe *p = arg;
	uint64_t due = p->start + (uint64_t)p->ask.timeout_ms * 1000000;
	uint64_t now = clock_now_ns();
	struct rdma_client_outcome o;

	/* Armed from the loop's cached time on a coarse clock, the timer
	 * can run a little before the timeout has passed: wait the rest. */
	if (now < due) {
		struct timeval tv = { (time_t)((due - now) / 1000000000),
				      (suseconds_t)((due - now) % 1000000000 /
						    1000 + 1) };

		if (!evtimer_add(p->timer, &tv))
			return;
	}
	p->timed_out = true;
	STEP(p, "the probe's timeout (%u ms) passed", p->ask.timeout_ms);
	if (!p->c) {
		/* Resolving, or about to connect (the step event frees). */
		if (p->dns_req)
			evdns_getaddrinfo_cancel(p->dns_req);
		p->dns_req = NULL;
		blackbox_fail(p, p->resolving ? "unresolved" : "timeout",
			      p->resolving ? "the name did not resolve within "
			      "the probe's timeout" : "the probe's timeout "
			      "passed");
		blackbox_answer(p);
		return;
	}
	rdma_client_abort(p->c, "the probe's timeout passed");
	if (rdma_client_finished(p->c) || !p->done)
		return;		/* answered from the reap */
	rdma_client_outcome(p->c, &o);
	blackbox_fill(p, &o);
	blackbox_answer(p);
}

static void blackbox_op(void *arg, enum rdma_client_op kind, uint32_t bytes,
			uint64_t posted, uint64_t done)
{
	struct blackbox_probe *p = arg;
	unsigned int k = kind == RDMA_CLIENT_OP_WRITE;
	double s = done > posted ? (double)(done - posted) / 1e9 : 0;

	p->r.ops[k]++;
	p->r.op_sum_s[k] += s;
	if (s > p->r.op_max_s[k])
		p->r.op_max_s[k] = s;
	if (kind == RDMA_CLIENT_OP_READ)
		p->r.bytes_verified += bytes;
}

static void blackbox_state(void *arg, enum rdma_client_state from,
			   enum rdma_client_state to,
			   enum rdma_client_event ev)
{
	struct blackbox_probe *p = arg;

	STEP(p, "%s -> %s (%s), %u READs, %u WRITEs done",
	     rdma_client_fsm_state_str(from), rdma_client_fsm_state_str(to),
	     rdma_client_fsm_event_str(ev), p->r.ops[0], p->r.ops[1]);
}

/* The result of the probe from the client's outcome O. */
static void blackbox_fill(struct blackbox_probe *p,
			  const struct rdma_client_outcome *o)
{
	struct blackbox_result *r = &p->r;
	const struct rdma_client_times *t = o->times;
	enum mesh_result cls = mesh_result_class(o->fail, p->timed_out, false);

	r->success = cls == MESH_RES_OK;
	r->failed = r->success ? NULL : mesh_result_name(cls);
	r->error = r->success ? NULL : o->error;
	r->duration_s = (double)(clock_now_ns() - p->start) / 1e9;
	r->connect_s = t->established && t->start ?
		       (double)(t->established - t->start) / 1e9 : -1;
	/* The server checked the last WRITE: RESULT ok. */
	if (r->success && o->writes_done)
		r->bytes_verified += p->ask.m.size;
	if (r->success)
		STEP(p, "probe succeeded: %llu bytes verified",
		     (unsigned long long)r->bytes_verified);
	else
		STEP(p, "probe failed (%s): %s", r->failed,
		     r->error ? r->error : "?");
}

static void blackbox_client_done(void *arg,
				 const struct rdma_client_outcome *o)
{
	struct blackbox_probe *p = arg;

	evtimer_del(p->timer);
	if (p->done)
		blackbox_fill(p, o);
	event_active(p->reap, EV_TIMEOUT, 0);
}

static const struct rdma_client_ops blackbox_client_ops = {
	.op = blackbox_op,
	.state = blackbox_state,
	.done = blackbox_client_done,
};

/* Connect to p->dst: 0 or -errno. */
static int blackbox_connect(struct blackbox_probe *p)
{
	struct blackbox *bb = p->bb;
	const struct config_module *m = &p->ask.m;
	struct rdma_client_opts o;
	char where[64];
	int ret;

	memset(&o, 0, sizeof(o));
	o.dst = p->dst;
	o.ops = m->ops;
	o.size = m->size;
	o.iters = m->iterations;
	o.timeout_ms = p->ask.timeout_ms;
	o.depth = 1;
	o.seed = clock_now_ns() ^ ((uint64_t)bb->seq << 32);
	o.verify = true;
	o.tos = m->tos;
	/* The key only for targets the operator named: anyone who may ask
	 * for /probe names the target, and a keyed session proves the key
	 * to whoever answers there. */
	o.psk = bb->cfg->psk.len && acl_match(&bb->cfg->probe_key_allow,
					      (const struct sockaddr *)&p->dst) ?
		&bb->cfg->psk : NULL;
	o.devs = bb->devs;
	/* The failure is the answer; Prometheus probing a dead host every
	 * scrape must not write an error line to the journal each time. */
	o.log_prio = -1;
	snprintf(o.name, sizeof(o.name), "probe %u (module %s)", bb->seq++,
		 m->name);
	p->r.ip_protocol = p->dst.ss_family == AF_INET6 ? 6 : 4;
	addr_str((const struct sockaddr *)&p->dst, where, sizeof(where));
	STEP(p, "connecting to %s%s", where, o.psk ? ", with the [auth] key" :
	     "");
	ret = rdma_client_new(&p->c, bb->base, bb->cm, &o,
			      &blackbox_client_ops, p);
	if (ret)
		return ret;
	rdma_client_start(p->c);
	return 0;
}

/* evdns is over (an answer, a failure, or the cancel): note it, go on
 * from the loop. */
static void blackbox_resolved(int result, struct evutil_addrinfo *res,
			      void *arg)
{
	struct blackbox_probe *p = arg;
	struct evutil_addrinfo *ai, *pick = NULL;

	p->resolving = false;
	p->dns_req = NULL;
	p->r.resolve_s = (double)(clock_now_ns() - p->dns_start) / 1e9;
	/* The first IPv4 address (RoCE fabrics are), else the first IPv6
	 * one. */
	for (ai = res; !result && ai; ai = ai->ai_next) {
		if (ai->ai_addrlen > sizeof(p->dst))
			continue;
		if (ai->ai_family == AF_INET) {
			pick = ai;
			break;
		}
		if (ai->ai_family == AF_INET6 && !pick)
			pick = ai;
	}
	if (pick) {
		memset(&p->dst, 0, sizeof(p->dst));
		memcpy(&p->dst, pick->ai_addr, pick->ai_addrlen);
	} else if (!p->dns_why) {
		p->dns_err = result ? result : EVUTIL_EAI_NONAME;
		p->dns_why = evutil_gai_strerror(p->dns_err);
	}
	if (res)
		evutil_freeaddrinfo(res);
	event_active(p->step, EV_TIMEOUT, 0);
}

/* The lookup is over, from the loop: connect, or answer its failure. */
static void blackbox_step_cb(evutil_socket_t fd, short what, void *arg)
{
	struct blackbox_probe *p = arg;
	char where[64];

	if (!p->done) {		/* canceled, or answered at the timeout */
		blackbox_free(p);
		return;
	}
	if (p->dns_why) {
		STEP(p, "%s: no address (%s)", p->ask.host, p->dns_why);
		blackbox_fail(p, "unresolved", p->dns_why);
		goto over;
	}
	addr_str((const struct sockaddr *)&p->dst, where, sizeof(where));
	STEP(p, "%s resolved to %s in %.6f s", p->ask.host, where,
	     p->r.resolve_s);
	if (!blackbox_connect(p))
		return;
	blackbox_fail(p, "local-error", "cannot start the connection");
over:
	evtimer_del(p->timer);
	blackbox_answer(p);
	blackbox_free(p);
}

/* The lookup of p->ask.host; its callback may come at once. */
static int blackbox_resolve(struct blackbox_probe *p)
{
	struct blackbox *bb = p->bb;
	struct evutil_addrinfo hints;
	struct evdns_getaddrinfo_request *req;
	char port[8];

	/* /etc/hosts and /etc/resolv.conf at the first name (no
	 * nameserver there: none, names from /etc/hosts only).  Cleared
	 * and read again at each lookup, /etc/hosts lost its entries from
	 * the second reload on in t-69's guest (a bind mount on 9p; the
	 * same calls kept them on a local file; cause not found): once. */
	if (!bb->dns) {
		bb->dns = evdns_base_new(bb->base,
					 EVDNS_BASE_INITIALIZE_NAMESERVERS |
					 EVDNS_BASE_NAMESERVERS_NO_DEFAULT |
					 EVDNS_BASE_DISABLE_WHEN_INACTIVE);
		if (!bb->dns)
			return -ENOMEM;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(port, sizeof(port), "%u", p->ask.port);
	STEP(p, "resolving %s (/etc/hosts, then %d nameservers)", p->ask.host,
	     evdns_base_count_nameservers(bb->dns));
	p->resolving = true;
	p->dns_start = clock_now_ns();
	req = evdns_getaddrinfo(bb->dns, p->ask.host, port, &hints,
				blackbox_resolved, p);
	if (req && !evdns_base_count_nameservers(bb->dns)) {
		/* Not in /etc/hosts, and nobody to ask: evdns would hold
		 * it until a nameserver came. */
		p->dns_why = "not in /etc/hosts, and /etc/resolv.conf names "
			     "no nameserver";
		evdns_getaddrinfo_cancel(req);
	} else if (req && p->resolving) {
		p->dns_req = req;
	}
	return 0;
}

int blackbox_start(struct blackbox *bb, const struct blackbox_ask *ask,
		   blackbox_done_fn done, void *arg,
		   struct blackbox_probe **out)
{
	const struct config_module *m = &ask->m;
	struct timeval tv = { ask->timeout_ms / 1000,
			      (ask->timeout_ms % 1000) * 1000 };
	struct blackbox_probe *p;
	int ret;

	if (bb->n >= BLACKBOX_MAX)
		return -EBUSY;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->bb = bb;
	p->done = done;
	p->arg = arg;
	p->ask = *ask;
	p->next = bb->probes;
	bb->probes = p;
	bb->n++;
	blackbox_render_init(&p->r);
	p->start = clock_now_ns();
	p->timer = evtimer_new(bb->base, blackbox_timer_cb, p);
	p->reap = event_new(bb->base, -1, 0, blackbox_reap_cb, p);
	p->step = event_new(bb->base, -1, 0, blackbox_step_cb, p);
	if (!p->timer || !p->reap || !p->step || evtimer_add(p->timer, &tv)) {
		ret = -ENOMEM;
		goto err;
	}
	STEP(p, "probe of %s, module %s (%s%s%s, %u bytes, %u iterations), "
	     "timeout %u ms", ask->target, m->name,
	     m->ops & PROTO_OP_READ ? "read" : "",
	     m->ops == PROTO_OP_MASK ? " " : "",
	     m->ops & PROTO_OP_WRITE ? "write" : "", m->size, m->iterations,
	     ask->timeout_ms);
	if (ask->scrape_ms)
		STEP(p, "the scrape's timeout %u ms, less %u ms for the answer; "
		     "the module's %u ms", ask->scrape_ms, BLACKBOX_MARGIN_MS,
		     m->timeout_ms);
	if (ask->numeric) {
		p->dst = ask->addr.addr;
		ret = blackbox_connect(p);
	} else {
		ret = blackbox_resolve(p);
	}
	if (ret)
		goto err;
	*out = p;
	return 0;
err:
	blackbox_free(p);
	return ret;
}

void blackbox_cancel(struct blackbox_probe *p)
{
	p->done = NULL;
	if (p->c)
		rdma_client_abort(p->c, "the HTTP client went away");
	else if (p->dns_req)
		evdns_getaddrinfo_cancel(p->dns_req);
	p->dns_req = NULL;
	/* Else the step event is on its way: it frees. */
}

void blackbox_fini(struct blackbox *bb)
{
	struct blackbox_probe *p;

	for (p = bb->probes; p; p = p->next) {
		p->done = NULL;
		if (p->c)
			rdma_client_abort(p->c, "the HTTP client went away");
	}
	while (bb->probes)
		blackbox_free(bb->probes);
	/* A lookup still out is dropped with its base (the loop does not
	 * run again: nobody is called back). */
	if (bb->dns)
		evdns_base_free(bb->dns, 0);
	bb->dns = NULL;
}
