/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Clustering metrics: the worked examples of
 * ../shared/spec/reference-wsi2013.md (sections 3, 4 and 6), the degenerate
 * clusterings by hand, and the reading rules (graded or crisp, the label of
 * largest weight, extra instances, totals).
 *
 * Expected values are the spec's or worked out by hand, the arithmetic in
 * the comments; natural logarithms for the crisp metrics, log2 for fuzzy NMI.
 * The spec's crisp figures are scikit-learn 1.2's; numpy's vectorised log
 * and scipy's log-gamma differ from libm and GSL in the last bit, so NMI and
 * AMI are compared to 1e-15 (a few units in the last place), everything
 * else to 1e-15 as well unless the value is exact.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-common.h"

#define ULP 1e-15

static struct tageval_clustering_result *eval(const char *gold, const char *sys,
					      enum tageval_clustering_mode mode,
					      enum tageval_normalizer norm)
{
	struct tageval_error err = { 0 };
	struct tageval_wsi *w = tageval_wsi_new();
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(tageval_wsi_read_gold_buffer(w, gold, strlen(gold), "gold", &err), 0);
	ck_assert_int_eq(tageval_wsi_read_clusters_buffer(w, sys, strlen(sys), "clusters", &err),
			 0);
	struct tageval_clustering_options o;
	tageval_clustering_options_init(&o);
	o.mode = mode;
	o.normalizer = norm;
	struct tageval_clustering_result *r = NULL;
	ck_assert_int_eq(tageval_clustering_evaluate(w, &o, &r, &err), 0);
	tageval_wsi_free(w);
	return r;
}

/* Section 6: gold A A A B B C, clusters 1 1 1 1 2 2 (rows: clusters). */
static const double example6[] = { 3, 1, 0, /* cluster 1: A A A B */
				   0, 1, 1 /* cluster 2: B C */ };

START_TEST(crisp_worked_example)
{
	struct tageval_clustering_figures f;
	ck_assert_int_eq(tageval_clustering_table(example6, 2, 3, TAGEVAL_NORMALIZER_DEFAULT, &f),
			 0);
	ck_assert_uint_eq(f.instances, 6);
	/* unordered pairs: both 3, gold only 1, system only 4, neither 7 of 15 */
	ck_assert_double_eq_tol(f.rand, 10.0 / 15.0, ULP);
	ck_assert_double_eq_tol(f.ari, (3 - 4 * 7 / 15.0) / (0.5 * (4 + 7) - 4 * 7 / 15.0), ULP);
	ck_assert_double_eq_tol(f.ari, 0.3119266055045872, ULP);
	ck_assert_double_eq_tol(f.fowlkes_mallows, 3 / sqrt(4 * 7), ULP);
	ck_assert_double_eq_tol(f.fowlkes_mallows, 0.5669467095138407, ULP);
	ck_assert_double_eq_tol(f.nmi, 0.49209366190472337, ULP);
	ck_assert_double_eq_tol(f.ami, 0.2596652676041463, ULP);
	/* B-cubed: A p 3/4 r 1 (x3); B in 1: p 1/4 r 1/2; B in 2: p 1/2 r 1/2; C p 1/2 r 1 */
	ck_assert_double_eq_tol(f.bcubed_precision, (3 * 0.75 + 0.25 + 0.5 + 0.5) / 6, ULP);
	ck_assert_double_eq_tol(f.bcubed_recall, (3 + 0.5 + 0.5 + 1) / 6.0, ULP);
	ck_assert_double_eq_tol(f.bcubed_fscore, 0.6862745098039216, ULP);
	static const struct {
		enum tageval_normalizer n;
		double nmi;
	} norms[] = {
		{ TAGEVAL_NORMALIZER_ARITHMETIC, 0.49209366190472337 },
		{ TAGEVAL_NORMALIZER_GEOMETRIC, 0.5053439370324606 },
		{ TAGEVAL_NORMALIZER_MIN, 0.6370087710606404 },
		{ TAGEVAL_NORMALIZER_MAX, 0.40089321575629805 },
	};
	/* H(C) = 1.0114042647073516, H(K) = 0.6365141682948128, MI = ln 1.5 */
	for (size_t i = 0; i < 4; i++) {
		ck_assert_int_eq(tageval_clustering_table(example6, 2, 3, norms[i].n, &f), 0);
		ck_assert_double_eq_tol(f.nmi, norms[i].nmi, ULP);
	}
	ck_assert_double_eq_tol(0.49209366190472337, log(1.5) / ((1.0114042647073516 +
								   0.6365141682948128) / 2), ULP);
	/* AMI with max: (MI - EMI)/(H(C) - EMI), EMI = 0.2586823355440086 */
	ck_assert_int_eq(tageval_clustering_table(example6, 2, 3, TAGEVAL_NORMALIZER_MAX, &f), 0);
	ck_assert_double_eq_tol(f.ami, (log(1.5) - 0.2586823355440086) /
					       (1.0114042647073516 - 0.2586823355440086), 1e-14);
}
END_TEST

