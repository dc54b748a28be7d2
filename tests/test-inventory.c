/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Sense maps in both forms, leaf distributions (spec 003's tree, the
 * Senseval-3 group convention, a DAG), coarse tags and every map error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-common.h"

static struct tageval_inventory *map(const char *text, struct tageval_error *err, int *rc)
{
	struct tageval_inventory *inv = tageval_inventory_new();
	ck_assert_ptr_nonnull(inv);
	*rc = tageval_inventory_read_map_buffer(inv, text, strlen(text), "map", err);
	return inv;
}

static size_t id(const struct tageval_inventory *inv, const char *tag)
{
	size_t v;
	ck_assert_int_eq(tageval_inventory_find(inv, tag, &v), TAGEVAL_OK);
	return v;
}

static double pr(const struct tageval_inventory *inv, const char *leaf, const char *tag)
{
	struct tageval_dist *d = tageval_dist_new();
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(tageval_inventory_distribute(inv, id(inv, tag), d), TAGEVAL_OK);
	double sum = 0.0;
	for (size_t i = 0; i < tageval_dist_size(d); i++)
		sum += tageval_dist_prob(d, i);
	ck_assert_double_eq_tol(sum, 1.0, TOL); /* every distribution is complete */
	double p = tageval_dist_get(d, id(inv, leaf));
	tageval_dist_free(d);
	return p;
}

static size_t support(const struct tageval_inventory *inv, const char *tag)
{
	struct tageval_dist *d = tageval_dist_new();
	tageval_inventory_distribute(inv, id(inv, tag), d);
	size_t n = tageval_dist_size(d);
	tageval_dist_free(d);
	return n;
}

/* spec 003, Figure 1, in both forms */
static const char *const paper_maps[] = {
	"A\nA.1 A\nA.2 A\nA.1a A.1\nA.1b A.1\nB\nB.1 B\nB.2 B\nB.3 B\n",
	"A.1 2 A\nA.2 2 A\nA.1a 2 A.1 2 A\nA.1b 2 A.1 2 A\nB.1 3 B\nB.2 3 B\nB.3 3 B\n",
	/* scorer2 form, lines in another order, one line stopping below the root */
	"B.3 3 B\nA.1b 2 A.1\nA.1a 2 A.1 2 A\nB.1 3 B\nA.2 2 A\nB.2 3 B\n",
};

START_TEST(paper_tree)
{
	struct tageval_error err;
	int rc;
	struct tageval_inventory *inv = map(paper_maps[_i], &err, &rc);
	ck_assert_int_eq(rc, TAGEVAL_OK);
	/* Pr(A.1 | A) = 1/2, Pr(A.1a | A.1) = 1/2, so Pr(A.1a | A) = 1/4 */
	ck_assert_double_eq_tol(pr(inv, "A.1a", "A"), 0.25, TOL);
	ck_assert_double_eq_tol(pr(inv, "A.1b", "A"), 0.25, TOL);
	ck_assert_double_eq_tol(pr(inv, "A.2", "A"), 0.5, TOL);
	ck_assert_uint_eq(support(inv, "A"), 3);
	/* Pr(B.2 | B) = 1/3 */
	ck_assert_double_eq_tol(pr(inv, "B.2", "B"), 1.0 / 3.0, TOL);
	ck_assert_double_eq_tol(pr(inv, "A.1a", "A.1"), 0.5, TOL);
	/* a leaf is its own distribution */
	ck_assert_double_eq_tol(pr(inv, "B.1", "B.1"), 1.0, TOL);
	ck_assert_uint_eq(support(inv, "B.1"), 1);
	ck_assert_double_eq_tol(pr(inv, "B.1", "A"), 0.0, TOL);
	/* subsumption both ways */
	ck_assert_double_eq_tol(tageval_inventory_subsumes(inv, id(inv, "A"), id(inv, "A.1a")),
				0.25, TOL);
	ck_assert_double_eq_tol(tageval_inventory_subsumes(inv, id(inv, "A.1a"), id(inv, "A")),
				0.0, TOL);
	ck_assert_double_eq_tol(tageval_inventory_subsumes(inv, id(inv, "B"), id(inv, "B")),
				1.0, TOL);
	size_t c;
	ck_assert_int_eq(tageval_inventory_coarse(inv, id(inv, "A.1b"), &c, NULL), TAGEVAL_OK);
	ck_assert_str_eq(tageval_inventory_name(inv, c), "A");
	ck_assert_int_eq(tageval_inventory_coarse(inv, id(inv, "B"), &c, NULL), TAGEVAL_OK);
	ck_assert_str_eq(tageval_inventory_name(inv, c), "B");
	tageval_inventory_free(inv);
}
END_TEST

