/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mesh_render.c - the renderings of the mesh view (see mesh_render.h): the
 * matrix as text (GET /peers?format=matrix) and the heatmap page (GET
 * /mesh); the peer table (GET /peers) is peers_render.c's.  A peer's size
 * sums are computed once per rendering (mesh_stats_peer_sums), never per
 * cell; the page shows at most MESH_RENDER_PEERS_MAX peers.
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
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "json.h"
#include "mesh/view/mesh_render.h"
#include "mesh/view/peers_render.h"
#include "mesh/mesh_stats.h"

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

const char mesh_render_nodata[] = "#bdbdbd";
const char mesh_render_down[] = "#141414";

/* Green (fast) to dark red (slow), 10^(1 + i/4) us .. */
static const char *const steps[MESH_RENDER_STEPS] = {
	"#1a9850", "#33a355", "#4baf59", "#64ba5e", "#7cc662", "#95d167",
	"#adda6d", "#c4db75", "#dbdd7e", "#f2df87", "#fdd483", "#fbbc74",
	"#f9a365", "#f78b56", "#f57347", "#e65c43", "#d44543", "#c22e42",
	"#b01842", "#9e0142",
};

/* Where step i + 1 starts: 10^(1 + (i + 1)/4) us, in ns. */
static const uint64_t step_ns[MESH_RENDER_STEPS - 1] = {
	17783, 31623, 56234, 100000, 177828, 316228, 562341, 1000000,
	1778279, 3162278, 5623413, 10000000, 17782794, 31622777, 56234133,
	100000000, 177827941, 316227766, 562341325,
};

const char *mesh_render_colour(uint64_t p99_ns)
{
	unsigned int i = 0;

	while (i < MESH_RENDER_STEPS - 1 && p99_ns >= step_ns[i])
		i++;
	return steps[i];
}

int mesh_render_number_parse(const char *s, unsigned int max,
			   unsigned int *out)
{
	unsigned long v = 0;

	if (!s || !*s || strlen(s) > 5)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	if (v > max)
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

/* The header: M the whole mesh (its peers up), not the page's. */
static void page_head(FILE *f, const struct mesh_view *m,
		      const struct mesh_render_opts *o, const struct layout *l)
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
		"rendered %s; colour: p99, stripes: loss, both of the last "
		"%u rounds of each size</text>\n", up, m->n_peers, when,
		MESH_SIZE_WINDOW);
	(void)l;
}

/* True when M's peers are on more than one rail. */
static bool page_rails(const struct mesh_view *m)
{
	unsigned int i;

	for (i = 1; i < m->n_peers; i++)
		if (m->peers[i].rail != m->peers[0].rail)
			return true;
	return false;
}

/*
 * With an inventory the peers come by ToR, then rail (mesh_view_order):
 * each ToR's name (and rail, on a host of several) over its first
 * column, a line between them down the matrix.
 */
