/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Word sense induction: the contingency tables of spec 004 (Tables 1 and 3)
 * through tageval_wsi_table_figures() and through key files, the degenerate
 * clusterings, the reading rules of ../shared/spec/reference-wsi.md
 * (sections 2-4 and 9) and every error of the readers.
 *
 * Expected values are the paper's (spec 004), those of reference-wsi.md
 * section 5, or worked out by hand; the arithmetic is in the comments.
 * Notation: a table lists its clusters as rows [n(k, class 1), ...]; N is
 * the number of instances; logarithms are natural (V-measure does not depend
 * on the base; the 2007 entropy divides by log q).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-common.h"

/* ------------------------------------------------------------- helpers */

/*
 * Appends one word's instances to a gold key and a clusters file: cell
 * (k, c) of the nk x nc table @m gives m[k * nc + c] instances of class
 * "gsC" placed in cluster "clK" (C, K from 1), instance ids WORD.1, WORD.2...
 * The clusters file lists the instances in the reverse order of the key.
 */
static void table_files(const char *word, const int *m, size_t nk, size_t nc,
			struct sbuf *gold, struct sbuf *sys)
{
	size_t n = 0;
	for (size_t i = 0; i < nk * nc; i++)
		n += (size_t)m[i];
	size_t *cl = malloc(n * sizeof *cl);
	ck_assert_ptr_nonnull(cl);
	size_t id = 0;
	for (size_t k = 0; k < nk; k++)
		for (size_t c = 0; c < nc; c++)
			for (int j = 0; j < m[k * nc + c]; j++) {
				sb_printf(gold, "%s %s.%zu gs%zu\n", word, word, id + 1, c + 1);
				cl[id++] = k + 1;
			}
	for (size_t i = n; i > 0; i--)
		sb_printf(sys, "%s %s.%zu cl%zu\n", word, word, i, cl[i - 1]);
	free(cl);
}

/* Reads both files from strings; returns the object or NULL with *rc set. */
static struct tageval_wsi *load(const char *gold, const char *sys, int *rc,
				struct tageval_error *err)
{
	struct tageval_wsi *w = tageval_wsi_new();
	ck_assert_ptr_nonnull(w);
	memset(err, 0, sizeof *err);
	*rc = tageval_wsi_read_gold_buffer(w, gold, strlen(gold), "gold", err);
	if (*rc == TAGEVAL_OK)
		*rc = tageval_wsi_read_clusters_buffer(w, sys, strlen(sys), "clusters", err);
	if (*rc != TAGEVAL_OK) {
		tageval_wsi_free(w);
		return NULL;
	}
	return w;
}

/* Reads and evaluates; fails the test on any error. */
static struct tageval_wsi_result *evaluate(const char *gold, const char *sys, const char *pos,
					   double beta)
{
	struct tageval_error err;
	int rc;
	struct tageval_wsi *w = load(gold, sys, &rc, &err);
	if (w == NULL)
		ck_abort_msg("reading failed: %s:%" PRIu64 ": %s", err.file, err.line, err.message);
	struct tageval_wsi_options o;
	tageval_wsi_options_init(&o);
	ck_assert_double_eq(o.beta, 1.0);
	ck_assert_ptr_null(o.pos);
	o.pos = pos;
	o.beta = beta;
	struct tageval_wsi_result *r = NULL;
	rc = tageval_wsi_evaluate(w, &o, &r, &err);
	if (rc != TAGEVAL_OK)
		ck_abort_msg("evaluation failed: %s", err.message);
	ck_assert_ptr_nonnull(r);
	tageval_wsi_free(w);
	return r;
}

/* The figures of the only word of a result. */
static const struct tageval_wsi_figures *only_word(const struct tageval_wsi_result *r)
{
	ck_assert_uint_eq(tageval_wsi_result_words(r), 1);
	return tageval_wsi_result_figures(r, 0);
}

/* Checks the figures that must agree between one word and the total over it. */
static void same_figures(const struct tageval_wsi_figures *a, const struct tageval_wsi_figures *b)
{
	ck_assert_uint_eq(a->instances, b->instances);
	ck_assert_double_eq_tol(a->clusters, b->clusters, TOL);
	ck_assert_double_eq_tol(a->clusters_2007, b->clusters_2007, TOL);
	ck_assert_double_eq_tol(a->classes, b->classes, TOL);
	ck_assert_double_eq_tol(a->v_measure, b->v_measure, TOL);
	ck_assert_double_eq_tol(a->homogeneity, b->homogeneity, TOL);
	ck_assert_double_eq_tol(a->completeness, b->completeness, TOL);
	ck_assert_double_eq_tol(a->paired_precision, b->paired_precision, TOL);
	ck_assert_double_eq_tol(a->paired_recall, b->paired_recall, TOL);
	ck_assert_double_eq_tol(a->paired_fscore, b->paired_fscore, TOL);
	ck_assert_double_eq_tol(a->fscore, b->fscore, TOL);
	ck_assert_double_eq_tol(a->purity, b->purity, TOL);
	ck_assert_double_eq_tol(a->entropy, b->entropy, TOL);
}

/* ----------------------------------------------------- spec 004, the tables */

/*
 * Table 1: [500,100,100] [100,500,100] [100,100,500], N = 2100, every
 * cluster and every class of 700.
 *   2007 F-score: F(gs_i, cl_i) = 2 * 500 / (700 + 700) = 5/7 is each class's
 *     best, so F-score = sum 700/2100 * 5/7 = 5/7 = 0.714 (spec 004).
 *   purity = (500 + 500 + 500) / 2100 = 5/7.
 *   entropy: each cluster is (5/7, 1/7, 1/7), so
 *     E = [5/7 log(7/5) + 2/7 log 7] / log 3 = (log 7 - 5/7 log 5) / log 3
 *     = 0.72483 (0.725).
 *   V-measure: H(C) = H(K) = log 3, H(C|K) = H(K|C) = log 7 - 5/7 log 5,
 *     h = c = V = 1 - (log 7 - 5/7 log 5) / log 3 = 0.27517 (0.275).
 *   paired: cluster pairs = class pairs = 3 C(700,2) = 733950, common =
 *     3 C(500,2) + 6 C(100,2) = 374250 + 29700 = 403950; P = R = F =
 *     403950/733950 = 0.5504 (fscore.jar: 0.5503780911506233).
 * Table 3: [500,0,200] [200,500,0] [0,200,500], classes of 700 again.
 *   2007 F-score and purity 5/7 as above (the paper's point).
 *   entropy: clusters (5/7, 2/7): (log 7 - 5/7 log 5 - 2/7 log 2) / log 3
 *     = 0.54457 (0.545).
 *   h = c = V = 1 - (log 7 - 5/7 log 5 - 2/7 log 2) / log 3 = 0.45543.
 *   paired: common = 3 C(500,2) + 3 C(200,2) = 374250 + 59700 = 433950;
 *     P = R = F = 433950/733950 = 0.5913.
 */
static const int table1[9] = { 500, 100, 100, 100, 500, 100, 100, 100, 500 };
static const int table3[9] = { 500, 0, 200, 200, 500, 0, 0, 200, 500 };

struct paper_table {
	const int *m;
	double fscore, purity, entropy, v, paired;
	double entropy3, v5, paired4; /* the printed, rounded values */
};

static struct paper_table paper(int which)
{
	double l3 = log(3.0), l5 = log(5.0), l7 = log(7.0), l2 = log(2.0);
	if (which == 1)
		return (struct paper_table){ table1, 5.0 / 7.0, 5.0 / 7.0,
					     (l7 - 5.0 / 7.0 * l5) / l3,
					     1.0 - (l7 - 5.0 / 7.0 * l5) / l3,
					     403950.0 / 733950.0, 0.725, 0.27517, 0.5504 };
	return (struct paper_table){ table3, 5.0 / 7.0, 5.0 / 7.0,
				     (l7 - 5.0 / 7.0 * l5 - 2.0 / 7.0 * l2) / l3,
				     1.0 - (l7 - 5.0 / 7.0 * l5 - 2.0 / 7.0 * l2) / l3,
				     433950.0 / 733950.0, 0.545, 0.45543, 0.5913 };
}

