/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-drv-serve.c - the served side (serve/: listener, admission, the
 * connection's driver, the native protocol) end to end over the fake
 * RDMA layer, against rdma-probe's client (rdma_client):
 *  1. a session: HELLO/descriptor exchange, 8 verified READs and 8
 *     WRITEs of 4 KiB (the bytes really moved), DONE and RESULT, the
 *     disconnect; the connection freed, its memory given back;
 *  2. a client that vanishes mid-session (its id destroyed) does not hurt
 *     one that runs beside it; both freed;
 *  3. a refusal ([access] deny) and a port nobody listens on: the client
 *     told, the refusal counted;
 *  4. the device removed under a session: the session ends, the listener
 *     goes down and listens again when the device is back, and a new
 *     session runs.
 * (was tests/rdma: t-22-sequential, t-23-concurrent, t-24-kill, t-55-device
 * in part; see docs/testbed.md)
 */
#include "drv-fixture.h"

#include "proto.h"

struct wait_for {
	struct drv *d;
	struct drv_client *k;
	unsigned int gone;
	double listener_up;
};

/* The client is over and the served side freed GONE connections. */
static bool client_and_gone(void *arg)
{
	struct wait_for *w = arg;

	return (!w->k || w->k->done) && w->d->gone >= w->gone;
}

/* W's client is served, and past its first operations. */
static bool served_one(void *arg)
{
	struct wait_for *w = arg;

	return conn_set_count(&w->d->conns) >= 1 && w->k->ops > 2;
}

static bool listener_is(void *arg)
{
	struct wait_for *w = arg;
	struct stats_listener ls[CONFIG_MAX_LISTEN];

	return listener_view(&w->d->ls, ls) == 1 &&
	       ls[0].up == (w->listener_up > 0);
}

static double metric1(struct drv *d, const char *family, const char *label)
{
	const char *want[1] = { label };

	return drv_metric(d, family, want, label ? 1 : 0);
}

int main(void)
{
	struct event_base *base = event_base_new();
	struct rdma_client_opts o;
	struct drv_client k, v;
	struct fake_counts n0, n1;
	struct rdma_cm_chan cm;
	struct drv a, b;
	struct wait_for w = { &a, &k, 1, 0 };
	double mem0;

	tap_plan(17);
	/* linger and close past the fixture's bound: only the client's
	 * disconnect can end a session in time */
	if (!tap_ok(!drv_start(&a, base, "[server]\nlisten = 10.0.0.1:7471\n"
			       "[timeouts]\nlinger = 1m\nclose = 1m\n") &&
		    !drv_start(&b, base, "[server]\nlisten = 10.0.0.2:7471\n"
			       "[access]\ndeny = 10.0.0.2/32\n") &&
		    !rdma_cm_chan_open(&cm, base), "two rdmads start on the fake"))
		return tap_done();
	mem0 = metric1(&a, "rdmad_registered_memory_bytes", NULL);

	/* 1. a session end to end */
	fake_counts(&n0);
	drv_client_opts(&o, "10.0.0.1", 7471, PROTO_OP_READ | PROTO_OP_WRITE,
			4096, 8);
	drv_client_start(&k, base, &cm, &o);
	drv_wait(base, client_and_gone, &w);
	fake_counts(&n1);
	tap_ok(k.done && k.o.fail == RDMA_CLIENT_FAIL_NONE && k.o.have_welcome,
	       "a native session ends well (%s)", k.error);
	tap_ok(k.o.reads_verified == 8 && k.o.writes_done == 8,
	       "8 READs verified, 8 WRITEs done (%u, %u)", k.o.reads_verified,
	       k.o.writes_done);
	tap_ok(n1.bytes_read - n0.bytes_read == 8 * 4096 &&
	       n1.bytes_written - n0.bytes_written == 8 * 4096,
	       "the bytes moved through the fake: %llu read, %llu written",
	       (unsigned long long)(n1.bytes_read - n0.bytes_read),
	       (unsigned long long)(n1.bytes_written - n0.bytes_written));
	tap_ok(a.gone == 1 && conn_set_empty(&a.conns) &&
	       metric1(&a, "rdmad_sessions_total", "result=\"ok\"") == 1,
	       "the served side counts one session ok and freed it");
	rdma_client_free(k.c);
	fake_counts(&n1);
	tap_ok(metric1(&a, "rdmad_registered_memory_bytes", NULL) == mem0 &&
	       n1.qps == 0, "its memory and QPs given back (%u QPs)", n1.qps);

	/* 2. a client vanishes mid-session beside another */
	drv_client_opts(&o, "10.0.0.1", 7471, PROTO_OP_READ, 4096, 100000);
	o.duration_ms = 60000;
	drv_client_start(&v, base, &cm, &o);
	w.k = &v;
	tap_ok(drv_wait(base, served_one, &w), "a long session is under way");
	drv_client_opts(&o, "10.0.0.1", 7471, PROTO_OP_READ | PROTO_OP_WRITE,
			4096, 8);
	drv_client_start(&k, base, &cm, &o);
	rdma_client_free(v.c);		/* its process is gone */
	w.k = &k;
	w.gone = 3;
	drv_wait(base, client_and_gone, &w);
	tap_ok(k.done && k.o.fail == RDMA_CLIENT_FAIL_NONE &&
	       k.o.reads_verified == 8,
	       "the session beside it ends well (%s)", k.error);
	tap_ok(a.gone == 3 && conn_set_empty(&a.conns),
	       "both connections freed (%u)", a.gone);
	tap_ok(metric1(&a, "rdmad_sessions_total", "result=\"ok\"") == 2 &&
	       metric1(&a, "rdmad_sessions_total", NULL) == 3,
	       "the vanished one is counted, not as ok");
	rdma_client_free(k.c);

	/* 3. refused by [access], and nobody on the port */
	drv_client_opts(&o, "10.0.0.2", 7471, PROTO_OP_READ, 4096, 1);
	drv_client_start(&k, base, &cm, &o);
	w.d = &b;
	w.gone = 0;
	drv_wait(base, client_and_gone, &w);
	tap_ok(k.done && k.o.fail != RDMA_CLIENT_FAIL_NONE &&
	       metric1(&b, "rdmad_rejects_total", "reason=\"denied\"") == 1 &&
	       b.gone == 0 && conn_set_empty(&b.conns),
	       "[access] deny: refused before any QP, counted (%s)", k.error);
	rdma_client_free(k.c);
	drv_client_opts(&o, "10.0.0.1", 7999, PROTO_OP_READ, 4096, 1);
	drv_client_start(&k, base, &cm, &o);
	drv_wait(base, client_and_gone, &w);
	tap_ok(k.done && k.o.fail != RDMA_CLIENT_FAIL_NONE,
	       "nobody on the port: the client is told (%s)", k.error);
	rdma_client_free(k.c);

	/* 4. the device removed under a session */
	w.d = &a;
	drv_client_opts(&o, "10.0.0.1", 7471, PROTO_OP_WRITE, 4096, 100000);
	o.duration_ms = 60000;
	drv_client_start(&v, base, &cm, &o);
	w.k = &v;
	drv_wait(base, served_one, &w);
	fake_dev_remove();
	w.k = &v;
	w.gone = 4;
	drv_wait(base, client_and_gone, &w);
	tap_ok(v.done && v.o.fail != RDMA_CLIENT_FAIL_NONE && a.gone == 4 &&
	       a.fatal >= 1, "device removed: the session ends on both sides "
	       "(%s)", v.error);
	w.listener_up = 0;
	tap_ok(drv_wait(base, listener_is, &w), "the listener is down");
	fake_dev_restore();
	w.listener_up = 1;
	tap_ok(drv_wait(base, listener_is, &w),
	       "the listener listens again once the device is back");
	rdma_client_free(v.c);
	drv_client_opts(&o, "10.0.0.1", 7471, PROTO_OP_READ | PROTO_OP_WRITE,
			4096, 8);
	drv_client_start(&k, base, &cm, &o);
	w.k = &k;
	w.gone = 5;
	drv_wait(base, client_and_gone, &w);
	tap_ok(k.done && k.o.fail == RDMA_CLIENT_FAIL_NONE &&
	       k.o.reads_verified == 8, "a new session runs (%s)", k.error);
	rdma_client_free(k.c);

	drv_stop(&a);
	drv_stop(&b);
	fake_counts(&n1);
	tap_ok(n1.ids == 0 && n1.qps == 0, "no id or QP left (%u, %u)",
	       n1.ids, n1.qps);
	rdma_cm_chan_close(&cm);
	event_base_free(base);
	return tap_done();
}