START_TEST(crisp_through_keys)
{
	/* the same word from key files, a second word y.v of one class and one
	 * cluster (every metric 1), totals (6 x + 3)/9 */
	struct tageval_clustering_result *r =
		eval("w.n 1 A\nw.n 2 A\nw.n 3 A\nw.n 4 B\nw.n 5 B\nw.n 6 C\n"
		     "y.v y1 S\ny.v y2 S\ny.v y3 S\n",
		     "w.n 6 2\nw.n 5 2\nw.n 4 1\nw.n 3 1\nw.n 2 1\nw.n 1 1\n"
		     "y.v y1 k\ny.v y2 k\ny.v y3 k\n",
		     TAGEVAL_CLUSTERING_AUTO, TAGEVAL_NORMALIZER_DEFAULT);
	ck_assert_int_eq(tageval_clustering_result_fuzzy(r), 0);
	ck_assert_uint_eq(tageval_clustering_result_words(r), 2);
	const struct tageval_clustering_figures *t = tageval_clustering_result_total(r);
	ck_assert_uint_eq(t->instances, 9);
	ck_assert_double_eq_tol(t->ari, (6 * 0.3119266055045872 + 3) / 9, ULP);
	ck_assert_double_eq_tol(t->rand, (6 * 10 / 15.0 + 3) / 9, ULP);
	ck_assert_double_eq_tol(t->nmi, (6 * 0.49209366190472337 + 3) / 9, ULP);
	ck_assert_double_eq_tol(t->ami, (6 * 0.2596652676041463 + 3) / 9, ULP);
	/* B-cubed: P, R instance-weighted, F from them */
	double P = (6 * 7 / 12.0 + 3) / 9, R = (6 * 5 / 6.0 + 3) / 9;
	ck_assert_double_eq_tol(t->bcubed_precision, P, ULP);
	ck_assert_double_eq_tol(t->bcubed_recall, R, ULP);
	ck_assert_double_eq_tol(t->bcubed_fscore, 2 * P * R / (P + R), ULP);
	/* pooled: 36 pairs, both 6, same class 7, same cluster 10 */
	const struct tageval_clustering_figures *p = tageval_clustering_result_pooled(r);
	ck_assert_double_eq_tol(p->rand, 31 / 36.0, ULP);
	ck_assert_double_eq_tol(p->ari, (6 - 70 / 36.0) / (17 / 2.0 - 70 / 36.0), ULP);
	ck_assert_double_eq_tol(p->fowlkes_mallows, 6 / sqrt(70), ULP);
	tageval_clustering_result_free(r);
}
END_TEST

