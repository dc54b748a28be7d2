/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools-common.h"

/*
 * The error of a formatted write that the stream does not remember: glibc's
 * printf returns -1 (errno EOVERFLOW) when one call's output would pass
 * INT_MAX bytes, without setting the stream's error indicator, so ferror()
 * at the end cannot see it.  tools_printf() and tools_fprintf() keep it here
 * until tools_close_stdout() (or tools_output_error()) reports and clears
 * it.  This is the tools' state, not the library's.
 */
static int output_errno;

static int checked(int r)
{
	if (r < 0 && !output_errno)
		output_errno = errno ? errno : EIO;
	return r;
}

int tools_vfprintf(FILE *fp, const char *fmt, va_list ap)
{
	errno = 0;
	return checked(vfprintf(fp, fmt, ap));
}

int tools_fprintf(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = tools_vfprintf(fp, fmt, ap);
	va_end(ap);
	return r;
}

int tools_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = tools_vfprintf(stdout, fmt, ap);
	va_end(ap);
	return r;
}

int tools_output_error(void)
{
	int e = output_errno;
	output_errno = 0;
	return e;
}

void tools_print_error(const char *prog, const struct tageval_error *err)
{
	if (err->file[0] && err->line)
		fprintf(stderr, "%s: %s:%" PRIu64 ": %s\n", prog, err->file, err->line, err->message);
	else if (err->file[0])
		fprintf(stderr, "%s: %s: %s\n", prog, err->file, err->message);
	else
		fprintf(stderr, "%s: %s\n", prog, err->message);
}

void tools_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
}

void tools_format_ratio(char *buf, size_t size, int prec, double num, double den)
{
	if (den == 0.0) {
		if (num == 0.0 || num != num)
			snprintf(buf, size, "-nan");
		else
			snprintf(buf, size, num > 0 ? "inf" : "-inf");
		return;
	}
	snprintf(buf, size, "%.*f", prec, num / den);
}

void tools_json_ratio(FILE *fp, double num, double den)
{
	if (den == 0.0)
		fputs("null", fp);
	else
		tools_json_number(fp, num / den);
}

void tools_format_shortest(char *buf, size_t size, double v)
{
	/* the first precision that reads back to @v: at most 17 tries, each a
	 * snprintf and a strtod (C locale: the tools never call setlocale) */
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (prec == 17 || strtod(buf, NULL) == v)
			break;
	}
	/* %g writes a whole number of more digits than the precision with an
	 * exponent (3300 as "3.3e+03"); below 1e17 it is written out */
	if (strchr(buf, 'e') != NULL && fabs(v) >= 1.0 && fabs(v) < 1e17 && v == floor(v))
		snprintf(buf, size, "%.0f", v);
}

void tools_json_number(FILE *fp, double v)
{
	if (isfinite(v)) {
		char buf[32];
		tools_format_shortest(buf, sizeof buf, v);
		fputs(buf, fp);
	} else {
		fputs("null", fp);
	}
}

void tools_undefined_init(struct tools_undefined *u)
{
	u->n = 0;
}

void tools_undefined_add(struct tools_undefined *u, const char *member, const char *reason)
{
	if (u->n == TOOLS_UNDEFINED_MAX)
		abort(); /* a tool's object with more null figures than foreseen */
	u->member[u->n] = member;
	u->reason[u->n] = reason;
	u->n++;
}

void tools_json_figure(FILE *fp, struct tools_undefined *u, const char *member, double v,
		       const char *reason)
{
	tools_fprintf(fp, "\"%s\":", member);
	tools_json_number(fp, v);
	if (!isfinite(v))
		tools_undefined_add(u, member, reason);
}

void tools_json_figure_ratio(FILE *fp, struct tools_undefined *u, const char *member,
			     double num, double den, const char *reason)
{
	tools_json_figure(fp, u, member, den == 0.0 ? NAN : num / den, reason);
}

void tools_json_undefined(FILE *fp, const struct tools_undefined *u)
{
	if (u->n == 0)
		return;
	fputs(",\"undefined\":{", fp);
	for (size_t i = 0; i < u->n; i++) {
		tools_fprintf(fp, "%s\"%s\":", i ? "," : "", u->member[i]);
		tools_json_string(fp, u->reason[i]);
	}
	fputc('}', fp);
}

struct width_range {
	unsigned long first, last;
};

/* The length of the UTF-8 sequence at @p (1 to 4 bytes), 0 if it is not one. */
static size_t utf8_length(const unsigned char *p)
{
	size_t n;
	unsigned long c, min;
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, min = 0x80, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, min = 0x800, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, min = 0x10000, c = p[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80) /* also stops at the terminating NUL */
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

#include "display-width-table.h"

static int in_ranges(const struct width_range *r, size_t n, unsigned long c)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c < r[mid].first)
			hi = mid;
		else if (c > r[mid].last)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

