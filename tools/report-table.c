/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wsd-report's readable output: one table per subset (full, then minimal). */
#include <math.h>
#include <string.h>

#include "report-output.h"
#include "tools-common.h"

#define BLOCK 33 /* "  prec  recall      F1  attempted" */

static const char *pos_name(char pos)
{
	switch (pos) {
	case 'n':
		return "nouns";
	case 'v':
		return "verbs";
	case 'a':
		return "adjectives";
	case 'p':
		return "indeterminates";
	}
	return "no part of speech";
}

static void ratio3(FILE *fp, int width, double v)
{
	if (isnan(v))
		tools_fprintf(fp, "%*s", width, "-");
	else
		tools_fprintf(fp, "%*.3f", width, v);
}

static void figures(FILE *fp, double p, double r, double a)
{
	fputs("   ", fp);
	ratio3(fp, 6, p);
	fputs("  ", fp);
	ratio3(fp, 6, r);
	fputs("  ", fp);
	ratio3(fp, 6, report_f1(p, r));
	if (isnan(a))
		tools_fprintf(fp, "  %9s", "-");
	else
		tools_fprintf(fp, "  %9.2f", a);
}

static void line_of_system(FILE *fp, const struct tageval_report *r, size_t s, size_t k,
			   int m, int width)
{
	fputs("  ", fp);
	tools_pad(fp, tageval_report_system_name(r, k), width);
	for (size_t g = 0; g < tageval_report_granularities(r); g++) {
		struct tageval_report_cell c;
		tageval_report_cell(r, s, k, g, m, &c);
		figures(fp, c.precision, c.recall, c.attempted);
	}
	fputc('\n', fp);
}

static void summary_lines(FILE *fp, const struct tageval_report *r, size_t s, int m, int width,
			  enum report_rank by)
{
	size_t ng = tageval_report_granularities(r);
	struct tageval_report_summary sum[3];
	for (size_t g = 0; g < ng; g++) {
		tageval_report_summarize(r, s, g, m, &sum[g]);
		report_best_worst(r, s, g, m, by, &sum[g].best, &sum[g].worst);
	}
	if (sum[0].systems == 0)
		return;
	tools_fprintf(fp, "  %-*s", width, "average");
	for (size_t g = 0; g < ng; g++)
		figures(fp, sum[g].precision, sum[g].recall, sum[g].attempted);
	fputc('\n', fp);
	for (int w = 0; w < 2; w++) {
		tools_fprintf(fp, "  %-*s", width, w ? "worst" : "best");
		for (size_t g = 0; g < ng; g++) {
			size_t k = w ? sum[g].worst : sum[g].best;
			struct tageval_report_cell c = { NAN, NAN, NAN, NAN, NAN };
			if (k != TAGEVAL_REPORT_NONE)
				tageval_report_cell(r, s, k, g, m, &c);
			figures(fp, c.precision, c.recall, c.attempted);
		}
		fputc('\n', fp);
	}
	for (int w = 0; w < 2; w++) {
		tools_fprintf(fp, "  %s system by %s:", w ? "worst" : "best", report_rank_name(by));
		for (size_t g = 0; g < ng; g++) {
			size_t k = w ? sum[g].worst : sum[g].best;
			tools_fprintf(fp, "%s %s %s", g ? "," : "",
				report_granularity_name(tageval_report_granularity(r, g)),
				k == TAGEVAL_REPORT_NONE ? "(none attempted any item)"
							 : tageval_report_system_name(r, k));
		}
		fputc('\n', fp);
	}
}

static void table(FILE *fp, const struct tageval_report *r, size_t s, int m, int width,
		  enum report_rank by)
{
	size_t ng = tageval_report_granularities(r);
	tools_fprintf(fp, "  %-*s", width, m ? "minimal" : "");
	for (size_t g = 0; g < ng; g++) {
		const char *name = report_granularity_name(tageval_report_granularity(r, g));
		tools_fprintf(fp, "   %-*s", g + 1 < ng ? BLOCK : 0, name);
	}
	fputc('\n', fp);
	tools_fprintf(fp, "  %-*s", width, "");
	for (size_t g = 0; g < ng; g++)
		tools_fprintf(fp, "   %6s  %6s  %6s  %9s", "prec", "recall", "F1", "attempted");
	fputc('\n', fp);
	size_t n = tageval_report_systems(r);
	for (int base = 0; base <= 1; base++)
		for (size_t k = 0; k < n; k++)
			if (tageval_report_system_is_baseline(r, k) == base)
				line_of_system(fp, r, s, k, m, width);
	summary_lines(fp, r, s, m, width, by);
}

static void subset_heading(FILE *fp, const struct tageval_report *r, size_t s)
{
	const struct tageval_report_subset *sub = tageval_report_subset(r, s);
	tools_fprintf(fp, "\n== %s: %zu item%s", sub->name, sub->items, sub->items == 1 ? "" : "s");
	if (sub->kind == TAGEVAL_SUBSET_LEXELT) {
		for (size_t l = 0; l < tageval_report_lexelts(r); l++) {
			const struct tageval_report_lexelt *lx = tageval_report_lexelt(r, l);
			if (strcmp(lx->name, sub->name) != 0)
				continue;
			tools_fprintf(fp, " (%s, %s, %zu training), polysemy %zu", pos_name(lx->pos),
				lx->train_items ? "trainable" : "untrainable", lx->train_items,
				lx->polysemy);
			break;
		}
	} else {
		tools_fprintf(fp, " of %zu lexelt%s", sub->lexelts, sub->lexelts == 1 ? "" : "s");
	}
	tools_fprintf(fp, "; entropy %.3f fine, %.3f coarse\n", sub->fine_entropy, sub->coarse_entropy);
}

