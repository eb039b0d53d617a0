/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile/report.h"
#include "util/jsonstr.h"

/*
 * A self-contained interactive flame graph: one <g> per frame with its
 * value (data-v), its start within the root (data-x, same unit), its
 * depth (data-l) and its parent (data-p); a <title> with the name, the
 * count and the share.  The script zooms on click, searches, and shows
 * the frame under the pointer; it needs nothing from outside.
 */

#define WIDTH 1200
#define PAD 10
#define ROW 16
#define TOP 36

static const char script[] =
"var W,P,frames,det,root,cur;\n"
"function $(i){return document.getElementById(i);}\n"
"function init(evt){frames=Array.prototype.slice.call("
"document.querySelectorAll('#frames > g'));"
"var s=document.documentElement;W=+s.getAttribute('data-w');"
"P=+s.getAttribute('data-pad');det=$('details').firstChild;"
"root=frames[0];frames.forEach(function(g){"
"g.addEventListener('mouseover',function(){det.nodeValue="
"g.querySelector('title').textContent;});"
"g.addEventListener('mouseout',function(){det.nodeValue=' ';});"
"g.addEventListener('click',function(){zoom(g);});});"
"$('unzoom').addEventListener('click',function(){zoom(root);});"
"$('search').addEventListener('click',search);zoom(root);"
"s.setAttribute('data-ready','1');}\n"
"function fit(g,w){var t=g.querySelector('text'),n=g.getAttribute('data-n'),"
"c=Math.floor((w-6)/7);t.textContent=c<3?'':(n.length<=c?n:"
"n.substring(0,c-2)+'..');}\n"
"function zoom(z){cur=z;var x0=+z.getAttribute('data-x'),"
"v=+z.getAttribute('data-v'),l=+z.getAttribute('data-l');"
"frames.forEach(function(g){var x=+g.getAttribute('data-x'),"
"gv=+g.getAttribute('data-v'),gl=+g.getAttribute('data-l'),"
"r=g.querySelector('rect'),t=g.querySelector('text'),nx,nw;"
"if(gl>=l&&x>=x0-1e-9&&x+gv<=x0+v+1e-6){nx=P+(x-x0)/v*W;nw=gv/v*W;}"
"else if(gl<l&&x<=x0+1e-9&&x+gv>=x0+v-1e-6){nx=P;nw=W;}"
"else{g.style.display='none';return;}"
"if(nw<0.5){g.style.display='none';return;}g.style.display='';"
"r.setAttribute('x',nx);r.setAttribute('width',nw);"
"t.setAttribute('x',nx+3);fit(g,nw);});"
"$('unzoom').style.opacity=z===root?0:1;}\n"
"function search(){var re=prompt('Search (regular expression)','');"
"if(re===null)return;var m=0,rx;try{rx=new RegExp(re);}catch(e){return;}"
"var tot=+root.getAttribute('data-v'),seen=[];"
"frames.forEach(function(g){var r=g.querySelector('rect');"
"if(re&&rx.test(g.getAttribute('data-n'))){r.setAttribute('fill',"
"'rgb(230,0,230)');var x=+g.getAttribute('data-x'),v=+g.getAttribute"
"('data-v');if(!seen.some(function(s){return x>=s[0]&&x<s[1];}))"
"{seen.push([x,x+v]);m+=v;}}else r.setAttribute('fill',"
"r.getAttribute('data-fill'));});"
"$('matched').firstChild.nodeValue=re?'Matched: '+"
"(100*m/tot).toFixed(2)+'%':' ';}\n";

/* XML text: markup escaped, no control characters, UTF-8 (a byte that
 * is not becomes U+FFFD). */
static void xml(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = pmu__utf8_len(p);

		switch (*p) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if (!n)
				fputs("\xef\xbf\xbd", f);
			else if (*p >= 0x20 && *p != 0x7f)
				fwrite(p, 1, n, f);
		}
		p += n ? n : 1;
	}
}

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Colours say where the code is: the kernel orange, inlined code teal,
 * user code warm by DSO; in a differential graph red for more, blue for
 * less than in the base. */
static void colour(const struct report *r, const struct rnode *n,
		   char *buf, size_t len)
{
	uint32_t h = hash_name(pmu__rpool_get(&r->pool, n->dso));

	if (r->diff) {
		double a = r->total ? (double)n->total / (double)r->total : 0;
		double b = r->base_total ? (double)n->base_total /
					   (double)r->base_total : 0;
		double d = a - b;
		int k = (int)(d > 0 ? 255 - 200 * (d > 0.2 ? 1 : d / 0.2) :
			      255 - 200 * (-d > 0.2 ? 1 : -d / 0.2));

		snprintf(buf, len, d >= 0 ? "rgb(255,%d,%d)" : "rgb(%d,%d,255)",
			 k, k);
		return;
	}
	if (n->kind == PMU_FRAME_KERNEL)
		snprintf(buf, len, "rgb(%u,%u,40)", 220 + h % 30, 110 + h % 50);
	else if (n->kind == PMU_FRAME_INLINED)
		snprintf(buf, len, "rgb(60,%u,%u)", 170 + h % 40, 160 + h % 40);
	else
		snprintf(buf, len, "rgb(%u,%u,%u)", 205 + h % 50,
			 (h >> 8) % 130 + 60, (h >> 16) % 50 + 20);
}

