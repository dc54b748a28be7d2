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

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#define PROG "gen-wsi"

#define N_WORDS 100
#define N_SENSES 10
#define N_CLUSTERS 50
#define MAX_INSTANCES 1000000000u /* the permutation holds 32-bit indices */

enum stream { STREAM_GOLD_ORDER = 1, STREAM_CLUSTER_ORDER, STREAM_INSTANCE };

/* ------------------------------------------------------------------ PRNG */

/* SplitMix64 step: used to derive well-mixed seeds. */
static uint64_t mix(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* xorshift64* generator */
struct rng {
	uint64_t x;
};

static void rng_seed(struct rng *r, uint64_t seed, uint64_t stream, uint64_t index)
{
	uint64_t s = seed;
	uint64_t a = mix(&s);
	s ^= stream * UINT64_C(0xd1b54a32d192ed03);
	uint64_t b = mix(&s);
	s ^= index * UINT64_C(0x8cb92ba72f3d8dd7);
	r->x = a ^ b ^ mix(&s);
	if (r->x == 0)
		r->x = UINT64_C(0x2545f4914f6cdd1d);
}

static uint64_t rng_next(struct rng *r)
{
	r->x ^= r->x >> 12;
	r->x ^= r->x << 25;
	r->x ^= r->x >> 27;
	return r->x * UINT64_C(0x2545f4914f6cdd1d);
}

/* uniform in [0, n), n > 0 (Lemire's multiply-shift; the bias is negligible) */
static uint32_t rng_below(struct rng *r, uint32_t n)
{
	return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* uniform in [0, 1) */
static double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
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
static int draw_cluster(struct rng *r, int sense)
{
	if (rng_unit(r) < 0.7)
		return sense * (N_CLUSTERS / N_SENSES) + (int)rng_below(r, N_CLUSTERS / N_SENSES);
	return (int)rng_below(r, N_CLUSTERS);
}

static void make_instance(uint64_t seed, uint64_t i, struct instance *in)
{
	struct rng r;
	rng_seed(&r, seed, STREAM_INSTANCE, i);
	in->word = word_of(i);
	in->id = i - word_first(in->word) + 1;
	double u = rng_unit(&r);
	in->sense = 0;
	while (in->sense < N_SENSES - 1 && u >= sense_cdf[in->sense])
		in->sense++;
	in->answered = rng_unit(&r) >= 0.03;
	double kind = rng_unit(&r);
	in->weighted = 0;
	in->nlab = 1;
	in->cluster[0] = draw_cluster(&r, in->sense);
	if (kind < 0.10) {
		/* two or three weighted labels, weights summing to 100 */
		in->weighted = 1;
		in->nlab = 2 + (int)rng_below(&r, 2);
		int left = 100;
		for (int k = 0; k < in->nlab; k++) {
			if (k > 0)
				in->cluster[k] = (int)rng_below(&r, N_CLUSTERS);
			int w = k == in->nlab - 1 ? left : 1 + (int)rng_below(&r, (uint32_t)(left - (in->nlab - k - 1)));
			in->weight[k] = w;
			left -= w;
		}
	} else if (kind < 0.12) {
		/* two labels without weights */
		in->nlab = 2;
		in->cluster[1] = (int)rng_below(&r, N_CLUSTERS);
	}
}

static void word_name(char *buf, size_t size, uint32_t w)
{
	snprintf(buf, size, "w%03u.%c", (unsigned)w, w % 2 ? 'v' : 'n');
}

/* a random permutation of 0 .. n-1 (Fisher-Yates) */
static uint32_t *permutation(uint64_t seed, enum stream stream)
{
	uint32_t *p = malloc((size_t)n_instances * sizeof *p);
	if (p == NULL) {
		fprintf(stderr, PROG ": out of memory\n");
		exit(1);
	}
	for (uint64_t i = 0; i < n_instances; i++)
		p[i] = (uint32_t)i;
	struct rng r;
	rng_seed(&r, seed, stream, 0);
	for (uint64_t i = n_instances - 1; i > 0; i--) {
		uint64_t j = (uint64_t)(((rng_next(&r) >> 32) * (i + 1)) >> 32);
		uint32_t t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
	return p;
}

static FILE *create(const char *dir, const char *name, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", dir, name);
	FILE *fp = fopen(path, "w");
	if (fp == NULL) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fp;
}

static void finish(FILE *fp, const char *path)
{
	if (ferror(fp) | fclose(fp)) {
		fprintf(stderr, PROG ": %s: write error\n", path);
		exit(1);
	}
}

static void write_files(const char *dir, uint64_t seed)
{
	char path[4096], word[16];
	struct instance in;
	uint32_t *order = permutation(seed, STREAM_GOLD_ORDER);
	FILE *fp = create(dir, "gold", path, sizeof path);
	for (uint64_t k = 0; k < n_instances; k++) {
		make_instance(seed, order[k], &in);
		word_name(word, sizeof word, in.word);
		fprintf(fp, "%s %s.%" PRIu64 " %s.s%d\n", word, word, in.id, word, in.sense);
	}
	finish(fp, path);
	free(order);

	order = permutation(seed, STREAM_CLUSTER_ORDER);
	fp = create(dir, "clusters", path, sizeof path);
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
	finish(fp, path);
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

static int parse_u64(const char *s, uint64_t *out)
{
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t seed = 1;
	const char *dir = NULL;
	n_instances = 1000000;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "--instances") == 0 || strcmp(a, "--seed") == 0) {
			uint64_t v;
			if (i + 1 >= argc || parse_u64(argv[i + 1], &v) != 0) {
				fprintf(stderr, PROG ": %s needs an unsigned integer\n", a);
				return 2;
			}
			if (a[2] == 'i') {
				if (v < N_WORDS || v > MAX_INSTANCES) {
					fprintf(stderr, PROG ": --instances: expected %d to %u\n", N_WORDS,
						MAX_INSTANCES);
					return 2;
				}
				n_instances = v;
			} else {
				seed = v;
			}
			i++;
		} else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, PROG ": unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		} else if (dir != NULL) {
			fprintf(stderr, PROG ": too many arguments\n");
			return 2;
		} else {
			dir = a;
		}
	}
	if (dir == NULL) {
		usage(stderr);
		return 2;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, PROG ": %s: %s\n", dir, strerror(errno));
		return 1;
	}
	init_senses();
	write_files(dir, seed);
	return 0;
}
