/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gen-senseval - writes a large synthetic Senseval-style data set for
 * benchmarking scorer2: DIR/key, DIR/answers and DIR/sensemap.
 *
 * The data set is a pure function of --instances and --seed.  There are
 * N_LEXELTS lexical elements ("w0042.n"); each owns a three-level sense
 * hierarchy (top senses, subsenses, sub-subsenses) whose tags are distinct
 * across lexelts.  The key lists every instance once, lexelt by lexelt; the
 * answers cover about 95% of them in a shuffled order, so a scorer cannot
 * rely on the two files being sorted alike.
 *
 * Every instance draws its key and its answer from its own random stream
 * (seeded from the seed and the instance number), so the answers can be
 * written in any order without keeping the key in memory: the only large
 * allocation is the answer permutation (4 bytes per instance).
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

#define PROG "gen-senseval"

#define N_LEXELTS 200
#define TOP_MIN 4          /* top senses per lexelt: TOP_MIN..TOP_MAX, mean 6 */
#define TOP_MAX 8
#define SUB_MAX 3          /* subsenses per top sense: 0..SUB_MAX */
#define SUBSUB_MAX 2       /* sub-subsenses per subsense: 0..SUBSUB_MAX */
#define MAX_TAGS (N_LEXELTS * TOP_MAX * (1 + SUB_MAX * (1 + SUBSUB_MAX)))
#define TAG_LEN 32
#define MAX_INSTANCES 1000000000u /* the permutation holds 32-bit indices */

/* random streams: one per purpose, and one per instance for key and answer */
enum stream { STREAM_SHAPE = 1, STREAM_SHUFFLE, STREAM_KEY, STREAM_ANSWER };
#define RNG_IF_ZERO UINT64_C(0x2545f4914f6cdd1d) /* see gen_rng_init() */

struct tag {
	char name[TAG_LEN];
	int parent;      /* index into tags[], -1 for a top sense */
	int first_child; /* the children of a tag are contiguous in tags[] */
	int n_children;
};

struct lexelt {
	char name[16];
	int first_tag; /* the top senses are tags first_tag .. first_tag + n_top - 1 */
	int n_tags;
	int n_top;
};

static struct tag tags[MAX_TAGS];
static int n_tags;
static struct lexelt lexelts[N_LEXELTS];
/* lexelt l has the instances lexelt_first[l] .. + lexelt_size[l] - 1 */
static uint64_t lexelt_first[N_LEXELTS];
static uint64_t lexelt_size[N_LEXELTS];

/* ------------------------------------------------------------- inventory */

static int new_tag(int parent)
{
	struct tag *t = &tags[n_tags];
	t->parent = parent;
	t->first_child = -1;
	t->n_children = 0;
	return n_tags++;
}

/* gives @parent @n new children, contiguous in tags[] (named later) */
static void add_children(int parent, int n)
{
	tags[parent].first_child = n_tags;
	tags[parent].n_children = n;
	for (int i = 0; i < n; i++)
		new_tag(parent);
}

