/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wsd-report - the Senseval results report: many systems and the baselines
 * scored at every granularity, fully and minimally, on task subsets, with
 * sense entropies and per-subset summaries (spec 002).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-output.h"
#include "tageval.h"
#include "tools-common.h"
#include "tools-main.h"

static const char prog[] = "wsd-report";

static void usage(FILE *fp, const void *ctx)
{
	tools_fprintf(fp,
		"Usage: %s [OPTIONS] KEY [NAME=]SYSTEM...\n"
		"The Senseval results report: every SYSTEM's answers and the baselines scored\n"
		"against KEY at each granularity, fully and minimally, on task subsets (all, parts\n"
		"of speech, trainable, low/high polysemy and entropy, each lexelt), with sense\n"
		"entropies and the average, best and worst system of each subset.\n"
		"A system is named NAME, or after its file name without directories.\n"
		"\n"
		"  -s, --senses=MAP          sense map: adds mixed and coarse scoring\n"
		"  -t, --train=TRAINKEY      training key: trainable subsets, commonest baseline,\n"
		"                            entropies over training and test tags\n"
		"      --subset=NAME=FILE    one more subset: the instances listed in FILE\n"
		"      --rank-by=MEASURE     precision (default), recall or f1: the measure\n"
		"                            that picks the best and worst system\n"
		"      --no-baselines        leave out the random, random-main and commonest\n"
		"                            baselines\n"
		"      --format=FORMAT       text (default), json or csv\n"
		"      --plot=FILE           write an SVG bar chart of the systems and baselines\n"
		"      --plot-subset=NAME    the subset of the chart (default all)\n"
		"      --significance        each system and baseline compared with the best\n"
		"                            system on subset all, by the --rank-by measure\n"
		"                            (approximate randomization, paired bootstrap,\n"
		"                            McNemar's exact test)\n"
		"      --baseline=NAME       with --significance also against NAME (a system\n"
		"                            or a baseline)\n"
		"      --samples=N           samples of both resampling tests (default 10000)\n"
		"      --seed=S              their seed (GSL mt19937; default 1)\n"
		"      --alpha=A             the marks' significance level (default 0.05)\n"
		"  -h, --help                show this help and exit\n"
		"  -V, --version             show the version and exit\n"
		"\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 usage error.\n"
		"See wsd-report(1) and tageval-formats(5).\n",
		prog);
}

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV };

struct named {
	const char *name;
	const char *file;
};

/* "NAME=FILE" (split at the first '=') or "FILE" named after its base name. */
static int split_named(char *arg, int need_name, struct named *out, const char *what)
{
	char *eq = strchr(arg, '=');
	if (eq == NULL && need_name) {
		tools_usage_error(prog, "%s \"%s\" is not NAME=FILE", what, arg);
		return -1;
	}
	if (eq == NULL) {
		const char *slash = strrchr(arg, '/');
		out->name = slash ? slash + 1 : arg;
		out->file = arg;
		if (out->name[0] == '\0') {
			tools_usage_error(prog, "%s \"%s\" has no file name", what, arg);
			return -1;
		}
		return 0;
	}
	if (eq == arg) {
		tools_usage_error(prog, "%s \"%s\" has an empty name", what, arg);
		return -1;
	}
	if (eq[1] == '\0') {
		tools_usage_error(prog, "%s \"%s\" has no file", what, arg);
		return -1;
	}
	/* the name ends at the '=' (argv's strings may be modified) */
	*eq = '\0';
	out->name = arg;
	out->file = eq + 1;
	return 0;
}

static int check_names(const struct named *v, size_t n, const char *what, int baselines)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < i; j++)
			if (strcmp(v[i].name, v[j].name) == 0) {
				tools_usage_error(prog, "two %ss are called \"%s\" (name them "
						  "with NAME=FILE)", what, v[i].name);
				return -1;
			}
		for (int b = 0; baselines && b <= TAGEVAL_BASELINE_COMMONEST; b++)
			if (strcmp(v[i].name, tageval_baseline_name(b)) == 0) {
				tools_usage_error(prog, "the system name \"%s\" is a baseline's "
						  "(rename it with NAME=FILE)", v[i].name);
				return -1;
			}
	}
	return 0;
}

/* Reports the answer lines a system's fine-grained pass could not score, or that
 * the system answered nothing. */
