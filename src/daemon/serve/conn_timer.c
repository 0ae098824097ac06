/* SPDX-License-Identifier: BSD-2-Clause */
/* conn_timer.c - a connection's timers (see conn_timer.h). */
#include <errno.h>
#include <string.h>

#include "serve/conn_end.h"
#include "serve/conn_log.h"
#include "serve/conn_timer.h"
#include "core/log.h"

unsigned int conn_timer_ms(const struct rdmad_config *cfg,
			   enum conn_deadline dl)
{
	switch (dl) {
	case CONN_DL_ACCEPT:	return cfg->accept_timeout_ms;
	case CONN_DL_SESSION:	return cfg->session_timeout_ms;
	case CONN_DL_IDLE:	return cfg->idle_timeout_ms;
	case CONN_DL_IO:	return cfg->io_timeout_ms;
	case CONN_DL_LINGER:	return cfg->linger_timeout_ms;
	case CONN_DL_CLOSE:	return cfg->close_timeout_ms;
	case CONN_DL_NONE:
	default:		return 0;
	}
}

/* Start TIMER for MS milliseconds; 0 stops it. */
static int timer_set_ms(struct event *timer, unsigned int ms)
{
	struct timeval tv = {
		.tv_sec = ms / 1000,
		.tv_usec = (ms % 1000) * 1000,
	};

	if (!ms)
		return evtimer_del(timer);
	return evtimer_add(timer, &tv);
}

/* Re-arm the timer only when the kind of deadline changes; -EIO if it
 * cannot be armed (the connection would wait without a bound). */
int conn_timer_deadline(struct conn *c)
{
	enum conn_deadline dl = conn_fsm_deadline(&c->fsm);

	if (dl == c->deadline)
		return 0;
	c->deadline = dl;
	if (timer_set_ms(c->timer, conn_timer_ms(c->s->cfg, dl))) {
		c->deadline = CONN_DL_NONE;
		return -EIO;
	}
	return 0;
}

/* Run the liveness timer exactly while the state wants checks.  A
 * failure is logged: the deadline still bounds the wait. */
void conn_timer_liveness(struct conn *c)
{
	unsigned int ms = c->s->cfg->liveness_ms;
	int want = ms && conn_fsm_liveness_wanted(&c->fsm);

	if (want == c->live_armed)
		return;
	c->live_armed = want;
	if (timer_set_ms(c->live_timer, want ? ms : 0)) {
		c->live_armed = 0;
		conn_log(c, LOG_WARNING, NULL, "cannot arm the liveness timer; "
			 "a vanished peer is found by the deadline only");
	}
}

static void conn_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	enum conn_deadline dl = c->deadline;
	char s[64], in[80];

	c->deadline = CONN_DL_NONE;	/* so the next state re-arms */
	conn_fsm_str(&c->fsm, s, sizeof(s));
	if (dl == CONN_DL_LINGER) {
		conn_log(c, LOG_INFO, NULL, "client did not disconnect within "
			 "%ums of its RESULT; disconnecting it",
			 c->s->cfg->linger_timeout_ms);
		/* The session itself is over; keep its outcome. */
		conn_end(c, CONN_CAUSE_LINGERED, 0, NULL, "client lingered "
			 "after RESULT");
	} else if (dl == CONN_DL_CLOSE) {
		conn_log(c, LOG_INFO, NULL, "closing took longer than %ums in "
			 "state %s; forcing it", c->s->cfg->close_timeout_ms, s);
	} else {
		unsigned int ms = conn_timer_ms(c->s->cfg, dl);
		enum conn_cause why = dl == CONN_DL_SESSION ?
				      CONN_CAUSE_SESSION : dl == CONN_DL_IDLE ?
				      CONN_CAUSE_IDLE : CONN_CAUSE_STALLED;

		conn_log(c, LOG_WARNING, NULL, "no progress for %ums in "
			 "state %s (%s deadline); disconnecting", ms, s,
			 conn_deadline_name(dl));
		/* The ABORT names the deadline; a stalled step its state. */
		snprintf(in, sizeof(in), "in %s", s);
		conn_end(c, why, ms, why == CONN_CAUSE_STALLED ? in : NULL,
			 "stalled in %s", s);
	}
	c->fire(c, CONN_EV_TIMEOUT);
}

/* [timeouts] liveness: the connection has been quiet that long. */
static void conn_live_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;

	c->live_armed = 0;
	c->fire(c, CONN_EV_LIVE_DUE);
	if (c->fsm.life != CONN_LIFE_CLOSED)
		conn_timer_liveness(c);
}

/* [limits] max_duration: the whole life of a connection. */
static void conn_life_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	char s[64];

	if (c->fsm.life != CONN_LIFE_ACCEPTING &&
	    c->fsm.life != CONN_LIFE_ESTABLISHED)
		return;		/* already on its way out */
	conn_fsm_str(&c->fsm, s, sizeof(s));
	conn_log(c, LOG_WARNING, NULL, "connection older than max_duration "
		 "(%ums) in state %s; disconnecting",
		 c->s->cfg->max_duration_ms, s);
	conn_end(c, CONN_CAUSE_MAX_DURATION, c->s->cfg->max_duration_ms, NULL,
		 "max_duration %ums reached in %s",
		 c->s->cfg->max_duration_ms, s);
	c->fire(c, CONN_EV_TIMEOUT);
}

int conn_timer_init(struct conn *c, conn_fire_fn *fire)
{
	struct event_base *base = c->s->base;

	c->fire = fire;
	c->timer = evtimer_new(base, conn_timer_cb, c);
	c->life_timer = evtimer_new(base, conn_life_cb, c);
	c->live_timer = evtimer_new(base, conn_live_cb, c);
	if (!c->timer || !c->life_timer || !c->live_timer)
		return -ENOMEM;
	/* Not for a mesh session: it is meant to live for days. */
	if (c->s->cfg->max_duration_ms && conn_fsm_life_bounded(&c->fsm) &&
	    timer_set_ms(c->life_timer, c->s->cfg->max_duration_ms))
		return -EIO;
	return 0;
}

void conn_timer_free(struct conn *c)
{
	if (c->timer)
		event_free(c->timer);
	if (c->life_timer)
		event_free(c->life_timer);
	if (c->live_timer)
		event_free(c->live_timer);
	c->timer = c->life_timer = c->live_timer = NULL;
}
