/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn_timer.h - a connection's timers: the deadline of what it waits
 * for (enum conn_deadline, from the FSM's state), the liveness timer while
 * the FSM wants checks, and [limits] max_duration over its whole life.
 * Their expiries go to the driver as FSM events, through the FIRE it
 * gives conn_timer_init.
 */
#ifndef RDMAD_CONN_TIMER_H
#define RDMAD_CONN_TIMER_H

#include "serve/conn_core.h"

/* The three timers; max_duration starts now.  0 or -errno. */
int conn_timer_init(struct conn *c, conn_fire_fn *fire);
void conn_timer_free(struct conn *c);
/* Re-arm the deadline timer only when the kind of deadline changes;
 * -EIO if it cannot be armed (the connection would wait without a
 * bound). */
int conn_timer_deadline(struct conn *c);
/* Run the liveness timer exactly while the state wants checks. */
void conn_timer_liveness(struct conn *c);
/* CFG's milliseconds for the deadline DL (0: none). */
unsigned int conn_timer_ms(const struct rdmad_config *cfg,
			   enum conn_deadline dl);

#endif /* RDMAD_CONN_TIMER_H */
