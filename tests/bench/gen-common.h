/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gen-common - what the benchmark data generators (gen-senseval,
 * gen-annotations, gen-wsi) share: their command line "[--COUNT N] [--seed
 * S] DIR", a deterministic random number generator, permutations, groups
 * of consecutive items, and output files written through a large buffer
 * with every error checked.
 *
 * The generators' output is a pure function of N and S, so nothing here may
 * change a single random number: a change to the generator below changes
 * every data set and every benchmark figure.
 */
#ifndef GEN_COMMON_H
#define GEN_COMMON_H

#include <stdint.h>
#include <stdio.h>

/* ------------------------------------------------------------------ PRNG */

/* a xorshift64* stream; its state is never 0 */
struct gen_rng {
	uint64_t s;
};

/* splitmix64: advances *x and returns it scrambled (the seeding function) */
static inline uint64_t gen_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/*
 * The stream for (@seed, @stream, @index), seeded through three splitmix64
 * steps; a state of 0, which xorshift cannot leave, becomes @if_zero (the
 * generators picked different constants there, and keep them).
 */
void gen_rng_init(struct gen_rng *r, uint64_t seed, uint64_t stream, uint64_t index,
		  uint64_t if_zero);

static inline uint64_t gen_rng_next(struct gen_rng *r)
{
	uint64_t x = r->s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return x * UINT64_C(0x2545f4914f6cdd1d);
}

/* uniform in [0, n), 0 < n <= 2^32 (multiply-shift; the bias is negligible here) */
static inline uint32_t gen_rng_below(struct gen_rng *r, uint64_t n)
{
	return (uint32_t)(((gen_rng_next(r) >> 32) * n) >> 32);
}

/* uniform in [0, 1) */
static inline double gen_rng_unit(struct gen_rng *r)
{
	return (double)(gen_rng_next(r) >> 11) * 0x1.0p-53;
}

/* ---------------------------------------------------------- permutations */

/* a new array 0, 1, ..., n - 1 (4 bytes per item); exits 1 if out of memory */
uint32_t *gen_identity(const char *prog, uint64_t n);

/* shuffles @p[0 .. n-1] with @r (Fisher-Yates, from the last place down) */
void gen_shuffle(uint32_t *p, uint64_t n, struct gen_rng *r);

/* ---------------------------------------------------------------- groups */

/*
 * Shares @n items among @k groups in proportion to @weight[0 .. k-1], the
 * rounding rest one by one from group 0 on, and numbers them group by
 * group: group g holds @size[g] items from @first[g] on.
 */
void gen_spread(uint64_t n, const double *weight, int k, uint64_t *size, uint64_t *first);

/* the group of item @i: the last g with first[g] <= i (never an empty group) */
int gen_group_of(const uint64_t *first, int k, uint64_t i);

/* ---------------------------------------------------------- command line */

struct gen_args {
	const char *prog;          /* for messages: "gen-wsi" */
	const char *count_option;  /* "--instances" or "--items" */
	uint64_t count_min;        /* the range of that option */
	uint64_t count_max;
	void (*usage)(FILE *fp);   /* prints the usage text to @fp */
	uint64_t count;            /* N: 1000000 unless given */
	uint64_t seed;             /* S: 1 unless given */
	const char *dir;           /* DIR, created if need be */
};

/*
 * Parses "[COUNT_OPTION N] [--seed S] [--] DIR" (each option also as
 * "--name=VALUE"; -h or --help prints the usage) and creates DIR if need
 * be.  Returns only if the generator is to go on; otherwise it prints a
 * message and exits: 0 after --help, 2 on a usage error (N outside
 * COUNT_MIN .. COUNT_MAX, for one), 1 if DIR cannot be created.
 */
struct gen_args gen_parse_args(const char *prog, const char *count_option, uint64_t count_min,
			       uint64_t count_max, void (*usage)(FILE *fp), int argc, char **argv);

/* ---------------------------------------------------------------- output */

struct gen_file {
	const char *prog;
	char *path;
	FILE *fp;
};

/* creates DIR/NAME for writing, with a 256 KiB buffer; exits 1 on failure */
FILE *gen_file_open(struct gen_file *f, const char *prog, const char *dir, const char *name);

/* exits 1, naming the file, if a write to it has failed */
void gen_file_check(struct gen_file *f);

/* flushes and closes the file; exits 1, naming it, if anything failed */
void gen_file_close(struct gen_file *f);

#endif
