/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gen-annotations - writes a large synthetic double annotation for
 * benchmarking hkappa: DIR/ann1, DIR/ann2, DIR/ann3 (three annotators, the
 * Senseval key format with optional weights) and DIR/senses (a sense map in
 * parent form).
 *
 * The output is a pure function of --items and --seed.  The tag set is one
 * three-level hierarchy of TOPS x MIDDLES x LEAVES tags (5 x 2 x 5: 50
 * leaves, 65 tags), shared by N_LEXELTS lexical elements; every lexelt uses
 * a few leaves of its own choice, with Zipf-distributed frequencies.  Every
 * item has a "true" leaf; each annotator writes it, or a general tag above
 * it, or two tags, sometimes weighted, and now and then a different leaf.
 *
 * ann1 lists every item, lexelt by lexelt; ann2 and ann3 leave out the same
 * 2% of the items and list the others, each in a shuffled order of its own.  Every item draws all its
 * choices from its own random stream (seeded from the seed and the item's
 * number), so ann2 can be written in any order without keeping the items in
 * memory: the only large allocation is the permutation (4 bytes per item).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen-common.h"

#define PROG "gen-annotations"

#define TOPS 5
#define MIDDLES 2          /* per top tag */
#define LEAVES 5           /* per middle tag */
#define N_LEAVES (TOPS * MIDDLES * LEAVES)
#define N_LEXELTS 200
#define LEX_SENSES_MIN 3   /* leaves used by a lexelt: MIN..MAX */
#define LEX_SENSES_MAX 12
#define MAX_ITEMS 1000000000u /* the permutation holds 32-bit indices */

/* random streams: one per purpose, one per item for its annotations */
enum stream { STREAM_SHAPE = 1, STREAM_SHUFFLE, STREAM_ITEM };
#define RNG_IF_ZERO UINT64_C(0x9e3779b97f4a7c15) /* see gen_rng_init() */

struct lexelt {
	char name[16];
	int n_senses;
	int sense[LEX_SENSES_MAX];  /* leaf numbers, most frequent first */
	double cum[LEX_SENSES_MAX]; /* cumulative Zipf weights, the last is 1 */
};

static struct lexelt lexelts[N_LEXELTS];
/* lexelt i has the items lexelt_first[i] .. + lexelt_size[i] - 1 */
static uint64_t lexelt_first[N_LEXELTS];
static uint64_t lexelt_size[N_LEXELTS];

/* ------------------------------------------------------------------ tags */

/*
 * Leaf l (0..49) is "tT.Mx": top T = l / 10 + 1, middle M = (l / 5) % 2 + 1,
 * letter x = 'a' + l % 5; its middle tag is "tT.M", its top tag "tT".
 */
static void leaf_name(char *buf, size_t size, int l)
{
	snprintf(buf, size, "t%d.%d%c", l / (MIDDLES * LEAVES) + 1, (l / LEAVES) % MIDDLES + 1,
		 'a' + l % LEAVES);
}

static void middle_name(char *buf, size_t size, int l)
{
	snprintf(buf, size, "t%d.%d", l / (MIDDLES * LEAVES) + 1, (l / LEAVES) % MIDDLES + 1);
}

static void top_name(char *buf, size_t size, int l)
{
	snprintf(buf, size, "t%d", l / (MIDDLES * LEAVES) + 1);
}

static void write_senses(FILE *fp)
{
	char tag[16], up[16];
	for (int t = 0; t < TOPS; t++) {
		fprintf(fp, "t%d\n", t + 1);
		for (int m = 0; m < MIDDLES; m++)
			fprintf(fp, "t%d.%d t%d\n", t + 1, m + 1, t + 1);
	}
	for (int l = 0; l < N_LEAVES; l++) {
		leaf_name(tag, sizeof tag, l);
		middle_name(up, sizeof up, l);
		fprintf(fp, "%s %s\n", tag, up);
	}
}

/* --------------------------------------------------------------- lexelts */

