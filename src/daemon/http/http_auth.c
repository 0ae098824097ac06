/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http_auth.c - basic authentication off the event loop (see
 * http_auth.h).  One worker thread runs one bcrypt at a time
 * (http_auth_job_run, which touches only the job); the loop hands it the
 * job under a mutex and learns of its end from an eventfd in the loop.
 * Everything else (the table, the line of waiting requests, the
 * budget) lives on the loop's thread only.
 */
#include "http/http_auth.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/queue.h>
#include <unistd.h>

#include "clock.h"

struct http_auth_wait {
	TAILQ_ENTRY(http_auth_wait) next;
	struct http_auth_gate *g;
	void *req;			/* NULL: cancelled while running */
	char *header;			/* its Authorization header */
};

struct http_auth_gate {
	http_auth_done_fn *done;
	void *arg;
	struct http_auth *table;	/* NULL: no basic auth */
	unsigned int gen;		/* bumped by each new table */
	TAILQ_HEAD(, http_auth_wait) line;	/* waiting, not running */
	unsigned int n_line;
	struct http_auth_wait *running;	/* its job is the worker's */
	unsigned int running_gen;
	struct http_auth_job *job;
	int efd;			/* the worker's "done" */
	struct event *ev;
	pthread_t thread;
	int thread_on;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int go, finished, stop;		/* under mu */
};

