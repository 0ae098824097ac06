/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe.h - rdma-probe: options, logging, the run context, outcomes and
 * reports shared by its files.
 *
 *   rdma-probe.c    main: options, event_base, signals, exit code,
 *                   stderr logging
 *   probe_opts.c    command line parsing and validation (pure)
 *   probe_dest.c    name resolution of a destination (and -I)
 *   probe_ctx.c     the context: CM channel, the loop, the run's
 *                   connections on the RDMA layer's client module
 *                   (src/rdma/rdma_client.h; its state machine,
 *                   rdma_client_fsm.h, gives the failure classes)
 *   probe_mesh.c    --targets: every host of a list at once
 *   probe_opstat.c, probe_rounds.c
 *                   one kind's operations, a session's rounds (pure)
 *   probe_exit_rules.c  the failure class and exit code of a run, of a
 *                   --targets row and list (pure)
 *   probe_report.c  what the renderings share: figures over a run,
 *                   phases, class keys (pure; probe_report.h)
 *   probe_report_text.c, probe_report_json.c, probe_report_matrix.c
 *                   the human report, --json, the --targets matrix (pure)
 */
#ifndef RDMAD_PROBE_H
#define RDMAD_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "auth.h"
#include "probe_hist.h"
#include "rdma_client_types.h"

#define PROBE_DEFAULT_SIZE	(64u * 1024)
#define PROBE_RPING_DEFAULT_SIZE 64u		/* stock rping -s buffer */
#define PROBE_RPING_DEFAULT_PORT 7174		/* stock rping port */
#define PROBE_DEFAULT_ITERS	10u
#define PROBE_DEFAULT_TIMEOUT_MS 10000u
#define PROBE_SIZE_MAX		(1u << 30)	/* 1 GiB */
#define PROBE_ITERS_MAX		1000000u
#define PROBE_TIMEOUT_MAX_MS	3600000u	/* one hour */
#define PROBE_DURATION_ITERS	100000u		/* -D cap: rdmad's default */
#define PROBE_PARALLEL_MAX	1024u
#define PROBE_DEPTH_MAX		512u
#define PROBE_SWEEP_DEFAULT_MAX	(1u << 20)	/* --all-sizes without -s */
#define PROBE_TARGETS_MAX	1024u		/* --targets: lines */
#define PROBE_MESH_CONNS_MAX	4096u		/* --targets x -P */
#define PROBE_ROUNDS_MAX	1000000u	/* --rounds */
#define PROBE_DEFAULT_INTERVAL_MS 1000u		/* --interval */

/* Exit status: a failed run's is its class's code (RDMA_CLIENT_FAILS). */
#define PROBE_EXIT_USAGE	64
/* Interrupted: 128 + the signal, as a shell reports it. */
#define PROBE_EXIT_SIGINT	130
#define PROBE_EXIT_SIGTERM	143

/* ---- options (probe_opts.c) ------------------------------------------ */