static void build_lexelts(uint64_t seed, uint64_t n_items)
{
	struct gen_rng r;
	gen_rng_init(&r, seed, STREAM_SHAPE, 0, RNG_IF_ZERO);
	double weight[N_LEXELTS];
	for (int i = 0; i < N_LEXELTS; i++) {
		struct lexelt *lx = &lexelts[i];
		uint32_t kind = gen_rng_below(&r, 10);
		snprintf(lx->name, sizeof lx->name, "w%03d.%c", i, kind < 5 ? 'n' : kind < 8 ? 'v' : 'a');
		lx->n_senses = LEX_SENSES_MIN + (int)gen_rng_below(&r, LEX_SENSES_MAX - LEX_SENSES_MIN + 1);
		/* distinct leaves, mostly under one or two top tags */
		int home = (int)gen_rng_below(&r, TOPS);
		for (int k = 0; k < lx->n_senses; k++) {
			int leaf, dup;
			do {
				int top = gen_rng_below(&r, 4) ? home : (int)gen_rng_below(&r, TOPS);
				leaf = top * MIDDLES * LEAVES + (int)gen_rng_below(&r, MIDDLES * LEAVES);
				dup = 0;
				for (int j = 0; j < k; j++)
					dup |= lx->sense[j] == leaf;
			} while (dup);
			lx->sense[k] = leaf;
		}
		double h = 0;
		for (int k = 0; k < lx->n_senses; k++) {
			h += 1.0 / (k + 1);
			lx->cum[k] = h;
		}
		for (int k = 0; k < lx->n_senses; k++)
			lx->cum[k] /= h;
		lx->cum[lx->n_senses - 1] = 1.0;
		weight[i] = 0.25 + 1.75 * gen_rng_unit(&r);
	}
	/* items per lexelt: proportional to the weights */
	gen_spread(n_items, weight, N_LEXELTS, lexelt_size, lexelt_first);
}

/* the lexelt of global item @g */
static int lexelt_of(uint64_t g)
{
	return gen_group_of(lexelt_first, N_LEXELTS, g);
}

static int draw_sense(const struct lexelt *lx, struct gen_rng *r)
{
	double u = gen_rng_unit(r);
	int k = 0;
	while (k < lx->n_senses - 1 && u >= lx->cum[k])
		k++;
	return lx->sense[k];
}

/* a leaf of @lx other than @leaf, if the lexelt has one */
static int other_sense(const struct lexelt *lx, struct gen_rng *r, int leaf)
{
	for (int tries = 0; tries < 8; tries++) {
		int o = draw_sense(lx, r);
		if (o != leaf)
			return o;
	}
	return lx->sense[0] != leaf ? lx->sense[0] : lx->sense[1];
}

/* ----------------------------------------------------------------- items */

/* One annotation of item @g by annotator @who (0, 1 or 2).  The item's stream
 * gives the true leaf and whether ann2 skips the item; the annotator's own
 * stream, its errors and the form of its line. */
struct annotation {
	char text[96];
};

