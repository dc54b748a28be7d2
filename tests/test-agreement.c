/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Agreement over leaf distributions (reference-agreement.md, spec 003
 * section 5): the worked example of section 10 in both map forms, flat
 * Scott / Cohen / Fleiss / Davies-Fleiss / Krippendorff tables computed by
 * hand, missing data, weighted and multi-tag annotations, every reader
 * error, degenerate data, several lexelts, estimated downward probabilities
 * and the bootstrap.  Every expected value is taken from the reference or
 * computed by hand in the comment next to it.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "test-common.h"

/* One computation: inventory, annotations, result. */
struct run {
	struct tageval_inventory *inv;
	struct tageval_annotations *ann;
	struct tageval_agreement *ag;
	struct tageval_error err;
};

static void start(struct run *r, const char *map)
{
	memset(r, 0, sizeof *r);
	r->inv = tageval_inventory_new();
	ck_assert_ptr_nonnull(r->inv);
	if (map)
		ck_assert_int_eq(tageval_inventory_read_map_buffer(r->inv, map, strlen(map), "map",
								   &r->err),
				 TAGEVAL_OK);
}

static void annotations(struct run *r)
{
	ck_assert_int_eq(tageval_annotations_new(r->inv, &r->ann), TAGEVAL_OK);
	ck_assert_ptr_nonnull(r->ann);
}

static void add(struct run *r, const char *text)
{
	char name[32];
	snprintf(name, sizeof name, "ann%zu", tageval_annotations_annotators(r->ann) + 1);
	ck_assert_int_eq(tageval_annotations_read_buffer(r->ann, text, strlen(text), name, &r->err),
			 TAGEVAL_OK);
}

static const struct tageval_agreement_figures *compute(struct run *r,
						       const struct tageval_agreement_options *o)
{
	int rc = tageval_agreement_compute(r->ann, o, &r->ag, &r->err);
	ck_assert_msg(rc == TAGEVAL_OK, "compute: %d %s", rc, r->err.message);
	ck_assert_ptr_nonnull(r->ag);
	return tageval_agreement_pooled(r->ag);
}

/* The map (NULL = none), @n annotators' files, default options. */
static const struct tageval_agreement_figures *agree(struct run *r, const char *map,
						     const char *const *files, size_t n)
{
	start(r, map);
	annotations(r);
	for (size_t i = 0; i < n; i++)
		add(r, files[i]);
	ck_assert_uint_eq(tageval_annotations_annotators(r->ann), n);
	return compute(r, NULL);
}

static void finish_run(struct run *r)
{
	tageval_agreement_free(r->ag);
	tageval_annotations_free(r->ann);
	tageval_inventory_free(r->inv);
	memset(r, 0, sizeof *r);
}

/* Both NaN, or equal within TOL. */
static void same_value(double x, double y)
{
	if (isnan(x) || isnan(y)) {
		ck_assert_double_nan(x);
		ck_assert_double_nan(y);
	} else {
		ck_assert_double_eq_tol(x, y, TOL);
	}
}

static void same_figures(const struct tageval_agreement_figures *a,
			 const struct tageval_agreement_figures *b)
{
	ck_assert_uint_eq(a->items, b->items);
	ck_assert_uint_eq(a->annotations, b->annotations);
	ck_assert_uint_eq(a->complete, b->complete);
	same_value(a->pr_a, b->pr_a);
	same_value(a->pr_e, b->pr_e);
	same_value(a->kappa, b->kappa);
	ck_assert_int_eq(a->kappa_undefined, b->kappa_undefined);
	same_value(a->pr_e_separate, b->pr_e_separate);
	same_value(a->kappa_separate, b->kappa_separate);
	ck_assert_int_eq(a->separate_undefined, b->separate_undefined);
	same_value(a->d_o, b->d_o);
	same_value(a->d_e, b->d_e);
	same_value(a->alpha, b->alpha);
	ck_assert_int_eq(a->alpha_undefined, b->alpha_undefined);
}

/* spec 003, Figure 1: parent form, scorer2 form, scorer2 form reordered
 * with one line stopping below the root */
static const char *const paper_maps[] = {
	"A\nA.1 A\nA.2 A\nA.1a A.1\nA.1b A.1\nB\nB.1 B\nB.2 B\nB.3 B\n",
	"A.1 2 A\nA.2 2 A\nA.1a 2 A.1 2 A\nA.1b 2 A.1 2 A\nB.1 3 B\nB.2 3 B\nB.3 3 B\n",
	"B.3 3 B\nA.1b 2 A.1\nA.1a 2 A.1 2 A\nB.1 3 B\nA.2 2 A\nB.2 3 B\n",
};
#define PAPER_MAP paper_maps[0]

/* -------------------------------------------- reference-agreement.md, section 10 */

static const char paper_ann1[] = "w 1 A\nw 2 B\nw 3 A.2\nw 4 A.1 B.1\n";
static const char paper_ann2[] = "w 1 A.1a\nw 2 B.2\nw 3 A.2\nw 4 A.1b\n";
/* the same annotations: other line order, CRLF, tabs, comments, blank lines */
static const char paper_ann1_b[] = "w\t4  B.1 A.1\r\n\r\n!! comment\r\nw 2 B\r\nw 1 A\r\n"
				   "w 3 A.2 !! the only leaf\r\n";
static const char paper_ann2_b[] = "  w 3 A.2\nw 2 B.2\n\nw 4\tA.1b\nw 1 A.1a";

static void check_paper(const struct tageval_agreement_figures *f)
{
	ck_assert_uint_eq(f->items, 4);
	ck_assert_uint_eq(f->annotations, 8);
	ck_assert_uint_eq(f->complete, 4);
	/* item agreements 1/4, 1/3, 1, 1/4: (11/6) / 4 = 11/24 */
	ck_assert_double_eq_tol(f->pr_a, 11.0 / 24.0, TOL);
	/* (9 + 9 + 25)/256 + (25 + 64 + 4)/2304 = 387/2304 + 93/2304 = 5/24 */
	ck_assert_double_eq_tol(f->pr_e, 5.0 / 24.0, TOL);
	/* (11/24 - 5/24) / (19/24) = 6/19 */
	ck_assert_int_eq(f->kappa_undefined, TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(f->kappa, 6.0 / 19.0, TOL);
	/* 1/4 * (1/8 + 1/8 + 3/8 + 1/12) = 17/96 */
	ck_assert_double_eq_tol(f->pr_e_separate, 17.0 / 96.0, TOL);
	/* (44/96 - 17/96) / (79/96) = 27/79 */
	ck_assert_int_eq(f->separate_undefined, TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(f->kappa_separate, 27.0 / 79.0, TOL);
	/* D_o = 1 - Pr(A) = 13/24 */
	ck_assert_double_eq_tol(f->d_o, 13.0 / 24.0, TOL);
	/* D_e = 1 - (40/3 - 73/12)/56 = 1 - (29/4)/56 = 195/224 */
	ck_assert_double_eq_tol(f->d_e, 195.0 / 224.0, TOL);
	/* 1 - (13/24)/(195/224) = 1 - 28/45 = 17/45 */
	ck_assert_int_eq(f->alpha_undefined, TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(f->alpha, 17.0 / 45.0, TOL);
}

START_TEST(paper_example)
{
	struct run r;
	const char *files[] = { paper_ann1, paper_ann2 };
	const struct tageval_agreement_figures *f = agree(&r, paper_maps[_i], files, 2);
	check_paper(f);
	ck_assert_uint_eq(tageval_annotations_items(r.ann), 4);
	/* one lexelt: its figures are the pooled ones */
	ck_assert_uint_eq(tageval_agreement_lexelts(r.ag), 1);
	ck_assert_str_eq(tageval_agreement_lexelt_name(r.ag, 0), "w");
	ck_assert_ptr_null(tageval_agreement_lexelt_name(r.ag, 1));
	ck_assert_ptr_null(tageval_agreement_lexelt(r.ag, 1));
	check_paper(tageval_agreement_lexelt(r.ag, 0));
	size_t used = 9, left = 9;
	ck_assert_double_eq_tol(tageval_agreement_macro(r.ag, TAGEVAL_KAPPA, &used, &left),
				6.0 / 19.0, TOL);
	ck_assert_uint_eq(used, 1);
	ck_assert_uint_eq(left, 0);
	ck_assert_double_eq_tol(tageval_agreement_macro(r.ag, TAGEVAL_KAPPA_SEPARATE, NULL, NULL),
				27.0 / 79.0, TOL);
	ck_assert_double_eq_tol(tageval_agreement_macro(r.ag, TAGEVAL_ALPHA, NULL, NULL),
				17.0 / 45.0, TOL);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 0), 0);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 1), 0);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 2), 0); /* no such annotator */
	finish_run(&r);

	/* other spelling of the same files, and the annotators swapped:
	 * every figure is symmetric in the two annotators */
	const char *files_b[] = { paper_ann1_b, paper_ann2_b };
	check_paper(agree(&r, paper_maps[_i], files_b, 2));
	finish_run(&r);
	const char *swapped[] = { paper_ann2, paper_ann1 };
	check_paper(agree(&r, paper_maps[_i], swapped, 2));
	finish_run(&r);
}
END_TEST

/* ------------------------------------------- section 3: identical non-leaf tags */

START_TEST(identical_tags)
{
	struct run r;
	/* both write A: sum_l P(l|A)^2 = (1/4)^2 + (1/4)^2 + (1/2)^2 = 3/8 */
	const char *both_a[] = { "w 1 A\n", "w 1 A\n" };
	const struct tageval_agreement_figures *f = agree(&r, PAPER_MAP, both_a, 2);
	ck_assert_double_eq_tol(f->pr_a, 3.0 / 8.0, TOL);
	/* the pooled marginals are dist(A) itself: Pr(E) = 3/8, K = 0/(5/8) = 0 */
	ck_assert_double_eq_tol(f->pr_e, 3.0 / 8.0, TOL);
	ck_assert_double_eq_tol(f->kappa, 0.0, TOL);
	/* D_o = 1/2 * 1/(2-1) * 2 * (1 - 3/8) = 5/8;
	 * |P + P|^2 = 4 * 3/8 = 3/2, self 3/8 + 3/8 = 3/4,
	 * D_e = 1 - (3/2 - 3/4)/(2 * 1) = 5/8; alpha = 1 - 1 = 0 */
	ck_assert_double_eq_tol(f->d_o, 5.0 / 8.0, TOL);
	ck_assert_double_eq_tol(f->d_e, 5.0 / 8.0, TOL);
	ck_assert_double_eq_tol(f->alpha, 0.0, TOL);
	finish_run(&r);

	/* both write the same leaf: agreement 1 (kappa itself is 0/0 here) */
	const char *both_leaf[] = { "w 1 A.2\n", "w 1 A.2\n" };
	f = agree(&r, PAPER_MAP, both_leaf, 2);
	ck_assert_double_eq_tol(f->pr_a, 1.0, TOL);
	finish_run(&r);

	/* the two items together: Pr(A) = (3/8 + 1)/2 = 11/16;
	 * marginals over 4 annotations: A.1a 2/4 / 4 = 1/8, A.1b 1/8,
	 * A.2 (1/2 + 1/2 + 1 + 1)/4 = 3/4; Pr(E) = 1/64 + 1/64 + 36/64 = 19/32;
	 * K = (22/32 - 19/32)/(13/32) = 3/13 */
	const char *two[] = { "w 1 A\nw 2 A.2\n", "w 2 A.2\nw 1 A\n" };
	f = agree(&r, PAPER_MAP, two, 2);
	ck_assert_double_eq_tol(f->pr_a, 11.0 / 16.0, TOL);
	ck_assert_double_eq_tol(f->pr_e, 19.0 / 32.0, TOL);
	ck_assert_double_eq_tol(f->kappa, 3.0 / 13.0, TOL);
	/* both annotators have the same marginals: Cohen's Pr(E) is 19/32 too */
	ck_assert_double_eq_tol(f->pr_e_separate, 19.0 / 32.0, TOL);
	ck_assert_double_eq_tol(f->kappa_separate, 3.0 / 13.0, TOL);
	/* D_o = 1/4 * (2 (1 - 3/8) + 0) = 5/16;
	 * sum of P = {A.1a 1/2, A.1b 1/2, A.2 3}: |.|^2 = 1/4 + 1/4 + 9 = 19/2;
	 * self 3/8 + 3/8 + 1 + 1 = 11/4; D_e = 1 - (19/2 - 11/4)/12 = 1 - 27/48 = 7/16;
	 * alpha = 1 - (5/16)/(7/16) = 2/7 */
	ck_assert_double_eq_tol(f->d_o, 5.0 / 16.0, TOL);
	ck_assert_double_eq_tol(f->d_e, 7.0 / 16.0, TOL);
	ck_assert_double_eq_tol(f->alpha, 2.0 / 7.0, TOL);
	finish_run(&r);

	/* a Senseval-3 group head (section 2): dist(38204) = {38204 1/2, 38202 1/2};
	 * both write 38204: 1/4 + 1/4 = 1/2; Pr(E) = 1/2; K = 0;
	 * D_o = 1/2 * 2 * (1 - 1/2) = 1/2, D_e = 1 - (|{1, 1}|^2 - 1)/2 = 1/2, alpha 0 */
	const char *head[] = { "x 1 38204\n", "x 1 38204\n" };
	f = agree(&r, "38202 2 38204\n38201\n38203\n", head, 2);
	ck_assert_double_eq_tol(f->pr_a, 0.5, TOL);
	ck_assert_double_eq_tol(f->pr_e, 0.5, TOL);
	ck_assert_double_eq_tol(f->kappa, 0.0, TOL);
	ck_assert_double_eq_tol(f->d_o, 0.5, TOL);
	ck_assert_double_eq_tol(f->d_e, 0.5, TOL);
	ck_assert_double_eq_tol(f->alpha, 0.0, TOL);
	finish_run(&r);
}
END_TEST

