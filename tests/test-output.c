/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The tools' checked formatted output (tools/tools-common.c): issue 17's
 * "printf results checked (a 2 GiB field exits 1)".  glibc's printf returns
 * -1 with errno EOVERFLOW when one call's output would pass INT_MAX bytes,
 * and leaves the stream's error indicator clear, so a tool that only looks
 * at ferror(stdout) at the end exits 0 with its output cut short.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-common.h"
#include "tools-common.h"

/* A stream that counts and drops what is written to it. */
static ssize_t discard(void *cookie, const char *buf, size_t size)
{
	(void)buf;
	*(unsigned long long *)cookie += size;
	return (ssize_t)size;
}

/* INT_MAX, out of the compiler's sight (its format-overflow warning would
 * otherwise reject the calls that are meant to overflow). */
static int huge_width(void)
{
	static volatile int w = INT_MAX;
	return w;
}

static FILE *counting_stream(unsigned long long *count)
{
	cookie_io_functions_t io = { .write = discard };
	FILE *fp = fopencookie(count, "w", io);
	ck_assert_ptr_nonnull(fp);
	/* large buffer: fewer calls of discard() for the 2 GiB below */
	ck_assert_int_eq(setvbuf(fp, NULL, _IOFBF, 1 << 20), 0);
	return fp;
}

/*
 * "%*s%s" with width INT_MAX and "x": INT_MAX + 1 = 2^31 bytes of output,
 * one more than an int can count: the call fails with EOVERFLOW, the
 * stream's error indicator stays clear, and the failure is remembered
 * until asked for once.
 */
START_TEST(test_overflow_remembered)
{
	unsigned long long count = 0;
	FILE *fp = counting_stream(&count);
	ck_assert_int_eq(tools_output_error(), 0);
	ck_assert_int_eq(tools_fprintf(fp, "%d%s", 42, "!"), 3); /* "42!" */
	ck_assert_int_eq(tools_output_error(), 0);
	ck_assert_int_lt(tools_fprintf(fp, "%*s%s", huge_width(), "", "x"), 0);
	ck_assert_int_eq(ferror(fp), 0); /* what ferror() alone would miss */
	ck_assert_int_eq(tools_output_error(), EOVERFLOW);
	ck_assert_int_eq(tools_output_error(), 0); /* asked once, forgotten */
	ck_assert_int_eq(fclose(fp), 0);
}
END_TEST

/* A call that succeeds after a failed one does not hide it. */
START_TEST(test_first_failure_kept)
{
	unsigned long long count = 0;
	FILE *fp = counting_stream(&count);
	ck_assert_int_lt(tools_fprintf(fp, "%*s%s", huge_width(), "", "x"), 0);
	ck_assert_int_eq(tools_fprintf(fp, "ok\n"), 3);
	ck_assert_int_eq(tools_output_error(), EOVERFLOW);
	ck_assert_int_eq(fclose(fp), 0);
}
END_TEST

/*
 * tools_close_stdout() turns the remembered failure into the tool's write
 * error: in a child whose stdout is /dev/null, a 2^31-byte printf then
 * tools_close_stdout() returns 1 (the tools then exit 1).  Without the
 * check, fflush and fclose of /dev/null succeed and it returned 0.
 */
START_TEST(test_close_stdout_fails)
{
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(10);
		setvbuf(stdout, NULL, _IOFBF, 1 << 20);
		if (tools_printf("%*s%s", huge_width(), "", "x") >= 0)
			_exit(11);
		_exit(tools_close_stdout("test") == 1 ? 0 : 12);
	}
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/* tools_json_number() into a string. */
static const char *json_of(double v)
{
	static char buf[64];
	FILE *fp = fmemopen(buf, sizeof buf, "w");
	ck_assert_ptr_nonnull(fp);
	tools_json_number(fp, v);
	ck_assert_int_eq(fclose(fp), 0);
	return buf;
}

