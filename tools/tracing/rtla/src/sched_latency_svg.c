// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: the pictures, --svg.
 *
 * Two pictures: top's bound chart, each bar stacked by the terms of
 * the equation, and hist's histograms, a panel per variable with a strip
 * per CPU. Every text is laid out from a conservative estimate of its
 * width (0.6 em a character), so that nothing is cut for 1 to hundreds of
 * CPUs. Only integer and double arithmetic: rtla does not link libm.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_latency_svg.h"
#include "sched_latency_instance.h"
#include "sched_latency_output.h"
#include "sched_latency_workload.h"

#define SVG_MARGIN	10
#define SVG_TITLE_Y	24
#define SVG_SUB_Y	44
#define SVG_FONT	12
#define SVG_SMALL	10
#define SVG_BIG		16

/* svg_text_w - the width of @len characters at @size px, estimated high */
static int svg_text_w(size_t len, int size)
{
	return (int)((len * size * 6 + 9) / 10);
}

/* svg_escape - @s as XML character data */
static void svg_escape(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", fp);
		else if (*s == '>')
			fputs("&gt;", fp);
		else if (*s == '&')
			fputs("&amp;", fp);
		else if (*s == '"')
			fputs("&quot;", fp);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, fp);
	}
}

/*
 * svg_log10 - log10 of @v >= 1 without libm: the decades, then ln of the
 * rest in [1, 10) by its atanh series, which converges there
 */
static double svg_log10(double v)
{
	double y, y2, term, ln = 0;
	int decades = 0, k;

	if (v <= 1)
		return 0;
	while (v >= 10) {
		v /= 10;
		decades++;
	}
	y = (v - 1) / (v + 1);
	y2 = y * y;
	term = y;
	for (k = 1; k < 200; k += 2) {
		ln += term / k;
		term *= y2;
	}
	return decades + 2 * ln / 2.302585092994046;
}

/* svg_step - a tick step of 1, 2 or 5 times 10^k ns: at most @n up to @top */
static unsigned long long svg_step(unsigned long long top, int n)
{
	unsigned long long p = 10;

	for (;;) {
		if (p * n >= top)
			return p;
		if (2 * p * n >= top)
			return 2 * p;
		if (5 * p * n >= top)
			return 5 * p;
		p *= 10;
	}
}

/* svg_us - @ns as us with the decimals a tick step of @step ns needs */
static void svg_us(char *buf, size_t len, unsigned long long ns,
		   unsigned long long step)
{
	int prec = step % 1000 == 0 ? 0 : step % 100 == 0 ? 1 : 2;

	snprintf(buf, len, "%.*f", prec, (double)ns / 1000.0);
}

