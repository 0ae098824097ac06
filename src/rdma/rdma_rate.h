/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_rate.h - a port's nominal link rate from its active speed and
 * width (struct ibv_port_attr), as `rdma link` and ibv_devinfo show it:
 * 4X EDR is 100 Gb/s, rxe on a 1 GbE or unknown-speed NIC 1X SDR, 2.5.
 */
#ifndef RDMAD_RDMA_RATE_H
#define RDMAD_RDMA_RATE_H

#include <stdint.h>

/* Bytes per second, or 0 when SPEED or WIDTH is not a known code. */
uint64_t rdma_rate_bytes(uint8_t active_speed, uint8_t active_width);

#endif /* RDMAD_RDMA_RATE_H */
