/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Krippendorff's alpha at the nominal, ordinal, interval and ratio levels
 * (tageval_agreement_alpha_levels, hkappa(1)): Krippendorff's published
 * example, a hand-computed example with a two-tag annotation, the agreement
 * of the nominal level with hkappa's alpha, every undefined case, and the
 * independence from the order of the lines.  Every expected value is the
 * published figure or computed by hand in the comment next to it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-common.h"

struct run {
	struct tageval_inventory *inv;
	struct tageval_annotations *ann;
	struct tageval_error err;
	struct tageval_alpha_figures lv;
};

/* Reads @n files (and @map, NULL for none), computes the alphas. */
static void levels(struct run *r, const char *map, const char *const *files, size_t n)
{
	memset(r, 0, sizeof *r);
	r->inv = tageval_inventory_new();
	ck_assert_ptr_nonnull(r->inv);
	if (map)
		ck_assert_int_eq(tageval_inventory_read_map_buffer(r->inv, map, strlen(map), "map",
								   &r->err),
				 TAGEVAL_OK);
	ck_assert_int_eq(tageval_annotations_new(r->inv, &r->ann), TAGEVAL_OK);
	for (size_t i = 0; i < n; i++) {
		char name[32];
		snprintf(name, sizeof name, "ann%zu", i + 1);
		ck_assert_int_eq(tageval_annotations_read_buffer(r->ann, files[i], strlen(files[i]),
								 name, &r->err),
				 TAGEVAL_OK);
	}
	ck_assert_int_eq(tageval_agreement_alpha_levels(r->ann, &r->lv, &r->err), TAGEVAL_OK);
}

static void done(struct run *r)
{
	tageval_annotations_free(r->ann);
	tageval_inventory_free(r->inv);
}

/*
 * Krippendorff, "Computing Krippendorff's Alpha-Reliability" (2011), the
 * example of section C: observers A..D, units 1-12, "." missing:
 *
 *   A  1 2 3 3 2 1 4 1 2 . . .
 *   B  1 2 3 3 2 2 4 1 2 5 . 3
 *   C  . 3 3 3 2 3 4 2 2 5 1 .
 *   D  1 2 3 3 2 4 4 1 2 5 1 .
 *
 * (also the "C" data of R's irr::kripp.alpha example; unit 12 has one value
 * and takes no part).  Published: alpha 0.743 nominal, 0.815 ordinal,
 * 0.849 interval, 0.797 ratio.
 */
static const char *const kripp[] = {
	"k 1 1\nk 2 2\nk 3 3\nk 4 3\nk 5 2\nk 6 1\nk 7 4\nk 8 1\nk 9 2\n",
	"k 1 1\nk 2 2\nk 3 3\nk 4 3\nk 5 2\nk 6 2\nk 7 4\nk 8 1\nk 9 2\nk 10 5\nk 12 3\n",
	"k 2 3\nk 3 3\nk 4 3\nk 5 2\nk 6 3\nk 7 4\nk 8 2\nk 9 2\nk 10 5\nk 11 1\n",
	"k 1 1\nk 2 2\nk 3 3\nk 4 3\nk 5 2\nk 6 4\nk 7 4\nk 8 1\nk 9 2\nk 10 5\nk 11 1\n",
};