/* The shortest decimal that reads back to the same double (issue 19). */
START_TEST(test_json_number_shortest)
{
	/* 0.3 is the double nearest 3/10: "0.3" reads back to it, where "%.17g"
	 * wrote 0.29999999999999999 */
	ck_assert_str_eq(json_of(0.3), "0.3");
	/* 0.1 + 0.2 is one ulp above 0.3 (0.3000000000000000444...): 16 digits
	 * "0.3000000000000000" read back as 0.3, so it takes 17 */
	ck_assert_str_eq(json_of(0.1 + 0.2), "0.30000000000000004");
	ck_assert_str_eq(json_of(1e-300), "1e-300");
	ck_assert_str_eq(json_of(0.0), "0");
	ck_assert_str_eq(json_of(2.0), "2");
	ck_assert_str_eq(json_of(-17.0), "-17");
	/* 2^53 = 9007199254740992: "%.16g" gives 9.007199254740992e+15 */
	ck_assert_str_eq(json_of(9007199254740992.0), "9007199254740992");
	/* 13/16 = 0.8125 exactly; 1/3 needs all 16 digits 0.3333333333333333 */
	ck_assert_str_eq(json_of(13.0 / 16.0), "0.8125");
	ck_assert_str_eq(json_of(1.0 / 3.0), "0.3333333333333333");
	ck_assert_str_eq(json_of(NAN), "null");
	ck_assert_str_eq(json_of(INFINITY), "null");
}
END_TEST

/* Terminal columns of UTF-8 text (issue 19), decoded without the locale. */
START_TEST(test_display_width)
{
	ck_assert_int_eq(tools_display_width(""), 0);
	ck_assert_int_eq(tools_display_width("bank.n"), 6);
	/* "café" precomposed: c a f U+00E9 (2 bytes) = 4 columns, 5 bytes */
	ck_assert_int_eq(tools_display_width("caf\xc3\xa9"), 4);
	/* "café" decomposed: e + U+0301 COMBINING ACUTE ACCENT (width 0) */
	ck_assert_int_eq(tools_display_width("cafe\xcc\x81"), 4);
	/* U+6F22 U+5B57 (CJK, wide): 2 + 2 columns, 6 bytes */
	ck_assert_int_eq(tools_display_width("\xe6\xbc\xa2\xe5\xad\x97"), 4);
	/* U+FF21 FULLWIDTH LATIN CAPITAL LETTER A: 2; then "x": 1 */
	ck_assert_int_eq(tools_display_width("\xef\xbc\xa1x"), 3);
	/* U+1F600 (4 bytes, East Asian Wide): 2 */
	ck_assert_int_eq(tools_display_width("\xf0\x9f\x98\x80"), 2);
	/* U+0416 CYRILLIC ZHE (2 bytes, narrow): 1 */
	ck_assert_int_eq(tools_display_width("\xd0\x96"), 1);
	/* U+200B ZERO WIDTH SPACE: 0 */
	ck_assert_int_eq(tools_display_width("a\xe2\x80\x8b" "b"), 2);
	/* bytes that are not UTF-8 (0xff; 0xc3 cut short by "x"; the overlong
	 * 0xc0 0xaf): one column each, as they pass through: 1 + 2 + 2 */
	ck_assert_int_eq(tools_display_width("\xff"), 1);
	ck_assert_int_eq(tools_display_width("\xc3x"), 2);
	ck_assert_int_eq(tools_display_width("\xc0\xaf"), 2);
}
END_TEST

/* tools_pad() into a string. */
static const char *pad_of(const char *s, int width, int left)
{
	static char buf[64];
	FILE *fp = fmemopen(buf, sizeof buf, "w");
	ck_assert_ptr_nonnull(fp);
	if (left)
		tools_pad_left(fp, s, width);
	else
		tools_pad(fp, s, width);
	ck_assert_int_eq(fclose(fp), 0);
	return buf;
}

START_TEST(test_pad)
{
	/* "café" (4 columns) to 6: two spaces, where "%-6s" gives one (5 bytes) */
	ck_assert_str_eq(pad_of("caf\xc3\xa9", 6, 0), "caf\xc3\xa9  ");
	ck_assert_str_eq(pad_of("caf\xc3\xa9", 6, 1), "  caf\xc3\xa9");
	/* two wide characters (4 columns) to 5: one space */
	ck_assert_str_eq(pad_of("\xe6\xbc\xa2\xe5\xad\x97", 5, 0), "\xe6\xbc\xa2\xe5\xad\x97 ");
	/* wider than the cell: as it is */
	ck_assert_str_eq(pad_of("abcdef", 3, 0), "abcdef");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tcase_create("output");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_overflow_remembered);
	tcase_add_test(tc, test_first_failure_kept);
	tcase_add_test(tc, test_close_stdout_fails);
	tcase_add_test(tc, test_json_number_shortest);
	tcase_add_test(tc, test_display_width);
	tcase_add_test(tc, test_pad);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
