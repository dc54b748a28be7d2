/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Errors, growable arrays, quoting and weights: the base every module of the
 * library builds on (tageval-error.c, tageval-util.c); not installed. */
#ifndef TAGEVAL_UTIL_H
#define TAGEVAL_UTIL_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tageval.h"

#if defined(__GNUC__)
#define TV_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TV_PRINTF(f, a)
#endif

/* ------------------------------------------------------------ errors */

/* Fills @err (if not NULL) and returns @code. @line 0 = no line. */
int tv_error(struct tageval_error *err, int code, const char *file, uint64_t line,
	     const char *fmt, ...) TV_PRINTF(5, 6);
int tv_nomem(struct tageval_error *err);

/*
 * Argument checks of the public functions: @p NULL returns TAGEVAL_EINVAL
 * with the message "function: NULL name" (@name as tageval.h calls it).
 * TV_NULL_RET(p, v) is for functions without an error argument.
 */
#define TV_NEED(err, p, name)                                                        \
	do {                                                                         \
		if ((p) == NULL)                                                     \
			return tv_error((err), TAGEVAL_EINVAL, "", 0, "%s: NULL %s", \
					__func__, (name));                           \
	} while (0)
#define TV_NULL_RET(p, v)         \
	do {                      \
		if ((p) == NULL)  \
			return v; \
	} while (0)

/* Quotes at most a readable prefix of a token for a message. */
void tv_quote(char *out, size_t outsize, const char *s, size_t len);

/* ------------------------------------------------------------ growable arrays */

/* Offers the 2 MiB-aligned part of the block @p of @bytes (4 MiB or more,
 * not yet touched) to the kernel as huge pages: a hint only, nothing when the
 * system has none.  For large arrays written at random (fewer TLB misses and
 * page faults). */
void tv_advise_huge(void *p, size_t bytes);

/* Ensures room for @need elements of @size bytes; returns 0 or TAGEVAL_ENOMEM. */
int tv_grow_slow(void **buf, size_t *cap, size_t need, size_t size);
static inline int tv_grow(void **buf, size_t *cap, size_t need, size_t size)
{
	return need <= *cap ? TAGEVAL_OK : tv_grow_slow(buf, cap, need, size);
}

/* The 4 or 8 bytes at @p as an integer, in the machine's byte order (any
 * alignment). */
static inline uint32_t tv_load_u32(const void *p)
{
	uint32_t x;
	memcpy(&x, p, sizeof x);
	return x;
}

static inline uint64_t tv_load_u64(const void *p)
{
	uint64_t x;
	memcpy(&x, p, sizeof x);
	return x;
}

/* ------------------------------------------------------------ ids */

/* No id: not found, not set. */
#define TV_NONE UINT32_MAX

/*
 * A stable bottom-up merge sort of the @n elements of type @T at @a, through
 * @b (room for n): runs of 1, 2, 4 ... merged from a into b, then the two
 * swapped, so that @a (a variable) ends pointing at the sorted elements,
 * the array given as a or as b.  LESS(x, y), on pointers to T, is nonzero
 * when *x goes before *y; equal elements keep their order.
 */
#define TV_MERGE_SORT(T, a, b, n, LESS)                                                      \
	do {                                                                                 \
		for (size_t w_ = 1; w_ < (n); w_ *= 2) {                                    \
			for (size_t lo_ = 0; lo_ < (n); lo_ += 2 * w_) {                    \
				size_t mid_ = lo_ + w_ < (n) ? lo_ + w_ : (n);              \
				size_t hi_ = lo_ + 2 * w_ < (n) ? lo_ + 2 * w_ : (n);       \
				size_t i_ = lo_, j_ = mid_, k_ = lo_;                       \
				while (i_ < mid_ && j_ < hi_)                               \
					(b)[k_++] = LESS(&(a)[j_], &(a)[i_]) ? (a)[j_++]    \
									      : (a)[i_++];  \
				while (i_ < mid_)                                           \
					(b)[k_++] = (a)[i_++];                              \
				while (j_ < hi_)                                            \
					(b)[k_++] = (a)[j_++];                              \
			}                                                                   \
			T *t_ = (a);                                                        \
			(a) = (b);                                                          \
			(b) = t_;                                                           \
		}                                                                           \
	} while (0)

/* ------------------------------------------------------------ fields and weights */

/*
 * The fields of a line given through the API (lexelt, instance, tags), in
 * @small when @nsmall is enough, else in a new array (the caller frees it
 * when it is not @small); NULL when out of memory.  The strings are only
 * read: the casts drop const for struct tv_line.
 */
char **tv_api_fields(char **small, size_t nsmall, const char *lexelt, const char *instance,
		     const char *const *tags, size_t ntags);

/* Parses a weight: a finite decimal number >= 0; returns 0 on success, -1 if invalid. */
int tv_parse_weight(const char *s, double *out);

/*
 * Groups the items 0 .. n-1 by their key (a stable counting sort, linear in
 * n + nkeys): the key of item i is the uint32_t at byte i * @stride of
 * @keys (a field of an array of records, or an array of keys with stride
 * 4); items whose key is nkeys or more (TV_NONE) are left out.  On return
 * the items of key g are order[start[g] .. start[g + 1]), in increasing
 * order; @start has nkeys + 1 entries and @order n, both the caller's.
 * Returns the number of items grouped.
 */
size_t tv_group_by(const void *keys, size_t stride, size_t n, size_t nkeys, uint32_t *start,
		   uint32_t *order);

/*
 * Splits a token "tag[/weight]" of a line: *len is the tag's length, *w its
 * weight (1 when it has none).  Returns 1 for a weighted token, 0 for a bare
 * one, -1 when the tag is empty or the weight is not a number >= 0 (the
 * caller says which line).
 */
int tv_split_weight(const char *tok, size_t *len, double *w);

/*
 * Scales the weights @w[0..n) of one line by the power of two of the
 * largest (exact: the ratios do not change), so that their sum cannot
 * overflow; returns the exponent e to multiply back (ldexp(sum, e)), 0
 * when every weight is 0.
 */
int tv_scale_weights(double *w, size_t n);

#endif