/*
 * By hand.  Pairable values: units 1-11, m_u = 3 4 4 4 4 4 4 4 4 3 2, n = 40;
 * n_c = 9 13 10 5 3 for the values 1..5.  Units with a disagreement: 2 (2 2 3
 * 2), 6 (1 2 3 4), 8 (1 1 2 1), each m_u = 4, so each term is the sum over
 * its ordered pairs of d, divided by 3.
 *
 * nominal: ordered pairs of different values 6, 12, 6: (6 + 12 + 6) / 3 = 8,
 *   D_o = 8/40 = 1/5; D_e = (40^2 - (81 + 169 + 100 + 25 + 9)) / (40 39)
 *   = 1216/1560 = 152/195; alpha = 1 - 39/152 = 113/152 = 0.743421.
 * interval: unit 2: 6 pairs of (2, 3), 6 / 3 = 2; unit 8: 2; unit 6:
 *   2 (1 + 4 + 9 + 1 + 4 + 1) / 3 = 40/3; D_o = (4 + 40/3) / 40 = 13/30.
 *   Mean 100/40 = 5/2, sum of n_c (c - 5/2)^2 = 9 9/4 + 13/4 + 10/4 + 5 9/4
 *   + 3 25/4 = 56; D_e = 2 40 56 / (40 39) = 112/39; alpha = 1 - 13/30 39/112
 *   = 951/1120 = 0.849107.
 * ordinal: mid-ranks 9/2, 9 + 13/2 = 31/2, 22 + 5 = 27, 32 + 5/2 = 69/2,
 *   37 + 3/2 = 77/2; d(c, k) = (r_c - r_k)^2.  Unit 2: 6 (23/2)^2 / 3 = 529/2;
 *   unit 8: 6 11^2 / 3 = 242; unit 6: ranks 9/2 31/2 27 69/2, squared
 *   differences 121 + 2025/4 + 900 + 529/4 + 361 + 225/4 = 8307/4, 2 8307/4 / 3
 *   = 2769/2; D_o = (529/2 + 242 + 2769/2) / 40 = 1891/40.  Mean rank
 *   (81/2 + 403/2 + 270 + 345/2 + 231/2) / 40 = 20; sum of n_c (r_c - 20)^2 =
 *   9 (31/2)^2 + 13 (9/2)^2 + 10 7^2 + 5 (29/2)^2 + 3 (37/2)^2 = 4993.5;
 *   D_e = 2 40 4993.5 / 1560 = 3329/13; alpha = 1 - 1891/40 13/3329 =
 *   108577/133160 = 0.815388.
 * ratio: d(c, k) = ((c - k)/(c + k))^2: d(1,2) = 1/9, d(1,3) = 1/4,
 *   d(1,4) = 9/25, d(1,5) = 4/9, d(2,3) = 1/25, d(2,4) = 1/9, d(2,5) = 9/49,
 *   d(3,4) = 1/49, d(3,5) = 1/16, d(4,5) = 1/81.  Unit 2: 2 d(2,3) = 2/25;
 *   unit 8: 2 d(1,2) = 2/9; unit 6: 2/3 (d(1,2) + d(1,3) + d(1,4) + d(2,3)
 *   + d(2,4) + d(3,4)) = 2/3 (1/9 + 1/4 + 9/25 + 1/25 + 1/9 + 1/49);
 *   D_o = 59357/2646000.  D_e = 2 sum over c < k of n_c n_k d(c, k) / 1560
 *   = 2 (117/9 + 90/4 + 45 9/25 + 27 4/9 + 130/25 + 65/9 + 39 9/49 + 50/49
 *   + 30/16 + 15/81) / 1560 = 4570493/41277600; alpha = 18222619/22852465
 *   = 0.797403.
 */
START_TEST(krippendorff_example)
{
	struct run r;
	levels(&r, NULL, kripp, 4);
	ck_assert_uint_eq(r.lv.items, 11);
	ck_assert_uint_eq(r.lv.annotations, 40);
	static const double d_o[] = { 1.0 / 5, 1891.0 / 40, 13.0 / 30, 59357.0 / 2646000 };
	static const double d_e[] = { 152.0 / 195, 3329.0 / 13, 112.0 / 39,
				      4570493.0 / 41277600 };
	static const double alpha[] = { 113.0 / 152, 108577.0 / 133160, 951.0 / 1120,
					18222619.0 / 22852465 };
	static const double published[] = { 0.743, 0.815, 0.849, 0.797 };
	for (int l = 0; l < TAGEVAL_LEVELS; l++) {
		ck_assert_int_eq(r.lv.undefined[l], TAGEVAL_DEFINED);
		ck_assert_double_eq_tol(r.lv.d_o[l], d_o[l], TOL * d_o[l]);
		ck_assert_double_eq_tol(r.lv.d_e[l], d_e[l], TOL * d_e[l]);
		ck_assert_double_eq_tol(r.lv.alpha[l], alpha[l], TOL);
		ck_assert_double_eq_tol(r.lv.alpha[l], published[l], 0.0005);
	}
	done(&r);
}
END_TEST

