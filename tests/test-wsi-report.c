/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The word-sense-induction report object (tageval_wsi_report_*): one gold
 * key, clusterings and baselines evaluated one after the other, supervised
 * splits built once.
 *
 * The data is that of tests/cli/wsi-report (data/gold.key, x.key, splits):
 *   gold: a.n: a1 a2 s1, a3 a4 s2; b.v: b1 t1, b2 t2
 *   x:    a.n: a1 a2 c1, a3 a4 c2; b.v: b1 b2 k1
 * Every expected value is worked out by hand in the comments.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "test-common.h"

static const char gold[] = "a.n a1 s1\na.n a2 s1\na.n a3 s2\na.n a4 s2\nb.v b1 t1\nb.v b2 t2\n";
static const char x[] = "a.n a1 c1\na.n a2 c1\na.n a3 c2\na.n a4 c2\nb.v b1 k1\nb.v b2 k1\n";
/* one cluster per word: the clustering of the 1c1w baseline */
static const char y[] = "a.n a1 cl1\na.n a2 cl1\na.n a3 cl1\na.n a4 cl1\nb.v b1 cl1\nb.v b2 cl1\n";

static struct tageval_wsi_report *open_gold(void)
{
	struct tageval_error err = { 0 };
	struct tageval_wsi_report *r = NULL;
	if (tageval_wsi_report_new_buffer(gold, strlen(gold), "gold", &r, &err))
		ck_abort_msg("gold: %s", err.message);
	ck_assert_ptr_nonnull(r);
	return r;
}

static void read_clusters(struct tageval_wsi_report *r, const char *text)
{
	struct tageval_error err = { 0 };
	if (tageval_wsi_report_read_clusters_buffer(r, text, strlen(text), "clusters", &err))
		ck_abort_msg("clusters: %s:%" PRIu64 ": %s", err.file, err.line, err.message);
}

static void figures(const struct tageval_wsi_report *r, const char *pos,
		    struct tageval_wsi_figures *wf, struct tageval_clustering_figures *cf)
{
	struct tageval_error err = { 0 };
	size_t repeated = 99;
	if (tageval_wsi_report_figures(r, pos, TAGEVAL_CLUSTERING_BCUBED, wf, cf, &repeated, &err))
		ck_abort_msg("figures: %s", err.message);
	ck_assert_uint_eq(repeated, 0);
}

/* A temporary file holding @text (gzip-compressed when @gz); free() the name. */
static char *temp_file(const char *text, int gz)
{
	char *name = strdup("/tmp/test-wsi-report-XXXXXX");
	ck_assert_ptr_nonnull(name);
	int fd = mkstemp(name);
	ck_assert_int_ge(fd, 0);
	if (gz) {
		gzFile g = gzdopen(fd, "wb");
		ck_assert_ptr_nonnull(g);
		ck_assert_int_eq(gzwrite(g, text, (unsigned)strlen(text)), (int)strlen(text));
		ck_assert_int_eq(gzclose(g), Z_OK);
	} else {
		ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
		ck_assert_int_eq(close(fd), 0);
	}
	return name;
}

/* ------------------------------------------------------------ the figures */

/*
 * x on all words:
 *   a.n: clusters = classes, homogeneity = completeness = V = 1; paired:
 *     system pairs {a1a2, a3a4}, gold pairs the same: P = R = F = 1.
 *   b.v: one cluster over two singleton classes: H(C|K) = H(C) = 1 bit,
 *     homogeneity 0, V 0; completeness 1 (H(K) = 0); paired: the system's
 *     pair b1b2 is no gold pair: F = 0.
 *   Totals weighted by instances (4 and 2): V = (4 x 1 + 2 x 0) / 6 = 2/3,
 *   homogeneity 2/3, completeness (4 + 2) / 6 = 1, paired F 2/3; clusters
 *   per word (2 + 1) / 2 = 1.5, classes (2 + 2) / 2 = 2.
 *   B-cubed (crisp): a.n every instance P = R = 1; b.v P = 1/2 (its cluster
 *   holds 2, one of its class), R = 1: P = (4 + 2 x 1/2) / 6 = 5/6.
 */
