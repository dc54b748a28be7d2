/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gen-wsd-framework - writes a large synthetic data set in the shape of the
 * unified WSD evaluation framework's ALL for benchmarking wsd-score: DIR/gold
 * (a gold key) and DIR/system0 ... DIR/system{K-1} (K systems' answers,
 * --systems K, default 1).
 *
 * The data set is a pure function of --instances, --systems and --seed.
 * Ids are ALL-style, "DATASET.dDDD.sSSS.tTTT": the instances go to the five
 * datasets in the framework's proportions (2282 : 1850 : 455 : 1644 : 1022
 * of 7253), in documents of 40 sentences of 8 instances.  An instance's
 * lemma is one of 5,000, its part of speech noun, verb, adjective or adverb
 * (59, 23, 13, 5 %, as in ALL), its gold line one WordNet-style sense key
 * (95 %), two (4 %) or three (1 %) of that synset type.  System k answers
 * every instance with one key, right with probability 0.70 + 0.01 k, the
 * lines in the gold key's order.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-common.h"

#define PROG "gen-wsd-framework"

#define MAX_INSTANCES 1000000000u
#define MAX_SYSTEMS 100
#define N_LEMMAS 5000
#define PER_SENTENCE 8
#define PER_DOCUMENT (40 * PER_SENTENCE)

enum stream { STREAM_GOLD = 1, STREAM_SYSTEM };

static const char *const dataset[5] = { "senseval2", "senseval3", "semeval2007", "semeval2013",
					"semeval2015" };
static const uint64_t dataset_size[5] = { 2282, 1850, 455, 1644, 1022 }; /* of 7253 */

static void usage(FILE *fp)
{
	fprintf(fp, "usage: " PROG " [--instances N] [--systems K] [--seed S] DIR\n"
		    "Writes DIR/gold and DIR/system0 ... DIR/system{K-1}: N instances (default\n"
		    "1000000) with ALL-style ids, K systems (default 1, at most %d),\n"
		    "deterministic for given N, K and S (default 1).\n",
		MAX_SYSTEMS);
}

/* a sense key of lemma l, synset type t (1-4), sense number s */
static void key(char *buf, size_t size, unsigned l, int t, int s)
{
	snprintf(buf, size, "w%04u%%%d:%02d:%02d::", l, t, 3 + t * 4 + s % 3, s);
}

int main(int argc, char **argv)
{
	/* --systems K taken out before the common arguments */
	long systems = 1;
	int m = 1;
	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--systems") == 0) {
			char *end;
			systems = strtol(argv[i + 1], &end, 10);
			if (*end != '\0' || systems < 1 || systems > MAX_SYSTEMS) {
				usage(stderr);
				return 2;
			}
			i++;
			continue;
		}
		argv[m++] = argv[i];
	}
	argc = m;
	argv[argc] = NULL;
	struct gen_args a = gen_parse_args(PROG, "--instances", 1, MAX_INSTANCES, usage, argc, argv);
	struct gen_file fg, fs[MAX_SYSTEMS];
	FILE *gold = gen_file_open(&fg, PROG, a.dir, "gold");
	FILE *sys[MAX_SYSTEMS];
	for (long k = 0; k < systems; k++) {
		char name[32];
		snprintf(name, sizeof name, "system%ld", k);
		sys[k] = gen_file_open(&fs[k], PROG, a.dir, name);
	}
	uint64_t first = 0;
	for (int d = 0; d < 5; d++) {
		/* the dataset's share of N, the last one the rest */
		uint64_t count = d < 4 ? a.count / 7253 * dataset_size[d] +
						 a.count % 7253 * dataset_size[d] / 7253
				       : a.count - first;
		for (uint64_t j = 0; j < count; j++) {
			uint64_t i = first + j;
			char id[80];
			snprintf(id, sizeof id, "%s.d%03" PRIu64 ".s%03" PRIu64 ".t%03" PRIu64,
				 dataset[d], j / PER_DOCUMENT, j % PER_DOCUMENT / PER_SENTENCE,
				 j % PER_SENTENCE);
			struct gen_rng r;
			gen_rng_init(&r, a.seed, STREAM_GOLD, i, UINT64_C(0x9e3779b97f4a7c15));
			unsigned l = gen_rng_below(&r, N_LEMMAS);
			double u = gen_rng_unit(&r);
			int t = u < 0.59 ? 1 : u < 0.82 ? 2 : u < 0.95 ? 3 : 4;
			u = gen_rng_unit(&r);
			int nk = u < 0.95 ? 1 : u < 0.99 ? 2 : 3;
			int s0 = 1 + (int)gen_rng_below(&r, 6);
			char k[64];
			fputs(id, gold);
			for (int q = 0; q < nk; q++) {
				key(k, sizeof k, l, t, s0 + q);
				fprintf(gold, " %s", k);
			}
			fputc('\n', gold);
			for (long s = 0; s < systems; s++) {
				gen_rng_init(&r, a.seed, STREAM_SYSTEM + (uint64_t)s, i,
					     UINT64_C(0x2545f4914f6cdd1d));
				int right = gen_rng_unit(&r) < 0.70 + 0.01 * (double)s;
				key(k, sizeof k, l, t, right ? s0 : s0 + 7);
				fprintf(sys[s], "%s %s\n", id, k);
			}
			if ((i & 0xffff) == 0) {
				gen_file_check(&fg);
				for (long s = 0; s < systems; s++)
					gen_file_check(&fs[s]);
			}
		}
		first += count;
	}
	gen_file_close(&fg);
	for (long s = 0; s < systems; s++)
		gen_file_close(&fs[s]);
	return 0;
}