/* svg_start - the XML header, the canvas, the hatch, the title lines */
static void svg_start(FILE *fp, int width, int height, const char *title,
		      const char *sub)
{
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(fp,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"%d\">\n",
		width, height, width, height, SVG_FONT);
	/* what has no value (unbounded, over the range) is hatched */
	fprintf(fp,
		"<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">\n");
	fprintf(fp, "<rect width=\"6\" height=\"6\" fill=\"#ffffff\"/>\n");
	fprintf(fp,
		"<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#888888\" stroke-width=\"3\"/>\n");
	fprintf(fp, "</pattern></defs>\n");
	fprintf(fp, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" data-role=\"title\">",
		SVG_MARGIN, SVG_TITLE_Y, SVG_BIG);
	svg_escape(fp, title);
	fprintf(fp, "</text>\n<text x=\"%d\" y=\"%d\">", SVG_MARGIN, SVG_SUB_Y);
	svg_escape(fp, sub);
	fprintf(fp, "</text>\n");
}

/* svg_head_w - the width the title lines need */
static int svg_head_w(const char *title, const char *sub)
{
	int w = svg_text_w(strlen(title), SVG_BIG), s = svg_text_w(strlen(sub), SVG_FONT);

	return 2 * SVG_MARGIN + (w > s ? w : s);
}

/* the bound chart */
#define SVG_PLOT_H	300
#define SVG_LEFT	50	/* at least, for a CPU's axis labels */
#define SVG_BAR		16	/* a bar's pitch; it is 2 px narrower */
#define SVG_GROUP_GAP	24
#define SVG_LEGEND_ROW	18
#define SVG_SOURCES	4	/* interrupt sources drawn apart; the rest grouped */
#define SVG_ROW_CPUS	16	/* CPU groups in a row of the chart */
#define SVG_ROW_GAP	40	/* above a row's axes, for their unit and infinity */

enum svg_term {
	SVG_POID, SVG_ST, SVG_PAIE, SVG_PSD, SVG_NMI, SVG_SRC,
	SVG_OTHER = SVG_SRC + SVG_SOURCES, SVG_WORKLOAD, SVG_UNBOUNDED,
	SVG_NR_TERMS
};

static const char * const svg_term_colors[SVG_NR_TERMS] = {
	[SVG_POID]	= "#4e79a7",
	[SVG_ST]	= "#76b7b2",
	[SVG_PAIE]	= "#f28e2b",
	[SVG_PSD]	= "#59a14f",
	[SVG_NMI]	= "#b07aa1",
	[SVG_SRC]	= "#e15759",
	[SVG_SRC + 1]	= "#ff9da7",
	[SVG_SRC + 2]	= "#9c755f",
	[SVG_SRC + 3]	= "#edc948",
	[SVG_OTHER]	= "#bab0ac",
	[SVG_WORKLOAD]	= "#222222",
	[SVG_UNBOUNDED]	= "url(#hatch)",
};

/* the chart's interrupt sources drawn apart, and where a bar is */
struct svg_bound {
	FILE		*fp;
	int		nr_src;
	int		src[SVG_SOURCES];
	char		src_name[SVG_SOURCES][64];
	double		px_per_ns;
	int		base;		/* the y of the axis */
	int		cpu;
	int		model;
	int		x;
	double		y;		/* the top of the stack so far */
};

/* svg_cpu_drawn - a CPU with a bar group */
static bool svg_cpu_drawn(struct sl_tool *tool, int cpu)
{
	return sl_cpu_monitored(tool, cpu) && tool->cpu[cpu].has_res && tool->cpu[cpu].seen;
}

/*
 * svg_pick_sources - the SVG_SOURCES IRQ sources with the largest share
 * of any bounded bar: drawn in their own colors, the rest as one segment
 */
static void svg_pick_sources(struct sl_tool *tool, struct svg_bound *sb)
{
	struct {
		int source;
		unsigned long long ns;
	} cand[256];
	const struct slb_bound *b;
	const struct slb_share *s;
	int cpu, m, k, best, nr = 0;
	unsigned int i;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!svg_cpu_drawn(tool, cpu))
			continue;
		for (m = 0; m < SLB_NR_MODELS; m++) {
			b = &tool->cpu[cpu].res.bound[m];
			for (i = 0; i < b->nr_shares && !b->unbounded; i++) {
				s = &b->shares[i];
				if (s->source == SLB_NMI || !s->ns)
					continue;
				for (k = 0; k < nr && cand[k].source != s->source; k++)
					;
				if (k == nr && nr == (int)ARRAY_SIZE(cand))
					continue;
				if (k == nr) {
					cand[nr].source = s->source;
					cand[nr++].ns = 0;
				}
				if (s->ns > cand[k].ns)
					cand[k].ns = s->ns;
			}
		}
	}
	/* the largest first; a source taken is zeroed */
	for (sb->nr_src = 0; sb->nr_src < SVG_SOURCES; sb->nr_src++) {
		for (best = -1, k = 0; k < nr; k++)
			if (cand[k].ns && (best < 0 || cand[k].ns > cand[best].ns))
				best = k;
		if (best < 0)
			break;
		sb->src[sb->nr_src] = cand[best].source;
		cand[best].ns = 0;
		sl_source_name(sb->src[sb->nr_src], sb->src_name[sb->nr_src],
			       sizeof(sb->src_name[sb->nr_src]));
	}
}