/* ------------------------------------------------- flat data, two annotators */

/*
 * 10 items, 3 categories:
 *   item   1 2 3 4 5 6 7 8 9 10
 *   ann1   a a a b b b c a c b
 *   ann2   a a b b b c c a b b
 * ann2's file is written in reverse order.
 */
static const char flat_ann1[] = "f 1 a\nf 2 a\nf 3 a\nf 4 b\nf 5 b\nf 6 b\nf 7 c\nf 8 a\n"
				"f 9 c\nf 10 b\n";
static const char flat_ann2[] = "f 10 b\nf 9 b\nf 8 a\nf 7 c\nf 6 c\nf 5 b\nf 4 b\nf 3 b\n"
				"f 2 a\nf 1 a\n";

START_TEST(flat_two)
{
	struct run r;
	/* _i = 0: no map at all; _i = 1: an empty map (a flat tag set) */
	start(&r, _i ? "" : NULL);
	annotations(&r);
	add(&r, flat_ann1);
	add(&r, flat_ann2);
	const struct tageval_agreement_figures *f = compute(&r, NULL);
	ck_assert_uint_eq(f->items, 10);
	ck_assert_uint_eq(f->annotations, 20);
	ck_assert_uint_eq(f->complete, 10);
	/* agreement on items 1 2 4 5 7 8 10: 7/10 */
	ck_assert_double_eq_tol(f->pr_a, 7.0 / 10.0, TOL);
	/* Scott's pi: pooled counts a 4+3 = 7, b 4+5 = 9, c 2+2 = 4 of 20;
	 * Pr(E) = (49 + 81 + 16)/400 = 146/400 = 73/200;
	 * pi = (140/200 - 73/200)/(127/200) = 67/127 */
	ck_assert_double_eq_tol(f->pr_e, 73.0 / 200.0, TOL);
	ck_assert_double_eq_tol(f->kappa, 67.0 / 127.0, TOL);
	/* Cohen: ann1 a 4, b 4, c 2; ann2 a 3, b 5, c 2 (of 10);
	 * Pr(E) = (4*3 + 4*5 + 2*2)/100 = 36/100 = 9/25;
	 * kappa = (7/10 - 9/25)/(16/25) = (35/50 - 18/50)/(32/50) = 17/32 */
	ck_assert_double_eq_tol(f->pr_e_separate, 9.0 / 25.0, TOL);
	ck_assert_double_eq_tol(f->kappa_separate, 17.0 / 32.0, TOL);
	/* nominal alpha, n = 20: D_o = (1/20) * 2 * 3 disagreements = 3/10;
	 * coincidences of equal values: sum n_c (n_c - 1) = 42 + 72 + 12 = 126,
	 * D_e = 1 - 126/380 = 254/380 = 127/190;
	 * alpha = 1 - (3/10)/(127/190) = 1 - 57/127 = 70/127
	 * (coincidence form: 1 - (n - 1) * 6 / (400 - 146) = 1 - 114/254, the same) */
	ck_assert_double_eq_tol(f->d_o, 3.0 / 10.0, TOL);
	ck_assert_double_eq_tol(f->d_e, 127.0 / 190.0, TOL);
	ck_assert_double_eq_tol(f->alpha, 70.0 / 127.0, TOL);
	finish_run(&r);
}
END_TEST

/* ------------------------------------------------ flat data, three annotators */

/*
 * 4 items x 3 raters, categories x y z:
 *   item   r1 r2 r3
 *   1      x  x  x
 *   2      x  x  y
 *   3      y  y  z
 *   4      x  z  z
 */
static const char fleiss_r1[] = "f 1 x\nf 2 x\nf 3 y\nf 4 x\n";
static const char fleiss_r2[] = "f 4 z\nf 3 y\nf 2 x\nf 1 x\n";
static const char fleiss_r3[] = "f 1 x\nf 2 y\nf 3 z\nf 4 z\n";
/* r1 with one more item that nobody else annotated */
static const char fleiss_r1_extra[] = "f 1 x\nf 2 x\nf 3 y\nf 5 y\nf 4 x\n";

static void check_fleiss(const struct tageval_agreement_figures *f)
{
	ck_assert_uint_eq(f->items, 4);
	ck_assert_uint_eq(f->annotations, 12);
	ck_assert_uint_eq(f->complete, 4);
	/* Fleiss: P_i = (sum_j n_ij^2 - 3)/(3 * 2): item 1 (9 - 3)/6 = 1,
	 * items 2, 3, 4 (4 + 1 - 3)/6 = 1/3; Pbar = (1 + 1)/4 = 1/2 */
	ck_assert_double_eq_tol(f->pr_a, 0.5, TOL);
	/* p_j: x 6/12, y 3/12, z 3/12; P_e = 1/4 + 1/16 + 1/16 = 3/8 */
	ck_assert_double_eq_tol(f->pr_e, 3.0 / 8.0, TOL);
	/* (1/2 - 3/8)/(5/8) = 1/5 */
	ck_assert_double_eq_tol(f->kappa, 0.2, TOL);
	/* Davies-Fleiss: r1 (x 3/4, y 1/4, z 0), r2 (1/2, 1/4, 1/4), r3 (1/4, 1/4, 1/2);
	 * r1.r2 = 3/8 + 1/16 = 7/16, r1.r3 = 3/16 + 1/16 = 4/16,
	 * r2.r3 = 2/16 + 1/16 + 2/16 = 5/16; mean = (16/16)/3 = 1/3;
	 * kappa = (1/2 - 1/3)/(2/3) = 1/4 */
	ck_assert_int_eq(f->separate_undefined, TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(f->pr_e_separate, 1.0 / 3.0, TOL);
	ck_assert_double_eq_tol(f->kappa_separate, 0.25, TOL);
	/* Krippendorff, coincidence matrix: n = 12; ordered disagreeing pairs
	 * per item 0, 4, 4, 4, each item divided by m - 1 = 2: sum of o_ck
	 * (c != k) = 6; n_x 6, n_y 3, n_z 3: sum_{c != k} n_c n_k = 144 - 54 = 90;
	 * alpha = 1 - (n - 1) * 6/90 = 1 - 66/90 = 4/15.
	 * Equivalently D_o = 6/12 = 1/2, D_e = 90/(12 * 11) = 15/22,
	 * 1 - (1/2)(22/15) = 4/15. */
	ck_assert_double_eq_tol(f->d_o, 0.5, TOL);
	ck_assert_double_eq_tol(f->d_e, 15.0 / 22.0, TOL);
	ck_assert_double_eq_tol(f->alpha, 4.0 / 15.0, TOL);
}

START_TEST(flat_three)
{
	struct run r;
	const char *files[] = { fleiss_r1, fleiss_r2, fleiss_r3 };
	check_fleiss(agree(&r, NULL, files, 3));
	for (size_t c = 0; c < 3; c++)
		ck_assert_uint_eq(tageval_agreement_single(r.ag, c), 0);
	finish_run(&r);
	/* an item only r1 annotated takes no part: the same figures, and
	 * Davies-Fleiss stays defined because every used item is complete */
	const char *extra[] = { fleiss_r1_extra, fleiss_r2, fleiss_r3 };
	check_fleiss(agree(&r, NULL, extra, 3));
	ck_assert_uint_eq(tageval_annotations_items(r.ann), 5);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 0), 1);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 1), 0);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 2), 0);
	finish_run(&r);
}
END_TEST

/* ------------------------------------------------------------ missing data */

/*
 *   item   r1 r2 r3     m_t
 *   1      x  x  x      3
 *   2      x  y  -      2
 *   3      -  y  y      2
 *   4      y  y  x      3
 *   5      -  -  x      1   (r3 only)
 *   6      x  -  -      1   (r1 only)
 */
START_TEST(missing)
{
	struct run r;
	const char *files[] = {
		"m 1 x\nm 2 x\nm 4 y\nm 6 x\n",
		"m 1 x\nm 2 y\nm 3 y\nm 4 y\n",
		"m 1 x\nm 3 y\nm 4 x\nm 5 x\n",
	};
	const struct tageval_agreement_figures *f = agree(&r, NULL, files, 3);
	ck_assert_uint_eq(tageval_annotations_items(r.ann), 6);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 0), 1);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 1), 0);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 2), 1);
	ck_assert_uint_eq(f->items, 4);
	/* 3 + 2 + 2 + 3 */
	ck_assert_uint_eq(f->annotations, 10);
	ck_assert_uint_eq(f->complete, 2);
	/* item agreement = mean over the pairs present: 1, 0, 1, 1/3 (only r1-r2
	 * of the three pairs agree); Pr(A) = (7/3)/4 = 7/12 */
	ck_assert_double_eq_tol(f->pr_a, 7.0 / 12.0, TOL);
	/* over the 10 annotations: x 3 + 1 + 1 = 5, y 1 + 2 + 2 = 5;
	 * Pr(E) = 1/4 + 1/4 = 1/2; K = (7/12 - 6/12)/(1/2) = 1/6 */
	ck_assert_double_eq_tol(f->pr_e, 0.5, TOL);
	ck_assert_double_eq_tol(f->kappa, 1.0 / 6.0, TOL);
	/* Davies-Fleiss needs complete data */
	ck_assert_int_eq(f->separate_undefined, TAGEVAL_UNDEFINED_INCOMPLETE);
	ck_assert_double_nan(f->kappa_separate);
	/* alpha: D_o = 1/10 * (0 + 2/1 + 0 + 4/2) = 4/10 = 2/5
	 * (item 2: 2 ordered disagreeing pairs, m - 1 = 1; item 4: 4 pairs, m - 1 = 2);
	 * D_e = sum_{c != k} n_c n_k / (n (n - 1)) = 2 * 25/90 = 5/9;
	 * alpha = 1 - (2/5)/(5/9) = 1 - 18/25 = 7/25 */
	ck_assert_double_eq_tol(f->d_o, 0.4, TOL);
	ck_assert_double_eq_tol(f->d_e, 5.0 / 9.0, TOL);
	ck_assert_int_eq(f->alpha_undefined, TAGEVAL_DEFINED);
	ck_assert_double_eq_tol(f->alpha, 7.0 / 25.0, TOL);
	/* the macro average over the single lexelt leaves Davies-Fleiss out */
	size_t used = 9, left = 9;
	ck_assert_double_nan(tageval_agreement_macro(r.ag, TAGEVAL_KAPPA_SEPARATE, &used, &left));
	ck_assert_uint_eq(used, 0);
	ck_assert_uint_eq(left, 1);
	ck_assert_double_eq_tol(tageval_agreement_macro(r.ag, TAGEVAL_ALPHA, &used, &left),
				7.0 / 25.0, TOL);
	ck_assert_uint_eq(used, 1);
	ck_assert_uint_eq(left, 0);
	finish_run(&r);
}
END_TEST

/* ------------------------------------------------ weighted and multi-tag lines */

static const struct {
	const char *map; /* NULL = flat */
	const char *ann1, *ann2;
	double pr_a;     /* the agreement of the single item */
} weighted[] = {
	/* uniform over a, b: 1/2 */
	{ NULL, "a b", "a", 0.5 },
	/* a repeated tag counts once: a a b = a b, 1/2 (not 2/3) */
	{ NULL, "a a b", "a", 0.5 },
	/* (a b).(a b) = 1/4 + 1/4 = 1/2 */
	{ NULL, "a a b", "b a", 0.5 },
	{ NULL, "a a", "a", 1.0 },
	/* a/3 b/1 normalised to 3/4, 1/4 */
	{ NULL, "a/3 b/1", "a", 0.75 },
	{ NULL, "a/3 b/1", "b", 0.25 },
	/* 3/4 * 3/4 + 1/4 * 1/4 = 10/16 = 5/8 */
	{ NULL, "a/3 b/1", "a/3 b/1", 5.0 / 8.0 },
	/* a total below 1 is normalised too: 0.3/0.4 = 3/4 */
	{ NULL, "a/0.3 b/0.1", "a", 0.75 },
	/* 3e-300 / 4e-300 = 3/4 */
	{ NULL, "a/1e-300 b/3e-300", "b", 0.75 },
	/* 1e308 + 1e308 would overflow; the weights are scaled first: 1/2 each */
	{ NULL, "a/1e308 b/1e308", "a", 0.5 },
	/* 1.5e308 / (1.5e308 + 0.5e308) = 3/4 */
	{ NULL, "a/1.5e308 b/0.5e308", "a", 0.75 },
	/* a zero weight: all mass on b */
	{ NULL, "a/0 b/2", "b", 1.0 },
	{ NULL, "a/0 b/2", "a", 0.0 },
	/* b 2/8, a 2/8, c 4/8 against (c a) 1/2 each: 1/4 * 1/2 + 1/2 * 1/2 = 3/8 */
	{ NULL, "b/2 a/2 c/4", "c a", 3.0 / 8.0 },
	/* one tag without weight: every weight ignored, 1/2 each */
	{ NULL, "a/3 b", "a", 0.5 },
	/* unweighted line: the repeat is allowed and counts once: 1/2 */
	{ NULL, "a/1 b a/2", "a", 0.5 },
	/* paper tree: 1/2 dist(A.1) + 1/2 dist(B) against B.2: 1/2 * 1/3 = 1/6 */
	{ "P", "A.1/1 B/1", "B.2", 1.0 / 6.0 },
	/* 1/4 dist(A) + 3/4 A.2: A.2 gets 1/4 * 1/2 + 3/4 = 7/8 */
	{ "P", "A/1 A.2/3", "A.2", 7.0 / 8.0 },
	/* item 4 of section 10: {A.1a 1/4, A.1b 1/4, B.1 1/2} against A.1b: 1/4 */
	{ "P", "A.1 B.1", "A.1b", 0.25 },
	/* 1/2 dist(A) + 1/2 A.2: A.2 gets 1/4 + 1/2 = 3/4 */
	{ "P", "A A.2", "A.2", 0.75 },
	/* 1/2 dist(A.1) + 1/2 dist(A.2) against A: (1/4 1/4 1/2).(1/4 1/4 1/2) = 3/8 */
	{ "P", "A.1 A.2", "A", 3.0 / 8.0 },
};
#define N_WEIGHTED (sizeof weighted / sizeof weighted[0])