static void build_inventory(uint64_t seed, uint64_t n_instances)
{
	struct gen_rng r;
	gen_rng_init(&r, seed, STREAM_SHAPE, 0, RNG_IF_ZERO);
	/* numeric tags, as in the Senseval-2 lexical sample: increasing, hence distinct */
	unsigned long numeric = 500000 + gen_rng_below(&r, 100000);
	double weight[N_LEXELTS];

	for (int l = 0; l < N_LEXELTS; l++) {
		struct lexelt *lx = &lexelts[l];
		uint32_t kind = gen_rng_below(&r, 10);
		char pos = kind < 5 ? 'n' : kind < 8 ? 'v' : 'a';
		snprintf(lx->name, sizeof lx->name, "w%04d.%c", l, pos);
		int numeric_tags = gen_rng_below(&r, 4) == 0;

		lx->first_tag = n_tags;
		lx->n_top = TOP_MIN + (int)gen_rng_below(&r, TOP_MAX - TOP_MIN + 1);
		for (int i = 0; i < lx->n_top; i++)
			new_tag(-1);
		/* breadth first, so that siblings are contiguous */
		for (int i = 0; i < lx->n_top; i++)
			add_children(lx->first_tag + i, (int)gen_rng_below(&r, SUB_MAX + 1));
		int level2_end = n_tags;
		for (int t = lx->first_tag + lx->n_top; t < level2_end; t++)
			add_children(t, (int)gen_rng_below(&r, SUBSUB_MAX + 1));
		lx->n_tags = n_tags - lx->first_tag;

		for (int t = lx->first_tag; t < n_tags; t++) {
			struct tag *tg = &tags[t];
			const struct tag *up = tg->parent >= 0 ? &tags[tg->parent] : NULL;
			char up_name[TAG_LEN]; /* a copy: snprintf must not read tags[] */
			if (up != NULL)
				memcpy(up_name, up->name, sizeof up_name);
			int len;
			if (numeric_tags) {
				numeric += 1 + gen_rng_below(&r, 7);
				len = snprintf(tg->name, sizeof tg->name, "%lu", numeric);
			} else if (up == NULL) {
				len = snprintf(tg->name, sizeof tg->name, "%s%%%d", lx->name,
					       t - lx->first_tag + 1);
			} else if (up->parent < 0) {
				/* "w0042.n%3.1" below "w0042.n%3" */
				len = snprintf(tg->name, sizeof tg->name, "%s.%d", up_name,
					       t - up->first_child + 1);
			} else {
				/* "w0042.n%3.1a" below "w0042.n%3.1" */
				len = snprintf(tg->name, sizeof tg->name, "%s%c", up_name,
					       'a' + (t - up->first_child));
			}
			if (len < 0 || (size_t)len >= sizeof tg->name)
				abort(); /* cannot happen with these name shapes */
		}

		weight[l] = 0.25 + 1.75 * gen_rng_unit(&r);
	}

	/* instances per lexelt: proportional to the weights */
	gen_spread(n_instances, weight, N_LEXELTS, lexelt_size, lexelt_first);
}

/* a tag of @lx: a Zipf-distributed top sense, then down the hierarchy */
static int pick_tag(const struct lexelt *lx, struct gen_rng *r)
{
	double h = 0;
	for (int k = 1; k <= lx->n_top; k++)
		h += 1.0 / k;
	double u = gen_rng_unit(r) * h;
	int top = 0;
	while (top < lx->n_top - 1 && (u -= 1.0 / (top + 1)) >= 0)
		top++;
	int t = lx->first_tag + top;
	while (tags[t].n_children > 0 && gen_rng_unit(r) >= 0.4)
		t = tags[t].first_child + (int)gen_rng_below(r, (uint64_t)tags[t].n_children);
	return t;
}

static int contains(const int *set, int n, int t)
{
	for (int i = 0; i < n; i++)
		if (set[i] == t)
			return 1;
	return 0;
}

/* a tag of @lx that is not among @set[0..n-1] (n < the lexelt's tag count) */
static int pick_other(const struct lexelt *lx, struct gen_rng *r, const int *set, int n)
{
	for (int tries = 0; tries < 8; tries++) {
		int t = pick_tag(lx, r);
		if (!contains(set, n, t))
			return t;
	}
	for (int tries = 0; tries < 8; tries++) {
		int t = lx->first_tag + (int)gen_rng_below(r, (uint64_t)lx->n_tags);
		if (!contains(set, n, t))
			return t;
	}
	for (int t = lx->first_tag;; t++)
		if (!contains(set, n, t))
			return t;
}

