/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The worked examples of the specification, one instance at a time:
 * spec 001's 22-row table (three policies) and its 9-row conjunctive table,
 * the 11 examples of spec 000 and its section-3 example, Table II of
 * spec 003.  Every expected value is copied from those documents (rows 18
 * and 20 of the 22-row table as reference-scorer2.md section 9 corrects them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-common.h"

/* ------------------------------------------------ spec 001, the 22-row table */

/* The hierarchy of the table: 1 {1.1, 1.2}, 2 {2.1 .. 2.5}, 3. */
static const char doc_map[] = "1\n1.1 2 1\n1.2 2 1\n2\n"
			      "2.1 5 2\n2.2 5 2\n2.3 5 2\n2.4 5 2\n2.5 5 2\n3\n";

struct row {
	const char *key, *guess;
	double f, c, m;
	int multi; /* marked '*': left out by minimal scoring */
};

static const struct row doc_rows[] = {
	/*  1 */ { "1", "1/1.0", 1.0, 1.0, 1.0, 0 },
	/*  2 */ { "1 3", "1/1.0", 1.0, 1.0, 1.0, 1 },
	/*  3 */ { "1", "2/1.0", 0.0, 0.0, 0.0, 0 },
	/*  4 */ { "1 2", "2/1.0", 1.0, 1.0, 1.0, 1 },
	/*  5 */ { "1 3", "2/1.0", 0.0, 0.0, 0.0, 1 },
	/*  6 */ { "1.1", "1.1/1.0", 1.0, 1.0, 1.0, 0 },
	/*  7 */ { "1.1 3", "1.1/1.0", 1.0, 1.0, 1.0, 1 },
	/*  8 */ { "1.1", "1.2/1.0", 0.0, 1.0, 0.0, 0 },
	/*  9 */ { "1.1 3", "1.2/1.0", 0.0, 1.0, 0.0, 1 },
	/* 10 */ { "1", "1.1/1.0", 0.0, 1.0, 1.0, 0 },
	/* 11 */ { "1.1", "1/1.0", 0.0, 1.0, 0.5, 0 },
	/* 12: Pr(2.1 | 2) = 1/5 */
	/* 12 */ { "2.1", "2/1.0", 0.0, 1.0, 0.2, 0 },
	/* 13 */ { "1.1 1.2", "1.1/1.0", 1.0, 1.0, 1.0, 1 },
	/* 14: 1/2 + 1/2 */
	/* 14 */ { "1.1 1.2", "1/1.0", 0.0, 1.0, 1.0, 1 },
	/* 15: 1/5 + 1/5 */
	/* 15 */ { "2.1 2.2", "2/1.0", 0.0, 1.0, 0.4, 1 },
	/* 16 */ { "1", "1/0.6 2/0.4", 0.6, 0.6, 0.6, 0 },
	/* 17 */ { "2", "1/0.6 2/0.4", 0.4, 0.4, 0.4, 0 },
	/* 18: the table says M 0.3; 1.1 is below key 1 and earns full credit: 0.6 */
	/* 18 */ { "1", "1.1/0.6 2/0.4", 0.0, 0.6, 0.6, 0 },
	/* 19 */ { "1", "1.1/0.6 1.2/0.4", 0.0, 1.0, 1.0, 0 },
	/* 20: the table says F 0.6 / M 0.6; fine never matches 1 against 1.1,
	 *     mixed gives 0.6 * Pr(1.1 | 1) = 0.6 * 1/2 = 0.3 */
	/* 20 */ { "1.1", "1/0.6 2/0.4", 0.0, 0.6, 0.3, 0 },
	/* 21 */ { "1 3", "1/0.6 2/0.4", 0.6, 0.6, 0.6, 1 },
	/* 22 */ { "1 2", "1/0.6 2/0.4", 1.0, 1.0, 1.0, 1 },
};
#define N_DOC (sizeof doc_rows / sizeof doc_rows[0])

static double one(const char *map, const char *key, const char *guess,
		  enum tageval_granularity g, int conj)
{
	char k[256], a[256];
	snprintf(k, sizeof k, "w 01 %s\n", key);
	snprintf(a, sizeof a, "w 01 %s\n", guess);
	struct scored s;
	score_strings(map, k, a, g, 0, conj, &s);
	ck_assert_int_eq(s.rc, TAGEVAL_OK);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_int_eq(s.status[0], TAGEVAL_ANSWER_SCORED);
	return s.score[0];
}

/* Each event names the instance's position in the key: the answers for the
 * key's second, an unknown and the first instance give 1, -1 and 0. */
START_TEST(event_index)
{
	struct scored s;
	score_strings(NULL, "w 1 a\nw 2 b\n", "w 2 b\nw 9 a\nw 1 a\n", TAGEVAL_FINE, 0, 0, &s);
	ck_assert_int_eq(s.rc, TAGEVAL_OK);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_uint_eq(s.index[0], 1);
	ck_assert_int_eq(s.status[1], TAGEVAL_ANSWER_NOT_IN_KEY);
	ck_assert_uint_eq(s.index[1], (size_t)-1);
	ck_assert_uint_eq(s.index[2], 0);
}
END_TEST

START_TEST(doc_table_row)
{
	const struct row *r = &doc_rows[_i];
	ck_assert_double_eq_tol(one(doc_map, r->key, r->guess, TAGEVAL_FINE, 0), r->f, TOL);
	ck_assert_double_eq_tol(one(doc_map, r->key, r->guess, TAGEVAL_COARSE, 0), r->c, TOL);
	ck_assert_double_eq_tol(one(doc_map, r->key, r->guess, TAGEVAL_MIXED, 0), r->m, TOL);
}
END_TEST

/* All 22 rows in one file: the sums of the table's columns. */
static void doc_files(char *key, char *ans, size_t size)
{
	size_t kl = 0, al = 0;
	for (size_t i = 0; i < N_DOC; i++) {
		kl += (size_t)snprintf(key + kl, size - kl, "w %02zu %s\n", i + 1, doc_rows[i].key);
		al += (size_t)snprintf(ans + al, size - al, "w %02zu %s\n", i + 1,
				       doc_rows[i].guess);
	}
}

START_TEST(doc_table_totals)
{
	static const struct {
		enum tageval_granularity g;
		int minimal;
		double correct, total;
	} want[] = {
		/* F column: 1+1+1+1+1+.6+.4+.6+1 = 8.6 */
		{ TAGEVAL_FINE, 0, 8.6, 22 },
		/* C column: 17.8 */
		{ TAGEVAL_COARSE, 0, 17.8, 22 },
		/* M column with rows 18, 20 corrected: 13.6 */
		{ TAGEVAL_MIXED, 0, 13.6, 22 },
		/* minimal: the 12 unstarred rows; F 1+1+.6+.4 = 3.0 */
		{ TAGEVAL_FINE, 1, 3.0, 12 },
		/* coarse turns rows 13-15 into single tags: 15 rows, 9.2 + 3 = 12.2 */
		{ TAGEVAL_COARSE, 1, 12.2, 15 },
		/* M over unstarred rows: 1+1+1+.5+.2+.6+.4+.6+1+.3 = 6.6 */
		{ TAGEVAL_MIXED, 1, 6.6, 12 },
	};
	char key[2048], ans[2048];
	doc_files(key, ans, sizeof key);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		struct scored s;
		score_strings(doc_map, key, ans, want[i].g, want[i].minimal, 0, &s);
		ck_assert_int_eq(s.rc, TAGEVAL_OK);
		ck_assert_double_eq_tol(s.total.correct, want[i].correct, TOL);
		ck_assert_double_eq_tol(s.total.attempted, want[i].total, TOL);
		ck_assert_double_eq_tol(s.total.total, want[i].total, TOL);
		ck_assert_uint_eq(s.total.excluded, 22 - (size_t)want[i].total);
	}
}
END_TEST