static void check_paper(const struct paper_table *t, const struct tageval_wsi_figures *f)
{
	ck_assert_uint_eq(f->instances, 2100);
	ck_assert_double_eq(f->clusters, 3.0);
	ck_assert_double_eq(f->clusters_2007, 3.0);
	ck_assert_double_eq(f->classes, 3.0);
	ck_assert_double_eq_tol(f->fscore, t->fscore, TOL);
	ck_assert_double_eq_tol(f->fscore, 0.714, 5e-4);
	ck_assert_double_eq_tol(f->purity, t->purity, TOL);
	ck_assert_double_eq_tol(f->entropy, t->entropy, TOL);
	ck_assert_double_eq_tol(f->entropy, t->entropy3, 5e-4);
	ck_assert_double_eq_tol(f->homogeneity, t->v, TOL);
	ck_assert_double_eq_tol(f->completeness, t->v, TOL);
	ck_assert_double_eq_tol(f->v_measure, t->v, TOL);
	ck_assert_double_eq_tol(f->v_measure, t->v5, 5e-6);
	ck_assert_double_eq_tol(f->paired_precision, t->paired, TOL);
	ck_assert_double_eq_tol(f->paired_recall, t->paired, TOL);
	ck_assert_double_eq_tol(f->paired_fscore, t->paired, TOL);
	ck_assert_double_eq_tol(f->paired_fscore, t->paired4, 5e-5);
}

START_TEST(spec004_dense)
{
	/* _i = 0: Table 1, _i = 1: Table 3 */
	struct paper_table t = paper(_i == 0 ? 1 : 3);
	double n[9];
	for (size_t i = 0; i < 9; i++)
		n[i] = t.m[i];
	struct tageval_wsi_figures f;
	ck_assert_int_eq(tageval_wsi_table_figures(n, 3, 3, 1.0, &f), TAGEVAL_OK);
	check_paper(&t, &f);
}
END_TEST

START_TEST(spec004_files)
{
	struct paper_table t = paper(_i == 0 ? 1 : 3);
	struct sbuf gold = { 0 }, sys = { 0 };
	table_files("tw.n", t.m, 3, 3, &gold, &sys);
	struct tageval_wsi_result *r = evaluate(gold.s, sys.s, NULL, 1.0);
	ck_assert_str_eq(tageval_wsi_result_word(r, 0), "tw.n");
	check_paper(&t, only_word(r));
	/* one word: the total is that word */
	same_figures(tageval_wsi_result_total(r), only_word(r));
	tageval_wsi_result_free(r);
	free(gold.s);
	free(sys.s);
}
END_TEST

START_TEST(spec004_small_cluster)
{
	/*
	 * Section 2.3 of spec 004: add to Table 3 a cluster cl4 of 50 more
	 * instances of gs1.  gs1 now has 750 instances and its best match is
	 * still cl1: F(gs1, cl1) = 2 * 500 / (750 + 700) = 20/29; gs2 and gs3
	 * keep 5/7.  F-score = 750/2150 * 20/29 + 1400/2150 * 5/7
	 * = (15000/29 + 1000) / 2150 = 44000/62350 = 0.7057, lower than 5/7
	 * although cl4 is perfectly homogeneous.  Purity = (3 * 500 + 50) / 2150
	 * = 31/43; cl4 adds nothing to the entropy: 2100/2150 * E(Table 3).
	 */
	const double n[12] = { 500, 0, 200, 200, 500, 0, 0, 200, 500, 50, 0, 0 };
	struct tageval_wsi_figures f;
	ck_assert_int_eq(tageval_wsi_table_figures(n, 4, 3, 1.0, &f), TAGEVAL_OK);
	ck_assert_double_eq_tol(f.fscore, 44000.0 / 62350.0, TOL);
	ck_assert_double_lt(f.fscore, 5.0 / 7.0);
	ck_assert_double_eq_tol(f.purity, 31.0 / 43.0, TOL);
	ck_assert_double_eq_tol(f.entropy, 2100.0 / 2150.0 * paper(3).entropy, TOL);
	ck_assert_double_eq(f.clusters, 4.0);
}
END_TEST

/* ------------------------------------------------------ degenerate cases */

/*
 * One cluster for everything, classes a (3) and b (1), N = 4:
 *   h = 1 - H(C|K)/H(C) = 1 - H(C)/H(C) = 0, c = 1 (H(K) = 0), V = 0.
 *   paired: cluster pairs C(4,2) = 6; class pairs C(3,2) + 1 (b's self
 *     pair) = 4; common C(3,2) = 3 (b's instance is not alone in its
 *     cluster); P = 3/6, R = 3/4 (R < 1: the singleton class),
 *     F = 2 * 1/2 * 3/4 / (5/4) = 3/5.
 *   2007: F(a) = 2*3/(3+4) = 6/7, F(b) = 2*1/(1+4) = 2/5, F-score =
 *     3/4 * 6/7 + 1/4 * 2/5 = 26/35; purity 3/4; entropy of (3/4, 1/4) over
 *     log 2: -(3/4 log2 3/4 + 1/4 log2 1/4) = 2 - 3/4 log2 3.
 */
START_TEST(one_cluster)
{
	const double n[2] = { 3, 1 };
	struct tageval_wsi_figures f;
	ck_assert_int_eq(tageval_wsi_table_figures(n, 1, 2, 1.0, &f), TAGEVAL_OK);
	ck_assert_double_eq_tol(f.homogeneity, 0.0, TOL);
	ck_assert_double_eq(f.completeness, 1.0);
	ck_assert_double_eq_tol(f.v_measure, 0.0, TOL);
	ck_assert_double_eq_tol(f.paired_precision, 0.5, TOL);
	ck_assert_double_eq_tol(f.paired_recall, 0.75, TOL);
	ck_assert_double_eq_tol(f.paired_fscore, 0.6, TOL);
	ck_assert_double_eq_tol(f.fscore, 26.0 / 35.0, TOL);
	ck_assert_double_eq_tol(f.purity, 0.75, TOL);
	ck_assert_double_eq_tol(f.entropy, 2.0 - 0.75 * log2(3.0), TOL);
	ck_assert_double_eq(f.clusters, 1.0);
	ck_assert_double_eq(f.classes, 2.0);
	/* the same through files, with wsi-baseline's 1c1w labels */
	struct tageval_wsi_result *r = evaluate("w.n 1 a\nw.n 2 a\nw.n 3 a\nw.n 4 b\n",
						"w.n 1 cl1\nw.n 2 cl1\nw.n 3 cl1\nw.n 4 cl1\n",
						NULL, 1.0);
	same_figures(only_word(r), &f);
	tageval_wsi_result_free(r);
}
END_TEST

/*
 * One cluster per instance, classes a (3) and b (1):
 *   h = 1 (H(C|K) = 0); H(K) = log 4, H(K|C) = 3 * 1/4 * log 3 (each a
 *     instance is one of 3 clusters of its class, b's is alone), so
 *     c = 1 - (3/4 log 3) / log 4; V = 2c / (1 + c).
 *   paired: every cluster is a singleton, so 4 self pairs; class pairs
 *     C(3,2) + 1 = 4; common = 1, the self pair of b's instance, which is
 *     alone in both its cluster and its class: P = R = F = 1/4 (with no
 *     self pairs there would be no cluster pair at all).
 *   2007: F(a) = 2*1/(3+1) = 1/2, F(b) = 2*1/(1+1) = 1, F-score =
 *     3/4 * 1/2 + 1/4 * 1 = 5/8; purity 1; entropy 0.
 */
