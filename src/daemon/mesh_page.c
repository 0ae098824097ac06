/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_page.c - the heatmap page of GET /mesh (see mesh_page.h).
 *
 * One SVG, the first thing in the body at (0,0), holds the header, the
 * matrix and the legend; a cell is a rect with data-peer and data-size
 * attributes (the screenshot test finds cells by them) and a <title>
 * with its figures.  Cells shrink with many peers, down to CELL_MIN_W
 * pixels: 4,096 peers make a page some 25,000 pixels wide, scrolled.
 * Every string from outside (peer names, error texts, the host name,
 * the targets file) goes through page_esc.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "config.h"
#include "mesh_page.h"
#include "mesh_stats.h"
#include "status.h"

#define HEAD_H		76	/* header lines */
#define LABEL_W		76	/* row labels */
#define CELL_H		24
#define CELL_MIN_W	6
#define CELL_MAX_W	40
#define MATRIX_W	1100	/* cells shrink to fit this, to CELL_MIN_W */
#define COL_LABEL_MIN_W	10	/* narrower columns: no peer label */
#define COL_LABEL_MAX_H	260
#define LEGEND_H	70
#define KEY_W		24	/* a legend step */

const char mesh_page_nodata[] = "#bdbdbd";
const char mesh_page_down[] = "#141414";

/* Green (fast) to dark red (slow), 10^(1 + i/4) us .. */
static const char *const steps[MESH_PAGE_STEPS] = {
	"#1a9850", "#33a355", "#4baf59", "#64ba5e", "#7cc662", "#95d167",
	"#adda6d", "#c4db75", "#dbdd7e", "#f2df87", "#fdd483", "#fbbc74",
	"#f9a365", "#f78b56", "#f57347", "#e65c43", "#d44543", "#c22e42",
	"#b01842", "#9e0142",
};

/* Where step i + 1 starts: 10^(1 + (i + 1)/4) us, in ns. */
static const uint64_t step_ns[MESH_PAGE_STEPS - 1] = {
	17783, 31623, 56234, 100000, 177828, 316228, 562341, 1000000,
	1778279, 3162278, 5623413, 10000000, 17782794, 31622777, 56234133,
	100000000, 177827941, 316227766, 562341325,
};

const char *mesh_page_colour(uint64_t p99_ns)
{
	unsigned int i = 0;

	while (i < MESH_PAGE_STEPS - 1 && p99_ns >= step_ns[i])
		i++;
	return steps[i];
}

int mesh_page_refresh_parse(const char *s, unsigned int *out)
{
	unsigned long v = 0;

	if (!s || !*s || strlen(s) > 4)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	if (v > MESH_PAGE_REFRESH_MAX)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/* S for HTML text and attribute values; control and non-ASCII bytes
 * as '?' (the page stays well-formed XML whatever a name holds). */
static void page_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			fputc(c < 0x20 || c >= 0x7f ? '?' : c, f);
		}
	}
}

/* NS for people: "850 us", "12.3 ms", "1.20 s" (SEP "": "850us");
 * "-" for 0. */
static void fmt_lat_sep(char *buf, size_t len, uint64_t ns, const char *sep)
{
	if (!ns)
		snprintf(buf, len, "-");
	else if (ns < 1000000)
		snprintf(buf, len, "%" PRIu64 "%sus", ns / 1000, sep);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.1f%sms", (double)ns / 1e6, sep);
	else
		snprintf(buf, len, "%.2f%ss", (double)ns / 1e9, sep);
}

static void fmt_lat(char *buf, size_t len, uint64_t ns)
{
	fmt_lat_sep(buf, len, ns, " ");
}

/* A round size: "64", "1100", "64 KiB", "1 MiB". */
static void fmt_size(char *buf, size_t len, uint32_t b)
{
	if (b >= 1048576 && !(b % 1048576))
		snprintf(buf, len, "%" PRIu32 " MiB", b / 1048576);
	else if (b >= 1024 && !(b % 1024))
		snprintf(buf, len, "%" PRIu32 " KiB", b / 1024);
	else
		snprintf(buf, len, "%" PRIu32, b);
}

