/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The shared body of bcubed, nmi and ari: read the clusters and the gold
 * key, evaluate every selected word, print a table or JSON.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clustering-common.h"
#include "tageval.h"
#include "tools-common.h"

struct column {
	const char *head; /* text */
	const char *json; /* member */
	size_t offset;    /* of a double in struct tageval_clustering_figures */
};

#define COL(h, field) { h, #field, offsetof(struct tageval_clustering_figures, field) }

static const struct column bcubed_cols[] = {
	COL("B-cubed F-score", bcubed_fscore),
	COL("precision", bcubed_precision),
	COL("recall", bcubed_recall),
};
static const struct column nmi_cols[] = {
	COL("NMI", nmi),
	COL("AMI", ami),
};
/* SemEval-2013's AVG, when both B-cubed and NMI are printed */
static const struct column avg_col = COL("AVG", avg);
static const struct column ari_cols[] = {
	COL("ARI", ari),
	COL("Rand", rand),
	COL("Fowlkes-Mallows", fowlkes_mallows),
};

/* The families of --metrics, in the order their columns are printed. */
static const struct family {
	const char *name;
	unsigned bit; /* TAGEVAL_CLUSTERING_* */
	const struct column *cols;
	size_t ncol;
} families[] = {
	{ "bcubed", TAGEVAL_CLUSTERING_BCUBED, bcubed_cols, 3 },
	{ "nmi", TAGEVAL_CLUSTERING_NMI, nmi_cols, 2 },
	{ "ari", TAGEVAL_CLUSTERING_PAIRS, ari_cols, 3 },
};

/* "all" or a comma-separated list of family names; 0 if invalid. */
static unsigned parse_metrics(const char *list)
{
	if (strcmp(list, "all") == 0)
		return TAGEVAL_CLUSTERING_BCUBED | TAGEVAL_CLUSTERING_NMI | TAGEVAL_CLUSTERING_PAIRS;
	unsigned bits = 0;
	const char *p = list;
	for (;;) {
		size_t len = strcspn(p, ",");
		size_t i = 0;
		while (i < 3 && !(strlen(families[i].name) == len &&
				  strncmp(p, families[i].name, len) == 0))
			i++;
		if (i == 3)
			return 0;
		bits |= families[i].bit;
		if (p[len] == '\0')
			return bits;
		p += len + 1;
	}
}

static const char *const normalizer_names[] = { "default", "arithmetic", "geometric", "min",
						"max" };

static double get(const struct tageval_clustering_figures *f, size_t offset)
{
	double v;
	memcpy(&v, (const char *)f + offset, sizeof v);
	return v;
}

struct options {
	const struct clustering_tool *tool;
	struct tageval_clustering_options clustering;
	int per_word, json, digits;
	const char *clusters, *gold;
};

static void usage(FILE *fp, const void *ctx)
{
	const struct clustering_tool *tool = ((const struct options *)ctx)->tool;
	tools_fprintf(fp, "Usage: %s [OPTIONS] CLUSTERS GOLD\n%s\n"
		"Files: 'word instance label[/weight] ...' lines, in any order; the\n"
		"system's clusters first, the gold key second.\n"
		"\n"
		"      --pos=POS             only the words whose name ends in '.POS' (n, v, ...);\n"
		"                            all (default) for every word\n"
		"      --per-word            one table row per target word\n"
		"      --digits=N            decimals in the text output (default 3)\n"
		"      --format=FORMAT       text (default) or json\n"
		"      --metrics=LIST        the figures to print, from one reading of the\n"
		"                            files: a comma-separated list of bcubed, nmi\n"
		"                            and ari, or all (default: %s)\n"
		"%s"
		"  -h, --help                show this help and exit\n"
		"  -V, --version             show the version and exit\n"
		"\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 usage error.\n"
		"See %s(1) and tageval-formats(5).\n",
		tool->name, tool->summary, tool->name,
		tool->kind == CLUSTERING_NMI
			? "      --normalizer=NAME     arithmetic, geometric, min or max: the mean of\n"
			  "                            the two entropies that divides the mutual\n"
			  "                            information (default: arithmetic when crisp,\n"
			  "                            max when fuzzy)\n"
			: "      --normalizer=NAME     with --metrics naming nmi: as in nmi(1)\n",
		tool->name);
}

