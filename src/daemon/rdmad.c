/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmad.c - main(): options, configuration, the event loop, signals,
 * and systemd readiness.
 *
 *   SIGTERM/SIGINT  drain: stop accepting, let live sessions finish for
 *                   up to [server] drain_timeout, then disconnect the rest
 *                   and exit 0 when they are gone (a second signal: now)
 *   SIGHUP          re-read the configuration file; limits, timeouts and
 *                   log level apply to new connections, listen addresses
 *                   are re-bound; live connections keep running (their
 *                   later deadlines use the new timeouts); the mesh
 *                   targets file is re-read: peers added and removed,
 *                   the others' sessions untouched
 *
 * Under systemd (Type=notify): READY=1 once listening, STATUS= kept
 * current, RELOADING=1/READY=1 around a reload, STOPPING=1, and WATCHDOG=1
 * at half the WatchdogSec interval from a loop timer, so a stalled loop
 * stops the pings.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <systemd/sd-daemon.h>

#include "auth.h"
#include "core/config.h"
#include "serve/conn.h"
#include "fdlimit.h"
#include "blackbox/blackbox.h"
#include "http/http.h"
#include "serve/listener.h"
#include "core/log.h"
#include "mesh/mesh_agent.h"
#include "mesh/mesh_stats.h"
#include "mesh/mesh_targets_check.h"
#include "rdma_buf.h"
#include "rdma_cm.h"
#include "rdma_counters.h"
#include "rdma_dev.h"
#include "rdma_log.h"
#include "rdmad_pages.h"
#include "rdmad_stage.h"
#include "core/stats.h"
#include "version.h"

/* The daemon: one event loop; everything hangs off it. */
struct rdmad {
	struct event_base *base;
	struct rdmad_config cfg;
	const char *config_path;

	struct rdma_cm_chan cm;		/* listeners' and connections' ids */
	struct rdma_devs devs;		/* devices in use, their async events */
	struct rdma_counters *counters;	/* their ports' counters */
	struct listeners listeners;
	struct conn_set conns;
	struct stats stats;
	struct timespec t_start;	/* CLOCK_MONOTONIC, for the uptime */
	double start_time;		/* unix seconds */
	bool reload_failed;		/* the last reload was refused */
	double reload_time;		/* the last good one (or the start) */
	struct http *http;		/* status and metrics, NULL: off */
	struct mesh_agent *mesh;	/* probes the [mesh] peers */
	struct blackbox probes;		/* GET /probe */
	struct rdmad_pages pages;	/* GET /metrics, /status */
	struct rdmad_stager *stager;	/* a reload's read, off the loop */
	bool reload_again;		/* SIGHUP during that read */

	int stopping;
	struct event *stop_timer;
};

static struct rdmad rdmad;
static struct event *drain_timer;	/* SIGTERM: end of the drain */
static struct event *watchdog_timer;	/* WATCHDOG=1 pings */

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: rdmad [OPTIONS]\n"
		"RDMA test service: serves rdma-probe (native protocol) and "
		"stock rping clients.\n\n"
		"  -c, --config FILE    configuration file (default %s)\n"
		"  -f, --foreground     stay in the foreground (the default; "
		"rdmad never forks)\n"
		"  -t, --check-config   check the configuration and exit\n"
		"  -h, --help           this text\n"
		"  -V, --version        print the version\n\n"
		"Exit status: 0 ok, 64 usage, 69 cannot listen (RDMA or "
		"[http]), 71 system error,\n78 configuration error.\n",
		CONFIG_DEFAULT_PATH);
}

static void sd_status(struct rdmad *d)
{
	sd_notifyf(0, "STATUS=%s%u active; %llu served, %llu failed, "
		   "%llu rejected", d->stopping ? "draining: " : "",
		   conn_set_count(&d->conns),
		   (unsigned long long)stats_accepted_total(&d->stats),
		   (unsigned long long)stats_sessions_failed(&d->stats),
		   (unsigned long long)stats_rejects_total(&d->stats));
}

static void watchdog_cb(evutil_socket_t fd, short what, void *arg)
{
	sd_notify(0, "WATCHDOG=1");
}

