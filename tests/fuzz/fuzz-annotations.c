/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The annotation reader and the agreement figures: a sense map (unless flat)
 * and two to four annotators' files.  Input: flags, then MAP, ANN1, ANN2,
 * ANN4.  Flags: bit 0 flat (no map: the files are ANN1 to ANN5), bit 1 a
 * bootstrap of 8 replicates, bit 2 the files in the long form (a line per
 * annotation: item annotator tags; hkappa --long), bit 3 the last file
 * (of two or more) a file of distances, hkappa --weights, read by
 * tageval_agreement_weighted_read_buffer() (ANN5 then has no room: up to
 * six files).  Every file read backwards must give the same pooled figures
 * (and the same weighted figures, or the same status).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_figures(const struct tageval_agreement_figures *f, const char *what)
{
	if (f->kappa_undefined == TAGEVAL_DEFINED && !fuzz_in_range(f->kappa, -1e300, 1.0))
		fuzz_fail("%s: kappa %g", what, f->kappa);
	if (f->separate_undefined == TAGEVAL_DEFINED &&
	    !fuzz_in_range(f->kappa_separate, -1e300, 1.0))
		fuzz_fail("%s: separate kappa %g", what, f->kappa_separate);
	if (f->alpha_undefined == TAGEVAL_DEFINED && !fuzz_in_range(f->alpha, -1e300, 1.0))
		fuzz_fail("%s: alpha %g", what, f->alpha);
	if (f->items > 0 && (!fuzz_in_range(f->pr_a, 0.0, 1.0) || !fuzz_in_range(f->pr_e, 0.0, 1.0)))
		fuzz_fail("%s: pr_a %g, pr_e %g", what, f->pr_a, f->pr_e);
	if (f->complete > f->items || f->annotations < 2 * f->items)
		fuzz_fail("%s: %zu items, %zu complete, %zu annotations", what, f->items,
			  f->complete, f->annotations);
}

/* The weighted figures of a file of distances: its status, and the figures. */
struct weighted {
	int rc;
	double fig[6];
	int undefined[4];
};

/* Reads the file of distances @part with the annotations of @ann. */
static void weighted_figures(const struct tageval_annotations *ann,
			     const struct fuzz_part *part, struct weighted *w)
{
	struct tageval_error err;
	struct tageval_weighted_figures wf;
	w->rc = tageval_agreement_weighted_read_buffer(ann, part->data, part->size, "weights",
						       0.95, &wf, &err);
	fuzz_check_error(w->rc, FUZZ_BIT(TAGEVAL_EFORMAT) | FUZZ_BIT(TAGEVAL_EINVAL), &err, part,
			 "weights");
	/* a pair at fault is named by the file's line */
	if (w->rc == TAGEVAL_EINVAL && (strcmp(err.file, "weights") != 0 || err.line == 0))
		fuzz_fail("weights: a pair's error without its line: %s", err.message);
	if (w->rc)
		return;
	if (wf.kappa.undefined == TAGEVAL_DEFINED && !fuzz_in_range(wf.kappa.value, -1e300, 1.0))
		fuzz_fail("weights: kappa %g", wf.kappa.value);
	if (wf.ac2_undefined == TAGEVAL_DEFINED && !fuzz_in_range(wf.ac2, -1e300, 1.0))
		fuzz_fail("weights: AC2 %g", wf.ac2);
	const double fig[] = { wf.kappa.value, wf.kappa.observed, wf.kappa.chance,
			       wf.ac2, wf.ac2_observed, wf.ac2_chance };
	memcpy(w->fig, fig, sizeof fig);
	const int undefined[] = { wf.kappa.undefined, wf.kappa_se_undefined, wf.ac2_undefined,
				  wf.ac2_se_undefined };
	memcpy(w->undefined, undefined, sizeof undefined);
}

/* Reads the files of @in and computes the agreement: the status, and the
 * pooled figures in @pooled (with flag 3, the weighted figures in @w). */
