/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The outputs of wsd-report: tables, JSON, CSV and the SVG chart. */
#ifndef REPORT_OUTPUT_H
#define REPORT_OUTPUT_H

#include <stdio.h>

#include "tageval.h"

/* What the report was made from, for the headings. */
struct report_sources {
	const char *key;
	const char *map;    /* NULL: none */
	const char *train;  /* NULL: none */
};

/* "fine", "mixed", "coarse" */
const char *report_granularity_name(enum tageval_granularity g);

/* The readable tables (report-table.c). */
void report_print_text(FILE *fp, const struct tageval_report *r,
		       const struct report_sources *src);

/* One row per subset, granularity, minimal flag and system, then the
 * average, best and worst system (report-data.c). */
void report_print_json(FILE *fp, const struct tageval_report *r,
		       const struct report_sources *src);
void report_print_csv(FILE *fp, const struct tageval_report *r);

/* A bar chart of the systems and baselines on subset @subset (report-svg.c). */
void report_write_svg(FILE *fp, const struct tageval_report *r, size_t subset,
		      const struct report_sources *src);

#endif
