/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The supervised evaluation of induced senses (tageval_supervised_*): the
 * mapping example of spec 004, the worked example of
 * ../shared/spec/reference-wsi.md section 6, the mapping rules of that
 * section (ties, unseen clusters, raw weights, several gold labels), the
 * scoring of a split, the three kinds of split of section 7 (given files,
 * k folds, random splits) and every error of the API.
 *
 * Every expected value is worked out by hand; the arithmetic is in the
 * comments.  Notation: S[s][c] is the weight mapping instances of sense s
 * put on cluster c, M[c] the row (M[c][s1], M[c][s2], ...) of
 * P(sense | cluster) with the senses in bytewise order, and a test
 * instance's score vector is the sum over its clusters of weight x M[c].
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-common.h"

/* ------------------------------------------------------------- helpers */

/* A gold key and clusters read from strings, and the evaluation on them. */
struct fx {
	struct tageval_wsi *w;
	struct tageval_supervised *s;
};

static void load(struct fx *f, const char *gold, const char *clusters, const char *pos)
{
	struct tageval_error err = { 0 };
	f->w = tageval_wsi_new();
	ck_assert_ptr_nonnull(f->w);
	int rc = tageval_wsi_read_gold_buffer(f->w, gold, strlen(gold), "gold", &err);
	if (rc == TAGEVAL_OK)
		rc = tageval_wsi_read_clusters_buffer(f->w, clusters, strlen(clusters), "clusters",
						      &err);
	if (rc == TAGEVAL_OK)
		rc = tageval_supervised_new(f->w, pos, &f->s, &err);
	if (rc != TAGEVAL_OK)
		ck_abort_msg("loading failed: %s:%" PRIu64 ": %s", err.file, err.line, err.message);
	ck_assert_ptr_nonnull(f->s);
	ck_assert_uint_eq(tageval_supervised_splits(f->s), 0);
}

static void unload(struct fx *f)
{
	tageval_supervised_free(f->s);
	tageval_wsi_free(f->w);
	f->s = NULL;
	f->w = NULL;
}

static void add_split(struct fx *f, const char *mapping, const char *test)
{
	struct tageval_error err = { 0 };
	size_t before = tageval_supervised_splits(f->s);
	int rc = tageval_supervised_add_buffers(f->s, mapping, strlen(mapping), test, strlen(test),
						&err);
	if (rc != TAGEVAL_OK)
		ck_abort_msg("split failed: %s:%" PRIu64 ": %s", err.file, err.line, err.message);
	ck_assert_uint_eq(tageval_supervised_splits(f->s), before + 1);
}

/* Equal doubles, bit for bit (NaN equal to NaN). */
static void same_double(double a, double b)
{
	if (isnan(a) || isnan(b))
		ck_assert(isnan(a) && isnan(b));
	else
		ck_assert(a == b);
}

/* Evaluates split @i; *mapped (if not NULL) receives the answers.  Without
 * the mapped answers the scorer's counts are taken directly (no key): the
 * split is evaluated both ways, and the figures must agree to the bit. */
static void eval(struct fx *f, size_t i, struct tageval_supervised_result *res, char **mapped)
{
	struct tageval_error err = { 0 };
	int rc = tageval_supervised_evaluate(f->s, i, res, mapped, &err);
	if (rc != TAGEVAL_OK)
		ck_abort_msg("evaluation failed: %s:%" PRIu64 ": %s", err.file, err.line, err.message);
	if (mapped)
		ck_assert_ptr_nonnull(*mapped);
	struct tageval_supervised_result other;
	char *text = NULL;
	rc = tageval_supervised_evaluate(f->s, i, &other, mapped ? NULL : &text, &err);
	if (rc != TAGEVAL_OK)
		ck_abort_msg("evaluation failed: %s:%" PRIu64 ": %s", err.file, err.line, err.message);
	free(text);
	ck_assert_uint_eq(other.mapping, res->mapping);
	ck_assert_uint_eq(other.test, res->test);
	ck_assert_uint_eq(other.answered, res->answered);
	same_double(other.correct, res->correct);
	same_double(other.precision, res->precision);
	same_double(other.recall, res->recall);
	same_double(other.attempted, res->attempted);
}