/*
 * A two-tag annotation is the distribution over its tags.  Items 1-3,
 * annotators A: 1, 2, 3 and B: {1, 3}, 2, 1.  n = 6, n_1 = 1 + 1/2 + 1 =
 * 5/2, n_2 = 2, n_3 = 1/2 + 1 = 3/2.  W, the pairs of B's {1/2, 1/2} on item
 * 1 with itself, is 2 1/2 1/2 d(1, 3) = d(1, 3)/2.
 * interval: item 1: sum over c, k of (S(c) S(k) - P_B(c) P_B(k)) (c - k)^2
 *   with S = {1: 3/2, 3: 1/2}: 2 (3/2 1/2 - 1/2 1/2) 4 = 4 (m - 1 = 1); item 3:
 *   2 (3 - 1)^2 = 8; D_o = 12/6 = 2.  Mean (5/2 + 4 + 9/2)/6 = 11/6, sum of
 *   n_c (c - 11/6)^2 = (5/2 25 + 2 1 + 3/2 49)/36 = 23/6; W = 4/2 = 2;
 *   D_e = (2 6 23/6 - 2) / 30 = 44/30 = 22/15; alpha = 1 - 30/22 = -4/11.
 * nominal: item 1: 2 (3/4 - 1/4) = 1, item 3: 2; D_o = 3/6 = 1/2; W = 1/2;
 *   D_e = (36 - 25/4 - 4 - 9/4 - 1/2) / 30 = 23/30; alpha = 1 - 15/23 = 8/23.
 * ordinal: mid-ranks 5/4, 5/2 + 1 = 7/2, 9/2 + 3/4 = 21/4.  Item 1:
 *   2 1/2 (21/4 - 5/4)^2 = 16, item 3: 2 16 = 32; D_o = 48/6 = 8.  Mean rank
 *   (25/8 + 7 + 63/8)/6 = 3, sum of n_c (r_c - 3)^2 = 5/2 49/16 + 2 1/4 +
 *   3/2 81/16 = 245/32 + 1/2 + 243/32 = 63/4; W = 16/2 = 8; D_e =
 *   (2 6 63/4 - 8) / 30 = 181/30; alpha = 1 - 240/181 = -59/181.
 * ratio: d(1, 3) = 1/4: item 1: 2 1/2 1/4 = 1/4, item 3: 2 1/4 = 1/2;
 *   D_o = (3/4)/6 = 1/8.  2 sum over c < k of n_c n_k d(c, k) = 2 (5/2 2 1/9
 *   + 5/2 3/2 1/4 + 2 3/2 1/25) = 2 (2000 + 3375 + 432)/3600 = 5807/1800;
 *   W = 1/8 = 225/1800; D_e = 5582/1800 / 30 = 2791/27000; alpha =
 *   1 - 3375/2791 = -584/2791.
 */
START_TEST(two_tags)
{
	static const char *const f[] = { "w 1 1\nw 2 2\nw 3 3\n", "w 1 1 3\nw 2 2\nw 3 1\n" };
	struct run r;
	levels(&r, NULL, f, 2);
	static const double alpha[] = { 8.0 / 23, -59.0 / 181, -4.0 / 11, -584.0 / 2791 };
	static const double d_o[] = { 0.5, 8.0, 2.0, 0.125 };
	static const double d_e[] = { 23.0 / 30, 181.0 / 30, 22.0 / 15, 2791.0 / 27000 };
	for (int l = 0; l < TAGEVAL_LEVELS; l++) {
		ck_assert_int_eq(r.lv.undefined[l], TAGEVAL_DEFINED);
		ck_assert_double_eq_tol(r.lv.d_o[l], d_o[l], TOL);
		ck_assert_double_eq_tol(r.lv.d_e[l], d_e[l], TOL);
		ck_assert_double_eq_tol(r.lv.alpha[l], alpha[l], TOL);
	}
	done(&r);
}
END_TEST

/* The nominal level is hkappa's alpha (distance 1 - <P, Q>) whenever every
 * annotation is over leaves: the same D_o and D_e, to rounding. */