/* --------------------------------------- spec 001, the conjunctive 9-row table */

static const struct {
	const char *key, *guess;
	double score;     /* the table's value, equal in F, C and M */
	double attempted; /* expected number of tags returned */
	double tags;      /* key tags */
} conj_rows[] = {
	{ "1", "1/1.0", 1.0, 1.0, 1 },
	{ "1 3", "1/1.0", 1.0, 1.0, 2 },
	{ "1 3", "1/1.0 3/1.0", 2.0, 2.0, 2 },
	{ "3", "1/1.0 3/1.0", 1.0, 2.0, 1 },
	{ "1", "1/0.6", 0.6, 0.6, 1 },
	{ "1 3", "1/0.6", 0.6, 0.6, 2 },
	{ "1 3", "1/0.6 3/0.6", 1.2, 1.2, 2 },
	{ "1 3", "1/0.6 3/0.2", 0.8, 0.8, 2 },
	/* "1.1 for row 9" */
	{ "3", "1/0.6 3/0.5", 0.5, 1.1, 1 },
};

START_TEST(conjunctive_row)
{
	static const enum tageval_granularity gs[] = { TAGEVAL_FINE, TAGEVAL_COARSE,
						       TAGEVAL_MIXED };
	for (size_t g = 0; g < 3; g++) {
		char k[64], a[64];
		snprintf(k, sizeof k, "w 01 %s\n", conj_rows[_i].key);
		snprintf(a, sizeof a, "w 01 %s\n", conj_rows[_i].guess);
		struct scored s;
		score_strings(doc_map, k, a, gs[g], 0, 1, &s);
		ck_assert_int_eq(s.rc, TAGEVAL_OK);
		ck_assert_double_eq_tol(s.score[0], conj_rows[_i].score, TOL);
		ck_assert_double_eq_tol(s.total.attempted, conj_rows[_i].attempted, TOL);
		ck_assert_double_eq_tol(s.total.total, conj_rows[_i].tags, TOL);
	}
}
END_TEST

