/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The WSD framework's scoring (tageval_wsd_*): the worked example of
 * ../shared/spec/reference-wsd-framework.md (sections 5 and 7), each rule of
 * its section 4 (multi-key answers, repeated keys, unanswered instances)
 * and the errors of its section 6, by hand; the arithmetic is in the
 * comments.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "test-common.h"

static const char gold_example[] =
	"senseval2.d000.s000.t000 art%1:09:00::\n"
	"senseval2.d000.s000.t001 bank%1:14:00:: bank%1:17:01::\n"
	"senseval2.d000.s000.t002 run%2:38:00::\n"
	"semeval2007.d000.s000.t000 fast%4:02:00::\n"
	"semeval2007.d000.s000.t001 old%5:00:00:former:00\n";

static const char system_example[] =
	"senseval2.d000.s000.t000 art%1:09:00::\n"
	"senseval2.d000.s000.t001 bank%1:17:01:: bank%1:04:00::\n"
	"senseval2.d000.s000.t002 run%2:38:01::\n"
	"semeval2007.d000.s000.t001 old%5:00:00:former:00\n";

static struct tageval_wsd *read_pair(const char *gold, const char *sys, unsigned flags,
				     int *rc, struct tageval_error *err)
{
	struct tageval_wsd *w = tageval_wsd_new();
	ck_assert_ptr_nonnull(w);
	*rc = tageval_wsd_read_gold_buffer(w, gold, strlen(gold), "gold", err);
	if (*rc == 0)
		*rc = tageval_wsd_read_system_buffer(w, sys, strlen(sys), "system", flags, err);
	return w;
}

static void check(const struct tageval_wsd_figures *f, size_t inst, size_t ans, double c,
		  double p, double r, double f1)
{
	ck_assert_uint_eq(f->instances, inst);
	ck_assert_uint_eq(f->answered, ans);
	ck_assert_double_eq_tol(f->correct, c, TOL);
	if (isnan(p))
		ck_assert(isnan(f->precision));
	else
		ck_assert_double_eq_tol(f->precision, p, TOL);
	if (isnan(r))
		ck_assert(isnan(f->recall));
	else
		ck_assert_double_eq_tol(f->recall, r, TOL);
	if (isnan(f1))
		ck_assert(isnan(f->f1));
	else
		ck_assert_double_eq_tol(f->f1, f1, TOL);
}

START_TEST(worked_example)
{
	struct tageval_error err = { 0 };
	int rc;
	struct tageval_wsd *w = read_pair(gold_example, system_example, 0, &rc, &err);
	ck_assert_int_eq(rc, 0);
	struct tageval_wsd_figures f;
	/* art 1, bank 1/2 (one of its two answer keys is gold), run 0, old 1,
	 * fast unanswered: C = 2.5, A = 4, I = 5; P = 0.625, R = 0.5,
	 * F1 = 2 (0.625)(0.5)/1.125 = 5/9 */
	ck_assert_int_eq(tageval_wsd_total(w, &f, &err), 0);
	check(&f, 5, 4, 2.5, 0.625, 0.5, 5.0 / 9.0);
	ck_assert_uint_eq(tageval_wsd_instances(w), 5);
	ck_assert_uint_eq(tageval_wsd_answered(w), 4);
	/* datasets in bytewise order: semeval2007 (C 1, A 1, I 2: P 1, R 1/2,
	 * F1 2/3), senseval2 (C 1.5, A 3, I 3: 1/2 each) */
	ck_assert_uint_eq(tageval_wsd_datasets(w), 2);
	const char *name;
	ck_assert_int_eq(tageval_wsd_dataset(w, 0, &name, &f, &err), 0);
	ck_assert_str_eq(name, "semeval2007");
	check(&f, 2, 1, 1.0, 1.0, 0.5, 2.0 / 3.0);
	ck_assert_int_eq(tageval_wsd_dataset(w, 1, &name, &f, &err), 0);
	ck_assert_str_eq(name, "senseval2");
	check(&f, 3, 3, 1.5, 0.5, 0.5, 0.5);
	ck_assert_int_eq(tageval_wsd_dataset(w, 2, &name, &f, &err), TAGEVAL_EINVAL);
	/* nouns art, bank: 1.5/2; verb run 0/1 (P + R = 0: F1 0); adjective
	 * old (satellite, type 5) 1/1; adverb fast: nothing answered, P and F1
	 * undefined, R 0/1 */
	ck_assert_int_eq(tageval_wsd_pos(w, TAGEVAL_WSD_NOUN, &f, &err), 0);
	check(&f, 2, 2, 1.5, 0.75, 0.75, 0.75);
	ck_assert_int_eq(tageval_wsd_pos(w, TAGEVAL_WSD_VERB, &f, &err), 0);
	check(&f, 1, 1, 0.0, 0.0, 0.0, 0.0);
	ck_assert_int_eq(tageval_wsd_pos(w, TAGEVAL_WSD_ADJ, &f, &err), 0);
	check(&f, 1, 1, 1.0, 1.0, 1.0, 1.0);
	ck_assert_int_eq(tageval_wsd_pos(w, TAGEVAL_WSD_ADV, &f, &err), 0);
	check(&f, 1, 0, 0.0, NAN, 0.0, NAN);
	tageval_wsd_free(w);
}
END_TEST

