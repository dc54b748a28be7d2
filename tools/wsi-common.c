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

struct options {
	const struct wsi_tool *tool;
	struct tageval_wsi_options wsi;
	int per_word, json, paired, digits;
	const char *clusters, *gold;
};

static void usage(FILE *fp, const void *ctx)
{
	const struct wsi_tool *tool = ((const struct options *)ctx)->tool;
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
	tools_pad(stdout, name, wname);
	tools_printf(" %9zu ", f->instances);
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
		int len = tools_display_width(tageval_wsi_result_word(r, i));
		if (len > wname)
			wname = len;
	}
	tools_printf("%s\n", TOOLS_FRACTIONS_HEAD);
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

static int option(void *ctx, int c, char *arg)
{
	struct options *o = ctx;
	const char *prog = o->tool->name;
	char *end;
	switch (c) {
	case OPT_POS:
		return tools_parse_pos(prog, arg, &o->wsi.pos);
	case OPT_PER_WORD:
		o->per_word = 1;
		return 0;
	case OPT_DIGITS:
		return tools_parse_digits(prog, arg, &o->digits);
	case OPT_FORMAT:
		return tools_parse_format(prog, arg, &o->json);
	case OPT_PAIRED:
		o->paired = 1;
		return 0;
	default: /* OPT_BETA */
		errno = 0;
		o->wsi.beta = strtod(arg, &end);
		if (errno || *end || end == arg || !(o->wsi.beta >= 0.0) || !isfinite(o->wsi.beta)) {
			tools_usage_error(prog, "invalid beta \"%s\" (a number >= 0)", arg);
			return -1;
		}
		return 0;
	}
}

/* Parses the command line; returns -1 to go on, or the exit status. */
static int parse(int argc, char **argv, struct options *o)
{
	int fscore = o->tool->kind == WSI_FSCORE;
	const struct option longopts[] = {
		{ "pos", required_argument, NULL, OPT_POS },
		{ "per-word", no_argument, NULL, OPT_PER_WORD },
		{ "digits", required_argument, NULL, OPT_DIGITS },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ fscore ? "paired" : "beta", fscore ? no_argument : required_argument, NULL,
		  fscore ? OPT_PAIRED : OPT_BETA },
		TOOLS_OPTIONS_HELP_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	const char *prog = o->tool->name;
	const struct tools_cli cli = { prog, ":hV", longopts, option, usage, o };
	int status = tools_getopt(&cli, argc, argv);
	if (status >= 0)
		return status;
	if (tools_two_operands(prog, argc, argv, "missing operand: CLUSTERS and GOLD are required",
			       &o->clusters, &o->gold))
		return EXIT_INVALID_USAGE;
	return -1;
}

static int evaluate(const struct tageval_wsi *wsi, const void *ctx, void **res,
		    struct tageval_error *err)
{
	const struct options *o = ctx;
	struct tageval_wsi_result *r = NULL;
	int status = tageval_wsi_evaluate(wsi, &o->wsi, &r, err);
	*res = r;
	return status;
}

/* The notes, then the table or JSON. */
static int print(const struct tageval_wsi *wsi, const void *ctx, void *res)
{
	const struct options *o = ctx;
	const char *prog = o->tool->name;
	size_t ignored = tageval_wsi_ignored(wsi);
	if (ignored + tageval_wsi_answered(wsi) == 0)
		tools_note_no_answers(prog, o->clusters);
	tools_note_ignored(prog, ignored, o->clusters, o->gold);
	reduction_note(prog, o->tool->kind == WSI_FSCORE && !o->paired, wsi, o->clusters, o->gold);
	if (o->json)
		print_json(res, o->wsi.pos, o->per_word, ignored);
	else
		print_text(o->tool, res, o->per_word, o->paired, o->digits);
	return 0;
}

static void free_result(void *res)
{
	tageval_wsi_result_free(res);
}

int wsi_tool_main(const struct wsi_tool *tool, int argc, char **argv)
{
	struct options o = { .tool = tool, .digits = 3 };
	tageval_wsi_options_init(&o.wsi);
	int status = parse(argc, argv, &o);
	if (status >= 0)
		return status;
	const struct tools_wsi_run run = { tool->name, o.clusters, o.gold, evaluate, print,
					   free_result, &o };
	return tools_wsi_run(&run);
}
