/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wsi-supervised - the supervised evaluation of induced senses: map clusters
 * to senses on part of the gold key, score the mapped answers on the rest,
 * over given splits, k folds or random splits, with mean and variance.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_statistics_double.h>

#include "tageval.h"
#include "tools-common.h"
#include "tools-main.h"

static const char prog[] = "wsi-supervised";

static void usage(FILE *fp, const void *ctx)
{
	tools_fprintf(fp,
		"Usage: %s [OPTIONS] CLUSTERS GOLD\n"
		"Supervised evaluation of induced senses: on each split, the mapping part of\n"
		"GOLD gives P(sense | cluster), each test instance gets the sense of highest\n"
		"score, and the answers are scored like WSD (precision, recall, attempted).\n"
		"\n"
		"  -k, --folds=K             K-fold cross-validation, stratified by word\n"
		"                            (the default: 5 folds)\n"
		"      --splits=N            N random splits instead ...\n"
		"      --test-fraction=F     ... with round(F * n) test instances per word\n"
		"                            (default 0.2)\n"
		"      --split=MAP:TEST      a given split: mapping and test keys (repeatable)\n"
		"      --splits=DIR          the given splits of DIR: every mapping.[TAG.]N.key\n"
		"                            with its test.[TAG.]N.key, of DIR/all, DIR/nouns\n"
		"                            or DIR/verbs (as --pos) when DIR has them\n"
		"  -s, --seed=S              seed of the random numbers (GSL mt19937, default 1)\n"
		"      --pos=POS             only the words whose name ends in '.POS'\n"
		"      --write-mapped=DIR    write each split's answers to DIR/split-N.answers\n"
		"      --format=FORMAT       text (default) or json\n"
		"  -h, --help                show this help and exit\n"
		"  -V, --version             show the version and exit\n"
		"\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 usage error.\n"
		"See wsi-supervised(1) and tageval-formats(5).\n",
		prog);
}

static int write_mapped(const char *dir, size_t i, const char *text)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/split-%zu.answers", dir, i + 1);
	FILE *fp = fopen(path, "w");
	if (fp == NULL) {
		fprintf(stderr, "%s: %s: cannot open: %s\n", prog, path, strerror(errno));
		return -1;
	}
	fputs(text, fp);
	int e = tools_close_file(fp);
	if (e) {
		fprintf(stderr, "%s: %s: write error: %s\n", prog, path, strerror(e));
		return -1;
	}
	return 0;
}

/* A given split: --split=MAPPING:TEST, cut at the first colon. */
struct given_split {
	const char *mapping, *test;
};

struct options {
	unsigned long long folds, nsplits, seed;
	double fraction;
	int fraction_given, json;
	const char *pos, *outdir;      /* NULL: all words, no --write-mapped */
	const char *splits_dir;        /* --splits=DIR, or NULL */
	struct given_split *given;     /* argc entries */
	size_t ngiven;
	const char *clusters, *gold;
};

enum { OPT_SPLITS = 256, OPT_FRACTION, OPT_SPLIT, OPT_POS, OPT_WRITE, OPT_FORMAT };

