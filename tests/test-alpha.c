/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Krippendorff's alpha at the nominal, ordinal, interval and ratio levels
 * (tageval_agreement_alpha_levels, hkappa(1)): Krippendorff's published
 * example, a hand-computed example with a two-tag annotation, the agreement
 * of the nominal level with hkappa's alpha, every undefined case, and the
 * independence from the order of the lines.  The chance-corrected
 * coefficients (tageval_agreement_chance): irrCAC's published example, hand
 * computations with numeric labels, missing data and a two-tag annotation,
 * every undefined case.  Cohen's kappa with given distances
 * (tageval_agreement_kappa_distances): by hand, with a two-tag annotation,
 * its equality with kappa_linear, its errors and undefined cases.  Every
 * expected value is the
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
	ck_assert_int_eq(tageval_agreement_alpha_levels(r->ann, 0, &r->lv, &r->err), TAGEVAL_OK);
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
	/* only the interval level asked for: the same value, the others not
	 * computed */
	struct tageval_alpha_figures one;
	ck_assert_int_eq(tageval_agreement_alpha_levels(r.ann, 1u << TAGEVAL_INTERVAL, &one, &r.err),
			 TAGEVAL_OK);
	ck_assert_double_eq_tol(one.alpha[TAGEVAL_INTERVAL], alpha[TAGEVAL_INTERVAL], TOL);
	for (int l = 0; l < TAGEVAL_LEVELS; l++)
		if (l != TAGEVAL_INTERVAL) {
			ck_assert_int_eq(one.undefined[l], TAGEVAL_UNDEFINED_NOT_ASKED);
			ck_assert_double_nan(one.alpha[l]);
		}
	ck_assert_str_eq(tageval_undefined_reason(TAGEVAL_UNDEFINED_NOT_ASKED), "not asked for");
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
	ck_assert_int_eq(tageval_agreement_alpha_levels(NULL, 0, &r.lv, &r.err), TAGEVAL_EINVAL);
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

/* ------------------------------------------------ chance-corrected coefficients */

/* The figures of the one pass (tageval_agreement_chance_alpha) are those
 * of the two calls, bit for bit (every field; both structures are zeroed
 * first, so that their padding, if any, is equal too). */
static void same_as_one_pass(struct run *r, size_t q, const struct tageval_chance_figures *ch,
			     const struct tageval_alpha_figures *lv)
{
	struct tageval_chance_figures ch2;
	struct tageval_alpha_figures lv2;
	ck_assert_int_eq(tageval_agreement_chance_alpha(r->ann, q, 0, &ch2, &lv2, &r->err),
			 TAGEVAL_OK);
	ck_assert_mem_eq(&ch2, ch, sizeof ch2);
	ck_assert_mem_eq(&lv2, lv, sizeof lv2);
}

static void chance(struct run *r, const char *const *files, size_t n, size_t q,
		   struct tageval_chance_figures *ch)
{
	levels(r, NULL, files, n);
	ck_assert_int_eq(tageval_agreement_chance(r->ann, q, ch, &r->err), TAGEVAL_OK);
	same_as_one_pass(r, q, ch, &r->lv);
}

/*
 * Gwet's irrCAC, vignette "overview", cont3x3abstractors: two abstractors,
 * 100 women, the table (rows the first, columns the second; E, A, N)
 * 13 0 0 / 0 20 7 / 0 4 56.  Published: Cohen's kappa 0.7964094, Gwet's
 * AC1 0.8493305, Brennan-Prediger 0.835.  By hand: p_a = 89/100; pi =
 * (26, 51, 123)/200, sum of pi (1 - pi) = 0.1131 + 0.189975 + 0.236775 =
 * 0.53985, AC1 p_e = 0.269925, AC1 = 0.620075 / 0.730075; BP p_e = 1/3,
 * BP = (0.89 - 1/3) / (2/3) = 0.835; Conger (two annotators, complete data:
 * Cohen): p_1 = (.13, .27, .60), p_2 = (.13, .24, .63), mean (.13, .255,
 * .615), s_k^2 = (0, .00045, .00045), p_e = .46015 - .0009/2 = .4597 =
 * .13 .13 + .27 .24 + .60 .63, kappa = .4303 / .5403.
 */
static void abstractors(char *a, char *b, size_t cap)
{
	static const struct {
		const char *x, *y;
		int n;
	} cells[] = { { "E", "E", 13 }, { "A", "A", 20 }, { "A", "N", 7 }, { "N", "A", 4 },
		      { "N", "N", 56 } };
	size_t la = 0, lb = 0;
	int item = 0;
	for (size_t c = 0; c < sizeof cells / sizeof cells[0]; c++)
		for (int k = 0; k < cells[c].n; k++) {
			item++;
			la += (size_t)snprintf(a + la, cap - la, "w %d %s\n", item, cells[c].x);
			lb += (size_t)snprintf(b + lb, cap - lb, "w %d %s\n", item, cells[c].y);
			ck_assert(la < cap && lb < cap);
		}
}

START_TEST(irrcac_abstractors)
{
	static char a[2048], b[2048];
	abstractors(a, b, sizeof a);
	const char *const f[] = { a, b };
	struct run r;
	struct tageval_chance_figures ch;
	chance(&r, f, 2, 0, &ch);
	ck_assert_uint_eq(ch.items, 100);
	ck_assert_uint_eq(ch.rated, 100);
	ck_assert_uint_eq(ch.categories, 3);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_GWET_AC1], 0.620075 / 0.730075, TOL);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_GWET_AC1], 0.8493305, 5e-8);
	ck_assert_double_eq_tol(ch.chance[TAGEVAL_GWET_AC1], 0.269925, TOL);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_BRENNAN_PREDIGER], 0.835, TOL);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_CONGER_KAPPA], 0.4303 / 0.5403, TOL);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_CONGER_KAPPA], 0.7964094, 5e-8);
	ck_assert_double_eq_tol(ch.chance[TAGEVAL_CONGER_KAPPA], 0.4597, TOL);
	/* the labels are words: no AC2, no weighted kappa */
	ck_assert_int_eq(ch.undefined[TAGEVAL_GWET_AC2], TAGEVAL_UNDEFINED_NOT_NUMBERS);
	ck_assert_int_eq(ch.undefined[TAGEVAL_KAPPA_LINEAR], TAGEVAL_UNDEFINED_NOT_NUMBERS);
	ck_assert_int_eq(ch.undefined[TAGEVAL_KAPPA_QUADRATIC], TAGEVAL_UNDEFINED_NOT_NUMBERS);
	ck_assert_double_nan(ch.value[TAGEVAL_GWET_AC2]);
	/* Conger = Cohen's kappa of hkappa with two annotators, complete data */
	struct tageval_agreement *ag;
	ck_assert_int_eq(tageval_agreement_compute(r.ann, NULL, &ag, &r.err), TAGEVAL_OK);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_CONGER_KAPPA],
				tageval_agreement_pooled(ag)->kappa_separate, TOL);
	tageval_agreement_free(ag);
	done(&r);
	/* --categories 4: BP p_e = 1/4, (0.89 - 0.25) / 0.75; AC1 p_e =
	 * 0.53985 / 3 = 0.17995, (0.89 - 0.17995) / 0.82005 */
	chance(&r, f, 2, 4, &ch);
	ck_assert_uint_eq(ch.categories, 4);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_BRENNAN_PREDIGER], 0.64 / 0.75, TOL);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_GWET_AC1], 0.71005 / 0.82005, TOL);
	done(&r);
	/* fewer categories than labels: an error */
	levels(&r, NULL, f, 2);
	ck_assert_int_eq(tageval_agreement_chance(r.ann, 2, &ch, &r.err), TAGEVAL_EINVAL);
	ck_assert_ptr_nonnull(strstr(r.err.message, "3 distinct labels"));
	/* the same error from the one pass, after alpha's figures (computed:
	 * 3 labels, 100 units of 2 annotations, n = 200) */
	struct tageval_alpha_figures lv;
	memset(&r.err, 0, sizeof r.err);
	ck_assert_int_eq(tageval_agreement_chance_alpha(r.ann, 2, 0, &ch, &lv, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_ptr_nonnull(strstr(r.err.message, "3 distinct labels"));
	ck_assert_uint_eq(lv.items, 100);
	ck_assert_uint_eq(lv.annotations, 200);
	/* nominal alone asked: the other levels marked not asked even though
	 * chance's part fails after alpha's (as the two calls would leave them) */
	memset(&r.err, 0, sizeof r.err);
	ck_assert_int_eq(tageval_agreement_chance_alpha(r.ann, 2, 1u << TAGEVAL_NOMINAL, &ch,
							&lv, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(lv.undefined[TAGEVAL_NOMINAL], TAGEVAL_DEFINED);
	for (int l = TAGEVAL_ORDINAL; l < TAGEVAL_LEVELS; l++) {
		ck_assert_int_eq(lv.undefined[l], TAGEVAL_UNDEFINED_NOT_ASKED);
		ck_assert(isnan(lv.alpha[l]));
	}
	done(&r);
}
END_TEST

/*
 * The one pass where the two families stop at different items: item 1 is
 * annotated once, with the inner tag A (the chance coefficients count items
 * annotated once: undefined from there, INNER_TAG; alpha skips it), items
 * 2 and 3 twice with leaves: alpha over them by hand, 2 units, n = 4, A.1
 * twice on unit 2, A.1 and A.2 on unit 3: D_o = (0 + 2/1) / 4 = 0.5, n_c =
 * (3, 1), D_e = (16 - 9 - 1) / 12 = 0.5, alpha = 0.  Then a file whose
 * inner tag is on its last unit: alpha undefined, chance too, and alpha's
 * units counted up to it (3).
 */
START_TEST(one_pass_inner)
{
	struct run r;
	struct tageval_chance_figures ch, ch1;
	struct tageval_alpha_figures lv;
	static const char *const f[] = { "w 1 A\nw 2 A.1\nw 3 A.1\n", "w 2 A.1\nw 3 A.2\n" };
	levels(&r, "A.1 A\nA.2 A\n", f, 2);
	ck_assert_int_eq(r.lv.undefined[TAGEVAL_NOMINAL], TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(r.lv.alpha[TAGEVAL_NOMINAL], 0.0, TOL);
	ck_assert_double_eq_tol(r.lv.d_o[TAGEVAL_NOMINAL], 0.5, TOL);
	ck_assert_uint_eq(r.lv.items, 2);
	ck_assert_int_eq(tageval_agreement_chance(r.ann, 0, &ch1, &r.err), TAGEVAL_OK);
	ck_assert_int_eq(ch1.undefined[TAGEVAL_GWET_AC1], TAGEVAL_UNDEFINED_INNER_TAG);
	ck_assert_int_eq(tageval_agreement_chance_alpha(r.ann, 0, 0, &ch, &lv, &r.err),
			 TAGEVAL_OK);
	ck_assert_mem_eq(&ch, &ch1, sizeof ch);
	ck_assert_mem_eq(&lv, &r.lv, sizeof lv);
	done(&r);
	static const char *const g[] = { "w 1 A.1\nw 2 A.2\nw 3 A\nw 4 A.1\n",
					 "w 1 A.1\nw 2 A.1\nw 3 A.1\nw 4 A.2\n" };
	levels(&r, "A.1 A\nA.2 A\n", g, 2);
	ck_assert_int_eq(r.lv.undefined[TAGEVAL_NOMINAL], TAGEVAL_UNDEFINED_INNER_TAG);
	ck_assert_uint_eq(r.lv.items, 3);
	ck_assert_int_eq(tageval_agreement_chance(r.ann, 0, &ch1, &r.err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_agreement_chance_alpha(r.ann, 0, 0, &ch, &lv, &r.err),
			 TAGEVAL_OK);
	ck_assert_mem_eq(&ch, &ch1, sizeof ch);
	ck_assert_mem_eq(&lv, &r.lv, sizeof lv);
	ck_assert_int_eq(tageval_agreement_chance_alpha(NULL, 0, 0, &ch, &lv, &r.err),
			 TAGEVAL_EINVAL);
	done(&r);
}
END_TEST

/*
 * Numeric labels, two annotators: A 1 1 2 2 3, B 1 2 2 3 3.
 * p_a = 3/5.  pi = (3, 4, 3)/10, sum of pi (1 - pi) = .21 + .24 + .21 = .66.
 * AC1: p_e = .66/2 = .33, (.6 - .33)/.67 = 27/67.  BP: (.6 - 1/3)/(2/3) = 2/5.
 * Conger: p_A = (.4, .4, .2), p_B = (.2, .4, .4), mean (.3, .4, .3),
 *   s^2 = (.02, 0, .02), p_e = .34 - .04/2 = .32, (.6 - .32)/.68 = 7/17.
 * AC2: w = 1 - ((k - l)/2)^2: w(1,2) = w(2,3) = 3/4, w(1,3) = 0; item
 *   agreements 1, 3/4, 1, 3/4, 1: p_a = 9/10; T_w = 3 + 4 3/4 = 6,
 *   p_e = 6 .66 / 6 = .66, AC2 = .24/.34 = 12/17.
 * kappa_linear: D_o = (0 + 1 + 0 + 1 + 0)/5 = 2/5; D_e = .4 (.4 1 + .4 2)
 *   + .4 (.2 1 + .4 1) + .2 (.2 2 + .4 1) = .48 + .24 + .16 = .88;
 *   1 - .4/.88 = 6/11.
 * kappa_quadratic: D_o = 2/5; D_e = .4 (.4 + 1.6) + .4 (.2 + .4) +
 *   .2 (.8 + .4) = .8 + .24 + .24 = 1.28; 1 - .4/1.28 = 11/16.
 */
START_TEST(numeric_two)
{
	static const char *const f[] = { "w 1 1\nw 2 1\nw 3 2\nw 4 2\nw 5 3\n",
					 "w 1 1\nw 2 2\nw 3 2\nw 4 3\nw 5 3\n" };
	struct run r;
	struct tageval_chance_figures ch;
	chance(&r, f, 2, 0, &ch);
	static const double want[] = { 27.0 / 67, 12.0 / 17, 2.0 / 5, 7.0 / 17, 6.0 / 11,
				       11.0 / 16 };
	for (int c = 0; c < TAGEVAL_CHANCE_COEFFICIENTS; c++) {
		ck_assert_int_eq(ch.undefined[c], TAGEVAL_DEFINED);
		ck_assert_double_eq_tol(ch.value[c], want[c], TOL);
	}
	ck_assert_double_eq_tol(ch.observed[TAGEVAL_KAPPA_LINEAR], 0.4, TOL);
	ck_assert_double_eq_tol(ch.chance[TAGEVAL_KAPPA_LINEAR], 0.88, TOL);
	ck_assert_double_eq_tol(ch.chance[TAGEVAL_KAPPA_QUADRATIC], 1.28, TOL);
	ck_assert_double_eq_tol(ch.observed[TAGEVAL_GWET_AC2], 0.9, TOL);
	done(&r);
}
END_TEST

/*
 * Missing data as irrCAC: Krippendorff's example above (irrCAC's
 * cac.raw4raters).  p_a over the 11 items with two or more ratings = 9/11
 * (items 2, 6, 8 agree 1/2, 0, 1/2; the others 1).  pi over the 12 rated
 * items (unit 12, one rating, counts): 12 pi = (3, 13/4, 7/2, 5/4, 1),
 * sum of pi (1 - pi) = 1 - 34.375/144 = 877/1152.
 * AC1: p_e = 877/4608, (9/11 - 877/4608)/(3731/4608) = 31825/41041 = 0.775444.
 * BP: (9/11 - 1/5)/(4/5) = 17/22.
 * Conger: each observer's proportions over the units it rated: A (9 units)
 *   (3, 3, 2, 1, 0)/9, B (11) (2, 4, 3, 1, 1)/11, C (10) (1, 3, 4, 1, 1)/10,
 *   D (11) (3, 3, 2, 2, 1)/11; p_e = sum over k of (mean_k^2 - (sum over g
 *   of p_gk^2 - 4 mean_k^2)/12) = 1541/6534; kappa = 3805/4993 = 0.762067.
 * AC2: range 4, w = 1 - ((k - l)/4)^2; p_a = mean over the 11 items of the
 *   mean weighted agreement of their pairs = 515/528 (item 2: 1 - 3 2/(16 12)
 *   ... each term (k - l)^2/16 averaged over ordered pairs); T_w = 25 - 2 (4
 *   1/16 + 3 4/16 + 2 9/16 + 16/16) = 75/4, p_e = 75/4 877/1152 / 20 =
 *   4385/6144; AC2 = 17685/19349 = 0.914001.
 */
START_TEST(irrcac_missing)
{
	struct run r;
	struct tageval_chance_figures ch;
	chance(&r, kripp, 4, 0, &ch);
	ck_assert_uint_eq(ch.items, 11);
	ck_assert_uint_eq(ch.rated, 12);
	ck_assert_uint_eq(ch.categories, 5);
	ck_assert_double_eq_tol(ch.observed[TAGEVAL_GWET_AC1], 9.0 / 11, TOL);
	ck_assert_double_eq_tol(ch.chance[TAGEVAL_GWET_AC1], 877.0 / 4608, TOL);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_GWET_AC1], 31825.0 / 41041, TOL);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_BRENNAN_PREDIGER], 17.0 / 22, TOL);
	ck_assert_double_eq_tol(ch.chance[TAGEVAL_CONGER_KAPPA], 1541.0 / 6534, TOL);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_CONGER_KAPPA], 3805.0 / 4993, TOL);
	ck_assert_double_eq_tol(ch.observed[TAGEVAL_GWET_AC2], 515.0 / 528, TOL);
	ck_assert_double_eq_tol(ch.chance[TAGEVAL_GWET_AC2], 4385.0 / 6144, TOL);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_GWET_AC2], 17685.0 / 19349, TOL);
	/* four annotators: no weighted Cohen's kappa */
	ck_assert_int_eq(ch.undefined[TAGEVAL_KAPPA_LINEAR], TAGEVAL_UNDEFINED_TWO_ANNOTATORS);
	ck_assert_int_eq(ch.undefined[TAGEVAL_KAPPA_QUADRATIC], TAGEVAL_UNDEFINED_TWO_ANNOTATORS);
	done(&r);
}
END_TEST

