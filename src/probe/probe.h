/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe.h - rdma-probe: options, logging, the run context and the
 * connection object shared by its files.
 *
 *   rdma-probe.c    main: options, event_base, signals, exit code
 *   probe_opts.c    command line parsing and validation (pure)
 *   probe_fsm.c     client state machine (pure)
 *   probe_conn.c    rdma_cm id, verbs resources, libevent wiring
 *   probe_report.c  latency figures and the human report
 */
#ifndef RDMAD_PROBE_H
#define RDMAD_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "probe_fsm.h"

#define PROBE_DEFAULT_SIZE	(64u * 1024)
#define PROBE_RPING_DEFAULT_SIZE 64u		/* stock rping -s buffer */
#define PROBE_RPING_DEFAULT_PORT 7174		/* stock rping port */
#define PROBE_DEFAULT_ITERS	10u
#define PROBE_DEFAULT_TIMEOUT_MS 10000u
#define PROBE_SIZE_MAX		(1u << 30)	/* 1 GiB */
#define PROBE_ITERS_MAX		1000000u	/* per-op records are kept */
#define PROBE_TIMEOUT_MAX_MS	3600000u	/* one hour */

/* ---- options (probe_opts.c) ------------------------------------------ */

struct probe_opts {
	const char *host;
	const char *source;	/* -I: local address to connect from */
	uint16_t port;
	uint8_t ops;		/* PROTO_OP_* */
	uint32_t size;
	uint32_t iters;
	uint32_t timeout_ms;	/* per step */
	uint64_t seed;
	bool seed_set;
	bool rping;
	int verbosity;		/* -1 quiet, 0 normal, 1 -v, 2 -vv */
};

enum probe_opts_result {
	PROBE_OPTS_RUN = 0,	/* options valid: run */
	PROBE_OPTS_EXIT = 1,	/* --help or --version printed: exit 0 */
};

/*
 * Parse argv into *o.  Returns PROBE_OPTS_RUN, PROBE_OPTS_EXIT, or -EINVAL
 * after printing a message naming the option and value to err (exit 64).
 * Help and version text go to out.
 */
int probe_opts_parse(int argc, char **argv, struct probe_opts *o,
		     FILE *out, FILE *err);

/* "64k" -> 65536.  0 or -EINVAL (bad syntax) / -ERANGE (> max). */
int probe_parse_size(const char *s, uint64_t max, uint64_t *val);
/* "2.5" seconds -> 2500 ms.  0, -EINVAL or -ERANGE. */
int probe_parse_seconds(const char *s, uint32_t max_ms, uint32_t *ms);

/* ---- logging --------------------------------------------------------- */

extern int probe_verbosity;

__attribute__((format(printf, 1, 2)))
void probe_err(const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
void probe_dbg(int level, const char *fmt, ...);

/* ---- per-operation records (probe_report.c) -------------------------- */

/* Timestamps (CLOCK_MONOTONIC ns) of each operation of one kind. */
struct probe_oprec {
	uint64_t *posted;
	uint64_t *done;
	uint32_t n;		/* completed operations recorded */
	uint32_t cap;
	uint64_t bytes;		/* bytes moved by them */
};

int probe_oprec_init(struct probe_oprec *r, uint32_t cap);
void probe_oprec_free(struct probe_oprec *r);
/* Open slot r->n with its post time. */
void probe_oprec_post(struct probe_oprec *r, uint64_t now);
/* Close slot r->n and count it. */
void probe_oprec_done(struct probe_oprec *r, uint64_t now, uint32_t bytes);

struct probe_latency {
	uint32_t n;
	uint64_t min_ns, max_ns, avg_ns;
	uint64_t span_ns;	/* first post to last completion */
	double mbps;		/* bytes / span, 10^6 bytes per second */
};

void probe_latency(const struct probe_oprec *r, struct probe_latency *l);

uint64_t probe_now_ns(void);

/* ---- connection (probe_conn.c) --------------------------------------- */

struct probe_ctx;
struct probe_conn;

/* Moments of a connection's life, CLOCK_MONOTONIC ns (0: not reached). */
struct probe_times {
	uint64_t start;		/* rdma_resolve_addr called */
	uint64_t addr;		/* ADDR_RESOLVED */
	uint64_t route;		/* ROUTE_RESOLVED, rdma_connect called */
	uint64_t established;	/* ESTABLISHED */
	uint64_t desc;		/* DESC received (native) */
	uint64_t ops_start;	/* first operation posted */
	uint64_t ops_end;	/* last operation verified */
	uint64_t done_sent;	/* DONE posted (native) */
	uint64_t result;	/* RESULT received (native) */
	uint64_t disconnect;	/* rdma_disconnect called */
	uint64_t closed;	/* DISCONNECTED */
};

/* What a finished connection reports. */
struct probe_outcome {
	enum probe_fail fail;
	const char *error;		/* the first failure's message */
	enum probe_state last_state;
	const struct probe_times *times;
	const struct probe_oprec *reads;	/* native READs */
	const struct probe_oprec *writes;	/* native WRITEs */
	const struct probe_oprec *pings;	/* rping round trips */
	uint64_t conn_id;		/* server's, from the welcome */
	uint32_t max_size, max_iters;	/* server's limits */
	bool have_welcome;
	uint32_t write_crc;		/* CRC32C of the last WRITE */
	uint32_t reads_verified;
	uint32_t writes_done;
	uint32_t pings_verified;
};

struct probe_ctx {
	struct event_base *base;
	struct rdma_event_channel *cm_ch;
	struct event *cm_ev;
	const struct probe_opts *opts;
	struct sockaddr_storage dst;
	struct sockaddr_storage src;
	bool have_src;
	int active;		/* connections not finished yet */
};

int probe_ctx_init(struct probe_ctx *ctx, struct event_base *base,
		   const struct probe_opts *opts,
		   const struct sockaddr *dst, socklen_t dst_len,
		   const struct sockaddr *src, socklen_t src_len);
void probe_ctx_fini(struct probe_ctx *ctx);

int probe_conn_new(struct probe_ctx *ctx, unsigned int idx,
		   struct probe_conn **out);
/* Start the connection: resolve, connect, run. */
void probe_conn_start(struct probe_conn *c);
/* Fail the connection from outside (signal). */
void probe_conn_abort(struct probe_conn *c, const char *why);
void probe_conn_outcome(const struct probe_conn *c, struct probe_outcome *o);
void probe_conn_free(struct probe_conn *c);

/* ---- report (probe_report.c) ----------------------------------------- */

void probe_report(FILE *f, const struct probe_opts *opts,
		  const char *target, const struct probe_outcome *o);

#endif /* RDMAD_PROBE_H */