START_TEST(one_cluster_per_instance)
{
	const double n[8] = { 1, 0, 1, 0, 1, 0, 0, 1 };
	double c = 1.0 - 0.75 * log(3.0) / log(4.0);
	struct tageval_wsi_figures f;
	ck_assert_int_eq(tageval_wsi_table_figures(n, 4, 2, 1.0, &f), TAGEVAL_OK);
	ck_assert_double_eq(f.homogeneity, 1.0);
	ck_assert_double_eq_tol(f.completeness, c, TOL);
	ck_assert_double_eq_tol(f.v_measure, 2.0 * c / (1.0 + c), TOL);
	ck_assert_double_eq_tol(f.paired_precision, 0.25, TOL);
	ck_assert_double_eq_tol(f.paired_recall, 0.25, TOL);
	ck_assert_double_eq_tol(f.paired_fscore, 0.25, TOL);
	ck_assert_double_eq_tol(f.fscore, 5.0 / 8.0, TOL);
	ck_assert_double_eq_tol(f.purity, 1.0, TOL);
	ck_assert_double_eq_tol(f.entropy, 0.0, TOL);
	ck_assert_double_eq(f.clusters, 4.0);
	struct tageval_wsi_result *r = evaluate("w.n 1 a\nw.n 2 a\nw.n 3 a\nw.n 4 b\n",
						"w.n 1 cl1\nw.n 2 cl2\nw.n 3 cl3\nw.n 4 cl4\n",
						NULL, 1.0);
	same_figures(only_word(r), &f);
	tageval_wsi_result_free(r);
	/* all classes singletons: every self pair is common, P = R = F = 1 */
	const double d[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	ck_assert_int_eq(tageval_wsi_table_figures(d, 3, 3, 1.0, &f), TAGEVAL_OK);
	ck_assert_double_eq_tol(f.paired_fscore, 1.0, TOL);
	ck_assert_double_eq_tol(f.v_measure, 1.0, TOL);
}
END_TEST

/*
 * One class, clusters of 3 and 1 (N = 4):
 *   h = 1 (H(C) = 0); H(K|C) = H(K), so c = 0 and V = 0.
 *   paired: cluster pairs C(3,2) + 1 = 4, class pairs C(4,2) = 6, common
 *     C(3,2) = 3: P = 3/4, R = 1/2, F = 2 * 3/8 / (5/4) = 3/5.
 *   2007: F = max(2*3/(4+3), 2*1/(4+1)) = 6/7; purity 1; entropy 0 (q = 1).
 * With one cluster too, everything is 1.
 */
START_TEST(one_class)
{
	const double n[2] = { 3, 1 };
	struct tageval_wsi_figures f;
	ck_assert_int_eq(tageval_wsi_table_figures(n, 2, 1, 1.0, &f), TAGEVAL_OK);
	ck_assert_double_eq(f.homogeneity, 1.0);
	ck_assert_double_eq_tol(f.completeness, 0.0, TOL);
	ck_assert_double_eq_tol(f.v_measure, 0.0, TOL);
	ck_assert_double_eq_tol(f.paired_precision, 0.75, TOL);
	ck_assert_double_eq_tol(f.paired_recall, 0.5, TOL);
	ck_assert_double_eq_tol(f.paired_fscore, 0.6, TOL);
	ck_assert_double_eq_tol(f.fscore, 6.0 / 7.0, TOL);
	ck_assert_double_eq_tol(f.purity, 1.0, TOL);
	ck_assert_double_eq(f.entropy, 0.0);
	ck_assert_double_eq(f.classes, 1.0);
	const double one[1] = { 4 };
	ck_assert_int_eq(tageval_wsi_table_figures(one, 1, 1, 1.0, &f), TAGEVAL_OK);
	ck_assert_double_eq(f.homogeneity, 1.0);
	ck_assert_double_eq(f.completeness, 1.0);
	ck_assert_double_eq(f.v_measure, 1.0);
	ck_assert_double_eq_tol(f.paired_fscore, 1.0, TOL);
	ck_assert_double_eq_tol(f.fscore, 1.0, TOL);
	ck_assert_double_eq_tol(f.purity, 1.0, TOL);
	ck_assert_double_eq(f.entropy, 0.0);
}
END_TEST

/*
 * One instance: one cluster and one class; h = c = V = 1; its self pair is
 * both a cluster pair and a class pair: P = R = F = 1; F-score 1, purity 1,
 * entropy 0.  Empty rows and columns of a dense table are no clusters.
 */
START_TEST(one_instance)
{
	const double n[6] = { 0, 0, 0, 0, 1, 0 };
	struct tageval_wsi_figures f;
	ck_assert_int_eq(tageval_wsi_table_figures(n, 2, 3, 1.0, &f), TAGEVAL_OK);
	ck_assert_uint_eq(f.instances, 1);
	ck_assert_double_eq(f.clusters, 1.0);
	ck_assert_double_eq(f.classes, 1.0);
	ck_assert_double_eq(f.homogeneity, 1.0);
	ck_assert_double_eq(f.completeness, 1.0);
	ck_assert_double_eq(f.v_measure, 1.0);
	ck_assert_double_eq(f.paired_precision, 1.0);
	ck_assert_double_eq(f.paired_recall, 1.0);
	ck_assert_double_eq(f.paired_fscore, 1.0);
	ck_assert_double_eq(f.fscore, 1.0);
	ck_assert_double_eq(f.purity, 1.0);
	ck_assert_double_eq(f.entropy, 0.0);
	struct tageval_wsi_result *r = evaluate("w.v w.v.1 s1\n", "w.v w.v.1 c9\n", NULL, 1.0);
	same_figures(only_word(r), &f);
	tageval_wsi_result_free(r);
	/* the instance unanswered: it alone forms the extra cluster, same figures */
	r = evaluate("w.v w.v.1 s1\n", "", NULL, 1.0);
	same_figures(only_word(r), &f);
	tageval_wsi_result_free(r);
}
END_TEST

/*
 * beta: V_beta = (1 + beta) h c / (beta h + c).  For one cluster per
 * instance above (h = 1, c = 1 - (3/4 log 3)/log 4):
 *   beta = 2:   3c / (2 + c);  beta = 0.5: 1.5c / (0.5 + c);
 *   beta = 0:   h c / c = h = 1.
 * For Table 1 (h = c) every beta gives V = h.  beta changes nothing else.
 */
START_TEST(beta)
{
	const double n[8] = { 1, 0, 1, 0, 1, 0, 0, 1 };
	double c = 1.0 - 0.75 * log(3.0) / log(4.0);
	struct tageval_wsi_figures f, f1;
	ck_assert_int_eq(tageval_wsi_table_figures(n, 4, 2, 1.0, &f1), TAGEVAL_OK);
	ck_assert_int_eq(tageval_wsi_table_figures(n, 4, 2, 2.0, &f), TAGEVAL_OK);
	ck_assert_double_eq_tol(f.v_measure, 3.0 * c / (2.0 + c), TOL);
	ck_assert_double_eq_tol(f.homogeneity, f1.homogeneity, TOL);
	ck_assert_double_eq_tol(f.completeness, f1.completeness, TOL);
	ck_assert_double_eq_tol(f.paired_fscore, f1.paired_fscore, TOL);
	ck_assert_double_eq_tol(f.fscore, f1.fscore, TOL);
	ck_assert_int_eq(tageval_wsi_table_figures(n, 4, 2, 0.5, &f), TAGEVAL_OK);
	ck_assert_double_eq_tol(f.v_measure, 1.5 * c / (0.5 + c), TOL);
	ck_assert_int_eq(tageval_wsi_table_figures(n, 4, 2, 0.0, &f), TAGEVAL_OK);
	ck_assert_double_eq_tol(f.v_measure, 1.0, TOL);
	double t1[9];
	for (size_t i = 0; i < 9; i++)
		t1[i] = table1[i];
	ck_assert_int_eq(tageval_wsi_table_figures(t1, 3, 3, 3.0, &f), TAGEVAL_OK);
	ck_assert_double_eq_tol(f.v_measure, paper(1).v, TOL);
	/* through files: beta = 2 on the one-cluster-per-instance clustering */
	struct tageval_wsi_result *r = evaluate("w.n 1 a\nw.n 2 a\nw.n 3 a\nw.n 4 b\n",
						"w.n 1 cl1\nw.n 2 cl2\nw.n 3 cl3\nw.n 4 cl4\n",
						NULL, 2.0);
	ck_assert_double_eq_tol(only_word(r)->v_measure, 3.0 * c / (2.0 + c), TOL);
	ck_assert_double_eq_tol(tageval_wsi_result_total(r)->v_measure, 3.0 * c / (2.0 + c),
				TOL);
	tageval_wsi_result_free(r);
}
END_TEST

/* ------------------------------------------------------- reading rules */

/*
 * Unanswered instances: u.v has classes a (1, 2, 3) and b (4, 5, 6); the
 * system puts 1, 2 in x and 4, 5 in y and says nothing of 3 (a) and 6 (b),
 * which together form one extra cluster U = {3, 6}.  Table x [2,0],
 * y [0,2], U [1,1], N = 6:
 *   H(C) = log 2, H(C|K) = 2/6 log 2, h = 2/3.
 *   H(K) = log 3, H(K|C) = 2 * (2/6 log(3/2) + 1/6 log 3)
 *     = log 3 - 2/3 log 2, c = (2/3) log 2 / log 3; V = 2hc / (h + c).
 *   paired: cluster pairs 1 + 1 + 1 = 3, class pairs 3 + 3 = 6, common 2:
 *     P = 2/3, R = 1/3, F = 4/9.
 *   2007 (the unanswered cluster too): F(a) = F(b) = 2*2/(3+2) = 4/5,
 *     F-score 4/5; purity (2 + 2 + 1)/6 = 5/6; entropy: only U is mixed,
 *     1 (over log 2) times 2/6 = 1/3.
 *   3 clusters in both readings.
 */
static const char u_gold[] = "u.v u.v.1 a\nu.v u.v.2 a\nu.v u.v.3 a\n"
			     "u.v u.v.4 b\nu.v u.v.5 b\nu.v u.v.6 b\n";
static const char u_sys[] = "u.v u.v.5 y\nu.v u.v.1 x\nu.v u.v.4 y\nu.v u.v.2 x\n";

static void u_expected(struct tageval_wsi_figures *f)
{
	double h = 2.0 / 3.0, c = 2.0 / 3.0 * log(2.0) / log(3.0);
	*f = (struct tageval_wsi_figures){
		.instances = 6, .clusters = 3, .clusters_2007 = 3, .classes = 2,
		.homogeneity = h, .completeness = c, .v_measure = 2 * h * c / (h + c),
		.paired_precision = 2.0 / 3.0, .paired_recall = 1.0 / 3.0,
		.paired_fscore = 4.0 / 9.0,
		.fscore = 0.8, .purity = 5.0 / 6.0, .entropy = 1.0 / 3.0,
	};
}

START_TEST(unanswered_cluster)
{
	struct tageval_wsi_figures want;
	u_expected(&want);
	struct tageval_wsi_result *r = evaluate(u_gold, u_sys, NULL, 1.0);
	same_figures(only_word(r), &want);
	tageval_wsi_result_free(r);
	/* the same table with U named: a system cluster "U" gives the same figures */
	const char named[] = "u.v u.v.5 y\nu.v u.v.1 x\nu.v u.v.4 y\nu.v u.v.2 x\n"
			     "u.v u.v.3 U\nu.v u.v.6 U\n";
	r = evaluate(u_gold, named, NULL, 1.0);
	same_figures(only_word(r), &want);
	tageval_wsi_result_free(r);
	/* an empty clusters file: each word is one cluster (1c1w) */
	r = evaluate(u_gold, "", NULL, 1.0);
	const struct tageval_wsi_figures *f = only_word(r);
	ck_assert_double_eq(f->clusters, 1.0);
	ck_assert_double_eq(f->clusters_2007, 1.0);
	ck_assert_double_eq_tol(f->v_measure, 0.0, TOL);
	ck_assert_double_eq(f->completeness, 1.0);
	/* paired: cluster pairs C(6,2) = 15, class pairs 2 C(3,2) = 6, common 6 */
	ck_assert_double_eq_tol(f->paired_precision, 6.0 / 15.0, TOL);
	ck_assert_double_eq_tol(f->paired_recall, 1.0, TOL);
	tageval_wsi_result_free(r);
}
END_TEST

/*
 * The SemEval-2007 reading of system lines: the label of largest weight,
 * ties forming a cluster of their own.  Gold: 1, 2 in a; 3, 4 in b.
 * System: 1 "c1 c2" (a tie of two unweighted labels), 2 "c1.c2" (a real
 * label spelled like the tie), 3 "c1/0.2 c3/0.8" (c3 wins), 4 "c3".
 *   2007 clusters: {c1,c2} = {1}, c1.c2 = {2}, c3 = {3, 4}: three clusters.
 *     F(a) = max over {1}, {2} of 2*1/(2+1) = 2/3, F(b) = 2*2/(2+2) = 1,
 *     F-score = 1/2 * 2/3 + 1/2 * 1 = 5/6; purity 1; entropy 0.
 *     (Merging the tie with c1.c2 would give a cluster {1, 2} and
 *     F-score 1, two clusters.)
 *   2010 (first label, weight cut): c1 = {1, 3}, c1.c2 = {2}, c3 = {4}:
 *     H(C) = log 2, H(C|K) = 2/4 log 2, h = 1/2; H(K) = 1/2 log 2 +
 *     2 * 1/4 log 4 = 3/2 log 2, H(K|C) = 4 * 1/4 log 2 = log 2, c = 1/3;
 *     V = 2 * 1/6 / (5/6) = 2/5.  Paired: cluster pairs 1 + 1 + 1, class
 *     pairs 1 + 1, common 0: P = R = F = 0.
 */
START_TEST(tie_rule_2007)
{
	const char gold[] = "w.n 1 a\nw.n 2 a\nw.n 3 b\nw.n 4 b\n";
	const char sys[] = "w.n 1 c1 c2\nw.n 2 c1.c2\nw.n 3 c1/0.2 c3/0.8\nw.n 4 c3\n";
	struct tageval_wsi_result *r = evaluate(gold, sys, NULL, 1.0);
	const struct tageval_wsi_figures *f = only_word(r);
	ck_assert_double_eq(f->clusters_2007, 3.0);
	ck_assert_double_eq_tol(f->fscore, 5.0 / 6.0, TOL);
	ck_assert_double_eq_tol(f->purity, 1.0, TOL);
	ck_assert_double_eq_tol(f->entropy, 0.0, TOL);
	ck_assert_double_eq(f->clusters, 3.0);
	ck_assert_double_eq_tol(f->homogeneity, 0.5, TOL);
	ck_assert_double_eq_tol(f->completeness, 1.0 / 3.0, TOL);
	ck_assert_double_eq_tol(f->v_measure, 0.4, TOL);
	ck_assert_double_eq_tol(f->paired_fscore, 0.0, TOL);
	tageval_wsi_result_free(r);
	/*
	 * Weighted ties: 1 "c1/0.5 c2/0.5" and 2 "c1/.5 c2/0.50 c3/0.2" are the
	 * same tie of the largest weight (weights compare as numbers), 3
	 * "c1/0.5 c2/0.4" is plain c1 and 4 "c1/0.4 c2/0.7" is c2.  2007
	 * clusters: the tie {1, 2} (class a), c1 = {3} and c2 = {4} (class b):
	 * F(a) = 2*2/(2+2) = 1, F(b) = 2*1/(2+1) = 2/3, F-score 5/6, purity 1,
	 * three clusters.  2010: first labels c1, c1, c1, c1: one cluster.
	 */
	const char weighted[] = "w.n 1 c1/0.5 c2/0.5\nw.n 2 c1/.5 c2/0.50 c3/0.2\n"
				"w.n 3 c1/0.5 c2/0.4\nw.n 4 c1/0.4 c2/0.7\n";
	r = evaluate(gold, weighted, NULL, 1.0);
	f = only_word(r);
	ck_assert_double_eq(f->clusters_2007, 3.0);
	ck_assert_double_eq_tol(f->fscore, 5.0 / 6.0, TOL);
	ck_assert_double_eq_tol(f->purity, 1.0, TOL);
	ck_assert_double_eq(f->clusters, 1.0);
	ck_assert_double_eq_tol(f->v_measure, 0.0, TOL);
	tageval_wsi_result_free(r);
}
END_TEST

/*
 * Weights: cut off for the SemEval-2010 reading, but the SemEval-2007 gold
 * class is the first token as written.  Gold "1 s/4" and "2 s", system x
 * for both:
 *   2010: one class s, one cluster: h = c = V = 1, P = R = F = 1.
 *   2007: classes "s/4" and "s", one cluster: F = 2*1/(1+2) = 2/3 for
 *     each, F-score 2/3; purity 1/2; entropy (1/2, 1/2) over log 2 = 1.
 * System weights: "x/0.3 y/0.7" is x for 2010 and y for 2007.
 */
START_TEST(weights_2010_2007)
{
	struct tageval_wsi_result *r = evaluate("w.n 1 s/4\nw.n 2 s\n", "w.n 1 x\nw.n 2 x/2.5\n",
						NULL, 1.0);
	const struct tageval_wsi_figures *f = only_word(r);
	ck_assert_double_eq(f->classes, 1.0);
	ck_assert_double_eq(f->v_measure, 1.0);
	ck_assert_double_eq_tol(f->paired_fscore, 1.0, TOL);
	ck_assert_double_eq_tol(f->fscore, 2.0 / 3.0, TOL);
	ck_assert_double_eq_tol(f->purity, 0.5, TOL);
	ck_assert_double_eq_tol(f->entropy, 1.0, TOL);
	tageval_wsi_result_free(r);
	/*
	 * Gold a (1, 2), b (3, 4); system 1 x, 2 x, 3 "x/0.3 y/0.7", 4 y.
	 * The 2007 reading x = {1, 2}, y = {3, 4} is perfect: F-score 1,
	 * purity 1, entropy 0.  The 2010 reading x = {1, 2, 3}, y = {4}, table
	 * x [2,1], y [0,1], is not: H(C|K) = 3/4 H(2/3, 1/3)
	 * = 3/4 (log 3 - 2/3 log 2), h = 1 - H(C|K) / log 2.
	 */
	r = evaluate("w.n 1 a\nw.n 2 a\nw.n 3 b\nw.n 4 b\n",
		     "w.n 1 x\nw.n 2 x\nw.n 3 x/0.3 y/0.7\nw.n 4 y\n", NULL, 1.0);
	f = only_word(r);
	ck_assert_double_eq_tol(f->fscore, 1.0, TOL);
	ck_assert_double_eq_tol(f->purity, 1.0, TOL);
	ck_assert_double_eq_tol(f->entropy, 0.0, TOL);
	ck_assert_double_eq_tol(f->homogeneity,
				1.0 - 0.75 * (log(3.0) - 2.0 / 3.0 * log(2.0)) / log(2.0), TOL);
	tageval_wsi_result_free(r);
}
END_TEST

/*
 * Totals: the instance-weighted mean of each per-word value; clusters and
 * classes the mean number per word.  Three words: t1.n = Table 1, t3.v =
 * Table 3 (2100 instances each) and u.v, the unanswered example (6).
 *   all: V = (2100 V1 + 2100 V3 + 6 Vu) / 4206, and the same for each
 *        figure; clusters (3 + 3 + 3)/3 = 3, classes (3 + 3 + 2)/3 = 8/3.
 *   n:   t1.n alone.
 *   v:   (2100 V3 + 6 Vu) / 2106, classes (3 + 2)/2.
 */
START_TEST(totals)
{
	struct sbuf gold = { 0 }, sys = { 0 };
	struct paper_table t1 = paper(1), t3 = paper(3);
	table_files("t1.n", table1, 3, 3, &gold, &sys);
	table_files("t3.v", table3, 3, 3, &gold, &sys);
	sb_printf(&gold, "%s", u_gold);
	sb_printf(&sys, "%s", u_sys);
	struct tageval_wsi_figures u;
	u_expected(&u);

	struct tageval_wsi_result *r = evaluate(gold.s, sys.s, "all", 1.0);
	ck_assert_uint_eq(tageval_wsi_result_words(r), 3);
	ck_assert_str_eq(tageval_wsi_result_word(r, 0), "t1.n");
	ck_assert_str_eq(tageval_wsi_result_word(r, 1), "t3.v");
	ck_assert_str_eq(tageval_wsi_result_word(r, 2), "u.v");
	ck_assert_ptr_null(tageval_wsi_result_word(r, 3));
	ck_assert_ptr_null(tageval_wsi_result_figures(r, 3));
	check_paper(&t1, tageval_wsi_result_figures(r, 0));
	check_paper(&t3, tageval_wsi_result_figures(r, 1));
	same_figures(tageval_wsi_result_figures(r, 2), &u);
	const struct tageval_wsi_figures *f = tageval_wsi_result_total(r);
	ck_assert_uint_eq(f->instances, 4206);
	ck_assert_double_eq_tol(f->clusters, 3.0, TOL);
	ck_assert_double_eq_tol(f->clusters_2007, 3.0, TOL);
	ck_assert_double_eq_tol(f->classes, 8.0 / 3.0, TOL);
	ck_assert_double_eq_tol(f->v_measure, (2100 * t1.v + 2100 * t3.v + 6 * u.v_measure) / 4206,
				TOL);
	ck_assert_double_eq_tol(f->homogeneity,
				(2100 * t1.v + 2100 * t3.v + 6 * u.homogeneity) / 4206, TOL);
	ck_assert_double_eq_tol(f->completeness,
				(2100 * t1.v + 2100 * t3.v + 6 * u.completeness) / 4206, TOL);
	ck_assert_double_eq_tol(f->paired_fscore,
				(2100 * t1.paired + 2100 * t3.paired + 6 * 4.0 / 9.0) / 4206, TOL);
	ck_assert_double_eq_tol(f->paired_precision,
				(2100 * t1.paired + 2100 * t3.paired + 6 * 2.0 / 3.0) / 4206, TOL);
	ck_assert_double_eq_tol(f->paired_recall,
				(2100 * t1.paired + 2100 * t3.paired + 6 * 1.0 / 3.0) / 4206, TOL);
	/* (2100 * 5/7 * 2 + 6 * 4/5) / 4206 = 3004.8 / 4206 */
	ck_assert_double_eq_tol(f->fscore, 3004.8 / 4206, TOL);
	ck_assert_double_eq_tol(f->purity, (3000.0 + 5.0) / 4206, TOL);
	ck_assert_double_eq_tol(f->entropy,
				(2100 * t1.entropy + 2100 * t3.entropy + 6 * 1.0 / 3.0) / 4206, TOL);
	tageval_wsi_result_free(r);

	r = evaluate(gold.s, sys.s, "n", 1.0);
	ck_assert_str_eq(tageval_wsi_result_word(r, 0), "t1.n");
	check_paper(&t1, only_word(r));
	same_figures(tageval_wsi_result_total(r), only_word(r));
	tageval_wsi_result_free(r);

	r = evaluate(gold.s, sys.s, "v", 1.0);
	ck_assert_uint_eq(tageval_wsi_result_words(r), 2);
	f = tageval_wsi_result_total(r);
	ck_assert_uint_eq(f->instances, 2106);
	ck_assert_double_eq_tol(f->classes, 2.5, TOL);
	ck_assert_double_eq_tol(f->v_measure, (2100 * t3.v + 6 * u.v_measure) / 2106, TOL);
	ck_assert_double_eq_tol(f->paired_fscore, (2100 * t3.paired + 6 * 4.0 / 9.0) / 2106, TOL);
	ck_assert_double_eq_tol(f->fscore, (1500.0 + 4.8) / 2106, TOL);
	tageval_wsi_result_free(r);
	free(gold.s);
	free(sys.s);
}
END_TEST

/*
 * Words shared out in parts (tv_parallel): 11 words w0.n, w1.v, w2.n, ...
 * (.n for even w), word w an nk x nc table, nk = 2 + w mod 3, nc = 2 +
 * 2w mod 3, cell (k, c) = 1 + (5w + 7k + 3c + kc) mod 4 instances (no empty
 * row or column): unequal sizes 13 24 28 13 36 24 9 32 36 5 28, 248
 * instances in all, 6 labels.  The instances are cut into 4 runs for the
 * keys (1 + 248 / (11 + 64)), the words into 4 parts for the tables
 * (1 + 248 / (6 + 64)), runs of 2 or 3 words.  Each word's figures are
 * those of its table by tageval_wsi_table_figures(); the totals, their
 * averages weighted by the instances (clusters and classes: plain
 * averages).  With pos "v" the odd
 * words alone, in order: the parts' places in the figures skip the others.
 */
#define SPLIT_WORDS 11

static size_t split_table(size_t w, double *m, size_t *nk, size_t *nc)
{
	size_t n = 0;
	*nk = 2 + w % 3;
	*nc = 2 + 2 * w % 3;
	for (size_t k = 0; k < *nk; k++)
		for (size_t c = 0; c < *nc; c++)
			n += (size_t)(m[k * *nc + c] = (double)(1 + (5 * w + 7 * k + 3 * c + k * c) % 4));
	return n;
}

/* Each word's figures in @r, bit for bit those of the word alone (one run,
 * one part): its keys in instance order whatever the runs cut them into. */
static void split_alone(const struct tageval_wsi_result *r, size_t first, size_t step)
{
	size_t i = 0;
	for (size_t w = first; w < SPLIT_WORDS; w += step, i++) {
		struct sbuf gold = { 0 }, sys = { 0 };
		double m[16];
		size_t nk, nc;
		split_table(w, m, &nk, &nc);
		int cells[16];
		for (size_t x = 0; x < nk * nc; x++)
			cells[x] = (int)m[x];
		table_files(tageval_wsi_result_word(r, i), cells, nk, nc, &gold, &sys);
		struct tageval_wsi_result *one = evaluate(gold.s, sys.s, "all", 1.0);
		const struct tageval_wsi_figures *a = tageval_wsi_result_figures(r, i);
		const struct tageval_wsi_figures *b = only_word(one);
		const double *x = &a->homogeneity, *y = &b->homogeneity;
		ck_assert(memcmp(&a->v_measure, &b->v_measure, sizeof *x) == 0);
		ck_assert(memcmp(x, y, sizeof *x) == 0);
		ck_assert(memcmp(&a->completeness, &b->completeness, sizeof *x) == 0);
		ck_assert(memcmp(&a->paired_fscore, &b->paired_fscore, sizeof *x) == 0);
		ck_assert(memcmp(&a->fscore, &b->fscore, sizeof *x) == 0);
		ck_assert(memcmp(&a->purity, &b->purity, sizeof *x) == 0);
		ck_assert(memcmp(&a->entropy, &b->entropy, sizeof *x) == 0);
		tageval_wsi_result_free(one);
		free(gold.s);
		free(sys.s);
	}
}

static void split_check(const char *gold, const char *sys, const char *pos, size_t first,
			size_t step)
{
	struct tageval_wsi_result *r = evaluate(gold, sys, pos, 1.0);
	struct tageval_wsi_figures want, tot;
	memset(&tot, 0, sizeof tot);
	size_t i = 0;
	for (size_t w = first; w < SPLIT_WORDS; w += step, i++) {
		double m[16];
		size_t nk, nc, n = split_table(w, m, &nk, &nc);
		char name[8];
		snprintf(name, sizeof name, "w%zu.%c", w, w % 2 ? 'v' : 'n');
		ck_assert_str_eq(tageval_wsi_result_word(r, i), name);
		ck_assert_int_eq(tageval_wsi_table_figures(m, nk, nc, 1.0, &want), TAGEVAL_OK);
		ck_assert_uint_eq(want.instances, n);
		same_figures(tageval_wsi_result_figures(r, i), &want);
		tot.instances += n;
		tot.clusters += (double)nk;
		tot.classes += (double)nc;
		tot.v_measure += (double)n * want.v_measure;
		tot.paired_fscore += (double)n * want.paired_fscore;
		tot.fscore += (double)n * want.fscore;
		tot.entropy += (double)n * want.entropy;
	}
	ck_assert_uint_eq(tageval_wsi_result_words(r), i);
	split_alone(r, first, step);
	const struct tageval_wsi_figures *f = tageval_wsi_result_total(r);
	ck_assert_uint_eq(f->instances, tot.instances);
	ck_assert_double_eq_tol(f->clusters, tot.clusters / (double)i, TOL);
	ck_assert_double_eq_tol(f->classes, tot.classes / (double)i, TOL);
	double N = (double)tot.instances;
	ck_assert_double_eq_tol(f->v_measure, tot.v_measure / N, TOL);
	ck_assert_double_eq_tol(f->paired_fscore, tot.paired_fscore / N, TOL);
	ck_assert_double_eq_tol(f->fscore, tot.fscore / N, TOL);
	ck_assert_double_eq_tol(f->entropy, tot.entropy / N, TOL);
	tageval_wsi_result_free(r);
}

START_TEST(split_words)
{
	struct sbuf gold = { 0 }, sys = { 0 };
	size_t all = 0;
	for (size_t w = 0; w < SPLIT_WORDS; w++) {
		double m[16];
		size_t nk, nc;
		all += split_table(w, m, &nk, &nc);
		int cells[16];
		for (size_t i = 0; i < nk * nc; i++)
			cells[i] = (int)m[i];
		char name[8];
		snprintf(name, sizeof name, "w%zu.%c", w, w % 2 ? 'v' : 'n');
		table_files(name, cells, nk, nc, &gold, &sys);
	}
	ck_assert_uint_eq(all, 248);
	split_check(gold.s, sys.s, "all", 0, 1);
	split_check(gold.s, sys.s, "v", 1, 2);
	free(gold.s);
	free(sys.s);
}
END_TEST

/*
 * The keys of the tables in 8 bytes an instance, when a cluster id and a
 * class id do not fit in 4 together (more than 65,536 gold labels: 17 bits
 * a class, and as many labels at least, 17 bits a cluster).  A pad word
 * b.v of @pad gold labels (64 to a line, all in cluster c1), then a.n:
 * gold s1 s1 s1 s2, clusters c1 c1 c2 c2; "n" selects a.n.  Classes 3:1,
 * clusters 2:2; c1 holds two s1, c2 one s1 and the s2 (bits):
 *   H(C) = 2 - (3/4) log2 3 = 0.811278, H(C|K) = (2/4) x 1 = 1/2
 *   homogeneity = 1 - (1/2) / (2 - (3/4) log2 3) = 0.383689
 *   H(K) = 1, H(K|C) = (3/4) x H(2/3, 1/3) = (3/4) log2 3 - 1/2
 *   completeness = 1 - ((3/4) log2 3 - 1/2) = 3/2 - (3/4) log2 3 = 0.311278
 * (the table transposed would swap them).  The same figures, bit for bit,
 * with no pad (4 bytes a key).
 */
/* A word b.v of @pad gold labels t0, t1, ... (64 a line), its lines in
 * cluster c1 in @sys (none when NULL). */
static void pad_word(struct sbuf *gold, struct sbuf *sys, size_t pad)
{
	for (size_t i = 0; i < pad; i += 64) {
		sb_printf(gold, "b.v b.v.%zu", i);
		for (size_t j = i; j < i + 64 && j < pad; j++)
			sb_printf(gold, " t%zu", j);
		sb_printf(gold, "\n");
		if (sys)
			sb_printf(sys, "b.v b.v.%zu c1\n", i);
	}
}

static struct tageval_wsi_result *padded_an(size_t pad)
{
	struct sbuf gold = { 0 }, sys = { 0 };
	pad_word(&gold, &sys, pad);
	sb_printf(&gold, "a.n a.n.1 s1\na.n a.n.2 s1\na.n a.n.3 s1\na.n a.n.4 s2\n");
	sb_printf(&sys, "a.n a.n.1 c1\na.n a.n.2 c1\na.n a.n.3 c2\na.n a.n.4 c2\n");
	struct tageval_wsi_result *r = evaluate(gold.s ? gold.s : "", sys.s, "n", 1.0);
	free(gold.s);
	free(sys.s);
	return r;
}

START_TEST(wide_keys)
{
	struct tageval_wsi_result *wide = padded_an(65536), *narrow = padded_an(0);
	const struct tageval_wsi_figures *f = only_word(wide), *g = only_word(narrow);
	double l3 = log2(3.0);
	ck_assert_double_eq_tol(f->homogeneity, 1.0 - 0.5 / (2.0 - 0.75 * l3), TOL);
	ck_assert_double_eq_tol(f->completeness, 1.5 - 0.75 * l3, TOL);
	ck_assert(f->homogeneity == g->homogeneity);
	ck_assert(f->completeness == g->completeness);
	ck_assert(f->v_measure == g->v_measure);
	ck_assert(f->fscore == g->fscore);
	ck_assert(f->paired_fscore == g->paired_fscore);
	tageval_wsi_result_free(wide);
	tageval_wsi_result_free(narrow);
}
END_TEST

/*
 * The bounds of the 4-byte keys (cluster << bits | class, bits for the
 * classes).  A pad word b.v of @pad gold labels, no system line, then a.n
 * of two instances, each its own class and its own cluster: homogeneity,
 * completeness and V-measure 1, and every figure the same bits as with no
 * pad (small ids, packed).
 */
static struct tageval_wsi_result *bound_case(size_t pad, const char *g1, const char *g2,
					     const char *s1, const char *s2)
{
	struct sbuf gold = { 0 }, sys = { 0 };
	pad_word(&gold, NULL, pad);
	sb_printf(&gold, "a.n a.n.1 %s\na.n a.n.2 %s\n", g1, g2);
	if (s1)
		sb_printf(&sys, "a.n a.n.1 %s\n", s1);
	if (s2)
		sb_printf(&sys, "a.n a.n.2 %s\n", s2);
	struct tageval_wsi_result *r = evaluate(gold.s, sys.s ? sys.s : "", "n", 1.0);
	free(gold.s);
	free(sys.s);
	return r;
}

START_TEST(packed_bounds)
{
	static const struct {
		size_t pad;
		const char *g1, *g2, *s1, *s2;
	} c[] = {
		/* gold labels 65,536 (the unanswered cluster, t0..t65532, s1,
		 * s2): 16 bits a class; cX is label 65,536, one past 16 bits a
		 * cluster (8-byte keys); packed, it would be cluster 0, a.n.2's
		 * (no system line: unanswered), and h would be 0 */
		{ 65533, "s1", "s2", "cX", NULL },
		/* the same, no new label: 65,536 labels, packed; cluster s2 is
		 * label 65,535, the largest that fits */
		{ 65533, "s1", "s2", "s2", NULL },
		/* gold labels 257 (unanswered, t0..t253, s2 = 255, s1 = 256):
		 * 9 bits a class; in 8, a.n.2 (c2 = 258, s1 = 256) would read
		 * (c2 + 1, 0) */
		{ 254, "s2", "s1", "c1", "c2" },
	};
	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		struct tageval_wsi_result *r = bound_case(c[i].pad, c[i].g1, c[i].g2, c[i].s1,
							  c[i].s2);
		struct tageval_wsi_result *q = bound_case(0, c[i].g1, c[i].g2, c[i].s1, c[i].s2);
		const struct tageval_wsi_figures *f = only_word(r), *g = only_word(q);
		ck_assert_msg(f->homogeneity == 1.0 && f->completeness == 1.0 && f->v_measure == 1.0,
			      "case %zu: h %g c %g", i, f->homogeneity, f->completeness);
		ck_assert(g->homogeneity == 1.0 && g->completeness == 1.0);
		ck_assert(f->fscore == g->fscore && f->purity == g->purity);
		ck_assert(f->entropy == g->entropy);
		ck_assert(memcmp(&f->paired_fscore, &g->paired_fscore, sizeof f->paired_fscore) == 0);
		tageval_wsi_result_free(r);
		tageval_wsi_result_free(q);
	}
}
END_TEST

