/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The SemEval-2013 WSD setting (../shared/spec/reference-wsi2013.md section
 * 5): the worked examples of the spec, reproduced exactly, the reading rules
 * of its section 2, degenerate cases worked out by hand (the arithmetic is in
 * the comments) and every error of the readers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-common.h"

/* Reads both files from strings; NULL with *rc and *err set on failure. */
static struct tageval_graded *load(const char *gold, const char *sys, int *rc,
				   struct tageval_error *err)
{
	struct tageval_graded *g = tageval_graded_new();
	ck_assert_ptr_nonnull(g);
	memset(err, 0, sizeof *err);
	*rc = tageval_graded_read_gold_buffer(g, gold, strlen(gold), "gold", err);
	if (*rc == TAGEVAL_OK)
		*rc = tageval_graded_read_system_buffer(g, sys, strlen(sys), "system", err);
	if (*rc != TAGEVAL_OK) {
		tageval_graded_free(g);
		return NULL;
	}
	return g;
}

/* Evaluates; the result (caller frees) or a failed assertion. */
static struct tageval_graded_result *eval(const char *gold, const char *sys, int no_remap,
					  struct tageval_graded **gp)
{
	int rc;
	struct tageval_error err;
	struct tageval_graded *g = load(gold, sys, &rc, &err);
	ck_assert_msg(g != NULL, "load: %s:%zu: %s", err.file, err.line, err.message);
	struct tageval_graded_options o;
	tageval_graded_options_init(&o);
	o.no_remapping = no_remap;
	struct tageval_graded_result *r = NULL;
	rc = tageval_graded_evaluate(g, &o, &r, &err);
	ck_assert_msg(rc == TAGEVAL_OK, "evaluate: %s", err.message);
	*gp = g;
	return r;
}

/* The error of reading @gold and @sys: its line and a part of its message. */
static void expect_error(const char *gold, const char *sys, const char *file, size_t line,
			 const char *part)
{
	int rc;
	struct tageval_error err;
	struct tageval_graded *g = load(gold, sys, &rc, &err);
	ck_assert_ptr_null(g);
	ck_assert_int_eq(rc, TAGEVAL_EFORMAT);
	ck_assert_str_eq(err.file, file);
	ck_assert_uint_eq(err.line, line);
	ck_assert_msg(strstr(err.message, part) != NULL, "message \"%s\" lacks \"%s\"",
		      err.message, part);
}

#define EXACT(x, v) ck_assert_msg((x) == (v), "%s = %.17g, expected %.17g", #x, (double)(x), \
				  (double)(v))
#define NEAR(x, v) ck_assert_msg(fabs((x) - (v)) <= 1e-15, "%s = %.17g, expected %.17g", #x, \
				 (double)(x), (double)(v))

/* ------------------------------------------------ spec 5.7, first example */

/*
 * One instance, gold a/1 b/0.5, system a/0.6 c/1, K = 3: JI 1/3,
 * tau 0.4117647058823529 (= 1 - (25/18)/(85/36) = 7/17), WNDCG
 * 0.19632914395391318 (the spec's figures, as the jars print them).
 */
START_TEST(test_spec_one_instance_scores)
{
	const char *gl[] = { "a", "b" }, *sl[] = { "a", "c" };
	const double gm[] = { 1.0, 0.5 }, sr[] = { 0.6, 1.0 };
	double ji, tau, ndcg;
	ck_assert_int_eq(tageval_graded_instance_scores(gl, gm, 2, sl, sr, 2, 3, &ji, &tau,
							&ndcg), TAGEVAL_OK);
	EXACT(ji, 1.0 / 3.0);
	EXACT(tau, 0.4117647058823529);
	EXACT(ndcg, 0.19632914395391318);
}
END_TEST

/* The same through files and --no-remapping: memberships 1, 0.5 and 0.6, 1. */
START_TEST(test_spec_one_instance_files)
{
	struct tageval_graded *g;
	struct tageval_graded_result *r =
		eval("w w.1 a/1 b/0.5\n", "w w.1 a/0.6 c/1\n", 1, &g);
	const struct tageval_graded_figures *t = tageval_graded_result_total(r);
	ck_assert_uint_eq(tageval_graded_result_words(r), 1);
	ck_assert_uint_eq(t->instances, 1);
	ck_assert_uint_eq(t->answered, 1);
	ck_assert_uint_eq(tageval_graded_result_figures(r, 0)->senses, 3);
	EXACT(t->jaccard, 1.0 / 3.0);
	EXACT(t->kendall_tau, 0.4117647058823529);
	EXACT(t->wndcg, 0.19632914395391318);
	/* everything answered: recall = mean, F1 = mean */
	EXACT(t->coverage, 1.0);
	EXACT(t->kendall_tau_recall, t->kendall_tau);
	NEAR(t->kendall_tau_f1, t->kendall_tau);
	tageval_graded_result_free(r);
	tageval_graded_free(g);
}
END_TEST