/* svg_term_label - a term as the legend and the data-term attribute name it */
static const char *svg_term_label(const struct svg_bound *sb, int t)
{
	static const char * const fixed[SVG_NR_TERMS] = {
		[SVG_POID]	= "D_POID",
		[SVG_ST]	= "D_ST",
		[SVG_PAIE]	= "D_PAIE",
		[SVG_PSD]	= "D_PSD",
		[SVG_NMI]	= "I_NMI",
		[SVG_OTHER]	= "I_IRQ other",
		[SVG_WORKLOAD]	= "workload max latency",
		[SVG_UNBOUNDED]	= "unbounded",
	};

	if (t >= SVG_SRC && t < SVG_OTHER)
		return sb->src_name[t - SVG_SRC];
	return fixed[t];
}

/* svg_segment - one term of a bar, stacked on what is below it */
static void svg_segment(struct svg_bound *sb, int t, unsigned long long ns)
{
	double h = (double)ns * sb->px_per_ns;

	if (!ns)
		return;
	sb->y -= h;
	fprintf(sb->fp,
		"<rect x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"%s\" data-cpu=\"%d\" data-model=\"%s\" data-term=\"",
		sb->x, sb->y, SVG_BAR - 2, h, svg_term_colors[t], sb->cpu,
		slb_model_name(sb->model));
	svg_escape(sb->fp, svg_term_label(sb, t));
	fprintf(sb->fp, "\" data-ns=\"%llu\"><title>CPU %d, %s: ", ns, sb->cpu,
		slb_model_name(sb->model));
	svg_escape(sb->fp, svg_term_label(sb, t));
	fprintf(sb->fp, " %.2f us</title></rect>\n", (double)ns / 1000.0);
}

/*
 * svg_bar - one characterization's bar: max(D_ST, D_POID), D_PAIE, D_PSD,
 * I_NMI, then I_IRQ by source, bottom up. An unbounded bar has only its
 * thread terms: a hatched segment goes on from them to the top of the axis.
 */
static void svg_bar(struct svg_bound *sb, const struct slb_bound *b, int top_y)
{
	unsigned long long named = 0;
	long long ns;
	int k;

	sb->y = sb->base;
	if (b->var[SLB_ST] > b->var[SLB_POID])
		svg_segment(sb, SVG_ST, b->var[SLB_ST]);
	else
		svg_segment(sb, SVG_POID, b->var[SLB_POID]);
	svg_segment(sb, SVG_PAIE, b->var[SLB_PAIE]);
	svg_segment(sb, SVG_PSD, b->var[SLB_PSD]);
	if (b->unbounded) {
		fprintf(sb->fp,
			"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.2f\" fill=\"url(#hatch)\" stroke=\"#888888\" data-cpu=\"%d\" data-model=\"%s\" data-term=\"unbounded\"><title>CPU %d, %s: unbounded (%s)</title></rect>\n",
			sb->x, top_y, SVG_BAR - 2, sb->y - top_y, sb->cpu,
			slb_model_name(sb->model), sb->cpu, slb_model_name(sb->model),
			slb_why_name(b->why));
		fprintf(sb->fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">&#8734;</text>\n",
			sb->x + SVG_BAR / 2 - 1, top_y - 4);
		return;
	}
	svg_segment(sb, SVG_NMI, b->nmi);
	for (k = 0; k < sb->nr_src; k++) {
		ns = sl_share(b, sb->src[k]);
		if (ns <= 0)
			continue;
		named += ns;
		svg_segment(sb, SVG_SRC + k, ns);
	}
	svg_segment(sb, SVG_OTHER, b->irq > named ? b->irq - named : 0);
}

/* svg_bound_top - the highest value a bar of @cpu reaches, in ns */
static unsigned long long svg_bound_top(struct sl_tool *tool, int cpu)
{
	long long max_us = sl_workload_max_us(tool, cpu);
	const struct sl_cpu *c = &tool->cpu[cpu];
	unsigned long long top = 0, v;
	int m;

	for (m = 0; m < SLB_NR_MODELS; m++) {
		const struct slb_bound *b = &c->res.bound[m];

		v = b->unbounded ? b->l_if : b->latency;
		if (v > top)
			top = v;
	}
	if (max_us > 0 && (unsigned long long)max_us * 1000 > top)
		top = max_us * 1000ULL;
	return top;
}