/*
 * --pos: the part of speech of a word is the suffix of its name after the
 * last '.', compared exactly.  One instance per word, so every word's
 * figures are 1 and only the selection is checked.
 */
START_TEST(pos_selection)
{
	const char gold[] = "bank.n i1 s\n"
			    "run.v i2 s\n"
			    "n.v i3 s\n"        /* a verb, although it starts with n. */
			    "a.b.n i4 s\n"      /* suffix after the last dot */
			    "plain i5 s\n"      /* no part of speech */
			    "dark.j i6 s\n"
			    "big.N i7 s\n"      /* N is not n */
			    "x.nv i8 s\n"
			    "y.n.x i9 s\n";
	static const struct {
		const char *pos;
		const char *words; /* selected, space-separated */
	} sel[] = {
		{ NULL, "bank.n run.v n.v a.b.n plain dark.j big.N x.nv y.n.x" },
		{ "all", "bank.n run.v n.v a.b.n plain dark.j big.N x.nv y.n.x" },
		{ "n", "bank.n a.b.n" },
		{ "v", "run.v n.v" },
		{ "j", "dark.j" },
		{ "N", "big.N" },
		{ "x", "y.n.x" },
	};
	for (size_t i = 0; i < sizeof sel / sizeof sel[0]; i++) {
		struct tageval_wsi_result *r = evaluate(gold, "", sel[i].pos, 1.0);
		struct sbuf got = { 0 };
		for (size_t j = 0; j < tageval_wsi_result_words(r); j++)
			sb_printf(&got, "%s%s", j ? " " : "", tageval_wsi_result_word(r, j));
		ck_assert_str_eq(got.s, sel[i].words);
		ck_assert_uint_eq(tageval_wsi_result_total(r)->instances,
				  tageval_wsi_result_words(r));
		free(got.s);
		tageval_wsi_result_free(r);
	}
}
END_TEST

