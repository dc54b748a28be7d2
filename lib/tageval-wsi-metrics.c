/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The metrics of one word's contingency table, given as its non-zero cells:
 * V-measure (Rosenberg & Hirschberg), the SemEval-2010 paired F-score and
 * the SemEval-2007 F-score, purity and entropy.  Each is a single pass over
 * the cells and the marginals.  The sums of logarithms are exact (tv_fsum):
 * the order of the cells, which follows the order of the input lines, does
 * not change a bit of the result (the counts are integers, summed exactly).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tageval-fsum.h"
#include "tageval-util.h"
#include "tageval-wsi-metrics.h"

static double xlogx_ratio(double a, double b)
{
	/* a/b * log(a/b), 0 for a = 0 */
	return a > 0.0 ? a / b * log(a / b) : 0.0;
}

static double pairs(double n)
{
	/* unordered pairs of a group of n, or the self pair of a singleton */
	return n == 1.0 ? 1.0 : n * (n - 1.0) / 2.0;
}

void tv_wsi_metrics_2010(const struct tv_cells *t, double beta, struct tageval_wsi_figures *f)
{
	double N = t->total;
	struct tv_fsum shc, shk, shck, shkc;
	tv_fsum_init(&shc);
	tv_fsum_init(&shk);
	tv_fsum_init(&shck);
	tv_fsum_init(&shkc);
	double cluster_pairs = 0.0, class_pairs = 0.0, common = 0.0;
	for (size_t c = 0; c < t->nclass; c++) {
		tv_fsum_add(&shc, -xlogx_ratio(t->class_n[c], N));
		class_pairs += pairs(t->class_n[c]);
	}
	for (size_t k = 0; k < t->ncluster; k++) {
		tv_fsum_add(&shk, -xlogx_ratio(t->cluster_n[k], N));
		cluster_pairs += pairs(t->cluster_n[k]);
	}
	for (size_t i = 0; i < t->ncell; i++) {
		double n = t->n[i];
		double nk = t->cluster_n[t->k[i]], nc = t->class_n[t->c[i]];
		tv_fsum_add(&shck, -(n / N * log(n / nk)));
		tv_fsum_add(&shkc, -(n / N * log(n / nc)));
		if (n == 1.0 && nk == 1.0 && nc == 1.0)
			common += 1.0; /* alone in its cluster and its class: the self pair */
		else
			common += n * (n - 1.0) / 2.0;
	}
	double hc = tv_fsum_result(&shc), hk = tv_fsum_result(&shk);
	double hck = tv_fsum_result(&shck), hkc = tv_fsum_result(&shkc);
	f->instances = (size_t)N;
	f->clusters = (double)t->ncluster;
	f->classes = (double)t->nclass;
	f->homogeneity = hc > 0.0 ? 1.0 - hck / hc : 1.0;
	f->completeness = hk > 0.0 ? 1.0 - hkc / hk : 1.0;
	double h = f->homogeneity, c = f->completeness;
	double den = beta * h + c;
	f->v_measure = den > 0.0 ? (1.0 + beta) * h * c / den : 0.0;
	f->paired_precision = cluster_pairs > 0.0 ? common / cluster_pairs : 0.0;
	f->paired_recall = class_pairs > 0.0 ? common / class_pairs : 0.0;
	double p = f->paired_precision, r = f->paired_recall;
	f->paired_fscore = p + r > 0.0 ? 2.0 * p * r / (p + r) : 0.0;
}