static int option(void *ctx, int c, char *arg)
{
	struct options *o = ctx;
	char *end;
	switch (c) {
	case 'k':
		if (tools_parse_count(arg, 1000000, &o->folds) || o->folds < 2) {
			tools_usage_error(prog, "invalid number of folds \"%s\" (2 or more)", arg);
			return -1;
		}
		return 0;
	case OPT_SPLITS: {
		unsigned long long n;
		int kind = tools_parse_splits(prog, arg, &n);
		if (kind == TOOLS_SPLITS_NUMBER)
			o->nsplits = n;
		else if (kind == TOOLS_SPLITS_DIR)
			o->splits_dir = arg;
		return kind < 0 ? -1 : 0;
	}
	case OPT_FRACTION:
		errno = 0;
		o->fraction = strtod(arg, &end);
		if (errno || *end || end == arg || !(o->fraction > 0.0 && o->fraction < 1.0)) {
			tools_usage_error(prog, "invalid test fraction \"%s\" (between 0 and 1)", arg);
			return -1;
		}
		o->fraction_given = 1;
		return 0;
	case OPT_SPLIT: {
		char *colon = strchr(arg, ':');
		if (colon == NULL || arg[0] == ':' || arg[strlen(arg) - 1] == ':') {
			tools_usage_error(prog, "invalid split \"%s\" (MAPPING:TEST)", arg);
			return -1;
		}
		/* the mapping's name ends at the colon (argv's strings may be modified) */
		*colon = '\0';
		o->given[o->ngiven].mapping = arg;
		o->given[o->ngiven].test = colon + 1;
		o->ngiven++;
		return 0;
	}
	case 's':
		if (tools_parse_count(arg, 0xffffffffull, &o->seed)) {
			tools_usage_error(prog, "invalid seed \"%s\" (0 to 4294967295)", arg);
			return -1;
		}
		return 0;
	case OPT_POS:
		return tools_parse_pos(prog, arg, &o->pos);
	case OPT_WRITE:
		o->outdir = arg;
		return 0;
	default: /* OPT_FORMAT */
		return tools_parse_format(prog, arg, &o->json);
	}
}

/* Parses the command line; returns -1 to go on, or the exit status. */
static int parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "folds", required_argument, NULL, 'k' },
		{ "splits", required_argument, NULL, OPT_SPLITS },
		{ "test-fraction", required_argument, NULL, OPT_FRACTION },
		{ "split", required_argument, NULL, OPT_SPLIT },
		{ "seed", required_argument, NULL, 's' },
		{ "pos", required_argument, NULL, OPT_POS },
		{ "write-mapped", required_argument, NULL, OPT_WRITE },
		{ "format", required_argument, NULL, OPT_FORMAT },
		TOOLS_OPTIONS_HELP_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	const struct tools_cli cli = { prog, ":k:s:hV", longopts, option, usage, o };
	int status = tools_getopt(&cli, argc, argv);
	if (status >= 0)
		return status;
	if ((o->folds != 0) + (o->nsplits != 0) + (o->ngiven != 0) + (o->splits_dir != NULL) > 1) {
		tools_usage_error(prog, "choose one of --folds, --splits and --split");
		return EXIT_INVALID_USAGE;
	}
	if (o->fraction_given && o->nsplits == 0) {
		tools_usage_error(prog, "--test-fraction goes with --splits");
		return EXIT_INVALID_USAGE;
	}
	if (o->folds == 0 && o->nsplits == 0 && o->ngiven == 0 && o->splits_dir == NULL)
		o->folds = 5;
	if (tools_check_operands(prog, argc - optind, 2, 2,
				 "missing operand: CLUSTERS and GOLD are required"))
		return EXIT_INVALID_USAGE;
	struct stat st;
	if (o->outdir && (stat(o->outdir, &st) != 0 || !S_ISDIR(st.st_mode))) {
		tools_usage_error(prog, "--write-mapped: \"%s\" is not a directory", o->outdir);
		return EXIT_INVALID_USAGE;
	}
	o->clusters = argv[optind];
	o->gold = argv[optind + 1];
	const char *const files[] = { o->clusters, o->gold };
	size_t users = tools_stdin_count(files, 2);
	for (size_t i = 0; i < o->ngiven; i++)
		users += (size_t)tools_is_stdin(o->given[i].mapping) +
			 (size_t)tools_is_stdin(o->given[i].test);
	if (tools_stdin_check(prog, users))
		return EXIT_INVALID_USAGE;
	return -1;
}