static void page_tors(FILE *f, const struct mesh_view *m,
		      const struct layout *l)
{
	bool rails = page_rails(m);
	unsigned int i, x;

	if (!m->topology)
		return;
	for (i = 0; i < m->n_peers; i++) {
		const struct mesh_view_peer *p = &m->peers[i];
		const char *t = p->tor ? p->tor : "";

		if (i && !strcmp(t, p[-1].tor ? p[-1].tor : "") &&
		    (!rails || p->rail == p[-1].rail))
			continue;
		x = l->x0 + i * l->cw;
		fprintf(f, "<text class=\"t\" x=\"%u\" y=\"%u\">ToR ", x,
			HEAD_H - 4);
		page_esc(f, t);
		if (rails)
			fprintf(f, ", rail %u", p->rail);
		fputs("</text>\n", f);
		if (i)
			fprintf(f, "<line class=\"t\" x1=\"%u\" y1=\"%u\" "
				"x2=\"%u\" y2=\"%u\"/>\n", x, HEAD_H - 16, x,
				l->y0 + l->rows * CELL_H);
	}
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
	page_tors(f, m, l);
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

/* One cell: peer COL (its sums PS), size slot SLOT (n_sizes: all),
 * its marks. */
static void page_cell(FILE *f, const struct mesh_view *m,
		      const struct layout *l, unsigned int col,
		      unsigned int slot, const struct mesh_peer_sums *ps)
{
	const struct mesh_view_peer *p = &m->peers[col];
	unsigned int x = l->x0 + col * l->cw, y = l->y0 + slot * CELL_H;
	unsigned int w = l->cw > 6 ? l->cw - 1 : l->cw, h = CELL_H - 1;
	int down = peer_down(p);
	struct mesh_window_sum ws = slot < m->n_sizes ? ps->size[slot] :
				    ps->all;
	const char *fill;
	char p50[24], p99[24], sz[24];

	if (down || (ws.n && ws.failed == ws.n))
		fill = mesh_render_down;
	else if (!ws.p99_ns)	/* no round, or the good ones pressured */
		fill = mesh_render_nodata;
	else
		fill = mesh_render_colour(ws.p99_ns);
	if (slot < m->n_sizes)
		snprintf(sz, sizeof(sz), "%" PRIu32, m->sizes[slot]);
	else
		snprintf(sz, sizeof(sz), "all");
	fmt_lat(p50, sizeof(p50), ws.p50_ns);
	fmt_lat(p99, sizeof(p99), ws.p99_ns);
	fprintf(f, "<rect class=\"c\" x=\"%u\" y=\"%u\" width=\"%u\" "
		"height=\"%u\" fill=\"%s\" data-peer=\"", x, y, w, h, fill);
	page_esc(f, p->name);
	fprintf(f, "\" data-size=\"%s\"", sz);
	if (m->topology)
		fprintf(f, " data-rail=\"%u\"", p->rail);
	fputs("><title>", f);
	page_esc(f, p->name);
	if (m->topology) {
		fprintf(f, " (rail %u", p->rail);
		if (p->source) {
			fputs(", from ", f);
			page_esc(f, p->source);
		}
		fputc(')', f);
	}
	fprintf(f, "%s, size %s: p50 %s, p99 %s; %u rounds in the window, "
		"%u failed (loss %.1f%%), %u mismatches", down ?
		" (DOWN: no path up)" : "", sz, p50, p99, ws.n, ws.failed,
		ws.n ? 100.0 * ws.failed / ws.n : 0.0, ws.mismatched);
	if (ws.pressured)
		fprintf(f, ", %u under local pressure (their latency left out)",
			ws.pressured);
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

	for (i = 0; i < MESH_RENDER_STEPS; i++)
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"14\""
			" fill=\"%s\"/>\n", x + i * KEY_W, y, KEY_W, steps[i]);
	for (i = 0; i < 6; i++)
		fprintf(f, "<text class=\"l\" x=\"%u\" y=\"%u\">%s</text>\n",
			x + i * 4 * KEY_W, y + 28, decade[i]);
	x += MESH_RENDER_STEPS * KEY_W + 30;
	fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"14\" height=\"14\" "
		"fill=\"%s\"/><text x=\"%u\" y=\"%u\">no data</text>\n"
		"<rect x=\"%u\" y=\"%u\" width=\"14\" height=\"14\" fill=\"%s\"/>"
		"<text x=\"%u\" y=\"%u\">down / all failed</text>\n"
		"<rect x=\"%u\" y=\"%u\" width=\"14\" height=\"14\" "
		"fill=\"url(#loss)\" stroke=\"#888\"/><text x=\"%u\" y=\"%u\">"
		"loss</text>\n<rect x=\"%u\" y=\"%u\" width=\"14\" height=\"14\""
		" fill=\"none\" stroke=\"#ff0000\" stroke-width=\"2\"/><text "
		"x=\"%u\" y=\"%u\">! mismatch</text>\n",
		x, y, mesh_render_nodata, x + 18, y + 12,
		x + 80, y, mesh_render_down, x + 98, y + 12,
		x, y + 24, x + 18, y + 36,
		x + 80, y + 24, x + 98, y + 36);
}

