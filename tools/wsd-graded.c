/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wsd-graded - the SemEval-2013 Task 13 WSD setting: Jaccard index,
 * positionally weighted Kendall's tau and weighted NDCG of graded sense
 * answers, with the task's 5-fold remapping of induced senses.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools-common.h"
#include "tools-main.h"

static const char *prog = "wsd-graded";

static void usage(FILE *fp, const void *ctx)
{
	tools_fprintf(fp, "Usage: %s [OPTIONS] SYSTEM GOLD\n"
		"Jaccard index, positionally weighted Kendall's tau and weighted NDCG of graded\n"
		"sense answers against a graded gold key (SemEval-2013 Task 13, WSD setting),\n"
		"per word and over all answered instances, for the whole gold key and its\n"
		"single-sense and multi-sense instances.  Induced senses are mapped to the\n"
		"gold senses on 4 of 5 folds and tested on the fifth, as the task's scorers do.\n"
		"Files: 'word instance label[/weight] ...' lines; the system's answers first,\n"
		"the gold key second.\n"
		"\n"
		"  -n, --no-remapping        compare the system's labels with the gold senses\n"
		"                            directly (answers in the gold inventory)\n"
		"      --seed=S              shuffle the gold instances, taken in byte order of\n"
		"                            their ids (GSL mt19937, seed S), before forming the\n"
		"                            folds; default: the official folds\n"
		"      --pos=POS             only the words whose name ends in '.POS' (n, v, ...);\n"
		"                            all (default) for every word\n"
		"      --per-word            one table row per target word\n"
		"      --digits=N            decimals in the text output (default 3)\n"
		"      --format=FORMAT       text (default) or json\n"
		"  -h, --help                show this help and exit\n"
		"  -V, --version             show the version and exit\n"
		"\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 usage error.\n"
		"See %s(1) and tageval-formats(5).\n",
		prog, prog);
}

static const char *subset_name[3] = { "all", "single_sense", "multi_sense" };

/*
 * A mean over no answered instance is 0/0: the library gives 0 (the jars'
 * figure), the tool prints null in JSON and "-" in text, and so for the F1
 * made from it; recall (the scores' sum over the instances) stays 0.
 */
static const char no_answer[] = "no instance answered (a mean over 0 answered instances)";

static void json_figures(const struct tageval_graded_figures *f, int total)
{
	int undef = f->answered == 0;
	tools_printf("{\"instances\":%zu,\"answered\":%zu,", f->instances, f->answered);
	if (!total)
		tools_printf("\"senses\":%zu,", f->senses);
	else
		tools_printf("\"averaging\":\"instance-weighted\",");
	const char *name[10] = { "jaccard", "kendall_tau", "wndcg",
				 "jaccard_recall", "kendall_tau_recall", "wndcg_recall",
				 "jaccard_f1", "kendall_tau_f1", "wndcg_f1", "coverage" };
	const double v[10] = { f->jaccard, f->kendall_tau, f->wndcg, f->jaccard_recall,
			       f->kendall_tau_recall, f->wndcg_recall, f->jaccard_f1,
			       f->kendall_tau_f1, f->wndcg_f1, f->coverage };
	/* the means (0-2) and the F1s (6-8) are undefined without an answer */
	for (int i = 0; i < 10; i++) {
		tools_printf("\"%s\":", name[i]);
		if (undef && (i < 3 || (i >= 6 && i < 9)))
			fputs("null", stdout);
		else
			tools_json_number(stdout, v[i]);
		putchar(',');
	}
	tools_printf("\"undefined\":{");
	for (int i = 0; undef && i < 9; i++) {
		if (i >= 3 && i < 6)
			continue;
		tools_printf("%s\"%s\":", i ? "," : "", name[i]);
		tools_json_string(stdout, no_answer);
	}
	tools_printf("}}");
}

/* A figure of the text output, or "-" right-aligned when undefined. */
static void text_figure(int w, int digits, double v, int undef)
{
	if (undef)
		tools_printf("%*s", w, "-");
	else
		tools_printf("%*.*f", w, digits, v);
}

static void json_per_word(const struct tageval_graded_result *r)
{
	tools_printf("{");
	for (size_t i = 0; i < tageval_graded_result_words(r); i++) {
		if (i)
			putchar(',');
		tools_json_string(stdout, tageval_graded_result_word(r, i));
		putchar(':');
		json_figures(tageval_graded_result_figures(r, i), 0);
	}
	tools_printf("}");
}

