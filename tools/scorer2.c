/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * scorer2 - the Senseval scorer: precision, recall and attempted of a
 * system's answers against a gold key, fine, coarse or mixed-grained.
 * Output is byte-identical to the reference scorer2 on well-formed input.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tageval.h"
#include "tools-common.h"
#include "tools-main.h"

static const char prog[] = "scorer2";

struct run {
	int verbose;
};

static void usage(FILE *fp)
{
	tools_fprintf(fp,
		"Usage: %s [OPTIONS] ANSWERS KEY [SENSEMAP]\n"
		"Score a system's sense-tagged ANSWERS against the gold KEY, the Senseval way.\n"
		"Files may be in any order; ANSWERS may be '-' for standard input.\n"
		"\n"
		"  -g, --granularity=POLICY  fine (default), coarse or mixed; coarse and mixed\n"
		"                            need SENSEMAP\n"
		"  -m, --minimal             leave out instances with several key tags\n"
		"  -v, --verbose             print the scoring of every answer line\n"
		"      --conjunctive         read key tags conjunctively and answer weights as\n"
		"                            probabilities of appearance\n"
		"      --instances=FILE      score only the instances listed in FILE\n"
		"      --tags=FILE           keep only the key tags listed in FILE\n"
		"      --format=FORMAT       text (default) or json\n"
		"  -h, --help                show this help and exit\n"
		"  -V, --version             show the version and exit\n"
		"\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 usage error.\n"
		"See scorer2(1) and tageval-formats(5).\n",
		prog);
}

static void on_answer(const struct tageval_answer_event *ev, void *userdata)
{
	const struct run *run = userdata;
	static const char *const why[] = {
		[TAGEVAL_ANSWER_NOT_IN_KEY] = "Does not exist.",
		[TAGEVAL_ANSWER_INVALID] = "Invalid answer.",
		[TAGEVAL_ANSWER_EXCLUDED] = "Excluded or already scored.",
	};
	switch (ev->status) {
	case TAGEVAL_ANSWER_SCORED:
		if (!run->verbose)
			return;
		tools_printf("score for \"%s_%s\": %.3f\n key   =", ev->lexelt, ev->instance, ev->score);
		for (size_t i = 0; i < ev->n_key; i++)
			tools_printf(" %s", ev->key_tags[i]);
		tools_printf("\n guess =");
		for (size_t i = 0; i < ev->n_guess; i++)
			tools_printf(" %s/%.3f", ev->guess_tags[i], ev->guess_weights[i]);
		tools_printf("\n\n");
		return;
	case TAGEVAL_ANSWER_NOT_IN_KEY:
	case TAGEVAL_ANSWER_INVALID:
	case TAGEVAL_ANSWER_EXCLUDED:
		/* the reference counts lines from 0 */
		fprintf(stderr, "Unable to score answer for \"%s_%s\" (line %" PRIu64 "): %s\n",
			ev->lexelt, ev->instance, ev->line - 1, why[ev->status]);
		if (run->verbose)
			tools_printf("Unable to score answer for \"%s_%s\" (line %" PRIu64 "): %s\n\n",
			       ev->lexelt, ev->instance, ev->line - 1, why[ev->status]);
		return;
	case TAGEVAL_ANSWER_FILTERED:
		return;
	}
}

static const char *policy_name(enum tageval_granularity g)
{
	return g == TAGEVAL_COARSE ? "Coarse-grained" : g == TAGEVAL_MIXED ? "Mixed-grained"
									   : "Fine-grained";
}