START_TEST(weighted_lines)
{
	const char *map = weighted[_i].map ? PAPER_MAP : NULL;
	for (int swap = 0; swap < 2; swap++) {
		char a[128], b[128];
		snprintf(a, sizeof a, "w 1 %s\n", swap ? weighted[_i].ann2 : weighted[_i].ann1);
		snprintf(b, sizeof b, "w 1 %s\n", swap ? weighted[_i].ann1 : weighted[_i].ann2);
		struct run r;
		const char *files[] = { a, b };
		const struct tageval_agreement_figures *f = agree(&r, map, files, 2);
		ck_assert_uint_eq(f->items, 1);
		ck_assert_double_eq_tol(f->pr_a, weighted[_i].pr_a, TOL);
		finish_run(&r);
	}
}
END_TEST

static const struct {
	const char *text;
	size_t len;    /* 0 = strlen */
	size_t line;
	const char *message;
} bad_files[] = {
	{ "w 1 a\n\nw 2 b\nw 1 c\n", 0, 4, "duplicate instance \"w 1\" (first at line 1)" },
	{ "w 1 a\nw 2 b\nw 2 b\n", 0, 3, "duplicate instance \"w 2\" (first at line 2)" },
	{ "w 1\n", 0, 1, "instance \"w 1\" has no sense tag" },
	{ "w 1 a\nw 2 !! a comment, no tag\n", 0, 2, "instance \"w 2\" has no sense tag" },
	{ "w\n", 0, 1, "missing instance id" },
	{ "w 1 a/-1\n", 0, 1, "invalid weight \"a/-1\"" },
	{ "w 1 a/nan b/1\n", 0, 1, "invalid weight \"a/nan\"" },
	{ "w 1 a/inf\n", 0, 1, "invalid weight \"a/inf\"" },
	{ "w 1 a/1e999\n", 0, 1, "invalid weight \"a/1e999\"" },
	{ "w 1 a/\n", 0, 1, "invalid weight \"a/\"" },
	{ "w 1 /1\n", 0, 1, "invalid weight \"/1\"" },
	/* checked also where the weights are then ignored */
	{ "w 1 a b/x\n", 0, 1, "invalid weight \"b/x\"" },
	{ "w 1 a/0 b/0\n", 0, 1, "the weights of \"w 1\" do not have a positive finite sum" },
	{ "w 1 a\nw 2 a/0\n", 0, 2, "the weights of \"w 2\" do not have a positive finite sum" },
	{ "w 1 a/1 b/1 a/2\n", 0, 1, "tag \"a\" repeated on a weighted line" },
	/* "w 1 a\n" = 6 bytes, then "w 2 b", NUL, "c\n": 14 bytes */
	{ "w 1 a\nw 2 b\0c\n", 14, 2, "NUL byte" },
	{ "w 1 a\rb\n", 0, 1, "stray carriage return" },
	{ "", 0, 0, "no annotations" },
	{ "\n  \n!! only a comment\n", 0, 0, "no annotations" },
};
#define N_BAD (sizeof bad_files / sizeof bad_files[0])

START_TEST(annotation_errors)
{
	struct run r;
	start(&r, PAPER_MAP);
	annotations(&r);
	size_t len = bad_files[_i].len ? bad_files[_i].len : strlen(bad_files[_i].text);
	int rc = tageval_annotations_read_buffer(r.ann, bad_files[_i].text, len, "ann", &r.err);
	ck_assert_int_eq(rc, TAGEVAL_EFORMAT);
	ck_assert_int_eq(r.err.code, TAGEVAL_EFORMAT);
	ck_assert_str_eq(r.err.file, "ann");
	ck_assert_uint_eq(r.err.line, bad_files[_i].line);
	ck_assert_str_eq(r.err.message, bad_files[_i].message);
	finish_run(&r);
}
END_TEST

START_TEST(compute_errors)
{
	struct run r;
	struct tageval_agreement *ag = (struct tageval_agreement *)&r; /* must be reset */
	/* no annotator, then one annotator */
	start(&r, NULL);
	annotations(&r);
	ck_assert_int_eq(tageval_agreement_compute(r.ann, NULL, &ag, &r.err), TAGEVAL_EINVAL);
	ck_assert_ptr_null(ag);
	add(&r, "w 1 a\nw 2 b\n");
	ag = (struct tageval_agreement *)&r;
	ck_assert_int_eq(tageval_agreement_compute(r.ann, NULL, &ag, &r.err), TAGEVAL_EINVAL);
	ck_assert_int_eq(r.err.code, TAGEVAL_EINVAL);
	ck_assert_ptr_null(ag);
	/* a second annotator with no item in common */
	add(&r, "w 3 a\nv 1 a\n");
	ck_assert_int_eq(tageval_annotations_items(r.ann), 4);
	ag = (struct tageval_agreement *)&r;
	ck_assert_int_eq(tageval_agreement_compute(r.ann, NULL, &ag, &r.err), TAGEVAL_EFORMAT);
	ck_assert_int_eq(r.err.code, TAGEVAL_EFORMAT);
	ck_assert_str_eq(r.err.message, "no item annotated by two or more annotators");
	ck_assert_ptr_null(ag);
	/* a confidence level outside (0, 1) with a bootstrap */
	add(&r, "w 1 a\n");
	struct tageval_agreement_options o;
	tageval_agreement_options_init(&o);
	ck_assert_uint_eq(o.bootstrap, 0);
	o.bootstrap = 10;
	o.confidence = 1.0;
	ag = (struct tageval_agreement *)&r;
	ck_assert_int_eq(tageval_agreement_compute(r.ann, &o, &ag, &r.err), TAGEVAL_EINVAL);
	ck_assert_ptr_null(ag);
	o.confidence = 0.0;
	ck_assert_int_eq(tageval_agreement_compute(r.ann, &o, &ag, &r.err), TAGEVAL_EINVAL);
	/* now item "w 1" has two annotations: fine */
	o.confidence = 0.9;
	const struct tageval_agreement_figures *f = compute(&r, &o);
	ck_assert_uint_eq(f->items, 1);
	finish_run(&r);
	/* a file that cannot be opened */
	start(&r, NULL);
	annotations(&r);
	ck_assert_int_eq(tageval_annotations_read(r.ann, "/nonexistent/ann", &r.err), TAGEVAL_EIO);
	ck_assert_str_eq(r.err.file, "/nonexistent/ann");
	finish_run(&r);
}
END_TEST

/* ------------------------------------------------------------- degenerate data */

START_TEST(degenerate)
{
	static const struct {
		const char *map, *tag;
	} cases[] = {
		{ NULL, "s" },
		{ "P", "B.3" },
		/* 38201 is a leaf of the group map */
		{ "G", "38201" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const char *map = cases[k].map == NULL ? NULL
				  : cases[k].map[0] == 'P' ? PAPER_MAP
							  : "38202 2 38204\n38201\n38203\n";
		char text[64];
		snprintf(text, sizeof text, "w 1 %s\nw 2 %s\n", cases[k].tag, cases[k].tag);
		struct run r;
		const char *files[] = { text, text, text };
		const struct tageval_agreement_figures *f = agree(&r, map, files, 3);
		ck_assert_uint_eq(f->items, 2);
		ck_assert_uint_eq(f->annotations, 6);
		/* every pair agrees fully, chance agreement 1^2 = 1 */
		ck_assert_double_eq_tol(f->pr_a, 1.0, TOL);
		ck_assert_double_eq_tol(f->pr_e, 1.0, TOL);
		ck_assert_int_eq(f->kappa_undefined, TAGEVAL_UNDEFINED_CHANCE);
		ck_assert_double_nan(f->kappa);
		ck_assert_int_eq(f->separate_undefined, TAGEVAL_UNDEFINED_CHANCE);
		ck_assert_double_nan(f->kappa_separate);
		/* D_o = 0, D_e = 0: alpha 0/0 */
		ck_assert_double_eq_tol(f->d_o, 0.0, TOL);
		ck_assert_double_eq_tol(f->d_e, 0.0, TOL);
		ck_assert_int_eq(f->alpha_undefined, TAGEVAL_UNDEFINED_NO_SPREAD);
		ck_assert_double_nan(f->alpha);
		size_t used = 9, left = 9;
		ck_assert_double_nan(tageval_agreement_macro(r.ag, TAGEVAL_KAPPA, &used, &left));
		ck_assert_uint_eq(used, 0);
		ck_assert_uint_eq(left, 1);
		ck_assert_double_nan(tageval_agreement_macro(r.ag, TAGEVAL_ALPHA, &used, &left));
		ck_assert_uint_eq(left, 1);
		finish_run(&r);
	}
}
END_TEST

/* --------------------------------------------------------------- several lexelts */

/*
 *   bank  1: 1/1  2: 1/2  3: 2/2  4: 2/2
 *   run   1: 1/1  2: 3/1  3: 3/3
 *   same  1: 1/1              (one leaf: kappa undefined)
 *   lonely 1: -/2             (ann2 only: no used item)
 * The tag strings 1, 2, 3 are shared by the lexelts.
 */
static const char lex_ann1[] = "bank 1 1\nrun 1 1\nbank 2 1\nsame 1 1\nrun 2 3\nbank 3 2\n"
			       "run 3 3\nbank 4 2\n";
static const char lex_ann2[] = "lonely 1 2\nbank 4 2\nbank 3 2\nbank 2 2\nbank 1 1\n"
			       "run 3 3\nrun 2 1\nrun 1 1\nsame 1 1\n";

/* The lines of @text whose lexelt is @lexelt. */
static size_t subset(const char *text, const char *lexelt, char *out, size_t size)
{
	size_t n = 0, len = strlen(lexelt);
	out[0] = '\0';
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) + 1 : strlen(p);
		if (strncmp(p, lexelt, len) == 0 && p[len] == ' ') {
			ck_assert_uint_lt(n + l, size);
			memcpy(out + n, p, l);
			n += l;
			out[n] = '\0';
		}
		p += l;
	}
	return n;
}