static void print_json(struct tageval_graded_result *const res[3], const char *pos,
		       int per_word, int remap, int shuffle, unsigned long long seed,
		       size_t ignored, size_t extra)
{
	tools_printf("{\"pos\":");
	tools_json_string(stdout, pos ? pos : "all");
	tools_printf(",\"remapping\":%s,\"seed\":", remap ? "true" : "false");
	if (shuffle)
		tools_printf("%llu", seed);
	else
		tools_printf("null");
	tools_printf(",\"words\":%zu,\"ignored_lines\":%zu,\"extra_instances\":%zu,\"total\":",
	       tageval_graded_result_words(res[0]), ignored, extra);
	json_figures(tageval_graded_result_total(res[0]), 1);
	tools_printf(",\"per_word\":");
	if (per_word)
		json_per_word(res[0]);
	else
		tools_printf("null");
	for (int s = 1; s < 3; s++) {
		tools_printf(",\"%s\":", subset_name[s]);
		if (res[s] == NULL) {
			tools_printf("null");
			continue;
		}
		tools_printf("{\"words\":%zu,\"total\":", tageval_graded_result_words(res[s]));
		json_figures(tageval_graded_result_total(res[s]), 1);
		tools_printf(",\"per_word\":");
		if (per_word)
			json_per_word(res[s]);
		else
			tools_printf("null");
		tools_printf("}");
	}
	tools_printf("}\n");
}

static int width(int digits, const char *head)
{
	int w = (int)strlen(head);
	return w < digits + 2 ? digits + 2 : w;
}

static void print_row(const char *name, int wname, const struct tageval_graded_figures *f,
		      int digits, int senses)
{
	tools_pad(stdout, name, wname);
	tools_printf(" %9zu %8zu", f->instances, f->answered);
	if (senses)
		tools_printf(" %6zu", f->senses);
	int undef = f->answered == 0;
	tools_printf("  ");
	text_figure(width(digits, "jaccard"), digits, f->jaccard, undef);
	tools_printf("  ");
	text_figure(width(digits, "kendall-tau"), digits, f->kendall_tau, undef);
	tools_printf("  ");
	text_figure(width(digits, "wndcg"), digits, f->wndcg, undef);
	tools_printf("\n");
}

static void print_head(const char *first, int wname, int digits, int senses)
{
	tools_printf("%-*s %9s %8s", wname, first, "instances", "answered");
	if (senses)
		tools_printf(" %6s", "senses");
	tools_printf("  %*s  %*s  %*s\n", width(digits, "jaccard"), "jaccard",
	       width(digits, "kendall-tau"), "kendall-tau", width(digits, "wndcg"), "wndcg");
}

static void print_text(struct tageval_graded_result *const res[3], int per_word, int digits)
{
	const struct tageval_graded_result *r = res[0];
	size_t nw = tageval_graded_result_words(r);
	tools_printf("%s\n", TOOLS_FRACTIONS_HEAD);
	if (per_word) {
		int wname = 5;
		for (size_t i = 0; i < nw; i++) {
			int len = tools_display_width(tageval_graded_result_word(r, i));
			if (len > wname)
				wname = len;
		}
		print_head("word", wname, digits, 1);
		for (size_t i = 0; i < nw; i++)
			print_row(tageval_graded_result_word(r, i), wname,
				  tageval_graded_result_figures(r, i), digits, 1);
		tools_printf("\n");
	}
	static const char *label[3] = { "total", "single-sense", "multi-sense" };
	print_head("gold", 12, digits, 0);
	for (int s = 0; s < 3; s++)
		if (res[s] != NULL)
			print_row(label[s], 12, tageval_graded_result_total(res[s]), digits, 0);
	const struct tageval_graded_figures *t = tageval_graded_result_total(r);
	tools_printf("\n%-14s  %*s  %*s  %*s\n", "total", width(digits, "mean"), "mean",
	       width(digits, "recall"), "recall", width(digits, "F1"), "F1");
	const char *name[3] = { "Jaccard index", "positional tau", "weighted NDCG" };
	const double v[3][3] = { { t->jaccard, t->jaccard_recall, t->jaccard_f1 },
				 { t->kendall_tau, t->kendall_tau_recall, t->kendall_tau_f1 },
				 { t->wndcg, t->wndcg_recall, t->wndcg_f1 } };
	int undef = t->answered == 0;
	for (int x = 0; x < 3; x++) {
		tools_printf("%-14s  ", name[x]);
		text_figure(width(digits, "mean"), digits, v[x][0], undef);
		tools_printf("  ");
		text_figure(width(digits, "recall"), digits, v[x][1], 0);
		tools_printf("  ");
		text_figure(width(digits, "F1"), digits, v[x][2], undef);
		tools_printf("\n");
	}
}

struct options {
	struct tageval_graded_options graded; /* but subset, set for each */
	int per_word, json, digits;
	unsigned long long seed;
	const char *system, *gold;
};

enum { OPT_POS = 256, OPT_PER_WORD, OPT_DIGITS, OPT_FORMAT, OPT_NO_REMAP, OPT_SEED };

