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

static Suite *suite(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tcase_create("output");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_overflow_remembered);
	tcase_add_test(tc, test_first_failure_kept);
	tcase_add_test(tc, test_close_stdout_fails);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