START_TEST(one_cluster)
{
	/* classes 2 + 2 in one cluster: S = 8, tp = 4, fn = 0, fp = 8, tn = 0 */
	static const double m[] = { 2, 2 };
	struct tageval_clustering_figures f;
	ck_assert_int_eq(tageval_clustering_table(m, 1, 2, TAGEVAL_NORMALIZER_DEFAULT, &f), 0);
	ck_assert_double_eq(f.ari, 0.0);              /* 2(4*0 - 0*8) = 0 */
	ck_assert_double_eq_tol(f.rand, 4 / 12.0, ULP); /* (tp + tn)/(N^2 - N) */
	ck_assert_double_eq_tol(f.fowlkes_mallows, 4 / sqrt(12 * 4.0), ULP);
	ck_assert_double_eq(f.nmi, 0.0);              /* MI = 0 */
	ck_assert_double_eq(f.ami, 0.0);              /* (0 - 0)/(ln 2 / 2 - 0) */
	ck_assert_double_eq_tol(f.bcubed_precision, 0.5, ULP); /* 2/4 for each */
	ck_assert_double_eq_tol(f.bcubed_recall, 1.0, ULP);
	ck_assert_double_eq_tol(f.bcubed_fscore, 2 / 3.0, ULP);
	/* min normalizer: min(ln 2, 0) - EMI = 0, not identical partitions: null */
	ck_assert_int_eq(tageval_clustering_table(m, 1, 2, TAGEVAL_NORMALIZER_MIN, &f), 0);
	ck_assert(isnan(f.ami));
	ck_assert_double_eq(f.nmi, 0.0);
}
END_TEST

START_TEST(one_cluster_per_instance)
{
	/* classes 2 + 2, four singleton clusters: tp = 0, fn = 4, fp = 0, tn = 8 */
	static const double m[] = { 1, 0, 1, 0, 0, 1, 0, 1 };
	struct tageval_clustering_figures f;
	ck_assert_int_eq(tageval_clustering_table(m, 4, 2, TAGEVAL_NORMALIZER_DEFAULT, &f), 0);
	ck_assert_double_eq(f.ari, 0.0);               /* 2(0*8 - 4*0) = 0 */
	ck_assert_double_eq_tol(f.rand, 8 / 12.0, ULP);
	ck_assert_double_eq(f.fowlkes_mallows, 0.0);   /* tp = 0 */
	/* MI = H(C) = ln 2, H(K) = ln 4: NMI = ln 2 / (3 ln 2 / 2) = 2/3 */
	ck_assert_double_eq_tol(f.nmi, 2 / 3.0, ULP);
	/* EMI = H(C) for singletons: AMI = 0; MI - EMI is the difference of two
	 * sums of about ln 2 (EMI's terms through log-gamma), so a few 1e-15 */
	ck_assert_double_eq_tol(f.ami, 0.0, 1e-14);
	ck_assert_double_eq_tol(f.bcubed_precision, 1.0, ULP);
	ck_assert_double_eq_tol(f.bcubed_recall, 0.5, ULP);
	ck_assert_double_eq_tol(f.bcubed_fscore, 2 / 3.0, ULP);
	/* identical all-singleton partitions: every metric 1 (AMI's denominator
	 * vanishes: 1 because the partitions are identical) */
	static const double id[] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	ck_assert_int_eq(tageval_clustering_table(id, 3, 3, TAGEVAL_NORMALIZER_DEFAULT, &f), 0);
	ck_assert_double_eq(f.ari, 1.0);
	ck_assert_double_eq(f.rand, 1.0);
	ck_assert_double_eq(f.fowlkes_mallows, 0.0); /* tp = 0 */
	ck_assert_double_eq_tol(f.nmi, 1.0, ULP);
	ck_assert_double_eq(f.ami, 1.0);
}
END_TEST