START_TEST(clustering_figures)
{
	struct tageval_wsi_report *r = open_gold();
	struct tageval_wsi_figures wf;
	struct tageval_clustering_figures cf;
	read_clusters(r, x);
	figures(r, NULL, &wf, &cf);
	ck_assert_double_eq_tol(wf.v_measure, 2.0 / 3.0, TOL);
	ck_assert_double_eq_tol(wf.homogeneity, 2.0 / 3.0, TOL);
	ck_assert_double_eq_tol(wf.completeness, 1.0, TOL);
	ck_assert_double_eq_tol(wf.paired_fscore, 2.0 / 3.0, TOL);
	ck_assert_double_eq_tol(wf.clusters, 1.5, TOL);
	ck_assert_double_eq_tol(cf.bcubed_precision, 5.0 / 6.0, TOL);
	ck_assert_double_eq_tol(cf.bcubed_recall, 1.0, TOL);
	/* the nouns alone: a.n's figures; the verbs alone: b.v's */
	figures(r, "n", &wf, &cf);
	ck_assert_double_eq_tol(wf.v_measure, 1.0, TOL);
	ck_assert_double_eq_tol(wf.paired_fscore, 1.0, TOL);
	ck_assert_double_eq_tol(wf.clusters, 2.0, TOL);
	figures(r, "v", &wf, &cf);
	ck_assert_double_eq_tol(wf.v_measure, 0.0, TOL);
	ck_assert_double_eq_tol(wf.paired_fscore, 0.0, TOL);
	ck_assert_double_eq_tol(wf.clusters, 1.0, TOL);
	tageval_wsi_report_free(r);
}
END_TEST

/*
 * TAGEVAL_WSI_REPORT_NO_2007: the SemEval-2007 figures NaN, all the others
 * the same bit for bit, on x (crisp) and on a clustering with weights (its
 * SemEval-2007 table differs from the SemEval-2010 one: the second table
 * is the one skipped).  Without the flag, x's SemEval-2007 figures (a.n
 * perfect; b.v one cluster over two singleton classes: best F of each class
 * 2 x (1/2 x 1) / (3/2) = 2/3, purity 1/2, entropy 1): F (4 + 2 x 2/3) / 6
 * = 8/9, purity (4 + 1) / 6 = 5/6, entropy 2 / 6 = 1/3.  The flag alone is
 * no metric family: the clustering figures are left alone, as with 0.
 */
START_TEST(no_2007)
{
	static const char xw[] = "a.n a1 c1/0.5 c2/0.5\na.n a2 c1\na.n a3 c2\na.n a4 c2\n"
				 "b.v b1 k1\nb.v b2 k1\n";
	struct tageval_wsi_report *r = open_gold();
	struct tageval_error err = { 0 };
	for (int k = 0; k < 2; k++) {
		read_clusters(r, k == 0 ? x : xw);
		struct tageval_wsi_figures a, b;
		struct tageval_clustering_figures ca, cb;
		size_t ra = 9, rb = 9;
		ck_assert_int_eq(tageval_wsi_report_figures(r, NULL, TAGEVAL_CLUSTERING_BCUBED, &a,
							    &ca, &ra, &err), TAGEVAL_OK);
		ck_assert_int_eq(tageval_wsi_report_figures(r, NULL, TAGEVAL_CLUSTERING_BCUBED |
							    TAGEVAL_WSI_REPORT_NO_2007,
							    &b, &cb, &rb, &err), TAGEVAL_OK);
		if (k == 0) {
			ck_assert_double_eq_tol(a.fscore, 8.0 / 9.0, TOL);
			ck_assert_double_eq_tol(a.purity, 5.0 / 6.0, TOL);
			ck_assert_double_eq_tol(a.entropy, 1.0 / 3.0, TOL);
		}
		ck_assert(isnan(b.fscore) && isnan(b.purity) && isnan(b.entropy) &&
			  isnan(b.clusters_2007));
		ck_assert_uint_eq(a.instances, b.instances);
		ck_assert(a.clusters == b.clusters && a.classes == b.classes);
		ck_assert(a.homogeneity == b.homogeneity && a.completeness == b.completeness &&
			  a.v_measure == b.v_measure);
		ck_assert(a.paired_precision == b.paired_precision &&
			  a.paired_recall == b.paired_recall && a.paired_fscore == b.paired_fscore);
		ck_assert(ca.bcubed_precision == cb.bcubed_precision &&
			  ca.bcubed_recall == cb.bcubed_recall &&
			  ca.bcubed_fscore == cb.bcubed_fscore);
		ck_assert_uint_eq(ra, rb);
		cb.bcubed_fscore = -7.0;
		ck_assert_int_eq(tageval_wsi_report_figures(r, "n", TAGEVAL_WSI_REPORT_NO_2007, &b,
							    &cb, &rb, &err), TAGEVAL_OK);
		ck_assert(cb.bcubed_fscore == -7.0);
		ck_assert(isnan(b.fscore));
	}
	tageval_wsi_report_free(r);
}
END_TEST

