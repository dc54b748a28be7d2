/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sense entropy (spec 002, "Entropy measures"). */
#include <math.h>

#include "tageval-private.h"

double tageval_entropy(const double *w, size_t n)
{
	if (w == NULL && n > 0)
		return NAN;
	double sum = 0.0;
	for (size_t i = 0; i < n; i++) {
		if (!(w[i] >= 0.0) || !isfinite(w[i]))
			return NAN;
		sum += w[i];
	}
	if (!(sum > 0.0) || !isfinite(sum))
		return sum == 0.0 ? 0.0 : NAN;
	double h = 0.0;
	for (size_t i = 0; i < n; i++) {
		if (w[i] == 0.0)
			continue;
		double p = w[i] / sum;
		h -= p * log2(p);
	}
	/* one tag: exactly 0, never -0 */
	return h > 0.0 ? h : 0.0;
}
