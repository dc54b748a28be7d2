/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The shared body of vmeasure and fscore: read the clusters and the gold
 * key, evaluate every selected word, print a table or JSON.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wsi-common.h"
#include "tools-common.h"

struct column {
	const char *head;
	size_t offset; /* of a double in struct tageval_wsi_figures */
};

#define COL(h, field) { h, offsetof(struct tageval_wsi_figures, field) }

static const struct column vm_cols[] = {
	COL("V-measure", v_measure),
	COL("homogeneity", homogeneity),
	COL("completeness", completeness),
};
static const struct column f07_cols[] = {
	COL("F-score", fscore),
	COL("purity", purity),
	COL("entropy", entropy),
};
static const struct column paired_cols[] = {
	COL("paired F-score", paired_fscore),
	COL("paired precision", paired_precision),
	COL("paired recall", paired_recall),
};

static double get(const struct tageval_wsi_figures *f, size_t offset)
{
	double v;
	memcpy(&v, (const char *)f + offset, sizeof v);
	return v;
}

static void usage(const struct wsi_tool *tool, FILE *fp)
{
	tools_fprintf(fp, "Usage: %s [OPTIONS] CLUSTERS GOLD\n%s\n"
		"Files: 'word instance label[/weight] ...' lines, in any order; the\n"
		"system's clusters first, the gold key second (as the SemEval-2010 jars).\n"
		"\n"
		"      --pos=POS             only the words whose name ends in '.POS' (n, v, ...);\n"
		"                            all (default) for every word\n"
		"      --per-word            one table row per target word\n"
		"      --digits=N            decimals in the text output (default 3)\n"
		"      --format=FORMAT       text (default) or json\n"
		"%s"
		"  -h, --help                show this help and exit\n"
		"  -V, --version             show the version and exit\n"
		"\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 usage error.\n"
		"See %s(1) and tageval-formats(5).\n",
		tool->name, tool->summary, tool->options_help, tool->name);
}

static void json_figures(const struct tageval_wsi_figures *f)
{
	/* JSON has no NaN or infinity: such a figure is null */
	const struct {
		const char *name;
		double v;
	} fig[] = { { "clusters", f->clusters },
		    { "clusters_2007", f->clusters_2007 },
		    { "classes", f->classes },
		    { "v_measure", f->v_measure },
		    { "homogeneity", f->homogeneity },
		    { "completeness", f->completeness },
		    { "fscore", f->fscore },
		    { "purity", f->purity },
		    { "entropy", f->entropy },
		    { "paired_precision", f->paired_precision },
		    { "paired_recall", f->paired_recall },
		    { "paired_fscore", f->paired_fscore } };
	tools_printf("{\"instances\":%zu", f->instances);
	for (size_t i = 0; i < sizeof fig / sizeof fig[0]; i++) {
		tools_printf(",\"%s\":", fig[i].name);
		tools_json_number(stdout, fig[i].v);
	}
	putchar('}');
}

static void print_json(const struct tageval_wsi_result *r, const char *pos, int per_word,
		       size_t ignored)
{
	tools_printf("{\"pos\":");
	tools_json_string(stdout, pos ? pos : "all");
	tools_printf(",\"words\":%zu,\"ignored_lines\":%zu,\"total\":", tageval_wsi_result_words(r),
	       ignored);
	json_figures(tageval_wsi_result_total(r));
	tools_printf(",\"per_word\":");
	if (per_word) {
		tools_printf("{");
		for (size_t i = 0; i < tageval_wsi_result_words(r); i++) {
			if (i)
				putchar(',');
			tools_json_string(stdout, tageval_wsi_result_word(r, i));
			putchar(':');
			json_figures(tageval_wsi_result_figures(r, i));
		}
		tools_printf("}");
	} else {
		tools_printf("null");
	}
	tools_printf("}\n");
}

static void print_row(const char *name, int wname, const struct tageval_wsi_figures *f,
		      double clusters, const struct column *cols, int digits, int total)
{
	tools_printf("%-*s %9zu ", wname, name, f->instances);
	if (total)
		tools_printf("%8.2f %7.2f", clusters, f->classes);
	else
		tools_printf("%8.0f %7.0f", clusters, f->classes);
	for (size_t i = 0; i < 3; i++) {
		int w = (int)strlen(cols[i].head);
		if (w < digits + 2)
			w = digits + 2;
		tools_printf("  %*.*f", w, digits, get(f, cols[i].offset));
	}
	tools_printf("\n");
}

static void print_text(const struct wsi_tool *tool, const struct tageval_wsi_result *r,
		       int per_word, int paired, int digits)
{
	const struct column *cols = tool->kind == WSI_VMEASURE ? vm_cols
				   : paired ? paired_cols : f07_cols;
	/* the 2007 F-score reads ties as clusters of their own */
	int use2007 = tool->kind == WSI_FSCORE && !paired;
	int wname = 5;
	size_t nw = tageval_wsi_result_words(r);
	for (size_t i = 0; per_word && i < nw; i++) {
		int len = (int)strlen(tageval_wsi_result_word(r, i));
		if (len > wname)
			wname = len;
	}
	tools_printf("%-*s %9s %8s %7s", wname, "word", "instances", "clusters", "senses");
	for (size_t i = 0; i < 3; i++) {
		int w = (int)strlen(cols[i].head);
		if (w < digits + 2)
			w = digits + 2;
		tools_printf("  %*s", w, cols[i].head);
	}
	tools_printf("\n");
	for (size_t i = 0; per_word && i < nw; i++) {
		const struct tageval_wsi_figures *f = tageval_wsi_result_figures(r, i);
		print_row(tageval_wsi_result_word(r, i), wname, f,
			  use2007 ? f->clusters_2007 : f->clusters, cols, digits, 0);
	}
	const struct tageval_wsi_figures *t = tageval_wsi_result_total(r);
	print_row("total", wname, t, use2007 ? t->clusters_2007 : t->clusters, cols, digits, 1);
	tools_printf("\n");
	for (size_t i = 0; i < 3; i++)
		tools_printf("%s: %.*f\n", cols[i].head, digits, get(t, cols[i].offset));
}