/*
 * System lines for instances the gold key lacks (other words, other ids)
 * are counted and ignored; their labels are still checked.  Blank lines,
 * comments, tabs and CR LF line ends are read as in every tageval file.
 */
START_TEST(ignored_lines)
{
	const char gold[] = "w.n 1 a\r\nw.n 2 b\r\n\r\n!! comment\r\n";
	const char sys[] = "zz.n zz.n.1 c1\n"   /* a word the gold key lacks */
			   "w.n 3 c1\n"         /* an instance it lacks */
			   "\tw.n\t1   x !! y\n"
			   "\n"
			   "zz.n 1x c/0.5 d/0.5\n"
			   "w.n 2 y\n";
	struct tageval_error err;
	int rc;
	struct tageval_wsi *w = load(gold, sys, &rc, &err);
	ck_assert_int_eq(rc, TAGEVAL_OK);
	ck_assert_uint_eq(tageval_wsi_instances(w), 2);
	ck_assert_uint_eq(tageval_wsi_ignored(w), 3);
	const char *word, *inst;
	ck_assert_int_eq(tageval_wsi_instance(w, 1, &word, &inst), TAGEVAL_OK);
	ck_assert_str_eq(word, "w.n");
	ck_assert_str_eq(inst, "2");
	ck_assert_int_eq(tageval_wsi_instance(w, 2, &word, &inst), TAGEVAL_EINVAL);
	struct tageval_wsi_result *r = NULL;
	ck_assert_int_eq(tageval_wsi_evaluate(w, NULL, &r, &err), TAGEVAL_OK);
	/* x = {1}, y = {2}: perfect; the comment did not become a label */
	ck_assert_double_eq(tageval_wsi_result_total(r)->v_measure, 1.0);
	ck_assert_double_eq(tageval_wsi_result_total(r)->clusters, 2.0);
	tageval_wsi_result_free(r);
	tageval_wsi_free(w);
	/* nothing ignored */
	w = load(gold, "w.n 1 x\n", &rc, &err);
	ck_assert_uint_eq(tageval_wsi_ignored(w), 0);
	tageval_wsi_free(w);
}
END_TEST

