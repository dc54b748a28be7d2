/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gen-wsi - writes a large synthetic word sense induction data set for
 * benchmarking vmeasure and fscore: DIR/gold (a gold key) and DIR/clusters
 * (a system's clustering of the same instances).
 *
 * The data set is a pure function of --instances and --seed.  N_WORDS target
 * words (w000.n, w001.v, ...) share the instances, N / N_WORDS each; every
 * word has N_SENSES gold senses, drawn with Zipf-like weights, and the
 * system uses N_CLUSTERS clusters per word, the cluster of an instance
 * depending on its sense most of the time.  The clusters file answers about
 * 97% of the instances; about 10% of its lines carry two or three weighted
 * labels and 2% two labels without weights (a tie for the SemEval-2007
 * reading).  Both files are written in their own random order.
 *
 * Each instance draws its sense and its clusters from its own random
 * stream (seeded from the seed and the instance number), so each file can
 * be written in any order without keeping the data in memory: the only large
 * allocation is one permutation (4 bytes per instance).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen-common.h"

#define PROG "gen-wsi"

#define N_WORDS 100
#define N_SENSES 10
#define N_CLUSTERS 50
#define MAX_INSTANCES 1000000000u /* the permutation holds 32-bit indices */

enum stream { STREAM_GOLD_ORDER = 1, STREAM_CLUSTER_ORDER, STREAM_INSTANCE };

/* ------------------------------------------------------------------ PRNG */

/* the stream for (seed, stream, index): this generator's own seeding */
static void rng_seed(struct gen_rng *r, uint64_t seed, uint64_t stream, uint64_t index)
{
	uint64_t s = seed;
	uint64_t a = gen_splitmix64(&s);
	s ^= stream * UINT64_C(0xd1b54a32d192ed03);
	uint64_t b = gen_splitmix64(&s);
	s ^= index * UINT64_C(0x8cb92ba72f3d8dd7);
	r->s = a ^ b ^ gen_splitmix64(&s);
	if (r->s == 0)
		r->s = UINT64_C(0x2545f4914f6cdd1d);
}

/* ---------------------------------------------------------------- model */

/* cumulative Zipf(1) weights of the senses: sense s has weight 1/(s+1) */
static double sense_cdf[N_SENSES];

static void init_senses(void)
{
	double total = 0.0;
	for (int s = 0; s < N_SENSES; s++)
		total += 1.0 / (s + 1);
	double acc = 0.0;
	for (int s = 0; s < N_SENSES; s++) {
		acc += 1.0 / (s + 1) / total;
		sense_cdf[s] = acc;
	}
	sense_cdf[N_SENSES - 1] = 1.0;
}

struct instance {
	uint32_t word;
	uint64_t id;         /* number of the instance within its word, from 1 */
	int sense;
	int answered;
	int nlab;            /* 1 to 3 */
	int cluster[3];
	int weighted;        /* the labels carry weights */
	int weight[3];       /* in hundredths, when weighted */
};

static uint64_t n_instances;

/* word w owns instances [first(w), first(w + 1)) */
static uint64_t word_first(uint32_t w)
{
	return n_instances * w / N_WORDS;
}

static uint32_t word_of(uint64_t i)
{
	uint32_t w = (uint32_t)(i * N_WORDS / n_instances);
	/* integer division can land one word early or late near a boundary */
	while (w + 1 < N_WORDS && word_first(w + 1) <= i)
		w++;
	while (w > 0 && word_first(w) > i)
		w--;
	return w;
}

/* a cluster for sense s: one of the 5 "home" clusters of the sense 70% of
 * the time, any of the 50 otherwise */
static int draw_cluster(struct gen_rng *r, int sense)
{
	if (gen_rng_unit(r) < 0.7)
		return sense * (N_CLUSTERS / N_SENSES) + (int)gen_rng_below(r, N_CLUSTERS / N_SENSES);
	return (int)gen_rng_below(r, N_CLUSTERS);
}

static void make_instance(uint64_t seed, uint64_t i, struct instance *in)
{
	struct gen_rng r;
	rng_seed(&r, seed, STREAM_INSTANCE, i);
	in->word = word_of(i);
	in->id = i - word_first(in->word) + 1;
	double u = gen_rng_unit(&r);
	in->sense = 0;
	while (in->sense < N_SENSES - 1 && u >= sense_cdf[in->sense])
		in->sense++;
	in->answered = gen_rng_unit(&r) >= 0.03;
	double kind = gen_rng_unit(&r);
	in->weighted = 0;
	in->nlab = 1;
	in->cluster[0] = draw_cluster(&r, in->sense);
	if (kind < 0.10) {
		/* two or three weighted labels, weights summing to 100 */
		in->weighted = 1;
		in->nlab = 2 + (int)gen_rng_below(&r, 2);
		int left = 100;
		for (int k = 0; k < in->nlab; k++) {
			if (k > 0)
				in->cluster[k] = (int)gen_rng_below(&r, N_CLUSTERS);
			int w = k == in->nlab - 1 ? left
				: 1 + (int)gen_rng_below(&r, (uint32_t)(left - (in->nlab - k - 1)));
			in->weight[k] = w;
			left -= w;
		}
	} else if (kind < 0.12) {
		/* two labels without weights */
		in->nlab = 2;
		in->cluster[1] = (int)gen_rng_below(&r, N_CLUSTERS);
	}
}

static void word_name(char *buf, size_t size, uint32_t w)
{
	snprintf(buf, size, "w%03u.%c", (unsigned)w, w % 2 ? 'v' : 'n');
}

/* a random permutation of 0 .. n-1 (Fisher-Yates) */
static uint32_t *permutation(uint64_t seed, enum stream stream)
{
	uint32_t *p = gen_identity(PROG, n_instances);
	struct gen_rng r;
	rng_seed(&r, seed, stream, 0);
	gen_shuffle(p, n_instances, &r);
	return p;
}

static void write_files(const char *dir, uint64_t seed)
{
	char word[16];
	struct instance in;
	struct gen_file f;
	uint32_t *order = permutation(seed, STREAM_GOLD_ORDER);
	FILE *fp = gen_file_open(&f, PROG, dir, "gold");
	for (uint64_t k = 0; k < n_instances; k++) {
		make_instance(seed, order[k], &in);
		word_name(word, sizeof word, in.word);
		fprintf(fp, "%s %s.%" PRIu64 " %s.s%d\n", word, word, in.id, word, in.sense);
	}
	gen_file_close(&f);
	free(order);

	order = permutation(seed, STREAM_CLUSTER_ORDER);
	fp = gen_file_open(&f, PROG, dir, "clusters");
	for (uint64_t k = 0; k < n_instances; k++) {
		make_instance(seed, order[k], &in);
		if (!in.answered)
			continue;
		word_name(word, sizeof word, in.word);
		fprintf(fp, "%s %s.%" PRIu64, word, word, in.id);
		for (int l = 0; l < in.nlab; l++) {
			if (in.weighted)
				fprintf(fp, " c%d/0.%02d", in.cluster[l], in.weight[l]);
			else
				fprintf(fp, " c%d", in.cluster[l]);
		}
		fputc('\n', fp);
	}
	gen_file_close(&f);
	free(order);
}

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: " PROG " [--instances N] [--seed S] DIR\n"
		"Write DIR/gold and DIR/clusters: N instances (default 1000000) of %d target\n"
		"words, %d senses and %d clusters per word, each file in its own random\n"
		"order; the same N and S (default 1) always give the same files.\n",
		N_WORDS, N_SENSES, N_CLUSTERS);
}

int main(int argc, char **argv)
{
	struct gen_args a = gen_parse_args(PROG, "--instances", N_WORDS, MAX_INSTANCES, usage,
					   argc, argv);

	n_instances = a.count;
	init_senses();
	write_files(a.dir, a.seed);
	return 0;
}