static void print_text(const char *answers, const char *key,
		       const struct tageval_score_options *opts, const struct tageval_score *s)
{
	char p[64], r[64], a[64];
	tools_format_ratio(p, sizeof p, 3, s->correct, s->attempted);
	tools_format_ratio(r, sizeof r, 3, s->correct, s->total);
	tools_format_ratio(a, sizeof a, 2, 100.0 * s->attempted, s->total);
	tools_printf("\n%s%s%s score for \"%s\" using key \"%s\":\n", policy_name(opts->granularity),
	       opts->minimal ? " minimal" : "", opts->conjunctive ? " conjunctive" : "", answers,
	       key);
	tools_printf(" precision: %s (%.2f correct of %.2f attempted)\n", p, s->correct, s->attempted);
	tools_printf(" recall: %s (%.2f correct of %.2f in total)\n", r, s->correct, s->total);
	tools_printf(" attempted: %s %% (%.2f attempted of %.2f in total)\n\n", a, s->attempted,
	       s->total);
}

static void print_json(const char *answers, const char *key,
		       const struct tageval_score_options *opts, const struct tageval_score *s)
{
	static const char *const gran[] = { "fine", "coarse", "mixed" };
	tools_printf("{\"granularity\":\"%s\",\"minimal\":%s,\"conjunctive\":%s,\"answers\":",
	       gran[opts->granularity], opts->minimal ? "true" : "false",
	       opts->conjunctive ? "true" : "false");
	tools_json_string(stdout, answers);
	tools_printf(",\"key\":");
	tools_json_string(stdout, key);
	tools_printf(",\"correct\":");
	tools_json_number(stdout, s->correct);
	tools_printf(",\"attempted\":");
	tools_json_number(stdout, s->attempted);
	tools_printf(",\"total\":");
	tools_json_number(stdout, s->total);
	/* the key is never empty: no instance left means -m or a filter left
	 * every one out */
	const char *none = opts->minimal && opts->filter
				   ? "no instance evaluated (minimal scoring and the filters left "
				     "out every instance of the key)"
			   : opts->minimal ? "no instance evaluated (every instance of the key has "
					     "several tags: minimal scoring leaves it out)"
			   : opts->filter ? "no instance evaluated (the filters left out every "
					    "instance of the key)"
					  : "no instance in the key";
	struct tools_undefined u;
	tools_undefined_init(&u);
	putchar(',');
	tools_json_figure_ratio(stdout, &u, "precision", s->correct, s->attempted,
				"nothing attempted (no answer scored)");
	putchar(',');
	tools_json_figure_ratio(stdout, &u, "recall", s->correct, s->total, none);
	putchar(',');
	tools_json_figure_ratio(stdout, &u, "attempted_percent", 100.0 * s->attempted, s->total,
				none);
	tools_printf(",\"instances\":%zu,\"scored\":%zu,\"not_in_key\":%zu,\"invalid\":%zu,"
	       "\"excluded\":%zu,\"filtered\":%zu",
	       s->instances, s->scored, s->not_in_key, s->invalid, s->excluded, s->filtered);
	tools_json_undefined(stdout, &u);
	tools_printf("}\n");
}

enum { OPT_CONJUNCTIVE = 256, OPT_INSTANCES, OPT_TAGS, OPT_FORMAT };