START_TEST(conjunctive_unweighted_and_limits)
{
	struct scored s;
	/* no weights: probability of appearance 1 each; key 1 3, guess 1 3 2:
	 * credit 1 + 1 = 2 of 3 tags returned, 2 key tags */
	score_strings(NULL, "w 01 1 3\n", "w 01 1 3 2\n", TAGEVAL_FINE, 0, 1, &s);
	ck_assert_int_eq(s.rc, TAGEVAL_OK);
	ck_assert_double_eq_tol(s.total.correct, 2.0, TOL);
	ck_assert_double_eq_tol(s.total.attempted, 3.0, TOL);
	/* a weight above 1 is no probability */
	score_strings(NULL, "w 01 1\n", "w 01 1/1.5\n", TAGEVAL_FINE, 0, 1, &s);
	ck_assert_int_eq(s.rc, TAGEVAL_EFORMAT);
	ck_assert_uint_eq(s.err.line, 1);
	/* repeated tags keep the larger probability: 1/0.3 1/0.8 = 1/0.8 */
	score_strings(NULL, "w 01 1\n", "w 01 1/0.3 1/0.8\n", TAGEVAL_FINE, 0, 1, &s);
	ck_assert_double_eq_tol(s.total.correct, 0.8, TOL);
	ck_assert_double_eq_tol(s.total.attempted, 0.8, TOL);
	/* mixed: answer 1 against key 1.1 1.2 earns 1/2 for each key tag */
	score_strings(doc_map, "w 01 1.1 1.2\n", "w 01 1\n", TAGEVAL_MIXED, 0, 1, &s);
	ck_assert_double_eq_tol(s.total.correct, 1.0, TOL);
	ck_assert_double_eq_tol(s.total.total, 2.0, TOL);
}
END_TEST

/* ------------------------------------------------ spec 000, the 11 examples */

static const char prop_map[] = "1\n2\n3\n3.1 2 3\n3.2 2 3\n3.1a 2 3.1 2 3\n3.1b 2 3.1 2 3\n"
			       "4\n4.1 3 4\n4.2 3 4\n4.3 3 4\n";

static const struct {
	const char *key, *guess;
	double score;
} prop_rows[] = {
	{ "2", "3", 0.0 },
	{ "3", "3", 1.0 },
	{ "3", "3.1", 1.0 },
	{ "3", "3.1b", 1.0 },
	{ "3.1", "3", 0.5 },
	{ "3.1 3.2", "3", 1.0 },        /* .5 + .5 */
	{ "3.1a", "3", 0.25 },
	{ "3.1a 4.2", "4", 1.0 / 3.0 }, /* Pr(4.2 | 4) */
	{ "3.1a 4.2", "3.1", 0.5 },
	{ "3.1a 4.2", "3.1 4.2", 0.75 }, /* .5*.5 + .5*1 */
	{ "3.1a 4.2", "3.1 4", 0.5 * 0.5 + 0.5 / 3.0 }, /* .41666 */
};

START_TEST(proposal_row)
{
	ck_assert_double_eq_tol(one(prop_map, prop_rows[_i].key, prop_rows[_i].guess,
				    TAGEVAL_MIXED, 0),
				prop_rows[_i].score, TOL);
}
END_TEST