static size_t count_lines(const char *text)
{
	size_t n = 0;
	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/*
 * Finds the answer line for @inst in a mapped text, checks its form
 * "word instance sense !! score S", and returns its sense (in @sense) and
 * score.  Returns the number of lines for @inst (0 or 1 expected).
 */
static int answer(const char *mapped, const char *inst, char *sense, size_t size, double *score)
{
	int found = 0;
	const char *p = mapped;
	while (*p) {
		const char *nl = strchr(p, '\n');
		ck_assert_msg(nl != NULL, "mapped text without a final line feed");
		char line[512], word[128], id[128], s[128], bang[8], kw[16];
		size_t len = (size_t)(nl - p);
		ck_assert_uint_lt(len, sizeof line);
		memcpy(line, p, len);
		line[len] = '\0';
		double v;
		int used = 0;
		int n = sscanf(line, "%127s %127s %127s %7s %15s %lf%n", word, id, s, bang, kw, &v,
			       &used);
		ck_assert_msg(n == 6 && strcmp(bang, "!!") == 0 && strcmp(kw, "score") == 0 &&
				      line[used] == '\0',
			      "malformed mapped line \"%s\"", line);
		if (strcmp(id, inst) == 0) {
			found++;
			snprintf(sense, size, "%s", s);
			*score = v;
		}
		p = nl + 1;
	}
	return found;
}

/* Checks that @inst was mapped to @sense with score @score. */
static void expect_answer(const char *mapped, const char *inst, const char *sense, double score)
{
	char got[128];
	double v = -1.0;
	ck_assert_msg(answer(mapped, inst, got, sizeof got, &v) == 1, "no single answer for %s",
		      inst);
	ck_assert_str_eq(got, sense);
	ck_assert_double_eq_tol(v, score, TOL);
}

static void expect_no_answer(const char *mapped, const char *inst)
{
	char got[128];
	double v;
	ck_assert_msg(answer(mapped, inst, got, sizeof got, &v) == 0, "%s answered %s", inst,
		      got);
}

/* ------------------------------------------------------ spec 004 mapping */

/*
 * Table 1 of spec 004 as 2100 mapping instances of word w.n: cluster clK
 * and sense gsC for m[K][C] of them,
 *   cl1: 500 gs1, 100 gs2, 100 gs3
 *   cl2: 100 gs1, 500 gs2, 100 gs3
 *   cl3: 100 gs1, 100 gs2, 500 gs3
 * so every row sums to 700 and M[cl1] = (5/7, 1/7, 1/7), M[cl2] = (1/7, 5/7,
 * 1/7), M[cl3] = (1/7, 1/7, 5/7).  Test instance t1 has the cluster vector
 * [0.8, 0.1, 0.1]:
 *   gs1 = 0.8 * 5/7 + 0.1 * 1/7 + 0.1 * 1/7 = 4.2/7 = 0.6
 *   gs2 = 0.8 * 1/7 + 0.1 * 5/7 + 0.1 * 1/7 = 1.4/7 = 0.2, gs3 = 0.2,
 * gs1 wins with 0.6, as the paper says.  t2 = [0.1, 0.8, 0.1] gives gs2 with
 * 0.6 the same way; t3 = [0.2, 0.2, 0.6] gives gs3 with
 * (0.2 + 0.2 + 3)/7 = 3.4/7.
 */
START_TEST(spec004_mapping)
{
	static const int m[3][3] = { { 500, 100, 100 }, { 100, 500, 100 }, { 100, 100, 500 } };
	struct sbuf gold = { 0 }, sys = { 0 }, map = { 0 }, test = { 0 };
	size_t id = 0;
	for (int k = 0; k < 3; k++)
		for (int c = 0; c < 3; c++)
			for (int j = 0; j < m[k][c]; j++) {
				id++;
				sb_printf(&gold, "w.n w.n.%zu gs%d\n", id, c + 1);
				sb_printf(&map, "w.n w.n.%zu gs%d\n", id, c + 1);
				sb_printf(&sys, "w.n w.n.%zu cl%d\n", id, k + 1);
			}
	sb_printf(&gold, "w.n t1 gs1\nw.n t2 gs2\nw.n t3 gs1\n");
	sb_printf(&test, "w.n t1 gs1\nw.n t2 gs2\nw.n t3 gs1\n");
	sb_printf(&sys, "w.n t1 cl1/0.8 cl2/0.1 cl3/0.1\n"
			"w.n t2 cl1/0.1 cl2/0.8 cl3/0.1\n"
			"w.n t3 cl1/0.2 cl2/0.2 cl3/0.6\n");
	struct fx f;
	load(&f, gold.s, sys.s, NULL);
	add_split(&f, map.s, test.s);
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	expect_answer(mapped, "t1", "gs1", 0.6);
	expect_answer(mapped, "t2", "gs2", 0.6);
	expect_answer(mapped, "t3", "gs3", 3.4 / 7.0);
	ck_assert_uint_eq(count_lines(mapped), 3);
	/* the first line, byte for byte up to the score */
	ck_assert_int_eq(strncmp(mapped, "w.n t1 gs1 !! score ", 20), 0);
	/* t1, t2 right, t3 wrong: 2 of 3 answered, 3 tested */
	ck_assert_uint_eq(r.mapping, 2100);
	ck_assert_uint_eq(r.test, 3);
	ck_assert_uint_eq(r.answered, 3);
	ck_assert_double_eq_tol(r.correct, 2.0, TOL);
	ck_assert_double_eq_tol(r.precision, 2.0 / 3.0, TOL);
	ck_assert_double_eq_tol(r.recall, 2.0 / 3.0, TOL);
	ck_assert_double_eq_tol(r.attempted, 1.0, TOL);
	free(mapped);
	unload(&f);
	free(gold.s);
	free(sys.s);
	free(map.s);
	free(test.s);
}
END_TEST

/*
 * A word with fractional weights in its mapping part (its sums taken in
 * value order) whose cells also hold values 1, counted rather than sorted:
 *   m1 s1 c1, m2 s1 c1, m3 s2 c1/0.5 c2/0.5, m4 s1 c1/0.5 c2/1
 *   c1: s1 = 1 + 1 + 0.5 = 2.5, s2 = 0.5, row 3: M[c1] = (5/6, 1/6)
 *   c2: s1 = 1 (a single value 1), s2 = 0.5, row 1.5: M[c2] = (2/3, 1/3)
 * Tests: t1 c1 -> s1 with 5/6 (gold s1, right); t2 c2 -> s1 with 2/3 (gold
 * s2, wrong); t3 c1/0.2 c2/0.8 -> s1 0.2 x 5/6 + 0.8 x 2/3 = 1/6 + 8/15 =
 * 21/30 = 0.7 (s2: 1/30 + 8/30 = 0.3; gold s1, right).  2 of 3 correct.
 */
START_TEST(fractional_with_ones)
{
	static const char gold[] = "w.n m1 s1\nw.n m2 s1\nw.n m3 s2\nw.n m4 s1\n"
				   "w.n t1 s1\nw.n t2 s2\nw.n t3 s1\n";
	static const char sys[] = "w.n m1 c1\nw.n m2 c1\nw.n m3 c1/0.5 c2/0.5\n"
				  "w.n m4 c1/0.5 c2/1\nw.n t1 c1\nw.n t2 c2\n"
				  "w.n t3 c1/0.2 c2/0.8\n";
	struct fx f;
	load(&f, gold, sys, NULL);
	add_split(&f, "w.n m1 s1\nw.n m2 s1\nw.n m3 s2\nw.n m4 s1\n",
		  "w.n t1 s1\nw.n t2 s2\nw.n t3 s1\n");
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	expect_answer(mapped, "t1", "s1", 5.0 / 6.0);
	expect_answer(mapped, "t2", "s1", 2.0 / 3.0);
	expect_answer(mapped, "t3", "s1", 0.7);
	ck_assert_uint_eq(r.mapping, 4);
	ck_assert_uint_eq(r.test, 3);
	ck_assert_double_eq_tol(r.correct, 2.0, TOL);
	free(mapped);
	unload(&f);
}
END_TEST

/* ------------------------------------------- reference-wsi.md section 6 */

/*
 * The worked example.  Mapping: tie.n.1, .2 -> sense tie.n.2; .3, .4 ->
 * tie.n.10; .5, .7, .8 -> tie.n.3; .6, .9 -> tie.n.1.  Clusters: .1-.4 a,
 * .5-.6 b, .7-.9 c.  Senses in bytewise order: tie.n.1, tie.n.10, tie.n.2,
 * tie.n.3, and
 *   M[a] = (0, 1/2, 1/2, 0)    (2 of tie.n.10, 2 of tie.n.2)
 *   M[b] = (1/2, 0, 0, 1/2)    (.6 tie.n.1, .5 tie.n.3)
 *   M[c] = (1/3, 0, 0, 2/3)    (.9 tie.n.1, .7 .8 tie.n.3)
 * Test instances and their answers:
 *   .10  a          (0, 1/2, 1/2, 0)      tie.n.10 (tie: first in order), 1/2
 *   .11  b          (1/2, 0, 0, 1/2)      tie.n.1 (tie), 1/2
 *   .12  c          (1/3, 0, 0, 2/3)      tie.n.3, 2/3
 *   .13  b/1 c/1    (5/6, 0, 0, 7/6)      tie.n.3, 7/6
 *   .14  a/1 b/1    (1/2, 1/2, 1/2, 1/2)  tie.n.1 (four-way tie), 1/2
 *   .15  d          d is in no mapping instance: all 0, no answer
 *   .16  a/1 d/1    d adds nothing: as .10, tie.n.10, 1/2
 * Gold senses of the test instances: .10 tie.n.10 (right), .11 tie.n.3
 * (wrong), .12 tie.n.3 (right), .13 tie.n.2 (wrong), .14 tie.n.1 (right),
 * .15 tie.n.1 (not answered), .16 tie.n.2 (wrong).
 * Scoring: 3 correct, 6 answered, 7 tested: precision 3/6 = 0.5,
 * recall 3/7, attempted 6/7.
 */
static const char tie_gold[] = "tie.n tie.n.1 tie.n.2\n"
			       "tie.n tie.n.2 tie.n.2\n"
			       "tie.n tie.n.3 tie.n.10\n"
			       "tie.n tie.n.4 tie.n.10\n"
			       "tie.n tie.n.5 tie.n.3\n"
			       "tie.n tie.n.6 tie.n.1\n"
			       "tie.n tie.n.7 tie.n.3\n"
			       "tie.n tie.n.8 tie.n.3\n"
			       "tie.n tie.n.9 tie.n.1\n"
			       "tie.n tie.n.10 tie.n.10\n"
			       "tie.n tie.n.11 tie.n.3\n"
			       "tie.n tie.n.12 tie.n.3\n"
			       "tie.n tie.n.13 tie.n.2\n"
			       "tie.n tie.n.14 tie.n.1\n"
			       "tie.n tie.n.15 tie.n.1\n"
			       "tie.n tie.n.16 tie.n.2\n";
static const char tie_clusters[] = "tie.n tie.n.1 a\n"
				   "tie.n tie.n.2 a\n"
				   "tie.n tie.n.3 a\n"
				   "tie.n tie.n.4 a\n"
				   "tie.n tie.n.5 b\n"
				   "tie.n tie.n.6 b\n"
				   "tie.n tie.n.7 c\n"
				   "tie.n tie.n.8 c\n"
				   "tie.n tie.n.9 c\n"
				   "tie.n tie.n.10 a\n"
				   "tie.n tie.n.11 b\n"
				   "tie.n tie.n.12 c\n"
				   "tie.n tie.n.13 b/1 c/1\n"
				   "tie.n tie.n.14 a/1 b/1\n"
				   "tie.n tie.n.15 d\n"
				   "tie.n tie.n.16 a/1 d/1\n";
/* the split as files: the first nine lines of the gold key, then the rest */
static const char tie_mapping[] = "tie.n tie.n.1 tie.n.2\n"
				  "tie.n tie.n.2 tie.n.2\n"
				  "tie.n tie.n.3 tie.n.10\n"
				  "tie.n tie.n.4 tie.n.10\n"
				  "tie.n tie.n.5 tie.n.3\n"
				  "tie.n tie.n.6 tie.n.1\n"
				  "tie.n tie.n.7 tie.n.3\n"
				  "tie.n tie.n.8 tie.n.3\n"
				  "tie.n tie.n.9 tie.n.1\n";
static const char tie_test[] = "tie.n tie.n.10 tie.n.10\n"
			       "tie.n tie.n.11 tie.n.3\n"
			       "tie.n tie.n.12 tie.n.3\n"
			       "tie.n tie.n.13 tie.n.2\n"
			       "tie.n tie.n.14 tie.n.1\n"
			       "tie.n tie.n.15 tie.n.1\n"
			       "tie.n tie.n.16 tie.n.2\n";

START_TEST(reference_worked_example)
{
	struct fx f;
	load(&f, tie_gold, tie_clusters, NULL);
	add_split(&f, tie_mapping, tie_test);
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	expect_answer(mapped, "tie.n.10", "tie.n.10", 0.5);
	expect_answer(mapped, "tie.n.11", "tie.n.1", 0.5);
	expect_answer(mapped, "tie.n.12", "tie.n.3", 2.0 / 3.0);
	expect_answer(mapped, "tie.n.13", "tie.n.3", 7.0 / 6.0);
	expect_answer(mapped, "tie.n.14", "tie.n.1", 0.5);
	expect_no_answer(mapped, "tie.n.15");
	expect_answer(mapped, "tie.n.16", "tie.n.10", 0.5);
	/* mapping instances are never answered */
	for (int i = 1; i <= 9; i++) {
		char id[32];
		snprintf(id, sizeof id, "tie.n.%d", i);
		expect_no_answer(mapped, id);
	}
	ck_assert_uint_eq(count_lines(mapped), 6);
	/* the answers come in the order of the gold key */
	ck_assert_int_eq(strncmp(mapped, "tie.n tie.n.10 tie.n.10 !! score 0.5\n", 37), 0);
	const char *prev = mapped;
	static const char *const order[] = { " tie.n.11 ", " tie.n.12 ", " tie.n.13 ",
					     " tie.n.14 ", " tie.n.16 " };
	for (size_t i = 0; i < 5; i++) {
		const char *at = strstr(mapped, order[i]);
		ck_assert_ptr_nonnull(at);
		ck_assert(at > prev);
		prev = at;
	}
	ck_assert_uint_eq(r.mapping, 9);
	ck_assert_uint_eq(r.test, 7);
	ck_assert_uint_eq(r.answered, 6);
	ck_assert_double_eq_tol(r.correct, 3.0, TOL);
	ck_assert_double_eq_tol(r.precision, 0.5, TOL);
	ck_assert_double_eq_tol(r.recall, 3.0 / 7.0, TOL);
	ck_assert_double_eq_tol(r.attempted, 6.0 / 7.0, TOL);
	/* without a mapped text, the same figures */
	struct tageval_supervised_result r2;
	eval(&f, 0, &r2, NULL);
	ck_assert_double_eq(r2.recall, r.recall);
	ck_assert_uint_eq(r2.answered, r.answered);
	free(mapped);
	unload(&f);
}
END_TEST

/* ------------------------------------------------------ the mapping rules */

/*
 * Ties go to the first sense in bytewise string order, whatever the order
 * of appearance: tie.n.10 before tie.n.2 ('1' < '2'), and "B" before "a"
 * (0x42 < 0x61, where a dictionary order would put "a" first).
 *   x.n: .1 -> tie.n.2, .2 -> tie.n.10, all cluster c: M[c] = (1/2, 1/2)
 *        for (tie.n.10, tie.n.2); .3 (c) -> tie.n.10, 1/2.
 *   y.n: .1 -> a, .2 -> B, cluster c: .3 -> B, 1/2.
 */
START_TEST(tie_bytewise)
{
	static const char gold[] = "x.n x.n.1 tie.n.2\nx.n x.n.2 tie.n.10\nx.n x.n.3 tie.n.2\n"
				   "y.n y.n.1 a\ny.n y.n.2 B\ny.n y.n.3 a\n";
	static const char sys[] = "x.n x.n.1 c\nx.n x.n.2 c\nx.n x.n.3 c\n"
				  "y.n y.n.1 c\ny.n y.n.2 c\ny.n y.n.3 c\n";
	struct fx f;
	load(&f, gold, sys, NULL);
	add_split(&f, "x.n x.n.1 tie.n.2\nx.n x.n.2 tie.n.10\ny.n y.n.1 a\ny.n y.n.2 B\n",
		  "x.n x.n.3 tie.n.2\ny.n y.n.3 a\n");
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	expect_answer(mapped, "x.n.3", "tie.n.10", 0.5);
	expect_answer(mapped, "y.n.3", "B", 0.5);
	/* both wrong: precision 0, recall 0, attempted 1 */
	ck_assert_uint_eq(r.answered, 2);
	ck_assert_double_eq_tol(r.correct, 0.0, TOL);
	ck_assert_double_eq_tol(r.precision, 0.0, TOL);
	ck_assert_double_eq_tol(r.recall, 0.0, TOL);
	ck_assert_double_eq_tol(r.attempted, 1.0, TOL);
	free(mapped);
	unload(&f);
}
END_TEST

/*
 * Raw weights, never normalised.  Mapping: .1 "c1/10 c2/30" sense s2,
 * .2 "c1/1" sense s1.  Raw: S[s1][c1] = 1, S[s2][c1] = 10, S[s2][c2] = 30,
 * M[c1] = (1/11, 10/11), M[c2] = (0, 1).
 *   .3 "c1"       -> s2 with 10/11 (normalised vectors would give .1 the
 *                    weight 1/4 on c1, M[c1] = (0.8, 0.2), and s1)
 *   .4 "c1/2"     -> s2 with 2 * 10/11 = 20/11 (a test vector is not
 *                    normalised either)
 *   .5 "c1 c2/3"  -> a missing weight is 1: (1/11, 10/11 + 3) -> s2, 43/11
 *   .6 "c1/10"    -> ten times .3: s2 with 100/11
 *   .7 "c1/0"     -> all 0: no answer
 * Gold: .3 s2, .4 s1, .5 s2, .6 s2, .7 s2: 3 right of 4 answered, 5 tested.
 */
START_TEST(raw_weights)
{
	static const char gold[] = "w.v w.v.1 s2\nw.v w.v.2 s1\nw.v w.v.3 s2\nw.v w.v.4 s1\n"
				   "w.v w.v.5 s2\nw.v w.v.6 s2\nw.v w.v.7 s2\n";
	static const char sys[] = "w.v w.v.1 c1/10 c2/30\nw.v w.v.2 c1/1\nw.v w.v.3 c1\n"
				  "w.v w.v.4 c1/2\nw.v w.v.5 c1 c2/3\nw.v w.v.6 c1/10\n"
				  "w.v w.v.7 c1/0\n";
	struct fx f;
	load(&f, gold, sys, NULL);
	add_split(&f, "w.v w.v.1 s2\nw.v w.v.2 s1\n",
		  "w.v w.v.3 s2\nw.v w.v.4 s1\nw.v w.v.5 s2\nw.v w.v.6 s2\nw.v w.v.7 s2\n");
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	expect_answer(mapped, "w.v.3", "s2", 10.0 / 11.0);
	expect_answer(mapped, "w.v.4", "s2", 20.0 / 11.0);
	expect_answer(mapped, "w.v.5", "s2", 43.0 / 11.0);
	expect_answer(mapped, "w.v.6", "s2", 100.0 / 11.0);
	expect_no_answer(mapped, "w.v.7");
	ck_assert_uint_eq(r.test, 5);
	ck_assert_uint_eq(r.answered, 4);
	ck_assert_double_eq_tol(r.correct, 3.0, TOL);
	ck_assert_double_eq_tol(r.precision, 0.75, TOL);
	ck_assert_double_eq_tol(r.recall, 0.6, TOL);
	ck_assert_double_eq_tol(r.attempted, 0.8, TOL);
	free(mapped);
	unload(&f);
}
END_TEST

/*
 * A cluster repeated on a line counts each time, like a weight: mapping
 * .1 c1 -> s1, .2 c2 -> s2, so M[c1] = (1, 0), M[c2] = (0, 1);
 * .3 "c1 c2 c2" scores (1, 2) -> s2 with 2 (merging the repeats into one
 * c2 would tie at (1, 1) and give s1).
 */
START_TEST(repeated_cluster)
{
	struct fx f;
	load(&f, "w.n w.n.1 s1\nw.n w.n.2 s2\nw.n w.n.3 s2\n",
	     "w.n w.n.1 c1\nw.n w.n.2 c2\nw.n w.n.3 c1 c2 c2\n", NULL);
	add_split(&f, "w.n w.n.1 s1\nw.n w.n.2 s2\n", "w.n w.n.3 s2\n");
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	expect_answer(mapped, "w.n.3", "s2", 2.0);
	ck_assert_double_eq_tol(r.recall, 1.0, TOL);
	free(mapped);
	unload(&f);
}
END_TEST

/*
 * A cluster that mapping instances carry only with weight 0 has an all-zero
 * row: it adds nothing, like an unseen cluster (no 0/0).  Mapping .1
 * "c1/0 c2" s1, .2 "c1/0" s2, .3 "c2" s2: S[s1][c2] = 1, S[s2][c2] = 1,
 * M[c2] = (1/2, 1/2); .4 "c1" -> no answer; .5 "c1 c2" -> s1 (tie), 1/2.
 */
START_TEST(zero_weight_cluster)
{
	struct fx f;
	load(&f, "w.n w.n.1 s1\nw.n w.n.2 s2\nw.n w.n.3 s2\nw.n w.n.4 s1\nw.n w.n.5 s1\n",
	     "w.n w.n.1 c1/0 c2\nw.n w.n.2 c1/0\nw.n w.n.3 c2\nw.n w.n.4 c1\nw.n w.n.5 c1 c2\n",
	     NULL);
	add_split(&f, "w.n w.n.1 s1\nw.n w.n.2 s2\nw.n w.n.3 s2\n", "w.n w.n.4 s1\nw.n w.n.5 s1\n");
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	ck_assert_str_eq(mapped, "w.n w.n.5 s1 !! score 0.5\n");
	ck_assert_uint_eq(r.answered, 1);
	ck_assert_double_eq_tol(r.recall, 0.5, TOL);
	free(mapped);
	unload(&f);
}
END_TEST

/*
 * Many clusters and senses for few mapping instances (a sparse matrix).
 * Word w.n: 100 mapping instances .0 ... .99, instance i in cluster
 * k(i div 4) with sense s((i div 2) mod 20) (senses s0 ... s19, bytewise
 * s0 s1 s10 s11 ... s19 s2 s3 ... s9): cluster kj holds two instances of
 * s(2j mod 20) and two of s(2j + 1 mod 20), so M[kj] gives 1/2 to each;
 * 25 clusters x 20 senses.
 *   t1 "k1/1 k3/2 k4/5": k1 -> s2, s3 (1/2 each), k3 -> s6, s7 (1 each),
 *       k4 -> s8, s9 (5/2 each): s8 wins the tie with s9, score 2.5.
 *   t2 "k1 k5": k1 -> s2, s3, k5 -> s10, s11, all 1/2: s10 comes first
 *       in bytewise order.
 *   t3 "k12/3": k12 -> s24 mod 20 = s4, s5: s4 with 1.5.
 */
START_TEST(sparse_matrix)
{
	struct sbuf gold = { 0 }, sys = { 0 }, map = { 0 };
	for (int i = 0; i < 100; i++) {
		sb_printf(&gold, "w.n w.n.%d s%d\n", i, (i / 2) % 20);
		sb_printf(&map, "w.n w.n.%d s%d\n", i, (i / 2) % 20);
		sb_printf(&sys, "w.n w.n.%d k%d\n", i, i / 4);
	}
	sb_printf(&gold, "w.n t1 s8\nw.n t2 s2\nw.n t3 s4\n");
	sb_printf(&sys, "w.n t1 k1/1 k3/2 k4/5\nw.n t2 k1 k5\nw.n t3 k12/3\n");
	struct fx f;
	load(&f, gold.s, sys.s, NULL);
	add_split(&f, map.s, "w.n t1 s8\nw.n t2 s2\nw.n t3 s4\n");
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	expect_answer(mapped, "t1", "s8", 2.5);
	expect_answer(mapped, "t2", "s10", 0.5);
	expect_answer(mapped, "t3", "s4", 1.5);
	/* t1 and t3 right */
	ck_assert_uint_eq(r.mapping, 100);
	ck_assert_double_eq_tol(r.correct, 2.0, TOL);
	free(mapped);
	unload(&f);
	free(gold.s);
	free(sys.s);
	free(map.s);
}
END_TEST

/*
 * A mapping instance with n gold labels gives each 1/n.  Mapping: .1 "c1"
 * labels s1 s2 (1/2 each), .2 "c1" label s2: S[s1][c1] = 1/2,
 * S[s2][c1] = 3/2, M[c1] = (1/4, 3/4); .3 "c1" -> s2 with 0.75 (a full 1
 * for each label would give (1/3, 2/3) and 2/3).  A test instance with two
 * labels is right when the answer is either: .3's labels are s1 s2.
 */
START_TEST(two_gold_labels)
{
	struct fx f;
	load(&f, "w.n w.n.1 s1 s2\nw.n w.n.2 s2\nw.n w.n.3 s1 s2\n",
	     "w.n w.n.1 c1\nw.n w.n.2 c1\nw.n w.n.3 c1\n", NULL);
	add_split(&f, "w.n w.n.1 s1 s2\nw.n w.n.2 s2\n", "w.n w.n.3 s1 s2\n");
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	expect_answer(mapped, "w.n.3", "s2", 0.75);
	ck_assert_double_eq_tol(r.correct, 1.0, TOL);
	ck_assert_double_eq_tol(r.recall, 1.0, TOL);
	free(mapped);
	unload(&f);
}
END_TEST

/*
 * The same through folds, where the labels come from the gold key: 2
 * folds over a.n (.1 s1 s2, .2 s2) and the gold lines' labels used in the
 * mapping.  Whatever the shuffle, each fold maps on one instance and tests
 * the other:
 *   mapping .1 (s1 s2, 1/2 each): M[c1] = (1/2, 1/2) -> .2 gets s1 (tie),
 *       wrong (.2 is s2);
 *   mapping .2 (s2): M[c1] = (0, 1) -> .1 gets s2 with 1, right.
 * Over both folds: 1 right of 2.
 */
START_TEST(two_gold_labels_folds)
{
	struct fx f;
	load(&f, "a.n a.n.1 s1 s2\na.n a.n.2 s2\n", "a.n a.n.1 c1\na.n a.n.2 c1\n", NULL);
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_supervised_add_folds(f.s, 2, 7, &err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_supervised_splits(f.s), 2);
	double correct = 0.0;
	for (size_t i = 0; i < 2; i++) {
		struct tageval_supervised_result r;
		char *mapped = NULL;
		eval(&f, i, &r, &mapped);
		ck_assert_uint_eq(r.mapping, 1);
		ck_assert_uint_eq(r.test, 1);
		char sense[32];
		double score;
		if (answer(mapped, "a.n.1", sense, sizeof sense, &score) == 1) {
			ck_assert_str_eq(sense, "s2");
			ck_assert_double_eq_tol(score, 1.0, TOL);
		} else {
			expect_answer(mapped, "a.n.2", "s1", 0.5);
		}
		correct += r.correct;
		free(mapped);
	}
	ck_assert_double_eq_tol(correct, 1.0, TOL);
	unload(&f);
}
END_TEST

/*
 * Who gets no answer: a word without mapping instance (b.n: its only
 * instances are tested), a test instance the clusters file lacks (a.n.4),
 * and a gold instance in neither key (a.n.5: not tested at all).  A mapping
 * instance without clusters (a.n.3) adds nothing to M.
 *   a.n: mapping .1 c1 s1, .2 c1 s2 (.3 unclustered, s2): M[c1] = (1/2, 1/2)
 *        test .6 c1 -> s1 with 1/2 (right); .4 no answer.
 *   b.n: test .1, .2 (c1): no answer.
 * 1 right, 1 answered, 4 tested: precision 1, recall 1/4, attempted 1/4.
 */
START_TEST(no_answer_cases)
{
	static const char gold[] = "a.n a.n.1 s1\na.n a.n.2 s2\na.n a.n.3 s2\na.n a.n.4 s1\n"
				   "a.n a.n.5 s1\na.n a.n.6 s1\nb.n b.n.1 s1\nb.n b.n.2 s1\n";
	static const char sys[] = "a.n a.n.1 c1\na.n a.n.2 c1\na.n a.n.5 c1\na.n a.n.6 c1\n"
				  "b.n b.n.1 c1\nb.n b.n.2 c1\n";
	struct fx f;
	load(&f, gold, sys, NULL);
	add_split(&f, "a.n a.n.1 s1\na.n a.n.2 s2\na.n a.n.3 s2\n",
		  "a.n a.n.4 s1\na.n a.n.6 s1\nb.n b.n.1 s1\nb.n b.n.2 s1\n");
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	ck_assert_str_eq(mapped, "a.n a.n.6 s1 !! score 0.5\n");
	ck_assert_uint_eq(r.mapping, 3);
	ck_assert_uint_eq(r.test, 4);
	ck_assert_uint_eq(r.answered, 1);
	ck_assert_double_eq_tol(r.precision, 1.0, TOL);
	ck_assert_double_eq_tol(r.recall, 0.25, TOL);
	ck_assert_double_eq_tol(r.attempted, 0.25, TOL);
	free(mapped);
	unload(&f);
}
END_TEST

/*
 * Nothing answered at all: the mapped text is empty (not NULL), precision
 * is undefined (NaN), recall and attempted 0.  Every cluster of the test
 * instance is unseen.
 */
START_TEST(nothing_answered)
{
	struct fx f;
	load(&f, "w.n w.n.1 s1\nw.n w.n.2 s1\n", "w.n w.n.1 c1\nw.n w.n.2 c2\n", NULL);
	add_split(&f, "w.n w.n.1 s1\n", "w.n w.n.2 s1\n");
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	ck_assert_str_eq(mapped, "");
	ck_assert_uint_eq(r.test, 1);
	ck_assert_uint_eq(r.answered, 0);
	ck_assert(isnan(r.precision));
	ck_assert_double_eq(r.recall, 0.0);
	ck_assert_double_eq(r.attempted, 0.0);
	free(mapped);
	unload(&f);
}
END_TEST

/*
 * An empty clusters file: no instance has a cluster, nothing is answered;
 * the mapping still counts its instances.
 */
START_TEST(empty_clusters)
{
	struct fx f;
	load(&f, tie_gold, "", NULL);
	add_split(&f, tie_mapping, tie_test);
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	ck_assert_str_eq(mapped, "");
	ck_assert_uint_eq(r.mapping, 9);
	ck_assert_uint_eq(r.test, 7);
	ck_assert_uint_eq(r.answered, 0);
	free(mapped);
	unload(&f);
}
END_TEST

/* An empty mapping key: no word has mapping instances, nothing is answered. */
START_TEST(empty_mapping)
{
	struct fx f;
	load(&f, tie_gold, tie_clusters, NULL);
	add_split(&f, "", tie_test);
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	ck_assert_str_eq(mapped, "");
	ck_assert_uint_eq(r.mapping, 0);
	ck_assert_uint_eq(r.test, 7);
	ck_assert_uint_eq(r.answered, 0);
	ck_assert_double_eq(r.recall, 0.0);
	free(mapped);
	unload(&f);
}
END_TEST

/*
 * The labels of the split files are the ones used: the test key says
 * w.n.2 is s2 where the gold key says s1.  Mapping .1 c1 s1 -> .2 gets s1,
 * wrong by the test key: recall 0.
 */
START_TEST(split_file_labels)
{
	struct fx f;
	load(&f, "w.n w.n.1 s1\nw.n w.n.2 s1\n", "w.n w.n.1 c1\nw.n w.n.2 c1\n", NULL);
	add_split(&f, "w.n w.n.1 s1\n", "w.n w.n.2 s2\n");
	struct tageval_supervised_result r;
	eval(&f, 0, &r, NULL);
	ck_assert_uint_eq(r.answered, 1);
	ck_assert_double_eq(r.recall, 0.0);
	unload(&f);
}
END_TEST

/*
 * Comments and blank lines in split files, and weights on their labels
 * (read and ignored, as the gold reader does): the tie example again with
 * "!!" comments, runs of blanks and tabs.
 */
START_TEST(split_file_syntax)
{
	struct fx f;
	load(&f, tie_gold, tie_clusters, NULL);
	struct sbuf m = { 0 };
	sb_printf(&m, "!! a comment line\n\n");
	for (const char *p = tie_mapping; *p;) {
		const char *nl = strchr(p, '\n');
		sb_printf(&m, "%.*s \t !! mapping\n", (int)(nl - p), p);
		p = nl + 1;
	}
	add_split(&f, m.s, tie_test);
	add_split(&f, tie_mapping, tie_test);
	struct tageval_supervised_result r1, r2;
	char *t1 = NULL, *t2 = NULL;
	eval(&f, 0, &r1, &t1);
	eval(&f, 1, &r2, &t2);
	ck_assert_str_eq(t1, t2);
	ck_assert_double_eq(r1.recall, r2.recall);
	ck_assert_uint_eq(r1.mapping, 9);
	free(t1);
	free(t2);
	free(m.s);
	unload(&f);
}
END_TEST

/*
 * --pos: a split file may hold lines of other words; only the selected
 * words are mapped and tested.  With pos "v", only run.v counts:
 * mapping run.v.1 (c1, s1), test run.v.2 (c1, s1): 1 of 1.
 */
START_TEST(pos_selection)
{
	static const char gold[] = "a.n a.n.1 s1\na.n a.n.2 s2\nrun.v run.v.1 s1\nrun.v run.v.2 s1\n";
	static const char sys[] = "a.n a.n.1 c1\na.n a.n.2 c1\nrun.v run.v.1 c1\nrun.v run.v.2 c1\n";
	struct fx f;
	load(&f, gold, sys, "v");
	add_split(&f, "a.n a.n.1 s1\nrun.v run.v.1 s1\n", "a.n a.n.2 s2\nrun.v run.v.2 s1\n");
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	ck_assert_str_eq(mapped, "run.v run.v.2 s1 !! score 1\n");
	ck_assert_uint_eq(r.mapping, 1);
	ck_assert_uint_eq(r.test, 1);
	ck_assert_double_eq_tol(r.recall, 1.0, TOL);
	free(mapped);
	unload(&f);
	/* "all" and NULL select every word: 1 of 2 (a.n.2 gets s1, wrong) */
	load(&f, gold, sys, "all");
	add_split(&f, "a.n a.n.1 s1\nrun.v run.v.1 s1\n", "a.n a.n.2 s2\nrun.v run.v.2 s1\n");
	eval(&f, 0, &r, NULL);
	ck_assert_uint_eq(r.test, 2);
	ck_assert_double_eq_tol(r.recall, 0.5, TOL);
	unload(&f);
}
END_TEST

/* Two drawn folds of a.n (10 instances, 8 of s1, all in cluster c1): each
 * maps c1 from 5 instances to s1 and answers its 5 test instances s1 (see
 * wide_case): 10 tested, 10 answered, 8 correct.  Frees @gold and @sys. */
static void expect_a_n_folds(struct sbuf *gold, struct sbuf *sys)
{
	struct fx f;
	load(&f, gold->s, sys->s, "n");
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_supervised_add_folds(f.s, 2, 7, &err), TAGEVAL_OK);
	size_t test = 0, answered = 0;
	double correct = 0;
	for (size_t i = 0; i < 2; i++) {
		struct tageval_supervised_result r;
		char *mapped = NULL;
		eval(&f, i, &r, &mapped);
		ck_assert_uint_eq(r.mapping, 5);
		ck_assert_uint_eq(r.test, 5);
		ck_assert_uint_eq(count_lines(mapped), 5);
		for (const char *l = mapped; *l; l = strchr(l, '\n') + 1)
			ck_assert_int_eq(strncmp(strchr(strchr(l, ' ') + 1, ' '), " s1 !! score ", 13), 0);
		test += r.test;
		answered += r.answered;
		correct += r.correct;
		free(mapped);
	}
	ck_assert_uint_eq(test, 10);
	ck_assert_uint_eq(answered, 10);
	ck_assert_double_eq_tol(correct, 8.0, TOL);
	unload(&f);
	free(gold->s);
	free(sys->s);
}

