/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Small helpers: growable arrays and the weight syntax. */
#define _DEFAULT_SOURCE 1 /* madvise() and MADV_HUGEPAGE, where Linux has them */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tageval-util.h"

void tv_advise_huge(void *p, size_t bytes)
{
#if defined(MADV_HUGEPAGE)
	const uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t hi = ((uintptr_t)p + bytes) & ~(huge - 1);
	if (bytes >= 2 * huge && hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

int tv_grow_slow(void **buf, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return TAGEVAL_ENOMEM;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / size)
		return TAGEVAL_ENOMEM;
	void *p = realloc(*buf, ncap * size);
	if (p == NULL)
		return TAGEVAL_ENOMEM;
	*buf = p;
	*cap = ncap;
	return TAGEVAL_OK;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * weight   ::= ["+"] (digits ["." [digits]] | "." digits) [exponent]
 * exponent ::= ("e" | "E") ["+" | "-"] digits
 * The syntax is checked here, the value comes from strtod(), which must
 * consume exactly the same text and give a finite number; or, for a plain
 * decimal of at most 15 digits (no exponent), from one division: its
 * digits M < 10^15 < 2^53 and 10^f (f <= 15 < 23) are exact doubles, so
 * M / 10^f rounded once (IEEE division, in the current rounding mode, as
 * strtod rounds) is the decimal correctly rounded: strtod's double.
 */
#if defined(__FAST_MATH__)
#define TV_DECIMAL_FAST 0 /* -ffast-math may multiply by 1 / 10^f: not exact */
#elif defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define TV_DECIMAL_FAST 1
#else
#define TV_DECIMAL_FAST 0 /* excess precision would round twice */
#endif

/* The value of the digits of [@s, @end) (digits and one '.'), at most 15. */
static double plain_decimal(const char *s, const char *end, size_t nfrac)
{
	static const double pow10[16] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
					  1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	uint64_t m = 0;
	for (; s < end; s++)
		if (*s != '.')
			m = m * 10 + (uint64_t)(*s - '0');
	return (double)m / pow10[nfrac];
}

int tv_parse_weight(const char *s, double *out)
{
	/* the usual weight, up to 15 digits: exact as a double, as strtod reads it */
	uint64_t v15 = 0;
	size_t i = 0;
	for (; i < 15 && is_digit(s[i]); i++)
		v15 = v15 * 10 + (uint64_t)(s[i] - '0');
	if (i > 0 && s[i] == '\0') {
		*out = (double)v15;
		return 0;
	}
	const char *p = s;
	if (*p == '+')
		p++;
	size_t nint = 0, nfrac = 0;
	while (is_digit(*p)) {
		p++;
		nint++;
	}
	if (*p == '.') {
		p++;
		while (is_digit(*p)) {
			p++;
			nfrac++;
		}
	}
	if (nint + nfrac == 0)
		return -1;
	if (TV_DECIMAL_FAST && *p == '\0' && nint + nfrac <= 15) {
		*out = plain_decimal(*s == '+' ? s + 1 : s, p, nfrac);
		return 0;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!is_digit(*p))
			return -1;
		while (is_digit(*p))
			p++;
	}
	if (*p != '\0')
		return -1;
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	if (end != p || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	return 0;
}

int tv_split_weight(const char *tok, size_t *len, double *w)
{
	/* tokens are short: a loop here costs less than a call of strchr */
	const char *p = tok;
	while (*p != '\0' && *p != '/')
		p++;
	*w = 1.0;
	*len = (size_t)(p - tok);
	if (*p == '\0')
		return 0;
	const char *slash = p;
	if (*len == 0 || tv_parse_weight(slash + 1, w) != 0)
		return -1;
	return 1;
}

size_t tv_group_by(const void *keys, size_t stride, size_t n, size_t nkeys, uint32_t *start,
		   uint32_t *order)
{
	const char *k = keys;
	memset(start, 0, (nkeys + 1) * sizeof *start);
	for (size_t i = 0; i < n; i++) {
		uint32_t key;
		memcpy(&key, k + i * stride, sizeof key);
		if (key < nkeys)
			start[key + 1]++;
	}
	for (size_t g = 0; g < nkeys; g++)
		start[g + 1] += start[g];
	/* start[g] runs up to the end of group g, then is moved back */
	for (size_t i = 0; i < n; i++) {
		uint32_t key;
		memcpy(&key, k + i * stride, sizeof key);
		if (key < nkeys)
			order[start[key]++] = (uint32_t)i;
	}
	for (size_t g = nkeys; g > 0; g--)
		start[g] = start[g - 1];
	start[0] = 0;
	return start[nkeys];
}

char **tv_api_fields(char **small, size_t nsmall, const char *lexelt, const char *instance,
		     const char *const *tags, size_t ntags)
{
	char **field = ntags + 2 <= nsmall ? small : malloc((ntags + 2) * sizeof *field);
	if (field == NULL)
		return NULL;
	field[0] = (char *)(uintptr_t)lexelt;
	field[1] = (char *)(uintptr_t)instance;
	for (size_t i = 0; i < ntags; i++)
		field[i + 2] = (char *)(uintptr_t)tags[i];
	return field;
}

int tv_scale_weights(double *w, size_t n)
{
	double max = 0.0;
	for (size_t i = 0; i < n; i++)
		if (w[i] > max)
			max = w[i];
	if (!(max > 0.0))
		return 0;
	int e;
	frexp(max, &e); /* max = f * 2^e, 0.5 <= f < 1 */
	for (size_t i = 0; i < n; i++)
		w[i] = ldexp(w[i], -e);
	return e;
}
