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

static void usage(FILE *fp)
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

int tool_wsi_baseline_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "method", required_argument, NULL, 'm' },
		{ "clusters", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	enum method method = ONE_PER_WORD;
	unsigned long long k = 4, seed = 1;
	int c;
	gsl_set_error_handler_off();
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:k:s:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (strcmp(optarg, "1c1w") == 0)
				method = ONE_PER_WORD;
			else if (strcmp(optarg, "1c1inst") == 0)
				method = ONE_PER_INSTANCE;
			else if (strcmp(optarg, "random") == 0)
				method = RANDOM;
			else {
				tools_usage_error(prog, "invalid method \"%s\" (1c1w, 1c1inst or "
					     "random)", optarg);
				return EXIT_INVALID_USAGE;
			}
			break;
		case 'k':
			if (tools_parse_count(optarg, 1000000000ull, &k) || k == 0) {
				tools_usage_error(prog, "invalid number of clusters \"%s\"", optarg);
				return EXIT_INVALID_USAGE;
			}
			break;
		case 's':
			if (tools_parse_count(optarg, 0xffffffffull, &seed)) {
				tools_usage_error(prog, "invalid seed \"%s\" (0 to 4294967295)", optarg);
				return EXIT_INVALID_USAGE;
			}
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
	if (argc - optind != 1) {
		tools_usage_error(prog, argc - optind < 1 ? "missing operand: GOLD is required"
							 : "too many operands");
		return EXIT_INVALID_USAGE;
	}
	const char *const files[] = { argv[optind] };
	if (tools_check_stdin(prog, files, 1))
		return EXIT_INVALID_USAGE;
	int status = EXIT_DATA;
	struct tageval_error err = { 0 };
	struct tageval_wsi *wsi = tageval_wsi_new();
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (wsi == NULL || rng == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	gsl_rng_set(rng, (unsigned long)seed);
	if (tageval_wsi_read_gold(wsi, argv[optind], &err)) {
		tools_print_error(prog, &err);
		goto out;
	}
	for (size_t i = 0; i < tageval_wsi_instances(wsi); i++) {
		const char *word, *inst;
		tageval_wsi_instance(wsi, i, &word, &inst);
		switch (method) {
		case ONE_PER_WORD:
			tools_printf("%s %s cl1\n", word, inst);
			break;
		case ONE_PER_INSTANCE:
			/* numbered over the whole key: a word's lines need not be together */
			tools_printf("%s %s cl%zu\n", word, inst, i + 1);
			break;
		case RANDOM:
			tools_printf("%s %s rand%lu\n", word, inst, gsl_rng_uniform_int(rng, (unsigned long)k));
			break;
		}
	}
	status = tools_close_stdout(prog) ? EXIT_DATA : EXIT_SUCCESS;
out:
	if (rng)
		gsl_rng_free(rng);
	tageval_wsi_free(wsi);
	return status;
}
