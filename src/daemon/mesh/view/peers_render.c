/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * peers_render.c - the mesh's peer table (see peers_render.h): a row per
 * path as JSON (GET /peers, rdmadctl --json mesh) and as text (GET
 * /peers?format=text, rdmadctl mesh), with where each peer stands and
 * why it is probed when the targets file is an inventory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "mesh/view/peers_render.h"
#include "json.h"
#include "mesh/mesh_stats.h"

void peers_render_rate(char *buf, size_t len, uint64_t bytes_per_s)
{
	double bits = (double)bytes_per_s * 8;

	if (bits >= 1e9)
		snprintf(buf, len, "%.2f Gbit/s", bits / 1e9);
	else if (bits >= 1e6)
		snprintf(buf, len, "%.2f Mbit/s", bits / 1e6);
	else
		snprintf(buf, len, "%.0f kbit/s", bits / 1e3);
}

static void json_seconds_or_null(FILE *f, uint64_t ns)
{
	if (ns)
		fprintf(f, "%.6f", (double)ns / 1e9);
	else
		fputs("null", f);
}

static void json_mesh_path(FILE *f, unsigned int i,
			   const struct mesh_view_path *p)
{
	const struct mesh_path_stats *st = p->st;
	struct mesh_window_sum w;

	mesh_stats_window(st, &w);
	fprintf(f, "{\"path\":%u,\"state\":", i);
	json_str(f, mesh_state_name(p->state));
	fputs(",\"reach\":", f);
	json_str(f, mesh_reach_name(p->reach));
	fputs(",\"health\":", f);
	json_str(f, mesh_health_name(p->health));
	fputs(",\"last\":", f);
	json_str(f, st->have_last ? mesh_result_name(st->last) : NULL);
	if (st->have_last)
		fprintf(f, ",\"last_size\":%" PRIu32, st->last_size);
	else
		fputs(",\"last_size\":null", f);
	if (st->have_last && st->last == MESH_RES_MISMATCH)
		fprintf(f, ",\"bad_offset\":%" PRIu32, st->last_bad_offset);
	else
		fputs(",\"bad_offset\":null", f);
	fputs(",\"p50_seconds\":", f);
	json_seconds_or_null(f, w.p50_ns);
	fputs(",\"p99_seconds\":", f);
	json_seconds_or_null(f, w.p99_ns);
	fprintf(f, ",\"window\":%u,\"window_failed\":%u,\"window_pressured\":"
		"%u,\"loss\":%.4f", w.n, w.failed, w.pressured,
		w.n ? (double)w.failed / w.n : 0.0);
	if (mesh_view_bw(p))
		fprintf(f, ",\"bandwidth_bytes_per_second\":%" PRIu64,
			mesh_view_bw(p));
	else
		fputs(",\"bandwidth_bytes_per_second\":null", f);
	fprintf(f, ",\"rounds_ok\":%" PRIu64 ",\"rounds_failed\":%" PRIu64
		",\"connects\":%" PRIu64 ",\"downs\":%" PRIu64 ",\"error\":",
		st->rounds[MESH_RES_OK], mesh_stats_failed(st), st->connects,
		st->downs);
	json_str(f, p->error ? p->error : "");
	fputc('}', f);
}

/* "place":{...} (null without topology), the slots' switches: the
 * members after "reloads", each with its trailing comma. */
static void json_place(FILE *f, const struct mesh_view *m)
{
	if (!m->topology) {
		fputs("\"place\":null,", f);
		return;
	}
	fputs("\"place\":{\"host\":", f);
	json_str(f, m->host);
	fputs(",\"tor\":", f);
	json_str(f, m->tor);
	fputs(",\"pod\":", f);
	json_str(f, m->pod && *m->pod ? m->pod : NULL);
	fprintf(f, "},\"epoch_switches\":%" PRIu64 ",\"next_switch_seconds\":"
		"%.3f,", m->switches, (double)m->next_switch_ms / 1000.0);
}

/* A peer's place and why it is probed (with topology); without, its
 * rail when [mesh] rails gives one. */
