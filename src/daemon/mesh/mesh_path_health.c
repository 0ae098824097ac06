/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_path_health.c - a path's health machine and its pools, fed and
 * logged (see mesh_path_health.h).
 */
#include <math.h>
#include <stdio.h>

#include "core/log.h"
#include "mesh/mesh_path_health.h"

/* Which machine of a path's: its own, its peer's pool, its rail's, its
 * rail's place's. */
enum mesh_path_health_pool { POOL_PATH, POOL_PEER, POOL_RAIL, POOL_PLACE };

/* The name of POOL's machine into BUF, for a change's log line. */
static void mesh_path_health_name(const struct mesh_path_health *h,
				  const struct mesh_path_health_who *w,
				  enum mesh_path_health_pool pool, char *buf,
				  size_t len)
{
	if (pool == POOL_PATH)
		w->name(w->arg, buf, len);
	else if (pool == POOL_PEER)
		snprintf(buf, len, "%s (its paths together)", w->peer);
	else if (pool == POOL_RAIL)
		snprintf(buf, len, "rail %u (its peers together)", h->rail_no);
	else
		snprintf(buf, len, "rail %u (its peers %s together)",
			 h->rail_no, h->place_no == MESH_PLACE_SAME_TOR ?
			 "under this host's ToR" : "under other ToRs");
}

/* The one setter: O at NOW into POOL's machine M of H (named in the log
 * when it changes).  Whether the step said the down was one lost round. */
static bool mesh_path_health_set(const struct mesh_path_health *h,
				 struct mesh_health *m,
				 const struct mesh_path_health_who *w,
				 enum mesh_path_health_pool pool,
				 const struct mesh_health_cfg *c,
				 const struct mesh_health_obs *o, uint64_t now)
{
	struct mesh_health_step st;
	const struct mesh_health *n = &st.next;
	char who[160], shared[96] = "";

	mesh_health_feed(m, c, o, now, &st);
	if (!st.changed) {
		*m = st.next;
		return st.lost_round;
	}
	mesh_path_health_name(h, w, pool, who, sizeof(who));
	switch (st.why) {
	case MESH_HWHY_LOSS:
		if (n->shared)
			snprintf(shared, sizeof(shared), "; %llu more late at "
				 "once with another: stalls, not judged",
				 (unsigned long long)n->shared);
		log_warn("mesh: %s: lossy: too many of its recent rounds were "
			 "late (over %.0f ms above its usual %.1f ms: a "
			 "retransmission) or failed (%llu of %llu judged since "
			 "it started%s); "
			 "RC hides light loss: look at the links and ports on "
			 "its path (rdmad_port_events_total)", who,
			 (double)c->retrans_ns / 1e6, n->base_ns / 1e6,
			 (unsigned long long)n->bad,
			 (unsigned long long)n->judged, shared);
		break;
	case MESH_HWHY_SLOW:
		log_warn("mesh: %s: slow: its bandwidth samples fell %u %% or "
			 "more below its usual %.1f MB/s: a link or NIC on the "
			 "path lost speed, or the path is congested", who,
			 c->slow_pct, exp(n->bw_mean) / 1e6);
		break;
	case MESH_HWHY_FLAPS:
		log_warn("mesh: %s: flapping: %u downs within %.0f s; look at "
			 "the link's cable and optics", who, c->flap_downs,
			 (double)c->flap_window_ns / 1e9);
		break;
	default:
		log_info("mesh: %s: health %s -> %s (%s)", who,
			 mesh_health_name(m->state), mesh_health_name(n->state),
			 mesh_health_why_name(st.why));
		break;
	}
	*m = st.next;
	return st.lost_round;
}

void mesh_path_health_feed(struct mesh_path_health *h,
			   const struct mesh_path_health_who *who,
			   const struct mesh_health_cfg *c,
			   const struct mesh_health_obs *o, uint64_t now)
{
	/* the round a path lost when it went down and came back at once:
	 * the pools' loss evidence now (they never see downs) */
	static const struct mesh_health_obs lost = {
		.kind = MESH_HOBS_ROUND, .failed = true };

	if (mesh_path_health_set(h, &h->own, who, POOL_PATH, c, o, now))
		o = &lost;
	else if (o->kind != MESH_HOBS_ROUND && o->kind != MESH_HOBS_SAMPLE &&
		 o->kind != MESH_HOBS_TICK)
		return;		/* downs, ups, connects: each path's own */
	if (h->peer)
		mesh_path_health_set(h, h->peer, who, POOL_PEER, c, o, now);
	if (o->kind != MESH_HOBS_ROUND)
		return;
	if (h->rail)
		mesh_path_health_set(h, h->rail, who, POOL_RAIL, c, o, now);
	if (h->place)
		mesh_path_health_set(h, h->place, who, POOL_PLACE, c, o, now);
}