/* WATCHDOG=1 at half the interval systemd asks for, if it asks. */
static int watchdog_start(struct rdmad *d)
{
	uint64_t usec = 0;
	struct timeval tv;

	if (sd_watchdog_enabled(0, &usec) <= 0 || !usec)
		return 0;
	usec /= 2;
	tv.tv_sec = (time_t)(usec / 1000000);
	tv.tv_usec = (suseconds_t)(usec % 1000000);
	watchdog_timer = event_new(d->base, -1, EV_PERSIST, watchdog_cb, d);
	if (!watchdog_timer || event_add(watchdog_timer, &tv))
		return -ENOMEM;
	log_info("systemd watchdog: pinging every %llu ms",
		 (unsigned long long)(usec / 1000));
	return 0;
}

/*
 * Every connection holds a completion channel fd, every HTTP client a
 * socket: take the whole hard limit of open files (epoll has no FD_SETSIZE
 * ceiling), so that idle HTTP clients cannot starve RDMA accepts at the
 * soft default of 1024.
 */
static void raise_nofile(void)
{
	int ret = fdlimit_raise(RLIM_INFINITY);

	if (ret)
		log_debug("cannot raise the open files limit: %s",
			  strerror(-ret));
}

/* The RDMA layer's lines go to our log. */
static void rdmad_rdma_log(int prio, const char *msg)
{
	log_msg(prio, "%s", msg);
}

/* A port of a device went down or came back. */
static void rdmad_dev_port(void *arg, struct ibv_context *ctx, uint8_t port,
			   bool up)
{
	const char *name = ibv_get_device_name(ctx->device);

	stats_port(&((struct rdmad *)arg)->stats, name, port, up);
	if (up) {
		log_notice("device %s: port up", name);
		return;
	}
	log_warn("device %s: port %d down; dropping the connections on it",
		 name, port);
	conn_device_fatal(&((struct rdmad *)arg)->conns, ctx, port,
			  "port down");
}

/* A device had a fatal error (or was removed); the registry let go of it
 * already: its counters go too, and come back with it (port_seen). */
static void rdmad_dev_fatal(void *arg, struct ibv_context *ctx)
{
	log_err("device %s: fatal error; dropping its connections",
		ibv_get_device_name(ctx->device));
	rdma_counters_drop_device(((struct rdmad *)arg)->counters,
				  ibv_get_device_name(ctx->device),
				  "had a fatal error or was removed");
	conn_device_fatal(&((struct rdmad *)arg)->conns, ctx, 0,
			  "device fatal");
}

/* A device was registered: its ports' state from the start. */
static void rdmad_dev_port_seen(void *arg, struct ibv_context *ctx,
				uint8_t port, bool up)
{
	struct rdmad *d = arg;
	const char *name = ibv_get_device_name(ctx->device);

	stats_port_seen(&d->stats, name, port, up);
	rdma_counters_add_port(d->counters, name, port);
}

/* A port's nominal link rate, at registration and after its events. */
static void rdmad_dev_port_rate(void *arg, struct ibv_context *ctx,
				uint8_t port, uint64_t bytes_per_s)
{
	stats_port_rate(&((struct rdmad *)arg)->stats,
			ibv_get_device_name(ctx->device), port, bytes_per_s);
}

static const struct rdma_dev_ops rdmad_dev_ops = {
	.port = rdmad_dev_port,
	.port_seen = rdmad_dev_port_seen,
	.port_rate = rdmad_dev_port_rate,
	.fatal = rdmad_dev_fatal,
};

/* A connection was freed. */
static void rdmad_conn_gone(void *arg)
{
	struct rdmad *d = arg;

	sd_status(d);
	if (d->stopping && conn_set_empty(&d->conns)) {
		log_notice("all connections closed; exiting");
		event_base_loopexit(d->base, NULL);
	}
}

/* A connection request on one of the listeners. */
static void rdmad_request(void *arg, const struct rdma_cm_ev *e)
{
	struct rdmad *d = arg;

	conn_connect_request(&d->conns, e);
}

