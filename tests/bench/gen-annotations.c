/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gen-annotations - writes a large synthetic double annotation for
 * benchmarking hkappa: DIR/ann1, DIR/ann2 (two annotators, the Senseval key
 * format with optional weights) and DIR/senses (a sense map in parent form).
 *
 * The output is a pure function of --items and --seed.  The tag set is one
 * three-level hierarchy of TOPS x MIDDLES x LEAVES tags (5 x 2 x 5: 50
 * leaves, 65 tags), shared by N_LEXELTS lexical elements; every lexelt uses
 * a few leaves of its own choice, with Zipf-distributed frequencies.  Every
 * item has a "true" leaf; each annotator writes it, or a general tag above
 * it, or two tags, sometimes weighted, and now and then a different leaf.
 *
 * ann1 lists every item, lexelt by lexelt; ann2 leaves out about 2% of the
 * items and lists the others in a shuffled order.  Every item draws all its
 * choices from its own random stream (seeded from the seed and the item's
 * number), so ann2 can be written in any order without keeping the items in
 * memory: the only large allocation is the permutation (4 bytes per item).
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

struct lexelt {
	char name[16];
	int n_senses;
	int sense[LEX_SENSES_MAX];  /* leaf numbers, most frequent first */
	double cum[LEX_SENSES_MAX]; /* cumulative Zipf weights, the last is 1 */
	uint64_t first_item;        /* global number of its first item */
	uint64_t n_items;
};

static struct lexelt lexelts[N_LEXELTS];

/* ------------------------------------------------------------------ PRNG */

struct rng {
	uint64_t s;
};

/* splitmix64: scrambles a 64-bit value (the seeding function) */
static uint64_t mix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* a xorshift64* stream for (seed, stream, index) */
static void rng_init(struct rng *r, uint64_t seed, uint64_t stream, uint64_t index)
{
	uint64_t x = seed;
	x = mix64(&x) ^ stream;
	x = mix64(&x) ^ index;
	r->s = mix64(&x);
	if (r->s == 0)
		r->s = UINT64_C(0x9e3779b97f4a7c15);
}

static uint64_t rng_next(struct rng *r)
{
	uint64_t x = r->s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return x * UINT64_C(0x2545f4914f6cdd1d);
}

/* uniform in [0, n), n <= 2^32 */
static uint32_t rng_below(struct rng *r, uint64_t n)
{
	return (uint32_t)(((rng_next(r) >> 32) * n) >> 32);
}

/* uniform in [0, 1) */
static double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

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
	struct rng r;
	rng_init(&r, seed, STREAM_SHAPE, 0);
	double weight[N_LEXELTS], weight_sum = 0;
	for (int i = 0; i < N_LEXELTS; i++) {
		struct lexelt *lx = &lexelts[i];
		uint32_t kind = rng_below(&r, 10);
		snprintf(lx->name, sizeof lx->name, "w%03d.%c", i, kind < 5 ? 'n' : kind < 8 ? 'v' : 'a');
		lx->n_senses = LEX_SENSES_MIN + (int)rng_below(&r, LEX_SENSES_MAX - LEX_SENSES_MIN + 1);
		/* distinct leaves, mostly under one or two top tags */
		int home = (int)rng_below(&r, TOPS);
		for (int k = 0; k < lx->n_senses; k++) {
			int leaf, dup;
			do {
				int top = rng_below(&r, 4) ? home : (int)rng_below(&r, TOPS);
				leaf = top * MIDDLES * LEAVES + (int)rng_below(&r, MIDDLES * LEAVES);
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
		weight[i] = 0.25 + 1.75 * rng_unit(&r);
		weight_sum += weight[i];
	}
	/* items per lexelt: proportional to the weights, the rest spread */
	uint64_t given = 0;
	for (int i = 0; i < N_LEXELTS; i++) {
		lexelts[i].n_items = (uint64_t)((double)n_items * weight[i] / weight_sum);
		if (given + lexelts[i].n_items > n_items)
			lexelts[i].n_items = n_items - given;
		given += lexelts[i].n_items;
	}
	for (int i = 0; given < n_items; i = (i + 1) % N_LEXELTS, given++)
		lexelts[i].n_items++;
	uint64_t first = 0;
	for (int i = 0; i < N_LEXELTS; i++) {
		lexelts[i].first_item = first;
		first += lexelts[i].n_items;
	}
}

/* the lexelt of global item @g (binary search over the first items) */
static const struct lexelt *lexelt_of(uint64_t g)
{
	int lo = 0, hi = N_LEXELTS - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (lexelts[mid].first_item <= g)
			lo = mid;
		else
			hi = mid - 1;
	}
	return &lexelts[lo];
}

