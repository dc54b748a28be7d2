/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Exactly rounded sums (tageval-fsum.c); not installed. */
#ifndef TAGEVAL_FSUM_H
#define TAGEVAL_FSUM_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------ exact sums */

/*
 * An exactly rounded sum (as Python's math.fsum), whatever the order of
 * the terms: see tageval-fsum.c.  536 bytes; zeroed by tv_fsum_init (or
 * by calloc / memset).  A NaN or infinite term makes the result NaN.
 */
#define TV_FSUM_CHUNKS 67
#define TV_FSUM_LAZY (1u << 29)

struct tv_fsum {
	int64_t c[TV_FSUM_CHUNKS];
	int64_t ints;       /* the integer terms of magnitude <= 2^31, apart: cheap */
	uint32_t pending;
	uint32_t nonfinite;
};

void tv_fsum_init(struct tv_fsum *f);
void tv_fsum_add(struct tv_fsum *f, double x);
/* Adds the terms of @g to @f. */
void tv_fsum_add_fsum(struct tv_fsum *f, const struct tv_fsum *g);
/* Propagates the pending carries (done by tv_fsum_add when needed). */
void tv_fsum_carry(struct tv_fsum *f);
/* The sum rounded to nearest, ties to even. */
double tv_fsum_result(const struct tv_fsum *f);
/* The exactly rounded sum of @x[0..n). */
double tv_fsum_array(const double *x, size_t n);
/* The sign (-1, 0, 1) of the exact sum of @t[0..n): a cheap filter, else tv_fsum_array. */
int tv_fsum_sign(const double *t, size_t n);

#endif