/* What the status and the metrics show. */
static void rdmad_view(void *arg, struct stats_view *v,
		       struct stats_listener *ls, struct stats_conn *conns,
		       unsigned int max)
{
	struct rdmad *d = arg;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	memset(v, 0, sizeof(*v));
	v->stats = &d->stats;
	v->version = RDMAD_VERSION;
	v->pid = (long)getpid();
	v->start_time = d->start_time;
	v->now = d->start_time + (double)(now.tv_sec - d->t_start.tv_sec) +
		 (double)(now.tv_nsec - d->t_start.tv_nsec) / 1e9;
	v->max_connections = d->cfg.max_connections;
	v->stopping = d->stopping;
	v->n_listeners = listener_view(&d->listeners, ls);
	v->listeners = ls;
	v->conns = conns;
	v->n_conns = conns ? conn_set_snapshot(&d->conns, conns, max) : 0;
	v->counters = rdma_counters_view(d->counters, &v->n_counters);
	v->reload_ok = !d->reload_failed;
	v->reload_success_time = d->reload_time;
	v->registered_bytes = rdma_buf_registered();
	v->registered_max = d->cfg.max_registered_bytes;
}

/* The endpoint's routes (rdmad_pages.c). */
static int rdmad_routes(struct rdmad *d)
{
	d->pages = (struct rdmad_pages){
		.view = rdmad_view,
		.arg = d,
		.conns = &d->conns,
		.mesh = &d->mesh,
		.http = d->http,
		.probes = &d->probes,
	};
	return rdmad_pages_routes(&d->pages);
}

static void stop_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdmad *d = arg;

	log_warn("%u connections still open after the close deadline; "
		 "exiting anyway", conn_set_count(&d->conns));
	event_base_loopexit(d->base, NULL);
}

/* Start *ev as a one-shot timer of MS; on failure, exit the loop now. */
static void arm(struct rdmad *d, struct event **ev, event_callback_fn fn,
		unsigned int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	if (!*ev)
		*ev = evtimer_new(d->base, fn, d);
	if (!*ev || evtimer_add(*ev, &tv)) {
		log_err("cannot start a stop timer; exiting now");
		event_base_loopexit(d->base, NULL);
	}
}

/* Drain over: disconnect whoever is left, then give them the close time. */
static void drain_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdmad *d = arg;

	log_notice("drain deadline passed: disconnecting %u connections",
		   conn_set_count(&d->conns));
	conn_shutdown_all(&d->conns);
	if (conn_set_empty(&d->conns)) {
		event_base_loopexit(d->base, NULL);
		return;
	}
	arm(d, &d->stop_timer, stop_timer_cb, d->cfg.close_timeout_ms * 2 + 1000);
}

static void stop(struct rdmad *d, const char *why)
{
	struct log_ctx lc = { .bytes = -1, .msgid = LOG_MSGID_STOPPING };

	if (d->stopping) {
		log_notice("%s again: exiting now, %u connections dropped",
			   why, conn_set_count(&d->conns));
		event_base_loopexit(d->base, NULL);
		return;
	}
	d->stopping = 1;
	d->conns.stopping = true;
	sd_notify(0, "STOPPING=1");
	listener_stop(&d->listeners);
	mesh_agent_stop(d->mesh);
	{
		unsigned int n = conn_shutdown_mesh(&d->conns);

		if (n)
			log_notice("%s: ended %u mesh sessions of peers", why, n);
	}
	if (conn_set_empty(&d->conns)) {
		log_conn(LOG_NOTICE, &lc, "%s: stopping, no connections open",
			 why);
		event_base_loopexit(d->base, NULL);
		return;
	}
	log_conn(LOG_NOTICE, &lc, "%s: stopping; no new connections, "
		 "%u live ones get up to %u ms to finish", why,
		 conn_set_count(&d->conns), d->cfg.drain_timeout_ms);
	sd_status(d);
	arm(d, &drain_timer, drain_timer_cb, d->cfg.drain_timeout_ms);
}

/* Now, unix seconds. */
static double unix_now(void)
{
	struct timespec rt;

	clock_gettime(CLOCK_REALTIME, &rt);
	return (double)rt.tv_sec + (double)rt.tv_nsec / 1e9;
}

/* SIGHUP: read the file again, off the loop (rdmad_stage.h); the loop
 * applies it in reload_apply() when the read is done.  A SIGHUP during
 * the read reads once more after it. */
static void reload(struct rdmad *d)
{
	struct log_ctx lc = { .bytes = -1, .msgid = LOG_MSGID_RELOAD_FAIL };
	int ret;

	if (d->stopping) {
		log_notice("reload ignored: rdmad is stopping");
		return;
	}
	if (rdmad_stager_busy(d->stager)) {
		d->reload_again = true;
		return;
	}
	sd_notify(0, "RELOADING=1");
	ret = rdmad_stager_begin(d->stager, d->config_path);
	if (ret) {
		d->reload_failed = true;
		log_conn(LOG_ERR, &lc, "reload refused: cannot read %s off "
			 "the loop (%s); still running with the previous "
			 "configuration", d->config_path, strerror(-ret));
		sd_notify(0, "READY=1");
	}
}