START_TEST(proposal_total)
{
	char key[1024], ans[1024];
	size_t kl = 0, al = 0;
	for (size_t i = 0; i < 11; i++) {
		kl += (size_t)snprintf(key + kl, sizeof key - kl, "p %zu %s\n", i, prop_rows[i].key);
		al += (size_t)snprintf(ans + al, sizeof ans - al, "p %zu %s\n", i,
				       prop_rows[i].guess);
	}
	struct scored s;
	score_strings(prop_map, key, ans, TAGEVAL_MIXED, 0, 0, &s);
	ck_assert_int_eq(s.rc, TAGEVAL_OK);
	/* 0+1+1+1+.5+1+.25+1/3+.5+.75+5/12 = 6.75 */
	ck_assert_double_eq_tol(s.total.correct, 6.75, TOL);
	ck_assert_double_eq_tol(s.total.total, 11.0, TOL);
}
END_TEST

/* Section 3: key "A B" (disjunctive), no hierarchy. */
static const struct {
	const char *guess;
	double score;
} sec3_rows[] = {
	{ "A", 1.0 },
	{ "A/.5 B/.5", 1.0 },
	{ "A/.3 C/.7", 0.3 },
	{ "A/.3 B/.4 C/.3", 0.7 },
	{ "A B C", 2.0 / 3.0 },
};

START_TEST(proposal_section3)
{
	for (size_t g = 0; g < 3; g++)
		ck_assert_double_eq_tol(one(NULL, "A B", sec3_rows[_i].guess,
					    (enum tageval_granularity)g, 0),
					sec3_rows[_i].score, TOL);
}
END_TEST

/* ------------------------------------------------ spec 003, Table II */

static const char paper_parent[] = "A\nA.1 A\nA.2 A\nA.1a A.1\nA.1b A.1\n"
				   "B\nB.1 B\nB.2 B\nB.3 B\n";
static const char paper_scorer2[] = "A.1 2 A\nA.2 2 A\nA.1a 2 A.1 2 A\nA.1b 2 A.1 2 A\n"
				    "B.1 3 B\nB.2 3 B\nB.3 3 B\n";

static const struct {
	const char *key, *guess;
	double score;
} table2[] = {
	{ "B", "A", 0.0 },
	{ "A", "A", 1.0 },
	{ "A", "A.1", 1.0 },
	{ "A", "A.1b", 1.0 },
	{ "A.1", "A", 0.5 },
	{ "A.1 A.2", "A", 1.0 },         /* .5 + .5 */
	{ "A.1a", "A", 0.25 },
	{ "A.1a B.2", "B", 1.0 / 3.0 },  /* Pr(B.2 | B) */
	{ "A.1a B.2", "A.1", 0.5 },
	{ "A.1a B.2", "A.1 B.2", 0.75 }, /* .5*.5 + .5*1 */
	{ "A.1a B.2", "A.1 B", 0.5 * 0.5 + 0.5 / 3.0 },
};

START_TEST(paper_table2)
{
	ck_assert_double_eq_tol(one(paper_parent, table2[_i].key, table2[_i].guess,
				    TAGEVAL_MIXED, 0),
				table2[_i].score, TOL);
	ck_assert_double_eq_tol(one(paper_scorer2, table2[_i].key, table2[_i].guess,
				    TAGEVAL_MIXED, 0),
				table2[_i].score, TOL);
}
END_TEST

/* --------------------------------------------- answer-level rules (section 5) */