int tv_wsi_metrics_2007(const struct tv_cells *t, double *scratch, struct tageval_wsi_figures *f)
{
	/* scratch: nclass + 2 * ncluster doubles */
	double N = t->total;
	double *best_f = scratch;                      /* per class */
	double *best_n = scratch + t->nclass;          /* per cluster: largest cell */
	double *ent = scratch + t->nclass + t->ncluster; /* per cluster: sum p log p */
	memset(scratch, 0, (t->nclass + 2 * t->ncluster) * sizeof *scratch);
	for (size_t i = 0; i < t->ncell; i++) {
		double n = t->n[i];
		uint32_t k = t->k[i], c = t->c[i];
		double nk = t->cluster_n[k], nc = t->class_n[c];
		/* F = 2PR / (P + R) with P = n/nk, R = n/nc, i.e. 2n / (nk + nc) */
		double fij = 2.0 * n / (nk + nc);
		if (fij > best_f[c])
			best_f[c] = fij;
		if (n > best_n[k])
			best_n[k] = n;
	}
	/* ent[k], exact: the cells come grouped by cluster (see struct tv_cells);
	 * one or two terms need no accumulator, their sum is rounded once */
	struct tv_fsum acc;
	for (size_t i = 0; i < t->ncell;) {
		uint32_t k = t->k[i];
		double nk = t->cluster_n[k];
		size_t j = i;
		while (j < t->ncell && t->k[j] == k)
			j++;
		double a = t->n[i] / nk * log(t->n[i] / nk);
		if (j - i == 1) {
			ent[k] = a;
		} else if (j - i == 2) {
			ent[k] = a + t->n[i + 1] / nk * log(t->n[i + 1] / nk);
		} else {
			tv_fsum_init(&acc);
			for (size_t m = i; m < j; m++)
				tv_fsum_add(&acc, t->n[m] / nk * log(t->n[m] / nk));
			ent[k] = tv_fsum_result(&acc);
		}
		i = j;
	}
	struct tv_fsum fs, pur, en;
	tv_fsum_init(&fs);
	tv_fsum_init(&pur);
	tv_fsum_init(&en);
	double logq = log((double)t->nclass);
	for (size_t c = 0; c < t->nclass; c++)
		tv_fsum_add(&fs, t->class_n[c] / N * best_f[c]);
	for (size_t k = 0; k < t->ncluster; k++) {
		tv_fsum_add(&pur, best_n[k]);
		if (t->nclass > 1)
			tv_fsum_add(&en, t->cluster_n[k] / N * (-ent[k] / logq));
	}
	f->fscore = tv_fsum_result(&fs);
	/* (sum of the cluster maxima) / N: the sum exact, one rounding in the
	 * division, so that 13 of 16 gives the double nearest 0.8125 */
	f->purity = tv_fsum_result(&pur) / N;
	f->entropy = tv_fsum_result(&en);
	f->clusters_2007 = (double)t->ncluster;
	return TAGEVAL_OK;
}

int tageval_wsi_table_figures(const double *n, size_t nclusters, size_t nclasses, double beta,
			      struct tageval_wsi_figures *out)
{
	TV_NULL_RET(out, TAGEVAL_EINVAL);
	memset(out, 0, sizeof *out);
	if (n == NULL)
		return TAGEVAL_EINVAL;
	if (nclusters == 0 || nclasses == 0 || !(beta >= 0.0))
		return TAGEVAL_EINVAL;
	size_t cells = 0;
	double total = 0.0;
	for (size_t i = 0; i < nclusters * nclasses; i++) {
		if (!(n[i] >= 0.0) || !isfinite(n[i]))
			return TAGEVAL_EINVAL;
		cells += n[i] > 0.0;
		total += n[i];
	}
	if (total <= 0.0)
		return TAGEVAL_EINVAL;
	uint32_t *k = malloc((cells ? cells : 1) * sizeof *k);
	uint32_t *c = malloc((cells ? cells : 1) * sizeof *c);
	double *v = malloc((cells ? cells : 1) * sizeof *v);
	double *kn = calloc(nclusters, sizeof *kn);
	double *cn = calloc(nclasses, sizeof *cn);
	double *scratch = malloc((nclasses + 2 * nclusters) * sizeof *scratch);
	uint32_t *kmap = malloc(nclusters * sizeof *kmap);
	uint32_t *cmap = malloc(nclasses * sizeof *cmap);
	int rc = TAGEVAL_ENOMEM;
	if (!k || !c || !v || !kn || !cn || !scratch || !kmap || !cmap)
		goto out;
	/* empty rows and columns are no clusters or classes */
	for (size_t i = 0; i < nclusters; i++)
		for (size_t j = 0; j < nclasses; j++) {
			kn[i] += n[i * nclasses + j];
			cn[j] += n[i * nclasses + j];
		}
	size_t nk = 0, nc = 0;
	for (size_t i = 0; i < nclusters; i++) {
		kmap[i] = (uint32_t)nk;
		if (kn[i] > 0.0)
			kn[nk++] = kn[i];
	}
	for (size_t j = 0; j < nclasses; j++) {
		cmap[j] = (uint32_t)nc;
		if (cn[j] > 0.0)
			cn[nc++] = cn[j];
	}
	size_t m = 0;
	for (size_t i = 0; i < nclusters; i++)
		for (size_t j = 0; j < nclasses; j++)
			if (n[i * nclasses + j] > 0.0) {
				k[m] = kmap[i];
				c[m] = cmap[j];
				v[m] = n[i * nclasses + j];
				m++;
			}
	struct tv_cells t = { .ncell = m, .k = k, .c = c, .n = v, .ncluster = nk, .nclass = nc,
			      .cluster_n = kn, .class_n = cn, .total = total };
	tv_wsi_metrics_2010(&t, beta, out);
	tv_wsi_metrics_2007(&t, scratch, out);
	rc = TAGEVAL_OK;
out:
	free(k);
	free(c);
	free(v);
	free(kn);
	free(cn);
	free(scratch);
	free(kmap);
	free(cmap);
	return rc;
}