START_TEST(multi_key_answers)
{
	/* gold t0 {a, b}, t1 {c}; system t0 "a a x" (a repeated: n = 2 distinct
	 * keys, a right: 1/2), t1 "c d e" (n = 3, c right: 1/3).
	 * C = 1/2 + 1/3 = 5/6 of A = I = 2: P = R = F1 = 5/12 */
	struct tageval_error err = { 0 };
	int rc;
	struct tageval_wsd *w = read_pair("d.s.t0 a b\nd.s.t1 c\n", "d.s.t1 c d e\nd.s.t0 a a x\n",
					  0, &rc, &err);
	ck_assert_int_eq(rc, 0);
	struct tageval_wsd_figures f;
	ck_assert_int_eq(tageval_wsd_total(w, &f, &err), 0);
	check(&f, 2, 2, 5.0 / 6.0, 5.0 / 12.0, 5.0 / 12.0, 5.0 / 12.0);
	/* three-part ids: no dataset; keys that are not WordNet sense keys: no
	 * part of speech */
	ck_assert_uint_eq(tageval_wsd_datasets(w), 0);
	ck_assert_int_eq(tageval_wsd_pos(w, TAGEVAL_WSD_NOUN, &f, &err), 0);
	ck_assert_uint_eq(f.instances, 0);
	/* a second system replaces the first: t0 "b" right, t1 unanswered:
	 * C 1, A 1, I 2: P 1, R 1/2, F1 2/3 */
	ck_assert_int_eq(tageval_wsd_read_system_buffer(w, "d.s.t0 b\n", 9, "s2", 0, &err), 0);
	ck_assert_int_eq(tageval_wsd_total(w, &f, &err), 0);
	check(&f, 2, 1, 1.0, 1.0, 0.5, 2.0 / 3.0);
	tageval_wsd_free(w);
}
END_TEST

/* Reads gold and system; the error expected, with its line. */
static void expect_error(const char *gold, const char *sys, unsigned flags, const char *file,
			 uint64_t line, const char *message)
{
	struct tageval_error err = { 0 };
	int rc;
	struct tageval_wsd *w = read_pair(gold, sys, flags, &rc, &err);
	ck_assert_int_eq(rc, TAGEVAL_EFORMAT);
	ck_assert_str_eq(err.file, file);
	ck_assert_uint_eq(err.line, line);
	ck_assert_msg(strstr(err.message, message) != NULL, "message \"%s\" lacks \"%s\"",
		      err.message, message);
	tageval_wsd_free(w);
}