/*
 * The gold labels as sense ids: 16-bit when the gold key has at most 65,536
 * labels (so many senses at most), 32-bit past that.  A key of @pad
 * senses of b.v (t0, t1, ...: 64 to a line, a line's labels read in
 * order), then a.n.1 ..
 * a.n.10: s1 for 1-8, s2 for 9 and 10, all in cluster c1; a.n selected
 * ("n"), 2 folds.  The senses are numbered in the gold key's word order:
 * t0 .. t(pad - 1) are 0 .. pad - 1, s1 is pad, s2 pad + 1.  Each fold maps
 * c1 from 5 of a.n's instances, at most 2 of them s2: to s1 (at least 3 of
 * 5).  So all 10 test instances (5 a fold) are answered s1, 8 of them
 * rightly: over the two folds 10 tested, 10 answered, 8 correct, whatever
 * the draw.  The labels counted include the unanswered label "U" that
 * every clustering object holds: pad + 3 of them.  pad = 65,533: 65,536
 * labels, the last number of the 16-bit path, s1 65,533 and s2 65,534;
 * pad = 65,534: 65,537 labels, the first of the 32-bit path, s2 65,535;
 * pad = 65,536: 65,539 labels (32-bit), s1 65,536 and s2 65,537, which in
 * 16 bits would read as senses 0 and 1 (t0, t1: the answers would name
 * t0).  (Black box: which path ran is not seen here, only that both sides
 * of the switch give the same answers.)
 */
static void wide_case(size_t pad)
{
	struct sbuf gold = { 0 }, sys = { 0 };
	for (size_t i = 0; i < pad; i += 64) {
		sb_printf(&gold, "b.v b.v.%zu", i);
		for (size_t j = i; j < i + 64 && j < pad; j++)
			sb_printf(&gold, " t%zu", j);
		sb_printf(&gold, "\n");
		sb_printf(&sys, "b.v b.v.%zu c1\n", i);
	}
	for (int i = 1; i <= 10; i++) {
		sb_printf(&gold, "a.n a.n.%d %s\n", i, i <= 8 ? "s1" : "s2");
		sb_printf(&sys, "a.n a.n.%d c1\n", i);
	}
	expect_a_n_folds(&gold, &sys);
}

