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

static Suite *wsd_suite(void)
{
	Suite *s = suite_create("wsd");
	TCase *tc = tcase_create("framework");
	tcase_add_test(tc, worked_example);
	tcase_add_test(tc, multi_key_answers);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, subset);
	tcase_add_test(tc, api_misuse);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(wsd_suite());
}
