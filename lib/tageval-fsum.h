/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Exactly rounded sums (tageval-fsum.c); not installed. */
#ifndef TAGEVAL_FSUM_H
#define TAGEVAL_FSUM_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------ exact sums */

/*
 * An exactly rounded sum (as Python's math.fsum), whatever the order of
 * the terms: see tageval-fsum.c.  568 bytes; emptied by tv_fsum_init (or
 * by calloc / memset).  A NaN or infinite term makes the result NaN.
 */
#define TV_FSUM_CHUNKS 67
#define TV_FSUM_LAZY (1u << 29)

struct tv_fsum {
	/* while !chunked, the exact sum is head + tail (two doubles), the
	 * chunks unused (not even zeroed): see tv_twosum_step */
	double head, tail;
	uint8_t chunked;
	uint8_t nonfinite;
	/* the chunks outside [TV_FSUM_CHUNKS - nlo, hi) are 0 (none used), so
	 * that carries and results walk only the chunks in use */
	uint8_t nlo, hi;
	uint32_t pending;
	int64_t ints;       /* the integer terms of magnitude <= 2^31, apart: cheap */
	int64_t c[TV_FSUM_CHUNKS];
};

/* The rounding error of a + b, whose rounded sum is @s, exactly (Dekker's
 * Fast2Sum, the larger of the two first; barring overflow, which gives a
 * non-finite number). */
static inline double tv_sum_error(double a, double b, double s)
{
	int a_big = __builtin_fabs(a) >= __builtin_fabs(b);
	double big = a_big ? a : b, small = a_big ? b : a;
	return small - (s - big);
}

/*
 * Adds @x to the exact sum *@head + *@tail, keeping it exact as two
 * doubles: 1, or 0 when that would round (then nothing is changed).  The
 * rounding error e of head + x is exact (tv_sum_error; an overflow shows as
 * a non-finite number and is refused); e is added to the tail the same way,
 * and the step is refused unless that addition is exact.  The sum rounded
 * once is then head + tail, a single rounding of the exact sum: the bits
 * tv_fsum_result gives.
 */
static inline int tv_twosum_step(double *head, double *tail, double x)
{
	double h = *head, t = h + x;
	double e = tv_sum_error(h, x, t);
	double l = *tail, u = l + e;
	double e2 = tv_sum_error(l, e, u);
	if (e2 != 0.0 || t - t != 0.0)
		return 0;
	*head = t;
	*tail = u;
	return 1;
}

void tv_fsum_init(struct tv_fsum *f);
/* tv_fsum_add once the sum is in its chunks, or for a term that would round. */
void tv_fsum_add_chunks(struct tv_fsum *f, double x);
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

static inline void tv_fsum_add(struct tv_fsum *f, double x)
{
	if (!f->chunked && tv_twosum_step(&f->head, &f->tail, x))
		return;
	tv_fsum_add_chunks(f, x);
}

/* ------------------------------------------------------------ counted sums */

/*
 * Terms of an exact sum counted before they are added: a few values (one
 * per slot, chosen by the value's bits) each with how many times it came,
 * added to the tv_fsum as value x count, exactly (the product and its
 * rounding error, tv_csum_flush), when another value takes its slot and by
 * tv_csum_flush before the sum is read.  A sum over items whose terms take
 * a few values (counts of agreeing pairs over a few annotators) then costs
 * a compare and an increment per term; the exact sum, hence its result, is
 * the same.  Zeroed (memset or = {0}): empty.
 */
#define TV_CSUM_SLOTS 8

struct tv_csum {
	uint64_t bits[TV_CSUM_SLOTS]; /* the value's bits */
	uint64_t n[TV_CSUM_SLOTS];    /* its count, 0: the slot is empty */
};

/* Adds value @x taken @n times to @f, exactly. */
void tv_fsum_add_times(struct tv_fsum *f, double x, uint64_t n);
/* Adds every counted term of @c to @f and empties @c. */
void tv_csum_flush(struct tv_csum *c, struct tv_fsum *f);

/* Adds @x to the sum @f through @c. */
static inline void tv_csum_add(struct tv_csum *c, struct tv_fsum *f, double x)
{
	uint64_t b;
	__builtin_memcpy(&b, &x, sizeof b);
	unsigned s = (unsigned)((b * UINT64_C(0x9e3779b97f4a7c15)) >> 61);
	if (c->n[s] != 0 && c->bits[s] == b) {
		c->n[s]++;
		return;
	}
	if (c->n[s] != 0) {
		double v;
		__builtin_memcpy(&v, &c->bits[s], sizeof v);
		tv_fsum_add_times(f, v, c->n[s]);
	}
	c->bits[s] = b;
	c->n[s] = 1;
}

/* ------------------------------------------------------------ lazy sums */

/*
 * A sum of many terms kept as two doubles while they hold it exactly
 * (tv_twosum_step: counts, masses, ...), so that a sum per tag costs 24 bytes;
 * at its first rounding it moves into a struct tv_fsum of a pool, and its
 * result is the same bits as a tv_fsum of the same terms would give.
 * Zeroed: the empty sum.  The pool's sums are addressed by index (the pool
 * grows), and a pool is cleared or freed with its sums.
 */
struct tv_lsum {
	double head, tail; /* the exact sum while big == 0 (tv_twosum_step) */
	uint32_t big;      /* 0, or 1 + the index of its tv_fsum in the pool */
	uint32_t ones;     /* the terms equal to 1 given to tv_lsum_add_counted,
			    * counted apart (an increment): part of the sum */
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
	if (tv_twosum_step(&s->head, &s->tail, x))
		return 0;
	return tv_lsum_spill(s, pool, x);
}

/* tv_lsum_add for sums of many terms equal to 1 (counts): those are
 * counted apart, an increment each (the same sum, the same result). */
static inline int tv_lsum_add_counted(struct tv_lsum *s, struct tv_fsum_pool *pool, double x)
{
	if (x == 1.0 && s->ones < UINT32_MAX) {
		s->ones++;
		return 0;
	}
	return tv_lsum_add(s, pool, x);
}

/* Adds the terms of @t (in @tpool) to @s (in @pool): -1 out of memory (then
 * @s may hold part of @t: the caller gives up the sum). */
int tv_lsum_add_lsum(struct tv_lsum *s, struct tv_fsum_pool *pool, const struct tv_lsum *t,
		     const struct tv_fsum_pool *tpool);
/* The sum rounded to nearest, ties to even (tv_fsum_result). */
double tv_lsum_result(const struct tv_lsum *s, const struct tv_fsum_pool *pool);
/* Forgets the pool's sums (the lazy sums that used them must be zeroed). */
void tv_fsum_pool_clear(struct tv_fsum_pool *pool);
void tv_fsum_pool_free(struct tv_fsum_pool *pool);

#endif