/* Why a figure is undefined (NaN), in words: @undef_words of @nw words
 * when @f is the total (mean over words, undefined when some word's value
 * is), else 0. */
static void undefined_reason(char *buf, size_t size, const struct column *col, int fuzzy,
			     const char *norm, size_t undef_words, size_t nw)
{
	if (strcmp(col->json, "avg") == 0)
		snprintf(buf, size, "the geometric mean of the B-cubed F-score and NMI, one of "
				    "which is undefined");
	else if (fuzzy && strcmp(col->json, "ami") == 0)
		snprintf(buf, size, "no adjusted mutual information for graded memberships "
				    "(fuzzy mode)");
	else if (undef_words)
		snprintf(buf, size, "the mean over the words of a figure undefined for %zu "
				    "word%s of %zu",
			 undef_words, undef_words == 1 ? "" : "s", nw);
	else if (fuzzy && strcmp(col->json, "nmi") == 0)
		snprintf(buf, size, "the normalizer (%s) of the entropies of the gold senses and "
				    "of the clusters is 0",
			 norm);
	else if (!fuzzy && strcmp(col->json, "ami") == 0)
		snprintf(buf, size, "the normalizer (%s) equals the expected mutual information "
				    "and the two partitions differ",
			 norm);
	else
		snprintf(buf, size, "not computed");
}

/* One JSON object of figures; a null member is explained in the member
 * "undefined" (as hkappa does), which is there only when some member is null. */
static void json_figures(const struct tageval_clustering_figures *f, const struct column *cols,
			 size_t ncol, const char *extra, int fuzzy, const char *norm,
			 const size_t *undef_words, size_t nw)
{
	tools_printf("{\"instances\":%zu", f->instances);
	int nulls = 0;
	for (size_t i = 0; i < ncol; i++) {
		tools_printf(",\"%s\":", cols[i].json);
		double v = get(f, cols[i].offset);
		tools_json_number(stdout, v);
		nulls += !isfinite(v);
	}
	tools_printf("%s", extra ? extra : "");
	if (nulls) {
		tools_printf(",\"undefined\":{");
		int first = 1;
		for (size_t i = 0; i < ncol; i++) {
			if (isfinite(get(f, cols[i].offset)))
				continue;
			char why[200];
			undefined_reason(why, sizeof why, &cols[i], fuzzy, norm,
					 undef_words ? undef_words[i] : 0, nw);
			tools_printf("%s\"%s\":", first ? "" : ",", cols[i].json);
			tools_json_string(stdout, why);
			first = 0;
		}
		tools_printf("}");
	}
	tools_printf("}");
}

static void print_row(const char *name, int wname, const struct tageval_clustering_figures *f,
		      const struct column *cols, size_t ncol, int digits)
{
	tools_pad(stdout, name, wname);
	tools_printf(" %9zu", f->instances);
	for (size_t i = 0; i < ncol; i++) {
		int w = (int)strlen(cols[i].head);
		if (w < digits + 2)
			w = digits + 2;
		double v = get(f, cols[i].offset);
		if (isnan(v))
			tools_printf("  %*s", w, "-");
		else
			tools_printf("  %*.*f", w, digits, v);
	}
	tools_printf("\n");
}

/* What the output shows: the columns of --metrics and how the figures were made. */
struct view {
	struct column cols[9];
	size_t ncol;
	int fuzzy, with_nmi, pooled;
	const char *normalizer; /* its name, the default resolved */
	size_t nw;              /* words */
};

