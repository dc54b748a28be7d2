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

static void usage(FILE *fp)
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
	int bad = ferror(fp);
	if (fclose(fp) != 0 || bad) {
		fprintf(stderr, "%s: %s: write error: %s\n", prog, path, strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

enum { OPT_SPLITS = 256, OPT_FRACTION, OPT_SPLIT, OPT_POS, OPT_WRITE, OPT_FORMAT };

int tool_wsi_supervised_main(int argc, char **argv)
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
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long folds = 0, nsplits = 0, seed = 1;
	double fraction = 0.2;
	int fraction_given = 0, json = 0, c;
	const char *pos = NULL, *outdir = NULL;
	char **given = calloc((size_t)argc + 1, sizeof *given);
	size_t ngiven = 0;
	char *end;
	if (given == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_DATA;
	}
	gsl_set_error_handler_off();
	opterr = 0;
	int status = EXIT_INVALID_USAGE;
	while ((c = getopt_long(argc, argv, ":k:s:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			if (tools_parse_count(optarg, 1000000, &folds) || folds < 2) {
				tools_usage_error(prog, "invalid number of folds \"%s\" (2 or more)",
						  optarg);
				goto usage_out;
			}
			break;
		case OPT_SPLITS:
			if (tools_parse_count(optarg, 1000000, &nsplits) || nsplits < 1) {
				tools_usage_error(prog, "invalid number of splits \"%s\"", optarg);
				goto usage_out;
			}
			break;
		case OPT_FRACTION:
			errno = 0;
			fraction = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(fraction > 0.0 && fraction < 1.0)) {
				tools_usage_error(prog, "invalid test fraction \"%s\" (between 0 and 1)",
						  optarg);
				goto usage_out;
			}
			fraction_given = 1;
			break;
		case OPT_SPLIT:
			if (strchr(optarg, ':') == NULL || optarg[0] == ':' ||
			    optarg[strlen(optarg) - 1] == ':') {
				tools_usage_error(prog, "invalid split \"%s\" (MAPPING:TEST)", optarg);
				goto usage_out;
			}
			given[ngiven++] = optarg;
			break;
		case 's':
			if (tools_parse_count(optarg, 0xffffffffull, &seed)) {
				tools_usage_error(prog, "invalid seed \"%s\" (0 to 4294967295)", optarg);
				goto usage_out;
			}
			break;
		case OPT_POS:
			if (optarg[0] == '\0' || strpbrk(optarg, " \t.") != NULL) {
				tools_usage_error(prog, "invalid part of speech \"%s\"", optarg);
				goto usage_out;
			}
			pos = optarg;
			break;
		case OPT_WRITE:
			outdir = optarg;
			break;
		case OPT_FORMAT:
			if (tools_parse_format(prog, optarg, &json))
				goto usage_out;
			break;
		case 'h':
			usage(stdout);
			free(given);
			return tools_close_stdout(prog) ? EXIT_DATA : EXIT_SUCCESS;
		case 'V':
			free(given);
			return tools_version(prog);
		default:
			tools_option_error(prog, c, argv);
			goto usage_out;
		}
	}
	if ((folds != 0) + (nsplits != 0) + (ngiven != 0) > 1) {
		tools_usage_error(prog, "choose one of --folds, --splits and --split");
		goto usage_out;
	}
	if (fraction_given && nsplits == 0) {
		tools_usage_error(prog, "--test-fraction goes with --splits");
		goto usage_out;
	}
	if (folds == 0 && nsplits == 0 && ngiven == 0)
		folds = 5;
	if (argc - optind != 2) {
		tools_usage_error(prog, argc - optind < 2 ? "missing operand: CLUSTERS and GOLD "
							     "are required"
							   : "too many operands");
		goto usage_out;
	}
	if (outdir) {
		struct stat st;
		if (stat(outdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
			tools_usage_error(prog, "--write-mapped: \"%s\" is not a directory", outdir);
			goto usage_out;
		}
	}
	const char *clusters = argv[optind], *gold = argv[optind + 1];
	const char **inputs = malloc((2 * ngiven + 2) * sizeof *inputs);
	if (inputs == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		status = EXIT_DATA;
		goto usage_out;
	}
	inputs[0] = clusters;
	inputs[1] = gold;
	for (size_t i = 0; i < ngiven; i++) { /* MAPPING:TEST, cut at the colon for the check */
		char *colon = strchr(given[i], ':');
		*colon = '\0';
		inputs[2 * i + 2] = given[i];
		inputs[2 * i + 3] = colon + 1;
	}
	int bad_stdin = tools_check_stdin(prog, inputs, 2 * ngiven + 2);
	for (size_t i = 0; i < ngiven; i++)
		given[i][strlen(given[i])] = ':';
	free(inputs);
	if (bad_stdin)
		goto usage_out;

	status = EXIT_DATA;
	struct tageval_error err = { 0 };
	struct tageval_wsi *wsi = tageval_wsi_new();
	struct tageval_supervised *sup = NULL;
	struct tageval_supervised_result *res = NULL;
	double *recalls = NULL;
	if (wsi == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	if (tageval_wsi_read_gold(wsi, gold, &err) || tageval_wsi_read_clusters(wsi, clusters, &err) ||
	    tageval_supervised_new(wsi, pos, &sup, &err))
		goto fail;
	for (size_t i = 0; i < ngiven; i++) {
		char *colon = strchr(given[i], ':');
		*colon = '\0';
		int rc = tageval_supervised_add_files(sup, given[i], colon + 1, &err);
		*colon = ':';
		if (rc)
			goto fail;
	}
	if (folds && tageval_supervised_add_folds(sup, (size_t)folds, (unsigned long)seed, &err))
		goto fail;
	if (nsplits && tageval_supervised_add_random(sup, (size_t)nsplits, fraction,
						     (unsigned long)seed, &err))
		goto fail;
	size_t n = tageval_supervised_splits(sup);
	res = calloc(n, sizeof *res);
	recalls = calloc(n, sizeof *recalls);
	if (res == NULL || recalls == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		char *mapped = NULL;
		if (tageval_supervised_evaluate(sup, i, &res[i], outdir ? &mapped : NULL, &err))
			goto fail;
		recalls[i] = 100.0 * res[i].recall;
		if (outdir) {
			int bad = write_mapped(outdir, i, mapped);
			free(mapped);
			if (bad)
				goto out;
		}
	}
	if (tageval_wsi_ignored(wsi) + tageval_wsi_answered(wsi) == 0)
		fprintf(stderr, "%s: note: %s: no answer lines (the system attempted nothing)\n",
			prog, tools_file_name(clusters));
	if (tageval_wsi_ignored(wsi))
		fprintf(stderr, "%s: note: %zu line%s of %s name%s no instance of %s; ignored\n",
			prog, tageval_wsi_ignored(wsi), tageval_wsi_ignored(wsi) == 1 ? "" : "s",
			tools_file_name(clusters), tageval_wsi_ignored(wsi) == 1 ? "s" : "",
			tools_file_name(gold));
	struct tageval_wsi_counts counts;
	tageval_wsi_counts(wsi, &counts);
	if (counts.gold_weighted)
		fprintf(stderr, "%s: note: %zu line%s of %s carr%s weights; gold weights are ignored "
			"(each of a line's n labels counts 1/n, the SemEval-2010 rule)\n",
			prog, counts.gold_weighted, counts.gold_weighted == 1 ? "" : "s",
			tools_file_name(gold), counts.gold_weighted == 1 ? "ies" : "y");
	/* mean recall, and the sample variance (n - 1) in percent squared, as
	 * the SemEval-2010 tables print it */
	double mean = gsl_stats_mean(recalls, 1, n);
	double var = n > 1 ? gsl_stats_variance_m(recalls, 1, n, mean) : NAN;
	double sd = sqrt(var);
	if (json) {
		tools_printf("{\"method\":\"%s\",", folds ? "folds" : nsplits ? "random" : "given");
		if (folds || nsplits)
			tools_printf("\"seed\":%llu,", seed);
		if (nsplits)
			tools_printf("\"test_fraction\":%.17g,", fraction);
		tools_printf("\"pos\":");
		tools_json_string(stdout, pos ? pos : "all");
		tools_printf(",\"splits\":[");
		struct tools_undefined u;
		for (size_t i = 0; i < n; i++) {
			tools_undefined_init(&u);
			tools_printf("%s{\"mapping\":%zu,\"test\":%zu,\"answered\":%zu,\"correct\":%.17g,",
			       i ? "," : "", res[i].mapping, res[i].test, res[i].answered,
			       res[i].correct);
			tools_json_figure(stdout, &u, "precision", res[i].precision,
					  "no test instance answered (the mapped answers give "
					  "no sense to any)");
			putchar(',');
			tools_json_figure(stdout, &u, "recall", res[i].recall, "no test instance");
			putchar(',');
			tools_json_figure(stdout, &u, "attempted", res[i].attempted,
					  "no test instance");
			tools_json_undefined(stdout, &u);
			tools_printf("}");
		}
		tools_undefined_init(&u);
		tools_printf("],");
		tools_json_figure(stdout, &u, "mean_recall", mean / 100.0, "no split");
		putchar(',');
		tools_json_figure(stdout, &u, "variance", var,
				  "a single split (the sample variance needs two or more)");
		putchar(',');
		tools_json_figure(stdout, &u, "stddev", sd,
				  "a single split (the sample variance needs two or more)");
		tools_json_undefined(stdout, &u);
		tools_printf("}\n");
	} else {
		tools_printf("%5s %9s %9s %9s %10s %8s %10s\n", "split", "mapping", "test", "answered",
		       "precision", "recall", "attempted");
		for (size_t i = 0; i < n; i++) {
			tools_printf("%5zu %9zu %9zu %9zu %9.2f%% %7.2f%% %9.2f%%\n", i + 1, res[i].mapping,
			       res[i].test, res[i].answered, 100.0 * res[i].precision,
			       100.0 * res[i].recall, 100.0 * res[i].attempted);
		}
		tools_printf("\nmean recall: %.2f %%\n", mean);
		if (n > 1)
			tools_printf("variance: %.2f (percent squared, n - 1)\nstandard deviation: %.2f %%\n",
			       var, sd);
	}
	status = tools_close_stdout(prog) ? EXIT_DATA : EXIT_SUCCESS;
	goto out;
fail:
	tools_print_error(prog, &err);
out:
	free(res);
	free(recalls);
	tageval_supervised_free(sup);
	tageval_wsi_free(wsi);
usage_out:
	free(given);
	return status;
}