START_TEST(gold_senses_16bit_edge)
{
	wide_case(65533);
}
END_TEST

START_TEST(gold_senses_32bit_edge)
{
	wide_case(65534);
}
END_TEST

START_TEST(gold_senses_32bit)
{
	wide_case(65536);
}
END_TEST

/*
 * The gold labels of drawn splits when every gold line has one label (no
 * pool of several: each instance's label copied straight to its grouped
 * position).  Two words, their lines interleaved, so that the instances
 * of a word are not in a row: a.n.1 .. a.n.10 (s1 for 1-8, s2 for 9 and
 * 10) and b.v.1 .. b.v.4 (all t1), every instance in cluster c1; a.n
 * selected ("n"), 2 folds.  As in wide_case(): each fold maps c1 from 5 of
 * a.n's instances, at most 2 of them s2, so c1 -> s1 (3 of 5 at least),
 * and its 5 test instances are all answered s1: 10 tested, 10 answered,
 * 8 correct (a.n.1 .. a.n.8), whatever the draw.  A label copied to
 * another instance's position, or another id than the label's, would give
 * other counts (b.v's t1 in a.n's positions: answers t1, none correct;
 * every label the same: 10 correct).
 */
START_TEST(gold_senses_single)
{
	struct sbuf gold = { 0 }, sys = { 0 };
	for (int i = 1; i <= 10; i++) {
		sb_printf(&gold, "a.n a.n.%d %s\n", i, i <= 8 ? "s1" : "s2");
		sb_printf(&sys, "a.n a.n.%d c1\n", i);
		if (i <= 4) {
			sb_printf(&gold, "b.v b.v.%d t1\n", i);
			sb_printf(&sys, "b.v b.v.%d c1\n", i);
		}
	}
	expect_a_n_folds(&gold, &sys);
}
END_TEST

/* --------------------------------------------------------- drawn splits */

/*
 * A gold key of four words with n_w = 7, 13, 8 and 10 instances (senses
 * cycling over s0, s1, s2) and a one-cluster-per-word clustering: every
 * test instance of a word that has mapping instances gets an answer (the
 * most frequent sense of the mapping part), so the mapped text lists every
 * test instance.
 */
static const char *const draw_words[] = { "a.n", "b.n", "c.v", "d.v" };
static const size_t draw_sizes[] = { 7, 13, 8, 10 };
#define DRAW_WORDS 4
#define DRAW_N (7 + 13 + 8 + 10)

static void draw_files(struct sbuf *gold, struct sbuf *sys)
{
	for (size_t w = 0; w < DRAW_WORDS; w++)
		for (size_t i = 0; i < draw_sizes[w]; i++) {
			sb_printf(gold, "%s %s.%zu s%zu\n", draw_words[w], draw_words[w], i + 1,
				  (i * 7 + w) % 3);
			sb_printf(sys, "%s %s.%zu %s.c\n", draw_words[w], draw_words[w], i + 1,
				  draw_words[w]);
		}
}

/* The word index and instance number of an instance id "x.n.K". */
static void parse_id(const char *id, size_t *word, size_t *k)
{
	for (size_t w = 0; w < DRAW_WORDS; w++) {
		size_t len = strlen(draw_words[w]);
		if (strncmp(id, draw_words[w], len) == 0 && id[len] == '.') {
			*word = w;
			*k = (size_t)strtoul(id + len + 1, NULL, 10);
			ck_assert(*k >= 1 && *k <= draw_sizes[w]);
			return;
		}
	}
	ck_abort_msg("unexpected instance %s", id);
}

/* Counts, per word, the instances a mapped text answers; marks them in @seen. */
static void tally(const char *mapped, size_t per_word[DRAW_WORDS], unsigned seen[][16])
{
	memset(per_word, 0, DRAW_WORDS * sizeof *per_word);
	for (const char *p = mapped; *p;) {
		char word[64], id[64];
		ck_assert_int_eq(sscanf(p, "%63s %63s", word, id), 2);
		size_t w, k;
		parse_id(id, &w, &k);
		ck_assert_str_eq(word, draw_words[w]);
		per_word[w]++;
		if (seen)
			seen[w][k]++;
		p = strchr(p, '\n') + 1;
	}
}

/*
 * 5 folds: every instance is tested exactly once over the five splits,
 * each split tests what it does not map on, and each word's test counts
 * per fold differ by at most 1 (stratification: n_w = 7 gives 2, 2, 1, 1, 1
 * in some order; 13 gives 3, 3, 3, 2, 2; 8 gives 2, 2, 2, 1, 1; 10 gives 2
 * each).
 */
START_TEST(folds_cover_once)
{
	struct sbuf gold = { 0 }, sys = { 0 };
	draw_files(&gold, &sys);
	struct fx f;
	load(&f, gold.s, sys.s, NULL);
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_supervised_add_folds(f.s, 5, 1, &err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_supervised_splits(f.s), 5);
	unsigned seen[DRAW_WORDS][16] = { { 0 } };
	size_t per_fold[5][DRAW_WORDS];
	size_t tested = 0;
	for (size_t i = 0; i < 5; i++) {
		struct tageval_supervised_result r;
		char *mapped = NULL;
		eval(&f, i, &r, &mapped);
		ck_assert_uint_eq(r.mapping + r.test, DRAW_N);
		ck_assert_uint_eq(r.answered, r.test);
		tally(mapped, per_fold[i], seen);
		size_t sum = 0;
		for (size_t w = 0; w < DRAW_WORDS; w++)
			sum += per_fold[i][w];
		ck_assert_uint_eq(sum, r.test);
		tested += r.test;
		free(mapped);
	}
	ck_assert_uint_eq(tested, DRAW_N);
	for (size_t w = 0; w < DRAW_WORDS; w++) {
		for (size_t k = 1; k <= draw_sizes[w]; k++)
			ck_assert_msg(seen[w][k] == 1, "%s.%zu tested %u times", draw_words[w], k,
				      seen[w][k]);
		size_t lo = (size_t)-1, hi = 0;
		for (size_t i = 0; i < 5; i++) {
			lo = per_fold[i][w] < lo ? per_fold[i][w] : lo;
			hi = per_fold[i][w] > hi ? per_fold[i][w] : hi;
		}
		/* floor and ceiling of n_w / 5 */
		ck_assert_uint_eq(lo, draw_sizes[w] / 5);
		ck_assert_uint_eq(hi, (draw_sizes[w] + 4) / 5);
	}
	unload(&f);
	free(gold.s);
	free(sys.s);
}
END_TEST

/* Other numbers of folds, and a selection: k = 2, 3, 7 on the verbs only. */
START_TEST(folds_other_k)
{
	static const size_t ks[] = { 2, 3, 7 };
	struct sbuf gold = { 0 }, sys = { 0 };
	draw_files(&gold, &sys);
	struct fx f;
	load(&f, gold.s, sys.s, "v");
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_supervised_add_folds(f.s, ks[_i], 3, &err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_supervised_splits(f.s), ks[_i]);
	unsigned seen[DRAW_WORDS][16] = { { 0 } };
	size_t tested = 0;
	for (size_t i = 0; i < ks[_i]; i++) {
		struct tageval_supervised_result r;
		char *mapped = NULL;
		eval(&f, i, &r, &mapped);
		/* c.v and d.v: 8 + 10 instances */
		ck_assert_uint_eq(r.mapping + r.test, 18);
		size_t per_word[DRAW_WORDS];
		tally(mapped, per_word, seen);
		ck_assert_uint_eq(per_word[0] + per_word[1], 0);
		/* stratified: floor or ceiling of n_w / k */
		for (size_t w = 2; w < DRAW_WORDS; w++)
			ck_assert(per_word[w] == draw_sizes[w] / ks[_i] ||
				  per_word[w] == (draw_sizes[w] + ks[_i] - 1) / ks[_i]);
		tested += r.test;
		free(mapped);
	}
	ck_assert_uint_eq(tested, 18);
	for (size_t w = 2; w < DRAW_WORDS; w++)
		for (size_t k = 1; k <= draw_sizes[w]; k++)
			ck_assert_uint_eq(seen[w][k], 1);
	unload(&f);
	free(gold.s);
	free(sys.s);
}
END_TEST

/*
 * Drawn splits (folds, random) are evaluated from each word's triples sorted
 * once for all its splits; the keyed path (the mapped answers scored by the
 * Senseval scorer) maps each split on its own.  The two must agree to the
 * bit on weighted data: gold lines of one to three senses, some weighted;
 * clusters of weight 0, 0.1, 0.25, 0.3, 0.5, 1, 2 or 3, up to three a line,
 * ties between senses, clusters seen in one instance only, instances left
 * unanswered; and a word whose whole weights sum past 2^53 (P = 2^52: the
 * sums must round the same way on both paths, whatever the lines' order).
 */
START_TEST(drawn_paths_agree)
{
	static const char *const wts[] = { "0", "0.1", "0.25", "0.3", "0.5", "1", "2", "3" };
	struct sbuf gold = { 0 }, sys = { 0 };
	uint64_t r = 12345 + (uint64_t)_i;
	for (size_t w = 0; w < 3; w++)
		for (size_t i = 1; i <= 30; i++) {
			r = r * 6364136223846793005u + 1442695040888963407u;
			unsigned x = (unsigned)(r >> 33);
			sb_printf(&gold, "w%zu.n w%zu.n.%zu s%u", w, w, i, x % 3);
			if (x / 3 % 3 == 1)
				sb_printf(&gold, " s%u", (x + 1) % 3);
			else if (x / 3 % 3 == 2)
				sb_printf(&gold, "/0.3 s%u/0.7", (x + 2) % 3);
			sb_printf(&gold, "\n");
			if (x / 9 % 7 == 0)
				continue; /* unanswered */
			sb_printf(&sys, "w%zu.n w%zu.n.%zu", w, w, i);
			size_t nc = 1 + x / 63 % 3;
			for (size_t c = 0; c < nc; c++) {
				unsigned y = x / 189 + (unsigned)c * 5;
				if (y % 11 == 0)
					sb_printf(&sys, " only%zu.%zu", w, i); /* one instance's */
				else
					sb_printf(&sys, " c%u", y % 4);
				if (nc > 1 || y % 2)
					sb_printf(&sys, "/%s", wts[y / 4 % 8]);
			}
			sb_printf(&sys, "\n");
		}
	/* split 3 of 4 folds, seed 1, maps c to A and B with sums that both
	 * round to 2^53 + 4 (the CLI case whole-weights-past-2p53 by hand) */
	static const char *const big_gold[] = { "a0 A", "a1 A", "a2 A", "a3 A", "a4 A", "a5 A",
						"a6 A", "a7 A", "b0 B", "b1 B", "b2 B", "t0 A",
						"t1 B" };
	static const char *const big_sys[] = { "a0 c/4503599627370496", "a1 c/4503599627370496",
					       "a2 c", "a3 c", "a4 c", "a5 c", "a6 c", "a7 c",
					       "b0 c/4503599627370496", "b1 c/4503599627370496",
					       "b2 c/4", "t0 c", "t1 c" };
	for (size_t i = 0; i < 13; i++) {
		sb_printf(&gold, "w %s\n", big_gold[i]);
		sb_printf(&sys, "w %s\n", big_sys[i]);
	}
	for (int folds = 0; folds <= 1; folds++) {
		struct fx f;
		load(&f, gold.s, sys.s, NULL);
		struct tageval_error err = { 0 };
		int rc = folds ? tageval_supervised_add_folds(f.s, 4, 1 + (unsigned long)_i, &err)
			       : tageval_supervised_add_random(f.s, 3, 0.3, 1 + (unsigned long)_i,
							       &err);
		ck_assert_int_eq(rc, TAGEVAL_OK);
		for (size_t i = 0; i < tageval_supervised_splits(f.s); i++) {
			struct tageval_supervised_result res;
			eval(&f, i, &res, NULL); /* keyless (shared tables) against keyed */
		}
		unload(&f);
	}
	free(gold.s);
	free(sys.s);
}
END_TEST

/*
 * The keyless evaluation of all the splits (evaluate_all()) shares the words
 * out in parts of about equal instance counts (up to 16, of 1,024 selected
 * instances or more), each with its own figures, added up after; the
 * copies in the grouped order (copy_grouped()) are made in parts too,
 * ranges of lines (up to 8, of 8,192 or more: 3 here).  The data here take
 * 16 parts (32,320 / 1,024 is past 16) and more words than parts (27), of
 * unequal sizes: 20 words "mNN.n" of 40 + (733 j mod 1500) instances,
 * mixed as in drawn_paths_agree (fractional and several gold labels and
 * clusters, some unanswered), a word "big.n" of 4,000 (a part is about
 * 32,320 / 16 = 2,020: "big.n", from 18,570 to 22,570, makes part 10 alone
 * and leaves part 11 empty, its end 22,220 passed), and 6 words "cJ.v" of
 * 5 (150 + 70 j) = 750, 1,100, 1,450, 1,800, 2,150, 2,500 instances (9,750
 * in all), instance i of gold A and cluster k0 if i mod 4 != 0, else B and
 * k1: instances in all (sum over j < 20 of 40 + (733 j mod 1500) = 18,570,
 * + 4,000 + 9,750) = 32,320.  The words' lines are interleaved, so that
 * each part of the copies starts in the middle of every word.
 * Each split's figures must be those of the splits evaluated one by one
 * with the key (eval()), for 5 folds, 2 random splits and a split given in
 * files (mapping: the instances i of each word with i mod 3 != 0, test the
 * others).  By hand:
 *  - folds: every instance is tested in one fold and maps in the 4 others:
 *    the tests sum to 32,320 and the mappings to 4 x 32,320 = 129,280;
 *  - the given split tests 10,783 instances and maps 32,320 - 10,783 =
 *    21,537 (a word of n has ceil(n / 3) with i mod 3 = 0: the 20 "mNN.n"
 *    6,197, "big.n" 1,334, the "cJ.v" 250 + 367 + 484 + 600 + 717 + 834 =
 *    3,252; the lines written are counted too);
 *  - on the words "cJ.v" alone (pos "v": 9,750 instances, still 9 parts),
 *    k0 holds only A and k1 only B in every mapping part, so every test
 *    instance is answered right; each word's n is a multiple of 5, so fold
 *    f tests n / 5 of each word: every split maps 7,800, tests 1,950,
 *    answers 1,950 and gets 1,950 right (precision = recall = attempted = 1);
 *    each answer is checked (instance i of "cJ.v" answered A, score 1 (to
 *    rounding: (1 / n) x n), if
 *    i mod 4 != 0, else B), and each instance is answered in one split.
 */