START_TEST(lexelts)
{
	struct run r;
	const char *files[] = { lex_ann1, lex_ann2 };
	const struct tageval_agreement_figures *f = agree(&r, NULL, files, 2);
	ck_assert_uint_eq(tageval_agreement_lexelts(r.ag), 4);
	static const char *const names[] = { "bank", "run", "same", "lonely" };
	for (size_t i = 0; i < 4; i++)
		ck_assert_str_eq(tageval_agreement_lexelt_name(r.ag, i), names[i]);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 0), 0);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 1), 1);

	/* pooled: 8 used items, 6 agreements (all but bank 2, run 2): 3/4;
	 * tag 1: 3 + 3 + 2 = 8, tag 2: 5, tag 3: 3 of 16;
	 * Pr(E) = (64 + 25 + 9)/256 = 98/256 = 49/128;
	 * K = (96/128 - 49/128)/(79/128) = 47/79 */
	ck_assert_uint_eq(f->items, 8);
	ck_assert_double_eq_tol(f->pr_a, 0.75, TOL);
	ck_assert_double_eq_tol(f->pr_e, 49.0 / 128.0, TOL);
	ck_assert_double_eq_tol(f->kappa, 47.0 / 79.0, TOL);
	/* Cohen: ann1 1: 4/8, 2: 2/8, 3: 2/8; ann2 1: 4/8, 2: 3/8, 3: 1/8;
	 * Pr(E) = 16/64 + 6/64 + 2/64 = 3/8; K = (3/4 - 3/8)/(5/8) = 3/5 */
	ck_assert_double_eq_tol(f->pr_e_separate, 3.0 / 8.0, TOL);
	ck_assert_double_eq_tol(f->kappa_separate, 0.6, TOL);
	/* alpha: D_o = 2 * 2/16 = 1/4; sum_{c != k} n_c n_k = 256 - 98 = 158,
	 * D_e = 158/240 = 79/120; alpha = 1 - (1/4)(120/79) = 49/79 */
	ck_assert_double_eq_tol(f->d_o, 0.25, TOL);
	ck_assert_double_eq_tol(f->d_e, 79.0 / 120.0, TOL);
	ck_assert_double_eq_tol(f->alpha, 49.0 / 79.0, TOL);

	/* bank by hand: Pr(A) = 3/4; tag 1: 3/8, tag 2: 5/8;
	 * Pr(E) = 9/64 + 25/64 = 17/32; K = (24/32 - 17/32)/(15/32) = 7/15;
	 * Cohen: (1/2, 1/2).(1/4, 3/4) = 1/2, K = (3/4 - 1/2)/(1/2) = 1/2;
	 * alpha: D_o = 2/8 = 1/4, D_e = 2 * 3 * 5/56 = 15/28,
	 * alpha = 1 - (1/4)(28/15) = 8/15 */
	const struct tageval_agreement_figures *bank = tageval_agreement_lexelt(r.ag, 0);
	ck_assert_uint_eq(bank->items, 4);
	ck_assert_double_eq_tol(bank->pr_a, 0.75, TOL);
	ck_assert_double_eq_tol(bank->pr_e, 17.0 / 32.0, TOL);
	ck_assert_double_eq_tol(bank->kappa, 7.0 / 15.0, TOL);
	ck_assert_double_eq_tol(bank->pr_e_separate, 0.5, TOL);
	ck_assert_double_eq_tol(bank->kappa_separate, 0.5, TOL);
	ck_assert_double_eq_tol(bank->d_o, 0.25, TOL);
	ck_assert_double_eq_tol(bank->d_e, 15.0 / 28.0, TOL);
	ck_assert_double_eq_tol(bank->alpha, 8.0 / 15.0, TOL);
	/* run by hand: Pr(A) = 2/3; tag 1: 3/6, tag 3: 3/6; Pr(E) = 1/2;
	 * K = (2/3 - 1/2)/(1/2) = 1/3; Cohen: ann1 (1/3, 2/3), ann2 (2/3, 1/3),
	 * Pr(E) = 2/9 + 2/9 = 4/9, K = (2/9)/(5/9) = 2/5;
	 * alpha: D_o = 2/6 = 1/3, D_e = 2 * 9/30 = 3/5, 1 - (1/3)(5/3) = 4/9 */
	const struct tageval_agreement_figures *run = tageval_agreement_lexelt(r.ag, 1);
	ck_assert_double_eq_tol(run->pr_a, 2.0 / 3.0, TOL);
	ck_assert_double_eq_tol(run->kappa, 1.0 / 3.0, TOL);
	ck_assert_double_eq_tol(run->kappa_separate, 0.4, TOL);
	ck_assert_double_eq_tol(run->alpha, 4.0 / 9.0, TOL);
	/* same: one leaf only */
	const struct tageval_agreement_figures *same = tageval_agreement_lexelt(r.ag, 2);
	ck_assert_int_eq(same->kappa_undefined, TAGEVAL_UNDEFINED_CHANCE);
	ck_assert_int_eq(same->alpha_undefined, TAGEVAL_UNDEFINED_NO_SPREAD);
	/* lonely: no used item */
	const struct tageval_agreement_figures *lonely = tageval_agreement_lexelt(r.ag, 3);
	ck_assert_uint_eq(lonely->items, 0);
	ck_assert_int_eq(lonely->kappa_undefined, TAGEVAL_UNDEFINED_NO_ITEMS);
	ck_assert_int_eq(lonely->separate_undefined, TAGEVAL_UNDEFINED_NO_ITEMS);
	ck_assert_int_eq(lonely->alpha_undefined, TAGEVAL_UNDEFINED_NO_ITEMS);
	ck_assert_double_nan(lonely->kappa);

	/* macro: (7/15 + 1/3)/2 = (12/15)/2 = 2/5, same and lonely left out */
	size_t used = 9, left = 9;
	ck_assert_double_eq_tol(tageval_agreement_macro(r.ag, TAGEVAL_KAPPA, &used, &left),
				0.4, TOL);
	ck_assert_uint_eq(used, 2);
	ck_assert_uint_eq(left, 2);
	/* (1/2 + 2/5)/2 = 9/20 */
	ck_assert_double_eq_tol(tageval_agreement_macro(r.ag, TAGEVAL_KAPPA_SEPARATE, &used,
							&left),
				9.0 / 20.0, TOL);
	ck_assert_uint_eq(used, 2);
	/* (8/15 + 4/9)/2 = (24/45 + 20/45)/2 = 22/45 */
	ck_assert_double_eq_tol(tageval_agreement_macro(r.ag, TAGEVAL_ALPHA, &used, &left),
				22.0 / 45.0, TOL);
	ck_assert_uint_eq(left, 2);

	/* every lexelt's figures are those of its items computed alone */
	for (size_t i = 0; i < 4; i++) {
		char s1[256], s2[256];
		size_t n1 = subset(lex_ann1, names[i], s1, sizeof s1);
		size_t n2 = subset(lex_ann2, names[i], s2, sizeof s2);
		if (n1 == 0 || n2 == 0) {
			/* lonely: nothing to compute alone */
			ck_assert_uint_eq(tageval_agreement_lexelt(r.ag, i)->items, 0);
			continue;
		}
		struct run alone;
		const char *sub[] = { s1, s2 };
		const struct tageval_agreement_figures *g = agree(&alone, NULL, sub, 2);
		same_figures(tageval_agreement_lexelt(r.ag, i), g);
		finish_run(&alone);
	}
	finish_run(&r);
}
END_TEST

/* -------------------------------------------- estimated downward probabilities */

static double prob(const struct tageval_inventory *inv, const char *leaf, const char *tag)
{
	size_t t, l;
	ck_assert_int_eq(tageval_inventory_find(inv, tag, &t), TAGEVAL_OK);
	ck_assert_int_eq(tageval_inventory_find(inv, leaf, &l), TAGEVAL_OK);
	struct tageval_dist *d = tageval_dist_new();
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(tageval_inventory_distribute(inv, t, d), TAGEVAL_OK);
	double sum = 0.0;
	for (size_t i = 0; i < tageval_dist_size(d); i++)
		sum += tageval_dist_prob(d, i);
	ck_assert_double_eq_tol(sum, 1.0, TOL);
	double p = tageval_dist_get(d, l);
	tageval_dist_free(d);
	return p;
}

static void estimate(struct run *r, const char *corpus, double alpha)
{
	ck_assert_int_eq(tageval_inventory_estimate_downward_buffer(r->inv, corpus, strlen(corpus),
								    "corpus", alpha, &r->err),
			 TAGEVAL_OK);
}

static void check_uniform(const struct tageval_inventory *inv)
{
	ck_assert_double_eq_tol(prob(inv, "A.1a", "A"), 0.25, TOL);
	ck_assert_double_eq_tol(prob(inv, "A.1b", "A"), 0.25, TOL);
	ck_assert_double_eq_tol(prob(inv, "A.2", "A"), 0.5, TOL);
	ck_assert_double_eq_tol(prob(inv, "B.1", "B"), 1.0 / 3.0, TOL);
	ck_assert_double_eq_tol(prob(inv, "B.2", "B"), 1.0 / 3.0, TOL);
	ck_assert_double_eq_tol(prob(inv, "B.3", "B"), 1.0 / 3.0, TOL);
}

/*
 * Each line weighs 1, shared by its distinct tags; weights are ignored:
 *   c(A.1a) = 1 + 1 = 2, c(A.1b) = 1/2, c(A.1) = 1, c(A.2) = 1 + 1/2 = 3/2,
 *   c(B.1) = 1/2 + 1 = 3/2, c(B.2) = 1/2; X is not in the map.
 *   n(A.1) = 1 + 2 + 1/2 = 7/2, n(A.2) = 3/2, n(B.1) = 3/2, n(B.2) = 1/2, n(B.3) = 0
 */
static const char paper_corpus[] = "w 1 A.1a\nw 2 A.1a\nw 3 A.2\nw 4 A.1\nw 5 B.1 B.2\n"
				   "w 6 B.1\nw 7 X\nw 8 A.1b/0.9 A.2/0.1\n";

START_TEST(estimated)
{
	struct run r;
	start(&r, paper_maps[_i]);
	/* alpha = 1 */
	estimate(&r, paper_corpus, 1.0);
	/* A (b = k = 2): D = 7/2 + 3/2 + 2 = 7, P(A.1|A) = (9/2)/7 = 9/14,
	 * P(A.2|A) = (5/2)/7 = 5/14; A.1: D = 2 + 1/2 + 2 = 9/2,
	 * P(A.1a|A.1) = 3/(9/2) = 2/3, P(A.1b|A.1) = (3/2)/(9/2) = 1/3;
	 * dist(A): A.1a 9/14 * 2/3 = 3/7, A.1b 9/14 * 1/3 = 3/14, A.2 5/14 */
	ck_assert_double_eq_tol(prob(r.inv, "A.1a", "A"), 3.0 / 7.0, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "A.1b", "A"), 3.0 / 14.0, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "A.2", "A"), 5.0 / 14.0, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "A.1a", "A.1"), 2.0 / 3.0, TOL);
	/* B: D = 3/2 + 1/2 + 0 + 3 = 5: B.1 (5/2)/5 = 1/2, B.2 (3/2)/5 = 3/10, B.3 1/5 */
	ck_assert_double_eq_tol(prob(r.inv, "B.1", "B"), 0.5, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "B.2", "B"), 0.3, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "B.3", "B"), 0.2, TOL);

	/* alpha = 0 (starts from uniform again) */
	estimate(&r, paper_corpus, 0.0);
	/* A: D = 7/2 + 3/2 = 5, P(A.1|A) = 7/10, P(A.2|A) = 3/10;
	 * A.1: D = 5/2, P(A.1a|A.1) = 4/5, P(A.1b|A.1) = 1/5;
	 * dist(A): A.1a 7/10 * 4/5 = 14/25, A.1b 7/50, A.2 3/10 */
	ck_assert_double_eq_tol(prob(r.inv, "A.1a", "A"), 14.0 / 25.0, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "A.1b", "A"), 7.0 / 50.0, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "A.2", "A"), 0.3, TOL);
	/* B: D = 2: B.1 3/4, B.2 1/4, B.3 0 */
	ck_assert_double_eq_tol(prob(r.inv, "B.1", "B"), 0.75, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "B.2", "B"), 0.25, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "B.3", "B"), 0.0, TOL);

	/* alpha = 0, only A.2 seen: A: D = 0 + 1 = 1, P(A.2|A) = 1, P(A.1|A) = 0;
	 * A.1 and B have D = 0 and stay uniform */
	estimate(&r, "w 1 A.2\n", 0.0);
	ck_assert_double_eq_tol(prob(r.inv, "A.2", "A"), 1.0, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "A.1a", "A"), 0.0, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "A.1a", "A.1"), 0.5, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "B.2", "B"), 1.0 / 3.0, TOL);

	/* an empty corpus: uniform, with either alpha */
	estimate(&r, "", 1.0);
	check_uniform(r.inv);
	estimate(&r, paper_corpus, 1.0);
	estimate(&r, "", 0.0);
	check_uniform(r.inv);
	/* a corpus of tags the map does not know: uniform */
	estimate(&r, "w 1 X\nw 2 Y Z\n", 1.0);
	check_uniform(r.inv);

	/* errors leave the uniform probabilities */
	estimate(&r, paper_corpus, 1.0);
	ck_assert_int_eq(tageval_inventory_estimate_downward_buffer(r.inv, "w 1 A\nw 2\n", 10,
								    "corpus", 1.0, &r.err),
			 TAGEVAL_EFORMAT);
	ck_assert_uint_eq(r.err.line, 2);
	ck_assert_str_eq(r.err.message, "no sense tag");
	check_uniform(r.inv);
	ck_assert_int_eq(tageval_inventory_estimate_downward_buffer(r.inv, "w 1 A\n", 6, "corpus",
								    -1.0, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_inventory_estimate_downward_buffer(r.inv, "w 1 A\n", 6, "corpus",
								    NAN, &r.err),
			 TAGEVAL_EINVAL);

	/* agreement with estimated probabilities (alpha = 1): A against A.1a
	 * agrees dist(A)[A.1a] = 3/7 */
	estimate(&r, paper_corpus, 1.0);
	annotations(&r);
	add(&r, "w 1 A\n");
	add(&r, "w 1 A.1a\n");
	ck_assert_double_eq_tol(compute(&r, NULL)->pr_a, 3.0 / 7.0, TOL);
	finish_run(&r);
}
END_TEST

/* map "38202 2 38204": the group head keeps the mass that b - k leaves */
static const char group_map[] = "38202 2 38204\n38201\n38203\n";
/* c(38204) = 2, c(38202) = 1, c(38201) = 1 */
static const char group_corpus[] = "x 1 38204\nx 2 38204\nx 3 38202\nx 4 38201\n";

