/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sense entropy (spec 002, "Entropy measures"). */
#include <math.h>

#include "tageval-fsum.h"
#include "tageval.h"

/* The sums are exact (tv_fsum): the order of the weights does not matter. */
double tageval_entropy(const double *w, size_t n)
{
	if (w == NULL && n > 0)
		return NAN;
	struct tv_fsum f;
	tv_fsum_init(&f);
	for (size_t i = 0; i < n; i++) {
		if (!(w[i] >= 0.0) || !isfinite(w[i]))
			return NAN;
		tv_fsum_add(&f, w[i]);
	}
	double sum = tv_fsum_result(&f);
	if (!(sum > 0.0) || !isfinite(sum))
		return sum == 0.0 ? 0.0 : NAN;
	tv_fsum_init(&f);
	for (size_t i = 0; i < n; i++) {
		if (w[i] == 0.0)
			continue;
		double p = w[i] / sum;
		tv_fsum_add(&f, -p * log2(p));
	}
	double h = tv_fsum_result(&f);
	/* one tag: exactly 0, never -0 */
	return h > 0.0 ? h : 0.0;
}
