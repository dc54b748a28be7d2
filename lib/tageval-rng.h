/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Random numbers without GSL's error handler (tageval-rng.c); not installed. */
#ifndef TAGEVAL_RNG_H
#define TAGEVAL_RNG_H

#include <gsl/gsl_rng.h>

/*
 * GSL's MT19937 seeded with @seed, allocated without gsl_rng_alloc so that
 * no failure reaches GSL's error handler; NULL when out of memory.  Freed
 * by tv_rng_free (NULL is fine), not gsl_rng_free.  With it the library
 * calls gsl_rng_uniform_int(r, n) only with 0 < n <= 2^32 - 1 and
 * gsl_ran_shuffle(r, base, n, size) only with n >= 2 (n = 0 reaches the
 * handler): both would otherwise report an error.
 */
gsl_rng *tv_rng_new(unsigned long seed);
void tv_rng_free(gsl_rng *r);

#endif
