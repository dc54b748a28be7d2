/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Exactly rounded sums (as Python's math.fsum), so that a total does not
 * depend on the order of its terms.
 *
 * A finite double is m * 2^(p - 1074) with m < 2^53 an integer and
 * 0 <= p <= 2045 (p = biased exponent - 1, or 0 for subnormals).  The
 * accumulator is that fixed-point number, 2^-1074 being its unit, kept in
 * 32-bit digits of base 2^32 stored in signed 64-bit chunks: an add puts
 * m << (p % 32) into chunks p / 32 .. p / 32 + 2, each receiving less
 * than 2^32, and the carries are propagated only every TV_FSUM_LAZY adds
 * (a chunk then holds less than 2^33 * 2^29 = 2^62 in magnitude), and when
 * the result is read.  No term is ever rounded, so the sum is the exact
 * sum of the terms, rounded once (to nearest, ties to even) when read.
 * An add costs a few integer operations, whatever the terms; a zero costs
 * nothing, and an integer term of magnitude up to 2^31 (a count, a score of
 * 0 or 1) goes to a plain 64-bit integer (|ints| < 2^31 * 2^29 = 2^60
 * between carries), which joins the chunks at each carry.
 *
 * Before all that, a sum is kept as two doubles, head + tail, as long as
 * they hold it exactly (tv_twosum_step in tageval-fsum.h): counts, masses
 * and most sums of a few terms never leave them, and their result is one
 * addition.  The first term that would round moves the sum into the chunks
 * (to_chunks), which an empty sum does not even zero before that.  Carries
 * and results walk only the chunks in use ([TV_FSUM_CHUNKS - nlo, hi)).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tageval-fsum.h"

#define MASK32 UINT64_C(0xffffffff)
#define BASE 4294967296.0

void tv_fsum_init(struct tv_fsum *f)
{
	/* the chunks are zeroed when first used (to_chunks) */
	f->head = f->tail = 0.0;
	f->chunked = f->nonfinite = f->nlo = f->hi = 0;
	f->pending = 0;
	f->ints = 0;
}

/* Propagates the carries of chunks [lo, top): each in [0, 2^32), the carry
 * out of them into chunk @top, which keeps the sign. */
static void normalize(int64_t *c, size_t lo, size_t top)
{
	for (size_t i = lo; i < top; i++) {
		int64_t low = (int64_t)((uint64_t)c[i] & MASK32);
		c[i + 1] += (c[i] - low) / (int64_t)4294967296;
		c[i] = low;
	}
}

/* The chunks in use [*lo, *hi) of @f, its integer terms included. */
static void range_of(const struct tv_fsum *f, size_t *lo, size_t *hi)
{
	*lo = TV_FSUM_CHUNKS - (size_t)f->nlo;
	*hi = f->hi;
	if (f->ints != 0) {
		if (*lo > 33)
			*lo = 33;
		if (*hi < 36)
			*hi = 36;
	}
}

/* The chunk that takes the carry out of chunks [lo, hi): the one above them. */
static size_t top_of(size_t hi)
{
	return hi < TV_FSUM_CHUNKS ? hi : TV_FSUM_CHUNKS - 1;
}

static void set_range(struct tv_fsum *f, size_t lo, size_t hi)
{
	f->nlo = (uint8_t)(TV_FSUM_CHUNKS - lo);
	f->hi = (uint8_t)hi;
}

/* Adds the integer @v (|v| < 2^63) to the chunks: 1 is bit 1074, i.e.
 * bit 18 of chunk 33. */
static void add_int(int64_t *c, int64_t v)
{
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	uint64_t lo = (u & MASK32) << 18; /* < 2^50 */
	uint64_t hi = (u >> 32) << 18;    /* < 2^50 */
	int64_t d0 = (int64_t)(lo & MASK32);
	int64_t d1 = (int64_t)(lo >> 32) + (int64_t)(hi & MASK32);
	int64_t d2 = (int64_t)(hi >> 32);
	if (v < 0) {
		c[33] -= d0;
		c[34] -= d1;
		c[35] -= d2;
	} else {
		c[33] += d0;
		c[34] += d1;
		c[35] += d2;
	}
}

static void chunk_add(struct tv_fsum *f, double x);

/* From two doubles to the chunks: from now on every term goes there. */
static void to_chunks(struct tv_fsum *f)
{
	double h = f->head, t = f->tail;
	memset(f->c, 0, sizeof f->c);
	f->head = f->tail = 0.0;
	f->chunked = 1;
	chunk_add(f, h);
	chunk_add(f, t);
}

void tv_fsum_carry(struct tv_fsum *f)
{
	if (!f->chunked)
		return;
	size_t lo, hi;
	range_of(f, &lo, &hi);
	f->pending = 0;
	if (lo >= hi)
		return;
	add_int(f->c, f->ints);
	f->ints = 0;
	size_t top = top_of(hi);
	normalize(f->c, lo, top);
	set_range(f, lo, top + 1);
}

void tv_fsum_add_chunks(struct tv_fsum *f, double x)
{
	if (!f->chunked)
		to_chunks(f);
	chunk_add(f, x);
}

static void chunk_add(struct tv_fsum *f, double x)
{
	if (x == 0.0)
		return;
	if (x >= -0x1p31 && x <= 0x1p31 && x == (double)(int64_t)x) {
		f->ints += (int64_t)x;
		if (++f->pending >= TV_FSUM_LAZY)
			tv_fsum_carry(f);
		return;
	}
	uint64_t bits;
	memcpy(&bits, &x, sizeof bits);
	unsigned e = (unsigned)(bits >> 52) & 0x7ffu;
	if (e == 0x7ffu) {
		f->nonfinite = 1;
		return;
	}
	uint64_t m = bits & ((UINT64_C(1) << 52) - 1);
	unsigned p = 0;
	if (e != 0) {
		m |= UINT64_C(1) << 52;
		p = e - 1;
	}
	unsigned i = p >> 5, sh = p & 31u;
	/* chunks i .. i + 2 (i <= 63) join the range in use */
	if (TV_FSUM_CHUNKS - i > f->nlo)
		f->nlo = (uint8_t)(TV_FSUM_CHUNKS - i);
	if (i + 3 > f->hi)
		f->hi = (uint8_t)(i + 3);
	uint64_t lo = (m & MASK32) << sh; /* < 2^63 */
	uint64_t hi = (m >> 32) << sh;    /* < 2^52 */
	int64_t d0 = (int64_t)(lo & MASK32);
	int64_t d1 = (int64_t)(lo >> 32) + (int64_t)(hi & MASK32);
	int64_t d2 = (int64_t)(hi >> 32);
	if (bits >> 63) {
		f->c[i] -= d0;
		f->c[i + 1] -= d1;
		f->c[i + 2] -= d2;
	} else {
		f->c[i] += d0;
		f->c[i + 1] += d1;
		f->c[i + 2] += d2;
	}
	if (++f->pending >= TV_FSUM_LAZY)
		tv_fsum_carry(f);
}

void tv_fsum_add_fsum(struct tv_fsum *f, const struct tv_fsum *g)
{
	if (!g->chunked) {
		tv_fsum_add(f, g->head);
		tv_fsum_add(f, g->tail);
		return;
	}
	if (!f->chunked)
		to_chunks(f);
	tv_fsum_carry(f);
	f->nonfinite |= g->nonfinite;
	size_t lo, hi;
	range_of(g, &lo, &hi);
	if (lo >= hi)
		return;
	size_t top = top_of(hi);
	int64_t c[TV_FSUM_CHUNKS];
	memcpy(c + lo, g->c + lo, (hi - lo) * sizeof *c);
	if (top >= hi)
		c[top] = 0;
	add_int(c, g->ints);
	normalize(c, lo, top);
	for (size_t i = lo; i <= top; i++)
		f->c[i] += c[i];
	size_t flo, fhi;
	range_of(f, &flo, &fhi);
	if (flo >= fhi) {
		flo = lo;
		fhi = top + 1;
	}
	set_range(f, lo < flo ? lo : flo, top + 1 > fhi ? top + 1 : fhi);
	f->pending = 1;
}

/* Bits [pos, pos + 64) of the normalized magnitude @c. */
static uint64_t window(const int64_t *c, unsigned pos)
{
	unsigned i = pos >> 5, off = pos & 31u;
	uint64_t c0 = (uint64_t)c[i];
	uint64_t c1 = i + 1 < TV_FSUM_CHUNKS ? (uint64_t)c[i + 1] : 0;
	uint64_t c2 = i + 2 < TV_FSUM_CHUNKS ? (uint64_t)c[i + 2] : 0;
	if (off == 0)
		return c0 | c1 << 32;
	return c0 >> off | c1 << (32 - off) | c2 << (64 - off);
}

static unsigned bit_length(uint64_t v)
{
	unsigned n = 0;
	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

double tv_fsum_result(const struct tv_fsum *f)
{
	if (!f->chunked)
		return f->head + f->tail;
	if (f->nonfinite)
		return NAN;
	size_t lo, hi;
	range_of(f, &lo, &hi);
	if (lo >= hi)
		return 0.0;
	size_t top = top_of(hi);
	/* a copy of the chunks in use; below them two zeros (the window of 64
	 * bits can reach them), above them zeros up to two past the top */
	int64_t c[TV_FSUM_CHUNKS];
	size_t z = lo >= 2 ? lo - 2 : 0, zend = top + 3 < TV_FSUM_CHUNKS ? top + 3 : TV_FSUM_CHUNKS;
	memset(c + z, 0, (lo - z) * sizeof *c);
	memcpy(c + lo, f->c + lo, (hi - lo) * sizeof *c);
	memset(c + hi, 0, (zend - hi) * sizeof *c);
	add_int(c, f->ints);
	normalize(c, lo, top);
	double sign = 1.0;
	if (c[top] < 0) {
		for (size_t i = lo; i <= top; i++)
			c[i] = -c[i];
		normalize(c, lo, top);
		sign = -1.0;
	}
	size_t h = top + 1;
	while (h > lo && c[h - 1] == 0)
		h--;
	if (h == lo)
		return 0.0;
	h--;
	/* the magnitude has L bits: bit L - 1 is its highest */
	unsigned L = 32u * (unsigned)h + bit_length((uint64_t)c[h]);
	if (L <= 53) {
		/* exact: at most 53 bits, the unit being the smallest subnormal */
		uint64_t v = (uint64_t)c[0] | (h >= 1 ? (uint64_t)c[1] << 32 : 0);
		return sign * ldexp((double)v, -1074);
	}
	uint64_t w;
	int sticky = 0;
	if (L <= 64) {
		uint64_t v = (uint64_t)c[0] | (h >= 1 ? (uint64_t)c[1] << 32 : 0);
		w = v << (64 - L);
	} else {
		unsigned pos = L - 64;
		w = window(c, pos);
		unsigned i = pos >> 5, off = pos & 31u;
		if (off && ((uint64_t)c[i] & ((UINT64_C(1) << off) - 1)))
			sticky = 1;
		for (size_t j = lo; j < i && !sticky; j++)
			sticky = c[j] != 0;
	}
	/* 53 bits of significand, then the 11 bits that are rounded away */
	uint64_t mant = w >> 11, rest = w & 0x7ffu;
	if (rest > 0x400u || (rest == 0x400u && (sticky || (mant & 1u))))
		mant++;
	return sign * ldexp((double)mant, (int)L - 53 - 1074);
}

double tv_fsum_array(const double *x, size_t n)
{
	struct tv_fsum f;
	tv_fsum_init(&f);
	for (size_t i = 0; i < n; i++)
		tv_fsum_add(&f, x[i]);
	return tv_fsum_result(&f);
}

/*
 * The sign of the exact sum, with a filter first: recursive summation
 * gives s with |s - S| <= g (sum |t_i|), g = (n - 1) u / (1 - (n - 1) u),
 * u = 2^-53 (Higham, "Accuracy and Stability of Numerical Algorithms",
 * 2nd ed., eq. 4.4), and the computed sum of the |t_i| is at least
 * (1 - g) times the real one.  The bound b = a n 2^-52 (a the computed sum
 * of the |t_i|; the product by n rounded, by 2^-52 exact) is then larger
 * than g (sum |t_i|) for every n < 2^20, so |s| > b decides the sign.
 * Otherwise - the terms nearly cancel, or they are so small that
 * subnormal rounding (absolute, not relative) could enter - the exact sum
 * decides.
 */
int tv_fsum_sign(const double *t, size_t n)
{
	double s = 0.0, a = 0.0;
	for (size_t i = 0; i < n; i++) {
		s += t[i];
		a += fabs(t[i]);
	}
	if (n < ((size_t)1 << 20) && isfinite(a) && a >= 0x1p-900) {
		double b = a * (double)n * 0x1p-52;
		if (s > b)
			return 1;
		if (s < -b)
			return -1;
	}
	double r = tv_fsum_array(t, n);
	return (r > 0.0) - (r < 0.0);
}

/* ------------------------------------------------------------ lazy sums */

int tv_lsum_spill(struct tv_lsum *s, struct tv_fsum_pool *pool, double x)
{
	if (pool->n == pool->cap) {
		size_t cap = pool->cap ? 2 * pool->cap : 16;
		if (cap > UINT32_MAX - 1 || cap > SIZE_MAX / sizeof *pool->f)
			return -1;
		struct tv_fsum *f = realloc(pool->f, cap * sizeof *f);
		if (f == NULL)
			return -1;
		pool->f = f;
		pool->cap = cap;
	}
	struct tv_fsum *f = &pool->f[pool->n];
	tv_fsum_init(f);
	tv_fsum_add(f, s->head);
	tv_fsum_add(f, s->tail);
	tv_fsum_add(f, x);
	s->big = (uint32_t)++pool->n;
	return 0;
}

int tv_lsum_add_lsum(struct tv_lsum *s, struct tv_fsum_pool *pool, const struct tv_lsum *t,
		     const struct tv_fsum_pool *tpool)
{
	if (t->ones && tv_lsum_add(s, pool, (double)t->ones))
		return -1;
	if (!t->big)
		return tv_lsum_add(s, pool, t->head) || tv_lsum_add(s, pool, t->tail) ? -1 : 0;
	if (!s->big && tv_lsum_spill(s, pool, 0.0))
		return -1;
	tv_fsum_add_fsum(&pool->f[s->big - 1], &tpool->f[t->big - 1]);
	return 0;
}

double tv_lsum_result(const struct tv_lsum *s, const struct tv_fsum_pool *pool)
{
	if (s->ones == 0)
		return s->big ? tv_fsum_result(&pool->f[s->big - 1]) : s->head + s->tail;
	/* the ones counted apart added to a copy of the sum */
	double ones = (double)s->ones, h = s->head, t = s->tail;
	if (!s->big && tv_twosum_step(&h, &t, ones))
		return h + t;
	struct tv_fsum f;
	if (s->big) {
		f = pool->f[s->big - 1];
	} else {
		tv_fsum_init(&f);
		tv_fsum_add(&f, s->head);
		tv_fsum_add(&f, s->tail);
	}
	tv_fsum_add(&f, ones);
	return tv_fsum_result(&f);
}

void tv_fsum_pool_clear(struct tv_fsum_pool *pool)
{
	pool->n = 0;
}

void tv_fsum_pool_free(struct tv_fsum_pool *pool)
{
	free(pool->f);
	memset(pool, 0, sizeof *pool);
}

void tv_fsum_add_times(struct tv_fsum *f, double x, uint64_t n)
{
	if (n == 0)
		return;
	double nd = (double)n, hi = x * nd;
	/* x n = hi + lo exactly when n < 2^53 and the product is finite and
	 * far from the subnormals (the error of a product is then a double);
	 * zeros, non-finite terms and the rest are added one by one (a zero or
	 * an infinity added again changes nothing) */
	if (x == 0.0 || !isfinite(x)) {
		tv_fsum_add(f, x);
		return;
	}
	if (n >= (UINT64_C(1) << 53) || !isfinite(hi) || fabs(hi) < 0x1p-900 ||
	    fabs(x) < 0x1p-900) {
		for (uint64_t i = 0; i < n; i++)
			tv_fsum_add(f, x);
		return;
	}
	tv_fsum_add(f, hi);
	tv_fsum_add(f, fma(x, nd, -hi));
}

void tv_csum_flush(struct tv_csum *c, struct tv_fsum *f)
{
	for (size_t s = 0; s < TV_CSUM_SLOTS; s++) {
		if (c->n[s] == 0)
			continue;
		double v;
		memcpy(&v, &c->bits[s], sizeof v);
		tv_fsum_add_times(f, v, c->n[s]);
		c->n[s] = 0;
	}
}