START_TEST(one_class)
{
	/* one class of 3 in clusters 2 + 1: S = 5, tp = 2, fn = 4, fp = 0, tn = 0 */
	static const double m[] = { 2, 1 };
	struct tageval_clustering_figures f;
	ck_assert_int_eq(tageval_clustering_table(m, 2, 1, TAGEVAL_NORMALIZER_DEFAULT, &f), 0);
	ck_assert_double_eq(f.ari, 0.0);
	ck_assert_double_eq_tol(f.rand, 2 / 6.0, ULP);
	ck_assert_double_eq_tol(f.fowlkes_mallows, 2 / sqrt(2 * 6.0), ULP);
	ck_assert_double_eq(f.nmi, 0.0);
	ck_assert_double_eq(f.ami, 0.0);
	/* p = 1 each; r = 2/3, 2/3, 1/3 */
	ck_assert_double_eq_tol(f.bcubed_precision, 1.0, ULP);
	ck_assert_double_eq_tol(f.bcubed_recall, 5 / 9.0, ULP);
	ck_assert_double_eq_tol(f.bcubed_fscore, 5 / 7.0, ULP);
	/* one class and one cluster: 1 (NMI, AMI by definition) */
	static const double one[] = { 3 };
	ck_assert_int_eq(tageval_clustering_table(one, 1, 1, TAGEVAL_NORMALIZER_DEFAULT, &f), 0);
	ck_assert_double_eq(f.ari, 1.0);
	ck_assert_double_eq(f.nmi, 1.0);
	ck_assert_double_eq(f.ami, 1.0);
	ck_assert_double_eq(f.bcubed_fscore, 1.0);
}
END_TEST

START_TEST(empty_word)
{
	/* no instance: ARI 1 (fn = fp = 0), Rand 1 (N <= 1), FMI 0 (tp = 0),
	 * NMI = AMI = 1 (N = 0), B-cubed 0 */
	static const double zero[] = { 0, 0 };
	struct tageval_clustering_figures f;
	ck_assert_int_eq(tageval_clustering_table(zero, 1, 2, TAGEVAL_NORMALIZER_DEFAULT, &f), 0);
	ck_assert_uint_eq(f.instances, 0);
	ck_assert_double_eq(f.ari, 1.0);
	ck_assert_double_eq(f.rand, 1.0);
	ck_assert_double_eq(f.fowlkes_mallows, 0.0);
	ck_assert_double_eq(f.nmi, 1.0);
	ck_assert_double_eq(f.ami, 1.0);
	ck_assert_double_eq(f.bcubed_fscore, 0.0);
	/* fuzzy: a gold word the system key lacks scores 0 */
	struct tageval_clustering_result *r =
		eval("w.n 1 a/1 b/2\nw.n 2 a\nx.n 3 a\nx.n 4 a\n", "x.n 3 c\nx.n 4 c\n",
		     TAGEVAL_CLUSTERING_AUTO, TAGEVAL_NORMALIZER_DEFAULT);
	ck_assert_int_eq(tageval_clustering_result_fuzzy(r), 1);
	const struct tageval_clustering_figures *w = tageval_clustering_result_figures(r, 0);
	ck_assert_double_eq(w->bcubed_precision, 0.0);
	ck_assert_double_eq(w->bcubed_recall, 0.0);
	ck_assert_double_eq(w->nmi, 0.0);
	/* x.n: identical one-cluster clustering, p = r = 1 for both instances;
	 * totals: mean over the two words, 1/2 */
	const struct tageval_clustering_figures *x = tageval_clustering_result_figures(r, 1);
	ck_assert_double_eq(x->bcubed_precision, 1.0);
	ck_assert_double_eq(x->bcubed_recall, 1.0);
	const struct tageval_clustering_figures *t = tageval_clustering_result_total(r);
	ck_assert_double_eq(t->bcubed_precision, 0.5);
	ck_assert_double_eq(t->bcubed_recall, 0.5);
	ck_assert(isnan(t->ami));
	ck_assert(isnan(t->ari));
	tageval_clustering_result_free(r);
}
END_TEST

/* Section 3: gold s1/4; s1/5; s1/2 s2/4; s2/3 and system c1; c1/2 c2/1;
 * c2/1; c3, as memberships after 2.2. */
