/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gen-wsd-graded - writes a large synthetic graded data set in the shape of
 * SemEval-2013 Task 13 for benchmarking wsd-graded: DIR/gold (a graded gold
 * key), DIR/induced (a system's graded induced senses) and DIR/wn (a
 * system's graded answers in the gold inventory).
 *
 * The data set is a pure function of --instances and --seed.  The instances
 * come in words of WORD_SIZE (g00000.n, g00001.v, g00002.j, ...; the last
 * word takes the rest); word w has 3 + w mod 6 gold senses.  A gold line
 * rates one sense (88%), two (11%) or three (1%), each 1 to 5, the first
 * sense drawn with Zipf-like weights.  The induced answers use N_CLUSTERS
 * clusters per word, 1 to 4 of them per line with weights 1 to 99, the first
 * cluster tied to the first gold sense 70% of the time; 2% of the instances
 * are unanswered.  The answers in the gold inventory give 1 to 3 senses, 50%
 * of the lines without ratings.  Every file is written word by word, in
 * instance order, as the task's files are.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen-common.h"

#define PROG "gen-wsd-graded"

#define WORD_SIZE 100
#define N_CLUSTERS 12
#define MAX_INSTANCES 1000000000u

enum stream { STREAM_GOLD = 1, STREAM_INDUCED, STREAM_WN };

static const char pos_letter[3] = { 'n', 'v', 'j' };

static int n_senses(uint64_t w)
{
	return 3 + (int)(w % 6);
}

/* a sense of word w, Zipf(1)-like: sense s with weight 1/(s+1) */
static int draw_sense(struct gen_rng *r, int k)
{
	double total = 0.0;
	for (int s = 0; s < k; s++)
		total += 1.0 / (s + 1);
	double u = gen_rng_unit(r) * total, acc = 0.0;
	for (int s = 0; s < k; s++) {
		acc += 1.0 / (s + 1);
		if (u < acc)
			return s;
	}
	return k - 1;
}

/* the gold senses of instance i (word w): their number and first sense */
static int gold_senses(uint64_t seed, uint64_t i, int k, int *sense, int *rating)
{
	struct gen_rng r;
	gen_rng_init(&r, seed, STREAM_GOLD, i, UINT64_C(0x9e3779b97f4a7c15));
	double u = gen_rng_unit(&r);
	int n = u < 0.88 ? 1 : u < 0.99 ? 2 : 3;
	if (n > k)
		n = k;
	sense[0] = draw_sense(&r, k);
	for (int j = 1; j < n; j++) {
		int s;
		int again;
		do {
			s = (int)gen_rng_below(&r, (uint64_t)k);
			again = 0;
			for (int m = 0; m < j; m++)
				again |= sense[m] == s;
		} while (again);
		sense[j] = s;
	}
	for (int j = 0; j < n; j++)
		rating[j] = 1 + (int)gen_rng_below(&r, 5);
	return n;
}

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: " PROG " [--instances N] [--seed S] DIR\n"
		"Writes DIR/gold, DIR/induced and DIR/wn: N graded instances (default\n"
		"1000000) in words of %d, deterministic for given N and S (default 1).\n",
		WORD_SIZE);
}

int main(int argc, char **argv)
{
	struct gen_args a = gen_parse_args(PROG, "--instances", 1, MAX_INSTANCES, usage, argc, argv);
	struct gen_file fg, fi, fw;
	FILE *gold = gen_file_open(&fg, PROG, a.dir, "gold");
	FILE *ind = gen_file_open(&fi, PROG, a.dir, "induced");
	FILE *wn = gen_file_open(&fw, PROG, a.dir, "wn");
	uint64_t nwords = a.count / WORD_SIZE ? a.count / WORD_SIZE : 1;
	for (uint64_t i = 0; i < a.count; i++) {
		uint64_t w = i / WORD_SIZE < nwords ? i / WORD_SIZE : nwords - 1;
		uint64_t id = i - w * WORD_SIZE + 1;
		char word[32];
		snprintf(word, sizeof word, "g%05" PRIu64 ".%c", w, pos_letter[w % 3]);
		int k = n_senses(w), sense[3], rating[3];
		int n = gold_senses(a.seed, i, k, sense, rating);
		fprintf(gold, "%s %s.%" PRIu64, word, word, id);
		for (int j = 0; j < n; j++)
			fprintf(gold, " %s%%%d/%d", word, sense[j] + 1, rating[j]);
		fputc('\n', gold);

		struct gen_rng r;
		gen_rng_init(&r, a.seed, STREAM_INDUCED, i, UINT64_C(0x2545f4914f6cdd1d));
		if (gen_rng_unit(&r) >= 0.02) {
			int m = 1 + (int)gen_rng_below(&r, 4);
			fprintf(ind, "%s %s.%" PRIu64, word, word, id);
			int first = gen_rng_unit(&r) < 0.7 ? sense[0] * 2 % N_CLUSTERS
							  : (int)gen_rng_below(&r, N_CLUSTERS);
			for (int j = 0; j < m; j++) {
				int c = j == 0 ? first : (first + j) % N_CLUSTERS;
				fprintf(ind, " %s.c%d/%d", word, c, 1 + (int)gen_rng_below(&r, 99));
			}
			fputc('\n', ind);
		}

		gen_rng_init(&r, a.seed, STREAM_WN, i, UINT64_C(0x94d049bb133111eb));
		int m = 1 + (int)gen_rng_below(&r, 3);
		if (m > k)
			m = k;
		int rated = gen_rng_unit(&r) < 0.5;
		fprintf(wn, "%s %s.%" PRIu64, word, word, id);
		int base = gen_rng_unit(&r) < 0.6 ? sense[0] : (int)gen_rng_below(&r, (uint64_t)k);
		for (int j = 0; j < m; j++) {
			fprintf(wn, " %s%%%d", word, (base + j) % k + 1);
			if (rated)
				fprintf(wn, "/%d", 1 + (int)gen_rng_below(&r, 5));
		}
		fputc('\n', wn);
		if ((i & 0xffff) == 0) {
			gen_file_check(&fg);
			gen_file_check(&fi);
			gen_file_check(&fw);
		}
	}
	gen_file_close(&fg);
	gen_file_close(&fi);
	gen_file_close(&fw);
	return 0;
}