START_TEST(senseval3_group_head)
{
	/* EnglishLS.sensemap: "38202 2 38204": 38204 heads a group of b = 2
	 * senses, itself and 38202, so each keeps 1/2 */
	struct tageval_error err;
	int rc;
	struct tageval_inventory *inv = map("38202 2 38204\n38201\n38203\n", &err, &rc);
	ck_assert_int_eq(rc, TAGEVAL_OK);
	ck_assert_double_eq_tol(pr(inv, "38204", "38204"), 0.5, TOL);
	ck_assert_double_eq_tol(pr(inv, "38202", "38204"), 0.5, TOL);
	ck_assert_uint_eq(support(inv, "38204"), 2);
	ck_assert_double_eq_tol(tageval_inventory_subsumes(inv, id(inv, "38204"),
							   id(inv, "38202")), 0.5, TOL);
	tageval_inventory_free(inv);
	/* a factor 4 with two children listed keeps 1 - 2/4 = 1/2 on the parent */
	inv = map("x.1 4 x\nx.2 4 x\n", &err, &rc);
	ck_assert_int_eq(rc, TAGEVAL_OK);
	ck_assert_double_eq_tol(pr(inv, "x", "x"), 0.5, TOL);
	ck_assert_double_eq_tol(pr(inv, "x.1", "x"), 0.25, TOL);
	tageval_inventory_free(inv);
}
END_TEST

START_TEST(dag)
{
	/* c has two parents: a {b, c} and d {c, e}; r {a, d}
	 *   dist(r): a gets 1/2 -> b 1/4, c 1/4; d gets 1/2 -> c 1/4, e 1/4
	 *   so c collects 1/2 */
	struct tageval_error err;
	int rc;
	struct tageval_inventory *inv =
		map("a r\nd r\nb a\nc a\nc d\ne d\n", &err, &rc);
	ck_assert_int_eq(rc, TAGEVAL_OK);
	ck_assert_double_eq_tol(pr(inv, "c", "r"), 0.5, TOL);
	ck_assert_double_eq_tol(pr(inv, "b", "r"), 0.25, TOL);
	ck_assert_double_eq_tol(pr(inv, "e", "r"), 0.25, TOL);
	ck_assert_uint_eq(support(inv, "r"), 3);
	ck_assert_double_eq_tol(tageval_inventory_subsumes(inv, id(inv, "r"), id(inv, "c")),
				0.5, TOL);
	ck_assert_double_eq_tol(tageval_inventory_subsumes(inv, id(inv, "d"), id(inv, "c")),
				0.5, TOL);
	size_t c;
	/* both of c's ways lead to r */
	ck_assert_int_eq(tageval_inventory_coarse(inv, id(inv, "c"), &c, NULL), TAGEVAL_OK);
	ck_assert_str_eq(tageval_inventory_name(inv, c), "r");
	tageval_inventory_free(inv);
	/* two roots: coarse is ambiguous */
	inv = map("c a\nc d\n", &err, &rc);
	ck_assert_int_eq(rc, TAGEVAL_OK);
	ck_assert_int_eq(tageval_inventory_coarse(inv, id(inv, "c"), &c, &err), TAGEVAL_EFORMAT);
	ck_assert_double_eq_tol(pr(inv, "c", "a"), 1.0, TOL);
	tageval_inventory_free(inv);
}
END_TEST

static const struct {
	const char *text;
	size_t line;
	const char *message;
} bad_maps[] = {
	{ "a 2 b\nc 2\n", 2,
	  "2 fields: a sense-map line is a tag followed by factor-parent pairs "
	  "(an odd number of fields)" },
	{ "a 0 b\n", 1, "invalid branching factor \"0\" (a positive integer is required)" },
	{ "a x b\n", 1, "invalid branching factor \"x\" (a positive integer is required)" },
	{ "a 2.5 b\n", 1, "invalid branching factor \"2.5\" (a positive integer is required)" },
	{ "a -2 b\n", 1, "invalid branching factor \"-2\" (a positive integer is required)" },
	{ "a 2 p\nb 3 p\n", 2, "tag \"p\" has branching factor 3 here but 2 at line 1" },
	{ "a 2 p\nb 2 p\nc 2 p\n", 3,
	  "tag \"p\" has more children than its branching factor 2 (line 1)" },
	{ "a 2 p\na 2 q\n", 2, "two chains for tag \"a\": parent \"q\" here, \"p\" at line 1" },
	{ "a 2 b 2 a\n", 1, "cycle: tag \"b\" would be its own ancestor (through \"a\")" },
	{ "a b\nb c\n\nc a\n", 4, "cycle: tag \"c\" would be its own ancestor (through \"a\")" },
	{ "a a\n", 1, "cycle: tag \"a\" would be its own ancestor (through \"a\")" },
	{ "a\nb\x00 c\n", 2, "NUL byte" },
	{ "a 2 b\rx\n", 1, "stray carriage return" },
};