START_TEST(estimated_group)
{
	struct run r;
	start(&r, group_map);
	/* an empty corpus: b = 2 gives 1/2 and 1/2 */
	estimate(&r, "", 1.0);
	ck_assert_double_eq_tol(prob(r.inv, "38204", "38204"), 0.5, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "38202", "38204"), 0.5, TOL);
	/* alpha = 0: D = n(38202) + c(38204) = 1 + 2 = 3: child 1/3, itself 2/3 */
	estimate(&r, group_corpus, 0.0);
	ck_assert_double_eq_tol(prob(r.inv, "38202", "38204"), 1.0 / 3.0, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "38204", "38204"), 2.0 / 3.0, TOL);
	/* alpha = 1: D = 1 + 2 + 1 * 2 = 5; P(38202) = (1 + 1)/5 = 2/5,
	 * P(itself) = (2 + 1 * (2 - 1))/5 = 3/5 */
	estimate(&r, group_corpus, 1.0);
	ck_assert_double_eq_tol(prob(r.inv, "38202", "38204"), 0.4, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "38204", "38204"), 0.6, TOL);
	ck_assert_double_eq_tol(prob(r.inv, "38201", "38201"), 1.0, TOL);

	/*
	 * kappa with dist(38204) = {38204 3/5, 38202 2/5}:
	 *   item 1: 38204 vs 38202: 2/5
	 *   item 2: 38204 vs 38204: 9/25 + 4/25 = 13/25
	 *   Pr(A) = (10/25 + 13/25)/2 = 23/50
	 *   pooled over 4 annotations: 38204 3 * 3/5 / 4 = 9/20,
	 *   38202 (3 * 2/5 + 1)/4 = 11/20; Pr(E) = (81 + 121)/400 = 101/200
	 *   K = (92/200 - 101/200)/(99/200) = -9/99 = -1/11
	 *   Cohen: ann1 (3/5, 2/5), ann2 (3/10, 7/10):
	 *   Pr(E) = 9/50 + 14/50 = 23/50 = Pr(A), K = 0
	 */
	annotations(&r);
	add(&r, "x 1 38204\nx 2 38204\n");
	add(&r, "x 1 38202\nx 2 38204\n");
	const struct tageval_agreement_figures *f = compute(&r, NULL);
	ck_assert_double_eq_tol(f->pr_a, 23.0 / 50.0, TOL);
	ck_assert_double_eq_tol(f->pr_e, 101.0 / 200.0, TOL);
	ck_assert_double_eq_tol(f->kappa, -1.0 / 11.0, TOL);
	ck_assert_double_eq_tol(f->pr_e_separate, 23.0 / 50.0, TOL);
	ck_assert_double_eq_tol(f->kappa_separate, 0.0, TOL);
	finish_run(&r);
}
END_TEST

/* ------------------------------------------------------------------- bootstrap */

/* 50 items, 4 labels, the annotators agree on about 7 items in 10. */
static void spread_files(char *a, char *b, size_t size)
{
	static const char labels[] = "pqrs";
	size_t la = 0, lb = 0;
	for (unsigned i = 0; i < 50; i++) {
		char x = labels[(i * 7 + 3) % 4];
		char y = i % 10 < 7 ? x : labels[(i * 3 + 1) % 4];
		la += (size_t)snprintf(a + la, size - la, "s %u %c\n", i, x);
		lb += (size_t)snprintf(b + lb, size - lb, "s %u %c\n", i, y);
	}
}

struct interval {
	int rc;
	double low, high;
	size_t replicates;
};

static void intervals(const char *a, const char *b, size_t bootstrap, unsigned long seed,
		      double confidence, struct interval out[3], double point[3])
{
	struct run r;
	start(&r, NULL);
	annotations(&r);
	add(&r, a);
	add(&r, b);
	struct tageval_agreement_options o;
	tageval_agreement_options_init(&o);
	o.bootstrap = bootstrap;
	o.seed = seed;
	o.confidence = confidence;
	const struct tageval_agreement_figures *f = compute(&r, &o);
	point[0] = f->kappa;
	point[1] = f->kappa_separate;
	point[2] = f->alpha;
	for (int w = 0; w < 3; w++) {
		out[w].low = out[w].high = NAN;
		out[w].replicates = 0;
		out[w].rc = tageval_agreement_interval(r.ag, (enum tageval_coefficient)w,
						       &out[w].low, &out[w].high,
						       &out[w].replicates);
	}
	double lo, hi;
	ck_assert_int_eq(tageval_agreement_interval(r.ag, (enum tageval_coefficient)3, &lo, &hi,
						    NULL),
			 TAGEVAL_ENOTFOUND);
	finish_run(&r);
}

START_TEST(bootstrap)
{
	char a[1024], b[1024];
	spread_files(a, b, sizeof a);
	struct interval i1[3], i1b[3], i2[3], i50[3], none[3];
	double p1[3], p2[3], p0[3];
	intervals(a, b, 200, 1, 0.95, i1, p1);
	intervals(a, b, 200, 1, 0.95, i1b, p2);
	intervals(a, b, 200, 2, 0.95, i2, p2);
	intervals(a, b, 200, 1, 0.5, i50, p2);
	intervals(a, b, 0, 1, 0.95, none, p0);
	int differs = 0;
	for (int w = 0; w < 3; w++) {
		ck_assert_int_eq(i1[w].rc, TAGEVAL_OK);
		/* the point estimates do not depend on the bootstrap */
		ck_assert_double_eq_tol(p1[w], p0[w], TOL);
		ck_assert_double_eq_tol(p1[w], p2[w], TOL);
		/* the same seed gives the same interval, bit for bit */
		ck_assert_double_eq(i1[w].low, i1b[w].low);
		ck_assert_double_eq(i1[w].high, i1b[w].high);
		ck_assert_uint_eq(i1[w].replicates, i1b[w].replicates);
		/* every replicate of this data is defined or almost */
		ck_assert_uint_le(i1[w].replicates, 200);
		ck_assert_uint_ge(i1[w].replicates, 100);
		/* the interval holds the point estimate */
		ck_assert_double_le(i1[w].low, p1[w]);
		ck_assert_double_ge(i1[w].high, p1[w]);
		ck_assert_double_lt(i1[w].low, i1[w].high);
		/* same replicates, a lower confidence: a nested interval */
		ck_assert_double_ge(i50[w].low, i1[w].low);
		ck_assert_double_le(i50[w].high, i1[w].high);
		ck_assert_int_eq(i2[w].rc, TAGEVAL_OK);
		differs |= i2[w].low != i1[w].low || i2[w].high != i1[w].high;
		/* no bootstrap, no interval */
		ck_assert_int_eq(none[w].rc, TAGEVAL_ENOTFOUND);
	}
	/* another seed, other replicates */
	ck_assert(differs);
}
END_TEST

START_TEST(bootstrap_small)
{
	struct interval iv[3];
	double p[3];
	/* one item, a vs b: every replicate is that item.  Pr(A) = 0,
	 * Pr(E) = 1/4 + 1/4 = 1/2, K = (0 - 1/2)/(1/2) = -1; Cohen Pr(E) =
	 * (1, 0).(0, 1) = 0, K = 0; D_o = 1/2 * 2 = 1, D_e = 2/2 = 1, alpha 0 */
	intervals("w 1 a\n", "w 1 b\n", 100, 7, 0.95, iv, p);
	static const double want[3] = { -1.0, 0.0, 0.0 };
	for (int w = 0; w < 3; w++) {
		ck_assert_double_eq_tol(p[w], want[w], TOL);
		ck_assert_int_eq(iv[w].rc, TAGEVAL_OK);
		ck_assert_uint_eq(iv[w].replicates, 100);
		ck_assert_double_eq_tol(iv[w].low, want[w], TOL);
		ck_assert_double_eq_tol(iv[w].high, want[w], TOL);
	}
	/* two items, a/a and a/b: a replicate drawing item 1 twice is all a
	 * (K and alpha undefined, 1 in 4 on average); Pr(A) = 1/2, a 3/4, b 1/4,
	 * Pr(E) = 10/16, K = (8/16 - 10/16)/(6/16) = -1/3 */
	intervals("w 1 a\nw 2 a\n", "w 1 a\nw 2 b\n", 100, 7, 0.95, iv, p);
	ck_assert_double_eq_tol(p[0], -1.0 / 3.0, TOL);
	for (int w = 0; w < 3; w += 2) {
		ck_assert_int_eq(iv[w].rc, TAGEVAL_OK);
		ck_assert_uint_lt(iv[w].replicates, 100);
		ck_assert_uint_ge(iv[w].replicates, 50);
		ck_assert_double_le(iv[w].low, iv[w].high);
	}
	/* everyone on one leaf: no replicate is defined, no interval */
	intervals("w 1 a\nw 2 a\n", "w 1 a\nw 2 a\n", 50, 7, 0.95, iv, p);
	for (int w = 0; w < 3; w++) {
		ck_assert_double_nan(p[w]);
		ck_assert_int_eq(iv[w].rc, TAGEVAL_ENOTFOUND);
	}
}
END_TEST

/*
 * 60 items in two lexelts, the lines of annotator @c in the order
 * k -> (k * step) % 60 (step prime to 60): tags of the paper's tree, some
 * weighted, so that the replicates' sums are fractional.
 */
static void ordered_file(char *out, size_t size, int c, unsigned step)
{
	static const char *const tag[] = { "A", "A.1", "A.1a", "A.1b", "A.2",
					   "B", "B.1", "B.2", "B.3" };
	size_t len = 0;
	for (unsigned k = 0; k < 60; k++) {
		unsigned i = (k * step) % 60;
		unsigned x = (i * 5 + 2) % 9, y = c == 0 || i % 4 ? x : (i * 7 + 1) % 9;
		if (i % 6 == 1)
			len += (size_t)snprintf(out + len, size - len, "%s %u %s/0.7 %s/0.3\n",
						i % 3 ? "s" : "t", i, tag[y], tag[(y + 4) % 9]);
		else
			len += (size_t)snprintf(out + len, size - len, "%s %u %s\n",
						i % 3 ? "s" : "t", i, tag[y]);
	}
}

static void line_order_bounds(const char *map, unsigned step1, unsigned step2,
			      struct interval out[3])
{
	char a[4096], b[4096];
	ordered_file(a, sizeof a, 0, step1);
	ordered_file(b, sizeof b, 1, step2);
	struct run r;
	start(&r, map);
	annotations(&r);
	add(&r, a);
	add(&r, b);
	struct tageval_agreement_options o;
	tageval_agreement_options_init(&o);
	o.bootstrap = 300;
	o.seed = 5;
	compute(&r, &o);
	for (int w = 0; w < 3; w++)
		out[w].rc = tageval_agreement_interval(r.ag, (enum tageval_coefficient)w,
						       &out[w].low, &out[w].high,
						       &out[w].replicates);
	finish_run(&r);
}

/* The same annotations in other line orders: the same bounds, bit for bit
 * (the draws index the items sorted by lexelt and instance id). */
START_TEST(bootstrap_line_order)
{
	const char *map = _i ? PAPER_MAP : NULL;
	struct interval base[3], other[3];
	line_order_bounds(map, 1, 1, base);
	static const unsigned steps[][2] = { { 59, 59 }, { 7, 13 }, { 49, 1 } };
	for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
		line_order_bounds(map, steps[s][0], steps[s][1], other);
		for (int w = 0; w < 3; w++) {
			ck_assert_int_eq(base[w].rc, TAGEVAL_OK);
			ck_assert_int_eq(other[w].rc, TAGEVAL_OK);
			ck_assert_uint_eq(other[w].replicates, base[w].replicates);
			ck_assert_mem_eq(&other[w].low, &base[w].low, sizeof(double));
			ck_assert_mem_eq(&other[w].high, &base[w].high, sizeof(double));
			ck_assert_double_lt(base[w].low, base[w].high);
		}
	}
}
END_TEST

/* --------------------------------------------------------------------- misc */

START_TEST(free_null_and_reasons)
{
	tageval_annotations_free(NULL);
	tageval_agreement_free(NULL);
	for (int why = TAGEVAL_DEFINED; why <= TAGEVAL_UNDEFINED_NO_SPREAD; why++) {
		ck_assert_ptr_nonnull(tageval_undefined_reason(why));
		ck_assert_uint_gt(strlen(tageval_undefined_reason(why)), 0);
	}
	ck_assert_ptr_nonnull(tageval_undefined_reason(-1));
	ck_assert_ptr_nonnull(tageval_undefined_reason(99));
	/* the reasons differ */
	ck_assert_str_ne(tageval_undefined_reason(TAGEVAL_UNDEFINED_CHANCE),
			 tageval_undefined_reason(TAGEVAL_UNDEFINED_NO_SPREAD));
}
END_TEST

/* The annotations of test "missing" in the long form (reference for the
 * figures: the hand computation there), lines shuffled, annotators first
 * seen in the order r3, r1, r2, CSV lines mixed in; after an annotator read
 * from a file of its own. */