/* A reload's read is done: apply S, everything or nothing. */
static void reload_apply(void *arg, struct rdmad_stage *s)
{
	struct log_ctx lc = { .bytes = -1, .msgid = LOG_MSGID_RELOAD_FAIL };
	struct rdmad *d = arg;
	char *err = s->err;
	size_t errlen = sizeof(s->err);

	if (d->stopping) {
		log_notice("reload dropped: rdmad is stopping");
		goto out;
	}
	rdmad_stage_warnings(s);
	if (s->ret ||
	    http_prepare(d->http, &s->cfg, s->web, err, errlen))
		goto refused;
	mesh_agent_prepare(d->mesh, &s->cfg, &s->targets);
	if (listener_reload(&d->listeners, &s->cfg, err, errlen)) {
		http_rollback(d->http);
		mesh_agent_rollback(d->mesh);
		goto refused;
	}
	d->cfg = s->cfg;
	rdma_counters_configure(d->counters, d->cfg.counters.interval_ms,
				&d->cfg.counters.skip);
	http_commit(d->http);
	mesh_agent_commit(d->mesh);
	log_set_level(d->cfg.log_level);
	log_notice("reload: configuration re-read from %s", d->config_path);
	d->reload_failed = false;
	d->reload_time = unix_now();
	goto out;
refused:
	d->reload_failed = true;
	log_conn(LOG_ERR, &lc, "reload refused: %s; still running with the "
		 "previous configuration", err);
out:
	rdmad_stage_free(s);
	free(s);
	sd_notify(0, "READY=1");
	sd_status(d);
	if (d->reload_again && !d->stopping) {
		d->reload_again = false;
		reload(d);
	}
}