static int draw_sense(const struct lexelt *lx, struct rng *r)
{
	double u = rng_unit(r);
	int k = 0;
	while (k < lx->n_senses - 1 && u >= lx->cum[k])
		k++;
	return lx->sense[k];
}

/* a leaf of @lx other than @leaf, if the lexelt has one */
static int other_sense(const struct lexelt *lx, struct rng *r, int leaf)
{
	for (int tries = 0; tries < 8; tries++) {
		int o = draw_sense(lx, r);
		if (o != leaf)
			return o;
	}
	return lx->sense[0] != leaf ? lx->sense[0] : lx->sense[1];
}

/* ----------------------------------------------------------------- items */

/* One annotation of item @g by annotator @who (0 or 1).  The item's stream
 * gives the true leaf and whether ann2 skips the item; the annotator's own
 * stream, its errors and the form of its line. */
struct annotation {
	char text[96];
};

static void annotate(uint64_t seed, uint64_t g, int who, struct annotation *out, int *missing)
{
	const struct lexelt *lx = lexelt_of(g);
	struct rng r;
	rng_init(&r, seed, STREAM_ITEM, g);
	int truth = draw_sense(lx, &r);
	*missing = rng_below(&r, 1000) < 20; /* ann2 skips about 2% */
	/* each annotator's choices come from a stream of its own */
	struct rng mine;
	rng_init(&mine, seed, STREAM_ITEM, g ^ ((uint64_t)(who + 1) << 62));
	int leaf = truth;
	/* annotator 0 errs on 4% of the items, annotator 1 on 6% */
	if (rng_below(&mine, 100) < (who ? 6u : 4u))
		leaf = other_sense(lx, &mine, truth);
	char a[16], b[16];
	uint32_t form = rng_below(&mine, 100);
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
		int w = 55 + 5 * (int)rng_below(&mine, 8);
		leaf_name(a, sizeof a, leaf);
		leaf_name(b, sizeof b, other_sense(lx, &mine, leaf));
		snprintf(out->text, sizeof out->text, "%s/0.%02d %s/0.%02d", a, w, b, 100 - w);
	}
}

/* ---------------------------------------------------------------- output */

static FILE *open_out(const char *dir, const char *name, char **path)
{
	size_t len = strlen(dir) + 1 + strlen(name) + 1;
	*path = malloc(len);
	if (*path == NULL) {
		fprintf(stderr, PROG ": out of memory\n");
		exit(1);
	}
	snprintf(*path, len, "%s/%s", dir, name);
	FILE *fp = fopen(*path, "w");
	if (fp == NULL) {
		fprintf(stderr, PROG ": %s: %s\n", *path, strerror(errno));
		exit(1);
	}
	setvbuf(fp, NULL, _IOFBF, 1u << 18);
	return fp;
}

static void close_out(FILE *fp, char *path)
{
	int failed = ferror(fp) != 0;
	int e = errno;
	if (fflush(fp) != 0) {
		failed = 1;
		e = errno;
	}
	if (fclose(fp) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	if (failed) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(e ? e : EIO));
		exit(1);
	}
	free(path);
}

static void write_line(FILE *fp, uint64_t seed, uint64_t g, int who)
{
	const struct lexelt *lx = lexelt_of(g);
	struct annotation an;
	int missing;
	annotate(seed, g, who, &an, &missing);
	fprintf(fp, "%s %s.%06" PRIu64 " %s\n", lx->name, lx->name, g - lx->first_item + 1,
		an.text);
}