/* The undefined cases of the chance-corrected coefficients. */
/* ------------------------------------------------------ standard errors */

static void standard_errors(struct run *r, const char *const *files, size_t n, size_t q,
			    struct tageval_standard_errors *se)
{
	levels(r, NULL, files, n);
	ck_assert_int_eq(tageval_agreement_standard_errors(r->ann, q, 0.95, se, &r->err),
			 TAGEVAL_OK);
}

/*
 * irrCAC's vignette "overview", cont3x3abstractors (see irrcac_abstractors):
 * published standard errors, Cohen's kappa 0.05891072 (kappa2.table: the
 * variance of Fleiss, Cohen & Everitt), Scott's pi 0.05905473, AC1
 * 0.04321747, Brennan-Prediger 0.04693346.  irrCAC's functions on tables
 * divide the sum of the squared item terms by n^2, those on raw ratings
 * (ours) by n (n - 1): ours are the published ones times sqrt(100/99).
 * The pooled kappa of two annotators with complete data is Scott's pi.
 */
START_TEST(se_abstractors)
{
	static char a[2048], b[2048];
	abstractors(a, b, sizeof a);
	const char *const f[] = { a, b };
	struct run r;
	struct tageval_standard_errors se;
	standard_errors(&r, f, 2, 0, &se);
	double scale = sqrt(100.0 / 99.0);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_KAPPA_COHEN], TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(se.se[TAGEVAL_SE_KAPPA_COHEN], 0.05891072, 5e-9);
	ck_assert_double_eq_tol(se.value[TAGEVAL_SE_KAPPA_COHEN], 0.7964094, 5e-8);
	ck_assert_int_eq(se.method[TAGEVAL_SE_KAPPA_COHEN], TAGEVAL_SE_FLEISS_COHEN_EVERITT);
	ck_assert_uint_eq(se.items[TAGEVAL_SE_KAPPA_COHEN], 100);
	ck_assert_double_eq_tol(se.se[TAGEVAL_SE_KAPPA], 0.05905473 * scale, 5e-9);
	ck_assert_double_eq_tol(se.se[TAGEVAL_SE_GWET_AC1], 0.04321747 * scale, 5e-9);
	ck_assert_double_eq_tol(se.se[TAGEVAL_SE_BRENNAN_PREDIGER], 0.04693346 * scale, 5e-9);
	ck_assert_int_eq(se.method[TAGEVAL_SE_GWET_AC1], TAGEVAL_SE_GWET);
	/* the intervals: normal quantile for FCE; t with 99 degrees of freedom
	 * for Gwet's, the upper end at most 1 */
	double z = 1.959963984540054;
	ck_assert_double_eq_tol(se.low[TAGEVAL_SE_KAPPA_COHEN],
				se.value[TAGEVAL_SE_KAPPA_COHEN] - z * se.se[TAGEVAL_SE_KAPPA_COHEN],
				TOL);
	ck_assert_double_eq_tol(se.high[TAGEVAL_SE_KAPPA_COHEN],
				se.value[TAGEVAL_SE_KAPPA_COHEN] + z * se.se[TAGEVAL_SE_KAPPA_COHEN],
				TOL);
	double t99 = 1.984216951835; /* the 0.975 quantile of Student's t, 99 df */
	ck_assert_double_eq_tol(se.low[TAGEVAL_SE_GWET_AC1],
				se.value[TAGEVAL_SE_GWET_AC1] - t99 * se.se[TAGEVAL_SE_GWET_AC1],
				1e-10);
	/* irrCAC's published interval (0.764, 0.935) comes from the table's SE
	 * and the normal quantile; ours is a little wider */
	ck_assert_double_eq_tol(se.high[TAGEVAL_SE_GWET_AC1],
				se.value[TAGEVAL_SE_GWET_AC1] + t99 * se.se[TAGEVAL_SE_GWET_AC1],
				1e-10);
	/* words: no AC2, no weighted kappa */
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_GWET_AC2], TAGEVAL_UNDEFINED_NOT_NUMBERS);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_KAPPA_LINEAR], TAGEVAL_UNDEFINED_NOT_NUMBERS);
	ck_assert_double_nan(se.se[TAGEVAL_SE_KAPPA_QUADRATIC]);
	done(&r);
}
END_TEST