/* Word @w of parts_files(): its name and number of instances. */
static size_t parts_word(size_t w, char *name, size_t size)
{
	if (w < 20)
		snprintf(name, size, "m%02zu.n", w);
	else if (w == 20)
		snprintf(name, size, "big.n");
	else
		snprintf(name, size, "c%zu.v", w - 21);
	return w < 20 ? 40 + (733 * w) % 1500 : w == 20 ? 4000 : 5 * (150 + 70 * (w - 21));
}

/* Instance @i of word @w of parts_files(). */
static void parts_line(struct sbuf *gold, struct sbuf *sys, struct sbuf *map, struct sbuf *test,
		       size_t w, size_t i)
{
	static const char *const wts[] = { "0", "0.1", "0.25", "0.3", "0.5", "1", "2", "3" };
	char name[16], lab[48];
	parts_word(w, name, sizeof name);
	struct sbuf *key = i % 3 ? map : test;
	if (w > 20) {
		snprintf(lab, sizeof lab, "%s", i % 4 ? "A" : "B");
		sb_printf(sys, "%s %s.%zu k%d\n", name, name, i, i % 4 ? 0 : 1);
	} else {
		uint64_t r = ((uint64_t)w * 1000003u + i) * 6364136223846793005u +
			     1442695040888963407u;
		unsigned x = (unsigned)(r >> 33);
		if (x / 3 % 3 == 1)
			snprintf(lab, sizeof lab, "s%u s%u", x % 3, (x + 1) % 3);
		else if (x / 3 % 3 == 2)
			snprintf(lab, sizeof lab, "s%u/0.3 s%u/0.7", x % 3, (x + 2) % 3);
		else
			snprintf(lab, sizeof lab, "s%u", x % 3);
		if (x / 9 % 7 != 0) { /* else unanswered */
			sb_printf(sys, "%s %s.%zu", name, name, i);
			size_t nc = 1 + x / 63 % 3;
			for (size_t c = 0; c < nc; c++) {
				unsigned y = x / 189 + (unsigned)c * 5;
				sb_printf(sys, " c%u", y % 6);
				if (nc > 1 || y % 2)
					sb_printf(sys, "/%s", wts[y / 6 % 8]);
			}
			sb_printf(sys, "\n");
		}
	}
	sb_printf(gold, "%s %s.%zu %s\n", name, name, i, lab);
	sb_printf(key, "%s %s.%zu %s\n", name, name, i, lab);
}

/* The lines of the 27 words taken in turn (instance r of every word that
 * has one, then r + 1), so that every range of lines holds instances of
 * every word: the copies in the grouped order, made in ranges of lines,
 * each start in the middle of every word. */
static void parts_files(struct sbuf *gold, struct sbuf *sys, struct sbuf *map, struct sbuf *test)
{
	char name[16];
	for (size_t r = 0; r < 4000; r++)
		for (size_t w = 0; w < 27; w++)
			if (r < parts_word(w, name, sizeof name))
				parts_line(gold, sys, map, test, w, r);
}

/* The mapped answers of a split on the words "cJ.v": instance i answered
 * A if i mod 4 != 0, else B, with score 1; each marked in @seen.  Returns
 * their number. */
static size_t parts_v_answers(const char *mapped, unsigned char seen[6][2500])
{
	size_t n = 0;
	for (const char *p = mapped; *p; p = strchr(p, '\n') + 1) {
		char word[32], sense[32], bang[8], kw[16];
		unsigned j, i, jw;
		double v;
		ck_assert_int_eq(sscanf(p, "%31s c%u.v.%u %31s %7s %15s %lf", word, &j, &i, sense,
					bang, kw, &v),
				 7);
		ck_assert_int_eq(sscanf(word, "c%u.v", &jw), 1);
		ck_assert_uint_eq(jw, j);
		ck_assert_uint_lt(j, 6);
		ck_assert_uint_lt(i, 5 * (150 + 70 * j));
		ck_assert_str_eq(sense, i % 4 ? "A" : "B");
		ck_assert_double_eq_tol(v, 1.0, TOL); /* (1 / n) x n */
		ck_assert_uint_eq(seen[j][i], 0);
		seen[j][i] = 1;
		n++;
	}
	return n;
}

START_TEST(parts_add_up)
{
	struct sbuf gold = { 0 }, sys = { 0 }, map = { 0 }, test = { 0 };
	parts_files(&gold, &sys, &map, &test);
	ck_assert_uint_eq(count_lines(gold.s), 32320);
	ck_assert_uint_eq(count_lines(map.s), 21537);
	ck_assert_uint_eq(count_lines(test.s), 10783);
	struct fx f;
	load(&f, gold.s, sys.s, NULL);
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_supervised_add_folds(f.s, 5, 3, &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_supervised_add_random(f.s, 2, 0.3, 4, &err), TAGEVAL_OK);
	size_t mapping = 0, tested = 0;
	for (size_t i = 0; i < 7; i++) {
		struct tageval_supervised_result res;
		eval(&f, i, &res, NULL); /* in parts, against one by one with the key */
		if (i < 5) {
			mapping += res.mapping;
			tested += res.test;
		}
	}
	ck_assert_uint_eq(tested, 32320);
	ck_assert_uint_eq(mapping, 4 * 32320);
	unload(&f);
	/* a split of the files' labels: map_word() in the parts */
	load(&f, gold.s, sys.s, NULL);
	add_split(&f, map.s, test.s);
	struct tageval_supervised_result res;
	eval(&f, 0, &res, NULL);
	ck_assert_uint_eq(res.mapping, 21537);
	ck_assert_uint_eq(res.test, 10783);
	unload(&f);
	load(&f, gold.s, sys.s, "v");
	ck_assert_int_eq(tageval_supervised_add_folds(f.s, 5, 3, &err), TAGEVAL_OK);
	static unsigned char seen[6][2500];
	memset(seen, 0, sizeof seen);
	for (size_t i = 0; i < 5; i++) {
		char *mapped = NULL;
		eval(&f, i, &res, &mapped);
		ck_assert_uint_eq(parts_v_answers(mapped, seen), 1950);
		free(mapped);
		ck_assert_uint_eq(res.mapping, 7800);
		ck_assert_uint_eq(res.test, 1950);
		ck_assert_uint_eq(res.answered, 1950);
		ck_assert_double_eq(res.correct, 1950.0);
		ck_assert_double_eq(res.precision, 1.0);
		ck_assert_double_eq(res.recall, 1.0);
	}
	unload(&f);
	free(gold.s);
	free(sys.s);
	free(map.s);
	free(test.s);
}
END_TEST

/*
 * The keyless path sums a word's splits five at a time in one walk over its
 * sorted triples, counting each split's values 1 in a 12-bit lane that is
 * emptied every 4,095 values; a test instance of one cluster takes its
 * row's best sense, worked out once per row and split.  7 folds (five
 * splits walked, then two) on word "big.n": 6,000 instances, all of cluster
 * c (weight 1), 1,100 of gold sense B (i % 60 < 11) and 4,900 of A, so each
 * split maps about 6,000 x 6/7 = 5,143 of them, 4,900 x 6/7 = 4,200 of A
 * (past 4,095: the lanes emptied mid-run; a lane overflowing would leave
 * A about 104 against B's 943 and answer B); and a word "mix.v" of 30
 * instances, fractional and several clusters.  Each split's figures agree
 * with the keyed path (eval()).  On "big.n" alone (pos "n"), c maps to A
 * in every split, so every test instance is answered A; summed over the
 * folds (each instance tested once): 6,000 tested, 6,000 answered, 4,900
 * correct; mapping 6 x 6,000 = 36,000 (each instance maps in the six folds
 * it is not tested in).
 */
START_TEST(many_folds_long_runs)
{
	struct sbuf gold = { 0 }, sys = { 0 };
	for (size_t i = 0; i < 6000; i++) {
		sb_printf(&gold, "big.n big.n.%zu %s\n", i, i % 60 < 11 ? "B" : "A");
		sb_printf(&sys, "big.n big.n.%zu c\n", i);
	}
	for (size_t i = 0; i < 30; i++) {
		sb_printf(&gold, "mix.v mix.v.%zu s%zu%s\n", i, i % 3, i % 4 == 0 ? " s9/0.5" : "");
		if (i % 5 == 0)
			sb_printf(&sys, "mix.v mix.v.%zu c%zu/0.3 d/0.7\n", i, i % 2);
		else
			sb_printf(&sys, "mix.v mix.v.%zu c%zu\n", i, i % 3);
	}
	struct fx f;
	load(&f, gold.s, sys.s, "n");
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_supervised_add_folds(f.s, 7, 1, &err), TAGEVAL_OK);
	size_t test = 0, answered = 0, mapping = 0;
	double correct = 0.0;
	for (size_t i = 0; i < 7; i++) {
		struct tageval_supervised_result r;
		eval(&f, i, &r, NULL); /* keyless (shared tables) against keyed */
		test += r.test;
		answered += r.answered;
		mapping += r.mapping;
		correct += r.correct;
	}
	ck_assert_uint_eq(test, 6000);
	ck_assert_uint_eq(answered, 6000);
	ck_assert_uint_eq(mapping, 36000);
	ck_assert(correct == 4900.0);
	unload(&f);
	/* both words: the figures of each split agree on both paths */
	load(&f, gold.s, sys.s, NULL);
	ck_assert_int_eq(tageval_supervised_add_folds(f.s, 7, 2, &err), TAGEVAL_OK);
	for (size_t i = 0; i < 7; i++) {
		struct tageval_supervised_result r;
		eval(&f, i, &r, NULL);
	}
	unload(&f);
	free(gold.s);
	free(sys.s);
}
END_TEST

/*
 * A lane of the one walk holds at most 4,095 values 1 (12 bits): a cell
 * whose run of values 1 is mapped whole by a split for 4,096 values and
 * more must be emptied before.  Word near.n: 8,400 instances, all of
 * cluster c; gold A for i % 84 < 43 (100 x 43 = 4,300) and B for the other
 * 4,100.  Five random splits of test fraction 1 / 8,400: a split tests one
 * or two instances and maps the rest, so c's A cell is a run of 4,300
 * values 1 of which a split maps 4,298 to 4,300, and A beats B (at most
 * 4,100) in every split: each test instance is answered A.  A lane emptied
 * past 4,095 would wrap to 0 and lose 4,096 of A's count (202 to 204 left):
 * B would win, and the figures would differ from the keyed path's (eval).
 */
START_TEST(lane_holds_4095)
{
	struct sbuf gold = { 0 }, sys = { 0 };
	for (size_t i = 0; i < 8400; i++) {
		sb_printf(&gold, "near.n near.n.%zu %s\n", i, i % 84 < 43 ? "A" : "B");
		sb_printf(&sys, "near.n near.n.%zu c\n", i);
	}
	struct fx f;
	load(&f, gold.s, sys.s, NULL);
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_supervised_add_random(f.s, 5, 1.0 / 8400, 3, &err), TAGEVAL_OK);
	for (size_t i = 0; i < 5; i++) {
		struct tageval_supervised_result r;
		eval(&f, i, &r, NULL); /* keyless (one walk) against keyed */
		ck_assert_uint_ge(r.test, 1);
		ck_assert_uint_le(r.test, 2);
		ck_assert_uint_eq(r.mapping + r.test, 8400);
		ck_assert_uint_eq(r.answered, r.test);
	}
	unload(&f);
	free(gold.s);
	free(sys.s);
}
END_TEST

/* All the mapped texts of the splits added by @add (folds or random) with @seed. */
static char *all_mapped(const char *gold, const char *sys, int folds, unsigned long seed,
			double *recall_sum)
{
	struct fx f;
	load(&f, gold, sys, NULL);
	struct tageval_error err = { 0 };
	int rc = folds ? tageval_supervised_add_folds(f.s, 5, seed, &err)
		       : tageval_supervised_add_random(f.s, 5, 0.2, seed, &err);
	ck_assert_int_eq(rc, TAGEVAL_OK);
	struct sbuf all = { 0 };
	*recall_sum = 0.0;
	for (size_t i = 0; i < tageval_supervised_splits(f.s); i++) {
		struct tageval_supervised_result r;
		char *mapped = NULL;
		eval(&f, i, &r, &mapped);
		sb_printf(&all, "split %zu\n%s", i + 1, mapped);
		*recall_sum += r.recall;
		free(mapped);
	}
	unload(&f);
	return all.s;
}

/* The same seed draws the same splits; another seed other splits. */
START_TEST(seeds)
{
	int folds = _i == 0;
	struct sbuf gold = { 0 }, sys = { 0 };
	draw_files(&gold, &sys);
	double r1, r1b, r2;
	char *a = all_mapped(gold.s, sys.s, folds, 1, &r1);
	char *b = all_mapped(gold.s, sys.s, folds, 1, &r1b);
	char *c = all_mapped(gold.s, sys.s, folds, 2, &r2);
	ck_assert_str_eq(a, b);
	ck_assert_double_eq(r1, r1b);
	ck_assert_str_ne(a, c);
	free(a);
	free(b);
	free(c);
	free(gold.s);
	free(sys.s);
}
END_TEST

/*
 * Random splits: each word has round(F * n_w) test instances in every split.
 *   F = 0.2:  7 -> 1.4 -> 1, 13 -> 2.6 -> 3, 8 -> 1.6 -> 2, 10 -> 2
 *   F = 0.4:  7 -> 2.8 -> 3, 13 -> 5.2 -> 5, 8 -> 3.2 -> 3, 10 -> 4
 *   F = 0.25: 7 -> 1.75 -> 2, 13 -> 3.25 -> 3, 8 -> 2, 10 -> 2.5 -> 3
 *             (a half rounds up, as C's round())
 *   F = 0.9:  7 -> 6.3 -> 6, 13 -> 11.7 -> 12, 8 -> 7.2 -> 7, 10 -> 9
 * Mapping and test together hold every instance.
 */
