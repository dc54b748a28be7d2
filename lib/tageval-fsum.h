/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Exactly rounded sums (tageval-fsum.c); not installed. */
#ifndef TAGEVAL_FSUM_H
#define TAGEVAL_FSUM_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------ exact sums */

/*
 * An exactly rounded sum (as Python's math.fsum), whatever the order of
 * the terms: see tageval-fsum.c.  552 bytes; zeroed by tv_fsum_init (or
 * by calloc / memset).  A NaN or infinite term makes the result NaN.
 */
#define TV_FSUM_CHUNKS 67
#define TV_FSUM_LAZY (1u << 29)

struct tv_fsum {
	int64_t c[TV_FSUM_CHUNKS];
	int64_t ints;       /* the integer terms of magnitude <= 2^31, apart: cheap */
	uint32_t pending;
	uint8_t nonfinite;
	/* the chunks outside [TV_FSUM_CHUNKS - nlo, hi) are 0 (zeroed: none used),
	 * so that carries and results walk only the chunks in use */
	uint8_t nlo, hi;
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

/* ------------------------------------------------------------ lazy sums */

/*
 * A sum of many terms kept as a plain double while every partial sum is
 * exact (a count, masses of 1/2, ...), so that a sum per tag costs 16 bytes;
 * at its first rounding it moves into a struct tv_fsum of a pool, and its
 * result is the same bits as a tv_fsum of the same terms would give.
 * Zeroed: the empty sum.  The pool's sums are addressed by index (the pool
 * grows), and a pool is cleared or freed with its sums.
 */
struct tv_lsum {
	double v;     /* the exact sum while big == 0 */
	uint32_t big; /* 0, or 1 + the index of its tv_fsum in the pool */
};

struct tv_fsum_pool {
	struct tv_fsum *f;
	size_t n, cap;
};

/* Moves @s into a new sum of @pool, then adds @x: -1 out of memory. */
int tv_lsum_spill(struct tv_lsum *s, struct tv_fsum_pool *pool, double x);

/* Adds @x to @s: 0, or -1 out of memory (then @s is unchanged). */
static inline int tv_lsum_add(struct tv_lsum *s, struct tv_fsum_pool *pool, double x)
{
	if (s->big) {
		tv_fsum_add(&pool->f[s->big - 1], x);
		return 0;
	}
	/* Knuth's TwoSum: the rounding error of v + x, exactly (no overflow) */
	double t = s->v + x, xv = t - s->v;
	double e = (s->v - (t - xv)) + (x - xv);
	if (e == 0.0 && t - t == 0.0) {
		s->v = t;
		return 0;
	}
	return tv_lsum_spill(s, pool, x);
}

/* Adds the terms of @t (in @tpool) to @s (in @pool): -1 out of memory. */
int tv_lsum_add_lsum(struct tv_lsum *s, struct tv_fsum_pool *pool, const struct tv_lsum *t,
		     const struct tv_fsum_pool *tpool);
/* The sum rounded to nearest, ties to even (tv_fsum_result). */
double tv_lsum_result(const struct tv_lsum *s, const struct tv_fsum_pool *pool);
/* Forgets the pool's sums (the lazy sums that used them must be zeroed). */
void tv_fsum_pool_clear(struct tv_fsum_pool *pool);
void tv_fsum_pool_free(struct tv_fsum_pool *pool);

#endif