START_TEST(fuzzy_worked_example)
{
	static const struct tageval_membership g[] = {
		{ 0, 1, 1.0 }, { 1, 1, 1.0 }, { 2, 1, 0.5 }, { 2, 2, 1.0 }, { 3, 2, 1.0 },
	};
	static const struct tageval_membership s[] = {
		{ 0, 1, 1.0 }, { 1, 1, 1.0 }, { 1, 2, 0.5 }, { 2, 2, 1.0 }, { 3, 3, 1.0 },
	};
	struct tageval_clustering_figures f;
	ck_assert_int_eq(tageval_clustering_fuzzy_table(g, 5, s, 5, 4, 4,
							 TAGEVAL_NORMALIZER_DEFAULT, &f),
			 0);
	/* r = (1/2, 1, 1/3, 0), p = (1, 1, 1, 0), over 4 gold instances */
	ck_assert_double_eq_tol(f.bcubed_recall, (0.5 + 1 + 1 / 3.0 + 0) / 4, ULP);
	ck_assert_double_eq_tol(f.bcubed_recall, 0.4583333333333333, ULP);
	ck_assert_double_eq_tol(f.bcubed_precision, 0.75, ULP);
	ck_assert_double_eq_tol(f.bcubed_fscore, 0.5689655172413793, ULP);
	/* H_G = 2.5, H_T = 3.3112781244591328, H_G|T = H_T|G = 1 */
	ck_assert_double_eq_tol(f.nmi, 0.5754995474869194, ULP);
	ck_assert_double_eq_tol(f.nmi, 0.5 * (2.5 - 1 + 3.3112781244591328 - 1) / 3.3112781244591328,
				ULP);
	/* the same through key files (graded: fuzzy) */
	struct tageval_clustering_result *r =
		eval("w.n 1 s1/4\nw.n 2 s1/5\nw.n 3 s1/2 s2/4\nw.n 4 s2/3\n",
		     "w.n 1 c1\nw.n 2 c1/2 c2/1\nw.n 3 c2/1\nw.n 4 c3\n", TAGEVAL_CLUSTERING_AUTO,
		     TAGEVAL_NORMALIZER_DEFAULT);
	ck_assert_int_eq(tageval_clustering_result_fuzzy(r), 1);
	ck_assert_ptr_null(tageval_clustering_result_pooled(r));
	const struct tageval_clustering_figures *t = tageval_clustering_result_total(r);
	ck_assert_double_eq_tol(t->bcubed_recall, 0.4583333333333333, ULP);
	ck_assert_double_eq_tol(t->bcubed_precision, 0.75, ULP);
	ck_assert_double_eq_tol(t->bcubed_fscore, 0.5689655172413793, ULP);
	ck_assert_double_eq_tol(t->nmi, 0.5754995474869194, ULP);
	ck_assert(isnan(t->ami));
	tageval_clustering_result_free(r);
}
END_TEST

START_TEST(extra_instances)
{
	/* gold 1 s1, 2 s1; system 1 c, 2 c and the extra instance 9 c.
	 * Fuzzy: r_1 = r_2 = 1 -> R = 1; p_1 = (1 + 0)/2 (pair 1-9 has gold
	 * agreement 0), p_2 = 1/2, p_9 = 0 -> P = (1/2 + 1/2 + 0)/2 = 1/2.
	 * FNMI: N = 3; s1 = (1,1,0): H = h(2/3, 1/3) bits, c = (1,1,1): H = 0;
	 * pair (s1, c): p++ 2/3, p-+ 1/3, so h(2/3) + h(0) < h(0) + h(1/3)
	 * (0.270 < 0.366): no candidate, MI = 1/2 (H - H + 0 - 0) = 0. */
	const char *gold = "w.n 1 s1\nw.n 2 s1\n", *sys = "w.n 1 c\nw.n 2 c\nw.n 9 c\n";
	struct tageval_clustering_result *r =
		eval(gold, sys, TAGEVAL_CLUSTERING_FUZZY, TAGEVAL_NORMALIZER_DEFAULT);
	const struct tageval_clustering_figures *t = tageval_clustering_result_total(r);
	ck_assert_double_eq_tol(t->bcubed_recall, 1.0, ULP);
	ck_assert_double_eq_tol(t->bcubed_precision, 0.5, ULP);
	ck_assert_double_eq_tol(t->bcubed_fscore, 2 * 0.5 / 1.5, ULP);
	ck_assert_double_eq_tol(t->nmi, 0.0, ULP);
	tageval_clustering_result_free(r);
	/* crisp (auto: one bare label per line): the extra line is ignored */
	r = eval(gold, sys, TAGEVAL_CLUSTERING_AUTO, TAGEVAL_NORMALIZER_DEFAULT);
	ck_assert_int_eq(tageval_clustering_result_fuzzy(r), 0);
	t = tageval_clustering_result_total(r);
	ck_assert_double_eq(t->bcubed_precision, 1.0);
	ck_assert_double_eq(t->ari, 1.0);
	tageval_clustering_result_free(r);
}
END_TEST

