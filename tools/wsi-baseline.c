/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wsi-baseline - the baseline clusterings of a gold key: one cluster per
 * word, one cluster per instance, or a random clustering, in the key format.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>

#include "tageval.h"
#include "tools-common.h"
#include "tools-main.h"

static const char prog[] = "wsi-baseline";

static void usage(FILE *fp, const void *ctx)
{
	tools_fprintf(fp,
		"Usage: %s [OPTIONS] GOLD\n"
		"Write a baseline clustering of the instances of GOLD on standard output, one\n"
		"'word instance cluster' line per gold instance, in the gold key's order.\n"
		"\n"
		"  -m, --method=METHOD       1c1w: one cluster per word (cluster cl1),\n"
		"                            1c1inst: one cluster per instance (cl1, cl2, ...\n"
		"                            numbered over the whole key),\n"
		"                            random: each instance in one of K clusters\n"
		"                            (rand0 ... rand<K-1>), uniformly (default 1c1w)\n"
		"  -k, --clusters=K          clusters per word for random (default 4)\n"
		"  -s, --seed=S              seed of the random numbers (GSL mt19937, default 1)\n"
		"  -h, --help                show this help and exit\n"
		"  -V, --version             show the version and exit\n"
		"\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 usage error.\n"
		"See wsi-baseline(1).\n",
		prog);
}

enum method { ONE_PER_WORD, ONE_PER_INSTANCE, RANDOM };

struct options {
	enum method method;
	unsigned long long k, seed;
	const char *gold;
};

static int option(void *ctx, int c, char *arg)
{
	struct options *o = ctx;
	switch (c) {
	case 'm':
		if (strcmp(arg, "1c1w") == 0)
			o->method = ONE_PER_WORD;
		else if (strcmp(arg, "1c1inst") == 0)
			o->method = ONE_PER_INSTANCE;
		else if (strcmp(arg, "random") == 0)
			o->method = RANDOM;
		else {
			tools_usage_error(prog, "invalid method \"%s\" (1c1w, 1c1inst or random)",
					  arg);
			return -1;
		}
		return 0;
	case 'k':
		if (tools_parse_count(arg, 1000000000ull, &o->k) || o->k == 0) {
			tools_usage_error(prog, "invalid number of clusters \"%s\"", arg);
			return -1;
		}
		return 0;
	default: /* 's' */
		if (tools_parse_count(arg, 0xffffffffull, &o->seed)) {
			tools_usage_error(prog, "invalid seed \"%s\" (0 to 4294967295)", arg);
			return -1;
		}
		return 0;
	}
}

/* Parses the command line; returns -1 to go on, or the exit status. */
static int parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "method", required_argument, NULL, 'm' },
		{ "clusters", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 's' },
		TOOLS_OPTIONS_HELP_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	const struct tools_cli cli = { prog, ":m:k:s:hV", longopts, option, usage, o };
	int status = tools_getopt(&cli, argc, argv);
	if (status >= 0)
		return status;
	if (tools_check_operands(prog, argc - optind, 1, 1, "missing operand: GOLD is required"))
		return EXIT_INVALID_USAGE;
	o->gold = argv[optind];
	if (tools_check_stdin(prog, &o->gold, 1))
		return EXIT_INVALID_USAGE;
	return -1;
}

/* One 'word instance cluster' line per gold instance, in the key's order. */
static void print_clustering(const struct options *o, const struct tageval_wsi *wsi,
			     gsl_rng *rng)
{
	for (size_t i = 0; i < tageval_wsi_instances(wsi); i++) {
		const char *word, *inst;
		tageval_wsi_instance(wsi, i, &word, &inst);
		switch (o->method) {
		case ONE_PER_WORD:
			tools_printf("%s %s cl1\n", word, inst);
			break;
		case ONE_PER_INSTANCE:
			/* numbered over the whole key: a word's lines need not be together */
			tools_printf("%s %s cl%zu\n", word, inst, i + 1);
			break;
		case RANDOM:
			tools_printf("%s %s rand%lu\n", word, inst,
				     gsl_rng_uniform_int(rng, (unsigned long)o->k));
			break;
		}
	}
}

/* Reads the gold key and prints the baseline; returns the exit status. */
static int run(const struct options *o)
{
	int status = EXIT_DATA;
	struct tageval_error err = { 0 };
	struct tageval_wsi *wsi = tageval_wsi_new();
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (wsi == NULL || rng == NULL) {
		status = tools_out_of_memory(prog);
		goto out;
	}
	gsl_rng_set(rng, (unsigned long)o->seed);
	if (tageval_wsi_read_gold(wsi, o->gold, &err)) {
		tools_print_error(prog, &err);
		goto out;
	}
	print_clustering(o, wsi, rng);
	status = tools_exit_status(prog);
out:
	if (rng)
		gsl_rng_free(rng);
	tageval_wsi_free(wsi);
	return status;
}

int tool_wsi_baseline_main(int argc, char **argv)
{
	struct options o = { .method = ONE_PER_WORD, .k = 4, .seed = 1 };
	gsl_set_error_handler_off();
	int status = parse(argc, argv, &o);
	return status >= 0 ? status : run(&o);
}
