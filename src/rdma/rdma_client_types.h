/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_client_types.h - what an embedder of the client module
 * (rdma_client.h) gives it and gets back: the options, the callbacks, the
 * moments and the outcome of a connection.
 */
#ifndef RDMAD_RDMA_CLIENT_TYPES_H
#define RDMAD_RDMA_CLIENT_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <syslog.h>

#include "auth.h"
#include "rdma_client_fsm.h"

struct rdma_devs;

#define RDMA_CLIENT_NAME_LEN	96

/* What to run; copied by rdma_client_new (psk and devs are borrowed). */
struct rdma_client_opts {
	struct sockaddr_storage dst;	/* the server, with its port */
	struct sockaddr_storage src;	/* ss_family 0: rdma_cm picks */
	bool rping;		/* the rping protocol, else rdmad's native */
	/* A mesh session (native): HELLO flag MESH, READ|WRITE, 1
	 * iteration, size the largest round; after DESC the connection
	 * waits READY for rdma_client_round() and rdma_client_close(). */
	bool mesh;
	/* native: PROTO_OP_READ | PROTO_OP_WRITE.  Mesh: what a round
	 * does: both (WRITE of a fresh pattern, READ back, check) or READ
	 * alone (the first round of the session WRITEs and READs back,
	 * later ones READ back that pattern and check it; the round after
	 * a mismatch WRITEs again); the HELLO asks for both either way. */
	uint8_t ops;
	uint32_t size;		/* bytes per operation */
	uint32_t iters;		/* per kind; with duration_ms, a cap */
	uint32_t duration_ms;	/* native: each kind runs this long; 0: iters */
	uint32_t timeout_ms;	/* deadline of each step */
	uint32_t depth;		/* native operations in flight, >= 1;
				 * mesh: those of bandwidth samples */
	uint64_t seed;		/* this connection's pattern seed */
	bool verify;		/* native: check every READ */
	bool busy_poll;		/* no completion channel: rdma_client_poll() */
	int tos;		/* IP TOS (DSCP << 2 | ECN) of the connection's
				 * packets (rdma_cm's TOS option); -1: the
				 * system's default */
	const struct auth_key *psk;	/* NULL: none */
	struct rdma_devs *devs;	/* device attributes from here; NULL: query */
	char name[RDMA_CLIENT_NAME_LEN];	/* in log lines: "conn 0" */
	/* Lines (rdma_log.h) up to this syslog priority are made at all:
	 * LOG_INFO for transitions and errors, LOG_DEBUG for a line per
	 * operation; below LOG_INFO only LOG_ERR lines (the default, 0);
	 * negative: none (an embedder that reports failures itself). */
	int log_prio;
};

enum rdma_client_op {
	RDMA_CLIENT_OP_READ,	/* native RDMA READ, checked */
	RDMA_CLIENT_OP_WRITE,	/* native RDMA WRITE */
	RDMA_CLIENT_OP_PING,	/* rping round trip, checked */
};

/* Moments of a connection's life, CLOCK_MONOTONIC ns (0: not reached). */
struct rdma_client_times {
	uint64_t start;		/* address resolution asked for */
	uint64_t addr;		/* ADDR_RESOLVED */
	uint64_t route;		/* ROUTE_RESOLVED, connect asked for */
	uint64_t established;	/* the connection is up */
	uint64_t desc;		/* DESC received (native) */
	uint64_t ops_start;	/* first operation posted */
	uint64_t ops_end;	/* last operation verified */
	uint64_t done_sent;	/* DONE posted (native) */
	uint64_t result;	/* RESULT received (native) */
	uint64_t disconnect;	/* disconnect asked for */
	uint64_t closed;	/* DISCONNECTED */
};

/* What a connection reports; pointers stay valid until rdma_client_free. */
struct rdma_client_outcome {
	enum rdma_client_fail fail;	/* the class; its code is the exit */
	const char *error;		/* the first failure's message */
	const char *reason;		/* short: "busy", "refused"; or NULL */
	enum rdma_client_state fail_state;	/* where it failed */
	enum rdma_client_state last_state;
	const struct rdma_client_times *times;
	uint64_t seed;
	bool have_welcome;		/* native: the server's welcome */
	uint64_t conn_id;		/* its connection number */
	uint32_t max_size, max_iters;	/* its limits */
	uint32_t write_crc;		/* CRC32C of the last WRITE */
	uint32_t reads_verified;
	uint32_t writes_done;
	uint32_t pings_verified;
	uint32_t rounds;		/* mesh rounds checked */
	uint32_t rounds_bad;		/* of them, mismatches */
};

/* A mesh round's result (rdma_client_round). */
struct rdma_client_round {
	uint32_t round;		/* 0, 1, ... */
	uint32_t size;		/* bytes written and read back */
	/* RDMA_CLIENT_FAIL_NONE, or RDMA_CLIENT_FAIL_MISMATCH with
	 * bad_offset (a completion error ends the connection instead). */
	int result;
	uint32_t bad_offset;	/* first differing byte */
	uint64_t write_ns;	/* post to completion; 0: no WRITE (READ
				 * alone); a READ-only session's WRITE
				 * covers opts.size bytes */
	uint64_t read_ns;
};

/* A mesh bandwidth sample's result (rdma_client_bw). */
struct rdma_client_bw {
	uint32_t size;		/* of each WRITE */
	uint64_t ops;		/* WRITEs completed */
	uint64_t bytes;
	uint64_t ns;		/* first post to last completion */
};

struct rdma_client_ops {
	/* An operation completed (and was checked, if it is checked):
	 * BYTES moved, posted at POSTED and done at DONE (ns). */
	void (*op)(void *arg, enum rdma_client_op kind, uint32_t bytes,
		   uint64_t posted, uint64_t done);
	/* The state machine moved (optional): from inside its transition,
	 * to look, never to call the client. */
	void (*state)(void *arg, enum rdma_client_state from,
		      enum rdma_client_state to, enum rdma_client_event ev);
	/*
	 * The rest are told from the loop, after the transition that made
	 * them (rdma_client_report.c): the client may be called from any of
	 * them, and rdma_client_free()d (carried out once it returns).
	 *
	 * Mesh: READY, once, after DESC: rounds may start (optional).
	 */
	void (*ready)(void *arg);
	/* Mesh: a round was checked (optional).  rdma_client_round and
	 * rdma_client_close may be called from it. */
	void (*round)(void *arg, const struct rdma_client_round *r);
	/* Mesh: a bandwidth sample is over (optional; a completion error
	 * ends the connection instead).  rdma_client_round, _bw and
	 * _close may be called from it. */
	void (*bw)(void *arg, const struct rdma_client_bw *b);
	/* The connection is over (DONE or FAILED); once. */
	void (*done)(void *arg, const struct rdma_client_outcome *o);
};

#endif /* RDMAD_RDMA_CLIENT_TYPES_H */