START_TEST(weights_and_normalisation)
{
	struct scored s;
	/* a total at most 1 is kept: 1/0.3 attempts 0.3 and earns 0.3 */
	score_strings(NULL, "w 01 1\n", "w 01 1/0.3\n", TAGEVAL_FINE, 0, 0, &s);
	ck_assert_double_eq_tol(s.total.correct, 0.3, TOL);
	ck_assert_double_eq_tol(s.total.attempted, 0.3, TOL);
	/* above 1 normalised: 1/3 2/1 -> 0.75 0.25 */
	score_strings(NULL, "w 01 1\n", "w 01 1/3 2/1\n", TAGEVAL_FINE, 0, 0, &s);
	ck_assert_double_eq_tol(s.total.correct, 0.75, TOL);
	ck_assert_double_eq_tol(s.total.attempted, 1.0, TOL);
	/* a tag without weight: every weight becomes 1, then 1/2 each */
	score_strings(NULL, "w 01 1\n", "w 01 1/0.9 2\n", TAGEVAL_FINE, 0, 0, &s);
	ck_assert_double_eq_tol(s.total.correct, 0.5, TOL);
	/* repeated tags are not merged in fine policy: 1 1 2 gives 1 two thirds */
	score_strings(NULL, "w 01 1\n", "w 01 1 1 2\n", TAGEVAL_FINE, 0, 0, &s);
	ck_assert_double_eq_tol(s.total.correct, 2.0 / 3.0, TOL);
	/* coarse merges 1.1 and 1.2 into 1 (weights added): 0.3+0.3 = 0.6 */
	score_strings(doc_map, "w 01 1\n", "w 01 1.1/0.3 1.2/0.3 2/0.4\n", TAGEVAL_COARSE,
		      0, 0, &s);
	ck_assert_double_eq_tol(s.total.correct, 0.6, TOL);
	/* 1/0 attempts nothing but uses the instance up */
	score_strings(NULL, "w 01 1\n", "w 01 1/0\nw 01 1\n", TAGEVAL_FINE, 0, 0, &s);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_int_eq(s.status[1], TAGEVAL_ANSWER_EXCLUDED);
	ck_assert_double_eq_tol(s.total.attempted, 0.0, TOL);
	/* zero-weight total still scores 0 */
	ck_assert_double_eq_tol(s.total.correct, 0.0, TOL);
}
END_TEST

START_TEST(answer_statuses)
{
	struct scored s;
	score_strings(NULL, "w 01 1\nw 02 2 3\n",
		      "x 01 1\n"   /* not in the key */
		      "w 01\n"     /* no tags: invalid, the instance stays available */
		      "w 01 1\n"   /* scored */
		      "w 01 1\n"   /* already scored */
		      "\n!! a comment line\n"
		      "w 02 3 !! comment after the tags\n",
		      TAGEVAL_FINE, 0, 0, &s);
	ck_assert_int_eq(s.rc, TAGEVAL_OK);
	ck_assert_uint_eq(s.n, 5);
	ck_assert_int_eq(s.status[0], TAGEVAL_ANSWER_NOT_IN_KEY);
	ck_assert_int_eq(s.status[1], TAGEVAL_ANSWER_INVALID);
	ck_assert_int_eq(s.status[2], TAGEVAL_ANSWER_SCORED);
	ck_assert_int_eq(s.status[3], TAGEVAL_ANSWER_EXCLUDED);
	ck_assert_int_eq(s.status[4], TAGEVAL_ANSWER_SCORED);
	ck_assert_double_eq_tol(s.total.correct, 2.0, TOL);
	ck_assert_uint_eq(s.total.not_in_key, 1);
	ck_assert_uint_eq(s.total.invalid, 1);
	ck_assert_uint_eq(s.total.excluded, 1);
	/* -m: a multi-tag instance is excluded and its answer rejected */
	score_strings(NULL, "w 01 1\nw 02 2 3\n", "w 02 3\n", TAGEVAL_FINE, 1, 0, &s);
	ck_assert_int_eq(s.status[0], TAGEVAL_ANSWER_EXCLUDED);
	ck_assert_double_eq_tol(s.total.total, 1.0, TOL);
}
END_TEST