/*
 * Reads the gold key @gold (@len bytes), which fails at @line with
 * @message, keeping @kept instances, the last @last; then a clusters file
 * @sys of four lines, two of them of gold instances: 2 lines ignored (the
 * ids read ahead of the failure are not gold instances).
 */
static void gold_fails_at(const char *gold, size_t len, size_t line, const char *message,
			  size_t kept, const char *last, const char *sys)
{
	struct tageval_error err;
	struct tageval_wsi *w = tageval_wsi_new();
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(tageval_wsi_read_gold_buffer(w, gold, len, "gold", &err),
			 TAGEVAL_EFORMAT);
	ck_assert_uint_eq(err.line, line);
	ck_assert_str_eq(err.message, message);
	ck_assert_uint_eq(tageval_wsi_instances(w), kept);
	const char *word, *inst;
	ck_assert_int_eq(tageval_wsi_instance(w, kept - 1, &word, &inst), TAGEVAL_OK);
	ck_assert_str_eq(inst, last);
	ck_assert_int_eq(tageval_wsi_read_clusters_buffer(w, sys, strlen(sys), "clusters", &err),
			 TAGEVAL_OK);
	ck_assert_uint_eq(tageval_wsi_ignored(w), 2);
	tageval_wsi_free(w);
}

/*
 * A gold key that fails at line 10 ("w.n bad": no label) of 60,000 lines
 * (about 830 KB: read by the second thread, which interns the ids of the
 * lines it reads ahead of the failure).  The object keeps the 9 instances
 * before the failure, i1 .. i9, and no id after it: a clusters file read
 * afterwards finds i1 and i9 and ignores i11 and i59999 (not gold
 * instances, as if never read: 2 lines ignored), as it did when the ids
 * were interned by the line that read them.
 */