static void page_table(FILE *f, const struct mesh_view *m,
		       const struct mesh_peer_sums *sums)
{
	unsigned int i;

	fputs("<table>\n<tr><th>peer</th><th>up</th><th>paths up</th>"
	      "<th>p99</th><th>loss</th><th>bandwidth</th><th>last error"
	      "</th></tr>\n", f);
	for (i = 0; i < m->n_peers; i++) {
		const struct mesh_view_peer *p = &m->peers[i];
		unsigned int j, up = mesh_stats_paths_up(p);
		const struct mesh_window_sum ws = sums[i].all;
		uint64_t bw = 0;
		char p99[24], rate[32] = "-";

		for (j = 0; j < p->n_paths; j++)
			if (mesh_view_bw(&p->path[j]) > bw)
				bw = mesh_view_bw(&p->path[j]);
		if (bw)
			peers_render_rate(rate, sizeof(rate), bw);
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
	"svg text.t { font: bold 11px sans-serif; }\n"
	"svg line.t { stroke: #000; stroke-width: 2px; }\n"
	"svg text.m { font: bold 15px sans-serif; fill: #fff; stroke: #000;"
	" stroke-width: 3px; paint-order: stroke; text-anchor: middle; }\n"
	"svg rect.k, svg text.m { pointer-events: none; }\n"
	"table { border-collapse: collapse; margin: 8px; }\n"
	"td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: left;"
	" }\n"
	"p { margin: 8px; }\n"
	"</style>\n";

/* What the page leaves out beyond MESH_RENDER_PEERS_MAX peers, and the
 * links to the rest (relative: the page's own path). */
static void page_more(FILE *f, const struct mesh_view *m,
		      const struct mesh_render_opts *o, unsigned int from,
		      unsigned int shown)
{
	unsigned int max = MESH_RENDER_PEERS_MAX;

	if (!from && shown == m->n_peers)
		return;
	if (shown)
		fprintf(f, "<p id=\"more\">Peers %u to %u of %u shown: a page "
			"holds at most %u.", from + 1, from + shown,
			m->n_peers, max);
	else
		fprintf(f, "<p id=\"more\">No peer from %u: the mesh has %u "
			"peers, a page at most %u.", o->from, m->n_peers, max);
	if (from)
		fprintf(f, " <a href=\"?from=%u&amp;refresh=%u\">Previous "
			"%u</a>.", from > max ? from - max : 0, o->refresh_s,
			from > max ? max : from);
	if (from + shown < m->n_peers)
		fprintf(f, " <a href=\"?from=%u&amp;refresh=%u\">Next: peers "
			"%u to %u</a>.", from + shown, o->refresh_s,
			from + shown + 1, from + shown + max < m->n_peers ?
			from + shown + max : m->n_peers);
	fputs(" Every peer at once as text: GET /peers?format=matrix "
	      "(rdmadctl mesh --matrix).</p>\n", f);
}

static int render_page(FILE *f, const struct mesh_view *m,
		       const struct mesh_render_opts *o)
{
	struct mesh_peer_sums *sums;
	struct mesh_view page;
	struct layout l;
	unsigned int i, j, from;

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
	/* The page's peers: from o->from, at most MESH_RENDER_PEERS_MAX. */
	page = *m;
	from = o->from < m->n_peers ? o->from : m->n_peers;
	page.peers = m->peers + from;
	page.n_peers = m->n_peers - from;
	if (page.n_peers > MESH_RENDER_PEERS_MAX)
		page.n_peers = MESH_RENDER_PEERS_MAX;
	sums = calloc(page.n_peers + 1, sizeof(*sums));
	if (!sums)
		return -ENOMEM;
	for (i = 0; i < page.n_peers; i++)
		mesh_stats_peer_sums(&page.peers[i], &sums[i]);
	page_layout(&page, &l);
	fprintf(f, "<svg id=\"matrix\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%u\" height=\"%u\">\n<defs><pattern id=\"loss\" "
		"width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" "
		"patternTransform=\"rotate(45)\"><rect width=\"1\" height=\"8\""
		" fill=\"#fff\"/><rect x=\"1\" width=\"1.5\" height=\"8\" "
		"fill=\"#000\"/></pattern></defs>\n", l.w, l.h);
	page_head(f, m, o, &l);
	page_labels(f, &page, &l);
	for (j = 0; j < l.rows; j++)
		for (i = 0; i < page.n_peers; i++)
			page_cell(f, &page, &l, i, j, &sums[i]);
	page_legend(f, &l);
	fputs("</svg>\n", f);
	page_more(f, m, o, from, page.n_peers);
	if (!m->n_peers)
		fputs("<p>No peers: the targets file lists none but this "
		      "host.</p>\n", f);
	else
		page_table(f, &page, sums);
	fputs("</body>\n</html>\n", f);
	free(sums);
	return ferror(f) ? -EIO : 0;
}

/* ---- the matrix as text ---------------------------------------------- */

/* One cell of the text matrix: "35.1ms", "412ms~3%!", "DOWN", ...
 * (WS: the sum of the cell; DOWN: the peer has no path up). */
static void matrix_cell(char *buf, size_t len, const struct mesh_window_sum *w,
			int down)
{
	const struct mesh_window_sum ws = *w;
	size_t n;

	if (down) {
		snprintf(buf, len, "DOWN");
		return;
	}
	if (!ws.n) {
		snprintf(buf, len, "-");
		return;
	}
	if (ws.p99_ns)
		fmt_lat_sep(buf, len, ws.p99_ns, "");
	else if (ws.failed < ws.n)
		snprintf(buf, len, "*");	/* good ones, all pressured */
	else
		snprintf(buf, len, "failed");
	n = strlen(buf);
	if (ws.failed > ws.mismatched && ws.failed < ws.n && n < len)
		n += (size_t)snprintf(buf + n, len - n, "~%.0f%%", 100.0 *
				      ws.failed / ws.n);
	if (ws.mismatched && n < len)
		snprintf(buf + n, len - n, "!");
}

static int render_matrix(FILE *f, const struct mesh_view *m)
{
	struct mesh_peer_sums ps;
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
		"round, *: every good one under local pressure)\n\n%-*s",
		MESH_SIZE_WINDOW, w, "PEER");
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
		int down = peer_down(p);

		mesh_stats_peer_sums(p, &ps);
		for (j = 0; j < (unsigned int)w && p->name[j]; j++)
			fputc((unsigned char)p->name[j] < 0x20 ? '?' :
			      p->name[j], f);
		fprintf(f, "%*s", w - (int)j, "");
		for (j = 0; j <= m->n_sizes; j++) {
			matrix_cell(cell, sizeof(cell), j < m->n_sizes ?
				    &ps.size[j] : &ps.all, down);
			fprintf(f, "  %12s", cell);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

/* ---- the peer table, a row per path (GET /peers, rdmadctl mesh) ------ */

/* NS as JSON seconds, or null for 0 (nothing measured). */
int mesh_render(FILE *f, const struct mesh_view *m, enum mesh_format fmt,
		     const struct mesh_render_opts *o)
{
	static const struct mesh_render_opts none = { "", 0, 0, 0 };

	switch (fmt) {
	case MESH_FORMAT_JSON:
		return peers_render_json(f, m);
	case MESH_FORMAT_TEXT:
		return peers_render_text(f, m);
	case MESH_FORMAT_MATRIX:
		return render_matrix(f, m);
	case MESH_FORMAT_PAGE:
		return render_page(f, m, o ? o : &none);
	}
	return -EINVAL;
}
