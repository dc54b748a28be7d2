/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wsd-report's machine-readable outputs: JSON and CSV, one row per figure line. */
#include <math.h>
#include <string.h>

#include "report-output.h"
#include "tools-common.h"

const char *report_granularity_name(enum tageval_granularity g)
{
	return g == TAGEVAL_MIXED ? "mixed" : g == TAGEVAL_COARSE ? "coarse" : "fine";
}

const char *report_rank_name(enum report_rank by)
{
	return by == REPORT_RANK_RECALL ? "recall" : by == REPORT_RANK_F1 ? "F1" : "precision";
}

enum tageval_statistic report_statistic(enum report_rank by)
{
	return by == REPORT_RANK_RECALL ? TAGEVAL_STATISTIC_RECALL
	       : by == REPORT_RANK_F1  ? TAGEVAL_STATISTIC_F1
				       : TAGEVAL_STATISTIC_PRECISION;
}

const char *report_marks(const struct report_significance *sig, const struct tageval_report *r,
			 size_t g, size_t k, char *buf)
{
	size_t n = tageval_report_systems(r), m = 0;
	if (sig != NULL && sig->samples > 0) {
		const struct tageval_wsd_comparison *b = &sig->vs_best[g * n + k];
		if (sig->best[g] != TAGEVAL_REPORT_NONE && k != sig->best[g] &&
		    !(b->randomization_p < sig->alpha))
			buf[m++] = '*';
		const struct tageval_wsd_comparison *c = &sig->vs_base[g * n + k];
		if (sig->baseline != TAGEVAL_REPORT_NONE && k != sig->baseline &&
		    !(c->delta < 0.0 && c->randomization_p < sig->alpha))
			buf[m++] = '~';
	}
	buf[m] = '\0';
	return buf;
}

double report_f1(double p, double r)
{
	if (isnan(p) || isnan(r))
		return NAN;
	return p + r > 0.0 ? 2.0 * p * r / (p + r) : 0.0;
}

/* The (primary, secondary) keys of a cell under @by. */
static void rank_keys(const struct tageval_report_cell *c, enum report_rank by, double key[2])
{
	switch (by) {
	case REPORT_RANK_RECALL:
		key[0] = c->recall, key[1] = c->precision;
		break;
	case REPORT_RANK_F1:
		key[0] = report_f1(c->precision, c->recall), key[1] = c->precision;
		break;
	default:
		key[0] = c->precision, key[1] = c->recall;
		break;
	}
}

/* 1 when @a ranks strictly above @b. */
static int above(const double a[2], const double b[2])
{
	return a[0] > b[0] || (a[0] == b[0] && a[1] > b[1]);
}

void report_best_worst(const struct tageval_report *r, size_t s, size_t g, int m,
		       enum report_rank by, size_t *best, size_t *worst)
{
	double bk[2] = { 0, 0 }, wk[2] = { 0, 0 };
	*best = *worst = TAGEVAL_REPORT_NONE;
	for (size_t k = 0; k < tageval_report_systems(r); k++) {
		if (tageval_report_system_is_baseline(r, k))
			continue;
		struct tageval_report_cell c;
		tageval_report_cell(r, s, k, g, m, &c);
		if (isnan(c.precision))
			continue;
		double key[2];
		rank_keys(&c, by, key);
		if (*best == TAGEVAL_REPORT_NONE || above(key, bk)) {
			*best = k;
			bk[0] = key[0], bk[1] = key[1];
		}
		if (*worst == TAGEVAL_REPORT_NONE || above(wk, key)) {
			*worst = k;
			wk[0] = key[0], wk[1] = key[1];
		}
	}
}

/* One output row. */
struct row {
	const struct tageval_report_subset *subset;
	const char *system;   /* NULL for the average */
	const char *kind;     /* system, baseline, average, best, worst */
	const char *granularity;
	int minimal;
	double precision, recall, f1, attempted, correct, items;
};

typedef void (*row_fn)(FILE *fp, const struct row *row, int first);