static void make_view(const struct options *o, const struct tageval_clustering_result *res,
		      struct view *v)
{
	unsigned metrics = o->clustering.metrics;
	v->ncol = 0;
	for (size_t i = 0; i < 3; i++) {
		for (size_t j = 0; (metrics & families[i].bit) && j < families[i].ncol; j++)
			v->cols[v->ncol++] = families[i].cols[j];
		if (families[i].bit == TAGEVAL_CLUSTERING_NMI &&
		    (metrics & TAGEVAL_CLUSTERING_BCUBED) && (metrics & TAGEVAL_CLUSTERING_NMI))
			v->cols[v->ncol++] = avg_col;
	}
	v->fuzzy = tageval_clustering_result_fuzzy(res);
	v->with_nmi = (metrics & TAGEVAL_CLUSTERING_NMI) != 0;
	v->pooled = !v->fuzzy && (metrics & (TAGEVAL_CLUSTERING_NMI | TAGEVAL_CLUSTERING_PAIRS));
	enum tageval_normalizer norm = o->clustering.normalizer;
	if (norm == TAGEVAL_NORMALIZER_DEFAULT)
		norm = v->fuzzy ? TAGEVAL_NORMALIZER_MAX : TAGEVAL_NORMALIZER_ARITHMETIC;
	v->normalizer = normalizer_names[norm];
	v->nw = tageval_clustering_result_words(res);
}

static void print_json(const struct options *o, const struct tageval_clustering_result *res,
		       const struct view *v, size_t ignored)
{
	char extra[160];
	snprintf(extra, sizeof extra, ",\"mode\":\"%s\",\"averaging\":\"%s\"%s%s%s",
		 v->fuzzy ? "fuzzy" : "crisp", v->fuzzy ? "word-mean" : "instance-weighted",
		 v->with_nmi ? ",\"normalizer\":\"" : "", v->with_nmi ? v->normalizer : "",
		 v->with_nmi ? "\"" : "");
	tools_printf("{\"pos\":");
	tools_json_string(stdout, o->clustering.pos ? o->clustering.pos : "all");
	tools_printf(",\"words\":%zu,\"ignored_lines\":%zu,\"total\":", v->nw, ignored);
	/* the words whose figure is undefined, for the reason of a total's */
	size_t undef_words[9] = { 0 };
	for (size_t i = 0; i < v->nw; i++)
		for (size_t j = 0; j < v->ncol; j++)
			undef_words[j] += !isfinite(
				get(tageval_clustering_result_figures(res, i), v->cols[j].offset));
	json_figures(tageval_clustering_result_total(res), v->cols, v->ncol, extra, v->fuzzy,
		     v->normalizer, undef_words, v->nw);
	if (v->pooled) {
		tools_printf(",\"pooled\":");
		json_figures(tageval_clustering_result_pooled(res), v->cols, v->ncol, NULL,
			     v->fuzzy, v->normalizer, NULL, v->nw);
	}
	tools_printf(",\"per_word\":{");
	for (size_t i = 0; i < v->nw; i++) {
		if (i)
			putchar(',');
		tools_json_string(stdout, tageval_clustering_result_word(res, i));
		putchar(':');
		json_figures(tageval_clustering_result_figures(res, i), v->cols, v->ncol, NULL,
			     v->fuzzy, v->normalizer, NULL, v->nw);
	}
	tools_printf("}}\n");
}

static void print_text(const struct options *o, const struct tageval_clustering_result *res,
		       const struct view *v)
{
	int wname = 6, digits = o->digits;
	for (size_t i = 0; o->per_word && i < v->nw; i++) {
		int len = tools_display_width(tageval_clustering_result_word(res, i));
		if (len > wname)
			wname = len;
	}
	tools_printf("%s\n", TOOLS_FRACTIONS_HEAD);
	tools_printf("%-*s %9s", wname, "word", "instances");
	for (size_t i = 0; i < v->ncol; i++) {
		int w = (int)strlen(v->cols[i].head);
		if (w < digits + 2)
			w = digits + 2;
		tools_printf("  %*s", w, v->cols[i].head);
	}
	tools_printf("\n");
	for (size_t i = 0; o->per_word && i < v->nw; i++)
		print_row(tageval_clustering_result_word(res, i), wname,
			  tageval_clustering_result_figures(res, i), v->cols, v->ncol, digits);
	const struct tageval_clustering_figures *t = tageval_clustering_result_total(res);
	print_row("total", wname, t, v->cols, v->ncol, digits);
	if (v->pooled)
		print_row("pooled", wname, tageval_clustering_result_pooled(res), v->cols, v->ncol,
			  digits);
	tools_printf("\n%s (%s), total: %s%s%s\n", v->fuzzy ? "fuzzy" : "crisp",
		     v->fuzzy ? "SemEval-2013 Task 13, graded memberships"
			      : "one label per line, the one of largest weight",
		     v->fuzzy ? "mean over words" : "instance-weighted mean over words",
		     v->with_nmi ? ", normalizer " : "", v->with_nmi ? v->normalizer : "");
	for (size_t i = 0; i < v->ncol; i++) {
		double x = get(t, v->cols[i].offset);
		if (isnan(x))
			tools_printf("%s: undefined\n", v->cols[i].head);
		else
			tools_printf("%s: %.*f\n", v->cols[i].head, digits, x);
	}
}