/* ------------------------------------------------ spec 5.7, remapping example */

static const char six_gold[] = "w w.1 a/5\n"
			       "w w.2 a/5 b/2\n"
			       "w w.3 b/4\n"
			       "w w.4 a/3\n"
			       "w w.5 b/5\n"
			       "w w.6 a/4 b/4\n";
static const char six_sys[] = "w w.1 x/1\n"
			      "w w.2 x/0.5 y/0.5\n"
			      "w w.3 y/1\n"
			      "w w.4 x/1\n"
			      "w w.5 y\n"
			      "w w.6 x/1 y/1\n";

/* The jars print JI 0.6666666666666666, tau 0.6666666666666666, WNDCG
 * 0.5363606076472708 for the word and the total: the same doubles. */
START_TEST(test_spec_six_remapping)
{
	struct tageval_graded *g;
	struct tageval_graded_result *r = eval(six_gold, six_sys, 0, &g);
	const struct tageval_graded_figures *t = tageval_graded_result_total(r),
					    *w = tageval_graded_result_figures(r, 0);
	ck_assert_str_eq(tageval_graded_result_word(r, 0), "w");
	ck_assert_uint_eq(t->instances, 6);
	ck_assert_uint_eq(t->answered, 6);
	EXACT(t->jaccard, 0.6666666666666666);
	EXACT(t->kendall_tau, 0.6666666666666666);
	EXACT(t->wndcg, 0.5363606076472708);
	EXACT(w->jaccard, 0.6666666666666666);
	EXACT(w->kendall_tau, 0.6666666666666666);
	EXACT(w->wndcg, 0.5363606076472708);
	tageval_graded_result_free(r);
	tageval_graded_free(g);
}
END_TEST

/*
 * Fold 0 of the same example (the spec's intermediate figures): the
 * remapped answers of instances 1 and 6, scored.  Instance 1 gets a 0.8333,
 * b 0.1667: JI 1/2, tau 1, WNDCG 2.5/4 = 0.625; instance 6 JI 1, tau 0 (gold
 * tie ordered b, a; system a, b), WNDCG 0.66104.
 */
START_TEST(test_spec_six_fold0)
{
	/* the scores of instance 1 from its remapped answer, computed by hand:
	 * M[x] = (a 2, b 0.4)/2.4 -> a 5/6, b 1/6 */
	const char *gl[] = { "a" }, *sl[] = { "a", "b" };
	const double gm[] = { 1.0 }, sr[] = { 2.0 / 2.4, 0.4 / 2.4 };
	double ji, tau, ndcg;
	ck_assert_int_eq(tageval_graded_instance_scores(gl, gm, 1, sl, sr, 2, 2, &ji, &tau,
							&ndcg), TAGEVAL_OK);
	EXACT(ji, 0.5);
	EXACT(tau, 1.0);
	/* DCG = (5/6)/1 * 3 + 0 = 2.5; IDCG = 4 */
	NEAR(ndcg, 0.625);
	/* instance 6: x and y each 1; M[y] = (a 1, b 2.4)/3.4, so
	 * a = 5/6 + 1/3.4, b = 1/6 + 2.4/3.4 */
	const char *gl6[] = { "a", "b" };
	const double gm6[] = { 1.0, 1.0 },
		     sr6[] = { 2.0 / 2.4 + 1.0 / 3.4, 0.4 / 2.4 + 2.4 / 3.4 };
	ck_assert_int_eq(tageval_graded_instance_scores(gl6, gm6, 2, sl, sr6, 2, 2, &ji, &tau,
							&ndcg), TAGEVAL_OK);
	EXACT(ji, 1.0);
	EXACT(tau, 0.0);
	/* ranking a (1.1275), b (0.8725): DCG = (1/1.1275) 3 + (0.8725/1) 3 / log2 3;
	 * IDCG = 4 + 4 / log2 3 */
	double l3 = log(3.0) / log(2.0);
	NEAR(ndcg, (3.0 / sr6[0] + 3.0 * sr6[1] / l3) / (4.0 + 4.0 / l3));
	ck_assert_msg(fabs(ndcg - 0.66104) < 5e-6, "%.17g", ndcg);
}
END_TEST

/* ------------------------------------------------ ties (quirk 7) */

/*
 * A gold tie a 1, b 1 (K = 2): answered with a alone, gold order b, a and
 * system order a, b: the one pair is inverted, D = cost(0,1) cost(1,0) =
 * ((1-2)/(0-1)) ((2-1)/(1-0)) = 1 = D_max, tau 0.  Answered with b alone:
 * no inversion, tau 1.  Both: JI 1/2, DCG = 3 (the answered sense first),
 * IDCG = 4 + 4/log2 3.
 */