static const struct {
	double f;
	size_t want[DRAW_WORDS];
} random_rows[] = {
	{ 0.2, { 1, 3, 2, 2 } },
	{ 0.4, { 3, 5, 3, 4 } },
	{ 0.25, { 2, 3, 2, 3 } },
	{ 0.9, { 6, 12, 7, 9 } },
};

START_TEST(random_sizes)
{
	struct sbuf gold = { 0 }, sys = { 0 };
	draw_files(&gold, &sys);
	struct fx f;
	load(&f, gold.s, sys.s, NULL);
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_supervised_add_random(f.s, 4, random_rows[_i].f, 11, &err),
			 TAGEVAL_OK);
	ck_assert_uint_eq(tageval_supervised_splits(f.s), 4);
	size_t want_total = 0;
	for (size_t w = 0; w < DRAW_WORDS; w++)
		want_total += random_rows[_i].want[w];
	char *texts[4];
	for (size_t i = 0; i < 4; i++) {
		struct tageval_supervised_result r;
		eval(&f, i, &r, &texts[i]);
		ck_assert_uint_eq(r.test, want_total);
		ck_assert_uint_eq(r.mapping, DRAW_N - want_total);
		ck_assert_uint_eq(r.answered, r.test);
		size_t per_word[DRAW_WORDS];
		tally(texts[i], per_word, NULL);
		for (size_t w = 0; w < DRAW_WORDS; w++)
			ck_assert_msg(per_word[w] == random_rows[_i].want[w],
				      "F %g, %s: %zu test instances, expected %zu",
				      random_rows[_i].f, draw_words[w], per_word[w],
				      random_rows[_i].want[w]);
	}
	/* independent draws: not all four test sets are the same */
	ck_assert(strcmp(texts[0], texts[1]) != 0 || strcmp(texts[0], texts[2]) != 0 ||
		  strcmp(texts[0], texts[3]) != 0);
	for (size_t i = 0; i < 4; i++)
		free(texts[i]);
	unload(&f);
	free(gold.s);
	free(sys.s);
}
END_TEST

/* Several kinds of split on one object: their indices follow the order of the calls. */
START_TEST(mixed_split_kinds)
{
	struct fx f;
	load(&f, tie_gold, tie_clusters, NULL);
	struct tageval_error err = { 0 };
	add_split(&f, tie_mapping, tie_test);
	ck_assert_int_eq(tageval_supervised_add_folds(f.s, 4, 5, &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_supervised_add_random(f.s, 2, 0.5, 5, &err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_supervised_splits(f.s), 7);
	struct tageval_supervised_result r;
	eval(&f, 0, &r, NULL);
	ck_assert_uint_eq(r.test, 7);
	/* 16 instances in 4 folds: 4 each */
	for (size_t i = 1; i <= 4; i++) {
		eval(&f, i, &r, NULL);
		ck_assert_uint_eq(r.test, 4);
	}
	/* round(0.5 * 16) = 8 */
	for (size_t i = 5; i <= 6; i++) {
		eval(&f, i, &r, NULL);
		ck_assert_uint_eq(r.test, 8);
		ck_assert_uint_eq(r.mapping, 8);
	}
	unload(&f);
}
END_TEST

/*
 * Without the mapped answers every split's counts are taken at the first
 * evaluation, in one pass over the words (tageval-supervised-map.c,
 * evaluate_all): a split evaluated first or last, or after a split is
 * added (the counts are taken again, for 5 splits now), has the figures
 * the key and the scorer give it (eval() checks that, bit for bit).
 * 16 instances in 4 folds: 4 test instances and 16 - 4 = 12 mapping ones
 * each; the given split tests 7 (mixed_split_kinds).
 */
START_TEST(splits_in_any_order)
{
	struct fx f;
	load(&f, tie_gold, tie_clusters, NULL);
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_supervised_add_folds(f.s, 4, 5, &err), TAGEVAL_OK);
	struct tageval_supervised_result first[4], r;
	for (size_t i = 4; i-- > 0;) {
		eval(&f, i, &first[i], NULL);
		ck_assert_uint_eq(first[i].test, 4);
		ck_assert_uint_eq(first[i].mapping, 12);
	}
	add_split(&f, tie_mapping, tie_test);
	eval(&f, 4, &r, NULL);
	ck_assert_uint_eq(r.test, 7);
	for (size_t i = 0; i < 4; i++) {
		eval(&f, i, &r, NULL);
		ck_assert_uint_eq(r.test, first[i].test);
		ck_assert_uint_eq(r.mapping, first[i].mapping);
		ck_assert_uint_eq(r.answered, first[i].answered);
		same_double(r.correct, first[i].correct);
		same_double(r.recall, first[i].recall);
	}
	unload(&f);
}
END_TEST

/* ----------------------------------------------------------------- errors */

static const char err_gold[] = "w.n w.n.1 s1\nw.n w.n.2 s2\nw.n w.n.3 s1\nv.v v.v.1 s1\n";
static const char err_sys[] = "w.n w.n.1 c1\nw.n w.n.2 c1\nw.n w.n.3 c2\nv.v v.v.1 c1\n";

static const struct {
	const char *mapping, *test;
	const char *file;
	size_t line;
	const char *message;
} split_errors[] = {
	{ "w.n w.n.1 s1\nw.n w.n.9 s1\n", "w.n w.n.2 s2\n", "mapping", 2,
	  "instance \"w.n.9\" is not in the gold key" },
	{ "w.n w.n.1 s1\n", "w.n w.n.2 s2\nw.n x s1\n", "test", 2,
	  "instance \"x\" is not in the gold key" },
	{ "w.n w.n.1 s1\nw.n w.n.2 s2\n", "w.n w.n.3 s1\nw.n w.n.2 s2\n", "test", 2,
	  "instance \"w.n.2\" is also in the mapping key (mapping:2)" },
	{ "w.n w.n.1 s1\nw.n w.n.1 s1\n", "w.n w.n.2 s2\n", "mapping", 2,
	  "duplicate instance \"w.n.1\" (first at line 1)" },
	{ "w.n w.n.1 s1\n", "w.n w.n.2 s2\n\nw.n w.n.2 s2\n", "test", 3,
	  "duplicate instance \"w.n.2\" (first at line 1)" },
	{ "v.v w.n.1 s1\n", "w.n w.n.2 s2\n", "mapping", 1,
	  "instance \"w.n.1\" belongs to word \"w.n\" in the gold key" },
	{ "w.n w.n.1\n", "w.n w.n.2 s2\n", "mapping", 1, "instance \"w.n.1\" has no label" },
	{ "w.n w.n.1 s1\n", "w.n\n", "test", 1, "missing instance id" },
	{ "w.n w.n.1 s1/abc\n", "w.n w.n.2 s2\n", "mapping", 1, "invalid weight \"s1/abc\"" },
	{ "w.n w.n.1 s1\n", "w.n w.n.2 s2\rx\n", "test", 1, "stray carriage return" },
};

/*
 * Errors of the split files: TAGEVAL_EFORMAT with file and line; the
 * object is left without the half-read split and still usable.
 */
START_TEST(split_file_errors)
{
	struct fx f;
	load(&f, err_gold, err_sys, NULL);
	struct tageval_error err = { 0 };
	const char *m = split_errors[_i].mapping, *t = split_errors[_i].test;
	int rc = tageval_supervised_add_buffers(f.s, m, strlen(m), t, strlen(t), &err);
	ck_assert_int_eq(rc, TAGEVAL_EFORMAT);
	ck_assert_int_eq(err.code, TAGEVAL_EFORMAT);
	ck_assert_str_eq(err.file, split_errors[_i].file);
	ck_assert_uint_eq(err.line, split_errors[_i].line);
	ck_assert_str_eq(err.message, split_errors[_i].message);
	ck_assert_uint_eq(tageval_supervised_splits(f.s), 0);
	/* a good split afterwards: mapping .1 .2 (c1: s1, s2) -> .3 (c2) unseen */
	add_split(&f, "w.n w.n.1 s1\nw.n w.n.2 s2\n", "w.n w.n.3 s1\n");
	struct tageval_supervised_result r;
	eval(&f, 0, &r, NULL);
	ck_assert_uint_eq(r.test, 1);
	ck_assert_uint_eq(r.answered, 0);
	unload(&f);
}
END_TEST

/* Missing split files: TAGEVAL_EIO, with the file's name. */
START_TEST(split_file_missing)
{
	struct fx f;
	load(&f, err_gold, err_sys, NULL);
	struct tageval_error err = { 0 };
	int rc = tageval_supervised_add_files(f.s, "/nonexistent/mapping.key", "/dev/null", &err);
	ck_assert_int_eq(rc, TAGEVAL_EIO);
	ck_assert_str_eq(err.file, "/nonexistent/mapping.key");
	rc = tageval_supervised_add_files(f.s, "/dev/null", "/nonexistent/test.key", &err);
	ck_assert_int_eq(rc, TAGEVAL_EIO);
	ck_assert_str_eq(err.file, "/nonexistent/test.key");
	ck_assert_uint_eq(tageval_supervised_splits(f.s), 0);
	unload(&f);
}
END_TEST

/* Invalid numbers of folds and splits, invalid fractions: TAGEVAL_EINVAL, no split added. */
START_TEST(invalid_arguments)
{
	struct fx f;
	load(&f, err_gold, err_sys, NULL);
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_supervised_add_folds(f.s, 0, 1, &err), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_supervised_add_folds(f.s, 1, 1, &err), TAGEVAL_EINVAL);
	ck_assert_str_eq(err.message, "the number of folds must be 2 or more");
	ck_assert_int_eq(tageval_supervised_add_random(f.s, 0, 0.2, 1, &err), TAGEVAL_EINVAL);
	ck_assert_str_eq(err.message, "the number of splits must be 1 or more");
	static const double bad[] = { 0.0, 1.0, -0.2, 1.5 };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(&err, 0, sizeof err);
		ck_assert_int_eq(tageval_supervised_add_random(f.s, 1, bad[i], 1, &err),
				 TAGEVAL_EINVAL);
		ck_assert_str_eq(err.message, "the test fraction must lie between 0 and 1");
	}
	ck_assert_int_eq(tageval_supervised_add_random(f.s, 1, NAN, 1, &err), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_supervised_add_random(f.s, 1, INFINITY, 1, &err), TAGEVAL_EINVAL);
	ck_assert_uint_eq(tageval_supervised_splits(f.s), 0);
	/* a split that does not exist */
	struct tageval_supervised_result r;
	memset(&r, 0xff, sizeof r);
	char *mapped = (char *)1;
	ck_assert_int_eq(tageval_supervised_evaluate(f.s, 0, &r, &mapped, &err), TAGEVAL_EINVAL);
	ck_assert_str_eq(err.message, "no split 1");
	ck_assert_ptr_null(mapped);
	ck_assert_uint_eq(r.test, 0);
	unload(&f);
}
END_TEST

/* An empty selection: TAGEVAL_EFORMAT "no target word selected", *out NULL. */
START_TEST(empty_selection)
{
	struct tageval_wsi *w = tageval_wsi_new();
	ck_assert_ptr_nonnull(w);
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_wsi_read_gold_buffer(w, err_gold, strlen(err_gold), "gold", &err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_wsi_read_clusters_buffer(w, err_sys, strlen(err_sys), "clusters",
							  &err),
			 TAGEVAL_OK);
	struct tageval_supervised *s = (struct tageval_supervised *)1;
	ck_assert_int_eq(tageval_supervised_new(w, "j", &s, &err), TAGEVAL_EFORMAT);
	ck_assert_ptr_null(s);
	ck_assert_str_eq(err.message, "no target word selected");
	ck_assert_uint_eq(err.line, 0);
	/* "n" selects w.n, "v" v.v */
	ck_assert_int_eq(tageval_supervised_new(w, "n", &s, &err), TAGEVAL_OK);
	tageval_supervised_free(s);
	tageval_wsi_free(w);
}
END_TEST

/* The gold key and the clusters must be read first: TAGEVAL_EINVAL. */
START_TEST(not_loaded)
{
	struct tageval_wsi *w = tageval_wsi_new();
	ck_assert_ptr_nonnull(w);
	struct tageval_error err = { 0 };
	struct tageval_supervised *s = (struct tageval_supervised *)1;
	ck_assert_int_eq(tageval_supervised_new(w, NULL, &s, &err), TAGEVAL_EINVAL);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(tageval_wsi_read_gold_buffer(w, err_gold, strlen(err_gold), "gold", &err),
			 TAGEVAL_OK);
	s = (struct tageval_supervised *)1;
	ck_assert_int_eq(tageval_supervised_new(w, NULL, &s, &err), TAGEVAL_EINVAL);
	ck_assert_ptr_null(s);
	tageval_wsi_free(w);
}
END_TEST

/*
 * A split with no test instance (of the selection) cannot be scored:
 * TAGEVAL_EFORMAT "split N has no test instance".  Three ways: an empty
 * test key; a test key with only unselected words; random splits where
 * round(0.2 * 2) = 0.
 */