START_TEST(errors)
{
	const char *g = "a.b.c k1%1:00:00::\na.b.d k2%2:00:00::\n";
	expect_error(g, "a.b.c k1%1:00:00::\na.b.c k1%1:00:00::\n", 0, "system", 2,
		     "duplicate instance \"a.b.c\" (first at line 1)");
	expect_error("a.b.c x\na.b.c y\n", "a.b.c x\n", 0, "gold", 2, "duplicate instance");
	expect_error(g, "a.b.c k1%1:00:00::\nb.c k2%2:00:00::\n", 0, "system", 2,
		     "\"b.c\" is not in the gold key");
	expect_error(g, "a.b.c\tk1%1:00:00::\n", 0, "system", 1, "a tab");
	expect_error(g, "a.b.c  k1%1:00:00::\n", 0, "system", 1, "two blanks in a row");
	expect_error(g, " a.b.c k1%1:00:00::\n", 0, "system", 1, "starts with a blank");
	expect_error(g, "a.b.c k1%1:00:00::\n\n", 0, "system", 2, "blank line");
	expect_error(g, "a.b.d\n", 0, "system", 1, "has no sense key");
	expect_error(g, "a.b.c k1\x01\n", 0, "system", 1, "control character 0x01 in field 2");
	expect_error(g, "a.b.c k\xc3\x28\n", 0, "system", 1, "field 2 is not UTF-8");
	expect_error("a.b.c k%1:00:00:: k%2:00:00::\n", "a.b.c x\n", 0, "gold", 1,
		     "different parts of speech");
	/* wherever the key of another form stands (it used to hide the
	 * disagreement when it came first) */
	expect_error("a.b.c other k%1:00:00:: k%2:00:00::\n", "a.b.c x\n", 0, "gold", 1,
		     "different parts of speech");
	expect_error("", "a.b.c x\n", 0, "gold", 0, "no instances");
}
END_TEST

START_TEST(subset)
{
	/* with TAGEVAL_WSD_SUBSET the unknown id is counted: t0 right of 2 gold
	 * instances: C 1, A 1, I 2 */
	struct tageval_error err = { 0 };
	int rc;
	struct tageval_wsd *w = read_pair("x.d.s.t0 a\nx.d.s.t1 b\n", "x.d.s.t0 a\nd.s.t1 b\n",
					  TAGEVAL_WSD_SUBSET, &rc, &err);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(tageval_wsd_unknown(w), 1);
	struct tageval_wsd_figures f;
	ck_assert_int_eq(tageval_wsd_total(w, &f, &err), 0);
	check(&f, 2, 1, 1.0, 1.0, 0.5, 2.0 / 3.0);
	tageval_wsd_free(w);
}
END_TEST

START_TEST(api_misuse)
{
	struct tageval_error err = { 0 };
	struct tageval_wsd *w = tageval_wsd_new();
	ck_assert_ptr_nonnull(w);
	/* a system before the gold key; NULL arguments */
	ck_assert_int_eq(tageval_wsd_read_system_buffer(w, "a b\n", 4, "s", 0, &err),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsd_read_gold(NULL, "x", &err), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsd_read_gold(w, NULL, &err), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsd_total(w, NULL, &err), TAGEVAL_EINVAL);
	ck_assert_uint_eq(tageval_wsd_instances(NULL), 0);
	ck_assert_int_eq(tageval_wsd_read_gold_buffer(w, "a b\n", 4, "g", &err), 0);
	/* the gold key is read once */
	ck_assert_int_eq(tageval_wsd_read_gold_buffer(w, "a b\n", 4, "g", &err), TAGEVAL_EINVAL);
	tageval_wsd_free(w);
	tageval_wsd_free(NULL);
}
END_TEST

START_TEST(credits)
{
	/* the worked example in bytewise order of the ids: semeval2007 t000
	 * (fast, unanswered: 0), semeval2007 t001 (old: 1), senseval2 t000
	 * (art: 1), t001 (bank: 1/2), t002 (run: 0) */
	struct tageval_error err = { 0 };
	int rc;
	struct tageval_wsd *w = read_pair(gold_example, system_example, 0, &rc, &err);
	ck_assert_int_eq(rc, 0);
	double c[5];
	unsigned char a[5];
	ck_assert_int_eq(tageval_wsd_credits(w, c, a, &err), 0);
	static const double ce[5] = { 0.0, 1.0, 1.0, 0.5, 0.0 };
	static const unsigned char ae[5] = { 0, 1, 1, 1, 1 };
	for (int i = 0; i < 5; i++) {
		ck_assert_double_eq(c[i], ce[i]);
		ck_assert_uint_eq(a[i], ae[i]);
	}
	/* the example against itself: F1 2C / (A + I) = 2 (2.5) / (4 + 5) = 5/9
	 * for both, delta 0; no instance differs, so no exchange and no
	 * resample changes t = 0: r = samples, p = 1; credit 1/2: no McNemar */
	double cc[10];
	unsigned char aa[10];
	memcpy(cc, c, sizeof c);
	memcpy(cc + 5, c, sizeof c);
	memcpy(aa, a, sizeof a);
	memcpy(aa + 5, a, sizeof a);
	struct tageval_wsd_comparison out[2];
	ck_assert_int_eq(tageval_wsd_compare(2, 5, cc, aa, 0, 50, 1, out, &err), 0);
	ck_assert_double_eq_tol(out[1].f1, 5.0 / 9.0, TOL);
	ck_assert_double_eq(out[1].delta, 0.0);
	ck_assert_double_eq(out[1].bootstrap_p, 1.0);
	ck_assert_double_eq(out[1].randomization_p, 1.0);
	ck_assert(isnan(out[1].mcnemar_p));
	ck_assert(isnan(out[0].bootstrap_p) && isnan(out[0].randomization_p) &&
		  isnan(out[0].mcnemar_p));
	tageval_wsd_free(w);
}
END_TEST