static int option(void *ctx, int c, char *arg)
{
	struct options *o = ctx;
	unsigned long long d;
	switch (c) {
	case OPT_POS:
		return tools_parse_pos(prog, arg, &o->graded.pos);
	case OPT_PER_WORD:
		o->per_word = 1;
		return 0;
	case OPT_DIGITS:
		if (tools_parse_count(arg, 17, &d)) {
			tools_usage_error(prog, "invalid number of digits \"%s\" (0 to 17)", arg);
			return -1;
		}
		o->digits = (int)d;
		return 0;
	case OPT_FORMAT:
		return tools_parse_format(prog, arg, &o->json);
	case 'n':
	case OPT_NO_REMAP:
		o->graded.no_remapping = 1;
		return 0;
	default: /* OPT_SEED */
		if (tools_parse_count(arg, ULONG_MAX, &o->seed)) {
			tools_usage_error(prog, "invalid seed \"%s\" (0 to %lu)", arg, ULONG_MAX);
			return -1;
		}
		o->graded.shuffle = 1;
		o->graded.seed = (unsigned long)o->seed;
		return 0;
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
		{ "no-remapping", no_argument, NULL, OPT_NO_REMAP },
		{ "seed", required_argument, NULL, OPT_SEED },
		TOOLS_OPTIONS_HELP_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	const struct tools_cli cli = { prog, ":nhV", longopts, option, usage, o };
	int status = tools_getopt(&cli, argc, argv);
	if (status >= 0)
		return status;
	if (tools_two_operands(prog, argc, argv, "missing operand: SYSTEM and GOLD are required",
			       &o->system, &o->gold))
		return EXIT_INVALID_USAGE;
	return -1;
}

/* Evaluates the whole key and its single- and multi-sense subsets into
 * @res (NULL: a subset without instances); 0, or -1 after the message. */
static int evaluate(const struct options *o, struct tageval_graded *g,
		    struct tageval_graded_result *res[3])
{
	static const enum tageval_graded_subset subsets[3] = {
		TAGEVAL_GRADED_ALL, TAGEVAL_GRADED_SINGLE_SENSE, TAGEVAL_GRADED_MULTI_SENSE
	};
	struct tageval_error err = { 0 };
	struct tageval_graded_options opts = o->graded;
	for (int s = 0; s < 3; s++) {
		opts.subset = subsets[s];
		int rc = tageval_graded_evaluate(g, &opts, &res[s], &err);
		/* a subset without instances is reported as null */
		if (rc == TAGEVAL_EFORMAT && s > 0)
			continue;
		if (rc) {
			tools_print_error(prog, &err);
			return -1;
		}
	}
	return 0;
}

static void print_notes(const struct options *o, const struct tageval_graded *g)
{
	size_t ignored = tageval_graded_ignored(g), extra = tageval_graded_extra(g);
	size_t repeated = tageval_graded_repeated(g);
	if (tageval_graded_system_lines(g) == 0)
		tools_note_no_answers(prog, o->system);
	if (repeated)
		fprintf(stderr,
			"%s: note: %zu line%s name%s a label twice; read as the task's scorers do: "
			"the label once, every membership of the line 1\n",
			prog, repeated, repeated == 1 ? "" : "s", repeated == 1 ? "s" : "");
	if (ignored)
		fprintf(stderr, "%s: note: %zu line%s of %s name%s a word that %s lacks; ignored\n",
			prog, ignored, ignored == 1 ? "" : "s", tools_file_name(o->system),
			ignored == 1 ? "s" : "", tools_file_name(o->gold));
	if (extra)
		fprintf(stderr,
			"%s: note: %zu line%s of %s name%s an instance that %s lacks; not scored%s\n",
			prog, extra, extra == 1 ? "" : "s", tools_file_name(o->system),
			extra == 1 ? "s" : "", tools_file_name(o->gold),
			o->graded.no_remapping ? " (their labels count in the word's sense count)" : "");
}

/* Reads the files, evaluates and prints; returns the exit status. */
static int run(const struct options *o)
{
	int status = EXIT_DATA;
	struct tageval_error err = { 0 };
	struct tageval_graded *g = tageval_graded_new();
	struct tageval_graded_result *res[3] = { NULL, NULL, NULL };
	if (g == NULL) {
		status = tools_out_of_memory(prog);
		goto out;
	}
	if (tageval_graded_read_gold(g, o->gold, &err) ||
	    tageval_graded_read_system(g, o->system, &err)) {
		tools_print_error(prog, &err);
		goto out;
	}
	if (evaluate(o, g, res))
		goto out;
	print_notes(o, g);
	if (o->json)
		print_json(res, o->graded.pos, o->per_word, !o->graded.no_remapping,
			   o->graded.shuffle, o->seed, tageval_graded_ignored(g),
			   tageval_graded_extra(g));
	else
		print_text(res, o->per_word, o->digits);
	status = tools_exit_status(prog);
out:
	for (int s = 0; s < 3; s++)
		tageval_graded_result_free(res[s]);
	tageval_graded_free(g);
	return status;
}

int tool_wsd_graded_main(int argc, char **argv)
{
	struct options o = { .digits = 3 };
	tageval_graded_options_init(&o.graded);
	int status = parse(argc, argv, &o);
	return status >= 0 ? status : run(&o);
}