/*
 * The baselines:
 *   1c1w: one cluster per word: homogeneity 0 on both words, V = 0; a.n
 *     paired: system pairs C(4,2) = 6, gold pairs 2, both in the system's:
 *     P = 2/6, R = 1, F = 2 x (1/3) / (4/3) = 1/2; b.v: gold has no pair:
 *     F = 0; total (4 x 1/2 + 2 x 0) / 6 = 1/3; clusters 1.
 *   1c1inst: a.n homogeneity 1, H(K) = 2 bits, H(K|C) = 1: completeness
 *     1/2, V = 2 x 1 x 1/2 / (3/2) = 2/3; b.v perfect, V = 1; total
 *     (4 x 2/3 + 2 x 1) / 6 = 7/9; paired: no system pair on a.n (F = 0),
 *     b.v none on either side (F = 1): total 2/6 = 1/3; clusters (4 + 2) / 2
 *     = 3.
 *   random with k = 1: every instance in rand0, so 1c1w's figures.
 */
START_TEST(baselines)
{
	struct tageval_error err = { 0 };
	struct tageval_wsi_report *r = open_gold();
	struct tageval_wsi_figures wf;
	struct tageval_clustering_figures cf;
	static const struct {
		enum tageval_wsi_baseline b;
		double v, f, clusters;
	} rows[] = {
		{ TAGEVAL_WSI_1C1W, 0.0, 1.0 / 3.0, 1.0 },
		{ TAGEVAL_WSI_1C1INST, 7.0 / 9.0, 1.0 / 3.0, 3.0 },
		{ TAGEVAL_WSI_RANDOM, 0.0, 1.0 / 3.0, 1.0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		ck_assert_int_eq(tageval_wsi_report_baseline(r, rows[i].b, 1, 1, &err), TAGEVAL_OK);
		figures(r, NULL, &wf, &cf);
		ck_assert_double_eq_tol(wf.v_measure, rows[i].v, TOL);
		ck_assert_double_eq_tol(wf.paired_fscore, rows[i].f, TOL);
		ck_assert_double_eq_tol(wf.clusters, rows[i].clusters, TOL);
		/* every gold instance answered, nothing ignored */
		ck_assert_uint_eq(tageval_wsi_answered(tageval_wsi_report_wsi(r)), 6);
		ck_assert_uint_eq(tageval_wsi_ignored(tageval_wsi_report_wsi(r)), 0);
	}
	/* k = 0 clusters, or no such baseline */
	ck_assert_int_eq(tageval_wsi_report_baseline(r, TAGEVAL_WSI_RANDOM, 1, 0, &err),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_report_baseline(r, (enum tageval_wsi_baseline)3, 1, 1, &err),
			 TAGEVAL_EINVAL);
	tageval_wsi_report_free(r);
}
END_TEST

/*
 * A clustering replaces the one before: x, then y (1c1w's clustering, of
 * other labels), then x again give x's, y's and x's figures (V 2/3, 0,
 * 2/3; clusters 1.5, 1, 1.5), and the notes' counts start again: a
 * clustering with a line for an instance the gold key lacks ("a9", of the
 * gold word a.n: ignored, an extra instance) is followed by one without.
 */
START_TEST(replaced)
{
	struct tageval_wsi_report *r = open_gold();
	struct tageval_wsi_figures wf;
	struct tageval_clustering_figures cf;
	struct tageval_wsi_counts counts;
	const char *seq[] = { x, y, x };
	const double v[] = { 2.0 / 3.0, 0.0, 2.0 / 3.0 }, k[] = { 1.5, 1.0, 1.5 };
	for (int i = 0; i < 3; i++) {
		read_clusters(r, seq[i]);
		figures(r, NULL, &wf, &cf);
		ck_assert_double_eq_tol(wf.v_measure, v[i], TOL);
		ck_assert_double_eq_tol(wf.clusters, k[i], TOL);
	}
	read_clusters(r, "a.n a9 c1\na.n a1 c1\n");
	ck_assert_uint_eq(tageval_wsi_ignored(tageval_wsi_report_wsi(r)), 1);
	ck_assert_uint_eq(tageval_wsi_answered(tageval_wsi_report_wsi(r)), 1);
	tageval_wsi_counts(tageval_wsi_report_wsi(r), &counts);
	ck_assert_uint_eq(counts.extra, 1);
	read_clusters(r, x);
	ck_assert_uint_eq(tageval_wsi_ignored(tageval_wsi_report_wsi(r)), 0);
	ck_assert_uint_eq(tageval_wsi_answered(tageval_wsi_report_wsi(r)), 6);
	tageval_wsi_counts(tageval_wsi_report_wsi(r), &counts);
	ck_assert_uint_eq(counts.extra, 0);
	/* a clustering with an error, then a good one: the good one's figures */
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_wsi_report_read_clusters_buffer(r, "a.n a1\n", 7, "bad", &err),
			 TAGEVAL_EFORMAT);
	ck_assert_uint_eq(err.line, 1);
	read_clusters(r, x);
	figures(r, NULL, &wf, &cf);
	ck_assert_double_eq_tol(wf.v_measure, 2.0 / 3.0, TOL);
	tageval_wsi_report_free(r);
}
END_TEST