START_TEST(gold_fails_after_read_ahead)
{
	size_t n = 60000, cap = n * 16, len = 0;
	char *gold = malloc(cap);
	ck_assert_ptr_nonnull(gold);
	for (size_t i = 1; i <= n; i++)
		len += (size_t)snprintf(gold + len, cap - len, i == 10 ? "w.n bad\n" : "w.n i%zu a\n",
					i);
	gold_fails_at(gold, len, 10, "instance \"bad\" has no label", 9, "i9",
		      "w.n i1 c\nw.n i11 c\nw.n i9 d\nw.n i59999 c\n");
	free(gold);
}
END_TEST

/*
 * A gold key of 60,000 lines (about 780 KB) whose line 40000 repeats the
 * id of line 30000: both lines far past the first chunk (256 KiB; 4 KiB in
 * developer builds), so both ids are interned by the second thread.  The
 * message names the first line as the one-thread reading did; the object
 * keeps the 39,999 instances before the failure and no id after it: a
 * clusters file finds i30000 and i39999 and ignores i40001 and i60000
 * (2 lines ignored).
 */
START_TEST(gold_duplicate_put_ahead)
{
	size_t n = 60000, cap = n * 16, len = 0;
	char *gold = malloc(cap);
	ck_assert_ptr_nonnull(gold);
	for (size_t i = 1; i <= n; i++)
		len += (size_t)snprintf(gold + len, cap - len, "w.n i%zu a\n",
					i == 40000 ? (size_t)30000 : i);
	gold_fails_at(gold, len, 40000, "duplicate instance \"i30000\" (first at line 30000)",
		      39999, "i39999", "w.n i30000 c\nw.n i40001 c\nw.n i39999 d\nw.n i60000 c\n");
	free(gold);
}
END_TEST

/* ---------------------------------------------------------------- errors */

struct bad_input {
	const char *gold, *sys;
	const char *file; /* "gold" or "clusters" */
	size_t line;
	const char *message;
};

static const struct bad_input bad[] = {
	/* gold key */
	{ "w.n 1 a\nw.n 2\n", "", "gold", 2, "instance \"2\" has no label" },
	{ "w.n 1 a\nw.n 2 !! a comment is no label\n", "", "gold", 2,
	  "instance \"2\" has no label" },
	{ "w.n 1 a\n\nw.n\n", "", "gold", 3, "missing instance id" },
	{ "w.n x a\nw.n y b\n!!\nw.n x c\n", "", "gold", 4,
	  "duplicate instance \"x\" (first at line 1)" },
	/* the same id under another word is the same instance */
	{ "w.n x a\nv.v x a\n", "", "gold", 2, "duplicate instance \"x\" (first at line 1)" },
	{ "w.n 1 a/x\n", "", "gold", 1, "invalid weight \"a/x\"" },
	{ "w.n 1 a b/-1\n", "", "gold", 1, "invalid weight \"b/-1\"" },
	{ "w.n 1 /4\n", "", "gold", 1, "invalid weight \"/4\"" },
	/* clusters */
	{ "w.n 1 a\nw.n 2 a\n", "w.n 1 c\nw.n 2\n", "clusters", 2,
	  "instance \"2\" has no label" },
	{ "w.n 1 a\n", "w.n\n", "clusters", 1, "missing instance id" },
	{ "w.n 1 a\nw.n 2 a\n", "w.n 1 c\nw.n 2 c\n\nw.n 1 d\n", "clusters", 4,
	  "duplicate instance \"1\" (first at line 1)" },
	{ "w.n 1 a\n", "w.n 1 c/1e999\n", "clusters", 1, "invalid weight \"c/1e999\"" },
	{ "w.n 1 a\n", "w.n 1 c/nan\n", "clusters", 1, "invalid weight \"c/nan\"" },
	{ "w.n 1 a\n", "w.n 1 c/0.5 d/\n", "clusters", 1, "invalid weight \"d/\"" },
	/* a weight is checked on a line that would be ignored */
	{ "w.n 1 a\n", "zz.n 9 c/abc\n", "clusters", 1, "invalid weight \"c/abc\"" },
	/* a gold instance under another word */
	{ "w.n 1 a\nw.n 2 a\n", "w.n 1 c\nv.v 2 c\n", "clusters", 2,
	  "instance \"2\" belongs to word \"w.n\" in the gold key" },
	/* empty or comment-only gold keys */
	{ "", "", "gold", 0, "no instances" },
	{ "!! nothing\n\n   \n", "", "gold", 0, "no instances" },
};