START_TEST(mcnemar_exact)
{
	/* 8 instances, all answered; the reference right on 0-5, s right on 6
	 * and 7 => b = 6 (0-5), c = 2 (6, 7): m = 8, P(X <= 2) = (1 + 8 + 28)
	 * / 256 = 37/256, p = 74/256 = 0.2890625.  Against s2 (right on 0-2
	 * and 6-7: b = 3, c = 2): m = 5, P(X <= 2) = (1 + 5 + 10)/32 = 1/2,
	 * 2 x 1/2 = 1.  s3 = the reference: b = c = 0, p = 1. */
	double c[32] = { 0 };
	unsigned char a[32];
	memset(a, 1, sizeof a);
	for (int i = 0; i < 6; i++)
		c[i] = c[24 + i] = 1.0;
	c[8 + 6] = c[8 + 7] = 1.0;
	c[16 + 0] = c[16 + 1] = c[16 + 2] = c[16 + 6] = c[16 + 7] = 1.0;
	struct tageval_wsd_comparison out[4];
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_wsd_compare(4, 8, c, a, 0, 0, 1, out, &err), 0);
	ck_assert_uint_eq(out[1].ref_only, 6);
	ck_assert_uint_eq(out[1].other_only, 2);
	ck_assert_double_eq_tol(out[1].mcnemar_p, 74.0 / 256.0, 1e-15);
	ck_assert_uint_eq(out[2].ref_only, 3);
	ck_assert_uint_eq(out[2].other_only, 2);
	ck_assert_double_eq(out[2].mcnemar_p, 1.0);
	ck_assert_double_eq(out[3].mcnemar_p, 1.0);
	/* F1 = C / 8 with everything answered: 6/8, 2/8, 5/8; delta 0.5, 1/8 */
	ck_assert_double_eq_tol(out[1].delta, 0.5, TOL);
	ck_assert_double_eq_tol(out[2].delta, 0.125, TOL);
	/* samples 0: no resampling test */
	ck_assert(isnan(out[1].bootstrap_p) && isnan(out[1].randomization_p));
	/* b = 0, c = 30 (m = 30): P(X <= 0) = 2^-30, p = 2^-29 */
	double d[60] = { 0 };
	unsigned char ad[60];
	memset(ad, 1, sizeof ad);
	for (int i = 0; i < 30; i++)
		d[30 + i] = 1.0;
	ck_assert_int_eq(tageval_wsd_compare(2, 30, d, ad, 0, 0, 1, out, &err), 0);
	ck_assert_double_eq_tol(out[1].mcnemar_p, ldexp(1.0, -29), 1e-22);
	/* beyond m = 1000 (the terms in logs) and at it (directly): b = 450,
	 * c = 560 and b = 450, c = 550; 2 sum_{j <= 450} C(m, j) / 2^m
	 * computed with Python's integers and fractions (math.comb,
	 * fractions.Fraction): 0.0005973052674143381 and 0.0017305360849763176 */
	{
		enum { M = 1010 };
		static double e[2 * M];
		static unsigned char ae[2 * M];
		memset(e, 0, sizeof e);
		memset(ae, 1, sizeof ae);
		for (int i = 0; i < 450; i++)
			e[i] = 1.0;
		for (int i = 450; i < M; i++)
			e[M + i] = 1.0;
		ck_assert_int_eq(tageval_wsd_compare(2, M, e, ae, 0, 0, 1, out, &err), 0);
		ck_assert_uint_eq(out[1].ref_only, 450);
		ck_assert_uint_eq(out[1].other_only, 560);
		ck_assert_double_eq_tol(out[1].mcnemar_p, 0.0005973052674143381, 1e-15);
		/* the first 1000 instances only: b = 450, c = 550 */
		memmove(e + 1000, e + M, 1000 * sizeof *e);
		ck_assert_int_eq(tageval_wsd_compare(2, 1000, e, ae, 0, 0, 1, out, &err), 0);
		ck_assert_uint_eq(out[1].other_only, 550);
		ck_assert_double_eq_tol(out[1].mcnemar_p, 0.0017305360849763176, 1e-15);
	}
	/* misuse: no reference */
	ck_assert_int_eq(tageval_wsd_compare(2, 30, d, ad, 2, 0, 1, out, &err), TAGEVAL_EINVAL);
}
END_TEST