/*
 * A graded clustering and a crisp one in turn: z is x with a1 and a3 given
 * two weighted labels, the first (and heaviest) x's, so that its crisp
 * reading is x's: V 2/3, clusters (2 + 1) / 2 = 1.5; two lines of several
 * labels, both weighted.  x read after it has x's figures
 * (clustering_figures: V 2/3, paired F 2/3, B-cubed P 5/6, R 1) and no
 * graded line; z again z's.  (The lines of several labels are kept apart
 * from the others; reading another clustering forgets where.)
 */
START_TEST(replaced_graded)
{
	static const char z[] = "a.n a1 c1/0.9 c2/0.1\na.n a2 c1\na.n a3 c2/0.8 c1/0.2\n"
				"a.n a4 c2\nb.v b1 k1\nb.v b2 k1\n";
	struct tageval_wsi_report *r = open_gold();
	struct tageval_wsi_figures wf;
	struct tageval_clustering_figures cf;
	struct tageval_wsi_counts counts;
	const char *seq[] = { z, x, z, x };
	for (int i = 0; i < 4; i++) {
		read_clusters(r, seq[i]);
		tageval_wsi_counts(tageval_wsi_report_wsi(r), &counts);
		ck_assert_uint_eq(counts.system_multi, i % 2 ? 0 : 2);
		ck_assert_uint_eq(counts.system_weighted, i % 2 ? 0 : 2);
		ck_assert_uint_eq(tageval_wsi_answered(tageval_wsi_report_wsi(r)), 6);
		figures(r, NULL, &wf, &cf);
		ck_assert_double_eq_tol(wf.v_measure, 2.0 / 3.0, TOL);
		ck_assert_double_eq_tol(wf.clusters, 1.5, TOL);
		if (i % 2) {
			ck_assert_double_eq_tol(wf.paired_fscore, 2.0 / 3.0, TOL);
			ck_assert_double_eq_tol(cf.bcubed_precision, 5.0 / 6.0, TOL);
			ck_assert_double_eq_tol(cf.bcubed_recall, 1.0, TOL);
		}
	}
	tageval_wsi_report_free(r);
}
END_TEST