/*
 * By hand, numeric_two: A 1 1 2 2 3, B 1 2 2 3 3; the items (1,1) (1,2)
 * (2,2) (2,3) (3,3).
 *
 * Cohen (FCE): r = (.4, .4, .2), c = (.2, .4, .4), p_e = 8/25, p_a = 3/5,
 *   kappa = 7/17, K = 1 - kappa = 10/17.  Diagonal cells 1/5 each:
 *   term_a = 1/5 ((1 - .6 K)^2 + (1 - .8 K)^2 + (1 - .6 K)^2)
 *          = 1/5 (121 + 81 + 121)/289 = 19/85;
 *   off the diagonal (1,2) and (2,3), 1/5 each, (c_1 + r_2)^2 = (c_2 +
 *   r_3)^2 = .36: term_b = K^2 .144 = 72/1445; term_c = (kappa - p_e K)^2
 *   = (19/85)^2 = 361/7225; var = (1615 + 360 - 361)/7225 / ((17/25)^2 5)
 *   = 8070/83521.
 * Pooled kappa (Scott's pi here): pi = (.3, .4, .3), p_e = .34, kappa =
 *   13/33, n_2/N = 1/2; item terms ((a_t - .6) - 2 (20/33) (1/2) (S_t pi -
 *   .68)) / .66: (1,1) and (3,3) 740/1089, (2,2) 540/1089, (1,2) and (2,3)
 *   -1010/1089 (S_t pi = .6, .8, .7); var = (2 740^2 + 540^2 + 2 1010^2) /
 *   1089^2 / 20 = 171350/1185921.
 * AC1: pi as above, p_e = .33, AC1 = 27/67; p_e,t = (2 - pi_x - pi_y)/4 =
 *   .35, .325, .3, .325, .35; c_t = (a_t - .33)/.67 - 2 (40/67) (p_e,t -
 *   .33)/.67 = 4329, -2171, 4729, -2171, 4329 (/4489); less 27/67 = 1809/4489:
 *   2520, -3980, 2920, -3980, 2520; var = 52908000 / 4489^2 / 20 =
 *   2645400/20151121.
 * BP: c_t = (a_t - 1/3)/(2/3) = 1, -1/2, 1, -1/2, 1, BP = 2/5: deviations
 *   3/5, -9/10; var = (3 9/25 + 2 81/100) / 20 = 27/200.
 * kappa_linear (FCE, w = 1 - |k - l|/2): p_e = 14/25, p_o = 4/5, kappa =
 *   6/11; wr = (2/5, 7/10, 3/5), wc = (3/5, 7/10, 2/5); sum of p_kl (w_kl -
 *   (wr_k + wc_l) 5/11)^2 = 8/55; var = (8/55 - (6/11 - 14/25 5/11)^2) /
 *   ((11/25)^2 5) = 920/14641.
 * kappa_quadratic (w = 1 - (k - l)^2/4): p_e = 17/25, p_o = 9/10, kappa =
 *   11/16; wr = (1/2, 17/20, 7/10), wc = (7/10, 17/20, 1/2); the sum
 *   2491/10240; var = 4515/131072.
 */
START_TEST(se_numeric_two)
{
	static const char *const f[] = { "w 1 1\nw 2 1\nw 3 2\nw 4 2\nw 5 3\n",
					 "w 1 1\nw 2 2\nw 3 2\nw 4 3\nw 5 3\n" };
	struct run r;
	struct tageval_standard_errors se;
	standard_errors(&r, f, 2, 0, &se);
	static const struct {
		int c;
		double value, var;
	} want[] = {
		{ TAGEVAL_SE_KAPPA_COHEN, 7.0 / 17, 8070.0 / 83521 },
		{ TAGEVAL_SE_KAPPA, 13.0 / 33, 171350.0 / 1185921 },
		{ TAGEVAL_SE_GWET_AC1, 27.0 / 67, 2645400.0 / 20151121 },
		{ TAGEVAL_SE_BRENNAN_PREDIGER, 2.0 / 5, 27.0 / 200 },
		{ TAGEVAL_SE_KAPPA_LINEAR, 6.0 / 11, 920.0 / 14641 },
		{ TAGEVAL_SE_KAPPA_QUADRATIC, 11.0 / 16, 4515.0 / 131072 },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		ck_assert_int_eq(se.undefined[want[i].c], TAGEVAL_DEFINED);
		ck_assert_double_eq_tol(se.value[want[i].c], want[i].value, TOL);
		ck_assert_double_eq_tol(se.se[want[i].c], sqrt(want[i].var), TOL);
		ck_assert_uint_eq(se.items[want[i].c], 5);
	}
	/* Gwet's intervals end at 1 at most: AC1 + t(4) SE > 1 */
	ck_assert_double_eq(se.high[TAGEVAL_SE_GWET_AC1], 1.0);
	/* FCE's do not: kappa_quadratic + 1.96 SE = 1.0513 */
	ck_assert_double_gt(se.high[TAGEVAL_SE_KAPPA_QUADRATIC], 1.0);
	done(&r);
}
END_TEST

/*
 * A two-tag annotation: item 1 is A: {1, 3} (1/2 each) and B: 1, items 2
 * and 3 are (2, 2) and (3, 1).  FCE over the table of P_1(k) P_2(l):
 * p_11 = 1/6, p_31 = 1/6, p_22 = 1/3, p_31 += 1/3: p = (1,1) 1/6, (2,2)
 * 1/3, (3,1) 1/2; r = (1/6, 1/3, 1/2), c = (2/3, 1/3, 0); p_e = 1/9 + 1/9
 * = 2/9, p_a = 1/2, kappa = (5/18)/(7/9) = 5/14, K = 9/14.
 * term_a = 1/6 (1 - (5/6) K)^2 + 1/3 (1 - (2/3) K)^2
 *        = 1/6 (13/28)^2 + 1/3 (4/7)^2 = 169/4704 + 256/2352 = 681/4704;
 * term_b = K^2 1/2 (c_3 + r_1)^2 = (81/196) (1/2) (1/36) = 9/1568;
 * term_c = (5/14 - (2/9) (9/14))^2 = (3/14)^2 = 9/196;
 * var = (681 + 27 - 216)/4704 / ((7/9)^2 3) = 492/4704 81/147 = 0.05762...
 *     = 41 81 / (392 147) = 3321/57624.
 */
START_TEST(se_two_tags)
{
	static const char *const f[] = { "w 1 1 3\nw 2 2\nw 3 3\n", "w 1 1\nw 2 2\nw 3 1\n" };
	struct run r;
	struct tageval_standard_errors se;
	standard_errors(&r, f, 2, 0, &se);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_KAPPA_COHEN], TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(se.value[TAGEVAL_SE_KAPPA_COHEN], 5.0 / 14, TOL);
	ck_assert_double_eq_tol(se.se[TAGEVAL_SE_KAPPA_COHEN], sqrt(3321.0 / 57624), TOL);
	done(&r);
}
END_TEST

START_TEST(se_undefined)
{
	struct run r;
	struct tageval_standard_errors se;
	/* one item: every coefficient defined or not, no standard error */
	static const char *const one[] = { "w 1 1\n", "w 1 2\n" };
	standard_errors(&r, one, 2, 0, &se);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_GWET_AC1], TAGEVAL_UNDEFINED_ONE_ITEM);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_BRENNAN_PREDIGER], TAGEVAL_UNDEFINED_ONE_ITEM);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_KAPPA], TAGEVAL_UNDEFINED_ONE_ITEM);
	ck_assert_double_nan(se.se[TAGEVAL_SE_GWET_AC1]);
	/* Cohen's and the weighted kappas too: 1 against 2 has chance agreement
	 * 0 (and d_e = 1), so each kappa is 0, but one item gives no variance */
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_KAPPA_COHEN], TAGEVAL_UNDEFINED_ONE_ITEM);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_KAPPA_LINEAR], TAGEVAL_UNDEFINED_ONE_ITEM);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_KAPPA_QUADRATIC], TAGEVAL_UNDEFINED_ONE_ITEM);
	ck_assert_double_nan(se.se[TAGEVAL_SE_KAPPA_COHEN]);
	done(&r);
	/* three annotators: no Cohen's kappa, none weighted */
	static const char *const three[] = { "w 1 1\nw 2 2\n", "w 1 1\nw 2 1\n",
					     "w 1 2\nw 2 2\n" };
	standard_errors(&r, three, 3, 0, &se);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_KAPPA_COHEN], TAGEVAL_UNDEFINED_TWO_ANNOTATORS);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_KAPPA_LINEAR], TAGEVAL_UNDEFINED_TWO_ANNOTATORS);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_KAPPA], TAGEVAL_DEFINED);
	done(&r);
	/* one label everywhere: chance agreement 1 */
	static const char *const same[] = { "w 1 2\nw 2 2\n", "w 1 2\nw 2 2\n" };
	standard_errors(&r, same, 2, 0, &se);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_KAPPA], TAGEVAL_UNDEFINED_CHANCE);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_KAPPA_COHEN], TAGEVAL_UNDEFINED_CHANCE);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_GWET_AC1], TAGEVAL_UNDEFINED_ONE_CATEGORY);
	done(&r);
	/* no common item */
	static const char *const apart[] = { "w 1 2\n", "w 2 3\n" };
	standard_errors(&r, apart, 2, 0, &se);
	for (int c = 0; c < TAGEVAL_SE_COEFFICIENTS; c++)
		ck_assert_int_eq(se.undefined[c], TAGEVAL_UNDEFINED_NO_ITEMS);
	/* the confidence */
	ck_assert_int_eq(tageval_agreement_standard_errors(r.ann, 0, 1.0, &se, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_agreement_standard_errors(r.ann, 0, NAN, &se, &r.err),
			 TAGEVAL_EINVAL);
	done(&r);
	/* a tag with tags below it */
	static const char *const inner[] = { "w 1 A\nw 2 A.1\n", "w 1 A.1\nw 2 A.2\n" };
	levels(&r, "A.1 A\nA.2 A\n", inner, 2);
	ck_assert_int_eq(tageval_agreement_standard_errors(r.ann, 0, 0.95, &se, &r.err),
			 TAGEVAL_OK);
	for (int c = 0; c < TAGEVAL_SE_COEFFICIENTS; c++)
		ck_assert_int_eq(se.undefined[c], TAGEVAL_UNDEFINED_INNER_TAG);
	done(&r);
	ck_assert_str_ne(tageval_undefined_reason(TAGEVAL_UNDEFINED_ONE_ITEM), "unknown");
	ck_assert_int_eq(tageval_agreement_standard_errors(NULL, 0, 0.95, &se, &r.err),
			 TAGEVAL_EINVAL);
}
END_TEST

/* The lines in another order (and the annotations of item 1 with their
 * tags the other way round): the same bits. */
START_TEST(se_line_order)
{
	static const char *const f1[] = { "w 1 1/1 3/2\nw 2 2\nw 3 3\nw 4 2\n",
					  "w 1 1\nw 2 2 3\nw 3 1\nw 4 3\n" };
	static const char *const f2[] = { "w 4 2\nw 3 3\nw 2 2\nw 1 3/2 1/1\n",
					  "w 3 1\nw 4 3\nw 2 3 2\nw 1 1\n" };
	struct run r;
	struct tageval_standard_errors a, b;
	standard_errors(&r, f1, 2, 0, &a);
	done(&r);
	standard_errors(&r, f2, 2, 0, &b);
	done(&r);
	for (int c = 0; c < TAGEVAL_SE_COEFFICIENTS; c++) {
		ck_assert_int_eq(a.undefined[c], TAGEVAL_DEFINED);
		ck_assert_mem_eq(&a.se[c], &b.se[c], sizeof(double));
		ck_assert_mem_eq(&a.value[c], &b.value[c], sizeof(double));
	}
}
END_TEST

/* ------------------------------------------------- agreement per category */

/*
 * Two annotators, numeric_two: A 1 1 2 2 3, B 1 2 2 3 3.  2 n_kk / (n_k. +
 * n_.k): label 1: 2 1 / (2 + 1) = 2/3; label 2: 2 1 / (2 + 2) = 1/2;
 * label 3: 2 1 / (1 + 2) = 2/3.
 * Krippendorff's example (kripp), label 1 on units 1 (1 1 1: S = 3, 3^2 - 3
 * = 6 agreeing, (3 - 1) 3 = 6 pairs), 6 (1 2 3 4: 0 of 3), 8 (1 1 2 1: 6 of
 * 9), 11 (1 1: 2 of 2): 14/20; label 5 on unit 10 (5 5 5): 6/6; unit 12
 * (one value 3) takes no part: label 3 on units 2 (2 2 3 2: 0 of 3), 3 and
 * 4 (3 3 3 3: 16 - 4 = 12 of 12 each), 6 (0 of 3): 24/30.
 * A two-tag annotation: A {x, y} (1/2 each), B x: label x: S = 3/2,
 * agreeing 9/4 - 1/4 - 1 = 1, pairs 3/2: 2/3; y: S = 1/2, 1/4 - 1/4 = 0
 * of 1/2: 0.
 */