/* Every row in order: subset, minimal, granularity, then systems, baselines, summaries. */
static void each_row(FILE *fp, const struct tageval_report *r, enum report_rank by, row_fn fn)
{
	int first = 1;
	for (size_t s = 0; s < tageval_report_subsets(r); s++) {
		const struct tageval_report_subset *sub = tageval_report_subset(r, s);
		for (int m = 0; m <= 1; m++) {
			for (size_t g = 0; g < tageval_report_granularities(r); g++) {
				struct row row = {
					.subset = sub,
					.granularity = report_granularity_name(
						tageval_report_granularity(r, g)),
					.minimal = m,
				};
				struct tageval_report_cell c;
				for (int base = 0; base <= 1; base++)
					for (size_t k = 0; k < tageval_report_systems(r); k++) {
						if (tageval_report_system_is_baseline(r, k) != base)
							continue;
						tageval_report_cell(r, s, k, g, m, &c);
						row.system = tageval_report_system_name(r, k);
						row.kind = base ? "baseline" : "system";
						row.precision = c.precision;
						row.recall = c.recall;
						row.f1 = report_f1(c.precision, c.recall);
						row.attempted = c.attempted;
						row.correct = c.correct;
						row.items = c.total;
						fn(fp, &row, first);
						first = 0;
					}
				struct tageval_report_summary sum;
				tageval_report_summarize(r, s, g, m, &sum);
				if (sum.systems == 0)
					continue;
				row.items = c.total;
				row.system = NULL;
				row.kind = "average";
				row.precision = sum.precision;
				row.recall = sum.recall;
				/* the F1 of the mean precision and the mean recall */
				row.f1 = report_f1(sum.precision, sum.recall);
				row.attempted = sum.attempted;
				row.correct = NAN;
				fn(fp, &row, first);
				first = 0;
				size_t which[2];
				report_best_worst(r, s, g, m, by, &which[0], &which[1]);
				const char *const kinds[2] = { "best", "worst" };
				for (int w = 0; w < 2; w++) {
					if (which[w] == TAGEVAL_REPORT_NONE)
						continue;
					tageval_report_cell(r, s, which[w], g, m, &c);
					row.system = tageval_report_system_name(r, which[w]);
					row.kind = kinds[w];
					row.precision = c.precision;
					row.recall = c.recall;
					row.f1 = report_f1(c.precision, c.recall);
					row.attempted = c.attempted;
					row.correct = c.correct;
					fn(fp, &row, 0);
				}
			}
		}
	}
}

static void json_number(FILE *fp, double v)
{
	tools_json_number(fp, v);
}

static void json_row(FILE *fp, const struct row *row, int first)
{
	fputs(first ? "\n  {\"subset\":" : ",\n  {\"subset\":", fp);
	tools_json_string(fp, row->subset->name);
	fputs(",\"system\":", fp);
	if (row->system)
		tools_json_string(fp, row->system);
	else
		fputs("null", fp);
	tools_fprintf(fp, ",\"kind\":\"%s\",\"granularity\":\"%s\",\"minimal\":%s,", row->kind,
		row->granularity, row->minimal ? "true" : "false");
	int average = row->system == NULL;
	struct tools_undefined u;
	tools_undefined_init(&u);
	tools_json_figure(fp, &u, "precision", row->precision,
			  average ? "no system attempted anything in the subset"
				  : "nothing attempted in the subset (no answer scored there)");
	fputc(',', fp);
	tools_json_figure(fp, &u, "recall", row->recall,
			  row->minimal ? "no item of the subset is scored minimally (each has "
					 "several key tags)"
				       : "the subset has no item");
	fputc(',', fp);
	tools_json_figure(fp, &u, "f1", row->f1,
			  "precision or recall is undefined (see undefined)");
	fputc(',', fp);
	/* sums of finite masses and scores; an average row has no count */
	fputs("\"attempted\":", fp);
	json_number(fp, row->attempted);
	fputs(",\"correct\":", fp);
	json_number(fp, row->correct);
	if (average)
		tools_undefined_add(&u, "correct", "an average gives no count of correct answers");
	fputs(",\"items\":", fp);
	json_number(fp, row->items);
	fputs(",\"entropy\":{\"fine\":", fp);
	json_number(fp, row->subset->fine_entropy);
	fputs(",\"coarse\":", fp);
	json_number(fp, row->subset->coarse_entropy);
	fputc('}', fp);
	tools_json_undefined(fp, &u);
	fputc('}', fp);
}