/* One counted note when lines with several labels were read as one: the
 * SemEval-2010 rule (every line's first label, weights cut off) or, for the
 * SemEval-2007 F-score, the gold line's first label and the system's
 * label(s) of largest weight. */
static void reduction_note(const char *prog, int rule2007, const struct tageval_wsi *wsi,
			   const char *clusters, const char *gold)
{
	struct tageval_wsi_counts c;
	tageval_wsi_counts(wsi, &c);
	if (c.gold_multi + c.system_multi == 0)
		return;
	fprintf(stderr, "%s: note: ", prog);
	if (c.gold_multi)
		fprintf(stderr, "%zu line%s of %s", c.gold_multi, c.gold_multi == 1 ? "" : "s",
			tools_file_name(gold));
	if (c.gold_multi && c.system_multi)
		fprintf(stderr, " and ");
	if (c.system_multi)
		fprintf(stderr, "%zu line%s of %s", c.system_multi,
			c.system_multi == 1 ? "" : "s", tools_file_name(clusters));
	fprintf(stderr, " ha%s several labels; read as %s\n",
		c.gold_multi + c.system_multi == 1 ? "s" : "ve",
		rule2007 ? "one (the gold's first label, the system's label(s) of largest weight:"
			   " the SemEval-2007 rule)"
			 : "their first label, weights ignored (the SemEval-2010 rule)");
}

enum { OPT_POS = 256, OPT_PER_WORD, OPT_DIGITS, OPT_FORMAT, OPT_PAIRED, OPT_BETA };

int wsi_tool_main(const struct wsi_tool *tool, int argc, char **argv)
{
	const struct option longopts[] = {
		{ "pos", required_argument, NULL, OPT_POS },
		{ "per-word", no_argument, NULL, OPT_PER_WORD },
		{ "digits", required_argument, NULL, OPT_DIGITS },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ tool->kind == WSI_FSCORE ? "paired" : "beta",
		  tool->kind == WSI_FSCORE ? no_argument : required_argument, NULL,
		  tool->kind == WSI_FSCORE ? OPT_PAIRED : OPT_BETA },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *prog = tool->name;
	struct tageval_wsi_options o;
	tageval_wsi_options_init(&o);
	int per_word = 0, json = 0, paired = 0, digits = 3, c;
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
		case OPT_PAIRED:
			paired = 1;
			break;
		case OPT_BETA:
			errno = 0;
			o.beta = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(o.beta >= 0.0) || !isfinite(o.beta)) {
				tools_usage_error(prog, "invalid beta \"%s\" (a number >= 0)", optarg);
				return EXIT_INVALID_USAGE;
			}
			break;
		case 'h':
			usage(tool, stdout);
			return tools_close_stdout(prog) ? EXIT_DATA : EXIT_SUCCESS;
		case 'V':
			return tools_version(prog);
		default:
			return tools_option_error(prog, c, argv);
		}
	}
	if (argc - optind != 2) {
		tools_usage_error(prog, argc - optind < 2 ? "missing operand: CLUSTERS and GOLD "
							     "are required"
							   : "too many operands");
		return EXIT_INVALID_USAGE;
	}
	const char *clusters = argv[optind], *gold = argv[optind + 1];
	const char *const files[] = { clusters, gold };
	if (tools_check_stdin(prog, files, 2))
		return EXIT_INVALID_USAGE;
	int status = EXIT_DATA;
	struct tageval_error err = { 0 };
	struct tageval_wsi *wsi = tageval_wsi_new();
	struct tageval_wsi_result *res = NULL;
	if (wsi == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	if (tageval_wsi_read_gold(wsi, gold, &err) ||
	    tageval_wsi_read_clusters(wsi, clusters, &err) ||
	    tageval_wsi_evaluate(wsi, &o, &res, &err)) {
		tools_print_error(prog, &err);
		goto out;
	}
	size_t ignored = tageval_wsi_ignored(wsi);
	if (ignored + tageval_wsi_answered(wsi) == 0)
		fprintf(stderr, "%s: note: %s: no answer lines (the system attempted nothing)\n",
			prog, tools_file_name(clusters));
	if (ignored)
		fprintf(stderr, "%s: note: %zu line%s of %s name%s no instance of %s; ignored\n",
			prog, ignored, ignored == 1 ? "" : "s", tools_file_name(clusters),
			ignored == 1 ? "s" : "", tools_file_name(gold));
	reduction_note(prog, tool->kind == WSI_FSCORE && !paired, wsi, clusters, gold);
	if (json)
		print_json(res, o.pos, per_word, ignored);
	else
		print_text(tool, res, per_word, paired, digits);
	status = tools_close_stdout(prog) ? EXIT_DATA : EXIT_SUCCESS;
out:
	tageval_wsi_result_free(res);
	tageval_wsi_free(wsi);
	return status;
}