START_TEST(no_test_instance)
{
	struct fx f;
	load(&f, err_gold, err_sys, NULL);
	struct tageval_error err = { 0 };
	add_split(&f, "w.n w.n.1 s1\n", "");
	struct tageval_supervised_result r;
	char *mapped = NULL;
	ck_assert_int_eq(tageval_supervised_evaluate(f.s, 0, &r, &mapped, &err), TAGEVAL_EFORMAT);
	ck_assert_str_eq(err.message, "split 1 has no test instance");
	ck_assert_ptr_null(mapped);
	unload(&f);

	load(&f, err_gold, err_sys, "n");
	add_split(&f, "w.n w.n.1 s1\n", "w.n w.n.2 s2\n");
	add_split(&f, "w.n w.n.1 s1\n", "v.v v.v.1 s1\n");
	eval(&f, 0, &r, NULL);
	ck_assert_int_eq(tageval_supervised_evaluate(f.s, 1, &r, NULL, &err), TAGEVAL_EFORMAT);
	ck_assert_str_eq(err.message, "split 2 has no test instance");
	unload(&f);

	load(&f, "w.n w.n.1 s1\nw.n w.n.2 s1\n", "w.n w.n.1 c1\nw.n w.n.2 c1\n", NULL);
	ck_assert_int_eq(tageval_supervised_add_random(f.s, 1, 0.2, 1, &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_supervised_evaluate(f.s, 0, &r, NULL, &err), TAGEVAL_EFORMAT);
	ck_assert_str_eq(err.message, "split 1 has no test instance");
	/* round(0.3 * 2) = 1 is enough */
	ck_assert_int_eq(tageval_supervised_add_random(f.s, 1, 0.3, 1, &err), TAGEVAL_OK);
	eval(&f, 1, &r, NULL);
	ck_assert_uint_eq(r.test, 1);
	ck_assert_uint_eq(r.mapping, 1);
	unload(&f);
}
END_TEST

/*
 * A test instance of 65,536 labels: more than the scorer's key takes for one
 * instance, with its message, whether the mapped answers are asked for or
 * not (without them the counts are taken without a key: the key is built
 * again for the message).  The mapping instance w.n.1 (c1, s0) is fine.
 */
START_TEST(too_many_test_labels)
{
	struct sbuf gold = { 0 }, test = { 0 };
	sb_printf(&gold, "w.n w.n.1 s0\nw.n w.n.2");
	sb_printf(&test, "w.n w.n.2");
	for (unsigned i = 0; i < 65536; i++) {
		sb_printf(&gold, " s%u", i);
		sb_printf(&test, " s%u", i);
	}
	sb_printf(&gold, "\n");
	sb_printf(&test, "\n");
	for (int with_text = 0; with_text < 2; with_text++) {
		struct fx f;
		load(&f, gold.s, "w.n w.n.1 c1\nw.n w.n.2 c1\n", NULL);
		add_split(&f, "w.n w.n.1 s0\n", test.s);
		struct tageval_error err = { 0 };
		struct tageval_supervised_result r;
		char *mapped = NULL;
		ck_assert_int_eq(tageval_supervised_evaluate(f.s, 0, &r, with_text ? &mapped : NULL,
							     &err),
				 TAGEVAL_EFORMAT);
		ck_assert_str_eq(err.message, "more than 65535 sense tags for one instance");
		ck_assert_ptr_null(mapped);
		unload(&f);
	}
	free(gold.s);
	free(test.s);
}
END_TEST

START_TEST(free_null)
{
	tageval_supervised_free(NULL);
}
END_TEST

/*
 * The mapped sense of a test instance is the first sense of highest
 * sum_c f_c * M[c][s] (f_c = weight / row sum), summed cluster by cluster in
 * the line's order; lines of two clusters take a shortcut (the senses both
 * rows share as points of the plane, peeled into convex layers).  Here
 * random words are mapped and every answer, sense and score to the last
 * bit, is compared with that sum worked out here sense by sense, the brute
 * force.  The table S and the row sums are summed as the library does with
 * fractional weights (each cell's terms in increasing order; exact anyway
 * when every weight is an integer).  The mapping weights mix dyadic values
 * and decimals (0.1 + 0.2 is not 0.3): many senses share a row value or a
 * point, many points lie on one line or within an ulp of it (below).  The test lines
 * mostly have two clusters, often of weights m * (row sum) printed exactly,
 * m in {1, 2, 0.5}, so that f_c = m exactly and points of equal a + b (or
 * 2a + b ...) tie in real numbers and rounding decides; or equal or random
 * decimals (0.000 included: a factor 0); some lines have one or three
 * clusters, a cluster twice, or a cluster no mapping instance has.
 */
static uint64_t rnd_state;

static uint32_t rnd(uint32_t n)
{
	rnd_state = rnd_state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
	return (uint32_t)((rnd_state >> 33) % n);
}

enum { PR_SENSES = 32, PR_CLUSTERS = 8 };

struct pr_term {
	uint32_t c, s; /* s == PR_SENSES: the row sum */
	double w;
};

static int by_term(const void *a, const void *b)
{
	const struct pr_term *x = a, *y = b;
	if (x->c != y->c)
		return x->c < y->c ? -1 : 1;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->w > y->w) - (x->w < y->w);
}

static const char *const map_weights[] = { "1", "2", "0.5", "0.25", "0.1", "0.2", "0.3", "0.7" };

START_TEST(pair_selection_random)
{
	rnd_state = UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)_i * UINT64_C(0x100000001b3);
	/* seeds 0 mod 3: dyadic mapping weights; 1 mod 3: decimal ones too;
	 * 2 mod 3: 0.1, 0.2, 0.3 and 1 in few senses and clusters, so that
	 * cells of 0.3 and of 0.1 + 0.2 meet (points an ulp apart, in
	 * different layers, whose scores round alike) */
	uint32_t mode = (uint32_t)_i % 3;
	uint32_t ns = mode == 2 ? 2 + rnd(5) : 2 + rnd(PR_SENSES - 1);
	uint32_t nc = mode == 2 ? 2 + rnd(2) : 2 + rnd(PR_CLUSTERS - 1);
	uint32_t ninst = 150 + rnd(300), spread = 1 + rnd(ns);
	double S[PR_CLUSTERS + 1][PR_SENSES] = { { 0 } }, rowsum[PR_CLUSTERS + 1] = { 0 };
	int known[PR_CLUSTERS + 1] = { 0 }, mapsense[PR_SENSES] = { 0 };
	struct sbuf gold = { 0 }, sys = { 0 }, map = { 0 }, test = { 0 }, want = { 0 };
	uint32_t *role = calloc(ninst, sizeof *role), *sense = calloc(ninst, sizeof *sense);
	uint32_t *ncl = calloc(ninst, sizeof *ncl);
	uint32_t(*cl)[3] = calloc(ninst, sizeof *cl);
	double(*wt)[3] = calloc(ninst, sizeof *wt);
	char(*wtext)[3][40] = calloc(ninst, sizeof *wtext);
	struct pr_term *terms = calloc(4 * (size_t)ninst, sizeof *terms);
	size_t nterms = 0;
	ck_assert(role && sense && ncl && cl && wt && wtext && terms);
	/* the mapping part: one or two clusters per line (odd seeds: decimal
	 * weights too); senses from the first `spread` ones mostly */
	for (uint32_t i = 0; i < ninst; i++) {
		role[i] = rnd(3) == 0; /* 1: test */
		sense[i] = rnd(4) ? rnd(spread) : rnd(ns);
		if (role[i])
			continue;
		ncl[i] = 1 + rnd(2);
		mapsense[sense[i]] = 1;
		for (uint32_t c = 0; c < ncl[i]; c++) {
			const char *w = mode == 2 ? map_weights[rnd(4) ? 4 + rnd(3) : 0]
						  : map_weights[rnd(mode ? 8 : 4)];
			cl[i][c] = rnd(nc);
			wt[i][c] = strtod(w, NULL);
			snprintf(wtext[i][c], sizeof wtext[i][c], "%s", w);
			known[cl[i][c]] = 1;
			terms[nterms++] = (struct pr_term){ cl[i][c], sense[i], wt[i][c] };
			terms[nterms++] = (struct pr_term){ cl[i][c], PR_SENSES, wt[i][c] };
		}
	}
	qsort(terms, nterms, sizeof *terms, by_term);
	for (size_t t = 0; t < nterms; t++) {
		if (terms[t].s == PR_SENSES)
			rowsum[terms[t].c] += terms[t].w;
		else
			S[terms[t].c][terms[t].s] += terms[t].w;
	}
	/* the test part */
	for (uint32_t i = 0; i < ninst; i++) {
		if (!role[i])
			continue;
		uint32_t k = rnd(10);
		ncl[i] = k == 0 ? 1 : k == 1 ? 3 : 2;
		uint32_t kind = rnd(5); /* proportional (2 of 5), equal, decimal, dyadic */
		char w0[16];
		snprintf(w0, sizeof w0, "0.%03u", rnd(1000));
		for (uint32_t c = 0; c < ncl[i]; c++) {
			char *w = wtext[i][c];
			/* cluster nc: one no mapping instance has; a repeat now and then */
			cl[i][c] = c > 0 && rnd(8) == 0 ? cl[i][c - 1] : rnd(nc + (rnd(8) == 0));
			if (kind < 2 && rowsum[cl[i][c]] > 0.0)
				snprintf(w, 40, "%.17g", (double[]){ 1, 2, 0.5 }[rnd(3)] * rowsum[cl[i][c]]);
			else if (kind == 2)
				snprintf(w, 40, "%s", w0);
			else if (kind == 3)
				snprintf(w, 40, "0.%03u", rnd(1000));
			else
				snprintf(w, 40, "%s", map_weights[rnd(4)]);
			wt[i][c] = strtod(w, NULL);
		}
	}
	for (uint32_t i = 0; i < ninst; i++) {
		sb_printf(&gold, "w.n w.n.%u s%02u\n", i, sense[i]);
		sb_printf(role[i] ? &test : &map, "w.n w.n.%u s%02u\n", i, sense[i]);
		sb_printf(&sys, "w.n w.n.%u", i);
		for (uint32_t c = 0; c < ncl[i]; c++)
			sb_printf(&sys, " c%u/%s", cl[i][c], wtext[i][c]);
		sb_printf(&sys, "\n");
	}
	/* the brute force: every sense of the mapping part, in bytewise order
	 * (s00, s01, ...), summed over the line's clusters in its order */
	size_t answered = 0;
	for (uint32_t i = 0; i < ninst; i++) {
		if (!role[i])
			continue;
		double score[PR_SENSES] = { 0 };
		for (uint32_t c = 0; c < ncl[i]; c++) {
			uint32_t k = cl[i][c];
			if (!known[k] || !(rowsum[k] > 0.0))
				continue;
			double f = wt[i][c] / rowsum[k];
			for (uint32_t s = 0; s < ns; s++)
				if (mapsense[s] && S[k][s] != 0.0)
					score[s] += f * S[k][s];
		}
		int best = -1;
		double top = 0.0;
		for (uint32_t s = 0; s < ns; s++)
			if (mapsense[s] && score[s] > top) {
				top = score[s];
				best = (int)s;
			}
		if (best >= 0) {
			sb_printf(&want, "w.n w.n.%u s%02d !! score %.17g\n", i, best, top);
			answered++;
		}
	}
	if (want.s == NULL)
		sb_printf(&want, "%s", "");
	/* (150 instances or more, a third of them test ones: neither part is
	 * empty for any of these seeds) */
	ck_assert_ptr_nonnull(map.s);
	ck_assert_ptr_nonnull(test.s);
	struct fx f;
	load(&f, gold.s, sys.s, NULL);
	add_split(&f, map.s, test.s);
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	ck_assert_str_eq(mapped, want.s);
	ck_assert_uint_eq(r.answered, answered);
	free(mapped);
	unload(&f);
	free(role);
	free(sense);
	free(ncl);
	free(cl);
	free(wt);
	free(wtext);
	free(terms);
	free(gold.s);
	free(sys.s);
	free(map.s);
	free(test.s);
	free(want.s);
}
END_TEST

/*
 * Two points an ulp apart, in different layers, whose scores round alike.
 * Mapping: .1 "c1/0.3" s1, .2 "c1/0.1" s2, .3 "c1/0.2" s2, .4 "c2" s1,
 * .5 "c2" s2.  Summed in increasing order, S[c1] = (0.3, 0.1 + 0.2) =
 * (0.29999999999999998890, 0.30000000000000004441), row sum
 * 0.1 + 0.2 + 0.3 = 0.60000000000000008882; S[c2] = (1, 1), row sum 2.
 * Test .6 "c1/0.60000000000000009 c2/2" (the row sums: both factors 1):
 *   s1: fl(0.29999999999999998890 + 1) = 1.3000000000000000444 (the
 *       nearer double: 1.29999999999999998890 lies 5.55e-17 from it,
 *       1.66e-16 from 1.29999999999999982236)
 *   s2: 0.30000000000000004441 + 1 = 1.3000000000000000444 exactly
 * a tie, so s1, the first in bytewise order, with 1.3 -- though s2 is
 * higher in real numbers (the point (0.3, 1) lies under (0.3 + ulp, 1):
 * layer 1, not layer 0).
 */
START_TEST(pair_tie_across_layers)
{
	struct fx f;
	load(&f,
	     "w.n w.n.1 s1\nw.n w.n.2 s2\nw.n w.n.3 s2\nw.n w.n.4 s1\nw.n w.n.5 s2\n"
	     "w.n w.n.6 s2\n",
	     "w.n w.n.1 c1/0.3\nw.n w.n.2 c1/0.1\nw.n w.n.3 c1/0.2\nw.n w.n.4 c2\n"
	     "w.n w.n.5 c2\nw.n w.n.6 c1/0.60000000000000009 c2/2\n",
	     NULL);
	add_split(&f,
		  "w.n w.n.1 s1\nw.n w.n.2 s2\nw.n w.n.3 s2\nw.n w.n.4 s1\nw.n w.n.5 s2\n",
		  "w.n w.n.6 s2\n");
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	ck_assert_str_eq(mapped, "w.n w.n.6 s1 !! score 1.3\n");
	free(mapped);
	unload(&f);
}
END_TEST

/*
 * The same tie on the pair path: rows of 15 senses each (30 values, more
 * than the library's PAIR_MIN_TERMS, 24, below which a line of two
 * clusters takes the general sum).  Thirteen more mapping instances .p03 ..
 * .p15, each "c1/0.001 c2/0.001" of its own sense t03 .. t15, add a value
 * 0.001 to both rows and 13 x 0.001 to both row sums.  Summed in increasing
 * order: S[c1] = (s1 0.3, s2 0.1 + 0.2, t 0.001 each), row sum r1 =
 * 0.001 + ... + 0.001 (13 terms), + 0.1, + 0.2, + 0.3; S[c2] = (1, 1,
 * 0.001 each), r2 = the 13 terms + 1 + 1.  Test .6 "c1/r1 c2/r2" (printed
 * with 17 digits, read back exactly: both factors 1):
 *   s1: fl(0.29999999999999998890 + 1) = 1.3000000000000000444
 *   s2: 0.30000000000000004441 + 1 = 1.3000000000000000444
 *   t:  0.001 + 0.001 = 0.002
 * s1 again, with 1.3: the point of s1 lies in layer 1, found by the walk
 * into the next layer (a walk stopping at layer 0 answers s2).
 */