int tools_display_width(const char *s)
{
	int width = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = utf8_length(p);
		if (n == 0) {
			/* a byte that is not UTF-8 passes through text output as it
			 * is: one column, as a terminal's replacement glyph */
			width++;
			p++;
			continue;
		}
		unsigned long c = n == 1 ? p[0] : (unsigned long)(p[0] & (0x7f >> n));
		for (size_t i = 1; i < n; i++)
			c = c << 6 | (p[i] & 0x3f);
		p += n;
		if (in_ranges(width_zero, sizeof width_zero / sizeof width_zero[0], c))
			continue;
		width += in_ranges(width_two, sizeof width_two / sizeof width_two[0], c) ? 2 : 1;
	}
	return width;
}

void tools_pad(FILE *fp, const char *s, int width)
{
	fputs(s, fp);
	for (int w = tools_display_width(s); w < width; w++)
		fputc(' ', fp);
}

void tools_pad_left(FILE *fp, const char *s, int width)
{
	for (int w = tools_display_width(s); w < width; w++)
		fputc(' ', fp);
	fputs(s, fp);
}

void tools_json_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = utf8_length(p);
		if (n == 0) {
			/* JSON text is Unicode: a byte that is not UTF-8 cannot be
			 * written as it is */
			fputs("\\ufffd", fp);
			p++;
		} else if (*p == '"' || *p == '\\') {
			tools_fprintf(fp, "\\%c", *p++);
		} else if (*p < 0x20) {
			tools_fprintf(fp, "\\u%04x", *p++);
		} else {
			fwrite(p, 1, n, fp);
			p += n;
		}
	}
	fputc('"', fp);
}

int tools_close_file(FILE *fp)
{
	int failed = fflush(fp) != 0 || ferror(fp);
	int saved = errno;
	int lost = tools_output_error();
	if (lost && !failed) {
		failed = 1;
		saved = lost;
	}
	if (fclose(fp) != 0 && !failed) {
		failed = 1;
		saved = errno;
	}
	return failed ? (saved ? saved : EIO) : 0;
}

int tools_close_stdout(const char *prog)
{
	int e = tools_close_file(stdout);
	if (e) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(e));
		return 1;
	}
	return 0;
}

int tools_exit_status(const char *prog)
{
	return tools_close_stdout(prog) ? EXIT_DATA : EXIT_SUCCESS;
}

int tools_out_of_memory(const char *prog)
{
	fprintf(stderr, "%s: out of memory\n", prog);
	return EXIT_DATA;
}

int tools_option_error(const char *prog, int c, char **argv)
{
	const char *arg = argv[optind - 1];
	if (c == ':')
		tools_usage_error(prog, "option '%s' needs an argument", arg);
	else if (optopt && strncmp(arg, "--", 2) == 0 && strchr(arg, '='))
		/* a long option given a value it does not take */
		tools_usage_error(prog, "option '%.*s' does not take an argument",
				  (int)(strchr(arg, '=') - arg), arg);
	else if (optopt && strncmp(arg, "--", 2) == 0)
		tools_usage_error(prog, "unknown option '%s'", arg);
	else if (optopt)
		tools_usage_error(prog, "unknown option '-%c'", optopt);
	else
		tools_usage_error(prog, "unknown option '%s'", argv[optind - 1]);
	return EXIT_INVALID_USAGE;
}

int tools_getopt(const struct tools_cli *cli, int argc, char **argv)
{
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, cli->shortopts, cli->longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			cli->usage(stdout, cli->ctx);
			return tools_exit_status(cli->prog);
		case 'V':
			return tools_version(cli->prog);
		case ':':
		case '?':
			return tools_option_error(cli->prog, c, argv);
		default:
			if (cli->option(cli->ctx, c, optarg))
				return EXIT_INVALID_USAGE;
		}
	}
	return -1;
}

int tools_check_operands(const char *prog, int n, int min, int max, const char *missing)
{
	if (n < min) {
		tools_usage_error(prog, "%s", missing);
		return -1;
	}
	if (max >= 0 && n > max) {
		tools_usage_error(prog, "too many operands");
		return -1;
	}
	return 0;
}

int tools_two_operands(const char *prog, int argc, char **argv, const char *missing,
		       const char **first, const char **second)
{
	if (tools_check_operands(prog, argc - optind, 2, 2, missing))
		return -1;
	const char *const files[] = { argv[optind], argv[optind + 1] };
	if (tools_check_stdin(prog, files, 2))
		return -1;
	*first = files[0];
	*second = files[1];
	return 0;
}