struct probe_opts {
	const char *host;	/* NULL with targets */
	const char *targets;	/* --targets FILE, "-": stdin */
	const char *source;	/* -I: local address to connect from */
	uint16_t port;
	uint8_t ops;		/* PROTO_OP_* */
	uint32_t size;		/* with all_sizes: the largest */
	uint32_t iters;		/* with duration_ms: the cap */
	uint32_t duration_ms;	/* -D: 0 to run iters operations */
	uint32_t timeout_ms;	/* per step */
	uint32_t parallel;	/* -P: connections at once */
	uint32_t depth;		/* operations in flight per connection */
	uint64_t seed;
	bool seed_set;
	bool rping;
	const char *psk_file;		/* --psk-file, NULL: none */
	const struct auth_key *psk;	/* loaded from psk_file by main */
	bool all_sizes;		/* powers of two from 1 to size, then size */
	bool verify;		/* false with --no-verify */
	bool busy_poll;
	bool json;
	int verbosity;		/* -1 quiet, 0 normal, 1 -v, 2 -vv */
	uint32_t rounds;	/* --rounds: a mesh session of N rounds */
	uint32_t interval_ms;	/* --interval: between round starts */
	int tos;		/* --tos: IP TOS byte, -1: the system's */
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


/* ---- logging (rdma-probe.c) ------------------------------------------ */

extern int probe_verbosity;

__attribute__((format(printf, 1, 2)))
void probe_err(const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
void probe_dbg(int level, const char *fmt, ...);

/* ---- per-kind statistics (probe_opstat.c) --------------------------- */

/*
 * Operations of one kind (READ, WRITE or ping) of one connection, or of a
 * whole run once merged: latency histogram (post to completion, ns), and
 * the span from the first post to the last completion for bandwidth.
 */
struct probe_opstat {
	struct probe_hist lat;
	uint64_t ops;
	uint64_t bytes;
	uint64_t first_post;	/* CLOCK_MONOTONIC ns, 0: none */
	uint64_t last_done;
};

void probe_opstat_init(struct probe_opstat *s);
void probe_opstat_add(struct probe_opstat *s, uint64_t posted, uint64_t done,
		      uint32_t bytes);
/* dst += src; the span covers both. */
void probe_opstat_merge(struct probe_opstat *dst,
			const struct probe_opstat *src);

/* ---- mesh session rounds (--rounds; probe_rounds.c) ----------------- */

/* The rounds of one connection. */
struct probe_rounds {
	uint32_t want;		/* --rounds */
	uint32_t done;		/* checked */
	uint32_t mismatch;	/* of them, data read back differed */
	uint32_t first_bad;	/* round of the first mismatch */
	uint32_t first_bad_offset;
	struct probe_hist lat;	/* write + read of each round, ns */
};

void probe_rounds_init(struct probe_rounds *s, uint32_t want);
void probe_rounds_add(struct probe_rounds *s,
		      const struct rdma_client_round *r);
/* One line a round, like ping's: "round 3: 64 bytes written and read
 * back, verified, write 0.120 ms read 0.110 ms" (probe_report_text.c). */
void probe_report_text_round(FILE *f, const struct rdma_client_round *r);

/* ---- destination (probe_dest.c) ------------------------------------- */

#define PROBE_ADDR_LEN		64	/* "[v6 address]:port" and NUL */

/* Where connections go, and from where (-I). */
struct probe_dest {
	struct sockaddr_storage dst;
	struct sockaddr_storage src;
	socklen_t dst_len;
	socklen_t src_len;		/* 0: no -I */
	uint16_t port;
	char addr[PROBE_ADDR_LEN];	/* numeric "addr:port", "[v6]:port" */
	char host[PROBE_ADDR_LEN];	/* numeric address alone */
};

/*
 * HOST and PORT, and SOURCE (NULL: none) in HOST's address family, into
 * *d.  0, or -EHOSTUNREACH with the reason in why ("cannot resolve WHAT
 * 'name': ...").
 */
int probe_dest_resolve(struct probe_dest *d, const char *what,
		       const char *host, uint16_t port, const char *source,
		       char *why, size_t why_len);
/* "addr:port", plus " from src" with -I. */
void probe_dest_format(const struct probe_dest *d, char *buf, size_t len);

/* ---- connections (probe_ctx.c) -------------------------------------- */

struct probe_ctx;
struct probe_conn;
struct rdma_cm_chan;

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

/*
 * The one rdma_cm event channel and event loop, and the connections of the
 * current run: one destination's, or every target's with --targets.
 */
struct probe_ctx {
	struct event_base *base;
	struct rdma_cm_chan *chan;
	bool busy_poll;
	int active;		/* connections not finished yet */
	struct probe_conn **conns;	/* of the current run */
	unsigned int nconns;
	unsigned int interrupted;	/* SIGINT or SIGTERM seen, times */
	int signo;			/* the last of them */
	bool stop;			/* leave the loop now (a second one) */
};

int probe_ctx_init(struct probe_ctx *ctx, struct event_base *base,
		   bool busy_poll);
void probe_ctx_fini(struct probe_ctx *ctx);
/*
 * Add n connections to d, numbered 0..n-1 (seed + i each), to the run;
 * label (NULL: none) prefixes their -v messages.  d and opts must outlive
 * them.  On failure none of the n is kept.
 */
int probe_ctx_add(struct probe_ctx *ctx, const struct probe_opts *opts,
		  const struct probe_dest *d, const char *label,
		  unsigned int n);
/* Start every connection of the run at once; return when all are over.
 * 0, or -EIO if the event loop failed. */
int probe_ctx_run(struct probe_ctx *ctx);
/* After a run: release the connections' RDMA resources at once, keep
 * their figures; *kept takes them (free with probe_ctx_free_conns). */
void probe_ctx_release(struct probe_ctx *ctx, struct probe_conn ***kept,
		       unsigned int *nkept);

/* Fail every connection of the run from outside (a signal); why: a
 * static string. */
void probe_ctx_abort(struct probe_ctx *ctx, const char *why);
/* A connection's outcome; it points into c (until freed). */
void probe_ctx_outcome(struct probe_conn *c, struct probe_outcome *o);
/* Free kept connections and their array. */
void probe_ctx_free_conns(struct probe_conn **v, unsigned int n);

/* ---- reports (probe_report_text.c, probe_report_json.c) -------------- */

/* One run: every connection at one size. */
struct probe_run {
	const struct probe_opts *opts;	/* with this run's size */
	struct probe_outcome *outcomes;	/* [n] */
	unsigned int n;
};

/* The human report of a run (probe_report_text.c) and the --json
 * document of every run (probe_report_json.c). */
void probe_report_text(FILE *f, const char *target, const struct probe_run *r);
void probe_report_json(FILE *f, const struct probe_opts *opts,
		       const char *target, const struct probe_run *runs,
		       unsigned int nruns, int exit_code);

/* ---- mesh: --targets (probe_mesh.c) ---------------------------------- */

struct target;
struct target_list;

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

/*
 * Resolve every target, then run opts->parallel connections to each, all
 * at once in ctx's one event loop; the connections' RDMA resources are
 * released at the end, their figures kept in *m.  A target that does not
 * resolve or cannot be set up fails alone.  0, or -ENOMEM (then nothing
 * to report; probe_mesh_free() still).
 */
int probe_mesh_run(struct probe_mesh *m, struct probe_ctx *ctx,
		   const struct probe_opts *opts,
		   const struct target_list *tl);
/* Each failure's message on stderr: "rdma-probe: TARGET[: conn N]: ..." */
void probe_mesh_log_errors(const struct probe_mesh *m);
void probe_mesh_free(struct probe_mesh *m);

/* The matrix (one row per target, then a summary;
 * probe_report_matrix.c) and its JSON (probe_report_json.c). */
void probe_report_matrix(FILE *f, const struct probe_mesh *m);
void probe_report_json_mesh(FILE *f, const struct probe_mesh *m,
			    int exit_code);

/* ---- exit class (probe_exit_rules.c) -------------------------------- */

/* An outcome's class, a round's mismatch counted as a data mismatch. */
enum rdma_client_fail
probe_exit_rules_outcome(const struct probe_outcome *o);
/* The failure of a run with the largest exit code, RDMA_CLIENT_FAIL_NONE
 * if none; that code; how many of its connections failed. */
enum rdma_client_fail probe_exit_rules_worst(const struct probe_run *r);
int probe_exit_rules_run(const struct probe_run *r);
unsigned int probe_exit_rules_failed(const struct probe_run *r);
/* A --targets row: its own failure, else the worst of its connections;
 * the outcome that gave it (the first with the worst), or NULL. */
enum rdma_client_fail probe_exit_rules_row(const struct probe_mesh_row *row);
const struct probe_outcome *
probe_exit_rules_row_worst(const struct probe_mesh_row *row);
/* 0 if every target passed, else the largest code of any; how many
 * targets failed. */
int probe_exit_rules_mesh(const struct probe_mesh *m);
unsigned int probe_exit_rules_mesh_failed(const struct probe_mesh *m);

#endif /* RDMAD_PROBE_H */
