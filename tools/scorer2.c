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

static void usage(FILE *fp, const void *ctx)
{
	tools_fprintf(fp,
		"Usage: %s [OPTIONS] ANSWERS KEY [SENSEMAP]\n"
		"Score a system's sense-tagged ANSWERS against the gold KEY, the Senseval way.\n"
		"Options and operands may be mixed; any one file (ANSWERS, KEY, SENSEMAP or\n"
		"a filter) may be '-' for standard input, not two.\n"
		"\n"
		"  -g, --granularity=POLICY  fine (default), coarse or mixed; coarse and mixed\n"
		"                            need SENSEMAP\n"
		"  -m, --minimal             leave out instances with several key tags\n"
		"  -v, --verbose             print the scoring of every answer line\n"
		"  -q, --quiet               no \"Unable to score\" line per answer on\n"
		"                            standard error\n"
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

/* What on_answer() needs: -v and -q. */
struct answer_notes {
	int verbose, quiet;
};

static void on_answer(const struct tageval_answer_event *ev, void *userdata)
{
	const struct answer_notes *notes = userdata;
	static const char *const why[] = {
		[TAGEVAL_ANSWER_NOT_IN_KEY] = "Does not exist.",
		[TAGEVAL_ANSWER_INVALID] = "Invalid answer.",
		[TAGEVAL_ANSWER_EXCLUDED] = "Excluded or already scored.",
	};
	switch (ev->status) {
	case TAGEVAL_ANSWER_SCORED:
		if (!notes->verbose)
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
		/* standard error counts lines from 1, as the error messages do;
		 * the -v trace keeps the reference's count from 0, so that
		 * standard output stays the reference's byte for byte */
		if (!notes->quiet)
			fprintf(stderr,
				"Unable to score answer for \"%s_%s\" (line %" PRIu64 "): %s\n",
				ev->lexelt, ev->instance, ev->line, why[ev->status]);
		if (notes->verbose)
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

/* Why recall is undefined: the key is never empty, so no instance left
 * means -m or a filter left every one out. */
static const char *no_instance(const struct tageval_score_options *opts)
{
	if (opts->minimal && opts->filter)
		return "no instance evaluated (minimal scoring and the filters left out every "
		       "instance of the key)";
	if (opts->minimal)
		return "no instance evaluated (every instance of the key has several tags: "
		       "minimal scoring leaves it out)";
	if (opts->filter)
		return "no instance evaluated (the filters left out every instance of the key)";
	return "no instance in the key";
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
	const char *none = no_instance(opts);
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

struct options {
	struct tageval_score_options score; /* but filter, on_answer, userdata */
	int verbose, quiet, json;
	const char *answers, *key, *map; /* the operands; map NULL: none */
	const char *instances, *tags;    /* the filters' files, NULL: none */
};

enum { OPT_CONJUNCTIVE = 256, OPT_INSTANCES, OPT_TAGS, OPT_FORMAT };

static int option(void *ctx, int c, char *arg)
{
	struct options *o = ctx;
	switch (c) {
	case 'g':
		if (strcmp(arg, "fine") == 0)
			o->score.granularity = TAGEVAL_FINE;
		else if (strcmp(arg, "coarse") == 0)
			o->score.granularity = TAGEVAL_COARSE;
		else if (strcmp(arg, "mixed") == 0)
			o->score.granularity = TAGEVAL_MIXED;
		else {
			tools_usage_error(prog, "invalid granularity \"%s\" (fine, coarse or mixed)",
					  arg);
			return -1;
		}
		return 0;
	case 'm':
		o->score.minimal = 1;
		return 0;
	case 'v':
		o->verbose = 1;
		return 0;
	case 'q':
		o->quiet = 1;
		return 0;
	case OPT_CONJUNCTIVE:
		o->score.conjunctive = 1;
		return 0;
	case OPT_INSTANCES:
		o->instances = arg;
		return 0;
	case OPT_TAGS:
		o->tags = arg;
		return 0;
	default: /* OPT_FORMAT */
		return tools_parse_format(prog, arg, &o->json);
	}
}

/*
 * The note that most answer lines name instances absent from the key: more
 * than three quarters of the lines that name an instance (scored, not in
 * the key, invalid, excluded or filtered; floor(3 * lines / 4) without
 * overflow), which is what scoring a key as the answers, or a file of
 * another task, gives.  (The Senseval sample task's answers, 10 of 19 lines
 * absent from its key, stay below.)
 */
static void note_swapped(const struct options *o, const struct tageval_score *s)
{
	size_t lines = s->scored + s->not_in_key + s->invalid + s->excluded + s->filtered;
	if (s->not_in_key <= lines / 4 * 3 + lines % 4 * 3 / 4)
		return;
	fprintf(stderr,
		"%s: note: %zu of the %zu answer lines of %s name instances absent from the key "
		"%s: are ANSWERS and KEY given in this order?\n",
		prog, s->not_in_key, lines, tools_file_name(o->answers),
		tools_file_name(o->key));
}

/* Parses the command line; returns -1 to go on, or the exit status. */
static int parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "granularity", required_argument, NULL, 'g' },
		{ "minimal", no_argument, NULL, 'm' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "conjunctive", no_argument, NULL, OPT_CONJUNCTIVE },
		{ "instances", required_argument, NULL, OPT_INSTANCES },
		{ "tags", required_argument, NULL, OPT_TAGS },
		{ "format", required_argument, NULL, OPT_FORMAT },
		TOOLS_OPTIONS_HELP_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	const struct tools_cli cli = { prog, ":g:mvqhV", longopts, option, usage, o };
	int status = tools_getopt(&cli, argc, argv);
	if (status >= 0)
		return status;
	int nargs = argc - optind;
	if (tools_check_operands(prog, nargs, 2, -1,
				 "missing operand: ANSWERS and KEY are required"))
		return EXIT_INVALID_USAGE;
	if (nargs > 3) {
		tools_usage_error(prog, "too many operands: \"%s\"", argv[optind + 3]);
		return EXIT_INVALID_USAGE;
	}
	if (o->json && o->verbose) {
		tools_usage_error(prog, "--verbose and --format=json cannot be combined");
		return EXIT_INVALID_USAGE;
	}
	o->answers = argv[optind];
	o->key = argv[optind + 1];
	o->map = nargs == 3 ? argv[optind + 2] : NULL;
	const char *const files[] = { o->answers, o->key, o->map, o->instances, o->tags };
	if (tools_check_stdin(prog, files, sizeof files / sizeof files[0]))
		return EXIT_INVALID_USAGE;
	if (o->score.granularity != TAGEVAL_FINE && o->map == NULL) {
		fprintf(stderr, "Fine-grained scoring will be used since no sense map was given\n");
		o->score.granularity = TAGEVAL_FINE;
	}
	return -1;
}

/* Reads the sense map, the key and the filters; returns -1 to go on, or the
 * exit status. */
static int read_key(const struct options *o, struct tageval_inventory *inv,
		    struct tageval_key **key, struct tageval_filter **filter)
{
	struct tageval_error err = { 0 };
	if (o->map && tageval_inventory_read_map(inv, o->map, &err))
		goto fail;
	if (tageval_key_read(inv, o->key, key, &err))
		goto fail;
	if (o->instances == NULL && o->tags == NULL)
		return -1;
	if ((*filter = tageval_filter_new()) == NULL)
		return tools_out_of_memory(prog);
	if (o->instances && tageval_filter_read_instances(*filter, o->instances, &err))
		goto fail;
	if (o->tags && tageval_filter_read_tags(*filter, inv, o->tags, &err))
		goto fail;
	return -1;
fail:
	tools_print_error(prog, &err);
	return EXIT_DATA;
}

/* Scores the answers and prints the result; returns the exit status. */
static int run(const struct options *o)
{
	int status = EXIT_DATA;
	struct answer_notes notes = { o->verbose, o->quiet };
	struct tageval_error err = { 0 };
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_filter *filter = NULL;
	struct tageval_key *key = NULL;
	struct tageval_scorer *scorer = NULL;
	struct tageval_score_options opts = o->score;
	if (inv == NULL) {
		status = tools_out_of_memory(prog);
		goto out;
	}
	if ((status = read_key(o, inv, &key, &filter)) >= 0)
		goto out;
	status = EXIT_DATA;
	opts.filter = filter;
	opts.on_answer = on_answer;
	opts.userdata = &notes;
	if (tageval_scorer_new(inv, key, &opts, &scorer, &err) ||
	    tageval_scorer_read(scorer, o->answers, &err)) {
		tools_print_error(prog, &err);
		goto out;
	}
	struct tageval_score result;
	tageval_scorer_result(scorer, &result);
	if (result.scored + result.not_in_key + result.invalid + result.excluded +
	    result.filtered == 0)
		tools_note_no_answers(prog, o->answers);
	else
		note_swapped(o, &result);
	if (o->json)
		print_json(o->answers, o->key, &opts, &result);
	else
		print_text(o->answers, o->key, &opts, &result);
	status = tools_exit_status(prog);
out:
	tageval_scorer_free(scorer);
	tageval_key_free(key);
	tageval_filter_free(filter);
	tageval_inventory_free(inv);
	return status;
}

int tool_scorer2_main(int argc, char **argv)
{
	/* A large file can give an "Unable to score" line per answer: when
	 * stderr goes to a file or a pipe, buffer it instead of one write(2)
	 * per line (it is flushed at exit); on a terminal keep it unbuffered. */
	static char errbuf[1 << 16];
	if (!isatty(fileno(stderr)))
		setvbuf(stderr, errbuf, _IOFBF, sizeof errbuf);
	struct options o = { .json = 0 };
	tageval_score_options_init(&o.score);
	int status = parse(argc, argv, &o);
	return status >= 0 ? status : run(&o);
}
