/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The annotation reader and the agreement figures: a sense map (unless flat)
 * and two to four annotators' files.  Input: flags, then MAP, ANN1, ANN2,
 * ANN4.  Flags: bit 0 flat (no map: the files are ANN1 to ANN5), bit 1 a
 * bootstrap of 8 replicates, bit 2 the files in the long form (a line per
 * annotation: item annotator tags; hkappa --long).  Every file read
 * backwards must give the same pooled figures.
 */
#include <math.h>
#include <stdlib.h>

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

/* Reads the files of @in and computes the agreement: the status, and the
 * pooled figures in @pooled. */
static int compute(const struct fuzz_input *in, struct tageval_agreement_figures *pooled)
{
	static const char *const names[] = { "map", "ann1", "ann2", "ann3", "ann4", "ann5" };
	const unsigned format = FUZZ_BIT(TAGEVAL_EFORMAT);
	int flat = in->flags & 1;
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
	for (size_t i = first; i < in->n && rc == TAGEVAL_OK; i++) {
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
	if (!(in->flags & 4) && tageval_annotations_annotators(ann) != in->n - first)
		fuzz_fail("%zu annotators read from %zu files", tageval_annotations_annotators(ann),
			  in->n - first);
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
	for (size_t i = 0; i < tageval_agreement_lexelts(ag); i++) {
		if (tageval_agreement_lexelt_name(ag, i) == NULL)
			fuzz_fail("lexelt %zu has no name", i);
		check_figures(tageval_agreement_lexelt(ag, i), tageval_agreement_lexelt_name(ag, i));
	}
	for (int w = TAGEVAL_KAPPA; w <= TAGEVAL_ALPHA; w++) {
		size_t used, left_out;
		double m = tageval_agreement_macro(ag, (enum tageval_coefficient)w, &used, &left_out);
		if (used + left_out != tageval_agreement_lexelts(ag) || (used > 0 && !isfinite(m)))
			fuzz_fail("macro %d: %g over %zu, %zu left out", w, m, used, left_out);
		double lo, hi;
		size_t reps;
		if (tageval_agreement_interval(ag, (enum tageval_coefficient)w, &lo, &hi, &reps) ==
			    TAGEVAL_OK &&
		    (!isfinite(lo) || !isfinite(hi) || lo > hi || reps > o.bootstrap))
			fuzz_fail("interval %d: [%.17g, %.17g] from %zu", w, lo, hi, reps);
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
	fuzz_split(data, size, 5, &in);
	struct tageval_agreement_figures a, b;
	if (compute(&in, &a) != TAGEVAL_OK)
		return 0;
	/* lines in any order: every file read backwards gives the same figures */
	char *buf[FUZZ_MAX_PARTS] = { NULL };
	back = in;
	for (size_t i = 0; i < in.n; i++)
		buf[i] = fuzz_reverse_lines(&in.part[i], &back.part[i]);
	if (compute(&back, &b) != TAGEVAL_OK)
		fuzz_fail("the files read backwards fail");
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