/* a tag near @t in the hierarchy: its parent, a child or a sibling */
static int pick_related(int t, struct gen_rng *r)
{
	const struct tag *tg = &tags[t];
	int options[3], n = 0;
	if (tg->parent >= 0)
		options[n++] = 0;
	if (tg->n_children > 0)
		options[n++] = 1;
	if (tg->parent >= 0 && tags[tg->parent].n_children > 1)
		options[n++] = 2;
	if (n == 0)
		return t;
	switch (options[gen_rng_below(r, (uint64_t)n)]) {
	case 0:
		return tg->parent;
	case 1:
		return tg->first_child + (int)gen_rng_below(r, (uint64_t)tg->n_children);
	default: {
		const struct tag *p = &tags[tg->parent];
		int s = p->first_child + (int)gen_rng_below(r, (uint64_t)(p->n_children - 1));
		return s >= t ? s + 1 : s;
	}
	}
}

/* the key tags of global instance @i; returns how many (1 to 3) */
static int key_tags(uint64_t seed, uint64_t i, const struct lexelt *lx, int out[3])
{
	struct gen_rng r;
	gen_rng_init(&r, seed, STREAM_KEY, i, RNG_IF_ZERO);
	uint32_t u = gen_rng_below(&r, 100);
	int n = u < 90 ? 1 : u < 97 ? 2 : 3;
	out[0] = pick_tag(lx, &r);
	for (int k = 1; k < n; k++)
		out[k] = pick_other(lx, &r, out, k);
	return n;
}

/* ---------------------------------------------------------------- output */

static void write_sensemap(const char *dir)
{
	struct gen_file f;
	FILE *fp = gen_file_open(&f, PROG, dir, "sensemap");
	for (int l = 0; l < N_LEXELTS; l++) {
		const struct lexelt *lx = &lexelts[l];
		for (int t = lx->first_tag; t < lx->first_tag + lx->n_tags; t++) {
			/* "s0 b1 s1 b2 s2": s1 is the parent of s0 and has b1 children */
			fputs(tags[t].name, fp);
			for (int p = tags[t].parent; p >= 0; p = tags[p].parent)
				fprintf(fp, " %d %s", tags[p].n_children, tags[p].name);
			putc('\n', fp);
			gen_file_check(&f);
		}
	}
	gen_file_close(&f);
}

static void write_key(const char *dir, uint64_t seed)
{
	struct gen_file f;
	FILE *fp = gen_file_open(&f, PROG, dir, "key");
	for (int l = 0; l < N_LEXELTS; l++) {
		const struct lexelt *lx = &lexelts[l];
		for (uint64_t j = 0; j < lexelt_size[l]; j++) {
			int kt[3];
			int n = key_tags(seed, lexelt_first[l] + j, lx, kt);
			fprintf(fp, "%s %s.%06" PRIu64, lx->name, lx->name, j + 1);
			for (int k = 0; k < n; k++) {
				putc(' ', fp);
				fputs(tags[kt[k]].name, fp);
			}
			putc('\n', fp);
		}
		gen_file_check(&f);
	}
	gen_file_close(&f);
}

static const char *const comments[] = {
	"low confidence", "backoff to the most frequent sense", "guessed",
	"see annotator notes", "tie broken at random",
};