int tools_parse_format(const char *prog, const char *arg, int *json)
{
	if (strcmp(arg, "json") == 0)
		*json = 1;
	else if (strcmp(arg, "text") == 0)
		*json = 0;
	else {
		tools_usage_error(prog, "invalid format \"%s\" (text or json)", arg);
		return -1;
	}
	return 0;
}

int tools_parse_pos(const char *prog, const char *arg, const char **pos)
{
	if (arg[0] == '\0' || strpbrk(arg, " \t.") != NULL) {
		tools_usage_error(prog, "invalid part of speech \"%s\"", arg);
		return -1;
	}
	*pos = arg;
	return 0;
}

int tools_parse_digits(const char *prog, const char *arg, int *digits)
{
	char *end;
	errno = 0;
	long d = strtol(arg, &end, 10);
	if (errno || *end || end == arg || d < 0 || d > 17) {
		tools_usage_error(prog, "invalid number of digits \"%s\" (0 to 17)", arg);
		return -1;
	}
	*digits = (int)d;
	return 0;
}

int tools_parse_count(const char *s, unsigned long long max, unsigned long long *out)
{
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

int tools_parse_real(const char *s, double *out)
{
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int tools_parse_samples(const char *prog, const char *arg, unsigned long long *out)
{
	if (tools_parse_count(arg, 1000000000, out) == 0)
		return 0;
	tools_usage_error(prog, "invalid number of samples \"%s\" (0 to 1000000000)", arg);
	return -1;
}

int tools_parse_seed(const char *prog, const char *arg, unsigned long long *out)
{
	if (tools_parse_count(arg, ULONG_MAX, out) == 0)
		return 0;
	tools_usage_error(prog, "invalid seed \"%s\" (0 to %lu)", arg, ULONG_MAX);
	return -1;
}

int tools_parse_alpha(const char *prog, const char *arg, double *out)
{
	if (tools_parse_real(arg, out) == 0 && *out > 0.0 && *out < 1.0)
		return 0;
	tools_usage_error(prog, "invalid significance level \"%s\" (between 0 and 1)", arg);
	return -1;
}

int tools_version(const char *prog)
{
	tools_printf("%s (tageval) %s\n", prog, tageval_version());
	return tools_exit_status(prog);
}

const char *tools_file_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

int tools_is_stdin(const char *path)
{
	return strcmp(path, "-") == 0 || strcmp(path, "/dev/stdin") == 0 ||
	       strcmp(path, "/dev/fd/0") == 0 || strcmp(path, "/proc/self/fd/0") == 0;
}

size_t tools_stdin_count(const char *const *files, size_t n)
{
	size_t users = 0;
	for (size_t i = 0; i < n; i++)
		users += files[i] != NULL && tools_is_stdin(files[i]);
	return users;
}

int tools_check_stdin(const char *prog, const char *const *files, size_t n)
{
	return tools_stdin_check(prog, tools_stdin_count(files, n));
}

int tools_stdin_check(const char *prog, size_t users)
{
	if (users > 1) {
		/* the second reader would find the stream the first one used up */
		tools_usage_error(prog, "only one file can be read from standard input ('-')");
		return -1;
	}
	if (users == 1 && fcntl(STDIN_FILENO, F_GETFD) == -1 && errno == EBADF) {
		/* and a file opened later would become descriptor 0 */
		tools_usage_error(prog, "standard input is closed");
		return -1;
	}
	return 0;
}

void tools_note_no_answers(const char *prog, const char *file)
{
	fprintf(stderr, "%s: note: %s: no answer lines (the system attempted nothing)\n", prog,
		tools_file_name(file));
}

void tools_note_ignored(const char *prog, size_t ignored, const char *clusters,
			const char *gold)
{
	if (ignored)
		fprintf(stderr, "%s: note: %zu line%s of %s name%s no instance of %s; ignored\n",
			prog, ignored, ignored == 1 ? "" : "s", tools_file_name(clusters),
			ignored == 1 ? "s" : "", tools_file_name(gold));
}

int tools_wsi_run(const struct tools_wsi_run *run)
{
	int status = EXIT_DATA;
	struct tageval_error err = { 0 };
	struct tageval_wsi *wsi = tageval_wsi_new();
	void *res = NULL;
	if (wsi == NULL) {
		status = tools_out_of_memory(run->prog);
		goto out;
	}
	if (tageval_wsi_read_gold(wsi, run->gold, &err) ||
	    tageval_wsi_read_clusters(wsi, run->clusters, &err) ||
	    run->evaluate(wsi, run->ctx, &res, &err)) {
		tools_print_error(run->prog, &err);
		goto out;
	}
	if (run->print(wsi, run->ctx, res) == 0)
		status = tools_exit_status(run->prog);
out:
	run->free_result(res);
	tageval_wsi_free(wsi);
	return status;
}

static int split_cmp(const void *a, const void *b)
{
	const struct tools_split_file *x = a, *y = b;
	if (x->n != y->n)
		return (x->n > y->n) - (x->n < y->n);
	/* mapping.a.1.key and mapping.b.1.key: by name, not in the folder's
	 * order (which readdir gives as it likes) */
	return strcmp(x->mapping, y->mapping);
}

/* The subfolder of DIR for a part of speech, if DIR has it. */
static const char *pos_folder(const char *pos)
{
	if (pos == NULL)
		return "all";
	if (strcmp(pos, "n") == 0)
		return "nouns";
	if (strcmp(pos, "v") == 0)
		return "verbs";
	if (strcmp(pos, "j") == 0 || strcmp(pos, "a") == 0)
		return "adjectives";
	return NULL;
}

static char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s/%s", dir, name);
	return s;
}

/*
 * The official split files of @dir for part of speech @pos: the pairs
 * mapping.[TAG.]N.key and test.[TAG.]N.key of DIR/<all|nouns|verbs> when that
 * folder exists, else of DIR, in the order of N.  Returns the count (> 0), or
 * -1 after the error message.
 */
int tools_parse_splits(const char *prog, const char *arg, unsigned long long *n)
{
	struct stat st;
	if (tools_parse_count(arg, 1000000, n) == 0) {
		if (*n < 1) {
			tools_usage_error(prog, "invalid number of splits \"%s\"", arg);
			return -1;
		}
		return TOOLS_SPLITS_NUMBER;
	}
	if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode)) {
		tools_usage_error(prog, "invalid number of splits \"%s\" (neither a number nor a "
				  "directory)", arg);
		return -1;
	}
	return TOOLS_SPLITS_DIR;
}

