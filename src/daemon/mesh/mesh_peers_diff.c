/* SPDX-License-Identifier: BSD-2-Clause */
/* mesh_peers_diff.c - a reload of [mesh], pure (see mesh_peers_diff.h). */
#include <string.h>
#include <strings.h>
#include <netinet/in.h>

#include "mesh/mesh_peers_diff.h"
#include "mesh/mesh_policy_rules.h"

void mesh_peers_plan(unsigned int n_paths, unsigned int n_figures,
		     unsigned int paths, bool remake,
		     struct mesh_paths_plan *plan)
{
	plan->stop_from = remake ? 0 : (paths < n_paths ? paths : n_paths);
	plan->start_to = paths;
	plan->n_figures = n_figures > paths ? n_figures : paths;
	if (plan->n_figures < n_paths)
		plan->n_figures = n_paths;
}

void mesh_peers_match(const char *const *old, unsigned int n_old,
		      const char *const *next, unsigned int n_new, int *map)
{
	unsigned int i, j;

	for (i = 0; i < n_new; i++) {
		map[i] = -1;
		for (j = 0; j < n_old; j++)
			if (!strcasecmp(old[j], next[i])) {
				map[i] = (int)j;
				break;
			}
	}
}

bool mesh_peer_remake(bool session_changed,
		      const struct sockaddr_storage *old_src,
		      const struct sockaddr_storage *new_src)
{
	const struct sockaddr_in *a4 = (const void *)old_src,
				 *b4 = (const void *)new_src;
	const struct sockaddr_in6 *a6 = (const void *)old_src,
				  *b6 = (const void *)new_src;

	if (session_changed || old_src->ss_family != new_src->ss_family)
		return true;
	if (old_src->ss_family == AF_INET)
		return a4->sin_addr.s_addr != b4->sin_addr.s_addr ||
		       a4->sin_port != b4->sin_port;
	if (old_src->ss_family == AF_INET6)
		return memcmp(&a6->sin6_addr, &b6->sin6_addr,
			      sizeof(a6->sin6_addr)) ||
		       a6->sin6_port != b6->sin6_port ||
		       a6->sin6_scope_id != b6->sin6_scope_id;
	return false;	/* neither has one: [mesh] source, compared above */
}

bool mesh_sizes_changed(const struct config_mesh *a,
			const struct config_mesh *b)
{
	return a->n_sizes != b->n_sizes ||
	       memcmp(a->sizes, b->sizes, sizeof(a->sizes));
}

bool mesh_session_changed(const struct config_mesh *a,
			  const struct config_mesh *b)
{
	struct mesh_policy pa, pb;

	mesh_policy_of(a, &pa);
	mesh_policy_of(b, &pb);
	return !mesh_policy_same_session(&pa, &pb) ||
	       memcmp(&a->source, &b->source, sizeof(a->source)) ||
	       mesh_sizes_changed(a, b);
}