static void p_value(FILE *fp, double p)
{
	if (isnan(p))
		tools_fprintf(fp, "  %9s", "-");
	else
		tools_fprintf(fp, "  %9.4f", p);
}

/* One comparison line: system @k against @ref ("best" or "baseline"). */
static void versus_line(FILE *fp, const struct tageval_report *r, const char *gname, size_t k, const char *what, size_t ref,
			const struct tageval_wsd_comparison *c, int width, int awidth)
{
	char name[1024];
	snprintf(name, sizeof name, "%s %s", what, tageval_report_system_name(r, ref));
	tools_fprintf(fp, "  %-11s  ", gname);
	tools_pad(fp, tageval_report_system_name(r, k), width);
	fputs("  ", fp);
	tools_pad(fp, name, awidth);
	tools_fprintf(fp, "  %7.3f", c->delta);
	p_value(fp, c->randomization_p);
	p_value(fp, c->bootstrap_p);
	p_value(fp, c->mcnemar_p);
	fputc('\n', fp);
}

/* --significance: every comparison, then the marks of each system. */
static void significance(FILE *fp, const struct tageval_report *r,
			 const struct report_sources *src, int width)
{
	const struct report_significance *sig = src->sig;
	size_t n = tageval_report_systems(r), ng = tageval_report_granularities(r);
	const char *stat = report_rank_name(src->rank_by);
	tools_fprintf(fp, "\n== significance on subset %s, by %s: each system against the best "
		      "(by %s)", tageval_report_subset(r, sig->subset)->name, stat, stat);
	if (sig->baseline != TAGEVAL_REPORT_NONE)
		tools_fprintf(fp, " and against the baseline %s",
			      tageval_report_system_name(r, sig->baseline));
	tools_fprintf(fp, "\n");
	int awidth = 7; /* "against" */
	for (size_t k = 0; k < n; k++) {
		int w = tools_display_width(tageval_report_system_name(r, k)) + 9; /* "baseline " */
		awidth = w > awidth ? w : awidth;
	}
	tools_fprintf(fp, "  %-11s  ", "granularity");
	tools_pad(fp, "system", width);
	fputs("  ", fp);
	tools_pad(fp, "against", awidth);
	tools_fprintf(fp, "  %7s  %9s  %9s  %9s\n", "delta", "p random", "p boot", "McNemar");
	for (size_t g = 0; g < ng; g++) {
		const char *gname = report_granularity_name(tageval_report_granularity(r, g));
		for (size_t k = 0; k < n; k++) {
			if (sig->best[g] != TAGEVAL_REPORT_NONE && k != sig->best[g])
				versus_line(fp, r, gname, k, "best", sig->best[g],
					    &sig->vs_best[g * n + k], width, awidth);
			if (sig->baseline != TAGEVAL_REPORT_NONE && k != sig->baseline)
				versus_line(fp, r, gname, k, "baseline", sig->baseline,
					    &sig->vs_base[g * n + k], width, awidth);
		}
	}
	tools_fprintf(fp, "  delta: the %s of the best (or baseline) minus the system's; p random: "
		      "approximate randomization, p boot: paired bootstrap, %zu samples, seed %lu; "
		      "McNemar: exact, where every answer of both earns 0 or 1\n", stat,
		      sig->samples, sig->seed);
	if (sig->samples == 0) {
		tools_fprintf(fp, "  no marks (--samples=0)\n");
		return;
	}
	for (size_t g = 0; g < ng; g++) {
		tools_fprintf(fp, "  marks, %s:", report_granularity_name(tageval_report_granularity(r, g)));
		int any = 0;
		for (size_t k = 0; k < n; k++) {
			char m[3];
			if (report_marks(sig, r, g, k, m)[0] == '\0')
				continue;
			tools_fprintf(fp, "%s %s %s", any ? "," : "", tageval_report_system_name(r, k), m);
			any = 1;
		}
		tools_fprintf(fp, "%s\n", any ? "" : " none");
	}
	tools_fprintf(fp, "  *: p random >= %g against the best, not significantly below it", sig->alpha);
	if (sig->baseline != TAGEVAL_REPORT_NONE)
		tools_fprintf(fp, "; ~: p random >= %g against the baseline or %s not above it, not "
			      "significantly above it", sig->alpha, stat);
	fputc('\n', fp);
}

void report_print_text(FILE *fp, const struct tageval_report *r,
		       const struct report_sources *src)
{
	size_t n = tageval_report_systems(r);
	int width = 7; /* "average", "minimal" */
	for (size_t k = 0; k < n; k++) {
		int len = tools_display_width(tageval_report_system_name(r, k));
		if (len > width)
			width = len;
	}
	tools_fprintf(fp, "Key \"%s\"", src->key);
	if (src->map)
		tools_fprintf(fp, ", sense map \"%s\"", src->map);
	if (src->train)
		tools_fprintf(fp, ", training key \"%s\"", src->train);
	double mp, me;
	tageval_report_medians(r, &mp, &me);
	tools_fprintf(fp, ".\nMedian polysemy %g, median fine entropy %.3f bits (low-: below the median,"
		" high-: at or above).\n", mp, me);
	tools_fprintf(fp, "prec = precision, recall, F1 = 2 prec recall / (prec + recall), "
		"attempted = items answered (fractional); minimal = single-tag items only; best "
		"and worst by %s.\n", report_rank_name(src->rank_by));
	for (size_t s = 0; s < tageval_report_subsets(r); s++) {
		subset_heading(fp, r, s);
		table(fp, r, s, 0, width, src->rank_by);
		fputc('\n', fp);
		table(fp, r, s, 1, width, src->rank_by);
	}
	if (src->sig)
		significance(fp, r, src, width);
}