START_TEST(largest_weight_rule)
{
	/* crisp reading: gold a/1 b/3 -> b, a/2 b/2 -> a (first on ties);
	 * system c1/0.2 c2/0.8 -> c2, c2 -> c2, c1 c2 (weights 1, 1) -> c1.
	 * Classes {1: b} {2: a, 3: a}; clusters {1, 2} {3}: ARI over 3
	 * instances: pairs 3, both 0, same class 1 (2-3), same cluster 1 (1-2):
	 * ARI = (0 - 1/3)/(1 - 1/3) = -1/2; Rand = 1/3. */
	struct tageval_clustering_result *r =
		eval("w.n 1 a/1 b/3\nw.n 2 a/2 b/2\nw.n 3 a\n",
		     "w.n 1 c1/0.2 c2/0.8\nw.n 2 c2\nw.n 3 c1 c2\n", TAGEVAL_CLUSTERING_CRISP,
		     TAGEVAL_NORMALIZER_DEFAULT);
	const struct tageval_clustering_figures *t = tageval_clustering_result_total(r);
	ck_assert_double_eq_tol(t->ari, -0.5, ULP);
	ck_assert_double_eq_tol(t->rand, 1 / 3.0, ULP);
	tageval_clustering_result_free(r);
}
END_TEST

START_TEST(graded_detection)
{
	struct tageval_error err = { 0 };
	struct tageval_wsi *w = tageval_wsi_new();
	const char *g = "w.n 1 a\nw.n 2 a b\nw.n 3 a/2\n", *s = "w.n 1 c\nw.n 2 c/1\nw.n 9 d e\n";
	ck_assert_int_eq(tageval_wsi_read_gold_buffer(w, g, strlen(g), "gold", &err), 0);
	ck_assert_int_eq(tageval_wsi_read_clusters_buffer(w, s, strlen(s), "clusters", &err), 0);
	struct tageval_wsi_counts c;
	tageval_wsi_counts(w, &c);
	ck_assert_uint_eq(c.gold_multi, 1);
	ck_assert_uint_eq(c.gold_weighted, 1);
	ck_assert_uint_eq(c.system_multi, 0);
	ck_assert_uint_eq(c.system_weighted, 1);
	ck_assert_uint_eq(c.extra, 1);
	ck_assert_uint_eq(c.extra_graded, 1);
	ck_assert_int_eq(tageval_wsi_graded(w), 1);
	ck_assert_uint_eq(tageval_wsi_ignored(w), 1);
	tageval_wsi_free(w);
	w = tageval_wsi_new();
	g = "w.n 1 a\n";
	s = "w.n 1 c\nx.n 2 c/2\n"; /* a weighted line of another word counts nowhere */
	ck_assert_int_eq(tageval_wsi_read_gold_buffer(w, g, strlen(g), "gold", &err), 0);
	ck_assert_int_eq(tageval_wsi_read_clusters_buffer(w, s, strlen(s), "clusters", &err), 0);
	ck_assert_int_eq(tageval_wsi_graded(w), 0);
	tageval_wsi_free(w);
}
END_TEST