/* ------------------------------------------------------------- supervised */

/*
 * Two splits from files: split 1 maps a1 a3 b1 and tests a2 a4 b2, split 2
 * the other way round.
 *   x: split 1 maps c1 -> s1, c2 -> s2, k1 -> t1: a2 (s1) and a4 (s2) right,
 *     b2 (t2) wrong: recall 2/3; split 2 likewise (k1 -> t2, b1 wrong): 2/3.
 *   1c1w: cl1 of a.n has s1 and s2 once each; the tie goes to s1 (bytewise
 *     first): one of a.n's two test instances right, b.v's wrong: 1/3 on
 *     both splits.
 *   1c1inst: every test instance is alone in a cluster no mapping instance
 *     has: no answer, recall 0.
 * The splits are built once: x, 1c1w, 1c1inst, x again give 2/3, 1/3, 0,
 * 2/3.
 */
/*
 * The baseline of one cluster per instance names its clusters "cl1" ...
 * "cl6" (the instances in bytewise order of their ids: a1 a2 a3 a4 b1 b2);
 * here gold senses are named cl2, cl1 and cl5 too.  The figures do not
 * depend on the names (the key is the one above, renamed): V 7/9, paired
 * F 1/3, clusters 3 as in "baselines"; B-cubed: every cluster a single
 * instance, P = 1; a.n's instances hold 1 of the 2 of their class, R = 1/2,
 * b.v's 1 of 1: R = (4 x 1/2 + 2 x 1) / 6 = 2/3.  A clustering read after
 * it gets x's figures (clustering_figures): V 2/3, paired F 2/3, B-cubed P
 * 5/6, R 1; and 1c1inst again the same figures as the first time.
 */
START_TEST(baseline_cl_names)
{
	static const char gold2[] =
		"a.n a1 cl2\na.n a2 cl2\na.n a3 cl1\na.n a4 cl1\nb.v b1 cl5\nb.v b2 t2\n";
	struct tageval_error err = { 0 };
	struct tageval_wsi_report *r = NULL;
	ck_assert_int_eq(tageval_wsi_report_new_buffer(gold2, strlen(gold2), "gold2", &r, &err),
			 TAGEVAL_OK);
	struct tageval_wsi_figures wf;
	struct tageval_clustering_figures cf;
	for (int round = 0; round < 2; round++) {
		ck_assert_int_eq(tageval_wsi_report_baseline(r, TAGEVAL_WSI_1C1INST, 1, 1, &err),
				 TAGEVAL_OK);
		figures(r, NULL, &wf, &cf);
		ck_assert_double_eq_tol(wf.v_measure, 7.0 / 9.0, TOL);
		ck_assert_double_eq_tol(wf.paired_fscore, 1.0 / 3.0, TOL);
		ck_assert_double_eq_tol(wf.clusters, 3.0, TOL);
		ck_assert_double_eq_tol(cf.bcubed_precision, 1.0, TOL);
		ck_assert_double_eq_tol(cf.bcubed_recall, 2.0 / 3.0, TOL);
		read_clusters(r, x);
		figures(r, NULL, &wf, &cf);
		ck_assert_double_eq_tol(wf.v_measure, 2.0 / 3.0, TOL);
		ck_assert_double_eq_tol(wf.paired_fscore, 2.0 / 3.0, TOL);
		ck_assert_double_eq_tol(cf.bcubed_precision, 5.0 / 6.0, TOL);
		ck_assert_double_eq_tol(cf.bcubed_recall, 1.0, TOL);
	}
	tageval_wsi_report_free(r);
}
END_TEST