/* The notes about lines read otherwise than as one label of a gold
 * instance; returns the number of ignored lines. */
static size_t print_notes(const struct options *o, const struct tageval_wsi *wsi,
			  const struct tageval_clustering_result *res, int fuzzy)
{
	const char *prog = o->tool->name;
	const char *clusters = tools_file_name(o->clusters), *gold = tools_file_name(o->gold);
	struct tageval_wsi_counts counts;
	tageval_wsi_counts(wsi, &counts);
	/* in the fuzzy metrics the extra instances take part */
	size_t ignored = tageval_wsi_ignored(wsi) - (fuzzy ? counts.extra : 0);
	if (tageval_wsi_ignored(wsi) + tageval_wsi_answered(wsi) == 0)
		tools_note_no_answers(prog, o->clusters);
	tools_note_ignored(prog, ignored, o->clusters, o->gold);
	if (fuzzy && counts.extra)
		fprintf(stderr, "%s: note: %zu line%s of %s name%s instance%s of a gold word that "
				"%s lacks; counted as in the SemEval-2013 scorers\n",
			prog, counts.extra, counts.extra == 1 ? "" : "s", clusters,
			counts.extra == 1 ? "s an" : "", counts.extra == 1 ? "" : "s", gold);
	size_t repeated = tageval_clustering_result_repeated(res);
	if (repeated)
		fprintf(stderr, "%s: note: %zu line%s give%s a label twice; read as the SemEval-2013 "
				"scorers do (the label once, every membership of the line 1)\n",
			prog, repeated, repeated == 1 ? "" : "s", repeated == 1 ? "s" : "");
	if (!fuzzy && counts.gold_multi + counts.system_multi) {
		fprintf(stderr, "%s: note: ", prog);
		if (counts.gold_multi)
			fprintf(stderr, "%zu line%s of %s", counts.gold_multi,
				counts.gold_multi == 1 ? "" : "s", gold);
		if (counts.gold_multi && counts.system_multi)
			fprintf(stderr, " and ");
		if (counts.system_multi)
			fprintf(stderr, "%zu line%s of %s", counts.system_multi,
				counts.system_multi == 1 ? "" : "s", clusters);
		fprintf(stderr, " ha%s several labels; read as the label of largest weight\n",
			counts.gold_multi + counts.system_multi == 1 ? "s" : "ve");
	}
	return ignored;
}

enum { OPT_POS = 256, OPT_PER_WORD, OPT_DIGITS, OPT_FORMAT, OPT_NORMALIZER, OPT_METRICS };

