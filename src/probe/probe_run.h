/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_run.h - what a run leaves: each connection's outcome, as
 * probe_ctx.c fills it from the client module, and a --targets list's
 * rows (probe_mesh.c); the reports and the exit rules read them.  Types
 * only, like rdma_client_types.h.
 */
#ifndef RDMAD_PROBE_RUN_H
#define RDMAD_PROBE_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "probe_dest.h"
#include "rdma_client_types.h"

struct probe_conn;
struct probe_opts;
struct probe_opstat;
struct probe_rounds;
struct target;

/* What a finished connection reports. */
struct probe_outcome {
	enum rdma_client_fail fail;
	const char *error;		/* the first failure's message */
	const char *reason;		/* short: "busy", "refused"; or NULL */
	enum rdma_client_state fail_state;	/* where it failed */
	enum rdma_client_state last_state;
	const struct rdma_client_times *times;	/* the client module's */
	const struct probe_opstat *reads;	/* native READs */
	const struct probe_opstat *writes;	/* native WRITEs */
	const struct probe_opstat *pings;	/* rping round trips */
	const struct probe_rounds *rounds;	/* --rounds, else NULL */
	unsigned int idx;		/* connection number in this run */
	uint64_t seed;			/* this connection's pattern seed */
	uint64_t conn_id;		/* server's, from the welcome */
	uint32_t max_size, max_iters;	/* server's limits */
	bool have_welcome;
	uint32_t write_crc;		/* CRC32C of the last WRITE */
	uint32_t reads_verified;
	uint32_t writes_done;
	uint32_t pings_verified;
};

/* One run: every connection at one size. */
struct probe_run {
	const struct probe_opts *opts;	/* with this run's size */
	struct probe_outcome *outcomes;	/* [n] */
	unsigned int n;
};

/* One target of the list: its destination and its connections' run. */
struct probe_mesh_row {
	const struct target *target;
	struct probe_dest dest;
	enum rdma_client_fail fail;	/* the row's own: name, set-up */
	const char *reason;		/* short, with fail */
	char error[320];		/* with fail */
	struct probe_run run;		/* opts->parallel outcomes */
};

struct probe_mesh {
	const struct probe_opts *opts;
	struct probe_mesh_row *rows;	/* in file order */
	unsigned int n;
	struct probe_conn **conns;	/* kept for the figures */
	unsigned int nconns;
};

#endif /* RDMAD_PROBE_RUN_H */