static void *http_auth_worker(void *arg)
{
	struct http_auth_gate *g = arg;
	uint64_t one = 1;

	pthread_mutex_lock(&g->mu);
	for (;;) {
		while (!g->go && !g->stop)
			pthread_cond_wait(&g->cv, &g->mu);
		if (g->stop)
			break;
		g->go = 0;
		pthread_mutex_unlock(&g->mu);
		http_auth_job_run(g->job);
		pthread_mutex_lock(&g->mu);
		g->finished = 1;
		if (write(g->efd, &one, sizeof(one)) < 0) {
			/* an eventfd's counter cannot overflow at one a job */
		}
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

static struct http_auth_wait *http_auth_wait_new(struct http_auth_gate *g,
						 const char *header,
						 void *req)
{
	struct http_auth_wait *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->header = strdup(header ? header : "");
	if (!w->header) {
		free(w);
		return NULL;
	}
	w->g = g;
	w->req = req;
	return w;
}

static void http_auth_wait_free(struct http_auth_wait *w)
{
	sodium_memzero(w->header, strlen(w->header));
	free(w->header);
	free(w);
}

/* W's job (filled by http_auth_check) to the worker. */
static void http_auth_gate_start(struct http_auth_gate *g,
				 struct http_auth_wait *w)
{
	g->running = w;
	g->running_gen = g->gen;
	pthread_mutex_lock(&g->mu);
	g->go = 1;
	pthread_cond_signal(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

/* While the worker is idle: the next in line starts, or is answered. */
static void http_auth_gate_pump(struct http_auth_gate *g)
{
	struct http_auth_wait *w;
	enum http_auth_result r;

	while (!g->running && (w = TAILQ_FIRST(&g->line))) {
		TAILQ_REMOVE(&g->line, w, next);
		g->n_line--;
		r = g->table ? http_auth_check(g->table, w->header,
					       clock_now_ns(), g->job) :
			       HTTP_AUTH_OK;
		if (r == HTTP_AUTH_VERIFY) {
			http_auth_gate_start(g, w);
			return;
		}
		g->done(g->arg, w->req, r);
		http_auth_wait_free(w);
	}
}

/* The worker's bcrypt ended. */
static void http_auth_gate_finished(struct http_auth_gate *g)
{
	struct http_auth_wait *w = g->running;
	enum http_auth_result r;

	g->running = NULL;
	if (!w)
		return;
	if (g->running_gen != g->gen || !g->table) {
		/* checked against a table since replaced: again, first */
		sodium_memzero(g->job, sizeof(*g->job));
		if (!w->req) {
			http_auth_wait_free(w);
			return;
		}
		TAILQ_INSERT_HEAD(&g->line, w, next);
		g->n_line++;
		return;
	}
	r = http_auth_check_finish(g->table, g->job, clock_now_ns());
	if (w->req)
		g->done(g->arg, w->req, r);
	http_auth_wait_free(w);
}

static void http_auth_gate_cb(evutil_socket_t fd, short what, void *arg)
{
	struct http_auth_gate *g = arg;
	uint64_t n;
	int fin;

	(void)what;
	if (read(fd, &n, sizeof(n)) < 0) {
		/* EAGAIN: a wake-up from http_auth_gate_set */
	}
	pthread_mutex_lock(&g->mu);
	fin = g->finished;
	g->finished = 0;
	pthread_mutex_unlock(&g->mu);
	if (fin)
		http_auth_gate_finished(g);
	http_auth_gate_pump(g);
}

int http_auth_gate_new(struct http_auth_gate **out, struct event_base *base,
		       http_auth_done_fn *done, void *arg)
{
	struct http_auth_gate *g = calloc(1, sizeof(*g));
	int rc = -ENOMEM;

	*out = NULL;
	if (!g)
		return -ENOMEM;
	g->done = done;
	g->arg = arg;
	TAILQ_INIT(&g->line);
	g->efd = -1;
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->job = calloc(1, sizeof(*g->job));
	if (!g->job)
		goto fail;
	g->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (g->efd < 0) {
		rc = -errno;
		goto fail;
	}
	g->ev = event_new(base, g->efd, EV_READ | EV_PERSIST,
			  http_auth_gate_cb, g);
	if (!g->ev || event_add(g->ev, NULL))
		goto fail;
	rc = -pthread_create(&g->thread, NULL, http_auth_worker, g);
	if (rc)
		goto fail;
	g->thread_on = 1;
	*out = g;
	return 0;
fail:
	http_auth_gate_free(g);
	return rc;
}

void http_auth_gate_free(struct http_auth_gate *g)
{
	struct http_auth_wait *w;

	if (!g)
		return;
	if (g->thread_on) {
		pthread_mutex_lock(&g->mu);
		g->stop = 1;
		pthread_cond_signal(&g->cv);
		pthread_mutex_unlock(&g->mu);
		pthread_join(g->thread, NULL);	/* a bcrypt running ends */
	}
	while ((w = TAILQ_FIRST(&g->line))) {
		TAILQ_REMOVE(&g->line, w, next);
		http_auth_wait_free(w);
	}
	if (g->running)
		http_auth_wait_free(g->running);
	if (g->ev)
		event_free(g->ev);
	if (g->efd >= 0)
		close(g->efd);
	if (g->job) {
		sodium_memzero(g->job, sizeof(*g->job));
		free(g->job);
	}
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
	free(g);
}

void http_auth_gate_set(struct http_auth_gate *g, struct http_auth *table)
{
	g->table = table;
	g->gen++;
	/* the line is checked against the new table from the loop */
	if (!g->running && !TAILQ_EMPTY(&g->line))
		event_active(g->ev, EV_READ, 0);
}

enum http_auth_result http_auth_gate_check(struct http_auth_gate *g,
					   const char *header, void *req,
					   struct http_auth_wait **wp)
{
	int idle = !g->running && TAILQ_EMPTY(&g->line);
	struct http_auth_wait *w;
	enum http_auth_result r;

	*wp = NULL;
	if (!g->table)
		return HTTP_AUTH_OK;
	/* remembered, missing, malformed: at once; else in line */
	r = http_auth_check(g->table, header, clock_now_ns(),
			    idle ? g->job : NULL);
	if (r != HTTP_AUTH_VERIFY)
		return r;
	if (!idle && g->n_line >= HTTP_AUTH_WAIT_MAX)
		return HTTP_AUTH_BUSY;
	w = http_auth_wait_new(g, header, req);
	if (!w) {
		if (idle)
			sodium_memzero(g->job, sizeof(*g->job));
		return HTTP_AUTH_BUSY;
	}
	*wp = w;
	if (idle) {
		http_auth_gate_start(g, w);
	} else {
		TAILQ_INSERT_TAIL(&g->line, w, next);
		g->n_line++;
	}
	return HTTP_AUTH_VERIFY;
}

void http_auth_gate_cancel(struct http_auth_wait *w)
{
	struct http_auth_gate *g = w->g;

	if (w == g->running) {
		w->req = NULL;		/* freed when its bcrypt ends */
		return;
	}
	TAILQ_REMOVE(&g->line, w, next);
	g->n_line--;
	http_auth_wait_free(w);
}