/* Reads the files and makes the splits; returns -1 to go on, or the exit status. */
static int build(const struct options *o, struct tageval_wsi *wsi,
		 struct tageval_supervised **sup)
{
	struct tageval_error err = { 0 };
	if (tageval_wsi_read_gold(wsi, o->gold, &err) ||
	    tageval_wsi_read_clusters(wsi, o->clusters, &err) ||
	    tageval_supervised_new(wsi, o->pos, sup, &err))
		goto fail;
	for (size_t i = 0; i < o->ngiven; i++)
		if (tageval_supervised_add_files(*sup, o->given[i].mapping, o->given[i].test, &err))
			goto fail;
	if (o->splits_dir) {
		struct tools_split_file *files;
		long n = tools_split_files(prog, o->splits_dir, o->pos, &files);
		if (n < 0)
			return EXIT_DATA;
		for (long i = 0; i < n; i++) {
			if (tageval_supervised_add_files(*sup, files[i].mapping, files[i].test, &err)) {
				tools_split_files_free(files, n);
				goto fail;
			}
		}
		tools_split_files_free(files, n);
	}
	if (o->folds && tageval_supervised_add_folds(*sup, (size_t)o->folds,
						     (unsigned long)o->seed, &err))
		goto fail;
	if (o->nsplits && tageval_supervised_add_random(*sup, (size_t)o->nsplits, o->fraction,
							(unsigned long)o->seed, &err))
		goto fail;
	return -1;
fail:
	tools_print_error(prog, &err);
	return EXIT_DATA;
}

/* Evaluates each of the @n splits into @res, writing the mapped answers
 * with --write-mapped; returns -1 to go on, or the exit status. */
static int evaluate(const struct options *o, struct tageval_supervised *sup, size_t n,
		    struct tageval_supervised_result *res)
{
	struct tageval_error err = { 0 };
	for (size_t i = 0; i < n; i++) {
		char *mapped = NULL;
		if (tageval_supervised_evaluate(sup, i, &res[i], o->outdir ? &mapped : NULL, &err)) {
			tools_print_error(prog, &err);
			return EXIT_DATA;
		}
		if (o->outdir) {
			int bad = write_mapped(o->outdir, i, mapped);
			free(mapped);
			if (bad)
				return EXIT_DATA;
		}
	}
	return -1;
}

static void print_notes(const struct options *o, const struct tageval_wsi *wsi)
{
	if (tageval_wsi_ignored(wsi) + tageval_wsi_answered(wsi) == 0)
		tools_note_no_answers(prog, o->clusters);
	tools_note_ignored(prog, tageval_wsi_ignored(wsi), o->clusters, o->gold);
	struct tageval_wsi_counts counts;
	tageval_wsi_counts(wsi, &counts);
	if (counts.gold_weighted)
		fprintf(stderr, "%s: note: %zu line%s of %s carr%s weights; gold weights are ignored "
			"(each of a line's n labels counts 1/n, the SemEval-2010 rule)\n",
			prog, counts.gold_weighted, counts.gold_weighted == 1 ? "" : "s",
			tools_file_name(o->gold), counts.gold_weighted == 1 ? "ies" : "y");
}

/* The mean recall over the splits and its sample variance (n - 1), in
 * percent and percent squared as the SemEval-2010 tables print them. */
struct summary {
	double mean, var, sd;
};