/* svg_axis - the top of @cpu's axis and its tick step, in ns */
static unsigned long long svg_axis(struct sl_tool *tool, int cpu, unsigned long long *step)
{
	unsigned long long top = svg_bound_top(tool, cpu);

	*step = svg_step(top ? top : 1000, 6);
	top = (top + *step - 1) / *step * *step;
	return top ? top : *step;
}

/* svg_legend_w - the width of a legend item of term @t */
static int svg_legend_w(const struct svg_bound *sb, int t)
{
	size_t len = strlen(svg_term_label(sb, t));

	if (t >= SVG_SRC && t < SVG_OTHER)
		len += strlen("I_IRQ ");
	return 18 + svg_text_w(len, SVG_FONT) + 16;
}

/* svg_legend_has - whether term @t is in the legend */
static bool svg_legend_has(const struct svg_bound *sb, int t, bool workload)
{
	return !(t >= SVG_SRC + sb->nr_src && t < SVG_OTHER) && (t != SVG_WORKLOAD || workload);
}

/*
 * svg_legend - lay the legend out under the title, in rows as wide as the
 * chart, and draw it to @fp (NULL: only measure). Returns the y of its
 * last row.
 */
static int svg_legend(FILE *fp, const struct svg_bound *sb, bool workload,
		      int width)
{
	int lx, ly, t, w;

	lx = SVG_MARGIN;
	ly = SVG_SUB_Y + 12;
	for (t = 0; t < SVG_NR_TERMS; t++) {
		if (!svg_legend_has(sb, t, workload))
			continue;
		w = svg_legend_w(sb, t);
		if (lx + w > width - SVG_MARGIN && lx > SVG_MARGIN) {
			lx = SVG_MARGIN;
			ly += SVG_LEGEND_ROW;
		}
		if (!fp) {
			lx += w;
			continue;
		}
		fprintf(fp,
			"<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\" stroke=\"#888888\" stroke-width=\"0.5\"/>\n",
			lx, ly, svg_term_colors[t]);
		fprintf(fp, "<text x=\"%d\" y=\"%d\" data-role=\"legend\">%s", lx + 18, ly + 11,
			t >= SVG_SRC && t < SVG_OTHER ? "I_IRQ " : "");
		svg_escape(fp, svg_term_label(sb, t));
		fprintf(fp, "</text>\n");
		lx += w;
	}
	return ly;
}

/*
 * svg_write_bounds - top's chart: the bounds of each CPU stacked by their
 * terms, on a linear axis of the CPU's own: the terms add up to the bar,
 * and one CPU's storm does not flatten the others' bars to lines. The CPU
 * groups go in rows of SVG_ROW_CPUS, so that many CPUs make the chart
 * taller, not wider than a screen.
 */
