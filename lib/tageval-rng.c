/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * GSL's MT19937 generator, allocated here rather than by gsl_rng_alloc:
 * gsl_rng_alloc reports an allocation failure through GSL's error handler,
 * whose default calls abort(), and the library must never call that
 * handler (tageval.h).  gsl_rng is a public struct of gsl_rng.h (the type
 * and its state); the state is type->size bytes, which type->set fills
 * entirely for any seed.  gsl_rng_set calls only type->set, which cannot
 * fail.
 */
#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "tageval-rng.h"

gsl_rng *tv_rng_new(unsigned long seed)
{
	const gsl_rng_type *type = gsl_rng_mt19937;
	gsl_rng *r = malloc(sizeof *r);
	void *state = calloc(1, type->size);
	if (r == NULL || state == NULL) {
		free(r);
		free(state);
		return NULL;
	}
	r->type = type;
	r->state = state;
	gsl_rng_set(r, seed);
	return r;
}

void tv_rng_free(gsl_rng *r)
{
	if (r == NULL)
		return;
	free(r->state);
	free(r);
}