START_TEST(resampling_by_count)
{
	/* 4 instances, all answered: the reference right on 0-2, s on 0; F1 =
	 * 2C / (A + I) = C / 4: t = 3/4 - 1/4 = 1/2, the instances' differences
	 * d = (0, 1, 1, 0).  A bootstrap sample's t* is k/4 for k its draws of
	 * instances 1 and 2, so |t* - t| >= |t| exactly when k = 0 or k = 4.
	 * A randomization sample's t* = (+-1 +-1)/4 (instance 1 and 2 kept or
	 * exchanged), |t*| >= 1/2 exactly when bits 1 and 2 of its word agree.
	 * Both counted here with GSL's MT19937 drawn as the library documents. */
	enum { N = 4, B = 200 };
	const unsigned long seed = 12345;
	double c[2 * N] = { 1, 1, 1, 0, 1, 0, 0, 0 };
	unsigned char a[2 * N] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	ck_assert_ptr_nonnull(r);
	gsl_rng_set(r, seed);
	unsigned rb = 0, ra = 0;
	for (int b = 0; b < B; b++) {
		int k = 0;
		for (int d = 0; d < N; d++) {
			/* the high 32 bits of x N; 2^32 mod 4 = 0: no redraw */
			unsigned long j = (unsigned long)(((uint64_t)gsl_rng_get(r) * N) >> 32);
			k += j == 1 || j == 2;
		}
		rb += k == 0 || k == N;
	}
	gsl_rng_set(r, seed);
	for (int b = 0; b < B; b++) {
		unsigned long word = gsl_rng_get(r);
		ra += (word >> 1 & 1) == (word >> 2 & 1);
	}
	gsl_rng_free(r);
	/* the counts are near their expectations (B (2^-4 + 2^-4) = 25, B/2 = 100):
	 * the draws are not degenerate */
	ck_assert_uint_gt(rb, 5);
	ck_assert_uint_lt(rb, 60);
	ck_assert_uint_gt(ra, 70);
	ck_assert_uint_lt(ra, 130);
	struct tageval_wsd_comparison out[2];
	struct tageval_error err = { 0 };
	ck_assert_int_eq(tageval_wsd_compare(2, N, c, a, 0, B, seed, out, &err), 0);
	ck_assert_double_eq_tol(out[1].delta, 0.5, TOL);
	ck_assert_double_eq(out[1].bootstrap_p, (double)(rb + 1) / (B + 1));
	ck_assert_double_eq(out[1].randomization_p, (double)(ra + 1) / (B + 1));
	/* McNemar: b = 2 (instances 1, 2), c = 0: 2 x 2^-2 = 1/2 */
	ck_assert_double_eq(out[1].mcnemar_p, 0.5);
}
END_TEST

