/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_targets_parse.h - [mesh] as the agent needs it, pure: the targets
 * file's entries as numeric addresses, the entries that are this rdmad
 * itself (one file serves the whole fabric: a host skips itself), and
 * whether this rdmad can serve such a mesh at all (every other peer
 * opens its paths here too).  rdmad --check-config, start and reload
 * all call mesh_targets_check() (through mesh_local_targets(), which
 * opens the file); nothing here needs a loop, a device or a file name.
 *
 * The host's own addresses are an argument (mesh_local.h gathers them),
 * so tests give any.
 */
#ifndef RDMAD_MESH_TARGETS_PARSE_H
#define RDMAD_MESH_TARGETS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "core/config.h"
#include "mesh/mesh_sched.h"
#include "mesh/mesh_stats.h"
#include "targets.h"

#define MESH_NAME_LEN		(TARGET_HOST_MAX + 10)

/* One peer to probe. */
struct mesh_target {
	char name[MESH_NAME_LEN];	/* "HOST:PORT", the metrics label */
	struct sockaddr_storage dst;
};

struct mesh_targets {
	struct mesh_target *v;		/* the peers, in file order */
	unsigned int n;
	unsigned int n_file;		/* entries in the file */
	unsigned int n_self;		/* of them this rdmad */
	char self[MESH_SELF_MAX][MESH_NAME_LEN];	/* the first ones */
};

/* This host's addresses (no ports), for self-detection. */
struct mesh_locals {
	const struct sockaddr_storage *v;
	unsigned int n;
};

/* T's name as other hosts' metrics label it: "HOST:PORT", "[V6]:PORT". */
void mesh_target_name(const struct target *t, char *buf, size_t len);
/* T as an address: numeric only.  0, or -EINVAL with *WHY set. */
int mesh_target_addr(const struct target *t, struct sockaddr_storage *ss,
		     const char **why);
/*
 * ADDR (with its port) is this rdmad: one of CFG's listeners, that is
 * the same address and port, or the wildcard on that port and one of
 * LOCALS.  Another port, or an address of this host that this rdmad's
 * listeners do not cover, may be another rdmad: a peer.
 */
bool mesh_target_is_self(const struct rdmad_config *cfg,
			 const struct mesh_locals *locals,
			 const struct sockaddr_storage *addr);

/* The size a mesh session registers: the largest round or sample. */
uint32_t mesh_session_size(const struct config_mesh *m);

/*
 * Can this rdmad serve a mesh of N_PEERS other peers, each probing it
 * with CFG's paths (and probing each of them so)?  0, or -EINVAL with
 * the numbers in ERR (needed, configured).
 */
int mesh_targets_capacity(const struct rdmad_config *cfg,
			  unsigned int n_peers, char *err, size_t errlen);

/*
 * All of [mesh] for CFG: its schedule's settings, its targets file (IN,
 * opened by the caller: mesh_local_targets(); unused when [mesh] targets
 * is unset) read into *OUT, the capacity.  WARN (may be NULL) gets the
 * file's warnings.  0, or -errno with the reason in ERR
 * ("FILE:LINE: ..."), nothing kept.
 */
int mesh_targets_check(const struct rdmad_config *cfg,
		       const struct mesh_locals *locals, FILE *in,
		       struct mesh_targets *out,
		       void (*warn)(void *arg, const char *msg), void *arg,
		       char *err, size_t errlen);
void mesh_targets_free(struct mesh_targets *t);

#endif /* RDMAD_MESH_TARGETS_PARSE_H */
