/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The results report (spec 002) on a ten-item task small enough to compute
 * by hand: baselines, subsets and their median splits (with ties),
 * entropies, minimal scoring and the ranking of systems.  Every expected
 * value is worked out in the comment next to it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "test-common.h"

/*
 * The task.  Sense map: a1 {a1x, a1y} (factor 2), a2; every other tag is
 * outside the map.  Lexelts and parts of speech by suffix:
 *   w.n (noun)  4 items: a1x | a2 | a1x a2 | U
 *   x.v (verb)  2 items: b1 | b2
 *   y-a (adj.)  1 item:  c1
 *   z-p (ind.)  1 item:  d1
 *   v-n (noun)  2 items: e1 | e2
 * Training key: w.n a1x, a1x, a2, "a1y a2"; x.v b2, b1 (y-a, z-p, v-n
 * have none).
 */
static const char map[] = "a1\na1x 2 a1\na1y 2 a1\na2\n";
static const char key[] = "w.n 1 a1x\nw.n 2 a2\nw.n 3 a1x a2\nw.n 4 U\n"
			  "x.v 1 b1\nx.v 2 b2\ny-a 1 c1\nz-p 1 d1\nv-n 1 e1\nv-n 2 e2\n";
static const char train[] = "w.n t1 a1x\nw.n t2 a1x\nw.n t3 a2\nw.n t4 a1y a2\n"
			    "x.v t1 b2\nx.v t2 b1\n";

/*
 * Systems, scored fine-grained on all 10 items:
 *   S1 answers 4, 3 right:  P = 3/4, R = 3/10
 *   S2 answers 8, 6 right:  P = 6/8 = 3/4, R = 6/10  (ties S1 on P, more recall)
 *   S3 answers 10, 5 right: P = 1/2, R = 1/2
 */
static const char s1[] = "w.n 1 a1x\nw.n 2 a2\nw.n 4 U\nx.v 1 b2\n";
static const char s2[] = "w.n 1 a1x\nw.n 2 a2\nw.n 3 a2\nw.n 4 U\nx.v 1 b1\nx.v 2 b2\n"
			 "y-a 1 zz\nz-p 1 zz\n";
static const char s3[] = "w.n 1 a1x\nw.n 2 a1x\nw.n 3 a1x\nw.n 4 a2\nx.v 1 b1\nx.v 2 b1\n"
			 "y-a 1 c1\nz-p 1 d2\nv-n 1 e1\nv-n 2 e1\n";

/* H(w.n), fine: weights a1x 1 + 1/2 + 1 + 1 = 7/2, a2 1 + 1/2 + 1 + 1/2 = 3,
 * U 1, a1y 1/2, of 8 (each instance weighs 1, shared by its tags). */
#define H_WN_FINE (-(7 / 16.0 * log2(7 / 16.0) + 3 / 8.0 * log2(3 / 8.0) + \
		     1 / 8.0 * log2(1 / 8.0) + 1 / 16.0 * log2(1 / 16.0)))
/* coarse: a1 1 + 1/2 + 1 + 1 + 1/2 = 4, a2 3, U 1, of 8 */
#define H_WN_COARSE (-(1 / 2.0 * log2(1 / 2.0) + 3 / 8.0 * log2(3 / 8.0) + \
		       1 / 8.0 * log2(1 / 8.0)))

struct fixture {
	struct tageval_inventory *inv;
	struct tageval_key *key, *train;
	struct tageval_report *r;
	struct tageval_error err;
};