static void report_unscored(const struct tageval_report *r, size_t k, const char *file)
{
	struct tageval_score s;
	if (tageval_report_system_score(r, k, 0, &s))
		return;
	size_t bad = s.not_in_key + s.invalid + s.excluded;
	if (bad == 0 && s.scored == 0)
		fprintf(stderr, "%s: note: %s: no answer lines (the system attempted nothing)\n",
			prog, file);
	if (bad)
		fprintf(stderr, "%s: note: %s: %zu answer line%s not scored (%zu for instances not in "
			"the key, %zu without tags, %zu repeated)\n", prog, file, bad,
			bad == 1 ? "" : "s", s.not_in_key, s.invalid, s.excluded);
}

static int write_plot(const char *path, const struct tageval_report *r, size_t subset,
		      const struct report_sources *src)
{
	FILE *fp = fopen(path, "w");
	if (fp == NULL) {
		fprintf(stderr, "%s: %s: cannot open: %s\n", prog, path, strerror(errno));
		return -1;
	}
	report_write_svg(fp, r, subset, src);
	int e = tools_close_file(fp);
	if (e) {
		fprintf(stderr, "%s: %s: write error: %s\n", prog, path, strerror(e));
		remove(path);
		return -1;
	}
	return 0;
}

enum { OPT_SUBSET = 256, OPT_NO_BASELINES, OPT_FORMAT, OPT_PLOT, OPT_PLOT_SUBSET, OPT_RANK_BY,
       OPT_SIGNIFICANCE, OPT_BASELINE, OPT_SAMPLES, OPT_SEED, OPT_ALPHA };

struct options {
	const char *map, *train, *plot, *plot_subset;
	struct named *subsets, *systems;
	size_t nsubsets, nsystems;
	int baselines;
	enum report_rank rank_by;
	enum format format;
	const char *key;
	int significance;       /* --significance (or an option of it) */
	const char *baseline;   /* --baseline */
	unsigned long long samples, seed;
	double alpha;
};

static int option(void *ctx, int c, char *arg)
{
	struct options *o = ctx;
	switch (c) {
	case 's':
		o->map = arg;
		return 0;
	case 't':
		o->train = arg;
		return 0;
	case OPT_SUBSET:
		if (split_named(arg, 1, &o->subsets[o->nsubsets], "subset"))
			return -1;
		o->nsubsets++;
		return 0;
	case OPT_NO_BASELINES:
		o->baselines = 0;
		return 0;
	case OPT_FORMAT:
		if (strcmp(arg, "text") == 0)
			o->format = FORMAT_TEXT;
		else if (strcmp(arg, "json") == 0)
			o->format = FORMAT_JSON;
		else if (strcmp(arg, "csv") == 0)
			o->format = FORMAT_CSV;
		else {
			tools_usage_error(prog, "invalid format \"%s\" (text, json or csv)", arg);
			return -1;
		}
		return 0;
	case OPT_PLOT:
		o->plot = arg;
		return 0;
	case OPT_RANK_BY:
		if (strcmp(arg, "precision") == 0)
			o->rank_by = REPORT_RANK_PRECISION;
		else if (strcmp(arg, "recall") == 0)
			o->rank_by = REPORT_RANK_RECALL;
		else if (strcmp(arg, "f1") == 0)
			o->rank_by = REPORT_RANK_F1;
		else {
			tools_usage_error(prog, "invalid measure \"%s\" for --rank-by (precision, "
					  "recall or f1)", arg);
			return -1;
		}
		return 0;
	case OPT_SIGNIFICANCE:
		o->significance = 1;
		return 0;
	case OPT_BASELINE:
		o->significance = 1;
		o->baseline = arg;
		return 0;
	case OPT_SAMPLES:
		o->significance = 1;
		return tools_parse_samples(prog, arg, &o->samples);
	case OPT_SEED:
		o->significance = 1;
		return tools_parse_seed(prog, arg, &o->seed);
	case OPT_ALPHA:
		o->significance = 1;
		return tools_parse_alpha(prog, arg, &o->alpha);
	default: /* OPT_PLOT_SUBSET */
		o->plot_subset = arg;
		return 0;
	}
}