START_TEST(supervised_files)
{
	struct tageval_error err = { 0 };
	char *m[2], *t[2];
	m[0] = temp_file("a.n a1 s1\na.n a3 s2\nb.v b1 t1\n", 0);
	t[0] = temp_file("a.n a2 s1\na.n a4 s2\nb.v b2 t2\n", 0);
	m[1] = t[0];
	t[1] = m[0];
	struct tageval_wsi_report *r = open_gold();
	size_t proto = 99;
	ck_assert_int_eq(tageval_wsi_report_add_files(r, NULL, 2, (const char *const *)m,
						      (const char *const *)t, &proto, &err),
			 TAGEVAL_OK);
	ck_assert_uint_eq(proto, 0);
	const double want[] = { 2.0 / 3.0, 1.0 / 3.0, 0.0, 2.0 / 3.0 };
	for (int step = 0; step < 4; step++) {
		if (step == 0 || step == 3)
			read_clusters(r, x);
		else
			ck_assert_int_eq(tageval_wsi_report_baseline(
					     r, step == 1 ? TAGEVAL_WSI_1C1W : TAGEVAL_WSI_1C1INST,
					     1, 4, &err), TAGEVAL_OK);
		struct tageval_supervised_result *res = NULL;
		size_t n = 0;
		ck_assert_int_eq(tageval_wsi_report_supervised(r, 0, &res, &n, &err), TAGEVAL_OK);
		ck_assert_uint_eq(n, 2);
		for (size_t i = 0; i < n; i++) {
			ck_assert_uint_eq(res[i].mapping, 3);
			ck_assert_uint_eq(res[i].test, 3);
			ck_assert_double_eq_tol(res[i].recall, want[step], TOL);
		}
		free(res);
	}
	/* no protocol 1 */
	struct tageval_supervised_result *res = NULL;
	size_t n = 7;
	ck_assert_int_eq(tageval_wsi_report_supervised(r, 1, &res, &n, &err), TAGEVAL_EINVAL);
	ck_assert_ptr_null(res);
	ck_assert_uint_eq(n, 0);
	tageval_wsi_report_free(r);
	unlink(m[0]);
	unlink(t[0]);
	free(m[0]);
	free(t[0]);
}
END_TEST

/*
 * Drawn splits (2 folds on the nouns, 3 random halves on all words, seed
 * 7): which instances are tested depends on the draw, so the figures are
 * compared with those tageval_supervised_* gives on a tageval_wsi holding
 * the gold key and the same clustering alone, with the same seed (the same
 * splits): what the report promises, bit for bit, also after other
 * clusterings (y, x, y, x).
 */