START_TEST(per_category)
{
	struct run r;
	struct tageval_category_agreement *ca;
	static const char *const f[] = { "w 1 1\nw 2 1\nw 3 2\nw 4 2\nw 5 3\n",
					 "w 1 1\nw 2 2\nw 3 2\nw 4 3\nw 5 3\n" };
	levels(&r, NULL, f, 2);
	ck_assert_int_eq(tageval_agreement_per_category(r.ann, &ca, &r.err), TAGEVAL_OK);
	ck_assert_int_eq(ca->undefined, TAGEVAL_DEFINED);
	ck_assert_uint_eq(ca->n, 3);
	static const double two[] = { 2.0 / 3, 1.0 / 2, 2.0 / 3 };
	static const char *const labels[] = { "1", "2", "3" };
	for (size_t i = 0; i < 3; i++) {
		ck_assert_str_eq(ca->cat[i].label, labels[i]);
		ck_assert_double_eq_tol(ca->cat[i].agreement, two[i], TOL);
	}
	ck_assert_double_eq(ca->cat[1].annotations, 4.0);
	tageval_category_agreement_free(ca);
	done(&r);
	levels(&r, NULL, kripp, 4);
	ck_assert_int_eq(tageval_agreement_per_category(r.ann, &ca, &r.err), TAGEVAL_OK);
	ck_assert_uint_eq(ca->n, 5);
	ck_assert_double_eq(ca->cat[0].agreeing, 14.0);
	ck_assert_double_eq(ca->cat[0].pairs, 20.0);
	ck_assert_double_eq(ca->cat[0].annotations, 9.0);
	ck_assert_double_eq_tol(ca->cat[2].agreement, 24.0 / 30, TOL);
	ck_assert_double_eq_tol(ca->cat[4].agreement, 1.0, TOL);
	tageval_category_agreement_free(ca);
	done(&r);
	static const char *const tags[] = { "w 1 x y\n", "w 1 x\n" };
	levels(&r, NULL, tags, 2);
	ck_assert_int_eq(tageval_agreement_per_category(r.ann, &ca, &r.err), TAGEVAL_OK);
	ck_assert_uint_eq(ca->n, 2);
	ck_assert_str_eq(ca->cat[0].label, "x");
	ck_assert_double_eq_tol(ca->cat[0].agreement, 2.0 / 3, TOL);
	ck_assert_double_eq_tol(ca->cat[1].agreement, 0.0, TOL);
	ck_assert_double_eq_tol(ca->cat[1].pairs, 0.5, TOL);
	tageval_category_agreement_free(ca);
	done(&r);
	/* undefined: no item with two annotations; a tag with tags below it */
	static const char *const apart[] = { "w 1 2\n", "w 2 3\n" };
	levels(&r, NULL, apart, 2);
	ck_assert_int_eq(tageval_agreement_per_category(r.ann, &ca, &r.err), TAGEVAL_OK);
	ck_assert_int_eq(ca->undefined, TAGEVAL_UNDEFINED_NO_ITEMS);
	ck_assert_uint_eq(ca->n, 0);
	tageval_category_agreement_free(ca);
	done(&r);
	static const char *const inner[] = { "w 1 A\n", "w 1 A.1\n" };
	levels(&r, "A.1 A\nA.2 A\n", inner, 2);
	ck_assert_int_eq(tageval_agreement_per_category(r.ann, &ca, &r.err), TAGEVAL_OK);
	ck_assert_int_eq(ca->undefined, TAGEVAL_UNDEFINED_INNER_TAG);
	tageval_category_agreement_free(ca);
	done(&r);
	ck_assert_int_eq(tageval_agreement_per_category(NULL, &ca, &r.err), TAGEVAL_EINVAL);
	tageval_category_agreement_free(NULL);
}
END_TEST

/* ------------------------------------------------ items of least agreement */

/*
 * Krippendorff's example (kripp): the agreement of an item is the share of
 * its pairs of annotations that agree: unit 6 (1 2 3 4) 0, units 2 (2 2 3
 * 2) and 8 (1 1 2 1) 3 of 6 = 1/2, the others 1; unit 12 (one annotation)
 * is not listed.  Ties by lexelt then instance, bytes: "k 2" before "k 8",
 * "k 1" before "k 10".
 */
START_TEST(least_agreement)
{
	struct run r;
	levels(&r, NULL, kripp, 4);
	struct tageval_item_agreement it[20];
	size_t n;
	ck_assert_int_eq(tageval_agreement_least(r.ann, 20, it, &n, &r.err), TAGEVAL_OK);
	ck_assert_uint_eq(n, 11);
	static const char *const want[] = { "k 6", "k 2", "k 8", "k 1", "k 10", "k 11" };
	static const double agreement[] = { 0.0, 0.5, 0.5, 1.0, 1.0, 1.0 };
	for (size_t i = 0; i < 6; i++) {
		ck_assert_str_eq(it[i].item, want[i]);
		ck_assert_double_eq_tol(it[i].agreement, agreement[i], TOL);
	}
	ck_assert_uint_eq(it[0].annotations, 4);
	ck_assert_uint_eq(it[5].annotations, 2);
	/* the annotations of unit 6: observer A (the first file) gave 1, and
	 * unit 11 has none from A */
	const char *tag;
	double share;
	ck_assert_uint_eq(tageval_annotations_entries(r.ann, 0, it[0].index, &tag, &share, 1), 1);
	ck_assert_str_eq(tag, "1");
	ck_assert_double_eq(share, 1.0);
	ck_assert_uint_eq(tageval_annotations_entries(r.ann, 0, it[5].index, &tag, &share, 1), 0);
	ck_assert_uint_eq(tageval_annotations_entries(r.ann, 9, it[5].index, &tag, &share, 1), 0);
	/* fewer asked for */
	ck_assert_int_eq(tageval_agreement_least(r.ann, 2, it, &n, &r.err), TAGEVAL_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(it[1].item, "k 2");
	ck_assert_int_eq(tageval_agreement_least(r.ann, 0, NULL, &n, &r.err), TAGEVAL_OK);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(tageval_agreement_least(r.ann, 1, NULL, &n, &r.err), TAGEVAL_EINVAL);
	done(&r);
	/* two tags: A {a 1/4, b 3/4}, B a: <P, Q> = 1/4 */
	static const char *const tags[] = { "w 1 a/1 b/3\nw 2 a\n", "w 1 a\nw 2 b\n" };
	levels(&r, NULL, tags, 2);
	ck_assert_int_eq(tageval_agreement_least(r.ann, 2, it, &n, &r.err), TAGEVAL_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(it[0].item, "w 2");
	ck_assert_double_eq_tol(it[1].agreement, 0.25, TOL);
	const char *t2[2];
	double s2[2];
	ck_assert_uint_eq(tageval_annotations_entries(r.ann, 0, it[1].index, t2, s2, 2), 2);
	ck_assert_double_eq_tol(s2[0] + s2[1], 1.0, TOL);
	ck_assert_double_eq_tol(strcmp(t2[0], "a") == 0 ? s2[0] : s2[1], 0.25, TOL);
	done(&r);
}
END_TEST

/* ------------------------------------------------ levels of the hierarchy */

/* Reads @files into annotations on a flat inventory with the tags of @map
 * at @level; returns the pooled Pr(A). */
static double level_pr_a(const char *map, size_t level, const char *const *files, size_t n)
{
	struct tageval_error err = { 0 };
	struct tageval_inventory *minv = tageval_inventory_new(), *flat = tageval_inventory_new();
	struct tageval_annotations *ann;
	ck_assert_int_eq(tageval_inventory_read_map_buffer(minv, map, strlen(map), "map", &err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_annotations_new(flat, &ann), TAGEVAL_OK);
	ck_assert_int_eq(tageval_annotations_set_level(ann, minv, level, &err), TAGEVAL_OK);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(tageval_annotations_read_buffer(ann, files[i], strlen(files[i]),
								 "ann", &err),
				 TAGEVAL_OK);
	struct tageval_agreement *ag;
	ck_assert_int_eq(tageval_agreement_compute(ann, NULL, &ag, &err), TAGEVAL_OK);
	double pr_a = tageval_agreement_pooled(ag)->pr_a;
	/* after reading: too late */
	ck_assert_int_eq(tageval_annotations_set_level(ann, minv, level, &err), TAGEVAL_EINVAL);
	tageval_agreement_free(ag);
	tageval_annotations_free(ann);
	tageval_inventory_free(flat);
	tageval_inventory_free(minv);
	return pr_a;
}

/*
 * The map A > A.1 > A.1.x, A.1.y; A > A.2; B > B.1.  Annotations:
 *   item 1: A.1.x | A.1.y      item 2: A.2 | A.1    item 3: B.1 | B
 *   item 4: A.1.x/1 B.1/3 | A   item 5: A.1.x/1 A.1.y/3 | A   item 6: Z | Z
 * Level 1 (coarse): A | A, A | A, B | B, {A 1/4, B 3/4} | A, A (the two
 *   weights meet: 1 + 3) | A, Z | Z (outside the map): agreements 1, 1, 1,
 *   1/4, 1, 1: Pr(A) = 5.25/6 = 7/8.
 * Level 2: A.1 | A.1, A.2 | A.1, B.1 | B (B is not as deep: it stays, a
 *   category of its own), {A.1 1/4, B.1 3/4} | A, A.1 | A, Z | Z:
 *   1, 0, 0, 0, 0, 1: Pr(A) = 2/6 = 1/3.
 * Level 3 keeps every tag: 0, 0, 0, 0, 0, 1 = 1/6.
 */
START_TEST(hierarchy_level)
{
	static const char map[] = "A.1 A\nA.2 A\nB.1 B\nA.1.x A.1\nA.1.y A.1\n";
	static const char *const f[] = {
		"w 1 A.1.x\nw 2 A.2\nw 3 B.1\nw 4 A.1.x/1 B.1/3\nw 5 A.1.x/1 A.1.y/3\nw 6 Z\n",
		"w 1 A.1.y\nw 2 A.1\nw 3 B\nw 4 A\nw 5 A\nw 6 Z\n"
	};
	ck_assert_double_eq_tol(level_pr_a(map, 1, f, 2), 7.0 / 8, TOL);
	ck_assert_double_eq_tol(level_pr_a(map, 2, f, 2), 1.0 / 3, TOL);
	ck_assert_double_eq_tol(level_pr_a(map, 3, f, 2), 1.0 / 6, TOL);
	/* the leaves of the map (--categories=map): A.1.x, A.1.y, A.2, B.1 */
	struct tageval_inventory *li = tageval_inventory_new();
	struct tageval_error lerr = { 0 };
	ck_assert_uint_eq(tageval_inventory_leaves(li), 0);
	ck_assert_int_eq(tageval_inventory_read_map_buffer(li, map, strlen(map), "map", &lerr),
			 TAGEVAL_OK);
	ck_assert_uint_eq(tageval_inventory_leaves(li), 4);
	tageval_inventory_free(li);
	ck_assert_uint_eq(tageval_inventory_leaves(NULL), 0);
	/* the errors: a map in the annotations' inventory; a DAG; no map */
	struct tageval_error err = { 0 };
	struct tageval_inventory *minv = tageval_inventory_new();
	struct tageval_annotations *ann;
	ck_assert_int_eq(tageval_inventory_read_map_buffer(minv, map, strlen(map), "map", &err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_annotations_new(minv, &ann), TAGEVAL_OK);
	ck_assert_int_eq(tageval_annotations_set_level(ann, minv, 1, &err), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_annotations_set_level(ann, NULL, 1, &err), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_annotations_set_level(ann, NULL, 0, &err), TAGEVAL_OK);
	tageval_annotations_free(ann);
	tageval_inventory_free(minv);
	static const char dag[] = "x A\nx B\n";
	minv = tageval_inventory_new();
	struct tageval_inventory *flat = tageval_inventory_new();
	ck_assert_int_eq(tageval_inventory_read_map_buffer(minv, dag, strlen(dag), "map", &err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_annotations_new(flat, &ann), TAGEVAL_OK);
	ck_assert_int_eq(tageval_annotations_set_level(ann, minv, 1, &err), TAGEVAL_EFORMAT);
	tageval_annotations_free(ann);
	tageval_inventory_free(flat);
	tageval_inventory_free(minv);
}
END_TEST

START_TEST(chance_undefined)
{
	struct run r;
	struct tageval_chance_figures ch;
	/* one category: q = 1 for AC1, BP, AC2; Conger p_e = 1; no spread */
	static const char *const same[] = { "w 1 2\nw 2 2\n", "w 1 2\nw 2 2\n" };
	chance(&r, same, 2, 0, &ch);
	ck_assert_int_eq(ch.undefined[TAGEVAL_GWET_AC1], TAGEVAL_UNDEFINED_ONE_CATEGORY);
	ck_assert_int_eq(ch.undefined[TAGEVAL_GWET_AC2], TAGEVAL_UNDEFINED_ONE_CATEGORY);
	ck_assert_int_eq(ch.undefined[TAGEVAL_BRENNAN_PREDIGER], TAGEVAL_UNDEFINED_ONE_CATEGORY);
	ck_assert_int_eq(ch.undefined[TAGEVAL_CONGER_KAPPA], TAGEVAL_UNDEFINED_CHANCE);
	ck_assert_int_eq(ch.undefined[TAGEVAL_KAPPA_LINEAR], TAGEVAL_UNDEFINED_NO_SPREAD);
	ck_assert_int_eq(ch.undefined[TAGEVAL_KAPPA_QUADRATIC], TAGEVAL_UNDEFINED_NO_SPREAD);
	for (int c = 0; c < TAGEVAL_CHANCE_COEFFICIENTS; c++)
		ck_assert_double_nan(ch.value[c]);
	done(&r);
	/* --categories 2 with one label: AC1 = (1 - 0)/1, BP = (1 - 1/2)/(1/2) */
	chance(&r, same, 2, 2, &ch);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_GWET_AC1], 1.0, TOL);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_BRENNAN_PREDIGER], 1.0, TOL);
	done(&r);
	/* no item with two annotations */
	static const char *const apart[] = { "w 1 2\n", "w 2 3\n" };
	chance(&r, apart, 2, 0, &ch);
	ck_assert_uint_eq(ch.items, 0);
	ck_assert_uint_eq(ch.rated, 2);
	for (int c = 0; c < TAGEVAL_CHANCE_COEFFICIENTS; c++)
		ck_assert_int_eq(ch.undefined[c], TAGEVAL_UNDEFINED_NO_ITEMS);
	done(&r);
	/* a tag with tags below it */
	static const char *const inner[] = { "w 1 A\n", "w 1 A.1\n" };
	memset(&r, 0, sizeof r);
	levels(&r, "A.1 A\nA.2 A\n", inner, 2);
	ck_assert_int_eq(tageval_agreement_chance(r.ann, 0, &ch, &r.err), TAGEVAL_OK);
	for (int c = 0; c < TAGEVAL_CHANCE_COEFFICIENTS; c++)
		ck_assert_int_eq(ch.undefined[c], TAGEVAL_UNDEFINED_INNER_TAG);
	done(&r);
	ck_assert_str_ne(tageval_undefined_reason(TAGEVAL_UNDEFINED_ONE_CATEGORY), "unknown");
	ck_assert_str_ne(tageval_undefined_reason(TAGEVAL_UNDEFINED_TWO_ANNOTATORS), "unknown");
	ck_assert_int_eq(tageval_agreement_chance(NULL, 0, &ch, &r.err), TAGEVAL_EINVAL);
}
END_TEST

/* A two-tag annotation: its distribution.  A: {1, 3}, 2; B: 1, 2.
 * kappa_linear: D_o = (1/2 0 + 1/2 2 + 0)/2 = 1/2; marginals p_A = (1/4,
 * 1/2, 1/4) over 1, 2, 3, p_B = (1/2, 1/2, 0); D_e = 1/4 (1/2 1) + 1/2 (1/2
 * 1) + 1/4 (1/2 2 + 1/2 1) = 1/8 + 1/4 + 3/8 = 3/4; 1 - 2/3 = 1/3.
 * kappa_quadratic: D_o = (1/2 4)/2 = 1; D_e = 1/8 + 1/4 + 1/4 (2 + 1/2) =
 * 1, kappa 0.  p_a (unweighted) = (1/2 + 1)/2 = 3/4. */
START_TEST(chance_two_tags)
{
	static const char *const f[] = { "w 1 1 3\nw 2 2\n", "w 1 1\nw 2 2\n" };
	struct run r;
	struct tageval_chance_figures ch;
	chance(&r, f, 2, 0, &ch);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_KAPPA_LINEAR], 1.0 / 3, TOL);
	ck_assert_double_eq_tol(ch.chance[TAGEVAL_KAPPA_LINEAR], 0.75, TOL);
	ck_assert_double_eq_tol(ch.value[TAGEVAL_KAPPA_QUADRATIC], 0.0, TOL);
	ck_assert_double_eq_tol(ch.observed[TAGEVAL_BRENNAN_PREDIGER], 0.75, TOL);
	done(&r);
}
END_TEST