long tools_split_files(const char *prog, const char *dir, const char *pos, struct tools_split_file **out)
{
	const char *sub = pos_folder(pos);
	char *folder = NULL;
	struct stat st;
	if (sub) {
		folder = path_join(dir, sub);
		if (folder == NULL)
			{
			tools_out_of_memory(prog);
			return -1;
		}
		if (stat(folder, &st) != 0 || !S_ISDIR(st.st_mode)) {
			free(folder);
			folder = NULL;
		}
	}
	const char *where = folder ? folder : dir;
	DIR *d = opendir(where);
	if (d == NULL) {
		fprintf(stderr, "%s: %s: cannot open: %s\n", prog, where, strerror(errno));
		free(folder);
		return -1;
	}
	struct tools_split_file *v = NULL;
	size_t n = 0, cap = 0;
	long result = -1;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		const char *name = e->d_name;
		size_t len = strlen(name);
		if (strncmp(name, "mapping.", 8) != 0 || len < 13 ||
		    strcmp(name + len - 4, ".key") != 0)
			continue;
		/* N: the digits before ".key" */
		size_t end = len - 4, start = end;
		while (start > 8 && name[start - 1] >= '0' && name[start - 1] <= '9')
			start--;
		if (start == end || (start != 8 && name[start - 1] != '.'))
			continue;
		char num[32];
		if (end - start >= sizeof num)
			continue;
		memcpy(num, name + start, end - start);
		num[end - start] = '\0';
		unsigned long long k;
		if (tools_parse_count(num, 1000000000ull, &k))
			continue;
		char test[4096];
		if (snprintf(test, sizeof test, "test.%s", name + 8) >= (int)sizeof test)
			continue;
		char *tpath = path_join(where, test);
		if (tpath == NULL)
			goto oom;
		if (stat(tpath, &st) != 0) {
			fprintf(stderr, "%s: %s: cannot open: %s\n", prog, tpath, strerror(errno));
			free(tpath);
			goto out;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			struct tools_split_file *nv = realloc(v, cap * sizeof *v);
			if (nv == NULL) {
				free(tpath);
				goto oom;
			}
			v = nv;
		}
		v[n].n = k;
		v[n].test = tpath;
		v[n].mapping = path_join(where, name);
		if (v[n++].mapping == NULL)
			goto oom;
	}
	if (n == 0) {
		fprintf(stderr, "%s: %s: no split files (mapping.N.key and test.N.key)\n", prog,
			where);
		goto out;
	}
	qsort(v, n, sizeof *v, split_cmp);
	*out = v;
	v = NULL;
	result = (long)n;
	goto out;
oom:
	tools_out_of_memory(prog);
out:
	if (v) {
		for (size_t i = 0; i < n; i++) {
			free(v[i].mapping);
			free(v[i].test);
		}
		free(v);
	}
	closedir(d);
	free(folder);
	return result;
}

void tools_split_files_free(struct tools_split_file *v, long n)
{
	for (long i = 0; i < n; i++) {
		free(v[i].mapping);
		free(v[i].test);
	}
	free(v);
}