static void print_json(const struct options *o, const struct tageval_supervised_result *res,
		       size_t n, const struct summary *sum)
{
	tools_printf("{\"method\":\"%s\",", o->folds ? "folds" : o->nsplits ? "random" : "given");
	if (o->folds || o->nsplits)
		tools_printf("\"seed\":%llu,", o->seed);
	if (o->nsplits) {
		tools_printf("\"test_fraction\":");
		tools_json_number(stdout, o->fraction);
		putchar(',');
	}
	tools_printf("\"pos\":");
	tools_json_string(stdout, o->pos ? o->pos : "all");
	tools_printf(",\"splits\":[");
	struct tools_undefined u;
	for (size_t i = 0; i < n; i++) {
		tools_undefined_init(&u);
		tools_printf("%s{\"mapping\":%zu,\"test\":%zu,\"answered\":%zu,\"correct\":",
			     i ? "," : "", res[i].mapping, res[i].test, res[i].answered);
		tools_json_number(stdout, res[i].correct);
		putchar(',');
		tools_json_figure(stdout, &u, "precision", res[i].precision,
				  "no test instance answered (the mapped answers give "
				  "no sense to any)");
		putchar(',');
		tools_json_figure(stdout, &u, "recall", res[i].recall, "no test instance");
		putchar(',');
		tools_json_figure(stdout, &u, "attempted", res[i].attempted, "no test instance");
		tools_json_undefined(stdout, &u);
		tools_printf("}");
	}
	tools_undefined_init(&u);
	tools_printf("],");
	tools_json_figure(stdout, &u, "mean_recall", sum->mean / 100.0, "no split");
	putchar(',');
	/* fractions, as every JSON figure (tageval-formats(5), UNITS): the
	 * text's percent squared / 10^4 and percent / 100 */
	tools_json_figure(stdout, &u, "variance", sum->var / 10000.0,
			  "a single split (the sample variance needs two or more)");
	putchar(',');
	tools_json_figure(stdout, &u, "stddev", sum->sd / 100.0,
			  "a single split (the sample variance needs two or more)");
	tools_json_undefined(stdout, &u);
	tools_printf("}\n");
}

static void print_text(const struct tageval_supervised_result *res, size_t n,
		       const struct summary *sum)
{
	tools_printf("%5s %9s %9s %9s %10s %8s %10s\n", "split", "mapping", "test", "answered",
		     "precision", "recall", "attempted");
	for (size_t i = 0; i < n; i++) {
		tools_printf("%5zu %9zu %9zu %9zu %9.2f%% %7.2f%% %9.2f%%\n", i + 1, res[i].mapping,
			     res[i].test, res[i].answered, 100.0 * res[i].precision,
			     100.0 * res[i].recall, 100.0 * res[i].attempted);
	}
	tools_printf("\nmean recall: %.2f %%\n", sum->mean);
	if (n > 1)
		tools_printf("variance: %.2f (percent squared, n - 1)\nstandard deviation: %.2f %%\n",
			     sum->var, sum->sd);
}

/* Reads, evaluates every split and prints; returns the exit status. */
static int run(const struct options *o)
{
	int status = EXIT_DATA;
	struct tageval_wsi *wsi = tageval_wsi_new();
	struct tageval_supervised *sup = NULL;
	struct tageval_supervised_result *res = NULL;
	double *recalls = NULL;
	if (wsi == NULL) {
		status = tools_out_of_memory(prog);
		goto out;
	}
	if ((status = build(o, wsi, &sup)) >= 0)
		goto out;
	size_t n = tageval_supervised_splits(sup);
	res = calloc(n, sizeof *res);
	recalls = calloc(n, sizeof *recalls);
	if (res == NULL || recalls == NULL) {
		status = tools_out_of_memory(prog);
		goto out;
	}
	if ((status = evaluate(o, sup, n, res)) >= 0)
		goto out;
	print_notes(o, wsi);
	for (size_t i = 0; i < n; i++)
		recalls[i] = 100.0 * res[i].recall;
	struct summary sum;
	sum.mean = gsl_stats_mean(recalls, 1, n);
	sum.var = n > 1 ? gsl_stats_variance_m(recalls, 1, n, sum.mean) : NAN;
	sum.sd = sqrt(sum.var);
	if (o->json)
		print_json(o, res, n, &sum);
	else
		print_text(res, n, &sum);
	status = tools_exit_status(prog);
out:
	free(res);
	free(recalls);
	tageval_supervised_free(sup);
	tageval_wsi_free(wsi);
	return status;
}

int tool_wsi_supervised_main(int argc, char **argv)
{
	struct options o = { .seed = 1, .fraction = 0.2 };
	o.given = calloc((size_t)argc + 1, sizeof *o.given);
	if (o.given == NULL)
		return tools_out_of_memory(prog);
	gsl_set_error_handler_off();
	int status = parse(argc, argv, &o);
	if (status < 0)
		status = run(&o);
	free(o.given);
	return status;
}
