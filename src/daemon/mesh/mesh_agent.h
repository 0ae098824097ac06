/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_agent.h - rdmad probes its peers ([mesh] in the configuration):
 * for every peer of the targets file and every path (paths = N), one
 * mesh session of the shared client (rdma_client.h) that lives across
 * rounds, on rdmad's own loop and rdma_cm channel.  Each path is
 * mesh_path.c's, its schedule mesh_sched's (pure); what it sees goes into
 * mesh_stats, which the metrics, GET /peers and rdmadctl mesh render.
 *
 * Reload in two steps as the other parts of rdmad: mesh_agent_prepare()
 * takes the new targets file as rdmad_stage_read() read and checked it
 * (mesh_local_targets(), off the loop; the same check as the start's and
 * --check-config's: an error refuses the whole reload), then
 * mesh_agent_commit() carries out mesh_peers_diff: adds the new peers,
 * stops the removed ones and leaves every other connection alone, or
 * mesh_agent_rollback().
 */
#ifndef RDMAD_MESH_AGENT_H
#define RDMAD_MESH_AGENT_H

#include <stddef.h>

#include <event2/event.h>

#include "auth.h"
#include "core/config.h"
#include "mesh/mesh_stats.h"
#include "mesh/mesh_targets_sched.h"
#include "rdma_cm.h"
#include "rdma_counters.h"
#include "rdma_dev.h"

struct mesh_agent;

/*
 * An agent on BASE and CM with no peers yet; PSK (rdmad's own [auth]
 * key, borrowed: its contents may change on reload) proves us to peers
 * that want a key; COUNTERS (borrowed, NULL: none) are the ports' counters
 * whose changes a failure's log line carries.  0 or -ENOMEM.
 */
int mesh_agent_new(struct mesh_agent **out, struct event_base *base,
		   struct rdma_cm_chan *cm, struct rdma_devs *devs,
		   const struct auth_key *psk,
		   const struct rdma_counters *counters);
/*
 * Take CFG's [mesh] and T, its targets file as read and checked
 * (mesh_local_targets(), on any thread; T is left empty); nothing
 * changes yet.
 */
void mesh_agent_prepare(struct mesh_agent *a, const struct rdmad_config *cfg,
			struct mesh_targets *t);
/* Apply what was prepared (at start: begin probing). */
void mesh_agent_commit(struct mesh_agent *a);
void mesh_agent_rollback(struct mesh_agent *a);
/* rdmad is stopping: every session ends now (clean disconnects). */
void mesh_agent_stop(struct mesh_agent *a);
/* What the renderers show; valid until the next call or a commit. */
void mesh_agent_view(struct mesh_agent *a, struct mesh_view *v);
/* Harmless on NULL; live sessions are released at once. */
void mesh_agent_free(struct mesh_agent *a);

#endif /* RDMAD_MESH_AGENT_H */
