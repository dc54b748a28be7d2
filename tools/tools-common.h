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

/* Writes @v as a JSON number, or null when it is not finite: the shortest
 * "%.*g" (1 to 17 significant digits) that reads back as @v, so 0.3 is
 * "0.3", 0.1 + 0.2 "0.30000000000000004", 2.0 "2". */
void tools_json_number(FILE *fp, double v);

/* The same digits into @buf (at least 32 bytes) for a finite @v: CSV uses it. */
void tools_format_shortest(char *buf, size_t size, double v);

/*
 * The number of terminal columns of the UTF-8 string @s, decoded here (the
 * locale plays no part): a combining mark (Unicode categories Mn, Me) or a
 * zero-width format character takes 0, an East Asian wide or fullwidth
 * character 2, anything else -- a byte that is not part of valid UTF-8
 * included -- 1.  Text tables pad by it rather than by bytes.
 */
int tools_display_width(const char *s);

/* Writes @s then spaces up to @width columns (tools_display_width()): a
 * left-aligned cell; tools_pad_left() puts the spaces first. */
void tools_pad(FILE *fp, const char *s, int width);
void tools_pad_left(FILE *fp, const char *s, int width);

/*
 * The reasons of the null figures of one JSON object (issue 17).  A figure
 * written with tools_json_figure() or tools_json_figure_ratio() that comes
 * out null records its member name and the reason in words;
 * tools_json_undefined() then ends the object's members with
 * ,"undefined":{"member":"reason",...} -- nothing when no figure of the
 * object was null.  The strings are borrowed until then; at most
 * TOOLS_UNDEFINED_MAX null figures per object.
 */
#define TOOLS_UNDEFINED_MAX 80 /* hkappa --coefficients=all --ci: 64 */
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

/* The long options every tool has, last before the terminating entry. */
#define TOOLS_OPTIONS_HELP_VERSION \
	{ "help", no_argument, NULL, 'h' }, { "version", no_argument, NULL, 'V' }

struct option;

/*
 * A tool's command line: getopt_long over @shortopts (which starts with ':'
 * and has "hV") and @longopts (with TOOLS_OPTIONS_HELP_VERSION).  @option
 * takes each option of the tool's own (not -h, -V, nor an error), with its
 * argument or NULL, and returns 0, or -1 after printing a usage error.
 * @usage writes the --help text.  Both get @ctx.
 */
struct tools_cli {
	const char *prog;
	const char *shortopts;
	const struct option *longopts;
	int (*option)(void *ctx, int c, char *arg);
	void (*usage)(FILE *fp, const void *ctx);
	void *ctx;
};

/*
 * Runs getopt_long over @argv (opterr off) up to the operands, which start
 * at optind then.  Returns -1 to go on, or the exit status: --help or
 * --version done (0, or 1 on a write error), or a usage error printed (2:
 * the tool's own, an unknown option, a missing or an unwanted argument).
 */
int tools_getopt(const struct tools_cli *cli, int argc, char **argv);

/*
 * The operand count @n: fewer than @min prints the usage error @missing,
 * more than @max (no limit when @max < 0) "too many operands".  Returns 0,
 * or -1 after the message.
 */
int tools_check_operands(const char *prog, int n, int min, int max, const char *missing);

/*
 * The two file operands of a tool, argv[optind] and argv[optind + 1] into
 * *@first and *@second: their count checked as tools_check_operands() does
 * (@missing when fewer), then standard input as tools_check_stdin() does.
 * Returns 0, or -1 after the usage error.
 */
int tools_two_operands(const char *prog, int argc, char **argv, const char *missing,
		       const char **first, const char **second);

/* Prints "PROG: out of memory" on stderr; returns EXIT_DATA. */
int tools_out_of_memory(const char *prog);

/* The exit status of a run whose output is all written: 0, or EXIT_DATA
 * after tools_close_stdout() printed the write error. */
int tools_exit_status(const char *prog);

/*
 * Flushes and closes @fp, an output file of the tool's own: 0, or the errno
 * of the first failure (of a write, of the formatted writes since the last
 * tools_output_error(), of the flush or of the close; EIO when none is
 * known).  @fp is closed either way.
 */
int tools_close_file(FILE *fp);

/* --format: "text" sets *json to 0, "json" to 1; anything else is a usage
 * error (message printed, -1 returned). */
int tools_parse_format(const char *prog, const char *arg, int *json);

/* --pos=POS: a part of speech, not empty, without blanks or dots; 0, or
 * -1 after the usage error. */
