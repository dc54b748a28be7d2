/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The metrics of one contingency table given as its non-zero cells. */
#ifndef TAGEVAL_WSI_METRICS_H
#define TAGEVAL_WSI_METRICS_H

#include "tageval-util.h"

struct tv_cells {
	size_t ncell;
	const uint32_t *k, *c;    /* cluster and class of each cell (dense indices); the cells
				   * of a cluster are next to one another */
	const double *n;          /* its count, > 0 */
	size_t ncluster, nclass;
	const double *cluster_n;  /* marginals */
	const double *class_n;
	double total;
};

/* Homogeneity, completeness, V (beta), paired P/R/F, clusters, classes. */
void tv_wsi_metrics_2010(const struct tv_cells *t, double beta, struct tageval_wsi_figures *f);
/* F-score, purity, entropy, clusters_2007; @scratch: nclass + 2 ncluster doubles. */
int tv_wsi_metrics_2007(const struct tv_cells *t, double *scratch, struct tageval_wsi_figures *f);

#endif