/* The first error text of P's paths, a down path's first. */
static const char *peer_error(const struct mesh_view_peer *p)
{
	const char *e = "";
	unsigned int i;

	for (i = 0; i < p->n_paths; i++) {
		const char *pe = p->path[i].error;

		if (!pe || !*pe)
			continue;
		if (p->path[i].reach == MESH_REACH_DOWN)
			return pe;
		if (!*e)
			e = pe;
	}
	return e;
}

/* No path up, one or more known down. */
static int peer_down(const struct mesh_view_peer *p)
{
	unsigned int i;

	if (mesh_stats_paths_up(p))
		return 0;
	for (i = 0; i < p->n_paths; i++)
		if (p->path[i].reach == MESH_REACH_DOWN)
			return 1;
	return 0;
}

struct layout {
	unsigned int cw;		/* cell width */
	unsigned int label_h;		/* peer labels above the cells */
	unsigned int x0, y0;		/* the first cell */
	unsigned int rows;		/* sizes + "all" */
	unsigned int w, h;		/* the SVG */
};

static void page_layout(const struct mesh_view *m, struct layout *l)
{
	size_t longest = 0;
	unsigned int i;

	memset(l, 0, sizeof(*l));
	l->cw = m->n_peers ? MATRIX_W / m->n_peers : CELL_MAX_W;
	if (l->cw > CELL_MAX_W)
		l->cw = CELL_MAX_W;
	if (l->cw < CELL_MIN_W)
		l->cw = CELL_MIN_W;
	if (l->cw >= COL_LABEL_MIN_W) {
		for (i = 0; i < m->n_peers; i++)
			if (strlen(m->peers[i].name) > longest)
				longest = strlen(m->peers[i].name);
		l->label_h = (unsigned int)longest * 7 + 10;
		if (l->label_h > COL_LABEL_MAX_H)
			l->label_h = COL_LABEL_MAX_H;
	}
	l->rows = m->n_sizes + 1;
	l->x0 = LABEL_W;
	l->y0 = HEAD_H + l->label_h;
	l->w = l->x0 + m->n_peers * l->cw + 20;
	if (l->w < 900)
		l->w = 900;
	l->h = l->y0 + l->rows * CELL_H + LEGEND_H;
}