int tools_parse_pos(const char *prog, const char *arg, const char **pos);

/* --digits=N: decimals of the text output, 0 to 17 (strtol's syntax); 0, or
 * -1 after the usage error. */
int tools_parse_digits(const char *prog, const char *arg, int *digits);

/* A whole decimal number from 0 to @max, digits only; -1 if invalid. */
int tools_parse_count(const char *s, unsigned long long max, unsigned long long *out);

/* A finite real number (C locale); -1 if invalid. */
int tools_parse_real(const char *s, double *out);

/* The significance tests' options (wsd-score --compare, wsd-report
 * --significance): --samples=N (0 to 1000000000), --seed=S (0 to
 * ULONG_MAX), --alpha=A (strictly between 0 and 1); 0, or -1 after the
 * usage error. */
int tools_parse_samples(const char *prog, const char *arg, unsigned long long *out);
int tools_parse_seed(const char *prog, const char *arg, unsigned long long *out);
int tools_parse_alpha(const char *prog, const char *arg, double *out);

/* The first line of the text output of vmeasure, fscore, bcubed, nmi, ari
 * and wsd-graded, above the column titles: the unit of their figures
 * (tageval-formats(5), UNITS). */
#define TOOLS_FRACTIONS_HEAD "scores are fractions (1 = 100 %)"

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

/* How many of @files name standard input (NULL entries skipped). */
size_t tools_stdin_count(const char *const *files, size_t n);

/*
 * The usage checks of the files a tool will read, @users of which name
 * standard input: at most one may, and standard input must then be open.
 * Prints the usage error and returns -1, or returns 0.
 */
int tools_stdin_check(const char *prog, size_t users);

/* The same checks over @files (NULL entries skipped). */
int tools_check_stdin(const char *prog, const char *const *files, size_t n);

/* The note "PROG: note: FILE: no answer lines (the system attempted nothing)". */
void tools_note_no_answers(const char *prog, const char *file);

/* The note that @ignored lines of @clusters name no instance of @gold (none
 * when @ignored is 0). */
void tools_note_ignored(const char *prog, size_t ignored, const char *clusters,
			const char *gold);

/*
 * The body of the tools that score a clustering against a gold key
 * (vmeasure, fscore, bcubed, nmi, ari): reads @gold, then @clusters, into a
 * new struct tageval_wsi; @evaluate stores its result in *@res (a tageval
 * status, @err filled on failure); @print writes the notes and the output
 * and returns 0, or -1 after a message of its own (exit status 1);
 * @free_result releases the result (also NULL).  Errors of reading and
 * evaluating are printed as tools_print_error() does.  Returns the exit
 * status: 0, or 1 on bad data, out of memory or a write error.
 */
struct tools_wsi_run {
	const char *prog, *clusters, *gold;
	int (*evaluate)(const struct tageval_wsi *wsi, const void *ctx, void **res,
			struct tageval_error *err);
	int (*print)(const struct tageval_wsi *wsi, const void *ctx, void *res);
	void (*free_result)(void *res);
	const void *ctx;
};

int tools_wsi_run(const struct tools_wsi_run *run);

/*
 * The official supervised-evaluation split files of @dir for part of speech
 * @pos (NULL: all words), as the SemEval-2010 distribution lays them out: the
 * pairs mapping.[TAG.]N.key and test.[TAG.]N.key of DIR/all, DIR/nouns or
 * DIR/verbs (for NULL, "n" and "v"; "a" and "j": DIR/adjectives) when that
 * folder exists, else of DIR itself, in the order of N.  Returns their
 * number (> 0) with *out a new array (tools_split_files_free()), or -1 after
 * the message "PROG: ..." (a folder that cannot be read, a mapping file
 * without its test file, no split files).
 */
struct tools_split_file {
	unsigned long long n;
	char *mapping, *test;
};

long tools_split_files(const char *prog, const char *dir, const char *pos,
		       struct tools_split_file **out);
void tools_split_files_free(struct tools_split_file *v, long n);

/* --splits=N|DIR of wsi-supervised and wsi-report: TOOLS_SPLITS_NUMBER with
 * *n set (1 to 1000000), TOOLS_SPLITS_DIR when @arg names a directory, or
 * -1 after the usage error. */
enum { TOOLS_SPLITS_NUMBER = 1, TOOLS_SPLITS_DIR = 2 };
int tools_parse_splits(const char *prog, const char *arg, unsigned long long *n);

#endif