/* ------------------------------------------------------------- tag sets */

static void sets(struct run *r, const char *map, const char *const *files, size_t n,
		 struct tageval_set_alpha *sa)
{
	levels(r, map, files, n);
	ck_assert_int_eq(tageval_agreement_alpha_sets(r->ann, sa, &r->err), TAGEVAL_OK);
}

/*
 * Three annotators, item 1: {a, b}, {a}, {a, b}; item 2: {c}, {c}, {a}.
 * Sets S1 = {a, b}, S2 = {a}, S3 = {c}, each n_c = 2, n = 6.  d(S1, S2):
 * exact 1; Jaccard 1 - 1/2 = 1/2; MASI, S2 inside S1, 1 - 1/2 2/3 = 2/3.
 * S3 is disjoint from both: 1 for every distance.
 * D_o = (item 1: 4 d12 / 2 + item 2: 4 / 2) / 6 = (2 d12 + 2) / 6;
 * D_e = 2 (4 d12 + 4 + 4) / 30.
 * exact: D_o 2/3, D_e 24/30, alpha 1/6; Jaccard: D_o 1/2, D_e 2/3, alpha
 * 1/4; MASI: D_o 5/9, D_e 32/45, alpha 1 - 25/32 = 7/32.
 *
 * Two annotators, item 1: {a, c}, {b, c}; item 2: {a}, {a}.  X = {a, c},
 * Y = {b, c}, Z = {a}, n = 1, 1, 2, n = 4.  d(X, Y): meet, neither inside
 * the other: Jaccard 1 - 1/3 = 2/3, MASI 1 - 1/3 1/3 = 8/9; d(X, Z): Z
 * inside X: Jaccard 1/2, MASI 2/3; d(Y, Z) = 1.  D_o = d(X, Y)/2, D_e =
 * 2 (d(X, Y) + 2 d(X, Z) + 2) / 12.  exact: 1/2 / (5/6), alpha 2/5;
 * Jaccard: 1/3 / (11/18), alpha 5/11; MASI: 4/9 / (19/27), alpha 7/19.
 * (NLTK's AnnotationTask.alpha with binary_distance, jaccard_distance and
 * MASI with the weights 2/3, 1/3 gives the same; its masi_distance, with
 * 0.67 and 0.33, does not.)
 */
START_TEST(set_distances)
{
	static const char *const three[] = { "w 1 a b\nw 2 c\n", "w 1 a\nw 2 c\n",
					     "w 1 b a\nw 2 a\n" };
	struct run r;
	struct tageval_set_alpha sa;
	sets(&r, NULL, three, 3, &sa);
	ck_assert_uint_eq(sa.items, 2);
	ck_assert_uint_eq(sa.annotations, 6);
	static const double d_o[] = { 2.0 / 3, 0.5, 5.0 / 9 }, d_e[] = { 0.8, 2.0 / 3, 32.0 / 45 },
			    alpha[] = { 1.0 / 6, 0.25, 7.0 / 32 };
	for (int d = 0; d < TAGEVAL_DISTANCES; d++) {
		ck_assert_int_eq(sa.undefined[d], TAGEVAL_DEFINED);
		ck_assert_double_eq_tol(sa.d_o[d], d_o[d], TOL);
		ck_assert_double_eq_tol(sa.d_e[d], d_e[d], TOL);
		ck_assert_double_eq_tol(sa.alpha[d], alpha[d], TOL);
	}
	done(&r);
	static const char *const two[] = { "w 1 a c\nw 2 a\n", "w 1 c b\nw 2 a\n" };
	sets(&r, NULL, two, 2, &sa);
	static const double alpha2[] = { 2.0 / 5, 5.0 / 11, 7.0 / 19 };
	for (int d = 0; d < TAGEVAL_DISTANCES; d++)
		ck_assert_double_eq_tol(sa.alpha[d], alpha2[d], TOL);
	done(&r);
}
END_TEST

/* Sets: weights do not matter but a weight 0 leaves its tag out; one tag
 * per line makes the exact distance nominal alpha; undefined cases. */
START_TEST(set_cases)
{
	struct run r;
	struct tageval_set_alpha sa;
	/* a/3 b/1 is the set {a, b}; a/1 b/0 is {a}: item 1 agrees, item 2,
	 * {a} against {a, b}, does not */
	static const char *const w[] = { "w 1 a/3 b/1\nw 2 a/1 b/0\n", "w 1 b a\nw 2 a b\n" };
	sets(&r, NULL, w, 2, &sa);
	/* sets: {a,b} x 3, {a} x 1; n = 4; D_o exact = 2/4; D_e = 2 3 1 / 12 =
	 * 1/2; alpha 0 */
	ck_assert_double_eq_tol(sa.d_o[TAGEVAL_DISTANCE_EXACT], 0.5, TOL);
	ck_assert_double_eq_tol(sa.alpha[TAGEVAL_DISTANCE_EXACT], 0.0, TOL);
	done(&r);
	/* one tag per line: the exact distance is nominal alpha */
	struct tageval_alpha_figures lv;
	sets(&r, NULL, kripp, 4, &sa);
	ck_assert_int_eq(tageval_agreement_alpha_levels(r.ann, 0, &lv, &r.err), TAGEVAL_OK);
	for (int d = 0; d < TAGEVAL_DISTANCES; d++)
		ck_assert_double_eq_tol(sa.alpha[d], lv.alpha[TAGEVAL_NOMINAL], TOL);
	done(&r);
	/* identical sets everywhere: D_e = 0 */
	static const char *const same[] = { "w 1 a b\nw 2 b a\n", "w 1 a b\nw 2 a b\n" };
	sets(&r, NULL, same, 2, &sa);
	for (int d = 0; d < TAGEVAL_DISTANCES; d++)
		ck_assert_int_eq(sa.undefined[d], TAGEVAL_UNDEFINED_NO_SPREAD);
	done(&r);
	static const char *const apart[] = { "w 1 a\n", "w 2 a\n" };
	sets(&r, NULL, apart, 2, &sa);
	for (int d = 0; d < TAGEVAL_DISTANCES; d++)
		ck_assert_int_eq(sa.undefined[d], TAGEVAL_UNDEFINED_NO_ITEMS);
	done(&r);
	static const char *const inner[] = { "w 1 A\n", "w 1 A.1\n" };
	sets(&r, "A.1 A\nA.2 A\n", inner, 2, &sa);
	for (int d = 0; d < TAGEVAL_DISTANCES; d++)
		ck_assert_int_eq(sa.undefined[d], TAGEVAL_UNDEFINED_INNER_TAG);
	done(&r);
	ck_assert_int_eq(tageval_agreement_alpha_sets(NULL, &sa, &r.err), TAGEVAL_EINVAL);
}
END_TEST

