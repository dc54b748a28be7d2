/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The WSI gold-key and cluster readers and the unsupervised figures.
 * Input: flags, then GOLD, CLUSTERS.  Flags: bits 0-1 the part of speech
 * (all, "n", "v", "all"), bits 2-3 beta (1, 0, 0.5, 3).
 */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const pos[] = { NULL, "n", "v", "all" };
	static const double beta[] = { 1.0, 0.0, 0.5, 3.0 };
	const unsigned format = FUZZ_BIT(TAGEVAL_EFORMAT);
	struct fuzz_input in;
	fuzz_split(data, size, 2, &in);
	struct tageval_error err;
	struct tageval_wsi *wsi = tageval_wsi_new();
	struct tageval_wsi_result *res = NULL;
	if (wsi == NULL)
		abort();
	int rc = tageval_wsi_read_gold_buffer(wsi, in.part[0].data, in.part[0].size, "gold", &err);
	fuzz_check_error(rc, format, &err, &in.part[0], "gold");
	if (rc || in.n < 2)
		goto out;
	rc = tageval_wsi_read_clusters_buffer(wsi, in.part[1].data, in.part[1].size, "clusters",
					      &err);
	fuzz_check_error(rc, format, &err, &in.part[1], "clusters");
	if (rc)
		goto out;
	struct tageval_wsi_options o;
	tageval_wsi_options_init(&o);
	o.pos = pos[in.flags & 3];
	o.beta = beta[(in.flags >> 2) & 3];
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
	const struct tageval_wsi_figures *t = tageval_wsi_result_total(res);
	check_figures(t, "total");
	if (t->instances != total || total > tageval_wsi_instances(wsi))
		fuzz_fail("total: %zu instances, %zu over the words, %zu in the key", t->instances,
			  total, tageval_wsi_instances(wsi));
out:
	tageval_wsi_result_free(res);
	tageval_wsi_free(wsi);
	return 0;
}
