/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-drv-http.c - the HTTP endpoint's routes, over a real loopback
 * socket, against a real rdmad over the fake RDMA layer (its served side,
 * mesh agent and blackbox prober live):
 *  1. GET /status (JSON and text): the listener and a live connection;
 *  2. GET /metrics: the listener up, the live connection, the mesh peer;
 *  3. GET /peers: the peer, up, its verified rounds; GET /mesh: the page;
 *  4. GET /probe (blackbox): a serving peer succeeds with its READ and
 *     WRITE timed; a port nobody listens on and a peer that never answers
 *     fail, each within its timeout; no target is a 400;
 *  5. an unknown path is a 404, a bad query a 400.
 * (was tests/rdma: t-69-blackbox, t-70-metrics, t-71-status in part; see
 * docs/testbed.md)
 */
#include "drv-fixture.h"

#include "proto.h"

struct up {
	struct drv *d;
};

/* A's mesh sees B up with verified rounds. */
static bool b_up(void *arg)
{
	struct drv *d = ((struct up *)arg)->d;
	const char *want[2] = { "peer=\"10.0.0.2:7472\"", "result=\"ok\"" };
	static uint64_t last;

	if (last && clock_since_ns(last) < 10000000u)
		return false;
	last = clock_now_ns();
	return drv_metric(d, "rdmad_mesh_rounds_total", want, 2) >= 2;
}

static bool serving(void *arg)
{
	struct drv_client *k = arg;

	return k->ops > 2;
}

static bool has(const char *body, const char *what)
{
	return strstr(body, what) != NULL;
}

int main(void)
{
	struct event_base *base = event_base_new();
	static struct drv_reply r;
	struct rdma_client_opts o;
	struct rdma_cm_chan cm;
	struct drv a, b, m;
	struct drv_client k;
	char ini[PATH_MAX + 512], targets[PATH_MAX];
	struct up u = { &a };
	const char *want[1];
	char path[128];

	tap_plan(19);
	if (!tap_ok(!drv_start(&b, base, "[server]\nlisten = 10.0.0.2:7472\n") &&
		    !drv_start(&m, base, "[server]\nlisten = 10.0.0.4:7474\n") &&
		    !drv_start(&a, base, "[server]\nlisten = 10.0.0.1:7471\n") &&
		    !rdma_cm_chan_open(&cm, base), "the rdmads start"))
		return tap_done();
	fake_mute(7474, true);
	drv_file(&a, "peers", "10.0.0.2:7472\n", targets, sizeof(targets));
	snprintf(ini, sizeof(ini), "[server]\nlisten = 10.0.0.1:7471\n"
		 "[mesh]\ninterval = 20ms\ntargets = %s\n"
		 "[module.quick]\ntimeout = 300ms\n", targets);
	tap_ok(!drv_reload(&a, ini) && drv_wait(base, b_up, &u),
	       "A's mesh sees B up");
	drv_client_opts(&o, "10.0.0.1", 7471, PROTO_OP_READ, 4096, 100000);
	o.duration_ms = 60000;
	drv_client_start(&k, base, &cm, &o);
	drv_wait(base, serving, &k);

	/* 1. /status */
	tap_ok(drv_get(&a, "/status", &r) == 200 && r.body[0] == '{' &&
	       has(r.body, "10.0.0.1:7471") &&
	       has(r.body, "\"active\":[{\"id\":1,") &&
	       has(r.body, "\"state\":\"established/"),
	       "GET /status: JSON with the listener and the live session");
	tap_ok(drv_get(&a, "/status?format=text", &r) == 200 &&
	       r.body[0] != '{' && has(r.body, "10.0.0.1:7471"),
	       "GET /status?format=text: for people");

	/* 2. /metrics */
	tap_ok(drv_get(&a, "/metrics", &r) == 200, "GET /metrics");
	want[0] = "address=\"10.0.0.1:7471\"";
	tap_ok(drv_prom(r.body, "rdmad_listener_up", want, 1) == 1 &&
	       drv_prom(r.body, "rdmad_connections_active", NULL, 0) == 1,
	       "/metrics: the listener up, one live connection");
	want[0] = "peer=\"10.0.0.2:7472\"";
	tap_ok(drv_prom(r.body, "rdmad_mesh_peer_up", want, 1) == 1 &&
	       drv_prom(r.body, "rdmad_mesh_peers", NULL, 0) == 1,
	       "/metrics: the mesh's peer up");

	/* 3. /peers, /mesh */
	tap_ok(drv_get(&a, "/peers", &r) == 200 && r.body[0] == '{' &&
	       has(r.body, "\"10.0.0.2:7472\""), "GET /peers: JSON with B");
	tap_ok(drv_get(&a, "/peers?format=text", &r) == 200 &&
	       has(r.body, "10.0.0.2:7472") && has(r.body, "up"),
	       "GET /peers?format=text: B up");
	tap_ok(drv_get(&a, "/mesh", &r) == 200 && has(r.body, "<html") &&
	       has(r.body, "10.0.0.2:7472"), "GET /mesh: the page, with B");

	/* 4. /probe */
	tap_ok(drv_get(&a, "/probe?target=10.0.0.2:7472", &r) == 200,
	       "GET /probe of B");
	tap_ok(drv_prom(r.body, "probe_success", NULL, 0) == 1 &&
	       drv_prom(r.body, "probe_rdma_connect_seconds", NULL, 0) > 0,
	       "/probe of B: success, connect timed");
	tap_ok(drv_get(&a, "/probe?target=10.0.0.3:7473", &r) == 200 &&
	       drv_prom(r.body, "probe_success", NULL, 0) == 0,
	       "/probe of a port nobody listens on: failure");
	snprintf(path, sizeof(path), "/probe?target=10.0.0.4:7474&module=quick");
	tap_ok(drv_get(&a, path, &r) == 200 &&
	       drv_prom(r.body, "probe_success", NULL, 0) == 0,
	       "/probe of a peer that never answers: failure (module timeout)");
	tap_ok(drv_get(&a, "/probe", &r) == 400, "/probe without a target: 400");
	tap_ok(drv_get(&a, "/probe?target=10.0.0.2:7472&module=nope", &r) == 400,
	       "/probe with an unknown module: 400");

	/* 5. refusals */
	tap_ok(drv_get(&a, "/nope", &r) == 404, "an unknown path: 404");
	tap_ok(drv_get(&a, "/status?format=xml", &r) == 400,
	       "a bad query: 400");
	rdma_client_free(k.c);
	want[0] = "reason=\"not-found\"";
	tap_ok(drv_metric(&a, "rdmad_http_requests_refused_total", want, 1) == 1,
	       "the 404 counted");

	drv_stop(&a);
	drv_stop(&b);
	drv_stop(&m);
	rdma_cm_chan_close(&cm);
	event_base_free(base);
	return tap_done();
}