START_TEST(nominal_is_alpha)
{
	static const char *const f[] = {
		"w 1 a b\nw 2 b\nw 3 c/3 a/1\nw 4 a\nv 1 x\n",
		"w 1 a\nw 2 b c\nw 3 c\nv 1 x y\nv 2 y\n",
		"w 1 b\nw 3 a c\nw 4 a\nv 1 y\nv 2 y/0.25 x/0.5\n",
	};
	struct run r;
	levels(&r, NULL, f, 3);
	struct tageval_agreement *ag;
	ck_assert_int_eq(tageval_agreement_compute(r.ann, NULL, &ag, &r.err), TAGEVAL_OK);
	const struct tageval_agreement_figures *g = tageval_agreement_pooled(ag);
	ck_assert_int_eq(r.lv.undefined[TAGEVAL_NOMINAL], TAGEVAL_DEFINED);
	ck_assert_uint_eq(r.lv.items, g->items);
	ck_assert_uint_eq(r.lv.annotations, g->annotations);
	ck_assert_double_eq_tol(r.lv.d_o[TAGEVAL_NOMINAL], g->d_o, TOL);
	ck_assert_double_eq_tol(r.lv.d_e[TAGEVAL_NOMINAL], g->d_e, TOL);
	ck_assert_double_eq_tol(r.lv.alpha[TAGEVAL_NOMINAL], g->alpha, TOL);
	/* the labels are not numbers: the other levels say so */
	for (int l = TAGEVAL_ORDINAL; l < TAGEVAL_LEVELS; l++) {
		ck_assert_int_eq(r.lv.undefined[l], TAGEVAL_UNDEFINED_NOT_NUMBERS);
		ck_assert_double_nan(r.lv.alpha[l]);
	}
	tageval_agreement_free(ag);
	done(&r);
}
END_TEST

