/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Exactly rounded sums (lib/tageval-fsum.c, built into this test) and the
 * two findings of issue 17 they answer: weights whose sum overflows, and
 * totals that changed with the order of the lines.  Every expected value is
 * worked out in the comment beside it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tageval-fsum.h"
#include "test-common.h"

static double sum_of(const double *x, size_t n)
{
	struct tv_fsum f;
	tv_fsum_init(&f);
	for (size_t i = 0; i < n; i++)
		tv_fsum_add(&f, x[i]);
	return tv_fsum_result(&f);
}

/*
 * 0.1, 0.2 and 0.3 are the doubles
 *   0.1000000000000000055511151231257827...
 *   0.2000000000000000111022302462515654...
 *   0.2999999999999999888977697537484345...
 * whose exact sum is 0.6000000000000000055511151231257827.  The doubles
 * around it are 0.5999999999999999777955395074968691 (0.6, 2.8e-17 below)
 * and 0.6000000000000000888178419700125232 (8.3e-17 above): the sum is 0.6.
 * In floating point (0.1 + 0.2) + 0.3 = 0.6000000000000001 but
 * (0.3 + 0.2) + 0.1 = 0.6: the order changed the last digit.
 */
START_TEST(test_order)
{
	static const double v[3] = { 0.1, 0.2, 0.3 };
	static const int perm[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
					{ 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
	/* the naive sums do differ, or this test would show nothing */
	ck_assert(v[0] + v[1] + v[2] != v[2] + v[1] + v[0]);
	for (int p = 0; p < 6; p++) {
		double x[3] = { v[perm[p][0]], v[perm[p][1]], v[perm[p][2]] };
		ck_assert(sum_of(x, 3) == 0.6);
	}
}
END_TEST

START_TEST(test_exact_cases)
{
	/* 1e308 + 1e308 - 1e308: exactly 1e308 (the naive sum overflows to inf) */
	double a[3] = { 1e308, 1e308, -1e308 };
	ck_assert(sum_of(a, 3) == 1e308);
	/* 1 + 1e100 + 1 - 1e100 = 2 (the naive sum is 0) */
	double b[4] = { 1.0, 1e100, 1.0, -1e100 };
	ck_assert(sum_of(b, 4) == 2.0);
	/* the smallest subnormal twice: 2 * 2^-1074 = 2^-1073 */
	double c[2] = { 0x1p-1074, 0x1p-1074 };
	ck_assert(sum_of(c, 2) == 0x1p-1073);
	/* 1 + 2^-53 lies halfway between 1 and 1 + 2^-52: ties to even, 1 */
	double d[2] = { 1.0, 0x1p-53 };
	ck_assert(sum_of(d, 2) == 1.0);
	/* 1 + 2^-53 + 2^-106 is above the half: 1 + 2^-52 */
	double e[3] = { 0x1p-106, 1.0, 0x1p-53 };
	ck_assert(sum_of(e, 3) == 1.0 + 0x1p-52);
	/* 1 + 3 * 2^-53 = 1 + 2^-52 + 2^-53: halfway, ties to even, 1 + 2^-51 */
	double f[4] = { 0x1p-53, 1.0, 0x1p-53, 0x1p-53 };
	ck_assert(sum_of(f, 4) == 1.0 + 0x1p-51);
	/* 2^53 + 1 + 1 = 2^53 + 2 whatever the order (naively, 2^53 + 1 is 2^53) */
	double g[3] = { 0x1p53, 1.0, 1.0 };
	ck_assert(sum_of(g, 3) == 0x1p53 + 2.0);
	/* negative: -1 - 2^-60 - 2^-60 = -(1 + 2^-59), which rounds to -1 */
	double h[3] = { -0x1p-60, -1.0, -0x1p-60 };
	ck_assert(sum_of(h, 3) == -1.0);
	/* a sum that cancels to 0 is +0 */
	double k[2] = { 0.1, -0.1 };
	double z = sum_of(k, 2);
	ck_assert(z == 0.0 && !signbit(z));
	/* the largest double, and no terms at all */
	double m[1] = { 0x1.fffffffffffffp1023 };
	ck_assert(sum_of(m, 1) == 0x1.fffffffffffffp1023);
	ck_assert(sum_of(NULL, 0) == 0.0);
	/* a NaN term: NaN */
	double n[2] = { 1.0, NAN };
	ck_assert(isnan(sum_of(n, 2)));
	/* one accumulator added to another: 0.1 + 0.2 + 0.3 again */
	struct tv_fsum s, t;
	tv_fsum_init(&s);
	tv_fsum_init(&t);
	tv_fsum_add(&s, 0.1);
	tv_fsum_add(&t, 0.3);
	tv_fsum_add(&t, 0.2);
	tv_fsum_add_fsum(&s, &t);
	ck_assert(tv_fsum_result(&s) == 0.6);
	ck_assert(tv_fsum_array((const double[]){ 0.3, 0.1, 0.2 }, 3) == 0.6);
}
END_TEST

/* Scores @answers against @key (fine); *correct and *attempted. */
static void score(const char *key, const char *answers, double *correct, double *attempted)
{
	struct scored r;
	score_strings(NULL, key, answers, TAGEVAL_FINE, 0, 0, &r);
	ck_assert_int_eq(r.rc, 0);
	*correct = r.total.correct;
	*attempted = r.total.attempted;
}

/*
 * a/1e308 b/1e308: the two weights sum to 2e308, beyond the largest double;
 * normalised they are 1/2 each, so key tag a earns 0.5 of 1 attempted.
 */
START_TEST(test_overflowing_weights)
{
	double correct, attempted;
	score("w 1 a\n", "w 1 a/1e308 b/1e308\n", &correct, &attempted);
	ck_assert(correct == 0.5);
	ck_assert(attempted == 1.0);
	/* the same with the largest weights: a/1.7976931348623157e308 twice */
	score("w 1 a\n", "w 1 b/1.7976931348623157e308 a/1.7976931348623157e308\n", &correct,
	      &attempted);
	ck_assert(correct == 0.5);
	ck_assert(attempted == 1.0);
	/* and 3:1 at that scale: a earns 3/4 */
	score("w 1 a\n", "w 1 a/1.5e308 b/0.5e308\n", &correct, &attempted);
	ck_assert(correct == 0.75);
	ck_assert(attempted == 1.0);
}
END_TEST

/*
 * Three answers of weights 0.1, 0.2 and 0.3 on key tag a, in two orders:
 * correct = attempted = the exact sum 0.1 + 0.2 + 0.3 rounded once, 0.6
 * (see test_order); before, the first order gave 0.6000000000000001.
 */
START_TEST(test_scorer_order)
{
	const char *key = "w 1 a\nw 2 a\nw 3 a\n";
	double c1, a1, c2, a2;
	score(key, "w 1 a/0.1\nw 2 a/0.2\nw 3 a/0.3\n", &c1, &a1);
	score(key, "w 3 a/0.3\nw 2 a/0.2\nw 1 a/0.1\n", &c2, &a2);
	ck_assert(c1 == 0.6 && a1 == 0.6);
	ck_assert(c2 == 0.6 && a2 == 0.6);
}
END_TEST

/*
 * tv_fsum_sign: the sign of the exact sum, whether the filter decides or
 * the exact sum does.  Hand cases: 1 - 1 = 0; 10^300 + 1 - 10^300 = 1 > 0
 * (the floating sum gives 0); 1 - 1 + 2^-80 = 2^-80 > 0; 2^-950 - 2^-951
 * = 2^-951 > 0 (below the filter's range); -3 + 2 = -1 < 0.  Then random
 * lines of 8 terms (two differences of products split by fma, as the
 * supervised mapping's predicates make them; exactly cancelling, within an
 * ulp, within 2^-40, or unrelated) against the sign of the exactly rounded
 * sum.
 */
START_TEST(test_sign)
{
	const double a[] = { 1.0, -1.0 };
	ck_assert_int_eq(tv_fsum_sign(a, 2), 0);
	const double b[] = { 1e300, 1.0, -1e300 };
	ck_assert_int_eq(tv_fsum_sign(b, 3), 1);
	const double c[] = { 1.0, -1.0, 0x1p-80 };
	ck_assert_int_eq(tv_fsum_sign(c, 3), 1);
	const double d[] = { 0x1p-950, -0x1p-951 };
	ck_assert_int_eq(tv_fsum_sign(d, 2), 1);
	const double e[] = { -3.0, 2.0 };
	ck_assert_int_eq(tv_fsum_sign(e, 2), -1);
	ck_assert_int_eq(tv_fsum_sign(NULL, 0), 0);
	uint64_t x = 88172645463325252u;
	int decided[3] = { 0, 0, 0 };
	for (int k = 0; k < 200000; k++) {
		double t[8];
		for (int i = 0; i < 2; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			double p = (double)(x >> 11) * 0x1p-53 + 0.5;
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			double q = (double)(x >> 11) * 0x1p-53 + 0.5;
			/* p q - p' q' with p' q' within a few ulps of p q, or equal */
			/* equal (an exact 0), one ulp apart (only the exact sum
			 * decides), 2^-40 apart (close to the filter's bound,
			 * 2^-48 of the terms) or unrelated (the filter decides) */
			double q2 = k % 4 == 0 ? q
				    : k % 4 == 1 ? nextafter(q, (x & 1) ? 2.0 : 0.0)
				    : k % 4 == 2 ? q * (1.0 + ((x & 1) ? 0x1p-40 : -0x1p-40))
						 : (double)(x >> 12) * 0x1p-52;
			t[4 * i] = p * q;
			t[4 * i + 1] = fma(p, q, -t[4 * i]);
			t[4 * i + 2] = -(p * q2);
			t[4 * i + 3] = -fma(p, q2, -(p * q2));
		}
		double r = tv_fsum_array(t, 8);
		int want = (r > 0.0) - (r < 0.0);
		ck_assert_int_eq(tv_fsum_sign(t, 8), want);
		decided[want + 1]++;
	}
	/* the lines cover all three signs */
	ck_assert_int_gt(decided[0], 0);
	ck_assert_int_gt(decided[1], 0);
	ck_assert_int_gt(decided[2], 0);
}
END_TEST

/*
 * The two doubles a sum starts in (head + tail) and its move into the
 * chunks.  2^53 + 1 is a tie between 2^53 and 2^53 + 2 (the doubles there
 * are 2 apart), rounded to the even 2^53: head 2^53, tail 1, exact.  A
 * second 1 makes the tail 2 (exact), and the sum 2^53 + 2, a double.  With
 * 2^-60 instead, the tail 1 + 2^-60 would need 61 bits: the sum moves into
 * the chunks, and 2^53 + 1 + 2^-60, just above the tie, rounds up to
 * 2^53 + 2 (a sum in doubles alone would give 2^53).
 */
START_TEST(test_two_doubles)
{
	struct tv_fsum f;
	tv_fsum_init(&f);
	tv_fsum_add(&f, 0x1p53);
	tv_fsum_add(&f, 1.0);
	tv_fsum_add(&f, 1.0);
	ck_assert_int_eq(f.chunked, 0);
	ck_assert(tv_fsum_result(&f) == 0x1p53 + 2.0);
	tv_fsum_init(&f);
	tv_fsum_add(&f, 0x1p53);
	tv_fsum_add(&f, 1.0);
	ck_assert_int_eq(f.chunked, 0);
	ck_assert(tv_fsum_result(&f) == 0x1p53); /* the tie, to even */
	tv_fsum_add(&f, 0x1p-60);
	ck_assert_int_eq(f.chunked, 1);
	ck_assert(tv_fsum_result(&f) == 0x1p53 + 2.0);
	/* the chunks from the smallest subnormal to 2^1023: 2^-1074 + 2^1023
	 * + 1 (a tail 2^-1074 + 1 cannot be exact: into the chunks), then
	 * - 2^1023 - 1 leaves 2^-1074 */
	tv_fsum_init(&f);
	tv_fsum_add(&f, 0x1p-1074);
	tv_fsum_add(&f, 0x1p1023);
	tv_fsum_add(&f, 1.0);
	ck_assert_int_eq(f.chunked, 1);
	tv_fsum_add(&f, -0x1p1023);
	tv_fsum_add(&f, -1.0);
	ck_assert(tv_fsum_result(&f) == 0x1p-1074);
	/* a sum of two doubles added to one in the chunks, and the reverse:
	 * (2^53 + 1) + (2^53 + 1 + 2^-60) = 2^54 + 2 + 2^-60, whose doubles
	 * are 4 apart: 2^54 + 2 is a tie between 2^54 and 2^54 + 4, and the
	 * 2^-60 above it rounds up to 2^54 + 4 */
	struct tv_fsum g, h;
	tv_fsum_init(&g);
	tv_fsum_add(&g, 0x1p53);
	tv_fsum_add(&g, 1.0);
	tv_fsum_init(&h);
	tv_fsum_add(&h, 0x1p53);
	tv_fsum_add(&h, 1.0);
	tv_fsum_add(&h, 0x1p-60);
	struct tv_fsum x = g, y = h;
	tv_fsum_add_fsum(&x, &h);
	tv_fsum_add_fsum(&y, &g);
	ck_assert(tv_fsum_result(&x) == 0x1p54 + 4.0);
	ck_assert(tv_fsum_result(&y) == 0x1p54 + 4.0);
}
END_TEST

/*
 * Lazy sums: ten times the double 0.1 (0.1000000000000000055511151231257827)
 * is exactly 1.000000000000000055511151231257827, which rounds to 1 (the
 * next double is 1 + 2^-52 = 1.0000000000000002220); added in doubles the
 * ten give 0.9999999999999999.  One lazy sum counts (1 a million times:
 * 1e6, never leaving its two doubles), the other takes the tenths; both
 * added to a third, 1e6 + 1 = 1000001.
 */
START_TEST(test_lazy_sums)
{
	struct tv_fsum_pool pool;
	memset(&pool, 0, sizeof pool);
	struct tv_lsum count, tenths, both;
	memset(&count, 0, sizeof count);
	memset(&tenths, 0, sizeof tenths);
	memset(&both, 0, sizeof both);
	double naive = 0.0;
	for (int i = 0; i < 10; i++) {
		ck_assert_int_eq(tv_lsum_add(&tenths, &pool, 0.1), 0);
		naive += 0.1;
	}
	ck_assert(naive != 1.0);
	ck_assert(tv_lsum_result(&tenths, &pool) == 1.0);
	for (int i = 0; i < 1000000; i++)
		ck_assert_int_eq(tv_lsum_add(&count, &pool, 1.0), 0);
	ck_assert_int_eq(count.big, 0);
	ck_assert(tv_lsum_result(&count, &pool) == 1e6);
	ck_assert_int_eq(tv_lsum_add_lsum(&both, &pool, &count, &pool), 0);
	ck_assert_int_eq(tv_lsum_add_lsum(&both, &pool, &tenths, &pool), 0);
	ck_assert(tv_lsum_result(&both, &pool) == 1000001.0);
	/* 2^53 + 1 + 2^-60 as in test_two_doubles: moved into the pool */
	struct tv_lsum big;
	memset(&big, 0, sizeof big);
	ck_assert_int_eq(tv_lsum_add(&big, &pool, 0x1p53), 0);
	ck_assert_int_eq(tv_lsum_add(&big, &pool, 1.0), 0);
	ck_assert_int_eq(big.big, 0);
	ck_assert_int_eq(tv_lsum_add(&big, &pool, 0x1p-60), 0);
	ck_assert_uint_ne(big.big, 0);
	ck_assert(tv_lsum_result(&big, &pool) == 0x1p53 + 2.0);
	tv_fsum_pool_free(&pool);
}
END_TEST

/*
 * Counted sums (tv_csum): the same exact sum as the terms added one by one.
 * fl(1/3) = 6004799503160661 / 2^54, three of them (2^54 - 1) / 2^54 =
 * 1 - 2^-54, halfway between 1 - 2^-53 and 1: to even, 1.  A million each
 * of 1/3 and 0.1, taking turns (one slot for both: each evicts the other,
 * every term goes through tv_fsum_add_times): the bits of the plain exact
 * sum of the same terms.  Ten of 0.1: 1 (test_lazy_sums).  2^-1000 three
 * times: 3 * 2^-1000, counted but added one by one (a product that small
 * is not split exactly).  The integers 1 .. 20, more values than slots: 210.
 */
START_TEST(test_counted_sums)
{
	struct tv_fsum f, g;
	struct tv_csum c;
	memset(&c, 0, sizeof c);
	tv_fsum_init(&f);
	for (int i = 0; i < 3; i++)
		tv_csum_add(&c, &f, 1.0 / 3.0);
	tv_csum_flush(&c, &f);
	ck_assert(tv_fsum_result(&f) == 1.0);
	/* the product's rounding error kept: fl(1/3) = 6004799503160661 / 2^54,
	 * three of it (2^54 - 1) / 2^54, minus 1: -2^-54 (0 without the error
	 * term, as 3 x fl(1/3) rounds to 1) */
	tv_fsum_add(&f, -1.0);
	ck_assert(tv_fsum_result(&f) == -0x1p-54);
	/* fl(0.1) = 3602879701896397 / 2^55, ten of it (2^55 + 2) / 2^55,
	 * minus 1: 2^-54 */
	tv_fsum_init(&f);
	for (int i = 0; i < 10; i++)
		tv_csum_add(&c, &f, 0.1);
	tv_csum_flush(&c, &f);
	tv_fsum_add(&f, -1.0);
	ck_assert(tv_fsum_result(&f) == 0x1p-54);
	tv_fsum_init(&f);
	tv_fsum_init(&g);
	for (int i = 0; i < 1000000; i++) {
		tv_csum_add(&c, &f, 1.0 / 3.0);
		tv_csum_add(&c, &f, 0.1);
		tv_fsum_add(&g, 1.0 / 3.0);
		tv_fsum_add(&g, 0.1);
	}
	tv_csum_flush(&c, &f);
	ck_assert(tv_fsum_result(&f) == tv_fsum_result(&g));
	tv_fsum_init(&f);
	for (int i = 0; i < 10; i++)
		tv_csum_add(&c, &f, 0.1);
	tv_csum_flush(&c, &f);
	ck_assert(tv_fsum_result(&f) == 1.0);
	tv_fsum_init(&f);
	for (int i = 0; i < 3; i++)
		tv_csum_add(&c, &f, 0x1p-1000);
	tv_csum_flush(&c, &f);
	ck_assert(tv_fsum_result(&f) == 0x3p-1000);
	tv_fsum_init(&f);
	for (int i = 1; i <= 20; i++)
		tv_csum_add(&c, &f, (double)i);
	tv_csum_flush(&c, &f);
	ck_assert(tv_fsum_result(&f) == 210.0);
	/* flushed: empty, nothing added twice */
	tv_csum_flush(&c, &f);
	ck_assert(tv_fsum_result(&f) == 210.0);
}
END_TEST

/*
 * A lazy sum's terms equal to 1 given to tv_lsum_add_counted are counted
 * apart.  2^53 + 1 + 2^-60 as in test_lazy_sums: with the 1 counted, 2^53 +
 * 2^-60 is exact in the two doubles (no pool); read, 2^53 + 1 alone would be
 * a tie (to even: 2^53), the 2^-60 rounds it up to 2^53 + 2.  Then 0.5:
 * 2^53 + 0.5 rounds (to 2^53, error 0.5) and the tail 2^-60 + 0.5 is not a
 * double (60 bits): moved into the pool; 2^53 + 1.5 + 2^-60 is nearest to
 * 2^53 + 2 (0.5 - 2^-60 away).  A count at its limit: the next 1 goes to
 * the two doubles, 2^32 - 1 + 1 = 2^32; added to another sum, 2^32 + 2^32.
 */
START_TEST(test_lazy_ones)
{
	struct tv_fsum_pool pool;
	memset(&pool, 0, sizeof pool);
	struct tv_lsum big;
	memset(&big, 0, sizeof big);
	ck_assert_int_eq(tv_lsum_add_counted(&big, &pool, 0x1p53), 0);
	ck_assert_int_eq(tv_lsum_add_counted(&big, &pool, 1.0), 0);
	ck_assert_uint_eq(big.ones, 1);
	ck_assert_int_eq(tv_lsum_add_counted(&big, &pool, 0x1p-60), 0);
	ck_assert_uint_eq(big.big, 0);
	ck_assert(tv_lsum_result(&big, &pool) == 0x1p53 + 2.0);
	ck_assert_int_eq(tv_lsum_add_counted(&big, &pool, 0.5), 0);
	ck_assert_uint_ne(big.big, 0);
	ck_assert(tv_lsum_result(&big, &pool) == 0x1p53 + 2.0);
	struct tv_lsum full, sum;
	memset(&full, 0, sizeof full);
	memset(&sum, 0, sizeof sum);
	full.ones = UINT32_MAX;
	ck_assert_int_eq(tv_lsum_add_counted(&full, &pool, 1.0), 0);
	ck_assert_uint_eq(full.ones, UINT32_MAX);
	ck_assert(full.head == 1.0);
	ck_assert(tv_lsum_result(&full, &pool) == 0x1p32);
	ck_assert_int_eq(tv_lsum_add_lsum(&sum, &pool, &full, &pool), 0);
	ck_assert_int_eq(tv_lsum_add_lsum(&sum, &pool, &full, &pool), 0);
	ck_assert(tv_lsum_result(&sum, &pool) == 0x1p33);
	tv_fsum_pool_free(&pool);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("fsum");
	TCase *tc = tcase_create("fsum");
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_exact_cases);
	tcase_add_test(tc, test_overflowing_weights);
	tcase_add_test(tc, test_scorer_order);
	tcase_add_test(tc, test_sign);
	tcase_add_test(tc, test_two_doubles);
	tcase_add_test(tc, test_lazy_sums);
	tcase_add_test(tc, test_counted_sums);
	tcase_add_test(tc, test_lazy_ones);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