static void write_answer(FILE *fp, uint64_t seed, uint64_t i)
{
	int l = gen_group_of(lexelt_first, N_LEXELTS, i);
	const struct lexelt *lx = &lexelts[l];
	int kt[3];
	int nk = key_tags(seed, i, lx, kt);

	struct gen_rng r;
	gen_rng_init(&r, seed, STREAM_ANSWER, i, RNG_IF_ZERO);
	int t[3];
	double u = gen_rng_unit(&r);
	if (u < 0.55)
		t[0] = kt[gen_rng_below(&r, (uint64_t)nk)];
	else if (u < 0.72)
		t[0] = pick_related(kt[gen_rng_below(&r, (uint64_t)nk)], &r);
	else
		t[0] = pick_tag(lx, &r);

	fprintf(fp, "%s %s.%06" PRIu64 " ", lx->name, lx->name, i - lexelt_first[l] + 1);
	uint32_t kind = gen_rng_below(&r, 100);
	if (kind < 60) {
		/* one tag */
		fputs(tags[t[0]].name, fp);
	} else if (kind < 75) {
		/* several tags, no weights: equal shares */
		int n = gen_rng_below(&r, 10) < 7 ? 2 : 3;
		for (int k = 1; k < n; k++)
			t[k] = pick_other(lx, &r, t, k);
		for (int k = 0; k < n; k++) {
			if (k > 0)
				putc(' ', fp);
			fputs(tags[t[k]].name, fp);
		}
	} else if (kind < 95) {
		/* weighted, in hundredths: summing to 1, or to 0.60-0.95 */
		int n = gen_rng_below(&r, 4) < 3 ? 2 : 3;
		for (int k = 1; k < n; k++)
			t[k] = pick_other(lx, &r, t, k);
		int total = gen_rng_below(&r, 5) < 4 ? 100 : 60 + 5 * (int)gen_rng_below(&r, 8);
		int w[3], left = total;
		for (int k = 0; k < n - 1; k++) {
			int most = left - (n - 1 - k); /* leave 1 for each later tag */
			w[k] = 1 + (int)gen_rng_below(&r, (uint64_t)most);
			if (k == 0 && w[k] < left / 2)
				w[k] = left - w[k] - (n - 2); /* the first guess weighs most */
			left -= w[k];
		}
		w[n - 1] = left;
		for (int k = 0; k < n; k++)
			fprintf(fp, "%s%s/%.3g", k > 0 ? " " : "", tags[t[k]].name, w[k] / 100.0);
	} else {
		/* one tag with an explicit weight: 1, or a partial attempt */
		int w = gen_rng_below(&r, 2) ? 100 : 30 + (int)gen_rng_below(&r, 70);
		fprintf(fp, "%s/%.3g", tags[t[0]].name, w / 100.0);
	}
	if (gen_rng_below(&r, 1000) < 15)
		fprintf(fp, " !! %s", comments[gen_rng_below(&r, sizeof comments / sizeof *comments)]);
	putc('\n', fp);
}

static void write_answers(const char *dir, uint64_t seed, uint64_t n_instances)
{
	uint64_t n_answers = n_instances - n_instances / 20;
	uint32_t *perm = gen_identity(PROG, n_instances);
	/* the first n_answers places of a Fisher-Yates shuffle (from the first
	 * place up: gen_shuffle() would shuffle all n places, from the last) */
	struct gen_rng r;
	gen_rng_init(&r, seed, STREAM_SHUFFLE, 0, RNG_IF_ZERO);
	for (uint64_t i = 0; i < n_answers; i++) {
		uint64_t j = i + gen_rng_below(&r, n_instances - i);
		uint32_t tmp = perm[i];
		perm[i] = perm[j];
		perm[j] = tmp;
	}

	struct gen_file f;
	FILE *fp = gen_file_open(&f, PROG, dir, "answers");
	for (uint64_t i = 0; i < n_answers; i++) {
		write_answer(fp, seed, perm[i]);
		if ((i & 0xffff) == 0)
			gen_file_check(&f);
	}
	free(perm);
	gen_file_close(&f);
}

/* ------------------------------------------------------------------ main */

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: " PROG " [--instances N] [--seed S] DIR\n"
		"Writes DIR/key (N instances, default 1000000), DIR/answers (95%% of\n"
		"them, shuffled) and DIR/sensemap (scorer2 form) for benchmarking\n"
		"scorer2.  The output depends only on N and S (default 1).\n");
}

int main(int argc, char **argv)
{
	struct gen_args a = gen_parse_args(PROG, "--instances", 1, MAX_INSTANCES, usage, argc, argv);

	build_inventory(a.seed, a.count);
	write_sensemap(a.dir);
	write_key(a.dir, a.seed);
	write_answers(a.dir, a.seed, a.count);
	return 0;
}
