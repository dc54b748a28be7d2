/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The WSI readers and the clustering metrics (bcubed, nmi, ari), graded or
 * crisp.  Input: flags, then GOLD, CLUSTERS.  Flags: bits 0-1 the part of
 * speech (all, "n", "v", "all"), bits 2-3 the mode (auto, crisp, fuzzy,
 * auto), bits 4-6 the normalizer (default, arithmetic, geometric, min,
 * max, default...).  The figures must lie in their ranges, and both files
 * read backwards must give the same totals to the bit (issue 17).
 */
#include <math.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int nan_or_in(double x, double lo, double hi)
{
	return isnan(x) || fuzz_in_range(x, lo, hi);
}

static void check_figures(const struct tageval_clustering_figures *f, int fuzzy,
			  const char *what)
{
	if (!fuzz_in_range(f->bcubed_precision, 0.0, 1.0) ||
	    !fuzz_in_range(f->bcubed_recall, 0.0, 1.0) || !fuzz_in_range(f->bcubed_fscore, 0.0, 1.0))
		fuzz_fail("%s: B-cubed %g %g %g", what, f->bcubed_precision, f->bcubed_recall,
			  f->bcubed_fscore);
	if (!nan_or_in(f->nmi, 0.0, fuzzy ? 1e300 : 1.0) || !nan_or_in(f->ami, -1e300, 1e300))
		fuzz_fail("%s: NMI %g, AMI %g", what, f->nmi, f->ami);
	if (!fuzzy && (!fuzz_in_range(f->ari, -1.0, 1.0) || !fuzz_in_range(f->rand, 0.0, 1.0) ||
		       !fuzz_in_range(f->fowlkes_mallows, 0.0, 1.0) || isnan(f->nmi)))
		fuzz_fail("%s: ARI %g, Rand %g, FM %g, NMI %g", what, f->ari, f->rand,
			  f->fowlkes_mallows, f->nmi);
}

/* The figures compared to the bit (NaN equal to NaN). */
static int same(const struct tageval_clustering_figures *a,
		const struct tageval_clustering_figures *b)
{
	const double x[] = { a->ari, a->rand, a->fowlkes_mallows, a->nmi, a->ami,
			     a->bcubed_precision, a->bcubed_recall, a->bcubed_fscore };
	const double y[] = { b->ari, b->rand, b->fowlkes_mallows, b->nmi, b->ami,
			     b->bcubed_precision, b->bcubed_recall, b->bcubed_fscore };
	for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
		if (!(isnan(x[i]) && isnan(y[i])) && memcmp(&x[i], &y[i], sizeof x[i]) != 0)
			return 0;
	return a->instances == b->instances;
}

struct totals {
	struct tageval_clustering_figures total, pooled;
	int fuzzy;
};

/* Reads @gold and @clusters and evaluates them; the status, and the totals in @t. */
static int evaluate(const struct fuzz_input *in, const struct fuzz_part *gold,
		    const struct fuzz_part *clusters, struct totals *t, struct tageval_error *errp)
{
	static const char *const pos[] = { NULL, "n", "v", "all" };
	static const enum tageval_clustering_mode mode[] = {
		TAGEVAL_CLUSTERING_AUTO, TAGEVAL_CLUSTERING_CRISP, TAGEVAL_CLUSTERING_FUZZY,
		TAGEVAL_CLUSTERING_AUTO
	};
	const unsigned format = FUZZ_BIT(TAGEVAL_EFORMAT);
	struct tageval_error err = { 0 };
	struct tageval_wsi *wsi = tageval_wsi_new();
	struct tageval_clustering_result *res = NULL;
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
	struct tageval_clustering_options o;
	tageval_clustering_options_init(&o);
	o.pos = pos[in->flags & 3];
	o.mode = mode[(in->flags >> 2) & 3];
	unsigned nz = (in->flags >> 4) & 7;
	o.normalizer = (enum tageval_normalizer)(nz <= TAGEVAL_NORMALIZER_MAX ? nz : 0);
	rc = tageval_clustering_evaluate(wsi, &o, &res, &err);
	fuzz_check_error(rc, format, &err, NULL, "evaluate");
	if (rc)
		goto out;
	t->fuzzy = tageval_clustering_result_fuzzy(res);
	size_t total = 0;
	for (size_t i = 0; i < tageval_clustering_result_words(res); i++) {
		const struct tageval_clustering_figures *f = tageval_clustering_result_figures(res, i);
		check_figures(f, t->fuzzy, tageval_clustering_result_word(res, i));
		total += f->instances;
	}
	t->total = *tageval_clustering_result_total(res);
	check_figures(&t->total, t->fuzzy, "total");
	if (t->total.instances != total)
		fuzz_fail("total: %zu instances, %zu over the words", t->total.instances, total);
	const struct tageval_clustering_figures *p = tageval_clustering_result_pooled(res);
	if ((p == NULL) != t->fuzzy)
		fuzz_fail("pooled figures %s in %s mode", p ? "given" : "missing",
			  t->fuzzy ? "fuzzy" : "crisp");
	if (p) {
		check_figures(p, 0, "pooled");
		t->pooled = *p;
	} else {
		memset(&t->pooled, 0, sizeof t->pooled);
	}
out:
	tageval_clustering_result_free(res);
	tageval_wsi_free(wsi);
	*errp = err;
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in;
	fuzz_split(data, size, 2, &in);
	struct totals a, b;
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
	if (!same(&a.total, &b.total) || !same(&a.pooled, &b.pooled) || a.fuzzy != b.fuzzy)
		fuzz_fail("backwards: totals differ (NMI %.17g, forwards %.17g; B-cubed P %.17g, "
			  "forwards %.17g)",
			  b.total.nmi, a.total.nmi, b.total.bcubed_precision,
			  a.total.bcubed_precision);
	free(g);
	free(c);
	return 0;
}