static int compute(const struct fuzz_input *in, struct tageval_agreement_figures *pooled,
		   struct weighted *w)
{
	static const char *const names[] = { "map", "ann1", "ann2", "ann3", "ann4", "ann5" };
	const unsigned format = FUZZ_BIT(TAGEVAL_EFORMAT);
	int flat = in->flags & 1;
	size_t nfiles = in->n - (w != NULL); /* the last: the distances */
	struct tageval_error err;
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_annotations *ann = NULL;
	struct tageval_agreement *ag = NULL;
	if (inv == NULL || tageval_annotations_new(inv, &ann))
		abort();
	int rc = TAGEVAL_OK;
	size_t first = 0;
	if (!flat) {
		rc = tageval_inventory_read_map_buffer(inv, in->part[0].data, in->part[0].size,
						       names[0], &err);
		fuzz_check_error(rc, format, &err, &in->part[0], names[0]);
		first = 1;
	}
	for (size_t i = first; i < nfiles && rc == TAGEVAL_OK; i++) {
		const char *name = names[flat ? i + 1 : i];
		rc = in->flags & 4 ? tageval_annotations_read_long_buffer(ann, in->part[i].data,
									  in->part[i].size, name,
									  &err)
				   : tageval_annotations_read_buffer(ann, in->part[i].data,
								     in->part[i].size, name, &err);
		fuzz_check_error(rc, format, &err, &in->part[i], name);
	}
	if (rc)
		goto out;
	if (!(in->flags & 4) && tageval_annotations_annotators(ann) != nfiles - first)
		fuzz_fail("%zu annotators read from %zu files", tageval_annotations_annotators(ann),
			  nfiles - first);
	struct tageval_agreement_options o;
	tageval_agreement_options_init(&o);
	o.bootstrap = in->flags & 2 ? 8 : 0;
	rc = tageval_agreement_compute(ann, &o, &ag, &err);
	fuzz_check_error(rc, format | FUZZ_BIT(TAGEVAL_EINVAL), &err, NULL, "agreement");
	if (rc == TAGEVAL_EINVAL && tageval_annotations_annotators(ann) >= 2)
		fuzz_fail("agreement: EINVAL with %zu annotators", tageval_annotations_annotators(ann));
	if (rc)
		goto out;
	*pooled = *tageval_agreement_pooled(ag);
	check_figures(pooled, "pooled");
	if (w)
		weighted_figures(ann, &in->part[in->n - 1], w);
	for (size_t i = 0; i < tageval_agreement_lexelts(ag); i++) {
		if (tageval_agreement_lexelt_name(ag, i) == NULL)
			fuzz_fail("lexelt %zu has no name", i);
		check_figures(tageval_agreement_lexelt(ag, i), tageval_agreement_lexelt_name(ag, i));
	}
	for (int c = TAGEVAL_KAPPA; c <= TAGEVAL_ALPHA; c++) {
		size_t used, left_out;
		double m = tageval_agreement_macro(ag, (enum tageval_coefficient)c, &used, &left_out);
		if (used + left_out != tageval_agreement_lexelts(ag) || (used > 0 && !isfinite(m)))
			fuzz_fail("macro %d: %g over %zu, %zu left out", c, m, used, left_out);
		double lo, hi;
		size_t reps;
		if (tageval_agreement_interval(ag, (enum tageval_coefficient)c, &lo, &hi, &reps) ==
			    TAGEVAL_OK &&
		    (!isfinite(lo) || !isfinite(hi) || lo > hi || reps > o.bootstrap))
			fuzz_fail("interval %d: [%.17g, %.17g] from %zu", c, lo, hi, reps);
	}
out:
	tageval_agreement_free(ag);
	tageval_annotations_free(ann);
	tageval_inventory_free(inv);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in, back;
	fuzz_split(data, size, size > 0 && (data[0] & 8) ? 6 : 5, &in);
	struct tageval_agreement_figures a, b;
	struct weighted wa, wb;
	int weights = (in.flags & 8) && in.n >= 2;
	if (compute(&in, &a, weights ? &wa : NULL) != TAGEVAL_OK)
		return 0;
	/* lines in any order: every file read backwards gives the same figures */
	char *buf[FUZZ_MAX_PARTS] = { NULL };
	back = in;
	for (size_t i = 0; i < in.n; i++)
		buf[i] = fuzz_reverse_lines(&in.part[i], &back.part[i]);
	if (compute(&back, &b, weights ? &wb : NULL) != TAGEVAL_OK)
		fuzz_fail("the files read backwards fail");
	if (weights) {
		/* the errors of a file read whole (a pair out of range, twice,
		 * missing) do not depend on the order; one of a line read may
		 * give way to another such line (too few fields, a bad distance) */
		if ((wa.rc == TAGEVAL_OK) != (wb.rc == TAGEVAL_OK))
			fuzz_fail("weights backwards: status %d, forwards %d", wb.rc, wa.rc);
		for (size_t i = 0; wa.rc == TAGEVAL_OK && i < 6; i++)
			if (!(fuzz_same(wa.fig[i], wb.fig[i]) ||
			      (isnan(wa.fig[i]) && isnan(wb.fig[i]))))
				fuzz_fail("weights backwards: figure %zu is %.17g, forwards %.17g",
					  i, wb.fig[i], wa.fig[i]);
		for (size_t i = 0; wa.rc == TAGEVAL_OK && i < 4; i++)
			if (wa.undefined[i] != wb.undefined[i])
				fuzz_fail("weights backwards: other undefined figures");
	}
	const double x[] = { a.pr_a, a.pr_e, a.kappa, a.pr_e_separate, a.kappa_separate,
			     a.d_o, a.d_e, a.alpha };
	const double y[] = { b.pr_a, b.pr_e, b.kappa, b.pr_e_separate, b.kappa_separate,
			     b.d_o, b.d_e, b.alpha };
	for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
		if (!(fuzz_same(x[i], y[i]) || (isnan(x[i]) && isnan(y[i]))))
			fuzz_fail("backwards: figure %zu is %.17g, forwards %.17g", i, y[i], x[i]);
	if (a.items != b.items || a.annotations != b.annotations || a.complete != b.complete ||
	    a.kappa_undefined != b.kappa_undefined || a.alpha_undefined != b.alpha_undefined ||
	    a.separate_undefined != b.separate_undefined)
		fuzz_fail("backwards: other counts or undefined figures");
	for (size_t i = 0; i < in.n; i++)
		free(buf[i]);
	return 0;
}
