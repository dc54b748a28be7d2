/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The WSI gold-key and cluster readers and the unsupervised figures.
 * Input: flags, then GOLD, CLUSTERS.  Flags: bits 0-1 the part of speech
 * (all, "n", "v", "all"), bits 2-3 beta (1, 0, 0.5, 3).  Both files read
 * backwards must give the same totals.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_figures(const struct tageval_wsi_figures *f, const char *what)
{
	const double unit[] = { f->homogeneity, f->completeness, f->v_measure,
				f->paired_precision, f->paired_recall, f->paired_fscore,
				f->fscore, f->purity };
	for (size_t i = 0; i < sizeof unit / sizeof unit[0]; i++)
		if (!fuzz_in_range(unit[i], 0.0, 1.0))
			fuzz_fail("%s: figure %zu is %g", what, i, unit[i]);
	if (!fuzz_in_range(f->entropy, 0.0, 1e300) || !fuzz_in_range(f->clusters, 0.0, 1e300) ||
	    !fuzz_in_range(f->clusters_2007, 0.0, 1e300) || !fuzz_in_range(f->classes, 0.0, 1e300))
		fuzz_fail("%s: entropy %g, clusters %g, %g, classes %g", what, f->entropy,
			  f->clusters, f->clusters_2007, f->classes);
}

/* Reads @gold and @clusters and evaluates them; the status, and the totals in @t. */
static int evaluate(const struct fuzz_input *in, const struct fuzz_part *gold,
		    const struct fuzz_part *clusters, struct tageval_wsi_figures *t,
		    struct tageval_error *errp)
{
	static const char *const pos[] = { NULL, "n", "v", "all" };
	static const double beta[] = { 1.0, 0.0, 0.5, 3.0 };
	const unsigned format = FUZZ_BIT(TAGEVAL_EFORMAT);
	struct tageval_error err = { 0 };
	struct tageval_wsi *wsi = tageval_wsi_new();
	struct tageval_wsi_result *res = NULL;
	if (wsi == NULL)
		abort();
	int rc = tageval_wsi_read_gold_buffer(wsi, gold->data, gold->size, "gold", &err);
	fuzz_check_error(rc, format, &err, gold, "gold");
	if (rc)
		goto out;
	rc = tageval_wsi_read_clusters_buffer(wsi, clusters->data, clusters->size, "clusters",
					      &err);
	fuzz_check_error(rc, format, &err, clusters, "clusters");
	if (rc)
		goto out;
	struct tageval_wsi_options o;
	tageval_wsi_options_init(&o);
	o.pos = pos[in->flags & 3];
	o.beta = beta[(in->flags >> 2) & 3];
	rc = tageval_wsi_evaluate(wsi, &o, &res, &err);
	fuzz_check_error(rc, format, &err, NULL, "evaluate");
	if (rc)
		goto out;
	size_t total = 0;
	for (size_t i = 0; i < tageval_wsi_result_words(res); i++) {
		const struct tageval_wsi_figures *f = tageval_wsi_result_figures(res, i);
		check_figures(f, tageval_wsi_result_word(res, i));
		total += f->instances;
	}
	*t = *tageval_wsi_result_total(res);
	check_figures(t, "total");
	if (t->instances != total || total > tageval_wsi_instances(wsi))
		fuzz_fail("total: %zu instances, %zu over the words, %zu in the key", t->instances,
			  total, tageval_wsi_instances(wsi));
out:
	tageval_wsi_result_free(res);
	tageval_wsi_free(wsi);
	*errp = err;
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in;
	fuzz_split(data, size, 2, &in);
	struct tageval_wsi_figures a, b;
	struct tageval_error err;
	if (in.n < 2) {
		struct fuzz_part none = { "", 0 };
		evaluate(&in, &in.part[0], &none, &a, &err);
		return 0;
	}
	if (evaluate(&in, &in.part[0], &in.part[1], &a, &err) != TAGEVAL_OK)
		return 0;
	/* lines in any order: both files read backwards give the same totals */
	struct fuzz_part rg, rc;
	char *g = fuzz_reverse_lines(&in.part[0], &rg), *c = fuzz_reverse_lines(&in.part[1], &rc);
	if (evaluate(&in, &rg, &rc, &b, &err) != TAGEVAL_OK)
		fuzz_fail("the files read backwards fail: %s:%" PRIu64 ": %s", err.file, err.line,
			  err.message);
	const double x[] = { a.clusters, a.clusters_2007, a.classes, a.homogeneity,
			     a.completeness, a.v_measure, a.paired_precision, a.paired_recall,
			     a.paired_fscore, a.fscore, a.purity, a.entropy };
	const double y[] = { b.clusters, b.clusters_2007, b.classes, b.homogeneity,
			     b.completeness, b.v_measure, b.paired_precision, b.paired_recall,
			     b.paired_fscore, b.fscore, b.purity, b.entropy };
	for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
		if (!fuzz_same(x[i], y[i]) || a.instances != b.instances)
			fuzz_fail("backwards: figure %zu is %.17g, forwards %.17g", i, y[i], x[i]);
	free(g);
	free(c);
	return 0;
}
