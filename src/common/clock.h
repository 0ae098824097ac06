/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * clock.h - the monotonic clock in nanoseconds: every duration of the
 * daemon, the probe and the RDMA layer is measured with it; and the wall
 * clock, for what hosts must agree on (the mesh's epochs).
 */
#ifndef RDMAD_CLOCK_H
#define RDMAD_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC now, ns. */
uint64_t clock_now_ns(void);
/* Nanoseconds from T0 (a clock_now_ns() value) to now; 0 if T0 is later. */
uint64_t clock_since_ns(uint64_t t0);
/* CLOCK_REALTIME now, ms since the Unix epoch. */
uint64_t clock_wall_ms(void);

#endif /* RDMAD_CLOCK_H */