static void svg_write_bounds(struct sl_tool *tool, FILE *fp)
{
	static const char title[] =
		"Scheduling latency bound per CPU, stacked by term (us, linear axis per CPU)";
	int cpu, m, nr_groups = 0, nr_bars, width, height, w, top_y, base, x0;
	int label_len = 0, left = SVG_LEFT, group_w, row_h, first_top, g;
	unsigned long long top, step, tick;
	struct svg_bound sb = { .fp = fp };
	bool workload = false;
	char sub[160], buf[32];

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!svg_cpu_drawn(tool, cpu))
			continue;
		nr_groups++;
		if (sl_workload_max_us(tool, cpu) >= 0)
			workload = true;
		/* room left of each group for its widest tick label */
		top = svg_axis(tool, cpu, &step);
		svg_us(buf, sizeof(buf), top, step);
		w = svg_text_w(strlen(buf), SVG_FONT) + 12;
		if (w > left)
			left = w;
	}
	svg_pick_sources(tool, &sb);
	nr_bars = SLB_NR_MODELS + workload;
	for (m = 0; m < SLB_NR_MODELS; m++)
		if ((int)strlen(slb_model_name(m)) > label_len)
			label_len = strlen(slb_model_name(m));

	snprintf(sub, sizeof(sub), "L = max(D_ST, D_POID) + D_PAIE + D_PSD + I_NMI(L) + I_IRQ(L)%s",
		 tool->lost_events || tool->dropped_windows ? " - NOT SOUND: events lost" : "");
	group_w = left + nr_bars * SVG_BAR + SVG_GROUP_GAP;
	width = SVG_MARGIN + (nr_groups < SVG_ROW_CPUS ? nr_groups : SVG_ROW_CPUS) * group_w;
	w = svg_head_w(title, sub);
	if (w > width)
		width = w;

	/* a row: its axes, the rotated names under the bars, the CPU labels */
	row_h = SVG_PLOT_H + 8 + svg_text_w(label_len, SVG_SMALL) + 28;
	first_top = svg_legend(NULL, &sb, workload, width) + SVG_LEGEND_ROW + SVG_ROW_GAP;
	height = first_top + row_h;
	if (nr_groups > SVG_ROW_CPUS)
		height += (nr_groups - 1) / SVG_ROW_CPUS * (row_h + SVG_ROW_GAP);

	svg_start(fp, width, height, title, sub);
	svg_legend(fp, &sb, workload, width);

	g = 0;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct sl_cpu *c = &tool->cpu[cpu];

		if (!svg_cpu_drawn(tool, cpu))
			continue;
		top_y = first_top + g / SVG_ROW_CPUS * (row_h + SVG_ROW_GAP);
		base = top_y + SVG_PLOT_H;
		x0 = SVG_MARGIN + g % SVG_ROW_CPUS * group_w;
		g++;
		top = svg_axis(tool, cpu, &step);
		sb.px_per_ns = (double)SVG_PLOT_H / (double)top;
		sb.base = base;
		sb.cpu = cpu;
		sb.x = x0 + left;

		fprintf(fp,
			"<g data-role=\"plot\" data-cpu=\"%d\" data-base=\"%d\" data-top=\"%d\" data-px-per-us=\"%.9f\">\n",
			cpu, base, top_y, sb.px_per_ns * 1000.0);
		fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">us</text>\n",
			sb.x - 6, top_y - 14);
		for (tick = 0; tick <= top; tick += step) {
			double y = base - (double)tick * sb.px_per_ns;

			svg_us(buf, sizeof(buf), tick, step);
			fprintf(fp,
				"<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#dddddd\"/>\n",
				sb.x, y, sb.x + nr_bars * SVG_BAR + 4, y);
			fprintf(fp, "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n",
				sb.x - 6, y + 4, buf);
		}
		fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000000\"/>\n",
			sb.x - 2, top_y, sb.x - 2, base);

		for (m = 0; m < nr_bars; m++) {
			const char *label = m < SLB_NR_MODELS ? slb_model_name(m) : "workload";

			sb.model = m;
			if (m < SLB_NR_MODELS) {
				svg_bar(&sb, &c->res.bound[m], top_y);
			} else if (sl_workload_max_us(tool, cpu) >= 0) {
				long long max_us = sl_workload_max_us(tool, cpu);
				double h = (double)max_us * 1000.0 * sb.px_per_ns;

				fprintf(fp,
					"<rect x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"%s\" data-cpu=\"%d\" data-term=\"workload\" data-us=\"%lld\"><title>CPU %d: the workload's max latency, %lld us</title></rect>\n",
					sb.x, base - h, SVG_BAR - 2, h,
					svg_term_colors[SVG_WORKLOAD], cpu, max_us, cpu, max_us);
			}
			/* its name under it, read bottom up */
			fprintf(fp,
				"<text transform=\"rotate(-90 %d %d)\" x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"%d\">%s</text>\n",
				sb.x + SVG_BAR / 2 + 3, base + 6, sb.x + SVG_BAR / 2 + 3, base + 6,
				SVG_SMALL, label);
			sb.x += SVG_BAR;
		}
		fprintf(fp,
			"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" data-role=\"cpu\">CPU %d</text>\n",
			x0 + left + nr_bars * SVG_BAR / 2, top_y + row_h - 10, cpu);
		fprintf(fp, "</g>\n");
	}
	fprintf(fp, "</svg>\n");
}

