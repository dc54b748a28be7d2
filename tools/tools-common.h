/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the command-line tools (not part of the library). */
#ifndef TOOLS_COMMON_H
#define TOOLS_COMMON_H

#include <stdarg.h>
#include <stdio.h>

#include "tageval.h"

#define EXIT_DATA 1
#define EXIT_INVALID_USAGE 2

/* Prints "PROG: FILE:LINE: message" (parts left out when empty) on stderr. */
void tools_print_error(const char *prog, const struct tageval_error *err);

/* Prints "PROG: message" on stderr, then "Try 'PROG --help'." */
void tools_usage_error(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Writes num/den with "%.*f" into buf, as an x86-64 glibc program computing
 * it in floating point would: 0/0 is "-nan", x/0 is "inf" or "-inf".
 */
void tools_format_ratio(char *buf, size_t size, int prec, double num, double den);

/* Writes num/den as a JSON number, or null when den is 0 or the ratio is
 * not finite (JSON has no NaN or infinity). */
void tools_json_ratio(FILE *fp, double num, double den);

/* Writes @v as a JSON number ("%.17g"), or null when it is not finite. */
void tools_json_number(FILE *fp, double v);

/*
 * The reasons of the null figures of one JSON object (issue 17).  A figure
 * written with tools_json_figure() or tools_json_figure_ratio() that comes
 * out null records its member name and the reason in words;
 * tools_json_undefined() then ends the object's members with
 * ,"undefined":{"member":"reason",...} -- nothing when no figure of the
 * object was null.  The strings are borrowed until then; at most
 * TOOLS_UNDEFINED_MAX null figures per object.
 */
#define TOOLS_UNDEFINED_MAX 16
struct tools_undefined {
	size_t n;
	const char *member[TOOLS_UNDEFINED_MAX];
	const char *reason[TOOLS_UNDEFINED_MAX];
};

void tools_undefined_init(struct tools_undefined *u);

/* Records the null member @member (written by the caller) and its reason. */
void tools_undefined_add(struct tools_undefined *u, const char *member, const char *reason);

/* Writes "member":v, v as tools_json_number() does; null records @reason. */
void tools_json_figure(FILE *fp, struct tools_undefined *u, const char *member, double v,
		       const char *reason);

/* Writes "member":num/den as tools_json_ratio() does; null records @reason. */
void tools_json_figure_ratio(FILE *fp, struct tools_undefined *u, const char *member,
			     double num, double den, const char *reason);

/* Writes ,"undefined":{...} when @u holds a null figure, nothing otherwise. */
void tools_json_undefined(FILE *fp, const struct tools_undefined *u);

/* Writes a JSON string literal; a byte that is not part of valid UTF-8 is
 * written as \ufffd (the replacement character). */
void tools_json_string(FILE *fp, const char *s);

/* Reports getopt_long's ':' (missing argument) or '?' (unknown option) as a
 * usage error; returns EXIT_INVALID_USAGE. */
int tools_option_error(const char *prog, int c, char **argv);

/* --format: "text" sets *json to 0, "json" to 1; anything else is a usage
 * error (message printed, -1 returned). */
int tools_parse_format(const char *prog, const char *arg, int *json);

/* A whole decimal number from 0 to @max, digits only; -1 if invalid. */
int tools_parse_count(const char *s, unsigned long long max, unsigned long long *out);

/* A finite real number (C locale); -1 if invalid. */
int tools_parse_real(const char *s, double *out);

/* Prints "PROG (tageval) VERSION" and closes stdout: the exit status. */
int tools_version(const char *prog);

/*
 * printf, fprintf and vfprintf whose failures are remembered: a call that
 * returns a negative value (glibc: EOVERFLOW when its output would pass
 * INT_MAX bytes, which leaves the stream's error indicator clear) makes
 * tools_close_stdout() fail.  Every formatted write of a tool's output goes
 * through these.
 */
int tools_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tools_fprintf(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int tools_vfprintf(FILE *fp, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* The errno of the first formatted write that failed since the last call
 * (0 if none), and forgets it: for files other than stdout. */
int tools_output_error(void);

/* Flushes and checks stdout, and the formatted writes above; prints
 * "PROG: write error: ..." and returns 1 on failure. */
int tools_close_stdout(const char *prog);

/* A file operand as messages name it: "<stdin>" for "-", as the library does. */
const char *tools_file_name(const char *path);

/* 1 when @path names standard input: "-", /dev/stdin, /dev/fd/0 or /proc/self/fd/0. */
int tools_is_stdin(const char *path);

/*
 * The usage checks of the files a tool will read (NULL entries skipped):
 * at most one of them may be standard input, and standard input must then
 * be open.  Prints the usage error and returns -1, or returns 0.
 */
int tools_check_stdin(const char *prog, const char *const *files, size_t n);

#endif
