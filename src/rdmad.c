/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmad.c - main(): options, configuration, the event loop, signals,
 * and systemd readiness.
 *
 *   SIGTERM/SIGINT  stop: no new connections, disconnect the live ones,
 *                   exit when they are gone (or after the close deadline)
 *   SIGHUP          re-read the configuration file; limits, timeouts and
 *                   log level apply to new connections (listen addresses
 *                   need a restart)
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include <event2/event.h>
#include <systemd/sd-daemon.h>

#include "config.h"
#include "conn.h"
#include "log.h"
#include "rdmad.h"

static struct rdmad rdmad;

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
		"Exit status: 0 ok, 64 usage, 69 no RDMA (cannot listen), "
		"71 system error, 78 configuration error.\n",
		CONFIG_DEFAULT_PATH);
}

static void sd_status(struct rdmad *d)
{
	sd_notifyf(0, "STATUS=%u connections, %llu accepted, %llu rejected, "
		   "%llu failed", d->n_conns,
		   (unsigned long long)d->n_accepted,
		   (unsigned long long)d->n_rejected,
		   (unsigned long long)d->n_failed);
}

void rdmad_conn_gone(struct rdmad *d)
{
	sd_status(d);
	if (d->stopping && TAILQ_EMPTY(&d->conns)) {
		log_notice("all connections closed; exiting");
		event_base_loopexit(d->base, NULL);
	}
}

static void stop_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdmad *d = arg;

	log_warn("connections still open after the close deadline; "
		 "exiting anyway");
	event_base_loopexit(d->base, NULL);
}

static void stop(struct rdmad *d, const char *why)
{
	unsigned int ms = d->cfg.close_timeout_ms * 2 + 1000;
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	if (d->stopping) {
		log_notice("%s again: exiting now", why);
		event_base_loopexit(d->base, NULL);
		return;
	}
	d->stopping = 1;
	sd_notify(0, "STOPPING=1");
	log_notice("%s: stopping, %u connections to close", why, d->n_conns);
	listener_stop(d);
	conn_shutdown_all(d);
	if (TAILQ_EMPTY(&d->conns)) {
		event_base_loopexit(d->base, NULL);
		return;
	}
	d->stop_timer = evtimer_new(d->base, stop_timer_cb, d);
	if (d->stop_timer)
		evtimer_add(d->stop_timer, &tv);
}

static void reload(struct rdmad *d)
{
	struct rdmad_config cfg;
	char err[512];
	unsigned int i;

	sd_notify(0, "RELOADING=1");
	config_defaults(&cfg);
	if (config_load(&cfg, d->config_path, err, sizeof(err)) ||
	    config_validate(&cfg, d->config_path, err, sizeof(err))) {
		log_err("reload: %s; keeping the running configuration", err);
		goto out;
	}
	if (cfg.n_listen != d->cfg.n_listen)
		log_warn("reload: listen addresses changed; restart rdmad "
			 "to apply");
	/* Keep the addresses the listeners point to. */
	for (i = 0; i < CONFIG_MAX_LISTEN; i++)
		cfg.listen[i] = d->cfg.listen[i];
	cfg.n_listen = d->cfg.n_listen;
	d->cfg = cfg;
	log_set_level(cfg.log_level);
	log_notice("reload: configuration re-read from %s", d->config_path);
out:
	sd_notify(0, "READY=1");
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
	ret = config_load(&d->cfg, path, err, sizeof(err));
	if (!ret)
		ret = config_validate(&d->cfg, path, err, sizeof(err));
	if (ret) {
		log_err("configuration error: %s", err);
		return ret == -EINVAL ? EX_CONFIG :
		       ret == -ENOENT || ret == -EACCES ? EX_CONFIG : EX_OSERR;
	}
	if (check) {
		printf("%s: ok\n", path);
		return EX_OK;
	}
	log_set_level(d->cfg.log_level);

	/* A client vanishing must never kill us through a dead socket. */
	signal(SIGPIPE, SIG_IGN);
	TAILQ_INIT(&d->conns);
	d->base = event_base_new();
	if (!d->base)
		fatal(EX_OSERR, "cannot create the event loop");
	for (i = 0; i < 3; i++) {
		sigev[i] = evsignal_new(d->base, sigs[i], signal_cb, d);
		if (!sigev[i] || event_add(sigev[i], NULL))
			fatal(EX_OSERR, "cannot install signal handlers");
	}

	ret = listener_start(d);
	if (ret) {
		log_err("not started: cannot listen (%s)", strerror(-ret));
		code = EX_UNAVAILABLE;
		goto out;
	}
	log_notice("rdmad %s ready: max %u connections, buffers up to %u "
		   "bytes, up to %u iterations", RDMAD_VERSION,
		   d->cfg.max_connections, d->cfg.max_buffer_size,
		   d->cfg.max_iterations);
	sd_notify(0, "READY=1");
	sd_status(d);

	event_base_dispatch(d->base);

	listener_stop(d);
out:
	/* Whatever is left (stop deadline passed) goes with the process. */
	for (i = 0; i < d->n_devices; i++)
		event_free(d->devices[i].async_ev);
	if (d->cm_ev)
		event_free(d->cm_ev);
	if (d->stop_timer)
		event_free(d->stop_timer);
	if (TAILQ_EMPTY(&d->conns) && d->cm_chan)
		rdma_destroy_event_channel(d->cm_chan);
	for (i = 0; i < 3; i++)
		if (sigev[i])
			event_free(sigev[i]);
	event_base_free(d->base);
	return code;
}