/*
 * Sets that share two tags (the pairs' leaves in common are counted, not
 * merged).  Two annotators, item 1: {a, b, c}, {a, b}; item 2: {c}, {c}.
 * X = {a, b, c}, Y = {a, b}, Z = {c}: n = 1, 1, 2, N = 4.
 * d(X, Y): 2 in common of 3, Y inside X: exact 1, Jaccard 1 - 2/3 = 1/3,
 * MASI 1 - (2/3)(2/3) = 5/9.  d(X, Z): 1 of 3, Z inside X: exact 1, Jaccard
 * 2/3, MASI 1 - (1/3)(2/3) = 7/9.  d(Y, Z) = 1 (disjoint).
 * D_o = (2 d(X, Y) / 1 + 0) / 4 = d(X, Y) / 2;
 * D_e = 2 (1 x 1 d(X, Y) + 1 x 2 d(X, Z) + 1 x 2 d(Y, Z)) / (4 x 3)
 *     = (d(X, Y) + 2 d(X, Z) + 2) / 6.
 * exact: D_o 1/2, D_e 5/6, alpha 1 - 3/5 = 2/5;
 * Jaccard: D_o 1/6, D_e (1/3 + 4/3 + 2) / 6 = 11/18, alpha 1 - 3/11 = 8/11;
 * MASI: D_o 5/18, D_e (5/9 + 14/9 + 2) / 6 = 37/54, alpha 1 - 15/37 = 22/37.
 */
START_TEST(set_two_shared)
{
	static const char *const two[] = { "w 1 a b c\nw 2 c\n", "w 1 b a\nw 2 c\n" };
	struct run r;
	struct tageval_set_alpha sa;
	sets(&r, NULL, two, 2, &sa);
	static const double d_o[] = { 0.5, 1.0 / 6, 5.0 / 18 },
			    d_e[] = { 5.0 / 6, 11.0 / 18, 37.0 / 54 },
			    alpha[] = { 2.0 / 5, 8.0 / 11, 22.0 / 37 };
	for (int d = 0; d < TAGEVAL_DISTANCES; d++) {
		ck_assert_int_eq(sa.undefined[d], TAGEVAL_DEFINED);
		ck_assert_double_eq_tol(sa.d_o[d], d_o[d], TOL);
		ck_assert_double_eq_tol(sa.d_e[d], d_e[d], TOL);
		ck_assert_double_eq_tol(sa.alpha[d], alpha[d], TOL);
	}
	done(&r);
}
END_TEST

/* Two annotations of @n items of lexelt w: with @kind 0, item i valued i by
 * the first and i + 0.5 by the second; with @kind 1, tagged "x y<i>" by the
 * first and "x z<i>" by the second. */
static void read_two(struct run *r, size_t n, int kind)
{
	memset(r, 0, sizeof *r);
	r->inv = tageval_inventory_new();
	ck_assert_ptr_nonnull(r->inv);
	ck_assert_int_eq(tageval_annotations_new(r->inv, &r->ann), TAGEVAL_OK);
	for (int f = 0; f < 2; f++) {
		size_t cap = n * 40 + 1, len = 0;
		char *buf = malloc(cap);
		ck_assert_ptr_nonnull(buf);
		for (size_t i = 0; i < n; i++)
			len += (size_t)snprintf(buf + len, cap - len,
						kind == 0 ? (f ? "w %zu %zu.5\n" : "w %zu %zu\n")
							  : (f ? "w %zu x z%zu\n" : "w %zu x y%zu\n"),
						i, i);
		char name[8];
		snprintf(name, sizeof name, "ann%d", f + 1);
		ck_assert_int_eq(tageval_annotations_read_buffer(r->ann, buf, len, name, &r->err),
				 TAGEVAL_OK);
		free(buf);
	}
}

/*
 * The limits (hkappa(1), LIMITS).  10,001 items valued i and i + 0.5:
 * 20,002 distinct values > 20,000, so the ratio level is refused
 * (TAGEVAL_EFORMAT) while the other levels, asked alone, are computed:
 * interval alpha, d = (i - (i + 0.5))^2 = 1/4 on each item, D_o = 2 x 1/4
 * x 10001 / 20002 = 1/4, D_e large, so alpha > 0.999.  10,001 items
 * tagged "x y<i>" and "x z<i>": 20,002 sets sharing x, 20002 x 20001 / 2
 * = 200,030,001 pairs > 200,000,000: refused.  At 10,000 items (20,000
 * sets, 199,990,000 pairs) it would be computed: the CLI case
 * limit-set-pairs-under checks a smaller such input's figures.
 */
START_TEST(limits)
{
	struct run r;
	read_two(&r, 10001, 0);
	struct tageval_alpha_figures lv;
	ck_assert_int_eq(tageval_agreement_alpha_levels(r.ann, 1u << TAGEVAL_RATIO, &lv, &r.err),
			 TAGEVAL_EFORMAT);
	ck_assert_str_eq(r.err.message,
			 "alpha at the ratio level: 20002 distinct values, more than the limit of "
			 "20000 (the ratio distance compares every pair; see hkappa(1), LIMITS)");
	ck_assert_int_eq(tageval_agreement_alpha_levels(r.ann, 1u << TAGEVAL_INTERVAL, &lv, &r.err),
			 TAGEVAL_OK);
	ck_assert_double_eq_tol(lv.d_o[TAGEVAL_INTERVAL], 0.25, TOL);
	ck_assert(lv.alpha[TAGEVAL_INTERVAL] > 0.999);
	ck_assert_int_eq(lv.undefined[TAGEVAL_RATIO], TAGEVAL_UNDEFINED_NOT_ASKED);
	done(&r);
	read_two(&r, 10001, 1);
	struct tageval_set_alpha sa;
	ck_assert_int_eq(tageval_agreement_alpha_sets(r.ann, &sa, &r.err), TAGEVAL_EFORMAT);
	ck_assert_str_eq(r.err.message,
			 "alpha over sets of tags: 200030001 pairs of distinct sets that share a "
			 "tag (counted once per tag they share), more than the limit of 200000000 "
			 "(see hkappa(1), LIMITS)");
	done(&r);
}
END_TEST

/*
 * tageval_agreement_subset: annotators 0 and 1 of
 *   p1: 1 a, 2 b, 3 a, 4 b;  p2: 1 a, 2 b, 3 b, 4 b;  p3: 1 b, 2 a, 5 a;
 *   p4: 9 a
 * p1 vs p2: p_o = 3/4, marginals (1/2, 1/2) and (1/4, 3/4), p_e = 1/2,
 * Cohen's kappa 1/2 over 4 items; p1 vs p3: items 1 and 2, p_o = 0, p_e =
 * 1/2, kappa -1; p4 shares no item (TAGEVAL_ENOTFOUND); an annotator out of
 * range or twice, or one alone: TAGEVAL_EINVAL.  p1, p2, p3 without p4:
 * items 1-4 used (item 5 has p3 alone), pooled as for the four.
 */
START_TEST(pair)
{
	static const char *const f[] = { "w 1 a\nw 2 b\nw 3 a\nw 4 b\n",
					  "w 1 a\nw 2 b\nw 3 b\nw 4 b\n", "w 1 b\nw 2 a\nw 5 a\n",
					  "w 9 a\n" };
	struct run r;
	levels(&r, NULL, f, 4);
	struct tageval_agreement *ag = NULL;
	static const size_t p01[] = { 0, 1 }, p20[] = { 2, 0 }, p03[] = { 0, 3 }, p11[] = { 1, 1 },
			    p04[] = { 0, 4 }, p012[] = { 0, 1, 2 };
	ck_assert_int_eq(tageval_agreement_subset(r.ann, p01, 2, NULL, &ag, &r.err), TAGEVAL_OK);
	const struct tageval_agreement_figures *g = tageval_agreement_pooled(ag);
	ck_assert_uint_eq(g->items, 4);
	ck_assert_int_eq(g->separate_undefined, TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(g->kappa_separate, 0.5, TOL);
	tageval_agreement_free(ag);
	ck_assert_int_eq(tageval_agreement_subset(r.ann, p20, 2, NULL, &ag, &r.err), TAGEVAL_OK);
	g = tageval_agreement_pooled(ag);
	ck_assert_uint_eq(g->items, 2);
	ck_assert_double_eq_tol(g->kappa_separate, -1.0, TOL);
	tageval_agreement_free(ag);
	/* without p4: the same used items and pooled figures as with it */
	struct tageval_agreement *all = NULL;
	ck_assert_int_eq(tageval_agreement_compute(r.ann, NULL, &all, &r.err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_agreement_subset(r.ann, p012, 3, NULL, &ag, &r.err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_agreement_pooled(ag)->items, 4);
	ck_assert_double_eq_tol(tageval_agreement_pooled(ag)->kappa,
				tageval_agreement_pooled(all)->kappa, TOL);
	tageval_agreement_free(ag);
	tageval_agreement_free(all);
	ck_assert_int_eq(tageval_agreement_subset(r.ann, p03, 2, NULL, &ag, &r.err),
			 TAGEVAL_ENOTFOUND);
	ck_assert_ptr_null(ag);
	ck_assert_int_eq(tageval_agreement_subset(r.ann, p11, 2, NULL, &ag, &r.err), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_agreement_subset(r.ann, p04, 2, NULL, &ag, &r.err), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_agreement_subset(r.ann, p01, 1, NULL, &ag, &r.err), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_agreement_subset(NULL, p01, 2, NULL, &ag, &r.err), TAGEVAL_EINVAL);
	done(&r);
}
END_TEST

/*
 * Cohen's kappa with given distances (tageval_agreement_kappa_distances).
 * Labels a, b, c; D(a,b) = 0.5, D(a,c) = 1, D(b,c) = 0.25.  Five items
 * (first, second): (a,a) (a,b) (a,c) (b,b) (c,b).
 * d_o = (0 + 0.5 + 1 + 0 + 0.25) / 5 = 0.35.
 * Marginals r = (3, 1, 1)/5 (a, b, c), c = (1, 3, 1)/5.
 * 25 d_e = sum over k != l of 25 r_k c_l D(k,l) = (a,b) 3 3 0.5 + (a,c) 3 1 1
 *   + (b,a) 1 1 0.5 + (b,c) 1 1 0.25 + (c,a) 1 1 1 + (c,b) 1 3 0.25
 *   = 4.5 + 3 + 0.5 + 0.25 + 1 + 0.75 = 10, d_e = 0.4.
 * kappa = 1 - 0.35 / 0.4 = 1/8.
 */
static const char *const wk_files[] = { "w 1 a\nw 2 a\nw 3 a\nw 4 b\nw 5 c\n",
					"w 1 a\nw 2 b\nw 3 c\nw 4 b\nw 5 b\n" };

START_TEST(kappa_distances_hand)
{
	/* in either order, a self pair, a pair of a label no item uses */
	static const struct tageval_label_distance d[] = {
		{ "a", "b", 0.5 }, { "c", "a", 1.0 }, { "b", "c", 0.25 }, { "b", "b", 0.0 },
		{ "a", "z", 0.3 } };
	struct run r;
	levels(&r, NULL, wk_files, 2);
	struct tageval_weighted_kappa wk;
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, d, 5, &wk, &r.err),
			 TAGEVAL_OK);
	ck_assert_int_eq(wk.undefined, TAGEVAL_DEFINED);
	ck_assert_uint_eq(wk.items, 5);
	ck_assert_double_eq_tol(wk.observed, 0.35, TOL);
	ck_assert_double_eq_tol(wk.chance, 0.4, TOL);
	ck_assert_double_eq_tol(wk.value, 1.0 / 8, TOL);
	done(&r);
}
END_TEST

/* With D = |x - y| / 2 over the values 1, 2, 3 of numeric_two the figure is
 * its kappa_linear, 6/11 (d_o 0.4 / 2, d_e 0.88 / 2). */
START_TEST(kappa_distances_linear)
{
	static const char *const f[] = { "w 1 1\nw 2 1\nw 3 2\nw 4 2\nw 5 3\n",
					 "w 1 1\nw 2 2\nw 3 2\nw 4 3\nw 5 3\n" };
	static const struct tageval_label_distance d[] = {
		{ "1", "2", 0.5 }, { "1", "3", 1.0 }, { "2", "3", 0.5 } };
	struct run r;
	levels(&r, NULL, f, 2);
	struct tageval_weighted_kappa wk;
	struct tageval_chance_figures ch;
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, d, 3, &wk, &r.err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_agreement_chance(r.ann, 0, &ch, &r.err), TAGEVAL_OK);
	ck_assert_double_eq_tol(wk.observed, 0.2, TOL);
	ck_assert_double_eq_tol(wk.chance, 0.44, TOL);
	ck_assert_double_eq_tol(wk.value, 6.0 / 11, TOL);
	ck_assert_double_eq_tol(wk.value, ch.value[TAGEVAL_KAPPA_LINEAR], 1e-15);
	done(&r);
}
END_TEST