START_TEST(long_form)
{
	struct run r;
	start(&r, NULL);
	annotations(&r);
	const char *own = "z 1 q\n";
	add(&r, own);
	const char *text = "m:6 r1 x\n"
			   "m:5,r3,x\n"
			   "m:1 r3 x\n"
			   "!! a comment\n"
			   "m:4 r2 y\n"
			   "m:1,r1,x\n"
			   "m:3 r3 y\n"
			   "m:2 r2 y\n"
			   "m:4 r3 x\n"
			   "m:1 r2 x\n"
			   "m:3 r2 y\n"
			   "m:4 r1 y\n"
			   "m:2 r1 x\n";
	ck_assert_int_eq(tageval_annotations_read_long_buffer(r.ann, text, strlen(text), "long",
							      &r.err),
			 TAGEVAL_OK);
	ck_assert_uint_eq(tageval_annotations_annotators(r.ann), 4);
	ck_assert_ptr_null(tageval_annotations_annotator_name(r.ann, 0));
	ck_assert_str_eq(tageval_annotations_annotator_name(r.ann, 1), "r1");
	ck_assert_str_eq(tageval_annotations_annotator_name(r.ann, 2), "r2");
	ck_assert_str_eq(tageval_annotations_annotator_name(r.ann, 3), "r3");
	ck_assert_ptr_null(tageval_annotations_annotator_name(r.ann, 4));
	ck_assert_ptr_null(tageval_annotations_annotator_name(NULL, 0));
	/* z 1 and m 1 .. m 6 */
	ck_assert_uint_eq(tageval_annotations_items(r.ann), 7);
	const struct tageval_agreement_figures *f = compute(&r, NULL);
	/* the file's annotator has only "z 1", of one annotator; r1 alone on
	 * m 6, r3 alone on m 5 */
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 0), 1);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 1), 1);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 2), 0);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 3), 1);
	/* as in "missing": 4 items used, 10 annotations, Pr(A) = 7/12,
	 * Pr(E) = 1/2, kappa = 1/6, alpha = 7/25 */
	ck_assert_uint_eq(f->items, 4);
	ck_assert_uint_eq(f->annotations, 10);
	ck_assert_double_eq_tol(f->pr_a, 7.0 / 12.0, TOL);
	ck_assert_double_eq_tol(f->pr_e, 0.5, TOL);
	ck_assert_double_eq_tol(f->kappa, 1.0 / 6.0, TOL);
	ck_assert_double_eq_tol(f->alpha, 7.0 / 25.0, TOL);
	/* the lexelts: "z" (the file's) and "m" (before the colon) */
	ck_assert_uint_eq(tageval_agreement_lexelts(r.ag), 2);
	ck_assert_str_eq(tageval_agreement_lexelt_name(r.ag, 1), "m");
	finish_run(&r);
}
END_TEST

/*
 * A lexelt that begins another's name is another lexelt: "ba" is not
 * "bank".  The items in lexelt order (bank 1; ba 1, ba 2), grouped
 * without an order:
 *   bank: "bank 1" x / x: 1 item
 *   ba:   "ba 1" x / y, "ba 2" y / y: 2 items, Pr(A) = (0 + 1)/2 = 1/2
 */
START_TEST(lexelt_prefix_apart)
{
	struct run r;
	const char *files[] = { "bank 1 x\nba 1 x\nba 2 y\n", "ba 2 y\nba 1 y\nbank 1 x\n" };
	agree(&r, NULL, files, 2);
	ck_assert_uint_eq(tageval_agreement_lexelts(r.ag), 2);
	ck_assert_str_eq(tageval_agreement_lexelt_name(r.ag, 0), "bank");
	ck_assert_str_eq(tageval_agreement_lexelt_name(r.ag, 1), "ba");
	ck_assert_uint_eq(tageval_agreement_lexelt(r.ag, 0)->items, 1);
	ck_assert_uint_eq(tageval_agreement_lexelt(r.ag, 1)->items, 2);
	ck_assert_double_eq_tol(tageval_agreement_lexelt(r.ag, 1)->pr_a, 0.5, TOL);
	finish_run(&r);
}
END_TEST

/*
 * The items' lexelts kept as runs, then one per item: ann1 has items
 * "p 0" .. "p 99" (one run), then "q 100", "r 101", "q 102", ... "r 299"
 * (a run each): at item 262 there would be 2 (163 + 1) > 262 + 1 + 64
 * runs, and from there each item has its own lexelt, the 163 runs
 * expanded.  Every tag of ann1 is x; ann2 (lines in reverse) gives x to
 * p and q, y to r.  The lexelts in order p, q, r, 100 items each, not in
 * lexelt order (grouped with an order):
 *   p: Pr(A) = 100/100 = 1; q: 1; r: 0/100 = 0
 */
START_TEST(lexelt_runs_to_items)
{
	size_t size = 300 * 24;
	char *t1 = malloc(size), *t2 = malloc(size);
	ck_assert_ptr_nonnull(t1);
	ck_assert_ptr_nonnull(t2);
	size_t n1 = 0, n2 = 0;
	for (int i = 0; i < 300; i++) {
		const char *lex = i < 100 ? "p" : i % 2 == 0 ? "q" : "r";
		n1 += (size_t)snprintf(t1 + n1, size - n1, "%s %d x\n", lex, i);
		int j = 299 - i;
		const char *lex2 = j < 100 ? "p" : j % 2 == 0 ? "q" : "r";
		n2 += (size_t)snprintf(t2 + n2, size - n2, "%s %d %s\n", lex2, j,
				       lex2[0] == 'r' ? "y" : "x");
	}
	struct run r;
	const char *files[] = { t1, t2 };
	agree(&r, NULL, files, 2);
	ck_assert_uint_eq(tageval_agreement_lexelts(r.ag), 3);
	static const char *const names[] = { "p", "q", "r" };
	static const double pr_a[] = { 1.0, 1.0, 0.0 };
	for (size_t l = 0; l < 3; l++) {
		ck_assert_str_eq(tageval_agreement_lexelt_name(r.ag, l), names[l]);
		ck_assert_uint_eq(tageval_agreement_lexelt(r.ag, l)->items, 100);
		ck_assert(tageval_agreement_lexelt(r.ag, l)->pr_a == pr_a[l]);
	}
	finish_run(&r);
	free(t1);
	free(t2);
}
END_TEST

/* An item without a colon: an instance of the lexelt "". */
START_TEST(long_form_no_lexelt)
{
	struct run r;
	start(&r, NULL);
	annotations(&r);
	const char *text = "7 b x\n7 a x\n8 a x\n8 b y\n";
	ck_assert_int_eq(tageval_annotations_read_long_buffer(r.ann, text, strlen(text), "long",
							      &r.err),
			 TAGEVAL_OK);
	const struct tageval_agreement_figures *f = compute(&r, NULL);
	/* Pr(A) = (1 + 0)/2; Pr(x) = 3/4, Pr(y) = 1/4: Pr(E) = 10/16 */
	ck_assert_double_eq_tol(f->pr_a, 0.5, TOL);
	ck_assert_double_eq_tol(f->pr_e, 10.0 / 16.0, TOL);
	ck_assert_uint_eq(tageval_agreement_lexelts(r.ag), 1);
	ck_assert_str_eq(tageval_agreement_lexelt_name(r.ag, 0), "");
	finish_run(&r);
}
END_TEST

static const struct {
	const char *text;
	uint64_t line;
	const char *message;
} bad_long[] = {
	{ "w:1 a x\nw:2 a y\nw:1 a y\n", 3,
	  "annotator \"a\" annotates item \"w:1\" twice (first at line 1)" },
	{ "w:1,a,x\nw:1 a x\n", 2, "annotator \"a\" annotates item \"w:1\" twice (first at line 1)" },
	{ "w:1 a x\nw:1 b\n", 2, "item \"w:1\" of annotator \"b\" has no tag" },
	{ "w:1\n", 1, "item \"w:1\" has no annotator" },
	{ "w:1,a,\n", 1, "empty tag in a CSV line" },
	{ "w:1,,x\n", 1, "empty annotator in a CSV line" },
	{ ",a,x\n", 1, "empty item in a CSV line" },
	{ "w:1,a\n", 1, "a CSV line has three fields (item,annotator,tag), this one has 2" },
	{ "w:1,a,x,y\n", 1, "a CSV line has three fields (item,annotator,tag), this one has more" },
	{ "w:1 a x/1 y/-1\n", 1, "invalid weight \"y/-1\"" },
	{ "w:1 a x/0\n", 1, "the weights of \"w:1\" do not have a positive finite sum" },
	{ "!! nothing\n", 0, "no annotations" },
	/* the first error in the file's order, whichever kind it is */
	{ "w:1 a x/1 y/-1\nw:2\n", 1, "invalid weight \"y/-1\"" },
	{ "w:1 a x\nw:1 a y\nw:1,a\n", 2,
	  "annotator \"a\" annotates item \"w:1\" twice (first at line 1)" },
};
#define N_BAD_LONG (sizeof bad_long / sizeof bad_long[0])

START_TEST(long_form_errors)
{
	struct run r;
	start(&r, NULL);
	annotations(&r);
	const char *t = bad_long[_i].text;
	ck_assert_int_eq(tageval_annotations_read_long_buffer(r.ann, t, strlen(t), "long", &r.err),
			 TAGEVAL_EFORMAT);
	ck_assert_str_eq(r.err.file, "long");
	ck_assert_uint_eq(r.err.line, bad_long[_i].line);
	ck_assert_str_eq(r.err.message, bad_long[_i].message);
	finish_run(&r);
}
END_TEST

/* A file of 2100 annotators who each annotate item w:K of their own
 * (the diagonal) and the seven items x:1 to x:7: m = 2100 annotators over
 * 2107 items, 2100 + 7 x 2100 = 16800 annotations; 2100 x 2107 = 4424700
 * cells <= 16 x 16800 + 4194304 = 4463104, so it is read, in either order.
 * The check made line by line refused it with the diagonal first: at line
 * 2057, 2057 x 2057 = 4231249 > 16 x 2057 + 4194304 = 4227216.  With 2200
 * annotators (2207 items, 17600 annotations) it is too sparse: 2200 x 2207 =
 * 4855400 > 16 x 17600 + 4194304 = 4475904. */
static char *sparse_text(int m, int reversed)
{
	size_t cap = (size_t)m * 8 * 24, used = 0;
	char *t = malloc(cap);
	ck_assert_ptr_nonnull(t);
	for (int k = 1; k <= m; k++)
		used += (size_t)snprintf(t + used, cap - used, "w:%d u%d a\n", k, k);
	for (int x = 1; x <= 7; x++)
		for (int k = 1; k <= m; k++)
			used += (size_t)snprintf(t + used, cap - used, "x:%d u%d %c\n", x, k,
						 (k + x) % 3 ? 'a' : 'b');
	ck_assert_uint_lt(used, cap);
	if (reversed) { /* the lines backwards */
		char *b = malloc(used + 1);
		ck_assert_ptr_nonnull(b);
		size_t o = 0, end = used;
		while (end > 0) {
			size_t start = end - 1;
			while (start > 0 && t[start - 1] != '\n')
				start--;
			memcpy(b + o, t + start, end - start);
			o += end - start;
			end = start;
		}
		b[o] = '\0';
		free(t);
		t = b;
	}
	return t;
}

START_TEST(long_form_sparse_any_order)
{
	for (int rev = 0; rev < 2; rev++) {
		struct run r;
		start(&r, NULL);
		annotations(&r);
		char *t = sparse_text(2100, rev);
		ck_assert_int_eq(tageval_annotations_read_long_buffer(r.ann, t, strlen(t), "long",
								      &r.err),
				 TAGEVAL_OK);
		ck_assert_uint_eq(tageval_annotations_annotators(r.ann), 2100);
		ck_assert_uint_eq(tageval_annotations_items(r.ann), 2107);
		free(t);
		finish_run(&r);
		start(&r, NULL);
		annotations(&r);
		t = sparse_text(2200, rev);
		ck_assert_int_eq(tageval_annotations_read_long_buffer(r.ann, t, strlen(t), "long",
								      &r.err),
				 TAGEVAL_EFORMAT);
		ck_assert_uint_eq(r.err.line, 0);
		ck_assert_str_eq(r.err.message,
				 "2200 annotators over 2207 items in 17600 annotations: too sparse "
				 "(the annotators x items table would exceed 16 cells per "
				 "annotation plus 4M)");
		free(t);
		finish_run(&r);
	}
}
END_TEST

/*
 * Files long enough for the reading thread (more than half a chunk: 128 KiB
 * in release builds, 2 KiB in the developer build), which finds the ids of
 * the second annotator ahead of the lines until one is not found; from then
 * on the lines add them.  ANN1: "w i" for i = 0 .. 29999, tag "t<i mod 3>";
 * ANN2: the same items from the last to the first, the same tag but for
 * every tenth item (i mod 10 == 0: "t9"), and from its line 20001 on, every
 * 50th line a new item "x j" (j = 0 .. 99) before the line of a "w" item.
 * @dup (case 1-3): a line repeated further on (see below).
 */
#define AHEAD_N 30000
#define AHEAD_M 100

static char *ahead_ann2(int dup, uint64_t *first, uint64_t *again)
{
	size_t cap = (size_t)(AHEAD_N + AHEAD_M + 2) * 24, used = 0;
	char *t = malloc(cap);
	ck_assert_ptr_nonnull(t);
	uint64_t line = 0, x = 0;
	for (int i = AHEAD_N - 1; i >= 0; i--) {
		if (line >= 20000 && (line - 20000) % 50 == 0 && x < AHEAD_M) {
			used += (size_t)snprintf(t + used, cap - used, "x %" PRIu64 " t0\n", x);
			line++;
			/* case 1: "x 5" again 30 lines on (a unit the reading
			 * thread may have looked up before the first was added);
			 * case 2: "x 6" again 5000 lines on */
			if (x == 5 && dup == 1)
				*first = line;
			if (x == 6 && dup == 2)
				*first = line;
			x++;
		}
		if (dup == 1 && *first && line == *first + 29) {
			used += (size_t)snprintf(t + used, cap - used, "x 5 t1\n");
			*again = ++line;
		}
		if (dup == 2 && x > 6 && line == *first + 4999) {
			used += (size_t)snprintf(t + used, cap - used, "x 6 t1\n");
			*again = ++line;
		}
		used += (size_t)snprintf(t + used, cap - used, "w %d t%d\n", i,
					 i % 10 == 0 ? 9 : i % 3);
		line++;
		/* case 3: "w 29000" (line 1000, found ahead) again at line 10000 */
		if (dup == 3 && i == 29000)
			*first = line;
		if (dup == 3 && line == 9999) {
			used += (size_t)snprintf(t + used, cap - used, "w 29000 t0\n");
			*again = ++line;
		}
	}
	return t;
}

