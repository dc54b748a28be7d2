/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wsd-report --plot: an SVG bar chart, one panel per granularity, one
 * horizontal bar per system and baseline (length = precision, a black tick
 * at the recall), written by hand: no plotting library.
 */
#include <math.h>
#include <string.h>

#include "report-output.h"
#include "svg-common.h"
#include "tools-common.h"

#define NAME_W 190   /* the names, left of the bars: at least this wide */
#define NAME_W_MAX 370
#define BAR_W 460    /* the length of precision 1 */
#define RIGHT_W 210  /* the figures right of the bars */
#define TITLE_MAX 40 /* characters of a subset or file name in the title */
#define TOP 92

/* A name column wide enough for the longest name (within NAME_W_MAX). */
static int name_width(const struct tageval_report *r)
{
	size_t longest = 0;
	for (size_t k = 0; k < tageval_report_systems(r); k++) {
		size_t n = svg_chars(tageval_report_system_name(r, k)) +
			   (tageval_report_system_is_baseline(r, k) ? 11 : 0);
		if (n > longest)
			longest = n;
	}
	double w = (double)longest * SVG_CHAR_W + 12;
	return w < NAME_W ? NAME_W : w > NAME_W_MAX ? NAME_W_MAX : (int)w;
}

static void value(FILE *fp, double v)
{
	if (isnan(v))
		fputs("-", fp);
	else
		tools_fprintf(fp, "%.3f", v);
}

static void panel(FILE *fp, const struct tageval_report *r, size_t subset, size_t g, int y0,
		  int name_w, const struct report_significance *sig)
{
	size_t n = tageval_report_systems(r);
	const char *gname = report_granularity_name(tageval_report_granularity(r, g));
	int x0 = name_w + 10;
	/* characters of a name that fit its column (" (baseline)" aside) */
	size_t fit = (size_t)((name_w - 12) / SVG_CHAR_W);
	int h = (int)n * SVG_ROW_H;
	tools_fprintf(fp, "<g class=\"panel\" data-granularity=\"%s\">\n", gname);
	tools_fprintf(fp, "<text x=\"10\" y=\"%d\" font-size=\"15\" font-weight=\"bold\">%s-grained "
		"scoring</text>\n", y0 + 18, gname);
	/* the axis: gridlines and labels every 0.2 */
	svg_axis(fp, x0, BAR_W, y0 + SVG_PANEL_HEAD - 6, y0 + SVG_PANEL_HEAD + h);
	int row = 0;
	for (int base = 0; base <= 1; base++)
		for (size_t k = 0; k < n; k++) {
			if (tageval_report_system_is_baseline(r, k) != base)
				continue;
			struct tageval_report_cell c;
			tageval_report_cell(r, subset, k, g, 0, &c);
			const char *name = tageval_report_system_name(r, k);
			int y = y0 + SVG_PANEL_HEAD + row * SVG_ROW_H;
			double p = isnan(c.precision) ? 0.0 : c.precision;
			double len = p * BAR_W;
			tools_fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">",
				name_w, y + SVG_BAR_H - 2);
			if (svg_chars(name) > fit - (base ? 11 : 0)) {
				/* too long: cut, the whole name on hovering */
				fputs("<title>", fp);
				svg_xml_text(fp, name);
				fputs("</title>", fp);
				svg_text_cut(fp, name, fit - (base ? 11 : 0));
			} else {
				svg_xml_text(fp, name);
			}
			char marks[3];
			report_marks(sig, r, g, k, marks);
			if (marks[0])
				tools_fprintf(fp, " %s", marks);
			fputs(base ? " (baseline)" : "", fp);
			fputs("</text>\n", fp);
			tools_fprintf(fp, "<rect class=\"bar %s\" data-system=\"", base ? "baseline" : "system");
			svg_xml_text(fp, name);
			tools_fprintf(fp, "\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
				"<title>", x0, y + 2, len, SVG_BAR_H, base ? "#a0a0a0" : "#4878b0");
			svg_xml_text(fp, name);
			fputs(": precision ", fp);
			value(fp, c.precision);
			fputs(", recall ", fp);
			value(fp, c.recall);
			tools_fprintf(fp, ", attempted %.2f of %.0f</title></rect>\n", c.attempted, c.total);
			if (!isnan(c.recall)) {
				double xr = x0 + c.recall * BAR_W;
				tools_fprintf(fp, "<line class=\"recall\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
					"y2=\"%d\" stroke=\"black\" stroke-width=\"2\"/>\n", xr, y,
					xr, y + SVG_BAR_H + 4);
			}
			tools_fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"11\">P ", x0 + BAR_W + 8,
				y + SVG_BAR_H - 2);
			value(fp, c.precision);
			fputs("  R ", fp);
			value(fp, c.recall);
			fputs(isnan(c.precision) ? "  (nothing attempted)" : "", fp);
			fputs("</text>\n", fp);
			row++;
		}
	fputs("</g>\n", fp);
}