/*
 * An annotation of two tags, each half of it: items (first, second)
 * 1: ({a, b}, a), 2: (c, b); D as in kappa_distances_hand.
 * Item 1: 1/2 D(a,a) + 1/2 D(b,a) = 0.25; item 2: D(c,b) = 0.25; d_o = 0.25.
 * r = (a 0.5, b 0.5, c 1)/2 = (0.25, 0.25, 0.5); c = (0.5, 0.5, 0).
 * d_e = r_a c_b 0.5 + r_b c_a 0.5 + r_c c_a 1 + r_c c_b 0.25
 *     = 0.0625 + 0.0625 + 0.25 + 0.0625 = 0.4375 = 7/16.
 * kappa = 1 - (1/4) / (7/16) = 3/7.
 * Then four labels with every pair but (c, d): the error names that pair.
 */
START_TEST(kappa_distances_two_tags)
{
	static const char *const f[] = { "w 1 a b\nw 2 c\n", "w 1 a\nw 2 b\n" };
	static const struct tageval_label_distance d[] = {
		{ "a", "b", 0.5 }, { "c", "a", 1.0 }, { "b", "c", 0.25 } };
	struct run r;
	levels(&r, NULL, f, 2);
	struct tageval_weighted_kappa wk;
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, d, 3, &wk, &r.err),
			 TAGEVAL_OK);
	ck_assert_double_eq_tol(wk.observed, 0.25, TOL);
	ck_assert_double_eq_tol(wk.chance, 7.0 / 16, TOL);
	ck_assert_double_eq_tol(wk.value, 3.0 / 7, TOL);
	done(&r);
	static const char *const g[] = { "w 1 d\nw 2 c\nw 3 b\n", "w 1 a\nw 2 a\nw 3 a\n" };
	static const struct tageval_label_distance e[] = {
		{ "a", "b", 0.5 }, { "a", "c", 1.0 }, { "a", "d", 1.0 }, { "b", "c", 0.25 },
		{ "d", "b", 0.25 } };
	levels(&r, NULL, g, 2);
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, e, 5, &wk, &r.err),
			 TAGEVAL_EFORMAT);
	ck_assert_str_eq(r.err.message, "no distance for the labels \"c\" and \"d\"");
	ck_assert_uint_eq(r.err.line, 0);
	done(&r);
}
END_TEST

/* The errors, each with the pair at fault; the undefined cases. */
START_TEST(kappa_distances_errors)
{
	struct run r;
	levels(&r, NULL, wk_files, 2);
	struct tageval_weighted_kappa wk;
	/* b c missing */
	static const struct tageval_label_distance missing[] = { { "a", "b", 0.5 },
								 { "c", "a", 1.0 } };
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, missing, 2, &wk, &r.err),
			 TAGEVAL_EFORMAT);
	ck_assert_str_eq(r.err.message, "no distance for the labels \"b\" and \"c\"");
	ck_assert(isnan(wk.value));
	static const struct tageval_label_distance asym[] = {
		{ "a", "b", 0.5 }, { "c", "a", 1.0 }, { "b", "c", 0.25 }, { "b", "a", 0.4 } };
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, asym, 4, &wk, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_uint_eq(r.err.line, 4);
	static const struct tageval_label_distance dup[] = {
		{ "a", "b", 0.5 }, { "a", "b", 0.5 } };
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, dup, 2, &wk, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_uint_eq(r.err.line, 2);
	/* the first entry at fault in the order given, not in the order of
	 * the names: (c, d) repeated at 3 before (a, b) at 4; a distance out
	 * of range at 5 comes after them, one at 2 before */
	static const struct tageval_label_distance order[] = {
		{ "c", "d", 0.5 }, { "a", "b", 0.5 }, { "d", "c", 0.25 }, { "b", "a", 0.5 },
		{ "a", "c", 2.0 } };
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, order, 5, &wk, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_uint_eq(r.err.line, 3);
	ck_assert_str_eq(r.err.message,
			 "\"d\" and \"c\" have distance 0.25 here, but 0.5 before: not symmetric");
	static const struct tageval_label_distance order2[] = {
		{ "c", "d", 0.5 }, { "a", "c", -1.0 }, { "d", "c", 0.5 } };
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, order2, 3, &wk, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_uint_eq(r.err.line, 2);
	ck_assert_str_eq(r.err.message, "the distance of \"a\" and \"c\" is not in [0, 1]");
	static const struct tageval_label_distance range[] = { { "a", "b", 1.5 } };
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, range, 1, &wk, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_uint_eq(r.err.line, 1);
	static const struct tageval_label_distance self[] = { { "a", "b", 0.5 },
							      { "a", "a", 0.1 } };
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, self, 2, &wk, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_uint_eq(r.err.line, 2);
	done(&r);
	/* one label only: d_e = 0 */
	static const char *const one[] = { "w 1 a\nw 2 a\n", "w 1 a\nw 2 a\n" };
	levels(&r, NULL, one, 2);
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, NULL, 0, &wk, &r.err),
			 TAGEVAL_OK);
	ck_assert_int_eq(wk.undefined, TAGEVAL_UNDEFINED_NO_SPREAD);
	ck_assert(isnan(wk.value));
	done(&r);
	/* no item both annotated */
	static const char *const apart[] = { "w 1 a\n", "w 2 a\n" };
	levels(&r, NULL, apart, 2);
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, NULL, 0, &wk, &r.err),
			 TAGEVAL_OK);
	ck_assert_int_eq(wk.undefined, TAGEVAL_UNDEFINED_NO_ITEMS);
	done(&r);
	/* three annotators */
	static const char *const three[] = { "w 1 a\n", "w 1 a\n", "w 1 a\n" };
	levels(&r, NULL, three, 3);
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, NULL, 0, &wk, &r.err),
			 TAGEVAL_OK);
	ck_assert_int_eq(wk.undefined, TAGEVAL_UNDEFINED_TWO_ANNOTATORS);
	done(&r);
}
END_TEST

/* ------------------------------------- the weighted figures with given distances */

static void weighted(struct run *r, const char *const *files, size_t n,
		     const struct tageval_label_distance *d, size_t nd,
		     struct tageval_weighted_figures *wf)
{
	levels(r, NULL, files, n);
	ck_assert_int_eq(tageval_agreement_weighted(r->ann, d, nd, 0.95, wf, &r->err),
			 TAGEVAL_OK);
}

/*
 * The standard error of the weighted kappa (Fleiss, Cohen & Everitt) with
 * D = |x - y| / 2 over the items (1,1) (1,2) (2,2) (2,3) (3,3) of
 * kappa_distances_linear: w = 1 - D, w(1,2) = w(2,3) = 1/2, w(1,3) = 0;
 * r = (2, 2, 1)/5, c = (1, 2, 2)/5; d_o = 1/5, d_e = 0.44, kappa = 6/11,
 * K = 1 - kappa = 5/11, p_e = 0.56.
 * wr = sum over l of c_l w(k,l) = (0.4, 0.7, 0.6); wc = sum over k of
 * r_k w(k,l) = (0.6, 0.7, 0.4).  The items' terms w - (wr_k + wc_l) K:
 * (1,1) 1 - 1 5/11 = 6/11, (1,2) 1/2 - 1.1 5/11 = 0, (2,2) 1 - 1.4 5/11 =
 * 4/11, (2,3) 0, (3,3) 6/11; E = (36 + 16 + 36)/121 / 5 = 8/55.
 * kappa - p_e K = (6 - 2.8)/11 = 16/55; var = (8/55 - 256/3025) /
 * (0.44^2 5) = (184/3025) / (121/125) = 920/14641: kappa_linear's variance
 * (se_numeric_two), and the two SEs agree to rounding.
 */