START_TEST(bad_inputs)
{
	const struct bad_input *b = &bad[_i];
	struct tageval_error err;
	int rc;
	struct tageval_wsi *w = load(b->gold, b->sys, &rc, &err);
	ck_assert_ptr_null(w);
	ck_assert_int_eq(rc, TAGEVAL_EFORMAT);
	ck_assert_int_eq(err.code, TAGEVAL_EFORMAT);
	ck_assert_str_eq(err.file, b->file);
	ck_assert_uint_eq(err.line, b->line);
	ck_assert_str_eq(err.message, b->message);
}
END_TEST

START_TEST(empty_selection)
{
	struct tageval_error err;
	int rc;
	struct tageval_wsi *w = load("bank.n 1 a\nrun.v 2 a\n", "", &rc, &err);
	ck_assert_ptr_nonnull(w);
	struct tageval_wsi_options o;
	tageval_wsi_options_init(&o);
	o.pos = "j";
	static char dummy;
	struct tageval_wsi_result *r = (void *)&dummy; /* set to NULL on error */
	ck_assert_int_eq(tageval_wsi_evaluate(w, &o, &r, &err), TAGEVAL_EFORMAT);
	ck_assert_ptr_null(r);
	ck_assert_str_eq(err.message, "no target word selected");
	ck_assert_uint_eq(err.line, 0);
	/* beta out of range */
	o.pos = NULL;
	o.beta = -1.0;
	ck_assert_int_eq(tageval_wsi_evaluate(w, &o, &r, &err), TAGEVAL_EINVAL);
	ck_assert_ptr_null(r);
	o.beta = NAN;
	ck_assert_int_eq(tageval_wsi_evaluate(w, &o, &r, &err), TAGEVAL_EINVAL);
	ck_assert_ptr_null(r);
	tageval_wsi_free(w);
}
END_TEST

START_TEST(call_order)
{
	struct tageval_error err;
	struct tageval_wsi *w = tageval_wsi_new();
	ck_assert_ptr_nonnull(w);
	/* the clusters before the gold key */
	ck_assert_int_eq(tageval_wsi_read_clusters_buffer(w, "w 1 c\n", 6, "clusters", &err),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_read_gold_buffer(w, "w 1 a\n", 6, "gold", &err),
			 TAGEVAL_OK);
	/* the gold key twice */
	ck_assert_int_eq(tageval_wsi_read_gold_buffer(w, "w 2 a\n", 6, "gold", &err),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_read_clusters_buffer(w, "w 1 c\n", 6, "clusters", &err),
			 TAGEVAL_OK);
	/* the clusters twice */
	ck_assert_int_eq(tageval_wsi_read_clusters_buffer(w, "w 1 c\n", 6, "clusters", &err),
			 TAGEVAL_EINVAL);
	ck_assert_uint_eq(tageval_wsi_instances(w), 1);
	tageval_wsi_free(w);
	/* files that cannot be opened */
	w = tageval_wsi_new();
	ck_assert_int_eq(tageval_wsi_read_gold(w, "/nonexistent/gold.key", &err), TAGEVAL_EIO);
	ck_assert_str_eq(err.file, "/nonexistent/gold.key");
	tageval_wsi_free(w);
	tageval_wsi_free(NULL);
	tageval_wsi_result_free(NULL);
}
END_TEST

START_TEST(table_arguments)
{
	struct tageval_wsi_figures f;
	const double ok[2] = { 1, 1 };
	const double neg[2] = { 1, -1 };
	const double nan2[2] = { 1, NAN };
	const double inf2[2] = { 1, INFINITY };
	const double zero[2] = { 0, 0 };
	ck_assert_int_eq(tageval_wsi_table_figures(ok, 0, 2, 1.0, &f), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_table_figures(ok, 2, 0, 1.0, &f), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_table_figures(neg, 1, 2, 1.0, &f), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_table_figures(nan2, 1, 2, 1.0, &f), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_table_figures(inf2, 1, 2, 1.0, &f), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_table_figures(zero, 1, 2, 1.0, &f), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_table_figures(ok, 1, 2, -0.5, &f), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_table_figures(ok, 1, 2, NAN, &f), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_table_figures(ok, 1, 2, 1.0, &f), TAGEVAL_OK);
	/* one cluster of two singleton classes: h = 0, V = 0; paired: one
	 * cluster pair, two class (self) pairs, none common: P = R = F = 0 */
	ck_assert_double_eq_tol(f.v_measure, 0.0, TOL);
	ck_assert_double_eq_tol(f.paired_recall, 0.0, TOL);
	ck_assert_double_eq_tol(f.paired_fscore, 0.0, TOL);
}
END_TEST

/*
 * The word and label caches of the reader hash a string's length and its
 * first and last 8 bytes: words "aaaaaaaa1bbbbbbb.n" and "aaaaaaaa2bbbbbbb.n"
 * (18 bytes, differing in byte 8 alone) and clusters "cccccccc1dddddddd" and
 * "cccccccc2dddddddd" (17 bytes, likewise) fall in one entry each, and the
 * lines alternate between them.  Still two words of two instances, each of
 * one class and two clusters:
 *   word 1: .1 s1 in the first cluster, .3 s1 in the second
 *   word 2: .2 s2 in the second, .4 s2 in the first
 */
START_TEST(cache_collisions)
{
	static const char w1[] = "aaaaaaaa1bbbbbbb.n", w2[] = "aaaaaaaa2bbbbbbb.n";
	static const char k1[] = "cccccccc1dddddddd", k2[] = "cccccccc2dddddddd";
	char gold[256], sys[256];
	snprintf(gold, sizeof gold, "%s 1 s1\n%s 2 s2\n%s 3 s1\n%s 4 s2\n", w1, w2, w1, w2);
	snprintf(sys, sizeof sys, "%s 1 %s\n%s 2 %s\n%s 3 %s\n%s 4 %s\n", w1, k1, w2, k2, w1, k2,
		 w2, k1);
	struct tageval_wsi_result *r = evaluate(gold, sys, NULL, 1.0);
	ck_assert_uint_eq(tageval_wsi_result_words(r), 2);
	for (size_t i = 0; i < 2; i++) {
		ck_assert_str_eq(tageval_wsi_result_word(r, i), i == 0 ? w1 : w2);
		const struct tageval_wsi_figures *f = tageval_wsi_result_figures(r, i);
		ck_assert_uint_eq(f->instances, 2);
		ck_assert_double_eq(f->clusters, 2.0);
		ck_assert_double_eq(f->classes, 1.0);
	}
	tageval_wsi_result_free(r);
}
END_TEST

static Suite *wsi_suite(void)
{
	Suite *s = suite_create("wsi");
	TCase *tc = tcase_create("spec004");
	tcase_add_loop_test(tc, spec004_dense, 0, 2);
	tcase_add_loop_test(tc, spec004_files, 0, 2);
	tcase_add_test(tc, spec004_small_cluster);
	suite_add_tcase(s, tc);
	tc = tcase_create("degenerate");
	tcase_add_test(tc, one_cluster);
	tcase_add_test(tc, cache_collisions);
	tcase_add_test(tc, one_cluster_per_instance);
	tcase_add_test(tc, one_class);
	tcase_add_test(tc, one_instance);
	tcase_add_test(tc, beta);
	suite_add_tcase(s, tc);
	tc = tcase_create("reading");
	tcase_add_test(tc, unanswered_cluster);
	tcase_add_test(tc, tie_rule_2007);
	tcase_add_test(tc, weights_2010_2007);
	tcase_add_test(tc, totals);
	tcase_add_test(tc, split_words);
	tcase_add_test(tc, pos_selection);
	tcase_add_test(tc, wide_keys);
	tcase_add_test(tc, packed_bounds);
	tcase_add_test(tc, ignored_lines);
	tcase_add_test(tc, gold_fails_after_read_ahead);
	tcase_add_test(tc, gold_duplicate_put_ahead);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_loop_test(tc, bad_inputs, 0, (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, empty_selection);
	tcase_add_test(tc, call_order);
	tcase_add_test(tc, table_arguments);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(wsi_suite());
}
