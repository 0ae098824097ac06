/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_inventory_parse.h - the inventory: one file for the whole fabric,
 * the same on every host, naming each host's addresses and where it
 * stands (ToR, pod, rail).  Pure: reads a FILE * (a file or a memory
 * stream), reports through the caller's buffer and callback; no name
 * resolution.  docs/fleet.md describes the format for operators.
 *
 *     # ADDRESS[:PORT]  key=value ...
 *     10.0.1.1   host=h001 tor=t01 pod=p0 rail=0
 *     10.0.2.1   host=h001 tor=t01 pod=p0 rail=1
 *
 * Read through the targets file's one reader (targets.h, targets_scan):
 * the address is a target as it reads it.
 * Keys: host (default: the address as HOST:PORT), tor (required on every
 * line once a line has any key), pod (on every line or none), rail (0..7,
 * on every line or none).  Addresses are compared by value (the label
 * is the canonical spelling: fd00:0::2 is [fd00::2]:PORT).  A file of
 * bare addresses is today's targets file: no topology, a full mesh; a
 * repeated address there is dropped with a warning, summarised past the
 * first few as targets_read() does.  With topology every mistake or
 * contradiction, a repeated address too, is refused as "NAME:LINE:
 * what".
 *
 * Names (host, ToR, pod) are interned: each has an id, its text is in
 * one string pool, so 800,000 lines parse in well under a second.
 */
#ifndef RDMAD_MESH_INVENTORY_PARSE_H
#define RDMAD_MESH_INVENTORY_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "targets.h"

#define MESH_INV_HOSTS_MAX	100000u	/* hosts, the most any caller asks */
#define MESH_INV_RAILS_MAX	8u	/* rails 0..7 */
#define MESH_INV_ADDRS_MAX	(MESH_INV_HOSTS_MAX * MESH_INV_RAILS_MAX)
#define MESH_INV_NAME_MAX	63u	/* a host, ToR or pod name */
#define MESH_INV_NONE		UINT32_MAX
/* An address's label ("HOST:PORT"), the peer's name in the metrics. */
#define MESH_NAME_LEN		(TARGET_HOST_MAX + 10)

/* One address (a line).  16 bytes. */
struct mesh_inv_addr {
	uint32_t label;		/* pool: "HOST:PORT", "[V6]:PORT" (lower case) */
	uint32_t host;		/* its host's id */
	uint32_t line;		/* in the file, from 1 */
	uint16_t port;
	uint8_t rail;		/* 0 without rails */
	uint8_t pad;
};

/* One host.  48 bytes. */
struct mesh_inv_host {
	uint32_t name;		/* pool */
	uint32_t tor;		/* ToR id; 0 without topology */
	uint32_t pod;		/* pod id, or MESH_INV_NONE */
	uint32_t line;		/* its first line */
	uint32_t addr[MESH_INV_RAILS_MAX];	/* per rail, or MESH_INV_NONE */
};

/* A name -> id table over the pool (open addressing). */
struct mesh_inv_table {
	uint32_t *key;		/* pool offsets, MESH_INV_NONE: empty */
	uint32_t *id;
	uint32_t *hash;		/* the key's, compared before the text */
	uint32_t mask, n;
};

struct mesh_inventory {
	struct mesh_inv_addr *addr;
	uint32_t n_addr;
	struct mesh_inv_host *host;
	uint32_t n_host;
	uint32_t *tor_name, *tor_pod, *tor_line;	/* by ToR id */
	uint32_t n_tor;
	uint32_t *pod_name;				/* by pod id */
	uint32_t n_pod;
	char *pool;
	size_t pool_len;
	bool topology;		/* lines carry tor= */
	bool rails, pods;	/* lines carry rail=, pod= */
	unsigned int n_rails;	/* highest rail + 1 (1 without rails) */
	/* Lookup tables, kept for mesh_inventory_find(). */
	struct mesh_inv_table by_label, by_host, by_tor, by_pod;
	uint32_t addr_cap, host_cap, tor_cap, pod_cap;
	size_t pool_cap;
};

/*
 * Read every line of IN (called NAME in messages) into *INV: at most
 * MAX_HOSTS hosts (0 or above MESH_INV_HOSTS_MAX: MESH_INV_HOSTS_MAX),
 * a port-less address getting PORT.  WARN (may be NULL) gets the
 * repeats dropped from a file without topology (the first
 * TARGETS_WARN_FIRST, then how many more: targets_warn_end()).  Returns 0, or -EINVAL,
 * -EIO or -ENOMEM with nothing kept and "NAME:LINE: problem" in ERR.
 */
int mesh_inventory_parse(FILE *in, const char *name, uint16_t port,
			 unsigned int max_hosts, struct mesh_inventory *inv,
			 void (*warn)(void *arg, const char *msg), void *arg,
			 char *err, size_t errlen);
void mesh_inventory_free(struct mesh_inventory *inv);

/* T's label, as other hosts' metrics name it: "HOST:PORT", "[V6]:PORT". */
void mesh_inventory_label(const struct target *t, char *buf, size_t len);

/* The text at pool offset OFF. */
static inline const char *mesh_inventory_str(const struct mesh_inventory *inv,
					     uint32_t off)
{
	return inv->pool + off;
}

/* The host named NAME, or the host of the address labelled NAME
 * ("HOST:PORT"), or MESH_INV_NONE. */
uint32_t mesh_inventory_find(const struct mesh_inventory *inv,
			     const char *name);

/* Bytes the inventory holds (arrays, pool, tables). */
size_t mesh_inventory_bytes(const struct mesh_inventory *inv);

#endif /* RDMAD_MESH_INVENTORY_PARSE_H */