void report_write_svg(FILE *fp, const struct tageval_report *r, size_t subset,
		      const struct report_sources *src)
{
	size_t ng = tageval_report_granularities(r);
	size_t n = tageval_report_systems(r);
	int panel_h = SVG_PANEL_HEAD + (int)n * SVG_ROW_H + 16;
	int height = TOP + (int)ng * panel_h + 10;
	int name_w = name_width(r), width = name_w + 10 + BAR_W + RIGHT_W;
	const struct tageval_report_subset *sub = tageval_report_subset(r, subset);
	const char *slash = strrchr(src->key, '/');
	const char *keyname = slash && slash[1] ? slash + 1 : src->key;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", fp);
	tools_fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n", width, height, width,
		height);
	fputs("<title>wsd-report: precision and recall on subset \"", fp);
	svg_xml_text(fp, sub->name);
	fputs("\"</title>\n", fp);
	tools_fprintf(fp, "<rect class=\"background\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
		width, height);
	fputs("<text x=\"10\" y=\"24\" font-size=\"17\" font-weight=\"bold\">Precision and "
	      "recall on subset \"", fp);
	svg_text_cut(fp, sub->name, TITLE_MAX);
	tools_fprintf(fp, "\" (%zu item%s), by granularity</text>\n", sub->items,
		sub->items == 1 ? "" : "s");
	/* the legend: the baselines' entry only when the chart has one (not
	 * with --no-baselines) */
	int any_baseline = 0;
	for (size_t k = 0; k < tageval_report_systems(r); k++)
		any_baseline |= tageval_report_system_is_baseline(r, k);
	tools_fprintf(fp, "<rect x=\"10\" y=\"40\" width=\"14\" height=\"%d\" fill=\"#4878b0\"/>\n"
		"<text x=\"30\" y=\"52\" font-size=\"12\">system: bar length = precision</text>\n",
		SVG_BAR_H);
	if (any_baseline)
		tools_fprintf(fp, "<rect x=\"250\" y=\"40\" width=\"14\" height=\"%d\" "
			"fill=\"#a0a0a0\"/>\n<text x=\"270\" y=\"52\" font-size=\"12\">baseline: "
			"bar length = precision</text>\n", SVG_BAR_H);
	tools_fprintf(fp, "<line x1=\"500\" y1=\"38\" x2=\"500\" y2=\"56\" stroke=\"black\" "
		"stroke-width=\"2\"/>\n"
		"<text x=\"508\" y=\"52\" font-size=\"12\">recall (correct / all items)</text>\n");
	fputs("<text x=\"10\" y=\"74\" font-size=\"11\"><title>", fp);
	svg_xml_text(fp, src->key);
	fputs("</title>Key ", fp);
	svg_text_cut(fp, keyname, TITLE_MAX);
	fputs(". Precision = correct / attempted; P and R on the right of each bar.", fp);
	/* --significance marks on its subset only */
	const struct report_significance *sig =
		src->sig && src->sig->subset == subset && src->sig->samples > 0 ? src->sig : NULL;
	if (sig) {
		tools_fprintf(fp, " *: the best by %s does not significantly beat it (randomization "
			      "p &gt;= %g)", report_rank_name(src->rank_by), sig->alpha);
		if (sig->baseline != TAGEVAL_REPORT_NONE)
			tools_fprintf(fp, "; ~: not significantly above the baseline");
		fputs(".", fp);
	}
	fputs("</text>\n", fp);
	for (size_t g = 0; g < ng; g++)
		panel(fp, r, subset, g, TOP + (int)g * panel_h, name_w, sig);
	fputs("</svg>\n", fp);
}