/* the histograms */
#define SVG_CPU_W	64	/* the CPU labels on the left */
#define SVG_YLAB_W	36	/* a strip's count labels */
#define SVG_PANEL_W	200	/* the bins */
#define SVG_OVER_W	10	/* the "over" bin, 4 px right of them */
#define SVG_COL_W	(SVG_YLAB_W + SVG_PANEL_W + 4 + SVG_OVER_W + 20)
#define SVG_STRIP_GAP	12
#define SVG_HEAD_H	86	/* where the first strip starts */

static const char * const svg_var_colors[SL_NR_VARS] = {
	[SL_POID]	= "#4e79a7",
	[SL_PSD]	= "#59a14f",
	[SL_DST]	= "#76b7b2",
	[SL_PAIE]	= "#f28e2b",
	[SL_IRQ]	= "#e15759",
	[SL_NMI]	= "#b07aa1",
};

/* svg_count_label - a power of ten as the count axis shows it */
static void svg_count_label(char *buf, size_t len, int decade)
{
	if (decade <= 3)
		snprintf(buf, len, "%d", decade == 0 ? 1 : decade == 1 ? 10 :
			 decade == 2 ? 100 : 1000);
	else
		snprintf(buf, len, "1e%d", decade);
}

/*
 * svg_strip_bins - the bins of one strip as one path: the outline of the
 * histogram, bin by bin at its height on the log axis, so that a strip is
 * one element however many bins and CPUs there are. Returns the count.
 */
static unsigned long long svg_strip_bins(FILE *fp, const struct sl_hist_pic *pic, int var,
					 int cpu, int px, int base, int sh, int decades)
{
	const unsigned long long *n = sl_pic_counts(pic, nr_cpus, var, cpu);
	double bw = (double)SVG_PANEL_W / pic->nr_bins[var], h, last = 0;
	unsigned long long total = 0;
	int bin;

	for (bin = 0; bin < pic->nr_bins[var]; bin++)
		total += n[bin];
	if (!total)
		return 0;

	fprintf(fp, "<path fill=\"%s\" data-count=\"%llu\" d=\"M%d %d", svg_var_colors[var],
		total, px, base);
	for (bin = 0; bin < pic->nr_bins[var]; bin++) {
		h = n[bin] ? sh * (svg_log10((double)n[bin]) + 0.5) / (decades + 0.5) : 0;
		if (h != last)
			fprintf(fp, "V%.1f", base - h);
		fprintf(fp, "H%.1f", px + (bin + 1) * bw);
		last = h;
	}
	fprintf(fp, "V%dZ\"><title>CPU %d %s: %llu in %d bins of %.2f us</title></path>\n",
		base, cpu, sl_var_label(var), total, pic->nr_bins[var],
		(double)pic->bin_ns[var] / 1000.0);
	return total;
}