/* Parses the command line; returns -1 to go on, or the exit status. */
static int parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "senses", required_argument, NULL, 's' },
		{ "train", required_argument, NULL, 't' },
		{ "subset", required_argument, NULL, OPT_SUBSET },
		{ "no-baselines", no_argument, NULL, OPT_NO_BASELINES },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "plot-subset", required_argument, NULL, OPT_PLOT_SUBSET },
		{ "rank-by", required_argument, NULL, OPT_RANK_BY },
		{ "significance", no_argument, NULL, OPT_SIGNIFICANCE },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		TOOLS_OPTIONS_HELP_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	const struct tools_cli cli = { prog, ":s:t:hV", longopts, option, usage, o };
	int status = tools_getopt(&cli, argc, argv);
	if (status >= 0)
		return status;
	if (tools_check_operands(prog, argc - optind, 2, -1,
				 "missing operand: KEY and at least one SYSTEM are required"))
		return EXIT_INVALID_USAGE;
	o->key = argv[optind];
	for (int i = optind + 1; i < argc; i++) {
		struct named *s = &o->systems[o->nsystems];
		if (split_named(argv[i], 0, s, "system"))
			return EXIT_INVALID_USAGE;
		o->nsystems++;
	}
	if (check_names(o->systems, o->nsystems, "system", o->baselines) ||
	    check_names(o->subsets, o->nsubsets, "subset", 0))
		return EXIT_INVALID_USAGE;
	/* every input, systems included: each is read once */
	const char *const files[] = { o->key, o->map, o->train };
	size_t users = tools_stdin_count(files, 3);
	for (size_t i = 0; i < o->nsystems; i++)
		users += (size_t)tools_is_stdin(o->systems[i].file);
	for (size_t i = 0; i < o->nsubsets; i++)
		users += (size_t)tools_is_stdin(o->subsets[i].file);
	if (tools_stdin_check(prog, users))
		return EXIT_INVALID_USAGE;
	if (o->plot && strcmp(o->plot, "-") == 0) {
		/* standard output carries the tables */
		tools_usage_error(prog, "--plot needs a file name, not '-'");
		return EXIT_INVALID_USAGE;
	}
	if (o->plot_subset && !o->plot) {
		tools_usage_error(prog, "--plot-subset needs --plot");
		return EXIT_INVALID_USAGE;
	}
	return -1;
}

/* Reads everything and builds the whole report; returns the exit status or -1. */
static int build(const struct options *o, struct tageval_inventory *inv,
		 struct tageval_key **key, struct tageval_key **train,
		 struct tageval_report **report)
{
	struct tageval_error err = { 0 };
	if ((o->map && tageval_inventory_read_map(inv, o->map, &err)) ||
	    tageval_key_read(inv, o->key, key, &err) ||
	    (o->train && tageval_key_read(inv, o->train, train, &err)))
		goto fail;
	if (tageval_report_new(inv, *key, *train, report, &err)) {
		/* the sense map is not a tree: the library gives the line, not the file */
		if (err.file[0] == '\0' && err.line && o->map)
			snprintf(err.file, sizeof err.file, "%s", tools_file_name(o->map));
		goto fail;
	}
	if (o->significance && tageval_report_keep_credits(*report, &err))
		goto fail;
	for (size_t i = 0; i < o->nsubsets; i++)
		if (tageval_report_add_subset(*report, o->subsets[i].name, o->subsets[i].file,
					      &err))
			goto fail;
	for (size_t i = 0; i < o->nsystems; i++) {
		if (tageval_report_add_system(*report, o->systems[i].name, o->systems[i].file,
					      &err))
			goto fail;
		report_unscored(*report, tageval_report_systems(*report) - 1,
				tools_file_name(o->systems[i].file));
	}
	for (int b = 0; o->baselines && b <= TAGEVAL_BASELINE_COMMONEST; b++) {
		if (b == TAGEVAL_BASELINE_COMMONEST && *train == NULL)
			break;
		if (tageval_report_add_baseline(*report, b, &err))
			goto fail;
	}
	return -1;
fail:
	tools_print_error(prog, &err);
	return EXIT_DATA;
}

/* --significance: fills @sig (its arrays allocated); returns -1 to go on, or
 * the exit status. */