static void annotate(uint64_t seed, uint64_t g, int who, struct annotation *out, int *missing)
{
	const struct lexelt *lx = &lexelts[lexelt_of(g)];
	struct gen_rng r;
	gen_rng_init(&r, seed, STREAM_ITEM, g, RNG_IF_ZERO);
	int truth = draw_sense(lx, &r);
	*missing = gen_rng_below(&r, 1000) < 20; /* ann2 skips about 2% */
	/* each annotator's choices come from a stream of its own */
	struct gen_rng mine;
	gen_rng_init(&mine, seed, STREAM_ITEM, g ^ ((uint64_t)(who + 1) << 62), RNG_IF_ZERO);
	int leaf = truth;
	/* annotator 0 errs on 4% of the items, annotators 1 and 2 on 6% */
	if (gen_rng_below(&mine, 100) < (who ? 6u : 4u))
		leaf = other_sense(lx, &mine, truth);
	char a[16], b[16];
	uint32_t form = gen_rng_below(&mine, 100);
	if (form < 84) {
		leaf_name(a, sizeof a, leaf);
		snprintf(out->text, sizeof out->text, "%s", a);
	} else if (form < 90) {
		middle_name(a, sizeof a, leaf); /* a general tag */
		snprintf(out->text, sizeof out->text, "%s", a);
	} else if (form < 91) {
		top_name(a, sizeof a, leaf); /* a very general tag */
		snprintf(out->text, sizeof out->text, "%s", a);
	} else if (form < 96) {
		/* two tags, equal shares */
		leaf_name(a, sizeof a, leaf);
		leaf_name(b, sizeof b, other_sense(lx, &mine, leaf));
		snprintf(out->text, sizeof out->text, "%s %s", a, b);
	} else {
		/* two weighted tags, the first one preferred */
		int w = 55 + 5 * (int)gen_rng_below(&mine, 8);
		leaf_name(a, sizeof a, leaf);
		leaf_name(b, sizeof b, other_sense(lx, &mine, leaf));
		snprintf(out->text, sizeof out->text, "%s/0.%02d %s/0.%02d", a, w, b, 100 - w);
	}
}

/* ---------------------------------------------------------------- output */

static void write_line(FILE *fp, uint64_t seed, uint64_t g, int who)
{
	int l = lexelt_of(g);
	struct annotation an;
	int missing;
	annotate(seed, g, who, &an, &missing);
	fprintf(fp, "%s %s.%06" PRIu64 " %s\n", lexelts[l].name, lexelts[l].name,
		g - lexelt_first[l] + 1, an.text);
}

static void write_ann1(const char *dir, uint64_t seed, uint64_t n_items)
{
	struct gen_file f;
	FILE *fp = gen_file_open(&f, PROG, dir, "ann1");
	for (uint64_t g = 0; g < n_items; g++) {
		write_line(fp, seed, g, 0);
		if ((g & 0xffff) == 0)
			gen_file_check(&f);
	}
	gen_file_close(&f);
}

/* Annotator @who (1 or 2) as file @name: the items in a shuffled order of
 * its own, those the item's stream marks missing left out. */
static void write_shuffled(const char *dir, const char *name, uint64_t seed, uint64_t n_items,
			   int who)
{
	uint32_t *perm = gen_identity(PROG, n_items);
	struct gen_rng r;
	gen_rng_init(&r, seed, STREAM_SHUFFLE, (uint64_t)who - 1, RNG_IF_ZERO);
	gen_shuffle(perm, n_items, &r);
	struct gen_file f;
	FILE *fp = gen_file_open(&f, PROG, dir, name);
	for (uint64_t i = 0; i < n_items; i++) {
		struct annotation an;
		int missing;
		annotate(seed, perm[i], who, &an, &missing);
		if (missing)
			continue;
		int l = lexelt_of(perm[i]);
		fprintf(fp, "%s %s.%06" PRIu64 " %s\n", lexelts[l].name, lexelts[l].name,
			perm[i] - lexelt_first[l] + 1, an.text);
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
		"usage: " PROG " [--items N] [--seed S] DIR\n"
		"Writes DIR/ann1 (N items, default 1000000), DIR/ann2 and DIR/ann3\n"
		"(about 98%% of them, each shuffled) and DIR/senses (50 leaf tags in a\n"
		"3-level map, parent form) for benchmarking hkappa.  The output depends only on N and S\n"
		"(default 1).\n");
}

int main(int argc, char **argv)
{
	struct gen_args a = gen_parse_args(PROG, "--items", 1, MAX_ITEMS, usage, argc, argv);

	build_lexelts(a.seed, a.count);
	struct gen_file f;
	write_senses(gen_file_open(&f, PROG, a.dir, "senses"));
	gen_file_close(&f);
	write_ann1(a.dir, a.seed, a.count);
	write_shuffled(a.dir, "ann2", a.seed, a.count, 1);
	write_shuffled(a.dir, "ann3", a.seed, a.count, 2);
	return 0;
}
