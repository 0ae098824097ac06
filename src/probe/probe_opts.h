/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_opts.h - rdma-probe's command line (probe_opts.c, pure): the
 * options, their defaults and limits, and the exit statuses the help
 * text names.
 */
#ifndef RDMAD_PROBE_OPTS_H
#define RDMAD_PROBE_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct auth_key;

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

#endif /* RDMAD_PROBE_OPTS_H */
