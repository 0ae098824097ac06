/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_peers_diff.h - what a reload of [mesh] changes, pure: which peers
 * of the new targets were there before (they keep their sessions and
 * figures), what becomes of each kept peer's paths, and whether the
 * sessions must be made anew (all of them, or a kept peer's whose source
 * address changed).  The agent (mesh_agent.c) carries it out.
 *
 * Counters never go back while a peer is configured: a path dropped by
 * a smaller [mesh] paths stops, but its figures stay in the peer's sums
 * (n_figures), and come back with the path if paths grows again.
 */
#ifndef RDMAD_MESH_PEERS_DIFF_H
#define RDMAD_MESH_PEERS_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/config.h"

/* One kept peer's paths across a reload. */
struct mesh_paths_plan {
	unsigned int stop_from;		/* stop paths stop_from .. n_paths-1 */
	unsigned int start_to;		/* then start n_paths .. start_to-1 */
	unsigned int n_figures;		/* paths whose figures count */
};

/*
 * A peer with N_PATHS running and N_FIGURES with figures, under a new
 * PATHS; REMAKE: its sessions are made anew (every path stops first).
 */
void mesh_peers_plan(unsigned int n_paths, unsigned int n_figures,
		     unsigned int paths, bool remake,
		     struct mesh_paths_plan *plan);

/*
 * For each of the N_NEW names, the index of the same peer (case aside)
 * among the N_OLD, or -1 (a new peer), into MAP.
 */
void mesh_peers_match(const char *const *old, unsigned int n_old,
		      const char *const *next, unsigned int n_new, int *map);

/*
 * A kept peer whose rounds left from OLD_SRC now leave from NEW_SRC (its
 * rail's address here, port 0; ss_family 0: [mesh] source): its sessions
 * are made anew if the source changed (a new rail address, a renumbered
 * inventory), or if SESSION_CHANGED (mesh_session_changed()).  A live
 * session keeps the address it was bound to.
 */
bool mesh_peer_remake(bool session_changed,
		      const struct sockaddr_storage *old_src,
		      const struct sockaddr_storage *new_src);

/* What a session is made of changed from A to B (its policy's session,
 * mesh_policy_rules.h, its source, its sizes): made anew. */
bool mesh_session_changed(const struct config_mesh *a,
			  const struct config_mesh *b);
bool mesh_sizes_changed(const struct config_mesh *a,
			const struct config_mesh *b);

#endif /* RDMAD_MESH_PEERS_DIFF_H */
