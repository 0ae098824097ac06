/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats.h - rdmad's counters and latency histograms (pure: no I/O, no
 * clock; callers pass durations in).  The metrics endpoint (metrics_render.c)
 * and the status document (status_render.c) render them; conn.c feeds them.
 *
 * Label values are fixed sets so that every series exists from the
 * start (a counter that appears only on its first event cannot be
 * rated).  Session results use the strings of the journal field
 * RDMAD_RESULT.
 */
#ifndef RDMAD_STATS_H
#define RDMAD_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "port_counter.h"

#define STATS_PROTOS(X)				\
	X(NATIVE, "native")			\
	X(RPING, "rping")

#define STATS_OPS(X)				\
	X(READ, "read")				\
	X(WRITE, "write")

/* Outcome of a connection, first cause wins (conn.c). */
#define STATS_RESULTS(X)				\
	X(OK, "ok")					\
	X(MISMATCH, "mismatch")				\
	X(BAD_DONE, "bad-done")				\
	X(BAD_MESSAGE, "bad-message")			\
	X(PROTOCOL_ERROR, "protocol-error")		\
	X(AUTH_FAILED, "auth-failed")			\
	X(OVER_LIMIT, "over-limit")			\
	X(TIMEOUT, "timeout")				\
	X(ABORTED, "aborted")				\
	X(COMPLETION_ERROR, "completion-error")		\
	X(PEER_UNREACHABLE, "peer-unreachable")		\
	X(POST_FAILED, "post-failed")			\
	X(CONNECT_ERROR, "connect-error")		\
	X(DEVICE_ERROR, "device-error")			\
	X(DEVICE_REMOVED, "device-removed")		\
	X(SHUTDOWN, "shutdown")				\
	X(INTERNAL_ERROR, "internal-error")

/* Why a connection request was refused. */
#define STATS_REJECTS(X)				\
	X(DENIED, "denied")				\
	X(SHUTDOWN, "shutdown")				\
	X(BAD_HELLO, "bad-hello")			\
	X(VERSION, "version")				\
	X(BUSY, "busy")					\
	X(BUSY_HOST, "busy-host")			\
	X(LIMIT, "limit")				\
	X(RESOURCES, "resources")			\
	X(ACCEPT_FAILED, "accept-failed")

/* Why the HTTP endpoint refused a request (http.c). */
#define STATS_HTTP_REFUSALS(X)				\
	X(FORBIDDEN, "forbidden")			\
	X(METHOD, "method")				\
	X(BAD_QUERY, "bad-query")			\
	X(NOT_FOUND, "not-found")			\
	X(AUTH_MISSING, "auth-missing")			\
	X(AUTH_WRONG, "auth-wrong")			\
	X(AUTH_BUSY, "auth-busy")			\
	X(TLS_PLAINTEXT, "tls-plaintext")		\
	X(TLS_GARBAGE, "tls-garbage")			\
	X(TLS_HANDSHAKE, "tls-handshake")		\
	X(TLS_CLIENT_CERT, "tls-client-cert")

#define X_PROTO(id, name)	STATS_PROTO_##id,
#define X_OP(id, name)		STATS_OP_##id,
#define X_RES(id, name)		STATS_RES_##id,
#define X_REJ(id, name)		STATS_REJ_##id,
#define X_HTTP(id, name)	STATS_HTTP_##id,
enum stats_proto { STATS_PROTOS(X_PROTO) STATS_PROTO_N };
enum stats_op { STATS_OPS(X_OP) STATS_OP_N };
enum stats_result { STATS_RESULTS(X_RES) STATS_RES_N };
enum stats_reject { STATS_REJECTS(X_REJ) STATS_REJ_N };
enum stats_http_refusal { STATS_HTTP_REFUSALS(X_HTTP) STATS_HTTP_N };
#undef X_PROTO
#undef X_OP
#undef X_RES
#undef X_REJ
#undef X_HTTP

/*
 * Work completion statuses are counted by their verbs number; 0..
 * STATS_WC_STATUS_N-1 are the ones libibverbs defines (IBV_WC_SUCCESS is
 * never counted), anything larger lands in the last slot, "other".
 * stats_wc_countable() tells which slots are worth a series.
 */
#define STATS_WC_STATUS_N	25

/*
 * Latency histogram with fixed bucket bounds (stats_hist_bounds_ns,
 * STATS_HIST_BUCKETS of them, then +Inf); counts are per bucket, not
 * cumulative.
 */
#define STATS_HIST_BUCKETS	22
struct stats_hist {
	uint64_t bucket[STATS_HIST_BUCKETS + 1];
	uint64_t count;
	uint64_t sum_ns;
};

extern const uint64_t stats_hist_bounds_ns[STATS_HIST_BUCKETS];

/*
 * This host's RDMA ports as the device registry reported them (local
 * evidence: "my side" of a failing peer).  A port has a row from its
 * first event on; each event that changes its state is a change.  Ports
 * past the first STATS_PORTS_MAX seen have none.
 */
#define STATS_PORTS_MAX		16
struct stats_port {
	char device[32];
	unsigned int port;
	bool up;
	uint64_t changes;		/* up <-> down, the first event too */
	uint64_t rate;			/* nominal link rate, bytes/s; 0: unknown */
};