START_TEST(pair_tie_across_layers_long)
{
	struct sbuf gold = { 0 }, sys = { 0 }, map = { 0 };
	const char *base_gold = "w.n w.n.1 s1\nw.n w.n.2 s2\nw.n w.n.3 s2\nw.n w.n.4 s1\n"
				"w.n w.n.5 s2\n";
	sb_printf(&gold, "%s", base_gold);
	sb_printf(&map, "%s", base_gold);
	sb_printf(&sys, "%s", "w.n w.n.1 c1/0.3\nw.n w.n.2 c1/0.1\nw.n w.n.3 c1/0.2\n"
			      "w.n w.n.4 c2\nw.n w.n.5 c2\n");
	double r1 = 0.0, r2 = 0.0;
	for (int k = 3; k <= 15; k++) {
		sb_printf(&gold, "w.n w.n.p%02d t%02d\n", k, k);
		sb_printf(&map, "w.n w.n.p%02d t%02d\n", k, k);
		sb_printf(&sys, "w.n w.n.p%02d c1/0.001 c2/0.001\n", k);
		r1 += 0.001;
		r2 += 0.001;
	}
	r1 += 0.1;
	r1 += 0.2;
	r1 += 0.3;
	r2 += 1.0;
	r2 += 1.0;
	sb_printf(&gold, "%s", "w.n w.n.6 s2\n");
	sb_printf(&sys, "w.n w.n.6 c1/%.17g c2/%.17g\n", r1, r2);
	struct fx f;
	load(&f, gold.s, sys.s, NULL);
	add_split(&f, map.s, "w.n w.n.6 s2\n");
	struct tageval_supervised_result r;
	char *mapped = NULL;
	eval(&f, 0, &r, &mapped);
	ck_assert_str_eq(mapped, "w.n w.n.6 s1 !! score 1.3\n");
	free(mapped);
	unload(&f);
	free(gold.s);
	free(sys.s);
	free(map.s);
}
END_TEST

/*
 * Folds drawn from the bytewise order of the ids, whatever the order of
 * the lines: four words of 30, 5, 5 and 20 instances (first appearance
 * order a, b, c, d), so that the ids are read in two groups of words (of
 * at most max(60 / 4, 30) = 30 instances: {a}, then {b, c, d}); a's ids
 * share their first 19 bytes ("semeval2010.task14.": beyond the 16 of the
 * sort's integer prefix), b's "instance.b.1" .. differ in their second
 * 8 bytes, c's "c1" .. "c5" and d's "d1" .. "d20" in their first, of mixed
 * lengths ("d10" sorts before "d2").  The gold key read
 * forward and backward gives the same three folds: the same mapped answers
 * (as sorted lines) and figures.  Each word's i-th drawn instance is in fold
 * i % 3, so fold f tests, of a word of n instances, those i < n with
 * i % 3 == f:
 *   fold 0: 10 + 2 + 2 + 7 = 21   (i = 0, 3 of 5; 0, 3, ..., 18 of 20)
 *   fold 1: 10 + 2 + 2 + 7 = 21   (1, 4; 1, 4, ..., 19)
 *   fold 2: 10 + 1 + 1 + 6 = 18   (2; 2, 5, ..., 17)
 * and maps with the 60 - test others.
 */
static const unsigned fold_word_n[4] = { 30, 5, 5, 20 };

static void fold_line(struct sbuf *gold, struct sbuf *sys, unsigned word, unsigned k)
{
	static const char *const wname[4] = { "a.n", "b.n", "c.n", "d.n" };
	char id[64];
	if (word == 0)
		snprintf(id, sizeof id, "semeval2010.task14.a.%u", k);
	else if (word == 1)
		snprintf(id, sizeof id, "instance.b.%u", k);
	else
		snprintf(id, sizeof id, "%c%u", "abcd"[word], k);
	sb_printf(gold, "%s %s s%u\n", wname[word], id, (k * 7 + word) % 3);
	sb_printf(sys, "%s %s c%u\n", wname[word], id, (k * 5 + word) % 4);
}

/* Lines of every word in turn (a.1 b.1 c.1 d.1 a.2 ...), forward or backward. */
static void fold_key(struct sbuf *gold, struct sbuf *sys, int backward)
{
	unsigned order[60][2], n = 0;
	for (unsigned k = 1; k <= 30; k++)
		for (unsigned word = 0; word < 4; word++)
			if (k <= fold_word_n[word]) {
				order[n][0] = word;
				order[n][1] = k;
				n++;
			}
	ck_assert_uint_eq(n, 60);
	for (unsigned i = 0; i < n; i++) {
		unsigned j = backward ? n - 1 - i : i;
		fold_line(gold, sys, order[j][0], order[j][1]);
	}
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of @text sorted, joined again. */
static char *sorted_lines(char *text)
{
	char *line[128];
	size_t n = 0;
	for (char *p = strtok(text, "\n"); p != NULL; p = strtok(NULL, "\n")) {
		ck_assert_uint_lt(n, 128);
		line[n++] = p;
	}
	qsort(line, n, sizeof *line, by_string);
	struct sbuf out = { 0 };
	sb_printf(&out, "%s", "");
	for (size_t i = 0; i < n; i++)
		sb_printf(&out, "%s\n", line[i]);
	return out.s;
}

/*
 * The three folds (seed 5) of @gold and @sys: each fold's result into
 * res[i] and its mapped answers, passed through @lines (which returns a
 * new text, its argument @arg), into out[i].
 */
static void three_folds(const char *gold, const char *sys, struct tageval_supervised_result res[3],
			char *out[3], char *(*lines)(char *text, int arg), int arg)
{
	struct fx f;
	load(&f, gold, sys, NULL);
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_supervised_add_folds(f.s, 3, 5, &err), TAGEVAL_OK);
	for (size_t i = 0; i < 3; i++) {
		char *mapped = NULL;
		eval(&f, i, &res[i], &mapped);
		out[i] = lines(mapped, arg);
		free(mapped);
	}
	unload(&f);
}

/* The two keys' answers fold by fold the same, then freed. */
static void same_folds(char *answers[2][3])
{
	for (size_t i = 0; i < 3; i++) {
		ck_assert_str_eq(answers[0][i], answers[1][i]);
		free(answers[0][i]);
		free(answers[1][i]);
	}
}

static char *sorted_text(char *text, int unused)
{
	(void)unused;
	return sorted_lines(text);
}

START_TEST(folds_line_order)
{
	static const size_t test_n[3] = { 21, 21, 18 };
	char *answers[2][3];
	for (int backward = 0; backward < 2; backward++) {
		struct sbuf gold = { 0 }, sys = { 0 };
		fold_key(&gold, &sys, backward);
		struct tageval_supervised_result r[3];
		three_folds(gold.s, sys.s, r, answers[backward], sorted_text, 0);
		for (size_t i = 0; i < 3; i++) {
			ck_assert_uint_eq(r[i].test, test_n[i]);
			ck_assert_uint_eq(r[i].mapping, 60 - test_n[i]);
		}
		free(gold.s);
		free(sys.s);
	}
	same_folds(answers);
}
END_TEST

/*
 * Folds drawn from the ids' bytewise order, whatever the ids look like:
 * words a.n and c.n of 80 instances (the radix sort's path: 64 or more)
 * and b.n of 10 (the merge sort's), keyed twice.  The plain key names
 * instance r (its rank in its word) "a.0r" (3 digits; "b.0r", "c.0r"); the
 * other one by strings of 1 to 4 bytes, bytes 0x80 and up among them: HI,
 * one of "A", "z", "é", "ж", "€" by r / 16, and LO, one of "0" .. "9", "K",
 * "b", "c", "ÿ", "ÿ!", "𝄞" by r % 16, each list as strcmp ranks it (UTF-8's
 * bytes order as the code points; "ÿ" a prefix of "ÿ!").  a.n's ids are
 * "semeval2010.task14.a." HI LO (21 bytes shared: the order decided past
 * the 16 of the sort's prefix), b.n's "b" LO and c.n's HI LO (decided
 * within the prefix).  The lines in another order (37 r mod n).  Each
 * instance's gold sense (7r mod 3) and cluster (5r mod 4) go by rank, so
 * the two keys hold the same data but for the names: the same three folds
 * (seed 5), so each fold's mapped answers, the ids turned into ranks, are
 * the same lines.  An order other than strcmp's (bytes taken as signed, the
 * tail past 16 bytes compared the other way) draws other folds.
 */
static const unsigned rank_n[3] = { 80, 10, 80 };
static const char *const rank_hi[5] = { "A", "z", "\xc3\xa9", "\xd0\xb6", "\xe2\x82\xac" };
static const char *const rank_lo[16] = { "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
					 "K", "b", "c", "\xc3\xbf", "\xc3\xbf!",
					 "\xf0\x9d\x84\x9e" };

static void rank_id(char *id, size_t size, int fancy, unsigned word, unsigned r)
{
	if (!fancy)
		snprintf(id, size, "%c.%03u", "abc"[word], r);
	else if (word == 0)
		snprintf(id, size, "semeval2010.task14.a.%s%s", rank_hi[r / 16], rank_lo[r % 16]);
	else if (word == 1)
		snprintf(id, size, "b%s", rank_lo[r]);
	else
		snprintf(id, size, "%s%s", rank_hi[r / 16], rank_lo[r % 16]);
}

/* The mapped answers of @text with every id replaced by "word rank". */
static char *ranked_lines(char *text, int fancy)
{
	struct sbuf out = { 0 };
	sb_printf(&out, "%s", "");
	for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
		char *sp = strchr(line, ' ');
		ck_assert_ptr_nonnull(sp);
		char *id = sp + 1, *rest = strchr(id, ' ');
		ck_assert_ptr_nonnull(rest);
		*rest++ = '\0';
		int found = 0;
		for (unsigned word = 0; word < 3 && !found; word++)
			for (unsigned r = 0; r < rank_n[word] && !found; r++) {
				char want[64];
				rank_id(want, sizeof want, fancy, word, r);
				if (strcmp(want, id) == 0) {
					sb_printf(&out, "%u.%02u %s\n", word, r, rest);
					found = 1;
				}
			}
		ck_assert_msg(found, "unknown id %s", id);
	}
	char *sorted = sorted_lines(out.s);
	free(out.s);
	return sorted;
}

START_TEST(folds_by_id_rank)
{
	static const char *const wname[3] = { "a.n", "b.n", "c.n" };
	char *answers[2][3];
	for (int fancy = 0; fancy < 2; fancy++) {
		struct sbuf gold = { 0 }, sys = { 0 };
		for (unsigned word = 0; word < 3; word++)
			for (unsigned i = 0; i < rank_n[word]; i++) {
				unsigned r = (37 * i) % rank_n[word];
				char id[64];
				rank_id(id, sizeof id, fancy, word, r);
				sb_printf(&gold, "%s %s s%u\n", wname[word], id, (7 * r) % 3);
				sb_printf(&sys, "%s %s c%u\n", wname[word], id, (5 * r) % 4);
			}
		struct tageval_supervised_result res[3];
		three_folds(gold.s, sys.s, res, answers[fancy], ranked_lines, fancy);
		free(gold.s);
		free(sys.s);
	}
	same_folds(answers);
}
END_TEST

static Suite *supervised_suite(void)
{
	Suite *s = suite_create("supervised");
	TCase *tc = tcase_create("mapping");
	tcase_add_test(tc, spec004_mapping);
	tcase_add_test(tc, fractional_with_ones);
	tcase_add_test(tc, reference_worked_example);
	tcase_add_test(tc, tie_bytewise);
	tcase_add_test(tc, raw_weights);
	tcase_add_test(tc, repeated_cluster);
	tcase_add_test(tc, zero_weight_cluster);
	tcase_add_test(tc, sparse_matrix);
	tcase_add_test(tc, two_gold_labels);
	tcase_add_test(tc, two_gold_labels_folds);
	tcase_add_test(tc, folds_line_order);
	tcase_add_test(tc, folds_by_id_rank);
	tcase_add_test(tc, no_answer_cases);
	tcase_add_test(tc, nothing_answered);
	tcase_add_test(tc, empty_clusters);
	tcase_add_test(tc, empty_mapping);
	tcase_add_test(tc, split_file_labels);
	tcase_add_test(tc, split_file_syntax);
	tcase_add_test(tc, pos_selection);
	tcase_add_loop_test(tc, pair_selection_random, 0, 120);
	tcase_add_test(tc, pair_tie_across_layers);
	tcase_add_test(tc, pair_tie_across_layers_long);
	suite_add_tcase(s, tc);
	/* the gold senses' 16-bit and 32-bit arrays, on keys of 65,546 labels */
	tc = tcase_create("sense-ids");
	tcase_add_test(tc, gold_senses_16bit_edge);
	tcase_add_test(tc, gold_senses_32bit_edge);
	tcase_add_test(tc, gold_senses_32bit);
	tcase_add_test(tc, gold_senses_single);
	suite_add_tcase(s, tc);
	tc = tcase_create("splits");
	tcase_add_test(tc, folds_cover_once);
	tcase_add_loop_test(tc, folds_other_k, 0, 3);
	tcase_add_loop_test(tc, seeds, 0, 2);
	tcase_add_loop_test(tc, random_sizes, 0,
			    (int)(sizeof random_rows / sizeof random_rows[0]));
	tcase_add_loop_test(tc, drawn_paths_agree, 0, 4);
	tcase_add_test(tc, many_folds_long_runs);
	tcase_add_test(tc, parts_add_up);
	tcase_add_test(tc, lane_holds_4095);
	tcase_add_test(tc, mixed_split_kinds);
	tcase_add_test(tc, splits_in_any_order);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_loop_test(tc, split_file_errors, 0,
			    (int)(sizeof split_errors / sizeof split_errors[0]));
	tcase_add_test(tc, split_file_missing);
	tcase_add_test(tc, invalid_arguments);
	tcase_add_test(tc, empty_selection);
	tcase_add_test(tc, not_loaded);
	tcase_add_test(tc, no_test_instance);
	tcase_add_test(tc, too_many_test_labels);
	tcase_add_test(tc, free_null);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(supervised_suite());
}
