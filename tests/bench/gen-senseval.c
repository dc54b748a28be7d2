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

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

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
	uint64_t first_instance; /* global index of this lexelt's first instance */
	uint64_t n_instances;
};

static struct tag tags[MAX_TAGS];
static int n_tags;
static struct lexelt lexelts[N_LEXELTS];

/* ------------------------------------------------------------------ PRNG */

struct rng {
	uint64_t s;
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* a xorshift64* stream, seeded through splitmix64 from (seed, stream, index) */
static void rng_init(struct rng *r, uint64_t seed, uint64_t stream, uint64_t index)
{
	uint64_t x = seed;
	x = splitmix64(&x) ^ stream;
	x = splitmix64(&x) ^ index;
	r->s = splitmix64(&x);
	if (r->s == 0)
		r->s = UINT64_C(0x2545f4914f6cdd1d);
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

/* uniform in [0, n), n <= 2^32 (multiply-shift; the bias is negligible here) */
static uint32_t rng_below(struct rng *r, uint64_t n)
{
	return (uint32_t)(((rng_next(r) >> 32) * n) >> 32);
}

/* uniform in [0, 1) */
static double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

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
	struct rng r;
	rng_init(&r, seed, STREAM_SHAPE, 0);
	/* numeric tags, as in the Senseval-2 lexical sample: increasing, hence distinct */
	unsigned long numeric = 500000 + rng_below(&r, 100000);
	double weight[N_LEXELTS], weight_sum = 0;

	for (int l = 0; l < N_LEXELTS; l++) {
		struct lexelt *lx = &lexelts[l];
		uint32_t kind = rng_below(&r, 10);
		char pos = kind < 5 ? 'n' : kind < 8 ? 'v' : 'a';
		snprintf(lx->name, sizeof lx->name, "w%04d.%c", l, pos);
		int numeric_tags = rng_below(&r, 4) == 0;

		lx->first_tag = n_tags;
		lx->n_top = TOP_MIN + (int)rng_below(&r, TOP_MAX - TOP_MIN + 1);
		for (int i = 0; i < lx->n_top; i++)
			new_tag(-1);
		/* breadth first, so that siblings are contiguous */
		for (int i = 0; i < lx->n_top; i++)
			add_children(lx->first_tag + i, (int)rng_below(&r, SUB_MAX + 1));
		int level2_end = n_tags;
		for (int t = lx->first_tag + lx->n_top; t < level2_end; t++)
			add_children(t, (int)rng_below(&r, SUBSUB_MAX + 1));
		lx->n_tags = n_tags - lx->first_tag;

		for (int t = lx->first_tag; t < n_tags; t++) {
			struct tag *tg = &tags[t];
			const struct tag *up = tg->parent >= 0 ? &tags[tg->parent] : NULL;
			char up_name[TAG_LEN]; /* a copy: snprintf must not read tags[] */
			if (up != NULL)
				memcpy(up_name, up->name, sizeof up_name);
			int len;
			if (numeric_tags) {
				numeric += 1 + rng_below(&r, 7);
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

		weight[l] = 0.25 + 1.75 * rng_unit(&r);
		weight_sum += weight[l];
	}

	/* instances per lexelt: proportional to the weights, the rest spread */
	uint64_t given = 0;
	for (int l = 0; l < N_LEXELTS; l++) {
		lexelts[l].n_instances = (uint64_t)((double)n_instances * weight[l] / weight_sum);
		if (given + lexelts[l].n_instances > n_instances)
			lexelts[l].n_instances = n_instances - given;
		given += lexelts[l].n_instances;
	}
	for (int l = 0; given < n_instances; l = (l + 1) % N_LEXELTS, given++)
		lexelts[l].n_instances++;
	uint64_t first = 0;
	for (int l = 0; l < N_LEXELTS; l++) {
		lexelts[l].first_instance = first;
		first += lexelts[l].n_instances;
	}
}

/* the lexelt of global instance @i (binary search over the first instances) */
static const struct lexelt *lexelt_of(uint64_t i)
{
	int lo = 0, hi = N_LEXELTS - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (lexelts[mid].first_instance <= i)
			lo = mid;
		else
			hi = mid - 1;
	}
	/* the last lexelt starting at or before i is never an empty one */
	return &lexelts[lo];
}

/* a tag of @lx: a Zipf-distributed top sense, then down the hierarchy */
static int pick_tag(const struct lexelt *lx, struct rng *r)
{
	double h = 0;
	for (int k = 1; k <= lx->n_top; k++)
		h += 1.0 / k;
	double u = rng_unit(r) * h;
	int top = 0;
	while (top < lx->n_top - 1 && (u -= 1.0 / (top + 1)) >= 0)
		top++;
	int t = lx->first_tag + top;
	while (tags[t].n_children > 0 && rng_unit(r) >= 0.4)
		t = tags[t].first_child + (int)rng_below(r, (uint64_t)tags[t].n_children);
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
static int pick_other(const struct lexelt *lx, struct rng *r, const int *set, int n)
{
	for (int tries = 0; tries < 8; tries++) {
		int t = pick_tag(lx, r);
		if (!contains(set, n, t))
			return t;
	}
	for (int tries = 0; tries < 8; tries++) {
		int t = lx->first_tag + (int)rng_below(r, (uint64_t)lx->n_tags);
		if (!contains(set, n, t))
			return t;
	}
	for (int t = lx->first_tag;; t++)
		if (!contains(set, n, t))
			return t;
}

/* a tag near @t in the hierarchy: its parent, a child or a sibling */
static int pick_related(int t, struct rng *r)
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
	switch (options[rng_below(r, (uint64_t)n)]) {
	case 0:
		return tg->parent;
	case 1:
		return tg->first_child + (int)rng_below(r, (uint64_t)tg->n_children);
	default: {
		const struct tag *p = &tags[tg->parent];
		int s = p->first_child + (int)rng_below(r, (uint64_t)(p->n_children - 1));
		return s >= t ? s + 1 : s;
	}
	}
}

/* the key tags of global instance @i; returns how many (1 to 3) */
static int key_tags(uint64_t seed, uint64_t i, const struct lexelt *lx, int out[3])
{
	struct rng r;
	rng_init(&r, seed, STREAM_KEY, i);
	uint32_t u = rng_below(&r, 100);
	int n = u < 90 ? 1 : u < 97 ? 2 : 3;
	out[0] = pick_tag(lx, &r);
	for (int k = 1; k < n; k++)
		out[k] = pick_other(lx, &r, out, k);
	return n;
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
	errno = 0;
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

static void write_sensemap(const char *dir)
{
	char *path;
	FILE *fp = open_out(dir, "sensemap", &path);
	for (int l = 0; l < N_LEXELTS; l++) {
		const struct lexelt *lx = &lexelts[l];
		for (int t = lx->first_tag; t < lx->first_tag + lx->n_tags; t++) {
			/* "s0 b1 s1 b2 s2": s1 is the parent of s0 and has b1 children */
			fputs(tags[t].name, fp);
			for (int p = tags[t].parent; p >= 0; p = tags[p].parent)
				fprintf(fp, " %d %s", tags[p].n_children, tags[p].name);
			putc('\n', fp);
			if (ferror(fp))
				close_out(fp, path);
		}
	}
	close_out(fp, path);
}

static void write_key(const char *dir, uint64_t seed)
{
	char *path;
	FILE *fp = open_out(dir, "key", &path);
	for (int l = 0; l < N_LEXELTS; l++) {
		const struct lexelt *lx = &lexelts[l];
		for (uint64_t j = 0; j < lx->n_instances; j++) {
			int kt[3];
			int n = key_tags(seed, lx->first_instance + j, lx, kt);
			fprintf(fp, "%s %s.%06" PRIu64, lx->name, lx->name, j + 1);
			for (int k = 0; k < n; k++) {
				putc(' ', fp);
				fputs(tags[kt[k]].name, fp);
			}
			putc('\n', fp);
		}
		if (ferror(fp))
			close_out(fp, path);
	}
	close_out(fp, path);
}

static const char *const comments[] = {
	"low confidence", "backoff to the most frequent sense", "guessed",
	"see annotator notes", "tie broken at random",
};

static void write_answer(FILE *fp, uint64_t seed, uint64_t i)
{
	const struct lexelt *lx = lexelt_of(i);
	int kt[3];
	int nk = key_tags(seed, i, lx, kt);

	struct rng r;
	rng_init(&r, seed, STREAM_ANSWER, i);
	int t[3];
	double u = rng_unit(&r);
	if (u < 0.55)
		t[0] = kt[rng_below(&r, (uint64_t)nk)];
	else if (u < 0.72)
		t[0] = pick_related(kt[rng_below(&r, (uint64_t)nk)], &r);
	else
		t[0] = pick_tag(lx, &r);

	fprintf(fp, "%s %s.%06" PRIu64 " ", lx->name, lx->name, i - lx->first_instance + 1);
	uint32_t kind = rng_below(&r, 100);
	if (kind < 60) {
		/* one tag */
		fputs(tags[t[0]].name, fp);
	} else if (kind < 75) {
		/* several tags, no weights: equal shares */
		int n = rng_below(&r, 10) < 7 ? 2 : 3;
		for (int k = 1; k < n; k++)
			t[k] = pick_other(lx, &r, t, k);
		for (int k = 0; k < n; k++) {
			if (k > 0)
				putc(' ', fp);
			fputs(tags[t[k]].name, fp);
		}
	} else if (kind < 95) {
		/* weighted, in hundredths: summing to 1, or to 0.60-0.95 */
		int n = rng_below(&r, 4) < 3 ? 2 : 3;
		for (int k = 1; k < n; k++)
			t[k] = pick_other(lx, &r, t, k);
		int total = rng_below(&r, 5) < 4 ? 100 : 60 + 5 * (int)rng_below(&r, 8);
		int w[3], left = total;
		for (int k = 0; k < n - 1; k++) {
			int most = left - (n - 1 - k); /* leave 1 for each later tag */
			w[k] = 1 + (int)rng_below(&r, (uint64_t)most);
			if (k == 0 && w[k] < left / 2)
				w[k] = left - w[k] - (n - 2); /* the first guess weighs most */
			left -= w[k];
		}
		w[n - 1] = left;
		for (int k = 0; k < n; k++)
			fprintf(fp, "%s%s/%.3g", k > 0 ? " " : "", tags[t[k]].name, w[k] / 100.0);
	} else {
		/* one tag with an explicit weight: 1, or a partial attempt */
		int w = rng_below(&r, 2) ? 100 : 30 + (int)rng_below(&r, 70);
		fprintf(fp, "%s/%.3g", tags[t[0]].name, w / 100.0);
	}
	if (rng_below(&r, 1000) < 15)
		fprintf(fp, " !! %s", comments[rng_below(&r, sizeof comments / sizeof *comments)]);
	putc('\n', fp);
}

static void write_answers(const char *dir, uint64_t seed, uint64_t n_instances)
{
	uint64_t n_answers = n_instances - n_instances / 20;
	uint32_t *perm = malloc((size_t)n_instances * sizeof *perm);
	if (perm == NULL) {
		fprintf(stderr, PROG ": out of memory (%" PRIu64 " instances)\n", n_instances);
		exit(1);
	}
	for (uint64_t i = 0; i < n_instances; i++)
		perm[i] = (uint32_t)i;
	/* the first n_answers places of a Fisher-Yates shuffle */
	struct rng r;
	rng_init(&r, seed, STREAM_SHUFFLE, 0);
	for (uint64_t i = 0; i < n_answers; i++) {
		uint64_t j = i + rng_below(&r, n_instances - i);
		uint32_t tmp = perm[i];
		perm[i] = perm[j];
		perm[j] = tmp;
	}

	char *path;
	FILE *fp = open_out(dir, "answers", &path);
	for (uint64_t i = 0; i < n_answers; i++) {
		write_answer(fp, seed, perm[i]);
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
		"usage: " PROG " [--instances N] [--seed S] DIR\n"
		"Writes DIR/key (N instances, default 1000000), DIR/answers (95%% of\n"
		"them, shuffled) and DIR/sensemap (scorer2 form) for benchmarking\n"
		"scorer2.  The output depends only on N and S (default 1).\n");
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

/* "--name VALUE" or "--name=VALUE"; returns the value or NULL if not @name */
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
	uint64_t n_instances = 1000000, seed = 1;
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
		} else if ((v = option_value(argc, argv, &i, "--instances")) != NULL) {
			if (parse_u64(v, &n_instances) != 0 || n_instances == 0 ||
			    n_instances > MAX_INSTANCES) {
				fprintf(stderr, PROG ": --instances: expected 1 to %u, got '%s'\n",
					MAX_INSTANCES, v);
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

	build_inventory(seed, n_instances);
	write_sensemap(dir);
	write_key(dir, seed);
	write_answers(dir, seed, n_instances);
	return 0;
}
