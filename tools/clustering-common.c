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

static void usage(const struct clustering_tool *tool, FILE *fp)
{
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
	tools_printf("%-*s %9zu", wname, name, f->instances);
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

enum { OPT_POS = 256, OPT_PER_WORD, OPT_DIGITS, OPT_FORMAT, OPT_NORMALIZER, OPT_METRICS };

int clustering_tool_main(const struct clustering_tool *tool, int argc, char **argv)
{
	const struct option longopts[] = {
		{ "pos", required_argument, NULL, OPT_POS },
		{ "per-word", no_argument, NULL, OPT_PER_WORD },
		{ "digits", required_argument, NULL, OPT_DIGITS },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "normalizer", required_argument, NULL, OPT_NORMALIZER },
		{ NULL, 0, NULL, 0 },
	};
	const char *prog = tool->name;
	struct tageval_clustering_options o;
	tageval_clustering_options_init(&o);
	if (tool->kind == CLUSTERING_ARI)
		o.mode = TAGEVAL_CLUSTERING_CRISP;
	int per_word = 0, json = 0, digits = 3, c;
	char *end;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_POS:
			if (optarg[0] == '\0' || strpbrk(optarg, " \t.") != NULL) {
				tools_usage_error(prog, "invalid part of speech \"%s\"", optarg);
				return EXIT_INVALID_USAGE;
			}
			o.pos = optarg;
			break;
		case OPT_PER_WORD:
			per_word = 1;
			break;
		case OPT_DIGITS: {
			errno = 0;
			long d = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || d < 0 || d > 17) {
				tools_usage_error(prog, "invalid number of digits \"%s\" (0 to 17)",
						  optarg);
				return EXIT_INVALID_USAGE;
			}
			digits = (int)d;
			break;
		}
		case OPT_FORMAT:
			if (tools_parse_format(prog, optarg, &json))
				return EXIT_INVALID_USAGE;
			break;
		case OPT_METRICS:
			if ((o.metrics = parse_metrics(optarg)) == 0) {
				tools_usage_error(prog, "invalid metrics \"%s\" (a comma-separated "
							"list of bcubed, nmi and ari, or all)",
						  optarg);
				return EXIT_INVALID_USAGE;
			}
			break;
		case OPT_NORMALIZER: {
			size_t i = 1;
			while (i < 5 && strcmp(optarg, normalizer_names[i]) != 0)
				i++;
			if (i == 5) {
				tools_usage_error(prog, "invalid normalizer \"%s\" (arithmetic, "
							"geometric, min or max)",
						  optarg);
				return EXIT_INVALID_USAGE;
			}
			o.normalizer = (enum tageval_normalizer)i;
			break;
		}
		case 'h':
			usage(tool, stdout);
			return tools_close_stdout(prog) ? EXIT_DATA : EXIT_SUCCESS;
		case 'V':
			return tools_version(prog);
		default:
			return tools_option_error(prog, c, argv);
		}
	}
	unsigned own = tool->kind == CLUSTERING_BCUBED ? TAGEVAL_CLUSTERING_BCUBED
		       : tool->kind == CLUSTERING_NMI  ? TAGEVAL_CLUSTERING_NMI
						       : TAGEVAL_CLUSTERING_PAIRS;
	if (o.metrics == 0)
		o.metrics = own;
	int with_nmi = (o.metrics & TAGEVAL_CLUSTERING_NMI) != 0;
	if (o.normalizer != TAGEVAL_NORMALIZER_DEFAULT && !with_nmi) {
		tools_usage_error(prog, "--normalizer applies to the nmi figures only "
					"(--metrics with nmi)");
		return EXIT_INVALID_USAGE;
	}
	if (argc - optind != 2) {
		tools_usage_error(prog, argc - optind < 2 ? "missing operand: CLUSTERS and GOLD "
							     "are required"
							   : "too many operands");
		return EXIT_INVALID_USAGE;
	}
	const char *clusters = argv[optind], *gold = argv[optind + 1];
	if (strcmp(clusters, "-") == 0 && strcmp(gold, "-") == 0) {
		tools_usage_error(prog, "only one file can be read from standard input ('-')");
		return EXIT_INVALID_USAGE;
	}
	int status = EXIT_DATA;
	struct tageval_error err = { 0 };
	struct tageval_wsi *wsi = tageval_wsi_new();
	struct tageval_clustering_result *res = NULL;
	if (wsi == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	if (tageval_wsi_read_gold(wsi, gold, &err) ||
	    tageval_wsi_read_clusters(wsi, clusters, &err) ||
	    tageval_clustering_evaluate(wsi, &o, &res, &err)) {
		tools_print_error(prog, &err);
		goto out;
	}
	int fuzzy = tageval_clustering_result_fuzzy(res);
	if (fuzzy && (o.metrics & TAGEVAL_CLUSTERING_PAIRS)) {
		fprintf(stderr, "%s: the input is graded (fuzzy) and ARI, Rand and "
				"Fowlkes-Mallows are crisp only: run ari for them\n",
			prog);
		goto out;
	}
	struct tageval_wsi_counts counts;
	tageval_wsi_counts(wsi, &counts);
	/* in the fuzzy metrics the extra instances take part */
	size_t ignored = tageval_wsi_ignored(wsi) - (fuzzy ? counts.extra : 0);
	if (tageval_wsi_ignored(wsi) + tageval_wsi_answered(wsi) == 0)
		fprintf(stderr, "%s: note: %s: no answer lines (the system attempted nothing)\n",
			prog, tools_file_name(clusters));
	if (ignored)
		fprintf(stderr, "%s: note: %zu line%s of %s name%s no instance of %s; ignored\n",
			prog, ignored, ignored == 1 ? "" : "s", tools_file_name(clusters),
			ignored == 1 ? "s" : "", tools_file_name(gold));
	if (fuzzy && counts.extra)
		fprintf(stderr, "%s: note: %zu line%s of %s name%s instance%s of a gold word that "
				"%s lacks; counted as in the SemEval-2013 scorers\n",
			prog, counts.extra, counts.extra == 1 ? "" : "s", tools_file_name(clusters),
			counts.extra == 1 ? "s an" : "", counts.extra == 1 ? "" : "s",
			tools_file_name(gold));
	size_t repeated = tageval_clustering_result_repeated(res);
	if (repeated)
		fprintf(stderr, "%s: note: %zu line%s give%s a label twice; read as the SemEval-2013 "
				"scorers do (the label once, every membership of the line 1)\n",
			prog, repeated, repeated == 1 ? "" : "s", repeated == 1 ? "s" : "");
	if (!fuzzy && counts.gold_multi + counts.system_multi) {
		fprintf(stderr, "%s: note: ", prog);
		if (counts.gold_multi)
			fprintf(stderr, "%zu line%s of %s", counts.gold_multi,
				counts.gold_multi == 1 ? "" : "s", tools_file_name(gold));
		if (counts.gold_multi && counts.system_multi)
			fprintf(stderr, " and ");
		if (counts.system_multi)
			fprintf(stderr, "%zu line%s of %s", counts.system_multi,
				counts.system_multi == 1 ? "" : "s", tools_file_name(clusters));
		fprintf(stderr, " ha%s several labels; read as the label of largest weight\n",
			counts.gold_multi + counts.system_multi == 1 ? "s" : "ve");
	}
	struct column cols[9];
	size_t ncol = 0;
	for (size_t i = 0; i < 3; i++) {
		for (size_t j = 0; (o.metrics & families[i].bit) && j < families[i].ncol; j++)
			cols[ncol++] = families[i].cols[j];
		if (families[i].bit == TAGEVAL_CLUSTERING_NMI &&
		    (o.metrics & TAGEVAL_CLUSTERING_BCUBED) && (o.metrics & TAGEVAL_CLUSTERING_NMI))
			cols[ncol++] = avg_col;
	}
	int pooled = !fuzzy && (o.metrics & (TAGEVAL_CLUSTERING_NMI | TAGEVAL_CLUSTERING_PAIRS));
	const char *mode = fuzzy ? "fuzzy" : "crisp";
	const char *averaging = fuzzy ? "word-mean" : "instance-weighted";
	enum tageval_normalizer norm = o.normalizer;
	if (norm == TAGEVAL_NORMALIZER_DEFAULT)
		norm = fuzzy ? TAGEVAL_NORMALIZER_MAX : TAGEVAL_NORMALIZER_ARITHMETIC;
	size_t nw = tageval_clustering_result_words(res);
	if (json) {
		char extra[160];
		snprintf(extra, sizeof extra, ",\"mode\":\"%s\",\"averaging\":\"%s\"%s%s%s", mode,
			 averaging, with_nmi ? ",\"normalizer\":\"" : "",
			 with_nmi ? normalizer_names[norm] : "", with_nmi ? "\"" : "");
		tools_printf("{\"pos\":");
		tools_json_string(stdout, o.pos ? o.pos : "all");
		tools_printf(",\"words\":%zu,\"ignored_lines\":%zu,\"total\":", nw, ignored);
		/* the words whose figure is undefined, for the reason of a total's */
		size_t undef_words[9] = { 0 };
		for (size_t i = 0; i < nw; i++)
			for (size_t j = 0; j < ncol; j++)
				undef_words[j] += !isfinite(
					get(tageval_clustering_result_figures(res, i), cols[j].offset));
		json_figures(tageval_clustering_result_total(res), cols, ncol, extra, fuzzy,
			     normalizer_names[norm], undef_words, nw);
		if (pooled) {
			tools_printf(",\"pooled\":");
			json_figures(tageval_clustering_result_pooled(res), cols, ncol, NULL, fuzzy,
				     normalizer_names[norm], NULL, nw);
		}
		tools_printf(",\"per_word\":{");
		for (size_t i = 0; i < nw; i++) {
			if (i)
				putchar(',');
			tools_json_string(stdout, tageval_clustering_result_word(res, i));
			putchar(':');
			json_figures(tageval_clustering_result_figures(res, i), cols, ncol, NULL,
				     fuzzy, normalizer_names[norm], NULL, nw);
		}
		tools_printf("}}\n");
	} else {
		int wname = 6;
		for (size_t i = 0; per_word && i < nw; i++) {
			int len = (int)strlen(tageval_clustering_result_word(res, i));
			if (len > wname)
				wname = len;
		}
		tools_printf("%-*s %9s", wname, "word", "instances");
		for (size_t i = 0; i < ncol; i++) {
			int w = (int)strlen(cols[i].head);
			if (w < digits + 2)
				w = digits + 2;
			tools_printf("  %*s", w, cols[i].head);
		}
		tools_printf("\n");
		for (size_t i = 0; per_word && i < nw; i++)
			print_row(tageval_clustering_result_word(res, i), wname,
				  tageval_clustering_result_figures(res, i), cols, ncol, digits);
		const struct tageval_clustering_figures *t = tageval_clustering_result_total(res);
		print_row("total", wname, t, cols, ncol, digits);
		if (pooled)
			print_row("pooled", wname, tageval_clustering_result_pooled(res), cols, ncol,
				  digits);
		tools_printf("\n%s (%s), total: %s%s%s\n",
		       fuzzy ? "fuzzy" : "crisp",
		       fuzzy ? "SemEval-2013 Task 13, graded memberships"
			     : "one label per line, the one of largest weight",
		       fuzzy ? "mean over words" : "instance-weighted mean over words",
		       with_nmi ? ", normalizer " : "", with_nmi ? normalizer_names[norm] : "");
		for (size_t i = 0; i < ncol; i++) {
			double v = get(t, cols[i].offset);
			if (isnan(v))
				tools_printf("%s: undefined\n", cols[i].head);
			else
				tools_printf("%s: %.*f\n", cols[i].head, digits, v);
		}
	}
	status = tools_close_stdout(prog) ? EXIT_DATA : EXIT_SUCCESS;
out:
	tageval_clustering_result_free(res);
	tageval_wsi_free(wsi);
	return status;
}