static void page_head(FILE *f, const struct mesh_view *m,
		      const struct mesh_page_opts *o, const struct layout *l)
{
	unsigned int i, up = 0;
	struct tm tm;
	char when[40], sz[24];

	for (i = 0; i < m->n_peers; i++)
		up += mesh_stats_paths_up(&m->peers[i]) > 0;
	gmtime_r(&o->now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fputs("<text class=\"h1\" x=\"8\" y=\"22\">rdmad mesh: ", f);
	page_esc(f, o->host);
	fputs("</text>\n<text x=\"8\" y=\"42\">targets ", f);
	page_esc(f, m->targets);
	fprintf(f, ", a round every %.1f s, sizes", m->interval_ms / 1000.0);
	for (i = 0; i < m->n_sizes; i++) {
		fmt_size(sz, sizeof(sz), m->sizes[i]);
		fprintf(f, "%s %s", i ? "," : "", sz);
	}
	fprintf(f, "</text>\n<text x=\"8\" y=\"60\">peers up %u / %u; "
		"rendered %s; colour: p99 of the last %u rounds of each size"
		"</text>\n", up, m->n_peers, when, MESH_SIZE_WINDOW);
	(void)l;
}

/* The row and column labels. */
static void page_labels(FILE *f, const struct mesh_view *m,
			const struct layout *l)
{
	unsigned int i;
	char sz[24];

	for (i = 0; i < l->rows; i++) {
		if (i < m->n_sizes)
			fmt_size(sz, sizeof(sz), m->sizes[i]);
		else
			snprintf(sz, sizeof(sz), "all");
		fprintf(f, "<text class=\"r\" x=\"%u\" y=\"%u\">%s</text>\n",
			l->x0 - 6, l->y0 + i * CELL_H + CELL_H / 2 + 4, sz);
	}
	if (!l->label_h)
		return;
	for (i = 0; i < m->n_peers; i++) {
		unsigned int x = l->x0 + i * l->cw + l->cw / 2 + 4;

		fprintf(f, "<text class=\"p\" transform=\"translate(%u,%u) "
			"rotate(-90)\">", x, l->y0 - 4);
		page_esc(f, m->peers[i].name);
		fputs("</text>\n", f);
	}
}

/* One cell: peer P, size slot SLOT (n_sizes: all), its marks. */
static void page_cell(FILE *f, const struct mesh_view *m,
		      const struct layout *l, unsigned int col,
		      unsigned int slot)
{
	const struct mesh_view_peer *p = &m->peers[col];
	unsigned int x = l->x0 + col * l->cw, y = l->y0 + slot * CELL_H;
	unsigned int w = l->cw > 6 ? l->cw - 1 : l->cw, h = CELL_H - 1;
	int down = peer_down(p);
	struct mesh_window_sum ws;
	const char *fill;
	char p50[24], p99[24], sz[24];

	mesh_stats_size_sum(p, slot < m->n_sizes ? slot :
			    CONFIG_MESH_SIZES_MAX, &ws);
	if (down || (ws.n && !ws.p99_ns))
		fill = mesh_page_down;
	else if (!ws.n)
		fill = mesh_page_nodata;
	else
		fill = mesh_page_colour(ws.p99_ns);
	if (slot < m->n_sizes)
		snprintf(sz, sizeof(sz), "%" PRIu32, m->sizes[slot]);
	else
		snprintf(sz, sizeof(sz), "all");
	fmt_lat(p50, sizeof(p50), ws.p50_ns);
	fmt_lat(p99, sizeof(p99), ws.p99_ns);
	fprintf(f, "<rect class=\"c\" x=\"%u\" y=\"%u\" width=\"%u\" "
		"height=\"%u\" fill=\"%s\" data-peer=\"", x, y, w, h, fill);
	page_esc(f, p->name);
	fprintf(f, "\" data-size=\"%s\"><title>", sz);
	page_esc(f, p->name);
	fprintf(f, "%s, size %s: p50 %s, p99 %s; %u rounds in the window, "
		"%u failed (loss %.1f%%), %u mismatches", down ?
		" (DOWN: no path up)" : "", sz, p50, p99, ws.n, ws.failed,
		ws.n ? 100.0 * ws.failed / ws.n : 0.0, ws.mismatched);
	if (*peer_error(p)) {
		fputs("; last error: ", f);
		page_esc(f, peer_error(p));
	}
	fputs("</title></rect>\n", f);
	if (ws.failed > ws.mismatched && !down)
		fprintf(f, "<rect class=\"k\" x=\"%u\" y=\"%u\" width=\"%u\" "
			"height=\"%u\" fill=\"url(#loss)\"/>\n", x, y, w, h);
	if (ws.mismatched)
		fprintf(f, "<rect class=\"k\" x=\"%u\" y=\"%u\" width=\"%u\" "
			"height=\"%u\" fill=\"none\" stroke=\"#ff0000\" "
			"stroke-width=\"2\"/><text class=\"m\" x=\"%u\" "
			"y=\"%u\">!</text>\n", x + 1, y + 1, w > 2 ? w - 2 : 1,
			h - 2, x + w / 2, y + CELL_H / 2 + 5);
}

/* The colour scale, then the swatches of the other fills and marks. */
static void page_legend(FILE *f, const struct layout *l)
{
	static const char *const decade[] = { "10 us", "100 us", "1 ms",
					      "10 ms", "100 ms", "1 s" };
	unsigned int i, y = l->y0 + l->rows * CELL_H + 16, x = l->x0;

	for (i = 0; i < MESH_PAGE_STEPS; i++)
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"14\""
			" fill=\"%s\"/>\n", x + i * KEY_W, y, KEY_W, steps[i]);
	for (i = 0; i < 6; i++)
		fprintf(f, "<text class=\"l\" x=\"%u\" y=\"%u\">%s</text>\n",
			x + i * 4 * KEY_W, y + 28, decade[i]);
	x += MESH_PAGE_STEPS * KEY_W + 30;
	fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"14\" height=\"14\" "
		"fill=\"%s\"/><text x=\"%u\" y=\"%u\">no data</text>\n"
		"<rect x=\"%u\" y=\"%u\" width=\"14\" height=\"14\" fill=\"%s\"/>"
		"<text x=\"%u\" y=\"%u\">down / all failed</text>\n"
		"<rect x=\"%u\" y=\"%u\" width=\"14\" height=\"14\" "
		"fill=\"url(#loss)\" stroke=\"#888\"/><text x=\"%u\" y=\"%u\">"
		"loss</text>\n<rect x=\"%u\" y=\"%u\" width=\"14\" height=\"14\""
		" fill=\"none\" stroke=\"#ff0000\" stroke-width=\"2\"/><text "
		"x=\"%u\" y=\"%u\">! mismatch</text>\n",
		x, y, mesh_page_nodata, x + 18, y + 12,
		x + 80, y, mesh_page_down, x + 98, y + 12,
		x, y + 24, x + 18, y + 36,
		x + 80, y + 24, x + 98, y + 36);
}