START_TEST(ids_found_ahead)
{
	size_t cap = (size_t)AHEAD_N * 16, used = 0;
	char *ann1 = malloc(cap);
	ck_assert_ptr_nonnull(ann1);
	for (int i = 0; i < AHEAD_N; i++)
		used += (size_t)snprintf(ann1 + used, cap - used, "w %d t%d\n", i, i % 3);
	uint64_t first = 0, again = 0;
	char *ann2 = ahead_ann2(_i, &first, &again);
	struct run r;
	start(&r, NULL);
	annotations(&r);
	add(&r, ann1);
	int rc = tageval_annotations_read_buffer(r.ann, ann2, strlen(ann2), "ann2", &r.err);
	if (_i == 0) {
		ck_assert_int_eq(rc, TAGEVAL_OK);
		/* 30000 items of both, 100 of ANN2 only */
		ck_assert_uint_eq(tageval_annotations_items(r.ann), AHEAD_N + AHEAD_M);
		const struct tageval_agreement_figures *f = compute(&r, NULL);
		ck_assert_uint_eq(f->items, AHEAD_N);
		ck_assert_uint_eq(tageval_agreement_single(r.ag, 0), 0);
		ck_assert_uint_eq(tageval_agreement_single(r.ag, 1), AHEAD_M);
		/* the tags differ on 3000 of the 30000 items: 27000 / 30000 */
		ck_assert_double_eq_tol(f->pr_a, 0.9, TOL);
	} else {
		char want[96];
		ck_assert_int_eq(rc, TAGEVAL_EFORMAT);
		ck_assert_uint_eq(r.err.line, again);
		/* "x j" is line 20001 + 50 j (x 0 after the 20000 lines of
		 * "w 29999" .. "w 10000", then one every 50 lines): "x 5" at
		 * 20251, again at 20251 + 30 = 20281; "x 6" at 20301, again at
		 * 20301 + 5000 = 25301 (the last "x", 99, is at 24951); "w 29000"
		 * is the 1000th line, again at 10000 */
		snprintf(want, sizeof want, "duplicate instance \"%s\" (first at line %" PRIu64 ")",
			 _i == 1 ? "x 5" : _i == 2 ? "x 6" : "w 29000", first);
		ck_assert_str_eq(r.err.message, want);
		ck_assert_uint_eq(first, _i == 1 ? 20251 : _i == 2 ? 20301 : 1000);
		ck_assert_uint_eq(again, _i == 1 ? 20281 : _i == 2 ? 25301 : 10000);
	}
	finish_run(&r);
	free(ann1);
	free(ann2);
}
END_TEST

/*
 * A file that fails, read first, second or third (case _i), among files long
 * enough for the reading thread, which interns the item ids of the first
 * file (and may intern some past the line that fails: they are cut back).
 * GOOD: "w i t<i mod 3>" for i = 0 .. 29999, line i + 1; the good files are
 * read forward and backward; BAD: GOOD with line 10001 ("w 10000") left
 * without its tag (read forward): "instance "w 10000" has no sense tag" at
 * line 10001, the 10000 lines before it kept (w 0 .. w 9999).
 */
static char *failing_text(int dir, int bad)
{
	size_t cap = (size_t)AHEAD_N * 16, used = 0;
	char *t = malloc(cap);
	ck_assert_ptr_nonnull(t);
	for (int k = 0; k < AHEAD_N; k++) {
		int i = dir > 0 ? k : AHEAD_N - 1 - k;
		if (bad && i == 10000)
			used += (size_t)snprintf(t + used, cap - used, "w %d\n", i);
		else
			used += (size_t)snprintf(t + used, cap - used, "w %d t%d\n", i, i % 3);
	}
	return t;
}

START_TEST(failing_file)
{
	struct run r;
	start(&r, NULL);
	annotations(&r);
	for (int c = 0; c < 3; c++) {
		/* one good file backward: the second, or the third after a
		 * second that fails */
		int back = c == 1 ? _i != 1 : c == 2 && _i == 1;
		char *t = failing_text(back ? -1 : 1, c == _i);
		int rc = tageval_annotations_read_buffer(r.ann, t, strlen(t), "ann", &r.err);
		free(t);
		if (c != _i) {
			ck_assert_int_eq(rc, TAGEVAL_OK);
			/* every item known */
			ck_assert_uint_eq(tageval_annotations_items(r.ann), AHEAD_N);
			continue;
		}
		ck_assert_int_eq(rc, TAGEVAL_EFORMAT);
		ck_assert_uint_eq(r.err.line, 10001);
		ck_assert_str_eq(r.err.message, "instance \"w 10000\" has no sense tag");
		/* read first: only the 10000 items of its lines before the one
		 * that fails (not those the reading thread interned past it) */
		ck_assert_uint_eq(tageval_annotations_items(r.ann), _i == 0 ? 10000 : AHEAD_N);
	}
	/* the annotator that failed keeps its 10000 annotations: 30000 items
	 * of two or three annotators, 30000 + 30000 + 10000 annotations, the
	 * same tags everywhere: Pr(A) = 1; 20000 items have two annotations */
	ck_assert_uint_eq(tageval_annotations_annotators(r.ann), 3);
	const struct tageval_agreement_figures *f = compute(&r, NULL);
	ck_assert_uint_eq(f->items, AHEAD_N);
	ck_assert_uint_eq(f->annotations, 70000);
	ck_assert_uint_eq(f->complete, 10000);
	ck_assert_double_eq_tol(f->pr_a, 1.0, TOL);
	finish_run(&r);
}
END_TEST

/*
 * The first file fails at line 10,001 ("w 10000" has no tag) after the
 * reading side interned ids past it (the first unit alone, made before any
 * line is handed over, holds ~24,000 lines at the 256 KiB chunk): they are
 * cut back, so a second file of "w 0" .. "w 19999" finds w 0 .. w 9999 and
 * adds w 10000 .. w 19999 as new items: 10,000 + 10,000 = 20,000 items.
 * Without the cut those ids would be found though never counted: fewer.
 */
START_TEST(failing_first_cut)
{
	struct run r;
	start(&r, NULL);
	annotations(&r);
	char *t = failing_text(1, 1);
	ck_assert_int_eq(tageval_annotations_read_buffer(r.ann, t, strlen(t), "ann", &r.err),
			 TAGEVAL_EFORMAT);
	ck_assert_uint_eq(tageval_annotations_items(r.ann), 10000);
	size_t used = 0, cap = (size_t)AHEAD_N * 16;
	for (int i = 0; i < 20000; i++)
		used += (size_t)snprintf(t + used, cap - used, "w %d t%d\n", i, i % 3);
	ck_assert_int_eq(tageval_annotations_read_buffer(r.ann, t, used, "ann2", &r.err),
			 TAGEVAL_OK);
	free(t);
	ck_assert_uint_eq(tageval_annotations_items(r.ann), 20000);
	finish_run(&r);
}
END_TEST

/*
 * The extent of each annotation in the pool (its entries up to the next
 * record's start) after the second file's entries are laid out again in
 * item order.  No map; the tags get ids x 0, y 1, z 2, w2 3 (first seen),
 * the entries come in id order.  ann2's lines are in reverse item order:
 * read, its pool records are c (2 entries), b (4), a (3); laid out again,
 * a (3), b (4), c (2): every start moves (a start left behind would cut
 * a's 3 entries to 2, a start not made would run b's into c's).
 *   ann1: a {x, y} 1/2 each; b {z} inline; c {x, y, z} 1/3 each;
 *         d y/3 z/1: y 3/4, z 1/4
 *   ann2: a z/1 x/1 y/2: total 4, x 1/4, y 2/4, z 1/4; b {x, y, z, w2}
 *         1/4 each; c {y, z} 1/2 each; d {x} inline
 */
START_TEST(pool_extents)
{
	static const char *const files[] = {
		"w a x y\nw b z\nw c x y z\nw d y/3 z/1\n",
		"w d x\nw c y z\nw b x y z w2\nw a z/1 x/1 y/2\n",
	};
	static const struct {
		size_t c, item, n;
		const char *tags[4];
		double share[4];
	} want[] = {
		{ 0, 0, 2, { "x", "y" }, { 0.5, 0.5 } },
		{ 0, 1, 1, { "z" }, { 1.0 } },
		{ 0, 2, 3, { "x", "y", "z" }, { 1.0 / 3, 1.0 / 3, 1.0 / 3 } },
		{ 0, 3, 2, { "y", "z" }, { 0.75, 0.25 } },
		{ 1, 0, 3, { "x", "y", "z" }, { 0.25, 0.5, 0.25 } },
		{ 1, 1, 4, { "x", "y", "z", "w2" }, { 0.25, 0.25, 0.25, 0.25 } },
		{ 1, 2, 2, { "y", "z" }, { 0.5, 0.5 } },
		{ 1, 3, 1, { "x" }, { 1.0 } },
	};
	struct run r;
	start(&r, NULL);
	annotations(&r);
	add(&r, files[0]);
	add(&r, files[1]);
	ck_assert_uint_eq(tageval_annotations_items(r.ann), 4);
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
		const char *tags[8];
		double share[8];
		size_t n = tageval_annotations_entries(r.ann, want[k].c, want[k].item, tags, share,
						       8);
		ck_assert_msg(n == want[k].n, "annotator %zu item %zu: %zu entries", want[k].c,
			      want[k].item, n);
		for (size_t i = 0; i < n; i++) {
			ck_assert_str_eq(tags[i], want[k].tags[i]);
			ck_assert(share[i] == want[k].share[i]);
		}
	}
	finish_run(&r);
}
END_TEST

/* ------------------------------------------------ lexelts shared out in parts */

/*
 * 13 lexelts L0..L12 of unequal sizes n_l = 5 + (7 l mod 19): 5 12 19 7 14
 * 21 9 16 23 11 18 6 13, 174 items in all.  Item j of L_l: annotator 1
 * says t((j + l) mod 3), annotator 2 t((j^2 + 2 l) mod 3) but for the items
 * with (j + l) mod 6 = 5, which it leaves out (annotator 1's alone).  With
 * 3 tags and 174 items, tageval_agreement_compute() cuts the lexelts into
 * 7 parts (1 + 174 / (4 x 3 + 16)), runs of 1 to 3 lexelts; with the map
 * of split_map (403 tags), in one (1 + 174 / 1628 = 1).
 */
#define SPLIT_LEX 13

static unsigned split_size(unsigned l)
{
	return 5 + 7 * l % 19;
}

static int split_left_out(unsigned l, unsigned j)
{
	return (j + l) % 6 == 5;
}

static void split_files(struct sbuf *a, struct sbuf *b)
{
	for (unsigned l = 0; l < SPLIT_LEX; l++)
		for (unsigned j = 0; j < split_size(l); j++)
			sb_printf(a, "L%u L%u.%u t%u\n", l, l, j, (j + l) % 3);
	for (unsigned l = SPLIT_LEX; l-- > 0;) /* annotator 2 backwards */
		for (unsigned j = split_size(l); j-- > 0;)
			if (!split_left_out(l, j))
				sb_printf(b, "L%u L%u.%u t%u\n", l, l, j, (j * j + 2 * l) % 3);
}

/*
 * The figures of lexelts [from, to) by the textbook formulas, from counts:
 * N used items, A agreements, c1[t] and c2[t] the two annotators' tags.
 * Pr(A) = A/N; Scott: Pr(E) = sum ((c1 + c2) / 2N)^2; Cohen: sum (c1/N)(c2/N);
 * alpha, n = 2N annotations: D_o = 2 (N - A) / n, D_e = 1 - (sum (c1 + c2)^2
 * - n) / (n (n - 1)).
 */
static void split_expected(unsigned from, unsigned to, struct tageval_agreement_figures *f,
			   size_t *single)
{
	double n_used = 0, agree = 0, c1[3] = { 0 }, c2[3] = { 0 };
	*single = 0;
	for (unsigned l = from; l < to; l++)
		for (unsigned j = 0; j < split_size(l); j++) {
			if (split_left_out(l, j)) {
				(*single)++;
				continue;
			}
			unsigned x = (j + l) % 3, y = (j * j + 2 * l) % 3;
			n_used++;
			agree += x == y;
			c1[x]++;
			c2[y]++;
		}
	double pe = 0, sep = 0, sq = 0, n = 2 * n_used;
	for (int t = 0; t < 3; t++) {
		pe += (c1[t] + c2[t]) / n * ((c1[t] + c2[t]) / n);
		sep += c1[t] / n_used * (c2[t] / n_used);
		sq += (c1[t] + c2[t]) * (c1[t] + c2[t]);
	}
	memset(f, 0, sizeof *f);
	f->items = f->complete = (size_t)n_used;
	f->annotations = (size_t)n;
	f->pr_a = agree / n_used;
	f->pr_e = pe;
	f->kappa = (f->pr_a - pe) / (1 - pe);
	f->pr_e_separate = sep;
	f->kappa_separate = (f->pr_a - sep) / (1 - sep);
	f->d_o = 2 * (n_used - agree) / n;
	f->d_e = 1 - (sq - n) / (n * (n - 1));
	f->alpha = 1 - f->d_o / f->d_e;
}