struct stats {
	uint64_t accepted[STATS_PROTO_N];
	uint64_t active[STATS_PROTO_N];		/* a gauge */
	uint64_t sessions[STATS_PROTO_N][STATS_RES_N];
	uint64_t rejects[STATS_REJ_N];
	uint64_t bytes[STATS_PROTO_N][STATS_OP_N];
	uint64_t ops[STATS_PROTO_N][STATS_OP_N];
	uint64_t wc_errors[STATS_WC_STATUS_N];
	uint64_t liveness_checks;	/* zero-length WRITEs to quiet peers */
	struct stats_hist connect[STATS_PROTO_N];	/* to ESTABLISHED */
	struct stats_hist session[STATS_PROTO_N];	/* accept to close */
	struct stats_hist rdma_op[STATS_OP_N];	/* rdmad's own READ/WRITE */
	struct stats_port ports[STATS_PORTS_MAX];
	unsigned int n_ports;
};

void stats_init(struct stats *s);

void stats_hist_add(struct stats_hist *h, uint64_t ns);
/* The bucket of V among N ascending upper BOUNDS (le); N: +Inf. */
unsigned int stats_bucket(const uint64_t *bounds, unsigned int n, uint64_t v);

/* A connection was accepted: counted and active. */
void stats_accepted(struct stats *s, enum stats_proto p);
/* It reached ESTABLISHED NS after its connect request. */
void stats_established(struct stats *s, enum stats_proto p, uint64_t ns);
/* An accepted connection is gone after NS, with result R. */
void stats_closed(struct stats *s, enum stats_proto p, enum stats_result r,
		  uint64_t ns);
/* A request refused before anything was accepted. */
void stats_rejected(struct stats *s, enum stats_reject why);
/*
 * N RDMA operations of kind OP moved BYTES in all.  LAT_NS: the latency
 * of an operation rdmad initiated itself, 0 when the client did it.
 */
void stats_rdma(struct stats *s, enum stats_proto p, enum stats_op op,
		uint64_t n, uint64_t bytes, uint64_t lat_ns);
/* A liveness check was posted (not an RDMA operation of the session). */
void stats_liveness_check(struct stats *s);
/* A work completion failed (flushes are not failures). */
void stats_wc_error(struct stats *s, unsigned int status);
/*
 * Port PORT of device DEV went UP or down.  Events are edges, so the
 * first one of a port is a change too; a repeated state is not.
 */
void stats_port(struct stats *s, const char *dev, unsigned int port, bool up);
/* The nominal link rate of a port (bytes/s, 0: unknown), as it is now. */
void stats_port_rate(struct stats *s, const char *dev, unsigned int port,
		     uint64_t bytes_per_s);
/* The state of a port when rdmad first saw it (no change counted). */
void stats_port_seen(struct stats *s, const char *dev, unsigned int port,
		     bool up);

uint64_t stats_sessions_failed(const struct stats *s);
uint64_t stats_rejects_total(const struct stats *s);
uint64_t stats_accepted_total(const struct stats *s);
uint64_t stats_active_total(const struct stats *s);

const char *stats_proto_name(enum stats_proto p);
const char *stats_op_name(enum stats_op op);
const char *stats_result_name(enum stats_result r);
const char *stats_reject_name(enum stats_reject why);
const char *stats_http_refusal_name(enum stats_http_refusal why);
/* "REM_ACCESS_ERR" for IBV_WC_REM_ACCESS_ERR; "other" past the table. */
const char *stats_wc_status_name(unsigned int status);
/* Slot I can hold a failure (not SUCCESS, not WR_FLUSH_ERR). */
bool stats_wc_countable(unsigned int i);

/* ---- views: what the status and metrics renderers are given -------- */

struct stats_listener {
	char address[64];		/* as configured, ADDRESS:PORT */
	bool up;			/* listening (not waiting to retry) */
};

struct stats_conn {
	uint64_t id;
	char peer[56];
	enum stats_proto proto;
	char state[64];			/* life/send/recv */
	uint64_t bytes;
	uint64_t ops;
	uint64_t age_ms;
};

struct mesh_view;

struct stats_view {
	const struct stats *stats;
	const struct mesh_view *mesh;	/* NULL: no mesh agent */
	const char *version;
	long pid;
	double start_time;		/* unix seconds */
	double now;			/* unix seconds */
	unsigned int max_connections;
	bool stopping;
	const struct stats_listener *listeners;
	unsigned int n_listeners;
	const struct stats_conn *conns;
	unsigned int n_conns;
	/* HTTP requests refused, [STATS_HTTP_N] by reason; NULL: none */
	const uint64_t *http_refused;
	/* The RDMA ports' counters (rdma_counters.h), by port then name */
	const struct port_counter *counters;
	unsigned int n_counters;
	/* This process (core/proc_stat_parse.h), NULL: not read (no /proc) */
	const struct proc_self *proc;
	/* The last reload succeeded (the start counts as one), and when the
	 * last one that did was, unix seconds */
	bool reload_ok;
	double reload_success_time;
	/* Memory registered (pinned) for RDMA now, and its cap ([limits]
	 * max_registered_bytes) */
	uint64_t registered_bytes, registered_max;
};

#endif /* RDMAD_STATS_H */