/* Every undefined case. */
START_TEST(undefined_cases)
{
	struct run r;
	/* identical values: D_e = 0 at every level */
	static const char *const same[] = { "w 1 2\nw 2 2\n", "w 1 2\nw 2 2\n" };
	levels(&r, NULL, same, 2);
	for (int l = 0; l < TAGEVAL_LEVELS; l++) {
		ck_assert_int_eq(r.lv.undefined[l], TAGEVAL_UNDEFINED_NO_SPREAD);
		ck_assert_double_nan(r.lv.alpha[l]);
		ck_assert_double_eq(r.lv.d_e[l], 0.0);
	}
	done(&r);
	/* no item with two annotations */
	static const char *const apart[] = { "w 1 2\n", "w 2 2\n" };
	levels(&r, NULL, apart, 2);
	ck_assert_uint_eq(r.lv.items, 0);
	for (int l = 0; l < TAGEVAL_LEVELS; l++)
		ck_assert_int_eq(r.lv.undefined[l], TAGEVAL_UNDEFINED_NO_ITEMS);
	done(&r);
	/* a negative value: the ratio level only.  Values -1, 1 on item 1 and
	 * 1, 1 on item 2: interval D_o = 2 4 / 4 = 2, mean 1/2, D_e = 2 4 (9/4 +
	 * 3/4) / 12 = 2, alpha 0 */
	static const char *const neg[] = { "w 1 -1\nw 2 1\n", "w 1 1\nw 2 +1\n" };
	levels(&r, NULL, neg, 2);
	ck_assert_int_eq(r.lv.undefined[TAGEVAL_RATIO], TAGEVAL_UNDEFINED_NEGATIVE);
	ck_assert_double_nan(r.lv.alpha[TAGEVAL_RATIO]);
	ck_assert_int_eq(r.lv.undefined[TAGEVAL_INTERVAL], TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(r.lv.d_o[TAGEVAL_INTERVAL], 2.0, TOL);
	ck_assert_double_eq_tol(r.lv.d_e[TAGEVAL_INTERVAL], 2.0, TOL);
	ck_assert_double_eq_tol(r.lv.alpha[TAGEVAL_INTERVAL], 0.0, TOL);
	done(&r);
	/* one label not a number: every level but the nominal */
	static const char *const word[] = { "w 1 1\nw 2 2\n", "w 1 1\nw 2 2x\n" };
	levels(&r, NULL, word, 2);
	ck_assert_int_eq(r.lv.undefined[TAGEVAL_NOMINAL], TAGEVAL_DEFINED);
	for (int l = TAGEVAL_ORDINAL; l < TAGEVAL_LEVELS; l++)
		ck_assert_int_eq(r.lv.undefined[l], TAGEVAL_UNDEFINED_NOT_NUMBERS);
	done(&r);
	/* a tag with tags below it in a tree-shaped map */
	static const char *const inner[] = { "w 1 A\nw 2 B.1\n", "w 1 A.1\nw 2 B.2\n" };
	levels(&r, "A.1 A\nA.2 A\nB.1 B\nB.2 B\n", inner, 2);
	for (int l = 0; l < TAGEVAL_LEVELS; l++)
		ck_assert_int_eq(r.lv.undefined[l], TAGEVAL_UNDEFINED_INNER_TAG);
	done(&r);
	/* only leaves of that map: defined.  Nominal: item 2 disagrees, 2
	 * ordered pairs / (2 - 1), D_o = 2/4; n_A.1 = 2, n_B.1 = n_B.2 = 1,
	 * D_e = (16 - 4 - 1 - 1) / 12 = 5/6, alpha = 1 - 3/5 = 2/5 */
	static const char *const leaves[] = { "w 1 A.1\nw 2 B.1\n", "w 1 A.1\nw 2 B.2\n" };
	levels(&r, "A.1 A\nA.2 A\nB.1 B\nB.2 B\n", leaves, 2);
	ck_assert_int_eq(r.lv.undefined[TAGEVAL_NOMINAL], TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(r.lv.alpha[TAGEVAL_NOMINAL], 0.4, TOL);
	done(&r);
	for (int why = TAGEVAL_UNDEFINED_NOT_NUMBERS; why <= TAGEVAL_UNDEFINED_NEGATIVE; why++)
		ck_assert_str_ne(tageval_undefined_reason(why), "unknown");
	ck_assert_int_eq(tageval_agreement_alpha_levels(NULL, &r.lv, &r.err), TAGEVAL_EINVAL);
}
END_TEST

/* The lines of @text in the order i * @step mod n (step prime to n). */
static void reorder(char *out, size_t cap, const char *const *lines, size_t n, size_t step)
{
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int k = snprintf(out + len, cap - len, "%s", lines[(i * step) % n]);
		ck_assert(k > 0 && (size_t)k < cap - len);
		len += (size_t)k;
	}
}

/* Any order of the lines gives the same bits (fractional masses, several
 * lexelts, values 0.1 apart so that sums round). */
START_TEST(line_order)
{
	static const char *const a[] = { "w 1 0.1 0.7\n", "w 2 0.2\n", "w 3 0.3/2 0.9/1\n",
					 "v 1 0.4\n", "v 2 1.1\n", "w 4 0.7 0.2 0.4\n",
					 "v 3 0.9\n" };
	static const char *const b[] = { "v 3 0.3\n", "w 1 0.1\n", "w 2 0.7 0.3\n", "w 3 0.9\n",
					 "v 1 0.4 1.1\n", "v 2 0.2\n", "w 4 0.4\n" };
	struct tageval_alpha_figures base;
	for (size_t s = 1; s <= 6; s++) {
		char fa[512], fb[512];
		reorder(fa, sizeof fa, a, 7, s);
		reorder(fb, sizeof fb, b, 7, 7 - s == 0 ? 1 : 7 - s);
		const char *const f[] = { fa, fb };
		struct run r;
		levels(&r, NULL, f, 2);
		if (s == 1)
			base = r.lv;
		for (int l = 0; l < TAGEVAL_LEVELS; l++) {
			ck_assert_int_eq(r.lv.undefined[l], TAGEVAL_DEFINED);
			ck_assert_mem_eq(&r.lv.alpha[l], &base.alpha[l], sizeof(double));
			ck_assert_mem_eq(&r.lv.d_o[l], &base.d_o[l], sizeof(double));
			ck_assert_mem_eq(&r.lv.d_e[l], &base.d_e[l], sizeof(double));
		}
		done(&r);
	}
}
END_TEST

static Suite *alpha_suite(void)
{
	Suite *s = suite_create("alpha");
	TCase *tc = tcase_create("levels");
	tcase_add_test(tc, krippendorff_example);
	tcase_add_test(tc, two_tags);
	tcase_add_test(tc, nominal_is_alpha);
	tcase_add_test(tc, undefined_cases);
	tcase_add_test(tc, line_order);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(alpha_suite());
}
