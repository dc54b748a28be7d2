/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The outputs of wsd-report: tables, JSON, CSV and the SVG chart. */
#ifndef REPORT_OUTPUT_H
#define REPORT_OUTPUT_H

#include <stdio.h>

#include "tageval.h"

/* --rank-by: the measure that picks the best and worst system. */
enum report_rank { REPORT_RANK_PRECISION, REPORT_RANK_RECALL, REPORT_RANK_F1 };

/*
 * --significance: each system and baseline against the best system of
 * subset "all" (by the ranking measure, which is also the statistic) and
 * against the baseline, at each granularity: tageval_compare() on the
 * credits of tageval_report_credits().
 */
struct report_significance {
	size_t samples;
	unsigned long seed;
	double alpha;
	size_t subset;                  /* "all" */
	size_t baseline;                /* a system's index, TAGEVAL_REPORT_NONE: none */
	size_t best[3];                 /* per granularity; TAGEVAL_REPORT_NONE: none */
	struct tageval_wsd_comparison *vs_best, *vs_base; /* [g * systems + k] */
};

/* What the report was made from, for the headings, and how it ranks. */
struct report_sources {
	const char *key;
	const char *map;    /* NULL: none */
	const char *train;  /* NULL: none */
	enum report_rank rank_by;
	const struct report_significance *sig; /* NULL: no --significance */
};

/* The statistic of --significance: the ranking measure. */
enum tageval_statistic report_statistic(enum report_rank by);

/*
 * The marks of system @k at granularity @g: "*" when the best does not
 * significantly beat it (randomization p at least alpha), "~" when it is
 * not significantly above the baseline (p at least alpha, or its figure
 * not above); "" for none.  @buf holds 3 bytes.
 */
const char *report_marks(const struct report_significance *sig, const struct tageval_report *r,
			 size_t g, size_t k, char *buf);

/* "precision", "recall", "F1" */
const char *report_rank_name(enum report_rank by);

/* F1 = 2PR / (P + R): NaN when P or R is, 0 when both are 0. */
double report_f1(double p, double r);

/*
 * The best and worst system (baselines aside) of subset @s, granularity @g,
 * minimal flag @m, by @by: among the systems that attempted something there
 * (that have a precision), the largest and smallest precision (ties by
 * recall), recall (ties by precision) or F1 (ties by precision); remaining
 * ties go to the system added first.  TAGEVAL_REPORT_NONE when none
 * attempted anything.  By precision this is tageval_report_summarize()'s.
 */
void report_best_worst(const struct tageval_report *r, size_t s, size_t g, int m,
		       enum report_rank by, size_t *best, size_t *worst);

/* "fine", "mixed", "coarse" */
const char *report_granularity_name(enum tageval_granularity g);

/* The readable tables (report-table.c). */
void report_print_text(FILE *fp, const struct tageval_report *r,
		       const struct report_sources *src);

/* One row per subset, granularity, minimal flag and system, then the
 * average, best and worst system (report-data.c). */
void report_print_json(FILE *fp, const struct tageval_report *r,
		       const struct report_sources *src);
void report_print_csv(FILE *fp, const struct tageval_report *r,
		      const struct report_sources *src);

/* A bar chart of the systems and baselines on subset @subset (report-svg.c). */
void report_write_svg(FILE *fp, const struct tageval_report *r, size_t subset,
		      const struct report_sources *src);

#endif