static void write_ann1(const char *dir, uint64_t seed, uint64_t n_items)
{
	char *path;
	FILE *fp = open_out(dir, "ann1", &path);
	for (uint64_t g = 0; g < n_items; g++) {
		write_line(fp, seed, g, 0);
		if ((g & 0xffff) == 0 && ferror(fp))
			break;
	}
	close_out(fp, path);
}

static void write_ann2(const char *dir, uint64_t seed, uint64_t n_items)
{
	uint32_t *perm = malloc((size_t)n_items * sizeof *perm);
	if (perm == NULL) {
		fprintf(stderr, PROG ": out of memory (%" PRIu64 " items)\n", n_items);
		exit(1);
	}
	for (uint64_t i = 0; i < n_items; i++)
		perm[i] = (uint32_t)i;
	struct rng r;
	rng_init(&r, seed, STREAM_SHUFFLE, 0);
	for (uint64_t i = n_items - 1; i > 0; i--) { /* Fisher-Yates */
		uint64_t j = rng_below(&r, i + 1);
		uint32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	char *path;
	FILE *fp = open_out(dir, "ann2", &path);
	for (uint64_t i = 0; i < n_items; i++) {
		struct annotation an;
		int missing;
		annotate(seed, perm[i], 1, &an, &missing);
		if (missing)
			continue;
		const struct lexelt *lx = lexelt_of(perm[i]);
		fprintf(fp, "%s %s.%06" PRIu64 " %s\n", lx->name, lx->name,
			perm[i] - lx->first_item + 1, an.text);
		if ((i & 0xffff) == 0 && ferror(fp))
			break;
	}
	free(perm);
	close_out(fp, path);
}

/* ------------------------------------------------------------------ main */

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: " PROG " [--items N] [--seed S] DIR\n"
		"Writes DIR/ann1 (N items, default 1000000), DIR/ann2 (about 98%% of\n"
		"them, shuffled) and DIR/senses (50 leaf tags in a 3-level map, parent\n"
		"form) for benchmarking hkappa.  The output depends only on N and S\n"
		"(default 1).\n");
}

static int parse_u64(const char *s, uint64_t *v)
{
	if (*s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*v = (uint64_t)x;
	return 0;
}

/* "--name VALUE" or "--name=VALUE"; the value, or NULL if not @name */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
	size_t len = strlen(name);
	if (strncmp(argv[*i], name, len) != 0)
		return NULL;
	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (argv[*i][len] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, PROG ": %s needs a value\n", name);
		usage(stderr);
		exit(2);
	}
	return argv[++*i];
}

int main(int argc, char **argv)
{
	uint64_t n_items = 1000000, seed = 1;
	const char *dir = NULL;
	int options_done = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if (options_done || a[0] != '-' || a[1] == '\0') {
			if (dir != NULL) {
				fprintf(stderr, PROG ": too many arguments\n");
				usage(stderr);
				return 2;
			}
			dir = a;
		} else if (strcmp(a, "--") == 0) {
			options_done = 1;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if ((v = option_value(argc, argv, &i, "--items")) != NULL) {
			if (parse_u64(v, &n_items) != 0 || n_items == 0 || n_items > MAX_ITEMS) {
				fprintf(stderr, PROG ": --items: expected 1 to %u, got '%s'\n",
					MAX_ITEMS, v);
				return 2;
			}
		} else if ((v = option_value(argc, argv, &i, "--seed")) != NULL) {
			if (parse_u64(v, &seed) != 0) {
				fprintf(stderr, PROG ": --seed: expected an unsigned integer, got '%s'\n", v);
				return 2;
			}
		} else {
			fprintf(stderr, PROG ": unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		}
	}
	if (dir == NULL) {
		fprintf(stderr, PROG ": missing DIR\n");
		usage(stderr);
		return 2;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, PROG ": %s: %s\n", dir, strerror(errno));
		return 1;
	}

	build_lexelts(seed, n_items);
	char *path;
	FILE *fp = open_out(dir, "senses", &path);
	write_senses(fp);
	close_out(fp, path);
	write_ann1(dir, seed, n_items);
	write_ann2(dir, seed, n_items);
	return 0;
}