/* svg_strip - one CPU's histogram of one variable, at (@x, @y) */
static void svg_strip(struct sl_tool *tool, FILE *fp, int var, int cpu, int x, int y,
		      int sh, int decades)
{
	const struct sl_hist_pic *pic = tool->hist_pic;
	const unsigned long long *n = sl_pic_counts(pic, nr_cpus, var, cpu);
	unsigned long long span = pic->bin_ns[var] * pic->nr_bins[var];
	unsigned long long max = tool->cpu[cpu].max[var], total;
	int px = x + SVG_YLAB_W, ox = px + SVG_PANEL_W + 4, d, tw;
	double h, mx;
	char buf[48];

	fprintf(fp, "<g data-role=\"strip\" data-var=\"%s\" data-cpu=\"%d\" data-decades=\"%d\">\n",
		sl_var_name(var), cpu, decades);
	fprintf(fp,
		"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#cccccc\"/>\n",
		px, y, SVG_PANEL_W + 4 + SVG_OVER_W, sh);
	for (d = 0; d <= decades; d++) {
		double gy = y + sh - sh * (d + 0.5) / (decades + 0.5);

		fprintf(fp,
			"<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#e4e4e4\"/>\n",
			px, gy, ox + SVG_OVER_W, gy);
		/* 1 and the top decade, and all between when there is room */
		if (d && d != decades && sh < (decades + 1) * 14)
			continue;
		svg_count_label(buf, sizeof(buf), d);
		fprintf(fp,
			"<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\" font-size=\"%d\">%s</text>\n",
			px - 4, gy + 3, SVG_SMALL, buf);
	}
	/* the bins as one path, the count over the range as a hatched bar */
	total = svg_strip_bins(fp, pic, var, cpu, px, y + sh, sh, decades);
	if (n[SL_PIC_OVER]) {
		total += n[SL_PIC_OVER];
		h = sh * (svg_log10((double)n[SL_PIC_OVER]) + 0.5) / (decades + 0.5);
		fprintf(fp,
			"<rect x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"url(#hatch)\" stroke=\"%s\" data-bin=\"-1\" data-count=\"%llu\">",
			ox, y + sh - h, SVG_OVER_W, h, svg_var_colors[var], n[SL_PIC_OVER]);
		fprintf(fp, "<title>CPU %d %s over %.2f us: %llu</title></rect>\n", cpu,
			sl_var_label(var), (double)pic->range_ns / 1000.0, n[SL_PIC_OVER]);
	}

	if (!total) {
		fprintf(fp,
			"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"%d\" fill=\"#888888\">no %s</text>\n",
			px + SVG_PANEL_W / 2, y + sh / 2 + 4, SVG_SMALL, sl_var_label(var));
		fprintf(fp, "</g>\n");
		return;
	}

	/* the exact maximum, the tail's end */
	if (max >= pic->range_ns)
		mx = ox + SVG_OVER_W / 2.0;
	else if (max >= span)
		mx = px + SVG_PANEL_W;
	else
		mx = px + (double)max * SVG_PANEL_W / (double)span;
	fprintf(fp,
		"<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#d62728\" stroke-width=\"1.5\" data-max-ns=\"%llu\"/>\n",
		mx, y, mx, y + sh, max);
	snprintf(buf, sizeof(buf), "max %.2f", (double)max / 1000.0);
	tw = svg_text_w(strlen(buf), SVG_SMALL);
	if (mx + 3 + tw <= ox + SVG_OVER_W)
		fprintf(fp,
			"<text x=\"%.2f\" y=\"%d\" font-size=\"%d\" fill=\"#d62728\">%s</text>\n",
			mx + 3, y + 11, SVG_SMALL, buf);
	else
		fprintf(fp,
			"<text x=\"%.2f\" y=\"%d\" text-anchor=\"end\" font-size=\"%d\" fill=\"#d62728\">%s</text>\n",
			mx - 3, y + 11, SVG_SMALL, buf);
	fprintf(fp, "</g>\n");
}

/* svg_write_hist - hist's picture: a panel per variable, a strip per CPU */
static void svg_write_hist(struct sl_tool *tool, FILE *fp)
{
	static const char title[] = "Scheduling latency variables: histograms per CPU";
	const struct sl_hist_pic *pic = tool->hist_pic;
	int var, cpu, nv = 0, nc = 0, width, height, sh, x, y, i, d;
	unsigned long long maxc, step, tick, span;
	char sub[200], buf[48];

	for (var = 0; var < SL_NR_VARS; var++)
		nv += !(tool->params->hist_hidden & (1U << var));
	for (cpu = 0; cpu < nr_cpus; cpu++)
		nc += pic->cpu_shown[cpu];

	snprintf(sub, sizeof(sub),
		 "count per bin on a log axis, us on a linear one; red: the exact maximum; hatched: over the range (%.0f us)%s",
		 (double)pic->range_ns / 1000.0,
		 tool->lost_events || tool->dropped_windows ? " - NOT SOUND" : "");
	width = SVG_CPU_W + nv * SVG_COL_W + SVG_MARGIN;
	i = svg_head_w(title, sub);
	if (i > width)
		width = i;
	/* tall strips for a few CPUs, and still 40 px each with many */
	sh = nc ? 360 / nc : 140;
	sh = sh > 140 ? 140 : sh < 40 ? 40 : sh;
	height = SVG_HEAD_H + (nc ? nc : 1) * (sh + SVG_STRIP_GAP) + 24;

	svg_start(fp, width, height, title, sub);

	y = SVG_HEAD_H;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!pic->cpu_shown[cpu])
			continue;
		fprintf(fp, "<text x=\"%d\" y=\"%d\" data-role=\"cpu\">CPU %d</text>\n",
			SVG_MARGIN, y + sh / 2 + 4, cpu);
		y += sh + SVG_STRIP_GAP;
	}
	if (!nc)
		fprintf(fp, "<text x=\"%d\" y=\"%d\">no CPU measured</text>\n", SVG_MARGIN,
			SVG_HEAD_H + 20);

	x = SVG_CPU_W;
	for (var = 0; var < SL_NR_VARS; var++) {
		if (tool->params->hist_hidden & (1U << var))
			continue;
		maxc = 1;
		for (cpu = 0; cpu < nr_cpus; cpu++) {
			const unsigned long long *n = sl_pic_counts(pic, nr_cpus, var, cpu);

			for (i = 0; i <= SL_PIC_OVER && pic->cpu_shown[cpu]; i++)
				if (n[i] > maxc)
					maxc = n[i];
		}
		for (d = 1, tick = 10; tick < maxc; tick *= 10)
			d++;

		fprintf(fp, "<g data-role=\"panel\" data-var=\"%s\">\n", sl_var_name(var));
		fprintf(fp,
			"<text x=\"%d\" y=\"%d\" font-weight=\"bold\" fill=\"%s\">%s (us)</text>\n",
			x + SVG_YLAB_W, SVG_HEAD_H - 10, svg_var_colors[var], sl_var_label(var));
		y = SVG_HEAD_H;
		for (cpu = 0; cpu < nr_cpus; cpu++) {
			if (!pic->cpu_shown[cpu])
				continue;
			svg_strip(tool, fp, var, cpu, x, y, sh, d);
			y += sh + SVG_STRIP_GAP;
		}

		/* the time axis under the last strip, its ticks through all */
		span = pic->bin_ns[var] * pic->nr_bins[var];
		step = svg_step(span, 4);
		for (tick = 0; tick <= span && nc; tick += step) {
			double tx = x + SVG_YLAB_W + (double)tick * SVG_PANEL_W / span;

			fprintf(fp,
				"<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#000000\" stroke-opacity=\"0.12\"/>\n",
				tx, SVG_HEAD_H, tx, y - SVG_STRIP_GAP + 4);
			svg_us(buf, sizeof(buf), tick, step);
			fprintf(fp,
				"<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\" font-size=\"%d\">%s</text>\n",
				tx, y - SVG_STRIP_GAP + 16, SVG_SMALL, buf);
		}
		fprintf(fp, "</g>\n");
		x += SVG_COL_W;
	}
	fprintf(fp, "</svg>\n");
}