static int significance(const struct options *o, const struct tageval_report *r,
			struct report_significance *sig)
{
	struct tageval_error err = { 0 };
	size_t nsys = tageval_report_systems(r), ng = tageval_report_granularities(r);
	sig->samples = (size_t)o->samples;
	sig->seed = (unsigned long)o->seed;
	sig->alpha = o->alpha;
	sig->baseline = TAGEVAL_REPORT_NONE;
	if (tageval_report_find_subset(r, "all", &sig->subset))
		return EXIT_DATA; /* the library always makes it */
	if (o->baseline) {
		size_t k = 0;
		while (k < nsys && strcmp(tageval_report_system_name(r, k), o->baseline) != 0)
			k++;
		if (k == nsys) {
			tools_usage_error(prog, "--baseline: no system or baseline is called \"%s\"",
					  o->baseline);
			return EXIT_INVALID_USAGE;
		}
		sig->baseline = k;
	}
	size_t n = tageval_report_subset(r, sig->subset)->items;
	sig->vs_best = calloc(2 * ng * nsys + 1, sizeof *sig->vs_best);
	double *credit = calloc(nsys * n + 1, sizeof *credit);
	double *att = calloc(nsys * n + 1, sizeof *att);
	struct tageval_wsd_comparison *out = calloc(2 * nsys, sizeof *out);
	int status = -1;
	if (sig->vs_best == NULL || credit == NULL || att == NULL || out == NULL) {
		status = tools_out_of_memory(prog);
		goto out;
	}
	sig->vs_base = sig->vs_best + ng * nsys;
	for (size_t i = 0; i < 2 * ng * nsys; i++)
		sig->vs_best[i] = (struct tageval_wsd_comparison){ NAN, NAN, NAN, NAN, NAN, 0, 0 };
	enum tageval_statistic stat = report_statistic(o->rank_by);
	for (size_t g = 0; g < ng; g++) {
		size_t worst;
		report_best_worst(r, sig->subset, g, 0, o->rank_by, &sig->best[g], &worst);
		for (size_t k = 0; k < nsys; k++)
			if (tageval_report_credits(r, k, g, credit + k * n, att + k * n, &err))
				goto fail;
		/* the best and the baseline: one pass over shared samples */
		size_t refs[2], nref = 0;
		if (sig->best[g] != TAGEVAL_REPORT_NONE)
			refs[nref++] = sig->best[g];
		if (sig->baseline != TAGEVAL_REPORT_NONE)
			refs[nref++] = sig->baseline;
		if (n == 0 || nref == 0)
			continue;
		if (tageval_compare(nsys, n, credit, att, stat, refs, nref, sig->samples,
				    sig->seed, out, &err))
			goto fail;
		if (sig->best[g] != TAGEVAL_REPORT_NONE)
			memcpy(sig->vs_best + g * nsys, out, nsys * sizeof *out);
		if (sig->baseline != TAGEVAL_REPORT_NONE)
			memcpy(sig->vs_base + g * nsys, out + (nref - 1) * nsys, nsys * sizeof *out);
	}
	goto out;
fail:
	tools_print_error(prog, &err);
	status = EXIT_DATA;
out:
	free(credit);
	free(att);
	free(out);
	return status;
}

static int print_outputs(const struct options *o, const struct tageval_report *report,
			 const struct report_sources *srcp);

/* Writes the chart (--plot) and the report; returns the exit status. */
static int print_report(const struct options *o, const struct tageval_report *report)
{
	struct report_significance sig = { 0 };
	struct report_sources src = { o->key, o->map, o->train, o->rank_by, NULL };
	if (o->significance) {
		int status = significance(o, report, &sig);
		if (status >= 0) {
			free(sig.vs_best);
			return status;
		}
		src.sig = &sig;
	}
	int status = print_outputs(o, report, &src);
	free(sig.vs_best);
	return status;
}

static int print_outputs(const struct options *o, const struct tageval_report *report,
			 const struct report_sources *srcp)
{
	struct report_sources src = *srcp;
	if (o->plot) {
		size_t subset;
		const char *name = o->plot_subset ? o->plot_subset : "all";
		if (tageval_report_find_subset(report, name, &subset)) {
			tools_usage_error(prog, "--plot-subset: there is no subset \"%s\"", name);
			return EXIT_INVALID_USAGE;
		}
		if (write_plot(o->plot, report, subset, &src))
			return EXIT_DATA;
	}
	if (o->format == FORMAT_JSON)
		report_print_json(stdout, report, &src);
	else if (o->format == FORMAT_CSV)
		report_print_csv(stdout, report, &src);
	else
		report_print_text(stdout, report, &src);
	return tools_exit_status(prog);
}

/* Reads, scores and prints; returns the exit status. */
static int run(const struct options *o)
{
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_key *key = NULL, *train = NULL;
	struct tageval_report *report = NULL;
	int status;
	if (inv == NULL)
		status = tools_out_of_memory(prog);
	else if ((status = build(o, inv, &key, &train, &report)) < 0)
		status = print_report(o, report);
	tageval_report_free(report);
	tageval_key_free(train);
	tageval_key_free(key);
	tageval_inventory_free(inv);
	return status;
}

int tool_wsd_report_main(int argc, char **argv)
{
	struct options o = { .baselines = 1, .format = FORMAT_TEXT, .samples = 10000, .seed = 1,
			     .alpha = 0.05 };
	o.subsets = calloc((size_t)argc, sizeof *o.subsets);
	o.systems = calloc((size_t)argc, sizeof *o.systems);
	int status;
	if (!o.subsets || !o.systems)
		status = tools_out_of_memory(prog);
	else if ((status = parse(argc, argv, &o)) < 0)
		status = run(&o);
	free(o.subsets);
	free(o.systems);
	return status;
}