START_TEST(data_file)
{
	/* the worked example with a data file that calls fast (an adverb key)
	 * an adjective, and an instance the gold key lacks: a = old (right)
	 * and fast (unanswered): C 1, A 1, I 2: P 1, R 1/2, F1 2/3; r empty */
	static const char xml[] =
		"<?xml version=\"1.0\"?>\n<corpus>\n<text id=\"x\"><sentence id=\"x.s\">\n"
		"<instance id=\"senseval2.d000.s000.t000\" pos=\"NOUN\">art</instance>\n"
		"<instance id=\"senseval2.d000.s000.t001\" pos=\"NOUN\">bank</instance>\n"
		"<instance id=\"senseval2.d000.s000.t002\" pos=\"VERB\">run</instance>\n"
		"<wf pos=\"DET\">the</wf><instance id=\"other\" pos=\"X\">x</instance>\n"
		"<instance id=\"semeval2007.d000.s000.t000\" pos=\"ADJ\">fast</instance>\n"
		"<instance id=\"semeval2007.d000.s000.t001\" pos=\"ADJ\">old</instance>\n"
		"</sentence></text></corpus>\n";
	struct tageval_error err = { 0 };
	int rc;
	struct tageval_wsd *w = read_pair(gold_example, system_example, 0, &rc, &err);
	ck_assert_int_eq(rc, 0);
	if (!tageval_wsd_data_supported()) {
		ck_assert_int_eq(tageval_wsd_read_data_buffer(w, xml, strlen(xml), "data", &err),
				 TAGEVAL_EINVAL);
		tageval_wsd_free(w);
		return;
	}
	ck_assert_int_eq(tageval_wsd_read_data_buffer(w, xml, strlen(xml), "data", &err), 0);
	struct tageval_wsd_figures f;
	ck_assert_int_eq(tageval_wsd_pos(w, TAGEVAL_WSD_ADJ, &f, &err), 0);
	check(&f, 2, 1, 1.0, 1.0, 0.5, 2.0 / 3.0);
	ck_assert_int_eq(tageval_wsd_pos(w, TAGEVAL_WSD_ADV, &f, &err), 0);
	ck_assert_uint_eq(f.instances, 0);
	/* nouns unchanged: art 1, bank 1/2 of 2 */
	ck_assert_int_eq(tageval_wsd_pos(w, TAGEVAL_WSD_NOUN, &f, &err), 0);
	check(&f, 2, 2, 1.5, 0.75, 0.75, 0.75);
	/* errors: a gold instance missing (run), with its gold line 3; an
	 * unknown pos on a gold instance (line 2); malformed XML (line 1) */
	static const char missing[] =
		"<c><instance id=\"senseval2.d000.s000.t000\" pos=\"NOUN\"/></c>";
	ck_assert_int_eq(tageval_wsd_read_data_buffer(w, missing, strlen(missing), "d", &err),
			 TAGEVAL_EFORMAT);
	ck_assert_ptr_nonnull(strstr(err.message, "(gold line 2) has no <instance>"));
	static const char badpos[] =
		"<c>\n<instance id=\"senseval2.d000.s000.t002\" pos=\"DET\"/></c>";
	ck_assert_int_eq(tageval_wsd_read_data_buffer(w, badpos, strlen(badpos), "d", &err),
			 TAGEVAL_EFORMAT);
	ck_assert_uint_eq(err.line, 2);
	ck_assert_int_eq(tageval_wsd_read_data_buffer(w, "<c>", 3, "d", &err), TAGEVAL_EFORMAT);
	ck_assert_uint_eq(err.line, 1);
	/* after the errors the parts of speech read before are kept */
	ck_assert_int_eq(tageval_wsd_pos(w, TAGEVAL_WSD_ADJ, &f, &err), 0);
	ck_assert_uint_eq(f.instances, 2);
	tageval_wsd_free(w);
	/* before a gold key */
	w = tageval_wsd_new();
	ck_assert_int_eq(tageval_wsd_read_data_buffer(w, xml, strlen(xml), "data", &err),
			 TAGEVAL_EINVAL);
	tageval_wsd_free(w);
}
END_TEST

static Suite *wsd_suite(void)
{
	Suite *s = suite_create("wsd");
	TCase *tc = tcase_create("framework");
	tcase_add_test(tc, worked_example);
	tcase_add_test(tc, multi_key_answers);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, subset);
	tcase_add_test(tc, api_misuse);
	tcase_add_test(tc, credits);
	tcase_add_test(tc, mcnemar_exact);
	tcase_add_test(tc, resampling_by_count);
	tcase_add_test(tc, data_file);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(wsd_suite());
}