/* sl_write_svg - the --svg picture: hist's histograms, or the bounds */
int sl_write_svg(struct sl_tool *tool)
{
	struct sl_output *out = &tool->params->svg;
	FILE *fp;

	fp = sl_report_open(out);
	if (!fp) {
		sl_err("cannot write %s: %s\n", out->path, strerror(errno));
		return -1;
	}
	if (tool->hist_pic)
		svg_write_hist(tool, fp);
	else
		svg_write_bounds(tool, fp);
	return sl_report_close(fp, out);
}

/* sl_hist_pic_alloc - an empty picture of the histograms of @nr_cpus CPUs */
struct sl_hist_pic *sl_hist_pic_alloc(int nr_cpus)
{
	struct sl_hist_pic *pic = calloc(1, sizeof(*pic));

	if (!pic)
		return NULL;
	pic->cpu_shown = calloc(nr_cpus, sizeof(*pic->cpu_shown));
	pic->count = calloc((size_t)SL_NR_VARS * nr_cpus * (SL_PIC_BINS + 1),
			    sizeof(*pic->count));
	if (!pic->cpu_shown || !pic->count) {
		sl_hist_pic_free(pic);
		return NULL;
	}
	return pic;
}

/* sl_hist_pic_free - release a picture of the histograms */
void sl_hist_pic_free(struct sl_hist_pic *pic)
{
	if (!pic)
		return;
	free(pic->cpu_shown);
	free(pic->count);
	free(pic);
}