static void json_peer_place(FILE *f, const struct mesh_view *m,
			    const struct mesh_view_peer *p)
{
	if (!m->topology) {
		if (m->rail_keys)
			fprintf(f, ",\"rail\":%u", p->rail);
		return;
	}
	fputs(",\"host\":", f);
	json_str(f, p->host);
	fputs(",\"tor\":", f);
	json_str(f, p->tor);
	fprintf(f, ",\"rail\":%u,\"why\":", p->rail);
	json_str(f, p->why);
	if (p->cross_tor)
		fprintf(f, ",\"slot\":%u,\"epoch\":%" PRIu64, p->slot,
			p->epoch);
}

int peers_render_json(FILE *f, const struct mesh_view *m)
{
	unsigned int i, j;

	if (!m || !m->on) {
		fputs("{\"mesh\":false,\"peers\":[]}\n", f);
		return ferror(f) ? -EIO : 0;
	}
	fputs("{\"mesh\":true,\"targets\":", f);
	json_str(f, m->targets ? m->targets : "");
	fprintf(f, ",\"interval_seconds\":%.3f,\"window_rounds\":%u,\"sizes\":[",
		m->interval_ms / 1000.0, MESH_WINDOW);
	for (i = 0; i < m->n_sizes; i++)
		fprintf(f, "%s%" PRIu32, i ? "," : "", m->sizes[i]);
	fprintf(f, "],\"bandwidth_samples\":%" PRIu64 ",\"bandwidth_seconds\""
		":%.6f,\"reloads\":%" PRIu64 ",", m->bw_samples,
		(double)m->bw_ns / 1e9, m->reloads);
	json_place(f, m);
	fputs("\"peers\":[", f);
	for (i = 0; i < m->n_peers; i++) {
		const struct mesh_view_peer *p = &m->peers[i];

		fputs(i ? ",{\"peer\":" : "{\"peer\":", f);
		json_str(f, p->name);
		fputs(",\"source\":", f);
		json_str(f, p->source);
		json_peer_place(f, m, p);
		fputs(",\"health\":", f);
		json_str(f, mesh_health_name(p->health));
		fprintf(f, ",\"bandwidth_learnt\":%s,\"up\":%s,\"paths\":[",
			p->bw_learnt ? "true" : "false",
			mesh_stats_paths_up(p) ? "true" : "false");
		for (j = 0; j < p->n_paths; j++) {
			fputs(j ? "," : "", f);
			json_mesh_path(f, j, &p->path[j]);
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
	return ferror(f) ? -EIO : 0;
}

/* NS as milliseconds for people, "-" for 0 (nothing measured). */
static void fmt_ms(char *buf, size_t len, uint64_t ns)
{
	if (ns)
		snprintf(buf, len, "%.3f", (double)ns / 1e6);
	else
		snprintf(buf, len, "-");
}

/* "ok", "mismatch@40" (the first bad byte), "-" before any round. */
static void fmt_last(char *buf, size_t len, const struct mesh_path_stats *st)
{
	if (!st->have_last)
		snprintf(buf, len, "-");
	else if (st->last == MESH_RES_MISMATCH)
		snprintf(buf, len, "mismatch@%" PRIu32, st->last_bad_offset);
	else
		snprintf(buf, len, "%s", mesh_result_name(st->last));
}

/* S on one line: control characters as '?'. */
static void text_clean(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

static void text_mesh_path(FILE *f, int w, const char *peer, unsigned int i,
			   const struct mesh_view_path *p)
{
	const struct mesh_path_stats *st = p->st;
	char last[32], size[16], p50[24], p99[24], loss[16], bw[32];
	struct mesh_window_sum ws;

	mesh_stats_window(st, &ws);
	fmt_last(last, sizeof(last), st);
	if (st->have_last)
		snprintf(size, sizeof(size), "%" PRIu32, st->last_size);
	else
		snprintf(size, sizeof(size), "-");
	fmt_ms(p50, sizeof(p50), ws.p50_ns);
	fmt_ms(p99, sizeof(p99), ws.p99_ns);
	if (ws.n)
		snprintf(loss, sizeof(loss), "%.1f%%",
			 100.0 * ws.failed / ws.n);
	else
		snprintf(loss, sizeof(loss), "-");
	if (mesh_view_bw(p))
		peers_render_rate(bw, sizeof(bw), mesh_view_bw(p));
	else
		snprintf(bw, sizeof(bw), "-");
	fprintf(f, "%-*s  %4u  %-10s  %-7s  %-16s  %6s  %8s  %8s  %6s  %12s"
		"  %8" PRIu64 "  %8" PRIu64, w, peer, i,
		mesh_state_name(p->state), mesh_reach_name(p->reach), last,
		size, p50, p99, loss, bw, st->rounds[MESH_RES_OK],
		mesh_stats_failed(st));
	if (p->error && *p->error) {
		fputs("  ", f);
		text_clean(f, p->error);
	}
	fputc('\n', f);
}

/* With an inventory: this host's place, and each peer's and why. */
static void text_places(FILE *f, int w, const struct mesh_view *m)
{
	unsigned int i;

	if (!m->topology)
		return;
	fputs("\nplace: host ", f);
	text_clean(f, m->host);
	fputs(", ToR ", f);
	text_clean(f, m->tor);
	if (m->pod && *m->pod) {
		fputs(", pod ", f);
		text_clean(f, m->pod);
	}
	fprintf(f, "; cross-ToR slots moved on %" PRIu64 " times", m->switches);
	if (m->next_switch_ms)
		fprintf(f, ", the next in %.0f s",
			(double)m->next_switch_ms / 1000.0);
	fprintf(f, "\n\n%-*s  %-16s  %-16s  %4s  %-15s  %s\n", w, "PEER",
		"HOST", "TOR", "RAIL", "SOURCE", "WHY");
	for (i = 0; i < m->n_peers; i++) {
		const struct mesh_view_peer *p = &m->peers[i];

		fprintf(f, "%-*s  %-16s  %-16s  %4u  %-15s  %s", w, p->name,
			p->host ? p->host : "", p->tor ? p->tor : "", p->rail,
			p->source ? p->source : "-", p->why ? p->why : "");
		if (p->cross_tor)
			fprintf(f, ", slot %u, epoch %" PRIu64, p->slot,
				p->epoch);
		fputc('\n', f);
	}
}

int peers_render_text(FILE *f, const struct mesh_view *m)
{
	unsigned int i, j, up = 0;
	int w = 20;

	if (!m || !m->on) {
		fputs("mesh off: no [mesh] targets in rdmad's "
		      "configuration\n", f);
		return ferror(f) ? -EIO : 0;
	}
	for (i = 0; i < m->n_peers; i++) {
		up += mesh_stats_paths_up(&m->peers[i]) > 0;
		if (strlen(m->peers[i].name) > (size_t)w)
			w = (int)strlen(m->peers[i].name);
	}
	fprintf(f, "mesh: %u peers, %u up; every %.1fs; sizes", m->n_peers, up,
		m->interval_ms / 1000.0);
	for (i = 0; i < m->n_sizes; i++)
		fprintf(f, " %" PRIu32, m->sizes[i]);
	fputs("; targets ", f);
	text_clean(f, m->targets);
	fputc('\n', f);
	if (m->bw_samples || m->reloads)
		fprintf(f, "bandwidth samples %" PRIu64 " (%.1fs of link "
			"time); targets reloaded %" PRIu64 " times\n",
			m->bw_samples, (double)m->bw_ns / 1e9, m->reloads);
	if (!m->n_peers) {
		fputs("no peers\n", f);
		return ferror(f) ? -EIO : 0;
	}
	fprintf(f, "P50MS, P99MS and LOSS over each path's last %u rounds (a "
		"round under local pressure counts for LOSS only); OK and "
		"FAILED since start\n", MESH_WINDOW);
	fprintf(f, "\n%-*s  %4s  %-10s  %-7s  %-16s  %6s  %8s  %8s  %6s  %12s"
		"  %8s  %8s  %s\n", w, "PEER", "PATH", "STATE", "REACH", "LAST",
		"SIZE", "P50MS", "P99MS", "LOSS", "BANDWIDTH", "OK", "FAILED",
		"ERROR");
	for (i = 0; i < m->n_peers; i++)
		for (j = 0; j < m->peers[i].n_paths; j++)
			text_mesh_path(f, w, m->peers[i].name, j,
				       &m->peers[i].path[j]);
	text_places(f, w, m);
	return ferror(f) ? -EIO : 0;
}
