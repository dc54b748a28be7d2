/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The distances of hkappa's --weights file ("label1 label2 distance" per
 * line), read by the input layer like every other file of tageval, and the
 * weighted figures computed with them (tageval_agreement_weighted()).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tageval-agreement.h"
#include "tageval-intern.h"
#include "tageval-reader.h"
#include "tageval-util.h"
#include "tageval.h"

/* The pairs of a weights file as they are read. */
struct weights_reading {
	struct tv_intern labels;              /* each label stored once */
	struct tageval_label_distance *pairs; /* labels in @labels' arena */
	uint64_t *lines;                      /* [pair] its line in the file */
	size_t n, cap, linecap;
	char name[TAGEVAL_ERROR_FILE_MAX];    /* the file's, for the errors */
};

/* A label's stored copy (the arena of the table does not move). */
static int label(struct weights_reading *w, const char *s, const char **out)
{
	uint32_t id;
	if (tv_intern_put(&w->labels, s, strlen(s), &id, NULL))
		return TAGEVAL_ENOMEM;
	*out = tv_intern_str(&w->labels, id);
	return TAGEVAL_OK;
}

/*
 * A distance: a decimal number as a weight is written (tv_parse_weight:
 * no hexadecimal, no infinity; strtod's, so LC_NUMERIC "C" as tageval.h
 * asks of every caller), with a minus
 * sign allowed so that a negative distance is reported as out of range by
 * tageval_agreement_weighted(), at its line.
 */
static int parse_distance(const char *s, double *d)
{
	if (*s == '-') {
		if (s[1] == '+' || s[1] == '-' || tv_parse_weight(s + 1, d))
			return -1;
		*d = -*d;
		return 0;
	}
	return tv_parse_weight(s, d);
}

static int read_weights(void *ctx, struct tv_reader *r, struct tageval_error *err)
{
	struct weights_reading *w = ctx;
	snprintf(w->name, sizeof w->name, "%s", r->name);
	int rc, got;
	while ((rc = tv_reader_next(r, &got, err)) == TAGEVAL_OK && got) {
		/* blank lines, comments ("!!", and a line whose first field
		 * starts with '#') */
		if (r->nfield == 0 || r->field[0][0] == '#')
			continue;
		if (r->nfield != 3)
			return tv_error(err, TAGEVAL_EFORMAT, r->name, r->lineno,
					"%s fields, \"label1 label2 distance\" expected",
					r->nfield < 3 ? "too few" : "too many");
		double d;
		if (parse_distance(r->field[2], &d)) {
			char shown[80];
			tv_quote(shown, sizeof shown, r->field[2], strlen(r->field[2]));
			return tv_error(err, TAGEVAL_EFORMAT, r->name, r->lineno,
					"invalid distance \"%s\" (a number from 0 to 1)", shown);
		}
		if (tv_grow((void **)&w->pairs, &w->cap, w->n + 1, sizeof *w->pairs) ||
		    tv_grow((void **)&w->lines, &w->linecap, w->n + 1, sizeof *w->lines))
			return tv_nomem(err);
		struct tageval_label_distance *p = &w->pairs[w->n];
		p->distance = d;
		if (label(w, r->field[0], &p->first) || label(w, r->field[1], &p->second))
			return tv_nomem(err);
		w->lines[w->n++] = r->lineno;
	}
	return rc;
}

/*
 * The weighted figures with the pairs read; an error about a pair (out of
 * range, listed twice) gets the file's name and the pair's line, a pair
 * missing the file's name.
 */
static int weighted(const struct tageval_annotations *ann, struct weights_reading *w,
		    double confidence, struct tageval_weighted_figures *out,
		    struct tageval_error *err)
{
	int rc = tageval_agreement_weighted(ann, w->pairs, w->n, confidence, out, err);
	if (rc == TAGEVAL_EINVAL && err && err->line > 0 && err->line <= w->n) {
		err->line = w->lines[err->line - 1];
		snprintf(err->file, sizeof err->file, "%s", w->name);
	} else if (rc == TAGEVAL_EFORMAT && err && err->line == 0 &&
		   strncmp(err->message, "no distance for", 15) == 0) {
		/* the only error of the file without a line (the limit on the
		 * pairs of tags is the annotations') */
		snprintf(err->file, sizeof err->file, "%s", w->name);
	}
	return rc;
}

static void reading_clear(struct weights_reading *w)
{
	tv_intern_clear(&w->labels);
	free(w->pairs);
	free(w->lines);
}

/* The checks of both entry points, before anything is read. */
#define WEIGHTED_READ_NEED(err, ann, confidence, out)                                  \
	do {                                                                           \
		TV_NEED(err, out, "out");                                              \
		tv_weighted_figures_clear(out);                                        \
		TV_NEED(err, ann, "ann");                                              \
		if (!((confidence) == 0.0 || ((confidence) > 0.0 && (confidence) < 1.0))) \
			return tv_error(err, TAGEVAL_EINVAL, "", 0,                    \
					"confidence must be between 0 and 1 (0: no "   \
					"standard errors)");                           \
	} while (0)

int tageval_agreement_weighted_read(const struct tageval_annotations *ann, const char *path,
				    double confidence, struct tageval_weighted_figures *out,
				    struct tageval_error *err)
{
	WEIGHTED_READ_NEED(err, ann, confidence, out);
	struct weights_reading w;
	memset(&w, 0, sizeof w);
	tv_intern_init(&w.labels);
	int rc = tv_read_path(__func__, path, read_weights, &w, err);
	if (rc == TAGEVAL_OK)
		rc = weighted(ann, &w, confidence, out, err);
	reading_clear(&w);
	return rc;
}

int tageval_agreement_weighted_read_buffer(const struct tageval_annotations *ann,
					   const char *data, size_t size, const char *name,
					   double confidence,
					   struct tageval_weighted_figures *out,
					   struct tageval_error *err)
{
	WEIGHTED_READ_NEED(err, ann, confidence, out);
	struct weights_reading w;
	memset(&w, 0, sizeof w);
	tv_intern_init(&w.labels);
	int rc = tv_read_buffer(__func__, data, size, name, read_weights, &w, err);
	if (rc == TAGEVAL_OK)
		rc = weighted(ann, &w, confidence, out, err);
	reading_clear(&w);
	return rc;
}
