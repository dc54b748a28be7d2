/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the Check test programs. */
#ifndef TEST_COMMON_H
#define TEST_COMMON_H

#include <check.h>
#include <stddef.h>

#include "tageval.h"

#define TOL 1e-12

/* What scoring one small answer file gave. */
struct scored {
	int rc;                   /* of the whole run */
	struct tageval_error err;
	struct tageval_score total;
	size_t n;                 /* answer lines reported */
	enum tageval_answer_status status[64];
	double score[64];
	double attempted[64];
	size_t index[64];         /* the events' key index */
};

/*
 * Reads @map (may be NULL), @key and @answers from strings and scores them
 * with the given policy; every answer line's event is recorded in order.
 */
void score_strings(const char *map, const char *key, const char *answers,
		   enum tageval_granularity g, int minimal, int conjunctive,
		   struct scored *out);

/* A growing string for test inputs made in code; b->s is NUL-terminated. */
struct sbuf {
	char *s;
	size_t len, cap;
};

/* Appends printf-style to @b (aborts the test on failure). */
void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Runs a suite (CK_FORK as in the environment); returns the exit status. */
int run_suite(Suite *s);

#endif