START_TEST(test_tie_gold)
{
	const char *gl[] = { "a", "b" }, *sa[] = { "a" }, *sb[] = { "b" };
	const double gm[] = { 1.0, 1.0 }, one[] = { 1.0 };
	double ji, tau, ndcg, l3 = log(3.0) / log(2.0);
	ck_assert_int_eq(tageval_graded_instance_scores(gl, gm, 2, sa, one, 1, 2, &ji, &tau,
							&ndcg), TAGEVAL_OK);
	EXACT(ji, 0.5);
	EXACT(tau, 0.0);
	NEAR(ndcg, 3.0 / (4.0 + 4.0 / l3));
	ck_assert_int_eq(tageval_graded_instance_scores(gl, gm, 2, sb, one, 1, 2, &ji, &tau,
							&ndcg), TAGEVAL_OK);
	EXACT(ji, 0.5);
	EXACT(tau, 1.0);
	NEAR(ndcg, 3.0 / (4.0 + 4.0 / l3));
}
END_TEST

/*
 * A system tie a 1, c 1 against gold a: WNDCG ranks ties in ascending name
 * order, a then c: DCG = 3/1 + 0, IDCG = 4, WNDCG 0.75 (descending would put
 * a second: 3/log2 3 / 4).  Tau orders the system's tie descending, c then
 * a, against the gold order a, c: one inverted pair, tau 0 (K = 2).
 */
START_TEST(test_tie_system)
{
	const char *gl[] = { "a" }, *sl[] = { "a", "c" };
	const double gm[] = { 1.0 }, sr[] = { 1.0, 1.0 };
	double ji, tau, ndcg;
	ck_assert_int_eq(tageval_graded_instance_scores(gl, gm, 1, sl, sr, 2, 2, &ji, &tau,
							&ndcg), TAGEVAL_OK);
	EXACT(ji, 0.5);
	EXACT(tau, 0.0);
	EXACT(ndcg, 0.75);
}
END_TEST

/*
 * A perfect answer of three ranked senses, K = 3: tau 1 (no inversion);
 * WNDCG = sum (2^(1+g) - 1)/log2(m+1) over sum 2^(1+g)/log2(m+1), g = 1,
 * 0.5, 0.25 (quirk 6: below 1).
 */
START_TEST(test_perfect_three)
{
	const char *l[] = { "s1", "s2", "s3" };
	const double m[] = { 1.0, 0.5, 0.25 };
	double ji, tau, ndcg;
	ck_assert_int_eq(tageval_graded_instance_scores(l, m, 3, l, m, 3, 3, &ji, &tau, &ndcg),
			 TAGEVAL_OK);
	EXACT(ji, 1.0);
	EXACT(tau, 1.0);
	double d2 = log(3.0) / log(2.0), d3 = 2.0;
	double dcg = 3.0 + (pow(2.0, 1.5) - 1.0) / d2 + (pow(2.0, 1.25) - 1.0) / d3;
	double idcg = 4.0 + pow(2.0, 1.5) / d2 + pow(2.0, 1.25) / d3;
	NEAR(ndcg, dcg / idcg);
	ck_assert_double_lt(ndcg, 1.0);
}
END_TEST

/*
 * The answer in reverse order, K = 3: every pair inverted, D = D_max, tau 0.
 */
START_TEST(test_reversed_three)
{
	const char *l[] = { "s1", "s2", "s3" };
	const double m[] = { 1.0, 0.5, 0.25 }, rev[] = { 0.25, 0.5, 1.0 };
	double ji, tau, ndcg;
	ck_assert_int_eq(tageval_graded_instance_scores(l, m, 3, l, rev, 3, 3, &ji, &tau,
							&ndcg), TAGEVAL_OK);
	EXACT(tau, 0.0);
	EXACT(ji, 1.0);
}
END_TEST

/* ------------------------------------------------ degenerate cases */

/*
 * An instance with one sense answered exactly (no remapping): U = {s}, n = 1:
 * JI 1, tau 1, WNDCG (1 * (2^2 - 1)/1) / (2^2/1) = 0.75.
 */
START_TEST(test_one_sense_exact)
{
	struct tageval_graded *g;
	struct tageval_graded_result *r = eval("w.n w.n.1 s/4\n", "w.n w.n.1 s\n", 1, &g);
	const struct tageval_graded_figures *t = tageval_graded_result_total(r);
	EXACT(t->jaccard, 1.0);
	EXACT(t->kendall_tau, 1.0);
	EXACT(t->wndcg, 0.75);
	tageval_graded_result_free(r);
	tageval_graded_free(g);
}
END_TEST

/*
 * A word with one instance, remapped: it is tested in fold 0 and nothing is
 * left to learn from, so it is unanswered: coverage 0, means 0, recall 0,
 * F1 0.  The second word (five instances, one cluster per sense) is then
 * answered in full in every fold: instance k of the gold (k = 1..5) is in
 * fold k mod 5, its word's other instances teach c1 -> s (rows (1), no
 * other sense): every answer is s with rating 1: JI 1, tau 1, WNDCG 0.75.
 * Total: 5 answered of 6: mean 1 (JI), recall 5/6, F1 2 (5/6)/(11/6) = 10/11.
 */
