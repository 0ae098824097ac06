/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmad_stage.h - a configuration staged: the file, its [http]
 * web_config and its [mesh] targets or inventory, read and checked whole
 * by one function, rdmad_stage_read().  --check-config, the start and
 * every reload call it, so the three refuse the same things in the same
 * words.  It opens no socket and touches no loop and no RDMA resource:
 * the start calls it before any is opened (a refusal exits 78), a reload
 * on a worker thread (struct rdmad_stager), so that reading a
 * 100,000-host inventory never holds up the loop's rounds.
 */
#ifndef RDMAD_STAGE_H
#define RDMAD_STAGE_H

#include <stdbool.h>
#include <stddef.h>

#include <event2/event.h>

#include "core/config.h"
#include "mesh/mesh_targets_check.h"

struct web_config;

#define RDMAD_STAGE_WARN_MAX	16u	/* warnings kept word for word */
#define RDMAD_STAGE_WARN_LEN	320u

struct rdmad_stage {
	struct rdmad_config cfg;
	struct web_config *web;		/* [http] web_config; NULL: none */
	struct mesh_targets targets;	/* [mesh] targets; empty: mesh off */
	int ret;			/* 0, or -errno: refused */
	char err[512];			/* why, "NAME[:LINE]: what" */
	/* What the read warned of, for the caller to log (a worker thread
	 * does not log): the first RDMAD_STAGE_WARN_MAX, then a count. */
	char warn[RDMAD_STAGE_WARN_MAX][RDMAD_STAGE_WARN_LEN];
	unsigned int n_warn;
	unsigned long n_warn_more;
};

/*
 * Read the configuration file PATH and what it names into S (zeroed
 * here): config_load, config_validate, the web config (parsed, its key
 * and certificate loaded), the targets file (this host's addresses,
 * selection, capacity).  S->ret, also returned: 0, or -errno with the
 * reason in S->err (-EINVAL, -ENOENT, -EACCES: the configuration's
 * fault, exit 78; -ENOMEM: the system's).  Free S with
 * rdmad_stage_free() either way.
 */
int rdmad_stage_read(struct rdmad_stage *s, const char *path);
/* Log S's warnings (on the loop, or before it runs). */
void rdmad_stage_warnings(const struct rdmad_stage *s);
/* Everything S holds; S may be read into again. */
void rdmad_stage_free(struct rdmad_stage *s);
/* The exit status a refusal of S->ret means (sysexits). */
int rdmad_stage_exit_code(int ret);

/* A reload's read, on a worker thread; the result comes back on BASE. */
struct rdmad_stager;
/* S is the caller's from now on (rdmad_stage_free); on BASE's loop. */
typedef void rdmad_stage_done_fn(void *arg, struct rdmad_stage *s);

int rdmad_stager_new(struct rdmad_stager **out, struct event_base *base,
		     rdmad_stage_done_fn *done, void *arg);
/* Read PATH on the worker: 0, -EBUSY while one read is under way
 * (rdmad_stager_busy), or -errno (nothing started). */
int rdmad_stager_begin(struct rdmad_stager *st, const char *path);
bool rdmad_stager_busy(const struct rdmad_stager *st);
/* Waits for a read under way (its result is dropped). Harmless on NULL. */
void rdmad_stager_free(struct rdmad_stager *st);

#endif /* RDMAD_STAGE_H */