static const char *const kind_names[] = {
	[TAGEVAL_SUBSET_ALL] = "all",
	[TAGEVAL_SUBSET_POS] = "part-of-speech",
	[TAGEVAL_SUBSET_TRAINABLE] = "trainable",
	[TAGEVAL_SUBSET_UNTRAINABLE] = "untrainable",
	[TAGEVAL_SUBSET_LOW_POLYSEMY] = "low-polysemy",
	[TAGEVAL_SUBSET_HIGH_POLYSEMY] = "high-polysemy",
	[TAGEVAL_SUBSET_LOW_ENTROPY] = "low-entropy",
	[TAGEVAL_SUBSET_HIGH_ENTROPY] = "high-entropy",
	[TAGEVAL_SUBSET_USER] = "user",
	[TAGEVAL_SUBSET_LEXELT] = "lexelt",
};

static void json_file(FILE *fp, const char *field, const char *name)
{
	tools_fprintf(fp, "\"%s\":", field);
	if (name)
		tools_json_string(fp, name);
	else
		fputs("null", fp);
}

/* "vs_best" or "vs_baseline": @c, a system against the reference. */
static void json_versus(FILE *fp, const char *member, const char *ref_only,
			const struct tageval_wsd_comparison *c)
{
	struct tools_undefined u;
	tools_undefined_init(&u);
	tools_fprintf(fp, ",\"%s\":{\"delta\":", member);
	json_number(fp, c->delta);
	const char *none = "no samples (--samples=0)";
	fputc(',', fp);
	tools_json_figure(fp, &u, "bootstrap_p", c->bootstrap_p, none);
	fputc(',', fp);
	tools_json_figure(fp, &u, "randomization_p", c->randomization_p, none);
	fputc(',', fp);
	tools_json_figure(fp, &u, "mcnemar_p", c->mcnemar_p,
			  "an answer of one of the two earns a credit other than 0 or 1");
	tools_fprintf(fp, ",\"%s\":%zu,\"other_only\":%zu", ref_only, c->ref_only,
		      c->other_only);
	tools_json_undefined(fp, &u);
	fputc('}', fp);
}

static void json_significance(FILE *fp, const struct tageval_report *r,
			      const struct report_sources *src)
{
	const struct report_significance *sig = src->sig;
	size_t n = tageval_report_systems(r);
	fputs(",\n \"significance\":{\"subset\":", fp);
	tools_json_string(fp, tageval_report_subset(r, sig->subset)->name);
	tools_fprintf(fp, ",\"statistic\":\"%s\",\"samples\":%zu,\"seed\":%lu,\"alpha\":",
		      src->rank_by == REPORT_RANK_F1 ? "f1" : report_rank_name(src->rank_by),
		      sig->samples, sig->seed);
	json_number(fp, sig->alpha);
	fputs(",\"baseline\":", fp);
	if (sig->baseline != TAGEVAL_REPORT_NONE)
		tools_json_string(fp, tageval_report_system_name(r, sig->baseline));
	else
		fputs("null", fp);
	fputs(",\"granularities\":[", fp);
	for (size_t g = 0; g < tageval_report_granularities(r); g++) {
		tools_fprintf(fp, "%s\n  {\"granularity\":\"%s\",\"best\":", g ? "," : "",
			      report_granularity_name(tageval_report_granularity(r, g)));
		if (sig->best[g] != TAGEVAL_REPORT_NONE)
			tools_json_string(fp, tageval_report_system_name(r, sig->best[g]));
		else
			fputs("null", fp);
		fputs(",\"systems\":[", fp);
		for (size_t k = 0; k < n; k++) {
			fputs(k ? "," : "", fp);
			fputs("{\"name\":", fp);
			tools_json_string(fp, tageval_report_system_name(r, k));
			if (sig->best[g] != TAGEVAL_REPORT_NONE && k != sig->best[g])
				json_versus(fp, "vs_best", "best_only", &sig->vs_best[g * n + k]);
			if (sig->baseline != TAGEVAL_REPORT_NONE && k != sig->baseline)
				json_versus(fp, "vs_baseline", "baseline_only",
					    &sig->vs_base[g * n + k]);
			fputc('}', fp);
		}
		fputs("]}", fp);
	}
	fputs("]}", fp);
}