START_TEST(test_one_instance_word)
{
	struct tageval_graded *g;
	struct tageval_graded_result *r =
		eval("a.n a.n.1 s\nb.v b.v.1 s\nb.v b.v.2 s\nb.v b.v.3 s\nb.v b.v.4 s\n"
		     "b.v b.v.5 s\n",
		     "a.n a.n.1 c1\nb.v b.v.1 c1\nb.v b.v.2 c1\nb.v b.v.3 c1\nb.v b.v.4 c1\n"
		     "b.v b.v.5 c1\n",
		     0, &g);
	const struct tageval_graded_figures *a = tageval_graded_result_figures(r, 0),
					    *b = tageval_graded_result_figures(r, 1),
					    *t = tageval_graded_result_total(r);
	ck_assert_uint_eq(a->instances, 1);
	ck_assert_uint_eq(a->answered, 0);
	EXACT(a->jaccard, 0.0);
	EXACT(a->coverage, 0.0);
	EXACT(a->jaccard_f1, 0.0);
	ck_assert_uint_eq(b->answered, 5);
	EXACT(b->jaccard, 1.0);
	EXACT(b->kendall_tau, 1.0);
	EXACT(b->wndcg, 0.75);
	ck_assert_uint_eq(t->answered, 5);
	EXACT(t->jaccard, 1.0);
	NEAR(t->jaccard_recall, 5.0 / 6.0);
	NEAR(t->jaccard_f1, 10.0 / 11.0);
	NEAR(t->wndcg_recall, 0.75 * 5.0 / 6.0);
	tageval_graded_result_free(r);
	tageval_graded_free(g);
}
END_TEST

/* A system that answers nothing (an empty file): nothing answered, all 0. */
START_TEST(test_answers_nothing)
{
	for (int nr = 0; nr < 2; nr++) {
		struct tageval_graded *g;
		struct tageval_graded_result *r = eval(six_gold, "", nr, &g);
		const struct tageval_graded_figures *t = tageval_graded_result_total(r);
		ck_assert_uint_eq(t->instances, 6);
		ck_assert_uint_eq(t->answered, 0);
		EXACT(t->jaccard, 0.0);
		EXACT(t->kendall_tau, 0.0);
		EXACT(t->wndcg, 0.0);
		EXACT(t->wndcg_f1, 0.0);
		EXACT(t->coverage, 0.0);
		tageval_graded_result_free(r);
		tageval_graded_free(g);
	}
}
END_TEST

/*
 * Without remapping an extra instance's labels count in K (5.7): gold w.1 a,
 * system w.1 a/1 b/0.5 and an extra w.9 c.  K = {a} u {a, b, c} = 3.
 * U = {a, b}: gold order a, b; system order a, b: no inversion, tau 1
 * whatever K.  To see K, answer b/1 a/0.5: system order b, a: one
 * inversion.  P = (1, 1 + 1) = (1, 2) for any K (P_1 = 1 + delta_0 = 2), so
 * the single pair gives tau 0 either way; with three senses it shows: gold
 * a/1 b/0.5 c/0.25, answer c/1 b/0.5 a/0.25 plus an extra label d:
 * reversed order, every pair inverted, D = D_max, tau 0 -- K does not
 * matter for a full reversal.  A partial inversion: answer b/1 a/0.5
 * c/0.25 (r(a) = 1, r(b) = 0, r(c) = 2): D = cost(0,1) cost(1,0) with
 * P_0 = 1, P_1 = 2: D = 1.  D_max = cost(0,2) cost(1,1) + cost(0,2)
 * cost(2,0) + cost(1,1) cost(2,0), cost(0,2) = cost(2,0) = (P_2 - 1)/2.
 * K = 3 (gold only): P_2 = 2 + 2/3, c = 5/6: D_max = 5/6 + 25/36 + 5/6 =
 * 85/36, tau = 1 - 36/85 = 49/85.  K = 4 (the extra's d): P_2 = 2 + 3/4,
 * c = 7/8: D_max = 7/8 + 49/64 + 7/8 = 161/64, tau = 1 - 64/161 = 97/161.
 */
START_TEST(test_extra_counts_in_k)
{
	const char *gold = "w w.1 a/1 b/0.5 c/0.25\n";
	struct tageval_graded *g;
	struct tageval_graded_result *r = eval(gold, "w w.1 b/1 a/0.5 c/0.25\n", 1, &g);
	ck_assert_uint_eq(tageval_graded_result_figures(r, 0)->senses, 3);
	NEAR(tageval_graded_result_total(r)->kendall_tau, 49.0 / 85.0);
	tageval_graded_result_free(r);
	tageval_graded_free(g);
	r = eval(gold, "w w.1 b/1 a/0.5 c/0.25\nw w.9 d\nx x.1 e\n", 1, &g);
	ck_assert_uint_eq(tageval_graded_result_figures(r, 0)->senses, 4);
	ck_assert_uint_eq(tageval_graded_extra(g), 1);
	ck_assert_uint_eq(tageval_graded_ignored(g), 1);
	NEAR(tageval_graded_result_total(r)->kendall_tau, 97.0 / 161.0);
	tageval_graded_result_free(r);
	tageval_graded_free(g);
}
END_TEST