START_TEST(map_errors)
{
	struct tageval_error err;
	int rc;
	/* the NUL case needs its real length */
	const char *t = bad_maps[_i].text;
	size_t len = strlen(t);
	if (strcmp(bad_maps[_i].message, "NUL byte") == 0)
		len = 8;
	struct tageval_inventory *inv = tageval_inventory_new();
	rc = tageval_inventory_read_map_buffer(inv, t, len, "map", &err);
	ck_assert_int_eq(rc, TAGEVAL_EFORMAT);
	ck_assert_int_eq(err.code, TAGEVAL_EFORMAT);
	ck_assert_str_eq(err.file, "map");
	ck_assert_uint_eq(err.line, bad_maps[_i].line);
	ck_assert_str_eq(err.message, bad_maps[_i].message);
	/* nothing half-built stays behind */
	ck_assert_uint_eq(tageval_inventory_size(inv), 0);
	tageval_inventory_free(inv);
}
END_TEST

START_TEST(map_accepts)
{
	struct tageval_error err;
	int rc;
	/* identical repeated lines, comments, blank lines, CRLF, runs of blanks */
	struct tageval_inventory *inv =
		map("a 2 p\r\n\r\na 2 p !! again\n  b\t 2   p  \n!! only a comment\nc", &err, &rc);
	ck_assert_int_eq(rc, TAGEVAL_OK);
	ck_assert_uint_eq(tageval_inventory_size(inv), 4);
	ck_assert_double_eq_tol(pr(inv, "b", "p"), 0.5, TOL);
	/* a second map, or a map after tags were added, is refused */
	ck_assert_int_eq(tageval_inventory_read_map_buffer(inv, "x\n", 2, "map2", &err),
			 TAGEVAL_EINVAL);
	tageval_inventory_free(inv);
	inv = tageval_inventory_new();
	size_t v;
	ck_assert_int_eq(tageval_inventory_intern(inv, "t", &v), TAGEVAL_OK);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(tageval_inventory_find(inv, "u", &v), TAGEVAL_ENOTFOUND);
	ck_assert_ptr_null(tageval_inventory_name(inv, 1));
	ck_assert_int_eq(tageval_inventory_read_map_buffer(inv, "x\n", 2, "map", &err),
			 TAGEVAL_EINVAL);
	tageval_inventory_free(inv);
	/* an empty map is a flat tag set */
	inv = map("", &err, &rc);
	ck_assert_int_eq(rc, TAGEVAL_OK);
	ck_assert_uint_eq(tageval_inventory_size(inv), 0);
	tageval_inventory_free(inv);
	/* a missing file */
	inv = tageval_inventory_new();
	ck_assert_int_eq(tageval_inventory_read_map(inv, "/nonexistent/map", &err), TAGEVAL_EIO);
	ck_assert_str_eq(err.message, "cannot open: No such file or directory");
	ck_assert_str_eq(err.file, "/nonexistent/map");
	tageval_inventory_free(inv);
}
END_TEST

START_TEST(deep_chain)
{
	/* 100 000 levels: no recursion, no quadratic walk */
	size_t n = 100000;
	char *text = malloc(n * 24);
	ck_assert_ptr_nonnull(text);
	size_t l = 0;
	for (size_t i = 1; i < n; i++)
		l += (size_t)sprintf(text + l, "t%zu 1 t%zu\n", i, i - 1);
	struct tageval_error err;
	struct tageval_inventory *inv = tageval_inventory_new();
	ck_assert_int_eq(tageval_inventory_read_map_buffer(inv, text, l, "map", &err), TAGEVAL_OK);
	char last[32];
	sprintf(last, "t%zu", n - 1);
	/* factor 1 all the way: the leaf gets everything */
	ck_assert_double_eq_tol(pr(inv, last, "t0"), 1.0, TOL);
	size_t c;
	ck_assert_int_eq(tageval_inventory_coarse(inv, id(inv, last), &c, NULL), TAGEVAL_OK);
	ck_assert_str_eq(tageval_inventory_name(inv, c), "t0");
	tageval_inventory_free(inv);
	free(text);
}
END_TEST

START_TEST(free_null)
{
	tageval_inventory_free(NULL);
	tageval_dist_free(NULL);
	tageval_key_free(NULL);
	tageval_filter_free(NULL);
	tageval_scorer_free(NULL);
	ck_assert_str_eq(tageval_strerror(TAGEVAL_EFORMAT), "malformed data");
	ck_assert_str_eq(tageval_strerror(999), "unknown error");
}
END_TEST

static Suite *inventory_suite(void)
{
	Suite *s = suite_create("inventory");
	TCase *tc = tcase_create("distributions");
	tcase_add_loop_test(tc, paper_tree, 0, 3);
	tcase_add_test(tc, senseval3_group_head);
	tcase_add_test(tc, dag);
	tcase_add_test(tc, deep_chain);
	suite_add_tcase(s, tc);
	tc = tcase_create("maps");
	tcase_add_loop_test(tc, map_errors, 0, (int)(sizeof bad_maps / sizeof bad_maps[0]));
	tcase_add_test(tc, map_accepts);
	tcase_add_test(tc, free_null);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(inventory_suite());
}