static void setup(struct fixture *f, const char *m, const char *tr)
{
	memset(f, 0, sizeof *f);
	f->inv = tageval_inventory_new();
	ck_assert_ptr_nonnull(f->inv);
	if (m)
		ck_assert_int_eq(tageval_inventory_read_map_buffer(f->inv, m, strlen(m), "map",
								   &f->err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_key_read_buffer(f->inv, key, sizeof key - 1, "key", &f->key,
						 &f->err), TAGEVAL_OK);
	if (tr)
		ck_assert_int_eq(tageval_key_read_buffer(f->inv, tr, strlen(tr), "train",
							 &f->train, &f->err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_report_new(f->inv, f->key, f->train, &f->r, &f->err),
			 TAGEVAL_OK);
}

static void teardown(struct fixture *f)
{
	tageval_report_free(f->r);
	tageval_key_free(f->train);
	tageval_key_free(f->key);
	tageval_inventory_free(f->inv);
}

static size_t subset(const struct fixture *f, const char *name)
{
	size_t i = 0;
	ck_assert_msg(tageval_report_find_subset(f->r, name, &i) == TAGEVAL_OK, "no subset %s",
		      name);
	return i;
}

static void add_system(struct fixture *f, const char *name, const char *answers)
{
	ck_assert_int_eq(tageval_report_add_system_buffer(f->r, name, answers, strlen(answers),
							  name, &f->err), TAGEVAL_OK);
}

static struct tageval_report_cell cell(const struct fixture *f, const char *sub, size_t sys,
				       size_t g, int minimal)
{
	struct tageval_report_cell c;
	ck_assert_int_eq(tageval_report_cell(f->r, subset(f, sub), sys, g, minimal, &c),
			 TAGEVAL_OK);
	return c;
}

/* granularity indices: fine, mixed, coarse */
enum { FINE = 0, MIXED = 1, COARSE = 2 };

static void check_cell(const struct fixture *f, const char *sub, size_t sys, size_t g,
		       int minimal, double correct, double attempted, double total)
{
	struct tageval_report_cell c = cell(f, sub, sys, g, minimal);
	ck_assert_double_eq_tol(c.correct, correct, TOL);
	ck_assert_double_eq_tol(c.attempted, attempted, TOL);
	ck_assert_double_eq_tol(c.total, total, TOL);
}

/* ------------------------------------------------------------ entropy */

START_TEST(entropy_values)
{
	const double two[] = { 1, 1 }, four[] = { 2, 2, 2, 2 }, skew[] = { 3, 1 },
		     one[] = { 0, 5 }, neg[] = { 1, -1 };
	/* uniform over 2: log2 2 = 1; over 4: 2 */
	ck_assert_double_eq_tol(tageval_entropy(two, 2), 1.0, TOL);
	ck_assert_double_eq_tol(tageval_entropy(four, 4), 2.0, TOL);
	/* 3/4, 1/4: -(3/4 log2 3/4 + 1/4 log2 1/4) = 0.811278... */
	ck_assert_double_eq_tol(tageval_entropy(skew, 2), 0.8112781244591328, TOL);
	/* one tag with weight (the zero takes no part): 0; no tags: 0 */
	ck_assert(tageval_entropy(one, 2) == 0.0);
	ck_assert(tageval_entropy(NULL, 0) == 0.0);
	ck_assert(isnan(tageval_entropy(neg, 2)));
}
END_TEST

/* ------------------------------------------------------------ lexelts */

START_TEST(lexelts_senses_polysemy_entropy)
{
	struct fixture f;
	setup(&f, map, train);
	ck_assert_uint_eq(tageval_report_lexelts(f.r), 5);
	/* bytewise order: v-n, w.n, x.v, y-a, z-p */
	static const char *const names[] = { "v-n", "w.n", "x.v", "y-a", "z-p" };
	static const char pos[] = { 'n', 'n', 'v', 'a', 'p' };
	/* items; training items */
	static const size_t items[] = { 2, 4, 2, 1, 1 }, trained[] = { 0, 4, 2, 0, 0 };
	/* polysemy: v-n {e1, e2}; w.n seen a1x, a2, a1y (U left out), whose
	 * trees are {a1, a1x, a1y} and {a2}: 4; x.v {b1, b2}; y-a {c1}; z-p {d1} */
	static const size_t poly[] = { 2, 4, 2, 1, 1 };
	/* entropies: e1, e2 and b1, b2 each 1/2: 1 bit; one tag: 0 */
	const double hf[] = { 1.0, H_WN_FINE, 1.0, 0.0, 0.0 };
	const double hc[] = { 1.0, H_WN_COARSE, 1.0, 0.0, 0.0 };
	/* commonest: w.n a1x (2 single-tag lines, a2 1; "a1y a2" ignored);
	 * x.v b1 and b2 tie (1 each); the others have no training data */
	static const size_t common[] = { 0, 1, 2, 0, 0 };
	for (size_t l = 0; l < 5; l++) {
		const struct tageval_report_lexelt *lx = tageval_report_lexelt(f.r, l);
		ck_assert_str_eq(lx->name, names[l]);
		ck_assert_int_eq(lx->pos, pos[l]);
		ck_assert_uint_eq(lx->items, items[l]);
		ck_assert_uint_eq(lx->train_items, trained[l]);
		ck_assert_uint_eq(lx->polysemy, poly[l]);
		ck_assert_double_eq_tol(lx->fine_entropy, hf[l], TOL);
		ck_assert_double_eq_tol(lx->coarse_entropy, hc[l], TOL);
		ck_assert_uint_eq(lx->commonest, common[l]);
	}
	/* H(w.n) fine = 1.677421..., coarse = 1.405639... (hand values) */
	ck_assert_double_eq_tol(H_WN_FINE, 1.6774212838293647, TOL);
	ck_assert_double_eq_tol(H_WN_COARSE, 1.4056390622295665, TOL);
	teardown(&f);
}
END_TEST

START_TEST(lexelts_without_training)
{
	struct fixture f;
	setup(&f, map, NULL);
	/* w.n from the test key alone: a1x 1 + 1/2, a2 1/2 + 1, U 1, of 4:
	 * -(2 * 3/8 log2 3/8 + 1/4 log2 1/4); a1y unseen: senses a1, a1x, a1y
	 * still (the tree of a1), and a2: 4 */
	const struct tageval_report_lexelt *lx = tageval_report_lexelt(f.r, 1);
	ck_assert_double_eq_tol(lx->fine_entropy,
				-(2 * 3 / 8.0 * log2(3 / 8.0) + 1 / 4.0 * log2(1 / 4.0)), TOL);
	ck_assert_uint_eq(lx->polysemy, 4);
	ck_assert_uint_eq(lx->commonest, 0);
	/* no trainable subsets, no commonest baseline */
	size_t i;
	ck_assert_int_eq(tageval_report_find_subset(f.r, "trainable", &i), TAGEVAL_ENOTFOUND);
	ck_assert_int_eq(tageval_report_find_subset(f.r, "untrainable", &i), TAGEVAL_ENOTFOUND);
	ck_assert_int_eq(tageval_report_add_baseline(f.r, TAGEVAL_BASELINE_COMMONEST, &f.err),
			 TAGEVAL_EINVAL);
	teardown(&f);
}
END_TEST

/* ------------------------------------------------------------ subsets */

struct subset_row {
	const char *name;
	enum tageval_subset_kind kind;
	size_t items, lexelts;
};

START_TEST(subsets_built_in)
{
	struct fixture f;
	setup(&f, map, train);
	/* medians: polysemy of v-n, w.n, x.v, y-a, z-p = 2, 4, 2, 1, 1 -> sorted
	 * 1 1 2 2 4 -> 2; fine entropy 1, 1.677, 1, 0, 0 -> 0 0 1 1 1.677 -> 1 */
	double mp, me;
	tageval_report_medians(f.r, &mp, &me);
	ck_assert_double_eq_tol(mp, 2.0, TOL);
	ck_assert_double_eq_tol(me, 1.0, TOL);
	static const struct subset_row rows[] = {
		{ "all", TAGEVAL_SUBSET_ALL, 10, 5 },
		/* w.n (.n) 4 + v-n (-n) 2 */
		{ "nouns", TAGEVAL_SUBSET_POS, 6, 2 },
		{ "verbs", TAGEVAL_SUBSET_POS, 2, 1 },
		{ "adjectives", TAGEVAL_SUBSET_POS, 1, 1 },
		{ "indeterminates", TAGEVAL_SUBSET_POS, 1, 1 },
		/* w.n 4 + x.v 2; y-a 1 + z-p 1 + v-n 2 */
		{ "trainable", TAGEVAL_SUBSET_TRAINABLE, 6, 2 },
		{ "untrainable", TAGEVAL_SUBSET_UNTRAINABLE, 4, 3 },
		/* below 2: y-a, z-p; at or above 2 (v-n and x.v tie at 2): 2 + 4 + 2 */
		{ "low-polysemy", TAGEVAL_SUBSET_LOW_POLYSEMY, 2, 2 },
		{ "high-polysemy", TAGEVAL_SUBSET_HIGH_POLYSEMY, 8, 3 },
		/* below 1: y-a, z-p; at or above 1 (v-n and x.v tie at 1): 8 */
		{ "low-entropy", TAGEVAL_SUBSET_LOW_ENTROPY, 2, 2 },
		{ "high-entropy", TAGEVAL_SUBSET_HIGH_ENTROPY, 8, 3 },
		{ "v-n", TAGEVAL_SUBSET_LEXELT, 2, 1 },
		{ "w.n", TAGEVAL_SUBSET_LEXELT, 4, 1 },
		{ "x.v", TAGEVAL_SUBSET_LEXELT, 2, 1 },
		{ "y-a", TAGEVAL_SUBSET_LEXELT, 1, 1 },
		{ "z-p", TAGEVAL_SUBSET_LEXELT, 1, 1 },
	};
	size_t n = sizeof rows / sizeof rows[0];
	ck_assert_uint_eq(tageval_report_subsets(f.r), n);
	for (size_t i = 0; i < n; i++) {
		const struct tageval_report_subset *s = tageval_report_subset(f.r, i);
		ck_assert_str_eq(s->name, rows[i].name);
		ck_assert_int_eq(s->kind, rows[i].kind);
		ck_assert_uint_eq(s->items, rows[i].items);
		ck_assert_uint_eq(s->lexelts, rows[i].lexelts);
	}
	/* entropy weighted by items: all (4 H(w.n) + 2*1 + 2*1 + 0 + 0) / 10,
	 * nouns (4 H(w.n) + 2*1) / 6, coarse likewise with H_c(w.n) */
	const struct tageval_report_subset *all = tageval_report_subset(f.r, 0);
	ck_assert_double_eq_tol(all->fine_entropy, (4 * H_WN_FINE + 4) / 10, TOL);
	ck_assert_double_eq_tol(all->coarse_entropy, (4 * H_WN_COARSE + 4) / 10, TOL);
	const struct tageval_report_subset *nouns = tageval_report_subset(f.r, 1);
	ck_assert_double_eq_tol(nouns->fine_entropy, (4 * H_WN_FINE + 2) / 6, TOL);
	/* low-entropy: y-a and z-p, both 0 */
	ck_assert(tageval_report_subset(f.r, 9)->fine_entropy == 0.0);
	teardown(&f);
}
END_TEST

/* An even number of lexelts: the median is the mean of the two middle values. */
START_TEST(subsets_median_even)
{
	struct fixture f;
	memset(&f, 0, sizeof f);
	f.inv = tageval_inventory_new();
	/* four lexelts, no map, no training key:
	 * polysemy p1 {a} 1, p2 {b, c} 2, p3a {d, e, f} 3, p3b {g, h, i} 3
	 *   -> median (2 + 3) / 2 = 2.5: p1, p2 low; p3a, p3b high.
	 * entropy p1 0; p2 1; p3a log2 3 = 1.585; p3b (g 2, h 1, i 3 of 6) 1.459
	 *   -> sorted 0, 1, 1.459, 1.585 -> median (1 + 1.459) / 2 = 1.230:
	 *   p1, p2 low; p3a, p3b high */
	static const char k4[] = "p1 1 a\n"
				 "p2 1 b\np2 2 c\n"
				 "p3a 1 d\np3a 2 e\np3a 3 f\n"
				 "p3b 1 g\np3b 2 g\np3b 3 h\np3b 4 i\np3b 5 i\np3b 6 i\n";
	ck_assert_int_eq(tageval_key_read_buffer(f.inv, k4, sizeof k4 - 1, "k4", &f.key, &f.err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_report_new(f.inv, f.key, NULL, &f.r, &f.err), TAGEVAL_OK);
	double mp, me;
	tageval_report_medians(f.r, &mp, &me);
	ck_assert_double_eq_tol(mp, 2.5, TOL);
	/* p3b: g 2/6, h 1/6, i 3/6 */
	double h3b = -(1 / 3.0 * log2(1 / 3.0) + 1 / 6.0 * log2(1 / 6.0) + 1 / 2.0 * log2(0.5));
	/* sorted: 0 (p1), 1 (p2), h3b = 1.459 (p3b), log2 3 = 1.585 (p3a) -> (1 + h3b) / 2 */
	ck_assert_double_eq_tol(me, (1 + h3b) / 2, TOL);
	/* low-polysemy p1 (1) + p2 (2) = 3 items; high p3a 3 + p3b 6 = 9 */
	ck_assert_uint_eq(tageval_report_subset(f.r, subset(&f, "low-polysemy"))->items, 3);
	ck_assert_uint_eq(tageval_report_subset(f.r, subset(&f, "high-polysemy"))->items, 9);
	/* low-entropy p1 + p2 = 3 items; high-entropy p3a + p3b = 9 */
	ck_assert_uint_eq(tageval_report_subset(f.r, subset(&f, "low-entropy"))->items, 3);
	ck_assert_uint_eq(tageval_report_subset(f.r, subset(&f, "high-entropy"))->items, 9);
	/* no part-of-speech suffix: no part-of-speech subsets */
	size_t i;
	ck_assert_int_eq(tageval_report_find_subset(f.r, "nouns", &i), TAGEVAL_ENOTFOUND);
	teardown(&f);
}
END_TEST

/*
 * A tie with the median entropy, met in another order.  A and B both have
 * tags of counts 1, 2, 3 (of 6), so H = -(1/6 log2 1/6 + 1/3 log2 1/3 +
 * 1/2 log2 1/2) = 1.459 bits, but A meets them as 1, 2, 3 and B as 1, 3, 2;
 * C has four equal tags, 2 bits.  Sorted: 1.459, 1.459, 2 -> median 1.459,
 * and both A and B are at the median, hence high-entropy (all 16 items):
 * no lexelt is below it, so there is no low-entropy subset.  (Summed in the
 * order met, B's entropy came out one unit in the last place lower than
 * A's and B fell into low-entropy.)
 */
START_TEST(subsets_median_entropy_tie_order)
{
	struct fixture f;
	memset(&f, 0, sizeof f);
	f.inv = tageval_inventory_new();
	static const char k3[] = "A 1 a\nA 2 b\nA 3 b\nA 4 c\nA 5 c\nA 6 c\n"
				 "B 1 a\nB 2 c\nB 3 c\nB 4 c\nB 5 b\nB 6 b\n"
				 "C 1 a\nC 2 b\nC 3 c\nC 4 d\n";
	ck_assert_int_eq(tageval_key_read_buffer(f.inv, k3, sizeof k3 - 1, "k3", &f.key, &f.err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_report_new(f.inv, f.key, NULL, &f.r, &f.err), TAGEVAL_OK);
	double h = -(1 / 6.0 * log2(1 / 6.0) + 1 / 3.0 * log2(1 / 3.0) + 0.5 * log2(0.5));
	const struct tageval_report_lexelt *a = tageval_report_lexelt(f.r, 0),
					   *b = tageval_report_lexelt(f.r, 1);
	ck_assert_str_eq(a->name, "A");
	ck_assert_str_eq(b->name, "B");
	ck_assert_double_eq_tol(a->fine_entropy, h, TOL);
	ck_assert(a->fine_entropy == b->fine_entropy);
	ck_assert(a->coarse_entropy == b->coarse_entropy);
	double me;
	tageval_report_medians(f.r, NULL, &me);
	ck_assert(me == a->fine_entropy);
	ck_assert_uint_eq(tageval_report_subset(f.r, subset(&f, "high-entropy"))->items, 16);
	size_t i;
	ck_assert_int_eq(tageval_report_find_subset(f.r, "low-entropy", &i), TAGEVAL_ENOTFOUND);
	teardown(&f);
}
END_TEST

START_TEST(subsets_user)
{
	struct fixture f;
	setup(&f, map, train);
	/* repeats count once; CRLF is read as LF */
	static const char list[] = "w.n 1\r\nw.n 1 extra fields\r\nx.v 2\r\n";
	ck_assert_int_eq(tageval_report_add_subset_buffer(f.r, "mine", list, sizeof list - 1,
							  "list", &f.err), TAGEVAL_OK);
	/* after the 11 built-in subsets, before the 5 lexelts */
	size_t i = subset(&f, "mine");
	ck_assert_uint_eq(i, 11);
	ck_assert_str_eq(tageval_report_subset(f.r, 12)->name, "v-n");
	const struct tageval_report_subset *s = tageval_report_subset(f.r, i);
	ck_assert_int_eq(s->kind, TAGEVAL_SUBSET_USER);
	ck_assert_uint_eq(s->items, 2);
	ck_assert_uint_eq(s->lexelts, 2);
	/* (H(w.n) + H(x.v)) / 2 = (1.677 + 1) / 2 */
	ck_assert_double_eq_tol(s->fine_entropy, (H_WN_FINE + 1) / 2, TOL);
	/* S3 on it: w.n 1 right, x.v 2 wrong: 1 of 2 */
	add_system(&f, "S3", s3);
	check_cell(&f, "mine", 0, FINE, 0, 1.0, 2.0, 2.0);
	teardown(&f);
}
END_TEST

START_TEST(subsets_user_errors)
{
	struct fixture f;
	setup(&f, map, train);
	static const char unknown[] = "w.n 1\nw.n 99\n";
	ck_assert_int_eq(tageval_report_add_subset_buffer(f.r, "u", unknown, sizeof unknown - 1,
							  "list", &f.err), TAGEVAL_EFORMAT);
	ck_assert_str_eq(f.err.file, "list");
	ck_assert_uint_eq(f.err.line, 2);
	ck_assert_str_eq(f.err.message, "instance \"w.n 99\" is not in the key");
	static const char noid[] = "w.n\n";
	ck_assert_int_eq(tageval_report_add_subset_buffer(f.r, "u", noid, sizeof noid - 1,
							  "list", &f.err), TAGEVAL_EFORMAT);
	ck_assert_str_eq(f.err.message, "missing instance id");
	ck_assert_int_eq(tageval_report_add_subset_buffer(f.r, "u", "\n", 1, "list", &f.err),
			 TAGEVAL_EFORMAT);
	ck_assert_str_eq(f.err.message, "no instances");
	ck_assert_int_eq(tageval_report_add_subset_buffer(f.r, "all", "w.n 1\n", 6, "list",
							  &f.err), TAGEVAL_EINVAL);
	ck_assert_str_eq(f.err.message, "there is already a subset \"all\"");
	ck_assert_int_eq(tageval_report_add_subset_buffer(f.r, "", "w.n 1\n", 6, "list",
							  &f.err), TAGEVAL_EINVAL);
	/* nothing was added by the failures */
	ck_assert_uint_eq(tageval_report_subsets(f.r), 16);
	add_system(&f, "S1", s1);
	ck_assert_int_eq(tageval_report_add_subset_buffer(f.r, "late", "w.n 1\n", 6, "list",
							  &f.err), TAGEVAL_EINVAL);
	teardown(&f);
}
END_TEST

/* ------------------------------------------------------------ baselines */

START_TEST(baseline_random)
{
	struct fixture f;
	setup(&f, map, train);
	ck_assert_int_eq(tageval_report_add_baseline(f.r, TAGEVAL_BASELINE_RANDOM, &f.err),
			 TAGEVAL_OK);
	ck_assert_str_eq(tageval_report_system_name(f.r, 0), "random");
	ck_assert_int_eq(tageval_report_system_is_baseline(f.r, 0), 1);
	/*
	 * Uniform over the lexelt's senses; every item is attempted (10).
	 * fine: w.n {a1, a1x, a1y, a2}: a1x 1/4, a2 1/4, "a1x a2" 2/4, U 0;
	 *       x.v 1/2 + 1/2; y-a 1; z-p 1; v-n 1/2 + 1/2
	 *       = 1/4 + 1/4 + 1/2 + 0 + 1 + 1 + 1 + 1 = 5
	 */
	check_cell(&f, "all", 0, FINE, 0, 5.0, 10.0, 10.0);
	/*
	 * mixed: guess a1 against key a1x earns Pr(a1x | a1) = 1/2:
	 *   item 1 (a1x): 1/4 * 1/2 + 1/4 = 3/8; item 2 (a2): 1/4;
	 *   item 3 (a1x a2): 1/4 * 1/2 + 1/4 + 1/4 = 5/8; item 4: 0;
	 *   the other lexelts as fine: 4.  3/8 + 2/8 + 5/8 + 4 = 5.25
	 */
	check_cell(&f, "all", 0, MIXED, 0, 5.25, 10.0, 10.0);
	/* coarse: a1, a1x, a1y all become a1 (3/4), a2 (1/4):
	 *   3/4 + 1/4 + 1 + 0 + 4 = 6 */
	check_cell(&f, "all", 0, COARSE, 0, 6.0, 10.0, 10.0);
	/* minimal: item 3 has two tags (fine and coarse): 5 - 1/2 = 4.5 of 9;
	 * coarse 6 - 1 = 5 of 9 */
	check_cell(&f, "all", 0, FINE, 1, 4.5, 9.0, 9.0);
	check_cell(&f, "all", 0, COARSE, 1, 5.0, 9.0, 9.0);
	/* per lexelt: w.n fine 1/4 + 1/4 + 1/2 + 0 = 1 of 4 */
	check_cell(&f, "w.n", 0, FINE, 0, 1.0, 4.0, 4.0);
	teardown(&f);
}
END_TEST

START_TEST(baseline_random_main)
{
	struct fixture f;
	setup(&f, map, train);
	ck_assert_int_eq(tageval_report_add_baseline(f.r, TAGEVAL_BASELINE_RANDOM_MAIN, &f.err),
			 TAGEVAL_OK);
	ck_assert_str_eq(tageval_report_system_name(f.r, 0), "random-main");
	/*
	 * w.n main senses {a1, a2}, 1/2 each; the other lexelts' senses are all
	 * top-level, as for random.
	 * fine: a1x 0, a2 1/2, "a1x a2" 1/2, U 0: 1; others 4: 5
	 * mixed: a1x: 1/2 * 1/2 = 1/4; a2: 1/2; "a1x a2": 1/4 + 1/2 = 3/4; U 0;
	 *        1/4 + 1/2 + 3/4 + 4 = 5.5
	 * coarse: 1/2 + 1/2 + 1 + 0 + 4 = 6
	 */
	check_cell(&f, "all", 0, FINE, 0, 5.0, 10.0, 10.0);
	check_cell(&f, "all", 0, MIXED, 0, 5.5, 10.0, 10.0);
	check_cell(&f, "all", 0, COARSE, 0, 6.0, 10.0, 10.0);
	teardown(&f);
}
END_TEST

START_TEST(baseline_commonest)
{
	struct fixture f;
	setup(&f, map, train);
	ck_assert_int_eq(tageval_report_add_baseline(f.r, TAGEVAL_BASELINE_COMMONEST, &f.err),
			 TAGEVAL_OK);
	ck_assert_str_eq(tageval_report_system_name(f.r, 0), "commonest");
	/*
	 * w.n guesses a1x: 1, 0, 1, 0; x.v guesses b1 and b2 (tie), 1/2 each:
	 * 1/2 + 1/2; y-a, z-p, v-n abstain: 3 of 6 attempted, P 1/2, R 3/10.
	 */
	struct tageval_report_cell c = cell(&f, "all", 0, FINE, 0);
	ck_assert_double_eq_tol(c.correct, 3.0, TOL);
	ck_assert_double_eq_tol(c.attempted, 6.0, TOL);
	ck_assert_double_eq_tol(c.precision, 0.5, TOL);
	ck_assert_double_eq_tol(c.recall, 0.3, TOL);
	/* mixed: a1x against a2 earns nothing either: 3; coarse a1 = a1: 3 */
	check_cell(&f, "all", 0, MIXED, 0, 3.0, 6.0, 10.0);
	check_cell(&f, "all", 0, COARSE, 0, 3.0, 6.0, 10.0);
	/* untrainable: nothing attempted, no precision, recall 0 of 4 */
	c = cell(&f, "untrainable", 0, FINE, 0);
	ck_assert(isnan(c.precision));
	ck_assert_double_eq_tol(c.recall, 0.0, TOL);
	ck_assert_double_eq_tol(c.total, 4.0, TOL);
	teardown(&f);
}
END_TEST

/* Without a sense map: fine only, and every tag is its own tree. */
START_TEST(baseline_no_map)
{
	struct fixture f;
	setup(&f, NULL, train);
	ck_assert_uint_eq(tageval_report_granularities(f.r), 1);
	ck_assert_int_eq(tageval_report_granularity(f.r, 0), TAGEVAL_FINE);
	/* w.n senses {a1x, a2, a1y}: 1/3, 1/3, 2/3, 0 = 4/3; others 4 */
	ck_assert_uint_eq(tageval_report_lexelt(f.r, 1)->polysemy, 3);
	ck_assert_int_eq(tageval_report_add_baseline(f.r, TAGEVAL_BASELINE_RANDOM, &f.err),
			 TAGEVAL_OK);
	check_cell(&f, "all", 0, FINE, 0, 4.0 / 3 + 4, 10.0, 10.0);
	teardown(&f);
}
END_TEST

/*
 * The random baselines are scored from each lexelt's answer prepared once
 * (tv_spread), not tag by tag: their figures must be, to the bit, those of a
 * system that writes the same answers out in full.  A tree of 1,751 senses
 * (1/1751 is not exact, and a key tag high in the tree earns a run of
 * hundreds of such weights, added one by one), a factor above the number of
 * children (fractional credits), a chain, a tag outside the map, repeated
 * and nested key tags, and two lexelts whose items alternate.
 */
struct text {
	char *s;
	size_t n, cap;
};

static void put(struct text *t, const char *s)
{
	size_t k = strlen(s);
	if (t->n + k + 1 > t->cap) {
		t->cap = (t->n + k + 1) * 2;
		t->s = realloc(t->s, t->cap);
		ck_assert_ptr_nonnull(t->s);
	}
	memcpy(t->s + t->n, s, k + 1);
	t->n += k;
}

/* Children of r.i: r.i.1 .. r.i.K(i); r.3 declares 5 more than it has. */
#define SPREAD_KIDS(i) (100u + 37u * (i))

/* The tree of r as the report lists it: a tag, then its children's trees,
 * last child first (a depth-first walk with a stack). */
static void put_tree_r(struct text *t)
{
	char b[64];
	put(t, " r");
	for (unsigned i = 7; i >= 1; i--) {
		snprintf(b, sizeof b, " r.%u", i);
		put(t, b);
		for (unsigned j = SPREAD_KIDS(i); j >= 1; j--) {
			snprintf(b, sizeof b, " r.%u.%u", i, j);
			put(t, b);
		}
	}
}

START_TEST(baseline_random_spread_same_bits)
{
	struct text m = { 0 }, k = { 0 }, sys = { 0 }, sysm = { 0 };
	char b[128];
	/* map: r {r.1 .. r.7}, r.i {r.i.1 .. r.i.K(i)}; q - q.1 - q.1.1 {3} */
	put(&m, "r\nq\n");
	for (unsigned i = 1; i <= 7; i++) {
		snprintf(b, sizeof b, "r.%u 7 r\n", i);
		put(&m, b);
		for (unsigned j = 1; j <= SPREAD_KIDS(i); j++) {
			snprintf(b, sizeof b, "r.%u.%u %u r.%u\n", i, j,
				 SPREAD_KIDS(i) + (i == 3 ? 5 : 0), i);
			put(&m, b);
		}
	}
	put(&m, "q.1 1 q\nq.1.1 1 q.1\nq.1.1.a 3 q.1.1\nq.1.1.b 3 q.1.1\nq.1.1.c 3 q.1.1\n");
	/* key: w.n items (x.v items between them) */
	static const char *const wn[] = {
		"r.1.1", "r", "r.2", "r.2.5 r", "r.3 r.4.2", "q.1.1", "q", "r.5.1 r.5.1",
		"U", "zz", "r.6 r.6.3", "r.7.9 q.1", "r.3.7", "q.1.1.b r.1 r.1.20",
	};
	static const char *const xv[] = { "b1", "b2", "b1 b2", "b3" };
	size_t nw = sizeof wn / sizeof wn[0], nx = sizeof xv / sizeof xv[0];
	for (size_t i = 0; i < nw; i++) {
		snprintf(b, sizeof b, "w.n %zu %s\n", i + 1, wn[i]);
		put(&k, b);
		if (i < nx) {
			snprintf(b, sizeof b, "x.v %zu %s\n", i + 1, xv[i]);
			put(&k, b);
		}
	}
	/* the baselines' answers written out: w.n's senses are the trees of
	 * r, q and zz (in the order their tags first appear in the key), U is
	 * not a sense; x.v's are b1 b2 b3 */
	/* (in the key's order: the sums over all items are added in line order) */
	for (size_t i = 0; i < nw; i++) {
		snprintf(b, sizeof b, "w.n %zu", i + 1);
		put(&sys, b);
		put_tree_r(&sys);
		put(&sys, " q q.1 q.1.1 q.1.1.c q.1.1.b q.1.1.a zz\n");
		snprintf(b, sizeof b, "w.n %zu r q zz\n", i + 1);
		put(&sysm, b);
		if (i < nx) {
			snprintf(b, sizeof b, "x.v %zu b1 b2 b3\n", i + 1);
			put(&sys, b);
			put(&sysm, b);
		}
	}
	struct tageval_error err = { 0 };
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_key *kk = NULL;
	struct tageval_report *r = NULL;
	ck_assert_ptr_nonnull(inv);
	ck_assert_int_eq(tageval_inventory_read_map_buffer(inv, m.s, m.n, "map", &err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_key_read_buffer(inv, k.s, k.n, "key", &kk, &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_report_new(inv, kk, NULL, &r, &err), TAGEVAL_OK);
	/* 1 + 7 + (137 + 174 + ... + 359) = 8 + 7 * 100 + 37 * 28 = 1744 in r's
	 * tree, 6 in q's, zz: 1751 */
	ck_assert_uint_eq(tageval_report_lexelt(r, 0)->polysemy, 1751);
	ck_assert_str_eq(tageval_report_lexelt(r, 0)->name, "w.n");
	ck_assert_int_eq(tageval_report_add_baseline(r, TAGEVAL_BASELINE_RANDOM, &err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_report_add_baseline(r, TAGEVAL_BASELINE_RANDOM_MAIN, &err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_report_add_system_buffer(r, "all-senses", sys.s, sys.n, "sys",
							  &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_report_add_system_buffer(r, "all-main", sysm.s, sysm.n, "sysm",
							  &err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_report_granularities(r), 3);
	for (size_t base = 0; base < 2; base++)
		for (size_t g = 0; g < 3; g++) {
			struct tageval_score x, y;
			ck_assert_int_eq(tageval_report_system_score(r, base, g, &x), TAGEVAL_OK);
			ck_assert_int_eq(tageval_report_system_score(r, base + 2, g, &y),
					 TAGEVAL_OK);
			ck_assert_msg(x.correct == y.correct && x.attempted == y.attempted &&
					      x.scored == y.scored,
				      "baseline %zu granularity %zu: correct %a, written out %a",
				      base, g, x.correct, y.correct);
			for (size_t sub = 0; sub < tageval_report_subsets(r); sub++)
				for (int min = 0; min <= 1; min++) {
					struct tageval_report_cell c, d;
					tageval_report_cell(r, sub, base, g, min, &c);
					tageval_report_cell(r, sub, base + 2, g, min, &d);
					ck_assert_msg(c.correct == d.correct &&
							      c.attempted == d.attempted,
						      "baseline %zu subset %zu granularity %zu "
						      "minimal %d: %a against %a",
						      base, sub, g, min, c.correct, d.correct);
				}
		}
	/* and the sums are not trivial: item 2 (key r) earns the run of r's
	 * 1744 tags, 1744 / 1751 of a point; the mixed total is above the
	 * fine one */
	struct tageval_score fine, mixed;
	tageval_report_system_score(r, 0, 0, &fine);
	tageval_report_system_score(r, 0, 1, &mixed);
	ck_assert(mixed.correct > fine.correct + 1744.0 / 1751 - 1e-9);
	tageval_report_free(r);
	tageval_key_free(kk);
	tageval_inventory_free(inv);
	free(m.s);
	free(k.s);
	free(sys.s);
	free(sysm.s);
}
END_TEST

/* ------------------------------------------------------------ systems, ranking */

START_TEST(systems_cells)
{
	struct fixture f;
	setup(&f, map, train);
	add_system(&f, "S1", s1);
	add_system(&f, "S2", s2);
	add_system(&f, "S3", s3);
	/* S1: 3 of 4 attempted, 10 items */
	check_cell(&f, "all", 0, FINE, 0, 3.0, 4.0, 10.0);
	check_cell(&f, "all", 1, FINE, 0, 6.0, 8.0, 10.0);
	check_cell(&f, "all", 2, FINE, 0, 5.0, 10.0, 10.0);
	/* S3 mixed: "w.n 4 a2" against U 0, "x.v 2 b1" 0 ...: as fine, 5;
	 * coarse: w.n 2 a1x -> a1 against a2: 0: also 5 */
	check_cell(&f, "all", 2, MIXED, 0, 5.0, 10.0, 10.0);
	check_cell(&f, "all", 2, COARSE, 0, 5.0, 10.0, 10.0);
	/* minimal: S2's answer to w.n 3 (two key tags) is left out: 5 of 7, 9 items */
	check_cell(&f, "all", 1, FINE, 1, 5.0, 7.0, 9.0);
	/* the scorer's own totals equal the "all" cells */
	struct tageval_score sc;
	ck_assert_int_eq(tageval_report_system_score(f.r, 1, FINE, &sc), TAGEVAL_OK);
	ck_assert_double_eq_tol(sc.correct, 6.0, TOL);
	ck_assert_double_eq_tol(sc.attempted, 8.0, TOL);
	ck_assert_uint_eq(sc.scored, 8);
	/* nouns (w.n, v-n: 6 items): S3 w.n 1, 3 and v-n 1 right: 3 of 6 */
	check_cell(&f, "nouns", 2, FINE, 0, 3.0, 6.0, 6.0);
	teardown(&f);
}
END_TEST

START_TEST(ranking_precision_then_recall)
{
	struct fixture f;
	setup(&f, map, train);
	add_system(&f, "S1", s1);
	add_system(&f, "S2", s2);
	add_system(&f, "S3", s3);
	add_system(&f, "S3-again", s3);
	ck_assert_int_eq(tageval_report_add_baseline(f.r, TAGEVAL_BASELINE_RANDOM, &f.err),
			 TAGEVAL_OK);
	struct tageval_report_summary s;
	ck_assert_int_eq(tageval_report_summarize(f.r, subset(&f, "all"), FINE, 0, &s),
			 TAGEVAL_OK);
	/* baselines take no part: 4 systems */
	ck_assert_uint_eq(s.systems, 4);
	ck_assert_uint_eq(s.ranked, 4);
	/* S1 and S2 tie at P 3/4; S2 has more recall (6/10 > 3/10): best S2 */
	ck_assert_uint_eq(s.best, 1);
	/* S3 and S3-again tie on both: the earlier one */
	ck_assert_uint_eq(s.worst, 2);
	/* means: P (3/4 + 3/4 + 1/2 + 1/2) / 4 = 5/8; R (3 + 6 + 5 + 5) / 40 = 19/40;
	 * attempted (4 + 8 + 10 + 10) / 4 = 8 */
	ck_assert_double_eq_tol(s.precision, 5 / 8.0, TOL);
	ck_assert_double_eq_tol(s.recall, 19 / 40.0, TOL);
	ck_assert_double_eq_tol(s.attempted, 8.0, TOL);
	/* untrainable (y-a, z-p, v-n: 4 items): S1 attempts none (not ranked),
	 * S2 0 of 2 (P 0, R 0), S3 2 of 4 (P 1/2, R 1/2), S3-again the same */
	ck_assert_int_eq(tageval_report_summarize(f.r, subset(&f, "untrainable"), FINE, 0, &s),
			 TAGEVAL_OK);
	ck_assert_uint_eq(s.systems, 4);
	ck_assert_uint_eq(s.ranked, 3);
	ck_assert_uint_eq(s.best, 2);
	ck_assert_uint_eq(s.worst, 1);
	/* P (0 + 1/2 + 1/2) / 3 = 1/3; R (0 + 0 + 1/2 + 1/2) / 4 = 1/4;
	 * attempted (0 + 2 + 4 + 4) / 4 = 2.5 */
	ck_assert_double_eq_tol(s.precision, 1 / 3.0, TOL);
	ck_assert_double_eq_tol(s.recall, 0.25, TOL);
	ck_assert_double_eq_tol(s.attempted, 2.5, TOL);
	/* nouns: S1 3 of 3 (P 1, R 1/2), S2 4 of 4 (P 1, R 2/3): best S2 by recall;
	 * worst S3 (P 1/2, R 1/2) */
	ck_assert_int_eq(tageval_report_summarize(f.r, subset(&f, "nouns"), FINE, 0, &s),
			 TAGEVAL_OK);
	ck_assert_uint_eq(s.best, 1);
	ck_assert_uint_eq(s.worst, 2);
	teardown(&f);
}
END_TEST

START_TEST(ranking_nobody_attempted)
{
	struct fixture f;
	setup(&f, map, train);
	add_system(&f, "S1", s1);
	struct tageval_report_summary s;
	/* S1 answers nothing of y-a */
	ck_assert_int_eq(tageval_report_summarize(f.r, subset(&f, "y-a"), FINE, 0, &s),
			 TAGEVAL_OK);
	ck_assert_uint_eq(s.systems, 1);
	ck_assert_uint_eq(s.ranked, 0);
	ck_assert_uint_eq(s.best, TAGEVAL_REPORT_NONE);
	ck_assert_uint_eq(s.worst, TAGEVAL_REPORT_NONE);
	ck_assert(isnan(s.precision));
	ck_assert_double_eq_tol(s.recall, 0.0, TOL);
	teardown(&f);
}
END_TEST

/* A pipe is read once for all three granularities (it used to be opened
 * once per granularity: mixed and coarse then read nothing and scored 0):
 * its figures are those of the same answers given as a buffer. */
START_TEST(system_from_pipe)
{
	struct fixture f;
	setup(&f, map, train);
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(write(fds[1], s2, strlen(s2)), (ssize_t)strlen(s2));
	close(fds[1]);
	char path[64];
	snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
	ck_assert_int_eq(tageval_report_add_system(f.r, "piped", path, &f.err), TAGEVAL_OK);
	close(fds[0]);
	add_system(&f, "S2", s2);
	ck_assert_uint_eq(tageval_report_granularities(f.r), 3);
	for (size_t g = 0; g < 3; g++)
		for (int m = 0; m < 2; m++) {
			struct tageval_report_cell a = cell(&f, "all", 0, g, m);
			struct tageval_report_cell b = cell(&f, "all", 1, g, m);
			ck_assert(a.attempted > 0.0);
			ck_assert_double_eq(a.correct, b.correct);
			ck_assert_double_eq(a.attempted, b.attempted);
		}
	teardown(&f);
}
END_TEST

/* ------------------------------------------------------------ errors */

START_TEST(errors)
{
	struct fixture f;
	setup(&f, map, train);
	add_system(&f, "S1", s1);
	ck_assert_int_eq(tageval_report_add_system_buffer(f.r, "S1", s2, strlen(s2), "s2",
							  &f.err), TAGEVAL_EINVAL);
	ck_assert_str_eq(f.err.message, "two systems are called \"S1\"");
	ck_assert_int_eq(tageval_report_add_system_buffer(f.r, "", s2, strlen(s2), "s2",
							  &f.err), TAGEVAL_EINVAL);
	/* a bad line: the error of the scorer, and no system added */
	static const char bad[] = "w.n 1 a1x\nw.n 2 a2/x\n";
	ck_assert_int_eq(tageval_report_add_system_buffer(f.r, "bad", bad, sizeof bad - 1, "bad",
							  &f.err), TAGEVAL_EFORMAT);
	ck_assert_str_eq(f.err.file, "bad");
	ck_assert_uint_eq(f.err.line, 2);
	ck_assert_uint_eq(tageval_report_systems(f.r), 1);
	/* a missing file */
	ck_assert_int_eq(tageval_report_add_system(f.r, "gone", "/nonexistent/answers", &f.err),
			 TAGEVAL_EIO);
	ck_assert_uint_eq(tageval_report_systems(f.r), 1);
	/* a baseline name taken by a system */
	add_system(&f, "random", s2);
	ck_assert_int_eq(tageval_report_add_baseline(f.r, TAGEVAL_BASELINE_RANDOM, &f.err),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_report_add_baseline(f.r, (enum tageval_baseline)7, &f.err),
			 TAGEVAL_EINVAL);
	ck_assert_ptr_null(tageval_baseline_name((enum tageval_baseline)7));
	/* out-of-range queries */
	struct tageval_report_cell c;
	ck_assert_int_eq(tageval_report_cell(f.r, 99, 0, 0, 0, &c), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_report_cell(f.r, 0, 9, 0, 0, &c), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_report_cell(f.r, 0, 0, 3, 0, &c), TAGEVAL_EINVAL);
	ck_assert_ptr_null(tageval_report_subset(f.r, 99));
	ck_assert_ptr_null(tageval_report_lexelt(f.r, 99));
	ck_assert_ptr_null(tageval_report_system_name(f.r, 99));
	teardown(&f);
}
END_TEST

START_TEST(errors_dag_map)
{
	/* parent form, c has two parents: coarse tags are ambiguous */
	static const char dag[] = "a\nb\nc a\nc b\n";
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_key *k = NULL;
	struct tageval_report *r = NULL;
	struct tageval_error err;
	ck_assert_int_eq(tageval_inventory_read_map_buffer(inv, dag, sizeof dag - 1, "dag", &err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_key_read_buffer(inv, "w 1 c\n", 6, "k", &k, &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_report_new(inv, k, NULL, &r, &err), TAGEVAL_EFORMAT);
	ck_assert_ptr_null(r);
	/* line 4 gives c its second parent */
	ck_assert_uint_eq(err.line, 4);
	ck_assert_str_eq(err.message, "tag \"c\" has a second parent \"b\": the report needs a "
			 "tree-shaped sense map");
	/* a key of another inventory */
	struct tageval_inventory *other = tageval_inventory_new();
	ck_assert_int_eq(tageval_report_new(other, k, NULL, &r, &err), TAGEVAL_EINVAL);
	tageval_inventory_free(other);
	tageval_key_free(k);
	tageval_inventory_free(inv);
}
END_TEST

/* ------------------------------------------------------- significance */

START_TEST(credits_per_instance)
{
	/* the key's instances in bytewise order of their ids: v-n 1-2, w.n 1-4,
	 * x.v 1-2, y-a 1, z-p 1.  Fine credits (the systems above): S2 right on w.n 1-4 (w.n 3
	 * answers a2 of the key's a1x a2: 1) and x.v 1-2, wrong on y-a and z-p,
	 * silent on v-n; S3 right on w.n 1, 3, x.v 1, y-a, v-n 1.  S4 answers
	 * w.n 1 a1 and w.n 2 "a2/1 a1x/3" (weights normalised to 1/4, 3/4):
	 * fine 0 and 1/4; mixed a1 against a1x earns Pr(a1x | a1) = 1/2, and
	 * 1/4 (a1x against a2 earns nothing); coarse a1 = a1: 1, and 1/4. */
	struct fixture f;
	setup(&f, map, train);
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_report_keep_credits(f.r, &err), TAGEVAL_OK);
	add_system(&f, "S2", s2);
	add_system(&f, "S3", s3);
	add_system(&f, "S4", "w.n 1 a1\nw.n 2 a2/1 a1x/3\n");
	/* too late now */
	ck_assert_int_eq(tageval_report_keep_credits(f.r, &err), TAGEVAL_EINVAL);
	double c[3][10], a[3][10];
	for (size_t k = 0; k < 3; k++)
		ck_assert_int_eq(tageval_report_credits(f.r, k, FINE, c[k], a[k], &err), TAGEVAL_OK);
	static const double c2[10] = { 0, 0, 1, 1, 1, 1, 1, 1, 0, 0 };
	static const double a2[10] = { 0, 0, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const double c3[10] = { 1, 0, 1, 0, 1, 0, 1, 0, 1, 0 };
	static const double c4[10] = { 0, 0, 0, 0.25, 0, 0, 0, 0, 0, 0 };
	static const double a4[10] = { 0, 0, 1, 1, 0, 0, 0, 0, 0, 0 };
	for (int i = 0; i < 10; i++) {
		ck_assert_double_eq(c[0][i], c2[i]);
		ck_assert_double_eq(a[0][i], a2[i]);
		ck_assert_double_eq(c[1][i], c3[i]);
		ck_assert_double_eq(a[1][i], 1.0);
		ck_assert_double_eq_tol(c[2][i], c4[i], TOL);
		ck_assert_double_eq_tol(a[2][i], a4[i], TOL);
	}
	double m[10], am[10];
	ck_assert_int_eq(tageval_report_credits(f.r, 2, MIXED, m, am, &err), TAGEVAL_OK);
	ck_assert_double_eq_tol(m[2], 0.5, TOL);
	ck_assert_double_eq_tol(m[3], 0.25, TOL);
	ck_assert_int_eq(tageval_report_credits(f.r, 2, COARSE, m, am, &err), TAGEVAL_OK);
	ck_assert_double_eq_tol(m[2], 1.0, TOL);
	ck_assert_double_eq_tol(m[3], 0.25, TOL);
	/* summed: the cells of "all" (S4 coarse: 1.25 of 2 attempted) */
	check_cell(&f, "all", 2, COARSE, 0, m[2] + m[3], am[2] + am[3], 10.0);
	/* misuse: no system 3, no granularity 3 */
	ck_assert_int_eq(tageval_report_credits(f.r, 3, FINE, m, am, &err), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_report_credits(f.r, 0, 3, m, am, &err), TAGEVAL_EINVAL);
	teardown(&f);

	/* the key's lines reversed: the same credits in the same order (the
	 * order of the ids, not of the lines) */
	{
		char rev[sizeof key];
		size_t len = sizeof key - 1, o = 0, end = len;
		while (end > 0) {
			size_t start = end - 1;
			while (start > 0 && key[start - 1] != '\n')
				start--;
			memcpy(rev + o, key + start, end - start);
			o += end - start;
			end = start;
		}
		ck_assert_uint_eq(o, len);
		struct tageval_inventory *inv = tageval_inventory_new();
		struct tageval_key *k = NULL;
		struct tageval_report *r = NULL;
		ck_assert_int_eq(tageval_key_read_buffer(inv, rev, len, "rev", &k, &err), TAGEVAL_OK);
		ck_assert_int_eq(tageval_report_new(inv, k, NULL, &r, &err), TAGEVAL_OK);
		ck_assert_int_eq(tageval_report_keep_credits(r, &err), TAGEVAL_OK);
		ck_assert_int_eq(tageval_report_add_system_buffer(r, "S2", s2, strlen(s2), "S2", &err),
				 TAGEVAL_OK);
		ck_assert_int_eq(tageval_report_credits(r, 0, FINE, m, am, &err), TAGEVAL_OK);
		for (int i = 0; i < 10; i++) {
			ck_assert_double_eq(m[i], c2[i]);
			ck_assert_double_eq(am[i], a2[i]);
		}
		tageval_report_free(r);
		tageval_key_free(k);
		tageval_inventory_free(inv);
	}

	/* without tageval_report_keep_credits(): EINVAL */
	setup(&f, NULL, NULL);
	add_system(&f, "S2", s2);
	ck_assert_int_eq(tageval_report_credits(f.r, 0, FINE, m, am, &err), TAGEVAL_EINVAL);
	teardown(&f);
}
END_TEST

/* 2^32 mod n redraws, as tageval_wsd_compare documents */
static uint32_t draw(gsl_rng *r, uint32_t n)
{
	for (;;) {
		uint64_t x = (uint64_t)(uint32_t)gsl_rng_get(r) * n;
		if ((uint32_t)x >= (uint32_t)(-n) % n)
			return (uint32_t)(x >> 32);
	}
}

static double prec(double c, double a)
{
	return a > 0.0 ? c / a : 0.0;
}

START_TEST(significance_by_hand)
{
	/*
	 * S1 and S3 of the report, fine, by precision (wsd-report's default
	 * measure).  S1 answers w.n 1, 2, 4 right and x.v 1 wrong: P = 3/4;
	 * S3 5 of 10: P = 1/2; t = 3/4 - 1/2 = 1/4 with S1 the reference.
	 * McNemar: b = S1 right, S3 wrong = w.n 2, w.n 4: 2; c = S3 right,
	 * S1 wrong (credit 0, answered or not) = w.n 3, x.v 1, y-a 1, v-n 1:
	 * 4; m = 6, P(X <= 2) = (1 + 6 + 15)/64 = 22/64, p = 44/64 = 0.6875.
	 * The bootstrap and the randomization are counted here directly, a
	 * sample's precisions summed over its drawn (or exchanged) instances.
	 */
	struct fixture f;
	setup(&f, NULL, NULL);
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_report_keep_credits(f.r, &err), TAGEVAL_OK);
	add_system(&f, "S1", s1);
	add_system(&f, "S3", s3);
	enum { N = 10, B = 300 };
	double c[2 * N], a[2 * N];
	ck_assert_int_eq(tageval_report_credits(f.r, 0, FINE, c, a, &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_report_credits(f.r, 1, FINE, c + N, a + N, &err), TAGEVAL_OK);
	const unsigned long seed = 99;
	struct tageval_wsd_comparison out[2];
	static const size_t ref0[1] = { 0 };
	ck_assert_int_eq(tageval_compare(2, N, c, a, TAGEVAL_STATISTIC_PRECISION, ref0, 1, B, seed,
					 out, &err), TAGEVAL_OK);
	ck_assert_double_eq_tol(out[0].f1, 0.75, TOL);
	ck_assert_double_eq_tol(out[1].f1, 0.5, TOL);
	ck_assert_double_eq_tol(out[1].delta, 0.25, TOL);
	ck_assert_uint_eq(out[1].ref_only, 2);
	ck_assert_uint_eq(out[1].other_only, 4);
	ck_assert_double_eq(out[1].mcnemar_p, 0.6875);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	ck_assert_ptr_nonnull(r);
	gsl_rng_set(r, seed);
	unsigned rb = 0, ra = 0;
	for (int b = 0; b < B; b++) {
		double s[4] = { 0 }; /* C and A of S1, then of S3 */
		for (int d = 0; d < N; d++) {
			uint32_t i = draw(r, N);
			s[0] += c[i], s[1] += a[i], s[2] += c[N + i], s[3] += a[N + i];
		}
		double t = prec(s[0], s[1]) - prec(s[2], s[3]);
		rb += fabs(t - 0.25) >= 0.25 - 1e-12;
	}
	gsl_rng_set(r, seed);
	for (int b = 0; b < B; b++) {
		unsigned long w = gsl_rng_get(r);
		double s[4] = { 0 };
		for (int i = 0; i < N; i++) {
			int x = (w >> i) & 1; /* exchanged */
			s[0] += x ? c[N + i] : c[i], s[1] += x ? a[N + i] : a[i];
			s[2] += x ? c[i] : c[N + i], s[3] += x ? a[i] : a[N + i];
		}
		ra += fabs(prec(s[0], s[1]) - prec(s[2], s[3])) >= 0.25 - 1e-12;
	}
	gsl_rng_free(r);
	/* not degenerate: some samples on each side */
	ck_assert_uint_gt(rb, 0);
	ck_assert_uint_lt(rb, B);
	ck_assert_uint_gt(ra, 0);
	ck_assert_uint_lt(ra, B);
	ck_assert_double_eq(out[1].bootstrap_p, (double)(rb + 1) / (B + 1));
	ck_assert_double_eq(out[1].randomization_p, (double)(ra + 1) / (B + 1));
	/* both references in one call: each block as the call with that
	 * reference alone (the samples shared) */
	{
		static const size_t ref1[1] = { 1 }, both[2] = { 0, 1 };
		struct tageval_wsd_comparison o1[2], o2[4];
		ck_assert_int_eq(tageval_compare(2, N, c, a, TAGEVAL_STATISTIC_PRECISION, ref1, 1, B,
						 seed, o1, &err), TAGEVAL_OK);
		ck_assert_int_eq(tageval_compare(2, N, c, a, TAGEVAL_STATISTIC_PRECISION, both, 2, B,
						 seed, o2, &err), TAGEVAL_OK);
		for (int k = 0; k < 2; k++) {
			ck_assert_mem_eq(&o2[k], &out[k], sizeof out[k]);
			ck_assert_mem_eq(&o2[2 + k], &o1[k], sizeof o1[k]);
		}
		/* S3 against S1: delta -1/4, the same p-values both ways */
		ck_assert_double_eq_tol(o1[0].delta, -0.25, TOL);
		ck_assert_double_eq(o1[0].randomization_p, out[1].randomization_p);
	}
	/* recall: 3/10 - 5/10 = -1/5; F1 2C / (A + I): 6/14 - 10/20 */
	ck_assert_int_eq(tageval_compare(2, N, c, a, TAGEVAL_STATISTIC_RECALL, ref0, 1, 0, seed,
					 out, &err), TAGEVAL_OK);
	ck_assert_double_eq_tol(out[1].delta, -0.2, TOL);
	ck_assert_int_eq(tageval_compare(2, N, c, a, TAGEVAL_STATISTIC_F1, ref0, 1, 0, seed, out,
					 &err), TAGEVAL_OK);
	ck_assert_double_eq_tol(out[1].delta, 6.0 / 14 - 0.5, TOL);
	ck_assert_int_eq(tageval_compare(2, N, c, a, (enum tageval_statistic)3, ref0, 1, 0, seed,
					 out, &err), TAGEVAL_EINVAL);
	/* a NaN, an infinite or a negative credit or mass is refused (a NaN
	 * would leave the sorts without an order) */
	static const double bad[] = { NAN, INFINITY, -0.5 };
	for (int k = 0; k < 3; k++) {
		double c2[2 * N], a2[2 * N];
		memcpy(c2, c, sizeof c2);
		memcpy(a2, a, sizeof a2);
		(k == 1 ? a2 : c2)[N + 3] = bad[k];
		ck_assert_int_eq(tageval_compare(2, N, c2, a2, TAGEVAL_STATISTIC_F1, ref0, 1, 10,
						 seed, out, &err), TAGEVAL_EINVAL);
		ck_assert_ptr_nonnull(strstr(err.message, "entry 13"));
	}
	teardown(&f);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	struct {
		const char *name;
		const TTest *test;
	} tests[] = {
		{ "entropy_values", entropy_values },
		{ "lexelts_senses_polysemy_entropy", lexelts_senses_polysemy_entropy },
		{ "lexelts_without_training", lexelts_without_training },
		{ "subsets_built_in", subsets_built_in },
		{ "subsets_median_even", subsets_median_even },
		{ "subsets_median_entropy_tie_order", subsets_median_entropy_tie_order },
		{ "subsets_user", subsets_user },
		{ "subsets_user_errors", subsets_user_errors },
		{ "baseline_random", baseline_random },
		{ "baseline_random_main", baseline_random_main },
		{ "baseline_commonest", baseline_commonest },
		{ "baseline_no_map", baseline_no_map },
		{ "baseline_random_spread_same_bits", baseline_random_spread_same_bits },
		{ "systems_cells", systems_cells },
		{ "ranking_precision_then_recall", ranking_precision_then_recall },
		{ "ranking_nobody_attempted", ranking_nobody_attempted },
		{ "system_from_pipe", system_from_pipe },
		{ "errors", errors },
		{ "errors_dag_map", errors_dag_map },
		{ "credits_per_instance", credits_per_instance },
		{ "significance_by_hand", significance_by_hand },
	};
	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
		TCase *tc = tcase_create(tests[i].name);
		tcase_add_test(tc, tests[i].test);
		suite_add_tcase(s, tc);
	}
	return s;
}

int main(void)
{
	return run_suite(report_suite());
}