struct svg {
	const struct report *r;
	FILE *f;
	uint64_t root;
	unsigned depth;
	uint32_t id;
};

static unsigned tree_depth(const struct rtree *t, uint32_t i)
{
	unsigned d = 0;

	for (uint32_t c = t->n[i].first_child; c; c = t->n[c].next_sibling) {
		unsigned k = tree_depth(t, c);

		if (k > d)
			d = k;
	}
	return d + 1;
}

static uint64_t node_value(const struct report *r, const struct rnode *n)
{
	/* a differential graph is drawn at the new profile's widths:
	 * stacks only the base had are in its colours' reference only */
	(void)r;
	return n->total;
}

static void frame(struct svg *s, uint32_t i, uint64_t x, unsigned level,
		  uint32_t parent)
{
	const struct rnode *n = &s->r->tree.n[i];
	uint64_t v = node_value(s->r, n);
	double px = PAD + (double)x * WIDTH / (double)s->root;
	double w = i ? (double)v * WIDTH / (double)s->root : WIDTH;
	double y = TOP + (double)(s->depth - 1 - level) * ROW;
	const char *name = i ? pmu__rpool_get(&s->r->pool, n->name) : "all";
	char fill[32];
	uint32_t me = s->id++;

	if (w < 0.1 && i)
		return;
	colour(s->r, n, fill, sizeof(fill));
	fprintf(s->f, "<g data-id=\"%u\" data-p=\"%d\" data-l=\"%u\" "
		"data-x=\"%" PRIu64 "\" data-v=\"%" PRIu64 "\" data-n=\"", me,
		i ? (int)parent : -1, level, x, v);
	xml(s->f, name);
	fprintf(s->f, "\"><title>");
	xml(s->f, name);
	if (n->dso && *pmu__rpool_get(&s->r->pool, n->dso)) {
		fputs(" [", s->f);
		xml(s->f, pmu__rpool_get(&s->r->pool, n->dso));
		fputs("]", s->f);
	}
	fprintf(s->f, " (%" PRIu64 ", %.2f%%", v,
		100.0 * (double)v / (double)s->root);
	if (s->r->diff)
		fprintf(s->f, "; base %.2f%%", s->r->base_total ?
			100.0 * (double)n->base_total / (double)s->r->base_total :
			0.0);
	fprintf(s->f, ")</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
		"height=\"%d\" fill=\"%s\" data-fill=\"%s\" rx=\"2\"/>"
		"<text x=\"%.2f\" y=\"%.1f\"></text></g>\n", px, y, w, ROW - 1,
		fill, fill, px + 3, y + ROW - 4);
	for (uint32_t c = n->first_child; c; c = s->r->tree.n[c].next_sibling) {
		frame(s, c, x, level + 1, me);
		x += node_value(s->r, &s->r->tree.n[c]);
	}
}

int pmu__report_svg(struct report *r, FILE *out)
{
	struct svg s = { r, out, node_value(r, &r->tree.n[0]), 0, 0 };
	unsigned h;

	if (!s.root)
		s.root = 1;
	s.depth = tree_depth(&r->tree, 0);
	h = TOP + s.depth * ROW + 30;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%u\" "
		"viewBox=\"0 0 %d %u\" onload=\"init(evt)\" data-w=\"%d\" "
		"data-pad=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		WIDTH + 2 * PAD, h, WIDTH + 2 * PAD, h, WIDTH, PAD);
	fprintf(out, "<style>text{font-family:monospace;font-size:12px;"
		"fill:#000}#frames g{cursor:pointer}#frames g:hover rect"
		"{stroke:#000;stroke-width:0.5}#unzoom,#search{cursor:pointer}"
		"</style>\n<script type=\"text/ecmascript\"><![CDATA[\n%s]]>"
		"</script>\n", script);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" "
		"fill=\"#f8f8f0\"/>\n<text id=\"title\" x=\"%d\" y=\"20\" "
		"text-anchor=\"middle\" style=\"font-size:16px\">", WIDTH / 2 + PAD);
	xml(out, r->o->title ? r->o->title : r->diff ? "Differential flame graph"
						     : "Flame graph");
	fprintf(out, "</text>\n<text id=\"unzoom\" x=\"%d\" y=\"20\">Reset "
		"Zoom</text>\n<text id=\"search\" x=\"%d\" y=\"20\">Search"
		"</text>\n<text id=\"matched\" x=\"%d\" y=\"%u\"> </text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n"
		"<g id=\"frames\">\n", PAD, WIDTH - 50, WIDTH - 150, h - 10,
		PAD, h - 10);
	frame(&s, 0, 0, 0, 0);
	fputs("</g>\n</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}