int tool_scorer2_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "granularity", required_argument, NULL, 'g' },
		{ "minimal", no_argument, NULL, 'm' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "conjunctive", no_argument, NULL, OPT_CONJUNCTIVE },
		{ "instances", required_argument, NULL, OPT_INSTANCES },
		{ "tags", required_argument, NULL, OPT_TAGS },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct tageval_score_options opts;
	tageval_score_options_init(&opts);
	struct run run = { 0 };
	const char *instances_file = NULL, *tags_file = NULL;
	int json = 0, c;

	/* A large file can give an "Unable to score" line per answer: when
	 * stderr goes to a file or a pipe, buffer it instead of one write(2)
	 * per line (it is flushed at exit); on a terminal keep it unbuffered. */
	static char errbuf[1 << 16];
	if (!isatty(fileno(stderr)))
		setvbuf(stderr, errbuf, _IOFBF, sizeof errbuf);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":g:mvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'g':
			if (strcmp(optarg, "fine") == 0)
				opts.granularity = TAGEVAL_FINE;
			else if (strcmp(optarg, "coarse") == 0)
				opts.granularity = TAGEVAL_COARSE;
			else if (strcmp(optarg, "mixed") == 0)
				opts.granularity = TAGEVAL_MIXED;
			else {
				tools_usage_error(prog, "invalid granularity \"%s\" "
					     "(fine, coarse or mixed)", optarg);
				return EXIT_INVALID_USAGE;
			}
			break;
		case 'm':
			opts.minimal = 1;
			break;
		case 'v':
			run.verbose = 1;
			break;
		case OPT_CONJUNCTIVE:
			opts.conjunctive = 1;
			break;
		case OPT_INSTANCES:
			instances_file = optarg;
			break;
		case OPT_TAGS:
			tags_file = optarg;
			break;
		case OPT_FORMAT:
			if (tools_parse_format(prog, optarg, &json))
				return EXIT_INVALID_USAGE;
			break;
		case 'h':
			usage(stdout);
			return tools_close_stdout(prog) ? EXIT_DATA : EXIT_SUCCESS;
		case 'V':
			return tools_version(prog);
		default:
			return tools_option_error(prog, c, argv);
		}
	}
	int nargs = argc - optind;
	if (nargs < 2) {
		tools_usage_error(prog, "missing operand: ANSWERS and KEY are required");
		return EXIT_INVALID_USAGE;
	}
	if (nargs > 3) {
		tools_usage_error(prog, "too many operands: \"%s\"", argv[optind + 3]);
		return EXIT_INVALID_USAGE;
	}
	if (json && run.verbose) {
		tools_usage_error(prog, "--verbose and --format=json cannot be combined");
		return EXIT_INVALID_USAGE;
	}
	const char *answers = argv[optind], *keyfile = argv[optind + 1];
	const char *mapfile = nargs == 3 ? argv[optind + 2] : NULL;
	const char *const files[] = { answers, keyfile, mapfile, instances_file, tags_file };
	if (tools_check_stdin(prog, files, sizeof files / sizeof files[0]))
		return EXIT_INVALID_USAGE;
	if (opts.granularity != TAGEVAL_FINE && mapfile == NULL) {
		fprintf(stderr, "Fine-grained scoring will be used since no sense map was given\n");
		opts.granularity = TAGEVAL_FINE;
	}

	int status = EXIT_DATA;
	struct tageval_error err = { 0 };
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_filter *filter = NULL;
	struct tageval_key *key = NULL;
	struct tageval_scorer *scorer = NULL;
	if (inv == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	if (mapfile && tageval_inventory_read_map(inv, mapfile, &err))
		goto fail;
	if (tageval_key_read(inv, keyfile, &key, &err))
		goto fail;
	if (instances_file || tags_file) {
		filter = tageval_filter_new();
		if (filter == NULL) {
			fprintf(stderr, "%s: out of memory\n", prog);
			goto out;
		}
		if (instances_file && tageval_filter_read_instances(filter, instances_file, &err))
			goto fail;
		if (tags_file && tageval_filter_read_tags(filter, inv, tags_file, &err))
			goto fail;
		opts.filter = filter;
	}
	opts.on_answer = on_answer;
	opts.userdata = &run;
	if (tageval_scorer_new(inv, key, &opts, &scorer, &err))
		goto fail;
	if (tageval_scorer_read(scorer, answers, &err))
		goto fail;
	struct tageval_score result;
	tageval_scorer_result(scorer, &result);
	if (result.scored + result.not_in_key + result.invalid + result.excluded +
	    result.filtered == 0)
		fprintf(stderr, "%s: note: %s: no answer lines (the system attempted nothing)\n",
			prog, tools_file_name(answers));
	if (json)
		print_json(answers, keyfile, &opts, &result);
	else
		print_text(answers, keyfile, &opts, &result);
	status = tools_close_stdout(prog) ? EXIT_DATA : EXIT_SUCCESS;
	goto out;
fail:
	tools_print_error(prog, &err);
out:
	tageval_scorer_free(scorer);
	tageval_key_free(key);
	tageval_filter_free(filter);
	tageval_inventory_free(inv);
	return status;
}