START_TEST(zero_weights_and_repeats)
{
	struct tageval_error err = { 0 };
	struct tageval_wsi *w = tageval_wsi_new();
	const char *g = "w.n 1 a\nw.n 2 a\n", *s = "w.n 1 c/0 d/0\nw.n 2 c\n";
	ck_assert_int_eq(tageval_wsi_read_gold_buffer(w, g, strlen(g), "gold", &err), 0);
	ck_assert_int_eq(tageval_wsi_read_clusters_buffer(w, s, strlen(s), "clusters", &err), 0);
	struct tageval_clustering_result *r = NULL;
	ck_assert_int_eq(tageval_clustering_evaluate(w, NULL, &r, &err), TAGEVAL_EFORMAT);
	ck_assert_str_eq(err.file, "clusters");
	ck_assert_uint_eq(err.line, 1);
	ck_assert_ptr_null(r);
	tageval_wsi_free(w);
	/* a label twice in a line: once, every membership of the line 1 (the
	 * jars): c/0.2 c/1 d/0.5 reads as c 1, d 1, so instances 1 and 2 agree
	 * fully on c and d; p = r = 1 for both */
	r = eval("w.n 1 a\nw.n 2 a\n", "w.n 1 c/0.2 c/1 d/0.5\nw.n 2 c/1 d/1\n",
		 TAGEVAL_CLUSTERING_AUTO, TAGEVAL_NORMALIZER_DEFAULT);
	ck_assert_uint_eq(tageval_clustering_result_repeated(r), 1);
	const struct tageval_clustering_figures *t = tageval_clustering_result_total(r);
	/* pair 1-2: gold agreement 1, system agreement (1-0) + (1-0) = 2:
	 * recall side min(1, 2)/1 = 1, precision side min(1, 2)/2 = 1/2 */
	ck_assert_double_eq_tol(t->bcubed_recall, 1.0, ULP);
	ck_assert_double_eq_tol(t->bcubed_precision, 0.5, ULP);
	tageval_clustering_result_free(r);
}
END_TEST

START_TEST(fuzzy_many_labels)
{
	/* more than 64 gold senses (the general path, not the 64-bit masks):
	 * 70 instances, instance i has sense i (1) and the shared sense 100
	 * (0.5); clusters: 0-34 in c1, 35-69 in c2.  Every pair shares sense 100
	 * with agreement 1 - |0.5 - 0.5| = 1 (the own senses are not shared);
	 * the system agreement is 1 within a cluster, 0 across.  Recall: 69
	 * neighbours, 34 contribute min(1, 1)/1, 35 contribute 0: r = 34/69.
	 * Precision: 34 neighbours, each 1: p = 1.  F = 2 (34/69)/(1 + 34/69). */
	struct tageval_membership g[140], s[70];
	for (size_t i = 0; i < 70; i++) {
		g[2 * i] = (struct tageval_membership){ i, i, 1.0 };
		g[2 * i + 1] = (struct tageval_membership){ i, 100, 0.5 };
		s[i] = (struct tageval_membership){ i, i < 35 ? 1 : 2, 1.0 };
	}
	struct tageval_clustering_figures f;
	ck_assert_int_eq(tageval_clustering_fuzzy_table(g, 140, s, 70, 70, 70,
							 TAGEVAL_NORMALIZER_DEFAULT, &f),
			 0);
	ck_assert_double_eq_tol(f.bcubed_recall, 34 / 69.0, ULP);
	ck_assert_double_eq_tol(f.bcubed_precision, 1.0, ULP);
	ck_assert_double_eq_tol(f.bcubed_fscore, 2 * (34 / 69.0) / (1 + 34 / 69.0), ULP);
}
END_TEST

static Suite *clustering_suite(void)
{
	Suite *s = suite_create("clustering");
	TCase *tc = tcase_create("crisp");
	tcase_add_test(tc, crisp_worked_example);
	tcase_add_test(tc, crisp_through_keys);
	tcase_add_test(tc, largest_weight_rule);
	suite_add_tcase(s, tc);
	tc = tcase_create("degenerate");
	tcase_add_test(tc, one_cluster);
	tcase_add_test(tc, one_cluster_per_instance);
	tcase_add_test(tc, one_class);
	tcase_add_test(tc, empty_word);
	suite_add_tcase(s, tc);
	tc = tcase_create("fuzzy");
	tcase_add_test(tc, fuzzy_worked_example);
	tcase_add_test(tc, fuzzy_many_labels);
	tcase_add_test(tc, extra_instances);
	tcase_add_test(tc, graded_detection);
	tcase_add_test(tc, zero_weights_and_repeats);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(clustering_suite());
}