static void signal_cb(evutil_socket_t sig, short what, void *arg)
{
	struct rdmad *d = arg;

	switch (sig) {
	case SIGHUP:
		reload(d);
		break;
	case SIGINT:
		stop(d, "SIGINT");
		break;
	default:
		stop(d, "SIGTERM");
		break;
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "check-config", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct event *sigev[3] = { NULL, NULL, NULL };
	struct rdmad *d = &rdmad;
	struct rdmad_stage *stage;
	const char *path = CONFIG_DEFAULT_PATH;
	int check = 0, opt, ret, code = EX_OK;
	char err[512];
	unsigned int i;

	while ((opt = getopt_long(argc, argv, "c:fthV", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			path = optarg;
			break;
		case 'f':
			break;
		case 't':
			check = 1;
			break;
		case 'h':
			usage(stdout);
			return EX_OK;
		case 'V':
			printf("rdmad %s\n", RDMAD_VERSION);
			return EX_OK;
		default:
			usage(stderr);
			return EX_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "rdmad: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return EX_USAGE;
	}

	config_defaults(&d->cfg);
	log_init(d->cfg.log_level);
	d->config_path = path;
	/* Everything a reload or --check-config would refuse, refused
	 * here, before any RDMA resource is opened. */
	stage = calloc(1, sizeof(*stage));
	if (!stage) {
		log_err("out of memory");
		return EX_OSERR;
	}
	ret = rdmad_stage_read(stage, path);
	rdmad_stage_warnings(stage);
	if (ret) {
		log_err("configuration error: %s", stage->err);
		code = rdmad_stage_exit_code(ret);
		rdmad_stage_free(stage);
		free(stage);
		return code;
	}
	if (check) {
		rdmad_stage_free(stage);
		free(stage);
		printf("%s: ok\n", path);
		return EX_OK;
	}
	d->cfg = stage->cfg;
	log_set_level(d->cfg.log_level);

	/* A client vanishing must never kill us through a dead socket. */
	signal(SIGPIPE, SIG_IGN);
	raise_nofile();
	stats_init(&d->stats);
	clock_gettime(CLOCK_MONOTONIC, &d->t_start);
	d->start_time = unix_now();
	d->reload_time = d->start_time;
	d->base = event_base_new();
	if (!d->base)
		fatal(EX_OSERR, "cannot create the event loop");
	for (i = 0; i < 3; i++) {
		sigev[i] = evsignal_new(d->base, sigs[i], signal_cb, d);
		if (!sigev[i] || event_add(sigev[i], NULL))
			fatal(EX_OSERR, "cannot install signal handlers");
	}

	rdma_log_set(rdmad_rdma_log);
	/* RDMAD_SYSFS_ROOT: a copy of /sys's shape, for the tests only
	 * (docs/monitoring.md, "Port counters"). */
	if (rdma_counters_new(&d->counters, d->base,
			      getenv("RDMAD_SYSFS_ROOT")))
		fatal(EX_OSERR, "cannot start the port counters' reader");
	rdma_counters_configure(d->counters, d->cfg.counters.interval_ms,
				&d->cfg.counters.skip);
	rdma_devs_init(&d->devs, d->base, &rdmad_dev_ops, d);
	conn_set_init(&d->conns, d->base, &d->cfg, &d->stats, &d->devs,
		      rdmad_conn_gone, d);
	listener_init(&d->listeners, d->base, &d->cm, &d->devs,
		      rdmad_request, d);
	blackbox_init(&d->probes, d->base, &d->cm, &d->devs, &d->cfg);
	ret = rdma_cm_chan_open(&d->cm, d->base);
	if (ret) {
		log_err("rdma_create_event_channel: %s (is rdma_ucm loaded "
			"and /dev/infiniband/rdma_cm accessible?)",
			strerror(-ret));
		log_err("not started: cannot listen (%s)", strerror(-ret));
		code = EX_UNAVAILABLE;
		goto out;
	}
	ret = listener_start(&d->listeners, &d->cfg);
	if (ret) {
		log_err("not started: cannot listen (%s)", strerror(-ret));
		code = EX_UNAVAILABLE;
		goto out;
	}
	ret = http_start(&d->http, d->base, &d->cfg, stage->web, err,
			 sizeof(err));
	if (ret) {
		log_err("not started: %s", err);
		code = EX_UNAVAILABLE;
		goto out;
	}
	ret = mesh_agent_new(&d->mesh, d->base, &d->cm, &d->devs, &d->cfg.psk,
			     d->counters);
	if (ret)
		fatal(EX_OSERR, "cannot start the mesh agent");
	if (rdmad_routes(d))
		fatal(EX_SOFTWARE, "cannot add the HTTP endpoint's routes");
	mesh_agent_prepare(d->mesh, &d->cfg, &stage->targets);
	rdmad_stage_free(stage);
	free(stage);
	stage = NULL;
	if (rdmad_stager_new(&d->stager, d->base, reload_apply, d))
		fatal(EX_OSERR, "cannot start the reload reader");
	if (watchdog_start(d))
		fatal(EX_OSERR, "cannot start the watchdog timer");
	{
		struct log_ctx lc = { .bytes = -1, .msgid = LOG_MSGID_READY };

		log_conn(LOG_NOTICE, &lc, "rdmad %s ready: max %u "
			 "connections, buffers up to %u bytes, up to %u "
			 "iterations", RDMAD_VERSION, d->cfg.max_connections,
			 d->cfg.max_buffer_size, d->cfg.max_iterations);
	}
	mesh_agent_commit(d->mesh);
	sd_notify(0, "READY=1");
	sd_status(d);

	event_base_dispatch(d->base);

	listener_stop(&d->listeners);
out:
	if (stage) {
		rdmad_stage_free(stage);
		free(stage);
	}
	rdmad_stager_free(d->stager);
	mesh_agent_free(d->mesh);
	http_stop(d->http);
	blackbox_fini(&d->probes);
	/* Whatever is left (stop deadline passed) goes with the process. */
	rdma_devs_fini(&d->devs);
	rdma_counters_free(d->counters);
	if (d->stop_timer)
		event_free(d->stop_timer);
	if (drain_timer)
		event_free(drain_timer);
	if (watchdog_timer)
		event_free(watchdog_timer);
	/* With connections left their ids hold the channel: it goes with
	 * the process. */
	if (conn_set_empty(&d->conns))
		rdma_cm_chan_close(&d->cm);
	else if (d->cm.ev)
		event_free(d->cm.ev);
	auth_key_clear(&d->cfg.psk);
	for (i = 0; i < 3; i++)
		if (sigev[i])
			event_free(sigev[i]);
	event_base_free(d->base);
	return code;
}