START_TEST(answer_errors)
{
	static const struct {
		const char *answers;
		size_t line;
		const char *message;
	} bad[] = {
		{ "w\n", 1, "missing instance id" },
		{ "\nw 01 1/-0.5\n", 2, "invalid weight \"1/-0.5\"" },
		{ "w 01 1/nan\n", 1, "invalid weight \"1/nan\"" },
		{ "w 01 1/inf\n", 1, "invalid weight \"1/inf\"" },
		{ "w 01 1/1e999\n", 1, "invalid weight \"1/1e999\"" },
		{ "w 01 1/0x1p-1\n", 1, "invalid weight \"1/0x1p-1\"" },
		{ "w 01 1/1,5\n", 1, "invalid weight \"1/1,5\"" },
		{ "w 01 1/0.5abc\n", 1, "invalid weight \"1/0.5abc\"" },
		{ "w 01 1/\n", 1, "invalid weight \"1/\"" },
		{ "w 01 /0.5\n", 1, "invalid weight \"/0.5\"" },
		{ "w 01 1/-0\n", 1, "invalid weight \"1/-0\"" },
		/* checked also where the weights are then ignored */
		{ "w 01 1/abc 2\n", 1, "invalid weight \"1/abc\"" },
		{ "w 01 1\r2\n", 1, "stray carriage return" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct scored s;
		score_strings(NULL, "w 01 1\n", bad[i].answers, TAGEVAL_FINE, 0, 0, &s);
		ck_assert_int_eq(s.rc, TAGEVAL_EFORMAT);
		ck_assert_uint_eq(s.err.line, bad[i].line);
		ck_assert_str_eq(s.err.file, "answers");
		ck_assert_str_eq(s.err.message, bad[i].message);
	}
	/* accepted weight spellings: .5, 5., 5e-1, +0.5, 94 */
	struct scored s;
	score_strings(NULL, "w 01 1\nw 02 1\nw 03 1\nw 04 1\nw 05 1\n",
		      "w 01 1/.5\nw 02 1/5.\nw 03 1/5e-1\nw 04 1/+0.5\nw 05 1/94 2/94\n",
		      TAGEVAL_FINE, 0, 0, &s);
	ck_assert_int_eq(s.rc, TAGEVAL_OK);
	/* .5 + 1 + .5 + .5 + .5 */
	ck_assert_double_eq_tol(s.total.correct, 3.0, TOL);
}
END_TEST

START_TEST(double_precision)
{
	/* reference-scorer2.md 10.1: 10 000 answers 1/0.1 2/0.1 against key 1 */
	size_t n = 10000;
	char *key = malloc(n * 16), *ans = malloc(n * 32);
	ck_assert_ptr_nonnull(key);
	ck_assert_ptr_nonnull(ans);
	size_t kl = 0, al = 0;
	for (size_t i = 0; i < n; i++) {
		kl += (size_t)sprintf(key + kl, "w %zu 1\n", i);
		al += (size_t)sprintf(ans + al, "w %zu 1/0.1 2/0.1\n", i);
	}
	struct scored s;
	score_strings(NULL, key, ans, TAGEVAL_FINE, 0, 0, &s);
	ck_assert_int_eq(s.rc, TAGEVAL_OK);
	/* 10 000 * 0.1 = 1000 correct, 10 000 * 0.2 = 2000 attempted */
	ck_assert_double_eq_tol(s.total.correct, 1000.0, 1e-9);
	ck_assert_double_eq_tol(s.total.attempted, 2000.0, 1e-9);
	free(key);
	free(ans);
}
END_TEST

START_TEST(exact_sum_rounds_once)
{
	/*
	 * Three instances of key tag a; each answer is the one tag a, whose
	 * weight w <= 1 earns score = attempted = w.  Weights 1 (bare), 2^-53
	 * and 2^-106: the exact sum 1 + 2^-53 + 2^-106 lies just above the
	 * midpoint of 1 and 1 + 2^-52, so it rounds (once) to 1 + 2^-52.  Rounded
	 * twice it is 1: 2^-53 + 2^-106 -> 2^-53 (to even), then 1 + 2^-53, a
	 * tie, -> 1.  After the first two lines the exact sum 1 + 2^-53 is that
	 * tie itself: 1.  The ones counted apart (the bare answer) must come
	 * into the same single rounding, in every line order; the result is read
	 * after every line, which must not change what follows.
	 */
	static const int orders[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
					  { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
	const char *ids[3] = { "1", "2", "3" };
	const double w[3] = { 1.0, 0x1p-53, 0x1p-106 };
	const char *tags[] = { "a" };
	struct tageval_error err;
	for (int o = 0; o < 6; o++) {
		struct tageval_inventory *inv = tageval_inventory_new();
		struct tageval_key *key = NULL;
		struct tageval_scorer *sc = NULL;
		ck_assert_ptr_nonnull(inv);
		ck_assert_int_eq(tageval_key_new(inv, "key", &key), TAGEVAL_OK);
		for (int i = 0; i < 3; i++)
			ck_assert_int_eq(tageval_key_add(key, "w", ids[i], tags, 1, &err),
					 TAGEVAL_OK);
		ck_assert_int_eq(tageval_scorer_new(inv, key, NULL, &sc, &err), TAGEVAL_OK);
		double exact = 0.0; /* 1 + 2^-53 + 2^-106 is not a double: track the parts */
		int have_one = 0, have_small = 0, have_tiny = 0;
		for (int j = 0; j < 3; j++) {
			int i = orders[o][j];
			const double *weights = i == 0 ? NULL : &w[i];
			ck_assert_int_eq(tageval_scorer_add(sc, "w", ids[i], tags, weights, 1, &err),
					 TAGEVAL_OK);
			have_one |= i == 0;
			have_small |= i == 1;
			have_tiny |= i == 2;
			/* the sum so far, rounded once: with 1 and 2^-53 but not 2^-106
			 * the tie 1 + 2^-53 -> 1; all three -> 1 + 2^-52; without 1
			 * the parts are exact (2^-53 + 2^-106 needs 54 bits: rounds to 2^-53) */
			if (have_one)
				exact = have_small && have_tiny ? 0x1.0000000000001p+0 : 1.0;
			else
				exact = have_small ? 0x1p-53 : 0x1p-106;
			struct tageval_score r;
			tageval_scorer_result(sc, &r);
			ck_assert_double_eq(r.correct, exact);
			ck_assert_double_eq(r.attempted, exact);
		}
		struct tageval_score r;
		tageval_scorer_result(sc, &r);
		ck_assert_double_eq(r.correct, 0x1.0000000000001p+0);
		ck_assert_double_eq(r.total, 3.0);
		tageval_scorer_free(sc);
		tageval_key_free(key);
		tageval_inventory_free(inv);
	}
}
END_TEST

START_TEST(key_add_failure_leaves_key)
{
	/*
	 * A tageval_key_add() that fails leaves the key as it was: no instance
	 * with tags it never got, its id free for a later add.  "w 2" with tags
	 * b and c/d fails ('/' in a tag); then "w 2 b" is added (not a
	 * duplicate): 2 instances, and the answer "w 2 b" scores 1 of 2.
	 * (Two guards in add_fields() give this, each alone: the tags checked
	 * for '/' before the id is interned, and a failed add undone, its id
	 * cut; with neither, the key held 2 instances after the failure.)
	 */
	struct tageval_error err;
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_key *key = NULL;
	struct tageval_scorer *sc = NULL;
	ck_assert_ptr_nonnull(inv);
	ck_assert_int_eq(tageval_key_new(inv, "key", &key), TAGEVAL_OK);
	const char *a[] = { "a" }, *bad[] = { "b", "c/d" }, *b[] = { "b" };
	ck_assert_int_eq(tageval_key_add(key, "w", "1", a, 1, &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_key_add(key, "w", "2", bad, 2, &err), TAGEVAL_EFORMAT);
	ck_assert_str_eq(err.message, "key tag \"c/d\" contains '/'");
	ck_assert_uint_eq(tageval_key_size(key), 1);
	ck_assert_int_eq(tageval_key_add(key, "w", "2", b, 1, &err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_key_size(key), 2);
	ck_assert_int_eq(tageval_scorer_new(inv, key, NULL, &sc, &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_scorer_add(sc, "w", "2", b, NULL, 1, &err), TAGEVAL_OK);
	struct tageval_score r;
	tageval_scorer_result(sc, &r);
	ck_assert_double_eq(r.correct, 1.0);
	ck_assert_double_eq(r.total, 2.0);
	ck_assert_uint_eq(r.not_in_key, 0);
	tageval_scorer_free(sc);
	tageval_key_free(key);
	tageval_inventory_free(inv);
}
END_TEST

static Suite *scoring_suite(void)
{
	Suite *s = suite_create("scoring");
	TCase *tc = tcase_create("spec001");
	tcase_add_loop_test(tc, doc_table_row, 0, (int)N_DOC);
	tcase_add_test(tc, doc_table_totals);
	tcase_add_test(tc, event_index);
	tcase_add_loop_test(tc, conjunctive_row, 0, 9);
	tcase_add_test(tc, conjunctive_unweighted_and_limits);
	suite_add_tcase(s, tc);
	tc = tcase_create("spec000");
	tcase_add_loop_test(tc, proposal_row, 0, 11);
	tcase_add_test(tc, proposal_total);
	tcase_add_loop_test(tc, proposal_section3, 0, 5);
	suite_add_tcase(s, tc);
	tc = tcase_create("spec003");
	tcase_add_loop_test(tc, paper_table2, 0, 11);
	suite_add_tcase(s, tc);
	tc = tcase_create("answers");
	tcase_add_test(tc, weights_and_normalisation);
	tcase_add_test(tc, answer_statuses);
	tcase_add_test(tc, answer_errors);
	tcase_add_test(tc, double_precision);
	tcase_add_test(tc, exact_sum_rounds_once);
	tcase_add_test(tc, key_add_failure_leaves_key);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(scoring_suite());
}