/* The split run's figures, bit for bit those of the one-part run. */
static void same_bits(const struct tageval_agreement_figures *a,
		      const struct tageval_agreement_figures *b)
{
	same_figures(a, b);
	ck_assert(memcmp(&a->pr_a, &b->pr_a, sizeof a->pr_a) == 0);
	ck_assert(memcmp(&a->pr_e, &b->pr_e, sizeof a->pr_e) == 0);
	ck_assert(memcmp(&a->kappa, &b->kappa, sizeof a->kappa) == 0);
	ck_assert(memcmp(&a->kappa_separate, &b->kappa_separate, sizeof a->kappa) == 0);
	ck_assert(memcmp(&a->alpha, &b->alpha, sizeof a->alpha) == 0);
}

/* t0 t1 t2 and 400 more tags, all roots: the same leaves, one part */
static char *split_map(void)
{
	struct sbuf m = { 0 };
	sb_printf(&m, "t0\nt1\nt2\n");
	for (int i = 0; i < 400; i++)
		sb_printf(&m, "x%d\n", i);
	return m.s;
}

static void split_run(struct run *r, const char *map, const char *a, const char *b)
{
	start(r, map);
	annotations(r);
	add(r, a);
	add(r, b);
	struct tageval_agreement_options o;
	tageval_agreement_options_init(&o);
	o.bootstrap = 40;
	o.seed = 3;
	compute(r, &o);
}

START_TEST(split_lexelts)
{
	struct sbuf a = { 0 }, b = { 0 };
	split_files(&a, &b);
	char *map = split_map();
	struct run r, one;
	split_run(&r, NULL, a.s, b.s);
	split_run(&one, map, a.s, b.s);
	ck_assert_uint_eq(tageval_agreement_lexelts(r.ag), SPLIT_LEX);
	struct tageval_agreement_figures want;
	size_t single, all_single = 0;
	for (unsigned l = 0; l < SPLIT_LEX; l++) {
		char name[8];
		snprintf(name, sizeof name, "L%u", l);
		ck_assert_str_eq(tageval_agreement_lexelt_name(r.ag, l), name);
		split_expected(l, l + 1, &want, &single);
		all_single += single;
		same_figures(tageval_agreement_lexelt(r.ag, l), &want);
		same_bits(tageval_agreement_lexelt(r.ag, l), tageval_agreement_lexelt(one.ag, l));
	}
	/* 28 of the 174 items have (j + l) mod 6 = 5 */
	ck_assert_uint_eq(all_single, 28);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 0), 28);
	ck_assert_uint_eq(tageval_agreement_single(r.ag, 1), 0);
	split_expected(0, SPLIT_LEX, &want, &single);
	ck_assert_uint_eq(want.items, 146);
	same_figures(tageval_agreement_pooled(r.ag), &want);
	same_bits(tageval_agreement_pooled(r.ag), tageval_agreement_pooled(one.ag));
	/* the bootstrap resamples every used item once in each run */
	for (int w = 0; w < 3; w++) {
		double lo[2], hi[2];
		size_t n[2];
		ck_assert_int_eq(tageval_agreement_interval(r.ag, (enum tageval_coefficient)w,
							    &lo[0], &hi[0], &n[0]),
				 TAGEVAL_OK);
		ck_assert_int_eq(tageval_agreement_interval(one.ag, (enum tageval_coefficient)w,
							    &lo[1], &hi[1], &n[1]),
				 TAGEVAL_OK);
		ck_assert(memcmp(lo, lo + 1, sizeof *lo) == 0 && memcmp(hi, hi + 1, sizeof *hi) == 0);
		ck_assert_uint_eq(n[0], n[1]);
	}
	finish_run(&r);
	finish_run(&one);
	free(map);
	free(a.s);
	free(b.s);
}
END_TEST

/* By key "Ll Ll.j", bytewise: the bootstrap's order (a space sorts before
 * every character of these names, as the lexelt-first order needs). */
static int by_key_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The items' keys "Ll Ll.j" (each with its two tags 0-2 in the bytes past
 * its NUL) sorted bytewise, as the bootstrap draws them; their tags into
 * @xs and @ys in that order; the keys freed. */
static void tags_by_key(char **key, size_t n, unsigned *xs, unsigned *ys)
{
	qsort(key, n, sizeof *key, by_key_str);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(key[i]);
		xs[i] = (unsigned)key[i][len + 1];
		ys[i] = (unsigned)key[i][len + 2];
		free(key[i]);
	}
}

/*
 * A bootstrap written here: @nb replicates of MT19937 (seed @seed) drawing
 * @n indices each (gsl_rng_uniform_int), each replicate's Scott kappa from
 * its counts of the items' tags @xs and @ys (0-2): Pr(A) the drawn
 * agreements over n, Pr(E) = sum ((c1 + c2) / 2n)^2; into @kappa, sorted.
 */
static void hand_bootstrap(const unsigned *xs, const unsigned *ys, size_t n, int nb,
			   unsigned long seed, double *kappa)
{
	unsigned *count = malloc(n * sizeof *count);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	ck_assert(count != NULL && rng != NULL);
	gsl_rng_set(rng, seed);
	for (int r = 0; r < nb; r++) {
		memset(count, 0, n * sizeof *count);
		for (size_t i = 0; i < n; i++)
			count[gsl_rng_uniform_int(rng, n)]++;
		double agree = 0, c[3] = { 0 };
		for (size_t i = 0; i < n; i++) {
			agree += count[i] * (xs[i] == ys[i]);
			c[xs[i]] += count[i];
			c[ys[i]] += count[i];
		}
		double pe = 0;
		for (int t = 0; t < 3; t++)
			pe += c[t] / (2.0 * (double)n) * (c[t] / (2.0 * (double)n));
		kappa[r] = (agree / (double)n - pe) / (1 - pe);
	}
	gsl_rng_free(rng);
	free(count);
	gsl_sort(kappa, 1, (size_t)nb);
}

/* The library's kappa interval of annotators @a and @b (@nb replicates,
 * seed @seed, level @conf) against the quantiles of the sorted @kappa. */
static void expect_interval(const char *a, const char *b, int nb, unsigned long seed,
			    double conf, const double *kappa)
{
	double tail = (1 - conf) / 2, point[3];
	struct interval got[3];
	intervals(a, b, (size_t)nb, seed, conf, got, point);
	ck_assert_int_eq(got[TAGEVAL_KAPPA].rc, TAGEVAL_OK);
	ck_assert_uint_eq(got[TAGEVAL_KAPPA].replicates, (size_t)nb);
	ck_assert_double_eq_tol(got[TAGEVAL_KAPPA].low,
				gsl_stats_quantile_from_sorted_data(kappa, 1, (size_t)nb, tail), TOL);
	ck_assert_double_eq_tol(got[TAGEVAL_KAPPA].high,
				gsl_stats_quantile_from_sorted_data(kappa, 1, (size_t)nb, 1 - tail),
				TOL);
}

/*
 * The bootstrap of the split data (146 items: no parts, below
 * TV_BOOT_PARALLEL_MIN; split_bootstrap_parts has them) against one
 * written here: the 146
 * used items sorted by key "Ll Ll.j", GSL's MT19937 of seed 3 drawing 146
 * indices (gsl_rng_uniform_int) for each of 30 replicates in turn, each
 * replicate's Scott kappa from its weighted counts (split_expected's
 * formulas), the intervals GSL's quantiles of the sorted values at nine
 * confidence levels (0.1 .. 0.9: nearly every order statistic read), so
 * that a replicate drawn out of turn, dropped or counted twice shows.
 */
START_TEST(split_bootstrap)
{
	enum { B = 30, NUSED = 146 };
	struct sbuf a = { 0 }, b = { 0 };
	split_files(&a, &b);
	char *key[NUSED];
	unsigned xs[NUSED], ys[NUSED];
	size_t n = 0;
	for (unsigned l = 0; l < SPLIT_LEX; l++)
		for (unsigned j = 0; j < split_size(l); j++)
			if (!split_left_out(l, j)) {
				key[n] = malloc(32);
				ck_assert_ptr_nonnull(key[n]);
				/* the tags in the key's last bytes, after a NUL */
				int len = snprintf(key[n], 32, "L%u L%u.%u", l, l, j);
				key[n][len + 1] = (char)((j + l) % 3);
				key[n][len + 2] = (char)((j * j + 2 * l) % 3);
				n++;
			}
	ck_assert_uint_eq(n, NUSED);
	tags_by_key(key, n, xs, ys);
	double kappa[B];
	hand_bootstrap(xs, ys, n, B, 3, kappa);
	for (int k = 1; k <= 9; k++)
		expect_interval(a.s, b.s, B, 3, k / 10.0, kappa);
	free(a.s);
	free(b.s);
}
END_TEST

/*
 * The bootstrap in parts (TV_BOOT_PARALLEL_MIN items or more: 65,536):
 * 7 lexelts of 10,000 items "Ll Ll.j", annotator 1 tag t((j + l) mod 3),
 * annotator 2 t((j j + 2 l) mod 3), its lines backwards; 70,000 used items
 * (8 parts a replicate, the next replicate's draws made meanwhile), against
 * a bootstrap written here as in split_bootstrap: the items sorted by key,
 * MT19937 of seed 3 drawing 70,000 a replicate, Scott's kappa by hand, the
 * interval GSL's quantiles of 8 replicates at three levels.
 */
START_TEST(split_bootstrap_parts)
{
	enum { B = 8, NL = 7, PER = 10000, N = NL * PER };
	struct sbuf a = { 0 }, b = { 0 };
	for (unsigned l = 0; l < NL; l++)
		for (unsigned j = 0; j < PER; j++)
			sb_printf(&a, "L%u L%u.%u t%u\n", l, l, j, (j + l) % 3);
	for (unsigned l = NL; l-- > 0;)
		for (unsigned j = PER; j-- > 0;)
			sb_printf(&b, "L%u L%u.%u t%u\n", l, l, j, (j * j + 2 * l) % 3);
	char **key = malloc(N * sizeof *key);
	unsigned *xs = malloc(N * sizeof *xs), *ys = malloc(N * sizeof *ys);
	ck_assert(key && xs && ys);
	size_t n = 0;
	for (unsigned l = 0; l < NL; l++)
		for (unsigned j = 0; j < PER; j++) {
			key[n] = malloc(32);
			ck_assert_ptr_nonnull(key[n]);
			int len = snprintf(key[n], 32, "L%u L%u.%u", l, l, j);
			key[n][len + 1] = (char)((j + l) % 3);
			key[n][len + 2] = (char)(((unsigned long)j * j + 2 * l) % 3);
			n++;
		}
	tags_by_key(key, n, xs, ys);
	double kappa[B];
	hand_bootstrap(xs, ys, n, B, 3, kappa);
	static const double levels[] = { 0.2, 0.5, 0.9 };
	for (int k = 0; k < 3; k++)
		expect_interval(a.s, b.s, B, 3, levels[k], kappa);
	free(key);
	free(xs);
	free(ys);
	free(a.s);
	free(b.s);
}
END_TEST

static Suite *agreement_suite(void)
{
	Suite *s = suite_create("agreement");
	TCase *tc = tcase_create("reference");
	tcase_add_loop_test(tc, paper_example, 0, 3);
	tcase_add_test(tc, identical_tags);
	tcase_add_loop_test(tc, flat_two, 0, 2);
	tcase_add_test(tc, flat_three);
	tcase_add_test(tc, missing);
	tcase_add_test(tc, degenerate);
	tcase_add_test(tc, lexelts);
	tcase_add_test(tc, split_lexelts);
	tcase_add_test(tc, split_bootstrap);
	tcase_add_test(tc, split_bootstrap_parts);
	suite_add_tcase(s, tc);
	tc = tcase_create("annotations");
	tcase_add_loop_test(tc, weighted_lines, 0, (int)N_WEIGHTED);
	tcase_add_loop_test(tc, annotation_errors, 0, (int)N_BAD);
	tcase_add_test(tc, long_form_sparse_any_order);
	tcase_add_test(tc, compute_errors);
	tcase_add_test(tc, free_null_and_reasons);
	tcase_add_test(tc, long_form);
	tcase_add_test(tc, long_form_no_lexelt);
	tcase_add_test(tc, lexelt_prefix_apart);
	tcase_add_test(tc, lexelt_runs_to_items);
	tcase_add_loop_test(tc, long_form_errors, 0, (int)N_BAD_LONG);
	tcase_add_loop_test(tc, ids_found_ahead, 0, 4);
	tcase_add_loop_test(tc, failing_file, 0, 3);
	tcase_add_test(tc, failing_first_cut);
	tcase_add_test(tc, pool_extents);
	suite_add_tcase(s, tc);
	tc = tcase_create("estimates");
	tcase_add_loop_test(tc, estimated, 0, 3);
	tcase_add_test(tc, estimated_group);
	suite_add_tcase(s, tc);
	tc = tcase_create("bootstrap");
	tcase_add_test(tc, bootstrap);
	tcase_add_test(tc, bootstrap_small);
	tcase_add_loop_test(tc, bootstrap_line_order, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(agreement_suite());
}