/*
 * Memberships (2.2): c1/0.2 c2/0.8 -> 0.25, 1; c1/3 c2 -> 1, 1.  Seen
 * through WNDCG without remapping against gold c2: first line U = {c1, c2},
 * ranking c2 (1), c1 (0.25): DCG = 3 + 0 (c1 has g = 0), IDCG 4: 0.75; JI
 * 1/2.  Second line: ranking c1, c2 (tie, ascending): DCG = 0 + 3/log2 3.
 */
START_TEST(test_memberships)
{
	struct tageval_graded *g;
	struct tageval_graded_result *r = eval("w w.1 c2/7\nw w.2 c2\n",
					       "w w.1 c1/0.2 c2/0.8\nw w.2 c1/3 c2\n", 1, &g);
	double l3 = log(3.0) / log(2.0);
	NEAR(tageval_graded_result_total(r)->wndcg, (0.75 + 3.0 / l3 / 4.0) / 2.0);
	EXACT(tageval_graded_result_total(r)->jaccard, 0.5);
	tageval_graded_result_free(r);
	tageval_graded_free(g);
}
END_TEST

/*
 * Folds and subsets: the folds run on across words, and a subset is
 * evaluated as if the gold key held only its instances.  Without remapping
 * the folds change only the order of the sums, so a shuffled run (--seed)
 * gives the same figures; the single-sense subset of the six-instance
 * example (instances 1, 3, 4, 5) answered by its own gold: JI 1, tau 1,
 * WNDCG 0.75 each.
 */