static void page_table(FILE *f, const struct mesh_view *m)
{
	unsigned int i;

	fputs("<table>\n<tr><th>peer</th><th>up</th><th>paths up</th>"
	      "<th>p99</th><th>loss</th><th>bandwidth</th><th>last error"
	      "</th></tr>\n", f);
	for (i = 0; i < m->n_peers; i++) {
		const struct mesh_view_peer *p = &m->peers[i];
		unsigned int j, up = mesh_stats_paths_up(p);
		struct mesh_window_sum ws;
		uint64_t bw = 0;
		char p99[24], rate[32] = "-";

		mesh_stats_size_sum(p, CONFIG_MESH_SIZES_MAX, &ws);
		for (j = 0; j < p->n_paths; j++)
			if (p->path[j].st->bw_samples &&
			    p->path[j].st->bw_bytes_per_s > bw)
				bw = p->path[j].st->bw_bytes_per_s;
		if (bw)
			status_fmt_rate(rate, sizeof(rate), bw);
		fmt_lat(p99, sizeof(p99), ws.p99_ns);
		fputs("<tr><td>", f);
		page_esc(f, p->name);
		fprintf(f, "</td><td>%s</td><td>%u / %u</td><td>%s</td>",
			up ? "yes" : peer_down(p) ? "DOWN" : "-", up,
			p->n_paths, p99);
		if (ws.n)
			fprintf(f, "<td>%.1f%%</td>", 100.0 * ws.failed / ws.n);
		else
			fputs("<td>-</td>", f);
		fprintf(f, "<td>%s</td><td>", rate);
		page_esc(f, peer_error(p));
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static const char page_style[] =
	"<style>\n"
	"body { margin: 0; font: 13px sans-serif; background: #fff; }\n"
	"svg { display: block; }\n"
	"svg text { font: 12px sans-serif; fill: #000; }\n"
	"svg text.h1 { font-size: 17px; font-weight: bold; }\n"
	"svg text.r { text-anchor: end; }\n"
	"svg text.p { font: 11px monospace; }\n"
	"svg text.m { font: bold 15px sans-serif; fill: #fff; stroke: #000;"
	" stroke-width: 3px; paint-order: stroke; text-anchor: middle; }\n"
	"svg rect.k, svg text.m { pointer-events: none; }\n"
	"table { border-collapse: collapse; margin: 8px; }\n"
	"td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: left;"
	" }\n"
	"p { margin: 8px; }\n"
	"</style>\n";

int mesh_page_render(FILE *f, const struct mesh_view *m,
		     const struct mesh_page_opts *o)
{
	struct layout l;
	unsigned int i, j;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n", f);
	if (o->refresh_s)
		fprintf(f, "<meta http-equiv=\"refresh\" content=\"%u\"/>\n",
			o->refresh_s);
	fputs("<title>rdmad mesh: ", f);
	page_esc(f, o->host);
	fputs("</title>\n", f);
	fputs(page_style, f);
	fputs("</head>\n<body>\n", f);
	if (!m || !m->on) {
		fputs("<h1>rdmad mesh: ", f);
		page_esc(f, o->host);
		fputs("</h1>\n<p>The mesh is off: [mesh] targets is not set "
		      "in rdmad's configuration, so this host probes no peer."
		      "</p>\n</body>\n</html>\n", f);
		return ferror(f) ? -EIO : 0;
	}
	page_layout(m, &l);
	fprintf(f, "<svg id=\"matrix\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%u\" height=\"%u\">\n<defs><pattern id=\"loss\" "
		"width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" "
		"patternTransform=\"rotate(45)\"><rect width=\"1\" height=\"8\""
		" fill=\"#fff\"/><rect x=\"1\" width=\"1.5\" height=\"8\" "
		"fill=\"#000\"/></pattern></defs>\n", l.w, l.h);
	page_head(f, m, o, &l);
	page_labels(f, m, &l);
	for (j = 0; j < l.rows; j++)
		for (i = 0; i < m->n_peers; i++)
			page_cell(f, m, &l, i, j);
	page_legend(f, &l);
	fputs("</svg>\n", f);
	if (!m->n_peers)
		fputs("<p>No peers: the targets file lists none but this "
		      "host.</p>\n", f);
	else
		page_table(f, m);
	fputs("</body>\n</html>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---- the matrix as text ---------------------------------------------- */

/* One cell of the text matrix: "35.1ms", "412ms~3%!", "DOWN", ... */
static void matrix_cell(char *buf, size_t len, const struct mesh_view_peer *p,
			unsigned int slot)
{
	struct mesh_window_sum ws;
	size_t n;

	mesh_stats_size_sum(p, slot, &ws);
	if (peer_down(p)) {
		snprintf(buf, len, "DOWN");
		return;
	}
	if (!ws.n) {
		snprintf(buf, len, "-");
		return;
	}
	if (ws.p99_ns)
		fmt_lat_sep(buf, len, ws.p99_ns, "");
	else
		snprintf(buf, len, "failed");
	n = strlen(buf);
	if (ws.failed > ws.mismatched && ws.p99_ns && n < len)
		n += (size_t)snprintf(buf + n, len - n, "~%.0f%%", 100.0 *
				      ws.failed / ws.n);
	if (ws.mismatched && n < len)
		snprintf(buf + n, len - n, "!");
}

int mesh_page_render_matrix(FILE *f, const struct mesh_view *m)
{
	unsigned int i, j;
	int w = 20;
	char sz[24], cell[40];

	if (!m || !m->on) {
		fputs("mesh off: no [mesh] targets in rdmad's "
		      "configuration\n", f);
		return ferror(f) ? -EIO : 0;
	}
	for (i = 0; i < m->n_peers; i++)
		if (strlen(m->peers[i].name) > (size_t)w)
			w = (int)strlen(m->peers[i].name);
	fprintf(f, "p99 of the last %u rounds of each size (~N%%: that "
		"share failed, !: a mismatch, DOWN: no path up, -: no "
		"round)\n\n%-*s", MESH_SIZE_WINDOW, w, "PEER");
	for (j = 0; j <= m->n_sizes; j++) {
		if (j < m->n_sizes)
			fmt_size(sz, sizeof(sz), m->sizes[j]);
		else
			snprintf(sz, sizeof(sz), "all");
		fprintf(f, "  %12s", sz);
	}
	fputc('\n', f);
	for (i = 0; i < m->n_peers; i++) {
		const struct mesh_view_peer *p = &m->peers[i];

		for (j = 0; j < (unsigned int)w && p->name[j]; j++)
			fputc((unsigned char)p->name[j] < 0x20 ? '?' :
			      p->name[j], f);
		fprintf(f, "%*s", w - (int)j, "");
		for (j = 0; j <= m->n_sizes; j++) {
			matrix_cell(cell, sizeof(cell), p, j < m->n_sizes ? j :
				    CONFIG_MESH_SIZES_MAX);
			fprintf(f, "  %12s", cell);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}