void report_print_json(FILE *fp, const struct tageval_report *r,
		       const struct report_sources *src)
{
	fputc('{', fp);
	json_file(fp, "key", src->key);
	fputc(',', fp);
	json_file(fp, "senses", src->map);
	fputc(',', fp);
	json_file(fp, "train", src->train);
	fputs(",\"granularities\":[", fp);
	for (size_t g = 0; g < tageval_report_granularities(r); g++)
		tools_fprintf(fp, "%s\"%s\"", g ? "," : "",
			report_granularity_name(tageval_report_granularity(r, g)));
	double mp, me;
	tageval_report_medians(r, &mp, &me);
	fputs("],\"median_polysemy\":", fp);
	json_number(fp, mp);
	fputs(",\"median_entropy\":", fp);
	json_number(fp, me);
	tools_fprintf(fp, ",\"rank_by\":\"%s\"", src->rank_by == REPORT_RANK_F1 ? "f1"
		: report_rank_name(src->rank_by));
	fputs(",\n \"systems\":[", fp);
	for (size_t k = 0; k < tageval_report_systems(r); k++) {
		fputs(k ? "," : "", fp);
		fputs("{\"name\":", fp);
		tools_json_string(fp, tageval_report_system_name(r, k));
		tools_fprintf(fp, ",\"baseline\":%s}",
			tageval_report_system_is_baseline(r, k) ? "true" : "false");
	}
	fputs("],\n \"lexelts\":[", fp);
	for (size_t l = 0; l < tageval_report_lexelts(r); l++) {
		const struct tageval_report_lexelt *lx = tageval_report_lexelt(r, l);
		fputs(l ? ",\n  {\"name\":" : "\n  {\"name\":", fp);
		tools_json_string(fp, lx->name);
		tools_fprintf(fp, ",\"items\":%zu,\"train_items\":%zu,\"polysemy\":%zu,\"entropy\":"
			"{\"fine\":", lx->items, lx->train_items, lx->polysemy);
		json_number(fp, lx->fine_entropy);
		fputs(",\"coarse\":", fp);
		json_number(fp, lx->coarse_entropy);
		fputs("}}", fp);
	}
	fputs("],\n \"subsets\":[", fp);
	for (size_t s = 0; s < tageval_report_subsets(r); s++) {
		const struct tageval_report_subset *sub = tageval_report_subset(r, s);
		fputs(s ? ",\n  {\"name\":" : "\n  {\"name\":", fp);
		tools_json_string(fp, sub->name);
		tools_fprintf(fp, ",\"kind\":\"%s\",\"items\":%zu,\"lexelts\":%zu,\"entropy\":{\"fine\":",
			kind_names[sub->kind], sub->items, sub->lexelts);
		json_number(fp, sub->fine_entropy);
		fputs(",\"coarse\":", fp);
		json_number(fp, sub->coarse_entropy);
		fputs("}}", fp);
	}
	fputs("],\n \"rows\":[", fp);
	each_row(fp, r, src->rank_by, json_row);
	fputs("]", fp);
	if (src->sig)
		json_significance(fp, r, src);
	fputs("}\n", fp);
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void csv_string(FILE *fp, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

static void csv_number(FILE *fp, double v)
{
	char buf[32];
	if (!isnan(v)) {
		tools_format_shortest(buf, sizeof buf, v);
		fputs(buf, fp);
	}
}

static void csv_row(FILE *fp, const struct row *row, int first)
{
	csv_string(fp, row->subset->name);
	fputc(',', fp);
	csv_string(fp, row->system ? row->system : "");
	tools_fprintf(fp, ",%s,%s,%s,", row->kind, row->granularity,
		row->minimal ? "true" : "false");
	const double v[] = { row->precision, row->recall, row->f1, row->attempted, row->correct,
			     row->items, row->subset->fine_entropy,
			     row->subset->coarse_entropy };
	for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
		if (k)
			fputc(',', fp);
		csv_number(fp, v[k]);
	}
	fputc('\n', fp);
}

void report_print_csv(FILE *fp, const struct tageval_report *r,
		      const struct report_sources *src)
{
	fputs("subset,system,kind,granularity,minimal,precision,recall,f1,attempted,correct,"
	      "items,fine_entropy,coarse_entropy\n", fp);
	each_row(fp, r, src->rank_by, csv_row);
}
