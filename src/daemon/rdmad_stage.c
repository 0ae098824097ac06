/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmad_stage.c - a configuration read and checked whole, here or on a
 * worker thread (rdmad_stage.h).  The worker shares nothing with the
 * loop while it reads: it gets the path, fills a stage of its own, and
 * hands it back through a pipe the loop watches.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "auth.h"
#include "core/log.h"
#include "http/http_web.h"
#include "mesh/mesh_local.h"
#include "rdmad_stage.h"

static void rdmad_stage_warn(void *arg, const char *msg)
{
	struct rdmad_stage *s = arg;

	if (s->n_warn < RDMAD_STAGE_WARN_MAX)
		snprintf(s->warn[s->n_warn++], RDMAD_STAGE_WARN_LEN,
			 "mesh: targets %s", msg);
	else
		s->n_warn_more++;
}

int rdmad_stage_read(struct rdmad_stage *s, const char *path)
{
	char *err = s->err;
	size_t errlen = sizeof(s->err);
	int ret;

	memset(s, 0, sizeof(*s));
	config_defaults(&s->cfg);
	ret = config_load(&s->cfg, path, err, errlen);
	if (!ret)
		ret = config_validate(&s->cfg, path, err, errlen);
	if (!ret)
		ret = http_web_read(s->cfg.http_web_config, &s->web, err,
				    errlen);
	if (!ret)
		ret = mesh_local_targets(&s->cfg, &s->targets,
					 rdmad_stage_warn, s, err, errlen);
	s->ret = ret;
	return ret;
}

void rdmad_stage_warnings(const struct rdmad_stage *s)
{
	unsigned int i;

	for (i = 0; i < s->n_warn; i++)
		log_warn("%s", s->warn[i]);
	if (s->n_warn_more)
		log_warn("mesh: targets: %lu more warnings like these not "
			 "shown; rdmad --check-config lists the first %u",
			 s->n_warn_more, RDMAD_STAGE_WARN_MAX);
}

void rdmad_stage_free(struct rdmad_stage *s)
{
	http_web_free(s->web);
	s->web = NULL;
	mesh_targets_free(&s->targets);
	auth_key_clear(&s->cfg.psk);
}

int rdmad_stage_exit_code(int ret)
{
	return ret == -ENOMEM ? EX_OSERR : EX_CONFIG;
}

struct rdmad_stager {
	struct event_base *base;
	rdmad_stage_done_fn *done;
	void *arg;
	int pipe[2];			/* the worker says "done" on [1] */
	struct event *ev;		/* [0] in the loop */
	pthread_t thread;
	bool busy;			/* a read under way, not yet joined */
	char *path;			/* the worker's */
	struct rdmad_stage *stage;	/* the worker's, until done */
};

static void *rdmad_stager_run(void *arg)
{
	struct rdmad_stager *st = arg;
	char c = 1;
	ssize_t n;

	rdmad_stage_read(st->stage, st->path);
	do
		n = write(st->pipe[1], &c, 1);
	while (n < 0 && errno == EINTR);
	return NULL;
}

/* Join the worker; its stage, now the caller's. */
static struct rdmad_stage *rdmad_stager_join(struct rdmad_stager *st)
{
	struct rdmad_stage *s = st->stage;

	pthread_join(st->thread, NULL);
	st->busy = false;
	st->stage = NULL;
	free(st->path);
	st->path = NULL;
	return s;
}

static void rdmad_stager_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rdmad_stager *st = arg;
	char buf[16];

	(void)what;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	if (!st->busy)
		return;
	st->done(st->arg, rdmad_stager_join(st));
}

int rdmad_stager_new(struct rdmad_stager **out, struct event_base *base,
		     rdmad_stage_done_fn *done, void *arg)
{
	struct rdmad_stager *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->base = base;
	st->done = done;
	st->arg = arg;
	if (pipe2(st->pipe, O_NONBLOCK | O_CLOEXEC)) {
		free(st);
		return -errno;
	}
	st->ev = event_new(base, st->pipe[0], EV_READ | EV_PERSIST,
			   rdmad_stager_cb, st);
	if (!st->ev || event_add(st->ev, NULL)) {
		if (st->ev)
			event_free(st->ev);
		close(st->pipe[0]);
		close(st->pipe[1]);
		free(st);
		return -ENOMEM;
	}
	*out = st;
	return 0;
}

int rdmad_stager_begin(struct rdmad_stager *st, const char *path)
{
	sigset_t all, old;
	int ret;

	if (st->busy)
		return -EBUSY;
	st->path = strdup(path);
	st->stage = calloc(1, sizeof(*st->stage));
	if (!st->path || !st->stage) {
		ret = -ENOMEM;
		goto fail;
	}
	/* The worker takes no signal: they are the loop's. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&st->thread, NULL, rdmad_stager_run, st);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		goto fail;
	st->busy = true;
	return 0;
fail:
	free(st->path);
	free(st->stage);
	st->path = NULL;
	st->stage = NULL;
	return ret;
}

bool rdmad_stager_busy(const struct rdmad_stager *st)
{
	return st->busy;
}

void rdmad_stager_free(struct rdmad_stager *st)
{
	struct rdmad_stage *s;

	if (!st)
		return;
	if (st->busy) {
		s = rdmad_stager_join(st);
		rdmad_stage_free(s);
		free(s);
	}
	event_free(st->ev);
	close(st->pipe[0]);
	close(st->pipe[1]);
	free(st);
}