START_TEST(test_subsets_and_seed)
{
	int rc;
	struct tageval_error err;
	struct tageval_graded *g = load(six_gold, six_gold, &rc, &err);
	ck_assert_ptr_nonnull(g);
	struct tageval_graded_options o;
	tageval_graded_options_init(&o);
	o.no_remapping = 1;
	o.subset = TAGEVAL_GRADED_SINGLE_SENSE;
	struct tageval_graded_result *r;
	ck_assert_int_eq(tageval_graded_evaluate(g, &o, &r, &err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_graded_result_total(r)->instances, 4);
	EXACT(tageval_graded_result_total(r)->jaccard, 1.0);
	EXACT(tageval_graded_result_total(r)->kendall_tau, 1.0);
	EXACT(tageval_graded_result_total(r)->wndcg, 0.75);
	tageval_graded_result_free(r);
	o.subset = TAGEVAL_GRADED_MULTI_SENSE;
	ck_assert_int_eq(tageval_graded_evaluate(g, &o, &r, &err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_graded_result_total(r)->instances, 2);
	tageval_graded_result_free(r);
	tageval_graded_free(g);

	g = load(six_gold, six_sys, &rc, &err);
	ck_assert_ptr_nonnull(g);
	tageval_graded_options_init(&o);
	o.no_remapping = 1;
	struct tageval_graded_result *a, *b;
	ck_assert_int_eq(tageval_graded_evaluate(g, &o, &a, &err), TAGEVAL_OK);
	o.shuffle = 1;
	o.seed = 7;
	ck_assert_int_eq(tageval_graded_evaluate(g, &o, &b, &err), TAGEVAL_OK);
	NEAR(tageval_graded_result_total(a)->wndcg, tageval_graded_result_total(b)->wndcg);
	NEAR(tageval_graded_result_total(a)->kendall_tau,
	     tageval_graded_result_total(b)->kendall_tau);
	tageval_graded_result_free(a);
	tageval_graded_result_free(b);
	/* an empty selection */
	tageval_graded_options_init(&o);
	o.pos = "v";
	ck_assert_int_eq(tageval_graded_evaluate(g, &o, &a, &err), TAGEVAL_EFORMAT);
	ck_assert_ptr_null(a);
	ck_assert_str_eq(err.message, "no target word selected");
	tageval_graded_free(g);
}
END_TEST

/*
 * Folds with remapping: instances five apart in a word are in the same
 * fold.  x.1..x.4 take folds 0-3, y.1..y.6 folds 4, 0, 1, 2, 3, 4 (the
 * numbering runs on across words; within a word only the partition
 * matters).  y.1 and y.6, the only instances of cluster k, are both tested
 * in fold 4, whose learning instances y.2..y.5 have only cluster c: both are
 * unanswered.  y.2..y.5 learn c -> t from each other: 4 of 6 answered, each
 * exactly (JI 1).  x: all answered.
 */
START_TEST(test_folds)
{
	struct tageval_graded *g;
	struct tageval_graded_result *r =
		eval("x x.1 s\nx x.2 s\nx x.3 s\nx x.4 s\n"
		     "y y.1 s\ny y.2 t\ny y.3 t\ny y.4 t\ny y.5 t\ny y.6 s\n",
		     "x x.1 c\nx x.2 c\nx x.3 c\nx x.4 c\n"
		     "y y.1 k\ny y.2 c\ny y.3 c\ny y.4 c\ny y.5 c\ny y.6 k\n",
		     0, &g);
	ck_assert_uint_eq(tageval_graded_result_figures(r, 0)->answered, 4);
	ck_assert_uint_eq(tageval_graded_result_figures(r, 1)->answered, 4);
	EXACT(tageval_graded_result_figures(r, 1)->jaccard, 1.0);
	EXACT(tageval_graded_result_figures(r, 1)->coverage, 4.0 / 6.0);
	tageval_graded_result_free(r);
	tageval_graded_free(g);
}
END_TEST

/* ------------------------------------------------ line order (issue 17) */

/*
 * A data set of three words whose scores are sums of many unlike doubles
 * (ratings 1 to 9, memberships such as 2/7, several labels per line), built
 * so that its lines can be written in any order: line i of @n is
 * written at position perm(i).  @rev: write the lines in reverse order.
 */
static char *graded_lines(int gold, int rev)
{
	enum { N = 90 };
	static char line[N][96];
	for (int i = 0; i < N; i++) {
		int w = i % 3, a = (i * 7) % 5, b = (i * 3 + 1) % 5;
		if (gold)
			snprintf(line[i], sizeof line[i], "w%d w%d.%d s%d/%d s%d/%d\n", w, w, i, a,
				 1 + i % 9, b, 1 + (i * 5) % 7);
		else
			snprintf(line[i], sizeof line[i], "w%d w%d.%d c%d/%d c%d/%d s%d/%d\n", w, w,
				 i, i % 4, 1 + (i * 11) % 9, (i + 1) % 4, 2 + i % 5, b,
				 1 + i % 3);
	}
	char *s = calloc(N, sizeof line[0]);
	ck_assert_ptr_nonnull(s);
	for (int i = 0; i < N; i++)
		strcat(s, line[rev ? N - 1 - i : i]);
	return s;
}

/* The figures of @gold and @sys, every word and the total, into @out
 * (4 entries: 3 words, then the total). */
static void figures_of(const char *gold, const char *sys, const struct tageval_graded_options *o,
		       struct tageval_graded_figures out[4])
{
	int rc;
	struct tageval_error err;
	struct tageval_graded *g = load(gold, sys, &rc, &err);
	ck_assert_ptr_nonnull(g);
	struct tageval_graded_result *r;
	ck_assert_int_eq(tageval_graded_evaluate(g, o, &r, &err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_graded_result_words(r), 3);
	/* the words by name, whatever the order of the gold key's lines */
	for (size_t i = 0; i < 3; i++) {
		const char *w = tageval_graded_result_word(r, i);
		out[w[1] - '0'] = *tageval_graded_result_figures(r, i);
	}
	out[3] = *tageval_graded_result_total(r);
	tageval_graded_result_free(r);
	tageval_graded_free(g);
}

/* Bitwise equality of every figure (the structs hold no padding:
 * size_t and double members only). */
static void same_figures(const struct tageval_graded_figures *a,
			 const struct tageval_graded_figures *b)
{
	for (int i = 0; i < 4; i++)
		ck_assert_msg(memcmp(&a[i], &b[i], sizeof a[i]) == 0,
			      "entry %d differs: jaccard %.17g / %.17g, tau %.17g / %.17g, "
			      "wndcg %.17g / %.17g", i, a[i].jaccard, b[i].jaccard,
			      a[i].kendall_tau, b[i].kendall_tau, a[i].wndcg, b[i].wndcg);
}

/*
 * With remapping, the system file's line order changes no bit; without
 * remapping, and with --seed, neither file's order does.  (Before the
 * exactly rounded totals and the ids' byte order for --seed, the last two
 * differed: the per-word sums ran fold by fold, the total word by word.)
 */
START_TEST(test_line_order)
{
	char *gold = graded_lines(1, 0), *gold_rev = graded_lines(1, 1);
	char *sys = graded_lines(0, 0), *sys_rev = graded_lines(0, 1);
	struct tageval_graded_options o;
	struct tageval_graded_figures a[4], b[4];
	tageval_graded_options_init(&o);
	figures_of(gold, sys, &o, a);
	figures_of(gold, sys_rev, &o, b);
	same_figures(a, b);
	ck_assert_uint_gt(a[3].answered, 60); /* the remapping answers most */
	o.no_remapping = 1;
	figures_of(gold, sys, &o, a);
	figures_of(gold_rev, sys_rev, &o, b);
	same_figures(a, b);
	o.no_remapping = 0;
	o.shuffle = 1;
	o.seed = 2013;
	figures_of(gold, sys, &o, a);
	figures_of(gold_rev, sys_rev, &o, b);
	same_figures(a, b);
	free(gold);
	free(gold_rev);
	free(sys);
	free(sys_rev);
}
END_TEST

/*
 * A line of 41 label fields, one label named twice (past the 16 that are
 * compared pairwise, so found by sorting): 40 labels kept, every
 * membership 1, the line counted once.  The system answers the 40 labels
 * unrated: JI 40/40 = 1; all ratings tie, both orders are the descending
 * names: tau 1 (D = 0); WNDCG = sum 3/log2(m+1) / sum 4/log2(m+1), 0.75 to
 * the last bits.  K = 40.
 */
START_TEST(test_long_line_repeated_label)
{
	char gold[1024] = "w w.1", sys[1024] = "w w.1";
	for (int i = 0; i < 40; i++) {
		char f[16];
		snprintf(f, sizeof f, " l%02d/%d", i, 1 + i % 3);
		strcat(gold, f);
		snprintf(f, sizeof f, " l%02d", 39 - i);
		strcat(sys, f);
		if (i == 30)
			strcat(gold, " l05/9");
	}
	strcat(gold, "\n");
	strcat(sys, "\n");
	struct tageval_graded *g;
	struct tageval_graded_result *r = eval(gold, sys, 1, &g);
	ck_assert_uint_eq(tageval_graded_repeated(g), 1);
	ck_assert_uint_eq(tageval_graded_result_figures(r, 0)->senses, 40);
	EXACT(tageval_graded_result_total(r)->jaccard, 1.0);
	EXACT(tageval_graded_result_total(r)->kendall_tau, 1.0);
	ck_assert_msg(fabs(tageval_graded_result_total(r)->wndcg - 0.75) <= 1e-15, "wndcg %.17g",
		      tageval_graded_result_total(r)->wndcg);
	tageval_graded_result_free(r);
	tageval_graded_free(g);
}
END_TEST

/*
 * tau over a union of 40 senses (past the 32 whose pairs are summed one by
 * one: the Fenwick sums), K = 40, gold ratings 40, 39, ..., 1 on l00..l39:
 * - the gold order itself: D = 0, tau exactly 1;
 * - the reverse: D = D_max, tau 0 (the two sums grouped alike: to 1e-15);
 * - the top two swapped: only the pair (0, 1) is inverted, D = cost(0, 1)
 *   cost(1, 0) = (P_1 - P_0)^2 = delta_0^2 = 1, so tau = 1 - 1/D_max with
 *   D_max = sum over i < j of cr_i cr_j, cr_i = (P_i - P_(39-i)) / (2i - 39),
 *   P_m = 1 + m - m(m - 1)/80 (delta_l = 1 - l/40), computed here pair by
 *   pair in long double.
 */
START_TEST(test_long_union_tau)
{
	enum { N = 40 };
	char name[N][8];
	const char *l[N];
	double gm[N], rev[N], swap[N];
	for (int i = 0; i < N; i++) {
		snprintf(name[i], sizeof name[i], "l%02d", i);
		l[i] = name[i];
		gm[i] = N - i;
		rev[i] = i + 1;
		swap[i] = gm[i];
	}
	swap[0] = N - 1;
	swap[1] = N;
	double ji, tau, ndcg;
	ck_assert_int_eq(tageval_graded_instance_scores(l, gm, N, l, gm, N, N, &ji, &tau, &ndcg),
			 TAGEVAL_OK);
	EXACT(tau, 1.0);
	ck_assert_int_eq(tageval_graded_instance_scores(l, gm, N, l, rev, N, N, &ji, &tau, &ndcg),
			 TAGEVAL_OK);
	NEAR(tau, 0.0);
	ck_assert_int_eq(tageval_graded_instance_scores(l, gm, N, l, swap, N, N, &ji, &tau,
							&ndcg), TAGEVAL_OK);
	long double P[N], cr[N], dmax = 0.0L;
	for (int m = 0; m < N; m++)
		P[m] = 1.0L + m - (long double)m * (m - 1) / (2.0L * N);
	for (int i = 0; i < N; i++)
		cr[i] = (P[i] - P[N - 1 - i]) / (long double)(2 * i - (N - 1));
	for (int i = 0; i < N; i++)
		for (int j = i + 1; j < N; j++)
			dmax += cr[i] * cr[j];
	ck_assert_msg(fabsl((long double)tau - (1.0L - 1.0L / dmax)) <= 1e-15L,
		      "tau %.17g, expected %.17Lg", tau, 1.0L - 1.0L / dmax);
}
END_TEST

/* ------------------------------------------------ errors */

START_TEST(test_errors)
{
	expect_error("w w.1 a/-1\n", "", "gold", 1, "invalid weight \"a/-1\"");
	expect_error("w w.1 a/nan\n", "", "gold", 1, "invalid weight");
	expect_error("w w.1 a/x\n", "", "gold", 1, "invalid weight");
	expect_error("w w.1 a/\n", "", "gold", 1, "invalid weight");
	expect_error("w w.1 /2\n", "", "gold", 1, "invalid weight");
	expect_error("w w.1 a/0 b/0\n", "", "gold", 1, "every weight of the line is 0");
	expect_error("w w.1 a\nw w.1 b\n", "", "gold", 2, "duplicate instance \"w w.1\" (first at line 1)");
	expect_error("w w.1\n", "", "gold", 1, "instance \"w.1\" has no label");
	expect_error("w\n", "", "gold", 1, "missing instance id");
	expect_error("!! nothing\n\n", "", "gold", 0, "no instances");
	expect_error("w w.1 a\n", "w w.1 a\nw w.1 b\n", "system", 2, "duplicate instance");
	expect_error("w w.1 a\n", "w w.2 a\nw w.2 b\n", "system", 2, "duplicate instance");
	expect_error("w w.1 a\n", "v v.1 a/1e999\n", "system", 1, "invalid weight");
	expect_error("w w.1 a\n", "w w.1 a/0\n", "system", 1, "every weight of the line is 0");
	expect_error("w w.1 a\n", "w w.1\n", "system", 1, "has no label");
}
END_TEST

/*
 * A label named twice in a line (17 lines of the task's gold key): kept once,
 * and every membership of the line 1, as the jars read it (spec 2.2).  Gold
 * a/4 a/2 b/1 reads a 1, b 1; the answer a/1 b/1 is then perfect: JI 1, tau
 * 1 (no inversion), WNDCG (3 + 3/log2 3)/(4 + 4/log2 3) = 3/4.  The line is
 * multi-sense by its label fields (three), single-sense by nothing.
 */
START_TEST(test_repeated_label)
{
	int rc;
	struct tageval_error err;
	struct tageval_graded *g = load("w w.1 a/4 a/2 b/1\n", "w w.1 a/1 b/1\n", &rc, &err);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(tageval_graded_repeated(g), 1);
	struct tageval_graded_options o;
	tageval_graded_options_init(&o);
	o.no_remapping = 1;
	struct tageval_graded_result *r;
	ck_assert_int_eq(tageval_graded_evaluate(g, &o, &r, &err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_graded_result_figures(r, 0)->senses, 2);
	EXACT(tageval_graded_result_total(r)->jaccard, 1.0);
	EXACT(tageval_graded_result_total(r)->kendall_tau, 1.0);
	NEAR(tageval_graded_result_total(r)->wndcg, 0.75);
	tageval_graded_result_free(r);
	o.subset = TAGEVAL_GRADED_SINGLE_SENSE;
	ck_assert_int_eq(tageval_graded_evaluate(g, &o, &r, &err), TAGEVAL_EFORMAT);
	o.subset = TAGEVAL_GRADED_MULTI_SENSE;
	ck_assert_int_eq(tageval_graded_evaluate(g, &o, &r, &err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_graded_result_total(r)->instances, 1);
	tageval_graded_result_free(r);
	tageval_graded_free(g);
}
END_TEST

/* A weight 0 beside a positive one is kept, present with membership 0. */
START_TEST(test_zero_weight_present)
{
	struct tageval_graded *g;
	/* JI counts b (weight 0): {a, b} vs {a, b} = 1 */
	struct tageval_graded_result *r = eval("w w.1 a/1 b/0\n", "w w.1 a b\n", 1, &g);
	EXACT(tageval_graded_result_total(r)->jaccard, 1.0);
	tageval_graded_result_free(r);
	tageval_graded_free(g);
}
END_TEST

static Suite *graded_suite(void)
{
	Suite *s = suite_create("graded");
	TCase *tc = tcase_create("spec");
	tcase_add_test(tc, test_spec_one_instance_scores);
	tcase_add_test(tc, test_spec_one_instance_files);
	tcase_add_test(tc, test_spec_six_remapping);
	tcase_add_test(tc, test_spec_six_fold0);
	suite_add_tcase(s, tc);
	tc = tcase_create("hand");
	tcase_add_test(tc, test_tie_gold);
	tcase_add_test(tc, test_tie_system);
	tcase_add_test(tc, test_perfect_three);
	tcase_add_test(tc, test_reversed_three);
	tcase_add_test(tc, test_one_sense_exact);
	tcase_add_test(tc, test_one_instance_word);
	tcase_add_test(tc, test_answers_nothing);
	tcase_add_test(tc, test_extra_counts_in_k);
	tcase_add_test(tc, test_memberships);
	tcase_add_test(tc, test_subsets_and_seed);
	tcase_add_test(tc, test_folds);
	tcase_add_test(tc, test_zero_weight_present);
	tcase_add_test(tc, test_repeated_label);
	tcase_add_test(tc, test_line_order);
	tcase_add_test(tc, test_long_line_repeated_label);
	tcase_add_test(tc, test_long_union_tau);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(graded_suite());
}