START_TEST(weighted_kappa_se)
{
	static const char *const f[] = { "w 1 1\nw 2 1\nw 3 2\nw 4 2\nw 5 3\n",
					 "w 1 1\nw 2 2\nw 3 2\nw 4 3\nw 5 3\n" };
	static const struct tageval_label_distance d[] = {
		{ "1", "2", 0.5 }, { "1", "3", 1.0 }, { "2", "3", 0.5 } };
	struct run r;
	struct tageval_weighted_figures wf;
	weighted(&r, f, 2, d, 3, &wf);
	ck_assert_int_eq(wf.kappa.undefined, TAGEVAL_DEFINED);
	ck_assert_int_eq(wf.kappa_se_undefined, TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(wf.kappa.value, 6.0 / 11, TOL);
	ck_assert_double_eq_tol(wf.kappa_se, sqrt(920.0 / 14641), TOL);
	double z = 1.959963984540054;
	ck_assert_double_eq_tol(wf.kappa_low, 6.0 / 11 - z * sqrt(920.0 / 14641), 1e-9);
	ck_assert_double_eq_tol(wf.kappa_high, 6.0 / 11 + z * sqrt(920.0 / 14641), 1e-9);
	struct tageval_standard_errors se;
	ck_assert_int_eq(tageval_agreement_standard_errors(r.ann, 0, 0.95, &se, &r.err),
			 TAGEVAL_OK);
	ck_assert_double_eq_tol(wf.kappa_se, se.se[TAGEVAL_SE_KAPPA_LINEAR], 1e-12);
	ck_assert_double_eq_tol(wf.kappa_low, se.low[TAGEVAL_SE_KAPPA_LINEAR], 1e-12);
	/* AC2 with these weights on two annotators: every item rated twice,
	 * p_a = 1 - d_o = 4/5; pi = (3, 4, 3)/10, sum pi (1 - pi) = 0.66;
	 * T_w = 3 + 2 (1/2 + 0 + 1/2) = 5, p_e = 5/6 0.66 = 0.55;
	 * AC2 = 0.25 / 0.45 = 5/9 */
	ck_assert_int_eq(wf.ac2_undefined, TAGEVAL_DEFINED);
	ck_assert_uint_eq(wf.rated, 5);
	ck_assert_uint_eq(wf.items, 5);
	ck_assert_uint_eq(wf.categories, 3);
	ck_assert_double_eq_tol(wf.ac2_observed, 0.8, TOL);
	ck_assert_double_eq_tol(wf.ac2_chance, 0.55, TOL);
	ck_assert_double_eq_tol(wf.ac2, 5.0 / 9, TOL);
	/* confidence 0: the same figures, no standard error */
	struct tageval_weighted_figures nose;
	ck_assert_int_eq(tageval_agreement_weighted(r.ann, d, 3, 0.0, &nose, &r.err), TAGEVAL_OK);
	ck_assert_double_eq(nose.ac2, wf.ac2);
	ck_assert_double_eq(nose.kappa.value, wf.kappa.value);
	ck_assert_int_eq(nose.ac2_se_undefined, TAGEVAL_UNDEFINED_NOT_ASKED);
	ck_assert_int_eq(nose.kappa_se_undefined, TAGEVAL_UNDEFINED_NOT_ASKED);
	ck_assert(isnan(nose.ac2_se) && isnan(nose.kappa_se));
	done(&r);
}
END_TEST

/*
 * Gwet's AC2 with the distances D(a,b) = 1/2, D(a,c) = 1, D(b,c) = 1/4
 * (w = 1 - D: 1/2, 0, 3/4), three annotators, missing data:
 *   item 1: a a b, item 2: b b (third missing), item 3: c b a, item 4: a
 *   (one annotation: in pi, not in p_a).
 * a_t, the mean of w over the ordered pairs of annotations: item 1: pairs
 * (a,a) 2 x 1, (a,b) 4 x 1/2: 4/6 = 2/3; item 2: 1; item 3: 2 (3/4 + 0 +
 * 1/2)/6 = 5/12.  p_a = (2/3 + 1 + 5/12)/3 = 25/36.
 * pi (n = 4): a (2/3 + 1/3 + 1)/4 = 1/2, b (1/3 + 1 + 1/3)/4 = 5/12, c 1/12;
 * sum pi (1 - pi) = 1/4 + 35/144 + 11/144 = 41/72.  q = 3, T_w = 3 + 2 (1/2
 * + 0 + 3/4) = 11/2, p_e = 11/2 / 6 41/72 = 451/864.
 * AC2 = (25/36 - 451/864) / (413/864) = 149/413.
 * The variance: e_t = 11/12 sum over k of S_t(k) (1 - pi_k) / r_t = 209/432,
 * 77/144, 11/18, 11/24; c_t = (4/3)(a_t - p_e [r_t >= 2]) / (1 - p_e)
 * - 2 (1 - AC2)(e_t - p_e) / (1 - p_e) = 258772/511707, 664852/511707,
 * -38900/73101, 29040/170569; var = sum of (c_t - AC2)^2 / (4 3) =
 * 5409564631/37406293407.  Three annotators: no Cohen's kappa.
 */
static const char *const ac2_files[] = { "w 1 a\nw 2 b\nw 3 c\nw 4 a\n", "w 1 a\nw 2 b\nw 3 b\n",
					 "w 1 b\nw 3 a\n" };
static const struct tageval_label_distance ac2_d[] = {
	{ "a", "b", 0.5 }, { "c", "a", 1.0 }, { "b", "c", 0.25 } };

START_TEST(weighted_ac2_hand)
{
	struct run r;
	struct tageval_weighted_figures wf;
	weighted(&r, ac2_files, 3, ac2_d, 3, &wf);
	ck_assert_uint_eq(wf.rated, 4);
	ck_assert_uint_eq(wf.items, 3);
	ck_assert_uint_eq(wf.categories, 3);
	ck_assert_int_eq(wf.ac2_undefined, TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(wf.ac2_observed, 25.0 / 36, TOL);
	ck_assert_double_eq_tol(wf.ac2_chance, 451.0 / 864, TOL);
	ck_assert_double_eq_tol(wf.ac2, 149.0 / 413, TOL);
	ck_assert_int_eq(wf.ac2_se_undefined, TAGEVAL_DEFINED);
	double se = sqrt(5409564631.0 / 37406293407.0);
	ck_assert_double_eq_tol(wf.ac2_se, se, TOL);
	/* Student's t with 3 degrees of freedom, 0.975: 3.182446305284263 */
	ck_assert_double_eq_tol(wf.ac2_low, 149.0 / 413 - 3.182446305284263 * se, 1e-9);
	ck_assert_double_eq(wf.ac2_high, 1.0); /* 0.36 + 3.18 0.38 > 1 */
	ck_assert_int_eq(wf.kappa.undefined, TAGEVAL_UNDEFINED_TWO_ANNOTATORS);
	ck_assert_int_eq(wf.kappa_se_undefined, TAGEVAL_UNDEFINED_TWO_ANNOTATORS);
	ck_assert(isnan(wf.kappa.value) && isnan(wf.kappa_se));
	done(&r);
}
END_TEST

/* Quadratic distances ((k - l)/4)^2 over the values 1..5 of Krippendorff's
 * example give Gwet's AC2 of tageval_agreement_chance() (17685/19349,
 * irrcac_missing) and its standard error. */
START_TEST(weighted_ac2_quadratic)
{
	struct tageval_label_distance d[10];
	static const char *const v[] = { "1", "2", "3", "4", "5" };
	size_t n = 0;
	for (int k = 0; k < 5; k++)
		for (int l = k + 1; l < 5; l++)
			d[n++] = (struct tageval_label_distance){ v[k], v[l],
								  (l - k) * (l - k) / 16.0 };
	struct run r;
	struct tageval_weighted_figures wf;
	weighted(&r, kripp, 4, d, n, &wf);
	ck_assert_double_eq_tol(wf.ac2, 17685.0 / 19349, TOL);
	ck_assert_double_eq_tol(wf.ac2_chance, 4385.0 / 6144, TOL);
	struct tageval_standard_errors se;
	ck_assert_int_eq(tageval_agreement_standard_errors(r.ann, 0, 0.95, &se, &r.err),
			 TAGEVAL_OK);
	ck_assert_int_eq(se.undefined[TAGEVAL_SE_GWET_AC2], TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(wf.ac2_se, se.se[TAGEVAL_SE_GWET_AC2], 1e-12);
	ck_assert_double_eq_tol(wf.ac2_low, se.low[TAGEVAL_SE_GWET_AC2], 1e-12);
	ck_assert_uint_eq(wf.rated, se.items[TAGEVAL_SE_GWET_AC2]);
	done(&r);
}
END_TEST

/* The errors and undefined cases of tageval_agreement_weighted(). */
START_TEST(weighted_undefined)
{
	struct run r;
	struct tageval_weighted_figures wf;
	/* label c only on an item of one annotation: its pairs are needed for
	 * AC2 (tageval_agreement_kappa_distances() does without them) */
	static const char *const lone[] = { "w 1 a\nw 2 b\nw 3 c\n", "w 1 a\nw 2 a\n" };
	static const struct tageval_label_distance ab[] = { { "a", "b", 0.5 } };
	levels(&r, NULL, lone, 2);
	ck_assert_int_eq(tageval_agreement_weighted(r.ann, ab, 1, 0.95, &wf, &r.err),
			 TAGEVAL_EFORMAT);
	ck_assert_str_eq(r.err.message, "no distance for the labels \"a\" and \"c\"");
	struct tageval_weighted_kappa wk;
	ck_assert_int_eq(tageval_agreement_kappa_distances(r.ann, ab, 1, &wk, &r.err),
			 TAGEVAL_OK);
	/* the confidence */
	ck_assert_int_eq(tageval_agreement_weighted(r.ann, ab, 1, 1.0, &wf, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_agreement_weighted(r.ann, ab, 1, NAN, &wf, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_agreement_weighted(r.ann, ab, 1, -0.5, &wf, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_agreement_weighted(NULL, ab, 1, 0.95, &wf, &r.err),
			 TAGEVAL_EINVAL);
	done(&r);
	/* one item: the coefficients, no standard error.  (a, b): d_o = 1/2,
	 * d_e = 1/2 (r = a, c = b): kappa 0; AC2: p_a = 1/2, pi = (1/2, 1/2),
	 * T_w = 2 + 2 1/2 = 3, p_e = 3/2 1/2 = 3/4: AC2 = -1 */
	static const char *const one[] = { "w 1 a\n", "w 1 b\n" };
	weighted(&r, one, 2, ab, 1, &wf);
	ck_assert_double_eq_tol(wf.kappa.value, 0.0, TOL);
	ck_assert_int_eq(wf.kappa_se_undefined, TAGEVAL_UNDEFINED_ONE_ITEM);
	ck_assert_double_eq_tol(wf.ac2, -1.0, TOL);
	ck_assert_int_eq(wf.ac2_se_undefined, TAGEVAL_UNDEFINED_ONE_ITEM);
	done(&r);
	/* one label: AC2 has fewer than two categories, the kappa no spread */
	static const char *const same[] = { "w 1 a\nw 2 a\n", "w 1 a\nw 2 a\n" };
	weighted(&r, same, 2, NULL, 0, &wf);
	ck_assert_int_eq(wf.ac2_undefined, TAGEVAL_UNDEFINED_ONE_CATEGORY);
	ck_assert_int_eq(wf.ac2_se_undefined, TAGEVAL_UNDEFINED_ONE_CATEGORY);
	ck_assert_int_eq(wf.kappa.undefined, TAGEVAL_UNDEFINED_NO_SPREAD);
	ck_assert_int_eq(wf.kappa_se_undefined, TAGEVAL_UNDEFINED_NO_SPREAD);
	done(&r);
	/* no item of two annotations */
	static const char *const apart[] = { "w 1 a\n", "w 2 b\n" };
	weighted(&r, apart, 2, ab, 1, &wf);
	ck_assert_int_eq(wf.ac2_undefined, TAGEVAL_UNDEFINED_NO_ITEMS);
	ck_assert_int_eq(wf.kappa.undefined, TAGEVAL_UNDEFINED_NO_ITEMS);
	ck_assert_int_eq(wf.kappa_se_undefined, TAGEVAL_UNDEFINED_NO_ITEMS);
	ck_assert(isnan(wf.ac2) && isnan(wf.ac2_se));
	done(&r);
	/* p_e = 1: the two labels at distance 0, T_w = 4, pi = (1/2, 1/2):
	 * p_e = 4/(2 1) (1/4 + 1/4) = 1; the kappa's d_e = 0 */
	static const struct tageval_label_distance zero[] = { { "a", "b", 0.0 } };
	static const char *const two[] = { "w 1 a\nw 2 b\n", "w 1 b\nw 2 a\n" };
	weighted(&r, two, 2, zero, 1, &wf);
	ck_assert_int_eq(wf.ac2_undefined, TAGEVAL_UNDEFINED_CHANCE);
	ck_assert_int_eq(wf.kappa.undefined, TAGEVAL_UNDEFINED_NO_SPREAD);
	done(&r);
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
	tc = tcase_create("chance");
	tcase_add_test(tc, irrcac_abstractors);
	tcase_add_test(tc, one_pass_inner);
	tcase_add_test(tc, numeric_two);
	tcase_add_test(tc, kappa_distances_hand);
	tcase_add_test(tc, kappa_distances_linear);
	tcase_add_test(tc, kappa_distances_errors);
	tcase_add_test(tc, kappa_distances_two_tags);
	tcase_add_test(tc, weighted_kappa_se);
	tcase_add_test(tc, weighted_ac2_hand);
	tcase_add_test(tc, weighted_ac2_quadratic);
	tcase_add_test(tc, weighted_undefined);
	tcase_add_test(tc, irrcac_missing);
	tcase_add_test(tc, chance_undefined);
	tcase_add_test(tc, chance_two_tags);
	tcase_add_test(tc, se_abstractors);
	tcase_add_test(tc, se_numeric_two);
	tcase_add_test(tc, se_two_tags);
	tcase_add_test(tc, se_undefined);
	tcase_add_test(tc, se_line_order);
	tcase_add_test(tc, per_category);
	tcase_add_test(tc, least_agreement);
	tcase_add_test(tc, hierarchy_level);
	suite_add_tcase(s, tc);
	tc = tcase_create("sets");
	tcase_add_test(tc, set_distances);
	tcase_add_test(tc, set_cases);
	tcase_add_test(tc, set_two_shared);
	tcase_add_test(tc, limits);
	tcase_add_test(tc, pair);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(alpha_suite());
}
