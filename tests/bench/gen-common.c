/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gen-common - see gen-common.h */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gen-common.h"

/* ------------------------------------------------------------------ PRNG */

void gen_rng_init(struct gen_rng *r, uint64_t seed, uint64_t stream, uint64_t index,
		  uint64_t if_zero)
{
	uint64_t x = seed;
	x = gen_splitmix64(&x) ^ stream;
	x = gen_splitmix64(&x) ^ index;
	r->s = gen_splitmix64(&x);
	if (r->s == 0)
		r->s = if_zero;
}

/* ---------------------------------------------------------- permutations */

uint32_t *gen_identity(const char *prog, uint64_t n)
{
	uint32_t *p = malloc((size_t)n * sizeof *p);
	if (p == NULL) {
		fprintf(stderr, "%s: out of memory (%" PRIu64 " items)\n", prog, n);
		exit(1);
	}
	for (uint64_t i = 0; i < n; i++)
		p[i] = (uint32_t)i;
	return p;
}

void gen_shuffle(uint32_t *p, uint64_t n, struct gen_rng *r)
{
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = gen_rng_below(r, i + 1);
		uint32_t t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
}

/* ---------------------------------------------------------------- groups */

void gen_spread(uint64_t n, const double *weight, int k, uint64_t *size, uint64_t *first)
{
	double weight_sum = 0;
	for (int g = 0; g < k; g++)
		weight_sum += weight[g];
	uint64_t given = 0;
	for (int g = 0; g < k; g++) {
		size[g] = (uint64_t)((double)n * weight[g] / weight_sum);
		if (given + size[g] > n)
			size[g] = n - given;
		given += size[g];
	}
	for (int g = 0; given < n; g = (g + 1) % k, given++)
		size[g]++;
	uint64_t next = 0;
	for (int g = 0; g < k; g++) {
		first[g] = next;
		next += size[g];
	}
}

int gen_group_of(const uint64_t *first, int k, uint64_t i)
{
	int lo = 0, hi = k - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (first[mid] <= i)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* ---------------------------------------------------------- command line */

static int parse_u64(const char *s, uint64_t *v)
{
	if (*s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*v = (uint64_t)x;
	return 0;
}

/* prints "PROG: MESSAGE" (with 'ARG' if not NULL) and the usage; exits 2 */
static void usage_error(const struct gen_args *a, const char *message, const char *arg)
{
	if (arg != NULL)
		fprintf(stderr, "%s: %s '%s'\n", a->prog, message, arg);
	else
		fprintf(stderr, "%s: %s\n", a->prog, message);
	a->usage(stderr);
	exit(2);
}

/* "--name VALUE" or "--name=VALUE"; the value, or NULL if argv[*i] is not @name */
static const char *option_value(const struct gen_args *a, int argc, char **argv, int *i,
				const char *name)
{
	size_t len = strlen(name);
	if (strncmp(argv[*i], name, len) != 0)
		return NULL;
	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (argv[*i][len] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, "%s: %s needs a value\n", a->prog, name);
		a->usage(stderr);
		exit(2);
	}
	return argv[++*i];
}

static void parse_args(struct gen_args *a, int argc, char **argv)
{
	int options_done = 0;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *v;
		if (options_done || arg[0] != '-' || arg[1] == '\0') {
			if (a->dir != NULL)
				usage_error(a, "too many arguments", NULL);
			a->dir = arg;
		} else if (strcmp(arg, "--") == 0) {
			options_done = 1;
		} else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			a->usage(stdout);
			exit(0);
		} else if ((v = option_value(a, argc, argv, &i, a->count_option)) != NULL) {
			if (parse_u64(v, &a->count) != 0 || a->count < a->count_min ||
			    a->count > a->count_max) {
				fprintf(stderr, "%s: %s: expected %" PRIu64 " to %" PRIu64 ", got '%s'\n",
					a->prog, a->count_option, a->count_min, a->count_max, v);
				exit(2);
			}
		} else if ((v = option_value(a, argc, argv, &i, "--seed")) != NULL) {
			if (parse_u64(v, &a->seed) != 0) {
				fprintf(stderr, "%s: --seed: expected an unsigned integer, got '%s'\n",
					a->prog, v);
				exit(2);
			}
		} else {
			usage_error(a, "unknown option", arg);
		}
	}
	if (a->dir == NULL)
		usage_error(a, "missing DIR", NULL);
	if (mkdir(a->dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "%s: %s: %s\n", a->prog, a->dir, strerror(errno));
		exit(1);
	}
}

struct gen_args gen_parse_args(const char *prog, const char *count_option, uint64_t count_min,
			       uint64_t count_max, void (*usage)(FILE *fp), int argc, char **argv)
{
	struct gen_args a = {
		.prog = prog,
		.count_option = count_option,
		.count_min = count_min,
		.count_max = count_max,
		.usage = usage,
		.count = 1000000,
		.seed = 1,
		.dir = NULL,
	};
	parse_args(&a, argc, argv);
	return a;
}

/* ---------------------------------------------------------------- output */

FILE *gen_file_open(struct gen_file *f, const char *prog, const char *dir, const char *name)
{
	size_t len = strlen(dir) + 1 + strlen(name) + 1;
	f->prog = prog;
	f->path = malloc(len);
	if (f->path == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(1);
	}
	snprintf(f->path, len, "%s/%s", dir, name);
	f->fp = fopen(f->path, "w");
	if (f->fp == NULL) {
		fprintf(stderr, "%s: %s: %s\n", prog, f->path, strerror(errno));
		exit(1);
	}
	setvbuf(f->fp, NULL, _IOFBF, 1u << 18);
	return f->fp;
}

void gen_file_check(struct gen_file *f)
{
	if (ferror(f->fp))
		gen_file_close(f); /* reports the error and exits */
}

void gen_file_close(struct gen_file *f)
{
	errno = 0;
	int failed = ferror(f->fp) != 0;
	int e = errno;
	if (fflush(f->fp) != 0) {
		failed = 1;
		e = errno;
	}
	if (fclose(f->fp) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	if (failed) {
		fprintf(stderr, "%s: %s: %s\n", f->prog, f->path, strerror(e ? e : EIO));
		exit(1);
	}
	free(f->path);
	f->path = NULL;
	f->fp = NULL;
}