static int option(void *ctx, int c, char *arg)
{
	struct options *o = ctx;
	const char *prog = o->tool->name;
	switch (c) {
	case OPT_POS:
		return tools_parse_pos(prog, arg, &o->clustering.pos);
	case OPT_PER_WORD:
		o->per_word = 1;
		return 0;
	case OPT_DIGITS:
		return tools_parse_digits(prog, arg, &o->digits);
	case OPT_FORMAT:
		return tools_parse_format(prog, arg, &o->json);
	case OPT_METRICS:
		if ((o->clustering.metrics = parse_metrics(arg)) == 0) {
			tools_usage_error(prog, "invalid metrics \"%s\" (a comma-separated list of "
						"bcubed, nmi and ari, or all)",
					  arg);
			return -1;
		}
		return 0;
	default: { /* OPT_NORMALIZER */
		size_t i = 1;
		while (i < 5 && strcmp(arg, normalizer_names[i]) != 0)
			i++;
		if (i == 5) {
			tools_usage_error(prog, "invalid normalizer \"%s\" (arithmetic, geometric, "
						"min or max)",
					  arg);
			return -1;
		}
		o->clustering.normalizer = (enum tageval_normalizer)i;
		return 0;
	}
	}
}

/* Parses the command line; returns -1 to go on, or the exit status. */
static int parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "pos", required_argument, NULL, OPT_POS },
		{ "per-word", no_argument, NULL, OPT_PER_WORD },
		{ "digits", required_argument, NULL, OPT_DIGITS },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "normalizer", required_argument, NULL, OPT_NORMALIZER },
		TOOLS_OPTIONS_HELP_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	const char *prog = o->tool->name;
	const struct tools_cli cli = { prog, ":hV", longopts, option, usage, o };
	int status = tools_getopt(&cli, argc, argv);
	if (status >= 0)
		return status;
	enum clustering_kind kind = o->tool->kind;
	if (o->clustering.metrics == 0)
		o->clustering.metrics = kind == CLUSTERING_BCUBED ? TAGEVAL_CLUSTERING_BCUBED
				       : kind == CLUSTERING_NMI  ? TAGEVAL_CLUSTERING_NMI
								 : TAGEVAL_CLUSTERING_PAIRS;
	if (o->clustering.normalizer != TAGEVAL_NORMALIZER_DEFAULT &&
	    !(o->clustering.metrics & TAGEVAL_CLUSTERING_NMI)) {
		tools_usage_error(prog, "--normalizer applies to the nmi figures only "
					"(--metrics with nmi)");
		return EXIT_INVALID_USAGE;
	}
	if (tools_two_operands(prog, argc, argv, "missing operand: CLUSTERS and GOLD are required",
			       &o->clusters, &o->gold))
		return EXIT_INVALID_USAGE;
	return -1;
}

static int evaluate(const struct tageval_wsi *wsi, const void *ctx, void **res,
		    struct tageval_error *err)
{
	const struct options *o = ctx;
	struct tageval_clustering_result *r = NULL;
	int status = tageval_clustering_evaluate(wsi, &o->clustering, &r, err);
	*res = r;
	return status;
}

/* The notes, then the table or JSON; -1 when the pair-counting metrics are
 * asked of graded input. */
static int print(const struct tageval_wsi *wsi, const void *ctx, void *res)
{
	const struct options *o = ctx;
	const char *prog = o->tool->name;
	struct view v;
	make_view(o, res, &v);
	if (v.fuzzy && (o->clustering.metrics & TAGEVAL_CLUSTERING_PAIRS)) {
		fprintf(stderr, "%s: the input is graded (fuzzy) and ARI, Rand and "
				"Fowlkes-Mallows are crisp only: run ari for them\n",
			prog);
		return -1;
	}
	size_t ignored = print_notes(o, wsi, res, v.fuzzy);
	if (o->json)
		print_json(o, res, &v, ignored);
	else
		print_text(o, res, &v);
	return 0;
}

static void free_result(void *res)
{
	tageval_clustering_result_free(res);
}

int clustering_tool_main(const struct clustering_tool *tool, int argc, char **argv)
{
	struct options o = { .tool = tool, .digits = 3 };
	tageval_clustering_options_init(&o.clustering);
	if (tool->kind == CLUSTERING_ARI)
		o.clustering.mode = TAGEVAL_CLUSTERING_CRISP;
	int status = parse(argc, argv, &o);
	if (status >= 0)
		return status;
	const struct tools_wsi_run run = { tool->name, o.clusters, o.gold, evaluate, print,
					   free_result, &o };
	return tools_wsi_run(&run);
}