START_TEST(supervised_drawn_same_as_alone)
{
	struct tageval_error err = { 0 };
	struct tageval_wsi_report *r = open_gold();
	ck_assert_int_eq(tageval_wsi_report_add_folds(r, "n", 2, 7, NULL, &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_wsi_report_add_random(r, NULL, 3, 0.5, 7, NULL, &err),
			 TAGEVAL_OK);
	const char *seq[] = { y, x, y, x };
	for (int step = 0; step < 4; step++) {
		read_clusters(r, seq[step]);
		struct tageval_wsi *w = tageval_wsi_new();
		struct tageval_supervised *s[2] = { NULL, NULL };
		ck_assert_int_eq(tageval_wsi_read_gold_buffer(w, gold, strlen(gold), "g", &err), 0);
		ck_assert_int_eq(tageval_wsi_read_clusters_buffer(w, seq[step], strlen(seq[step]),
								  "c", &err), 0);
		ck_assert_int_eq(tageval_supervised_new(w, "n", &s[0], &err), 0);
		ck_assert_int_eq(tageval_supervised_add_folds(s[0], 2, 7, &err), 0);
		ck_assert_int_eq(tageval_supervised_new(w, NULL, &s[1], &err), 0);
		ck_assert_int_eq(tageval_supervised_add_random(s[1], 3, 0.5, 7, &err), 0);
		for (size_t p = 0; p < 2; p++) {
			struct tageval_supervised_result *res = NULL, alone;
			size_t n = 0;
			ck_assert_int_eq(tageval_wsi_report_supervised(r, p, &res, &n, &err), 0);
			ck_assert_uint_eq(n, p == 0 ? 2 : 3);
			for (size_t i = 0; i < n; i++) {
				ck_assert_int_eq(tageval_supervised_evaluate(s[p], i, &alone, NULL,
									     &err), 0);
				ck_assert_uint_eq(res[i].test, alone.test);
				ck_assert(memcmp(&res[i].recall, &alone.recall, sizeof(double)) == 0);
				ck_assert(memcmp(&res[i].precision, &alone.precision,
						 sizeof(double)) == 0);
			}
			free(res);
		}
		tageval_supervised_free(s[0]);
		tageval_supervised_free(s[1]);
		tageval_wsi_free(w);
	}
	tageval_wsi_report_free(r);
}
END_TEST

/* ------------------------------------------------------------ gold files */

/* The gold key from a gzip-compressed file: x's V-measure, 2/3 (above). */
START_TEST(gold_gzip)
{
	struct tageval_error err = { 0 };
	struct tageval_wsi_report *r = NULL;
	struct tageval_wsi_figures wf;
	struct tageval_clustering_figures cf;
	char *name = temp_file(gold, 1);
	ck_assert_int_eq(tageval_wsi_report_new(name, &r, &err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_wsi_instances(tageval_wsi_report_wsi(r)), 6);
	read_clusters(r, x);
	figures(r, NULL, &wf, &cf);
	ck_assert_double_eq_tol(wf.v_measure, 2.0 / 3.0, TOL);
	tageval_wsi_report_free(r);
	unlink(name);
	free(name);
}
END_TEST

START_TEST(errors)
{
	struct tageval_error err = { 0 };
	struct tageval_wsi_report *r = (struct tageval_wsi_report *)1;
	/* an empty gold key: no object */
	ck_assert_int_eq(tageval_wsi_report_new_buffer("", 0, "empty", &r, &err), TAGEVAL_EFORMAT);
	ck_assert_ptr_null(r);
	ck_assert_int_eq(tageval_wsi_report_new("/nonexistent/gold", &r, &err), TAGEVAL_EIO);
	ck_assert_ptr_null(r);
	r = open_gold();
	ck_assert_int_eq(tageval_wsi_report_add_folds(r, NULL, 1, 1, NULL, &err), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_report_add_random(r, NULL, 1, 1.0, 1, NULL, &err),
			 TAGEVAL_EINVAL);
	/* 3 folds, but no word has more than 2 verbs... b.v has 2 instances:
	 * the error comes at the first evaluation */
	size_t proto;
	ck_assert_int_eq(tageval_wsi_report_add_folds(r, "v", 3, 1, &proto, &err), TAGEVAL_OK);
	read_clusters(r, x);
	struct tageval_supervised_result *res = NULL;
	size_t n = 0;
	ck_assert_int_eq(tageval_wsi_report_supervised(r, proto, &res, &n, &err), TAGEVAL_EFORMAT);
	ck_assert_ptr_null(res);
	ck_assert_int_eq(tageval_wsi_report_figures(NULL, NULL, 0, NULL, NULL, NULL, &err),
			 TAGEVAL_EINVAL);
	ck_assert_ptr_null(tageval_wsi_report_wsi(NULL));
	tageval_wsi_report_free(r);
	tageval_wsi_report_free(NULL);
}
END_TEST

static Suite *wsi_report_suite(void)
{
	Suite *s = suite_create("wsi_report");
	TCase *tc = tcase_create("figures");
	tcase_add_test(tc, clustering_figures);
	tcase_add_test(tc, no_2007);
	tcase_add_test(tc, baselines);
	tcase_add_test(tc, baseline_cl_names);
	tcase_add_test(tc, replaced);
	tcase_add_test(tc, replaced_graded);
	suite_add_tcase(s, tc);
	tc = tcase_create("supervised");
	tcase_add_test(tc, supervised_files);
	tcase_add_test(tc, supervised_drawn_same_as_alone);
	suite_add_tcase(s, tc);
	tc = tcase_create("files");
	tcase_add_test(tc, gold_gzip);
	tcase_add_test(tc, errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(wsi_report_suite());
}
